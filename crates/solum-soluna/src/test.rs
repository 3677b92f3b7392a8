//! A Sol'una test: roll, flip, read the largest group; damage and target numbers (U2, U3).

use serde::Serialize;
use solum_dice::{DiceError, DiceSource};
use thiserror::Error;

use crate::flips::{Flip, counts, largest, play};

/// The most dice a test rolls.
pub const MAX_DICE: u32 = 1000;

/// The most net flips a test takes either way.
pub const MAX_FLIPS: i32 = 1000;

/// A test the rules cannot roll.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolunaError {
    /// A pool outside 1..=MAX_DICE.
    #[error("{0} dice is not a pool: a test rolls 1 to {MAX_DICE} dice")]
    Dice(i64),
    /// Flips out of range.
    #[error("{0} flips is out of range (0 to {MAX_FLIPS} each way)")]
    Flips(i64),
    /// Exact odds for a pool this large are not computed.
    #[error("exact odds go up to {max} dice; {0} asked", max = crate::odds::MAX_EXACT_DICE)]
    TooLargeForExact(u32),
}

/// A test to roll: the pool and the net flips (positive: the tester's, negative: against).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::TestSpec))]
pub struct TestSpec {
    /// Dice rolled (at least 1, R2).
    pub dice: u32,
    /// Positive flips minus negative flips.
    pub net_flips: i32,
}

impl TestSpec {
    /// A test of `dice` dice with `positive` flips for the tester and `negative` against it.
    /// The pool as given must be 1 to [`MAX_DICE`]: zero dice is an error here as in every
    /// system (R2's minimum of one die applies to a pool reduced by the rules, as in a
    /// skirmish, not to a pool typed as 0). Each side's flips are 0 to [`MAX_FLIPS`].
    pub fn new(dice: i64, positive: i64, negative: i64) -> Result<Self, SolunaError> {
        if !(1..=i64::from(MAX_DICE)).contains(&dice) {
            return Err(SolunaError::Dice(dice));
        }
        // Each side checked before the difference is taken: no subtraction can wrap.
        for f in [positive, negative] {
            if !(0..=i64::from(MAX_FLIPS)).contains(&f) {
                return Err(SolunaError::Flips(f));
            }
        }
        Ok(Self {
            dice: dice as u32,
            net_flips: (positive - negative) as i32,
        })
    }
}

/// What a test rolled and how it was flipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::TestOutcome))]
pub struct TestOutcome {
    /// The test.
    pub spec: TestSpec,
    /// The dice as rolled.
    pub rolled: Vec<u32>,
    /// The flips played, in order (optimal for whoever had the net flips).
    pub flips: Vec<Flip>,
    /// The dice after the flips.
    pub faces: Vec<u32>,
    /// The largest group after the flips.
    pub largest: u32,
    /// Its face (the highest of equal groups).
    pub face: u32,
}

/// Rolls a test and plays the net flips optimally.
pub fn roll_test(spec: &TestSpec, dice: &mut dyn DiceSource) -> Result<TestOutcome, DiceError> {
    let rolled = dice.roll_many(spec.dice as usize, 6)?;
    let mut faces = rolled.clone();
    let flips = play(&mut faces, spec.net_flips);
    let (largest, face) = largest(&counts(&faces));
    Ok(TestOutcome {
        spec: *spec,
        rolled,
        flips,
        faces,
        largest,
        face,
    })
}

/// A target's armour (U3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Armour {
    /// Body: armour against every attack.
    pub body: u32,
    /// Shield: armour against every attack but melee.
    pub shield: u32,
}

/// Damage of an attack: the largest group minus the armour (Body in melee, Body + Shield
/// otherwise), never below 0.
pub fn damage(largest: u32, armour: Armour, melee: bool) -> u32 {
    // Saturating: armour at the top of u32 stops everything rather than wrapping to little.
    let rating = armour
        .body
        .saturating_add(if melee { 0 } else { armour.shield });
    largest.saturating_sub(rating)
}

/// A target-number test passes when the largest group reaches the number.
pub fn target_number(largest: u32, number: u32) -> bool {
    largest >= number
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    #[test]
    fn corona_csen_against_de_viled() {
        // 5 dice: 4, 2, 6, 3, 6; Csen 3 positive flips, De'Viled 2 negative: one net flip.
        let spec = TestSpec::new(5, 3, 2).unwrap();
        assert_eq!(spec.net_flips, 1);
        let outcome = roll_test(&spec, &mut ScriptedDice::new([4, 2, 6, 3, 6])).unwrap();
        assert_eq!((outcome.largest, outcome.face), (3, 6));
        assert_eq!(outcome.flips.len(), 1);
        assert_eq!((outcome.flips[0].from, outcome.flips[0].to), (4, 6));
        // Searing Hands is melee: the Shield is ignored, Body 2: 3 - 2 = 1 damage.
        let de_viled = Armour { body: 2, shield: 2 };
        assert_eq!(damage(outcome.largest, de_viled, true), 1);
        assert_eq!(damage(outcome.largest, de_viled, false), 0);
    }

    #[test]
    fn target_numbers_and_minimum_pool() {
        assert!(target_number(3, 3));
        assert!(!target_number(2, 3));
        assert_eq!(TestSpec::new(0, 0, 0), Err(SolunaError::Dice(0)));
        assert_eq!(TestSpec::new(-4, 0, 0), Err(SolunaError::Dice(-4)));
        assert_eq!(TestSpec::new(1, 0, 0).unwrap().dice, 1);
        assert!(TestSpec::new(1001, 0, 0).is_err());
        assert!(TestSpec::new(3, 0, 5000).is_err());
        // The integer edges: each side is checked before the difference is taken.
        assert_eq!(
            TestSpec::new(3, i64::MAX, 1),
            Err(SolunaError::Flips(i64::MAX))
        );
        assert_eq!(
            TestSpec::new(3, 0, i64::MIN),
            Err(SolunaError::Flips(i64::MIN))
        );
        assert_eq!(TestSpec::new(3, 1000, 0).unwrap().net_flips, 1000);
        assert_eq!(TestSpec::new(3, 0, 1000).unwrap().net_flips, -1000);
        // Armour at the top of u32 does not wrap.
        let huge = Armour {
            body: u32::MAX,
            shield: u32::MAX,
        };
        assert_eq!(damage(1000, huge, false), 0);
    }

    proptest::proptest! {
        /// Any typed numbers: a test within the limits, or an error; never a panic.
        #[test]
        fn any_numbers_give_a_bounded_test_or_an_error(
            dice in proptest::prelude::any::<i64>(),
            positive in proptest::prelude::any::<i64>(),
            negative in proptest::prelude::any::<i64>(),
        ) {
            match TestSpec::new(dice, positive, negative) {
                Ok(t) => {
                    proptest::prop_assert!((1..=MAX_DICE).contains(&t.dice));
                    proptest::prop_assert_eq!(i64::from(t.net_flips), positive - negative);
                }
                Err(_) => proptest::prop_assert!(
                    !(1..=1000).contains(&dice) || !(0..=1000).contains(&positive) || !(0..=1000).contains(&negative)
                ),
            }
        }
    }
}
