//! The line language of `solum combat`: the same lines drive a script and an interactive
//! session.
//!
//! ```text
//! # setup: who fights, on which side, where
//! hero nick.toml hold=dagger         # a character sheet (its backgrounds named per roll)
//! hero Osric pool=2 hp=5 damage=2 mind=1 bg   # typed in: bg, a background for initiative
//! foe orc*4                          # bestiary creatures: orc-1 … orc-4
//! foe Champion pool=4 hp=6 damage=2 mind=3 ranged=1
//! vehicle smuggler side=smugglers hero mind=2 bg hull=5 speed=average handling=average damage=2 scale=large
//! mode alternative                   # or standard (the default)
//! draws roll-off                     # draws are rolled off (or stand, the default)
//! place Nick orc-1 engaged
//! # the fight
//! initiative with 4,3,3,3,3          # typed dice for this line; without `with`, the seed
//! initiative bg Nick="Acrobat Thief"  # S18: a background for one hero's roll
//! ambush heroes | order Nick orc-1 …
//! move closer orc-1 | move away orc-1 | chase away customs
//! melee orc-1 | unarmed orc-1 | shoot orc-2 | vattack customs
//! melee orc-1 bg Sailor defend-bg Brute   # S18: the roller's background for this roll only
//! switch sword | switch ranged      # change weapons (a name, melee, ranged, unarmed): the action
//! act open the door
//! end
//! ```
//!
//! Heroes are on side `heroes` and foes on side `foes` unless `side=` says otherwise.

use std::path::PathBuf;

use solum_dice::{DiceSource, RecordingDice, TypedDice, parse_faces};
use thiserror::Error;

use crate::Pool;
use crate::character::Character;
use crate::check::DrawRule;
use crate::combat::{
    Combat, CombatError, Command, Direction, Event, Fighter, Mode, RangeBand, RollBackgrounds,
};
use crate::creature::{Bestiary, BestiaryFile, Creature};
use crate::vehicle::{Scale, Vehicle};

/// Where a `hero FILE` line finds its character sheet. This crate reads no file: a front
/// end that lets a script name sheet files gives the session a resolver
/// ([`Session::with_sheets`]); without one such a line is refused.
pub trait SheetResolver {
    /// The character of the sheet `path` names (as written on the line), or why it cannot
    /// be had, in words that name the sheet.
    fn sheet(&self, path: &str) -> Result<Character, String>;
}

/// A line that could not be run, with its number.
#[derive(Debug, Error)]
pub enum LineError {
    /// The line does not parse.
    #[error("{0}")]
    Syntax(String),
    /// The sheet named on the line could not be had (the message names it).
    #[error("{0}")]
    Sheet(String),
    /// The rules refuse the command.
    #[error(transparent)]
    Combat(#[from] CombatError),
    /// Typed dice given with `with` ran out.
    #[error(
        "too few values after `with`: {given} given, the command needs more (they go in the order the dice are rolled: each pool, then any Rule-of-6 chain{})",
        roll_off_note(.roll_off)
    )]
    TooFewDice {
        /// Values typed.
        given: usize,
        /// Whether draws are rolled off (S14), so roll-off dice may follow.
        roll_off: bool,
    },
    /// Typed dice given with `with` were not all used.
    #[error("too many values after `with`: {given} given, the command used {used}")]
    UnusedDice {
        /// Values typed.
        given: usize,
        /// Values used.
        used: usize,
    },
}

/// The roll-off dice in the order of typed values, when draws are rolled off (S14).
fn roll_off_note(roll_off: &bool) -> &'static str {
    if *roll_off {
        ", then roll-off dice"
    } else {
        ""
    }
}

/// The most fighters one combat holds (S6 sets no number; a table's largest battles stay far
/// below it).
pub const MAX_FIGHTERS: usize = 200;

fn syntax(msg: impl Into<String>) -> LineError {
    LineError::Syntax(msg.into())
}

/// Splits a line into words; "double quotes" keep spaces. A `#` starts a comment.
pub fn words(line: &str) -> Result<Vec<String>, LineError> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut has_word = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                has_word = true;
            }
            '#' if !quoted => break,
            c if c.is_whitespace() && !quoted => {
                if has_word {
                    out.push(std::mem::take(&mut current));
                    has_word = false;
                }
            }
            c => {
                current.push(c);
                has_word = true;
            }
        }
    }
    if quoted {
        return Err(syntax("a quote is not closed"));
    }
    if has_word {
        out.push(current);
    }
    Ok(out)
}

/// What a line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// Nothing (blank or comment).
    Blank,
    /// Add a fighter.
    Fighter(FighterLine),
    /// Switch to alternative or standard combat.
    Mode(Mode),
    /// What a draw means in opposed rolls (S14).
    Draws(DrawRule),
    /// Place two fighters.
    Place(String, String, RangeBand),
    /// A combat command with names, typed dice if any, and the backgrounds named for its
    /// rolls (S18).
    Command(NamedCommand, Option<Vec<u32>>, Vec<NamedBackground>),
    /// Show the fighters.
    Status,
    /// Show the acting fighter's options with odds.
    Options,
    /// Show the line language.
    Help,
    /// Leave.
    Quit,
}

/// A fighter to add.
#[derive(Debug, Clone, PartialEq)]
pub enum FighterLine {
    /// From a character sheet.
    Sheet {
        /// The file.
        path: PathBuf,
        /// A background helps in combat and initiative.
        background: bool,
        /// Side (default heroes).
        side: Option<String>,
        /// Name override.
        name: Option<String>,
        /// The weapon in hand at the start, if named (S13).
        hold: Option<String>,
    },
    /// Inline stats.
    Inline {
        /// Hero (rolls initiative) or foe.
        hero: bool,
        /// Name.
        name: String,
        /// key=value pairs and flags.
        stats: Vec<(String, String)>,
    },
    /// Bestiary creatures, `count` of them; or, in a session that holds characters (see
    /// [`Session::add_character`]), a character by name.
    Creature {
        /// The bestiary name (or a character's name).
        creature: String,
        /// How many.
        count: u32,
        /// Name override (for one).
        name: Option<String>,
        /// Side (default foes).
        side: Option<String>,
        /// `bg`: a background helps (a character only).
        background: bool,
        /// `hold=`: the weapon in hand at the start.
        hold: Option<String>,
    },
    /// A piloted vehicle.
    Vehicle {
        /// Name.
        name: String,
        /// key=value pairs and flags.
        stats: Vec<(String, String)>,
    },
}

/// Who names a background for a roll of a command (S18).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackgroundFor {
    /// `bg NAME`: the acting fighter.
    Actor,
    /// `defend-bg NAME`: the defender of a melee attack.
    Defender,
    /// `bg FIGHTER=NAME`: a fighter by name (each hero's initiative roll).
    Fighter(String),
}

/// A background named on a command line for one roller's roll (S18).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedBackground {
    /// Whose roll.
    pub who: BackgroundFor,
    /// The background, as the roller's sheet has it (any case).
    pub background: String,
}

/// The most backgrounds one line names: one per roller, and an initiative line has one
/// roller per hero.
pub const MAX_LINE_BACKGROUNDS: usize = MAX_FIGHTERS;

