//! Vehicles and chases (ruling S10) as use cases: a vehicle attack or a chase roll between
//! two piloted vehicles, with the exact odds before the roll, every die, the Rule-of-6 chain,
//! any roll-off, the verdict and what a hit does to the hull.
//!
//! A pilot's pool is typed (`pilot`) or taken from a character of the campaign (its Mind, +1
//! for a background of its sheet named for this roll); a vehicle is one of the shipped
//! catalogue's or typed by its speed and handling. The same [`VehicleRollView`] is what
//! `solum vehicle … --json` prints and what `POST /api/vehicles/{attack,chase}` answers
//! (beside the journal entry's number): the one-shot form ([`roll_vehicle`]) journals
//! nothing, the campaign's ([`Campaign::vehicle_roll`]) journals a [`VehicleRecord`] that
//! `journal verify` re-derives.

use std::cell::{Cell, RefCell};

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, SeededDice, SharedDice, TypedDice};
use solum_expanded::Pool;
use solum_expanded::check::{DrawRule, OpposedOutcome, Verdict};
use solum_expanded::vehicle::{
    Handling, Piloted, Scale, ScaleRule, Speed, Vehicle, VehicleCatalogue, VehicleEntry,
    attack_odds, chase_odds, roll_chase, roll_vehicle_attack, scale_damage,
};
use solum_store::CampaignStore;

use crate::check_once::CombatPool;
use crate::rolled::Rolled;
use crate::typed_dice::TypedDiceError;
pub use crate::vehicle_error::{Field, VehicleError};
use crate::{AppError, Campaign, Dice};

/// The most dice one pilot may type by hand for one roll: a pool of the largest size, its
/// chain and roll-off dice fit many times over.
pub const MAX_TYPED: usize = 2_000;

/// A chase roll or a vehicle attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum VehicleRollKind {
    /// A chase roll (part of a move): speed and handling add dice; the winner gets what it
    /// wants (closer or farther), a loss or a standing draw leaves the distance.
    #[serde(rename = "chase")]
    Chase,
    /// A vehicle attack (the action, only at engaged range): handling adds a die; a win is
    /// a hit, a loss or a standing draw a miss, nothing more.
    #[serde(rename = "vehicle attack")]
    Attack,
}

/// Why a typed value was not needed: a rule that left a die unrolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnrolledDie {
    /// A 6 showed on one side only: no Rule-of-6 chain die is rolled (only when both do).
    ChainNotNeeded,
    /// The results differ, so there is no roll-off.
    NoRollOff,
    /// The draw stands: no roll-off without the roll-off option.
    DrawStands,
}

impl UnrolledDie {
    /// The rule in words.
    pub fn reason(self) -> &'static str {
        match self {
            Self::ChainNotNeeded => {
                "only one side shows a 6, so no Rule-of-6 chain die is rolled (only when both do)"
            }
            Self::NoRollOff => "the results differ, so there is no roll-off",
            Self::DrawStands => "the draw stands: no roll-off without the roll-off option",
        }
    }
}

/// The order typed values are taken in, for one pilot.
pub const TYPED_ORDER: &str = "values go: the pool, then the Rule-of-6 chain (only when both pilots show a 6), then roll-off dice";

/// One pilot and vehicle as asked for, before the catalogue and the sheets are read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VehicleRollInput {
    /// The first pilot's pool (Mind + background), typed.
    #[serde(default)]
    pub pilot: Option<CombatPool>,
    /// Or a character of the campaign as the first pilot (its Mind).
    #[serde(default)]
    pub character: Option<String>,
    /// A background of that character's sheet named for this roll: +1 die (S18).
    #[serde(default)]
    pub background: Option<String>,
    /// The first vehicle, from the catalogue (any case, a unique word is enough).
    #[serde(default)]
    pub vehicle: Option<String>,
    /// Or its speed (average when not given).
    #[serde(default)]
    pub speed: Option<Speed>,
    /// And its handling (average when not given).
    #[serde(default)]
    pub handling: Option<Handling>,
    /// The other pilot's pool.
    #[serde(default)]
    pub against_pilot: Option<CombatPool>,
    /// Or a character of the campaign as the other pilot.
    #[serde(default)]
    pub against_character: Option<String>,
    /// A background of the other pilot's sheet named for this roll.
    #[serde(default)]
    pub against_background: Option<String>,
    /// The other vehicle, from the catalogue.
    #[serde(default)]
    pub against_vehicle: Option<String>,
    /// Or its speed.
    #[serde(default)]
    pub against_speed: Option<Speed>,
    /// And its handling.
    #[serde(default)]
    pub against_handling: Option<Handling>,
    /// Draws are rolled off (one die each until one is higher) instead of standing. A
    /// campaign whose roll-off option is on rolls them off in any case.
    #[serde(default)]
    pub roll_off: bool,
    /// Dice the first pilot rolled by hand: the pool, then the Rule-of-6 chain (only when
    /// both show a 6), then roll-off dice. Dice not typed come from the generator.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = typed_d6))]
    pub rolled: Option<Vec<u32>>,
    /// Dice the other pilot rolled by hand, in the same order.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = typed_d6))]
    pub against_rolled: Option<Vec<u32>>,
}

/// The schema of one pilot's typed dice: faces of a d6 (every die of a vehicle roll is one:
/// pool, chain and roll-off), at most [`MAX_TYPED`], or `null`. The faces are checked as the
/// roll draws them, with the die they were typed for (`dice-not-a-face`), not as the body is
/// read.
#[cfg(feature = "openapi")]
fn typed_d6() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::ArrayBuilder;
    crate::schema::or_null(
        ArrayBuilder::new()
            .items(RefOr::T(crate::schema::integer(1, 6)))
            .max_items(Some(MAX_TYPED))
            .into(),
    )
}

