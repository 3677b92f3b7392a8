//! Sol'una without a campaign: `solum odds soluna`, `solum roll soluna` and
//! `solum soluna skirmish FILE`. Nothing is journaled; the views carry what a front end
//! shows, and refusals name their field.

use std::collections::BTreeMap;

use serde::Serialize;
use solum_dice::{DiceSource, prob_to_f64};

use crate::fields::input_fields;
use crate::typed_dice::TypedDiceError;
use solum_soluna::odds::{MAX_EXACT_DICE, largest_distribution};
use solum_soluna::skirmish::{SkirmishFile, fight};
use solum_soluna::test_limits::{MAX_DICE, MAX_FLIPS};
use solum_soluna::{Armour, TestSpec, damage, roll_test, target_number};

pub use solum_soluna::TestOutcome;
pub use solum_soluna::skirmish::{Character, Event};

use crate::bounded::bounded;
use crate::{AppError, Dice};

bounded! {
    /// A pool to roll: 1 to [`MAX_DICE`] dice (R2: a pool typed as 0 is no pool).
    pub struct SolunaPool(u32) in 1, MAX_DICE;
    "a Sol'una test rolls {min} to {max} dice"
}

bounded! {
    /// A pool for exact odds: 1 to [`MAX_EXACT_DICE`] dice (the weights are counted in
    /// `u128`); a larger pool can still be rolled ([`SolunaPool`]).
    pub struct ExactSolunaPool(u32) in 1, MAX_EXACT_DICE;
    "exact odds take {min} to {max} dice (a test rolls up to {MAX_DICE})"
}

bounded! {
    /// One side's flips, 0 to [`MAX_FLIPS`].
    pub struct Flips(i32) in 0, MAX_FLIPS;
    "flips are {min} to {max}"
}

bounded! {
    /// Net flips, −[`MAX_FLIPS`] to [`MAX_FLIPS`]: positive for the tester, negative against.
    pub struct NetFlips(i32) in -MAX_FLIPS, MAX_FLIPS;
    "net flips are {min} to {max}"
}

input_fields! {
    /// An input of a one-shot Sol'una test, for errors a front end names as its own flag.
    Field {
        /// A skirmish's characters (the file).
        Skirmish = "skirmish",
        /// Faces typed in by hand.
        Typed = "typed",
    }
}

/// Why a one-shot Sol'una test or a skirmish was refused (the pool and flips are refused
/// by their types, [`SolunaPool`], [`ExactSolunaPool`], [`Flips`] and [`NetFlips`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolunaOnceError {
    /// A skirmish file that does not read, or cannot be fought (the rules' words).
    #[error("{0}")]
    Skirmish(String),
    /// Typed faces that do not fit the roll, or the system's randomness failed.
    #[error(transparent)]
    Typed(#[from] TypedDiceError<Field>),
}

impl SolunaOnceError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Skirmish(_) => Some(Field::Skirmish),
            Self::Typed(e) => e.field(),
        }
    }

    /// A stable code for the API (`soluna-skirmish`, `dice-too-few`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Skirmish(_) => "soluna-skirmish",
            Self::Typed(e) => e.code(),
        }
    }

    /// True when the input is at fault, false for a failure of the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::Typed(e) => e.is_bad_input(),
            Self::Skirmish(_) => true,
        }
    }

    /// The message with the field named by `name` (the command line passes its flags);
    /// a skirmish's refusal is the rules' words alone.
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        let text = self.to_string();
        match self.field() {
            Some(Field::Skirmish) | None => text,
            Some(field) => text.replacen(field.name(), &name(field), 1),
        }
    }

    fn from_app(e: AppError, order: &'static str) -> Self {
        Self::Typed(e.into_typed_dice(Field::Typed, order))
    }
}

/// A target to test against: a target number, armour, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Target {
    /// A target number the largest group must reach.
    pub tn: Option<u32>,
    /// Body armour (against every attack), when damage is asked for.
    pub body: Option<u32>,
    /// A shield (against every attack but melee).
    pub shield: u32,
    /// A melee attack (the shield does not count).
    pub melee: bool,
}

impl Target {
    fn armour(self) -> Option<Armour> {
        self.body.map(|body| Armour {
            body,
            shield: self.shield,
        })
    }
}

