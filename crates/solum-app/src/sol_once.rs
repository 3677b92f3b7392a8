//! Project Sol without a sheet or a campaign: `solum roll sol` (a test, an assisted test, an
//! opposed test, a group action, try again, bought hits) and `solum odds sol`. Nothing is
//! journaled. The rules' facts a front end shows (a threshold's name, why the modifier
//! applied differs from the one asked for) are fields of the views.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use serde::Serialize;
use solum_dice::{DiceError, DiceSource, FacesError, Prob, TypedDice, parse_faces, prob_to_f64};
use solum_sol::odds::{opposed, test_odds};
use solum_sol::pool::{PoolSpec, buy_hits, parse_threshold, threshold_name};
use solum_sol::test::{
    MAX_GROUP, TestError, TestSpec, group_action, roll_assisted, roll_opposed, roll_test,
    roll_test_then, try_again,
};

pub use solum_sol::advancement::Progress;
pub use solum_sol::pool::{MAX_DICE, Pool};
pub use solum_sol::sheet::Sheet;
pub use solum_sol::test::{Attempt, EdgeOnTest, OpposedOutcome, Reroll, TestOutcome};

use crate::bounded::bounded;
use crate::sides::{Generator, SideDice, typed};

bounded! {
    /// Dice in a pool typed as a number, 1 to [`MAX_DICE`]: the tester's, an assistant's
    /// or a defender's.
    pub struct SolDice(u32) in 1, MAX_DICE;
    "a pool has {min} to {max} dice"
}

// The rules build a pool of at most MAX_DICE dice: no part of it is larger.
const MAX_PART: i64 = MAX_DICE as i64;

bounded! {
    /// The attribute a pool is built from, 0 to [`MAX_DICE`].
    pub struct SolAttribute(i64) in 0, MAX_PART;
    "an attribute is {min} to {max} (a pool rolls at most {MAX_DICE} dice)"
}

bounded! {
    /// A skill's ranks, 0 (defaulting) to [`MAX_DICE`]; they cap the bonuses.
    pub struct Ranks(i64) in 0, MAX_PART;
    "ranks are {min} to {max} (a pool rolls at most {MAX_DICE} dice)"
}

bounded! {
    /// One bonus or penalty to a pool, −[`MAX_DICE`] to [`MAX_DICE`] (the cap by the ranks
    /// is the rules', on their sum).
    pub struct PoolModifier(i64) in -MAX_PART, MAX_PART;
    "a modifier is {min} to {max} (a pool rolls at most {MAX_DICE} dice)"
}

bounded! {
    /// A threshold in hits, 0 (none) to [`MAX_DICE`], as a request gives it (a player may
    /// name one too: [`threshold`]).
    pub struct SolThreshold(u32) in 0, MAX_DICE;
    "a threshold is {min} to {max} hits (a pool rolls at most {max} dice)"
}

bounded! {
    /// An assistant's hits offered as bonus dice, 0 to [`MAX_DICE`].
    pub struct AssistHits(i64) in 0, MAX_PART;
    "an assistant's hits are {min} to {max}"
}
use crate::fields::input_fields;
use crate::typed_dice::TypedDiceError;

input_fields! {
    /// An input of a one-shot Project Sol roll, for errors a front end names as its own flag.
    Field {
        /// The pool's dice.
        Dice = "dice",
        /// The threshold.
        Threshold = "threshold",
        /// The attribute the pool is built from (with ranks and modifiers).
        Attribute = "attribute",
        /// The defender's Edge.
        AgainstEdge = "against_edge",
        /// The group's pools.
        Group = "group",
        /// The first side's typed faces.
        Rolled = "rolled",
        /// The defender's typed faces.
        AgainstRolled = "against_rolled",
    }
}