/// The fields of one side, for errors.
struct SideFields {
    pilot: Field,
    character: Field,
    background: Field,
    vehicle: Field,
    speed: Field,
    handling: Field,
}

const FIRST: SideFields = SideFields {
    pilot: Field::Pilot,
    character: Field::Character,
    background: Field::Background,
    vehicle: Field::Vehicle,
    speed: Field::Speed,
    handling: Field::Handling,
};

const SECOND: SideFields = SideFields {
    pilot: Field::AgainstPilot,
    character: Field::AgainstCharacter,
    background: Field::AgainstBackground,
    vehicle: Field::AgainstVehicle,
    speed: Field::AgainstSpeed,
    handling: Field::AgainstHandling,
};

/// One side of the input.
struct SideInput<'a> {
    pilot: Option<CombatPool>,
    character: Option<&'a str>,
    background: Option<&'a str>,
    vehicle: Option<&'a str>,
    speed: Option<Speed>,
    handling: Option<Handling>,
    fields: &'static SideFields,
}

impl VehicleRollInput {
    fn sides(&self) -> [SideInput<'_>; 2] {
        [
            SideInput {
                pilot: self.pilot,
                character: self.character.as_deref(),
                background: self.background.as_deref(),
                vehicle: self.vehicle.as_deref(),
                speed: self.speed,
                handling: self.handling,
                fields: &FIRST,
            },
            SideInput {
                pilot: self.against_pilot,
                character: self.against_character.as_deref(),
                background: self.against_background.as_deref(),
                vehicle: self.against_vehicle.as_deref(),
                speed: self.against_speed,
                handling: self.against_handling,
                fields: &SECOND,
            },
        ]
    }
}

/// A pilot and vehicle as rolled: everything a replay needs, whatever the catalogue or the
/// sheet says later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PilotedVehicle {
    /// The pilot's pool before the vehicle's dice (Mind + background).
    pub pilot: u32,
    /// The character flying, when the pool came from a sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
    /// The background named for the roll, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    /// The vehicle (an empty name: typed by its ratings).
    pub vehicle: Vehicle,
}

/// What a hit of a vehicle attack does: the attacker's weapons against the target's hull.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HullDamage {
    /// The attacking vehicle's weapon damage.
    pub damage: u32,
    /// The target's hull before the hit.
    pub hull: u32,
    /// The target's hull after it (never below 0).
    pub hull_left: u32,
}

/// The scale rule for the target vehicle (S10): what a heavy personal weapon would do to it,
/// and that a vehicle weapon hitting a person takes them to 0 hit points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScaleNote {
    /// The target's size.
    pub scale: Scale,
    /// Damage a heavy personal weapon (3) deals to it.
    pub heavy_weapon_damage: u32,
    /// The rule that decided it.
    pub rule: ScaleRule,
    /// The rule in words.
    pub reason: &'static str,
}

/// A vehicle roll, as `solum vehicle … --json` prints it and the web table answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VehicleRollView {
    /// `chase` or `vehicle attack`.
    pub kind: VehicleRollKind,
    /// The first pilot's pool before the vehicle's dice.
    pub pilot: u32,
    /// The other pilot's pool before the vehicle's dice.
    pub against_pilot: u32,
    /// The first pilot's whole pool.
    pub pool: u32,
    /// The other pilot's whole pool.
    pub against_pool: u32,
    /// Dice the first vehicle added, and why (`faster`, `better handling`).
    pub bonus: Vec<&'static str>,
    /// Dice the other vehicle added, and why.
    pub against_bonus: Vec<&'static str>,
    /// The first character flying, when the pool came from a sheet.
    pub character: Option<String>,
    /// The other character flying.
    pub against_character: Option<String>,
    /// The first vehicle's catalogue name (`null` when typed by its ratings).
    pub vehicle: Option<String>,
    /// The other vehicle's catalogue name.
    pub against_vehicle: Option<String>,
    /// The first vehicle's speed and handling as rolled.
    pub speed: Speed,
    /// Its handling.
    pub handling: Handling,
    /// The other vehicle's speed.
    pub against_speed: Speed,
    /// Its handling.
    pub against_handling: Handling,
    /// Whether speed counted (a chase) or not (an attack: handling only, S10).
    pub speed_counts: bool,
    /// The first pilot's pool as rolled.
    pub dice: Vec<u32>,
    /// The first pilot's Rule-of-6 chain.
    pub chain: Vec<u32>,
    /// The first pilot's result.
    pub result: u32,
    /// The other pilot's pool as rolled.
    pub against_dice: Vec<u32>,
    /// The other pilot's Rule-of-6 chain.
    pub against_chain: Vec<u32>,
    /// The other pilot's result.
    pub against_result: u32,
    /// `stand` or `roll-off`.
    pub draws: DrawRule,
    /// Roll-off pairs `[first, other]`, after a draw with the roll-off option.
    pub roll_off: Vec<(u32, u32)>,
    /// `win`, `draw` or `lose`, for the first pilot.
    pub outcome: Verdict,
    /// The verdict in the game's words (`HIT`, `WIN: the move happens`, …).
    pub verdict: &'static str,
    /// The chance to win before the roll.
    pub p_win: f64,
    /// The chance of a standing draw.
    pub p_draw: f64,
    /// The chance to lose.
    pub p_lose: f64,
    /// The same chances as exact fractions.
    pub p_win_exact: String,
    /// A draw, exactly.
    pub p_draw_exact: String,
    /// A loss, exactly.
    pub p_lose_exact: String,
    /// An attack's hit on a catalogue vehicle: its hull damage (`null` otherwise).
    pub hull_damage: Option<HullDamage>,
    /// An attack: the scale rule for the target.
    pub scale: Option<ScaleNote>,
    /// The generator's seed, when it rolled any die.
    pub seed: Option<u64>,
    /// True when any die was typed by hand.
    pub typed: bool,
    /// Every face in the order drawn (what typed dice would be, in one list).
    pub faces: Vec<u32>,
}

