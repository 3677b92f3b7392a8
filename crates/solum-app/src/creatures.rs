//! Creatures added by the user to a campaign: NPCs and monsters of the bestiary's shape
//! (`[[creature]]` entries of a bestiary TOML file), kept in the campaign so that its combats
//! can name them like the shipped bestiary's.
//!
//! They are stored as sheets of the system [`SYSTEM`], one per creature, keyed by the
//! bestiary's key (any case, `-` and `_` read as spaces). Adding and removing are journaled.

use serde::{Deserialize, Serialize};
use solum_expanded::creature::{Bestiary, Creature, parse_bestiary};
use solum_store::{CampaignStore, Sheet, WriteTx};

use crate::journaling;
use crate::transact;
use crate::{AppError, Campaign};

/// The system name campaign creatures are stored under.
pub const SYSTEM: &str = "creature";
/// The schema version of the creature records this build writes.
pub const CREATURE_RECORD_SCHEMA: i64 = 1;
/// The longest creature name, in characters.
pub const MAX_CREATURE_NAME: usize = 100;
/// The longest notes of a creature, in characters.
pub const MAX_CREATURE_NOTES: usize = 1_000;
/// The most creatures one `creature add` takes.
pub const MAX_CREATURES_PER_ADD: usize = 100;

/// The key a creature is found by: the bestiary's (lower case, `-` and `_` as spaces).
pub(crate) fn key(name: &str) -> String {
    name.trim().to_lowercase().replace(['-', '_'], " ")
}

/// A creature's row: `None` once removed (the store keeps rows; a removed name can be
/// added again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Stored {
    creature: Option<Creature>,
}

/// A creature's row body as stored (for `journal verify`'s comparison).
pub(crate) fn stored_body(creature: Option<Creature>) -> impl Serialize {
    Stored { creature }
}

/// What happened to a campaign creature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CreatureChange {
    /// Added from a bestiary file.
    Added {
        /// The entry as added.
        creature: Creature,
    },
    /// Removed.
    Removed {
        /// The entry as it was.
        creature: Creature,
    },
}

/// A journal entry about a campaign creature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatureRecord {
    /// [`CREATURE_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The creature's name.
    pub name: String,
    /// What happened.
    pub change: CreatureChange,
}

impl CreatureRecord {
    fn creature(&self) -> &Creature {
        match &self.change {
            CreatureChange::Added { creature } | CreatureChange::Removed { creature } => creature,
        }
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let c = self.creature();
        match &self.change {
            CreatureChange::Added { .. } => format!(
                "creature {} joins the campaign's bestiary (pool {}, {} hit points, damage {})",
                c.name, c.pool, c.hit_points, c.damage
            ),
            CreatureChange::Removed { .. } => {
                format!("creature {} leaves the campaign's bestiary", c.name)
            }
        }
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > CREATURE_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a creature record's",
                found: self.schema,
                known: CREATURE_RECORD_SCHEMA,
            }
            .into());
        }
        check_creature(self.creature())
    }

    /// Re-derives the record: the entry must still be one the rules accept, under its name.
    pub(crate) fn replay(&self) -> Option<crate::Divergence> {
        use crate::Divergence;
        if let Some(newer) = Divergence::newer("creature", self.schema, CREATURE_RECORD_SCHEMA) {
            return Some(newer);
        }
        if key(&self.creature().name) != key(&self.name) {
            return Some(Divergence::inconsistent(format!(
                "the record names {} but holds the entry {}",
                self.name,
                self.creature().name
            )));
        }
        check_creature(self.creature())
            .err()
            .map(|e| Divergence::refused(format!("the entry breaks the rules: {e}")))
    }
}