/// Why a one-shot Project Sol roll or its odds was refused (each number typed alone is
/// refused by its type: [`SolDice`], [`SolAttribute`], [`Ranks`], [`PoolModifier`],
/// [`AssistHits`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolOnceError {
    /// Neither a number of dice nor an attribute.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    NoPool,
    /// The rules refuse the input (their own words): a threshold, a pool, two Smackdowns.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    Rules {
        /// The field at fault, where the rules name one.
        field: Option<Field>,
        /// What the rules say.
        problem: String,
    },
    /// More members than a group action takes.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    GroupTooLarge {
        /// Members besides the leader.
        members: usize,
    },
    /// A member of a group with a pool outside 1 to [`MAX_DICE`].
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    GroupMember {
        /// The member's place, the leader being 1.
        member: usize,
        /// Its dice.
        value: u32,
    },
    /// Typed faces (or a group) that are not a list of numbers, do not fit the roll, or the
    /// system's randomness failed.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    Typed(#[from] TypedDiceError<Field>),
}

impl SolOnceError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Typed(e) => e.field(),
            Self::NoPool => Some(Field::Dice),
            Self::Rules { field, .. } => *field,
            Self::GroupTooLarge { .. } | Self::GroupMember { .. } => Some(Field::Group),
        }
    }

    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NoPool => "sol-no-pool",
            Self::Rules { .. } => "sol-rules",
            Self::GroupTooLarge { .. } => "sol-group-too-large",
            Self::GroupMember { .. } => "sol-group-member",
            Self::Typed(e) => e.code(),
        }
    }

    /// True when the input is at fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::Typed(e) => e.is_bad_input(),
            _ => true,
        }
    }

    /// The message with the fields named by `name` (the command line passes its flags).
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        match self {
            Self::NoPool => format!(
                "give {}, or {} (and ranks)",
                name(Field::Dice),
                name(Field::Attribute)
            ),
            Self::Rules { field, problem } => match field {
                Some(f) => format!("{}: {problem}", name(*f)),
                None => problem.clone(),
            },
            Self::GroupTooLarge { members } => format!(
                "{}: {members} members and the leader are more than the {MAX_GROUP} a group action takes",
                name(Field::Group)
            ),
            Self::GroupMember { member, value } => format!(
                "{}: member {member} has {value}: a pool has 1 to {MAX_DICE} dice",
                name(Field::Group)
            ),
            Self::Typed(e) => e.describe(name),
        }
    }
}

fn rules(field: Option<Field>) -> impl Fn(TestError) -> SolOnceError {
    move |e| SolOnceError::Rules {
        field,
        problem: e.to_string(),
    }
}

/// Faces typed as text (`5,3,2`) for `field`.
pub fn typed_faces(field: Field, text: &str) -> Result<Vec<u32>, SolOnceError> {
    parse_faces(text).map_err(|e| faces_error((field, e)))
}

fn faces_error((field, e): (Field, FacesError)) -> SolOnceError {
    TypedDiceError::Faces {
        field,
        problem: e.to_string(),
    }
    .into()
}

/// More values typed in `field` than the roll used.
fn too_many(field: Field, given: usize, used: usize, order: &str) -> SolOnceError {
    TypedDiceError::TooMany {
        field,
        given,
        used,
        why: Vec::new(),
        order: order.to_owned(),
    }
    .into()
}

fn dice_error(e: DiceError, field: Option<Field>, order: &'static str) -> SolOnceError {
    match field {
        Some(field) => TypedDiceError::from_dice(e, field, order),
        None => TypedDiceError::Source(e.to_string()),
    }
    .into()
}

/// A threshold as typed: a number or a name (simple 1, average 2, …).
pub fn threshold(text: &str) -> Result<SolThreshold, SolOnceError> {
    let refused = |problem: String| SolOnceError::Rules {
        field: Some(Field::Threshold),
        problem,
    };
    parse_threshold(text)
        .map_err(|e| refused(e.to_string()))
        .and_then(|t| SolThreshold::new(t).map_err(|e| refused(e.to_string())))
}

/// A rule that made the modifier applied differ from the one asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ModifierRule {
    /// Defaulting (0 ranks): no bonus applies.
    NoBonusAtZeroRanks,
    /// Defaulting untrained ([`solum_sol::pool::UNTRAINED_PENALTY`]).
    Untrained {
        /// Its penalty.
        penalty: i64,
    },
    /// Try again: −2 per attempt after the first.
    TryAgain {
        /// The attempt's number.
        number: u32,
        /// Its penalty.
        penalty: i64,
    },
    /// A bonus is capped at the skill's ranks.
    CappedAtRanks {
        /// The ranks.
        ranks: i64,
    },
}

