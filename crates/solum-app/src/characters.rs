//! So1um Expanded characters in the campaign: creation, edits, advancement, rest, checks
//! rolled from a sheet, import and export of the TOML sheet.
//!
//! Every change reads the sheet, applies the rule, checks the result, and stores the new
//! sheet and its journal entry in one [`CampaignStore::write`] transaction: many processes
//! changing one character at once serialize, and a change that fails stores nothing. Each
//! journal entry keeps the sheet before, the inputs and every die, so that `journal verify`
//! re-derives it.

use crate::check_once::CombatPool;
use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, RecordingDice, SeededDice, SharedDice, TypedDice};
pub use solum_expanded::character::AdvanceGoal;
use solum_expanded::character::{
    self, AdvanceError, Armor, Attribute, CHARACTER_SCHEMA, Character, CharacterError,
    CreationChoices, CreationError, Gear, GearEffect, Weapon,
};
pub use solum_expanded::check::GearDie;
use solum_expanded::check::{CheckSpec, DrawRule, OpposedSpec, PoolRoll, Side, Verdict};
use solum_expanded::{Difficulty, Pool, odds};
use solum_store::{CampaignStore, Sheet, WriteTx};

use crate::bounded::bounded;
use crate::journaling;
use crate::rolled::Rolled;
use crate::rolled::faces;
use crate::{AppError, Campaign, Dice, Divergence};

/// The system name sheets of So1um Expanded are stored under.
pub const SYSTEM: &str = "expanded";
/// The schema version of the character records this build writes.
pub const CHARACTER_RECORD_SCHEMA: i64 = 1;
/// The longest name (of a character, background, weapon, armor or gear), in characters.
pub const MAX_NAME: usize = 100;
/// The longest notes on a sheet, in characters: a journal entry keeps the sheet before and
/// after a change, and an entry holds at most 64 KiB.
pub const MAX_SHEET_NOTES: usize = 4_000;
/// The most weapons or pieces of gear one sheet lists (backgrounds: the rules crate's
/// `MAX_BACKGROUNDS`, named and unnamed).
pub const MAX_LIST: usize = 20;
/// The largest sheet, as stored (JSON bytes): an edit's journal entry keeps the sheet
/// before and after within the store's 64 KiB, so a sheet at the limit can still change.
pub const MAX_SHEET_BYTES: usize = 16 * 1024;
/// The longest rest, in hours (as the command line takes it).
pub const MAX_REST_HOURS: f64 = 10_000.0;

impl From<CharacterError> for AppError {
    fn from(e: CharacterError) -> Self {
        crate::ExpandedRefusal::Rules.at(e.field, e.problem)
    }
}

bounded! {
    /// An attribute as a hero starts it (S9), 1 to
    /// [`MAX_STARTING_ATTRIBUTE`](solum_expanded::character::MAX_STARTING_ATTRIBUTE): typed
    /// at the edge; that the three are 3, 2 and 1, one each, is the rules' check at creation.
    pub struct StartingAttribute(u32) in 1, solum_expanded::character::MAX_STARTING_ATTRIBUTE;
    "Body, Mind and Charm start at {min} to {max}: 3, 2 and 1, one each"
}

/// What a player chooses at creation (S9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewCharacter {
    /// The hero's name.
    #[cfg_attr(feature = "openapi", schema(max_length = 100, pattern = "@name"))]
    pub name: String,
    /// Body, Mind, Charm: 3, 2 and 1 in some order.
    pub body: StartingAttribute,
    /// See `body`.
    pub mind: StartingAttribute,
    /// See `body`.
    pub charm: StartingAttribute,
    /// The starting background first, then names for the extra ones the 2d6 grant.
    pub backgrounds: Vec<String>,
    /// The starting light weapon.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::weapon))]
    pub weapon: Weapon,
    /// What the light armor is, if the d6 grants it.
    pub armor_name: String,
}

impl NewCharacter {
    fn choices(&self) -> CreationChoices {
        CreationChoices {
            name: self.name.trim().to_owned(),
            body: self.body.get(),
            mind: self.mind.get(),
            charm: self.charm.get(),
            backgrounds: self
                .backgrounds
                .iter()
                .map(|b| b.trim().to_owned())
                .collect(),
            weapon: self.weapon.clone(),
            armor_name: self.armor_name.trim().to_owned(),
        }
    }
}

/// Armor put on or taken off by an edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArmorChange {
    /// Wear this armor (replacing any worn).
    Wear(Armor),
    /// Take armor off.
    TakeOff,
}

/// The changes the command line's `character edit` offers, applied in this order: attributes,
/// backgrounds, weapons, armor, gear, money, notes, damage, heal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CharacterEdit {
    /// Set attributes; hit points follow the change of the maximum.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::attribute_settings))]
    pub set: Vec<(Attribute, u32)>,
    /// Backgrounds to add (each names one of the unnamed ones first).
    pub add_backgrounds: Vec<String>,
    /// Backgrounds to remove, by name (any case).
    pub remove_backgrounds: Vec<String>,
    /// Weapons to add.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::weapons))]
    pub add_weapons: Vec<Weapon>,
    /// Weapons to remove, by name (any case; every one of that name).
    pub remove_weapons: Vec<String>,
    /// Armor on or off; its hit points come and go with it.
    #[cfg_attr(feature = "openapi", schema(schema_with = armor_change))]
    pub armor: Option<ArmorChange>,
    /// Gear to add.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::gears))]
    pub add_gear: Vec<Gear>,
    /// Gear to remove, by name (any case).
    pub remove_gear: Vec<String>,
    /// New money.
    pub money: Option<u32>,
    /// New notes.
    pub notes: Option<String>,
    /// Damage taken (never below 0 hit points).
    pub damage: Option<u32>,
    /// Healing by other means (never above the maximum).
    pub heal: Option<u32>,
    /// A GM correction (S17): attributes and backgrounds change only by creation and
    /// advancement, so an edit of them outside those must say it is a correction, and only
    /// the game master (the command line's owner, or the GM at a table) may make one. The
    /// journal and the story mark it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub correction: bool,
}

