//! So1um Expanded checks without a sheet or a campaign: `solum check ATTRIBUTE …` and
//! `solum odds check`. Nothing is journaled. The dice of each side are typed in by hand
//! (`rolled`, `against_rolled`, as text) or rolled by one generator (`seed`); why a typed
//! value was not needed is data ([`Unrolled`]), the rule a front end renders.

use std::cell::{Cell, RefCell};

use serde::Serialize;

use crate::fields::input_fields;
use solum_dice::{DiceError, FacesError, prob_to_f64};
use solum_expanded::PoolSpec;
use solum_expanded::check::{
    CheckSpec, OpposedOutcome, OpposedSpec, PoolRoll, Side, roll_check, roll_opposed,
};
use solum_expanded::odds::{OpposedOdds, opposed_odds, p_pass, result_distribution};

pub use solum_expanded::character::Attribute;
pub use solum_expanded::check::{DrawRule, Reroll, Verdict};
pub use solum_expanded::{Difficulty, MAX_POOL, MAX_POOL_ATTRIBUTE, Pool};

use crate::bounded::bounded;
use crate::sides::{Generator, SideDice, typed};
use crate::typed_dice;

bounded! {
    /// The attribute a check's pool is built from (S1), 1 to [`MAX_POOL_ATTRIBUTE`]:
    /// attributes start at 1, and the largest is the one that the two penalties still bring
    /// down to [`MAX_POOL`] dice. Whether the modifiers given build a pool is the rules' to
    /// say ([`PoolAsk::pool`]).
    pub struct CheckAttribute(u32) in 1, MAX_POOL_ATTRIBUTE;
    "an attribute is {min} to {max} (a pool has at most {MAX_POOL} dice, after up to 2 penalties)"
}

bounded! {
    /// A So1um Expanded pool typed as a number, 1 to [`MAX_POOL`] dice: the other side of an
    /// opposed check, a fighter's combat pool, a vehicle's pilot's.
    pub struct CombatPool(u32) in 1, MAX_POOL;
    "a pool has {min} to {max} dice"
}

impl CombatPool {
    /// The rules' pool of these dice.
    pub fn pool(self) -> Pool {
        Pool::new(u64::from(self.get())).expect("a CombatPool is within MAX_POOL")
    }
}

input_fields! {
    /// An input of a one-shot check, for errors a front end names as its own flag.
    Field {
        /// The attribute the pool is built from.
        Attribute = "attribute",
        /// The difficulty.
        Vs = "vs",
        /// Draws rolled off.
        RollOff = "roll_off",
        /// The first side's typed faces.
        Rolled = "rolled",
        /// The opposing side's typed faces.
        AgainstRolled = "against_rolled",
        /// The seed.
        Seed = "seed",
    }
}

/// Why a typed value was not needed: a rule that left a die unrolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Unrolled {
    /// Difficulty 1 is automatic: nothing is rolled.
    Automatic,
    /// The gear reroll is used only when it can change the outcome.
    GearCouldNotChange,
    /// A 6 already reaches the difficulty: no Rule-of-6 chain (only above 6).
    SixReaches {
        /// The difficulty.
        difficulty: u32,
    },
    /// Only one side shows a 6: no Rule-of-6 chain (only when both do).
    OneSideSix,
    /// The results differ, so there is no roll-off.
    NoRollOff,
    /// The draw stands: no roll-off unless draws are rolled off.
    DrawStands,
}

impl Unrolled {
    /// The rule in words, with the fields named by `name`.
    pub fn reason(self, name: &dyn Fn(Field) -> String) -> String {
        match self {
            Self::Automatic => "difficulty 1 is automatic: nothing is rolled".to_owned(),
            Self::GearCouldNotChange => {
                "the gear reroll is used only when it can change the outcome, and it could not"
                    .to_owned()
            }
            Self::SixReaches { difficulty } => format!(
                "a 6 already reaches {difficulty}, so no Rule-of-6 chain die is rolled (only above 6)"
            ),
            Self::OneSideSix => {
                "only one side shows a 6, so no Rule-of-6 chain die is rolled (only when both do)"
                    .to_owned()
            }
            Self::NoRollOff => "the results differ, so there is no roll-off".to_owned(),
            Self::DrawStands => format!(
                "the draw stands: no roll-off without {}",
                name(Field::RollOff)
            ),
        }
    }
}

