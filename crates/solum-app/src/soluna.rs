//! Sol'una characters in the campaign (system `soluna`): the fields of a skirmish
//! character, import of a skirmish file's characters, export as one, tests from a sheet, and
//! skirmishes of stored characters, journaled with their dice.
//!
//! A skirmish is played, not watched (U5): [`Campaign::start_soluna_skirmish`] keeps the
//! state machine of `solum_soluna::played` in a row of its own ([`SKIRMISH_SYSTEM`], one per
//! table), each decision ([`Campaign::act_soluna_skirmish`]) is one journal entry holding the
//! state before, the decision, the dice and the state after, and at its end (or when
//! abandoned) each sheet keeps its hit points and what is left of its supplies, which the
//! text calls exhaustible (docs/rules.md, Sol'una). The whole-auto skirmish
//! ([`Campaign::soluna_skirmish`]) is a simulation on copies: the sheets do not change.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use solum_dice::DiceSource;
use solum_soluna::played::{Order, Skirmish};
use solum_soluna::skirmish::{self, Event, MAX_CHARACTERS, SkirmishFile};

/// A Sol'una character as a skirmish takes it (a request body names one).
pub use solum_soluna::skirmish::Character;
use solum_store::{CampaignStore, WriteTx};

use crate::classic::{again, fix_seed, name_text, read_row, sheet_row};
use crate::journaling;
use crate::rolled::Rolled;
use crate::soluna_once::Flips;
use crate::{AppError, Campaign, Dice, Divergence};

/// The system name Sol'una characters are stored under.
pub const SYSTEM: &str = "soluna";
/// The schema of the records this build writes.
pub const SOLUNA_RECORD_SCHEMA: i64 = 1;

/// The rules and the campaign's limits on a character.
pub fn check_character(c: &Character) -> Result<(), AppError> {
    c.validate()
        .map_err(|e| crate::SolunaRefusal::Sheet.at(e.field, e.problem))?;
    name_text("name", &c.name)?;
    name_text("side", &c.side)?;
    Ok(())
}

/// A new character's supplies and their caps agree: a cap per test past both supplies it
/// caps (and past the default of 1), or a cap of 0 over a supply that could then never be
/// spent, contradicts itself. Checked on creation only: characters already journaled stay
/// readable.
pub fn check_supplies(c: &Character) -> Result<(), AppError> {
    for (cap_field, cap, (a_field, a), (b_field, b)) in [
        (
            "flips_per_test",
            c.flips_per_test,
            ("flips", c.flips),
            ("guard", c.guard),
        ),
        (
            "dice_per_test",
            c.dice_per_test,
            ("extra_dice", c.extra_dice),
            ("dice_guard", c.dice_guard),
        ),
    ] {
        let dash = |f: &str| f.replace('_', "-");
        if cap > 1 && cap > a.max(b) {
            return Err(crate::SolunaRefusal::Sheet.at(
                cap_field,
                format!(
                    "{cap} per test is more than the supplies it caps (--{} {a}, --{} {b})",
                    dash(a_field),
                    dash(b_field)
                ),
            ));
        }
        if cap == 0 && a.max(b) > 0 {
            return Err(crate::SolunaRefusal::Sheet.at(
                cap_field,
                format!(
                    "0 per test: the supplies (--{} {a}, --{} {b}) could never be spent",
                    dash(a_field),
                    dash(b_field)
                ),
            ));
        }
    }
    Ok(())
}

/// How a skirmish ended, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkirmishEnd {
    /// The side left standing, if any.
    pub winner: Option<String>,
    /// Turns fought.
    pub turns: u32,
    /// Each character's hit points at the end, in listed order.
    pub hit_points: Vec<u32>,
}

/// A change about Sol'una characters, with what re-derives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolunaChange {
    /// Created with these fields.
    Created {
        /// The character.
        character: Character,
    },
    /// Imported from a skirmish file.
    Imported {
        /// The characters, in the file's order.
        characters: Vec<Character>,
    },
    /// A test rolled from a character's attack dice, outside a skirmish (the sheet does not
    /// change).
    Test {
        /// The character, as it was.
        character: Character,
        /// What was asked.
        request: SolunaTest,
        /// The pool rolled (the attack's dice on the sheet).
        dice: u32,
        /// The dice.
        rolled: Rolled,
        /// What they gave.
        result: SolunaTestResult,
    },
    /// The sheet changed by hand (the text gives Sol'una no creation or advancement rules:
    /// the numbers are the table's), every field but the name.
    Edited {
        /// The sheet before.
        before: Character,
        /// The sheet after.
        after: Character,
    },
    /// A call of a played skirmish (U5): its step, the dice, the skirmish after, and at its
    /// end the sheets before and after.
    Played(Box<PlayRecord>),
    /// A played skirmish abandoned: the skirmish as it stood and the sheets written back.
    Abandoned {
        /// The skirmish as it stood.
        skirmish: Box<Skirmish>,
        /// The sheets before and after.
        sheets: SheetsChange,
    },
    /// A skirmish fought by stored characters.
    Skirmish {
        /// The characters as they went in, in the order named.
        characters: Vec<Character>,
        /// The dice.
        rolled: Rolled,
        /// How it ended.
        end: SkirmishEnd,
    },
}

/// A Sol'una character as a request gives it whole (`POST` and `PATCH` of a sheet): the
/// rules crate's [`Character`], read as it reads itself (unknown fields refused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SolunaSheet(pub Character);

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for SolunaSheet {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::RefOr::T(crate::schema::soluna_character())
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for SolunaSheet {
    fn name() -> std::borrow::Cow<'static, str> {
        "SolunaSheet".into()
    }
}

/// A change of a stored character's sheet ([`Campaign::edit_soluna_character`]): each field
/// given is set, each left `None` kept as stored. A whole sheet (`PATCH
/// /api/soluna/characters/{name}`) gives every field ([`SolunaEdit::whole`]); `solum soluna
/// edit` gives the ones its flags name. The name is never changed: given, it must be the
/// sheet's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SolunaEdit {
    /// The name as the request gives it (a whole sheet's): it must be the stored one.
    pub name: Option<String>,
    /// The side.
    pub side: Option<String>,
    /// Mind.
    pub mind: Option<u32>,
    /// Body.
    pub body: Option<u32>,
    /// Shield.
    pub shield: Option<u32>,
    /// Hit points.
    pub hit_points: Option<u32>,
    /// Melee dice.
    pub melee: Option<u32>,
    /// Ranged dice.
    pub ranged: Option<u32>,
    /// Positive flips left.
    pub flips: Option<u32>,
    /// Negative flips left.
    pub guard: Option<u32>,
    /// The most flips committed to one test.
    pub flips_per_test: Option<u32>,
    /// Extra dice left.
    pub extra_dice: Option<u32>,
    /// Dice left to take off tests aimed at the character.
    pub dice_guard: Option<u32>,
    /// The most dice added to, or taken off, one test.
    pub dice_per_test: Option<u32>,
}

impl SolunaEdit {
    /// The whole sheet as it should be: every field given, the name included.
    pub fn whole(c: &Character) -> Self {
        Self {
            name: Some(c.name.clone()),
            side: Some(c.side.clone()),
            mind: Some(c.mind),
            body: Some(c.body),
            shield: Some(c.shield),
            hit_points: Some(c.hit_points),
            melee: Some(c.melee),
            ranged: Some(c.ranged),
            flips: Some(c.flips),
            guard: Some(c.guard),
            flips_per_test: Some(c.flips_per_test),
            extra_dice: Some(c.extra_dice),
            dice_guard: Some(c.dice_guard),
            dice_per_test: Some(c.dice_per_test),
        }
    }