/// The modifier asked for, the one applied, and the rules between them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModifierNote {
    /// The bonuses and penalties as given, summed (an assistant's hits among them).
    pub asked: i64,
    /// The modifier the pool applied.
    pub applied: i64,
    /// Why they differ.
    pub why: Vec<ModifierRule>,
}

/// Where the modifier asked for (`asked`, an assistant's hits among them) and the one the
/// pool applied differ, both and why; `None` when they agree.
pub fn modifier_note(
    asked: &[i64],
    pool: &Pool,
    ranks: i64,
    untrained: bool,
    retry: u32,
) -> Option<ModifierNote> {
    let sum: i64 = asked.iter().fold(0i64, |a, &m| a.saturating_add(m));
    if sum == pool.applied {
        return None;
    }
    let mut why = Vec::new();
    if pool.defaulting && asked.iter().any(|&m| m > 0) {
        why.push(ModifierRule::NoBonusAtZeroRanks);
    }
    if pool.defaulting && untrained {
        why.push(ModifierRule::Untrained {
            penalty: solum_sol::pool::UNTRAINED_PENALTY,
        });
    }
    if retry > 0 {
        why.push(ModifierRule::TryAgain {
            number: retry,
            penalty: -2 * i64::from(retry),
        });
    }
    if !pool.defaulting && pool.modifier > ranks {
        why.push(ModifierRule::CappedAtRanks { ranks });
    }
    Some(ModifierNote {
        asked: sum,
        applied: pool.applied,
        why,
    })
}

/// A chance as a float and exactly.
fn chance(p: &Prob) -> (f64, String) {
    (prob_to_f64(p), p.to_string())
}

/// The exact odds of an opposed test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolOpposedOddsView {
    /// The defender's dice.
    pub against: u32,
    /// The defender's Edge.
    pub against_edge: Option<EdgeOnTest>,
    /// The attacker succeeds (ties go to the attacker).
    pub p_success: f64,
    /// Exactly.
    pub p_success_exact: String,
    /// The attacker wins by 3 or more net hits.
    pub p_critical_success: f64,
    /// Exactly.
    pub p_critical_success_exact: String,
    /// The defender wins by 3 or more.
    pub p_defender_critical_success: f64,
    /// Exactly.
    pub p_defender_critical_success_exact: String,
    /// The attacker glitches.
    pub p_attacker_glitch: f64,
    /// Exactly.
    pub p_attacker_glitch_exact: String,
    /// The attacker glitches critically.
    pub p_attacker_critical_glitch: f64,
    /// Exactly.
    pub p_attacker_critical_glitch_exact: String,
    /// The defender glitches.
    pub p_defender_glitch: f64,
    /// Exactly.
    pub p_defender_glitch_exact: String,
    /// The defender glitches critically.
    pub p_defender_critical_glitch: f64,
    /// Exactly.
    pub p_defender_critical_glitch_exact: String,
}

/// The exact odds of a test, and of an opposed test if asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolOddsView {
    /// The dice.
    pub dice: u32,
    /// The threshold.
    pub threshold: u32,
    /// Its name in the text.
    pub threshold_name: &'static str,
    /// Edge on the test.
    pub edge: Option<EdgeOnTest>,
    /// Success.
    pub p_success: f64,
    /// Exactly.
    pub p_success_exact: String,
    /// A glitch.
    pub p_glitch: f64,
    /// Exactly.
    pub p_glitch_exact: String,
    /// A critical glitch.
    pub p_critical_glitch: f64,
    /// Exactly.
    pub p_critical_glitch_exact: String,
    /// A critical success.
    pub p_critical_success: f64,
    /// Exactly.
    pub p_critical_success_exact: String,
    /// The mean number of hits.
    pub mean_hits: f64,
    /// Each number of hits, its chance.
    pub hits: BTreeMap<i64, f64>,
    /// The attacker succeeds against the defender, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_attacker_succeeds: Option<f64>,
    /// The opposed test, when a defender was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opposed: Option<SolOpposedOddsView>,
}