/// The exact chances of a vehicle roll, before any die.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VehicleOddsView {
    /// `chase` or `vehicle attack`.
    pub kind: VehicleRollKind,
    /// The first pilot's whole pool.
    pub pool: u32,
    /// The other pilot's whole pool.
    pub against_pool: u32,
    /// Dice the first vehicle added, and why.
    pub bonus: Vec<&'static str>,
    /// Dice the other vehicle added, and why.
    pub against_bonus: Vec<&'static str>,
    /// `stand` or `roll-off`.
    pub draws: DrawRule,
    /// The chance to win.
    pub p_win: f64,
    /// The chance of a standing draw.
    pub p_draw: f64,
    /// The chance to lose.
    pub p_lose: f64,
    /// Exact fractions.
    pub p_win_exact: String,
    /// A draw, exactly.
    pub p_draw_exact: String,
    /// A loss, exactly.
    pub p_lose_exact: String,
}

/// A journaled vehicle roll: the view and its entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JournaledVehicleRoll {
    /// The journal entry.
    pub seq: i64,
    /// The roll, as the one-shot form gives it.
    #[serde(flatten)]
    pub roll: VehicleRollView,
}

/// A vehicle roll as journaled: the resolved pilots and vehicles, the dice and what they
/// gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleRecord {
    /// Chase or attack.
    pub roll: VehicleRollKind,
    /// The first pilot (the mover, or the attacker).
    pub first: PilotedVehicle,
    /// The other pilot.
    pub second: PilotedVehicle,
    /// Draws rolled off.
    pub roll_off: bool,
    /// The dice: seed, typed or not, every face in draw order.
    pub rolled: Rolled,
    /// What they gave.
    pub outcome: VehicleOutcome,
}

/// The dice and verdict of a vehicle roll, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleOutcome {
    /// The first pool as rolled.
    pub dice: Vec<u32>,
    /// Its chain.
    pub chain: Vec<u32>,
    /// Its result.
    pub result: u32,
    /// The other pool as rolled.
    pub against_dice: Vec<u32>,
    /// Its chain.
    pub against_chain: Vec<u32>,
    /// Its result.
    pub against_result: u32,
    /// Roll-off pairs.
    pub roll_off: Vec<(u32, u32)>,
    /// `win`, `draw` or `lose` for the first pilot.
    pub outcome: String,
}

impl VehicleOutcome {
    fn of(o: &OpposedOutcome) -> Self {
        Self {
            dice: o.first.dice.to_vec(),
            chain: o.first.chain.clone(),
            result: o.first.result,
            against_dice: o.second.dice.to_vec(),
            against_chain: o.second.chain.clone(),
            against_result: o.second.result,
            roll_off: o.roll_off.clone(),
            outcome: verdict_word(o.verdict).to_owned(),
        }
    }
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "win",
        Verdict::Draw => "draw",
        Verdict::Lose => "lose",
    }
}

impl VehicleRecord {
    /// True: a vehicle roll always holds dice.
    pub fn has_dice(&self) -> bool {
        true
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let who = |p: &PilotedVehicle| {
            let pilot = p
                .character
                .clone()
                .unwrap_or_else(|| format!("a pilot of {}", p.pilot));
            if p.vehicle.name.is_empty() {
                pilot
            } else {
                format!("{pilot} ({})", p.vehicle.name)
            }
        };
        let chase = matches!(self.roll, VehicleRollKind::Chase);
        // What the verdict does by the rules (S10): a chase moves the distance, an attack hits.
        let verdict = match (self.outcome.outcome.as_str(), chase) {
            ("win", true) => "wins: the move happens",
            ("win", false) => "hit",
            ("lose", true) => "loses: the distance stays",
            ("lose", false) => "miss",
            ("draw", _) => "draw: nothing happens",
            (other, _) => other,
        };
        format!(
            "{}: {} against {} — {} vs {}, {verdict}",
            if chase { "Chase" } else { "Vehicle attack" },
            who(&self.first),
            who(&self.second),
            self.outcome.result,
            self.outcome.against_result,
        )
    }