    /// `before` with the fields given set (the name kept).
    fn applied_to(&self, before: &Character) -> Character {
        let number = |given: Option<u32>, kept: u32| given.unwrap_or(kept);
        Character {
            name: before.name.clone(),
            side: self.side.clone().unwrap_or_else(|| before.side.clone()),
            mind: number(self.mind, before.mind),
            body: number(self.body, before.body),
            shield: number(self.shield, before.shield),
            hit_points: number(self.hit_points, before.hit_points),
            melee: number(self.melee, before.melee),
            ranged: number(self.ranged, before.ranged),
            flips: number(self.flips, before.flips),
            guard: number(self.guard, before.guard),
            flips_per_test: number(self.flips_per_test, before.flips_per_test),
            extra_dice: number(self.extra_dice, before.extra_dice),
            dice_guard: number(self.dice_guard, before.dice_guard),
            dice_per_test: number(self.dice_per_test, before.dice_per_test),
        }
    }
}

/// A value of a sheet's field: a number, or text (the name, the side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SolunaValue {
    /// A number.
    Number(u32),
    /// Text.
    Text(String),
}

impl std::fmt::Display for SolunaValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Text(t) => f.write_str(t),
        }
    }
}

/// One field an edit changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolunaFieldChange {
    /// The field, as the sheet names it (`hit_points`).
    pub field: String,
    /// Its value before.
    pub before: SolunaValue,
    /// Its value after.
    pub after: SolunaValue,
}

/// The fields that differ between two sheets, in the sheet's order, named as a skirmish file
/// names them (every field: a new one fails to compile here until it is listed).
fn changed_fields(before: &Character, after: &Character) -> Vec<SolunaFieldChange> {
    use SolunaValue::{Number, Text};
    let fields = |c: &Character| {
        let Character {
            name,
            side,
            mind,
            body,
            shield,
            hit_points,
            melee,
            ranged,
            flips,
            guard,
            flips_per_test,
            extra_dice,
            dice_guard,
            dice_per_test,
        } = c;
        [
            ("name", Text(name.clone())),
            ("side", Text(side.clone())),
            ("mind", Number(*mind)),
            ("body", Number(*body)),
            ("shield", Number(*shield)),
            ("hit_points", Number(*hit_points)),
            ("melee", Number(*melee)),
            ("ranged", Number(*ranged)),
            ("flips", Number(*flips)),
            ("guard", Number(*guard)),
            ("flips_per_test", Number(*flips_per_test)),
            ("extra_dice", Number(*extra_dice)),
            ("dice_guard", Number(*dice_guard)),
            ("dice_per_test", Number(*dice_per_test)),
        ]
    };
    fields(before)
        .into_iter()
        .zip(fields(after))
        .filter(|((_, b), (_, a))| b != a)
        .map(|((field, before), (_, after))| SolunaFieldChange {
            field: field.to_owned(),
            before,
            after,
        })
        .collect()
}

/// Which of a character's attacks a test rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SolunaAttack {
    /// The melee dice (Body is the target's armour).
    Melee,
    /// The ranged dice (Body and Shield are the target's armour).
    Ranged,
}

crate::bounded::bounded! {
    /// A test's target number, 1 to [`MAX_DICE`](solum_soluna::test_limits::MAX_DICE): no
    /// group of a pool is larger than its dice.
    pub struct TargetNumber(u32) in 1, solum_soluna::test_limits::MAX_DICE;
    "a target number is {min} to {max} (a test rolls at most {max} dice)"
}

fn no_flips() -> Flips {
    Flips::new(0).expect("no flips is a number of flips")
}

/// A test from a character's sheet (U2): its attack dice, the flips it commits and the
/// flips against it, and a target number if there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolunaTest {
    /// The attack whose dice are rolled.
    pub attack: SolunaAttack,
    /// Positive flips the character commits: at most its flips left and its flips per test.
    #[serde(default = "no_flips")]
    pub flips: Flips,
    /// Negative flips against the test (the other side's).
    #[serde(default = "no_flips")]
    pub against: Flips,
    /// The target number the largest group must reach, if any.
    pub target: Option<TargetNumber>,
}

/// What a Sol'una test gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolunaTestResult {
    /// The dice after the flips (the faces rolled are the record's `rolled.faces`).
    pub faces: Vec<u32>,
    /// The flips played, each `[die, from, to]` (die counted from 0).
    pub flips: Vec<[u32; 3]>,
    /// The largest group after the flips.
    pub largest: u32,
    /// Its face.
    pub face: u32,
    /// Against a target number: reached or not.
    pub passed: Option<bool>,
}

fn test_rule(
    dice: u32,
    request: &SolunaTest,
    source: &mut dyn DiceSource,
) -> Result<SolunaTestResult, solum_dice::DiceError> {
    let spec = solum_soluna::TestSpec {
        dice,
        net_flips: request.flips.get() - request.against.get(),
    };
    let o = solum_soluna::roll_test(&spec, source)?;
    Ok(SolunaTestResult {
        flips: o
            .flips
            .iter()
            .map(|f| [f.die as u32, f.from, f.to])
            .collect(),
        faces: o.faces,
        largest: o.largest,
        face: o.face,
        passed: request
            .target
            .map(|t| solum_soluna::target_number(o.largest, t.get())),
    })
}

/// The pool of a test from a sheet, checked against the sheet and the text's limits.
fn test_dice(c: &Character, request: &SolunaTest) -> Result<u32, AppError> {
    let (dice, what) = match request.attack {
        SolunaAttack::Melee => (c.melee, "melee"),
        SolunaAttack::Ranged => (c.ranged, "ranged"),
    };
    if dice == 0 {
        return Err(
            crate::SolunaRefusal::Attack.at("attack", format!("{} has no {what} dice", c.name))
        );
    }
    let most = c.flips.min(c.flips_per_test);
    if i64::from(request.flips.get()) > i64::from(most) {
        return Err(crate::SolunaRefusal::Flips.at(
            "flips",
            format!(
                "{}: {} commits at most {most} flips to a test (flips left {}, per test {})",
                request.flips, c.name, c.flips, c.flips_per_test
            ),
        ));
    }
    // The flips are held to the text's range as they are read; the dice are the sheet's,
    // which its own check holds to it too: should a sheet's not fit, the attack is refused.
    solum_soluna::TestSpec::new(
        i64::from(dice),
        i64::from(request.flips.get()),
        i64::from(request.against.get()),
    )
    .map_err(|e| crate::SolunaRefusal::Attack.at("attack", e.to_string()))?;
    Ok(dice)
}

/// The exact chance that the largest group reaches `target`, before the roll (none past the
/// exact odds' pool limit, or without a target).
fn p_target(dice: u32, request: &SolunaTest) -> Option<f64> {
    let target = request.target?;
    let d =
        solum_soluna::odds::largest_distribution(dice, request.flips.get() - request.against.get())
            .ok()?;
    Some(solum_dice::prob_to_f64(
        &d.p_at_least(i64::from(target.get())),
    ))
}

/// A Sol'una test rolled from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolunaTestView {
    /// The journal entry.
    pub seq: i64,
    /// The character.
    pub name: String,
    /// What was asked.
    pub request: SolunaTest,
    /// The pool rolled.
    pub dice: u32,
    /// The dice.
    pub rolled: Rolled,
    /// What they gave.
    pub result: SolunaTestResult,
    /// The exact chance to reach the target, before the roll.
    pub p_target: Option<f64>,
}