/// An odds question as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolOddsAsk<'a> {
    /// The dice.
    pub dice: SolDice,
    /// The threshold as typed.
    pub threshold: &'a str,
    /// Edge on the test.
    pub edge: Option<EdgeOnTest>,
    /// A defender's dice, for an opposed test.
    pub against: Option<SolDice>,
    /// The defender's Edge.
    pub against_edge: Option<EdgeOnTest>,
}

/// The exact odds of a test as typed.
pub fn sol_odds(ask: &SolOddsAsk<'_>) -> Result<SolOddsView, SolOnceError> {
    let n = ask.dice.get();
    let t = threshold(ask.threshold)?.get();
    let o = test_odds(n, t, ask.edge);
    let opposed = match ask.against {
        Some(d) => {
            let p = opposed(n, ask.edge, d.get(), ask.against_edge)
                .map_err(rules(Some(Field::AgainstEdge)))?;
            let c = |p: &Prob| chance(p);
            Some(SolOpposedOddsView {
                against: d.get(),
                against_edge: ask.against_edge,
                p_success: c(&p.success).0,
                p_success_exact: c(&p.success).1,
                p_critical_success: c(&p.critical_success).0,
                p_critical_success_exact: c(&p.critical_success).1,
                p_defender_critical_success: c(&p.defender_critical_success).0,
                p_defender_critical_success_exact: c(&p.defender_critical_success).1,
                p_attacker_glitch: c(&p.attacker_glitch).0,
                p_attacker_glitch_exact: c(&p.attacker_glitch).1,
                p_attacker_critical_glitch: c(&p.attacker_critical_glitch).0,
                p_attacker_critical_glitch_exact: c(&p.attacker_critical_glitch).1,
                p_defender_glitch: c(&p.defender_glitch).0,
                p_defender_glitch_exact: c(&p.defender_glitch).1,
                p_defender_critical_glitch: c(&p.defender_critical_glitch).0,
                p_defender_critical_glitch_exact: c(&p.defender_critical_glitch).1,
            })
        }
        None => None,
    };
    Ok(SolOddsView {
        dice: n,
        threshold: t,
        threshold_name: threshold_name(t),
        edge: ask.edge,
        p_success: chance(&o.success).0,
        p_success_exact: chance(&o.success).1,
        p_glitch: chance(&o.glitch).0,
        p_glitch_exact: chance(&o.glitch).1,
        p_critical_glitch: chance(&o.critical_glitch).0,
        p_critical_glitch_exact: chance(&o.critical_glitch).1,
        p_critical_success: chance(&o.critical_success).0,
        p_critical_success_exact: chance(&o.critical_success).1,
        mean_hits: o.hits.mean(),
        hits: o
            .hits
            .outcomes()
            .iter()
            .map(|(k, p)| (*k, prob_to_f64(p)))
            .collect(),
        p_attacker_succeeds: opposed.as_ref().map(|p| p.p_success),
        opposed,
    })
}

/// A one-shot roll as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SolRollAsk {
    /// The pool as a number of dice (beside it, attribute and ranks are ignored).
    pub dice: Option<SolDice>,
    /// The attribute.
    pub attribute: Option<SolAttribute>,
    /// The skill's ranks.
    pub ranks: Option<Ranks>,
    /// Bonuses and penalties.
    pub modifiers: Vec<PoolModifier>,
    /// Defaulting untrained: −3.
    pub untrained_penalty: bool,
    /// An assistant's hits, as a bonus.
    pub assist: Option<AssistHits>,
    /// An assistant rolling this many dice first.
    pub assist_dice: Option<SolDice>,
    /// The threshold as typed.
    pub threshold: Option<String>,
    /// Edge on the test.
    pub edge: Option<EdgeOnTest>,
    /// Buy hits instead of rolling.
    pub buy: bool,
    /// A group action: the other members' pools as typed (`3,4`).
    pub group: Option<String>,
    /// An opposed test against this many dice.
    pub against_dice: Option<SolDice>,
    /// The defender's Edge.
    pub against_edge: Option<EdgeOnTest>,
    /// Try again until a success or no dice are left.
    pub try_again: bool,
}