/// Why a one-shot check or its odds was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckOnceError {
    /// The pool the attribute and its modifiers build is outside the rules (their own words):
    /// a background on the largest attributes (the numbers themselves are held to their
    /// ranges by [`CheckAttribute`] and [`CombatPool`]).
    #[error("{0}")]
    Pool(String),
    /// Typed faces that are not a list of numbers.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    Faces {
        /// The field at fault.
        field: Field,
        /// What is wrong with them.
        problem: String,
    },
    /// A seed where every die is typed: it would roll nothing.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    SeedRollsNothing {
        /// The seed given.
        seed: u64,
        /// The fields that type every die.
        typed: Vec<Field>,
    },
    /// Typed values ran out.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    TooFewDice {
        /// The field at fault.
        field: Field,
        /// Values typed.
        given: usize,
        /// The order values are read in.
        order: String,
    },
    /// A typed value that is no face of the die.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    NotAFace {
        /// The field at fault.
        field: Field,
        /// The value.
        value: u32,
        /// Its place among the typed values, from 1.
        position: usize,
        /// The die it was read for.
        sides: u32,
    },
    /// More values typed than the roll used, with the rules that left dice unrolled.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    TooManyDice {
        /// The field at fault.
        field: Field,
        /// Values typed.
        given: usize,
        /// Values the roll used.
        used: usize,
        /// Rules that left a die unrolled.
        why: Vec<Unrolled>,
        /// The order values are read in.
        order: String,
    },
    /// The system's randomness failed.
    #[error("the dice could not be rolled: {0}")]
    Dice(String),
}

impl CheckOnceError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Pool(_) => Some(Field::Attribute),
            Self::Faces { field, .. }
            | Self::TooFewDice { field, .. }
            | Self::NotAFace { field, .. }
            | Self::TooManyDice { field, .. } => Some(*field),
            Self::SeedRollsNothing { .. } => Some(Field::Seed),
            Self::Dice(_) => None,
        }
    }

    /// A stable code for the API (`check-pool`, `dice-too-many`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Pool(_) => "check-pool",
            Self::Faces { .. } => "dice-faces",
            Self::SeedRollsNothing { .. } => "dice-seed-rolls-nothing",
            Self::TooFewDice { .. } => "dice-too-few",
            Self::NotAFace { .. } => "dice-not-a-face",
            Self::TooManyDice { .. } => "dice-too-many",
            Self::Dice(_) => "dice-source",
        }
    }

    /// True when the input is at fault, false for a failure of the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, Self::Dice(_))
    }

    /// The message with the fields named by `name` (the command line passes its flags).
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        match self {
            Self::Pool(problem) => problem.clone(),
            Self::Faces { field, problem } => {
                format!("{}: {problem}", name(*field))
            }
            Self::SeedRollsNothing { seed, typed } => {
                let fields: Vec<String> = typed.iter().map(|f| name(*f)).collect();
                format!(
                    "{} {seed}: every die is typed with {}, so a seed would roll nothing",
                    name(Field::Seed),
                    fields.join(" and ")
                )
            }
            Self::TooFewDice {
                field,
                given,
                order,
            } => typed_dice::too_few(&name(*field), *given, order),
            Self::NotAFace {
                field,
                value,
                position,
                sides,
            } => typed_dice::not_a_face(&name(*field), *value, *position, *sides),
            Self::TooManyDice {
                field,
                given,
                used,
                why,
                order,
            } => {
                let mut parts: Vec<String> = why.iter().map(|w| w.reason(&name)).collect();
                parts.push(order.clone());
                typed_dice::too_many(&name(*field), *given, *used, &parts.join("; "))
            }
            Self::Dice(problem) => format!("the dice could not be rolled: {problem}"),
        }
    }
}

fn faces_error((field, e): (Field, FacesError)) -> CheckOnceError {
    CheckOnceError::Faces {
        field,
        problem: e.to_string(),
    }
}

