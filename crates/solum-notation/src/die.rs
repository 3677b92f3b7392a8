//! One die of a dice term, defined once as a small state machine ([`step`]): the roll runs
//! it on faces from a dice source, the exact odds run it on every face with its chance.
//!
//! A die's first face may be rerolled (`r` while it matches, `ro` once); the face it keeps
//! may explode (`!`, `!!`, `!p`), and so may each extra face, at most
//! [`MAX_EXPLOSIONS`] times.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use serde::Serialize;
use solum_dice::{DiceSource, Distribution};

use crate::ast::{DiceTerm, Die, ExplodeKind};
use crate::error::NotationError;
use crate::limits::{MAX_EXPLOSIONS, MAX_REROLLS};
use crate::validate::explodes_on;

/// Where a die is in its process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct State {
    /// The first face was rerolled at least once.
    rerolled: bool,
    /// Extra faces added by explosions so far (0: still on the first face).
    explosions: u32,
}

impl State {
    pub(crate) const START: Self = Self {
        rerolled: false,
        explosions: 0,
    };
}

/// What happens after a face shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The face is discarded and the die rolled again.
    Reroll,
    /// The face counts and another face is rolled for the same die.
    Explode,
    /// The face counts and the die is done.
    Stop,
}

/// The rule of one die: what a face `value` does in state `st`, and the next state.
pub(crate) fn step(term: &DiceTerm, st: State, value: i64) -> (Step, State) {
    if st.explosions == 0
        && let Some(r) = term.reroll
        && r.when.matches(value)
        && !(r.once && st.rerolled)
    {
        return (
            Step::Reroll,
            State {
                rerolled: true,
                ..st
            },
        );
    }
    if explodes_on(term, value) && st.explosions < MAX_EXPLOSIONS {
        return (
            Step::Explode,
            State {
                explosions: st.explosions + 1,
                ..st
            },
        );
    }
    (Step::Stop, st)
}

/// Whether a die's explosions are counted one by one (`!` with a success count), so the
/// die's score sums the faces' scores rather than scoring its total.
pub(crate) fn scores_each_face(term: &DiceTerm) -> bool {
    term.success.is_some() && term.explode.is_some_and(|e| e.kind == ExplodeKind::Explode)
}

/// A success count's score of one value: +1 a success, −1 a failure.
pub(crate) fn score(term: &DiceTerm, value: i64) -> i64 {
    match term.success {
        None => value,
        Some(s) => {
            i64::from(s.matches(value)) - i64::from(term.failure.is_some_and(|f| f.matches(value)))
        }
    }
}

/// Adds a counted face to a die's running amount: its value (an extra face of a
/// penetrating die counts one less), or its score when faces are scored one by one.
pub(crate) fn accumulate(term: &DiceTerm, st: State, acc: i64, value: i64) -> i64 {
    if scores_each_face(term) {
        return acc + score(term, value);
    }
    let penetrating = term
        .explode
        .is_some_and(|e| e.kind == ExplodeKind::Penetrate);
    acc + value - i64::from(penetrating && st.explosions > 0)
}

/// What a die's running amount is worth in the pool's total.
pub(crate) fn finish(term: &DiceTerm, acc: i64) -> i64 {
    if scores_each_face(term) {
        acc
    } else {
        score(term, acc)
    }
}