/// Hits bought instead of rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoughtView {
    /// The pool's dice.
    pub dice: u32,
    /// One hit per full four dice.
    pub bought_hits: u32,
    /// Against the threshold, if one was given.
    pub success: Option<bool>,
}

/// A group action: the leader's test and each member's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupView {
    /// Every test, the leader's first.
    pub tests: Vec<TestOutcome>,
    /// The best test's place.
    pub best: usize,
    /// The group's hits (the best test's).
    pub hits: u32,
    /// Level 1 wounds the leader takes (one per glitching member).
    pub leader_wounds: u32,
    /// Against the threshold, if one was given.
    pub success: Option<bool>,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
}

/// An opposed test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolOpposedView {
    /// Both sides' tests and the result.
    pub opposed: OpposedOutcome,
    /// The attacker's chance before the roll.
    pub p_success: f64,
    /// Exactly.
    pub p_success_exact: String,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
}

/// A test tried again until it succeeds or no dice are left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TryAgainView {
    /// The threshold.
    pub threshold: Option<u32>,
    /// Each attempt.
    pub attempts: Vec<Attempt>,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
}

/// A test, assisted or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolTestView {
    /// The pool rolled.
    pub pool: Pool,
    /// The assistant's test, if one rolled.
    pub assistant: Option<TestOutcome>,
    /// The test.
    pub test: TestOutcome,
    /// The threshold's name in the text, if there is one.
    pub threshold_name: Option<&'static str>,
    /// The chance of success before the roll, if there is a threshold.
    pub p_success: Option<f64>,
    /// Exactly.
    pub p_success_exact: Option<String>,
    /// Where the modifier asked for and the one applied differ (a pool built from an
    /// attribute only).
    pub modifier_note: Option<ModifierNote>,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
}

/// A one-shot Project Sol roll.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SolRollView {
    /// Hits bought.
    Bought(BoughtView),
    /// A group action.
    Group(GroupView),
    /// An opposed test.
    Opposed(SolOpposedView),
    /// Try again.
    TryAgain(TryAgainView),
    /// A test.
    Test(SolTestView),
}

/// The pool spec: a number of dice as it is, or attribute + ranks + modifiers.
fn pool_spec(ask: &SolRollAsk) -> Result<PoolSpec, SolOnceError> {
    // The sum and the cap by the ranks are the rules' (`PoolSpec::build`).
    let mut modifiers = asked(ask);
    modifiers.extend(ask.assist.map(AssistHits::get));
    Ok(match (ask.dice, ask.attribute) {
        (Some(d), _) => PoolSpec {
            attribute: i64::from(d.get()),
            ..PoolSpec::default()
        },
        (None, Some(a)) => PoolSpec {
            attribute: a.get(),
            ranks: ask.ranks.map_or(0, Ranks::get),
            modifiers,
            untrained_penalty: ask.untrained_penalty,
            retry: 0,
        },
        (None, None) => return Err(SolOnceError::NoPool),
    })
}

/// The bonuses and penalties as typed, as the rules take them.
fn asked(ask: &SolRollAsk) -> Vec<i64> {
    ask.modifiers.iter().map(|m| m.get()).collect()
}

/// Runs `rule` with one side's dice: typed `rolled` (every value of which must be used), or
/// the generator with `seed`. Rule errors other than the dice's come back as they are.
fn with_dice<T>(
    rolled: Option<TypedDice>,
    seed: Option<u64>,
    order: &'static str,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<T, TestError>,
) -> Result<(T, Option<u64>), SolOnceError> {
    let generator = RefCell::new(Generator::new(seed));
    let blame = Cell::new(None);
    let mut dice = SideDice::new(&generator, rolled, Field::Rolled, &blame);
    let value = rule(&mut dice).map_err(|e| match e {
        TestError::Dice(d) => dice_error(d, blame.get(), order),
        other => rules(None)(other),
    })?;
    if let Some((used, given)) = dice.left_over() {
        return Err(too_many(Field::Rolled, given, used, order));
    }
    let seed = generator.borrow().used_seed();
    Ok((value, seed))
}