impl CharacterEdit {
    /// Whether the edit changes attributes or backgrounds beyond naming the backgrounds won
    /// at creation (`unnamed`): what only creation, advancement or a GM correction may do.
    pub fn changes_what_only_advancement_changes(&self, unnamed: u32) -> Option<&'static str> {
        if !self.set.is_empty() {
            Some("set")
        } else if !self.remove_backgrounds.is_empty() {
            Some("remove_backgrounds")
        } else if self.add_backgrounds.len() > unnamed as usize {
            Some("add_backgrounds")
        } else {
            None
        }
    }

    /// Applies the edit to `hero`, then checks the result against the rules and the limits;
    /// with damage or healing, what they did to its hit points.
    pub fn apply(&self, hero: &mut Character) -> Result<Option<HitPointChange>, AppError> {
        let start = hero.hit_points;
        let attributes: Vec<String> = self.set.iter().map(|(a, _)| format!("{a:?}")).collect();
        crate::refuse_contradictions(
            ("set", "set"),
            true,
            attributes.iter().map(String::as_str),
            [],
        )?;
        crate::refuse_contradictions(
            ("add_backgrounds", "remove_backgrounds"),
            true,
            self.add_backgrounds.iter().map(String::as_str),
            self.remove_backgrounds.iter().map(String::as_str),
        )?;
        crate::refuse_contradictions(
            ("add_weapons", "remove_weapons"),
            false,
            self.add_weapons.iter().map(|w| w.name.as_str()),
            self.remove_weapons.iter().map(String::as_str),
        )?;
        crate::refuse_contradictions(
            ("add_gear", "remove_gear"),
            false,
            self.add_gear.iter().map(|g| g.name.as_str()),
            self.remove_gear.iter().map(String::as_str),
        )?;
        // Hit points follow the maximum: the rule is the rules crate's (`set_attribute`,
        // `set_armor`), not repeated here.
        for &(attribute, value) in &self.set {
            hero.set_attribute(attribute, value);
        }
        for b in &self.add_backgrounds {
            let b = name_text("add_backgrounds", b)?;
            if hero.backgrounds.iter().any(|x| x.eq_ignore_ascii_case(&b)) {
                return Err(crate::ExpandedRefusal::AlreadyHas.at(
                    "add_backgrounds",
                    format!("{} already has the background `{b}`", hero.name),
                ));
            }
            hero.backgrounds.push(b);
            hero.unnamed_backgrounds = hero.unnamed_backgrounds.saturating_sub(1);
        }
        for b in &self.remove_backgrounds {
            let before = hero.backgrounds.len();
            hero.backgrounds
                .retain(|x| !x.eq_ignore_ascii_case(b.trim()));
            if hero.backgrounds.len() == before {
                return Err(crate::ExpandedRefusal::HasNo.at(
                    "remove_backgrounds",
                    format!("{} has no background `{}`", hero.name, b.trim()),
                ));
            }
        }
        for w in &self.add_weapons {
            // A weapon is named in commands (remove, attack with), so its name must say which.
            let name = name_text("add_weapons", &w.name)?;
            if hero
                .weapons
                .iter()
                .any(|x| x.name.eq_ignore_ascii_case(&name))
            {
                return Err(crate::ExpandedRefusal::AlreadyHas.at(
                    "add_weapons",
                    format!("{} already carries a `{name}`", hero.name),
                ));
            }
            hero.weapons.push(Weapon { name, ..w.clone() });
        }
        for w in &self.remove_weapons {
            let before = hero.weapons.len();
            hero.weapons
                .retain(|x| !x.name.eq_ignore_ascii_case(w.trim()));
            if hero.weapons.len() == before {
                return Err(crate::ExpandedRefusal::HasNo.at(
                    "remove_weapons",
                    format!("{} carries no `{}`", hero.name, w.trim()),
                ));
            }
        }
        // Armor points come and go with the armor.
        match &self.armor {
            Some(ArmorChange::Wear(a)) => hero.set_armor(Some(a.clone())),
            Some(ArmorChange::TakeOff) => hero.set_armor(None),
            None => {}
        }
        for g in &self.add_gear {
            let name = name_text("add_gear", &g.name)?;
            if hero.gear.iter().any(|x| x.name.eq_ignore_ascii_case(&name)) {
                return Err(crate::ExpandedRefusal::AlreadyHas
                    .at("add_gear", format!("{} already has a `{name}`", hero.name)));
            }
            hero.gear.push(Gear { name, ..g.clone() });
        }
        for g in &self.remove_gear {
            let before = hero.gear.len();
            hero.gear.retain(|x| !x.name.eq_ignore_ascii_case(g.trim()));
            if hero.gear.len() == before {
                return Err(crate::ExpandedRefusal::HasNo.at(
                    "remove_gear",
                    format!("{} has no `{}`", hero.name, g.trim()),
                ));
            }
        }
        if let Some(m) = self.money {
            hero.money = m;
        }
        if let Some(n) = &self.notes {
            hero.notes = n.clone();
        }
        let taken = self.damage.map(|d| hero.take_damage(d));
        let healed = self.heal.map(|h| hero.heal(h));
        check_sheet(hero)?;
        if taken.is_none() && healed.is_none() {
            return Ok(None);
        }
        Ok(Some(HitPointChange {
            before: start,
            after: hero.hit_points,
            held: taken.is_some_and(|t| Some(t) != self.damage)
                || healed.is_some_and(|h| Some(h) != self.heal),
            damage_taken: taken,
            healed,
            max: hero.max_hit_points(),
        }))
    }
}

/// A name field: trimmed, not empty, at most [`MAX_NAME`] characters, and the one name rule
/// ([`crate::name_problem`]), shared by every system's use cases.
pub(crate) fn name_text(field: &str, raw: &str) -> Result<String, AppError> {
    let t = raw.trim();
    if t.is_empty() {
        return Err(crate::ExpandedRefusal::SheetLimit.at(field, "needs words"));
    }
    let len = t.chars().count();
    if len > MAX_NAME {
        return Err(crate::ExpandedRefusal::SheetLimit.at(
            field,
            format!(
                "`{}…` is {len} characters long; the limit is {MAX_NAME}",
                t.chars().take(20).collect::<String>()
            ),
        ));
    }
    // Judged before Unicode's trim, which would drop a no-break space at an edge silently.
    if let Some(problem) = crate::name_problem(raw.trim_matches(|c: char| c.is_ascii_whitespace()))
    {
        return Err(crate::ExpandedRefusal::SheetLimit.at(field, problem));
    }
    Ok(t.to_owned())
}

/// The rules ([`Character::validate`]) and the campaign's limits on a sheet.
pub fn check_sheet(hero: &Character) -> Result<(), AppError> {
    hero.validate()?;
    name_text("name", &hero.name)?;
    for (field, len) in [("weapons", hero.weapons.len()), ("gear", hero.gear.len())] {
        if len > MAX_LIST {
            return Err(crate::ExpandedRefusal::SheetLimit
                .at(field, format!("{len} listed; the limit is {MAX_LIST}")));
        }
    }
    for (i, b) in hero.backgrounds.iter().enumerate() {
        name_text(&format!("backgrounds[{i}]"), b)?;
    }
    for (i, w) in hero.weapons.iter().enumerate() {
        name_text(&format!("weapons[{i}].name"), &w.name)?;
    }
    for (i, g) in hero.gear.iter().enumerate() {
        name_text(&format!("gear[{i}].name"), &g.name)?;
    }
    if let Some(a) = &hero.armor {
        name_text("armor.name", &a.name)?;
    }
    if hero.unnamed_backgrounds as usize > MAX_LIST {
        return Err(crate::ExpandedRefusal::SheetLimit.at(
            "unnamed_backgrounds",
            format!("{}; the limit is {MAX_LIST}", hero.unnamed_backgrounds),
        ));
    }
    let notes = hero.notes.chars().count();
    if notes > MAX_SHEET_NOTES {
        return Err(crate::ExpandedRefusal::SheetLimit.at(
            "notes",
            format!("{notes} characters long; the limit is {MAX_SHEET_NOTES}"),
        ));
    }
    if hero
        .notes
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(crate::ExpandedRefusal::SheetLimit.at("notes", "holds a control character"));
    }
    let bytes = serde_json::to_vec(hero)
        .map_err(|e| crate::AppError::internal("sheet", e.to_string()))?
        .len();
    if bytes > MAX_SHEET_BYTES {
        return Err(crate::ExpandedRefusal::SheetLimit.at(
            "sheet",
            format!("{bytes} bytes as stored; the limit is {MAX_SHEET_BYTES}"),
        ));
    }
    Ok(())
}

/// What a check is rolled against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Against {
    /// An unopposed check: the difficulty, 1 (automatic) to [`solum_expanded::MAX_DIFFICULTY`].
    Difficulty(Difficulty),
    /// An opposed check against a pool; draws stand (S3).
    Opposed {
        /// The opposition's dice, 1 to [`solum_expanded::MAX_POOL`].
        dice: CombatPool,
        /// The opposition has useful gear (one reroll).
        gear: bool,
    },
}

/// The order a character's creation draws the dice typed for it (S9).
pub const CREATION_TYPED_ORDER: &str = "values go: 2d6 for backgrounds, then 1d6 for armor";

/// The order an advancement attempt (S17) draws the dice typed for it.
pub fn advance_typed_order(goal: &AdvanceGoal) -> String {
    match goal {
        AdvanceGoal::Background(_) => "values go: one d6".to_owned(),
        AdvanceGoal::Attribute(a) => format!("values go: one d6 per point of {}", a.name()),
    }
}

impl Against {
    /// The order a check against this draws the dice typed for it.
    pub fn typed_order(&self) -> &'static str {
        match self {
            Self::Difficulty(_) => {
                "values go: the pool, then the gear reroll if it is used, then one per die of the Rule-of-6 chain (only above 6)"
            }
            Self::Opposed { .. } => {
                "values go: every die of both sides in the order the roll draws them: your pool, then the opposition's, then gear rerolls and Rule-of-6 chain dice when they can matter, then roll-off pairs (yours, theirs) while a draw is rolled off"
            }
        }
    }
}

