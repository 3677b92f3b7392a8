//! Solum die-type characters in the campaign (system `dietype`): abilities with a die type,
//! skills with chances, weapons with a damage die and modifier ([`Sheet`]); edits, import
//! and export of the TOML sheet, and rolls that take the die and the chances from the sheet,
//! journaled with every die.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use solum_dietype::odds::{opposed_odds, skill_odds};
use solum_dietype::sheet::{Sheet, Weapon};
use solum_dietype::{
    DamageRoll, DieType, OpposedRoll, RollSpec, SkillRoll, roll_damage, roll_opposed, roll_skill,
};
use solum_store::{CampaignStore, WriteTx};

use crate::classic::{again, fix_seed, read_row, sheet_row};
use crate::dietype_once::{Chances, DieSteps, Difficulty};
use crate::journaling;
use crate::rolled::Rolled;
use crate::{AppError, Campaign, Dice};

/// The system name die-type characters are stored under.
pub const SYSTEM: &str = "dietype";
/// The schema of the records this build writes.
pub const DIETYPE_RECORD_SCHEMA: i64 = 1;
/// The most die-type steps a roll takes either way (d4 to d12 is four): [`DieSteps::MAX`].
pub const MAX_STEPS: i64 = DieSteps::MAX;

/// The rules and the campaign's limits on a sheet.
pub fn check_sheet(sheet: &Sheet) -> Result<(), AppError> {
    sheet
        .validate()
        .map_err(|e| crate::DieTypeRefusal::Sheet.at(e.field, e.problem))?;
    // The campaign's one name rule for every name on the sheet, and its text rule for the
    // notes.
    crate::classic::name_text("name", &sheet.name)?;
    for k in sheet.abilities.keys() {
        crate::classic::name_text("abilities", k)?;
    }
    for k in sheet.skills.keys() {
        crate::classic::name_text("skills", k)?;
    }
    for k in sheet.weapons.keys() {
        crate::classic::name_text("weapons", k)?;
    }
    if let Some(problem) = crate::text_problem(&sheet.notes, true) {
        return Err(crate::DieTypeRefusal::Sheet.at("notes", problem));
    }
    Ok(())
}

/// The changes `dietype edit` offers, applied in this order: abilities, skills, weapons
/// (set, then removed), notes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DietypeEdit {
    /// Abilities to add or change (an existing one is found in any case).
    // Each list at most a sheet's entries (`MAX_ENTRIES`): a name is given once, and a sheet
    // holds no more.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::dietype_abilities))]
    pub abilities: Vec<(String, DieType)>,
    /// Abilities to remove.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub remove_abilities: Vec<String>,
    /// Skills to add or change, with their chances.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::dietype_skills))]
    pub skills: Vec<(String, u32)>,
    /// Skills to remove.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub remove_skills: Vec<String>,
    /// Weapons to add or change.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::dietype_weapons))]
    pub weapons: Vec<(String, Weapon)>,
    /// Weapons to remove.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub remove_weapons: Vec<String>,
    /// New notes.
    pub notes: Option<String>,
}

fn set<V>(map: &mut std::collections::BTreeMap<String, V>, name: &str, value: V) {
    let key = name.trim().to_lowercase();
    let existing = map.keys().find(|k| k.to_lowercase() == key).cloned();
    map.insert(existing.unwrap_or_else(|| name.trim().to_owned()), value);
}

fn remove<V>(
    map: &mut std::collections::BTreeMap<String, V>,
    field: &str,
    who: &str,
    name: &str,
) -> Result<(), AppError> {
    let key = name.trim().to_lowercase();
    match map.keys().find(|k| k.to_lowercase() == key).cloned() {
        Some(k) => {
            map.remove(&k);
            Ok(())
        }
        None => {
            Err(crate::DieTypeRefusal::HasNo.at(field, format!("{who} has no `{}`", name.trim())))
        }
    }
}