    /// The limits of a roll made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        for p in [&self.first, &self.second] {
            // An imported entry's pilot, in the rules' words (the import names the entry).
            Pool::new(u64::from(p.pilot))
                .map_err(|e| crate::ExpandedRefusal::Rules.at("pilot", e.to_string()))?;
            // A vehicle typed by its ratings has no name.
            if !p.vehicle.name.is_empty() {
                crate::text(
                    "vehicle",
                    &p.vehicle.name,
                    crate::characters::MAX_NAME,
                    false,
                )?;
            }
            for (what, name) in [("character", &p.character), ("background", &p.background)] {
                if let Some(name) = name {
                    crate::text(what, name, crate::characters::MAX_NAME, false)?;
                }
            }
        }
        Ok(())
    }

    /// Re-derives the roll: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<crate::Divergence> {
        use crate::Divergence;
        let draws = draws(self.roll_off);
        let (first, second) = (&self.first, &self.second);
        let derived = crate::journaling::derive(&self.rolled, |d| {
            let shared = SharedDice::new(d);
            let (mut a, mut b) = (&shared, &shared);
            let (me, them) = match piloted(first, second) {
                Ok(p) => p,
                Err(_) => return Ok(None),
            };
            roll(self.roll, me, them, draws, &mut a, &mut b).map(Some)
        });
        match derived {
            Err(e) => Some(Divergence::of_error(&e)),
            Ok((None, _)) => Some(Divergence::refused("a pilot's pool is out of range")),
            Ok((Some(outcome), faces)) => Divergence::faces(&self.rolled, &faces).or_else(|| {
                Divergence::fields("outcome", &self.outcome, &VehicleOutcome::of(&outcome))
            }),
        }
    }
}

fn draws(roll_off: bool) -> DrawRule {
    if roll_off {
        DrawRule::RollOff
    } else {
        DrawRule::Stand
    }
}

fn piloted<'a>(
    first: &'a PilotedVehicle,
    second: &'a PilotedVehicle,
) -> Result<(Piloted<'a>, Piloted<'a>), solum_expanded::RulesError> {
    Ok((
        Piloted {
            pilot: Pool::new(u64::from(first.pilot))?,
            vehicle: &first.vehicle,
        },
        Piloted {
            pilot: Pool::new(u64::from(second.pilot))?,
            vehicle: &second.vehicle,
        },
    ))
}

fn roll(
    kind: VehicleRollKind,
    me: Piloted<'_>,
    them: Piloted<'_>,
    draws: DrawRule,
    a: &mut dyn DiceSource,
    b: &mut dyn DiceSource,
) -> Result<OpposedOutcome, DiceError> {
    match kind {
        VehicleRollKind::Chase => roll_chase(me, them, draws, a, b),
        VehicleRollKind::Attack => roll_vehicle_attack(me, them, draws, a, b),
    }
}

/// The shipped vehicle catalogue, by name.
pub fn vehicle_list() -> Vec<VehicleEntry> {
    VehicleCatalogue::shipped().vehicles().cloned().collect()
}

/// The catalogue's vehicles, as `solum vehicle list --json` and `GET /api/vehicles` give them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VehicleListView {
    /// Every vehicle, by name.
    pub vehicles: Vec<VehicleEntry>,
}

/// [`vehicle_list`] as its view.
pub fn vehicles() -> VehicleListView {
    VehicleListView {
        vehicles: vehicle_list(),
    }
}

