//! A So1um Expanded combat kept in the campaign: started in one process, played line by line
//! in others, ended in another.
//!
//! The combat is stored as its inputs and its accepted lines, never as the state machine's
//! internals: each line keeps its text (the line language of `solum combat`), the seed it
//! rolled from and the faces it drew, and the copy of a character's sheet or of a campaign
//! creature it brought in. Every use case rebuilds the [`Session`] by replaying those lines
//! with their faces as a scripted source, inside the one write transaction that also stores
//! the new line and its journal entry; two processes playing at once serialize.
//!
//! Hit points go back to the characters' sheets when the combat ends: each character's
//! sheet loses what the character lost in the fight, in the transaction that journals the
//! end.

use jiff::Timestamp;

use crate::describe;

use serde::{Deserialize, Serialize};
use solum_dice::{DiceSource, SeededDice, TypedDice};
use solum_expanded::character::{CHARACTER_SCHEMA, Character};
use solum_expanded::check::DrawRule;
use solum_expanded::combat::{Choice, Combat, Mode, RangeBand};
use solum_expanded::creature::{Bestiary, Creature};
use solum_expanded::line::{FighterLine, Line, Session, parse_line};
pub use solum_expanded::line::{HELP, SheetResolver};
use solum_store::{CampaignStore, Sheet, WriteTx};

use crate::journaling;
use crate::{AppError, Campaign, Divergence};

/// The system the open combat is stored under (one row: a campaign has at most one combat
/// in progress).
pub const SYSTEM: &str = "combat";
/// The row of the open combat.
const OPEN: &str = "open";
/// The schema version of the combat records this build writes.
pub const COMBAT_RECORD_SCHEMA: i64 = 1;
/// The most lines one combat keeps: the stored combat must fit one 64 KiB row.
pub const MAX_COMBAT_LINES: usize = 400;
/// The longest line, in characters.
pub const MAX_LINE: usize = 500;
/// The longest combat name, in characters.
pub const MAX_COMBAT_NAME: usize = 100;
/// The name of a combat started without one.
pub const DEFAULT_NAME: &str = "combat";

fn no_open() -> AppError {
    crate::CombatRefusal::NoneOpen.at(
        "combat",
        "no combat is open in this campaign: start one first",
    )
}
/// One accepted line: what replays it exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CombatLine {
    /// The line as typed (typed dice stay in it, after `with`).
    pub line: String,
    /// The seed its dice came from, when it drew any from the generator.
    pub seed: Option<u64>,
    /// The faces it drew from the generator, in order.
    pub faces: Vec<u32>,
    /// The copy of a campaign character's sheet the line brought into the fight.
    pub character: Option<Character>,
    /// The campaign creature the line brought into the fight.
    pub creature: Option<Creature>,
    /// The copy of the sheet file a `hero FILE` line of a one-shot combat
    /// ([`OneShotCombat`]) brought in; never in a campaign's combat, whose heroes are its
    /// characters by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<Character>,
}

/// The combat in progress, as stored: its settings and its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredCombat {
    name: String,
    roll_off: bool,
    lines: Vec<CombatLine>,
}

/// The open-combat row: `None` when no combat is open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct OpenRow {
    combat: Option<StoredCombat>,
}

/// A fighter's hit points at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FighterHp {
    /// The fighter.
    pub name: String,
    /// Hit points at the end.
    pub hit_points: u32,
}

/// Hit points written back to a character's sheet at the end of a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HpWrite {
    /// The character.
    pub name: String,
    /// Hit points when the character joined the fight.
    pub joined: u32,
    /// Hit points at the end of the fight.
    pub left: u32,
    /// The sheet's hit points before the write (`None`: the campaign no longer has the
    /// character, and nothing was written).
    pub before: Option<u32>,
    /// The sheet's hit points after: `before` less what the fight cost.
    pub after: Option<u32>,
}

/// What happened in a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CombatChange {
    /// The combat was started.
    Started {
        /// Draws are rolled off (S14).
        roll_off: bool,
    },
    /// A line was played.
    Line {
        /// The line and its dice.
        line: Box<CombatLine>,
        /// The events it caused (the engine's, as JSON).
        events: serde_json::Value,
        /// The events as text.
        text: Vec<String>,
    },
    /// The combat ended.
    Ended {
        /// Every fighter's hit points at the end.
        fighters: Vec<FighterHp>,
        /// What went back to the characters' sheets.
        written: Vec<HpWrite>,
    },
}

/// A journal entry about a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatRecord {
    /// [`COMBAT_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The combat's name.
    pub combat: String,
    /// What happened.
    pub change: CombatChange,
}

impl CombatRecord {
    fn new(combat: &str, change: CombatChange) -> Self {
        Self {
            schema: COMBAT_RECORD_SCHEMA,
            combat: combat.to_owned(),
            change,
        }
    }

    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        matches!(&self.change, CombatChange::Line { line, .. }
            if !line.faces.is_empty()
                || matches!(parse_line(&line.line), Ok(Line::Command(_, Some(_), _))))
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let n = &self.combat;
        match &self.change {
            CombatChange::Started { .. } => format!("combat \"{n}\" begins"),
            CombatChange::Line { line, text, .. } => {
                let mut s = format!("combat \"{n}\": {}", line.line);
                if !line.faces.is_empty() {
                    let faces: Vec<String> = line.faces.iter().map(u32::to_string).collect();
                    s.push_str(&format!(" (dice {})", faces.join(" ")));
                }
                let said: Vec<&str> = text
                    .iter()
                    .map(String::as_str)
                    .filter(|t| !t.is_empty())
                    .collect();
                if !said.is_empty() {
                    s.push_str(&format!(": {}", said.join("; ")));
                }
                s
            }
            CombatChange::Ended { written, .. } => {
                let hp: Vec<String> = written
                    .iter()
                    .map(|w| match w.after {
                        Some(a) => format!("{} {a} hit points", w.name),
                        None => format!("{} (no longer in the campaign)", w.name),
                    })
                    .collect();
                if hp.is_empty() {
                    format!("combat \"{n}\" ends")
                } else {
                    format!("combat \"{n}\" ends: {}", hp.join(", "))
                }
            }
        }
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > COMBAT_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a combat record's",
                found: self.schema,
                known: COMBAT_RECORD_SCHEMA,
            }
            .into());
        }
        combat_name(&self.combat)?;
        if let CombatChange::Line { line, .. } = &self.change {
            line_text(&line.line)?;
            for c in line.character.iter().chain(&line.sheet) {
                crate::characters::check_sheet(c)?;
            }
        }
        Ok(())
    }
}

