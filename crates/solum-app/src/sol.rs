//! Project Sol characters in the campaign: creation, import and export of the TOML sheet,
//! tests rolled from a sheet (Edge spent or burnt, progress recorded, an assistant from the
//! same campaign), sessions, encounters, the GM's reward, Edge spent outside a test, Not
//! Dead Yet and training.
//!
//! Every change reads the sheet inside one [`CampaignStore::write`] transaction, applies the
//! rule of `solum-sol`, checks the result, and stores the sheet (and the assistant's) with one
//! journal entry: fifty processes rewarding one character at once all land, and two
//! trainings started at once in one session cannot both pass. Each entry keeps the sheet
//! before, the request, every die and the sheet after, so that `journal verify` re-derives it.
//!
//! Second Chance and Close Call chosen after the dice are taken up front (`then`): the
//! choice is made before the roll and takes effect, and its point is spent, only where it
//! changes something (a die that is not a hit; a glitch). A choice made while the dice lie on
//! the table would hold the campaign's write lock while the player thinks.

use crate::characters::name_text;
use crate::rolled::faces;
use std::cell::Cell;

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, RecordingDice, SeededDice, SharedDice, TypedDice};
use solum_sol::advancement::{Progress, Skill};
use solum_sol::edge::{Edge, Rules};
use solum_sol::pool::{Pool, PoolError, PoolSpec};
use solum_sol::sheet::{
    Lowered, MAX_SHEET_VALUE, NotDeadYetError, SHEET_SCHEMA, Sheet, SheetRuleError, Trained,
};
use solum_sol::test::{
    EdgeOnTest, MAX_GROUP, OpposedOutcome, TestError, TestOutcome, TestSpec, roll_assisted,
    roll_opposed, roll_test, roll_test_then,
};
use solum_store::{CampaignStore, WriteTx};

use crate::journaling;
use crate::rolled::Rolled;
use crate::sol_once::{PoolModifier, SolDice, SolThreshold};
use crate::{AppError, Campaign, Dice, Divergence};

crate::bounded::bounded! {
    /// A new character's Edge attribute, 0 to [`MAX_SHEET_VALUE`] (a sheet value: no
    /// more than a pool can roll).
    pub struct SolEdge(u32) in 0, MAX_SHEET_VALUE;
    "Edge is {min} to {max}"
}

/// The system name Project Sol sheets are stored under.
pub const SYSTEM: &str = "sol";
/// The schema version of the Project Sol records this build writes.
pub const SOL_RECORD_SCHEMA: i64 = 1;
/// The rules version of the Project Sol records this build writes: 1 is P5's burn (an
/// available point taken) and P3's one progress point per encounter in all. A record without
/// it (0, written by an older solum) replays by the rules before them.
pub const SOL_RULES: u8 = 1;
/// The longest name (of a character, attribute or skill), in characters.
pub const MAX_NAME: usize = 100;
/// The most attributes, or skills, one sheet lists: a journal entry keeps the sheet before
/// and after a change, and an entry holds at most 64 KiB.
pub const MAX_LIST: usize = 50;
/// The most modifiers one test takes.
pub const MAX_MODIFIERS: usize = 50;

/// The rules' checks ([`Sheet::check`]) and the campaign's limits on a sheet.
pub fn check_sheet(sheet: &Sheet) -> Result<(), AppError> {
    if sheet.schema != SHEET_SCHEMA {
        return Err(crate::SolRefusal::StoredSheet.at(
            "schema",
            format!(
                "version {} is not known (this solum reads {SHEET_SCHEMA})",
                sheet.schema
            ),
        ));
    }
    sheet
        .check()
        .map_err(|e| crate::SolRefusal::Sheet.at("sheet", e.to_string()))?;
    name_text("name", &sheet.name)?;
    if sheet.attributes.len() > MAX_LIST {
        return Err(crate::SolRefusal::SheetLimit.at(
            "attributes",
            format!("{} listed; the limit is {MAX_LIST}", sheet.attributes.len()),
        ));
    }
    if sheet.skills.len() > MAX_LIST {
        return Err(crate::SolRefusal::SheetLimit.at(
            "skills",
            format!("{} listed; the limit is {MAX_LIST}", sheet.skills.len()),
        ));
    }
    for k in sheet.attributes.keys() {
        name_text("attributes", k)?;
    }
    for s in &sheet.skills {
        name_text("skills", &s.name)?;
    }
    Ok(())
}

/// A new character: what `sol new` takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewSol {
    /// The name.
    #[cfg_attr(feature = "openapi", schema(max_length = 100, pattern = "@name"))]
    pub name: String,
    /// The Edge attribute (points start full).
    pub edge: SolEdge,
    /// Attributes by name and value.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::sol_values))]
    pub attributes: Vec<(String, u32)>,
    /// Skills by name and ranks.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::sol_values))]
    pub skills: Vec<(String, u32)>,
}

impl NewSol {
    fn sheet(&self) -> Result<Sheet, AppError> {
        let name = name_text("name", &self.name)?;
        // The same name twice would be kept once, silently: refused.
        for (field, list) in [("attributes", &self.attributes), ("skills", &self.skills)] {
            for (i, (n, _)) in list.iter().enumerate() {
                if list[..i]
                    .iter()
                    .any(|(m, _)| m.trim().eq_ignore_ascii_case(n.trim()))
                {
                    return Err(crate::SolRefusal::NamedTwice
                        .at(field, format!("`{}` given twice", n.trim())));
                }
            }
        }
        let sheet = Sheet {
            schema: SHEET_SCHEMA,
            name,
            edge: Edge::new(self.edge.get()),
            attributes: self
                .attributes
                .iter()
                .map(|(k, v)| (k.trim().to_owned(), *v))
                .collect(),
            skills: self
                .skills
                .iter()
                .map(|(n, r)| Skill::new(n.trim(), *r))
                .collect(),
            trained_this_session: false,
            progress_this_encounter: false,
        };
        check_sheet(&sheet)?;
        Ok(sheet)
    }
}

/// Who assists a test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Assist {
    /// An assistant with no sheet rolls this many dice.
    Dice(SolDice),
    /// A character of the campaign: the same attribute + its own ranks in the skill; its
    /// progress is recorded on its sheet.
    Character(String),
}

/// The other side of an opposed test, this character attacking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = SolOpposition))]
pub struct Opposition {
    /// The defender's dice.
    pub dice: SolDice,
    /// The Edge the defender uses.
    pub edge: Option<EdgeOnTest>,
}

/// A test from a sheet: what the player names; attribute and ranks come from the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolTest {
    /// The skill tested (not listed, or 0 ranks: defaulting).
    pub skill: String,
    /// The attribute paired with it.
    pub attribute: String,
    /// The threshold, if any.
    pub threshold: Option<SolThreshold>,
    /// Bonuses and penalties (the rules cap their sum by the ranks).
    #[serde(default)]
    pub modifiers: Vec<PoolModifier>,
    /// The skill has an untrained penalty.
    #[serde(default)]
    pub untrained_penalty: bool,
    /// Try Again: which retry of a failed test this is (0: the first try).
    #[serde(default)]
    pub retry: u32,
    /// Edge declared before the dice (spent, or burnt for Smackdown).
    pub edge: Option<EdgeOnTest>,
    /// Second Chance or Close Call, chosen up front, used only where it changes something.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::edge_after_dice))]
    pub then: Option<EdgeOnTest>,
    /// An assistant, who rolls first.
    #[cfg_attr(feature = "openapi", schema(schema_with = assist))]
    pub assist: Option<Assist>,
    /// An opposed test against a defender's pool.
    pub against: Option<Opposition>,
    /// A group action led by this character: the other participants, characters of the
    /// same campaign (or table), each rolling the same attribute + its own ranks in the
    /// skill with the same modifiers; the best hits count for the group.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group: Vec<String>,
    /// Buy hits instead of rolling (time on the character's side): one hit per full four
    /// dice of the pool; no die rolled, no Edge, no progress.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub buy: bool,
}

impl SolTest {
    /// A plain test of `skill` + `attribute`.
    pub fn new(skill: &str, attribute: &str) -> Self {
        Self {
            skill: skill.to_owned(),
            attribute: attribute.to_owned(),
            threshold: None,
            modifiers: Vec::new(),
            untrained_penalty: false,
            retry: 0,
            edge: None,
            then: None,
            assist: None,
            against: None,
            group: Vec::new(),
            buy: false,
        }
    }

