//! Rolling checks: unopposed against a difficulty, and opposed pool against pool.
//!
//! Order of a check (ruling S1): build the pool, roll it, use a gear reroll of one die once
//! if it can change the outcome, then apply the Rule of 6 to the final dice, then compare.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, Faces};

use crate::{Difficulty, Pool};

/// A gear reroll: which die was rolled again, and what it showed before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Reroll))]
pub struct Reroll {
    /// 0-based position of the rerolled die in the pool as rolled.
    pub index: usize,
    /// The face it showed.
    pub from: u32,
    /// The face it shows now.
    pub to: u32,
}

/// Every die of one pool: as rolled, the gear reroll, and the Rule-of-6 chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::PoolRoll))]
pub struct PoolRoll {
    /// The pool as rolled, before any reroll (a list of faces; inline for small pools).
    pub dice: Faces,
    /// The gear reroll, if one was used.
    pub reroll: Option<Reroll>,
    /// The Rule-of-6 chain: the faces rolled again after a 6 (empty when no 6 showed, or when
    /// the chain could not change the outcome). Every face but the last is a 6.
    pub chain: Vec<u32>,
    /// A 6 showed but no chain was rolled, because it could not change the outcome (ruling
    /// S2: the difficulty is 6 or less, or the other side shows no 6). The result shows as 6.
    pub chain_not_needed: bool,
    /// The highest die, or 6 plus the chain when a 6 showed and the chain was rolled.
    pub result: u32,
}

impl PoolRoll {
    /// The dice after the gear reroll.
    pub fn final_dice(&self) -> Vec<u32> {
        let mut dice = self.dice.to_vec();
        if let Some(r) = self.reroll {
            dice[r.index] = r.to;
        }
        dice
    }
}

/// Rolls the pool's dice in one call to the source into `faces` (inline, no allocation, up
/// to 8 dice): the same faces as one `roll(6)` per die. The caller owns the faces, so they
/// are drawn where they stay instead of being copied out of a returned `Result`.
fn roll_faces(pool: Pool, dice: &mut dyn DiceSource) -> Result<Faces, DiceError> {
    let mut faces = Faces::zeroed(pool.dice() as usize);
    dice.roll_into(6, &mut faces)?;
    Ok(faces)
}

fn highest(faces: &[u32]) -> u32 {
    faces.iter().copied().max().unwrap_or(0)
}

/// Rerolls the lowest die (the first of equal lowest ones).
fn reroll_lowest(faces: &[u32], dice: &mut dyn DiceSource) -> Result<Reroll, DiceError> {
    let (index, &from) = faces
        .iter()
        .enumerate()
        .min_by_key(|&(i, &f)| (f, i))
        .expect("a pool has at least one die");
    let to = dice.roll(6)?;
    Ok(Reroll { index, from, to })
}

/// Which die a gear reroll takes: the player's choice (ruling S1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GearDie {
    /// The choice with the best chance (the default, and the one the exact odds assume):
    /// the lowest die, and only when a reroll can change the outcome.
    #[default]
    Best,
    /// No reroll: the player keeps the dice as rolled.
    Skip,
    /// The die at this position (1 is the first die of the pool as rolled), rerolled
    /// whatever it shows: what a player typing real dice rerolled.
    Die(u32),
}

impl GearDie {
    /// Whether the choice names a die the pool has (a position from 1 to the pool's dice).
    pub fn fits(self, pool: Pool) -> bool {
        match self {
            Self::Die(n) => (1..=pool.dice()).contains(&n),
            _ => true,
        }
    }
}

/// A gear-reroll choice that does not read: not `best`, `none` or a position from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}`: write best, none, or the position of the rerolled die from 1")]
pub struct NotAGearDie(pub String);

impl std::str::FromStr for GearDie {
    type Err = NotAGearDie;
    /// `best`, `none`, or the position of the die rerolled, counted from 1 (whether the
    /// pool has that die is [`GearDie::fits`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        match word.as_str() {
            "best" => Ok(Self::Best),
            "none" => Ok(Self::Skip),
            n => match n.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(Self::Die(n)),
                _ => Err(NotAGearDie(word)),
            },
        }
    }
}

