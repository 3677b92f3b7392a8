//! Checks of the original So1um: the highest die against a difficulty, no Rule of 6.

use serde::Serialize;
use solum_dice::{DiceError, DiceSource, Prob};
use thiserror::Error;

/// The largest pool rolled.
pub const MAX_POOL: u32 = 1000;

/// Bad input for a check.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// A difficulty outside 1..=6.
    #[error("difficulty {0}: the original So1um's difficulties run from 1 (automatic) to 6 (hard)")]
    Difficulty(i64),
    /// A pool outside 1..=MAX_POOL.
    #[error("{0} dice: a pool has 1 to {MAX_POOL} dice")]
    Pool(i64),
}

/// The text's difficulty names (also the random difficulty table).
pub fn difficulty_name(d: u32) -> &'static str {
    match d {
        1 => "automatic",
        2 => "simple",
        3 => "easy",
        4 => "average",
        5 => "tricky",
        _ => "hard",
    }
}

/// A difficulty: a number 1 to 6 or a name.
pub fn parse_difficulty(text: &str) -> Result<u32, CheckError> {
    let t = text.trim().to_ascii_lowercase();
    let n = match t.as_str() {
        "automatic" => 1,
        "simple" => 2,
        "easy" => 3,
        "average" => 4,
        "tricky" => 5,
        "hard" => 6,
        other => other
            .parse::<i64>()
            .map_err(|_| CheckError::Difficulty(-1))?,
    };
    if (1..=6).contains(&n) {
        Ok(n as u32)
    } else {
        Err(CheckError::Difficulty(n))
    }
}

/// Rolls the random difficulty: one d6, read as the difficulty.
pub fn random_difficulty(dice: &mut dyn DiceSource) -> Result<u32, DiceError> {
    dice.roll(6)
}

/// A check's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Dice rolled.
    pub pool: u32,
    /// The difficulty.
    pub difficulty: u32,
    /// The dice as rolled (empty when automatic).
    pub dice: Vec<u32>,
    /// A gear reroll: index, from, to.
    pub reroll: Option<(usize, u32, u32)>,
    /// The highest die after any reroll.
    pub highest: u32,
    /// Passed.
    pub passed: bool,
}

/// Rolls a check. Gear (outside combat) rerolls the lowest die once when the check is
/// failing, and the dice are compared again.
pub fn roll_check(
    pool: u32,
    difficulty: u32,
    gear: bool,
    dice: &mut dyn DiceSource,
) -> Result<Check, DiceError> {
    if difficulty <= 1 {
        return Ok(Check {
            pool,
            difficulty,
            dice: Vec::new(),
            reroll: None,
            highest: 0,
            passed: true,
        });
    }
    let rolled = dice.roll_many(pool.max(1) as usize, 6)?;
    let mut faces = rolled.clone();
    let mut highest = faces.iter().copied().max().unwrap_or(0);
    let mut reroll = None;
    if gear && highest < difficulty {
        let (i, &from) = faces
            .iter()
            .enumerate()
            .min_by_key(|&(i, &f)| (f, i))
            .expect("a die");
        let to = dice.roll(6)?;
        faces[i] = to;
        reroll = Some((i, from, to));
        highest = faces.iter().copied().max().unwrap_or(0);
    }
    Ok(Check {
        pool,
        difficulty,
        dice: rolled,
        reroll,
        highest,
        passed: highest >= difficulty,
    })
}

/// The exact chance to pass (gear works as one more die: it rerolls exactly when failing).
pub fn p_pass(pool: u32, difficulty: u32, gear: bool) -> Prob {
    if difficulty <= 1 {
        return Prob::from_integer(1.into());
    }
    let n = pool.max(1) + u32::from(gear);
    let miss = Prob::new(
        num_bigint::BigInt::from(difficulty - 1).pow(n),
        num_bigint::BigInt::from(6u32).pow(n),
    );
    Prob::from_integer(1.into()) - miss
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{DiceError, ScriptedDice, enumerate, prob};

    #[test]
    fn no_rule_of_six_and_gear() {
        let c = roll_check(2, 5, false, &mut ScriptedDice::new([6, 1])).unwrap();
        assert!(c.passed && c.highest == 6);
        let c = roll_check(2, 5, true, &mut ScriptedDice::new([3, 1, 5])).unwrap();
        assert_eq!(c.reroll, Some((1, 1, 5)));
        assert!(c.passed);
        assert!(
            roll_check(3, 1, false, &mut ScriptedDice::new([]))
                .unwrap()
                .passed
        );
        assert_eq!(parse_difficulty("tricky"), Ok(5));
        assert!(parse_difficulty("7").is_err());
        assert_eq!(difficulty_name(2), "simple");
    }

    #[test]
    fn odds_match_enumeration() {
        assert_eq!(p_pass(1, 4, false), prob(1, 2));
        for pool in 1..=4 {
            for d in 1..=6 {
                for gear in [false, true] {
                    let e = enumerate(6, |dice| -> Result<bool, DiceError> {
                        Ok(roll_check(pool, d, gear, dice)?.passed)
                    })
                    .unwrap();
                    assert_eq!(
                        e.p(|&p| p),
                        p_pass(pool, d, gear),
                        "{pool} vs {d} gear {gear}"
                    );
                }
            }
        }
    }
}