fn dice_error(e: DiceError, field: Option<Field>, order: String) -> CheckOnceError {
    match (e, field) {
        (DiceError::Exhausted { given }, Some(field)) => CheckOnceError::TooFewDice {
            field,
            given,
            order,
        },
        (
            DiceError::OutOfRange {
                value,
                sides,
                position,
            },
            Some(field),
        ) => CheckOnceError::NotAFace {
            field,
            value,
            position,
            sides,
        },
        (other, _) => CheckOnceError::Dice(other.to_string()),
    }
}

/// The pool of a check built from numbers (ruling S1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolAsk {
    /// The attribute.
    pub attribute: CheckAttribute,
    /// A background applies: +1 die.
    pub background: bool,
    /// Armor too heavy: −1 die.
    pub armor_too_heavy: bool,
    /// A heavy weapon at Body below 3: −1 die.
    pub heavy_weapon: bool,
    /// Gear applies: one reroll of a die, once.
    pub gear: bool,
}

impl PoolAsk {
    /// The pool, within the rules: a background can take the largest attributes past
    /// [`MAX_POOL`].
    pub fn pool(&self) -> Result<Pool, CheckOnceError> {
        PoolSpec {
            attribute: self.attribute.get(),
            background: self.background,
            armor_too_heavy: self.armor_too_heavy,
            heavy_weapon_weak: self.heavy_weapon,
        }
        .pool()
        .map_err(|e| CheckOnceError::Pool(e.to_string()))
    }
}

/// What a check is made against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A difficulty (read at the front end's edge: a number or one of the text's names).
    Vs(Difficulty),
    /// An opposing pool.
    Against {
        /// Its dice.
        pool: CombatPool,
        /// Gear on the opposing side.
        gear: bool,
        /// Draws rolled off rather than standing.
        roll_off: bool,
    },
}

/// A one-shot check as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckAsk {
    /// The pool.
    pub pool: PoolAsk,
    /// A difficulty or an opposing pool.
    pub target: Target,
}

/// The order typed values are read in, for one side.
fn order(pool: Pool, opposed: bool) -> String {
    let dice = match pool.dice() {
        1 => "1 die".to_owned(),
        n => format!("{n} dice"),
    };
    format!(
        "values go: the {dice} of the pool, then the gear reroll if it is used, then one per die of the Rule-of-6 chain (only above 6, or when both sides show a 6){}",
        if opposed { ", then roll-off dice" } else { "" }
    )
}

/// The rules that left dice of one pool unrolled (`difficulty`: a check, else opposed).
fn unrolled(roll: Option<&PoolRoll>, gear: bool, difficulty: Option<u32>) -> Vec<Unrolled> {
    let Some(roll) = roll else {
        return vec![Unrolled::Automatic];
    };
    let mut why = Vec::new();
    if gear && roll.reroll.is_none() {
        why.push(Unrolled::GearCouldNotChange);
    }
    if roll.chain_not_needed {
        why.push(match difficulty {
            Some(difficulty) => Unrolled::SixReaches { difficulty },
            None => Unrolled::OneSideSix,
        });
    }
    why
}

/// The rules that left dice of one side of an opposed roll unrolled, roll-offs included.
pub fn opposed_unrolled(outcome: &OpposedOutcome, first: bool) -> Vec<Unrolled> {
    let (roll, gear) = if first {
        (&outcome.first, outcome.spec.first.gear)
    } else {
        (&outcome.second, outcome.spec.second.gear)
    };
    let mut why = unrolled(Some(roll), gear, None);
    match (outcome.spec.draws, outcome.verdict) {
        (DrawRule::RollOff, _) if outcome.roll_off.is_empty() => why.push(Unrolled::NoRollOff),
        (DrawRule::Stand, Verdict::Draw) => why.push(Unrolled::DrawStands),
        _ => {}
    }
    why
}

fn draws(roll_off: bool) -> DrawRule {
    if roll_off {
        DrawRule::RollOff
    } else {
        DrawRule::Stand
    }
}