    /// The threshold's hits, if any.
    pub fn threshold(&self) -> Option<u32> {
        self.threshold.map(SolThreshold::get)
    }

    /// Checks the request before any sheet is read or die rolled.
    fn validate(&self) -> Result<(), AppError> {
        name_text("skill", &self.skill)?;
        name_text("attribute", &self.attribute)?;
        if self.modifiers.len() > MAX_MODIFIERS {
            return Err(crate::SolRefusal::Modifiers.at(
                "modifiers",
                format!(
                    "{} given; the limit is {MAX_MODIFIERS}",
                    self.modifiers.len()
                ),
            ));
        }
        match self.then {
            None | Some(EdgeOnTest::SecondChance) | Some(EdgeOnTest::CloseCall) => {}
            Some(_) => {
                return Err(crate::SolRefusal::Edge.at(
                    "then",
                    "only Second Chance or Close Call is chosen after the dice",
                ));
            }
        }
        if self.then.is_some() && self.edge.is_some() {
            return Err(crate::SolRefusal::Edge.at(
                "then",
                "one point of Edge per test: the test already uses Edge",
            ));
        }
        if self.retry > 0 && self.threshold.is_none() {
            return Err(crate::SolRefusal::Retry.at(
                "retry",
                "only a failed test against a threshold is tried again",
            ));
        }
        if let Some(Assist::Character(name)) = &self.assist {
            name_text("assistant", name)?;
        }
        if !self.group.is_empty() {
            if self.group.len() >= MAX_GROUP {
                return Err(crate::SolRefusal::Group.at(
                    "group",
                    format!(
                        "{} participants and the leader are more than the {MAX_GROUP} a group action takes",
                        self.group.len()
                    ),
                ));
            }
            for (i, n) in self.group.iter().enumerate() {
                name_text("group", n)?;
                if self.group[..i]
                    .iter()
                    .any(|m| solum_store::name_key(m) == solum_store::name_key(n))
                {
                    return Err(crate::SolRefusal::NamedTwice
                        .at("group", format!("`{}` named twice", n.trim())));
                }
            }
            if self.against.is_some()
                || self.assist.is_some()
                || self.then.is_some()
                || self.retry > 0
                || self.buy
            {
                return Err(crate::SolRefusal::Group.at(
                    "group",
                    "a group action takes no opposition, assistant, Edge after the dice, retry or bought hits",
                ));
            }
        }
        if self.buy
            && (self.edge.is_some()
                || self.then.is_some()
                || self.assist.is_some()
                || self.against.is_some())
        {
            return Err(crate::SolRefusal::Buy.at(
                "buy",
                "bought hits roll no dice: no Edge, assistant or opposed test with them",
            ));
        }
        if let Some(o) = &self.against {
            if self.threshold.is_some() || self.then.is_some() || self.assist.is_some() {
                return Err(crate::SolRefusal::Opposed.at(
                    "against",
                    "an opposed test takes no threshold, no Edge after the dice and no assistant",
                ));
            }
            if self.edge == Some(EdgeOnTest::Smackdown) && o.edge == Some(EdgeOnTest::Smackdown) {
                return Err(
                    crate::SolRefusal::Opposed.at("against", TestError::BothSmackdown.to_string())
                );
            }
        }
        Ok(())
    }
}

/// What a test from a sheet gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolTestResult {
    /// The attribute's value on the sheet.
    pub attribute_value: u32,
    /// The skill's ranks on the sheet.
    pub ranks: u32,
    /// The pool rolled (the assistant's hits counted with the bonuses).
    pub pool: Pool,
    /// The assistant's test, rolled first.
    pub assistant: Option<TestOutcome>,
    /// The progress the assistant's test earned it (an assistant with a sheet).
    pub assistant_progress: Option<Progress>,
    /// The character's test (in an opposed test, the attacker's side of `opposed`).
    pub test: Option<TestOutcome>,
    /// Both sides of an opposed test.
    pub opposed: Option<OpposedOutcome>,
    /// The progress the test earned.
    pub progress: Progress,
    /// Hits bought instead of rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bought: Option<Bought>,
    /// A group action: every participant's test after the leader's (`test`), and the
    /// group's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<GroupResult>,
}

/// Hits bought without a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Bought {
    /// One per full four dice of the pool.
    pub hits: u32,
    /// Against the threshold, if any.
    pub success: Option<bool>,
    /// Hits over the threshold.
    pub net_hits: Option<u32>,
}

/// A participant of a group action other than the leader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupMember {
    /// The character, as its sheet names it.
    pub name: String,
    /// Its attribute's value on its sheet.
    pub attribute_value: u32,
    /// Its ranks in the skill.
    pub ranks: u32,
    /// Its pool.
    pub pool: Pool,
    /// Its test.
    pub test: TestOutcome,
    /// The progress it earned.
    pub progress: Progress,
}

/// What a group action gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupResult {
    /// The participants after the leader, in the order named.
    pub members: Vec<GroupMember>,
    /// Whose test counts: 0 the leader, i the i-th member.
    pub best: usize,
    /// The group's hits: the best test's.
    pub hits: u32,
    /// Against the threshold, if any.
    pub success: Option<bool>,
    /// Hits over the threshold.
    pub net_hits: Option<u32>,
    /// Unresisted Level 1 wounds the leader takes: one per participant (the leader
    /// included) who rolled no hits.
    pub leader_wounds: u32,
}

/// Edge spent outside a test's dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SpendUse {
    /// REA + INT bonus dice to an initiative test.
    Blitz,
    /// Top of the initiative order for one round.
    SeizeTheInitiative,
    /// About to fall: a BOD + WIL (3) test for one last action.
    DeadMansTrigger,
}

/// What Edge spent outside a test gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SpendOutcome {
    /// What the point was spent on.
    pub what: SpendUse,
    /// Blitz: the bonus dice (REA + INT).
    pub bonus_dice: Option<u32>,
    /// Dead Man's Trigger: the BOD + WIL (3) test.
    pub trigger: Option<TestOutcome>,
}

/// A test from a sheet, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestChange {
    /// The sheet before.
    pub before: Sheet,
    /// The request.
    pub request: SolTest,
    /// The assistant's sheet before, for an assistant of the campaign.
    pub assistant_before: Option<Sheet>,
    /// The dice: the assistant's pool, the pool, the rerolls (and the defender's, unless
    /// typed apart).
    pub rolled: Rolled,
    /// The defender's dice when typed apart.
    pub against_rolled: Option<Rolled>,
    /// What the test gave.
    pub result: SolTestResult,
    /// The sheet after.
    pub after: Sheet,
    /// The assistant's sheet after.
    pub assistant_after: Option<Sheet>,
    /// A group action's other participants' sheets before, in the order named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_before: Vec<Sheet>,
    /// Their sheets after.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_after: Vec<Sheet>,
}

/// A change to a Project Sol character, with what re-derives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolChange {
    /// Created from the player's numbers.
    Created {
        /// The sheet.
        sheet: Sheet,
    },
    /// Imported from a TOML sheet.
    Imported {
        /// The sheet.
        sheet: Sheet,
    },
    /// A new play session: Edge refreshed, training allowed, a new encounter.
    Session {
        /// The sheet before.
        before: Sheet,
        /// The sheet after.
        after: Sheet,
    },
    /// A new encounter: progress can be earned again.
    Encounter {
        /// The sheet before.
        before: Sheet,
        /// The sheet after.
        after: Sheet,
    },
    /// The GM's reward: one point of Edge back, never above the attribute.
    Reward {
        /// The sheet before.
        before: Sheet,
        /// The sheet after.
        after: Sheet,
    },
    /// Edge spent outside a test: Blitz, Seize the Initiative, Dead Man's Trigger.
    Spend {
        /// The sheet before.
        before: Sheet,
        /// What it gave.
        outcome: SpendOutcome,
        /// The dice (Dead Man's Trigger only).
        rolled: Option<Rolled>,
        /// The sheet after.
        after: Sheet,
    },
    /// Edge burnt for Not Dead Yet.
    NotDeadYet {
        /// The sheet before.
        before: Sheet,
        /// The attribute the player named on a tie.
        choice: Option<String>,
        /// What was lowered.
        lowered: Lowered,
        /// The sheet after.
        after: Sheet,
    },
    /// A skill trained.
    Train {
        /// The sheet before.
        before: Sheet,
        /// The skill asked for.
        skill: String,
        /// What the training did.
        trained: Trained,
        /// The sheet after.
        after: Sheet,
    },
    /// A test rolled from the sheet.
    Test(Box<TestChange>),
}