/// A side's vehicle: from the catalogue, or typed by its ratings (average when not given).
/// Speed is refused in an attack rather than ignored (S10: speed counts only in a chase).
fn vehicle_of(side: &SideInput<'_>, kind: VehicleRollKind) -> Result<Vehicle, VehicleError> {
    let f = side.fields;
    if kind == VehicleRollKind::Attack
        && let Some(speed) = side.speed
    {
        return Err(VehicleError::SpeedInAttack {
            field: f.speed,
            value: rating_word(&speed),
        });
    }
    if let Some(name) = side.vehicle {
        if side.speed.is_some() || side.handling.is_some() {
            return Err(VehicleError::RatingsBesideVehicle {
                field: if side.speed.is_some() {
                    f.speed
                } else {
                    f.handling
                },
                vehicle: f.vehicle,
            });
        }
        let catalogue = VehicleCatalogue::shipped();
        return catalogue
            .get(name)
            .map(VehicleEntry::vehicle)
            .ok_or_else(|| VehicleError::UnknownVehicle {
                field: f.vehicle,
                name: name.trim().chars().take(100).collect(),
                known: catalogue
                    .vehicles()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
    }
    Ok(typed_vehicle(side.speed, side.handling))
}

/// A vehicle known only by its ratings (average when not given): no name, hull or weapons.
fn typed_vehicle(speed: Option<Speed>, handling: Option<Handling>) -> Vehicle {
    Vehicle {
        name: String::new(),
        hull: 1,
        speed: speed.unwrap_or(Speed::Average),
        handling: handling.unwrap_or(Handling::Average),
        damage: 0,
        scale: Scale::Large,
    }
}

/// A rating as the catalogue spells it (`lightning-fast`).
pub fn rating_word<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A pilot's pool typed in.
fn typed_pilot(side: &SideInput<'_>) -> Result<PilotedVehicle, VehicleError> {
    let f = side.fields;
    let pilot = side
        .pilot
        .ok_or(VehicleError::PilotNeeded { field: f.pilot })?;
    if let Some(bg) = side.background {
        return Err(VehicleError::Background {
            field: f.background,
            background: bg.chars().take(100).collect(),
            problem: format!(
                "a background is named for a character's roll ({}); a typed pool counts it already",
                f.character.name()
            ),
        });
    }
    Ok(PilotedVehicle {
        pilot: pilot.get(),
        character: None,
        background: None,
        vehicle: typed_vehicle(None, None),
    })
}

/// A pilot's pool from a character's sheet: Mind, +1 for a background of the sheet.
fn sheet_pilot(
    side: &SideInput<'_>,
    hero: &solum_expanded::character::Character,
) -> Result<PilotedVehicle, VehicleError> {
    let f = side.fields;
    let background = match side.background {
        None => None,
        Some(bg) => Some(
            hero.backgrounds
                .iter()
                .find(|b| b.trim().eq_ignore_ascii_case(bg.trim()))
                .cloned()
                .ok_or_else(|| VehicleError::Background {
                    field: f.background,
                    background: bg.chars().take(100).collect(),
                    problem: format!("not a background of {}'s sheet", hero.name),
                })?,
        ),
    };
    let pilot = hero.mind + u32::from(background.is_some());
    Ok(PilotedVehicle {
        pilot,
        character: Some(hero.name.clone()),
        background,
        vehicle: typed_vehicle(None, None),
    })
}

/// Both sides resolved without a campaign: typed pools only.
fn resolve_typed(
    input: &VehicleRollInput,
    kind: VehicleRollKind,
) -> Result<(PilotedVehicle, PilotedVehicle), AppError> {
    let [a, b] = input.sides();
    let mut out = Vec::with_capacity(2);
    for side in [&a, &b] {
        // Without a campaign no character can fly: only a pool pilots.
        if side.pilot.is_none() || side.character.is_some() {
            return Err(VehicleError::PilotNeeded {
                field: side.fields.pilot,
            }
            .into());
        }
        let mut p = typed_pilot(side)?;
        p.vehicle = vehicle_of(side, kind)?;
        out.push(p);
    }
    let second = out.pop().expect("two sides");
    let first = out.pop().expect("two sides");
    Ok((first, second))
}

/// Why each vehicle added dice.
fn bonuses(kind: VehicleRollKind, mine: &Vehicle, theirs: &Vehicle) -> Vec<&'static str> {
    let mut out = Vec::new();
    if kind == VehicleRollKind::Chase && mine.speed > theirs.speed {
        out.push("faster");
    }
    if mine.handling > theirs.handling {
        out.push("better handling");
    }
    out
}

/// The exact odds of a roll of these two sides.
fn odds_of(
    kind: VehicleRollKind,
    first: &PilotedVehicle,
    second: &PilotedVehicle,
    roll_off: bool,
) -> Result<VehicleOddsView, AppError> {
    // Every pilot's pool was read within the rules' (1 to 1000 dice, a sheet's Mind far
    // below): a pool refused here is the program's fault.
    let (me, them) = piloted(first, second).map_err(|e| AppError::internal("pilot", e))?;
    let draws = draws(roll_off);
    let (odds, spec) = match kind {
        VehicleRollKind::Chase => (
            chase_odds(me, them, draws),
            solum_expanded::vehicle::chase_spec(me, them, draws),
        ),
        VehicleRollKind::Attack => (
            attack_odds(me, them, draws),
            solum_expanded::vehicle::attack_spec(me, them, draws),
        ),
    };
    Ok(VehicleOddsView {
        kind,
        pool: spec.first.pool.dice(),
        against_pool: spec.second.pool.dice(),
        bonus: bonuses(kind, &first.vehicle, &second.vehicle),
        against_bonus: bonuses(kind, &second.vehicle, &first.vehicle),
        draws,
        p_win: solum_dice::prob_to_f64(&odds.win),
        p_draw: solum_dice::prob_to_f64(&odds.draw),
        p_lose: solum_dice::prob_to_f64(&odds.lose),
        p_win_exact: odds.win.to_string(),
        p_draw_exact: odds.draw.to_string(),
        p_lose_exact: odds.lose.to_string(),
    })
}

/// Where the dice of a roll come from, per pilot.
struct Roller {
    /// A seed given (`None`: a fresh one, drawn only if the generator rolls).
    seed: Option<u64>,
    generator: Option<SeededDice>,
    /// Every die of both sides typed in draw order (the campaign's [`Dice::Typed`]).
    all_typed: Option<TypedDice>,
    /// Every face drawn, in order.
    faces: Vec<u32>,
}

impl Roller {
    fn draw(&mut self, own: Option<&mut TypedDice>, sides: u32) -> Result<u32, DiceError> {
        let face = match (own, &mut self.all_typed) {
            (Some(t), _) => t.roll(sides)?,
            (None, Some(t)) => t.roll(sides)?,
            (None, None) => {
                let seed = self.seed;
                self.generator
                    .get_or_insert_with(|| match seed {
                        Some(s) => SeededDice::new(s),
                        None => SeededDice::from_entropy(),
                    })
                    .roll(sides)?
            }
        };
        self.faces.push(face);
        Ok(face)
    }
}

/// One pilot's source: its typed dice, else the roll's shared generator.
struct PilotSource<'a> {
    roller: &'a RefCell<Roller>,
    own: Option<TypedDice>,
    field: Field,
    blame: &'a Cell<Field>,
}

impl DiceSource for PilotSource<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        let typed = self.own.is_some() || self.roller.borrow().all_typed.is_some();
        let out = self.roller.borrow_mut().draw(self.own.as_mut(), sides);
        if out.is_err() && typed {
            self.blame.set(if self.own.is_some() {
                self.field
            } else {
                Field::Typed
            });
        }
        out
    }
}

fn dice_error(e: DiceError, field: Field) -> AppError {
    VehicleError::from(TypedDiceError::from_dice(e, field, TYPED_ORDER)).into()
}

/// The rules that left dice unrolled for one side.
fn unrolled(o: &OpposedOutcome, first: bool) -> Vec<UnrolledDie> {
    let side = if first { &o.first } else { &o.second };
    let mut why = Vec::new();
    if side.chain_not_needed {
        why.push(UnrolledDie::ChainNotNeeded);
    }
    match (o.spec.draws, o.verdict) {
        (DrawRule::RollOff, _) if o.roll_off.is_empty() => why.push(UnrolledDie::NoRollOff),
        (DrawRule::Stand, Verdict::Draw) => why.push(UnrolledDie::DrawStands),
        _ => {}
    }
    why
}