/// A check rolled from a sheet: what the player names; the rest comes from the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CharacterCheck {
    /// The attribute rolled.
    pub attribute: Attribute,
    /// A background of the sheet that applies (+1 die).
    pub background: Option<String>,
    /// A weapon of the sheet attacked with (a heavy one with Body below 3 costs a die).
    pub weapon: Option<String>,
    /// A piece of gear of the sheet that helps (a reroll piece rerolls one die once).
    pub gear: Option<String>,
    /// Which die the gear rerolls (S1): the best choice (the default), none, or the die at a
    /// position of the pool as rolled (1 is the first).
    #[serde(default, skip_serializing_if = "is_best")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::gear_die))]
    pub gear_die: GearDie,
    /// The difficulty, or the opposing pool.
    #[cfg_attr(feature = "openapi", schema(schema_with = against))]
    pub against: Against,
    /// Roll off draws of this opposed check (S3, S14) even where the campaign's setting lets
    /// them stand (only the game master may ask; the setting applies to every check anyway).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub roll_off: bool,
}

fn is_best(g: &GearDie) -> bool {
    *g == GearDie::Best
}

/// One side's dice for the story: the pool, the gear's reroll, the Rule-of-6 chain, and the
/// result when they do not show it plainly.
fn pool_text(pool: u32, f: &PoolFaces) -> String {
    let mut text = format!("{pool} dice: {}", faces(&f.dice));
    if let Some([at, from, to]) = f.reroll {
        text.push_str(&format!(", die {at} rerolled {from}→{to}"));
    }
    if !f.chain.is_empty() {
        text.push_str(&format!(", Rule of 6: {}", faces(&f.chain)));
    }
    text.push_str(&format!("; result {}", f.result));
    text
}

/// Everything a check was built from, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckInputs {
    /// The request.
    pub check: CharacterCheck,
    /// The attribute's value on the sheet.
    pub attribute_value: u32,
    /// The worn armor is too heavy for the Body (−1 die).
    pub armor_too_heavy: bool,
    /// The weapon is heavy and the Body below 3 (−1 die).
    pub heavy_weapon_weak: bool,
    /// The gear named rerolls (an "enables" piece does not).
    pub gear_reroll: bool,
    /// The pool rolled.
    pub pool: u32,
    /// Draws of an opposed check are rolled off (S3, S14): the campaign's setting, or the
    /// check's own request.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub roll_off: bool,
}

impl CheckInputs {
    /// The dice the pool lost (S1), each a rules' fact with its reason.
    pub fn penalties(&self) -> impl Iterator<Item = solum_expanded::Penalty> + use<> {
        solum_expanded::PoolSpec {
            armor_too_heavy: self.armor_too_heavy,
            heavy_weapon_weak: self.heavy_weapon_weak,
            ..solum_expanded::PoolSpec::default()
        }
        .penalties()
    }
}

/// The dice of one side of a check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PoolFaces {
    /// The pool as rolled.
    pub dice: Vec<u32>,
    /// The gear reroll: `[position, from, to]`.
    pub reroll: Option<[u32; 3]>,
    /// The Rule-of-6 chain.
    pub chain: Vec<u32>,
    /// The result.
    pub result: u32,
}

impl PoolFaces {
    fn of(roll: &PoolRoll) -> Self {
        Self {
            dice: roll.dice.to_vec(),
            reroll: roll.reroll.map(|r| [r.index as u32, r.from, r.to]),
            chain: roll.chain.clone(),
            result: roll.result,
        }
    }
}

/// What a check gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckResult {
    /// The character's dice (none for an automatic check).
    pub own: Option<PoolFaces>,
    /// The opposition's dice, in an opposed check.
    pub opposition: Option<PoolFaces>,
    /// `win`, `draw` or `lose` in an opposed check.
    pub verdict: Option<String>,
    /// Passed (unopposed) or won (opposed).
    pub passed: bool,
    /// Roll-off dice `[own, opposition]` after a draw, when draws are rolled off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roll_off: Vec<[u32; 2]>,
}

/// A change to a character, with what re-derives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CharacterChange {
    /// Created by the rules (S9).
    Created {
        /// The choices.
        choices: NewCharacter,
        /// The 2d6 for backgrounds and the d6 for armor.
        rolled: Rolled,
        /// The sheet made.
        sheet: Character,
    },
    /// Edited.
    Edited {
        /// The sheet before.
        before: Character,
        /// The edit.
        edit: CharacterEdit,
        /// The sheet after.
        after: Character,
    },
    /// An advancement tried.
    Advanced {
        /// The sheet before.
        before: Character,
        /// What was tried.
        goal: AdvanceGoal,
        /// The dice.
        rolled: Rolled,
        /// Whether it worked.
        success: bool,
        /// The sheet after.
        after: Character,
        /// The attempt spent an advancement point (S17; false only in entries written
        /// before points existed).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        spent_point: bool,
    },
    /// An advancement point granted (S17), by the GM or the solo player.
    PointGranted {
        /// The sheet before.
        before: Character,
        /// The sheet after: one more unspent point.
        after: Character,
    },
    /// Rested.
    Rested {
        /// The sheet before.
        before: Character,
        /// Minutes of rest (S16: banked on the sheet toward the next half hour); absent in
        /// entries written before rest was banked, which rested whole half hours.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minutes: Option<u32>,
        /// Whole half hours of rest (with `minutes`: only informative).
        half_hours: u32,
        /// Hit points healed.
        healed: u32,
        /// The sheet after.
        after: Character,
    },
    /// Imported from a TOML sheet.
    Imported {
        /// The sheet.
        sheet: Character,
    },
    /// A check rolled from the sheet.
    Check {
        /// What it was built from.
        inputs: CheckInputs,
        /// The dice.
        rolled: Rolled,
        /// What it gave.
        result: CheckResult,
    },
}

/// A journal entry about a character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterRecord {
    /// [`CHARACTER_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The character.
    pub name: String,
    /// What happened.
    pub change: CharacterChange,
}