/// A journal entry about a Project Sol character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolRecord {
    /// [`SOL_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The character.
    pub name: String,
    /// What happened.
    pub change: SolChange,
    /// The rules it was applied by ([`SOL_RULES`] when written); absent (0) in records of an
    /// older solum, which replay by the rules before P3 and P5.
    #[serde(default)]
    pub rules: u8,
}

impl SolRecord {
    fn new(name: &str, change: SolChange) -> Self {
        Self {
            schema: SOL_RECORD_SCHEMA,
            name: name.to_owned(),
            change,
            rules: SOL_RULES,
        }
    }

    /// The rules the record was applied by, and replays by.
    pub fn rules(&self) -> Rules {
        if self.rules == 0 {
            Rules::BeforeP3P5
        } else {
            Rules::Current
        }
    }

    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        match &self.change {
            SolChange::Test(t) => !t.request.buy,
            SolChange::Spend { rolled, .. } => rolled.is_some(),
            _ => false,
        }
    }

    /// The sheets a record holds, for the limits of an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > SOL_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a Project Sol record's",
                found: self.schema,
                known: SOL_RECORD_SCHEMA,
            }
            .into());
        }
        if self.rules > SOL_RULES {
            return Err(crate::ImportProblem::SolRulesNewer {
                found: self.rules,
                known: SOL_RULES,
            }
            .into());
        }
        name_text("name", &self.name)?;
        match &self.change {
            SolChange::Created { sheet } | SolChange::Imported { sheet } => check_sheet(sheet),
            SolChange::Session { before, after }
            | SolChange::Encounter { before, after }
            | SolChange::Reward { before, after }
            | SolChange::Spend { before, after, .. }
            | SolChange::NotDeadYet { before, after, .. }
            | SolChange::Train { before, after, .. } => {
                check_sheet(before)?;
                check_sheet(after)
            }
            SolChange::Test(t) => {
                check_sheet(&t.before)?;
                check_sheet(&t.after)?;
                if t.group_before.len() > MAX_GROUP || t.group_after.len() > MAX_GROUP {
                    return Err(crate::SolRefusal::Group
                        .at("group", "more participants than a group action takes"));
                }
                for s in t.group_before.iter().chain(&t.group_after) {
                    check_sheet(s)?;
                }
                for s in [&t.assistant_before, &t.assistant_after]
                    .into_iter()
                    .flatten()
                {
                    check_sheet(s)?;
                }
                t.request.validate()
            }
        }
    }

    /// One line for the story (journal list, Markdown export).
    pub fn summary(&self) -> String {
        let n = &self.name;
        let edge = |s: &Sheet| format!("Edge {}/{}", s.edge.points, s.edge.attribute);
        match &self.change {
            SolChange::Created { sheet } => format!("{n} is created ({})", edge(sheet)),
            SolChange::Imported { .. } => format!("{n} joins the campaign"),
            SolChange::Session { after, .. } => {
                format!("{n}: a new session, {}", edge(after))
            }
            SolChange::Encounter { .. } => format!("{n}: a new encounter"),
            SolChange::Reward { after, .. } => {
                format!("{n} is rewarded a point of Edge: {}", edge(after))
            }
            SolChange::Spend { outcome, after, .. } => match outcome.what {
                SpendUse::Blitz => format!(
                    "{n} spends Edge on Blitz: +{} dice ({})",
                    outcome.bonus_dice.unwrap_or(0),
                    edge(after)
                ),
                SpendUse::SeizeTheInitiative => {
                    format!("{n} seizes the initiative ({})", edge(after))
                }
                SpendUse::DeadMansTrigger => {
                    let t = outcome.trigger.as_ref();
                    format!(
                        "{n} pulls Dead Man's Trigger (dice {}): {}",
                        t.map(|t| faces(&t.dice)).unwrap_or_default(),
                        if t.and_then(|t| t.success) == Some(true) {
                            "one last action"
                        } else {
                            "no last action"
                        }
                    )
                }
            },
            SolChange::NotDeadYet { lowered, .. } => format!(
                "{n} is not dead yet: {} {} → {}",
                lowered.attribute, lowered.from, lowered.to
            ),
            SolChange::Train { trained, .. } => format!(
                "{n} trains {} to rank {} (cost rating {})",
                trained.skill, trained.ranks, trained.cost
            ),
            SolChange::Test(t) if t.result.bought.is_some() => {
                let b = t.result.bought.expect("checked");
                format!(
                    "{n} buys {} hit(s) in {} + {} ({} dice){}",
                    b.hits,
                    t.request.skill,
                    t.request.attribute,
                    t.result.pool.dice,
                    match b.success {
                        Some(true) => ", success",
                        Some(false) => ", failure",
                        None => "",
                    }
                )
            }
            SolChange::Test(t) if t.result.group.is_some() => {
                let g = t.result.group.as_ref().expect("checked");
                format!(
                    "{n} leads a group action of {} in {} + {}: {} hit(s){}, {} Level 1 wound(s) for the leader",
                    g.members.len() + 1,
                    t.request.skill,
                    t.request.attribute,
                    g.hits,
                    match g.success {
                        Some(true) => ", success",
                        Some(false) => ", failure",
                        None => "",
                    },
                    g.leader_wounds
                )
            }
            SolChange::Test(t) => {
                let r = &t.result;
                let (own, verdict) = match (&r.opposed, &r.test) {
                    (Some(o), _) => (&o.attacker, if o.success { "succeeds" } else { "fails" }),
                    (None, Some(t)) => (
                        t,
                        match t.success {
                            Some(true) => "success",
                            Some(false) => "failure",
                            None => "rolled",
                        },
                    ),
                    (None, None) => return format!("{n} tests {}", t.request.skill),
                };
                format!(
                    "{n} tests {} + {} ({} dice: {}): {} hit(s), {verdict}",
                    t.request.skill,
                    t.request.attribute,
                    r.pool.dice,
                    faces(&own.dice),
                    own.hits
                )
            }
        }
    }

    /// Re-derives the record: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<Divergence> {
        if let Some(newer) = Divergence::newer("Project Sol", self.schema, SOL_RECORD_SCHEMA) {
            return Some(newer);
        }
        if self.rules > SOL_RULES {
            return Some(Divergence::NewerRules {
                record: "Project Sol".into(),
                rules: i64::from(self.rules),
            });
        }
        let rules = self.rules();
        let differs = |what: &str, d: Option<Divergence>| {
            d.map(|d| d.within(format!("the recorded {what} of {}", self.name)))
        };
        let sheet =
            |after: &Sheet, s: &Sheet| differs("sheet", Divergence::fields("sheet", after, s));
        match &self.change {
            SolChange::Created { sheet } | SolChange::Imported { sheet } => check_sheet(sheet)
                .err()
                .map(|e| Divergence::refused(format!("the recorded sheet is not valid: {e}"))),
            SolChange::Session { before, after } => {
                let mut s = before.clone();
                s.new_session();
                sheet(after, &s)
            }
            SolChange::Encounter { before, after } => {
                let mut s = before.clone();
                s.new_encounter();
                sheet(after, &s)
            }
            SolChange::Reward { before, after } => {
                let mut s = before.clone();
                s.edge.reward();
                sheet(after, &s)
            }
            SolChange::NotDeadYet {
                before,
                choice,
                lowered,
                after,
            } => {
                let mut s = before.clone();
                match s.not_dead_yet_by(rules, choice.as_deref()) {
                    Err(e) => Some(Divergence::refused(format!(
                        "Not Dead Yet does not apply: {e}"
                    ))),
                    Ok(l) => differs(
                        "lowered attribute",
                        Divergence::fields("lowered", lowered, &l),
                    )
                    .or_else(|| sheet(after, &s)),
                }
            }
            SolChange::Train {
                before,
                skill,
                trained,
                after,
            } => {
                let mut s = before.clone();
                match s.train(skill) {
                    Err(e) => Some(Divergence::refused(format!(
                        "the training does not apply: {e}"
                    ))),
                    Ok(t) => differs("training", Divergence::fields("trained", trained, &t))
                        .or_else(|| sheet(after, &s)),
                }
            }
            SolChange::Spend {
                before,
                outcome,
                rolled,
                after,
            } => {
                let derived = match rolled {
                    None => {
                        let mut none = TypedDice::new(Vec::new());
                        spend_rule(before, outcome.what, &mut none)
                            .map_err(|e| {
                                Divergence::refused(format!("the spend does not apply: {e}"))
                            })
                            .map(|r| (r, Vec::new()))
                    }
                    Some(r) => again(r, |d| spend_rule(before, outcome.what, d)),
                };
                match derived {
                    Err(e) => Some(e),
                    Ok(((s, o), f)) => rolled
                        .as_ref()
                        .and_then(|r| Divergence::faces(r, &f))
                        .or_else(|| differs("outcome", Divergence::fields("outcome", outcome, &o)))
                        .or_else(|| sheet(after, &s)),
                }
            }
            SolChange::Test(t) => replay_test(t, rules)
                .map(|d| d.within(format!("the recorded test of {}", self.name))),
        }
    }
}