/// One face as it was rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = notation::Face))]
pub struct Face {
    /// The value shown.
    pub value: i64,
    /// `rerolled` (discarded), `explosion` (an extra face), `chain` (the Rule of 6),
    /// `split` (a die-type maximum, not counted), or none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// One die as it was rolled: every face, what it is worth, and whether it was kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = notation::DieRoll))]
pub struct DieRoll {
    /// Every face, discarded ones included.
    pub faces: Vec<Face>,
    /// The die's value: its counted faces summed (or its score with successes).
    pub value: i64,
    /// The die's amount before scoring, which keep and drop compare.
    #[serde(skip)]
    pub amount: i64,
    /// False for a die dropped by keep or drop.
    pub kept: bool,
}

/// Rolls one die of `term`.
pub(crate) fn roll(term: &DiceTerm, dice: &mut dyn DiceSource) -> Result<DieRoll, NotationError> {
    let mut st = State::START;
    let mut faces = Vec::new();
    let mut acc = 0i64;
    let mut rerolls = 0u32;
    loop {
        let value = term.die.value(dice.roll(term.die.faces())?);
        let (what, next) = step(term, st, value);
        match what {
            Step::Reroll => {
                rerolls += 1;
                faces.push(Face {
                    value,
                    note: Some("rerolled"),
                });
                if rerolls > MAX_REROLLS {
                    return Err(NotationError::limit(
                        format!("a die was rerolled more than {MAX_REROLLS} times"),
                        None,
                    ));
                }
            }
            Step::Explode | Step::Stop => {
                acc = accumulate(term, st, acc, value);
                faces.push(Face {
                    value,
                    note: (st.explosions > 0).then_some("explosion"),
                });
            }
        }
        st = next;
        if what == Step::Stop {
            return Ok(DieRoll {
                faces,
                value: finish(term, acc),
                amount: acc,
                kept: true,
            });
        }
    }
}

/// The exact distribution of one die's amount (before scoring; see [`finish`]), as the
/// engine's integer weights. A die that explodes on its highest face and counts its total
/// is the engine's own [`Distribution::explode`]; any other die runs [`step`] on every face. A
/// face that leads back to the same state (a reroll `r` while it matches) is a loop: the
/// other faces share its chance.
pub(crate) fn amounts(
    term: &DiceTerm,
    work: &mut crate::exact::Work,
) -> Result<Distribution, NotationError> {
    let n = term.die.faces();
    if let Some(kind) = term.explode.map(|e| e.kind)
        && kind != ExplodeKind::Penetrate
        && term.reroll.is_none()
        && !scores_each_face(term)
        && matches!(term.die, Die::Sides(_))
        && (1..=n).all(|f| explodes_on(term, i64::from(f)) == (f == n))
    {
        work.spend(u64::from(n) * u64::from(MAX_EXPLOSIONS + 1))?;
        return Ok(Distribution::die(n).explode(MAX_EXPLOSIONS));
    }
    // Every state is reached by one path only (a reroll, then explosions), so the weights
    // of a state share one denominator: the product of its path's shares.
    let mut frontier: BTreeMap<(u32, bool), (BigUint, BTreeMap<i64, BigUint>)> = BTreeMap::new();
    frontier.insert(
        (0, false),
        (BigUint::one(), BTreeMap::from([(0, BigUint::one())])),
    );
    // Stopped amounts, by denominator.
    let mut out: BTreeMap<BigUint, BTreeMap<i64, BigUint>> = BTreeMap::new();
    while let Some(((explosions, rerolled), (den, accs))) = frontier.pop_first() {
        let st = State {
            rerolled,
            explosions,
        };
        let moves: Vec<(i64, Step, State)> = (1..=n)
            .map(|f| {
                let v = term.die.value(f);
                let (s, next) = step(term, st, v);
                (v, s, next)
            })
            .collect();
        let loops = moves
            .iter()
            .filter(|(_, s, next)| *s == Step::Reroll && *next == st)
            .count() as u32;
        let den = den * (n - loops);
        for (acc, w) in accs {
            for &(v, s, next) in &moves {
                work.spend(1)?;
                let (key, a) = match s {
                    Step::Reroll if next == st => continue,
                    Step::Reroll => (Some(next), acc),
                    Step::Explode => (Some(next), accumulate(term, st, acc, v)),
                    Step::Stop => (None, accumulate(term, st, acc, v)),
                };
                let map = match key {
                    Some(next) => {
                        let entry = frontier
                            .entry((next.explosions, next.rerolled))
                            .or_insert_with(|| (den.clone(), BTreeMap::new()));
                        debug_assert_eq!(entry.0, den, "one path to each state");
                        &mut entry.1
                    }
                    None => out.entry(den.clone()).or_default(),
                };
                *map.entry(a).or_insert_with(BigUint::zero) += &w;
            }
        }
    }
    let den = out.keys().fold(BigUint::one(), |l, d| l.lcm(d));
    let mut total: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (d, map) in out {
        let factor = &den / d;
        for (a, w) in map {
            *total.entry(a).or_insert_with(BigUint::zero) += w * &factor;
        }
    }
    let pairs: Vec<(i64, BigUint)> = total.into_iter().filter(|(_, w)| !w.is_zero()).collect();
    Ok(crate::exact::from_big_pairs(&pairs, den))
}

#[cfg(test)]
mod tests {
    use solum_dice::ScriptedDice;