fn line_text(raw: &str) -> Result<String, AppError> {
    crate::text("combat line", raw, MAX_LINE, false)
}

fn combat_name(raw: &str) -> Result<String, AppError> {
    crate::name("combat name", raw, MAX_COMBAT_NAME)
}

/// A session with the shipped bestiary; sheet files are not read (a campaign combat's
/// heroes are the campaign's characters).
fn empty_session(roll_off: bool) -> Session {
    let mut s = Session::new(Bestiary::shipped());
    if roll_off {
        s.set_draws(DrawRule::RollOff)
            .expect("a new session has not started");
    }
    s
}

/// Brings a line's character or creature into the session, before the line runs.
fn join(session: &mut Session, line: &CombatLine) -> Result<(), String> {
    if let Some(c) = &line.character {
        session.add_character(c.clone());
    }
    if let Some(c) = &line.creature {
        session
            .add_creatures(vec![c.clone()])
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs one stored line on `session` with `dice`; returns the events as JSON, their text
/// and the faces drawn.
fn play(
    session: &mut Session,
    line: &CombatLine,
    dice: &mut dyn DiceSource,
) -> Result<(serde_json::Value, Vec<String>, Vec<u32>), String> {
    join(session, line)?;
    let parsed = parse_line(&line.line).map_err(|e| e.to_string())?;
    if let (Some(sheet), Line::Fighter(FighterLine::Sheet { path, .. })) = (&line.sheet, &parsed) {
        session.add_sheet(&path.to_string_lossy(), sheet.clone());
    }
    let (events, faces) = session
        .run_recorded(&parsed, dice)
        .map_err(|e| e.to_string())?;
    let text = events
        .iter()
        .map(|e| describe::event(e, session.fighters()))
        .collect();
    let json = serde_json::to_value(&events).map_err(|e| e.to_string())?;
    Ok((json, text, faces))
}

/// Rebuilds the session of a stored combat: every line replayed with its faces as a
/// scripted source, every face used.
fn rebuild(stored: &StoredCombat) -> Result<Session, AppError> {
    rebuild_logged(stored).map(|(session, _)| session)
}

/// [`rebuild`], keeping each line's text as the combat's log.
fn rebuild_logged(stored: &StoredCombat) -> Result<(Session, Vec<LogLine>), AppError> {
    let mut log = Vec::with_capacity(stored.lines.len());
    let mut session = empty_session(stored.roll_off);
    // Stored lines replay as they were accepted, `bg` on a fighter line of an older combat
    // included; a new line is checked without it (see `combat_line`).
    session.set_legacy_background_flag(true);
    for (i, line) in stored.lines.iter().enumerate() {
        let mut dice = TypedDice::new(line.faces.clone());
        let replayed = play(&mut session, line, &mut dice).and_then(|(_, text, _)| {
            dice.finish()
                .map_err(|(used, given)| format!("{given} faces stored, the line uses {used}"))?;
            log.push(LogLine {
                line: line.line.clone(),
                faces: line.faces.clone(),
                text,
            });
            Ok(())
        });
        if let Err(e) = replayed {
            return Err(crate::CombatRefusal::Stored.at(
                "combat",
                format!(
                    "the stored combat {} does not replay at line {} (`{}`): {e}",
                    stored.name,
                    i + 1,
                    line.line
                ),
            ));
        }
    }
    Ok((session, log))
}

/// One line of a combat's log: what was played, its dice, and what happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogLine {
    /// The line of the combat language.
    pub line: String,
    /// The faces it drew, in order (none for a line that rolled nothing).
    pub faces: Vec<u32>,
    /// What happened, one sentence per event.
    pub text: Vec<String>,
}

fn read_open(sheet: Option<Sheet>) -> Result<Option<StoredCombat>, AppError> {
    match sheet {
        None => Ok(None),
        Some(s) => {
            let row: OpenRow = serde_json::from_value(s.body).map_err(|e| {
                crate::CombatRefusal::Stored
                    .at("combat", format!("the stored combat cannot be read: {e}"))
            })?;
            Ok(row.combat)
        }
    }
}

fn write_open(tx: &mut dyn WriteTx, combat: Option<StoredCombat>) -> Result<(), AppError> {
    let sheet = Sheet {
        system: SYSTEM.into(),
        name: OPEN.into(),
        schema: COMBAT_RECORD_SCHEMA,
        version: 0,
        body: serde_json::to_value(OpenRow { combat })
            .map_err(|e| crate::AppError::internal("combat", e.to_string()))?,
    };
    if tx.sheet(SYSTEM, OPEN)?.is_some() {
        tx.update_sheet(SYSTEM, OPEN, &sheet)?;
    } else {
        tx.insert_sheet(&sheet)?;
    }
    Ok(())
}

/// A fighter as `combat status` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FighterStatus {
    /// The fighter's id in this combat: its place in the order of joining, from 0. Fighters
    /// never leave a combat (an out fighter stays, at 0), so an id never changes or moves to
    /// another fighter.
    pub id: u32,
    /// The fighter's name, unique in the combat.
    pub name: String,
    /// Its side.
    pub side: String,
    /// Hit points now.
    pub hit_points: u32,
    /// Hit points when unhurt.
    pub max_hit_points: u32,
    /// At 0 hit points.
    pub out: bool,
    /// A campaign character (its sheet gets the hit points back at the end).
    pub character: bool,
    /// The weapon in hand.
    pub weapon: String,
    /// A piloted vehicle (it fights with the vehicle, holding no weapon).
    pub vehicle: bool,
}