impl DietypeEdit {
    /// Applies the edit, then checks the sheet.
    pub fn apply(&self, sheet: &mut Sheet) -> Result<(), AppError> {
        crate::refuse_contradictions(
            ("abilities", "remove_abilities"),
            true,
            self.abilities.iter().map(|(n, _)| n.as_str()),
            self.remove_abilities.iter().map(String::as_str),
        )?;
        crate::refuse_contradictions(
            ("skills", "remove_skills"),
            true,
            self.skills.iter().map(|(n, _)| n.as_str()),
            self.remove_skills.iter().map(String::as_str),
        )?;
        crate::refuse_contradictions(
            ("weapons", "remove_weapons"),
            true,
            self.weapons.iter().map(|(n, _)| n.as_str()),
            self.remove_weapons.iter().map(String::as_str),
        )?;
        let who = sheet.name.clone();
        for (n, d) in &self.abilities {
            set(&mut sheet.abilities, n, *d);
        }
        for n in &self.remove_abilities {
            remove(&mut sheet.abilities, "remove_abilities", &who, n)?;
        }
        for (n, c) in &self.skills {
            set(&mut sheet.skills, n, *c);
        }
        for n in &self.remove_skills {
            remove(&mut sheet.skills, "remove_skills", &who, n)?;
        }
        for (n, w) in &self.weapons {
            set(&mut sheet.weapons, n, *w);
        }
        for n in &self.remove_weapons {
            remove(&mut sheet.weapons, "remove_weapons", &who, n)?;
        }
        if let Some(n) = &self.notes {
            sheet.notes = n.clone();
        }
        check_sheet(sheet)
    }
}

/// What a roll from a sheet is made against. Its numbers are the one-shot roll's types,
/// held to their ranges as a request is read (serde) or a command line parsed (clap).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Against {
    /// A difficulty, 2 to 12.
    Difficulty(Difficulty),
    /// An opposed roll (D2) against this die type and chances, after its own steps.
    Opposed {
        /// The other side's die type.
        die: DieType,
        /// Its chances, 1 to 4.
        chances: Chances,
        /// Its die-type steps (armour: −1).
        step: DieSteps,
    },
}

impl Against {
    /// What a roll is against as a front end reads it from its flags, the numbers parsed
    /// at its edge: a difficulty, or another die type (as written, read here) with its
    /// chances and steps.
    pub fn typed(
        vs: Difficulty,
        opposed: Option<(&str, Chances, DieSteps)>,
    ) -> Result<Self, AppError> {
        let Some((die, chances, step)) = opposed else {
            return Ok(Self::Difficulty(vs));
        };
        let die = die
            .parse::<DieType>()
            .map_err(|e| crate::DieTypeRefusal::DieType.at("against", e.to_string()))?;
        Ok(Self::Opposed { die, chances, step })
    }
}

/// A roll as a player asks for it: the rest comes from the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DietypeRoll {
    /// The ability whose die type is rolled.
    pub ability: String,
    /// The skill whose chances are used (none: unskilled, one chance).
    pub skill: Option<String>,
    /// Die-type steps on the ability's die (+1DT, −1DT), clamped to d4..d12.
    pub step: DieSteps,
    /// The difficulty or the other side.
    #[cfg_attr(feature = "openapi", schema(schema_with = against))]
    pub against: Against,
    /// On a success (an opposed win), the weapon's damage: one die per point of quality.
    pub weapon: Option<String>,
    /// Die-type steps on the damage die (armour: −1).
    pub damage_step: DieSteps,
}

/// What a roll was built from, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RollInputs {
    /// The request, names as the sheet writes them.
    pub roll: DietypeRoll,
    /// The ability's die type on the sheet.
    pub ability_die: DieType,
    /// The die rolled, after the steps.
    pub die: DieType,
    /// The chances (the skill's, or 1).
    pub chances: u32,
    /// The weapon, when damage is rolled.
    pub weapon: Option<Weapon>,
}

/// What a roll gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RollResult {
    /// Against a difficulty: every chance.
    pub skill: Option<SkillRoll>,
    /// Opposed: both sides.
    pub opposed: Option<OpposedRoll>,
    /// The damage, on a success with a weapon.
    pub damage: Option<DamageRoll>,
    /// Success (opposed: a win).
    pub success: bool,
    /// The quality (D2).
    pub quality: u32,
}

fn roll_rule(inputs: &RollInputs, dice: &mut dyn DiceSource) -> Result<RollResult, DiceError> {
    let (mut result, quality) = match &inputs.roll.against {
        Against::Difficulty(d) => {
            let spec = RollSpec {
                die: inputs.die,
                chances: inputs.chances,
                difficulty: d.get(),
            };
            let r = roll_skill(&spec, dice)?;
            let q = r.quality;
            (
                RollResult {
                    success: r.success(),
                    quality: q,
                    skill: Some(r),
                    opposed: None,
                    damage: None,
                },
                q,
            )
        }
        Against::Opposed { die, chances, step } => {
            let r = roll_opposed(
                (inputs.die, inputs.chances),
                (die.step(step.get()), chances.get()),
                dice,
            )?;
            let q = if r.winner == 1 { r.quality } else { 0 };
            (
                RollResult {
                    success: r.winner == 1,
                    quality: q,
                    skill: None,
                    opposed: Some(r),
                    damage: None,
                },
                q,
            )
        }
    };
    if let Some(w) = inputs.weapon
        && quality > 0
    {
        let die = w.die.step(inputs.roll.damage_step.get());
        // The modifier was checked with the sheet (−4 to +4).
        result.damage = roll_damage(die, quality, i64::from(w.modifier), dice)?.ok();
    }
    Ok(result)
}