/// A journal entry about Sol'una characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolunaRecord {
    /// [`SOLUNA_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// What happened.
    pub change: SolunaChange,
}

fn skirmish_rule(
    characters: &[Character],
    dice: &mut dyn DiceSource,
) -> Result<Result<(SkirmishEnd, Vec<Event>), AppError>, solum_dice::DiceError> {
    let mut cs = characters.to_vec();
    match skirmish::fight(&mut cs, dice) {
        Ok(events) => {
            let (winner, turns) = events
                .iter()
                .rev()
                .find_map(|e| match e {
                    Event::Over { winner, turns } => Some((winner.clone(), *turns)),
                    _ => None,
                })
                .unwrap_or((None, skirmish::MAX_TURNS));
            Ok(Ok((
                SkirmishEnd {
                    winner,
                    turns,
                    hit_points: cs.iter().map(|c| c.hit_points).collect(),
                },
                events,
            )))
        }
        Err(skirmish::SkirmishError::Dice(e)) => Err(e),
        Err(e) => Ok(Err(crate::SolunaRefusal::Skirmish.bare(e.to_string()))),
    }
}

impl SolunaRecord {
    fn new(change: SolunaChange) -> Self {
        Self {
            schema: SOLUNA_RECORD_SCHEMA,
            change,
        }
    }

    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        matches!(
            self.change,
            SolunaChange::Skirmish { .. } | SolunaChange::Test { .. } | SolunaChange::Played(_)
        )
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > SOLUNA_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a soluna record's",
                found: self.schema,
                known: SOLUNA_RECORD_SCHEMA,
            }
            .into());
        }
        match &self.change {
            SolunaChange::Created { character } => check_character(character),
            SolunaChange::Edited { before, after } => {
                check_character(before)?;
                check_character(after)
            }
            SolunaChange::Imported { characters } | SolunaChange::Skirmish { characters, .. } => {
                characters.iter().try_for_each(check_character)
            }
            SolunaChange::Played(p) => p.check(),
            SolunaChange::Abandoned { skirmish, sheets } => {
                check_state(skirmish)?;
                sheets.check()
            }
            SolunaChange::Test {
                character,
                request,
                dice,
                ..
            } => {
                check_character(character)?;
                if test_dice(character, request)? != *dice {
                    return Err(crate::SolunaRefusal::Attack
                        .at("dice", "not the attack's dice on the sheet"));
                }
                Ok(())
            }
        }
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let names = |cs: &[Character]| {
            cs.iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.change {
            SolunaChange::Created { character } => {
                format!(
                    "{} joins the campaign (side {})",
                    character.name, character.side
                )
            }
            SolunaChange::Imported { characters } => {
                format!("{} join the campaign", names(characters))
            }
            SolunaChange::Edited { before, after } => {
                format!("{}'s sheet: {}", after.name, edited_fields(before, after))
            }
            SolunaChange::Test {
                character,
                request,
                result,
                ..
            } => format!(
                "{} tests {} dice: largest group {} of {}s{}",
                character.name,
                match request.attack {
                    SolunaAttack::Melee => "melee",
                    SolunaAttack::Ranged => "ranged",
                },
                result.largest,
                result.face,
                match (request.target, result.passed) {
                    (Some(t), Some(true)) => format!(", reaches {t}"),
                    (Some(t), _) => format!(", short of {t}"),
                    _ => String::new(),
                }
            ),
            SolunaChange::Played(p) => p.summary(),
            SolunaChange::Abandoned { skirmish, .. } => format!(
                "skirmish of {} abandoned in turn {}, phase {}",
                names(&skirmish.characters),
                skirmish.turn,
                skirmish.phase
            ),
            SolunaChange::Skirmish {
                characters, end, ..
            } => format!(
                "skirmish of {}: {} after {} turn(s)",
                names(characters),
                match &end.winner {
                    Some(w) => format!("{w} win"),
                    None => "nobody stands".to_owned(),
                },
                end.turns
            ),
        }
    }

    /// Re-derives the record: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<Divergence> {
        if let Some(newer) = Divergence::newer("soluna", self.schema, SOLUNA_RECORD_SCHEMA) {
            return Some(newer);
        }
        match &self.change {
            SolunaChange::Created { character } => {
                check_character(character).err().map(Divergence::refused)
            }
            SolunaChange::Edited { before, after } => {
                if before.name != after.name {
                    return Some(Divergence::inconsistent(format!(
                        "an edit renamed {} to {}: a name never changes",
                        before.name, after.name
                    )));
                }
                check_character(after).err().map(Divergence::refused)
            }
            SolunaChange::Imported { characters } => characters
                .iter()
                .try_for_each(check_character)
                .err()
                .map(Divergence::refused),
            SolunaChange::Test {
                request,
                dice,
                rolled,
                result,
                ..
            } => match again(rolled, |d| test_rule(*dice, request, d)) {
                Err(e) => Some(e),
                Ok(got) => Divergence::fields("result", result, &got),
            },
            SolunaChange::Played(p) => p.replay(),
            SolunaChange::Abandoned { skirmish, sheets } => {
                if let Err(e) = check_state(skirmish) {
                    return Some(Divergence::refused(e));
                }
                sheets.replay(skirmish)
            }
            SolunaChange::Skirmish {
                characters,
                rolled,
                end,
            } => match again(rolled, |d| skirmish_rule(characters, d)) {
                Err(e) => Some(e),
                Ok(Err(e)) => Some(Divergence::refused(format!(
                    "the skirmish cannot be fought: {e}"
                ))),
                Ok(Ok((got, _))) => Divergence::fields("end", end, &got),
            },
        }
    }
}

/// The fields an edit changed, as `field before → after` in the order of their names (text
/// quoted as JSON quotes it), joined; "no change" when none.
fn edited_fields(before: &Character, after: &Character) -> String {
    let json = |v: &SolunaValue| match v {
        SolunaValue::Number(n) => n.to_string(),
        SolunaValue::Text(t) => serde_json::Value::from(t.as_str()).to_string(),
    };
    let mut changes = changed_fields(before, after);
    changes.sort_by(|a, b| a.field.cmp(&b.field));
    let changed: Vec<String> = changes
        .iter()
        .map(|c| format!("{} {} → {}", c.field, json(&c.before), json(&c.after)))
        .collect();
    if changed.is_empty() {
        "no change".to_owned()
    } else {
        changed.join(", ")
    }
}

/// A Sol'una character as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolunaView {
    /// The sheet.
    pub character: Character,
    /// Raised by one on every change.
    pub version: i64,
    /// The phases of a turn in which the character acts (ruling U4).
    pub phases: Vec<u32>,
}

/// Characters stored: the journal entry and the sheets.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SolunaChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The characters stored.
    pub characters: Vec<SolunaView>,
    /// What an edit changed, field by field in the sheet's order (absent on a creation or
    /// an import).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<SolunaFieldChange>,
}

/// A skirmish fought by stored characters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkirmishView {
    /// The journal entry.
    pub seq: i64,
    /// The characters' names, in the order the events index them.
    pub names: Vec<String>,
    /// Every event.
    pub events: Vec<Event>,
    /// How it ended.
    pub end: SkirmishEnd,
    /// The dice.
    pub rolled: Rolled,
}