/// Takes `bg NAME`, `bg FIGHTER=NAME` and `defend-bg NAME` out of a command's words.
fn take_backgrounds(words: &mut Vec<String>) -> Result<Vec<NamedBackground>, LineError> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < words.len() {
        let key = words[i].to_ascii_lowercase();
        let defend = matches!(key.as_str(), "defend-bg" | "defence-bg" | "defense-bg");
        if key != "bg" && !defend {
            i += 1;
            continue;
        }
        let Some(value) = words.get(i + 1).cloned() else {
            return Err(syntax(format!(
                "`{key}` needs a background (quote one with spaces: {key} \"Street Urchin\")"
            )));
        };
        let who = match value.split_once('=') {
            Some((f, b)) if !defend => {
                let named = NamedBackground {
                    who: BackgroundFor::Fighter(f.trim().to_owned()),
                    background: b.trim().to_owned(),
                };
                out.push(named);
                words.drain(i..i + 2);
                continue;
            }
            _ if defend => BackgroundFor::Defender,
            _ => BackgroundFor::Actor,
        };
        out.push(NamedBackground {
            who,
            background: value.trim().to_owned(),
        });
        words.drain(i..i + 2);
    }
    if let Some(b) = out.iter().find(|b| b.background.is_empty()) {
        let _ = b;
        return Err(syntax("an empty background: name one of the sheet's"));
    }
    if out.len() > MAX_LINE_BACKGROUNDS {
        return Err(syntax(format!(
            "{} backgrounds on one line: at most {MAX_LINE_BACKGROUNDS}, one per roller",
            out.len()
        )));
    }
    Ok(out)
}

/// A combat command naming fighters instead of indices.
#[derive(Debug, Clone, PartialEq)]
pub enum NamedCommand {
    /// `initiative`
    Initiative,
    /// `ambush SIDE`
    Ambush(String),
    /// `order A B …`
    Order(Vec<String>),
    /// `move closer|away T`
    Move(Direction, String),
    /// `chase closer|away T`
    Chase(Direction, String),
    /// `melee T`
    Melee(String),
    /// `unarmed T` (or `melee T unarmed`)
    Unarmed(String),
    /// `switch WEAPON`
    Switch(String),
    /// `shoot T`
    Shoot(String),
    /// `vattack T`
    VehicleAttack(String),
    /// `act …`
    Act(String),
    /// `end`
    EndTurn,
}

fn key_values(words: &[String]) -> Vec<(String, String)> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_ascii_lowercase(), v.to_owned()),
            None => (w.to_ascii_lowercase(), String::new()),
        })
        .collect()
}

fn direction(word: Option<&String>) -> Result<Direction, LineError> {
    match word.map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("closer") | Some("in") | Some("toward") => Ok(Direction::Closer),
        Some("away") | Some("out") => Ok(Direction::Away),
        _ => Err(syntax("say `closer` or `away`, then the target")),
    }
}

fn one_target(rest: &[String], verb: &str) -> Result<String, LineError> {
    match rest {
        [t] => Ok(t.clone()),
        [] => Err(syntax(format!("`{verb}` needs a target"))),
        _ => Err(syntax(format!(
            "`{verb}` takes one target (quote names with spaces)"
        ))),
    }
}

/// The words that start a line that is not a combat command: their `bg` is a typed-in
/// fighter's flag or a free word, never a background named for a roll (S18).
const NOT_COMMANDS: &[&str] = &[
    "hero", "foe", "vehicle", "mode", "draws", "place", "status", "options", "odds", "help", "?",
    "quit", "exit", "act", "order",
];

/// The words that start a line that rolls no dice: `with …` on them is refused.
const NO_DICE: &[&str] = &[
    "hero", "foe", "vehicle", "mode", "draws", "place", "status", "options", "help", "quit",
];

/// Parses one line.
pub fn parse_line(line: &str) -> Result<Line, LineError> {
    let mut w = words(line)?;
    if w.is_empty() {
        return Ok(Line::Blank);
    }
    // Typed dice: `… with 4,3,3`.
    let mut dice = None;
    if let Some(pos) = w.iter().position(|x| x.eq_ignore_ascii_case("with")) {
        let values = w[pos + 1..].join(",");
        dice = Some(parse_faces(&values).map_err(|e| syntax(format!("after `with`: {e}")))?);
        w.truncate(pos);
    }
    let verb = w[0].to_ascii_lowercase();
    // S18: the backgrounds named for the command's rolls.
    let backgrounds = if NOT_COMMANDS.contains(&verb.as_str()) {
        Vec::new()
    } else {
        take_backgrounds(&mut w)?
    };
    if dice.is_some() && NO_DICE.contains(&verb.as_str()) {
        return Err(syntax(format!("`{verb}` rolls no dice: drop `with …`")));
    }
    let rest = &w[1..];
    if let Some(line) = setup_line(&verb, rest)? {
        return Ok(line);
    }
    let named = command_words(&verb, rest)?;
    Ok(match named {
        Some(c) => Line::Command(c, dice, backgrounds),
        None => match verb.as_str() {
            "status" => Line::Status,
            "options" | "odds" => Line::Options,
            "help" | "?" => Line::Help,
            "quit" | "exit" => Line::Quit,
            other => return Err(syntax(format!("`{other}` is not a command (try `help`)"))),
        },
    })
}

/// A setup line (`hero`, `foe`, `vehicle`, `mode`, `draws`, `place`), or `None` for any
/// other verb.
fn setup_line(verb: &str, rest: &[String]) -> Result<Option<Line>, LineError> {
    Ok(Some(match verb {
        "hero" | "foe" => Line::Fighter(fighter_line(verb, rest)?),
        "vehicle" => {
            let name = rest
                .first()
                .ok_or_else(|| syntax("`vehicle` needs a name"))?;
            Line::Fighter(FighterLine::Vehicle {
                name: name.clone(),
                stats: key_values(&rest[1..]),
            })
        }
        "mode" => match rest.first().map(|m| m.to_ascii_lowercase()).as_deref() {
            Some("alternative") => Line::Mode(Mode::Alternative),
            Some("standard") => Line::Mode(Mode::Standard),
            _ => return Err(syntax("`mode standard` or `mode alternative`")),
        },
        "draws" => match rest.first().map(|m| m.to_ascii_lowercase()).as_deref() {
            Some("roll-off" | "rolloff") => Line::Draws(DrawRule::RollOff),
            Some("stand") => Line::Draws(DrawRule::Stand),
            _ => return Err(syntax("`draws roll-off` or `draws stand`")),
        },
        "place" => match rest {
            [a, b, band] => Line::Place(
                a.clone(),
                b.clone(),
                band.parse()
                    .map_err(|e: solum_dice::UnknownWord| syntax(e.to_string()))?,
            ),
            _ => return Err(syntax("`place A B engaged|nearby|far`")),
        },
        _ => return Ok(None),
    }))
}