/// A check against a difficulty, rolled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckRollView {
    /// Always `check`.
    pub kind: &'static str,
    /// The pool rolled.
    pub pool: Pool,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// Its name in the text.
    pub difficulty_name: &'static str,
    /// Gear applied.
    pub gear: bool,
    /// Difficulty 1: nothing rolled.
    pub automatic: bool,
    /// The dice were typed in.
    pub typed: bool,
    /// The pool as rolled.
    pub dice: Vec<u32>,
    /// The gear reroll, if used.
    pub reroll: Option<Reroll>,
    /// The dice after the reroll.
    pub final_dice: Vec<u32>,
    /// The Rule-of-6 chain.
    pub chain: Vec<u32>,
    /// A 6 showed but no chain was needed.
    pub chain_not_needed: bool,
    /// The result (0 when automatic).
    pub result: u32,
    /// Passed.
    pub passed: bool,
    /// The chance to pass before the roll.
    pub p_pass: f64,
    /// The same, exactly.
    pub p_pass_exact: String,
    /// The generator's seed, if it rolled anything.
    pub seed: Option<u64>,
}

/// An opposed check, rolled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpposedRollView {
    /// Always `opposed`.
    pub kind: &'static str,
    /// The first side's pool.
    pub pool: Pool,
    /// The opposing pool.
    pub against_pool: Pool,
    /// Gear on the first side.
    pub gear: bool,
    /// Gear on the opposing side.
    pub against_gear: bool,
    /// What a draw does.
    pub draws: DrawRule,
    /// The first side's pool as rolled.
    pub dice: Vec<u32>,
    /// Its gear reroll.
    pub reroll: Option<Reroll>,
    /// Its dice after the reroll.
    pub final_dice: Vec<u32>,
    /// Its Rule-of-6 chain.
    pub chain: Vec<u32>,
    /// A 6 showed but no chain was needed.
    pub chain_not_needed: bool,
    /// Its result.
    pub result: u32,
    /// Its dice were typed in.
    pub typed: bool,
    /// The opposing pool as rolled.
    pub against_dice: Vec<u32>,
    /// Its gear reroll.
    pub against_reroll: Option<Reroll>,
    /// Its dice after the reroll.
    pub against_final_dice: Vec<u32>,
    /// Its Rule-of-6 chain.
    pub against_chain: Vec<u32>,
    /// A 6 showed but no chain was needed.
    pub against_chain_not_needed: bool,
    /// Its result.
    pub against_result: u32,
    /// Its dice were typed in.
    pub against_typed: bool,
    /// Roll-off pairs (first, opposing), if a draw was rolled off.
    pub roll_off: Vec<(u32, u32)>,
    /// The first side's verdict.
    pub outcome: Verdict,
    /// The chances before the roll.
    pub p_win: f64,
    /// A draw.
    pub p_draw: f64,
    /// The opposing side wins.
    pub p_lose: f64,
    /// Exactly.
    pub p_win_exact: String,
    /// Exactly.
    pub p_draw_exact: String,
    /// Exactly.
    pub p_lose_exact: String,
    /// The generator's seed, if it rolled anything.
    pub seed: Option<u64>,
}

/// A one-shot check, rolled: against a difficulty or opposed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CheckView {
    /// Against a difficulty.
    Check(CheckRollView),
    /// Opposed.
    Opposed(OpposedRollView),
}

