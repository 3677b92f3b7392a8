//! The original So1um's heroes in the campaign (system `classic`): creation by the rules,
//! import and export of today's TOML hero, checks, rest, and fights the campaign keeps.
//!
//! Every change reads the sheet, applies the rule and stores the sheet with its
//! [`ClassicRecord`] in one [`CampaignStore::write`] transaction. A fight is a row of its own
//! system ([`FIGHT_SYSTEM`], named after the hero) that keeps the fight's inputs and, per
//! call, the decision taken and the dice rolled: the state is rebuilt by replaying them, so a
//! fight left at a pending decision resumes in another process exactly as it would have gone
//! on. When it ends, the hero's Body and hit points go back to the sheet.

pub(crate) use crate::characters::name_text;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use solum_classic::check::{
    Check, difficulty_name, hero_pool, p_pass, random_difficulty, roll_check,
};
use solum_classic::duel::{Policy, duel_chance};
use solum_classic::fight::{
    ClassicFight, Command, Decision, Event, FightError, Fighter, NextExchange,
};
/// The dice of a hero's creation, step by step (C1).
pub use solum_classic::hero::CreationRolls;
use solum_classic::hero::{self, Book, Hero, Kind};

/// What a hero loses when a fight's exchange goes against them, as a request chooses it.
pub use solum_classic::fight::Loss;
/// A hero's stat, as a check names it.
pub use solum_classic::hero::Stat;
use solum_dice::{DiceError, DiceSource, SeededDice};
use solum_store::{CampaignStore, Sheet, WriteTx};

use crate::journaling;
use crate::rolled::Rolled;
use crate::rolled::faces;
use crate::{AppError, Campaign, Dice, Divergence};

/// The system name the original's heroes are stored under.
pub const SYSTEM: &str = "classic";
/// The system name of a fight in progress (one row per hero).
pub const FIGHT_SYSTEM: &str = "classic-fight";
/// The schema of a stored hero and of a stored fight.
pub const SHEET_SCHEMA: i64 = 1;
/// The schema of the records this build writes.
pub const CLASSIC_RECORD_SCHEMA: i64 = 1;
/// The longest name, cliché or piece of gear, in characters.
pub const MAX_NAME: usize = 100;
/// The most calls one fight keeps (each call is replayed to resume it): past this, the
/// fight can only be abandoned.
pub const MAX_FIGHT_CALLS: usize = 1_000;
/// Bytes kept free in a fight's record for the call that abandons it (its segment, its
/// status and the journal entry's own fields).
const ABANDON_ROOM: usize = 1024;

/// The length of a value as JSON.
fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_vec(value).map_or(usize::MAX, |v| v.len())
}

/// The most pieces of gear on a sheet.
pub const MAX_GEAR: usize = 20;
/// The shortest rest (C2): a second, the unit the sheet banks rest in.
pub const MIN_REST_HOURS: f64 = 1.0 / 3600.0;
/// The longest notes on a sheet, in characters.
pub const MAX_NOTES: usize = 4_000;

/// Notes: at most `limit` characters, line breaks and tabs allowed.
pub(crate) fn notes_text(field: &str, notes: &str, limit: usize) -> Result<(), AppError> {
    let n = notes.chars().count();
    if n > limit {
        return Err(crate::ClassicRefusal::SheetLimit
            .at(field, format!("{n} characters long; the limit is {limit}")));
    }
    if let Some(problem) = crate::text_problem(notes, true) {
        return Err(crate::ClassicRefusal::SheetLimit.at(field, problem));
    }
    Ok(())
}

/// A fresh roll gets its seed before the transaction, so the seed journaled is the one
/// rolled.
pub(crate) fn fix_seed(dice: Dice) -> Dice {
    match dice {
        Dice::Fresh => Dice::Seed(SeededDice::from_entropy().seed()),
        d => d,
    }
}

/// The dice a record names, to roll them again.
pub(crate) fn dice_of(rolled: &Rolled) -> Result<Dice, Divergence> {
    if rolled.typed {
        Ok(Dice::Typed(rolled.faces.clone()))
    } else {
        rolled
            .seed
            .map(Dice::Seed)
            .ok_or_else(|| Divergence::unreplayable("a generated roll without its seed"))
    }
}

/// Rolls a rule again on a record's dice; the faces drawn must be the faces recorded.
pub(crate) fn again<T>(
    rolled: &Rolled,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<T, DiceError>,
) -> Result<T, Divergence> {
    let dice = dice_of(rolled)?;
    let (out, again) = crate::journaling::roll(dice, rule).map_err(|e| Divergence::of_error(&e))?;
    match Divergence::faces(rolled, &again.faces) {
        Some(d) => Err(d),
        None => Ok(out),
    }
}
/// A sheet row of `system` holding `body`.
pub(crate) fn sheet_row<T: Serialize>(
    system: &str,
    name: &str,
    body: &T,
) -> Result<Sheet, AppError> {
    Ok(Sheet {
        system: system.into(),
        name: name.to_owned(),
        schema: SHEET_SCHEMA,
        version: 0,
        body: serde_json::to_value(body)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))?,
    })
}

/// A stored row's body, of the schema this build reads.
pub(crate) fn read_row<T: for<'de> Deserialize<'de>>(sheet: &Sheet) -> Result<T, AppError> {
    if sheet.schema != SHEET_SCHEMA {
        return Err(crate::ClassicRefusal::StoredSheet.at(
            "schema",
            format!(
                "the stored {} sheet of {} has schema {}; this solum reads {SHEET_SCHEMA}",
                sheet.system, sheet.name, sheet.schema
            ),
        ));
    }
    serde_json::from_value(sheet.body.clone()).map_err(|e| {
        crate::ClassicRefusal::StoredSheet.at(
            "sheet",
            format!(
                "the stored {} sheet of {} cannot be read: {e}",
                sheet.system, sheet.name
            ),
        )
    })
}

/// The rules (C1, C2) and the campaign's limits on a hero's sheet.
pub fn check_hero(hero: &Hero) -> Result<(), AppError> {
    hero.validate(Kind::Hero)
        .map_err(|e| crate::ClassicRefusal::Rules.at(e.field, e.problem))?;
    name_text("name", &hero.name)?;
    for (i, c) in hero.cliches.iter().enumerate() {
        name_text(&format!("cliches[{i}]"), c)?;
    }
    if hero.gear.len() > MAX_GEAR {
        return Err(crate::ClassicRefusal::SheetLimit.at(
            "gear",
            format!("{} listed; the limit is {MAX_GEAR}", hero.gear.len()),
        ));
    }
    for (i, g) in hero.gear.iter().enumerate() {
        name_text(&format!("gear[{i}]"), g)?;
    }
    notes_text("notes", &hero.notes, MAX_NOTES)
}

/// A foe from the book (a sample hero or a monster of the text), by name, for a fight.
pub fn book_foe(name: &str) -> Result<StoredHero, AppError> {
    solum_classic::Book::shipped()
        .find(name)
        .cloned()
        .map(StoredHero)
        .ok_or_else(|| {
            crate::ClassicRefusal::FoeUnknown.at(
                "foes",
                format!(
                    "`{}` is not in the book (its sample heroes and monsters: goblin, troll, …)",
                    name.trim().chars().take(MAX_NAME).collect::<String>()
                ),
            )
        })
}