/// A change to a die-type character, with what re-derives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DietypeChange {
    /// Created.
    Created {
        /// The sheet.
        sheet: Sheet,
    },
    /// Imported from a TOML sheet.
    Imported {
        /// The sheet.
        sheet: Sheet,
    },
    /// Edited.
    Edited {
        /// The sheet before.
        before: Sheet,
        /// The edit.
        edit: DietypeEdit,
        /// The sheet after.
        after: Sheet,
    },
    /// A roll from the sheet.
    Roll {
        /// What it was built from.
        inputs: RollInputs,
        /// The dice.
        rolled: Rolled,
        /// What they gave.
        result: RollResult,
    },
}

/// A journal entry about a die-type character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DietypeRecord {
    /// [`DIETYPE_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The character.
    pub name: String,
    /// What happened.
    pub change: DietypeChange,
}

impl DietypeRecord {
    fn new(name: &str, change: DietypeChange) -> Self {
        Self {
            schema: DIETYPE_RECORD_SCHEMA,
            name: name.to_owned(),
            change,
        }
    }

    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        matches!(self.change, DietypeChange::Roll { .. })
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > DIETYPE_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a dietype record's",
                found: self.schema,
                known: DIETYPE_RECORD_SCHEMA,
            }
            .into());
        }
        crate::classic::name_text("name", &self.name)?;
        match &self.change {
            DietypeChange::Created { sheet } | DietypeChange::Imported { sheet } => {
                check_sheet(sheet)
            }
            DietypeChange::Edited { before, after, .. } => {
                check_sheet(before)?;
                check_sheet(after)
            }
            DietypeChange::Roll { .. } => Ok(()),
        }
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let n = &self.name;
        match &self.change {
            DietypeChange::Created { .. } => format!("{n} is created"),
            DietypeChange::Imported { .. } => format!("{n} joins the campaign"),
            DietypeChange::Edited { .. } => format!("{n}'s sheet changes"),
            DietypeChange::Roll { inputs, result, .. } => format!(
                "{n} rolls {} ({} ×{}): {}",
                inputs.roll.ability,
                inputs.die,
                inputs.chances,
                if result.success {
                    format!(
                        "{} (quality {})",
                        solum_dietype::quality_name(result.quality),
                        result.quality
                    )
                } else {
                    "failure".to_owned()
                }
            ),
        }
    }

    /// Re-derives the record: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<crate::Divergence> {
        use crate::Divergence;
        if let Some(newer) = Divergence::newer("dietype", self.schema, DIETYPE_RECORD_SCHEMA) {
            return Some(newer);
        }
        match &self.change {
            DietypeChange::Created { sheet } | DietypeChange::Imported { sheet } => {
                check_sheet(sheet).err().map(Divergence::refused)
            }
            DietypeChange::Edited {
                before,
                edit,
                after,
            } => {
                let mut s = before.clone();
                match edit.apply(&mut s) {
                    Err(e) => Some(Divergence::refused(format!("the edit does not apply: {e}"))),
                    Ok(()) => Divergence::fields("sheet", after, &s)
                        .map(|d| d.within(format!("the recorded sheet of {}", self.name))),
                }
            }
            DietypeChange::Roll {
                inputs,
                rolled,
                result,
            } => match again(rolled, |d| roll_rule(inputs, d)) {
                Err(e) => Some(e),
                Ok(r) => Divergence::fields("result", result, &r),
            },
        }
    }
}

/// A die-type character as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DietypeView {
    /// The sheet.
    pub sheet: Sheet,
    /// Raised by one on every change.
    pub version: i64,
}

/// A change stored: the journal entry and the sheet after.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DietypeChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The sheet after.
    pub sheet: DietypeView,
}