/// Chooses Second Chance or Close Call after a test's dice are seen (the front end's
/// question, or a choice made before the roll); `None` keeps the test as rolled.
pub type Choose<'a> = &'a mut dyn FnMut(&TestOutcome) -> Option<EdgeOnTest>;

/// Rolls as typed. `rolled` and `against_rolled` are faces typed by hand (text); the dice
/// not typed come from the generator with `seed` (a fresh one when `None`).
pub fn roll_sol(
    ask: &SolRollAsk,
    rolled: Option<&str>,
    against_rolled: Option<&str>,
    seed: Option<u64>,
    choose: Choose<'_>,
) -> Result<SolRollView, SolOnceError> {
    let spec = pool_spec(ask)?;
    let pool = spec.build().map_err(|e| SolOnceError::Rules {
        field: None,
        problem: e.to_string(),
    })?;
    let t = ask
        .threshold
        .as_deref()
        .map(threshold)
        .transpose()?
        .map(SolThreshold::get);
    if ask.buy {
        let hits = buy_hits(pool.dice);
        return Ok(SolRollView::Bought(BoughtView {
            dice: pool.dice,
            bought_hits: hits,
            success: t.map(|t| hits >= t),
        }));
    }
    let first = typed(rolled, Field::Rolled).map_err(faces_error)?;
    let test_spec = TestSpec {
        dice: pool.dice,
        threshold: t,
        edge: ask.edge,
    };
    if let Some(group) = &ask.group {
        return group_roll(&test_spec, group, first, seed).map(SolRollView::Group);
    }
    if let Some(d) = ask.against_dice {
        let second = typed(against_rolled, Field::AgainstRolled).map_err(faces_error)?;
        let defender = TestSpec {
            dice: d.get(),
            threshold: None,
            edge: ask.against_edge,
        };
        return opposed_roll(&test_spec, &defender, first, second, seed).map(SolRollView::Opposed);
    }
    if ask.try_again {
        let (attempts, seed) =
            with_dice(first, seed, "values go: each attempt's pool in turn", |d| {
                try_again(&spec, t, d)
            })?;
        return Ok(SolRollView::TryAgain(TryAgainView {
            threshold: t,
            attempts,
            seed,
        }));
    }
    test_roll(ask, &spec, pool, test_spec, first, seed, choose).map(SolRollView::Test)
}

fn test_roll(
    ask: &SolRollAsk,
    spec: &PoolSpec,
    pool: Pool,
    test_spec: TestSpec,
    first: Option<TypedDice>,
    seed: Option<u64>,
    choose: Choose<'_>,
) -> Result<SolTestView, SolOnceError> {
    let order = "values go: the assistant's pool if it rolls, then the pool, then one die for each die a second chance rerolls";
    let assist_dice = ask.assist_dice.map(SolDice::get);
    let ((assistant, pool, outcome), seed) =
        with_dice(first, seed, order, |d| match assist_dice {
            Some(n) => roll_assisted(
                &TestSpec {
                    dice: n,
                    threshold: None,
                    edge: None,
                },
                spec,
                test_spec.threshold,
                test_spec.edge,
                d,
                choose,
            )
            .map(|a| (Some(a.assistant), a.pool, a.test)),
            None => Ok(roll_test_then(&test_spec, d, choose).map(|o| (None, pool, o))?),
        })?;
    let p = test_spec
        .threshold
        .map(|t| test_odds(outcome.spec.dice, t, test_spec.edge).success);
    let modifier_note = if ask.dice.is_none() {
        let mut asked = asked(ask);
        asked.extend(assistant.as_ref().map(|a| i64::from(a.hits)));
        asked.extend(ask.assist.map(AssistHits::get));
        modifier_note(
            &asked,
            &pool,
            ask.ranks.map_or(0, Ranks::get),
            ask.untrained_penalty,
            0,
        )
    } else {
        None
    };
    Ok(SolTestView {
        pool,
        assistant,
        threshold_name: test_spec.threshold.map(threshold_name),
        p_success: p.as_ref().map(prob_to_f64),
        p_success_exact: p.as_ref().map(ToString::to_string),
        test: outcome,
        modifier_note,
        seed,
    })
}