/// The shipped book of the original, as a front end lists it: the foes a fight may name
/// (its monsters, then its sample heroes) and its example clichés.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BookView {
    /// Monsters, in the book's order.
    pub monsters: Vec<Hero>,
    /// Sample heroes, in the book's order.
    pub heroes: Vec<Hero>,
    /// Example clichés.
    pub cliches: Vec<String>,
}

/// The book's creatures and sample heroes, the foes [`FightRequest::foes`] may name.
pub fn classic_book() -> BookView {
    let Book {
        cliches,
        hero,
        monster,
    } = Book::shipped();
    BookView {
        monsters: monster,
        heroes: hero,
        cliches,
    }
}

/// A fight's setup from a request that names its foes (book entries, 1 to
/// [`solum_classic::fight::MAX_FOES`]).
fn setup_of(r: &FightRequest) -> Result<FightSetup, AppError> {
    let limit = solum_classic::fight::MAX_FOES;
    if r.foes.is_empty() {
        return Err(
            crate::ClassicRefusal::Foes.at("foes", "none named: a fight needs at least one foe")
        );
    }
    if r.foes.len() > limit {
        return Err(crate::ClassicRefusal::Foes.at(
            "foes",
            format!("{} named; a fight takes 1 to {limit}", r.foes.len()),
        ));
    }
    Ok(FightSetup {
        foes: r
            .foes
            .iter()
            .map(|f| book_foe(f))
            .collect::<Result<_, _>>()?,
        stat: r.stat,
        foe_stat: r.foe_stat,
        cliche: r.cliche,
        foe_cliche: r.foe_cliche,
        policy: r.policy,
        foe_policy: r.foe_policy.unwrap_or_default(),
    })
}

/// A foe of a fight: a monster's looser limits (C3: the book's Squidhead has Mind 5).
fn check_foe(foe: &Hero) -> Result<(), AppError> {
    foe.validate(Kind::Monster).map_err(|e| {
        crate::ClassicRefusal::Rules.at(format!("foe {}: {}", foe.name, e.field), e.problem)
    })?;
    name_text("foe name", &foe.name)?;
    notes_text("foe notes", &foe.notes, MAX_NOTES)
}

/// What a check from a sheet was built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ClassicCheckInputs))]
pub struct CheckInputs {
    /// The stat rolled.
    pub stat: Stat,
    /// Its value on the sheet.
    pub stat_value: u32,
    /// The cliché that applies (+1 die), as written on the sheet.
    pub cliche: Option<String>,
    /// The pool rolled.
    pub pool: u32,
    /// The difficulty, 1 to 6; `None`: rolled on a d6 first.
    pub difficulty: Option<u32>,
    /// Gear rerolls the lowest die once when failing.
    pub gear: bool,
    /// The piece of gear used, as the sheet names it (checked against the sheet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gear_name: Option<String>,
}

fn check_rule(inputs: &CheckInputs, dice: &mut dyn DiceSource) -> Result<Check, DiceError> {
    let d = match inputs.difficulty {
        Some(d) => d,
        None => random_difficulty(dice)?,
    };
    roll_check(inputs.pool, d, inputs.gear, dice)
}

/// A fight's inputs besides the hero: the foes and how everyone fights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightSetup {
    /// The foes, in turn order (entries of the book or of files, as they were).
    pub foes: Vec<StoredHero>,
    /// The hero's stat (C3); else Body.
    pub stat: Option<Stat>,
    /// The foes' stat; else each entry's own, else Body.
    pub foe_stat: Option<Stat>,
    /// A cliché helps the hero: +1 die.
    pub cliche: bool,
    /// A cliché helps the foes.
    pub foe_cliche: bool,
    /// How the hero takes hits; `None`: the player decides each one (a pending decision).
    pub policy: Option<Policy>,
    /// How the foes take hits.
    pub foe_policy: Policy,
}

/// A fight of a hero as a front end asks for it (the web's JSON body): foes start one; none
/// go on with the one under way.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FightRequest {
    /// Foes of the book, by name, in turn order (1 to 100); none: go on.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(max_items = 100))]
    pub foes: Vec<String>,
    /// The hero's stat (C3); else Body.
    pub stat: Option<Stat>,
    /// The foes' stat; else each entry's own, else Body.
    pub foe_stat: Option<Stat>,
    /// A cliché helps the hero: +1 die.
    #[serde(default)]
    pub cliche: bool,
    /// A cliché helps the foes.
    #[serde(default)]
    pub foe_cliche: bool,
    /// How the hero takes hits; none: each hit waits for `decide`.
    pub policy: Option<Policy>,
    /// How the foes take hits; none: the default policy.
    pub foe_policy: Option<Policy>,
    /// The answer to the hit that waits: "body" or "hit-point".
    pub decide: Option<Loss>,
}

/// A foe as the fight keeps it: the entry, as TOML-equal data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StoredHero(pub Hero);

/// A hero of the original as its sheet holds it (docs/api.md): an object of the rules
/// crate's fields.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for StoredHero {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Object)
            .description(Some(
                "A hero of the original, as its sheet holds it (docs/api.md)",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for StoredHero {}

// A hero's only floats are banked rest hours, which `Hero::validate` keeps finite: equality
// is reflexive on every value the campaign stores.
impl Eq for StoredHero {}

/// One call of a fight: the decision it answered first, then the dice it rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// The answer to the pending decision, if the call gave one.
    pub decision: Option<Loss>,
    /// The hero fled in this call (no dice: the fight ends where it stands).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub abandon: bool,
    /// The dice rolled in this call.
    pub rolled: Rolled,
}

/// A fight as the campaign keeps it: the inputs and every call's decision and dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredFight {
    /// The hero's sheet when the fight began.
    pub hero: StoredHero,
    /// The foes and how everyone fights.
    pub setup: FightSetup,
    /// Every call so far.
    pub segments: Vec<Segment>,
}

/// Where a fight stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FightStatus {
    /// The hero's Body and hit points.
    pub hero: [u32; 2],
    /// Each foe's Body and hit points.
    pub foes: Vec<[u32; 2]>,
    /// The round, from 1.
    pub round: u32,
    /// The hit that waits for the player's answer.
    pub pending: Option<Decision>,
    /// The fight is over.
    pub over: bool,
    /// The hero lives and every foe is dead.
    pub hero_won: bool,
    /// The hero fled: the fight ended with everyone as they stood.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub abandoned: bool,
}

impl FightStatus {
    fn of(fight: &ClassicFight) -> Self {
        let bh = |f: &Fighter| [f.side.body, f.side.hit_points];
        Self {
            hero: bh(fight.hero()),
            foes: fight.foes().iter().map(bh).collect(),
            round: fight.round(),
            pending: fight.pending(),
            over: fight.is_over(),
            hero_won: fight.hero_won(),
            abandoned: fight.is_abandoned(),
        }
    }
}