impl CharacterRecord {
    fn new(name: &str, change: CharacterChange) -> Self {
        Self {
            schema: CHARACTER_RECORD_SCHEMA,
            name: name.to_owned(),
            change,
        }
    }

    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        matches!(
            self.change,
            CharacterChange::Created { .. }
                | CharacterChange::Advanced { .. }
                | CharacterChange::Check { .. }
        )
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > CHARACTER_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a character record's",
                found: self.schema,
                known: CHARACTER_RECORD_SCHEMA,
            }
            .into());
        }
        name_text("name", &self.name)?;
        match &self.change {
            CharacterChange::Created { sheet, .. } | CharacterChange::Imported { sheet } => {
                check_sheet(sheet)
            }
            CharacterChange::Edited { before, after, .. }
            | CharacterChange::Advanced { before, after, .. }
            | CharacterChange::PointGranted { before, after }
            | CharacterChange::Rested { before, after, .. } => {
                check_sheet(before)?;
                check_sheet(after)
            }
            CharacterChange::Check { .. } => Ok(()),
        }
    }

    /// One line for the story (Markdown export).
    pub fn summary(&self) -> String {
        let n = &self.name;
        match &self.change {
            CharacterChange::Created { sheet, rolled, .. } => format!(
                "{n} is created: body {}, mind {}, charm {}, {} hit points (dice {})",
                sheet.body,
                sheet.mind,
                sheet.charm,
                sheet.hit_points,
                faces(&rolled.faces)
            ),
            CharacterChange::Edited {
                before,
                edit,
                after,
            } => {
                // What the edit changed, so the feed and the story say what was done.
                let mut changes = sheet_changes(before, after);
                if changes.is_empty() {
                    changes.push(format!(
                        "{}/{} hit points",
                        after.hit_points,
                        after.max_hit_points()
                    ));
                }
                if edit.correction {
                    format!("GM correction of {n}'s sheet: {}", changes.join(", "))
                } else {
                    format!("{n}'s sheet: {}", changes.join(", "))
                }
            }
            CharacterChange::PointGranted { after, .. } => format!(
                "{n} is granted an advancement point ({} unspent)",
                after.advancement_points
            ),
            CharacterChange::Advanced {
                goal,
                rolled,
                success,
                spent_point,
                after,
                ..
            } => format!(
                "{n} tries to {} (dice {}): {}{}",
                match goal {
                    AdvanceGoal::Background(b) => format!("learn \"{b}\""),
                    AdvanceGoal::Attribute(a) => format!("raise {}", a.name()),
                },
                faces(&rolled.faces),
                if *success { "success" } else { "not this time" },
                if *spent_point {
                    format!(
                        ", an advancement point spent ({} left)",
                        after.advancement_points
                    )
                } else {
                    String::new()
                }
            ),
            CharacterChange::Rested {
                minutes: Some(minutes),
                healed,
                after,
                ..
            } => format!(
                "{n} rests {minutes} minute(s): +{healed}, {}/{} hit points{}",
                after.hit_points,
                after.max_hit_points(),
                if after.rest_minutes > 0 {
                    format!(", {} minute(s) toward the next", after.rest_minutes)
                } else {
                    String::new()
                }
            ),
            CharacterChange::Rested {
                half_hours,
                healed,
                after,
                ..
            } => format!(
                "{n} rests {half_hours} half hour(s): +{healed}, {}/{} hit points",
                after.hit_points,
                after.max_hit_points()
            ),
            CharacterChange::Imported { .. } => format!("{n} joins the campaign"),
            CharacterChange::Check { inputs, result, .. } => {
                let attribute = inputs.check.attribute.name();
                let Some(own) = &result.own else {
                    return format!(
                        "{n}'s {attribute} check succeeds automatically (difficulty 1)"
                    );
                };
                let own = pool_text(inputs.pool, own);
                match (&inputs.check.against, &result.opposition) {
                    (Against::Opposed { dice, .. }, Some(theirs)) => {
                        let mut line = format!(
                            "{n} rolls {attribute} ({own}) against {} — {}",
                            pool_text(dice.get(), theirs),
                            result.verdict.as_deref().unwrap_or(if result.passed {
                                "win"
                            } else {
                                "lose"
                            })
                        );
                        for [a, b] in &result.roll_off {
                            line.push_str(&format!(", roll-off {a} vs {b}"));
                        }
                        line
                    }
                    (against, _) => {
                        let vs = match against {
                            Against::Difficulty(d) => format!(" vs {}", d.value()),
                            Against::Opposed { .. } => String::new(),
                        };
                        let verdict = if result.passed { "success" } else { "failure" };
                        format!("{n} rolls {attribute}{vs} ({own}): {verdict}")
                    }
                }
            }
        }
    }

    /// Re-derives the record: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<Divergence> {
        if let Some(newer) = Divergence::newer("character", self.schema, CHARACTER_RECORD_SCHEMA) {
            return Some(newer);
        }
        let derived = match &self.change {
            CharacterChange::Created {
                choices,
                rolled,
                sheet,
            } => again(rolled, |d| create_rule(choices, d)).map(|s| (s, sheet.clone())),
            CharacterChange::Advanced {
                before,
                goal,
                rolled,
                success,
                after,
                spent_point,
            } => match again(rolled, |d| advance_rule(before, goal, *spent_point, d)) {
                Ok((_, ok)) if ok != *success => Err(Divergence::Fields {
                    differences: vec![crate::FieldDifference {
                        path: "success".into(),
                        recorded: (*success).into(),
                        derived: ok.into(),
                    }],
                }),
                Ok((hero, _)) => Ok((hero, after.clone())),
                Err(e) => Err(e),
            },
            CharacterChange::Edited {
                before,
                edit,
                after,
            } => {
                let mut hero = before.clone();
                edit.apply(&mut hero)
                    .map(|_| (hero, after.clone()))
                    .map_err(|e| Divergence::refused(format!("the edit does not apply: {e}")))
            }
            CharacterChange::PointGranted { before, after } => {
                let mut hero = before.clone();
                character::grant_advancement_point(&mut hero)
                    .map(|()| (hero, after.clone()))
                    .map_err(|e| Divergence::refused(format!("the point cannot be granted: {e}")))
            }
            CharacterChange::Rested {
                before,
                minutes,
                half_hours,
                healed,
                after,
            } => {
                let mut hero = before.clone();
                let h = match minutes {
                    Some(m) => hero.rest_minutes(*m),
                    None => hero.rest(*half_hours),
                };
                if h != *healed {
                    Err(Divergence::Fields {
                        differences: vec![crate::FieldDifference {
                            path: "healed".into(),
                            recorded: (*healed).into(),
                            derived: h.into(),
                        }],
                    })
                } else {
                    Ok((hero, after.clone()))
                }
            }
            CharacterChange::Imported { .. } => return None,
            CharacterChange::Check {
                inputs,
                rolled,
                result,
            } => {
                return match again(rolled, |d| check_rule(inputs, d)) {
                    Err(e) => Some(e),
                    Ok(r) => Divergence::fields("result", result, &r),
                };
            }
        };
        match derived {
            Err(e) => Some(e),
            Ok((got, recorded)) => Divergence::fields("sheet", &recorded, &got)
                .map(|d| d.within(format!("the recorded sheet of {}", self.name))),
        }
    }
}

/// What an edit changed on a sheet, one phrase a field, in the sheet's order.
fn sheet_changes(before: &Character, after: &Character) -> Vec<String> {
    let mut changes = Vec::new();
    let mut number = |name: &str, was: u32, now: u32| {
        if was != now {
            changes.push(format!("{name} {was}→{now}"));
        }
    };
    number("body", before.body, after.body);
    number("mind", before.mind, after.mind);
    number("charm", before.charm, after.charm);
    number("hit points", before.hit_points, after.hit_points);
    number("money", before.money, after.money);
    number(
        "advancement points",
        before.advancement_points,
        after.advancement_points,
    );
    if before.backgrounds != after.backgrounds {
        changes.push(format!(
            "backgrounds [{}] → [{}]",
            before.backgrounds.join(", "),
            after.backgrounds.join(", ")
        ));
    }
    let weapons = |c: &Character| c.weapons.iter().map(|w| w.name.clone()).collect::<Vec<_>>();
    added_removed(&mut changes, "weapon", &weapons(before), &weapons(after));
    let gear = |c: &Character| c.gear.iter().map(|g| g.name.clone()).collect::<Vec<_>>();
    added_removed(&mut changes, "gear", &gear(before), &gear(after));
    if before.armor != after.armor {
        let name = |a: &Option<Armor>| a.as_ref().map_or("none".to_string(), |a| a.name.clone());
        changes.push(format!(
            "armor {} → {}",
            name(&before.armor),
            name(&after.armor)
        ));
    }
    if before.notes != after.notes {
        changes.push("notes".into());
    }
    changes
}

/// `+ weapon sword`, `− gear rope`: the items of `now` not in `was`, then the reverse.
fn added_removed(changes: &mut Vec<String>, what: &str, was: &[String], now: &[String]) {
    for n in now.iter().filter(|n| !was.contains(n)) {
        changes.push(format!("+ {what} {n}"));
    }
    for w in was.iter().filter(|w| !now.contains(w)) {
        changes.push(format!("− {what} {w}"));
    }
}

/// Runs a rule again on a record's dice, checking the faces drawn are the faces recorded.
fn again<T>(
    rolled: &Rolled,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<Result<T, AppError>, DiceError>,
) -> Result<T, Divergence> {
    let dice = if rolled.typed {
        Dice::Typed(rolled.faces.clone())
    } else {
        match rolled.seed {
            Some(seed) => Dice::Seed(seed),
            None => {
                return Err(Divergence::unreplayable(
                    "a generated roll without its seed",
                ));
            }
        }
    };
    let (out, again) = roll_rule(dice, rule).map_err(|e| Divergence::of_error(&e))?;
    match Divergence::faces(rolled, &again.faces) {
        Some(d) => Err(d),
        None => Ok(out),
    }
}