/// The range between two fighters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RangeStatus {
    /// One fighter.
    pub a: String,
    /// The other.
    pub b: String,
    /// Engaged, nearby or far.
    pub band: &'static str,
}

/// The open combat, or none (`{"combat": null}`): what `solum combat status --json` prints
/// and `GET /api/combat` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CombatAnswer {
    /// The combat with its fighters, order, ranges and the acting fighter's options with
    /// their odds.
    pub combat: Option<CombatStatus>,
}

/// Where a combat stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CombatStatus {
    /// The combat's name.
    pub name: String,
    /// Standard or alternative combat.
    pub mode: Mode,
    /// Draws rolled off (S14).
    pub roll_off: bool,
    /// Lines played.
    pub lines: usize,
    /// The combat has started (initiative, ambush or order).
    pub started: bool,
    /// The round (0 before the start).
    pub round: u32,
    /// One side is out.
    pub over: bool,
    /// The initiative order, first to act first.
    pub order: Vec<String>,
    /// Whose turn it is.
    pub acting: Option<String>,
    /// Every fighter.
    pub fighters: Vec<FighterStatus>,
    /// The band every pair of fighters is at unless [`ranges`](Self::ranges) says otherwise:
    /// `nearby`, where S7 starts every pair.
    pub range_default: &'static str,
    /// The pairs of fighters whose band is not [`range_default`](Self::range_default) (once
    /// started), each pair once. Only moves and `place` lines change a pair's band, so the
    /// list grows with the lines played, not with the square of the fighters (200 fighters
    /// listed pairwise were 1.1 MB).
    pub ranges: Vec<RangeStatus>,
    /// The acting fighter's move is left this turn.
    pub move_left: bool,
    /// The acting fighter's action is left this turn.
    pub action_left: bool,
    /// The ranged weapon the acting fighter carries but does not hold, when no attack
    /// reaches from here and switching to it (the action) would let it shoot next turn (S13).
    pub switch_to_shoot: Option<String>,
    /// The acting fighter's options with their exact odds.
    pub choices: Vec<ChoiceView>,
    /// Every line played so far with what it did (`GET /api/combat`, `combat status`;
    /// empty in the view of a single line, which carries its own text).
    pub log: Vec<LogLine>,
}

/// One option of the acting fighter, legal now, with its exact chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChoiceView {
    /// "melee", "unarmed", "shoot", "vehicle attack", "chase closer", "chase away",
    /// "disengage", "move closer", "move away", "switch", "end turn".
    pub action: &'static str,
    /// The target, for an option that has one.
    pub target: Option<String>,
    /// The range to the target now.
    pub band: Option<&'static str>,
    /// For `switch`: the weapon taken in hand.
    pub weapon: Option<String>,
    /// The option takes the fighter's action.
    pub uses_action: bool,
    /// The background the acting fighter names for the roll (S18).
    pub background: Option<String>,
    /// The background the defender names for its defence roll (S18).
    pub defender_background: Option<String>,
    /// The line of the combat language that plays this option.
    pub line: String,
    /// For an opposed action, the chance to win; for an unopposed one, to succeed.
    pub p_success: f64,
    /// For an opposed action: the chance of a draw.
    pub p_draw: Option<f64>,
    /// For an opposed action: the chance to lose.
    pub p_lose: Option<f64>,
}

impl ChoiceView {
    fn of(c: &Choice, fighters: &[solum_expanded::combat::Fighter]) -> Self {
        let f = solum_dice::prob_to_f64;
        let target = c.target.map(|t| fighters[t].name.clone());
        Self {
            action: c.action,
            line: choice_line(c, target.as_deref()),
            target,
            band: c.band.map(|b| b.name()),
            weapon: c.weapon.clone(),
            uses_action: c.uses_action,
            background: c.background.clone(),
            defender_background: c.defender_background.clone(),
            p_success: match (&c.odds, &c.p_success) {
                (Some(o), _) => f(&o.win),
                (None, Some(p)) => f(p),
                (None, None) => 0.0,
            },
            p_draw: c.odds.as_ref().map(|o| f(&o.draw)),
            p_lose: c.odds.as_ref().map(|o| f(&o.lose)),
        }
    }
}

/// A word of the line language, quoted when it holds a space or a `#`.
fn word(w: &str) -> String {
    if w.contains(char::is_whitespace) || w.contains('#') {
        format!("\"{w}\"")
    } else {
        w.to_owned()
    }
}

/// Whether a line of the combat language carries dice typed in by hand (`with …`): asked
/// before a member plays it ([`crate::Campaign::combat_line_as`]; typed dice are for a game master
/// alone at the table). A line that does not parse carries none; the use case refuses it,
/// naming it.
pub(crate) fn line_types_dice(line: &str) -> bool {
    matches!(parse_line(line), Ok(Line::Command(_, Some(_), _)))
}

/// The line of the combat language that plays an option.
pub fn choice_line(c: &Choice, target: Option<&str>) -> String {
    let verb = match c.action {
        "vehicle attack" => "vattack",
        // Every move while engaged starts with the disengage roll (S7).
        "disengage" => "move away",
        "end turn" => "end",
        other => other,
    };
    let mut line = verb.to_owned();
    for w in [target, c.weapon.as_deref()].into_iter().flatten() {
        line.push(' ');
        line.push_str(&word(w));
    }
    if let Some(b) = &c.background {
        line.push_str(&format!(" bg {}", word(b)));
    }
    if let Some(b) = &c.defender_background {
        line.push_str(&format!(" defend-bg {}", word(b)));
    }
    line
}