/// Rolls a check as typed. `rolled` and `against_rolled` are faces typed by hand for each
/// side (text: `5,3,2`); the dice not typed come from the generator with `seed` (a fresh
/// one when `None`).
pub fn roll_check_once(
    ask: &CheckAsk,
    rolled: Option<&str>,
    against_rolled: Option<&str>,
    seed: Option<u64>,
) -> Result<CheckView, CheckOnceError> {
    let pool = ask.pool.pool()?;
    let first = typed(rolled, Field::Rolled).map_err(faces_error)?;
    match ask.target {
        Target::Vs(vs) => {
            if let (Some(_), Some(seed)) = (&first, seed) {
                return Err(CheckOnceError::SeedRollsNothing {
                    seed,
                    typed: vec![Field::Rolled],
                });
            }
            let spec = CheckSpec::new(pool, vs).with_gear(ask.pool.gear);
            check_vs(&spec, first, seed).map(CheckView::Check)
        }
        Target::Against {
            pool: against,
            gear,
            roll_off,
        } => {
            let second = typed(against_rolled, Field::AgainstRolled).map_err(faces_error)?;
            if let (Some(_), Some(_), Some(seed)) = (&first, &second, seed) {
                return Err(CheckOnceError::SeedRollsNothing {
                    seed,
                    typed: vec![Field::Rolled, Field::AgainstRolled],
                });
            }
            let spec = OpposedSpec {
                first: Side {
                    pool,
                    gear: ask.pool.gear,
                },
                second: Side {
                    pool: against.pool(),
                    gear,
                },
                draws: draws(roll_off),
            };
            check_against(&spec, first, second, seed).map(CheckView::Opposed)
        }
    }
}

fn check_vs(
    spec: &CheckSpec,
    first: Option<solum_dice::TypedDice>,
    seed: Option<u64>,
) -> Result<CheckRollView, CheckOnceError> {
    let generator = RefCell::new(Generator::new(seed));
    let blame = Cell::new(None);
    let p = p_pass(spec);
    let mut dice = SideDice::new(&generator, first, Field::Rolled, &blame);
    let outcome = roll_check(spec, &mut dice)
        .map_err(|e| dice_error(e, blame.get(), order(spec.pool, false)))?;
    if let Some((used, given)) = dice.left_over() {
        return Err(CheckOnceError::TooManyDice {
            field: Field::Rolled,
            given,
            used,
            why: unrolled(
                outcome.roll.as_ref(),
                spec.gear,
                Some(spec.difficulty.value()),
            ),
            order: order(spec.pool, false),
        });
    }
    let roll = outcome.roll.as_ref();
    Ok(CheckRollView {
        kind: "check",
        pool: spec.pool,
        difficulty: spec.difficulty,
        difficulty_name: spec.difficulty.name(),
        gear: spec.gear,
        automatic: roll.is_none(),
        typed: dice.is_typed(),
        dice: roll.map(|r| r.dice.to_vec()).unwrap_or_default(),
        reroll: roll.and_then(|r| r.reroll),
        final_dice: roll.map(PoolRoll::final_dice).unwrap_or_default(),
        chain: roll.map(|r| r.chain.clone()).unwrap_or_default(),
        chain_not_needed: roll.is_some_and(|r| r.chain_not_needed),
        result: outcome.result,
        passed: outcome.passed,
        p_pass: prob_to_f64(&p),
        p_pass_exact: p.to_string(),
        seed: generator.borrow().used_seed(),
    })
}

fn check_against(
    spec: &OpposedSpec,
    first: Option<solum_dice::TypedDice>,
    second: Option<solum_dice::TypedDice>,
    seed: Option<u64>,
) -> Result<OpposedRollView, CheckOnceError> {
    let generator = RefCell::new(Generator::new(seed));
    let blame = Cell::new(None);
    let odds = opposed_odds(spec);
    let mut a = SideDice::new(&generator, first, Field::Rolled, &blame);
    let mut b = SideDice::new(&generator, second, Field::AgainstRolled, &blame);
    let outcome = roll_opposed(spec, &mut a, &mut b).map_err(|e| {
        let at = blame.get();
        let pool = if at == Some(Field::AgainstRolled) {
            spec.second.pool
        } else {
            spec.first.pool
        };
        dice_error(e, at, order(pool, true))
    })?;
    for (side, field, pool, is_first) in [
        (&a, Field::Rolled, spec.first.pool, true),
        (&b, Field::AgainstRolled, spec.second.pool, false),
    ] {
        if let Some((used, given)) = side.left_over() {
            return Err(CheckOnceError::TooManyDice {
                field,
                given,
                used,
                why: opposed_unrolled(&outcome, is_first),
                order: order(pool, true),
            });
        }
    }
    let (o, p) = (&outcome, odds_fields(&odds));
    Ok(OpposedRollView {
        kind: "opposed",
        pool: spec.first.pool,
        against_pool: spec.second.pool,
        gear: spec.first.gear,
        against_gear: spec.second.gear,
        draws: spec.draws,
        dice: o.first.dice.to_vec(),
        reroll: o.first.reroll,
        final_dice: o.first.final_dice(),
        chain: o.first.chain.clone(),
        chain_not_needed: o.first.chain_not_needed,
        result: o.first.result,
        typed: a.is_typed(),
        against_dice: o.second.dice.to_vec(),
        against_reroll: o.second.reroll,
        against_final_dice: o.second.final_dice(),
        against_chain: o.second.chain.clone(),
        against_chain_not_needed: o.second.chain_not_needed,
        against_result: o.second.result,
        against_typed: b.is_typed(),
        roll_off: o.roll_off.clone(),
        outcome: o.verdict,
        p_win: p.p_win,
        p_draw: p.p_draw,
        p_lose: p.p_lose,
        p_win_exact: p.p_win_exact,
        p_draw_exact: p.p_draw_exact,
        p_lose_exact: p.p_lose_exact,
        seed: generator.borrow().used_seed(),
    })
}

