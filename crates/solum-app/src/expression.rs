//! Dice notation without a campaign: `solum roll EXPR` and `solum odds EXPR…` (and the
//! odds of `POST /api/odds`). Nothing is journaled; the views are the ones the table's
//! use cases return, so `--json` and HTTP answer the same JSON for the same inputs.
//!
//! - [`roll_expression`] rolls as [`crate::Campaign::roll_notation`] does and returns its
//!   [`NotationView`] with no journal entry (`seq` is `null`).
//! - [`expression_odds`] gives each expression's exact distribution as an
//!   [`ExpressionOdds`], the view `POST /api/odds` serializes.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use solum_dice::{DiceSource, Distribution, Prob, prob_to_f64};
use solum_notation::{Expr, NotationError, Odds, Work};

pub use crate::expression_error::{ExpressionError, Field};
use crate::rolled::Rolled;
use crate::{AppError, Dice};

/// The most values an odds answer of the web table lists ([`expression_odds`]'s `limit`):
/// past it, the likeliest ones and a summary.
pub const MAX_ODDS_VALUES: usize = 2_000;

/// The order typed faces are read in, for messages.
pub const TYPED_ORDER: &str = "each die, then its rerolls and explosions, left to right";

/// The longest expression taken, in characters (as `POST /api/odds`).
pub const MAX_EXPRESSION: usize = 200;

/// What a roll of an expression gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotationOutcome {
    /// The expression as the notation prints it.
    pub canonical: String,
    /// The value of the whole expression.
    pub total: i64,
    /// Each term with every die (faces, rerolls, explosions, dropped dice), as
    /// `solum roll --json` writes them. Not journaled since schema 2 (`null` there: the
    /// flat faces hold the dice, and [`NotationRecord::with_terms`] re-derives this view);
    /// a schema 1 record keeps the terms it was written with.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<solum_notation::TermRoll>))]
    pub terms: serde_json::Value,
}

/// A roll of dice notation, for a front end to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotationView {
    /// The journal entry; `None` for a roll journaled nowhere
    /// ([`crate::expression::roll_expression`]), which serializes as `null`.
    pub seq: Option<i64>,
    /// The expression as typed.
    pub expression: String,
    /// What the dice gave: `canonical`, `total`, `terms`.
    #[serde(flatten)]
    pub outcome: NotationOutcome,
    /// The dice.
    pub rolled: Rolled,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// True when the dice were typed in.
    pub typed: bool,
}

impl ExpressionError {
    /// An error of the app met reading or rolling an expression, as the expression's: a
    /// refusal of its text, or typed dice that did not fit.
    pub(crate) fn from_app(e: AppError) -> Self {
        match e {
            AppError::Empty(_) | AppError::TooLong { .. } | AppError::ControlCharacter(_) => {
                Self::Text {
                    problem: e.to_string(),
                }
            }
            AppError::Expression(e) => e,
            other => Self::Typed(other.into_typed_dice(Field::Typed, TYPED_ORDER)),
        }
    }
}

/// Reads an expression: trimmed, within [`MAX_EXPRESSION`], no control characters, parsed.
fn parse(raw: &str) -> Result<(String, Expr), ExpressionError> {
    let text =
        crate::text("expression", raw, MAX_EXPRESSION, false).map_err(ExpressionError::from_app)?;
    let expr = solum_notation::parse(&text).map_err(|e| ExpressionError::Notation {
        rendered: e.render(&text),
    })?;
    Ok((text, expr))
}

/// The notation's estimate of the work `text` takes, in steps, when it reads and is within
/// the limits (`None`: it is refused as fast when computed). A server asks it to decide
/// whether the work needs a turn of its own.
pub fn estimated_work(text: &str) -> Option<u128> {
    let (_, expr) = parse(text).ok()?;
    solum_notation::estimate::check(&expr).ok().map(|b| b.work)
}

/// Rolls an expression once, journaling nothing: the view [`crate::Campaign::roll_notation`]
/// returns, with `seq` `null`. Typed faces go each die, then its rerolls and explosions,
/// left to right, and must all be used.
pub fn roll_expression(expression: &str, dice: Dice) -> Result<NotationView, ExpressionError> {
    let (text, expr) = parse(expression)?;
    let rule = |d: &mut dyn DiceSource| match solum_notation::roll(&expr, d) {
        Ok(rolled) => Ok(Ok(NotationOutcome {
            canonical: expr.to_string(),
            total: rolled.total,
            terms: serde_json::to_value(&rolled.terms).unwrap_or_default(),
        })),
        Err(NotationError::Dice(e)) => Err(e),
        Err(e) => Ok(Err(e.render(&text))),
    };
    let (outcome, rolled): (_, Rolled) =
        crate::journaling::roll(dice, rule).map_err(ExpressionError::from_app)?;
    let outcome = outcome.map_err(|rendered| ExpressionError::Notation { rendered })?;
    Ok(NotationView {
        seq: None,
        expression: text,
        outcome,
        seed: rolled.seed,
        typed: rolled.typed,
        rolled,
    })
}