impl CombatStatus {
    fn of(stored: &StoredCombat, session: &Session) -> Self {
        let combat: Option<&Combat> = session.combat();
        let fighters = session.fighters();
        let name_of = |i: usize| fighters[i].name.clone();
        let characters: Vec<String> = stored
            .lines
            .iter()
            .filter_map(|l| l.character.as_ref().map(|c| c.name.clone()))
            .collect();
        // What the acting fighter has used of its turn (none acting: nothing left).
        let turn = combat
            .filter(|c| c.acting().is_some())
            .map(Combat::turn_used);
        let mut ranges = Vec::new();
        if let Some(c) = combat {
            for a in 0..fighters.len() {
                for b in a + 1..fighters.len() {
                    let band = c.band(a, b);
                    if band != RangeBand::Nearby {
                        ranges.push(RangeStatus {
                            a: name_of(a),
                            b: name_of(b),
                            band: band.name(),
                        });
                    }
                }
            }
        }
        Self {
            name: stored.name.clone(),
            mode: combat.map_or(Mode::Standard, Combat::mode),
            roll_off: stored.roll_off,
            lines: stored.lines.len(),
            started: combat.is_some(),
            round: combat.map_or(0, Combat::round),
            over: combat.is_some_and(Combat::is_over),
            order: combat
                .map(|c| c.order().iter().map(|&i| name_of(i)).collect())
                .unwrap_or_default(),
            acting: combat.and_then(Combat::acting).map(name_of),
            fighters: fighters
                .iter()
                .enumerate()
                .map(|(id, f)| FighterStatus {
                    // A combat holds far fewer fighters than u32 counts.
                    id: u32::try_from(id).unwrap_or(u32::MAX),
                    name: f.name.clone(),
                    side: f.side.clone(),
                    hit_points: f.hit_points,
                    max_hit_points: f.max_hit_points,
                    out: f.is_out(),
                    character: characters.contains(&f.name),
                    weapon: f.held_name().to_owned(),
                    vehicle: f.vehicle.is_some(),
                })
                .collect(),
            range_default: RangeBand::Nearby.name(),
            ranges,
            move_left: turn.is_some_and(|(moved, _)| !moved),
            action_left: turn.is_some_and(|(_, acted)| !acted),
            switch_to_shoot: combat
                .filter(|_| turn.is_some_and(|(_, acted)| !acted))
                .and_then(Combat::switch_to_shoot)
                .map(str::to_owned),
            choices: combat
                .map(|c| {
                    c.choices()
                        .iter()
                        .map(|ch| ChoiceView::of(ch, fighters))
                        .collect()
                })
                .unwrap_or_default(),
            log: Vec::new(),
        }
    }
}

/// A line played.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CombatLineView {
    /// The journal entry.
    pub seq: i64,
    /// The line and its dice.
    pub line: CombatLine,
    /// The events (the engine's, as JSON).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<solum_expanded::combat::Event>))]
    pub events: serde_json::Value,
    /// The events as text.
    pub text: Vec<String>,
    /// Where the combat stands after the line.
    pub status: CombatStatus,
}

/// A combat ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CombatEndView {
    /// The journal entry.
    pub seq: i64,
    /// Where the combat stood at the end.
    pub status: CombatStatus,
    /// What went back to the characters' sheets.
    pub written: Vec<HpWrite>,
}

/// A combat started.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CombatStartView {
    /// The journal entry.
    pub seq: i64,
    /// The combat's name.
    pub name: String,
    /// Draws are rolled off.
    pub roll_off: bool,
    /// The entries of the fighters brought in with the start ([`CombatSetup`]), in order.
    pub seqs: Vec<i64>,
    /// Where the combat stands once they joined (`None` when none were named).
    pub status: Option<CombatStatus>,
}

/// The most heroes, and the most kinds of foes, a combat starts with ([`CombatSetup`]).
pub const MAX_SETUP_ENTRIES: usize = 20;

/// The most foes of one kind a combat or a simulation brings in at once (as a line's
/// `foe orc*100` does).
pub const MAX_FOES_OF_A_KIND: u32 = 100;

crate::bounded::bounded! {
    /// How many foes of one kind join, 1 to [`MAX_FOES_OF_A_KIND`].
    pub struct FoeNumber(u32) in 1, MAX_FOES_OF_A_KIND;
    "a count of foes is {min} to {max}"
}

/// Foes of one kind brought into a new combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FoeCount {
    /// A creature of the shipped bestiary or the campaign's, by name (any case).
    pub name: String,
    /// How many (named `orc-1`, `orc-2`, …; one unless said).
    #[serde(default = "one_foe")]
    pub count: FoeNumber,
}

fn one_foe() -> FoeNumber {
    FoeNumber::new(1).expect("one foe is a count")
}

/// The fighters a combat starts with: the campaign's characters by name (the heroes' side),
/// and foes of the bestiaries by name and count. Each joins as its line (`hero NAME`,
/// `foe CREATURE*COUNT`) would, journaled as that line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatSetup {
    /// Characters of the campaign, by name (at most [`MAX_SETUP_ENTRIES`]).
    #[serde(default)]
    pub heroes: Vec<String>,
    /// Foes by creature and count (at most [`MAX_SETUP_ENTRIES`] kinds).
    #[serde(default)]
    pub foes: Vec<FoeCount>,
}

impl CombatSetup {
    /// The lines that bring the fighters in, checked against the limits.
    fn lines(&self) -> Result<Vec<String>, AppError> {
        if self.heroes.len() > MAX_SETUP_ENTRIES {
            return Err(crate::CombatRefusal::Setup.at(
                "heroes",
                format!("{} named; at most {MAX_SETUP_ENTRIES}", self.heroes.len()),
            ));
        }
        if self.foes.len() > MAX_SETUP_ENTRIES {
            return Err(crate::CombatRefusal::Setup.at(
                "foes",
                format!(
                    "{} kinds named; at most {MAX_SETUP_ENTRIES}",
                    self.foes.len()
                ),
            ));
        }
        let mut out = Vec::new();
        for hero in &self.heroes {
            let hero = crate::name("heroes", hero, crate::characters::MAX_NAME)?;
            if hero.contains('"') {
                return Err(crate::CombatRefusal::Setup.at(
                    "heroes",
                    format!("{hero}: a name with a quote cannot join a fight"),
                ));
            }
            out.push(format!("hero {}", word(&hero)));
        }
        for foe in &self.foes {
            let name = crate::name("foes", &foe.name, crate::creatures::MAX_CREATURE_NAME)?;
            if name.contains(['"', '*', '#']) {
                return Err(
                    crate::CombatRefusal::Setup.at("foes", format!("{name}: no such creature"))
                );
            }
            // The bestiaries read `-` as a space: one word for the line.
            let key = name.split_whitespace().collect::<Vec<_>>().join("-");
            out.push(if foe.count.get() == 1 {
                format!("foe {key}")
            } else {
                format!("foe {key}*{}", foe.count)
            });
        }
        Ok(out)
    }
}