/// The fighter of a `hero …` or `foe …` line: a sheet file, typed-in stats, or creatures of
/// the bestiary (or a character the session holds).
fn fighter_line(verb: &str, rest: &[String]) -> Result<FighterLine, LineError> {
    let hero = verb == "hero";
    let first = rest
        .first()
        .ok_or_else(|| syntax(format!("`{verb}` needs a sheet file, a creature or a name")))?;
    let options = key_values(&rest[1..]);
    let opt = |key: &str| {
        options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let name = rest
        .iter()
        .position(|x| x == "as")
        .and_then(|i| rest.get(i + 1).cloned());
    if first.ends_with(".toml") {
        return Ok(FighterLine::Sheet {
            path: PathBuf::from(first),
            background: options.iter().any(|(k, _)| k == "bg"),
            side: opt("side"),
            name,
            hold: opt("hold"),
        });
    }
    if options.iter().any(|(k, _)| k == "pool") {
        return Ok(FighterLine::Inline {
            hero,
            name: first.clone(),
            stats: options,
        });
    }
    let (creature, count) = match first.split_once('*') {
        Some((c, n)) => (
            c.to_owned(),
            n.parse::<u32>()
                .ok()
                .filter(|n| (1..=100).contains(n))
                .ok_or_else(|| syntax(format!("`*{n}`: a count from 1 to 100")))?,
        ),
        None => (first.clone(), 1),
    };
    Ok(FighterLine::Creature {
        creature,
        count,
        name,
        side: opt("side").or_else(|| hero.then(|| "heroes".to_owned())),
        background: options.iter().any(|(k, _)| k == "bg"),
        hold: opt("hold"),
    })
}

/// The combat command a verb and its words name, or `None` for a verb that is no command.
fn command_words(verb: &str, rest: &[String]) -> Result<Option<NamedCommand>, LineError> {
    Ok(Some(match verb {
        "initiative" => NamedCommand::Initiative,
        "ambush" => NamedCommand::Ambush(one_target(rest, "ambush")?),
        "order" if !rest.is_empty() => NamedCommand::Order(rest.to_vec()),
        "order" => return Err(syntax("`order` lists every fighter, first to act first")),
        "move" => NamedCommand::Move(direction(rest.first())?, one_target(&rest[1..], "move")?),
        "chase" => NamedCommand::Chase(direction(rest.first())?, one_target(&rest[1..], "chase")?),
        "melee" | "attack" => match rest {
            [t, how] if how.eq_ignore_ascii_case("unarmed") => NamedCommand::Unarmed(t.clone()),
            _ => NamedCommand::Melee(one_target(rest, verb)?),
        },
        "unarmed" | "punch" => NamedCommand::Unarmed(one_target(rest, verb)?),
        "switch" if !rest.is_empty() => NamedCommand::Switch(rest.join(" ")),
        "switch" => {
            return Err(syntax(
                "`switch` names a weapon carried, or `melee`, `ranged`, `unarmed`",
            ));
        }
        "shoot" => NamedCommand::Shoot(one_target(rest, "shoot")?),
        "vattack" | "vehicle-attack" => NamedCommand::VehicleAttack(one_target(rest, verb)?),
        "act" => NamedCommand::Act(rest.join(" ")),
        "end" | "next" => NamedCommand::EndTurn,
        _ => return Ok(None),
    }))
}

/// The help text of the line language.
pub const HELP: &str = "\
setup:    hero FILE.toml [bg] [side=S] [hold=WEAPON] [as NAME]
          hero NAME pool=N hp=N damage=N [mind=N] [ranged=N] [hold=melee|ranged] [bg]
          foe CREATURE[*N] [as NAME] | foe NAME pool=N hp=N damage=N [mind=N] [ranged=N] [hold=…]
          vehicle NAME [side=S] [hero] mind=N [bg] hull=N speed=S handling=H damage=N scale=car|large
          mode standard|alternative | draws stand|roll-off | place A B engaged|nearby|far
start:    initiative (alternative combat: listed order, no roll) | ambush SIDE | order A B ...
turn:     move closer|away T | chase closer|away T | melee T | unarmed T | shoot T | vattack T
          switch WEAPON|melee|ranged|unarmed (the action) | act WHAT | end
          bg NAME: the roller's background for this roll (melee, unarmed, shoot, a disengage)
          defend-bg NAME: the melee defender's | initiative bg HERO=NAME (one per hero)
dice:     add `with 4,3,3` to a line (last) to use dice rolled by hand
other:    status | options | help | quit";

/// A combat being set up or fought, driven line by line.
pub struct Session {
    bestiary: Bestiary,
    /// Where `hero FILE` lines find their sheets (none: such lines are refused).
    sheets: Option<Box<dyn SheetResolver>>,
    /// Sheets already had, by the path a line names them with, found before `sheets`.
    known_sheets: Vec<(String, Character)>,
    setup: Vec<Fighter>,
    mode: Mode,
    draws: DrawRule,
    places: Vec<(usize, usize, RangeBand)>,
    combat: Option<Combat>,
    /// Characters a `hero NAME` line may name (a campaign's), before the bestiary.
    characters: Vec<Character>,
    /// Whether `bg` on a sheet's or a character's fighter line is taken as written before
    /// S18 (a background on every roll of the fight): only to replay such stored lines.
    legacy_background_flag: bool,
}

fn stat<T: std::str::FromStr>(
    stats: &[(String, String)],
    key: &str,
) -> Result<Option<T>, LineError> {
    stats
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| {
            v.parse::<T>()
                .map_err(|_| syntax(format!("`{key}={v}` is not a valid {key}")))
        })
        .transpose()
}

fn required<T: std::str::FromStr>(stats: &[(String, String)], key: &str) -> Result<T, LineError> {
    stat(stats, key)?.ok_or_else(|| syntax(format!("`{key}=` is missing")))
}

fn flag(stats: &[(String, String)], key: &str) -> bool {
    stats.iter().any(|(k, _)| k == key)
}

fn pool(n: u64, what: &str) -> Result<Pool, LineError> {
    Pool::new(n).map_err(|e| syntax(format!("{what}: {e}")))
}

fn parse_enum<T: serde::de::DeserializeOwned>(
    value: &str,
    key: &str,
    options: &str,
) -> Result<T, LineError> {
    use serde::de::IntoDeserializer;
    let lower = value.to_ascii_lowercase();
    let word: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        lower.as_str().into_deserializer();
    T::deserialize(word).map_err(|_| syntax(format!("`{key}={value}`: one of {options}")))
}

impl Session {
    /// A session with this bestiary, where `hero FILE` lines are refused.
    pub fn new(bestiary: Bestiary) -> Self {
        Self {
            bestiary,
            sheets: None,
            known_sheets: Vec::new(),
            setup: Vec::new(),
            mode: Mode::Standard,
            draws: DrawRule::Stand,
            places: Vec::new(),
            combat: None,
            characters: Vec::new(),
            legacy_background_flag: false,
        }
    }

    /// A session with this bestiary whose `hero FILE` lines find their sheets through
    /// `sheets`.
    pub fn with_sheets(bestiary: Bestiary, sheets: Box<dyn SheetResolver>) -> Self {
        Self {
            sheets: Some(sheets),
            ..Self::new(bestiary)
        }
    }