fn view(character: Character, version: i64) -> SolunaView {
    SolunaView {
        phases: skirmish::phases(character.mind).unwrap_or_default(),
        character,
        version,
    }
}

fn append(tx: &mut dyn WriteTx, at: &Timestamp, change: SolunaChange) -> Result<i64, AppError> {
    journaling::append(tx, at, &SolunaRecord::new(change))
}

impl<S: CampaignStore> Campaign<S> {
    /// Adds a Sol'una character with the fields of a skirmish character.
    pub fn create_soluna_character(
        &mut self,
        character: &Character,
    ) -> Result<SolunaChangeView, AppError> {
        let mut c = character.clone();
        c.name = name_text("name", &c.name)?;
        c.side = name_text("side", &c.side)?;
        check_character(&c)?;
        check_supplies(&c)?;
        let at = self.now();
        let seq = self.transact(|tx| {
            crate::look_alike_free(tx, SYSTEM, &c.name)?;
            tx.insert_sheet(&sheet_row(SYSTEM, &c.name, &c)?)?;
            append(
                tx,
                &at,
                SolunaChange::Created {
                    character: c.clone(),
                },
            )
        })?;
        Ok(SolunaChangeView {
            seq,
            characters: vec![view(c, 1)],
            changed: Vec::new(),
        })
    }

    /// Changes a character's sheet: the fields `edit` gives (a whole sheet gives every one
    /// but the name, which never changes), the sheet after checked as a creation is (the
    /// supplies against their caps included); journaled with the sheet before, and answered
    /// with what changed. Refused while the character is in a played skirmish (its end writes
    /// the sheets back) and when nothing would change.
    pub fn edit_soluna_character(
        &mut self,
        name: &str,
        edit: &SolunaEdit,
    ) -> Result<SolunaChangeView, AppError> {
        let at = self.now();
        self.transact(|tx| {
            let sheet = tx
                .sheet(SYSTEM, name)?
                .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
            let before: Character = read_row(&sheet)?;
            if let Some(named) = &edit.name
                && name_text("name", named)?.to_lowercase() != before.name.to_lowercase()
            {
                return Err(crate::SolunaRefusal::Sheet.at(
                    "name",
                    format!(
                        "`{}` is not {}: a sheet keeps its name",
                        named.trim(),
                        before.name
                    ),
                ));
            }
            // Only a character in the skirmish waits for its end (which writes its sheet
            // back); anyone else's sheet is free.
            if let Some(s) = open_skirmish(tx)?
                && s.characters
                    .iter()
                    .any(|f| solum_store::name_key(&f.name) == solum_store::name_key(&before.name))
            {
                return Err(crate::SolunaRefusal::SkirmishUnderWay.at(
                    "name",
                    format!(
                        "{} is in the skirmish being played: its end writes the sheet back; change it after",
                        before.name
                    ),
                ));
            }
            let mut c = edit.applied_to(&before);
            c.side = name_text("side", &c.side)?;
            check_character(&c)?;
            check_supplies(&c)?;
            if c == before {
                return Err(crate::ExpandedRefusal::EditChangesNothing
                    .at("edit", "nothing would change"));
            }
            let changed = changed_fields(&before, &c);
            let stored = tx.update_sheet(SYSTEM, &before.name, &sheet_row(SYSTEM, &c.name, &c)?)?;
            let seq = append(
                tx,
                &at,
                SolunaChange::Edited {
                    before,
                    after: c.clone(),
                },
            )?;
            Ok(SolunaChangeView {
                seq,
                characters: vec![view(c, stored.version)],
                changed,
            })
        })
    }

    /// A Sol'una character of the campaign (the name in any case).
    pub fn soluna_character(&self, name: &str) -> Result<SolunaView, AppError> {
        let sheet = self
            .store
            .sheet(SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        Ok(view(read_row(&sheet)?, sheet.version))
    }

    /// Every Sol'una character of the campaign, by name.
    pub fn soluna_characters(&self) -> Result<Vec<SolunaView>, AppError> {
        self.store
            .sheets(SYSTEM)?
            .iter()
            .map(|s| Ok(view(read_row(s)?, s.version)))
            .collect()
    }

    /// Adds every character of a skirmish file (TOML `[[character]]` entries), all or none.
    pub fn import_soluna_characters(
        &mut self,
        toml_text: &str,
    ) -> Result<SolunaChangeView, AppError> {
        let limit = crate::MAX_FILE_BYTES;
        if toml_text.len() as u64 > limit {
            return Err(crate::SolunaRefusal::File.at(
                "file",
                format!("{} bytes; the limit is {limit}", toml_text.len()),
            ));
        }
        let file: SkirmishFile = toml::from_str(toml_text).map_err(|e| {
            crate::SolunaRefusal::File.at("file", e.to_string().trim_end().to_owned())
        })?;
        if file.character.is_empty() {
            return Err(
                crate::SolunaRefusal::File.at("character", "the file lists no [[character]]")
            );
        }
        let mut characters = file.character;
        for (i, c) in characters.iter_mut().enumerate() {
            c.name = name_text(&format!("character[{i}].name"), &c.name)?;
            c.side = name_text(&format!("character[{i}].side"), &c.side)?;
            check_character(c).map_err(|e| {
                crate::SolunaRefusal::Sheet.at(format!("character[{i}]"), e.to_string())
            })?;
        }
        let at = self.now();
        let seq = self.transact(|tx| {
            for c in &characters {
                crate::look_alike_free(tx, SYSTEM, &c.name)?;
                tx.insert_sheet(&sheet_row(SYSTEM, &c.name, c)?)?;
            }
            append(
                tx,
                &at,
                SolunaChange::Imported {
                    characters: characters.clone(),
                },
            )
        })?;
        Ok(SolunaChangeView {
            seq,
            characters: characters.into_iter().map(|c| view(c, 1)).collect(),
            changed: Vec::new(),
        })
    }

    /// Characters as a skirmish file, the format [`Campaign::import_soluna_characters`] and
    /// `soluna skirmish FILE` read; no names: every character.
    pub fn export_soluna_characters(&self, names: &[String]) -> Result<String, AppError> {
        let character = if names.is_empty() {
            self.soluna_characters()?
                .into_iter()
                .map(|v| v.character)
                .collect()
        } else {
            names
                .iter()
                .map(|n| Ok(self.soluna_character(n)?.character))
                .collect::<Result<Vec<_>, AppError>>()?
        };
        toml::to_string_pretty(&SkirmishFile { character })
            .map_err(|e| crate::AppError::internal("file", e.to_string()))
    }

    /// Rolls a test from a character's attack dice (U2): the flips it commits (at most its
    /// flips left and per test) and those against it played optimally, the largest group
    /// read against a target number if given. Journaled with every die; the sheet does not
    /// change (as in a skirmish, flips left are what a character brings to each one).
    pub fn soluna_test(
        &mut self,
        name: &str,
        request: &SolunaTest,
        dice: Dice,
    ) -> Result<SolunaTestView, AppError> {
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let sheet = tx
                .sheet(SYSTEM, name)?
                .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
            let c: Character = read_row(&sheet)?;
            if c.hit_points == 0 {
                return Err(crate::SolunaRefusal::Out.at(
                    "name",
                    format!("{} is out (0 hit points) and tests nothing", c.name),
                ));
            }
            let pool = test_dice(&c, request)?;
            let p = p_target(pool, request);
            let (result, rolled) =
                crate::journaling::roll(dice.clone(), |d| test_rule(pool, request, d))?;
            let seq = append(
                tx,
                &at,
                SolunaChange::Test {
                    character: c.clone(),
                    request: request.clone(),
                    dice: pool,
                    rolled: rolled.clone(),
                    result: result.clone(),
                },
            )?;
            Ok(SolunaTestView {
                seq,
                name: c.name.clone(),
                request: request.clone(),
                dice: pool,
                rolled,
                result,
                p_target: p,
            })
        })
    }

    /// Fights a skirmish of stored characters, named in the order they are listed (the
    /// order of the tactic's ties), and journals it with its dice. The sheets do not change.
    pub fn soluna_skirmish(
        &mut self,
        names: &[String],
        dice: Dice,
    ) -> Result<SkirmishView, AppError> {
        if names.len() > MAX_CHARACTERS {
            return Err(crate::SolunaRefusal::Names.at(
                "names",
                format!(
                    "{} characters: a skirmish takes at most {MAX_CHARACTERS}",
                    names.len()
                ),
            ));
        }
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let mut characters: Vec<Character> = Vec::with_capacity(names.len());
            for n in names {
                let sheet = tx
                    .sheet(SYSTEM, n)?
                    .ok_or_else(|| AppError::NoSuchCharacter(n.trim().to_owned()))?;
                let c: Character = read_row(&sheet)?;
                if characters.iter().any(|x| x.name == c.name) {
                    return Err(crate::SolunaRefusal::Names.at(
                        "names",
                        format!("{} is named twice: a character fights once", c.name),
                    ));
                }
                characters.push(c);
            }
            let (out, rolled) =
                crate::journaling::roll(dice.clone(), |d| skirmish_rule(&characters, d))?;
            let (end, events) = out?;
            let seq = append(
                tx,
                &at,
                SolunaChange::Skirmish {
                    characters: characters.clone(),
                    rolled: rolled.clone(),
                    end: end.clone(),
                },
            )?;
            Ok(SkirmishView {
                seq,
                names: characters.iter().map(|c| c.name.clone()).collect(),
                events,
                end,
                rolled,
            })
        })
    }
}