fn replay_test(t: &TestChange, rules: Rules) -> Option<Divergence> {
    let mut main = match Source::of_rolled(&t.rolled) {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    let mut other = match t.against_rolled.as_ref().map(Source::of_rolled).transpose() {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    let blame = Cell::new(false);
    let got = test_rule(
        rules,
        &t.before,
        t.assistant_before.as_ref(),
        &t.group_before,
        &t.request,
        main.dice(),
        other.as_mut().map(Source::dice),
        &blame,
    );
    let (after, assistant_after, group_after, result) = match got {
        Err(e) => return Some(Divergence::of_error(&e)),
        Ok(v) => v,
    };
    let main = main.finish("dice");
    let other = other.map(|o| o.finish("against dice")).transpose();
    match (main, other) {
        (Err(e), _) | (_, Err(e)) => Some(Divergence::of_error(&e)),
        // The defender's own dice exist only when the record keeps them (typed apart).
        (Ok(m), other) => Divergence::faces(&t.rolled, &m.faces)
            .or_else(|| {
                let o = other.ok().flatten()?;
                Divergence::faces(t.against_rolled.as_ref()?, &o.faces)
            })
            .or_else(|| Divergence::fields("result", &t.result, &result))
            .or_else(|| Divergence::fields("after", &t.after, &after))
            .or_else(|| Divergence::fields("assistant_after", &t.assistant_after, &assistant_after))
            .or_else(|| Divergence::fields("group_after", &t.group_after, &group_after)),
    }
}

/// A source of dice that remembers its faces, from a [`Dice`] choice or a journaled
/// [`Rolled`].
enum Source {
    Typed(RecordingDice<TypedDice>),
    Seeded(u64, Box<RecordingDice<SeededDice>>),
}

impl Source {
    /// A source for a choice whose fresh seed was already drawn ([`fix`]).
    fn of(dice: &Dice) -> Self {
        match dice {
            Dice::Typed(f) => Self::Typed(RecordingDice::new(TypedDice::new(f.clone()))),
            Dice::Seed(s) => Self::Seeded(*s, Box::new(RecordingDice::new(SeededDice::new(*s)))),
            Dice::Fresh => {
                let s = SeededDice::from_entropy().seed();
                Self::Seeded(s, Box::new(RecordingDice::new(SeededDice::new(s))))
            }
        }
    }

    fn of_rolled(r: &Rolled) -> Result<Self, Divergence> {
        if r.typed {
            Ok(Self::of(&Dice::Typed(r.faces.clone())))
        } else {
            r.seed
                .map(|s| Self::of(&Dice::Seed(s)))
                .ok_or_else(|| Divergence::unreplayable("a generated roll without its seed"))
        }
    }

    fn dice(&mut self) -> &mut dyn DiceSource {
        match self {
            Self::Typed(d) => d,
            Self::Seeded(_, d) => &mut **d,
        }
    }

    /// What the roll used; typed values left over are an error naming `field`.
    fn finish(self, field: &str) -> Result<Rolled, AppError> {
        match self {
            Self::Typed(d) => {
                let faces = d.faces().iter().map(|&(_, f)| f).collect();
                d.into_inner().finish().map_err(|(used, given)| {
                    crate::SolRefusal::TooManyDice.at(
                        field,
                        format!("too many values: {given} typed, the roll uses {used}"),
                    )
                })?;
                Ok(Rolled {
                    seed: None,
                    typed: true,
                    faces,
                })
            }
            Self::Seeded(seed, d) => Ok(Rolled {
                seed: Some(seed),
                typed: false,
                faces: d.faces().iter().map(|&(_, f)| f).collect(),
            }),
        }
    }
}

/// A fresh roll gets its seed before the transaction: the seed journaled is the seed rolled.
fn fix(dice: Dice) -> Dice {
    match dice {
        Dice::Fresh => Dice::Seed(SeededDice::from_entropy().seed()),
        d => d,
    }
}

/// A source that marks when it fails, so that the message names the right dice.
struct Blamed<'a> {
    inner: &'a mut dyn DiceSource,
    failed: &'a Cell<bool>,
}

impl DiceSource for Blamed<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.inner
            .roll(sides)
            .inspect_err(|_| self.failed.set(true))
    }
}

fn dice_error(e: DiceError, field: &str) -> AppError {
    crate::SolRefusal::Dice.at(field, e.to_string())
}

fn test_error(e: TestError, blame: &Cell<bool>) -> AppError {
    match e {
        TestError::Dice(d) => dice_error(d, if blame.get() { "against dice" } else { "dice" }),
        TestError::Pool(p) => crate::SolRefusal::Pool.at("pool", p.to_string()),
        // The app's own checks refuse both first (`sol-opposed`, `sol-retry`); these are
        // the same refusals should a rule find them.
        e @ TestError::BothSmackdown => crate::SolRefusal::Opposed.at("against", e.to_string()),
        e @ TestError::NoThreshold => crate::SolRefusal::Retry.at("retry", e.to_string()),
    }
}

fn rule_error(e: SheetRuleError, field: &str) -> AppError {
    match e {
        SheetRuleError::NoAttribute(_) => {
            crate::SolRefusal::Attribute.at("attribute", e.to_string())
        }
        other => crate::SolRefusal::Sheet.at(field, other.to_string()),
    }
}

/// Runs a rule again on a journaled roll, returning its result and the faces drawn.
fn again<T>(
    rolled: &Rolled,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<T, AppError>,
) -> Result<(T, Vec<u32>), Divergence> {
    let mut src = Source::of_rolled(rolled)?;
    let out = rule(src.dice()).map_err(|e| Divergence::of_error(&e))?;
    let r = src.finish("dice").map_err(|e| Divergence::of_error(&e))?;
    Ok((out, r.faces))
}

/// Edge spent outside a test: the sheet after and what it gave. Dice only for Dead Man's
/// Trigger.
fn spend_rule(
    before: &Sheet,
    what: SpendUse,
    dice: &mut dyn DiceSource,
) -> Result<(Sheet, SpendOutcome), AppError> {
    let mut s = before.clone();
    let mut outcome = SpendOutcome {
        what,
        bonus_dice: None,
        trigger: None,
    };
    match what {
        SpendUse::Blitz => outcome.bonus_dice = Some(s.blitz().map_err(|e| rule_error(e, "edge"))?),
        SpendUse::SeizeTheInitiative => s
            .seize_the_initiative()
            .map_err(|e| rule_error(e, "edge"))?,
        SpendUse::DeadMansTrigger => {
            let spec = s.dead_mans_trigger().map_err(|e| rule_error(e, "edge"))?;
            outcome.trigger = Some(roll_test(&spec, dice).map_err(|e| dice_error(e, "dice"))?);
        }
    }
    Ok((s, outcome))
}

/// A test from a sheet: every check before any die, then Edge declared, the assistant's
/// test and the character's, Edge chosen after, progress. Returns the sheet after, the
/// assistant's sheet after, and what the test gave. `against` is the defender's own source
/// (typed apart); without it the defender draws from `dice` after the attacker.
/// A test's sheets after: the character's, the assistant's, a group's other participants'.
type TestSheets = (Sheet, Option<Sheet>, Vec<Sheet>, SolTestResult);

/// The character's side of a test before any die: the attribute and ranks read from the
/// sheet and the pool they make with the request's modifiers.
struct TestPool {
    attribute_value: u32,
    ranks: u32,
    spec: PoolSpec,
    pool: Pool,
}

