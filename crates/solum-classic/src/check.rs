//! Checks of the original So1um: the highest die against a difficulty, no Rule of 6.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, Prob};
use thiserror::Error;

use crate::hero::{ClicheMissing, Hero, Stat};

/// The largest pool rolled.
pub const MAX_POOL: u32 = 1000;

/// Bad input for a check.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// A difficulty outside 1..=6.
    #[error(
        "difficulty `{0}`: the original So1um's difficulties run from 1 (automatic) to 6 (hard), or a name: automatic, simple, easy, average, tricky, hard"
    )]
    Difficulty(String),
    /// A pool outside 1..=MAX_POOL.
    #[error("{0} dice: a pool has 1 to {MAX_POOL} dice")]
    Pool(i64),
    /// The named cliché is not the hero's.
    #[error(transparent)]
    Cliche(#[from] ClicheMissing),
    /// A stat at 0: the dead make no checks.
    #[error("{0} is dead (Body or hit points at 0): the dead make no checks")]
    Dead(String),
}

/// A hero's check pool: dice equal to the stat, one more when the named cliché (one of
/// the hero's own) applies. Only one die is added however many clichés would fit.
pub fn hero_pool(hero: &Hero, stat: Stat, cliche: Option<&str>) -> Result<u32, CheckError> {
    if hero.is_dead() {
        return Err(CheckError::Dead(hero.name.clone()));
    }
    if let Some(named) = cliche {
        hero.cliche(named)?;
    }
    let n = i64::from(hero.stat(stat)) + i64::from(cliche.is_some());
    if n > i64::from(MAX_POOL) {
        return Err(CheckError::Pool(n));
    }
    Ok(n as u32)
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
            .map_err(|_| CheckError::Difficulty(text.trim().to_owned()))?,
    };
    if (1..=6).contains(&n) {
        Ok(n as u32)
    } else {
        Err(CheckError::Difficulty(text.trim().to_owned()))
    }
}

/// Rolls the random difficulty: one d6, read as the difficulty.
pub fn random_difficulty(dice: &mut dyn DiceSource) -> Result<u32, DiceError> {
    dice.roll(6)
}

/// A check's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Check))]
pub struct Check {
    /// Dice rolled.
    pub pool: u32,
    /// The difficulty.
    pub difficulty: u32,
    /// The dice as rolled (empty when automatic).
    pub dice: Vec<u32>,
    /// A gear reroll: index, from, to.
    #[cfg_attr(feature = "openapi", schema(min_items = 3, max_items = 3))]
    pub reroll: Option<(usize, u32, u32)>,
    /// The highest die after any reroll.
    pub highest: u32,
    /// Passed.
    pub passed: bool,
}

impl Check {
    /// A difficulty of 1 (or below) passes without a roll: no die is rolled, so gear has
    /// nothing to reroll.
    pub fn automatic(&self) -> bool {
        self.difficulty <= 1
    }
}

/// Gear rerolls a die in a check only: in combat every fighter is assumed properly armed
/// and armoured (the text), so a fight takes no gear.
pub const GEAR_ONLY_IN_CHECKS: &str = "gear rerolls a die in a check only; in combat all are assumed properly armed and armoured (the text)";

/// Rolls a check of `pool` dice (1 to [`MAX_POOL`]; 0 rolls one, the CLI refuses it). Gear (outside combat) rerolls the lowest die once when the check is
/// failing, and the dice are compared again.
pub fn roll_check(
    pool: u32,
    difficulty: u32,
    gear: bool,
    dice: &mut dyn DiceSource,
) -> Result<Check, DiceError> {
    if difficulty <= 1 {
        // Automatic (see [`Check::automatic`]).
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
    fn a_hero_rolls_a_stat_and_one_die_for_a_cliché() {
        let al = crate::Book::shipped().find("alessandor").unwrap().clone();
        // Alessandor: Body 2, Mind 1; "Master of the Duel" adds one die.
        assert_eq!(hero_pool(&al, Stat::Body, None), Ok(2));
        assert_eq!(
            hero_pool(&al, Stat::Body, Some("master of the duel")),
            Ok(3)
        );
        assert_eq!(hero_pool(&al, Stat::Mind, Some("Cleric")), Ok(2));
        assert!(matches!(
            hero_pool(&al, Stat::Mind, Some("Sticky fingers")),
            Err(CheckError::Cliche(_))
        ));
        let mut dead = al.clone();
        dead.set_wounds(0, 2);
        assert!(matches!(
            hero_pool(&dead, Stat::Mind, None),
            Err(CheckError::Dead(_))
        ));
        // Three dice, tricky (5): one die at 5 passes.
        let c = roll_check(3, 5, false, &mut ScriptedDice::new([1, 5, 2])).unwrap();
        assert!(c.passed);
    }

    #[test]
    fn reference_values() {
        // By hand: fail only when every die is below the difficulty.
        assert_eq!(p_pass(1, 4, false), prob(1, 2));
        assert_eq!(p_pass(2, 5, false), prob(5, 9));
        assert_eq!(p_pass(3, 6, false), prob(91, 216));
        assert_eq!(p_pass(1, 4, true), prob(3, 4));
        assert_eq!(p_pass(2, 1, false), prob(1, 1));
    }

    #[test]
    fn odds_match_seeded_simulation() {
        let mut dice = solum_dice::SeededDice::new(7);
        let n = 40_000u32;
        for (pool, d, gear) in [(1, 4, false), (2, 6, true), (3, 5, false)] {
            let exact = solum_dice::prob_to_f64(&p_pass(pool, d, gear));
            let passes = (0..n)
                .filter(|_| roll_check(pool, d, gear, &mut dice).unwrap().passed)
                .count();
            let se = (exact * (1.0 - exact) / f64::from(n)).sqrt();
            let seen = passes as f64 / f64::from(n);
            assert!(
                (seen - exact).abs() < 4.0 * se,
                "{pool} vs {d}: {seen} {exact}"
            );
        }
    }

    #[test]
    fn odds_match_enumeration() {
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

    proptest::proptest! {
        #[test]
        fn difficulties_parse_or_are_named_back(text in proptest::prelude::any::<String>()) {
            match parse_difficulty(&text) {
                Ok(d) => proptest::prop_assert!((1..=6).contains(&d)),
                Err(CheckError::Difficulty(t)) => proptest::prop_assert_eq!(t, text.trim()),
                Err(e) => proptest::prop_assert!(false, "{e}"),
            }
        }

        #[test]
        fn hero_pools_at_the_integer_edge(stat in proptest::prop_oneof![
            0u32..=3, (MAX_POOL - 1)..=(MAX_POOL + 1), (u32::MAX - 1)..=u32::MAX
        ], cliche: bool) {
            let mut hero = crate::Book::shipped().find("alessandor").unwrap().clone();
            hero.mind = stat;
            let named = cliche.then_some("cleric");
            let want = u64::from(stat) + u64::from(cliche);
            match hero_pool(&hero, Stat::Mind, named) {
                Ok(n) => proptest::prop_assert_eq!(u64::from(n), want),
                Err(CheckError::Pool(n)) => {
                    proptest::prop_assert!(want > u64::from(MAX_POOL));
                    proptest::prop_assert_eq!(n as u64, want);
                }
                Err(e) => proptest::prop_assert!(false, "{e}"),
            }
        }
    }
}