/// One row of the odds table: a largest group, its chance and the chance of at least it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LargestRow {
    /// The size of the largest group.
    pub largest: i64,
    /// Exactly this size.
    pub p: f64,
    /// At least this size.
    pub at_least: f64,
}

/// The exact odds of a Sol'una test (`solum odds soluna`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolunaOddsView {
    /// The pool.
    pub dice: u32,
    /// Net flips (the tester's positive).
    pub flips: i32,
    /// By size, the chance of the largest group.
    pub largest: BTreeMap<i64, f64>,
    /// The mean largest group.
    pub mean: f64,
    /// The chance of reaching the target number, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_tn: Option<f64>,
    /// By amount, the chance of the damage dealt through the armour, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<BTreeMap<i64, f64>>,
    /// The table in text: each size with its chances (not serialized).
    #[serde(skip)]
    pub rows: Vec<LargestRow>,
}

/// The exact odds of a test of `dice` with `net_flips` (the tester's positive).
pub fn soluna_odds(dice: ExactSolunaPool, net_flips: NetFlips, target: Target) -> SolunaOddsView {
    let spec = TestSpec {
        dice: dice.get(),
        net_flips: net_flips.get(),
    };
    // An exact pool is within the rules' limit for exact odds, so nothing is refused here.
    let dist = largest_distribution(spec.dice, spec.net_flips)
        .expect("an ExactSolunaPool is at most MAX_EXACT_DICE");
    let by_value = |d: &solum_dice::Distribution| -> BTreeMap<i64, f64> {
        d.outcomes()
            .iter()
            .map(|(k, p)| (*k, prob_to_f64(p)))
            .collect()
    };
    let damage_dist = target
        .armour()
        .map(|a| dist.map(|g| i64::from(damage(g as u32, a, target.melee))));
    SolunaOddsView {
        dice: spec.dice,
        flips: spec.net_flips,
        largest: by_value(&dist),
        mean: dist.mean(),
        p_tn: target
            .tn
            .map(|tn| prob_to_f64(&dist.p_at_least(i64::from(tn)))),
        damage: damage_dist.as_ref().map(by_value),
        rows: dist
            .outcomes()
            .iter()
            .map(|(k, p)| LargestRow {
                largest: *k,
                p: prob_to_f64(p),
                at_least: prob_to_f64(&dist.p_at_least(*k)),
            })
            .collect(),
    }
}

/// The order a test's typed faces are read in.
pub const TEST_ORDER: &str = "values go: one per die of the pool";

/// A test rolled (`solum roll soluna`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolunaRollView {
    /// The dice, the flips played and the largest group.
    pub test: TestOutcome,
    /// The largest group's size.
    pub largest: u32,
    /// Its face.
    pub face: u32,
    /// The damage through the armour, when given.
    pub damage: Option<u32>,
    /// Whether the target number was reached, when given.
    pub passed: Option<bool>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
}

/// Rolls a test of `dice`, the tester's `flips` against the other side's `against_flips`.
pub fn roll_soluna(
    dice: SolunaPool,
    flips: Flips,
    against_flips: Flips,
    target: Target,
    source: Dice,
) -> Result<SolunaRollView, SolunaOnceError> {
    // Each side is 0 to MAX_FLIPS: the difference fits.
    let spec = TestSpec {
        dice: dice.get(),
        net_flips: flips.get() - against_flips.get(),
    };
    let (t, rolled) = crate::journaling::roll(source, |d: &mut dyn DiceSource| roll_test(&spec, d))
        .map_err(|e| SolunaOnceError::from_app(e, TEST_ORDER))?;
    Ok(SolunaRollView {
        largest: t.largest,
        face: t.face,
        damage: target.armour().map(|a| damage(t.largest, a, target.melee)),
        passed: target.tn.map(|tn| target_number(t.largest, tn)),
        test: t,
        seed: rolled.seed,
    })
}

/// The order a skirmish's typed faces are read in.
pub const SKIRMISH_ORDER: &str = "values go: each attack's dice, in the order of the events";

/// A skirmish fought from a file (`solum soluna skirmish FILE`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkirmishOnceView {
    /// The characters' names, by their number in the events.
    pub names: Vec<String>,
    /// What happened, phase by phase.
    pub events: Vec<Event>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
}