/// The reroll a choice makes of `faces`, or `None`; `helps` is the best choice's judgement.
/// A named position outside the pool rerolls nothing (callers check [`GearDie::fits`]).
fn choose_reroll(
    choice: GearDie,
    faces: &[u32],
    helps: bool,
    dice: &mut dyn DiceSource,
) -> Result<Option<Reroll>, DiceError> {
    match choice {
        GearDie::Best if helps => Ok(Some(reroll_lowest(faces, dice)?)),
        GearDie::Best | GearDie::Skip => Ok(None),
        GearDie::Die(n) => match faces.get((n as usize).wrapping_sub(1)) {
            Some(&from) => Ok(Some(Reroll {
                index: n as usize - 1,
                from,
                to: dice.roll(6)?,
            })),
            None => Ok(None),
        },
    }
}

/// The highest face after an optional reroll, without copying the dice.
fn highest_after(faces: &[u32], reroll: Option<Reroll>) -> u32 {
    match reroll {
        None => highest(faces),
        Some(r) => faces
            .iter()
            .enumerate()
            .map(|(i, &f)| if i == r.index { r.to } else { f })
            .max()
            .unwrap_or(0),
    }
}

/// The Rule of 6 (ruling S2): if any die shows 6 (`top` is the highest face) and the chain
/// can change the outcome (`matters`), one of them is rolled again and added, and again while
/// it shows 6. Returns the chain, whether a 6 went unchained, and the result. Inlined: a
/// returned tuple read back at once stalls the check on its own stores.
#[inline(always)]
fn rule_of_six(
    top: u32,
    matters: bool,
    dice: &mut dyn DiceSource,
) -> Result<(Vec<u32>, bool, u32), DiceError> {
    if top < 6 {
        return Ok((Vec::new(), false, top));
    }
    if !matters {
        return Ok((Vec::new(), true, 6));
    }
    let mut chain = Vec::new();
    let mut result = 6;
    loop {
        let face = dice.roll(6)?;
        chain.push(face);
        result += face;
        if face != 6 {
            return Ok((chain, false, result));
        }
    }
}

/// What a check against difficulty 1 says (ruling S2): it passes, and no die is rolled.
pub const AUTOMATIC: &str = "automatic: no roll needed";

/// Why gear given for an automatic check changes nothing: no die is rolled, so the gear
/// reroll has nothing to change (the Expanded and the original check alike; a front end
/// says it beside the gear it was given).
pub const GEAR_UNUSED: &str = "unused: nothing is rolled";

/// What a table of the odds by difficulty says of the difficulties above 6 (ruling S2): no
/// die shows more than 6, so only a Rule-of-6 chain reaches them.
pub const ABOVE_SIX: &str = "Above 6 only the Rule of 6 can pass.";

/// Whether a Rule-of-6 chain can change an unopposed check (ruling S2): only above 6, since
/// a 6 already passes any difficulty up to 6.
pub fn chain_matters_in_check(difficulty: Difficulty) -> bool {
    difficulty.value() > 6
}

/// Whether the Rule-of-6 chains can change an opposed check (ruling S2): only when both sides
/// show a 6 (a lone 6 already wins).
pub fn chains_matter_in_opposed(first_top: u32, second_top: u32) -> bool {
    first_top >= 6 && second_top >= 6
}

/// The highest face of a pool, allocating nothing.
fn roll_top(pool: Pool, dice: &mut dyn DiceSource) -> Result<u32, DiceError> {
    let mut top = 0;
    for _ in 0..pool.dice() {
        top = top.max(dice.roll(6)?);
    }
    Ok(top)
}

/// The sum of a Rule-of-6 chain, allocating nothing.
fn roll_chain_sum(dice: &mut dyn DiceSource) -> Result<u32, DiceError> {
    let mut sum = 0;
    loop {
        let face = dice.roll(6)?;
        sum += face;
        if face != 6 {
            return Ok(sum);
        }
    }
}