// ---------------------------------------------------------------------------------------
// Skirmishes played, not watched (ruling U5).

/// The system of the campaign's open skirmish row (one skirmish at a time per table).
pub const SKIRMISH_SYSTEM: &str = "soluna-skirmish";
/// The name of that row.
const SKIRMISH_ROW: &str = "skirmish";

/// The skirmish row: the open skirmish, or none (the store keeps rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkirmishRow {
    skirmish: Option<Box<Skirmish>>,
}

/// What a call of a played skirmish did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "step", deny_unknown_fields)]
pub enum PlayStep {
    /// Started with these characters (in the order named) and auto marks.
    Start {
        /// The sheets as they went in.
        characters: Vec<Character>,
        /// Played by the tactic.
        auto: Vec<bool>,
    },
    /// A character's decision.
    Act {
        /// The skirmish before.
        before: Box<Skirmish>,
        /// Who (index in the skirmish's list).
        who: usize,
        /// What.
        order: Order,
    },
    /// More dice for phases nobody decides.
    Go {
        /// The skirmish before.
        before: Box<Skirmish>,
    },
}

/// The sheets of a skirmish's characters before it and after (hit points and supplies as
/// the skirmish left them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetsChange {
    /// As stored before the end.
    pub before: Vec<Character>,
    /// As written at the end.
    pub after: Vec<Character>,
}

impl SheetsChange {
    fn check(&self) -> Result<(), AppError> {
        if self.before.len() != self.after.len() || self.before.len() > MAX_CHARACTERS {
            return Err(crate::ImportProblem::SkirmishSheets.into());
        }
        for c in self.before.iter().chain(&self.after) {
            check_sheet(c)?;
        }
        Ok(())
    }

    fn replay(&self, s: &Skirmish) -> Option<Divergence> {
        match worn_sheets(&self.before, s) {
            None => Some(Divergence::inconsistent(
                "the sheets before are not the skirmish's characters",
            )),
            Some(again) => Divergence::fields("sheets.after", &self.after, &again),
        }
    }
}

/// A call of a played skirmish, journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRecord {
    /// What the call did.
    pub step: PlayStep,
    /// The dice it rolled (none when no phase was ready).
    pub rolled: Rolled,
    /// The skirmish after.
    pub after: Box<Skirmish>,
    /// At the end: the sheets before and after.
    pub sheets: Option<SheetsChange>,
    /// Generated dice: the call rolls no further phase once this many faces are rolled
    /// ([`MAX_CALL_FACES`] when written; kept so a replay stops where the call stopped).
    pub budget: usize,
}

/// Generated dice: a call rolls phases until one waits for a decision, the skirmish ends,
/// or this many faces are rolled at the end of a phase (the rest waits for `go`), so that a
/// skirmish nobody decides still journals in entries of bounded size.
pub const MAX_CALL_FACES: usize = 2_000;

/// A stored sheet: a character as a skirmish takes it, but possibly out (0 hit points).
fn check_sheet(c: &Character) -> Result<(), AppError> {
    let mut alive = c.clone();
    alive.hit_points = alive.hit_points.max(1);
    check_character(&alive)
}

/// A stored skirmish as the rules would have made it.
fn check_state(s: &Skirmish) -> Result<(), AppError> {
    s.validate()
        .map_err(|e| crate::SolunaRefusal::Skirmish.bare(e.to_string()))?;
    s.characters.iter().try_for_each(check_sheet)
}

/// The sheets after a skirmish: hit points and what is left of each supply (flips, guard,
/// extra dice, dice guard) from the skirmish, the rest of the sheet as stored. `None` when
/// the sheets are not the skirmish's characters.
fn worn_sheets(before: &[Character], s: &Skirmish) -> Option<Vec<Character>> {
    if before.len() != s.characters.len() {
        return None;
    }
    before
        .iter()
        .zip(&s.characters)
        .map(|(b, now)| {
            (b.name == now.name).then(|| Character {
                hit_points: now.hit_points,
                flips: now.flips,
                guard: now.guard,
                extra_dice: now.extra_dice,
                dice_guard: now.dice_guard,
                ..b.clone()
            })
        })
        .collect()
}

/// Rolls the phases that are ready, until one waits for a decision, the skirmish ends, or
/// (typed dice) the `limit` faces are used at the end of a phase.
fn run_phases(
    s: &mut Skirmish,
    limit: Option<usize>,
    dice: &mut dyn DiceSource,
) -> Result<Result<Vec<Event>, AppError>, solum_dice::DiceError> {
    let mut counted = Counted {
        inner: dice,
        used: 0,
    };
    let mut events = Vec::new();
    while s.ready() && limit.is_none_or(|l| counted.used < l) {
        match s.resolve_phase(&mut counted) {
            Ok(e) => events.extend(e),
            Err(skirmish::SkirmishError::Dice(e)) => return Err(e),
            Err(e) => {
                return Ok(Err(crate::SolunaRefusal::Skirmish.bare(e.to_string())));
            }
        }
    }
    Ok(Ok(events))
}

/// A source that counts the faces it hands out.
struct Counted<'a> {
    inner: &'a mut dyn DiceSource,
    used: usize,
}

impl DiceSource for Counted<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, solum_dice::DiceError> {
        let f = self.inner.roll(sides)?;
        self.used += 1;
        Ok(f)
    }
}

fn limit_of(rolled: &Rolled, budget: usize) -> Option<usize> {
    Some(if rolled.typed {
        rolled.faces.len()
    } else {
        budget
    })
}