/// Fights the skirmish a file's text describes (TOML: `[[character]]` tables) to its end.
pub fn fight_skirmish(text: &str, source: Dice) -> Result<SkirmishOnceView, SolunaOnceError> {
    let skirmish: SkirmishFile = toml::from_str(text)
        .map_err(|e| SolunaOnceError::Skirmish(e.to_string().trim_end().to_owned()))?;
    let mut characters = skirmish.character;
    let names: Vec<String> = characters.iter().map(|c| c.name.clone()).collect();
    let (events, rolled) = crate::journaling::roll(source, |d: &mut dyn DiceSource| {
        Ok(fight(&mut characters, d))
    })
    .map_err(|e| SolunaOnceError::from_app(e, SKIRMISH_ORDER))?;
    let events = events.map_err(|e| SolunaOnceError::Skirmish(e.to_string()))?;
    Ok(SkirmishOnceView {
        names,
        events,
        seed: rolled.seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(n: u32) -> SolunaPool {
        SolunaPool::new(n).unwrap()
    }

    fn exact(dice: u32, flips: i32) -> SolunaOddsView {
        soluna_odds(
            ExactSolunaPool::new(dice).unwrap(),
            NetFlips::new(flips).unwrap(),
            Target::default(),
        )
    }

    const NONE: Flips = Flips(0);

    #[test]
    fn two_dice_show_a_pair_one_time_in_six() {
        let v = exact(2, 0);
        assert!((v.largest[&2] - 1.0 / 6.0).abs() < 1e-15);
        assert!((v.largest[&1] - 5.0 / 6.0).abs() < 1e-15);
        assert_eq!(v.rows[0].at_least, 1.0);
        assert!(v.p_tn.is_none() && v.damage.is_none());
        // One flip turns a die to a face beside it on the die: it makes the pair unless the
        // two dice show opposite faces (6 of the 36 rolls).
        let v = exact(2, 1);
        assert!((v.largest[&2] - 30.0 / 36.0).abs() < 1e-15);
    }

    #[test]
    fn the_largest_exact_pool_takes_every_net_flip() {
        // 40 dice and 1000 flips either way: one group of all, or the fewest, ⌈40/6⌉.
        assert!((exact(40, 1000).largest[&40] - 1.0).abs() < 1e-12);
        assert!((exact(40, -1000).largest[&7] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn flips_of_both_sides_net_out() {
        let v = roll_soluna(
            pool(5),
            Flips::new(3).unwrap(),
            Flips::new(1000).unwrap(),
            Target::default(),
            Dice::Seed(1),
        )
        .unwrap();
        assert_eq!(v.test.spec.net_flips, -997);
    }

    crate::bounded::bounded_tests!(
        soluna_pool,
        SolunaPool,
        "a Sol'una test rolls 1 to 1000 dice"
    );
    crate::bounded::bounded_tests!(
        exact_soluna_pool,
        ExactSolunaPool,
        "exact odds take 1 to 40 dice (a test rolls up to 1000)"
    );
    crate::bounded::bounded_tests!(flips, Flips, "flips are 0 to 1000");
    crate::bounded::bounded_tests!(net_flips, NetFlips, "net flips are -1000 to 1000");

    #[test]
    fn typed_faces_are_one_per_die() {
        // 4 2 6 3 6: a pair of sixes; through body 2 in melee (the shield does not count),
        // no damage.
        let target = Target {
            tn: Some(2),
            body: Some(2),
            shield: 2,
            melee: true,
        };
        let v = roll_soluna(
            pool(5),
            NONE,
            NONE,
            target,
            Dice::Typed(vec![4, 2, 6, 3, 6]),
        )
        .unwrap();
        assert_eq!((v.largest, v.face), (2, 6));
        assert_eq!(v.damage, Some(0));
        assert_eq!(v.passed, Some(true));
        let e = roll_soluna(pool(2), NONE, NONE, target, Dice::Typed(vec![3])).unwrap_err();
        assert_eq!(
            e,
            SolunaOnceError::Typed(TypedDiceError::TooFew {
                field: Field::Typed,
                given: 1,
                order: TEST_ORDER.to_owned()
            })
        );
    }
}