/// The verdict of an opposed check without gear, for the first side. It draws the same dice
/// in the same order as [`roll_opposed`] with one shared source (first pool, second pool,
/// the chains only when both show a 6, then roll-off pairs) and allocates nothing: the inner
/// loop of fight simulations.
pub fn roll_verdict(
    first: Pool,
    second: Pool,
    draws: DrawRule,
    dice: &mut dyn DiceSource,
) -> Result<Verdict, DiceError> {
    let mut mine = roll_top(first, dice)?;
    let mut theirs = roll_top(second, dice)?;
    if chains_matter_in_opposed(mine, theirs) {
        mine += roll_chain_sum(dice)?;
        theirs += roll_chain_sum(dice)?;
    }
    let mut verdict = Verdict::compare(mine, theirs);
    if draws == DrawRule::RollOff {
        while verdict == Verdict::Draw {
            verdict = Verdict::compare(dice.roll(6)?, dice.roll(6)?);
        }
    }
    Ok(verdict)
}

/// Whether gear should reroll a die in an unopposed check: only when it can change the
/// outcome, i.e. no die reaches the difficulty yet (or, above 6, no die shows the 6 that a
/// Rule-of-6 chain needs; with a 6 showing, another 6 adds nothing).
pub(crate) fn gear_helps_check(highest_face: u32, difficulty: Difficulty) -> bool {
    highest_face < difficulty.value().min(6)
}

/// Whether gear should reroll a die in an opposed check, judged on the highest faces before
/// the Rule of 6: when behind, and when level below 6 with two or more dice (rerolling the
/// lowest of several dice can only help; rerolling a lone die on a draw could lose it). With
/// both sides on a 6, only the chains decide and a reroll adds nothing.
pub(crate) fn gear_helps_opposed(own: u32, other: u32, own_dice: u32) -> bool {
    own < other || (own == other && own < 6 && own_dice >= 2)
}

/// An unopposed check, ready to roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::CheckSpec))]
pub struct CheckSpec {
    /// The dice rolled.
    pub pool: Pool,
    /// The number to reach.
    pub difficulty: Difficulty,
    /// A piece of useful gear allows rerolling one die once.
    pub gear: bool,
}

impl CheckSpec {
    /// A check without gear.
    pub fn new(pool: Pool, difficulty: Difficulty) -> Self {
        Self {
            pool,
            difficulty,
            gear: false,
        }
    }

    /// The same check with gear.
    pub fn with_gear(self, gear: bool) -> Self {
        Self { gear, ..self }
    }
}

/// The outcome of an unopposed check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::CheckOutcome))]
pub struct CheckOutcome {
    /// What was rolled against what.
    pub spec: CheckSpec,
    /// The dice; `None` for an automatic check (difficulty 1), which rolls nothing.
    pub roll: Option<PoolRoll>,
    /// The result compared with the difficulty (0 for an automatic check).
    pub result: u32,
    /// Whether the check passed.
    pub passed: bool,
}

/// Rolls an unopposed check. Dice are drawn in the order: the pool, the gear reroll (if
/// used), the Rule-of-6 chain (only above difficulty 6, see [`chain_matters_in_check`]).
pub fn roll_check(spec: &CheckSpec, dice: &mut dyn DiceSource) -> Result<CheckOutcome, DiceError> {
    roll_check_choosing(spec, GearDie::Best, dice)
}