/// A refusal of a line the setup wrote, as the setup's own: the request has `heroes` and
/// `foes`, no `line`.
fn setup_refusal(line: &str, e: AppError) -> AppError {
    match e {
        AppError::Combat(mut r) if r.field == "line" => {
            r.kind = crate::CombatRefusal::Setup;
            r.field = if line.starts_with("hero ") {
                "heroes"
            } else {
                "foes"
            }
            .to_owned();
            AppError::Combat(r)
        }
        other => other,
    }
}

/// What a line of a campaign combat may be: a line that changes the combat (a sheet file's
/// hero only where the combat has a resolver for sheets, a one-shot's).
fn accepted(parsed: &Line, outside: &Outside<'_>) -> Result<(), AppError> {
    match parsed {
        Line::Fighter(FighterLine::Sheet { .. }) if outside.sheets.is_none() => Err(crate::CombatRefusal::Line.at(
            "line",
            "a campaign combat takes the campaign's characters by name (`hero NAME`), not sheet files",
        )),
        Line::Blank => Err(crate::CombatRefusal::Line.at("line", "the line is empty")),
        Line::Status | Line::Options | Line::Help | Line::Quit => Err(crate::CombatRefusal::Line.at(
            "line",
            "this line changes nothing: read the combat's status for what the acting fighter may do",
        )),
        _ => Ok(()),
    }
}

/// A line a player may play: an action of the acting fighter's turn.
fn player_line(parsed: &Line) -> bool {
    use solum_expanded::line::NamedCommand as C;
    matches!(
        parsed,
        Line::Command(
            C::Move(..)
                | C::Chase(..)
                | C::Melee(_)
                | C::Unarmed(_)
                | C::Switch(_)
                | C::Shoot(_)
                | C::VehicleAttack(_)
                | C::Act(_)
                | C::EndTurn,
            ..
        )
    )
}

/// A player acts only on the turn of a hero of theirs: a campaign character of `own`.
fn may_act_for(stored: &StoredCombat, session: &Session, own: &[String]) -> Result<(), AppError> {
    let acting = session
        .combat()
        .and_then(Combat::acting)
        .map(|i| session.fighters()[i].name.clone());
    let Some(acting) = acting else {
        return Err(crate::policy::Forbidden::NoTurnYet.into());
    };
    let key = solum_store::name_key(&acting);
    let hero = stored
        .lines
        .iter()
        .filter_map(|l| l.character.as_ref())
        .any(|c| solum_store::name_key(&c.name) == key);
    if hero && own.iter().any(|o| solum_store::name_key(o) == key) {
        Ok(())
    } else {
        Err(crate::policy::Forbidden::NotYourTurn(acting).into())
    }
}

/// Plays one line on the open combat inside a write transaction: rebuilds the combat,
/// checks the line (and for a player, `own`: see [`Campaign::combat_line_for`]), stores it
/// with its dice and journals it.
fn play_line_in(
    tx: &mut dyn WriteTx,
    at: &Timestamp,
    text: &str,
    parsed: &Line,
    seed: u64,
    own: Option<&[String]>,
    outside: &Outside<'_>,
) -> Result<CombatLineView, AppError> {
    let mut stored = read_open(tx.sheet(SYSTEM, OPEN)?)?.ok_or_else(no_open)?;
    if stored.lines.len() >= MAX_COMBAT_LINES {
        return Err(crate::CombatRefusal::Line.at(
            "line",
            format!(
                "the combat {} has {MAX_COMBAT_LINES} lines, the most one combat keeps: end it and start another",
                stored.name
            ),
        ));
    }
    let mut session = rebuild(&stored)?;
    if let Some(own) = own {
        may_act_for(&stored, &session, own)?;
    }
    // S18: a new line names backgrounds per roll; `bg` on a fighter line is refused.
    session.set_legacy_background_flag(false);
    let mut line = CombatLine {
        line: text.to_owned(),
        seed: None,
        faces: Vec::new(),
        character: None,
        creature: None,
        sheet: None,
    };
    if let Line::Fighter(FighterLine::Sheet { path, .. }) = parsed {
        let path = path.to_string_lossy();
        let sheets = outside.sheets.ok_or_else(|| {
            crate::CombatRefusal::Sheet.at("line", "sheet files are not read here")
        })?;
        let hero = sheets
            .sheet(&path)
            .map_err(|e| crate::CombatRefusal::Sheet.at("line", e))?;
        crate::characters::check_sheet(&hero)?;
        line.sheet = Some(hero);
    }
    // A fighter line may bring in a campaign character (before a creature of the
    // same name) or a campaign creature; the line keeps its copy for the replays.
    if let Line::Fighter(FighterLine::Creature {
        creature, count, ..
    }) = parsed
    {
        if session.character(creature).is_none()
            && *count == 1
            && let Some(sheet) = tx.sheet(crate::characters::SYSTEM, creature)?
        {
            let mut hero = character_of(&sheet)?;
            // Notes play no part in a fight; the copy stays small.
            hero.notes.clear();
            line.character = Some(hero);
        } else if let Some(c) = outside
            .bestiary
            .and_then(|b| b.creature(creature))
            .filter(|c| session.bestiary().creature(&c.name) != Some(*c))
        {
            // A one-shot's `--bestiary` entry, where it differs from the shipped one.
            line.creature = Some(c.clone());
        } else if session.character(creature).is_none()
            && session.bestiary().creature(creature).is_none()
        {
            line.creature = crate::creatures::campaign_creature(tx, creature)?;
        }
    }
    let mut dice = SeededDice::new(seed);
    let (events, text_lines, faces) = play(&mut session, &line, &mut dice)
        .map_err(|e| crate::CombatRefusal::Line.at("line", e))?;
    if !faces.is_empty() {
        line.seed = Some(seed);
        line.faces = faces;
    }
    stored.lines.push(line.clone());
    let status = CombatStatus::of(&stored, &session);
    let name = stored.name.clone();
    write_open(tx, Some(stored.clone()))?;
    let record = CombatRecord::new(
        &name,
        CombatChange::Line {
            line: Box::new(line.clone()),
            events: events.clone(),
            text: text_lines.clone(),
        },
    );
    let seq = journaling::append(tx, at, &record)?;
    Ok(CombatLineView {
        seq,
        line,
        events,
        text: text_lines,
        status,
    })
}