/// Rolls a rule and keeps what a [`Rolled`] needs. A rule's own refusal (the inner error)
/// comes before any complaint about the typed dice, so that a player whose choices break a
/// rule hears about the rule, not the dice.
fn roll_rule<T>(
    dice: Dice,
    rule: impl FnOnce(&mut dyn DiceSource) -> Result<Result<T, AppError>, DiceError>,
) -> Result<(T, Rolled), AppError> {
    match dice {
        Dice::Typed(given) => {
            let mut src = RecordingDice::new(TypedDice::new(given));
            let out = rule(&mut src)??;
            let faces = src.faces().iter().map(|&(_, f)| f).collect();
            src.into_inner()
                .finish()
                .map_err(|(used, given)| AppError::UnusedDice { given, used })?;
            Ok((
                out,
                Rolled {
                    seed: None,
                    typed: true,
                    faces,
                },
            ))
        }
        Dice::Seed(_) | Dice::Fresh => {
            let seed = match dice {
                Dice::Seed(s) => s,
                _ => SeededDice::from_entropy().seed(),
            };
            let mut src = RecordingDice::new(SeededDice::new(seed));
            let out = rule(&mut src)??;
            let faces = src.faces().iter().map(|&(_, f)| f).collect();
            Ok((
                out,
                Rolled {
                    seed: Some(seed),
                    typed: false,
                    faces,
                },
            ))
        }
    }
}

fn split(e: CreationError) -> Result<AppError, DiceError> {
    match e {
        CreationError::Rules(e) => Ok(e.into()),
        CreationError::Dice(e) => Err(e),
    }
}

fn create_rule(
    choices: &NewCharacter,
    dice: &mut dyn DiceSource,
) -> Result<Result<Character, AppError>, DiceError> {
    match character::create(&choices.choices(), dice) {
        Ok((hero, _)) => Ok(check_sheet(&hero).map(|()| hero)),
        Err(e) => split(e).map(Err),
    }
}

/// An advancement attempt: with `spend_point` the rule of S17 (a point needed and spent);
/// without, the rule of entries written before points existed.
fn advance_rule(
    before: &Character,
    goal: &AdvanceGoal,
    spend_point: bool,
    dice: &mut dyn DiceSource,
) -> Result<Result<(Character, bool), AppError>, DiceError> {
    let mut hero = before.clone();
    if let AdvanceGoal::Background(b) = goal
        && let Err(e) = name_text("background", b)
    {
        return Ok(Err(e));
    }
    let done = if spend_point {
        match character::attempt_advancement(&mut hero, goal, dice) {
            Ok(a) => Ok(a),
            Err(AdvanceError::Rules(e)) => return Ok(Err(e.into())),
            Err(AdvanceError::Dice(e)) => return Err(e),
        }
    } else {
        match goal {
            AdvanceGoal::Background(b) => character::advance_background(&mut hero, b, dice),
            AdvanceGoal::Attribute(a) => character::advance_attribute(&mut hero, *a, dice),
        }
    };
    match done {
        Ok(a) => Ok(check_sheet(&hero).map(|()| (hero, a.success))),
        Err(e) => split(e).map(Err),
    }
}

/// The check a request makes of a sheet, before any die: the pool from the attribute,
/// background, armor and weapon, and the gear's reroll.
pub(crate) fn check_inputs(
    hero: &Character,
    check: &CharacterCheck,
) -> Result<CheckInputs, AppError> {
    if hero.is_out() {
        return Err(crate::ExpandedRefusal::Out.at(
            "hit_points",
            format!("{} is out (0 hit points) and cannot act", hero.name),
        ));
    }
    let mut check = check.clone();
    if let Some(b) = &check.background {
        let found = hero
            .backgrounds
            .iter()
            .find(|x| x.eq_ignore_ascii_case(b.trim()))
            .ok_or_else(|| {
                crate::ExpandedRefusal::HasNo.at(
                    "background",
                    format!("{} has no background `{}`", hero.name, b.trim()),
                )
            })?;
        check.background = Some(found.clone());
    }
    let weapon = match &check.weapon {
        None => None,
        Some(w) => Some(
            hero.weapons
                .iter()
                .find(|x| x.name.eq_ignore_ascii_case(w.trim()))
                .cloned()
                .ok_or_else(|| {
                    crate::ExpandedRefusal::HasNo
                        .at("weapon", format!("{} carries no `{}`", hero.name, w.trim()))
                })?,
        ),
    };
    check.weapon = weapon.as_ref().map(|w| w.name.clone());
    let gear = match &check.gear {
        None => None,
        Some(g) => Some(
            hero.gear
                .iter()
                .find(|x| x.name.eq_ignore_ascii_case(g.trim()))
                .cloned()
                .ok_or_else(|| {
                    crate::ExpandedRefusal::HasNo
                        .at("gear", format!("{} has no `{}`", hero.name, g.trim()))
                })?,
        ),
    };
    check.gear = gear.as_ref().map(|g| g.name.clone());
    let spec = hero.pool(check.attribute, check.background.is_some(), weapon.as_ref());
    let pool = spec
        .pool()
        .map_err(|e| crate::ExpandedRefusal::Pool.at("pool", e.to_string()))?;
    if !check.gear_die.fits(pool) {
        let GearDie::Die(n) = check.gear_die else {
            unreachable!("only a named die can miss the pool")
        };
        return Err(crate::ExpandedRefusal::GearDie.at(
            "gear_die",
            format!(
                "die {n}: the pool has {} dice, counted from 1 in the order rolled",
                pool.dice()
            ),
        ));
    }
    if check.gear_die != GearDie::Best
        && !gear
            .as_ref()
            .is_some_and(|g| g.effect == GearEffect::Reroll)
    {
        return Err(crate::ExpandedRefusal::GearDie.at(
            "gear_die",
            "a gear reroll needs a piece of gear of the sheet that rerolls: name the piece of gear too",
        ));
    }
    if check.roll_off && matches!(check.against, Against::Difficulty(_)) {
        return Err(crate::ExpandedRefusal::RollOff.at(
            "roll_off",
            "a roll-off settles the draws of opposed checks; this check has a difficulty",
        ));
    }
    Ok(CheckInputs {
        attribute_value: spec.attribute,
        armor_too_heavy: spec.armor_too_heavy,
        heavy_weapon_weak: spec.heavy_weapon_weak,
        gear_reroll: gear.is_some_and(|g| g.effect == GearEffect::Reroll),
        pool: pool.dice(),
        roll_off: check.roll_off,
        check,
    })
}

/// The inputs of a check at a table: [`check_inputs`], with draws rolled off when the
/// campaign's setting says so (S3, S14). A check's own `roll_off` beyond the setting is the
/// game master's to ask.
pub(crate) fn table_inputs(
    hero: &Character,
    check: &CharacterCheck,
    setting: bool,
    gm: bool,
) -> Result<CheckInputs, AppError> {
    if check.roll_off && !setting && !gm {
        return Err(crate::policy::GmOnly::RollOff.into());
    }
    let mut inputs = check_inputs(hero, check)?;
    if setting && matches!(inputs.check.against, Against::Opposed { .. }) {
        inputs.roll_off = true;
    }
    Ok(inputs)
}

/// The exact odds of a check before the roll: pass (or win), and for an opposed check draw
/// and lose.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckOdds {
    /// The chance to pass, or to win an opposed check.
    pub pass: f64,
    /// The same chance as an exact fraction.
    pub pass_exact: String,
    /// The chance of a draw (opposed only).
    pub draw: Option<f64>,
    /// The chance to lose (opposed only).
    pub lose: Option<f64>,
}

enum Spec {
    Check(CheckSpec),
    Opposed(OpposedSpec),
}

fn spec_of(inputs: &CheckInputs) -> Result<Spec, AppError> {
    let pool = Pool::new(u64::from(inputs.pool))
        .map_err(|e| crate::ExpandedRefusal::Pool.at("pool", e.to_string()))?;
    Ok(match inputs.check.against {
        Against::Difficulty(d) => {
            // Declining the reroll, or naming a die before seeing the dice, is distributed as
            // a roll without gear (a die at a fixed position rerolled whatever it shows is
            // one more fair die in its place).
            Spec::Check(
                CheckSpec::new(pool, d)
                    .with_gear(inputs.gear_reroll && inputs.check.gear_die == GearDie::Best),
            )
        }
        Against::Opposed { dice, gear } => {
            let other = dice.pool();
            let mut spec = OpposedSpec::new(pool, other);
            spec.first = Side {
                pool,
                gear: inputs.gear_reroll,
            };
            spec.second = Side { pool: other, gear };
            if inputs.roll_off {
                spec.draws = DrawRule::RollOff;
            }
            Spec::Opposed(spec)
        }
    })
}

