//! Dice notation rolled at the table (`solum roll EXPR --journal`, the page's roll box):
//! any expression of `solum-notation` (`4d6kh3`, `2d10 + 3 [fire]`, `solum(3, vs 7)`),
//! rolled with a seed the program chooses (or faces typed in), journaled with the expression,
//! the seed or faces and every die, and re-derived by `journal verify`.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use solum_notation::NotationError;
use solum_store::CampaignStore;

use crate::expression::ExpressionError;
pub use crate::expression::{MAX_EXPRESSION, NotationOutcome, NotationView};
use crate::rolled::Rolled;
use crate::{AppError, Campaign, Dice, text};

/// The schema of the records this build writes.
///
/// 2: the per-term view is no longer journaled (re-derived from the faces for display).
pub const NOTATION_RECORD_SCHEMA: i64 = 2;

/// The most faces of a journaled roll whose per-term view is re-derived for display
/// ([`NotationRecord::with_terms`]).
pub const MAX_DISPLAY_FACES: usize = 100;

/// A roll of dice notation, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotationRecord {
    /// [`NOTATION_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The expression as typed (trimmed): what a replay parses again.
    pub expression: String,
    /// The dice: the seed or the typed faces, and every face drawn, left to right.
    pub rolled: Rolled,
    /// What the dice gave.
    #[serde(flatten)]
    pub outcome: NotationOutcome,
}

impl NotationRecord {
    /// True: a roll always holds dice (an expression of constants draws none, and its
    /// replay is as checked).
    pub fn has_dice(&self) -> bool {
        true
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        format!(
            "roll {} = {} (dice {})",
            self.outcome.canonical,
            self.outcome.total,
            crate::rolled::faces(&self.rolled.faces)
        )
    }

    /// The limits of a roll made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > NOTATION_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a notation record's",
                found: self.schema,
                known: NOTATION_RECORD_SCHEMA,
            }
            .into());
        }
        parse(&self.expression).map(drop)
    }

    /// Re-derives the roll: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<crate::Divergence> {
        use crate::Divergence;
        if let Some(newer) = Divergence::newer("notation", self.schema, NOTATION_RECORD_SCHEMA) {
            return Some(newer);
        }
        let expr = match parse(&self.expression) {
            Ok(e) => e,
            Err(e) => {
                return Some(Divergence::refused(format!(
                    "the expression cannot be read: {e}"
                )));
            }
        };
        let derived = crate::journaling::derive(&self.rolled, |d| rule(&expr, d));
        match derived {
            Err(e) => Some(Divergence::of_error(&e)),
            Ok((Err(e), _)) => Some(Divergence::refused(format!("the roll cannot be made: {e}"))),
            Ok((Ok(outcome), faces)) => {
                if let Some(d) = Divergence::faces(&self.rolled, &faces) {
                    return Some(d);
                }
                // A compact record (schema 2) keeps no terms: only what it keeps is compared.
                let outcome = if self.outcome.terms.is_null() {
                    NotationOutcome {
                        terms: serde_json::Value::Null,
                        ..outcome
                    }
                } else {
                    outcome
                };
                Divergence::fields("", &self.outcome, &outcome)
            }
        }
    }
}

impl NotationRecord {
    /// The record with its per-term view (each die, its rerolls and explosions) re-derived
    /// from the faces when the journal keeps none: what a front end shows. Unchanged when
    /// the faces do not replay (`journal verify` reports that), and for a roll of more than
    /// [`MAX_DISPLAY_FACES`] faces, whose view would weigh a hundred times its entry: a page
    /// of such entries shows their total and faces.
    pub fn with_terms(mut self) -> Self {
        if self.outcome.terms.is_null()
            && self.rolled.faces.len() <= MAX_DISPLAY_FACES
            && let Ok(expr) = parse(&self.expression)
        {
            let typed = Rolled {
                seed: None,
                typed: true,
                faces: self.rolled.faces.clone(),
            };
            if let Ok((Ok(outcome), _)) = crate::journaling::derive(&typed, |d| rule(&expr, d))
                && outcome.total == self.outcome.total
            {
                self.outcome.terms = outcome.terms;
            }
        }
        self
    }
}