    use super::*;
    use crate::ast::ExprKind;

    fn term(text: &str) -> DiceTerm {
        match crate::parse(text).unwrap().kind {
            ExprKind::Dice(t) => t,
            other => panic!("{other:?}"),
        }
    }

    fn notes(d: &DieRoll) -> Vec<(i64, Option<&'static str>)> {
        d.faces.iter().map(|f| (f.value, f.note)).collect()
    }

    #[test]
    fn reroll_then_explode_in_the_order_rolled() {
        // A 1 is rerolled (until), then 6 explodes, 6 explodes, 2 stops: 6 + 6 + 2.
        let d = roll(&term("d6r1!"), &mut ScriptedDice::new([1, 1, 6, 6, 2])).unwrap();
        assert_eq!(
            notes(&d),
            [
                (1, Some("rerolled")),
                (1, Some("rerolled")),
                (6, None),
                (6, Some("explosion")),
                (2, Some("explosion")),
            ]
        );
        assert_eq!(d.value, 14);
        // Once only: the second 1 stays.
        let d = roll(&term("d6ro1"), &mut ScriptedDice::new([1, 1])).unwrap();
        assert_eq!(d.value, 1);
        // Explosion faces are never rerolled.
        let d = roll(&term("d6r1!"), &mut ScriptedDice::new([6, 1])).unwrap();
        assert_eq!(d.value, 7);
    }

    #[test]
    fn penetrating_and_counted_faces() {
        // Penetrating: the explosion is judged on the 6 as rolled, then counts one less.
        let d = roll(&term("d6!p"), &mut ScriptedDice::new([6, 6, 3])).unwrap();
        assert_eq!(d.value, 6 + 5 + 2);
        // `!` with successes: each face counts on its own (6, 6, 3: two successes). The
        // comparison right after `!` is its point, so the point is written first.
        let d = roll(&term("d6!6>=5"), &mut ScriptedDice::new([6, 6, 3])).unwrap();
        assert_eq!(d.value, 2);
        let d = roll(&term("d6!>=5"), &mut ScriptedDice::new([6, 5, 3])).unwrap();
        assert_eq!(d.value, 14, "`!>=5` explodes on 5 and 6");
        // `!!` with successes: the die's total (15) is one success.
        let d = roll(&term("d6!!6>=5"), &mut ScriptedDice::new([6, 6, 3])).unwrap();
        assert_eq!(d.value, 1);
        // Failures take one away.
        let d = roll(&term("d10>=7f1"), &mut ScriptedDice::new([1])).unwrap();
        assert_eq!(d.value, -1);
    }

    #[test]
    fn explosions_stop_after_the_limit() {
        let script = vec![6; MAX_EXPLOSIONS as usize + 1];
        let d = roll(&term("d6!"), &mut ScriptedDice::new(script)).unwrap();
        assert_eq!(d.faces.len(), MAX_EXPLOSIONS as usize + 1);
        assert_eq!(d.value, 6 * (i64::from(MAX_EXPLOSIONS) + 1));
    }

    #[test]
    fn a_loop_shares_its_chance() {
        let mut work = crate::exact::Work::default();
        let a = amounts(&term("d4r<3"), &mut work).unwrap();
        assert_eq!(
            a.outcomes(),
            [(3, solum_dice::prob(1, 2)), (4, solum_dice::prob(1, 2))]
        );
    }
}