pub(crate) fn odds_of(inputs: &CheckInputs) -> Result<CheckOdds, AppError> {
    let mut spec = spec_of(inputs)?;
    // The odds follow the gear choice: the best one, or none (see `spec_of`).
    if let Spec::Opposed(s) = &mut spec {
        s.first.gear = inputs.gear_reroll && inputs.check.gear_die == GearDie::Best;
    }
    Ok(match spec {
        Spec::Check(spec) => {
            let p = odds::p_pass(&spec);
            CheckOdds {
                pass: solum_dice::prob_to_f64(&p),
                pass_exact: p.to_string(),
                draw: None,
                lose: None,
            }
        }
        Spec::Opposed(spec) => {
            let o = odds::opposed_odds(&spec);
            CheckOdds {
                pass: solum_dice::prob_to_f64(&o.win),
                pass_exact: o.win.to_string(),
                draw: Some(solum_dice::prob_to_f64(&o.draw)),
                lose: Some(solum_dice::prob_to_f64(&o.lose)),
            }
        }
    })
}

fn check_rule(
    inputs: &CheckInputs,
    dice: &mut dyn DiceSource,
) -> Result<Result<CheckResult, AppError>, DiceError> {
    let spec = match spec_of(inputs) {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    Ok(Ok(match spec {
        Spec::Check(spec) => {
            // The roll itself uses the gear whatever the choice; the choice says which die.
            let spec = spec.with_gear(inputs.gear_reroll);
            let out =
                solum_expanded::check::roll_check_choosing(&spec, inputs.check.gear_die, dice)?;
            CheckResult {
                own: out.roll.as_ref().map(PoolFaces::of),
                opposition: None,
                verdict: None,
                passed: out.passed,
                roll_off: Vec::new(),
            }
        }
        Spec::Opposed(spec) => {
            // One source serves both sides, in the order the rule draws.
            let shared = SharedDice::new(dice);
            let (mut first, mut second) = (&shared, &shared);
            let out = solum_expanded::check::roll_opposed_choosing(
                &spec,
                inputs.check.gear_die,
                &mut first,
                &mut second,
            )?;
            CheckResult {
                own: Some(PoolFaces::of(&out.first)),
                opposition: Some(PoolFaces::of(&out.second)),
                verdict: Some(
                    match out.verdict {
                        Verdict::Win => "win",
                        Verdict::Draw => "draw",
                        Verdict::Lose => "lose",
                    }
                    .into(),
                ),
                passed: out.verdict == Verdict::Win,
                roll_off: out.roll_off.iter().map(|&(a, b)| [a, b]).collect(),
            }
        }
    }))
}

/// A check rolled from a sheet outside any campaign (a sheet file read for one roll):
/// nothing is stored and nothing is journaled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SheetCheckView {
    /// The character.
    pub name: String,
    /// What the check was built from.
    pub inputs: CheckInputs,
    /// The exact odds before the roll.
    pub odds: CheckOdds,
    /// The dice.
    pub rolled: Rolled,
    /// What they gave.
    pub result: CheckResult,
}

/// Rolls a check from a sheet that is not in a campaign, by the same rules as
/// [`Campaign::check_from_character`]; the sheet is checked against the campaign's limits
/// first.
pub fn check_from_sheet(
    hero: &Character,
    check: &CharacterCheck,
    dice: Dice,
) -> Result<SheetCheckView, AppError> {
    check_sheet(hero)?;
    let inputs = check_inputs(hero, check)?;
    let odds = odds_of(&inputs)?;
    let (result, rolled) = roll_rule(dice, |d| check_rule(&inputs, d))?;
    Ok(SheetCheckView {
        name: hero.name.clone(),
        inputs,
        odds,
        rolled,
        result,
    })
}

/// A sheet as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CharacterView {
    /// The sheet.
    pub character: Character,
    /// Raised by one on every change.
    pub version: i64,
    /// Body + Mind + armor (S8).
    pub max_hit_points: u32,
    /// At 0 hit points: out, cannot act.
    pub out: bool,
    /// Advancement points granted and not yet spent (S17).
    pub advancement_points: u32,
    /// Minutes of rest banked toward the next hit point (S16).
    pub rest_minutes: u32,
}

impl CharacterView {
    fn of(character: Character, version: i64) -> Self {
        Self {
            advancement_points: character.advancement_points,
            rest_minutes: character.rest_minutes,
            max_hit_points: character.max_hit_points(),
            out: character.is_out(),
            character,
            version,
        }
    }
}

/// A sheet read from a file (nothing is stored), as a front end shows it: the facts of a
/// [`CharacterView`], with no version (`null`: no campaign keeps the sheet).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SheetFileView {
    /// The sheet.
    pub character: Character,
    /// Always `None`: a file has no campaign version.
    pub version: Option<i64>,
    /// Body + Mind + armor (S8).
    pub max_hit_points: u32,
    /// At 0 hit points: out, cannot act.
    pub out: bool,
    /// Advancement points granted and not yet spent (S17).
    pub advancement_points: u32,
    /// Minutes of rest banked toward the next hit point (S16).
    pub rest_minutes: u32,
}

impl SheetFileView {
    /// The view of a sheet read from a file.
    pub fn of(character: Character) -> Self {
        let CharacterView {
            character,
            max_hit_points,
            out,
            advancement_points,
            rest_minutes,
            ..
        } = CharacterView::of(character, 0);
        Self {
            character,
            version: None,
            max_hit_points,
            out,
            advancement_points,
            rest_minutes,
        }
    }
}

/// What an edit's damage and healing did (S8: hit points never go below 0 nor above the
/// maximum, so less can be taken or healed than was given).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HitPointChange {
    /// Hit points before the edit.
    pub before: u32,
    /// Hit points after it.
    pub after: u32,
    /// The damage taken, when damage was given.
    pub damage_taken: Option<u32>,
    /// The hit points healed, when healing was given.
    pub healed: Option<u32>,
    /// True when the rules held hit points at 0 or at the maximum, so that less was taken
    /// or healed than given.
    pub held: bool,
    /// The maximum hit points after the edit.
    pub max: u32,
}

/// A change stored: its journal entry, its dice if any, and the sheet after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The dice, when the change rolled.
    pub rolled: Option<Rolled>,
    /// For an advancement: whether it worked.
    pub success: Option<bool>,
    /// For a rest or a heal: hit points gained.
    pub healed: Option<u32>,
    /// For an edit with damage or healing: what they did to the hit points.
    pub hit_points: Option<HitPointChange>,
    /// The sheet after.
    pub sheet: CharacterView,
}

/// A check rolled from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckView {
    /// The journal entry.
    pub seq: i64,
    /// The character.
    pub name: String,
    /// What the check was built from.
    pub inputs: CheckInputs,
    /// The exact odds before the roll.
    pub odds: CheckOdds,
    /// The dice.
    pub rolled: Rolled,
    /// What they gave.
    pub result: CheckResult,
}

fn to_sheet(hero: &Character) -> Result<Sheet, AppError> {
    Ok(Sheet {
        system: SYSTEM.into(),
        name: hero.name.clone(),
        schema: i64::from(CHARACTER_SCHEMA),
        version: 0,
        body: serde_json::to_value(hero)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))?,
    })
}

pub(crate) fn from_sheet(sheet: &Sheet) -> Result<Character, AppError> {
    if sheet.schema != i64::from(CHARACTER_SCHEMA) {
        return Err(crate::ExpandedRefusal::StoredSheet.at(
            "schema",
            format!(
                "the stored sheet of {} has schema {}; this solum reads {CHARACTER_SCHEMA}",
                sheet.name, sheet.schema
            ),
        ));
    }
    let hero: Character = serde_json::from_value(sheet.body.clone()).map_err(|e| {
        crate::ExpandedRefusal::StoredSheet.at(
            "sheet",
            format!("the stored sheet of {} cannot be read: {e}", sheet.name),
        )
    })?;
    hero.validate()?;
    Ok(hero)
}
/// Why the text of a TOML file (a character sheet, a bestiary) was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextFileError {
    /// Not TOML of a sheet's shape (the message names the line and the field).
    #[error("{0}")]
    Parse(String),
    /// A sheet that breaks a rule.
    #[error("{field}: {problem}")]
    Invalid {
        /// The field at fault.
        field: String,
        /// What is wrong.
        problem: String,
    },
}

