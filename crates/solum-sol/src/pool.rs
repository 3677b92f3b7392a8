//! Building a dice pool: attribute, ranks, modifiers capped by ranks, defaulting, teamwork,
//! trying again.

use serde::Serialize;
use thiserror::Error;

/// The most dice a pool rolls.
pub const MAX_DICE: u32 = 1000;

/// A pool the rules cannot build.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PoolError {
    /// More dice than [`MAX_DICE`].
    #[error("{0} dice is more than the {MAX_DICE} a pool may roll")]
    TooMany(i64),
    /// Modifiers that add up beyond what a number can hold.
    #[error("the modifiers add up beyond {} either way", i64::MAX)]
    Modifier,
    /// A negative attribute or rank.
    #[error("{0} cannot be negative")]
    Negative(&'static str),
    /// A retry would leave no dice.
    #[error(
        "try again number {attempt}: the pool of attribute + ranks {base} would drop to {left} dice; no more tries"
    )]
    NoMoreTries {
        /// The base pool.
        base: u32,
        /// Which retry.
        attempt: u32,
        /// Dice it would leave.
        left: i64,
    },
}

/// Threshold names.
pub fn threshold_name(threshold: u32) -> &'static str {
    match threshold {
        0 => "none",
        1 => "simple",
        2 => "average",
        3 => "difficult",
        4 | 5 => "very difficult",
        6 | 7 => "formidable",
        _ => "absurd",
    }
}

/// Parses a threshold: a number, or a name (simple 1, average 2, difficult 3,
/// very-difficult 4, formidable 6, absurd 8).
pub fn parse_threshold(text: &str) -> Result<u32, String> {
    if let Ok(n) = text.trim().parse::<u32>() {
        return if n <= MAX_DICE {
            Ok(n)
        } else {
            Err(format!("threshold {n} is more hits than any pool rolls"))
        };
    }
    match text
        .trim()
        .to_ascii_lowercase()
        .replace(['-', '_'], " ")
        .as_str()
    {
        "simple" => Ok(1),
        "average" => Ok(2),
        "difficult" => Ok(3),
        "very difficult" => Ok(4),
        "formidable" => Ok(6),
        "absurd" => Ok(8),
        other => Err(format!(
            "`{other}` is not a threshold: a number or simple, average, difficult, very-difficult, formidable, absurd"
        )),
    }
}

/// How a pool was built, step by step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// Dice to roll (at least 1).
    pub dice: u32,
    /// The combined modifier as given (bonuses minus penalties, untrained penalty included).
    pub modifier: i64,
    /// The modifier used after the cap by ranks.
    pub applied: i64,
    /// The test was made by defaulting (no ranks).
    pub defaulting: bool,
}

/// What a pool is built from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PoolSpec {
    /// The attribute.
    pub attribute: i64,
    /// The skill's ranks (0: defaulting).
    pub ranks: i64,
    /// Bonuses and penalties from every source (assists included).
    pub modifiers: Vec<i64>,
    /// The skill has an untrained penalty (3 dice when defaulting).
    pub untrained_penalty: bool,
    /// Try Again: which retry of a failed test this is (0 for the first try); each costs 2
    /// dice, as a penalty combined with the other modifiers.
    pub retry: u32,
}

impl PoolSpec {
    /// Builds the pool: attribute + ranks + one combined modifier. With ranks, bonuses and
    /// penalties combine first and a net bonus is capped at the ranks; at 0 ranks
    /// (defaulting) no bonus applies at all and every penalty does (P4), the untrained
    /// penalty of 3 included. The pool is at least 1 die (R2); a retry is refused once the
    /// pool it would roll, before that minimum, drops to 0.
    pub fn build(&self) -> Result<Pool, PoolError> {
        let (attribute, ranks) = (self.attribute, self.ranks);
        if attribute < 0 {
            return Err(PoolError::Negative("the attribute"));
        }
        if ranks < 0 {
            return Err(PoolError::Negative("the ranks"));
        }
        let defaulting = ranks == 0;
        // Summed in i128, which no count of i64 modifiers can overflow; a total beyond i64
        // is refused rather than wrapped.
        let try_again = -2 * i128::from(self.retry);
        let untrained: i128 = if defaulting && self.untrained_penalty {
            -3
        } else {
            0
        };
        let total = |filter: fn(i64) -> bool| -> i128 {
            self.modifiers
                .iter()
                .filter(|&&m| filter(m))
                .map(|&m| i128::from(m))
                .sum::<i128>()
                + try_again
                + untrained
        };
        let modifier = i64::try_from(total(|_| true)).map_err(|_| PoolError::Modifier)?;
        let applied = if defaulting {
            // No bonus without ranks, not even one that would offset a penalty.
            i64::try_from(total(|m| m < 0)).map_err(|_| PoolError::Modifier)?
        } else if modifier > 0 {
            modifier.min(ranks)
        } else {
            modifier
        };
        let raw = i64::try_from(i128::from(attribute) + i128::from(ranks) + i128::from(applied))
            .map_err(|_| PoolError::Modifier)?;
        if self.retry > 0 && raw <= 0 {
            return Err(PoolError::NoMoreTries {
                base: attribute
                    .saturating_add(ranks)
                    .clamp(0, i64::from(u32::MAX)) as u32,
                attempt: self.retry,
                left: raw,
            });
        }
        let dice = raw.max(1);
        if dice > i64::from(MAX_DICE) {
            return Err(PoolError::TooMany(dice));
        }
        Ok(Pool {
            dice: dice as u32,
            modifier,
            applied,
            defaulting,
        })
    }
}