/// A roll from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DietypeRollView {
    /// The journal entry.
    pub seq: i64,
    /// The character.
    pub name: String,
    /// What the roll was built from.
    pub inputs: RollInputs,
    /// The chance of success (an opposed win) before the roll: exact against a
    /// difficulty; opposed, in f64 within [`solum_dietype::odds::NEGLECT`].
    pub p_success: f64,
    /// The dice.
    pub rolled: Rolled,
    /// What they gave.
    pub result: RollResult,
    /// The name of the quality shown in the verdict (opposed: the winner's, either side).
    pub quality_name: &'static str,
    /// The damage die after its steps, when damage was rolled.
    pub damage_die: Option<DieType>,
}

fn append(
    tx: &mut dyn WriteTx,
    at: &Timestamp,
    name: &str,
    change: DietypeChange,
) -> Result<i64, AppError> {
    journaling::append(tx, at, &DietypeRecord::new(name, change))
}

fn load(tx: &dyn WriteTx, name: &str) -> Result<Sheet, AppError> {
    let row = tx
        .sheet(SYSTEM, name)?
        .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
    let sheet: Sheet = read_row(&row)?;
    check_sheet(&sheet)?;
    Ok(sheet)
}

fn inputs_of(sheet: &Sheet, roll: &DietypeRoll) -> Result<RollInputs, AppError> {
    let mut roll = roll.clone();
    let (ability, ability_die) = sheet
        .ability(&roll.ability)
        .map_err(|e| crate::DieTypeRefusal::HasNo.at(e.field, e.problem))?;
    roll.ability = ability.to_owned();
    let chances = match &roll.skill {
        None => 1,
        Some(s) => {
            let (name, c) = sheet
                .skill(s)
                .map_err(|e| crate::DieTypeRefusal::HasNo.at(e.field, e.problem))?;
            roll.skill = Some(name.to_owned());
            c
        }
    };
    let weapon = match &roll.weapon {
        None => None,
        Some(w) => {
            let (name, w) = sheet
                .weapon(w)
                .map_err(|e| crate::DieTypeRefusal::HasNo.at(e.field, e.problem))?;
            roll.weapon = Some(name.to_owned());
            Some(w)
        }
    };
    Ok(RollInputs {
        die: ability_die.step(roll.step.get()),
        ability_die,
        chances,
        weapon,
        roll,
    })
}

fn p_success(inputs: &RollInputs) -> f64 {
    match &inputs.roll.against {
        Against::Difficulty(d) => {
            let spec = RollSpec {
                die: inputs.die,
                chances: inputs.chances,
                difficulty: d.get(),
            };
            solum_dice::prob_to_f64(&skill_odds(&spec).success)
        }
        Against::Opposed { die, chances, step } => {
            opposed_odds(
                (inputs.die, inputs.chances),
                (die.step(step.get()), chances.get()),
            )
            .win
        }
    }
}

impl<S: CampaignStore> Campaign<S> {
    fn store_new_dietype(
        &mut self,
        sheet: Sheet,
        imported: bool,
    ) -> Result<DietypeChangeView, AppError> {
        check_sheet(&sheet)?;
        let at = self.now();
        let seq = self.transact(|tx| {
            crate::look_alike_free(tx, SYSTEM, &sheet.name)?;
            tx.insert_sheet(&sheet_row(SYSTEM, &sheet.name, &sheet)?)?;
            let change = if imported {
                DietypeChange::Imported {
                    sheet: sheet.clone(),
                }
            } else {
                DietypeChange::Created {
                    sheet: sheet.clone(),
                }
            };
            append(tx, &at, &sheet.name, change)
        })?;
        Ok(DietypeChangeView {
            seq,
            sheet: DietypeView { sheet, version: 1 },
        })
    }

    /// Adds a die-type character: a name and the edit that fills the sheet.
    pub fn create_dietype_character(
        &mut self,
        name: &str,
        fill: &DietypeEdit,
    ) -> Result<DietypeChangeView, AppError> {
        let name = crate::classic::name_text("name", name)?;
        let mut sheet = Sheet {
            name,
            abilities: Default::default(),
            skills: Default::default(),
            weapons: Default::default(),
            notes: String::new(),
        };
        fill.apply(&mut sheet)?;
        self.store_new_dietype(sheet, false)
    }

    /// Adds a die-type character from its TOML sheet.
    pub fn import_dietype_character(
        &mut self,
        toml_text: &str,
    ) -> Result<DietypeChangeView, AppError> {
        let limit = crate::MAX_FILE_BYTES;
        if toml_text.len() as u64 > limit {
            return Err(crate::DieTypeRefusal::Sheet.at(
                "sheet",
                format!("{} bytes; the limit is {limit}", toml_text.len()),
            ));
        }
        let sheet: Sheet = toml::from_str(toml_text).map_err(|e| {
            crate::DieTypeRefusal::Sheet.at("sheet", e.to_string().trim_end().to_owned())
        })?;
        self.store_new_dietype(sheet, true)
    }