/// One value of an expression's exact distribution.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OddsPoint {
    /// The value.
    pub value: i64,
    /// Its chance, as the nearest `f64`.
    pub p: f64,
    /// Its chance exactly, a reduced fraction (`"1/8"`).
    pub exact: String,
}

/// The exact distribution of a dice expression: `POST /api/odds` and `solum odds --json`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExpressionOdds {
    /// The expression as the notation prints it.
    pub expression: String,
    /// Every value with its chance, by value; past the limit asked only that many, the
    /// likeliest (`truncated`).
    pub outcomes: Vec<OddsPoint>,
    /// How many different values the expression can take.
    pub values: usize,
    /// True when `outcomes` leaves values out.
    pub truncated: bool,
    /// The chance of the values shown.
    pub shown: f64,
    /// The mean of the kept outcomes.
    pub mean: f64,
    /// Their standard deviation.
    pub sd: f64,
    /// The mass an explosion's truncation leaves out.
    pub neglected: f64,
    /// The distribution, for a table in text (not serialized).
    #[serde(skip)]
    dist: Distribution,
    /// Its weights read once, when a table is first asked for: `--json` never pays for them.
    #[serde(skip)]
    odds: OnceLock<Odds>,
}

/// A chance as a front end shows it: the nearest `f64`, and whether it is exactly 0 or 1
/// (so that a chance merely close to either is never shown as one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chance {
    /// The chance, as the nearest `f64`.
    pub p: f64,
    /// Exactly 0.
    pub impossible: bool,
    /// Exactly 1.
    pub certain: bool,
}

impl From<&Prob> for Chance {
    fn from(p: &Prob) -> Self {
        Self {
            p: prob_to_f64(p),
            impossible: *p.numer() == 0.into(),
            certain: p.numer() == p.denom(),
        }
    }
}

/// One row of an odds table: a value and its chances, each known exactly 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OddsRow {
    /// The value.
    pub value: i64,
    /// P(exactly this value), as the nearest `f64`.
    pub p: f64,
    /// P(exactly this value).
    pub eq: Chance,
    /// P(at least this value), among the kept outcomes.
    pub at_least: Chance,
    /// P(at most this value).
    pub at_most: Chance,
}

/// The percentiles a table shows, by their name.
pub const PERCENTILES: [(f64, &str); 5] = [
    (0.05, "5"),
    (0.25, "25"),
    (0.5, "50"),
    (0.75, "75"),
    (0.95, "95"),
];

impl ExpressionOdds {
    fn odds(&self) -> &Odds {
        self.odds.get_or_init(|| Odds::new(&self.dist))
    }

    /// The exact mean in decimal with `places` digits (exact where `mean` is not: values
    /// past 2^53).
    pub fn mean_text(&self, places: u32) -> String {
        self.odds().mean_text(places)
    }

    /// Every value's chances, ascending.
    pub fn rows(&self) -> Vec<OddsRow> {
        self.odds()
            .rows()
            .into_iter()
            .map(|r| OddsRow {
                value: r.value,
                p: r.p,
                eq: Chance::from(&r.eq),
                at_least: Chance::from(&r.at_least),
                at_most: Chance::from(&r.at_most),
            })
            .collect()
    }

    /// Every value with its chance as the nearest `f64`, ascending (all of them, whatever
    /// `outcomes` keeps).
    pub fn points(&self) -> Vec<(i64, f64)> {
        self.odds().points().collect()
    }

    /// The [`PERCENTILES`]: the smallest value whose cumulative chance reaches each.
    pub fn percentiles(&self) -> Vec<(&'static str, i64)> {
        PERCENTILES
            .iter()
            .map(|&(q, name)| (name, self.odds().percentile(q)))
            .collect()
    }

    /// True when some mass is left out (the Rule of 6 and die-type chains never end).
    pub fn has_tail(&self) -> bool {
        self.odds().has_tail()
    }
}