/// The rules (as a `--bestiary` file's entries) and the campaign's limits on a creature.
fn check_creature(c: &Creature) -> Result<(), AppError> {
    c.validate().map_err(|e| {
        crate::CreatureRefusal::Invalid.at(format!("{}.{}", e.entry, e.field), e.problem)
    })?;
    let name = c.name.trim();
    let len = name.chars().count();
    if len > MAX_CREATURE_NAME {
        return Err(crate::CreatureRefusal::Invalid.at(
            "name",
            format!("{len} characters long; the limit is {MAX_CREATURE_NAME}"),
        ));
    }
    if name != c.name {
        return Err(crate::CreatureRefusal::Invalid
            .at(format!("{name}.name"), "starts or ends with spaces"));
    }
    let notes = c.notes.chars().count();
    if notes > MAX_CREATURE_NOTES {
        return Err(crate::CreatureRefusal::Invalid.at(
            format!("{name}.notes"),
            format!("{notes} characters long; the limit is {MAX_CREATURE_NOTES}"),
        ));
    }
    if let Some(problem) = crate::name_problem(&c.name) {
        return Err(crate::CreatureRefusal::Invalid.at(format!("{name}.name"), problem));
    }
    if let Some(problem) = crate::text_problem(&c.notes, true) {
        return Err(crate::CreatureRefusal::Invalid.at(format!("{name}.notes"), problem));
    }
    Ok(())
}

/// Where a creature listed comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum CreatureSource {
    /// The bestiary shipped with solum.
    Shipped,
    /// Added to this campaign.
    Campaign,
    /// Read from a bestiary file the command line was given (`--bestiary FILE`).
    File,
}

/// A creature as a front end shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreatureView {
    /// Its stats.
    pub creature: Creature,
    /// Shipped or the campaign's.
    pub source: CreatureSource,
}

/// A creature of [`BestiaryView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BestiaryCreature {
    /// Its stats: name, pool, hit points, `damage` of its melee weapon, `ranged_damage`
    /// when it can shoot, `anti_vehicle`, mind, notes.
    #[serde(flatten)]
    pub creature: Creature,
    /// Shipped or the campaign's (a `--bestiary` file's, on the command line only).
    pub source: CreatureSource,
    /// The word a combat line names it by (`foe orc*2`).
    pub foe: String,
}

/// The bestiary of a campaign, as the table picks foes from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BestiaryView {
    /// Creatures for standard combat, by name.
    pub creatures: Vec<BestiaryCreature>,
    /// Oppositions for fast static combat, by name.
    #[serde(rename = "static")]
    pub static_foes: Vec<solum_expanded::creature::StaticFoe>,
}

impl BestiaryCreature {
    fn of(creature: Creature, source: CreatureSource) -> Self {
        Self {
            foe: creature
                .name
                .split_whitespace()
                .collect::<Vec<_>>()
                .join("-"),
            creature,
            source,
        }
    }
}

impl BestiaryView {
    /// A bestiary read from files ([`bestiary_with`]), as `GET /api/bestiary` shows a
    /// campaign's: the shipped creatures and oppositions with each file's, by name.
    pub fn of(bestiary: &Bestiary) -> Self {
        let shipped = Bestiary::shipped();
        let mut creatures: Vec<BestiaryCreature> = bestiary
            .creatures()
            .map(|c| {
                let source = if shipped.creature(&c.name) == Some(c) {
                    CreatureSource::Shipped
                } else {
                    CreatureSource::File
                };
                BestiaryCreature::of(c.clone(), source)
            })
            .collect();
        creatures.sort_by_key(|c| key(&c.creature.name));
        Self {
            creatures,
            static_foes: bestiary.static_foes().cloned().collect(),
        }
    }
}

/// A creature added or removed, with its journal entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreatureChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The creature.
    pub creature: Creature,
}

fn stored(sheet: &Sheet) -> Result<Option<Creature>, AppError> {
    let s: Stored = serde_json::from_value(sheet.body.clone()).map_err(|e| {
        crate::CreatureRefusal::Stored.at(
            "creature",
            format!("the stored creature {} cannot be read: {e}", sheet.name),
        )
    })?;
    Ok(s.creature)
}

fn row(name_key: &str, creature: Option<Creature>) -> Result<Sheet, AppError> {
    Ok(Sheet {
        system: SYSTEM.into(),
        name: name_key.to_owned(),
        schema: CREATURE_RECORD_SCHEMA,
        version: 0,
        body: serde_json::to_value(Stored { creature })
            .map_err(|e| crate::AppError::internal("creature", e.to_string()))?,
    })
}

