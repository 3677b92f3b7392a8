//! Rolling an expression: every die kept (rerolled faces, explosions, dropped dice marked),
//! with a breakdown per term.

use serde::Serialize;
use solum_dice::{DiceError, DiceSource};

use crate::ast::{DiceTerm, Expr, ExprKind, Game, Span};
use crate::die::{self, DieRoll, Face};
use crate::error::NotationError;
use crate::exact::{arith, die_type, negate, sol_edge};
use crate::limits::{MAX_DICE, MAX_EXPLOSIONS, MAX_REROLLS};

/// The most faces one roll may draw: every die with all its explosions and rerolls. The
/// rules bound it already; this guard keeps any future term from drawing for ever.
pub const MAX_FACES: usize =
    (MAX_DICE as usize) * (1 + MAX_EXPLOSIONS as usize + MAX_REROLLS as usize);

/// One term of a roll: its text, its label, its dice and its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = notation::TermRoll))]
pub struct TermRoll {
    /// The term as the canonical notation writes it.
    pub term: String,
    /// Its label, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Where it was written.
    pub span: Span,
    /// Every die.
    pub dice: Vec<DieRoll>,
    /// What the term is worth.
    pub value: i64,
}

/// A rolled expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rolled {
    /// The value of the whole expression.
    pub total: i64,
    /// Each dice or So1um term, in the order rolled (left to right).
    pub terms: Vec<TermRoll>,
}

/// Counts the faces drawn, refusing past [`MAX_FACES`].
struct Guard<'a> {
    inner: &'a mut dyn DiceSource,
    drawn: usize,
}

impl DiceSource for Guard<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.drawn += 1;
        if self.drawn > MAX_FACES {
            return Err(DiceError::DepthLimit);
        }
        self.inner.roll(sides)
    }
}

/// Rolls `expr` with `dice`, drawing faces left to right, each die's faces in the order a
/// player rolls them (a die, its rerolls, its explosions; then the next die).
pub fn roll(expr: &Expr, dice: &mut dyn DiceSource) -> Result<Rolled, NotationError> {
    crate::validate::validate(expr)?;
    let mut guard = Guard {
        inner: dice,
        drawn: 0,
    };
    let mut terms = Vec::new();
    let total = eval(expr, &mut guard, &mut terms).map_err(|e| match e {
        NotationError::Dice(DiceError::DepthLimit) => {
            NotationError::limit(format!("the roll drew more than {MAX_FACES} faces"), None)
        }
        e => e,
    })?;
    Ok(Rolled { total, terms })
}

fn eval(
    expr: &Expr,
    dice: &mut dyn DiceSource,
    terms: &mut Vec<TermRoll>,
) -> Result<i64, NotationError> {
    let span = expr.span;
    match &expr.kind {
        ExprKind::Num(n) => Ok(*n),
        ExprKind::Dice(term) => {
            let rolled = roll_dice(term, dice)?;
            let value = rolled
                .iter()
                .filter(|d| d.kept)
                .try_fold(0i64, |acc, d| acc.checked_add(d.value))
                .ok_or_else(|| NotationError::eval("a number too large", span))?;
            terms.push(TermRoll {
                term: term.to_string(),
                label: None,
                span,
                dice: rolled,
                value,
            });
            Ok(value)
        }
        ExprKind::Neg(e) => negate(eval(e, dice, terms)?, span),
        ExprKind::Label(e, text) => {
            let from = terms.len();
            let v = eval(e, dice, terms)?;
            if terms.len() == from {
                // A labelled constant (`+ 3 [fire]`) shows in the breakdown too.
                terms.push(TermRoll {
                    term: e.to_string(),
                    label: Some(text.clone()),
                    span: e.span,
                    dice: Vec::new(),
                    value: v,
                });
            }
            for t in &mut terms[from..] {
                t.label.get_or_insert_with(|| text.clone());
            }
            Ok(v)
        }
        ExprKind::Bin(op, a, b) => {
            let a = eval(a, dice, terms)?;
            let b = eval(b, dice, terms)?;
            arith(*op, a, b, span)
        }
        ExprKind::Call(func, args) => {
            let mut acc = eval(&args[0], dice, terms)?;
            for a in &args[1..] {
                let b = eval(a, dice, terms)?;
                acc = func.apply(acc, b);
            }
            Ok(acc)
        }
        ExprKind::Game(g) => {
            let (value, rolled) = roll_game(g, dice, span)?;
            terms.push(TermRoll {
                term: g.to_string(),
                label: None,
                span,
                dice: rolled,
                value,
            });
            Ok(value)
        }
    }
}