/// An opposed check's chances, as floats and exactly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpposedChances {
    /// The first side wins.
    pub p_win: f64,
    /// A draw (0 when draws are rolled off).
    pub p_draw: f64,
    /// The opposing side wins.
    pub p_lose: f64,
    /// Exactly.
    pub p_win_exact: String,
    /// Exactly.
    pub p_draw_exact: String,
    /// Exactly.
    pub p_lose_exact: String,
}

fn odds_fields(o: &OpposedOdds) -> OpposedChances {
    OpposedChances {
        p_win: prob_to_f64(&o.win),
        p_draw: prob_to_f64(&o.draw),
        p_lose: prob_to_f64(&o.lose),
        p_win_exact: o.win.to_string(),
        p_draw_exact: o.draw.to_string(),
        p_lose_exact: o.lose.to_string(),
    }
}

/// The chance to pass a difficulty.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckOddsView {
    /// The pool.
    pub pool: Pool,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// Its name in the text.
    pub difficulty_name: &'static str,
    /// Gear applied.
    pub gear: bool,
    /// The chance to pass.
    pub p_pass: f64,
    /// Exactly.
    pub p_pass_exact: String,
}

/// The chances of an opposed check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpposedOddsView {
    /// The first side's pool.
    pub pool: Pool,
    /// The opposing pool.
    pub against_pool: Pool,
    /// Gear on the first side.
    pub gear: bool,
    /// Gear on the opposing side.
    pub against_gear: bool,
    /// What a draw does.
    pub draws: DrawRule,
    /// The chances.
    #[serde(flatten)]
    pub chances: OpposedChances,
}

/// One difficulty of the designer's table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DifficultyRow {
    /// The difficulty.
    pub difficulty: Difficulty,
    /// Its name in the text.
    pub name: &'static str,
    /// The chance to pass, with gear if the pool has it.
    pub p_pass: f64,
    /// Exactly.
    pub p_pass_exact: String,
    /// Without gear.
    pub p_pass_without_gear: f64,
    /// Without gear, exactly.
    pub p_pass_without_gear_exact: String,
    /// With gear.
    pub p_pass_with_gear: f64,
    /// With gear, exactly.
    pub p_pass_with_gear_exact: String,
}

/// One opposing pool of the designer's table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpposedRow {
    /// The opposing pool.
    pub against_pool: Pool,
    /// The chances.
    #[serde(flatten)]
    pub chances: OpposedChances,
}

/// The designer's table of a pool: difficulties 2 to 12, then opposing pools 1 to 6.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolTableView {
    /// The pool.
    pub pool: Pool,
    /// Gear applied.
    pub gear: bool,
    /// The mean result.
    pub mean_result: f64,
    /// Its standard deviation.
    pub sd_result: f64,
    /// Difficulties 2 to 12.
    pub difficulties: Vec<DifficultyRow>,
    /// Opposing pools of 1 to 6 dice.
    pub opposed: Vec<OpposedRow>,
}