impl TestPool {
    fn of(s: &Sheet, req: &SolTest) -> Result<Self, AppError> {
        let attribute_value = s
            .needed(&req.attribute)
            .map_err(|e| rule_error(e, "attribute"))?;
        let ranks = s.ranks(&req.skill);
        let spec = pool_spec(attribute_value, ranks, req, req.retry);
        let pool = spec.build().map_err(|e| match e {
            PoolError::NoMoreTries { .. } => crate::SolRefusal::Retry.at("retry", e.to_string()),
            e => crate::SolRefusal::Pool.at("pool", e.to_string()),
        })?;
        Ok(Self {
            attribute_value,
            ranks,
            spec,
            pool,
        })
    }

    /// What the test gave, with this pool (or the one an assistant changed) and no progress
    /// yet (recorded after, by [`apply_test`]).
    fn result(&self, pool: Pool) -> SolTestResult {
        SolTestResult {
            attribute_value: self.attribute_value,
            ranks: self.ranks,
            pool,
            assistant: None,
            assistant_progress: None,
            test: None,
            opposed: None,
            progress: Progress {
                point: false,
                rank_up: false,
            },
            bought: None,
            group: None,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn test_rule(
    rules: Rules,
    before: &Sheet,
    assistant: Option<&Sheet>,
    group: &[Sheet],
    req: &SolTest,
    dice: &mut dyn DiceSource,
    against: Option<&mut dyn DiceSource>,
    blame: &Cell<bool>,
) -> Result<TestSheets, AppError> {
    req.validate()?;
    if group.len() != req.group.len() {
        return Err(AppError::internal(
            "group",
            "the participants' sheets do not match the request",
        ));
    }
    let mut s = before.clone();
    let base = TestPool::of(&s, req)?;
    let assistant_dice = assistant_dice(req, assistant)?;
    // Edge declared before rolling: with no point left, nothing is rolled.
    s.use_edge_before_by(rules, req.edge)
        .map_err(|e| rule_error(e, "edge"))?;
    if let Some(o) = req.against {
        return opposed_test(rules, before, req, &base, o, dice, against, blame);
    }
    if against.is_some() {
        return Err(
            crate::SolRefusal::Opposed.at("against dice", "typed for a test that is not opposed")
        );
    }
    if req.buy {
        return Ok((before.clone(), None, Vec::new(), bought_test(req, &base)));
    }
    if req.then.is_some() && s.edge.points == 0 {
        return Err(crate::SolRefusal::Edge.at(
            "then",
            format!("no Edge left to spend (0 of {})", s.edge.attribute),
        ));
    }
    let then = req.then;
    let mut choose = |_: &TestOutcome| then;
    let (helper, pool, test) = match assistant_dice {
        Some(n) => {
            let a = roll_assisted(
                &TestSpec {
                    dice: n,
                    threshold: None,
                    edge: None,
                },
                &base.spec,
                req.threshold(),
                req.edge,
                dice,
                &mut choose,
            )
            .map_err(|e| test_error(e, blame))?;
            (Some(a.assistant), a.pool, a.test)
        }
        None => {
            let t = roll_test_then(
                &TestSpec {
                    dice: base.pool.dice,
                    threshold: req.threshold(),
                    edge: req.edge,
                },
                dice,
                &mut choose,
            )
            .map_err(|e| dice_error(e, "dice"))?;
            (None, base.pool.clone(), t)
        }
    };
    let members = group_members(group, req, dice)?;
    let mut result = SolTestResult {
        assistant: helper,
        group: group_result(&test, members, req),
        test: Some(test),
        ..base.result(pool)
    };
    let mut after = before.clone();
    let mut assistant_after = assistant.filter(|_| result.assistant.is_some()).cloned();
    let mut group_after = group.to_vec();
    let members_progress;
    (result.progress, result.assistant_progress, members_progress) = apply_test(
        rules,
        &mut after,
        assistant_after.as_mut(),
        &mut group_after,
        req,
        &result,
    )?;
    if let Some(g) = result.group.as_mut() {
        for (m, p) in g.members.iter_mut().zip(members_progress) {
            m.progress = p;
        }
    }
    Ok((after, assistant_after, group_after, result))
}

/// A pool of the request's attribute and skill for one participant: its own attribute value
/// and ranks, the request's modifiers, and `retry` tries already made (the leader's only).
fn pool_spec(attribute_value: u32, ranks: u32, req: &SolTest, retry: u32) -> PoolSpec {
    PoolSpec {
        attribute: i64::from(attribute_value),
        ranks: i64::from(ranks),
        modifiers: req.modifiers.iter().map(|m| m.get()).collect(),
        untrained_penalty: req.untrained_penalty,
        retry,
    }
}

/// The dice an assistant adds (S3): a number given, or its own pool from its sheet.
fn assistant_dice(req: &SolTest, assistant: Option<&Sheet>) -> Result<Option<u32>, AppError> {
    Ok(match (&req.assist, assistant) {
        (Some(Assist::Dice(n)), _) => Some(n.get()),
        (Some(Assist::Character(_)), Some(a)) => Some(
            a.assist_pool(&req.attribute, &req.skill, req.untrained_penalty)
                .map_err(|e| rule_error(e, "assistant"))?
                .map_err(|e| crate::SolRefusal::Assistant.at("assistant", e.to_string()))?
                .dice,
        ),
        (Some(Assist::Character(name)), None) => {
            return Err(AppError::NoSuchCharacter(name.trim().to_owned()));
        }
        (None, _) => None,
    })
}

/// An opposed test: the character's pool against the defender's dice, each side's own Edge;
/// the defender rolls from `against` (typed apart) or after the attacker from `dice`.
#[allow(clippy::too_many_arguments)]
fn opposed_test(
    rules: Rules,
    before: &Sheet,
    req: &SolTest,
    base: &TestPool,
    defender: Opposition,
    dice: &mut dyn DiceSource,
    against: Option<&mut dyn DiceSource>,
    blame: &Cell<bool>,
) -> Result<TestSheets, AppError> {
    let attacker = TestSpec {
        dice: base.pool.dice,
        threshold: None,
        edge: req.edge,
    };
    let defender = TestSpec {
        dice: defender.dice.get(),
        threshold: None,
        edge: defender.edge,
    };
    let opposed = match against {
        Some(d) => {
            let mut d = Blamed {
                inner: d,
                failed: blame,
            };
            roll_opposed(&attacker, &defender, dice, &mut d)
        }
        None => {
            let shared = SharedDice::new(dice);
            let (mut a, mut d) = (&shared, &shared);
            roll_opposed(&attacker, &defender, &mut a, &mut d)
        }
    }
    .map_err(|e| test_error(e, blame))?;
    let mut result = SolTestResult {
        opposed: Some(opposed),
        ..base.result(base.pool.clone())
    };
    let mut after = before.clone();
    (result.progress, _, _) = apply_test(rules, &mut after, None, &mut [], req, &result)?;
    Ok((after, None, Vec::new(), result))
}

/// Hits bought instead of rolled (S2): a quarter of the pool, no dice, no progress.
fn bought_test(req: &SolTest, base: &TestPool) -> SolTestResult {
    let hits = solum_sol::pool::buy_hits(base.pool.dice);
    SolTestResult {
        bought: Some(Bought {
            hits,
            success: req.threshold().map(|t| hits >= t),
            net_hits: req.threshold().map(|t| hits.saturating_sub(t)),
        }),
        ..base.result(base.pool.clone())
    }
}

/// A group action: each other participant rolls the same attribute + its own ranks with
/// the same modifiers (its bonus capped by its own ranks), in the order named.
fn group_members(
    group: &[Sheet],
    req: &SolTest,
    dice: &mut dyn DiceSource,
) -> Result<Vec<GroupMember>, AppError> {
    let mut members = Vec::with_capacity(group.len());
    for m in group {
        let attribute_value = m.needed(&req.attribute).map_err(|_| {
            crate::SolRefusal::Group.at(
                "group",
                format!("{} has no attribute `{}`", m.name, req.attribute),
            )
        })?;
        let ranks = m.ranks(&req.skill);
        let pool = pool_spec(attribute_value, ranks, req, 0)
            .build()
            .map_err(|e| crate::SolRefusal::Group.at("group", format!("{}: {e}", m.name)))?;
        let test = roll_test(
            &TestSpec {
                dice: pool.dice,
                threshold: req.threshold(),
                edge: None,
            },
            dice,
        )
        .map_err(|e| dice_error(e, "dice"))?;
        members.push(GroupMember {
            name: m.name.clone(),
            attribute_value,
            ranks,
            pool,
            test,
            progress: Progress {
                point: false,
                rank_up: false,
            },
        });
    }
    Ok(members)
}

/// What a group action gave, the leader's test first (none without other participants).
fn group_result(
    leader: &TestOutcome,
    members: Vec<GroupMember>,
    req: &SolTest,
) -> Option<GroupResult> {
    if members.is_empty() {
        return None;
    }
    let tests: Vec<TestOutcome> = std::iter::once(leader.clone())
        .chain(members.iter().map(|m| m.test.clone()))
        .collect();
    let g = solum_sol::test::group_action(&tests).expect("the leader is there");
    Some(GroupResult {
        members,
        best: g.best,
        hits: g.hits,
        success: req.threshold().map(|t| g.hits >= t),
        net_hits: req.threshold().map(|t| g.hits.saturating_sub(t)),
        leader_wounds: g.leader_wounds,
    })
}

/// What a test does to the sheets, from its request and its dice, on the sheets as they are:
/// Edge declared before the roll is spent (or burnt), Edge chosen after the dice is spent
/// when it was used, the test's progress is recorded, and an assistant with a sheet records
/// its own. [`test_rule`] applies it to the sheets it rolled from; revealing a game
/// master's secret test applies it to the sheets as they are at the reveal (a secret test
/// changes no sheet until then). Returns the progress of each.
pub(crate) fn apply_test(
    rules: Rules,
    sheet: &mut Sheet,
    assistant: Option<&mut Sheet>,
    group: &mut [Sheet],
    req: &SolTest,
    result: &SolTestResult,
) -> Result<(Progress, Option<Progress>, Vec<Progress>), AppError> {
    let none = Progress {
        point: false,
        rank_up: false,
    };
    if result.bought.is_some() {
        // Bought hits: no die rolled, no Edge, no progress (a point needs rolled hits).
        return Ok((none, None, Vec::new()));
    }
    sheet
        .use_edge_before_by(rules, req.edge)
        .map_err(|e| rule_error(e, "edge"))?;
    if let Some(opposed) = &result.opposed {
        let progress = sheet.record_test_by(rules, &req.skill, &opposed.attacker);
        check_sheet(sheet)?;
        return Ok((progress, None, Vec::new()));
    }
    let test = result
        .test
        .as_ref()
        .ok_or_else(|| AppError::internal("result", "holds neither a test nor an opposed test"))?;
    // Edge chosen after the dice: spent only when it was used.
    if req.edge.is_none() {
        sheet
            .use_edge_after(test)
            .map_err(|e| rule_error(e, "then"))?;
    }
    let progress = sheet.record_test_by(rules, &req.skill, test);
    check_sheet(sheet)?;
    let mut members_progress = Vec::new();
    if let Some(g) = &result.group {
        if g.members.len() != group.len() {
            return Err(AppError::internal(
                "group",
                "the participants' sheets do not match the result",
            ));
        }
        for (s, m) in group.iter_mut().zip(&g.members) {
            members_progress.push(s.record_test_by(rules, &req.skill, &m.test));
            check_sheet(s)?;
        }
    }
    let assistant_progress = match (assistant, &result.assistant) {
        (Some(a), Some(h)) => {
            let p = a.record_test_by(rules, &req.skill, h);
            check_sheet(a)?;
            Some(p)
        }
        _ => None,
    };
    Ok((progress, assistant_progress, members_progress))
}

/// Applies a revealed secret test's effects to the sheets as they are now (see
/// [`apply_test`]); other records of Project Sol change nothing at a reveal.
pub(crate) fn apply_revealed(tx: &mut dyn WriteTx, record: &SolRecord) -> Result<(), AppError> {
    let SolChange::Test(t) = &record.change else {
        return Ok(());
    };
    let mut sheet = load(tx, &t.before.name)?;
    let mut assistant = t
        .assistant_before
        .as_ref()
        .map(|a| load(tx, &a.name))
        .transpose()?;
    let mut group = t
        .group_before
        .iter()
        .map(|g| load(tx, &g.name))
        .collect::<Result<Vec<_>, _>>()?;
    apply_test(
        record.rules(),
        &mut sheet,
        assistant.as_mut(),
        &mut group,
        &t.request,
        &t.result,
    )?;
    tx.update_sheet(SYSTEM, &t.before.name, &to_sheet(&sheet)?)?;
    if let Some(a) = &assistant {
        tx.update_sheet(SYSTEM, &a.name, &to_sheet(a)?)?;
    }
    for g in &group {
        tx.update_sheet(SYSTEM, &g.name, &to_sheet(g)?)?;
    }
    Ok(())
}

/// A sheet as a front end shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolSheetView {
    /// The sheet.
    pub sheet: Sheet,
    /// Raised by one on every change (0 for a sheet read from a file).
    pub version: i64,
}

/// A change stored: its journal entry and the sheet after, with what the change gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The sheet after.
    pub sheet: SolSheetView,
    /// Edge after the change.
    pub edge: Edge,
    /// Edge spent outside a test: what it gave.
    pub spend: Option<SpendOutcome>,
    /// Not Dead Yet: what was lowered.
    pub lowered: Option<Lowered>,
    /// Training: what it did.
    pub trained: Option<Trained>,
    /// The dice, when the change rolled.
    pub rolled: Option<Rolled>,
}

/// A test rolled from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolTestView {
    /// The journal entry.
    pub seq: i64,
    /// The character.
    pub name: String,
    /// The request.
    pub request: SolTest,
    /// What the test gave.
    #[serde(flatten)]
    pub result: SolTestResult,
    /// The chance of success before the roll, with the Edge declared (a threshold or an
    /// opposed test).
    pub p_success: Option<f64>,
    /// The same chance as an exact fraction.
    pub p_success_exact: Option<String>,
    /// Edge after the test (for a secret test: once it is revealed, if nothing else
    /// changes it first).
    pub edge: Edge,
    /// False for a game master's secret test: its Edge and progress wait for the reveal.
    pub applied: bool,
    /// The assistant of the campaign, and its Edge and progress on its sheet.
    pub assistant_name: Option<String>,
    /// The dice.
    pub rolled: Rolled,
    /// The defender's dice, typed apart.
    pub against_rolled: Option<Rolled>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// Where the modifier asked for (the assistant's hits among it) and the one the pool
    /// applied differ: both and the rules between them; `null` when they agree.
    pub modifier_note: Option<crate::sol_once::ModifierNote>,
}