    /// A character's TOML sheet, the format [`Campaign::import_dietype_character`] reads.
    pub fn export_dietype_character(&self, name: &str) -> Result<String, AppError> {
        toml::to_string_pretty(&self.dietype_character(name)?.sheet)
            .map_err(|e| crate::AppError::internal("sheet", e.to_string()))
    }

    /// A die-type character of the campaign (the name in any case).
    pub fn dietype_character(&self, name: &str) -> Result<DietypeView, AppError> {
        let row = self
            .store
            .sheet(SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        Ok(DietypeView {
            sheet: read_row(&row)?,
            version: row.version,
        })
    }

    /// Every die-type character of the campaign, by name.
    pub fn dietype_characters(&self) -> Result<Vec<DietypeView>, AppError> {
        self.store
            .sheets(SYSTEM)?
            .iter()
            .map(|row| {
                Ok(DietypeView {
                    sheet: read_row(row)?,
                    version: row.version,
                })
            })
            .collect()
    }

    /// Changes a sheet; the result is checked before anything is stored.
    pub fn edit_dietype_character(
        &mut self,
        name: &str,
        edit: &DietypeEdit,
    ) -> Result<DietypeChangeView, AppError> {
        let at = self.now();
        self.transact(|tx| {
            let before = load(tx, name)?;
            let mut after = before.clone();
            edit.apply(&mut after)?;
            // An edit that changes nothing would only journal a no-op (as every system's).
            if after == before {
                return Err(crate::ExpandedRefusal::EditChangesNothing
                    .at("edit", "it changes nothing on the sheet"));
            }
            let row = tx.update_sheet(
                SYSTEM,
                &before.name,
                &sheet_row(SYSTEM, &after.name, &after)?,
            )?;
            let seq = append(
                tx,
                &at,
                &before.name,
                DietypeChange::Edited {
                    before: before.clone(),
                    edit: edit.clone(),
                    after: after.clone(),
                },
            )?;
            Ok(DietypeChangeView {
                seq,
                sheet: DietypeView {
                    sheet: after.clone(),
                    version: row.version,
                },
            })
        })
    }

    /// Rolls from a sheet: the ability's die type (after any steps), the skill's chances
    /// (one without a skill), against a difficulty or an opposed roll (D1, D2); on a success
    /// with a weapon, its damage dice. Journaled with its inputs and every die.
    pub fn roll_dietype_character(
        &mut self,
        name: &str,
        roll: &DietypeRoll,
        dice: Dice,
    ) -> Result<DietypeRollView, AppError> {
        let dice = fix_seed(dice);
        let at = self.now();
        self.transact(|tx| {
            let sheet = load(tx, name)?;
            let inputs = inputs_of(&sheet, roll)?;
            let p = p_success(&inputs);
            let (result, rolled) =
                crate::journaling::roll(dice.clone(), |d| roll_rule(&inputs, d))?;
            let seq = append(
                tx,
                &at,
                &sheet.name,
                DietypeChange::Roll {
                    inputs: inputs.clone(),
                    rolled: rolled.clone(),
                    result: result.clone(),
                },
            )?;
            let shown = result
                .opposed
                .as_ref()
                .map_or(result.quality, |r| r.quality);
            let damage_die = match (&result.damage, &inputs.weapon) {
                (Some(_), Some(w)) => Some(w.die.step(inputs.roll.damage_step.get())),
                _ => None,
            };
            Ok(DietypeRollView {
                seq,
                name: sheet.name.clone(),
                quality_name: solum_dietype::quality_name(shown),
                damage_die,
                inputs,
                p_success: p,
                rolled,
                result,
            })
        })
    }
}

/// The schema of what a die-type roll is against: `{"difficulty": 2..12}` or
/// `{"opposed": {"die", "chances", "step"}}`.
#[cfg(feature = "openapi")]
fn against() -> utoipa::openapi::schema::Schema {
    use crate::schema::{die_type, either, integer, object, tagged};
    either(vec![
        tagged(
            "difficulty",
            integer(Difficulty::MIN.into(), Difficulty::MAX.into()),
        ),
        tagged(
            "opposed",
            object(vec![
                ("die", die_type(), true),
                (
                    "chances",
                    integer(Chances::MIN.into(), Chances::MAX.into()),
                    true,
                ),
                ("step", integer(-MAX_STEPS, MAX_STEPS), true),
            ]),
        ),
    ])
}