/// The odds of a check: against a difficulty, opposed, or the whole table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CheckOddsAnswer {
    /// Against a difficulty.
    Check(CheckOddsView),
    /// Opposed.
    Opposed(OpposedOddsView),
    /// The designer's table.
    Table(PoolTableView),
}

/// The exact odds of a check as typed; the designer's table when `target` is `None`
/// (draws rolled off or not per `roll_off`).
pub fn check_odds_once(
    pool: &PoolAsk,
    target: Option<&Target>,
    roll_off: bool,
) -> Result<CheckOddsAnswer, CheckOnceError> {
    let gear = pool.gear;
    let pool = pool.pool()?;
    let opposed = |against: Pool, against_gear: bool, roll_off: bool| {
        opposed_odds(&OpposedSpec {
            first: Side { pool, gear },
            second: Side {
                pool: against,
                gear: against_gear,
            },
            draws: draws(roll_off),
        })
    };
    match target {
        Some(Target::Vs(vs)) => {
            let spec = CheckSpec::new(pool, *vs).with_gear(gear);
            let p = p_pass(&spec);
            Ok(CheckOddsAnswer::Check(CheckOddsView {
                pool,
                difficulty: spec.difficulty,
                difficulty_name: spec.difficulty.name(),
                gear,
                p_pass: prob_to_f64(&p),
                p_pass_exact: p.to_string(),
            }))
        }
        Some(&Target::Against {
            pool: against,
            gear: against_gear,
            roll_off,
        }) => {
            let against = against.pool();
            Ok(CheckOddsAnswer::Opposed(OpposedOddsView {
                pool,
                against_pool: against,
                gear,
                against_gear,
                draws: draws(roll_off),
                chances: odds_fields(&opposed(against, against_gear, roll_off)),
            }))
        }
        None => {
            let dist = result_distribution(pool);
            let difficulties = (2..=12)
                .filter_map(|d| Difficulty::new(d).ok())
                .map(|difficulty| {
                    let spec = CheckSpec::new(pool, difficulty);
                    let (p, g) = (p_pass(&spec), p_pass(&spec.with_gear(true)));
                    let shown = if gear { &g } else { &p };
                    DifficultyRow {
                        difficulty,
                        name: difficulty.name(),
                        p_pass: prob_to_f64(shown),
                        p_pass_exact: shown.to_string(),
                        p_pass_without_gear: prob_to_f64(&p),
                        p_pass_without_gear_exact: p.to_string(),
                        p_pass_with_gear: prob_to_f64(&g),
                        p_pass_with_gear_exact: g.to_string(),
                    }
                })
                .collect();
            let opposed = (1..=6)
                .filter_map(|n| Pool::new(n).ok())
                .map(|other| OpposedRow {
                    against_pool: other,
                    chances: odds_fields(&opposed(other, false, roll_off)),
                })
                .collect();
            Ok(CheckOddsAnswer::Table(PoolTableView {
                pool,
                gear,
                mean_result: dist.mean(),
                sd_result: dist.std_dev(),
                difficulties,
                opposed,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(attribute: u32) -> PoolAsk {
        PoolAsk {
            attribute: CheckAttribute::new(attribute).unwrap(),
            background: false,
            armor_too_heavy: false,
            heavy_weapon: false,
            gear: false,
        }
    }

    #[test]
    fn nick_climbs_the_tower_with_dice_he_rolled() {
        // README: Body 3 + a background against tough (5), 5 3 2 2: passed, 80.25%.
        let ask = CheckAsk {
            pool: PoolAsk {
                background: true,
                ..pool(3)
            },
            target: Target::Vs(Difficulty::TOUGH),
        };
        let CheckView::Check(v) = roll_check_once(&ask, Some("5,3,2,2"), None, None).unwrap()
        else {
            panic!("a check")
        };
        assert!(v.passed && v.typed);
        assert_eq!((v.result, v.seed), (5, None));
        // 1 − (4/6)^4 = 65/81 of rolling a 5 or 6 among four dice.
        assert_eq!(v.p_pass_exact, "65/81");
    }

    #[test]
    fn a_value_left_over_says_which_rule_left_it() {
        let ask = CheckAsk {
            pool: pool(2),
            target: Target::Vs("4".parse().unwrap()),
        };
        let e = roll_check_once(&ask, Some("6,2,5"), None, None).unwrap_err();
        assert_eq!(e.code(), "dice-too-many");
        let CheckOnceError::TooManyDice { why, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!(why, &[Unrolled::SixReaches { difficulty: 4 }]);
        let text = e.describe(|f| format!("--{}", f.name().replace('_', "-")));
        assert!(
            text.starts_with(
                "too many values in --rolled: 3 given, the roll used 2 (a 6 already reaches 4"
            ),
            "{text}"
        );
        let ask = CheckAsk {
            pool: pool(1),
            target: Target::Against {
                pool: CombatPool::new(1).unwrap(),
                gear: false,
                roll_off: false,
            },
        };
        let e = roll_check_once(&ask, Some("3,1"), Some("3"), None).unwrap_err();
        assert!(
            e.describe(|f| format!("--{}", f.name().replace('_', "-")))
                .contains("the draw stands: no roll-off without --roll-off"),
            "{e}"
        );
    }

    #[test]
    fn refusals_name_their_field() {
        let ask = CheckAsk {
            pool: pool(2),
            target: Target::Vs("4".parse().unwrap()),
        };
        let e = roll_check_once(&ask, Some("1,2"), None, Some(9)).unwrap_err();
        assert_eq!(e.code(), "dice-seed-rolls-nothing");
        let e = roll_check_once(&ask, Some("1,7"), None, None).unwrap_err();
        assert_eq!(e.field(), Some(Field::Rolled));
        assert_eq!(e.code(), "dice-not-a-face");
        // A background takes the largest attribute past the largest pool: the rules' words.
        let past = PoolAsk {
            background: true,
            ..pool(1000)
        };
        let e = past.pool().unwrap_err();
        assert_eq!(
            (e.code(), e.field()),
            ("check-pool", Some(Field::Attribute))
        );
        assert_eq!(
            e.describe(|_| unreachable!("the rules' words name no field")),
            "a pool of 1001 dice is not possible: a pool has 1 to 1000 dice"
        );
    }

    #[test]
    fn every_attribute_in_range_builds_a_pool_with_some_modifiers() {
        // S1: the two penalties take 1002 down to 1000 dice, one takes 1001, none 1000; the
        // pool never drops below one die (R2).
        let with = |attribute, armor_too_heavy, heavy_weapon| PoolAsk {
            armor_too_heavy,
            heavy_weapon,
            ..pool(attribute)
        };
        assert_eq!(with(1002, true, true).pool().unwrap().dice(), 1000);
        assert_eq!(with(1001, true, false).pool().unwrap().dice(), 1000);
        assert_eq!(with(1000, false, false).pool().unwrap().dice(), 1000);
        assert_eq!(with(1, true, true).pool().unwrap().dice(), 1);
        assert_eq!(
            with(1002, false, false).pool().unwrap_err().to_string(),
            "a pool of 1002 dice is not possible: a pool has 1 to 1000 dice"
        );
    }

    crate::bounded::bounded_tests!(combat_pool, CombatPool, "a pool has 1 to 1000 dice");
    crate::bounded::bounded_tests!(
        check_attribute,
        CheckAttribute,
        "an attribute is 1 to 1002 (a pool has at most 1000 dice, after up to 2 penalties)"
    );

    #[test]
    fn the_table_shows_difficulties_and_opposing_pools() {
        let CheckOddsAnswer::Table(t) = check_odds_once(&pool(1), None, false).unwrap() else {
            panic!("a table")
        };
        assert_eq!(t.difficulties.len(), 11);
        // One die against 2: five faces of six.
        assert_eq!(t.difficulties[0].p_pass_exact, "5/6");
        // One die against one die: the two sides are alike, so winning is as likely as losing.
        let even = &t.opposed[0].chances;
        assert_eq!(even.p_win_exact, even.p_lose_exact);
        assert_eq!(t.opposed.len(), 6);
    }
}