/// Parses the text of a TOML character sheet (the import and export format) and checks it
/// against the rules; the campaign's own limits are [`check_sheet`]'s.
pub fn parse_sheet(toml_text: &str) -> Result<Character, TextFileError> {
    let hero: Character = toml::from_str(toml_text)
        .map_err(|e| TextFileError::Parse(e.to_string().trim_end().replace('\n', "\n  ")))?;
    hero.validate().map_err(|e| TextFileError::Invalid {
        field: e.field,
        problem: e.problem,
    })?;
    Ok(hero)
}

/// A TOML sheet to import, checked by the rules and the campaign's limits.
fn parse_import(toml_text: &str) -> Result<Character, AppError> {
    let limit = crate::MAX_FILE_BYTES;
    if toml_text.len() as u64 > limit {
        return Err(crate::ExpandedRefusal::SheetFile.at(
            "sheet",
            format!("{} bytes; the limit is {limit}", toml_text.len()),
        ));
    }
    let hero = parse_sheet(toml_text).map_err(|e| match e {
        TextFileError::Invalid { field, problem } => {
            crate::ExpandedRefusal::Rules.at(field, problem)
        }
        TextFileError::Parse(message) => crate::ExpandedRefusal::SheetFile.at("sheet", message),
    })?;
    check_sheet(&hero)?;
    Ok(hero)
}

fn load(tx: &dyn WriteTx, name: &str) -> Result<(Character, i64), AppError> {
    let sheet = tx
        .sheet(SYSTEM, name)?
        .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
    Ok((from_sheet(&sheet)?, sheet.version))
}

impl<S: CampaignStore> Campaign<S> {
    /// Runs `work` in one write transaction (see [`crate::transact`]).
    pub(crate) fn transact<T>(
        &mut self,
        work: impl FnMut(&mut dyn WriteTx) -> Result<T, AppError>,
    ) -> Result<T, AppError> {
        crate::transact(&mut self.store, &self.by, work)
    }

    /// Reads a sheet, changes it, and stores it with its journal entry in one transaction.
    fn change(
        &mut self,
        name: &str,
        mut rule: impl FnMut(Character) -> Result<(Character, CharacterChange), AppError>,
    ) -> Result<(i64, CharacterChange, CharacterView), AppError> {
        let at = self.now();
        self.transact(|tx| {
            let (hero, _) = load(tx, name)?;
            let stored_name = hero.name.clone();
            // Who may change the sheet is asked before the rule: a player's edit of another's
            // sheet is refused as such, whatever the edit (even one that changes nothing).
            crate::policy::may_change_sheet(
                tx.scope(),
                tx.sheet_owner(SYSTEM, &stored_name)?,
                &stored_name,
            )?;
            let (after, change) = rule(hero)?;
            let sheet = tx.update_sheet(SYSTEM, &stored_name, &to_sheet(&after)?)?;
            let record = CharacterRecord::new(&stored_name, change.clone());
            let seq = journaling::append(tx, &at, &record)?;
            Ok((seq, change, CharacterView::of(after, sheet.version)))
        })
    }

    /// Creates a hero by the rules (S9) from the player's choices, rolling 2d6 for extra
    /// backgrounds and a d6 for light armor (typed dice: those three faces in that order).
    pub fn create_character(
        &mut self,
        choices: &NewCharacter,
        dice: Dice,
    ) -> Result<ChangeView, AppError> {
        name_text("name", &choices.name)?;
        for b in &choices.backgrounds {
            name_text("backgrounds", b)?;
        }
        name_text("weapon.name", &choices.weapon.name)?;
        name_text("armor_name", &choices.armor_name)?;
        let (hero, rolled) = roll_rule(dice, |d| create_rule(choices, d))?;
        let at = self.now();
        let record = CharacterRecord::new(
            &hero.name,
            CharacterChange::Created {
                choices: choices.clone(),
                rolled: rolled.clone(),
                sheet: hero.clone(),
            },
        );
        let (seq, version) = self.transact(|tx| {
            crate::look_alike_free(tx, SYSTEM, &hero.name)?;
            tx.insert_sheet(&to_sheet(&hero)?)?;
            let seq = journaling::append(tx, &at, &record)?;
            Ok((seq, 1))
        })?;
        Ok(ChangeView {
            seq,
            rolled: Some(rolled),
            success: None,
            healed: None,
            hit_points: None,
            sheet: CharacterView::of(hero, version),
        })
    }