impl<S: CampaignStore> Campaign<S> {
    /// Starts a combat (none may be open): fighters join with lines (`hero NAME` for a
    /// campaign character, `foe CREATURE` for the shipped bestiary's or the campaign's).
    pub fn start_combat(
        &mut self,
        name: Option<&str>,
        roll_off: bool,
    ) -> Result<CombatStartView, AppError> {
        self.start_combat_with(name, roll_off, &CombatSetup::default())
    }

    /// Starts a combat with its fighters: the start and each fighter's line in one
    /// transaction (a name that is no character or creature refuses the whole start, and
    /// nothing is written). The game master's ([`crate::policy::GmOnly::Combat`]).
    pub fn start_combat_with(
        &mut self,
        name: Option<&str>,
        roll_off: bool,
        setup: &CombatSetup,
    ) -> Result<CombatStartView, AppError> {
        self.game_master(crate::policy::GmOnly::Combat)?;
        let lines = setup.lines()?;
        let parsed = lines
            .iter()
            .map(|l| {
                parse_line(l).map_err(|e| {
                    setup_refusal(l, crate::CombatRefusal::Line.at("line", e.to_string()))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let seed = SeededDice::from_entropy().seed();
        let name = match name {
            Some(n) => combat_name(n)?,
            None => DEFAULT_NAME.to_owned(),
        };
        // The campaign's roll-off setting (S14) holds for the fight's opposed rolls too.
        let roll_off = roll_off || self.roll_off()?;
        let at = self.now();
        crate::transact(&mut self.store, &self.by, |tx| {
            if let Some(open) = read_open(tx.sheet(SYSTEM, OPEN)?)? {
                return Err(crate::CombatRefusal::Open.at(
                    "combat",
                    format!("the combat {} is open: end it first", open.name),
                ));
            }
            write_open(
                tx,
                Some(StoredCombat {
                    name: name.clone(),
                    roll_off,
                    lines: Vec::new(),
                }),
            )?;
            let record = CombatRecord::new(&name, CombatChange::Started { roll_off });
            let seq = journaling::append(tx, &at, &record)?;
            let mut seqs = Vec::new();
            let mut status = None;
            for (text, parsed) in lines.iter().zip(&parsed) {
                let view = play_line_in(tx, &at, text, parsed, seed, None, &Outside::NONE)
                    .map_err(|e| setup_refusal(text, e))?;
                seqs.push(view.seq);
                status = Some(view.status);
            }
            Ok(CombatStartView {
                seq,
                name: name.clone(),
                roll_off,
                seqs,
                status: status.clone(),
            })
        })
    }

    /// Plays one line of the line language on the open combat. Dice not typed with `with`
    /// come from `seed` (a fresh one when `None`). The line is checked on the combat as
    /// rebuilt inside the write transaction; a refused line changes nothing.
    pub fn combat_line(
        &mut self,
        text: &str,
        seed: Option<u64>,
    ) -> Result<CombatLineView, AppError> {
        self.combat_line_for(text, seed, None)
    }

    /// [`Campaign::combat_line`] for a player, who plays only for their own heroes: `own`
    /// names the characters the player may act for (`None`: anyone, the game master). A
    /// player's line must be an action of the acting fighter (a move, an attack, a switch,
    /// `act` or `end`), on that fighter's turn, and the acting fighter must be one of `own`
    /// brought in by `hero NAME`; checked on the combat as rebuilt inside the write
    /// transaction, so a turn that moves on meanwhile cannot be played by the wrong player.
    pub fn combat_line_for(
        &mut self,
        text: &str,
        seed: Option<u64>,
        own: Option<&[String]>,
    ) -> Result<CombatLineView, AppError> {
        self.combat_line_with(text, seed, own, &Outside::NONE)
    }

    /// [`Campaign::combat_line_for`] with what a one-shot combat brings from outside the
    /// campaign.
    fn combat_line_with(
        &mut self,
        text: &str,
        seed: Option<u64>,
        own: Option<&[String]>,
        outside: &Outside<'_>,
    ) -> Result<CombatLineView, AppError> {
        let text = line_text(text)?;
        let parsed =
            parse_line(&text).map_err(|e| crate::CombatRefusal::Line.at("line", e.to_string()))?;
        accepted(&parsed, outside)?;
        if own.is_some() && !player_line(&parsed) {
            return Err(crate::policy::Forbidden::FightSetup.into());
        }
        // The seed is fixed before the transaction: the seed journaled is the seed rolled.
        let seed = seed.unwrap_or_else(|| SeededDice::from_entropy().seed());
        let at = self.now();
        crate::transact(&mut self.store, &self.by, |tx| {
            play_line_in(tx, &at, &text, &parsed, seed, own, outside)
        })
    }

    /// Where the open combat stands, as the front ends answer it (`{"combat": null}` when
    /// none is open).
    pub fn combat_answer(&self) -> Result<CombatAnswer, AppError> {
        Ok(CombatAnswer {
            combat: self.combat_status()?,
        })
    }

    /// Where the open combat stands (`None` when no combat is open).
    pub fn combat_status(&self) -> Result<Option<CombatStatus>, AppError> {
        let Some(stored) = read_open(self.store.sheet(SYSTEM, OPEN)?)? else {
            return Ok(None);
        };
        let (session, log) = rebuild_logged(&stored)?;
        let mut status = CombatStatus::of(&stored, &session);
        status.log = log;
        Ok(Some(status))
    }

    /// Ends the open combat: each campaign character's sheet loses the hit points the
    /// character lost in the fight (never below 0), in the transaction that journals the end.
    /// The game master's ([`crate::policy::GmOnly::Combat`]).
    pub fn end_combat(&mut self) -> Result<CombatEndView, AppError> {
        self.game_master(crate::policy::GmOnly::Combat)?;
        let at = self.now();
        crate::transact(&mut self.store, &self.by, |tx| {
            let stored = read_open(tx.sheet(SYSTEM, OPEN)?)?.ok_or_else(no_open)?;
            let session = rebuild(&stored)?;
            let status = CombatStatus::of(&stored, &session);
            let fighters = fighter_hp(&session);
            let mut written = Vec::new();
            for joined in stored.lines.iter().filter_map(|l| l.character.as_ref()) {
                let left = fighters
                    .iter()
                    .find(|f| f.name == joined.name)
                    .map_or(joined.hit_points, |f| f.hit_points);
                let lost = joined.hit_points.saturating_sub(left);
                let mut write = HpWrite {
                    name: joined.name.clone(),
                    joined: joined.hit_points,
                    left,
                    before: None,
                    after: None,
                };
                if let Some(sheet) = tx.sheet(crate::characters::SYSTEM, &joined.name)? {
                    let mut hero = character_of(&sheet)?;
                    write.before = Some(hero.hit_points);
                    hero.take_damage(lost);
                    write.after = Some(hero.hit_points);
                    if lost > 0 {
                        tx.update_sheet(
                            crate::characters::SYSTEM,
                            &sheet.name,
                            &Sheet {
                                body: serde_json::to_value(&hero)
                                    .map_err(|e| AppError::internal("sheet", e))?,
                                ..sheet.clone()
                            },
                        )?;
                    }
                }
                written.push(write);
            }
            write_open(tx, None)?;
            let record = CombatRecord::new(
                &stored.name,
                CombatChange::Ended {
                    fighters: fighters.clone(),
                    written: written.clone(),
                },
            );
            let seq = journaling::append(tx, &at, &record)?;
            Ok(CombatEndView {
                seq,
                status,
                written,
            })
        })
    }
}

fn fighter_hp(session: &Session) -> Vec<FighterHp> {
    session
        .fighters()
        .iter()
        .map(|f| FighterHp {
            name: f.name.clone(),
            hit_points: f.hit_points,
        })
        .collect()
}

/// A character's sheet as stored by the character use cases.
pub(crate) fn character_of(sheet: &Sheet) -> Result<Character, AppError> {
    if sheet.schema != i64::from(CHARACTER_SCHEMA) {
        return Err(crate::CombatRefusal::Stored.at(
            "schema",
            format!(
                "the stored sheet of {} has schema {}; this solum reads {CHARACTER_SCHEMA}",
                sheet.name, sheet.schema
            ),
        ));
    }
    let hero: Character = serde_json::from_value(sheet.body.clone()).map_err(|e| {
        crate::CombatRefusal::Stored.at(
            "sheet",
            format!("the stored sheet of {} cannot be read: {e}", sheet.name),
        )
    })?;
    hero.validate()?;
    Ok(hero)
}

/// Re-derives combat records in journal order: a line is played again on the combat its
/// earlier lines built, from its seed (or its typed dice), and must draw the faces and
/// cause the events recorded; the end must find the hit points recorded.
#[derive(Default)]
pub struct CombatReplay {
    /// The combat's name, its session, and the characters who joined it.
    open: Option<(String, Session, Vec<String>)>,
}

impl CombatReplay {
    /// Checks the next combat record: `None` when it re-derives, else what differs.
    pub fn check(&mut self, record: &CombatRecord) -> Option<Divergence> {
        if let Some(newer) = Divergence::newer("combat", record.schema, COMBAT_RECORD_SCHEMA) {
            return Some(newer);
        }
        match &record.change {
            CombatChange::Started { roll_off } => {
                let mut session = empty_session(*roll_off);
                session.set_legacy_background_flag(true);
                self.open = Some((record.combat.clone(), session, Vec::new()));
                None
            }
            CombatChange::Line { line, events, text } => {
                let Some((_, session, joined)) = &mut self.open else {
                    return Some(Divergence::inconsistent(format!(
                        "a line of the combat {} with no start before it",
                        record.combat
                    )));
                };
                if let Some(c) = &line.character {
                    joined.push(c.name.clone());
                }
                let replayed = match line.seed {
                    Some(seed) => play(session, line, &mut SeededDice::new(seed)),
                    None => play(session, line, &mut TypedDice::new(Vec::new())),
                };
                let divergence = match replayed {
                    Err(e) => Some(Divergence::unreplayable(e)),
                    Ok((again, again_text, faces)) => (faces != line.faces)
                        .then(|| Divergence::Faces {
                            recorded: line.faces.clone(),
                            derived: faces,
                            typed: line.seed.is_none(),
                        })
                        .or_else(|| Divergence::fields("events", events, &again))
                        .or_else(|| Divergence::fields("text", text, &again_text)),
                };
                divergence.map(|d| d.within(format!("the line `{}`", line.line)))
            }
            CombatChange::Ended { fighters, written } => {
                let Some((_, session, joined)) = self.open.take() else {
                    return Some(Divergence::inconsistent(format!(
                        "the end of the combat {} with no start before it",
                        record.combat
                    )));
                };
                let hp = fighter_hp(&session);
                if let Some(d) = Divergence::fields("fighters", fighters, &hp) {
                    return Some(d.within(format!("the end of the combat {}", record.combat)));
                }
                let names: Vec<&String> = written.iter().map(|w| &w.name).collect();
                if names != joined.iter().collect::<Vec<_>>() {
                    return Some(Divergence::inconsistent(format!(
                        "the combat {} writes back hit points of {names:?}, but {joined:?} joined it",
                        record.combat
                    )));
                }
                for w in written {
                    if session.character(&w.name).map(|c| c.hit_points) != Some(w.joined) {
                        return Some(Divergence::inconsistent(format!(
                            "{} joined the combat {} with other hit points than recorded",
                            w.name, record.combat
                        )));
                    }
                    let left = fighters
                        .iter()
                        .find(|f| f.name == w.name)
                        .map_or(w.joined, |f| f.hit_points);
                    let expected = w
                        .before
                        .map(|b| b.saturating_sub(w.joined.saturating_sub(left)));
                    if let Some(d) = Divergence::fields("left", &w.left, &left)
                        .or_else(|| Divergence::fields("after", &w.after, &expected))
                    {
                        return Some(
                            d.within(format!("the hit points written back to {}", w.name)),
                        );
                    }
                }
                None
            }
        }
    }
}

/// The fighters of the open combat as they stand (hit points now), for the odds of the rest
/// of the fight (`None` when no combat is open).
pub(crate) fn open_fighters<S: CampaignStore>(
    store: &S,
) -> Result<Option<Vec<solum_expanded::combat::Fighter>>, AppError> {
    let Some(stored) = read_open(store.sheet(SYSTEM, OPEN)?)? else {
        return Ok(None);
    };
    Ok(Some(rebuild(&stored)?.fighters().to_vec()))
}

/// What a one-shot combat brings from outside the campaign: sheet files and `--bestiary`
/// entries. A campaign's combat brings neither.
#[derive(Clone, Copy)]
struct Outside<'a> {
    /// Where `hero FILE` lines find their sheets.
    sheets: Option<&'a dyn SheetResolver>,
    /// The shipped bestiary with the one-shot's files, found before the campaign's
    /// creatures.
    bestiary: Option<&'a Bestiary>,
}

impl Outside<'_> {
    const NONE: Outside<'static> = Outside {
        sheets: None,
        bestiary: None,
    };
}

/// What a line of the combat language asks a front end for, before anything is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    /// Nothing (blank or a comment).
    Blank,
    /// Where the combat stands.
    Status,
    /// The acting fighter's options with their odds.
    Options,
    /// The line language ([`HELP`]).
    Help,
    /// Leave.
    Quit,
    /// A line that changes the combat: play it.
    Play,
}