/// [`roll_check`] with the player's gear choice (S1): the best one, none, or a named die.
pub fn roll_check_choosing(
    spec: &CheckSpec,
    choice: GearDie,
    dice: &mut dyn DiceSource,
) -> Result<CheckOutcome, DiceError> {
    if spec.difficulty.is_automatic() {
        return Ok(CheckOutcome {
            spec: *spec,
            roll: None,
            result: 0,
            passed: true,
        });
    }
    let mut rolled = Faces::zeroed(spec.pool.dice() as usize);
    dice.roll_into(6, &mut rolled)?;
    let reroll = if spec.gear {
        choose_reroll(
            choice,
            &rolled,
            gear_helps_check(highest(&rolled), spec.difficulty),
            dice,
        )?
    } else {
        None
    };
    let (chain, chain_not_needed, result) = rule_of_six(
        highest_after(&rolled, reroll),
        chain_matters_in_check(spec.difficulty),
        dice,
    )?;
    Ok(CheckOutcome {
        spec: *spec,
        roll: Some(PoolRoll {
            dice: rolled,
            reroll,
            chain,
            chain_not_needed,
            result,
        }),
        result,
        passed: result >= spec.difficulty.value(),
    })
}

/// One side of an opposed check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Side))]
pub struct Side {
    /// The side's dice.
    pub pool: Pool,
    /// The side has useful gear (one reroll of one die).
    pub gear: bool,
}

impl Side {
    /// A side without gear.
    pub fn new(pool: Pool) -> Self {
        Self { pool, gear: false }
    }
}

/// What happens on a draw (ruling S3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::DrawRule))]
pub enum DrawRule {
    /// A draw stands: nothing happens (the default).
    #[default]
    Stand,
    /// Both sides roll one die, again and again, until one is higher.
    RollOff,
}

/// Win, draw or lose, for the first side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Verdict))]
pub enum Verdict {
    /// The first side's result is higher.
    Win,
    /// Equal results, and the draw stands.
    Draw,
    /// The second side's result is higher.
    Lose,
}

impl Verdict {
    /// The verdict seen from the other side.
    pub fn reversed(self) -> Self {
        match self {
            Self::Win => Self::Lose,
            Self::Draw => Self::Draw,
            Self::Lose => Self::Win,
        }
    }

    fn compare(first: u32, second: u32) -> Self {
        match first.cmp(&second) {
            std::cmp::Ordering::Greater => Self::Win,
            std::cmp::Ordering::Equal => Self::Draw,
            std::cmp::Ordering::Less => Self::Lose,
        }
    }
}

/// An opposed check, ready to roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::OpposedSpec))]
pub struct OpposedSpec {
    /// The side whose verdict is reported.
    pub first: Side,
    /// The opposition.
    pub second: Side,
    /// What a draw means.
    pub draws: DrawRule,
}

impl OpposedSpec {
    /// Pool against pool, no gear, draws stand.
    pub fn new(first: Pool, second: Pool) -> Self {
        Self {
            first: Side::new(first),
            second: Side::new(second),
            draws: DrawRule::Stand,
        }
    }
}

/// The outcome of an opposed check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::OpposedOutcome))]
pub struct OpposedOutcome {
    /// What was rolled.
    pub spec: OpposedSpec,
    /// The first side's dice.
    pub first: PoolRoll,
    /// The second side's dice.
    pub second: PoolRoll,
    /// Roll-off dice `(first, second)` after a draw, when the roll-off option is on.
    pub roll_off: Vec<(u32, u32)>,
    /// The verdict for the first side.
    pub verdict: Verdict,
}

/// Rolls an opposed check. Each side draws from its own source (which may be one shared
/// source, see [`solum_dice::SharedDice`]), in this order: first pool, second pool, first
/// side's gear reroll, second side's gear reroll, first chain, second chain (the chains only
/// when both sides show a 6, see [`chains_matter_in_opposed`]), then roll-off pairs. Within
/// one side that is: the pool, the reroll, the chain, the roll-off dice.
pub fn roll_opposed(
    spec: &OpposedSpec,
    first_dice: &mut dyn DiceSource,
    second_dice: &mut dyn DiceSource,
) -> Result<OpposedOutcome, DiceError> {
    roll_opposed_choosing(spec, GearDie::Best, first_dice, second_dice)
}