/// Builds a first try's pool (see [`PoolSpec::build`]).
pub fn build(
    attribute: i64,
    ranks: i64,
    modifiers: &[i64],
    untrained_penalty: bool,
) -> Result<Pool, PoolError> {
    PoolSpec {
        attribute,
        ranks,
        modifiers: modifiers.to_vec(),
        untrained_penalty,
        retry: 0,
    }
    .build()
}

/// Hits bought without rolling: one per full four dice.
pub fn buy_hits(dice: u32) -> u32 {
    dice / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cole_gets_no_bonus_without_ranks() {
        // Longarms 0 ranks, a scope worth +1: no bonus. Agility 4, say.
        let pool = build(4, 0, &[1], false).unwrap();
        assert_eq!((pool.applied, pool.dice), (0, 4));
        assert!(pool.defaulting);
    }

    #[test]
    fn hyde_gets_two_of_three() {
        // Electronic Warfare 2 ranks, a computer worth +3: capped at 2. Logic 3, say.
        let pool = build(3, 2, &[3], false).unwrap();
        assert_eq!((pool.applied, pool.dice), (2, 7));
    }

    #[test]
    fn penalties_and_bonuses_combine_first() {
        // A penalty of 2 and a bonus of 4 are a bonus of 2 (capped by 3 ranks: 2).
        let pool = build(2, 3, &[-2, 4], false).unwrap();
        assert_eq!((pool.modifier, pool.applied, pool.dice), (2, 2, 7));
    }

    #[test]
    fn defaulting_and_the_untrained_penalty() {
        // Mechanic Vehicles + Logic with no ranks: Logic - 3, at least 1.
        assert_eq!(build(5, 0, &[], true).unwrap().dice, 2);
        assert_eq!(build(2, 0, &[], true).unwrap().dice, 1);
        // Pilot Ground Craft + Reaction with no ranks and no penalty: Reaction alone.
        assert_eq!(build(3, 0, &[], false).unwrap().dice, 3);
        assert!(build(-1, 0, &[], false).is_err());
    }

    fn retry(attribute: i64, ranks: i64, modifiers: &[i64], retry: u32) -> Result<u32, PoolError> {
        PoolSpec {
            attribute,
            ranks,
            modifiers: modifiers.to_vec(),
            untrained_penalty: false,
            retry,
        }
        .build()
        .map(|p| p.dice)
    }

    #[test]
    fn try_again_costs_two_dice_each_time_until_the_pool_would_be_0() {
        // 3 + 2 ranks: 5, 3, 1, then 5 - 6 < 1: no more tries.
        assert_eq!(retry(3, 2, &[], 0), Ok(5));
        assert_eq!(retry(3, 2, &[], 1), Ok(3));
        assert_eq!(retry(3, 2, &[], 2), Ok(1));
        assert!(matches!(
            retry(3, 2, &[], 3),
            Err(PoolError::NoMoreTries { left: -1, .. })
        ));
        // 4 dice: 2, then exactly 0 is refused.
        assert_eq!(retry(3, 1, &[], 1), Ok(2));
        assert!(retry(3, 1, &[], 2).is_err());
    }

    #[test]
    fn try_again_penalty_combines_with_bonuses() {
        // Ranks 3, a bonus of 4 (capped to 3 on the first try): 2 + 3 + 3 = 8. Retry: the
        // penalty of 2 and the bonus of 4 combine to +2, within the cap: 7.
        assert_eq!(retry(2, 3, &[4], 0), Ok(8));
        assert_eq!(retry(2, 3, &[4], 1), Ok(7));
        // Defaulting: the bonus is ignored, the penalty is not: 4 - 2.
        assert_eq!(retry(4, 0, &[2], 1), Ok(2));
    }

    #[test]
    fn no_bonus_at_zero_ranks_penalties_always_apply() {
        // P4: a bonus of 2 does not offset the untrained penalty: Logic 5 - 3.
        assert_eq!(build(5, 0, &[2], true).unwrap().dice, 2);
        assert_eq!(build(5, 0, &[2], true).unwrap().applied, -3);
        // Without the untrained penalty: a penalty of 2 and a bonus of 4 at 0 ranks leave
        // the penalty of 2 (the bonus never applies).
        assert_eq!(build(4, 0, &[-2, 4], false).unwrap().dice, 2);
        // With ranks, they combine first: +2, capped by 1 rank.
        assert_eq!(build(4, 1, &[-2, 4], false).unwrap().dice, 6);
        // Penalties alone always apply, to at least 1 die.
        assert_eq!(build(2, 0, &[-1], true).unwrap().dice, 1);
    }

    #[test]
    fn buying_hits() {
        assert_eq!(buy_hits(12), 3);
        assert_eq!(buy_hits(8), 2);
        assert_eq!(buy_hits(10), 2);
        assert_eq!(buy_hits(3), 0);
    }

    #[test]
    fn threshold_names() {
        assert_eq!(parse_threshold("very-difficult"), Ok(4));
        assert_eq!(parse_threshold("3"), Ok(3));
        assert!(parse_threshold("hard").is_err());
        assert_eq!(threshold_name(6), "formidable");
        assert_eq!(threshold_name(9), "absurd");
    }
}