    /// A character's sheet (the name in any case).
    pub fn character(&self, name: &str) -> Result<CharacterView, AppError> {
        let sheet = self
            .store
            .sheet(SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        Ok(CharacterView::of(from_sheet(&sheet)?, sheet.version))
    }

    /// Every character of the campaign, by name.
    pub fn characters(&self) -> Result<Vec<CharacterView>, AppError> {
        self.store
            .sheets(SYSTEM)?
            .iter()
            .map(|s| Ok(CharacterView::of(from_sheet(s)?, s.version)))
            .collect()
    }

    /// Changes a sheet as the command line's `character edit` does; the result is checked
    /// against the rules before anything is stored.
    pub fn edit_character(
        &mut self,
        name: &str,
        edit: &CharacterEdit,
    ) -> Result<ChangeView, AppError> {
        let gm = self.store.sees_every_entry();
        if edit.correction && !gm {
            return Err(crate::policy::GmOnly::Corrections.into());
        }
        let mut hit_points = None;
        let (seq, _, sheet) = self.change(name, |before| {
            let mut after = before.clone();
            hit_points = edit.apply(&mut after)?;
            // S17: attributes and backgrounds change by creation and advancement only; naming
            // a background won at creation is not a change of them. (Judged after the edit's
            // own checks, so a contradiction or a value out of range is named first.)
            if !edit.correction
                && let Some(field) =
                    edit.changes_what_only_advancement_changes(before.unnamed_backgrounds)
            {
                return Err(crate::ExpandedRefusal::EditByAdvancement.at(
                    field,
                    "attributes and backgrounds change only by creation and advancement (S17): spend an advancement point on an attempt; the game master may make the change as a correction",
                ));
            }
            // An edit that changes nothing would only journal a no-op.
            if after == before {
                return Err(crate::ExpandedRefusal::EditChangesNothing.at("edit", "it changes nothing on the sheet"));
            }
            let change = CharacterChange::Edited {
                before,
                edit: edit.clone(),
                after: after.clone(),
            };
            Ok((after, change))
        })?;
        Ok(ChangeView {
            seq,
            rolled: None,
            success: None,
            healed: None,
            hit_points,
            sheet,
        })
    }

    /// Advancement (S9): A, a new background on an even d6; B, an attribute one higher when
    /// its dice (one per point) all show even. Journaled whether it works or not.
    pub fn advance_character(
        &mut self,
        name: &str,
        goal: &AdvanceGoal,
        dice: Dice,
    ) -> Result<ChangeView, AppError> {
        // A fresh roll gets its seed now: the transaction may not run the rule twice, but
        // the seed journaled must be the seed rolled.
        let dice = match dice {
            Dice::Fresh => Dice::Seed(SeededDice::from_entropy().seed()),
            d => d,
        };
        let (seq, change, sheet) = self.change(name, |before| {
            let ((after, success), rolled) =
                roll_rule(dice.clone(), |d| advance_rule(&before, goal, true, d))?;
            let change = CharacterChange::Advanced {
                before,
                goal: goal.clone(),
                rolled,
                success,
                after: after.clone(),
                spent_point: true,
            };
            Ok((after, change))
        })?;
        let CharacterChange::Advanced {
            rolled, success, ..
        } = change
        else {
            unreachable!("an advancement journals an advancement")
        };
        Ok(ChangeView {
            seq,
            rolled: Some(rolled),
            success: Some(success),
            healed: None,
            hit_points: None,
            sheet,
        })
    }

    /// Grants a hero one advancement point (S17: at the end of an adventure), journaled.
    /// Only the game master grants (at the command line, the campaign's owner: the GM or the
    /// solo player).
    pub fn grant_advancement_point(&mut self, name: &str) -> Result<ChangeView, AppError> {
        if !self.store.sees_every_entry() {
            return Err(crate::policy::GmOnly::AdvancementPoints.into());
        }
        let (seq, _, sheet) = self.change(name, |before| {
            let mut after = before.clone();
            character::grant_advancement_point(&mut after)?;
            let change = CharacterChange::PointGranted {
                before,
                after: after.clone(),
            };
            Ok((after, change))
        })?;
        Ok(ChangeView {
            seq,
            rolled: None,
            success: None,
            healed: None,
            hit_points: None,
            sheet,
        })
    }

    /// Rests for `hours` (S8, S16): the minutes (hours × 60, to the nearest minute) add to
    /// those banked on the sheet, each whole half hour heals 1 hit point up to the maximum,
    /// the rest of a half hour stays banked; a hero at 0 hit points does not rest.
    pub fn rest_character(&mut self, name: &str, hours: f64) -> Result<ChangeView, AppError> {
        if !hours.is_finite() || !(0.0..=MAX_REST_HOURS).contains(&hours) {
            return Err(crate::ExpandedRefusal::RestHours.at(
                "hours",
                // `1e308` as written, not as 309 digits.
                format!(
                    "{}: give hours of rest above 0, up to {MAX_REST_HOURS}",
                    if hours.abs() >= 1e6 {
                        format!("{hours:e}")
                    } else {
                        hours.to_string()
                    }
                ),
            ));
        }
        // Within MAX_REST_HOURS: at most 600,000 minutes.
        let minutes = (hours * 60.0).round() as u32;
        if minutes == 0 {
            // Nothing would change but the journal: a rest is at least a minute.
            return Err(crate::ExpandedRefusal::RestHours.at(
                "hours",
                format!("{hours}: a rest is at least a minute (0.02 hours)"),
            ));
        }
        let (seq, change, sheet) = self.change(name, |before| {
            let mut after = before.clone();
            let healed = after.rest_minutes(minutes);
            let change = CharacterChange::Rested {
                before,
                minutes: Some(minutes),
                half_hours: minutes / character::REST_MINUTES_PER_HIT_POINT,
                healed,
                after: after.clone(),
            };
            Ok((after, change))
        })?;
        let CharacterChange::Rested { healed, .. } = change else {
            unreachable!("a rest journals a rest")
        };
        Ok(ChangeView {
            seq,
            rolled: None,
            success: None,
            healed: Some(healed),
            hit_points: None,
            sheet,
        })
    }

    /// Adds a character from its TOML sheet (the format of `character new` files), checked
    /// by the rules and the campaign's limits. The name is only a name: nothing is written
    /// to a file.
    pub fn import_character(&mut self, toml_text: &str) -> Result<ChangeView, AppError> {
        let hero = parse_import(toml_text)?;
        let at = self.now();
        let record = CharacterRecord::new(
            &hero.name,
            CharacterChange::Imported {
                sheet: hero.clone(),
            },
        );
        let seq = self.transact(|tx| {
            crate::look_alike_free(tx, SYSTEM, &hero.name)?;
            tx.insert_sheet(&to_sheet(&hero)?)?;
            journaling::append(tx, &at, &record)
        })?;
        Ok(ChangeView {
            seq,
            rolled: None,
            success: None,
            healed: None,
            hit_points: None,
            sheet: CharacterView::of(hero, 1),
        })
    }

    /// Like [`Campaign::import_character`], but a character of the same name (any case) is
    /// replaced by the sheet, raising its version; the entry journals the sheet imported.
    /// Without one of that name it imports.
    pub fn replace_character(&mut self, toml_text: &str) -> Result<ChangeView, AppError> {
        let hero = parse_import(toml_text)?;
        let at = self.now();
        let record = CharacterRecord::new(
            &hero.name,
            CharacterChange::Imported {
                sheet: hero.clone(),
            },
        );
        let (seq, version) = self.transact(|tx| {
            let version = match tx.sheet(SYSTEM, &hero.name)? {
                Some(old) => {
                    tx.update_sheet(SYSTEM, &old.name, &to_sheet(&hero)?)?
                        .version
                }
                None => {
                    crate::look_alike_free(tx, SYSTEM, &hero.name)?;
                    tx.insert_sheet(&to_sheet(&hero)?)?;
                    1
                }
            };
            Ok((journaling::append(tx, &at, &record)?, version))
        })?;
        Ok(ChangeView {
            seq,
            rolled: None,
            success: None,
            healed: None,
            hit_points: None,
            sheet: CharacterView::of(hero, version),
        })
    }

    /// A character's sheet as TOML, the format [`Campaign::import_character`] reads.
    pub fn export_character(&self, name: &str) -> Result<String, AppError> {
        let view = self.character(name)?;
        toml::to_string_pretty(&view.character)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))
    }

    /// Rolls a check from a sheet (S1): the pool from the attribute, a background of the
    /// sheet, armor too heavy for the Body and a heavy weapon with Body below 3; a reroll
    /// piece of gear rerolls one die once. Journaled with its inputs and every die; the view
    /// carries the exact odds worked out before the roll.
    pub fn check_from_character(
        &mut self,
        name: &str,
        check: &CharacterCheck,
        dice: Dice,
    ) -> Result<CheckView, AppError> {
        // The sheet is read inside the write transaction: an edit by another process cannot
        // slip in between the read and the journal entry.
        let dice = match dice {
            Dice::Fresh => Dice::Seed(SeededDice::from_entropy().seed()),
            d => d,
        };
        let at = self.now();
        let setting = self.roll_off()?;
        let gm = self.store.sees_every_entry();
        self.transact(|tx| {
            let (hero, _) = load(tx, name)?;
            let inputs = table_inputs(&hero, check, setting, gm)?;
            let odds = odds_of(&inputs)?;
            let (result, rolled) = roll_rule(dice.clone(), |d| check_rule(&inputs, d))?;
            let record = CharacterRecord::new(
                &hero.name,
                CharacterChange::Check {
                    inputs: inputs.clone(),
                    rolled: rolled.clone(),
                    result: result.clone(),
                },
            );
            let seq = journaling::append(tx, &at, &record)?;
            Ok(CheckView {
                seq,
                name: hero.name,
                inputs,
                odds,
                rolled,
                result,
            })
        })
    }
}

/// The schema of an edit's armor: `{"wear": {armor}}`, `"take-off"`, or `null`.
#[cfg(feature = "openapi")]
fn armor_change() -> utoipa::openapi::schema::Schema {
    use crate::schema::{armor, either, one_of_strings, or_null, serde_forms, tagged};
    let take_off = match ArmorChange::TakeOff {
        c @ (ArmorChange::TakeOff | ArmorChange::Wear(_)) => c,
    };
    or_null(either(vec![
        tagged("wear", armor()),
        one_of_strings(serde_forms([take_off])),
    ]))
}

/// The schema of what a check is against: `{"difficulty": d}` or `{"opposed": {"dice": n,
/// "gear": bool}}`.
#[cfg(feature = "openapi")]
fn against() -> utoipa::openapi::schema::Schema {
    use crate::schema::{either, integer, object, tagged};
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let most = |n: u32| i64::from(n);
    either(vec![
        tagged(
            "difficulty",
            integer(1, most(solum_expanded::MAX_DIFFICULTY)),
        ),
        tagged(
            "opposed",
            object(vec![
                ("dice", integer(1, most(solum_expanded::MAX_POOL)), true),
                (
                    "gear",
                    ObjectBuilder::new().schema_type(Type::Boolean).into(),
                    true,
                ),
            ]),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::bounded::bounded_tests!(
        starting_attribute,
        StartingAttribute,
        "Body, Mind and Charm start at 1 to 3: 3, 2 and 1, one each"
    );
}