/// A fight call, as journaled: the whole fight so far, where it stands, and at its end the
/// hero's sheet before and after its wounds were written back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightRecord {
    /// The inputs and every call's decision and dice.
    pub fight: StoredFight,
    /// Where it stands after this call.
    pub status: FightStatus,
    /// At the end: the sheet before the wounds were written back.
    pub sheet_before: Option<StoredHero>,
    /// At the end: the sheet after.
    pub sheet_after: Option<StoredHero>,
}

/// A change to one of the original's heroes, with what re-derives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClassicChange {
    /// Created by the rules (C1).
    Created {
        /// The clichés named.
        cliches: Vec<String>,
        /// 3d6 Body, 3d6 Mind, 3d6 Spirit, 2d6 hit points, 2d6 clichés.
        rolled: Rolled,
        /// The hero made.
        hero: Hero,
    },
    /// Imported from today's TOML hero.
    Imported {
        /// The hero.
        hero: Hero,
    },
    /// Rested (C2).
    Rested {
        /// The sheet before.
        before: Hero,
        /// Hours of rest.
        hours: f64,
        /// Hit points healed.
        hit_points: u32,
        /// Body healed.
        body: u32,
        /// The sheet after.
        after: Hero,
    },
    /// A check rolled from the sheet.
    Check {
        /// What it was built from.
        inputs: CheckInputs,
        /// The dice.
        rolled: Rolled,
        /// What they gave.
        check: Check,
    },
    /// A fight call.
    Fight(Box<FightRecord>),
    /// Gear given and taken away.
    Gear {
        /// The sheet before.
        before: Hero,
        /// Pieces given, as named.
        added: Vec<String>,
        /// Pieces taken away, as named.
        removed: Vec<String>,
        /// The sheet after.
        after: Hero,
    },
    /// The hero's notes written anew (the only free field of the sheet).
    Notes {
        /// The sheet before.
        before: Hero,
        /// The sheet after: `before` with other notes.
        after: Hero,
    },
}

/// A journal entry about one of the original's heroes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassicRecord {
    /// [`CLASSIC_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The hero.
    pub name: String,
    /// What happened.
    pub change: ClassicChange,
}

// As for [`StoredHero`]: the only floats are finite rest hours.
impl Eq for ClassicRecord {}

impl ClassicRecord {
    fn new(name: &str, change: ClassicChange) -> Self {
        Self {
            schema: CLASSIC_RECORD_SCHEMA,
            name: name.to_owned(),
            change,
        }
    }

    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        !matches!(
            self.change,
            ClassicChange::Imported { .. }
                | ClassicChange::Rested { .. }
                | ClassicChange::Gear { .. }
                | ClassicChange::Notes { .. }
        )
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > CLASSIC_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a classic record's",
                found: self.schema,
                known: CLASSIC_RECORD_SCHEMA,
            }
            .into());
        }
        name_text("name", &self.name)?;
        match &self.change {
            ClassicChange::Created { hero, .. } | ClassicChange::Imported { hero } => {
                check_hero(hero)
            }
            ClassicChange::Rested { before, after, .. }
            | ClassicChange::Gear { before, after, .. }
            | ClassicChange::Notes { before, after } => {
                check_hero(before)?;
                check_hero(after)
            }
            ClassicChange::Check { .. } => Ok(()),
            ClassicChange::Fight(f) => {
                check_hero(&f.fight.hero.0)?;
                f.fight.setup.foes.iter().try_for_each(|x| check_foe(&x.0))
            }
        }
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let n = &self.name;
        match &self.change {
            ClassicChange::Created { hero, rolled, .. } => format!(
                "{n} is created: Body {}, Mind {}, Spirit {}, {} hit points (dice {})",
                hero.body,
                hero.mind,
                hero.spirit,
                hero.hit_points,
                faces(&rolled.faces)
            ),
            ClassicChange::Imported { .. } => format!("{n} joins the campaign"),
            ClassicChange::Notes { after, .. } if after.notes.is_empty() => {
                format!("{n}'s notes are cleared")
            }
            ClassicChange::Notes { after, .. } => format!("{n}'s notes: {}", after.notes),
            ClassicChange::Gear { added, removed, .. } => {
                let mut parts = Vec::new();
                if !added.is_empty() {
                    parts.push(format!("takes up {}", added.join(", ")));
                }
                if !removed.is_empty() {
                    parts.push(format!("leaves {}", removed.join(", ")));
                }
                format!("{n} {}", parts.join(" and "))
            }
            ClassicChange::Rested {
                hours,
                hit_points,
                body,
                ..
            } => format!("{n} rests {hours} hours: +{hit_points} hit point(s), +{body} Body"),
            ClassicChange::Check { inputs, check, .. } => format!(
                "{n} rolls {} dice against {} ({}): {}{} — {}",
                inputs.pool,
                check.difficulty,
                difficulty_name(check.difficulty),
                faces(&check.dice),
                match (check.reroll, &inputs.gear_name) {
                    (Some((_, from, to)), Some(g)) => format!(" ({g}: {from} rerolled, {to})"),
                    _ => String::new(),
                },
                if check.passed { "success" } else { "failure" }
            ),
            ClassicChange::Fight(f) => {
                let foes: Vec<&str> = f
                    .fight
                    .setup
                    .foes
                    .iter()
                    .map(|x| x.0.name.as_str())
                    .collect();
                let s = &f.status;
                let state = if s.abandoned {
                    "flees".to_owned()
                } else if s.over {
                    if s.hero_won {
                        "wins".to_owned()
                    } else {
                        "dies".to_owned()
                    }
                } else if s.pending.is_some() {
                    "is hit and must choose: Body or a hit point".to_owned()
                } else {
                    "waits for more dice".to_owned()
                };
                format!(
                    "{n} fights {} (round {}): {state}; Body {}, hit points {}",
                    foes.join(", "),
                    s.round,
                    s.hero[0],
                    s.hero[1]
                )
            }
        }
    }

    /// Re-derives the record: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<Divergence> {
        if let Some(newer) = Divergence::newer("classic", self.schema, CLASSIC_RECORD_SCHEMA) {
            return Some(newer);
        }
        let differs = |what: &str, d: Option<Divergence>| {
            d.map(|d| d.within(format!("the recorded {what} of {}", self.name)))
        };
        match &self.change {
            ClassicChange::Created {
                cliches,
                rolled,
                hero,
            } => match again(rolled, |d| hero::create(&self.name, cliches, d)) {
                Err(e) => Some(e),
                Ok(Err(e)) => Some(Divergence::refused(format!(
                    "the creation does not hold: {e}"
                ))),
                Ok(Ok((h, _))) => differs("hero", Divergence::fields("hero", hero, &h)),
            },
            ClassicChange::Imported { hero } => check_hero(hero).err().map(Divergence::refused),
            ClassicChange::Notes { before, after } => {
                let h = Hero {
                    notes: after.notes.clone(),
                    ..before.clone()
                };
                match check_hero(after) {
                    Err(e) => Some(Divergence::refused(format!("the notes do not hold: {e}"))),
                    Ok(()) => differs("notes", Divergence::fields("hero", after, &h)),
                }
            }
            ClassicChange::Gear {
                before,
                added,
                removed,
                after,
            } => {
                let mut h = before.clone();
                match h.change_gear(added, removed) {
                    Err(e) => Some(Divergence::refused(format!(
                        "the gear change does not hold: {e}"
                    ))),
                    Ok(()) => differs("gear", Divergence::fields("hero", after, &h)),
                }
            }
            ClassicChange::Rested {
                before,
                hours,
                hit_points,
                body,
                after,
            } => {
                let mut h = before.clone();
                match h.rest(*hours) {
                    Err(e) => Some(Divergence::refused(e)),
                    Ok(r) => differs(
                        "rest",
                        Divergence::fields("hit_points", hit_points, &r.hit_points)
                            .or_else(|| Divergence::fields("body", body, &r.body))
                            .or_else(|| Divergence::fields("hero", after, &h)),
                    ),
                }
            }
            ClassicChange::Check {
                inputs,
                rolled,
                check,
            } => match again(rolled, |d| check_rule(inputs, d)) {
                Err(e) => Some(e),
                Ok(c) => Divergence::fields("check", check, &c),
            },
            ClassicChange::Fight(f) => match replayed_fight(&f.fight) {
                Err(e) => Some(Divergence::of_error(&e)),
                Ok(Err(d)) => differs("fight", Some(d)),
                Ok(Ok((fight, _))) if FightStatus::of(&fight) != f.status => differs(
                    "fight",
                    Divergence::fields("status", &f.status, &FightStatus::of(&fight)),
                ),
                Ok(Ok((fight, _))) => match (&f.sheet_before, &f.sheet_after) {
                    (Some(before), Some(after)) if fight.is_over() => {
                        let mut h = before.0.clone();
                        h.set_wounds(fight.hero().side.body, fight.hero().side.hit_points);
                        differs(
                            "sheet after the fight",
                            Divergence::fields("hero", &after.0, &h),
                        )
                    }
                    (None, None) if !fight.is_over() => None,
                    _ => Some(Divergence::inconsistent(format!(
                        "the sheet of {} is written at the fight's end, and only then",
                        self.name
                    ))),
                },
            },
        }
    }
}