/// What a line asks for; a line that does not parse is refused, naming what is wrong.
pub fn line_kind(text: &str) -> Result<LineKind, AppError> {
    let text = line_text(text)?;
    Ok(
        match parse_line(&text).map_err(|e| crate::CombatRefusal::Line.at("line", e.to_string()))? {
            Line::Blank => LineKind::Blank,
            Line::Status => LineKind::Status,
            Line::Options => LineKind::Options,
            Line::Help => LineKind::Help,
            Line::Quit => LineKind::Quit,
            _ => LineKind::Play,
        },
    )
}

/// A one-shot combat (`solum combat SCRIPT` without a campaign): the campaign's combat
/// tracker over an in-memory store that is thrown away at the end, so a script and a
/// campaign's combat play the same lines the same way and answer the same views. Dice not
/// typed with `with` come from one seed for the whole fight: line `n` rolls from
/// `sim::chunk_seed(seed, n)`, so `--seed` replays the whole fight and each line's view
/// names the seed that replays it alone.
pub struct OneShotCombat {
    campaign: Campaign<solum_store::MemoryStore>,
    seed: u64,
    lines: u64,
    bestiary: Bestiary,
    sheets: Option<Box<dyn SheetResolver>>,
}

impl OneShotCombat {
    /// A combat with this bestiary (the shipped one, or it extended by `--bestiary` files),
    /// draws rolled off or standing, dice from `seed` (a fresh one when `None`), and sheet
    /// files found through `sheets` (none: `hero FILE` lines are refused).
    pub fn start(
        bestiary: Bestiary,
        roll_off: bool,
        seed: Option<u64>,
        sheets: Option<Box<dyn SheetResolver>>,
    ) -> Result<Self, AppError> {
        let mut campaign = Campaign::new(solum_store::MemoryStore::new());
        campaign.start_combat(None, roll_off)?;
        Ok(Self {
            campaign,
            seed: seed.unwrap_or_else(|| SeededDice::from_entropy().seed()),
            lines: 0,
            bestiary,
            sheets,
        })
    }