/// [`roll_opposed`] with the first side's gear choice (S1); the second side takes the best.
pub fn roll_opposed_choosing(
    spec: &OpposedSpec,
    first_choice: GearDie,
    first_dice: &mut dyn DiceSource,
    second_dice: &mut dyn DiceSource,
) -> Result<OpposedOutcome, DiceError> {
    let first_rolled = roll_faces(spec.first.pool, first_dice)?;
    let second_rolled = roll_faces(spec.second.pool, second_dice)?;
    let first_reroll = if spec.first.gear {
        choose_reroll(
            first_choice,
            &first_rolled,
            gear_helps_opposed(
                highest(&first_rolled),
                highest(&second_rolled),
                spec.first.pool.dice(),
            ),
            first_dice,
        )?
    } else {
        None
    };
    let first_top = highest_after(&first_rolled, first_reroll);
    let second_reroll = if spec.second.gear
        && gear_helps_opposed(highest(&second_rolled), first_top, spec.second.pool.dice())
    {
        Some(reroll_lowest(&second_rolled, second_dice)?)
    } else {
        None
    };
    let second_top = highest_after(&second_rolled, second_reroll);
    let matters = chains_matter_in_opposed(first_top, second_top);
    let (first_chain, first_unchained, first_result) = rule_of_six(first_top, matters, first_dice)?;
    let (second_chain, second_unchained, second_result) =
        rule_of_six(second_top, matters, second_dice)?;
    let mut verdict = Verdict::compare(first_result, second_result);
    let mut roll_off = Vec::new();
    if verdict == Verdict::Draw && spec.draws == DrawRule::RollOff {
        while verdict == Verdict::Draw {
            let pair = (first_dice.roll(6)?, second_dice.roll(6)?);
            roll_off.push(pair);
            verdict = Verdict::compare(pair.0, pair.1);
        }
    }
    Ok(OpposedOutcome {
        spec: *spec,
        first: PoolRoll {
            dice: first_rolled,
            reroll: first_reroll,
            chain: first_chain,
            chain_not_needed: first_unchained,
            result: first_result,
        },
        second: PoolRoll {
            dice: second_rolled,
            reroll: second_reroll,
            chain: second_chain,
            chain_not_needed: second_unchained,
            result: second_result,
        },
        roll_off,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{ScriptedDice, TypedDice};

    fn pool(n: u64) -> Pool {
        Pool::new(n).unwrap()
    }

    /// The words of a gear-reroll choice read back as the choice serde writes; a position
    /// counts from 1, and anything else is refused in the words that list the choices.
    #[test]
    fn gear_die_reads_best_none_and_positions_from_one() {
        for (text, want) in [
            ("best", GearDie::Best),
            (" Best ", GearDie::Best),
            ("none", GearDie::Skip),
            ("NONE", GearDie::Skip),
            ("1", GearDie::Die(1)),
            ("12", GearDie::Die(12)),
        ] {
            assert_eq!(text.parse::<GearDie>(), Ok(want), "{text:?}");
        }
        for text in ["0", "-1", "", "skip", "2.5", "99999999999"] {
            let e = text.parse::<GearDie>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "`{}`: write best, none, or the position of the rerolled die from 1",
                    text.trim().to_ascii_lowercase()
                )
            );
        }
    }

    /// A seeded check keeps the generator's faces, one `roll(6)` per die in order, and its
    /// JSON lists them as a plain array, for pools held inline and on the heap alike.
    #[test]
    fn seeded_checks_keep_the_generator_faces_in_json() {
        for (n, seed) in [(1u64, 3u64), (4, 42), (8, 7), (9, 2026), (30, 1)] {
            let spec = CheckSpec::new(pool(n), Difficulty::TOUGH);
            let outcome = roll_check(&spec, &mut solum_dice::SeededDice::new(seed)).unwrap();
            let faces = solum_dice::SeededDice::new(seed)
                .roll_many(n as usize, 6)
                .unwrap();
            let roll = outcome.roll.as_ref().unwrap();
            assert_eq!(roll.dice, faces);
            let top = *faces.iter().max().unwrap();
            let json = serde_json::to_value(&outcome).unwrap();
            assert_eq!(
                json,
                serde_json::json!({
                    "spec": {"pool": n, "difficulty": 5, "gear": false},
                    "roll": {
                        "dice": faces,
                        "reroll": null,
                        "chain": [],
                        "chain_not_needed": top == 6,
                        "result": top,
                    },
                    "result": top,
                    "passed": top >= 5,
                })
            );
        }
    }

    /// S1: the gear reroll is the player's choice. Nick's lock (difficulty 5, dice 4, 4, 3):
    /// the best choice rerolls the 3; a player who rerolled the first 4 and got a 5 passes;
    /// one who declines keeps 4 and fails.
    #[test]
    fn the_player_chooses_the_rerolled_die() {
        let spec = CheckSpec::new(pool(3), Difficulty::new(5).unwrap()).with_gear(true);
        let best = roll_check(&spec, &mut ScriptedDice::new([4, 4, 3, 4])).unwrap();
        let r = best.roll.unwrap().reroll.unwrap();
        assert_eq!((r.index, r.from, r.to), (2, 3, 4));
        assert!(!best.passed);
        let named =
            roll_check_choosing(&spec, GearDie::Die(1), &mut ScriptedDice::new([4, 4, 3, 5]))
                .unwrap();
        let roll = named.roll.unwrap();
        let r = roll.reroll.unwrap();
        assert_eq!((r.index, r.from, r.to), (0, 4, 5));
        assert_eq!(roll.final_dice(), [5, 4, 3]);
        assert!(named.passed);
        let kept =
            roll_check_choosing(&spec, GearDie::Skip, &mut ScriptedDice::new([4, 4, 3])).unwrap();
        assert_eq!(kept.roll.unwrap().reroll, None);
        assert!(!kept.passed);
        // A named die is rerolled even where the best choice would not reroll at all.
        let named =
            roll_check_choosing(&spec, GearDie::Die(3), &mut ScriptedDice::new([5, 1, 2, 6]))
                .unwrap();
        assert_eq!(named.roll.unwrap().final_dice(), [5, 1, 6]);
        assert!(GearDie::Die(3).fits(pool(3)));
        assert!(!GearDie::Die(4).fits(pool(3)));
        assert!(!GearDie::Die(0).fits(pool(3)));
        // Opposed: the first side names its die; 2, 3 against 4: rerolling the 3 → 6 wins.
        let mut spec = OpposedSpec::new(pool(2), pool(1));
        spec.first.gear = true;
        let mut script = ScriptedDice::new([2, 3, 4, 6]);
        let shared = solum_dice::SharedDice::new(&mut script);
        let out =
            roll_opposed_choosing(&spec, GearDie::Die(2), &mut &shared, &mut &shared).unwrap();
        assert_eq!(out.first.final_dice(), [2, 6]);
        assert_eq!(out.verdict, Verdict::Win);
    }

    fn check(pool_size: u64, difficulty: i64, gear: bool, faces: &[u32]) -> CheckOutcome {
        let spec =
            CheckSpec::new(pool(pool_size), Difficulty::new(difficulty).unwrap()).with_gear(gear);
        let mut dice = ScriptedDice::new(faces);
        let outcome = roll_check(&spec, &mut dice).unwrap();
        assert!(dice.is_exhausted(), "the check left scripted dice unused");
        outcome
    }

    fn opposed(a: u64, b: u64, first: &[u32], second: &[u32]) -> OpposedOutcome {
        let spec = OpposedSpec::new(pool(a), pool(b));
        let (mut da, mut db) = (ScriptedDice::new(first), ScriptedDice::new(second));
        let outcome = roll_opposed(&spec, &mut da, &mut db).unwrap();
        assert!(da.is_exhausted() && db.is_exhausted());
        outcome
    }

    #[test]
    fn nick_climbs_the_ivory_tower() {
        // Body 3 + "Acrobat Thief", difficulty 5: 5, 3, 2, 2 passes.
        let pool = crate::PoolSpec {
            attribute: 3,
            background: true,
            ..Default::default()
        }
        .pool()
        .unwrap();
        assert_eq!(pool.dice(), 4);
        let outcome = check(4, 5, false, &[5, 3, 2, 2]);
        assert!(outcome.passed);
        assert_eq!(outcome.result, 5);
    }

    #[test]
    fn big_arm_bruno_loses_to_skinny_norris() {
        let outcome = opposed(3, 1, &[3, 2, 2], &[4]);
        assert_eq!(outcome.verdict, Verdict::Lose);
        assert_eq!((outcome.first.result, outcome.second.result), (3, 4));
    }

    #[test]
    fn ripperjack_falls_short_of_ten() {
        // Mind 4 + Street Doc = 5 dice: 6, 6, 5, 3, 2, the chain rolls 3: 9 < 10.
        let outcome = check(5, 10, false, &[6, 6, 5, 3, 2, 3]);
        let roll = outcome.roll.unwrap();
        assert_eq!(roll.chain, [3]);
        assert_eq!(outcome.result, 9);
        assert!(!outcome.passed);
    }

    #[test]
    fn nick_picks_the_vault_lock_with_thieves_tools() {
        // Mind 2 + background = 3 dice vs 5: 4, 4, 3; the tools reroll the 3 to a 4: fail.
        let outcome = check(3, 5, true, &[4, 4, 3, 4]);
        let roll = outcome.roll.unwrap();
        assert_eq!(
            roll.reroll,
            Some(Reroll {
                index: 2,
                from: 3,
                to: 4
            })
        );
        assert_eq!(roll.final_dice(), [4, 4, 4]);
        assert!(!outcome.passed);
    }

    #[test]
    fn gear_is_not_used_when_it_cannot_help() {
        // Already passing: no reroll, no extra die consumed.
        let outcome = check(2, 4, true, &[5, 1]);
        assert!(outcome.passed && outcome.roll.unwrap().reroll.is_none());
        // Above 6 with a 6 showing: the chain decides, a reroll adds nothing.
        let outcome = check(2, 8, true, &[6, 1, 2]);
        assert_eq!(outcome.result, 8);
        assert!(outcome.roll.unwrap().reroll.is_none());
        // Above 6 without a 6: reroll the lowest, get a 6, then the chain.
        let outcome = check(2, 8, true, &[5, 1, 6, 3]);
        assert_eq!(outcome.result, 9);
        assert!(outcome.passed);
    }

    #[test]
    fn rule_of_six_chains_while_sixes_show() {
        let outcome = check(1, 15, false, &[6, 6, 4]);
        assert_eq!(outcome.roll.as_ref().unwrap().chain, [6, 4]);
        assert_eq!(outcome.result, 16);
        assert!(outcome.passed);
    }

    #[test]
    fn automatic_check_rolls_nothing() {
        let outcome = check(3, 1, true, &[]);
        assert!(outcome.passed && outcome.roll.is_none());
    }

    #[test]
    fn opposed_sixes_break_ties_by_chain() {
        let outcome = opposed(2, 2, &[6, 1, 2], &[6, 6, 5]);
        assert_eq!(outcome.verdict, Verdict::Lose);
        assert_eq!((outcome.first.result, outcome.second.result), (8, 11));
    }

    #[test]
    fn draws_stand_or_roll_off() {
        let outcome = opposed(2, 2, &[4, 3], &[4, 1]);
        assert_eq!(outcome.verdict, Verdict::Draw);
        let spec = OpposedSpec {
            draws: DrawRule::RollOff,
            ..OpposedSpec::new(pool(2), pool(2))
        };
        let mut a = ScriptedDice::new([4, 3, 2, 5]);
        let mut b = ScriptedDice::new([4, 1, 2, 3]);
        let outcome = roll_opposed(&spec, &mut a, &mut b).unwrap();
        assert_eq!(outcome.roll_off, [(2, 2), (5, 3)]);
        assert_eq!(outcome.verdict, Verdict::Win);
    }

    #[test]
    fn opposed_gear_rerolls_when_behind() {
        let spec = OpposedSpec {
            first: Side {
                pool: pool(2),
                gear: true,
            },
            ..OpposedSpec::new(pool(2), pool(1))
        };
        let mut a = ScriptedDice::new([3, 2, 5]);
        let mut b = ScriptedDice::new([4]);
        let outcome = roll_opposed(&spec, &mut a, &mut b).unwrap();
        assert_eq!(outcome.first.final_dice(), [3, 5]);
        assert_eq!(outcome.verdict, Verdict::Win);
    }

    #[test]
    fn roll_verdict_matches_roll_opposed() {
        // The same seed must give the same verdicts, dice for dice, with and without roll-off.
        let mut a = solum_dice::SeededDice::new(99);
        let mut b = solum_dice::SeededDice::new(99);
        for draws in [DrawRule::Stand, DrawRule::RollOff] {
            for (x, y) in [(1, 1), (3, 2), (2, 5), (6, 6)] {
                let spec = OpposedSpec {
                    draws,
                    ..OpposedSpec::new(pool(x), pool(y))
                };
                for _ in 0..2000 {
                    let shared = solum_dice::SharedDice::new(&mut b);
                    assert_eq!(
                        roll_verdict(spec.first.pool, spec.second.pool, draws, &mut a).unwrap(),
                        roll_opposed(&spec, &mut &shared, &mut &shared)
                            .unwrap()
                            .verdict
                    );
                }
            }
        }
    }

    #[test]
    fn a_six_against_six_or_less_needs_no_chain() {
        // S2: against 4 a 6 passes whatever a chain would add, so no chain die is drawn
        // (the script holds exactly the pool; an unused die would fail `check`).
        let outcome = check(3, 4, false, &[6, 2, 1]);
        let roll = outcome.roll.as_ref().unwrap();
        assert!(roll.chain.is_empty() && roll.chain_not_needed);
        assert_eq!(outcome.result, 6);
        assert!(outcome.passed);
        // Against 6 too.
        let outcome = check(1, 6, false, &[6]);
        assert!(outcome.passed && outcome.roll.unwrap().chain_not_needed);
        // Above 6 the chain decides and is drawn.
        let outcome = check(1, 7, false, &[6, 1]);
        let roll = outcome.roll.unwrap();
        assert!(!roll.chain_not_needed && roll.chain == [1]);
        assert!(outcome.passed);
    }

    #[test]
    fn the_customs_pilot_does_not_need_to_roll_again() {
        // The text's chase: the smuggler rolls 2, 3, 5, the customs pilot 2, 3, 4, 4, 6
        // "(could roll again because of the Rule of Six, however he doesn't need to) and wins".
        let outcome = opposed(3, 5, &[2, 3, 5], &[2, 3, 4, 4, 6]);
        assert_eq!(outcome.verdict, Verdict::Lose);
        assert!(outcome.second.chain.is_empty() && outcome.second.chain_not_needed);
        assert!(!outcome.first.chain_not_needed);
        assert_eq!((outcome.first.result, outcome.second.result), (5, 6));
    }

    #[test]
    fn both_sides_on_a_six_chain_first_side_then_second() {
        // One shared source: first pool, second pool, first chain, second chain.
        let spec = OpposedSpec::new(pool(1), pool(2));
        let mut script = ScriptedDice::new([6, 3, 6, 6, 2, 4]);
        let outcome = {
            let shared = solum_dice::SharedDice::new(&mut script);
            roll_opposed(&spec, &mut &shared, &mut &shared).unwrap()
        };
        assert!(script.is_exhausted());
        assert_eq!(outcome.first.chain, [6, 2]);
        assert_eq!(outcome.second.chain, [4]);
        assert_eq!((outcome.first.result, outcome.second.result), (14, 10));
        assert_eq!(outcome.verdict, Verdict::Win);
    }

    #[test]
    fn typed_dice_run_out_cleanly() {
        let spec = CheckSpec::new(pool(5), Difficulty::new(10).unwrap());
        let err = roll_check(&spec, &mut TypedDice::new([6, 6, 5, 3, 2])).unwrap_err();
        assert_eq!(err, DiceError::Exhausted { given: 5 });
    }
}
