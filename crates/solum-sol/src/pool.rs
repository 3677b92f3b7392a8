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
        "try again number {attempt}: the pool of {base} dice would drop to {left}; no more tries"
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

/// Builds a pool: attribute + ranks + the combined modifier. A positive modifier is capped
/// at the skill's ranks (so none without ranks); defaulting on a skill with an untrained
/// penalty costs 3 dice; the pool is at least 1 die (R2).
pub fn build(
    attribute: i64,
    ranks: i64,
    modifiers: &[i64],
    untrained_penalty: bool,
) -> Result<Pool, PoolError> {
    if attribute < 0 {
        return Err(PoolError::Negative("the attribute"));
    }
    if ranks < 0 {
        return Err(PoolError::Negative("the ranks"));
    }
    let defaulting = ranks == 0;
    // Summed in i128, which no count of i64 modifiers can overflow.
    let sum: i128 = modifiers.iter().map(|&m| i128::from(m)).sum();
    let mut modifier = i64::try_from(sum).map_err(|_| PoolError::Modifier)?;
    if defaulting && untrained_penalty {
        modifier = modifier.checked_sub(3).ok_or(PoolError::Modifier)?;
    }
    let applied = if modifier > 0 {
        modifier.min(ranks)
    } else {
        modifier
    };
    // In i128: attribute + ranks alone may pass i64::MAX.
    let dice = (i128::from(attribute) + i128::from(ranks) + i128::from(applied)).max(1);
    if dice > i128::from(MAX_DICE) {
        return Err(PoolError::TooMany(i64::try_from(dice).unwrap_or(i64::MAX)));
    }
    Ok(Pool {
        dice: dice as u32,
        modifier,
        applied,
        defaulting,
    })
}

/// The pool for the `attempt`-th retry of a failed test (1 for the first retry): 2 dice
/// fewer each time; no retry once the pool would drop to 0.
pub fn try_again(base: u32, attempt: u32) -> Result<u32, PoolError> {
    let left = i64::from(base) - 2 * i64::from(attempt);
    if left <= 0 {
        Err(PoolError::NoMoreTries {
            base,
            attempt,
            left,
        })
    } else {
        Ok(left as u32)
    }
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

    #[test]
    fn try_again_costs_two_dice_each_time() {
        assert_eq!(try_again(5, 1), Ok(3));
        assert_eq!(try_again(5, 2), Ok(1));
        assert!(try_again(5, 3).is_err());
        assert!(try_again(2, 1).is_err());
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