fn to_sheet(sheet: &Sheet) -> Result<solum_store::Sheet, AppError> {
    Ok(solum_store::Sheet {
        system: SYSTEM.into(),
        name: sheet.name.clone(),
        schema: i64::from(SHEET_SCHEMA),
        version: 0,
        body: serde_json::to_value(sheet)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))?,
    })
}

fn from_sheet(stored: &solum_store::Sheet) -> Result<Sheet, AppError> {
    if stored.schema != i64::from(SHEET_SCHEMA) {
        return Err(crate::SolRefusal::StoredSheet.at(
            "schema",
            format!(
                "the stored sheet of {} has schema {}; this solum reads {SHEET_SCHEMA}",
                stored.name, stored.schema
            ),
        ));
    }
    let sheet: Sheet = serde_json::from_value(stored.body.clone()).map_err(|e| {
        crate::SolRefusal::StoredSheet.at(
            "sheet",
            format!("the stored sheet of {} cannot be read: {e}", stored.name),
        )
    })?;
    check_sheet(&sheet)?;
    Ok(sheet)
}
fn load(tx: &dyn WriteTx, name: &str) -> Result<Sheet, AppError> {
    let stored = tx
        .sheet(SYSTEM, name)?
        .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
    from_sheet(&stored)
}

/// Reads a TOML sheet (the format of `sol new` files and [`Campaign::export_sol`]), checked
/// by the rules and the campaign's limits.
pub fn parse_sheet(toml_text: &str) -> Result<Sheet, AppError> {
    let limit = crate::MAX_FILE_BYTES;
    if toml_text.len() as u64 > limit {
        return Err(crate::SolRefusal::SheetLimit.at(
            "sheet",
            format!("{} bytes; the limit is {limit}", toml_text.len()),
        ));
    }
    let sheet: Sheet = toml::from_str(toml_text)
        .map_err(|e| crate::SolRefusal::SheetLimit.at("sheet", e.to_string().trim_end()))?;
    check_sheet(&sheet)?;
    Ok(sheet)
}