    /// The seed the fight's dice come from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Plays one line that changes the combat ([`LineKind::Play`]); a refused line changes
    /// nothing.
    pub fn play(&mut self, text: &str) -> Result<CombatLineView, AppError> {
        let seed = crate::sim::chunk_seed(self.seed, self.lines);
        self.lines += 1;
        let outside = Outside {
            sheets: self.sheets.as_deref(),
            bestiary: Some(&self.bestiary),
        };
        self.campaign
            .combat_line_with(text, Some(seed), None, &outside)
    }

    /// Where the combat stands, with every line played so far.
    pub fn status(&self) -> Result<CombatStatus, AppError> {
        self.campaign.combat_status()?.ok_or_else(no_open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::bounded::bounded_tests!(foe_number, FoeNumber, "a count of foes is 1 to 100");

    /// A kind of foes is one unless counted, and read with its count's type.
    #[test]
    fn foes_are_counted_as_they_are_read() {
        let one: FoeCount = serde_json::from_str(r#"{"name": "orc"}"#).unwrap();
        assert_eq!(one.count.get(), 1);
        let e = serde_json::from_str::<FoeCount>(r#"{"name": "orc", "count": 101}"#).unwrap_err();
        assert!(e.to_string().contains("a count of foes is 1 to 100"), "{e}");
    }
}