/// A source that counts the faces it hands out.
struct Counted<'a> {
    inner: &'a mut dyn DiceSource,
    used: usize,
}

impl DiceSource for Counted<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        let f = self.inner.roll(sides)?;
        self.used += 1;
        Ok(f)
    }
}

/// One call of a fight: answers the pending decision if given, then the hero flees
/// (`abandon`) or exchanges are rolled until the fight ends, a hit waits for the player, or
/// (typed dice) the `limit` faces are used.
fn run_segment(
    fight: &mut ClassicFight,
    decision: Option<Loss>,
    abandon: bool,
    limit: Option<usize>,
    dice: &mut dyn DiceSource,
) -> Result<Result<Vec<Event>, AppError>, DiceError> {
    let mut counted = Counted {
        inner: dice,
        used: 0,
    };
    let mut events = Vec::new();
    let mut step = |fight: &mut ClassicFight, c: Command, counted: &mut Counted<'_>| match fight
        .apply(c, counted)
    {
        Ok(e) => {
            events.extend(e);
            Ok(Ok(()))
        }
        Err(FightError::Dice(e)) => Err(e),
        Err(FightError::NoDecision) => Ok(Err(crate::ClassicRefusal::Decide.at(
            "decide",
            "no hit waits for an answer: the fight goes on with more dice",
        ))),
        Err(e) => Ok(Err(fight_refusal(e))),
    };
    if let Some(loss) = decision
        && let Err(e) = step(fight, Command::Take(loss), &mut counted)?
    {
        return Ok(Err(e));
    }
    if abandon {
        return match step(fight, Command::Abandon, &mut counted)? {
            Err(e) => Ok(Err(e)),
            Ok(()) => Ok(Ok(events)),
        };
    }
    while !fight.is_over() && fight.pending().is_none() && limit.is_none_or(|l| counted.used < l) {
        if let Err(e) = step(fight, Command::Exchange, &mut counted)? {
            return Ok(Err(e));
        }
    }
    Ok(Ok(events))
}

fn build_fight(f: &StoredFight) -> Result<ClassicFight, AppError> {
    let s = &f.setup;
    let me = Fighter::from_hero(
        &f.hero.0,
        s.stat,
        s.cliche,
        s.policy.unwrap_or_default(),
        s.policy.is_none(),
    );
    let them = s
        .foes
        .iter()
        .map(|x| Fighter::from_hero(&x.0, s.foe_stat, s.foe_cliche, s.foe_policy, false))
        .collect();
    ClassicFight::new(me, them).map_err(fight_refusal)
}

/// The original's fight refusing a call or a setup, as the refusal the app's own checks give
/// for the same thing (they come first: a request meets one of these only where a check is
/// missing).
fn fight_refusal(e: FightError) -> AppError {
    use crate::ClassicRefusal as R;
    let problem = e.to_string();
    match e {
        FightError::Dice(d) => AppError::Dice(d),
        FightError::Pending | FightError::NoDecision => R::Decide.at("decide", problem),
        FightError::Over => R::NotInFight.at("fight", problem),
        FightError::NoFoes | FightError::TooManyFoes(_) => R::Foes.at("foes", problem),
        FightError::Dead(_) | FightError::Range(..) => R::Rules.at("fight", problem),
    }
}

/// Rebuilds a stored fight to go on with it: one that does not replay is refused.
fn replay_fight(f: &StoredFight) -> Result<(ClassicFight, Vec<Event>), AppError> {
    replayed_fight(f)?.map_err(|d| crate::ClassicRefusal::ReplayMismatch.at("fight", d.to_string()))
}

/// Rebuilds a fight by replaying its calls; every call's faces must be the ones recorded.
/// Returns the fight and the events of its last call, or how a call diverges (its dice do
/// not replay); an error when the fight's rules refuse it.
fn replayed_fight(
    f: &StoredFight,
) -> Result<Result<(ClassicFight, Vec<Event>), Divergence>, AppError> {
    let mut fight = build_fight(f)?;
    let mut last = Vec::new();
    for (i, seg) in f.segments.iter().enumerate() {
        let call = |d: Divergence| Ok(Err(d.within(format!("call {}", i + 1))));
        let limit = seg.rolled.typed.then_some(seg.rolled.faces.len());
        let dice = match dice_of(&seg.rolled) {
            Ok(dice) => dice,
            Err(d) => return call(d),
        };
        let (events, rolled) = match crate::journaling::roll(dice, |d| {
            run_segment(&mut fight, seg.decision, seg.abandon, limit, d)
        }) {
            Ok(r) => r,
            Err(e) => return call(Divergence::of_error(&e)),
        };
        last = events?;
        if let Some(d) = Divergence::faces(&seg.rolled, &rolled.faces) {
            return call(d);
        }
    }
    Ok(Ok((fight, last)))
}

/// A hero's sheet as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HeroView {
    /// The sheet.
    pub hero: Hero,
    /// Raised by one on every change.
    pub version: i64,
    /// Body or hit points at 0.
    pub dead: bool,
    /// A fight of this hero waits in the campaign.
    pub in_fight: bool,
}