impl<S: CampaignStore> Campaign<S> {
    /// Reads a sheet, changes it by `rule`, and stores it with its journal entry in one
    /// transaction.
    fn sol_change(
        &mut self,
        name: &str,
        mut rule: impl FnMut(&Sheet) -> Result<(Sheet, SolChange), AppError>,
    ) -> Result<(i64, SolChange, SolSheetView), AppError> {
        let at = self.now();
        self.transact(|tx| {
            let before = load(tx, name)?;
            let (after, change) = rule(&before)?;
            check_sheet(&after)?;
            let stored = tx.update_sheet(SYSTEM, &before.name, &to_sheet(&after)?)?;
            let seq = journaling::append(tx, &at, &SolRecord::new(&before.name, change.clone()))?;
            Ok((
                seq,
                change,
                SolSheetView {
                    sheet: after,
                    version: stored.version,
                },
            ))
        })
    }

    fn sol_insert(&mut self, sheet: Sheet, change: SolChange) -> Result<SolChangeView, AppError> {
        let at = self.now();
        let seq = self.transact(|tx| {
            if tx.sheet(SYSTEM, &sheet.name)?.is_some() {
                return Err(crate::SolRefusal::NameTaken.at(
                    "name",
                    format!("the campaign already has a character named {}", sheet.name),
                ));
            }
            crate::look_alike_free(tx, SYSTEM, &sheet.name)?;
            tx.insert_sheet(&to_sheet(&sheet)?)?;
            journaling::append(tx, &at, &SolRecord::new(&sheet.name, change.clone()))
        })?;
        Ok(view(seq, SolSheetView { sheet, version: 1 }))
    }

    /// Creates a Project Sol character (Edge points start full).
    pub fn create_sol(&mut self, new: &NewSol) -> Result<SolChangeView, AppError> {
        let sheet = new.sheet()?;
        self.sol_insert(
            sheet.clone(),
            SolChange::Created {
                sheet: sheet.clone(),
            },
        )
    }

    /// Adds a character from its TOML sheet, progress, Edge points and training as written.
    pub fn import_sol(&mut self, toml_text: &str) -> Result<SolChangeView, AppError> {
        let sheet = parse_sheet(toml_text)?;
        self.sol_insert(
            sheet.clone(),
            SolChange::Imported {
                sheet: sheet.clone(),
            },
        )
    }

