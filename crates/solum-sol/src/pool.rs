//! Building a dice pool: attribute, ranks, modifiers capped by ranks, defaulting, teamwork,
//! trying again.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The most dice a pool rolls.
pub const MAX_DICE: u32 = 1000;

/// A pool the rules cannot build.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PoolError {
    /// More dice than [`MAX_DICE`].
    #[error("{0} dice is more than the {MAX_DICE} a pool may roll")]
    TooMany(i64),
    /// A negative attribute or rank.
    #[error("{0} cannot be negative")]
    Negative(&'static str),
    /// An attribute or rank above [`MAX_DICE`], named.
    #[error("{0} {1} is more than the {MAX_DICE} dice a pool may roll")]
    TooLarge(&'static str, i64),
    /// A bonus or penalty beyond ±[`MAX_DICE`].
    #[error("modifier {0} is beyond ±{MAX_DICE}: a pool rolls at most {MAX_DICE} dice")]
    Modifier(i64),
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

/// Why a threshold could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThresholdError {
    /// A number outside what a pool can reach.
    #[error(
        "threshold {0} is out of range: 0 to {MAX_DICE} hits (a pool rolls at most {MAX_DICE} dice)"
    )]
    OutOfRange(String),
    /// A word that names no threshold.
    #[error(transparent)]
    Unknown(solum_dice::UnknownWord),
}

/// Parses a threshold: a number, or a name (simple 1, average 2, difficult 3,
/// very-difficult 4, formidable 6, absurd 8).
pub fn parse_threshold(text: &str) -> Result<u32, ThresholdError> {
    // Any whole number, however large or negative, is read as one, to name its range.
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return match t.parse::<u32>() {
            Ok(n) if n <= MAX_DICE => Ok(n),
            _ => Err(ThresholdError::OutOfRange(t.to_owned())),
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
        other => Err(ThresholdError::Unknown(solum_dice::UnknownWord::new(
            other,
            "a threshold",
            "a number or simple, average, difficult, very-difficult, formidable, absurd",
        ))),
    }
}

/// How a pool was built, step by step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::Pool))]
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

/// What defaulting (0 ranks) on a skill with an untrained penalty costs: 3 dice.
pub const UNTRAINED_PENALTY: i64 = -3;

/// What a pool is built from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
        let max = i64::from(MAX_DICE);
        if attribute > max {
            return Err(PoolError::TooLarge("attribute", attribute));
        }
        if ranks > max {
            return Err(PoolError::TooLarge("ranks", ranks));
        }
        if let Some(&m) = self
            .modifiers
            .iter()
            .find(|m| m.unsigned_abs() > u64::from(MAX_DICE))
        {
            return Err(PoolError::Modifier(m));
        }
        // Every input is now within ±MAX_DICE; sums are taken in i128 so that no count of
        // modifiers or retries can wrap, and the results brought back checked.
        let defaulting = ranks == 0;
        let try_again = -2 * i128::from(self.retry);
        let untrained: i128 = if defaulting && self.untrained_penalty {
            i128::from(UNTRAINED_PENALTY)
        } else {
            0
        };
        let sum = |keep: fn(&i64) -> bool| -> i128 {
            self.modifiers
                .iter()
                .filter(|m| keep(m))
                .map(|&m| i128::from(m))
                .sum()
        };
        let modifier = sum(|_| true) + try_again + untrained;
        let applied = if defaulting {
            // No bonus without ranks, not even one that would offset a penalty.
            sum(|&m| m < 0) + try_again + untrained
        } else if modifier > 0 {
            modifier.min(i128::from(ranks))
        } else {
            modifier
        };
        let raw = i128::from(attribute) + i128::from(ranks) + applied;
        let clamp = |x: i128| x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        if self.retry > 0 && raw <= 0 {
            return Err(PoolError::NoMoreTries {
                base: (attribute + ranks) as u32,
                attempt: self.retry,
                left: clamp(raw),
            });
        }
        let dice = raw.max(1);
        if dice > i128::from(MAX_DICE) {
            return Err(PoolError::TooMany(clamp(dice)));
        }
        let (modifier, applied) = (clamp(modifier), clamp(applied));
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
    fn values_at_the_integer_edges_are_refused_by_name() {
        assert_eq!(
            build(i64::MAX, 0, &[], false),
            Err(PoolError::TooLarge("attribute", i64::MAX))
        );
        assert_eq!(
            build(3, i64::MAX, &[], false),
            Err(PoolError::TooLarge("ranks", i64::MAX))
        );
        assert_eq!(
            build(3, 2, &[i64::MIN], false),
            Err(PoolError::Modifier(i64::MIN))
        );
        assert_eq!(
            build(3, 2, &[1000, 1000, -1001], false),
            Err(PoolError::Modifier(-1001))
        );
        // At the limits themselves: 1000 + 0 ranks, every penalty.
        assert_eq!(build(1000, 0, &[-1000; 5], true).unwrap().dice, 1);
        assert!(matches!(
            build(1000, 1000, &[1000], false),
            Err(PoolError::TooMany(3000))
        ));
        assert_eq!(
            retry(3, 2, &[], u32::MAX).unwrap_err(),
            PoolError::NoMoreTries {
                base: 5,
                attempt: u32::MAX,
                left: 5 - 2 * i64::from(u32::MAX),
            }
        );
    }

    proptest::proptest! {
        /// Any inputs at all: an error or a pool of 1 to MAX_DICE dice, never a panic, and
        /// the pool is the sum computed independently in i128 when it stands.
        #[test]
        fn any_inputs_build_a_bounded_pool_or_an_error(
            attribute in proptest::prelude::any::<i64>(),
            ranks in proptest::prelude::any::<i64>(),
            modifiers in proptest::collection::vec(proptest::prelude::any::<i64>(), 0..4),
            retry in proptest::prelude::any::<u32>(),
            small in proptest::prelude::any::<bool>(),
        ) {
            // Half the cases within the limits, so that pools are built too.
            let (attribute, ranks, modifiers) = if small {
                (attribute.rem_euclid(50), ranks.rem_euclid(10), modifiers.iter().map(|m| m % 20).collect())
            } else {
                (attribute, ranks, modifiers)
            };
            let retry = if small { retry % 4 } else { retry };
            let spec = PoolSpec { attribute, ranks, modifiers: modifiers.clone(), untrained_penalty: false, retry };
            if let Ok(pool) = spec.build() {
                proptest::prop_assert!((1..=MAX_DICE).contains(&pool.dice));
                let net: i128 = modifiers.iter().map(|&m| i128::from(m)).sum::<i128>() - 2 * i128::from(retry);
                let applied = if ranks == 0 {
                    modifiers.iter().filter(|&&m| m < 0).map(|&m| i128::from(m)).sum::<i128>() - 2 * i128::from(retry)
                } else {
                    net.min(i128::from(ranks))
                };
                let raw = i128::from(attribute) + i128::from(ranks) + applied;
                proptest::prop_assert_eq!(i128::from(pool.dice), raw.max(1));
            }
        }
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
        assert_eq!(parse_threshold("1000"), Ok(1000));
        for t in ["1001", "4294967296", "-1", "99999999999999999999999"] {
            assert!(
                parse_threshold(t)
                    .unwrap_err()
                    .to_string()
                    .contains("0 to 1000"),
                "{t}"
            );
        }
        assert_eq!(threshold_name(6), "formidable");
        assert_eq!(threshold_name(9), "absurd");
    }
}