fn opposed_roll(
    attacker: &TestSpec,
    defender: &TestSpec,
    first: Option<TypedDice>,
    second: Option<TypedDice>,
    seed: Option<u64>,
) -> Result<SolOpposedView, SolOnceError> {
    let order = "each side's values: its pool, then one die for each die its second chance rerolls";
    let generator = RefCell::new(Generator::new(seed));
    let blame = Cell::new(None);
    let mut a = SideDice::new(&generator, first, Field::Rolled, &blame);
    let mut b = SideDice::new(&generator, second, Field::AgainstRolled, &blame);
    let o = roll_opposed(attacker, defender, &mut a, &mut b).map_err(|e| match e {
        TestError::Dice(d) => dice_error(d, blame.get(), order),
        other => rules(None)(other),
    })?;
    for (side, field) in [(&a, Field::Rolled), (&b, Field::AgainstRolled)] {
        if let Some((used, given)) = side.left_over() {
            return Err(too_many(field, given, used, order));
        }
    }
    let odds =
        opposed(attacker.dice, attacker.edge, defender.dice, defender.edge).map_err(rules(None))?;
    Ok(SolOpposedView {
        opposed: o,
        p_success: prob_to_f64(&odds.success),
        p_success_exact: odds.success.to_string(),
        seed: generator.borrow().used_seed(),
    })
}

