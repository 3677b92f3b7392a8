//! Sol'una characters in the campaign (system `soluna`): the fields of a skirmish
//! character, import of a skirmish file's characters, export as one, and skirmishes fought
//! by stored characters, journaled with their dice.
//!
//! A skirmish is fought from the sheets as they are and does not change them: the text keeps
//! no wounds or spent supplies between skirmishes, so flips, dice and hit points on a sheet
//! are what a character brings to each skirmish (docs/rules.md, Sol'una).

use serde::{Deserialize, Serialize};
use solum_dice::DiceSource;
use solum_soluna::skirmish::{self, Character, Event, MAX_CHARACTERS, SkirmishFile};
use solum_store::{CampaignStore, WriteTx};

use crate::classic::{again, bad, entry, fix_seed, name_text, read_row, sheet_row};
use crate::journal::{Record, Rolled};
use crate::{AppError, Campaign, Dice};

/// The system name Sol'una characters are stored under.
pub const SYSTEM: &str = "soluna";
/// The schema of the records this build writes.
pub const SOLUNA_RECORD_SCHEMA: i64 = 1;

/// The rules and the campaign's limits on a character.
pub fn check_character(c: &Character) -> Result<(), AppError> {
    c.validate().map_err(|e| bad(e.field, e.problem))?;
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
            return Err(bad(
                cap_field,
                format!(
                    "{cap} per test is more than the supplies it caps (--{} {a}, --{} {b})",
                    dash(a_field),
                    dash(b_field)
                ),
            ));
        }
        if cap == 0 && a.max(b) > 0 {
            return Err(bad(
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

/// Which of a character's attacks a test rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolunaAttack {
    /// The melee dice (Body is the target's armour).
    Melee,
    /// The ranged dice (Body and Shield are the target's armour).
    Ranged,
}

/// A test from a character's sheet (U2): its attack dice, the flips it commits and the
/// flips against it, and a target number if there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolunaTest {
    /// The attack whose dice are rolled.
    pub attack: SolunaAttack,
    /// Positive flips the character commits: at most its flips left and its flips per test.
    #[serde(default)]
    pub flips: u32,
    /// Negative flips against the test (the other side's; 0 to 1000).
    #[serde(default)]
    pub against: u32,
    /// The target number the largest group must reach, if any.
    pub target: Option<u32>,
}

/// What a Sol'una test gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
        net_flips: request.flips as i32 - request.against as i32,
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
            .map(|t| solum_soluna::target_number(o.largest, t)),
    })
}

/// The pool of a test from a sheet, checked against the sheet and the text's limits.
fn test_dice(c: &Character, request: &SolunaTest) -> Result<u32, AppError> {
    let (dice, what) = match request.attack {
        SolunaAttack::Melee => (c.melee, "melee"),
        SolunaAttack::Ranged => (c.ranged, "ranged"),
    };
    if dice == 0 {
        return Err(bad("attack", format!("{} has no {what} dice", c.name)));
    }
    let most = c.flips.min(c.flips_per_test);
    if request.flips > most {
        return Err(bad(
            "flips",
            format!(
                "{}: {} commits at most {most} flips to a test (flips left {}, per test {})",
                request.flips, c.name, c.flips, c.flips_per_test
            ),
        ));
    }
    solum_soluna::TestSpec::new(
        i64::from(dice),
        i64::from(request.flips),
        i64::from(request.against),
    )
    .map_err(|e| bad("against", e.to_string()))?;
    if let Some(t) = request.target
        && !(1..=solum_soluna::test_limits::MAX_DICE).contains(&t)
    {
        return Err(bad("target", format!("{t}: a target number is 1 or more")));
    }
    Ok(dice)
}

/// The exact chance that the largest group reaches `target`, before the roll (none past the
/// exact odds' pool limit, or without a target).
fn p_target(dice: u32, request: &SolunaTest) -> Option<f64> {
    let target = request.target?;
    let d = solum_soluna::odds::largest_distribution(
        dice,
        request.flips as i32 - request.against as i32,
    )
    .ok()?;
    Some(solum_dice::prob_to_f64(&d.p_at_least(i64::from(target))))
}