/// Rolls the dice of a term and marks the dropped ones.
pub(crate) fn roll_dice(
    term: &DiceTerm,
    dice: &mut dyn DiceSource,
) -> Result<Vec<DieRoll>, NotationError> {
    let mut rolled = (0..term.count)
        .map(|_| die::roll(term, dice))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(keep) = term.keep {
        let (k, highest) = keep.kept(term.count);
        let mut order: Vec<usize> = (0..rolled.len()).collect();
        // Best first; among equal dice the earlier is kept.
        order.sort_by_key(|&i| {
            let a = rolled[i].amount;
            (if highest { -a } else { a }, i)
        });
        for &i in &order[k as usize..] {
            rolled[i].kept = false;
        }
    }
    Ok(rolled)
}

fn faces(values: &[u32], note: Option<&'static str>) -> Vec<Face> {
    values
        .iter()
        .map(|&v| Face {
            value: i64::from(v),
            note,
        })
        .collect()
}

fn one_die(faces: Vec<Face>, value: i64) -> Vec<DieRoll> {
    vec![DieRoll {
        faces,
        value,
        amount: value,
        kept: true,
    }]
}

/// Rolls a So1um term with its rules crate's own roll function.
fn roll_game(
    g: &Game,
    dice: &mut dyn DiceSource,
    span: Span,
) -> Result<(i64, Vec<DieRoll>), NotationError> {
    let bad = |m: String| NotationError::syntax(m, span.start, span.end);
    Ok(match *g {
        Game::Solum { dice: n, vs, gear } => {
            let pool = solum_expanded::Pool::new(u64::from(n)).map_err(|e| bad(e.to_string()))?;
            // Without a difficulty the result is wanted in full, so the chain is always
            // rolled: as against the highest difficulty.
            let difficulty = solum_expanded::Difficulty::new(i64::from(
                vs.unwrap_or(solum_expanded::MAX_DIFFICULTY),
            ))
            .map_err(|e| bad(e.to_string()))?;
            let spec = solum_expanded::check::CheckSpec::new(pool, difficulty).with_gear(gear);
            let outcome = solum_expanded::check::roll_check(&spec, dice)?;
            let value = match vs {
                Some(_) => i64::from(outcome.passed),
                None => i64::from(outcome.result),
            };
            let mut f = Vec::new();
            if let Some(r) = &outcome.roll {
                f.extend(faces(&r.dice, None));
                if let Some(re) = r.reroll {
                    f[re.index].note = Some("rerolled");
                    f.push(Face {
                        value: i64::from(re.to),
                        note: Some("gear"),
                    });
                }
                f.extend(faces(&r.chain, Some("chain")));
            }
            (value, one_die(f, value))
        }
        Game::DieType { sides } => {
            let r = solum_dietype::explode(die_type(sides), dice)?;
            let f = r
                .faces
                .iter()
                .map(|&v| Face {
                    value: i64::from(v),
                    note: (v == sides).then_some("split"),
                })
                .collect();
            let value = i64::from(r.result);
            (value, one_die(f, value))
        }
        Game::Sol { dice: n, edge } => {
            let spec = solum_sol::test::TestSpec {
                dice: n,
                threshold: None,
                edge: sol_edge(edge),
            };
            let t = solum_sol::test::roll_test(&spec, dice)?;
            let mut f = faces(&t.dice, None);
            for r in &t.rerolls {
                f[r.index].note = Some("rerolled");
                f.push(Face {
                    value: i64::from(r.to),
                    note: Some("second chance"),
                });
            }
            let value = i64::from(t.hits);
            (value, one_die(f, value))
        }
        Game::Una { dice: n, flips } => {
            let (pos, neg) = if flips >= 0 {
                (i64::from(flips), 0)
            } else {
                (0, -i64::from(flips))
            };
            let spec = solum_soluna::TestSpec::new(i64::from(n), pos, neg)
                .map_err(|e| bad(e.to_string()))?;
            let t = solum_soluna::roll_test(&spec, dice)?;
            // Each flipped die: the face rolled, then the face it was turned to.
            let mut f = Vec::new();
            for (&rolled, &now) in t.rolled.iter().zip(&t.faces) {
                f.push(Face {
                    value: i64::from(rolled),
                    note: (rolled != now).then_some("flipped"),
                });
                if rolled != now {
                    f.push(Face {
                        value: i64::from(now),
                        note: Some("flip"),
                    });
                }
            }
            let value = i64::from(t.largest);
            (value, one_die(f, value))
        }
    })
}