    /// A character's sheet as TOML, the format [`Campaign::import_sol`] reads.
    pub fn export_sol(&self, name: &str) -> Result<String, AppError> {
        let view = self.sol(name)?;
        toml::to_string_pretty(&view.sheet)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))
    }

    /// A character's sheet (the name in any case).
    pub fn sol(&self, name: &str) -> Result<SolSheetView, AppError> {
        let stored = self
            .store
            .sheet(SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        Ok(SolSheetView {
            sheet: from_sheet(&stored)?,
            version: stored.version,
        })
    }

    /// Every Project Sol character of the campaign, by name.
    pub fn sols(&self) -> Result<Vec<SolSheetView>, AppError> {
        self.store
            .sheets(SYSTEM)?
            .iter()
            .map(|s| {
                Ok(SolSheetView {
                    sheet: from_sheet(s)?,
                    version: s.version,
                })
            })
            .collect()
    }

    /// A new play session: Edge refreshes to the attribute, training is allowed again, and
    /// a new encounter begins. The game master's ([`crate::policy::GmOnly::SolSession`]).
    pub fn sol_session(&mut self, name: &str) -> Result<SolChangeView, AppError> {
        self.game_master(crate::policy::GmOnly::SolSession)?;
        self.simple(name, |before| {
            let mut after = before.clone();
            after.new_session();
            let change = SolChange::Session {
                before: before.clone(),
                after: after.clone(),
            };
            Ok((after, change))
        })
    }

    /// A new encounter: every skill may earn a progress point again. The game master's
    /// ([`crate::policy::GmOnly::SolEncounter`]).
    pub fn sol_encounter(&mut self, name: &str) -> Result<SolChangeView, AppError> {
        self.game_master(crate::policy::GmOnly::SolEncounter)?;
        self.simple(name, |before| {
            let mut after = before.clone();
            after.new_encounter();
            let change = SolChange::Encounter {
                before: before.clone(),
                after: after.clone(),
            };
            Ok((after, change))
        })
    }

    /// The GM's reward: one point of Edge back, never above the attribute
    /// ([`crate::policy::GmOnly::SolReward`]).
    pub fn sol_reward(&mut self, name: &str) -> Result<SolChangeView, AppError> {
        self.game_master(crate::policy::GmOnly::SolReward)?;
        self.simple(name, |before| {
            let mut after = before.clone();
            after.edge.reward();
            let change = SolChange::Reward {
                before: before.clone(),
                after: after.clone(),
            };
            Ok((after, change))
        })
    }

    fn simple(
        &mut self,
        name: &str,
        rule: impl FnMut(&Sheet) -> Result<(Sheet, SolChange), AppError>,
    ) -> Result<SolChangeView, AppError> {
        let (seq, _, sheet) = self.sol_change(name, rule)?;
        Ok(view(seq, sheet))
    }

    /// Not Dead Yet: burns a point of Edge and lowers the highest physical attribute by 1;
    /// on a tie `choice` names which.
    pub fn sol_not_dead_yet(
        &mut self,
        name: &str,
        choice: Option<&str>,
    ) -> Result<SolChangeView, AppError> {
        let (seq, change, sheet) = self.sol_change(name, |before| {
            let mut after = before.clone();
            let lowered = after.not_dead_yet(choice).map_err(|e| match e {
                NotDeadYetError::Tie { .. } => {
                    crate::SolRefusal::AttributeTie.at("attribute", e.to_string())
                }
                NotDeadYetError::NotHighest { .. } => {
                    crate::SolRefusal::NotHighest.at("attribute", e.to_string())
                }
                other => crate::SolRefusal::Edge.at("edge", other.to_string()),
            })?;
            let change = SolChange::NotDeadYet {
                before: before.clone(),
                choice: choice.map(str::to_owned),
                lowered,
                after: after.clone(),
            };
            Ok((after, change))
        })?;
        let SolChange::NotDeadYet { lowered, .. } = change else {
            unreachable!("Not Dead Yet journals Not Dead Yet")
        };
        Ok(SolChangeView {
            lowered: Some(lowered),
            ..view(seq, sheet)
        })
    }

    /// The physical attributes tied for highest that Not Dead Yet would have `name` choose
    /// between now: those it is refused for without a choice
    /// ([`crate::SolRefusal::AttributeTie`]), else none (one is highest, or it is refused
    /// for another reason). A front end asks its user among them and calls
    /// [`Campaign::sol_not_dead_yet`] again with the choice.
    pub fn sol_not_dead_yet_tie(&self, name: &str) -> Result<Vec<String>, AppError> {
        let mut sheet = self.sol(name)?.sheet;
        Ok(match sheet.not_dead_yet(None) {
            Err(NotDeadYetError::Tie { tied, .. }) => tied,
            _ => Vec::new(),
        })
    }

    /// Trains the next rank of a skill: one training per game session (refused even when two
    /// start at once), cost rating the new rank × 2, progress cleared.
    pub fn sol_train(&mut self, name: &str, skill: &str) -> Result<SolChangeView, AppError> {
        let skill = name_text("skill", skill)?;
        let (seq, change, sheet) = self.sol_change(name, |before| {
            let mut after = before.clone();
            let trained = after.train(&skill).map_err(|e| rule_error(e, "skill"))?;
            let change = SolChange::Train {
                before: before.clone(),
                skill: skill.clone(),
                trained,
                after: after.clone(),
            };
            Ok((after, change))
        })?;
        let SolChange::Train { trained, .. } = change else {
            unreachable!("a training journals a training")
        };
        Ok(SolChangeView {
            trained: Some(trained),
            ..view(seq, sheet)
        })
    }

    /// Spends a point of Edge outside a test: Blitz (REA + INT bonus dice), Seize the
    /// Initiative, or Dead Man's Trigger, which rolls its BOD + WIL (3) test. Only Dead Man's
    /// Trigger takes dice: typed values or a seed for another use are refused.
    pub fn sol_spend(
        &mut self,
        name: &str,
        what: SpendUse,
        dice: Dice,
    ) -> Result<SolChangeView, AppError> {
        if what != SpendUse::DeadMansTrigger && dice != Dice::Fresh {
            return Err(crate::SolRefusal::NoDice.at(
                "dice",
                "only Dead Man's Trigger rolls dice; this use rolls none",
            ));
        }
        // A spend changes the sheet the table sees at once (Edge, initiative): it is not a
        // secret roll a reveal could apply later, so it is never made in secret.
        if self.transact(|tx| Ok(tx.scope().secret_writes))? {
            return Err(crate::SolRefusal::Edge.at(
                "secret",
                "Edge spent outside a test is seen by the table: spend it openly",
            ));
        }
        let dice = fix(dice);
        let (seq, change, sheet) = self.sol_change(name, |before| {
            let mut src = Source::of(&dice);
            let (after, outcome) = spend_rule(before, what, src.dice())?;
            let rolled = src.finish("dice")?;
            let change = SolChange::Spend {
                before: before.clone(),
                outcome,
                rolled: (what == SpendUse::DeadMansTrigger).then_some(rolled),
                after: after.clone(),
            };
            Ok((after, change))
        })?;
        let SolChange::Spend {
            outcome, rolled, ..
        } = change
        else {
            unreachable!("a spend journals a spend")
        };
        Ok(SolChangeView {
            spend: Some(outcome),
            rolled,
            ..view(seq, sheet)
        })
    }

    /// Rolls a test from a sheet: attribute + ranks + modifiers (capped by the ranks), Edge
    /// declared before (spent, or burnt for Smackdown) or chosen up front for after the dice
    /// (`then`), an assistant's test first (a character of this campaign records its own
    /// progress), or an opposed test; progress recorded. Typed dice go: the assistant's pool,
    /// the pool, the Second Chance rerolls, then (opposed) the defender's unless
    /// `against_typed` gives them apart.
    pub fn sol_test(
        &mut self,
        name: &str,
        req: &SolTest,
        dice: Dice,
        against_typed: Option<Vec<u32>>,
    ) -> Result<SolTestView, AppError> {
        req.validate()?;
        if against_typed.is_some() && req.against.is_none() {
            return Err(crate::SolRefusal::Opposed
                .at("against dice", "typed for a test that is not opposed"));
        }
        let dice = fix(dice);
        let at = self.now();
        let (seq, t, applied) = self.transact(|tx| {
            let before = load(tx, name)?;
            let assistant_before = match &req.assist {
                Some(Assist::Character(a)) => {
                    let a = load(tx, a)?;
                    if solum_store::name_key(&a.name) == solum_store::name_key(&before.name) {
                        return Err(crate::SolRefusal::Assistant
                            .at("assistant", "a character cannot assist itself"));
                    }
                    Some(a)
                }
                _ => None,
            };
            let mut group_before = Vec::with_capacity(req.group.len());
            for g in &req.group {
                let m = load(tx, g)?;
                if solum_store::name_key(&m.name) == solum_store::name_key(&before.name) {
                    return Err(crate::SolRefusal::Group.at(
                        "group",
                        "the leader is in the group already: name the other participants",
                    ));
                }
                group_before.push(m);
            }
            let mut main = Source::of(&dice);
            let mut other = against_typed
                .as_ref()
                .map(|f| Source::of(&Dice::Typed(f.clone())));
            let blame = Cell::new(false);
            let (after, assistant_after, group_after, result) = test_rule(
                Rules::Current,
                &before,
                assistant_before.as_ref(),
                &group_before,
                req,
                main.dice(),
                other.as_mut().map(Source::dice),
                &blame,
            )?;
            let rolled = main.finish("dice")?;
            let against_rolled = other.map(|o| o.finish("against dice")).transpose()?;
            let t = TestChange {
                before: before.clone(),
                request: req.clone(),
                assistant_before,
                rolled,
                against_rolled,
                result,
                after,
                assistant_after,
                group_before,
                group_after,
            };
            let stored = journaling::append_stored(
                tx,
                &at,
                &SolRecord::new(&before.name, SolChange::Test(Box::new(t.clone()))),
            )?;
            // A game master's secret test changes no sheet (nor its version) until it is
            // revealed: a player would read it there.
            if !stored.secret {
                tx.update_sheet(SYSTEM, &before.name, &to_sheet(&t.after)?)?;
                if let Some(a) = &t.assistant_after {
                    tx.update_sheet(SYSTEM, &a.name, &to_sheet(a)?)?;
                }
                for g in &t.group_after {
                    tx.update_sheet(SYSTEM, &g.name, &to_sheet(g)?)?;
                }
            }
            Ok((stored.seq, t, !stored.secret))
        })?;
        let r = &t.result;
        let p = match req.against {
            _ if req.buy || !req.group.is_empty() => None,
            Some(o) => solum_sol::odds::opposed(r.pool.dice, req.edge, o.dice.get(), o.edge)
                .ok()
                .map(|o| o.success),
            None => req
                .threshold()
                .map(|th| solum_sol::odds::test_odds(r.pool.dice, th, req.edge).success),
        };
        let asked: Vec<i64> = req
            .modifiers
            .iter()
            .map(|m| m.get())
            .chain(r.assistant.as_ref().map(|a| i64::from(a.hits)))
            .collect();
        let modifier_note = crate::sol_once::modifier_note(
            &asked,
            &r.pool,
            i64::from(r.ranks),
            req.untrained_penalty,
            req.retry,
        );
        Ok(SolTestView {
            seq,
            name: t.after.name.clone(),
            modifier_note,
            request: t.request.clone(),
            p_success: p.as_ref().map(solum_dice::prob_to_f64),
            p_success_exact: p.map(|p| p.to_string()),
            edge: t.after.edge,
            applied,
            assistant_name: t.assistant_after.as_ref().map(|a| a.name.clone()),
            seed: t.rolled.seed,
            rolled: t.rolled,
            against_rolled: t.against_rolled,
            result: t.result,
        })
    }
}

fn view(seq: i64, sheet: SolSheetView) -> SolChangeView {
    SolChangeView {
        seq,
        edge: sheet.sheet.edge,
        sheet,
        spend: None,
        lowered: None,
        trained: None,
        rolled: None,
    }
}

/// The schema of a test's assistant: `{"dice": n}` or `{"character": name}`, or `null`.
#[cfg(feature = "openapi")]
fn assist() -> utoipa::openapi::schema::Schema {
    use crate::schema::{either, integer, name, or_null, tagged};
    let every = |a: &Assist| match a {
        Assist::Dice(_) => "dice",
        Assist::Character(_) => "character",
    };
    or_null(either(vec![
        tagged(
            every(&Assist::Dice(
                SolDice::new(SolDice::MIN).expect("the least pool is a pool"),
            )),
            integer(i64::from(SolDice::MIN), i64::from(SolDice::MAX)),
        ),
        tagged(every(&Assist::Character(String::new())), name()),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::bounded::bounded_tests!(sol_edge, SolEdge, "Edge is 0 to 1000");

    /// A test's numbers are read with their types; the JSON is the numbers as before.
    #[test]
    fn a_tests_numbers_are_read_typed_and_written_as_numbers() {
        let json = serde_json::json!({
            "skill": "Sidearms", "attribute": "AGI", "threshold": 3, "modifiers": [-2, 1],
            "untrained_penalty": false, "retry": 0, "edge": null, "then": null,
            "assist": {"dice": 4}, "against": null,
        });
        let t: SolTest = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(t.threshold(), Some(3));
        assert_eq!(serde_json::to_value(&t).unwrap(), json);
        for (field, value, words) in [
            (
                "threshold",
                serde_json::json!(1001),
                "a threshold is 0 to 1000 hits",
            ),
            (
                "modifiers",
                serde_json::json!([1001]),
                "a modifier is -1000 to 1000",
            ),
            (
                "assist",
                serde_json::json!({"dice": 0}),
                "a pool has 1 to 1000 dice",
            ),
            (
                "against",
                serde_json::json!({"dice": 1001}),
                "a pool has 1 to 1000 dice",
            ),
        ] {
            let mut bad = json.clone();
            bad[field] = value;
            let e = serde_json::from_value::<SolTest>(bad).unwrap_err();
            assert!(e.to_string().contains(words), "{field}: {e}");
        }
    }
}