/// A group action: the leader's test (`spec`) and one per other member (`group`: their
/// pools as typed), the leader first.
fn group_roll(
    spec: &TestSpec,
    group: &str,
    first: Option<TypedDice>,
    seed: Option<u64>,
) -> Result<GroupView, SolOnceError> {
    let pools = parse_faces(group).map_err(|e| faces_error((Field::Group, e)))?;
    if pools.len() >= MAX_GROUP {
        return Err(SolOnceError::GroupTooLarge {
            members: pools.len(),
        });
    }
    let specs: Vec<TestSpec> = std::iter::once(Ok(*spec))
        .chain(pools.iter().enumerate().map(|(i, &p)| {
            if (1..=MAX_DICE).contains(&p) {
                Ok(TestSpec {
                    dice: p,
                    threshold: spec.threshold,
                    edge: None,
                })
            } else {
                Err(SolOnceError::GroupMember {
                    member: i + 2,
                    value: p,
                })
            }
        }))
        .collect::<Result<_, _>>()?;
    let (tests, seed) = with_dice(
        first,
        seed,
        "values go: the leader's pool, then each participant's",
        |d| {
            specs
                .iter()
                .map(|s| roll_test(s, d))
                .collect::<Result<Vec<_>, _>>()
                .map_err(TestError::Dice)
        },
    )?;
    let g = group_action(&tests).ok_or_else(|| SolOnceError::Rules {
        field: Some(Field::Group),
        problem: "a group action needs its leader".to_owned(),
    })?;
    Ok(GroupView {
        success: spec.threshold.map(|t| g.hits >= t),
        best: g.best,
        hits: g.hits,
        leader_wounds: g.leader_wounds,
        tests,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep(_: &TestOutcome) -> Option<EdgeOnTest> {
        None
    }

    #[test]
    fn typed_dice_count_hits_of_five_and_six() {
        // Hits are 5s and 6s; a glitch is half the dice or more showing 1.
        let ask = SolRollAsk {
            dice: Some(SolDice::new(4).unwrap()),
            threshold: Some("2".to_owned()),
            ..SolRollAsk::default()
        };
        let SolRollView::Test(v) = roll_sol(&ask, Some("6,5,1,1"), None, None, &mut keep).unwrap()
        else {
            panic!("a test")
        };
        assert_eq!(v.test.hits, 2);
        assert_eq!(v.test.success, Some(true));
        assert!(v.test.glitch);
        assert_eq!(v.threshold_name, Some("average"));
        assert_eq!(v.seed, None);
        let e = roll_sol(&ask, Some("6,5,1,1,3"), None, None, &mut keep).unwrap_err();
        assert_eq!(e.code(), "dice-too-many");
    }

    #[test]
    fn a_capped_bonus_says_why() {
        // Attribute 3, 1 rank, +3 asked: a bonus is capped by the ranks, so +1 applies.
        let ask = SolRollAsk {
            attribute: Some(SolAttribute::new(3).unwrap()),
            ranks: Some(Ranks::new(1).unwrap()),
            modifiers: vec![PoolModifier::new(3).unwrap()],
            ..SolRollAsk::default()
        };
        let SolRollView::Test(v) = roll_sol(&ask, None, None, Some(3), &mut keep).unwrap() else {
            panic!("a test")
        };
        let note = v.modifier_note.unwrap();
        assert_eq!((note.asked, note.applied), (3, 1));
        assert_eq!(note.why, vec![ModifierRule::CappedAtRanks { ranks: 1 }]);
        assert_eq!(v.pool.dice, 5);
    }

    #[test]
    fn refusals_name_their_field() {
        let ask = SolRollAsk {
            dice: Some(SolDice::new(2).unwrap()),
            group: Some("3,0".to_owned()),
            ..SolRollAsk::default()
        };
        let e = roll_sol(&ask, None, None, None, &mut keep).unwrap_err();
        assert_eq!(
            e,
            SolOnceError::GroupMember {
                member: 3,
                value: 0
            }
        );
        assert_eq!(
            e.describe(|f| format!("--{}", f.name().replace('_', "-"))),
            "--group: member 3 has 0: a pool has 1 to 1000 dice"
        );
        let e = roll_sol(&SolRollAsk::default(), None, None, None, &mut keep).unwrap_err();
        assert_eq!(e.field(), Some(Field::Dice));
        let e = sol_odds(&SolOddsAsk {
            dice: SolDice::new(2).unwrap(),
            threshold: "2000",
            edge: None,
            against: None,
            against_edge: None,
        })
        .unwrap_err();
        assert_eq!(e.field(), Some(Field::Threshold));
    }

    #[test]
    fn an_assistants_hits_are_a_bonus_capped_by_the_ranks() {
        // Attribute 2, 2 ranks, +1 and 4 hits offered: +5 asked, +2 applied.
        let ask = SolRollAsk {
            attribute: Some(SolAttribute::new(2).unwrap()),
            ranks: Some(Ranks::new(2).unwrap()),
            modifiers: vec![PoolModifier::new(1).unwrap()],
            assist: Some(AssistHits::new(4).unwrap()),
            ..SolRollAsk::default()
        };
        let SolRollView::Test(v) = roll_sol(&ask, None, None, Some(3), &mut keep).unwrap() else {
            panic!("a test")
        };
        assert_eq!(v.pool.dice, 6);
        let note = v.modifier_note.unwrap();
        assert_eq!((note.asked, note.applied), (5, 2));
    }

    crate::bounded::bounded_tests!(sol_dice, SolDice, "a pool has 1 to 1000 dice");
    crate::bounded::bounded_tests!(
        sol_attribute,
        SolAttribute,
        "an attribute is 0 to 1000 (a pool rolls at most 1000 dice)"
    );
    crate::bounded::bounded_tests!(
        ranks,
        Ranks,
        "ranks are 0 to 1000 (a pool rolls at most 1000 dice)"
    );
    crate::bounded::bounded_tests!(
        pool_modifier,
        PoolModifier,
        "a modifier is -1000 to 1000 (a pool rolls at most 1000 dice)"
    );
    crate::bounded::bounded_tests!(assist_hits, AssistHits, "an assistant's hits are 0 to 1000");
    crate::bounded::bounded_tests!(
        sol_threshold,
        SolThreshold,
        "a threshold is 0 to 1000 hits (a pool rolls at most 1000 dice)"
    );

    #[test]
    fn one_die_hits_a_third_of_the_time() {
        let v = sol_odds(&SolOddsAsk {
            dice: SolDice::new(1).unwrap(),
            threshold: "1",
            edge: None,
            against: Some(SolDice::new(1).unwrap()),
            against_edge: None,
        })
        .unwrap();
        assert_eq!(v.p_success_exact, "1/3");
        // A 1 on the only die is a glitch (half the dice or more), and with no hit critical.
        assert_eq!(v.p_glitch_exact, "1/6");
        assert!(v.opposed.is_some());
    }
}