/// A change stored: its journal entry and the sheet after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HeroChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The dice, when the change rolled.
    pub rolled: Option<Rolled>,
    /// For a rest: hit points and Body healed.
    pub healed: Option<[u32; 2]>,
    /// For a creation: the dice of each step (C1), in the order they were rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation: Option<CreationRolls>,
    /// The sheet after.
    pub sheet: HeroView,
}

/// A check rolled from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HeroCheckView {
    /// The journal entry.
    pub seq: i64,
    /// The hero.
    pub name: String,
    /// What the check was built from.
    pub inputs: CheckInputs,
    /// The dice.
    pub rolled: Rolled,
    /// What they gave.
    pub check: Check,
    /// The difficulty's name.
    pub difficulty_name: &'static str,
    /// The exact chance to pass, once the difficulty is known.
    pub p_pass: f64,
}

/// A hero's fight under way, or none (`{"fight": null}`): what
/// `solum classic fight NAME --status --json` prints and
/// `GET /api/classic/characters/{name}/fight` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClassicFightStatus {
    /// The fight as it stands.
    pub fight: Option<FightStateView>,
}

/// A fight under way, as it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FightStateView {
    /// The hero.
    pub hero: String,
    /// The foes' names, in turn order.
    pub foes: Vec<String>,
    /// The dice each fighter rolls now: the hero first.
    pub dice: Vec<u32>,
    /// The hero's exact chance to win a duel, worked out when the fight began (one foe).
    pub p_win: Option<f64>,
    /// The exact odds of the next exchange and of the fight from here.
    pub next: Option<NextExchange>,
    /// The calls the fight has had.
    pub calls: usize,
    /// Where it stands.
    pub status: FightStatus,
}

/// A fight call, for a front end to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FightView {
    /// The journal entry.
    pub seq: i64,
    /// The hero.
    pub hero: String,
    /// The foes' names, in turn order.
    pub foes: Vec<String>,
    /// The dice each fighter rolls now: the hero first.
    pub dice: Vec<u32>,
    /// The hero's exact chance to win a duel, worked out when the fight began (one foe).
    pub p_win: Option<f64>,
    /// The exact odds of the next exchange and of the fight from here (none when it is
    /// over or a hit waits for its answer).
    pub next: Option<NextExchange>,
    /// What happened in this call.
    pub events: Vec<Event>,
    /// The dice of this call.
    pub rolled: Rolled,
    /// Where the fight stands.
    pub status: FightStatus,
    /// At the end: the hero's sheet with its wounds.
    pub sheet: Option<Hero>,
}

fn hero_view(hero: Hero, version: i64, in_fight: bool) -> HeroView {
    HeroView {
        dead: hero.is_dead(),
        hero,
        version,
        in_fight,
    }
}

fn load_hero(tx: &dyn WriteTx, name: &str) -> Result<(Hero, i64), AppError> {
    let sheet = tx
        .sheet(SYSTEM, name)?
        .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
    let hero: Hero = read_row(&sheet)?;
    check_hero(&hero)?;
    Ok((hero, sheet.version))
}

fn open_fight(tx: &dyn WriteTx, name: &str) -> Result<Option<StoredFight>, AppError> {
    match tx.sheet(FIGHT_SYSTEM, name)? {
        None => Ok(None),
        Some(row) => {
            let state: FightRow = read_row(&row)?;
            Ok(state.fight)
        }
    }
}

/// The fight row: the open fight, or none once it has ended (the store keeps rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct FightRow {
    fight: Option<StoredFight>,
}

fn p_win(fight: &ClassicFight) -> Option<f64> {
    match fight.foes() {
        [one] => duel_chance(fight.hero().side, one.side).ok().map(|o| o.p),
        _ => None,
    }
}

impl<S: CampaignStore> Campaign<S> {
    fn classic_record(
        tx: &mut dyn WriteTx,
        at: &Timestamp,
        name: &str,
        change: ClassicChange,
    ) -> Result<i64, AppError> {
        // A secret entry (a game master's secret roll) must change nothing a player can see:
        // a check of the original changes no sheet, but a fight changes the hero's hit points
        // and the fight every member reads, so only a check may be secret.
        let may_be_secret = matches!(change, ClassicChange::Check { .. });
        let stored = journaling::append_stored(tx, at, &ClassicRecord::new(name, change))?;
        if stored.secret && !may_be_secret {
            return Err(crate::ClassicRefusal::SecretFight.at(
                "secret",
                "only a check of the original can be secret: a fight changes the \
                          hero's sheet and the fight every member of the table sees (roll it \
                          openly); nothing was written",
            ));
        }
        Ok(stored.seq)
    }

    /// Creates a hero by the rules (C1): 3d6 each for Body, Mind and Spirit, 2d6 for hit
    /// points, 2d6 for clichés, in that order (typed dice: those thirteen faces).
    pub fn create_classic_hero(
        &mut self,
        name: &str,
        cliches: &[String],
        dice: Dice,
    ) -> Result<HeroChangeView, AppError> {
        let name = name_text("name", name)?;
        let cliches = cliches
            .iter()
            .enumerate()
            .map(|(i, c)| name_text(&format!("cliches[{i}]"), c))
            .collect::<Result<Vec<_>, _>>()?;
        hero::check_names(&name, &cliches)
            .map_err(|e| crate::ClassicRefusal::Rules.at(e.field, e.problem))?;
        let (made, rolled) = crate::journaling::roll(dice, |d| hero::create(&name, &cliches, d))?;
        let (hero, steps) =
            made.map_err(|e| crate::ClassicRefusal::Rules.at("cliches", e.to_string()))?;
        check_hero(&hero)?;
        let at = self.now();
        let seq = self.transact(|tx| {
            crate::look_alike_free(tx, SYSTEM, &hero.name)?;
            tx.insert_sheet(&sheet_row(SYSTEM, &hero.name, &hero)?)?;
            Self::classic_record(
                tx,
                &at,
                &hero.name,
                ClassicChange::Created {
                    cliches: cliches.clone(),
                    rolled: rolled.clone(),
                    hero: hero.clone(),
                },
            )
        })?;
        Ok(HeroChangeView {
            seq,
            rolled: Some(rolled),
            healed: None,
            creation: Some(steps),
            sheet: hero_view(hero, 1, false),
        })
    }