/// The campaign's creature of that name, read inside a write transaction.
pub(crate) fn campaign_creature(
    tx: &dyn WriteTx,
    name: &str,
) -> Result<Option<Creature>, AppError> {
    match tx.sheet(SYSTEM, &key(name))? {
        Some(sheet) => stored(&sheet),
        None => Ok(None),
    }
}

impl<S: CampaignStore> Campaign<S> {
    /// Adds the `[[creature]]` entries of a bestiary file (TOML) to the campaign, checked as
    /// a `--bestiary` file's are. A name of the shipped bestiary or one the campaign holds
    /// already is refused; all entries are added, or none.
    pub fn add_creatures(&mut self, toml_text: &str) -> Result<Vec<CreatureChangeView>, AppError> {
        let limit = crate::MAX_FILE_BYTES;
        if toml_text.len() as u64 > limit {
            return Err(crate::CreatureRefusal::File.at(
                "file",
                format!("{} bytes; the limit is {limit}", toml_text.len()),
            ));
        }
        let file = parse_bestiary(toml_text).map_err(|e| {
            crate::CreatureRefusal::File.at("file", e.to_string().trim_end().replace('\n', "\n  "))
        })?;
        if !file.static_foes.is_empty() {
            return Err(crate::CreatureRefusal::File.at(
                "static",
                "the campaign keeps creatures for combat (`[[creature]]`); static oppositions stay in --bestiary files",
            ));
        }
        if file.creature.is_empty() {
            return Err(
                crate::CreatureRefusal::File.at("creature", "the file has no `[[creature]]` entry")
            );
        }
        if file.creature.len() > MAX_CREATURES_PER_ADD {
            return Err(crate::CreatureRefusal::File.at(
                "creature",
                format!(
                    "{} entries; one file adds at most {MAX_CREATURES_PER_ADD}",
                    file.creature.len()
                ),
            ));
        }
        // The bestiary's own checks, duplicates in the file included.
        Bestiary::default().add(file.clone()).map_err(|e| {
            crate::CreatureRefusal::Invalid.at(format!("{}.{}", e.entry, e.field), e.problem)
        })?;
        let shipped = Bestiary::shipped();
        for c in &file.creature {
            check_creature(c)?;
            if shipped.creature(&c.name).is_some() {
                return Err(crate::CreatureRefusal::NameTaken.at(
                    format!("{}.name", c.name),
                    "the shipped bestiary has a creature of that name; choose another",
                ));
            }
        }
        let at = self.now();
        transact(&mut self.store, &self.by, |tx| {
            let mut views = Vec::new();
            let mut entries = Vec::new();
            for c in &file.creature {
                let k = key(&c.name);
                let existing = tx.sheet(SYSTEM, &k)?;
                match &existing {
                    Some(sheet) if stored(sheet)?.is_some() => {
                        return Err(crate::CreatureRefusal::NameTaken.at(
                            format!("{}.name", c.name),
                            "the campaign has a creature of that name already (remove it first)",
                        ));
                    }
                    Some(_) => {
                        tx.update_sheet(SYSTEM, &k, &row(&k, Some(c.clone()))?)?;
                    }
                    None => tx.insert_sheet(&row(&k, Some(c.clone()))?)?,
                }
                entries.push(journaling::new_entry(
                    &at,
                    &CreatureRecord {
                        schema: CREATURE_RECORD_SCHEMA,
                        name: c.name.clone(),
                        change: CreatureChange::Added {
                            creature: c.clone(),
                        },
                    },
                )?);
            }
            for (entry, c) in tx.append(&entries)?.into_iter().zip(&file.creature) {
                views.push(CreatureChangeView {
                    seq: entry.seq,
                    creature: c.clone(),
                });
            }
            Ok(views)
        })
    }