impl PlayRecord {
    fn start_state(&self) -> Result<Skirmish, AppError> {
        match &self.step {
            PlayStep::Start { characters, auto } => {
                characters.iter().try_for_each(check_character)?;
                Skirmish::new(characters.clone(), auto.clone())
                    .map_err(|e| crate::SolunaRefusal::Skirmish.bare(e.to_string()))
            }
            PlayStep::Act { before, who, order } => {
                check_state(before)?;
                let mut s = (**before).clone();
                s.declare(*who, *order)
                    .map_err(|e| crate::SolunaRefusal::Skirmish.at("order", e.to_string()))?;
                Ok(s)
            }
            PlayStep::Go { before } => {
                check_state(before)?;
                Ok((**before).clone())
            }
        }
    }

    fn check(&self) -> Result<(), AppError> {
        if self.budget > MAX_CALL_FACES {
            // The table's calls never go past it: only a journal changed by hand does.
            return Err(crate::ImportProblem::Budget {
                budget: self.budget,
                max: MAX_CALL_FACES,
            }
            .into());
        }
        self.start_state()?;
        check_state(&self.after)?;
        if let Some(sheets) = &self.sheets {
            sheets.check()?;
        }
        Ok(())
    }

    fn summary(&self) -> String {
        let s = &self.after;
        let name = |i: usize| s.characters.get(i).map_or("?", |c| c.name.as_str());
        let head = match &self.step {
            PlayStep::Start { characters, .. } => format!(
                "skirmish of {} begins",
                characters
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PlayStep::Act { who, order, .. } => match *order {
                Order::Attack { target, flips, .. } => {
                    format!("{} attacks {} ({flips} flip(s))", name(*who), name(target))
                }
                Order::Move { target } => format!("{} moves on {}", name(*who), name(target)),
            },
            PlayStep::Go { .. } => "the skirmish goes on".to_owned(),
        };
        match &s.over {
            Some(e) => format!(
                "{head}; {} after {} turn(s)",
                match &e.winner {
                    Some(w) => format!("{w} win"),
                    None => "nobody stands".to_owned(),
                },
                e.turns
            ),
            None => format!("{head}; turn {}, phase {}", s.turn, s.phase),
        }
    }

    fn replay(&self) -> Option<Divergence> {
        let mut s = match self.start_state() {
            Ok(s) => s,
            Err(e) => return Some(Divergence::refused(e)),
        };
        let limit = limit_of(&self.rolled, self.budget);
        match again(&self.rolled, |d| run_phases(&mut s, limit, d)) {
            Err(e) => return Some(e),
            Ok(Err(e)) => {
                return Some(Divergence::refused(format!(
                    "the skirmish cannot go on: {e}"
                )));
            }
            Ok(Ok(_)) => {}
        }
        if let Some(d) = Divergence::fields("after", self.after.as_ref(), &s) {
            return Some(d);
        }
        match (&self.sheets, s.over.is_some()) {
            (Some(sheets), true) => sheets.replay(&s),
            (None, false) => None,
            _ => Some(Divergence::inconsistent(
                "the sheets are written at the end, and only then",
            )),
        }
    }
}

/// The exact odds of an attack, before its roll (U2: both sides flip optimally).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttackOdds {
    /// Melee (Body is the armour) or ranged (Body and Shield).
    pub melee: bool,
    /// Dice rolled, after dice added and taken off.
    pub dice: u32,
    /// Net flips.
    pub net_flips: i32,
    /// The target's armour against it.
    pub armour: u32,
    /// The chance of at least 1 damage.
    pub p_damage: f64,
    /// The chance that the damage takes the target out (at least its hit points).
    pub p_out: f64,
    /// Each damage and its chance.
    pub damage: Vec<(u32, f64)>,
}

fn attack_odds(s: &Skirmish, who: usize, order: &Order) -> Option<AttackOdds> {
    let (melee, spec) = s.attack_spec(who, order).ok()?;
    let target = match *order {
        Order::Attack { target, .. } => target,
        Order::Move { .. } => return None,
    };
    let t = &s.characters[target];
    let armour = solum_soluna::Armour {
        body: t.body,
        shield: t.shield,
    };
    let dist = solum_soluna::odds::largest_distribution(spec.dice, spec.net_flips).ok()?;
    let dmg = dist.map(|g| i64::from(solum_soluna::damage(g as u32, armour, melee)));
    Some(AttackOdds {
        melee,
        dice: spec.dice,
        net_flips: spec.net_flips,
        armour: if melee {
            t.body
        } else {
            t.body.saturating_add(t.shield)
        },
        p_damage: solum_dice::prob_to_f64(&dmg.p_at_least(1)),
        p_out: solum_dice::prob_to_f64(&dmg.p_at_least(i64::from(t.hit_points))),
        damage: dmg
            .outcomes()
            .iter()
            .map(|(k, p)| (*k as u32, solum_dice::prob_to_f64(p)))
            .collect(),
    })
}

/// One choice a waiting character has, with its exact odds at the most flips and extra dice
/// it may spend.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SkirmishOption {
    /// Who.
    pub name: String,
    /// `attack` or `move`.
    pub action: &'static str,
    /// The foe.
    pub target: String,
    /// A ranged attack.
    pub ranged: bool,
    /// The most flips it may spend.
    pub most_flips: u32,
    /// The most extra dice it may spend.
    pub most_dice: u32,
    /// The odds spending them all (none for a move, or past the exact odds' 40 dice).
    pub odds: Option<AttackOdds>,
}

/// The table's one played skirmish, or none (`{"skirmish": null}`): what
/// `solum soluna skirmish status --json` prints and `GET /api/soluna/skirmish` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SkirmishAnswer {
    /// Where it stands, with each waiting character's options and odds.
    pub skirmish: Option<SkirmishState>,
}

impl SkirmishAnswer {
    /// What a front end says when none is played (and the refusal of a call that needs one).
    pub const NONE: &str =
        "no skirmish is being played: `soluna skirmish start NAME NAME …` starts one";
}

/// Where a played skirmish stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SkirmishState {
    /// The skirmish.
    pub skirmish: Skirmish,
    /// The characters' names, in the order the events index them.
    pub names: Vec<String>,
    /// The played characters whose decision the phase waits for.
    pub waiting: Vec<String>,
    /// Nobody's decision is missing: the phase waits for dice (`go`).
    pub ready: bool,
    /// What each waiting character may do.
    pub options: Vec<SkirmishOption>,
}

fn state_view(s: &Skirmish) -> SkirmishState {
    let names: Vec<String> = s.characters.iter().map(|c| c.name.clone()).collect();
    let mut options = Vec::new();
    for who in s.waiting() {
        let (most_flips, most_dice) = s.most(who);
        for target in 0..s.characters.len() {
            let me = &s.characters[who];
            let t = &s.characters[target];
            if target == who || t.side == me.side || t.hit_points == 0 {
                continue;
            }
            let engaged = s.is_engaged(who, target);
            let mut add = |action, ranged| {
                let order = if action == "move" {
                    Order::Move { target }
                } else {
                    Order::Attack {
                        target,
                        ranged,
                        flips: most_flips,
                        dice: most_dice,
                    }
                };
                options.push(SkirmishOption {
                    name: names[who].clone(),
                    action,
                    target: names[target].clone(),
                    ranged,
                    most_flips,
                    most_dice,
                    odds: attack_odds(s, who, &order),
                });
            };
            if engaged && me.melee > 0 {
                add("attack", false);
            }
            if me.ranged > 0 {
                add("attack", true);
            }
            if !engaged {
                add("move", false);
            }
        }
    }
    SkirmishState {
        waiting: s.waiting().iter().map(|&i| names[i].clone()).collect(),
        ready: s.ready(),
        names,
        options,
        skirmish: s.clone(),
    }
}