    /// Lets a `hero PATH` line find this sheet without asking the resolver: a line replayed
    /// later brings the copy of the sheet it read the first time.
    pub fn add_sheet(&mut self, path: &str, character: Character) {
        self.known_sheets.retain(|(p, _)| p != path);
        self.known_sheets.push((path.to_owned(), character));
    }

    /// The sheet a `hero PATH` line names: a sheet already had, else the resolver's.
    pub fn sheet(&self, path: &str) -> Result<Character, LineError> {
        if let Some((_, c)) = self.known_sheets.iter().find(|(p, _)| p == path) {
            return Ok(c.clone());
        }
        match &self.sheets {
            Some(sheets) => sheets.sheet(path).map_err(LineError::Sheet),
            None => Err(syntax(format!(
                "`{path}`: sheet files are not read here; name a character instead"
            ))),
        }
    }

    /// Takes `bg` on a sheet's or a character's fighter line as lines stored before S18
    /// meant it (a background on every roll), to replay them; new lines name a background
    /// per roll instead, and `bg` there is refused.
    pub fn set_legacy_background_flag(&mut self, legacy: bool) {
        self.legacy_background_flag = legacy;
    }

    fn refuse_standing_background(&self, background: bool, who: &str) -> Result<(), LineError> {
        if background && !self.legacy_background_flag {
            return Err(syntax(format!(
                "`bg` on {who}'s line would add a background to every roll: a background is named per roll instead (S18), e.g. `melee orc bg Sailor`, `defend-bg Sailor` on the attacker's line, `initiative bg {who}=Sailor`"
            )));
        }
        Ok(())
    }

    /// Lets `hero NAME` (or `foe NAME`) name this character: it fights from its sheet, under
    /// its own name, with the hit points the sheet has now. A character is found before a
    /// bestiary creature of the same name.
    pub fn add_character(&mut self, character: Character) {
        self.characters
            .retain(|c| !c.name.eq_ignore_ascii_case(&character.name));
        self.characters.push(character);
    }