/// How the dice of a vehicle roll are chosen: the campaign's [`Dice`], or per pilot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VehicleDice {
    /// The usual choice of a use case: a fresh seed, a seed, or every die of both pilots
    /// typed in draw order (the pools, the chains, then roll-off pairs, first pilot first).
    Dice(Dice),
    /// Dice typed per pilot (`rolled`, `against_rolled` of the input); the dice not typed
    /// come from the generator with this seed (a fresh one when `None`).
    PerPilot(Option<u64>),
}

/// Rolls both sides: the outcome and the [`Rolled`] to journal.
fn roll_both(
    kind: VehicleRollKind,
    first: &PilotedVehicle,
    second: &PilotedVehicle,
    roll_off: bool,
    input: &VehicleRollInput,
    dice: VehicleDice,
) -> Result<(OpposedOutcome, Rolled), AppError> {
    let (seed, all_typed) = match dice {
        VehicleDice::Dice(Dice::Fresh) | VehicleDice::PerPilot(None) => (None, None),
        VehicleDice::Dice(Dice::Seed(s)) | VehicleDice::PerPilot(Some(s)) => (Some(s), None),
        VehicleDice::Dice(Dice::Typed(faces)) => {
            if input.rolled.is_some() || input.against_rolled.is_some() {
                return Err(crate::ExpandedRefusal::TypedTwice
                    .at("typed", "type the dice in one list or per pilot, not both"));
            }
            (None, Some(faces))
        }
    };
    for (field, typed) in [
        (Field::Rolled, &input.rolled),
        (Field::AgainstRolled, &input.against_rolled),
        (Field::Typed, &all_typed),
    ] {
        if let Some(t) = typed
            && t.len() > MAX_TYPED
        {
            return Err(VehicleError::from(TypedDiceError::TooManyTyped {
                field,
                given: t.len(),
                limit: MAX_TYPED,
            })
            .into());
        }
    }
    if let (Some(_), Some(_), Some(seed)) = (&input.rolled, &input.against_rolled, seed) {
        return Err(VehicleError::from(TypedDiceError::SeedRollsNothing { seed }).into());
    }
    if let (Some(_), Some(seed)) = (&all_typed, seed) {
        return Err(VehicleError::from(TypedDiceError::SeedRollsNothing { seed }).into());
    }
    let typed = all_typed.is_some() || input.rolled.is_some() || input.against_rolled.is_some();
    let roller = RefCell::new(Roller {
        seed,
        generator: None,
        all_typed: all_typed.map(TypedDice::new),
        faces: Vec::new(),
    });
    let blame = Cell::new(Field::Rolled);
    let mut a = PilotSource {
        roller: &roller,
        own: input.rolled.clone().map(TypedDice::new),
        field: Field::Rolled,
        blame: &blame,
    };
    let mut b = PilotSource {
        roller: &roller,
        own: input.against_rolled.clone().map(TypedDice::new),
        field: Field::AgainstRolled,
        blame: &blame,
    };
    // Every pilot's pool was read within the rules' (1 to 1000 dice, a sheet's Mind far
    // below): a pool refused here is the program's fault.
    let (me, them) = piloted(first, second).map_err(|e| AppError::internal("pilot", e))?;
    let outcome = roll(kind, me, them, draws(roll_off), &mut a, &mut b)
        .map_err(|e| dice_error(e, blame.get()))?;
    for (source, first_side) in [(&a, true), (&b, false)] {
        if let Some(t) = &source.own
            && let Err((used, given)) = t.finish()
        {
            return Err(VehicleError::from(TypedDiceError::TooMany {
                field: source.field,
                given,
                used,
                why: unrolled(&outcome, first_side)
                    .into_iter()
                    .map(|d| d.reason().to_owned())
                    .collect(),
                order: TYPED_ORDER.to_owned(),
            })
            .into());
        }
    }
    drop((a, b));
    let roller = roller.into_inner();
    if let Some(t) = &roller.all_typed
        && let Err((used, given)) = t.finish()
    {
        let mut why = unrolled(&outcome, true);
        for w in unrolled(&outcome, false) {
            if !why.contains(&w) {
                why.push(w);
            }
        }
        return Err(VehicleError::from(TypedDiceError::TooMany {
            field: Field::Typed,
            given,
            used,
            why: why.into_iter().map(|d| d.reason().to_owned()).collect(),
            order: TYPED_ORDER.to_owned(),
        })
        .into());
    }
    let rolled = Rolled {
        seed: roller.generator.as_ref().map(SeededDice::seed),
        typed,
        faces: roller.faces,
    };
    Ok((outcome, rolled))
}

fn verdict_text(kind: VehicleRollKind, v: Verdict) -> &'static str {
    match (v, kind) {
        (Verdict::Win, VehicleRollKind::Chase) => "WIN: the move happens",
        (Verdict::Win, VehicleRollKind::Attack) => "HIT",
        (Verdict::Draw, _) => "DRAW: nothing happens",
        (Verdict::Lose, VehicleRollKind::Chase) => "LOSE: the distance stays",
        (Verdict::Lose, VehicleRollKind::Attack) => "MISS",
    }
}