/// The most faces a roll of `expr` can draw, from the tree alone (before any die), and the
/// most bytes one face can take in the journal's JSON list (its digits and a comma).
/// Generous: a term's rerolls and explosions are counted as if each could follow the other.
fn worst_faces(expr: &solum_notation::Expr) -> (u128, u128) {
    use solum_notation::ast::{ExprKind, Game};
    use solum_notation::limits::{MAX_EXPLOSIONS, MAX_REROLLS};
    match &expr.kind {
        ExprKind::Num(_) => (0, 0),
        ExprKind::Neg(e) | ExprKind::Label(e, _) => worst_faces(e),
        ExprKind::Bin(_, a, b) => add(worst_faces(a), worst_faces(b)),
        ExprKind::Call(_, args) => args.iter().map(worst_faces).fold((0, 0), add),
        ExprKind::Dice(t) => {
            let rerolls = t.reroll.map_or(0, |r| if r.once { 1 } else { MAX_REROLLS });
            let explosions = if t.explode.is_some() {
                MAX_EXPLOSIONS
            } else {
                0
            };
            let per_die = u128::from(1 + rerolls) * u128::from(1 + explosions);
            let width = t.die.faces().to_string().len() as u128 + 1;
            (u128::from(t.count) * per_die, width)
        }
        // The So1um games roll six- to twenty-sided dice: a pool, its gear reroll and a
        // Rule-of-6 chain; one exploding die type; a pool and its Second Chance; a pool.
        ExprKind::Game(g) => {
            let faces = match *g {
                Game::Solum { dice, .. } => 2 * u128::from(dice) + 64,
                Game::DieType { .. } => 400,
                Game::Sol { dice, .. } => 2 * u128::from(dice),
                Game::Una { dice, .. } => u128::from(dice),
            };
            (faces, 3)
        }
    }
}

fn add(a: (u128, u128), b: (u128, u128)) -> (u128, u128) {
    (a.0 + b.0, a.1.max(b.1))
}

/// Refuses, before any die is rolled, an expression whose journal entry could pass the
/// store's limit on an entry: refusing after the dice are seen would let a player roll
/// again until a small result.
fn check_entry_size(
    expr: &solum_notation::Expr,
    expression: &str,
    canonical: &str,
) -> Result<(), AppError> {
    let (faces, width) = worst_faces(expr);
    let faces = faces.min(solum_notation::MAX_FACES as u128);
    // The record's fixed fields, the two texts (escaped, at worst 6 bytes a character) and
    // every face.
    let worst =
        400 + 6 * (expression.chars().count() + canonical.chars().count()) as u128 + faces * width;
    let limit = solum_store::MAX_ENTRY_BYTES as u128;
    if worst > limit {
        return Err(ExpressionError::JournalLimit {
            faces,
            limit: solum_store::MAX_ENTRY_BYTES,
        }
        .into());
    }
    Ok(())
}

/// Reads an expression: trimmed, within [`MAX_EXPRESSION`], no control characters, and
/// parsed by the notation (a mistake is shown under the expression with a caret).
fn parse(raw: &str) -> Result<solum_notation::Expr, AppError> {
    let t = text("expression", raw, MAX_EXPRESSION, false).map_err(ExpressionError::from_app)?;
    solum_notation::parse(&t).map_err(|e| {
        ExpressionError::Notation {
            rendered: e.render(&t),
        }
        .into()
    })
}

/// The roll as a rule of the journal: a dice error (typed faces that do not fit) is the
/// journal's; any other failure of the roll (a division by zero) is the expression's.
fn rule(
    expr: &solum_notation::Expr,
    dice: &mut dyn DiceSource,
) -> Result<Result<NotationOutcome, String>, DiceError> {
    match solum_notation::roll(expr, dice) {
        Ok(rolled) => Ok(Ok(NotationOutcome {
            canonical: expr.to_string(),
            total: rolled.total,
            terms: serde_json::to_value(&rolled.terms).unwrap_or_default(),
        })),
        Err(NotationError::Dice(e)) => Err(e),
        Err(e) => Ok(Err(e.to_string())),
    }
}

impl<S: CampaignStore> Campaign<S> {
    /// Rolls a dice expression and journals it with its seed (or typed faces) and every
    /// die. Typed faces go each die, then its rerolls and explosions, left to right.
    pub fn roll_notation(
        &mut self,
        expression: &str,
        dice: Dice,
    ) -> Result<NotationView, AppError> {
        let expression = text("expression", expression, MAX_EXPRESSION, false)
            .map_err(ExpressionError::from_app)?;
        // The notation checks its limits before any die is drawn.
        let expr = parse(&expression)?;
        check_entry_size(&expr, &expression, &expr.to_string())?;
        let (outcome, rolled) = crate::journaling::roll(dice, |d| rule(&expr, d))?;
        let outcome = outcome.map_err(|rendered| ExpressionError::Notation { rendered })?;
        // The journal keeps the flat faces; the per-term view goes only to the caller.
        let entry = self.append_one(NotationRecord {
            schema: NOTATION_RECORD_SCHEMA,
            expression: expression.clone(),
            rolled: rolled.clone(),
            outcome: NotationOutcome {
                terms: serde_json::Value::Null,
                ..outcome.clone()
            },
        })?;
        Ok(NotationView {
            seq: Some(entry.seq),
            expression,
            outcome,
            seed: rolled.seed,
            typed: rolled.typed,
            rolled,
        })
    }
}