#[cfg(test)]
mod tests {
    use solum_dice::ScriptedDice;

    use super::*;

    #[test]
    fn dropped_dice_are_kept_and_marked() {
        let e = crate::parse("4d6dl1 + 2 [bonus]").unwrap();
        let r = roll(&e, &mut ScriptedDice::new([3, 1, 6, 3])).unwrap();
        assert_eq!(r.total, 14);
        assert_eq!(r.terms.len(), 2);
        let kept: Vec<bool> = r.terms[0].dice.iter().map(|d| d.kept).collect();
        assert_eq!(kept, [true, false, true, true]);
        assert_eq!(r.terms[1].label.as_deref(), Some("bonus"));
        // Of equal lowest dice, the later one is dropped.
        let e = crate::parse("3d6kh2").unwrap();
        let r = roll(&e, &mut ScriptedDice::new([2, 5, 2])).unwrap();
        let kept: Vec<bool> = r.terms[0].dice.iter().map(|d| d.kept).collect();
        assert_eq!(kept, [true, true, false]);
    }

    #[test]
    fn so1um_terms_roll_through_their_rules() {
        // Expanded, difficulty 8: 6 shows, the chain rolls 6 then 2 → 14, a pass.
        let e = crate::parse("solum(2, vs 8)").unwrap();
        let r = roll(&e, &mut ScriptedDice::new([3, 6, 6, 2])).unwrap();
        assert_eq!(r.total, 1);
        // Without a difficulty the value is the result: 6 + 6 + 2.
        let e = crate::parse("solum(2)").unwrap();
        let r = roll(&e, &mut ScriptedDice::new([3, 6, 6, 2])).unwrap();
        assert_eq!(r.total, 14);
        // Die types: a d4 maximum becomes two dice: 4 → 2, 3.
        let e = crate::parse("dt(d4)").unwrap();
        let r = roll(&e, &mut ScriptedDice::new([4, 2, 3])).unwrap();
        assert_eq!(r.total, 5);
        // Sol: 5 and 6 are hits.
        let e = crate::parse("sol(4)").unwrap();
        assert_eq!(
            roll(&e, &mut ScriptedDice::new([5, 6, 1, 4]))
                .unwrap()
                .total,
            2
        );
        // Sol'una: the largest group after the flips is the rules crate's own answer.
        let e = crate::parse("una(3, +1)").unwrap();
        let t = roll(&e, &mut ScriptedDice::new([2, 2, 5])).unwrap().total;
        let direct = solum_soluna::roll_test(
            &solum_soluna::TestSpec::new(3, 1, 0).unwrap(),
            &mut ScriptedDice::new([2, 2, 5]),
        )
        .unwrap()
        .largest;
        assert_eq!(t, i64::from(direct));
    }
}