    /// A hero of the campaign (the name in any case).
    pub fn classic_hero(&self, name: &str) -> Result<HeroView, AppError> {
        let sheet = self
            .store
            .sheet(SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        let hero: Hero = read_row(&sheet)?;
        let in_fight = match self.store.sheet(FIGHT_SYSTEM, name)? {
            Some(row) => read_row::<FightRow>(&row)?.fight.is_some(),
            None => false,
        };
        Ok(hero_view(hero, sheet.version, in_fight))
    }

    /// True when the campaign has a hero of that name.
    pub fn has_classic_hero(&self, name: &str) -> Result<bool, AppError> {
        Ok(self.store.sheet(SYSTEM, name)?.is_some())
    }

    /// Every hero of the campaign, by name.
    pub fn classic_heroes(&self) -> Result<Vec<HeroView>, AppError> {
        self.store
            .sheets(SYSTEM)?
            .iter()
            .map(|s| self.classic_hero(&s.name))
            .collect()
    }

    /// Adds a hero from today's TOML hero file, held to a hero's rules (C1).
    pub fn import_classic_hero(&mut self, toml_text: &str) -> Result<HeroChangeView, AppError> {
        let limit = crate::MAX_FILE_BYTES;
        if toml_text.len() as u64 > limit {
            return Err(crate::ClassicRefusal::SheetFile.at(
                "sheet",
                format!("{} bytes; the limit is {limit}", toml_text.len()),
            ));
        }
        let mut hero = hero::parse_hero(toml_text, Kind::Hero).map_err(|e| match e {
            hero::SheetError::Invalid(e) => crate::ClassicRefusal::Rules.at(e.field, e.problem),
            hero::SheetError::Parse(m) => crate::ClassicRefusal::SheetFile.at("sheet", m),
        })?;
        hero.name = name_text("name", &hero.name)?;
        check_hero(&hero)?;
        let at = self.now();
        let seq = self.transact(|tx| {
            crate::look_alike_free(tx, SYSTEM, &hero.name)?;
            tx.insert_sheet(&sheet_row(SYSTEM, &hero.name, &hero)?)?;
            Self::classic_record(
                tx,
                &at,
                &hero.name,
                ClassicChange::Imported { hero: hero.clone() },
            )
        })?;
        Ok(HeroChangeView {
            seq,
            rolled: None,
            healed: None,
            creation: None,
            sheet: hero_view(hero, 1, false),
        })
    }

    /// A hero as today's TOML hero file, the format [`Campaign::import_classic_hero`] reads.
    pub fn export_classic_hero(&self, name: &str) -> Result<String, AppError> {
        let view = self.classic_hero(name)?;
        toml::to_string_pretty(&view.hero)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))
    }

    /// Rests `hours` (C2): 1 hit point per 8 hours and 1 Body per day, the hours banked on
    /// the sheet until they make a point. A hero in a fight does not rest.
    pub fn rest_classic_hero(
        &mut self,
        name: &str,
        hours: f64,
    ) -> Result<HeroChangeView, AppError> {
        // C2 banks rest on the sheet in whole seconds: a shorter rest would change nothing
        // but the journal (`5e-324` hours was journaled).
        if hours < MIN_REST_HOURS {
            return Err(crate::ClassicRefusal::RestHours.at(
                "hours",
                format!("{hours}: a rest is at least a second (1/3600 of an hour)"),
            ));
        }
        let at = self.now();
        self.transact(|tx| {
            let (before, _) = load_hero(tx, name)?;
            if open_fight(tx, &before.name)?.is_some() {
                return Err(crate::ClassicRefusal::InFight.at(
                    "hours",
                    format!(
                        "{} is in a fight: finish it or abandon it before resting",
                        before.name
                    ),
                ));
            }
            let mut after = before.clone();
            let r = after
                .rest(hours)
                .map_err(|e| crate::ClassicRefusal::RestHours.at("hours", e.to_string()))?;
            let stored = tx.update_sheet(
                SYSTEM,
                &before.name,
                &sheet_row(SYSTEM, &after.name, &after)?,
            )?;
            let seq = Self::classic_record(
                tx,
                &at,
                &before.name,
                ClassicChange::Rested {
                    before: before.clone(),
                    hours,
                    hit_points: r.hit_points,
                    body: r.body,
                    after: after.clone(),
                },
            )?;
            Ok(HeroChangeView {
                seq,
                rolled: None,
                healed: Some([r.hit_points, r.body]),
                creation: None,
                sheet: hero_view(after, stored.version, false),
            })
        })
    }

    /// Gives a hero pieces of gear and takes others away, journaled. At most [`MAX_GEAR`]
    /// pieces on the sheet, each name at most [`MAX_NAME`] characters.
    pub fn edit_classic_gear(
        &mut self,
        name: &str,
        add: &[String],
        remove: &[String],
    ) -> Result<HeroChangeView, AppError> {
        if add.is_empty() && remove.is_empty() {
            return Err(
                crate::ClassicRefusal::Gear.at("gear", "nothing to change: add or remove a piece")
            );
        }
        for (field, list) in [("add", add), ("remove", remove)] {
            if list.len() > MAX_GEAR {
                return Err(crate::ClassicRefusal::SheetLimit.at(
                    field,
                    format!("{} named; the limit is {MAX_GEAR}", list.len()),
                ));
            }
        }
        let add = add
            .iter()
            .map(|g| name_text("gear", g))
            .collect::<Result<Vec<_>, _>>()?;
        let remove = remove
            .iter()
            .map(|g| name_text("gear", g))
            .collect::<Result<Vec<_>, _>>()?;
        let at = self.now();
        self.transact(|tx| {
            let (before, _) = load_hero(tx, name)?;
            // Journaled as the sheet names them.
            let remove = remove
                .iter()
                .map(|r| before.gear_piece(r).map(str::to_owned))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| crate::ClassicRefusal::Gear.at("gear", e.to_string()))?;
            let mut after = before.clone();
            after
                .change_gear(&add, &remove)
                .map_err(|e| crate::ClassicRefusal::Gear.at("gear", e.to_string()))?;
            check_hero(&after)?;
            let change = ClassicChange::Gear {
                before: before.clone(),
                added: add.clone(),
                removed: remove.clone(),
                after: after.clone(),
            };
            Self::sheet_changed(tx, &at, &before.name, after, change)
        })
    }

    /// Writes `after` over the hero `name`'s sheet and journals `change`, in `tx`: a change
    /// by hand (gear, notes), with no dice.
    fn sheet_changed(
        tx: &mut dyn WriteTx,
        at: &Timestamp,
        name: &str,
        after: Hero,
        change: ClassicChange,
    ) -> Result<HeroChangeView, AppError> {
        let stored = tx.update_sheet(SYSTEM, name, &sheet_row(SYSTEM, &after.name, &after)?)?;
        let seq = Self::classic_record(tx, at, name, change)?;
        let in_fight = open_fight(tx, &after.name)?.is_some();
        Ok(HeroChangeView {
            seq,
            rolled: None,
            healed: None,
            creation: None,
            sheet: hero_view(after, stored.version, in_fight),
        })
    }

    /// Writes a hero's notes anew (at most [`MAX_NOTES`] characters; empty clears them),
    /// journaled with the sheet before. Refused when they are the notes the sheet has.
    pub fn edit_classic_notes(
        &mut self,
        name: &str,
        notes: &str,
    ) -> Result<HeroChangeView, AppError> {
        notes_text("notes", notes, MAX_NOTES)?;
        let at = self.now();
        self.transact(|tx| {
            let (before, _) = load_hero(tx, name)?;
            if before.notes == notes {
                return Err(crate::ExpandedRefusal::EditChangesNothing
                    .at("notes", "these are the notes the sheet has"));
            }
            let after = Hero {
                notes: notes.to_owned(),
                ..before.clone()
            };
            let change = ClassicChange::Notes {
                before: before.clone(),
                after: after.clone(),
            };
            Self::sheet_changed(tx, &at, &before.name, after, change)
        })
    }

    /// Rolls a check from a hero's sheet (C1): the stat's dice, one more for a cliché of the
    /// sheet, against a difficulty (or one rolled on a d6 first). `gear`: a piece the hero
    /// carries (named; `""`: the only one carried) rerolls the lowest die once when failing.
    pub fn check_classic_hero(
        &mut self,
        name: &str,
        stat: Stat,
        cliche: Option<&str>,
        difficulty: Option<crate::classic_once::ClassicDifficulty>,
        gear: Option<&str>,
        dice: Dice,
    ) -> Result<HeroCheckView, AppError> {
        let difficulty = difficulty.map(crate::classic_once::ClassicDifficulty::get);
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let (hero, _) = load_hero(tx, name)?;
            let pool = hero_pool(&hero, stat, cliche)
                .map_err(|e| crate::ClassicRefusal::Cliche.at("cliche", e.to_string()))?;
            let gear_name = gear
                .map(|g| hero.gear_piece(g).map(str::to_owned))
                .transpose()
                .map_err(|e| crate::ClassicRefusal::Gear.at("gear", e.to_string()))?;
            let gear = gear_name.is_some();
            let inputs = CheckInputs {
                stat,
                stat_value: hero.stat(stat),
                cliche: cliche.and_then(|c| hero.cliche(c).ok()).map(str::to_owned),
                pool,
                difficulty,
                gear,
                gear_name,
            };
            let (check, rolled) =
                crate::journaling::roll(dice.clone(), |d| check_rule(&inputs, d))?;
            let seq = Self::classic_record(
                tx,
                &at,
                &hero.name,
                ClassicChange::Check {
                    inputs: inputs.clone(),
                    rolled: rolled.clone(),
                    check: check.clone(),
                },
            )?;
            Ok(HeroCheckView {
                seq,
                name: hero.name.clone(),
                difficulty_name: difficulty_name(check.difficulty),
                p_pass: solum_dice::prob_to_f64(&p_pass(pool, check.difficulty, gear)),
                inputs,
                rolled,
                check,
            })
        })
    }

    /// Starts a fight of a campaign hero against `setup.foes` and runs it until it ends or
    /// a hit waits for the player's answer (when `setup.policy` is `None`); with typed dice,
    /// until those faces are used at the end of an exchange. The fight is kept in the
    /// campaign; at its end the hero's Body and hit points are written to the sheet.
    /// A fight as a front end asks for it: foes named start one (book entries, 1 to
    /// [`solum_classic::fight::MAX_FOES`]); none go on with the fight under way, with the
    /// answer to a hit that waits. A setup without foes, or an answer with them, is refused.
    pub fn play_classic_fight(
        &mut self,
        name: &str,
        request: &FightRequest,
        dice: Dice,
    ) -> Result<FightView, AppError> {
        let r = request;
        if r.foes.is_empty() {
            if r.stat.is_some()
                || r.foe_stat.is_some()
                || r.cliche
                || r.foe_cliche
                || r.policy.is_some()
                || r.foe_policy.is_some()
            {
                return Err(crate::ClassicRefusal::Foes.at(
                    "foes",
                    "none named: the fight under way goes on with the setup it began with",
                ));
            }
            return self.continue_classic_fight(name, r.decide, dice);
        }
        if r.decide.is_some() {
            return Err(
                crate::ClassicRefusal::Decide.at("decide", "a new fight has no hit to answer")
            );
        }
        let setup = setup_of(r)?;
        self.start_classic_fight(name, &setup, dice)
    }

    pub fn start_classic_fight(
        &mut self,
        name: &str,
        setup: &FightSetup,
        dice: Dice,
    ) -> Result<FightView, AppError> {
        for f in &setup.foes {
            check_foe(&f.0)?;
        }
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let (hero, _) = load_hero(tx, name)?;
            if open_fight(tx, &hero.name)?.is_some() {
                return Err(crate::ClassicRefusal::InFight.at(
                    "fight",
                    format!(
                        "{} is already in a fight: name no foes to go on with it (deciding body or hit point for a pending hit), or abandon it",
                        hero.name
                    ),
                ));
            }
            let stored = StoredFight {
                hero: StoredHero(hero.clone()),
                setup: setup.clone(),
                segments: Vec::new(),
            };
            let fight = build_fight(&stored)?;
            let p = p_win(&fight);
            Self::fight_call(tx, &at, stored, fight, (None, false), dice.clone(), p)
        })
    }

    /// Goes on with a hero's fight: answers the pending hit with `decision`, then rolls on
    /// as [`Campaign::start_classic_fight`] does. Any process may take this call.
    pub fn continue_classic_fight(
        &mut self,
        name: &str,
        decision: Option<Loss>,
        dice: Dice,
    ) -> Result<FightView, AppError> {
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let (hero, _) = load_hero(tx, name)?;
            let stored = open_fight(tx, &hero.name)?.ok_or_else(|| {
                crate::ClassicRefusal::NotInFight.at(
                    "fight",
                    format!("{} is not in a fight: name the foes to start one", hero.name),
                )
            })?;
            let (fight, _) = replay_fight(&stored)?;
            match (fight.pending(), decision) {
                (Some(d), None) => {
                    return Err(crate::ClassicRefusal::Decide.at(
                        "decide",
                        format!(
                            "{} is hit (Body {}, hit points {}): decide whether the hit costs body or a hit point",
                            hero.name, d.body, d.hit_points
                        ),
                    ));
                }
                (None, Some(_)) => {
                    return Err(crate::ClassicRefusal::Decide.at(
                        "decide",
                        "no hit waits for an answer: the fight goes on with more dice",
                    ));
                }
                _ => {}
            }
            let p = {
                let first = build_fight(&stored)?;
                p_win(&first)
            };
            Self::fight_call(tx, &at, stored, fight, (decision, false), dice.clone(), p)
        })
    }

    /// Abandons a hero's fight: the hero flees where the fight stands (no further damage,
    /// the foes live on), the wounds taken so far go to the sheet, and the hero may rest and
    /// fight again. A hit waiting for its answer is answered first (`decision`).
    pub fn abandon_classic_fight(
        &mut self,
        name: &str,
        decision: Option<Loss>,
    ) -> Result<FightView, AppError> {
        let at = self.now();
        self.transact(|tx| {
            let (hero, _) = load_hero(tx, name)?;
            let stored = open_fight(tx, &hero.name)?
                .ok_or_else(|| crate::ClassicRefusal::NotInFight.at("fight", format!("{} is not in a fight", hero.name)))?;
            let (fight, _) = replay_fight(&stored)?;
            match (fight.pending(), decision) {
                (Some(d), None) => {
                    return Err(crate::ClassicRefusal::Decide.at(
                        "decide",
                        format!(
                            "{} is hit (Body {}, hit points {}): the blow has landed; decide whether it costs body or a hit point, then flee",
                            hero.name, d.body, d.hit_points
                        ),
                    ));
                }
                (None, Some(_)) => {
                    return Err(crate::ClassicRefusal::Decide.at("decide", "no hit waits for an answer"));
                }
                _ => {}
            }
            let p = p_win(&build_fight(&stored)?);
            Self::fight_call(
                tx,
                &at,
                stored,
                fight,
                (decision, true),
                Dice::Typed(Vec::new()),
                p,
            )
        })
    }

    /// The fight a request would start, before its first exchange: the dice each side rolls,
    /// the exact odds of that exchange and, against one foe, of the whole duel. Nothing is
    /// rolled or journaled; a hero already in a fight, a dead hero or a foe not in the book is
    /// refused as starting the fight would be.
    pub fn preview_classic_fight(
        &self,
        name: &str,
        request: &FightRequest,
    ) -> Result<FightStateView, AppError> {
        if request.decide.is_some() {
            return Err(
                crate::ClassicRefusal::Decide.at("decide", "a new fight has no hit to answer")
            );
        }
        self.preview_classic_setup(name, setup_of(request)?)
    }

    /// The fight a setup would start (foes given whole, as a hero file holds them), before
    /// its first exchange: as [`Campaign::preview_classic_fight`].
    pub fn preview_classic_setup(
        &self,
        name: &str,
        setup: FightSetup,
    ) -> Result<FightStateView, AppError> {
        for f in &setup.foes {
            check_foe(&f.0)?;
        }
        let view = self.classic_hero(name)?;
        if view.in_fight {
            return Err(crate::ClassicRefusal::InFight.at(
                "fight",
                format!(
                    "{} is already in a fight: go on with it or abandon it",
                    view.hero.name
                ),
            ));
        }
        let stored = StoredFight {
            hero: StoredHero(view.hero),
            setup,
            segments: Vec::new(),
        };
        let fight = build_fight(&stored)?;
        let mut dice = vec![fight.hero().side.dice()];
        dice.extend(fight.foes().iter().map(|f| f.side.dice()));
        Ok(FightStateView {
            hero: stored.hero.0.name.clone(),
            foes: stored.setup.foes.iter().map(|f| f.0.name.clone()).collect(),
            dice,
            p_win: p_win(&fight),
            next: fight.next_exchange(),
            calls: 0,
            status: FightStatus::of(&fight),
        })
    }

    /// A hero's fight under way, as the front ends answer it (`{"fight": null}` when the
    /// hero is not in a fight).
    pub fn classic_fight_answer(&self, name: &str) -> Result<ClassicFightStatus, AppError> {
        Ok(ClassicFightStatus {
            fight: self.classic_fight(name)?,
        })
    }

    /// A hero's fight under way, as it stands (nothing is journaled); `None` when the hero
    /// is not in a fight.
    pub fn classic_fight(&self, name: &str) -> Result<Option<FightStateView>, AppError> {
        let sheet = self
            .store
            .sheet(SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        let Some(row) = self.store.sheet(FIGHT_SYSTEM, &sheet.name)? else {
            return Ok(None);
        };
        let Some(stored) = read_row::<FightRow>(&row)?.fight else {
            return Ok(None);
        };
        let (fight, _) = replay_fight(&stored)?;
        let mut dice = vec![fight.hero().side.dice()];
        dice.extend(fight.foes().iter().map(|f| f.side.dice()));
        Ok(Some(FightStateView {
            hero: stored.hero.0.name.clone(),
            foes: stored.setup.foes.iter().map(|f| f.0.name.clone()).collect(),
            dice,
            p_win: p_win(&build_fight(&stored)?),
            next: fight.next_exchange(),
            calls: stored.segments.len(),
            status: FightStatus::of(&fight),
        }))
    }

    /// One call of a fight inside a transaction: rolls it, keeps it, writes the wounds back
    /// at the end, and journals the fight so far.
    fn fight_call(
        tx: &mut dyn WriteTx,
        at: &Timestamp,
        mut stored: StoredFight,
        mut fight: ClassicFight,
        (decision, abandon): (Option<Loss>, bool),
        dice: Dice,
        p_win: Option<f64>,
    ) -> Result<FightView, AppError> {
        let name = stored.hero.0.name.clone();
        if !abandon && stored.segments.len() >= MAX_FIGHT_CALLS {
            return Err(crate::ClassicRefusal::FightTooLong.at(
                "fight",
                format!(
                    "{name}'s fight has had {} calls, the most one fight keeps: abandon it",
                    stored.segments.len()
                ),
            ));
        }
        let limit = match &dice {
            Dice::Typed(f) => Some(f.len()),
            _ => None,
        };
        let (events, rolled) = crate::journaling::roll(dice, |d| {
            run_segment(&mut fight, decision, abandon, limit, d)
        })?;
        let events = events?;
        stored.segments.push(Segment {
            decision,
            abandon,
            rolled: rolled.clone(),
        });
        let status = FightStatus::of(&fight);
        let (mut sheet_before, mut sheet_after) = (None, None);
        if status.over {
            let (before, _) = load_hero(tx, &name)?;
            let mut after = before.clone();
            after.set_wounds(status.hero[0], status.hero[1]);
            tx.update_sheet(SYSTEM, &name, &sheet_row(SYSTEM, &after.name, &after)?)?;
            sheet_before = Some(StoredHero(before));
            sheet_after = Some(StoredHero(after));
        }
        let row = FightRow {
            fight: (!status.over).then(|| stored.clone()),
        };
        let row_sheet = sheet_row(FIGHT_SYSTEM, &name, &row)?;
        // The fight belongs to whoever plays the hero, whoever started it (a game master
        // starts a fight a player goes on with).
        if tx.sheet(FIGHT_SYSTEM, &name)?.is_some() {
            tx.share_owner(FIGHT_SYSTEM, &name, SYSTEM)?;
            tx.update_sheet(FIGHT_SYSTEM, &name, &row_sheet)?;
        } else {
            tx.insert_sheet(&row_sheet)?;
        }
        tx.share_owner(FIGHT_SYSTEM, &name, SYSTEM)?;
        let record = FightRecord {
            fight: stored.clone(),
            status: status.clone(),
            sheet_before,
            sheet_after: sheet_after.clone(),
        };
        // A fight is kept whole in its row and in each record, within the store's entry
        // limit. A call that would leave no room for the record of abandoning it (the fight,
        // one more call, the sheet before and after) is refused: a fight never gets stuck.
        if !abandon {
            let need = json_len(&record)
                .saturating_add(json_len(&stored.hero).saturating_mul(2))
                .saturating_add(ABANDON_ROOM);
            if need > solum_store::MAX_ENTRY_BYTES {
                return Err(crate::ClassicRefusal::FightTooLong.at(
                    "fight",
                    format!(
                        "{name}'s fight has grown to the most one fight keeps ({} calls): abandon it",
                        stored.segments.len() - 1
                    ),
                ));
            }
        }
        let seq = Self::classic_record(tx, at, &name, ClassicChange::Fight(Box::new(record)))?;
        let mut dice_now = vec![fight.hero().side.dice()];
        dice_now.extend(fight.foes().iter().map(|f| f.side.dice()));
        Ok(FightView {
            seq,
            hero: name,
            foes: stored.setup.foes.iter().map(|f| f.0.name.clone()).collect(),
            dice: dice_now,
            p_win,
            next: fight.next_exchange(),
            events,
            rolled,
            status,
            sheet: sheet_after.map(|s| s.0),
        })
    }
}