/// A Sol'una test rolled from a sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
        Err(e) => Ok(Err(bad("skirmish", e.to_string()))),
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
            SolunaChange::Skirmish { .. } | SolunaChange::Test { .. }
        )
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > SOLUNA_RECORD_SCHEMA {
            return Err(AppError::BadImport(format!(
                "a soluna record of schema {}, newer than this solum knows",
                self.schema
            )));
        }
        match &self.change {
            SolunaChange::Created { character } => check_character(character),
            SolunaChange::Imported { characters } | SolunaChange::Skirmish { characters, .. } => {
                characters.iter().try_for_each(check_character)
            }
            SolunaChange::Test {
                character,
                request,
                dice,
                ..
            } => {
                check_character(character)?;
                if test_dice(character, request)? != *dice {
                    return Err(bad("dice", "not the attack's dice on the sheet"));
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
    pub(crate) fn replay(&self) -> Option<String> {
        if self.schema > SOLUNA_RECORD_SCHEMA {
            return Some(format!(
                "soluna record schema {} is newer than this solum knows",
                self.schema
            ));
        }
        match &self.change {
            SolunaChange::Created { character } => {
                check_character(character).err().map(|e| e.to_string())
            }
            SolunaChange::Imported { characters } => characters
                .iter()
                .try_for_each(check_character)
                .err()
                .map(|e| e.to_string()),
            SolunaChange::Test {
                request,
                dice,
                rolled,
                result,
                ..
            } => match again(rolled, |d| test_rule(*dice, request, d)) {
                Err(e) => Some(e),
                Ok(got) if got != *result => {
                    Some(crate::journal::differing_fields("result", result, &got))
                }
                Ok(_) => None,
            },
            SolunaChange::Skirmish {
                characters,
                rolled,
                end,
            } => match again(rolled, |d| skirmish_rule(characters, d)) {
                Err(e) => Some(e),
                Ok(Err(e)) => Some(format!("the skirmish cannot be fought: {e}")),
                Ok(Ok((got, _))) if got != *end => Some(format!(
                    "recorded {:?} after {} turn(s), the dice give {:?} after {}",
                    end.winner, end.turns, got.winner, got.turns
                )),
                Ok(Ok(_)) => None,
            },
        }
    }
}

/// A Sol'una character as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
pub struct SolunaChangeView {
    /// The journal entry.
    pub seq: i64,
    /// The characters stored.
    pub characters: Vec<SolunaView>,
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

fn append(tx: &mut dyn WriteTx, at: &str, change: SolunaChange) -> Result<i64, AppError> {
    let record = Record::Soluna(Box::new(SolunaRecord::new(change)));
    Ok(tx.append(&[entry(at, record)?])?[0].seq)
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
        let limit = solum_play::storage::MAX_FILE_BYTES;
        if toml_text.len() as u64 > limit {
            return Err(bad(
                "file",
                format!("{} bytes; the limit is {limit}", toml_text.len()),
            ));
        }
        let file: SkirmishFile = toml::from_str(toml_text)
            .map_err(|e| bad("file", e.to_string().trim_end().to_owned()))?;
        if file.character.is_empty() {
            return Err(bad("character", "the file lists no [[character]]"));
        }
        let mut characters = file.character;
        for (i, c) in characters.iter_mut().enumerate() {
            c.name = name_text(&format!("character[{i}].name"), &c.name)?;
            c.side = name_text(&format!("character[{i}].side"), &c.side)?;
            check_character(c).map_err(|e| bad(format!("character[{i}]"), e.to_string()))?;
        }
        let at = self.now();
        let seq = self.transact(|tx| {
            for c in &characters {
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
        toml::to_string_pretty(&SkirmishFile { character }).map_err(|e| bad("file", e.to_string()))
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
            let pool = test_dice(&c, request)?;
            let p = p_target(pool, request);
            let (result, rolled) =
                crate::journal::roll(dice.clone(), |d| test_rule(pool, request, d))?;
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
            return Err(bad(
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
                    return Err(bad(
                        "names",
                        format!("{} is named twice: a character fights once", c.name),
                    ));
                }
                characters.push(c);
            }
            let (out, rolled) =
                crate::journal::roll(dice.clone(), |d| skirmish_rule(&characters, d))?;
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