    /// The character a name finds (any case), if the session holds one.
    pub fn character(&self, name: &str) -> Option<&Character> {
        let name = name.trim();
        self.characters
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// Adds creatures to the session's bestiary (validated as a bestiary file's).
    pub fn add_creatures(&mut self, creatures: Vec<Creature>) -> Result<(), LineError> {
        self.bestiary
            .add(BestiaryFile {
                creature: creatures,
                static_foes: Vec::new(),
            })
            .map_err(|e| syntax(e.to_string()))
    }

    /// The bestiary `foe CREATURE` lines draw from.
    pub fn bestiary(&self) -> &Bestiary {
        &self.bestiary
    }

    /// Runs a line as [`Session::run`] does and also returns the faces it drew from `dice`,
    /// in order (none for a line whose dice were typed with `with`: those are in the line).
    /// Replaying the line on the same session state with these faces as a scripted source
    /// gives the same events.
    pub fn run_recorded(
        &mut self,
        line: &Line,
        dice: &mut dyn DiceSource,
    ) -> Result<(Vec<Event>, Vec<u32>), LineError> {
        let mut recording = RecordingDice::new(dice);
        let events = self.run(line, &mut recording)?;
        let faces = recording.faces().iter().map(|&(_, f)| f).collect();
        Ok((events, faces))
    }

    /// Sets what a draw means (the roll-off option, S14); before the combat starts.
    pub fn set_draws(&mut self, draws: DrawRule) -> Result<(), LineError> {
        if self.combat.is_some() {
            return Err(syntax("the combat has started: set the draws before"));
        }
        self.draws = draws;
        Ok(())
    }

    /// The combat, once started.
    pub fn combat(&self) -> Option<&Combat> {
        self.combat.as_ref()
    }

    /// The fighters (set up, or in the combat with their hit points now).
    pub fn fighters(&self) -> &[Fighter] {
        match &self.combat {
            Some(c) => c.fighters(),
            None => &self.setup,
        }
    }

    fn index(&self, name: &str) -> Result<usize, LineError> {
        let fighters = self.fighters();
        fighters
            .iter()
            .position(|f| f.name == name)
            .or_else(|| {
                fighters
                    .iter()
                    .position(|f| f.name.eq_ignore_ascii_case(name))
            })
            .ok_or_else(|| {
                let names: Vec<&str> = fighters.iter().map(|f| f.name.as_str()).collect();
                syntax(format!(
                    "no fighter is called `{name}` (there are: {})",
                    names.join(", ")
                ))
            })
    }

    fn add(&mut self, fighter: Fighter) -> Result<(), LineError> {
        // A combat keeps a range band for every pair of fighters and finds fighters by name:
        // both grow with the square of the count, so the count is bounded before they do.
        if self.setup.len() >= MAX_FIGHTERS {
            return Err(syntax(format!(
                "a combat holds at most {MAX_FIGHTERS} fighters; `{}` would be one more",
                fighter.name
            )));
        }
        if self.combat.is_some() {
            return Err(syntax(
                "the combat has started: fighters join before it starts",
            ));
        }
        if self
            .setup
            .iter()
            .any(|f| f.name.eq_ignore_ascii_case(&fighter.name))
        {
            return Err(syntax(format!(
                "there is already a fighter called `{}` (use `as NAME`)",
                fighter.name
            )));
        }
        self.setup.push(fighter);
        Ok(())
    }

    fn fighter_from(&self, line: &FighterLine) -> Result<Vec<Fighter>, LineError> {
        let rules = |e: crate::RulesError| syntax(e.to_string());
        Ok(match line {
            FighterLine::Sheet {
                path,
                background,
                side,
                name,
                hold,
            } => {
                let hero = self.sheet(&path.to_string_lossy())?;
                self.refuse_standing_background(*background, &hero.name)?;
                let mut f = Fighter::hero(&hero, side.as_deref().unwrap_or("heroes"), *background)
                    .map_err(rules)?;
                if let Some(n) = name {
                    f.name = n.clone();
                }
                if let Some(w) = hold {
                    hold_weapon(&mut f, w)?;
                }
                vec![f]
            }
            FighterLine::Inline { hero, name, stats } => {
                let melee = pool(required(stats, "pool")?, "pool")?;
                let hp: u32 = required(stats, "hp")?;
                let damage: u32 = stat(stats, "damage")?.unwrap_or(1);
                let ranged = stat::<u32>(stats, "ranged")?;
                let mind: u32 = stat(stats, "mind")?.unwrap_or(1);
                use crate::fight::{MAX_DAMAGE, MAX_FIGHT_HP};
                let max_pool = crate::MAX_POOL;
                if !(1..=MAX_FIGHT_HP).contains(&hp) {
                    return Err(syntax(format!("hp={hp}: hp is 1 to {MAX_FIGHT_HP}")));
                }
                if !(1..=max_pool).contains(&mind) {
                    return Err(syntax(format!("mind={mind}: mind is 1 to {max_pool}")));
                }
                for (key, d) in [("damage", Some(damage)), ("ranged", ranged)] {
                    if let Some(d) = d.filter(|&d| d > MAX_DAMAGE) {
                        return Err(syntax(format!("{key}={d}: damage is 0 to {MAX_DAMAGE}")));
                    }
                }
                let default_side = if *hero { "heroes" } else { "foes" };
                let side: String = stat(stats, "side")?.unwrap_or_else(|| default_side.to_owned());
                let mut f = Fighter::plain(name, &side, *hero, melee, damage, ranged, hp);
                f.mind = mind;
                f.initiative_background = flag(stats, "bg");
                // Inline weapons are called "weapon" and "ranged"; `hold=melee` names the first.
                if let Some(w) = stat::<String>(stats, "hold")? {
                    hold_weapon(&mut f, &w)?;
                }
                vec![f]
            }
            FighterLine::Creature {
                creature,
                count: 1,
                name,
                side,
                background,
                hold,
            } if self.character(creature).is_some() => {
                let hero = self.character(creature).expect("checked");
                self.refuse_standing_background(*background, &hero.name)?;
                if name.is_some() {
                    return Err(syntax(format!(
                        "{} fights under their own name: drop `as …`",
                        hero.name
                    )));
                }
                if hero.is_out() {
                    return Err(syntax(format!(
                        "{} is out (0 hit points) and cannot fight",
                        hero.name
                    )));
                }
                let mut f = Fighter::hero(hero, side.as_deref().unwrap_or("foes"), *background)
                    .map_err(rules)?;
                if let Some(w) = hold {
                    hold_weapon(&mut f, w)?;
                }
                vec![f]
            }
            FighterLine::Creature {
                creature,
                count,
                name,
                side,
                ..
            } => {
                let entry = self.bestiary.creature(creature).ok_or_else(|| {
                    syntax(format!("`{creature}` is not in the bestiary (add it with a bestiary file, or to the campaign's creatures, or give pool= hp= damage=)"))
                })?;
                let side = side.as_deref().unwrap_or("foes");
                let base = entry.name.replace(' ', "-");
                (1..=*count)
                    .map(|i| {
                        let n = match (name, count) {
                            (Some(n), 1) => n.clone(),
                            (_, 1)
                                if !self
                                    .setup
                                    .iter()
                                    .any(|f| f.name.eq_ignore_ascii_case(&base)) =>
                            {
                                base.clone()
                            }
                            _ => format!("{base}-{}", self.next_number(&base) + i - 1),
                        };
                        Fighter::creature(entry, &n, side).map_err(rules)
                    })
                    .collect::<Result<_, _>>()?
            }
            FighterLine::Vehicle { name, stats } => {
                let vehicle = Vehicle {
                    name: name.clone(),
                    hull: required(stats, "hull")?,
                    speed: parse_enum(
                        &required::<String>(stats, "speed")?,
                        "speed",
                        "slow, average, fast, lightning-fast",
                    )?,
                    handling: parse_enum(
                        &required::<String>(stats, "handling")?,
                        "handling",
                        "clumsy, average, responsive, exceptional",
                    )?,
                    damage: required(stats, "damage")?,
                    scale: match required::<String>(stats, "scale")?
                        .to_ascii_lowercase()
                        .as_str()
                    {
                        "car" | "truck" | "car-or-truck" | "small" => Scale::CarOrTruck,
                        "large" => Scale::Large,
                        other => return Err(syntax(format!("`scale={other}`: car or large"))),
                    },
                };
                if vehicle.hull == 0 {
                    return Err(syntax("hull is at least 1"));
                }
                let hero = flag(stats, "hero");
                let side = stat(stats, "side")?
                    .unwrap_or_else(|| if hero { "heroes" } else { "foes" }.to_owned());
                let mind: u32 = required(stats, "mind")?;
                vec![
                    Fighter::vehicle(name, &side, hero, mind, flag(stats, "bg"), vehicle)
                        .map_err(rules)?,
                ]
            }
        })
    }

    fn next_number(&self, base: &str) -> u32 {
        let prefix = format!("{base}-");
        self.setup
            .iter()
            .filter_map(|f| f.name.strip_prefix(&prefix)?.parse::<u32>().ok())
            .max()
            .unwrap_or(0)
            + 1
    }

    /// The backgrounds a line names, as fighter indices (S18); the combat checks them.
    fn backgrounds(
        &self,
        command: &Command,
        named: &[NamedBackground],
    ) -> Result<RollBackgrounds, LineError> {
        let mut out = Vec::with_capacity(named.len());
        for n in named {
            let fighter = match &n.who {
                BackgroundFor::Fighter(name) => self.index(name)?,
                BackgroundFor::Actor => self
                    .combat
                    .as_ref()
                    .and_then(Combat::acting)
                    .ok_or_else(|| {
                        syntax(format!(
                            "no fighter is acting yet: name whose roll takes `{}` (bg FIGHTER=BACKGROUND)",
                            n.background
                        ))
                    })?,
                BackgroundFor::Defender => match command {
                    Command::Melee { target } | Command::Unarmed { target } => *target,
                    _ => {
                        return Err(syntax(
                            "`defend-bg` names the defender's background for a melee attack: only on `melee` and `unarmed` lines",
                        ));
                    }
                },
            };
            out.push((fighter, n.background.clone()));
        }
        Ok(RollBackgrounds(out))
    }

    fn command(&self, named: &NamedCommand) -> Result<Command, LineError> {
        Ok(match named {
            NamedCommand::Initiative => Command::Initiative,
            NamedCommand::Ambush(side) => Command::Ambush { side: side.clone() },
            NamedCommand::Order(names) => Command::Order {
                order: names
                    .iter()
                    .map(|n| self.index(n))
                    .collect::<Result<_, _>>()?,
            },
            NamedCommand::Move(direction, t) => Command::Move {
                target: self.index(t)?,
                direction: *direction,
            },
            NamedCommand::Chase(direction, t) => Command::Chase {
                target: self.index(t)?,
                direction: *direction,
            },
            NamedCommand::Melee(t) => Command::Melee {
                target: self.index(t)?,
            },
            NamedCommand::Unarmed(t) => Command::Unarmed {
                target: self.index(t)?,
            },
            NamedCommand::Switch(w) => {
                let combat = self.combat.as_ref().ok_or(CombatError::NotStarted)?;
                let actor = combat.acting().ok_or(CombatError::Over)?;
                let f = &combat.fighters()[actor];
                let weapon = f.weapon_index(w).ok_or_else(|| no_weapon(f, w))?;
                Command::Switch { weapon }
            }
            NamedCommand::Shoot(t) => Command::Shoot {
                target: self.index(t)?,
            },
            NamedCommand::VehicleAttack(t) => Command::VehicleAttack {
                target: self.index(t)?,
            },
            NamedCommand::Act(what) => Command::Act { what: what.clone() },
            NamedCommand::EndTurn => Command::EndTurn,
        })
    }

    /// Runs a setup or combat line. Commands roll typed dice given with `with`, or `dice`.
    /// Returns the events (empty for setup lines).
    pub fn run(&mut self, line: &Line, dice: &mut dyn DiceSource) -> Result<Vec<Event>, LineError> {
        match line {
            Line::Fighter(f) => {
                let fighters = self.fighter_from(f)?;
                // A line joins all its fighters or none: checked before the first joins.
                if self.setup.len() + fighters.len() > MAX_FIGHTERS {
                    return Err(syntax(format!(
                        "a combat holds at most {MAX_FIGHTERS} fighters: {} and {} more would be {}",
                        self.setup.len(),
                        fighters.len(),
                        self.setup.len() + fighters.len()
                    )));
                }
                let before = self.setup.len();
                for fighter in fighters {
                    if let Err(e) = self.add(fighter) {
                        self.setup.truncate(before);
                        return Err(e);
                    }
                }
                Ok(Vec::new())
            }
            Line::Draws(draws) => {
                self.set_draws(*draws)?;
                Ok(Vec::new())
            }
            Line::Mode(mode) => {
                if self.combat.is_some() {
                    return Err(syntax("the combat has started: set the mode before"));
                }
                self.mode = *mode;
                Ok(Vec::new())
            }
            Line::Place(a, b, band) => {
                let (a, b) = (self.index(a)?, self.index(b)?);
                match &mut self.combat {
                    Some(c) => Ok(c.apply(&Command::Place { a, b, band: *band }, dice)?),
                    None => {
                        if a == b {
                            return Err(syntax("a fighter cannot be placed against themselves"));
                        }
                        self.places.push((a, b, *band));
                        Ok(Vec::new())
                    }
                }
            }
            Line::Command(named, typed, named_bgs) => {
                let command = self.command(named)?;
                let bgs = self.backgrounds(&command, named_bgs)?;
                if self.combat.is_none() {
                    if !matches!(
                        command,
                        Command::Initiative | Command::Ambush { .. } | Command::Order { .. }
                    ) {
                        return Err(CombatError::NotStarted.into());
                    }
                    if self.setup.len() < 2 {
                        return Err(syntax("a combat needs at least two fighters"));
                    }
                    let mut combat = Combat::new(self.setup.clone(), self.mode);
                    combat.set_draws(self.draws);
                    for &(a, b, band) in &self.places {
                        combat.apply(&Command::Place { a, b, band }, dice)?;
                    }
                    let events = apply_with(&mut combat, &command, &bgs, typed.as_deref(), dice)?;
                    self.combat = Some(combat);
                    return Ok(events);
                }
                let combat = self.combat.as_mut().expect("checked");
                apply_with(combat, &command, &bgs, typed.as_deref(), dice)
            }
            Line::Blank | Line::Status | Line::Options | Line::Help | Line::Quit => Ok(Vec::new()),
        }
    }
}

fn no_weapon(f: &Fighter, w: &str) -> LineError {
    let names: Vec<&str> = f.weapons.iter().map(|w| w.name.as_str()).collect();
    syntax(format!(
        "{} carries no weapon called `{w}` (carried: {}; or `melee`, `ranged`, `unarmed`)",
        f.name,
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    ))
}

fn hold_weapon(f: &mut Fighter, w: &str) -> Result<(), LineError> {
    if f.hold(w) {
        Ok(())
    } else {
        Err(no_weapon(f, w))
    }
}

fn apply_with(
    combat: &mut Combat,
    command: &Command,
    bgs: &RollBackgrounds,
    typed: Option<&[u32]>,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Event>, LineError> {
    match typed {
        None => Ok(combat.apply_chosen(command, bgs, dice)?),
        Some(values) => {
            // Roll on a copy: if the typed dice do not fit, nothing changes.
            let mut trial = combat.clone();
            let mut typed = TypedDice::new(values);
            let roll_off = combat.draws() == DrawRule::RollOff;
            let events = trial
                .apply_chosen(command, bgs, &mut typed)
                .map_err(|e| match e {
                    CombatError::Dice(solum_dice::DiceError::Exhausted { given }) => {
                        LineError::TooFewDice { given, roll_off }
                    }
                    other => LineError::Combat(other),
                })?;
            if let Err((used, given)) = typed.finish() {
                return Err(LineError::UnusedDice { given, used });
            }
            *combat = trial;
            Ok(events)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    proptest::proptest! {
        /// Whatever a player types, a line parses or says why; nothing panics, and a session
        /// fed any lines keeps going.
        #[test]
        fn any_line_is_safe(lines in proptest::collection::vec(
            proptest::prop_oneof![
                ".{0,40}",
                "(hero|foe|move|melee|unarmed|switch|draws|shoot|chase|place|order|initiative|end|act|vattack|mode|ambush) [a-z0-9=,*. -]{0,30}( with [0-9,]{0,12})?",
            ],
            0..25,
        )) {
            let mut s = Session::new(Bestiary::shipped());
            s.run(&parse_line("hero A pool=2 hp=3").unwrap(), &mut solum_dice::SeededDice::new(1)).unwrap();
            s.run(&parse_line("foe orc").unwrap(), &mut solum_dice::SeededDice::new(1)).unwrap();
            let mut dice = solum_dice::SeededDice::new(2);
            for line in &lines {
                if let Ok(parsed) = parse_line(line) {
                    let _ = s.run(&parsed, &mut dice);
                }
            }
        }
    }

    /// A character held by the session joins by name from its sheet; `run_recorded` reports
    /// the faces each line drew, and those faces as a scripted source give the same events.
    #[test]
    fn characters_join_by_name_and_recorded_faces_replay() {
        let nick = toml::from_str::<Character>("schema = 1\nname = \"Nick\"\nbody = 3\nmind = 2\ncharm = 1\nbackgrounds = [\"Acrobat Thief\"]\nhit_points = 4\nweapons = [{ name = \"dagger\", class = \"light\" }]\n").unwrap();
        let lines = [
            "hero nick",
            "foe orc",
            "place Nick orc engaged",
            "order Nick orc",
            "melee orc bg \"Acrobat Thief\"",
            "end",
            "melee Nick defend-bg \"acrobat thief\" with 5,1,4,3,2,1",
        ];
        let mut s = Session::new(Bestiary::shipped());
        s.add_character(nick.clone());
        let mut dice = solum_dice::SeededDice::new(3);
        let mut played = Vec::new();
        for line in lines {
            played.push(
                s.run_recorded(&parse_line(line).unwrap(), &mut dice)
                    .unwrap(),
            );
        }
        let f = &s.fighters()[0];
        // Body 3: 3 dice with the dagger, 4 when a roll names the background (S18); hit
        // points from the sheet (4 of 5).
        assert_eq!(f.name, "Nick");
        assert_eq!(f.weapons[0].pool.dice(), 3);
        assert_eq!(f.weapons[0].bg_pool.dice(), 4);
        assert_eq!((f.max_hit_points, played[0].1.len()), (5, 0));
        // Nick's 4 dice and the orc's 2 at least; the typed line draws nothing from the seed.
        assert!(played[4].1.len() >= 6, "{:?}", played[4].1);
        assert!(played[6].1.is_empty());
        // The orc's 5 1 against Nick's 4 3 2 1 (the defence names his background): Nick
        // takes the orc's 2.
        assert!(
            played[6]
                .0
                .iter()
                .any(|e| matches!(e, Event::Damaged { amount: 2, .. }))
        );

        let mut again = Session::new(Bestiary::shipped());
        again.add_character(nick);
        for (line, (events, faces)) in lines.iter().zip(&played) {
            let mut script = ScriptedDice::new(faces.clone());
            assert_eq!(
                &again.run(&parse_line(line).unwrap(), &mut script).unwrap(),
                events
            );
            assert!(script.is_exhausted());
        }
        // Under another name, or out, a character does not join.
        let mut s = Session::new(Bestiary::shipped());
        let mut out = again.character("NICK").unwrap().clone();
        s.add_character(out.clone());
        assert!(
            s.run(
                &parse_line("hero Nick as Nicky").unwrap(),
                &mut ScriptedDice::new([])
            )
            .unwrap_err()
            .to_string()
            .contains("own name")
        );
        out.hit_points = 0;
        s.add_character(out);
        assert!(
            s.run(
                &parse_line("hero Nick").unwrap(),
                &mut ScriptedDice::new([])
            )
            .unwrap_err()
            .to_string()
            .contains("is out")
        );
    }

    /// One sheet, by the name a script gives it.
    struct OneSheet(Character);

    impl SheetResolver for OneSheet {
        fn sheet(&self, path: &str) -> Result<Character, String> {
            if path == "sheets/nick.toml" {
                Ok(self.0.clone())
            } else {
                Err(format!("{path}: no such sheet"))
            }
        }
    }

    /// A `hero FILE` line asks the resolver for its sheet; without one the line is refused
    /// and no file is ever read here.
    #[test]
    fn sheet_lines_go_through_the_resolver() {
        let nick = toml::from_str::<Character>(
            "schema = 1\nname = \"Nick\"\nbody = 3\nmind = 2\ncharm = 1\nhit_points = 4\n",
        )
        .unwrap();
        let line = parse_line("hero sheets/nick.toml").unwrap();
        let mut dice = ScriptedDice::new([]);
        let mut bare = Session::new(Bestiary::shipped());
        let err = bare.run(&line, &mut dice).unwrap_err().to_string();
        assert!(err.contains("sheet files are not read here"), "{err}");
        assert!(bare.fighters().is_empty());
        let mut s = Session::with_sheets(Bestiary::shipped(), Box::new(OneSheet(nick.clone())));
        s.run(&line, &mut dice).unwrap();
        assert_eq!(s.fighters()[0].name, "Nick");
        assert_eq!(s.fighters()[0].hit_points, 4);
        let err = s
            .run(&parse_line("hero other.toml").unwrap(), &mut dice)
            .unwrap_err();
        assert!(
            matches!(&err, LineError::Sheet(m) if m == "other.toml: no such sheet"),
            "{err}"
        );
        // A sheet already had is found without the resolver (a replayed line's copy).
        let mut replay = Session::new(Bestiary::shipped());
        replay.add_sheet("sheets/nick.toml", nick);
        replay.run(&line, &mut dice).unwrap();
        assert_eq!(replay.fighters()[0].name, "Nick");
    }

    #[test]
    fn words_and_quotes() {
        assert_eq!(
            words(r#"foe "snake cult champion" as Boss # comment"#).unwrap(),
            ["foe", "snake cult champion", "as", "Boss"]
        );
        assert!(words("foe \"open").is_err());
    }

    #[test]
    fn initiative_example_as_a_script() {
        let mut s = Session::new(Bestiary::shipped());
        let script = [
            "hero Nick pool=3 hp=5 damage=1 mind=2 bg",
            "hero Osric pool=2 hp=5 damage=2 mind=1 bg",
            "foe orc*4",
            "initiative with 4,3,3,3,3",
        ];
        let mut events = Vec::new();
        for line in script {
            events = s
                .run(&parse_line(line).unwrap(), &mut ScriptedDice::new([]))
                .unwrap();
        }
        let names: Vec<&str> = s
            .combat()
            .unwrap()
            .order()
            .iter()
            .map(|&i| s.fighters()[i].name.as_str())
            .collect();
        assert_eq!(names, ["Nick", "orc-1", "orc-2", "orc-3", "orc-4", "Osric"]);
        assert!(events.iter().any(|e| matches!(e, Event::OrderSet { .. })));
    }

    /// S13 and S14 as lines: `hold=`, `switch`, `unarmed`, `draws roll-off`.
    #[test]
    fn weapon_and_draw_lines() {
        let mut s = Session::new(Bestiary::shipped());
        let run = |s: &mut Session, line: &str| {
            parse_line(line)
                .and_then(|l| s.run(&l, &mut ScriptedDice::new([])))
                .map_err(|e| e.to_string())
        };
        run(&mut s, "hero A pool=2 hp=5 damage=3 ranged=2 hold=ranged").unwrap();
        run(&mut s, "foe orc pool=2 hp=9 damage=1").unwrap();
        assert_eq!(s.fighters()[0].held_name(), "ranged");
        assert!(
            run(&mut s, "hero B pool=2 hp=5 hold=bow")
                .unwrap_err()
                .contains("carries no weapon called `bow`")
        );
        assert!(
            run(&mut s, "draws sometimes")
                .unwrap_err()
                .contains("roll-off")
        );
        run(&mut s, "draws roll-off").unwrap();
        run(&mut s, "place A orc engaged").unwrap();
        assert!(
            run(&mut s, "switch melee")
                .unwrap_err()
                .contains("has not started")
        );
        run(&mut s, "order A orc").unwrap();
        assert_eq!(s.combat().unwrap().draws(), DrawRule::RollOff);
        // The draw needs roll-off dice: the message lists them among what the values go to.
        let few = run(&mut s, "melee orc with 5,4,5,3").unwrap_err();
        assert!(
            few.contains("too few values after `with`: 4 given")
                && few.ends_with("each pool, then any Rule-of-6 chain, then roll-off dice)"),
            "{few}"
        );
        // 5 4 against 5 3 is a draw, rolled off 4:1; the rifle in melee deals 1.
        let events = run(&mut s, "melee orc with 5,4,5,3,4,1").unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Damaged { amount: 1, .. }))
        );
        run(&mut s, "end").unwrap();
        run(&mut s, "end").unwrap();
        assert!(
            run(&mut s, "switch axe")
                .unwrap_err()
                .contains("carried: weapon, ranged")
        );
        // The words of `hold=` serve `switch` too (it holds the rifle, so "melee" changes).
        let events = run(&mut s, "switch melee").unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::Switched { .. })));
        assert_eq!(s.combat().unwrap().fighters()[0].held_name(), "weapon");
        assert!(
            run(&mut s, "draws stand")
                .unwrap_err()
                .contains("has started")
        );
        run(&mut s, "end").unwrap();
        run(&mut s, "end").unwrap();
        let events = run(&mut s, "melee orc unarmed with 5,4,3,2").unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Damaged { amount: 1, .. }))
        );
        run(&mut s, "end").unwrap();
        run(&mut s, "end").unwrap();
        let events = run(&mut s, "melee orc with 5,4,3,2").unwrap();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Damaged { amount: 3, .. }))
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let mut s = Session::new(Bestiary::shipped());
        let err = |s: &mut Session, line: &str| {
            parse_line(line)
                .and_then(|l| s.run(&l, &mut ScriptedDice::new([])))
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        let run = |s: &mut Session, line: &str| {
            s.run(&parse_line(line).unwrap(), &mut ScriptedDice::new([]))
                .unwrap()
        };
        assert!(
            parse_line("fly away")
                .unwrap_err()
                .to_string()
                .contains("`fly` is not a command")
        );
        assert!(parse_line("move sideways orc").is_err());
        assert!(
            parse_line("melee orc with 7").is_ok(),
            "faces are checked when rolled"
        );
        assert!(err(&mut s, "foe dragon").contains("not in the bestiary"));
        assert!(err(&mut s, "hero X pool=0 hp=3").contains("pool"));
        run(&mut s, "hero Nick pool=3 hp=5 damage=1");
        run(&mut s, "foe orc");
        assert!(err(&mut s, "melee orc").contains("has not started"));
        run(&mut s, "order Nick orc");
        assert!(
            err(&mut s, "melee orc").contains("orc is near Nick, not engaged: move closer first")
        );
        assert!(err(&mut s, "melee troll").contains("no fighter is called `troll`"));
        run(&mut s, "move closer orc");
        assert!(err(&mut s, "melee orc with 9,1,1,1").contains("not a face of a d6"));
        assert!(err(&mut s, "melee orc with 5,1,1,1,1,1").contains("too many values"));
        let few = err(&mut s, "melee orc with 5,1,1,1");
        assert!(few.contains("too few"), "{few}");
        assert!(!few.contains("roll-off"), "draws stand here: {few}");
        // Failed lines changed nothing: the action is still there.
        run(&mut s, "melee orc with 5,1,1,1,1");
    }

    #[test]
    fn inline_numbers_past_the_limits_are_refused_repeating_them() {
        let mut s = Session::new(Bestiary::shipped());
        let mut dice = solum_dice::SeededDice::new(1);
        for (line, needle) in [
            ("hero A pool=2 hp=10001", "hp=10001: hp is 1 to 10000"),
            ("hero A pool=2 hp=0", "hp=0: hp is 1 to 10000"),
            ("hero A pool=2 hp=3 mind=0", "mind=0: mind is 1 to 1000"),
            (
                "hero A pool=2 hp=3 damage=4294967295",
                "damage=4294967295: damage is 0 to 1000000",
            ),
            (
                "foe B pool=2 hp=3 ranged=2000000",
                "ranged=2000000: damage is 0 to 1000000",
            ),
        ] {
            let err = s
                .run(&parse_line(line).unwrap(), &mut dice)
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{line}: {err}");
        }
        s.run(
            &parse_line("hero A pool=2 hp=10000 damage=1000000").unwrap(),
            &mut dice,
        )
        .unwrap();
    }

    /// 400 lines of `foe orc*100` once built 40,000 fighters and a range table of 1.6
    /// billion pairs: the count is bounded at the line that would pass it.
    #[test]
    fn a_combat_holds_at_most_max_fighters() {
        let mut s = Session::new(Bestiary::shipped());
        let mut dice = solum_dice::SeededDice::new(1);
        let mut run = |line: &str| {
            s.run(&parse_line(line).unwrap(), &mut dice)
                .map_err(|e| e.to_string())
        };
        run("hero A pool=2 hp=5").unwrap();
        run("foe orc*100").unwrap();
        run("foe wolf*99").unwrap();
        let err = run("foe orc*1").unwrap_err();
        assert!(err.contains("at most 200 fighters"), "{err}");
        let err = run("foe troll*50").unwrap_err();
        assert!(err.contains("at most 200 fighters"), "{err}");
        assert_eq!(s.fighters().len(), 200, "a refused line adds no one");
    }

    /// A line that would pass the bound joins none of its fighters, not the ones that fit.
    #[test]
    fn a_line_joins_all_its_fighters_or_none() {
        let mut s = Session::new(Bestiary::shipped());
        let mut dice = solum_dice::SeededDice::new(1);
        let mut run = |line: &str| {
            s.run(&parse_line(line).unwrap(), &mut dice)
                .map_err(|e| e.to_string())
        };
        run("foe wolf*99").unwrap();
        run("foe orc*100").unwrap();
        let err = run("foe troll*5").unwrap_err();
        assert!(err.contains("199 and 5 more would be 204"), "{err}");
        assert_eq!(s.fighters().len(), 199);
    }

    /// S18 in the line language: `bg NAME` (the roller), `bg FIGHTER=NAME` (initiative),
    /// `defend-bg NAME` (the melee defender); `with` last. `bg` on a sheet's fighter line is
    /// refused (it meant every roll), except when replaying lines stored before S18.
    #[test]
    fn backgrounds_are_named_per_roll_on_the_line() {
        let parsed =
            parse_line("melee orc bg Sailor defend-bg \"Street Urchin\" with 1,2").unwrap();
        assert_eq!(
            parsed,
            Line::Command(
                NamedCommand::Melee("orc".into()),
                Some(vec![1, 2]),
                vec![
                    NamedBackground {
                        who: BackgroundFor::Actor,
                        background: "Sailor".into()
                    },
                    NamedBackground {
                        who: BackgroundFor::Defender,
                        background: "Street Urchin".into()
                    },
                ]
            )
        );
        assert_eq!(
            parse_line("initiative bg Nick=Sailor").unwrap(),
            Line::Command(
                NamedCommand::Initiative,
                None,
                vec![NamedBackground {
                    who: BackgroundFor::Fighter("Nick".into()),
                    background: "Sailor".into()
                }]
            )
        );
        assert!(parse_line("melee orc bg").is_err());
        let nick = toml::from_str::<Character>("schema = 1\nname = \"Nick\"\nbody = 2\nmind = 2\ncharm = 1\nbackgrounds = [\"Sailor\"]\nhit_points = 4\n").unwrap();
        let mut s = Session::new(Bestiary::shipped());
        s.add_character(nick.clone());
        let err = s
            .run(
                &parse_line("hero Nick bg").unwrap(),
                &mut ScriptedDice::new([]),
            )
            .unwrap_err()
            .to_string();
        assert!(err.contains("named per roll"), "{err}");
        // Initiative: Mind 2 + Sailor = 3 dice against 4 (1, 1, 4 passes).
        for line in ["hero Nick", "foe orc"] {
            s.run(&parse_line(line).unwrap(), &mut ScriptedDice::new([]))
                .unwrap();
        }
        let events = s
            .run(
                &parse_line("initiative bg nick=sailor with 1,1,4").unwrap(),
                &mut ScriptedDice::new([]),
            )
            .unwrap();
        assert!(events.iter().any(|e| matches!(e,
            Event::InitiativeRoll { check, background: Some(b), .. } if check.passed && b == "Sailor")));
        // A replayed stored line keeps its old meaning: every roll with the background.
        let mut old = Session::new(Bestiary::shipped());
        old.add_character(nick);
        old.set_legacy_background_flag(true);
        old.run(
            &parse_line("hero Nick bg").unwrap(),
            &mut ScriptedDice::new([]),
        )
        .unwrap();
        assert_eq!(old.fighters()[0].unarmed_pool.dice(), 3);
    }
}