/// A call of a played skirmish, for a front end.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayView {
    /// The journal entry.
    pub seq: i64,
    /// The odds of the attack decided in this call, worked out before its roll.
    pub odds: Option<AttackOdds>,
    /// What happened in this call.
    pub events: Vec<Event>,
    /// The dice of this call.
    pub rolled: Rolled,
    /// Where the skirmish stands now.
    pub state: SkirmishState,
    /// At the end: the sheets as written.
    pub sheets: Option<Vec<Character>>,
}

/// A decision, as a front end sends it: `attack` or `move`, the foe by name, and for an
/// attack the flips and extra dice spent and whether it shoots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkirmishAct {
    /// `attack` or `move`.
    pub action: SkirmishAction,
    /// The foe, by name.
    pub target: String,
    /// Shoot even when engaged.
    #[serde(default)]
    pub ranged: bool,
    /// Positive flips spent (at most the flips left and per test).
    #[serde(default)]
    pub flips: u32,
    /// Extra dice spent (at most the extra dice left and per test).
    #[serde(default)]
    pub dice: u32,
}

/// The two actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SkirmishAction {
    /// Attack the target.
    Attack,
    /// Move to engage the target.
    Move,
}

fn open_skirmish(tx: &dyn WriteTx) -> Result<Option<Skirmish>, AppError> {
    match tx.sheet(SKIRMISH_SYSTEM, SKIRMISH_ROW)? {
        None => Ok(None),
        Some(row) => {
            let r: SkirmishRow = read_row(&row)?;
            match r.skirmish {
                None => Ok(None),
                Some(s) => {
                    check_state(&s)?;
                    Ok(Some(*s))
                }
            }
        }
    }
}

fn store_skirmish(tx: &mut dyn WriteTx, s: Option<&Skirmish>) -> Result<(), AppError> {
    let row = sheet_row(
        SKIRMISH_SYSTEM,
        SKIRMISH_ROW,
        &SkirmishRow {
            skirmish: s.map(|s| Box::new(s.clone())),
        },
    )?;
    if tx.sheet(SKIRMISH_SYSTEM, SKIRMISH_ROW)?.is_some() {
        tx.update_sheet(SKIRMISH_SYSTEM, SKIRMISH_ROW, &row)?;
    } else {
        tx.insert_sheet(&row)?;
    }
    Ok(())
}

fn no_skirmish() -> AppError {
    crate::SolunaRefusal::NoSkirmish.bare(SkirmishAnswer::NONE)
}

/// Writes the sheets as the skirmish leaves them.
fn write_sheets(tx: &mut dyn WriteTx, s: &Skirmish) -> Result<SheetsChange, AppError> {
    let mut before = Vec::with_capacity(s.characters.len());
    for c in &s.characters {
        let sheet = tx
            .sheet(SYSTEM, &c.name)?
            .ok_or_else(|| AppError::NoSuchCharacter(c.name.clone()))?;
        before.push(read_row::<Character>(&sheet)?);
    }
    let after = worn_sheets(&before, s).ok_or_else(|| {
        AppError::internal("sheets", "the sheets are not the skirmish's characters")
    })?;
    for c in &after {
        tx.update_sheet(SYSTEM, &c.name, &sheet_row(SYSTEM, &c.name, c)?)?;
    }
    Ok(SheetsChange { before, after })
}