fn view_of(
    kind: VehicleRollKind,
    first: &PilotedVehicle,
    second: &PilotedVehicle,
    odds: VehicleOddsView,
    outcome: &OpposedOutcome,
    rolled: Rolled,
) -> VehicleRollView {
    let named = |v: &Vehicle| (!v.name.is_empty()).then(|| v.name.clone());
    let attack = kind == VehicleRollKind::Attack;
    let hull_damage = (attack
        && outcome.verdict == Verdict::Win
        && !first.vehicle.name.is_empty()
        && !second.vehicle.name.is_empty())
    .then(|| HullDamage {
        damage: first.vehicle.damage,
        hull: second.vehicle.hull,
        hull_left: second.vehicle.hull.saturating_sub(first.vehicle.damage),
    });
    let scale = attack.then(|| {
        let s = scale_damage(3, false, second.vehicle.scale);
        ScaleNote {
            scale: second.vehicle.scale,
            heavy_weapon_damage: s.damage,
            rule: s.rule,
            reason: s.rule.reason(),
        }
    });
    VehicleRollView {
        kind,
        pilot: first.pilot,
        against_pilot: second.pilot,
        pool: odds.pool,
        against_pool: odds.against_pool,
        bonus: odds.bonus,
        against_bonus: odds.against_bonus,
        character: first.character.clone(),
        against_character: second.character.clone(),
        vehicle: named(&first.vehicle),
        against_vehicle: named(&second.vehicle),
        speed: first.vehicle.speed,
        handling: first.vehicle.handling,
        against_speed: second.vehicle.speed,
        against_handling: second.vehicle.handling,
        speed_counts: !attack,
        dice: outcome.first.dice.to_vec(),
        chain: outcome.first.chain.clone(),
        result: outcome.first.result,
        against_dice: outcome.second.dice.to_vec(),
        against_chain: outcome.second.chain.clone(),
        against_result: outcome.second.result,
        draws: odds.draws,
        roll_off: outcome.roll_off.clone(),
        outcome: outcome.verdict,
        verdict: verdict_text(kind, outcome.verdict),
        p_win: odds.p_win,
        p_draw: odds.p_draw,
        p_lose: odds.p_lose,
        p_win_exact: odds.p_win_exact,
        p_draw_exact: odds.p_draw_exact,
        p_lose_exact: odds.p_lose_exact,
        hull_damage,
        scale,
        seed: rolled.seed,
        typed: rolled.typed,
        faces: rolled.faces,
    }
}

/// The exact odds of a vehicle roll with typed pools, without a campaign.
pub fn vehicle_odds(
    kind: VehicleRollKind,
    input: &VehicleRollInput,
) -> Result<VehicleOddsView, AppError> {
    let (first, second) = resolve_typed(input, kind)?;
    odds_of(kind, &first, &second, input.roll_off)
}

/// A vehicle roll with typed pools, without a campaign: nothing is journaled. `seed` rolls
/// the dice not typed (`rolled`, `against_rolled`); a fresh seed when `None`.
pub fn roll_vehicle(
    kind: VehicleRollKind,
    input: &VehicleRollInput,
    seed: Option<u64>,
) -> Result<VehicleRollView, AppError> {
    let (first, second) = resolve_typed(input, kind)?;
    let odds = odds_of(kind, &first, &second, input.roll_off)?;
    let (outcome, rolled) = roll_both(
        kind,
        &first,
        &second,
        input.roll_off,
        input,
        VehicleDice::PerPilot(seed),
    )?;
    Ok(view_of(kind, &first, &second, odds, &outcome, rolled))
}

impl<S: CampaignStore> Campaign<S> {
    /// Both sides of a vehicle roll, pools from the campaign's characters where named.
    fn resolve_pilots(
        &self,
        input: &VehicleRollInput,
        kind: VehicleRollKind,
    ) -> Result<(PilotedVehicle, PilotedVehicle), AppError> {
        let [a, b] = input.sides();
        let mut out = Vec::with_capacity(2);
        for side in [&a, &b] {
            let p = match (side.pilot, side.character) {
                (Some(_), Some(_)) | (None, None) => {
                    return Err(VehicleError::PilotNeeded {
                        field: side.fields.pilot,
                    }
                    .into());
                }
                (Some(_), None) => {
                    let mut p = typed_pilot(side)?;
                    p.vehicle = vehicle_of(side, kind)?;
                    p
                }
                (None, Some(name)) => {
                    let name = crate::name(
                        side.fields.character.name(),
                        name,
                        crate::characters::MAX_NAME,
                    )?;
                    let sheet = self
                        .store
                        .sheet(crate::characters::SYSTEM, &name)?
                        .ok_or_else(|| AppError::NoSuchCharacter(name.clone()))?;
                    let hero = crate::combat::character_of(&sheet)?;
                    let mut p = sheet_pilot(side, &hero)?;
                    p.vehicle = vehicle_of(side, kind)?;
                    p
                }
            };
            out.push(p);
        }
        let second = out.pop().expect("two sides");
        let first = out.pop().expect("two sides");
        Ok((first, second))
    }

    /// The exact odds of a vehicle roll at the table, before any die (pools from the
    /// campaign's characters where named; the campaign's roll-off option counts).
    pub fn vehicle_odds(
        &self,
        kind: VehicleRollKind,
        input: &VehicleRollInput,
    ) -> Result<VehicleOddsView, AppError> {
        let (first, second) = self.resolve_pilots(input, kind)?;
        odds_of(kind, &first, &second, input.roll_off || self.roll_off()?)
    }