    /// Every creature a combat of this campaign can name: the shipped bestiary's and the
    /// campaign's, by name.
    pub fn creatures(&self) -> Result<Vec<CreatureView>, AppError> {
        let mut out: Vec<CreatureView> = Bestiary::shipped()
            .creatures()
            .map(|c| CreatureView {
                creature: c.clone(),
                source: CreatureSource::Shipped,
            })
            .collect();
        for sheet in self.store.sheets(SYSTEM)? {
            if let Some(c) = stored(&sheet)? {
                out.push(CreatureView {
                    creature: c,
                    source: CreatureSource::Campaign,
                });
            }
        }
        out.sort_by_key(|v| key(&v.creature.name));
        Ok(out)
    }

    /// The bestiary a table fights from: every creature a combat can name (the shipped
    /// bestiary's and the campaign's, with the word a `foe` line names it by) and the shipped
    /// oppositions of fast static combat (S11).
    pub fn bestiary(&self) -> Result<BestiaryView, AppError> {
        let creatures = self
            .creatures()?
            .into_iter()
            .map(|view| BestiaryCreature::of(view.creature, view.source))
            .collect();
        Ok(BestiaryView {
            creatures,
            static_foes: Bestiary::shipped().static_foes().cloned().collect(),
        })
    }

    /// One creature, the campaign's or the shipped bestiary's (any case).
    pub fn creature(&self, name: &str) -> Result<CreatureView, AppError> {
        if let Some(sheet) = self.store.sheet(SYSTEM, &key(name))?
            && let Some(c) = stored(&sheet)?
        {
            return Ok(CreatureView {
                creature: c,
                source: CreatureSource::Campaign,
            });
        }
        Bestiary::shipped()
            .creature(name)
            .map(|c| CreatureView {
                creature: c.clone(),
                source: CreatureSource::Shipped,
            })
            .ok_or_else(|| no_creature(name))
    }

    /// Removes a campaign creature (combats it fought in keep their copy of it).
    pub fn remove_creature(&mut self, name: &str) -> Result<CreatureChangeView, AppError> {
        let at = self.now();
        transact(&mut self.store, &self.by, |tx| {
            let k = key(name);
            let Some(c) = campaign_creature(tx, name)? else {
                return Err(if Bestiary::shipped().creature(name).is_some() {
                    crate::CreatureRefusal::Shipped.at(
                        "creature",
                        format!(
                            "{} is in the shipped bestiary and cannot be removed",
                            name.trim()
                        ),
                    )
                } else {
                    no_creature(name)
                });
            };
            tx.update_sheet(SYSTEM, &k, &row(&k, None)?)?;
            let record = CreatureRecord {
                schema: CREATURE_RECORD_SCHEMA,
                name: c.name.clone(),
                change: CreatureChange::Removed {
                    creature: c.clone(),
                },
            };
            let seq = journaling::append(tx, &at, &record)?;
            Ok(CreatureChangeView { seq, creature: c })
        })
    }
}

/// The shipped bestiary extended by bestiary files' texts (`--bestiary FILE`), later
/// entries replacing earlier ones. A refusal says which text (its index, from 0) and why.
pub fn bestiary_with<'a>(
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<Bestiary, (usize, crate::TextFileError)> {
    use crate::TextFileError;
    let mut bestiary = Bestiary::shipped();
    for (i, text) in texts.into_iter().enumerate() {
        let file = parse_bestiary(text).map_err(|e| {
            (
                i,
                TextFileError::Parse(e.to_string().trim_end().replace('\n', "\n  ")),
            )
        })?;
        bestiary.add(file).map_err(|e| {
            (
                i,
                TextFileError::Invalid {
                    field: format!("{}.{}", e.entry, e.field),
                    problem: e.problem,
                },
            )
        })?;
    }
    Ok(bestiary)
}

fn no_creature(name: &str) -> AppError {
    crate::CreatureRefusal::Unknown.at(
        "creature",
        format!(
            "no creature named {} in the campaign or the shipped bestiary",
            name.trim()
        ),
    )
}

/// The campaign's creature of that name, read outside a transaction.
pub(crate) fn campaign_creature_of<S: CampaignStore>(
    store: &S,
    name: &str,
) -> Result<Option<Creature>, AppError> {
    match store.sheet(SYSTEM, &key(name))? {
        Some(sheet) => stored(&sheet),
        None => Ok(None),
    }
}