impl<S: CampaignStore> Campaign<S> {
    /// Starts a played skirmish (U5) of stored characters, named in listed order; `auto`
    /// names characters or sides the tactic plays. Rolls the phases nobody decides (none,
    /// usually) and waits for the first decision. One skirmish at a time per table. The
    /// game master's ([`crate::policy::GmOnly::SkirmishStart`]).
    pub fn start_soluna_skirmish(
        &mut self,
        names: &[String],
        auto: &[String],
        dice: Dice,
    ) -> Result<PlayView, AppError> {
        self.game_master(crate::policy::GmOnly::SkirmishStart)?;
        if names.len() > MAX_CHARACTERS {
            return Err(crate::SolunaRefusal::Names.at(
                "names",
                format!(
                    "{} characters: a skirmish takes at most {MAX_CHARACTERS}",
                    names.len()
                ),
            ));
        }
        if auto.len() > MAX_CHARACTERS {
            return Err(crate::SolunaRefusal::Auto.at(
                "auto",
                format!("{} names: at most {MAX_CHARACTERS}", auto.len()),
            ));
        }
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            if open_skirmish(tx)?.is_some() {
                return Err(crate::SolunaRefusal::SkirmishUnderWay
                    .bare("a skirmish is being played: finish it, or `soluna skirmish abandon`"));
            }
            let mut characters: Vec<Character> = Vec::with_capacity(names.len());
            for n in names {
                let sheet = tx
                    .sheet(SYSTEM, n)?
                    .ok_or_else(|| AppError::NoSuchCharacter(n.trim().to_owned()))?;
                let c: Character = read_row(&sheet)?;
                if characters.iter().any(|x| x.name == c.name) {
                    return Err(crate::SolunaRefusal::Names.at(
                        "names",
                        format!("{} is named twice: a character fights once", c.name),
                    ));
                }
                if c.hit_points == 0 {
                    return Err(crate::SolunaRefusal::Out.at(
                        "names",
                        format!("{} is out (0 hit points) and cannot fight", c.name),
                    ));
                }
                characters.push(c);
            }
            let key = |x: &str| x.trim().to_lowercase();
            let mut marks = vec![false; characters.len()];
            for a in auto {
                let mut found = false;
                for (i, c) in characters.iter().enumerate() {
                    if key(&c.name) == key(a) || key(&c.side) == key(a) {
                        marks[i] = true;
                        found = true;
                    }
                }
                if !found {
                    return Err(crate::SolunaRefusal::Auto.at(
                        "auto",
                        format!(
                            "{}: neither a character nor a side of this skirmish",
                            a.trim()
                        ),
                    ));
                }
            }
            let step = PlayStep::Start {
                characters: characters.clone(),
                auto: marks.clone(),
            };
            let s = Skirmish::new(characters.clone(), marks)
                .map_err(|e| crate::SolunaRefusal::Skirmish.bare(e.to_string()))?;
            Self::play_call(tx, &at, step, s, None, dice.clone())
        })
    }

    /// A character's decision in the played skirmish: attack or move, the foe, the flips and
    /// extra dice spent. When it completes the phase, the phase is rolled (and the next ones
    /// nobody decides), with the exact odds of the attack worked out before the roll.
    pub fn act_soluna_skirmish(
        &mut self,
        name: &str,
        act: &SkirmishAct,
        dice: Dice,
    ) -> Result<PlayView, AppError> {
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let before = open_skirmish(tx)?.ok_or_else(no_skirmish)?;
            let who = before.index_of(name).ok_or_else(|| {
                crate::SolunaRefusal::NotInSkirmish
                    .at("name", format!("{} is not in the skirmish", name.trim()))
            })?;
            let target = before.index_of(&act.target).ok_or_else(|| {
                crate::SolunaRefusal::NotInSkirmish.at(
                    "target",
                    format!("{} is not in the skirmish", act.target.trim()),
                )
            })?;
            let order = match act.action {
                SkirmishAction::Attack => Order::Attack {
                    target,
                    ranged: act.ranged,
                    flips: act.flips,
                    dice: act.dice,
                },
                SkirmishAction::Move => {
                    if act.flips > 0 || act.dice > 0 || act.ranged {
                        return Err(crate::SolunaRefusal::Action.at(
                            "action",
                            "a move spends no flips or dice and does not shoot",
                        ));
                    }
                    Order::Move { target }
                }
            };
            let odds = attack_odds(&before, who, &order);
            let mut s = before.clone();
            s.declare(who, order)
                .map_err(|e| crate::SolunaRefusal::Action.at("action", e.to_string()))?;
            let step = PlayStep::Act {
                before: Box::new(before),
                who,
                order,
            };
            Self::play_call(tx, &at, step, s, odds, dice.clone())
        })
    }

    /// Rolls the phases of the played skirmish that wait only for dice (after typed dice
    /// ran out at the end of a phase, or phases only auto characters act in). The game
    /// master's ([`crate::policy::GmOnly::SkirmishGo`]).
    pub fn go_soluna_skirmish(&mut self, dice: Dice) -> Result<PlayView, AppError> {
        self.game_master(crate::policy::GmOnly::SkirmishGo)?;
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let before = open_skirmish(tx)?.ok_or_else(no_skirmish)?;
            if !before.ready() {
                let waiting: Vec<String> = before
                    .waiting()
                    .iter()
                    .map(|&i| before.characters[i].name.clone())
                    .collect();
                return Err(crate::SolunaRefusal::Skirmish.bare(format!(
                    "turn {}, phase {} waits for a decision of {}",
                    before.turn,
                    before.phase,
                    waiting.join(", ")
                )));
            }
            let s = before.clone();
            let step = PlayStep::Go {
                before: Box::new(before),
            };
            Self::play_call(tx, &at, step, s, None, dice.clone())
        })
    }

    /// Where the played skirmish stands, with each waiting character's options and odds;
    /// none when no skirmish is open (a read, so not a refusal).
    pub fn soluna_skirmish_state(&self) -> Result<SkirmishAnswer, AppError> {
        let Some(row) = self.store.sheet(SKIRMISH_SYSTEM, SKIRMISH_ROW)? else {
            return Ok(SkirmishAnswer { skirmish: None });
        };
        let r: SkirmishRow = read_row(&row)?;
        let skirmish = match r.skirmish {
            Some(s) => {
                check_state(&s)?;
                Some(state_view(&s))
            }
            None => None,
        };
        Ok(SkirmishAnswer { skirmish })
    }

    /// Abandons the played skirmish: journaled, and the sheets keep the damage taken and the
    /// supplies spent so far. The game master's ([`crate::policy::GmOnly::SkirmishAbandon`]).
    pub fn abandon_soluna_skirmish(&mut self) -> Result<PlayView, AppError> {
        self.game_master(crate::policy::GmOnly::SkirmishAbandon)?;
        let at = self.now();
        self.transact(|tx| {
            let s = open_skirmish(tx)?.ok_or_else(no_skirmish)?;
            let sheets = write_sheets(tx, &s)?;
            store_skirmish(tx, None)?;
            let seq = append(
                tx,
                &at,
                SolunaChange::Abandoned {
                    skirmish: Box::new(s.clone()),
                    sheets: sheets.clone(),
                },
            )?;
            Ok(PlayView {
                seq,
                odds: None,
                events: Vec::new(),
                rolled: Rolled {
                    seed: None,
                    typed: false,
                    faces: Vec::new(),
                },
                state: state_view(&s),
                sheets: Some(sheets.after),
            })
        })
    }

    fn play_call(
        tx: &mut dyn WriteTx,
        at: &Timestamp,
        step: PlayStep,
        mut s: Skirmish,
        odds: Option<AttackOdds>,
        dice: Dice,
    ) -> Result<PlayView, AppError> {
        let limit = match &dice {
            Dice::Typed(f) => Some(f.len()),
            _ => Some(MAX_CALL_FACES),
        };
        let (events, rolled) = crate::journaling::roll(dice, |d| run_phases(&mut s, limit, d))?;
        let events = events?;
        let sheets = if s.over.is_some() {
            Some(write_sheets(tx, &s)?)
        } else {
            None
        };
        store_skirmish(tx, s.over.is_none().then_some(&s))?;
        let seq = append(
            tx,
            at,
            SolunaChange::Played(Box::new(PlayRecord {
                step,
                rolled: rolled.clone(),
                after: Box::new(s.clone()),
                sheets: sheets.clone(),
                budget: MAX_CALL_FACES,
            })),
        )?;
        Ok(PlayView {
            seq,
            odds,
            events,
            rolled,
            state: state_view(&s),
            sheets: sheets.map(|x| x.after),
        })
    }
}

/// The played skirmish as the journal leaves it, for `verify`: each call must start from the
/// state the call before it left (a start only when none is open, an abandon of the open one).
#[derive(Debug, Default)]
pub(crate) struct SkirmishChain {
    open: Option<Box<Skirmish>>,
}

impl SkirmishChain {
    pub(crate) fn check(&mut self, r: &SolunaRecord) -> Option<Divergence> {
        let (before, after): (Option<&Skirmish>, Option<Box<Skirmish>>) = match &r.change {
            SolunaChange::Played(p) => {
                let next = p.after.over.is_none().then(|| p.after.clone());
                match &p.step {
                    PlayStep::Start { .. } => {
                        if self.open.is_some() {
                            self.open = next;
                            return Some(Divergence::inconsistent(
                                "a skirmish starts while another is open",
                            ));
                        }
                        self.open = next;
                        return None;
                    }
                    PlayStep::Act { before, .. } | PlayStep::Go { before } => {
                        (Some(before.as_ref()), next)
                    }
                }
            }
            SolunaChange::Abandoned { skirmish, .. } => (Some(skirmish.as_ref()), None),
            _ => return None,
        };
        let problem = (self.open.as_deref() != before).then(|| {
            Divergence::inconsistent(
                "the skirmish before this call is not the one the journal left",
            )
        });
        self.open = after;
        problem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::bounded::bounded_tests!(
        target_number,
        TargetNumber,
        "a target number is 1 to 1000 (a test rolls at most 1000 dice)"
    );

    /// A test's numbers are read with their types (flips 0 unless given); the JSON is the
    /// numbers as before, so a journaled test reads back as it was.
    #[test]
    fn a_tests_numbers_are_read_typed_and_written_as_numbers() {
        let t: SolunaTest = serde_json::from_str(r#"{"attack": "melee", "target": null}"#).unwrap();
        assert_eq!((t.flips.get(), t.against.get()), (0, 0));
        let json =
            serde_json::json!({"attack": "ranged", "flips": 2, "against": 1000, "target": 5});
        let t: SolunaTest = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(serde_json::to_value(&t).unwrap(), json);
        for (field, value, words) in [
            ("flips", 1001, "flips are 0 to 1000"),
            ("against", -1, "flips are 0 to 1000"),
            ("target", 0, "a target number is 1 to 1000"),
        ] {
            let mut bad = json.clone();
            bad[field] = serde_json::json!(value);
            let e = serde_json::from_value::<SolunaTest>(bad).unwrap_err();
            assert!(e.to_string().contains(words), "{field}: {e}");
        }
    }
}