    /// Rolls a chase or a vehicle attack at the table and journals it (a
    /// [`Record::Vehicle`]) with its pilots, vehicles, dice and verdict. Pools come from the
    /// campaign's characters where named; draws are rolled off when asked or when the
    /// campaign's roll-off option is on.
    pub fn vehicle_roll(
        &mut self,
        kind: VehicleRollKind,
        input: &VehicleRollInput,
        dice: VehicleDice,
    ) -> Result<JournaledVehicleRoll, AppError> {
        let (first, second) = self.resolve_pilots(input, kind)?;
        let roll_off = input.roll_off || self.roll_off()?;
        let odds = odds_of(kind, &first, &second, roll_off)?;
        // A fresh seed is drawn only when the generator rolls; the seed journaled is the
        // generator's own.
        let (outcome, rolled) = roll_both(kind, &first, &second, roll_off, input, dice)?;
        let entry = self.append_one(VehicleRecord {
            roll: kind,
            first: first.clone(),
            second: second.clone(),
            roll_off,
            rolled: rolled.clone(),
            outcome: VehicleOutcome::of(&outcome),
        })?;
        Ok(JournaledVehicleRoll {
            seq: entry.seq,
            roll: view_of(kind, &first, &second, odds, &outcome, rolled),
        })
    }
}

impl<S: CampaignStore + solum_store::TableStore> Campaign<S> {
    /// [`Campaign::vehicle_roll`] as `member` of a table: a game master names any of the
    /// table's characters on either side; a player only their own, on either side. Another
    /// member's character as the opposing pilot is refused (403): S18 gives the choice of a
    /// pilot's background for each roll to whoever plays that pilot, and a member's
    /// characters are rolled by that member or the game master (as checks and combat
    /// turns are), so a chase against another player's character is rolled by the game
    /// master, or by a player with that pilot typed as a pool. The owners are read in the
    /// roll's transaction, as [`Campaign::as_roller_of`] reads them.
    pub fn vehicle_roll_as(
        &mut self,
        member: &solum_store::Member,
        kind: VehicleRollKind,
        input: &VehicleRollInput,
        dice: VehicleDice,
    ) -> Result<JournaledVehicleRoll, AppError> {
        // Dice typed by hand (`rolled`, `against_rolled`) where the table allows them, as
        // every roll's.
        if input.rolled.is_some() || input.against_rolled.is_some() {
            crate::policy::check_typed_dice(self.store(), member)?;
        }
        if member.gm {
            return self.vehicle_roll(kind, input, dice);
        }
        self.begin_group()?;
        let out = self
            .own_pilots(member, input)
            .and_then(|()| self.vehicle_roll(kind, input, dice));
        let ended = self.end_group();
        let out = out?;
        ended?;
        Ok(out)
    }

    /// Refuses a character of `input` that is not `member`'s own, naming the side.
    fn own_pilots(
        &self,
        member: &solum_store::Member,
        input: &VehicleRollInput,
    ) -> Result<(), AppError> {
        for (name, side) in [
            (&input.character, "your pilot"),
            (&input.against_character, "the opposing pilot"),
        ] {
            let Some(name) = name else { continue };
            let owner = self
                .store()
                .sheet_owner(crate::characters::SYSTEM, name.trim())?;
            if owner != Some(member.id) {
                return Err(crate::policy::Forbidden::Pilot {
                    name: name.trim().to_owned(),
                    side,
                }
                .into());
            }
        }
        Ok(())
    }
}

/// The scale rule for a personal weapon against a vehicle (S10), as `solum vehicle scale
/// --json` prints it: the damage dealt, the rule that decided it and its reason in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScaleView {
    /// The damage the vehicle takes.
    pub damage: u32,
    /// The rule's reason, in words.
    pub reason: &'static str,
    /// The rule that decided it.
    pub rule: ScaleRule,
    /// The vehicle's size.
    #[serde(skip)]
    pub scale: Scale,
}

crate::bounded::bounded! {
    /// A personal weapon's damage for the scale rule, 1 (a weapon of 0 is none) to
    /// [`MAX_DAMAGE`](solum_expanded::fight::MAX_DAMAGE), the limit of every damage.
    pub struct WeaponDamage(u32) in 1, solum_expanded::fight::MAX_DAMAGE;
    "a personal weapon deals {min} to {max} damage"
}

/// The scale rule (S10) for a personal weapon of `weapon_damage` against a vehicle of
/// `scale` (its words are [`Scale`]'s `FromStr`).
pub fn scale_rule(weapon_damage: WeaponDamage, anti_vehicle: bool, scale: Scale) -> ScaleView {
    let scaled = scale_damage(weapon_damage.get(), anti_vehicle, scale);
    ScaleView {
        damage: scaled.damage,
        reason: scaled.rule.reason(),
        rule: scaled.rule,
        scale,
    }
}

#[cfg(test)]
mod weapon_damage_tests {
    use super::*;

    crate::bounded::bounded_tests!(
        weapon_damage,
        WeaponDamage,
        "a personal weapon deals 1 to 1000000 damage"
    );

    /// The rule as typed: a heavy weapon (3) against a car deals 1, anything against a large
    /// vehicle 0 unless made to fight vehicles.
    #[test]
    fn the_scale_rule_takes_typed_values() {
        let heavy = WeaponDamage::new(3).unwrap();
        assert_eq!(scale_rule(heavy, false, Scale::CarOrTruck).damage, 1);
        assert_eq!(scale_rule(heavy, false, Scale::Large).damage, 0);
        assert_eq!(scale_rule(heavy, true, Scale::Large).damage, 1);
    }
}
