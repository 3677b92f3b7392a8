//! Exhaustive enumeration: the brute-force reference for every closed form.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;

use crate::{DiceError, DiceSource, Prob};

/// The exact outcome distribution of a rule function, found by running it on every
/// sequence of dice it can ask for.
#[derive(Debug, Clone, PartialEq)]
pub struct Enumeration<T> {
    /// Each distinct outcome with its exact probability.
    pub outcomes: BTreeMap<T, Prob>,
    /// The mass of the paths that needed more than the depth limit of dice.
    pub truncated: Prob,
}

impl<T: Ord> Enumeration<T> {
    /// Probability of the outcomes that satisfy `pred`.
    pub fn p(&self, pred: impl Fn(&T) -> bool) -> Prob {
        self.outcomes
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, p)| p)
            .sum()
    }
}

/// A source that replays a path of faces and extends it with 1s, remembering the dice asked
/// for so the caller can step to the next path.
struct PathDice<'a> {
    path: &'a mut Vec<(u32, u32)>,
    pos: usize,
    max_rolls: usize,
    hit_limit: bool,
}

impl DiceSource for PathDice<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        if let Some(&(face, s)) = self.path.get(self.pos) {
            // A rule is a deterministic function of its dice, so a replayed prefix asks
            // for the same dice in the same order.
            assert_eq!(s, sides, "rule asked for a different die on replay");
            self.pos += 1;
            return Ok(face);
        }
        if self.path.len() >= self.max_rolls {
            self.hit_limit = true;
            return Err(DiceError::DepthLimit);
        }
        if sides == 0 {
            return Err(DiceError::BadDie { sides });
        }
        self.path.push((1, sides));
        self.pos += 1;
        Ok(1)
    }
}

/// Runs `rule` on every sequence of at most `max_rolls` dice it asks for and returns the
/// exact probability of each outcome. Paths that need more dice are counted in
/// [`Enumeration::truncated`] (their outcome is not known). An error the rule returns for
/// any other reason is passed on.
///
/// Cost is the number of paths, so this is for small cases: tests and references.
pub fn enumerate<T, E>(
    max_rolls: usize,
    mut rule: impl FnMut(&mut dyn DiceSource) -> Result<T, E>,
) -> Result<Enumeration<T>, E>
where
    T: Ord,
{
    // Paths are counted per denominator (the product of their dice's sides) and summed as
    // rationals once at the end: adding a big rational per path would dominate the cost.
    let mut counts: BTreeMap<T, BTreeMap<u128, u64>> = BTreeMap::new();
    let mut truncated_counts: BTreeMap<u128, u64> = BTreeMap::new();
    let mut path: Vec<(u32, u32)> = Vec::new();
    loop {
        let mut dice = PathDice {
            path: &mut path,
            pos: 0,
            max_rolls,
            hit_limit: false,
        };
        let result = rule(&mut dice);
        let (used, hit_limit) = (dice.pos, dice.hit_limit);
        path.truncate(used);
        let denominator = path.iter().fold(1u128, |acc, &(_, sides)| {
            acc.checked_mul(u128::from(sides))
                .expect("enumeration too deep: the path's probability underflows u128")
        });
        let bucket = if hit_limit {
            &mut truncated_counts
        } else {
            counts.entry(result?).or_default()
        };
        *bucket.entry(denominator).or_default() += 1;
        // Step to the next path: the last die that can still go up does, later ones drop.
        while let Some(&(face, sides)) = path.last() {
            if face < sides {
                break;
            }
            path.pop();
        }
        match path.last_mut() {
            Some(last) => last.0 += 1,
            None => break,
        }
    }
    let sum = |counts: BTreeMap<u128, u64>| -> Prob {
        counts
            .into_iter()
            .map(|(den, n)| BigRational::new(BigInt::from(n), BigInt::from(den)))
            .sum()
    };
    Ok(Enumeration {
        outcomes: counts.into_iter().map(|(t, c)| (t, sum(c))).collect(),
        truncated: sum(truncated_counts),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prob;
    use num_traits::{One, Zero};

    #[test]
    fn two_dice_sum() {
        let e = enumerate(10, |d| -> Result<u32, DiceError> {
            Ok(d.roll(6)? + d.roll(6)?)
        })
        .unwrap();
        assert_eq!(e.outcomes[&7], prob(1, 6));
        assert!(e.truncated.is_zero());
        let total: Prob = e.outcomes.values().sum();
        assert_eq!(total, Prob::one());
    }

    #[test]
    fn explosion_is_truncated() {
        // Roll a d6, keep rolling while it shows 6: the sum.
        let e = enumerate(3, |d| -> Result<u32, DiceError> {
            let mut sum = 0;
            loop {
                let f = d.roll(6)?;
                sum += f;
                if f != 6 {
                    return Ok(sum);
                }
            }
        })
        .unwrap();
        assert_eq!(e.truncated, prob(1, 216));
        assert_eq!(e.outcomes[&7], prob(1, 36));
        assert_eq!(e.p(|s| *s < 6), prob(5, 6));
    }

    #[test]
    fn rule_with_varying_dice() {
        // A d4 decides how many d2 to roll.
        let e = enumerate(10, |d| -> Result<u32, DiceError> {
            let n = d.roll(4)?;
            Ok(d.roll_many(n as usize, 2)?.iter().sum())
        })
        .unwrap();
        let total: Prob = e.outcomes.values().sum();
        assert_eq!(total, Prob::one());
        // Sum 1: n = 1 and a 1.
        assert_eq!(e.outcomes[&1], prob(1, 8));
    }
}