/// The exact odds of each expression, all parsed before any is computed and within one
/// budget of work (the notation's limits: [docs/notation.md]), each listing at most `limit`
/// values (the likeliest, by value; the web table passes [`MAX_ODDS_VALUES`]).
pub fn expression_odds(
    expressions: &[&str],
    limit: usize,
) -> Result<Vec<ExpressionOdds>, ExpressionError> {
    let parsed = expressions
        .iter()
        .map(|raw| parse(raw))
        .collect::<Result<Vec<_>, _>>()?;
    let mut work = Work::new();
    let mut all = Vec::with_capacity(parsed.len());
    for (text, expr) in parsed {
        let d = solum_notation::distribution_with(&expr, &mut work).map_err(|e| {
            ExpressionError::Notation {
                rendered: e.render(&text),
            }
        })?;
        let outcomes = d.outcomes();
        let values = outcomes.len();
        let mut shown: Vec<_> = outcomes
            .iter()
            .map(|(value, p)| (*value, p, prob_to_f64(p)))
            .collect();
        if values > limit {
            // The likeliest values, then back in order of value.
            shown.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
            shown.truncate(limit);
            shown.sort_by_key(|o| o.0);
        }
        all.push(ExpressionOdds {
            expression: expr.to_string(),
            values,
            truncated: values > shown.len(),
            shown: shown.iter().map(|o| o.2).sum(),
            outcomes: shown
                .into_iter()
                .map(|(value, p, f)| OddsPoint {
                    value,
                    p: f,
                    exact: p.to_string(),
                })
                .collect(),
            mean: d.mean(),
            sd: d.std_dev(),
            neglected: prob_to_f64(&d.neglected()),
            dist: d,
            odds: OnceLock::new(),
        });
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typed_dice::TypedDiceError;

    #[test]
    fn three_d6_odds_are_the_counted_ones() {
        let [odds] =
            <[ExpressionOdds; 1]>::try_from(expression_odds(&["3d6"], 2_000).unwrap()).unwrap();
        assert_eq!(odds.values, 16);
        assert!(!odds.truncated);
        // 27 of the 216 ways make 10: 1/8.
        let ten = odds.outcomes.iter().find(|o| o.value == 10).unwrap();
        assert_eq!(ten.exact, "1/8");
        assert!((odds.mean - 10.5).abs() < 1e-12);
        assert_eq!(odds.mean_text(2), "10.50");
        assert_eq!(odds.percentiles()[2], ("50", 10));
        assert!(!odds.has_tail());
        // 3 and 18: one way each.
        let rows = odds.rows();
        let (first, last) = (rows.first().unwrap(), rows.last().unwrap());
        assert_eq!((first.value, last.value), (3, 18));
        assert!((first.eq.p - 1.0 / 216.0).abs() < 1e-15);
        assert!((last.at_least.p - 1.0 / 216.0).abs() < 1e-15);
        // Every roll is at least 3 and at most 18: exactly certain, not merely close.
        assert!(first.at_least.certain && last.at_most.certain);
        assert!(!first.eq.certain && !first.eq.impossible);
    }

    #[test]
    fn a_limit_keeps_the_likeliest_values_in_order() {
        let all = expression_odds(&["2d6"], 3).unwrap();
        let values: Vec<i64> = all[0].outcomes.iter().map(|o| o.value).collect();
        // 7 (6/36), then 6 and 8 (5/36 each).
        assert_eq!(values, [6, 7, 8]);
        assert!(all[0].truncated);
        assert!((all[0].shown - 16.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn every_expression_is_read_before_any_is_computed() {
        let e = expression_odds(&["3d6", "3d"], 10).unwrap_err();
        assert_eq!(e.code(), "expression-notation");
        assert_eq!(
            expression_odds(&["  "], 10).unwrap_err().code(),
            "expression-text"
        );
        let long = "1+".repeat(150) + "1";
        assert_eq!(
            expression_odds(&[&long], 10).unwrap_err().field(),
            Some(Field::Expression)
        );
    }

    #[test]
    fn a_roll_reads_typed_faces_in_order_and_journals_nothing() {
        // 1 rerolled, 1 rerolled, 6 explodes, 6 explodes, 3: 15.
        let v = roll_expression("d6r1!", Dice::Typed(vec![1, 1, 6, 6, 3])).unwrap();
        assert_eq!(v.outcome.total, 15);
        assert_eq!(v.seq, None);
        assert_eq!(v.rolled.faces, [1, 1, 6, 6, 3]);
        assert!(v.typed);
        let too_few = roll_expression("3d6", Dice::Typed(vec![1, 2])).unwrap_err();
        assert_eq!(
            too_few,
            ExpressionError::Typed(TypedDiceError::TooFew {
                field: Field::Typed,
                given: 2,
                order: TYPED_ORDER.to_owned()
            })
        );
        assert!(
            too_few
                .describe("--rolled")
                .starts_with("too few values in --rolled")
        );
        assert_eq!(
            roll_expression("3d6", Dice::Typed(vec![1, 2, 3, 4])).unwrap_err(),
            ExpressionError::Typed(TypedDiceError::TooMany {
                field: Field::Typed,
                given: 4,
                used: 3,
                why: Vec::new(),
                order: TYPED_ORDER.to_owned()
            })
        );
        assert_eq!(
            roll_expression("d6", Dice::Typed(vec![7])).unwrap_err(),
            ExpressionError::Typed(TypedDiceError::NotAFace {
                field: Field::Typed,
                value: 7,
                position: 1,
                sides: 6
            })
        );
    }

    #[test]
    fn a_seeded_roll_is_the_journaled_one() {
        let once = roll_expression("4d6kh3", Dice::Seed(7)).unwrap();
        let again = roll_expression("4d6kh3", Dice::Seed(7)).unwrap();
        assert_eq!(once, again);
        assert_eq!(once.seed, Some(7));
        let mut faces = once.rolled.faces.clone();
        faces.sort_unstable();
        let kept: u32 = faces[1..].iter().sum();
        assert_eq!(once.outcome.total, i64::from(kept));
    }
}
