//! The schemas of the rules' own types as the app answers them: a sheet, a check's dice, a
//! fight's events. Each is what serde writes for the type, read from its attributes: a
//! field left out when empty (`skip_serializing_if`) is not required, an `Option` written
//! every time is required and may be `null`, a tagged enum's variants are objects with
//! their tag. Every field of a struct and every variant of an enum is named in a pattern
//! the compiler checks, so that a field or variant added to the rules fails to compile here
//! until it is described.
//!
//! Unlike a request's schema, an answer's allows fields it does not list
//! (`additionalProperties` left as JSON Schema's default), and its numbers have their
//! type's range, not the limits a request is checked against: an answer may show a sheet
//! read from a file or a campaign older than a limit. Names are any text for the same
//! reason. A range the type itself guarantees (a So1um Expanded pool of 1 to
//! [`solum_expanded::MAX_POOL`] dice, which only its checked constructor builds) is stated,
//! and a Sol'una character in a skirmish keeps the schema of the app's Sol'una sheets
//! ([`super::soluna_character_shown`]): the app checks every character a skirmish takes,
//! and the skirmish only lowers its numbers.
//!
//! The tests below roll real values of every type and check them against their schemas.

use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ArrayItems, ObjectBuilder, Schema, Type};

use super::{either, integer, one_of_strings, or_null, serde_forms};

// ---------------------------------------------------------------------------------------
// Building blocks.

/// An object with these fields: `(name, schema, always)`, where `always` says serde writes
/// the field every time (it is required).
pub(crate) fn fields(list: Vec<(&str, Schema, bool)>) -> Schema {
    let mut o = ObjectBuilder::new().schema_type(Type::Object);
    for (field, schema, always) in list {
        o = o.property(field, schema);
        if always {
            o = o.required(field);
        }
    }
    o.into()
}

/// One variant of an enum serde writes with its tag inside (`#[serde(tag = …)]`): the tag
/// field holding the variant's name as serde writes `sample` (a value of that variant),
/// then the variant's own fields.
fn variant<'a, T: Serialize>(
    tag: &'a str,
    sample: &T,
    mut list: Vec<(&'a str, Schema, bool)>,
) -> Schema {
    let name = serde_json::to_value(sample).unwrap_or_default()[tag].clone();
    list.insert(0, (tag, one_of_strings(vec![name]), true));
    fields(list)
}

/// Any text.
pub(crate) fn string() -> Schema {
    ObjectBuilder::new().schema_type(Type::String).into()
}

/// `true` or `false`.
pub(crate) fn boolean() -> Schema {
    ObjectBuilder::new().schema_type(Type::Boolean).into()
}

/// A number with a fraction (an `f64`: a chance, hours of rest).
fn number() -> Schema {
    ObjectBuilder::new().schema_type(Type::Number).into()
}

/// A whole number from 0 to `max`.
fn unsigned(max: u64) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0u64))
        .maximum(Some(max))
        .into()
}

/// A `u32`.
pub(crate) fn u32_() -> Schema {
    unsigned(u64::from(u32::MAX))
}

/// A `usize`: an index or a count of things in memory.
fn usize_() -> Schema {
    unsigned(usize::MAX as u64)
}

/// An `i8`.
fn i8_() -> Schema {
    integer(i64::from(i8::MIN), i64::from(i8::MAX))
}

/// An `i32`.
fn i32_() -> Schema {
    integer(i64::from(i32::MIN), i64::from(i32::MAX))
}

/// A list of `items`.
fn list(items: Schema) -> Schema {
    ArrayBuilder::new().items(RefOr::T(items)).into()
}

/// A fixed-size array or a tuple: exactly these items, in order.
fn tuple(items: Vec<Schema>) -> Schema {
    let n = items.len();
    ArrayBuilder::new()
        .prefix_items(items)
        .items(ArrayItems::False)
        .min_items(Some(n))
        .max_items(Some(n))
        .into()
}

/// `schema`, written only when the field is set (no `null`, the field left out instead).
pub(crate) fn when_set(schema: Schema) -> Schema {
    schema
}

// ---------------------------------------------------------------------------------------
// So1um Expanded.

/// Light, medium or heavy.
fn class() -> Schema {
    super::class()
}

/// A weapon on a sheet: `anti_vehicle` is written only when true.
fn expanded_weapon() -> Schema {
    let _every_field = |w: &solum_expanded::character::Weapon| {
        let solum_expanded::character::Weapon {
            name: _,
            class: _,
            ranged: _,
            anti_vehicle: _,
        } = w;
    };
    fields(vec![
        ("name", string(), true),
        ("class", class(), true),
        ("ranged", boolean(), true),
        ("anti_vehicle", when_set(boolean()), false),
    ])
}

/// Armor on a sheet.
fn expanded_armor() -> Schema {
    let _every_field = |a: &solum_expanded::character::Armor| {
        let solum_expanded::character::Armor { name: _, class: _ } = a;
    };
    fields(vec![("name", string(), true), ("class", class(), true)])
}

/// A piece of gear on a sheet.
fn expanded_gear() -> Schema {
    use solum_expanded::character::GearEffect::{self, Enables, Reroll};
    let _every_field = |g: &solum_expanded::character::Gear| {
        let solum_expanded::character::Gear { name: _, effect: _ } = g;
    };
    let every = |e: GearEffect| match e {
        Enables | Reroll => e,
    };
    fields(vec![
        ("name", string(), true),
        (
            "effect",
            one_of_strings(serde_forms([Enables, Reroll].map(every))),
            true,
        ),
    ])
}

/// A So1um Expanded character sheet: `armor` is `null` without armor; the advancement
/// points and the minutes of rest are written only when not 0.
pub fn expanded_character() -> Schema {
    let _every_field = |c: &solum_expanded::character::Character| {
        let solum_expanded::character::Character {
            schema: _,
            name: _,
            body: _,
            mind: _,
            charm: _,
            backgrounds: _,
            unnamed_backgrounds: _,
            hit_points: _,
            weapons: _,
            armor: _,
            gear: _,
            money: _,
            notes: _,
            advancement_points: _,
            rest_minutes: _,
        } = c;
    };
    fields(vec![
        ("schema", u32_(), true),
        ("name", string(), true),
        ("body", u32_(), true),
        ("mind", u32_(), true),
        ("charm", u32_(), true),
        ("backgrounds", list(string()), true),
        ("unnamed_backgrounds", u32_(), true),
        ("hit_points", u32_(), true),
        ("weapons", list(expanded_weapon()), true),
        ("armor", or_null(expanded_armor()), true),
        ("gear", list(expanded_gear()), true),
        ("money", u32_(), true),
        ("notes", string(), true),
        ("advancement_points", when_set(u32_()), false),
        ("rest_minutes", when_set(u32_()), false),
    ])
}

/// A So1um Expanded character sheet, or `null`.
pub fn expanded_character_or_null() -> Schema {
    or_null(expanded_character())
}

/// A creature (an NPC or monster): `ranged_damage` is `null` when it cannot shoot;
/// `anti_vehicle` is written only when true.
pub fn creature() -> Schema {
    let _every_field = |c: &solum_expanded::creature::Creature| {
        let solum_expanded::creature::Creature {
            name: _,
            pool: _,
            hit_points: _,
            damage: _,
            mind: _,
            ranged_damage: _,
            anti_vehicle: _,
            notes: _,
        } = c;
    };
    fields(vec![
        ("name", string(), true),
        ("pool", u32_(), true),
        ("hit_points", u32_(), true),
        ("damage", u32_(), true),
        ("mind", u32_(), true),
        ("ranged_damage", or_null(u32_()), true),
        ("anti_vehicle", when_set(boolean()), false),
        ("notes", string(), true),
    ])
}

/// A creature, or `null`.
pub fn creature_or_null() -> Schema {
    or_null(creature())
}

/// An opposition of fast static combat.
fn static_foe() -> Schema {
    let _every_field = |f: &solum_expanded::creature::StaticFoe| {
        let solum_expanded::creature::StaticFoe {
            name: _,
            difficulty: _,
            hit_points: _,
            damage: _,
            notes: _,
        } = f;
    };
    fields(vec![
        ("name", string(), true),
        ("difficulty", u32_(), true),
        ("hit_points", u32_(), true),
        ("damage", u32_(), true),
        ("notes", string(), true),
    ])
}

/// Oppositions of fast static combat.
pub fn static_foes() -> Schema {
    list(static_foe())
}

/// A vehicle of the catalogue.
fn vehicle_entry() -> Schema {
    let _every_field = |v: &solum_expanded::vehicle::VehicleEntry| {
        let solum_expanded::vehicle::VehicleEntry {
            name: _,
            hull: _,
            speed: _,
            handling: _,
            damage: _,
            scale: _,
            notes: _,
        } = v;
    };
    fields(vec![
        ("name", string(), true),
        ("hull", u32_(), true),
        ("speed", super::speed_value(), true),
        ("handling", super::handling_value(), true),
        ("damage", u32_(), true),
        ("scale", super::vehicle_scale(), true),
        ("notes", string(), true),
    ])
}

/// Vehicles of the catalogue.
pub fn vehicle_entries() -> Schema {
    list(vehicle_entry())
}

/// A pool of six-sided dice: 1 to [`solum_expanded::MAX_POOL`] (its only constructor checks).
fn expanded_pool() -> Schema {
    integer(1, i64::from(solum_expanded::MAX_POOL))
}

/// A difficulty: 1 to [`solum_expanded::MAX_DIFFICULTY`] (its only constructor checks).
fn expanded_difficulty() -> Schema {
    integer(1, i64::from(solum_expanded::MAX_DIFFICULTY))
}

/// A gear reroll of a So1um Expanded check.
fn expanded_reroll() -> Schema {
    let _every_field = |r: &solum_expanded::check::Reroll| {
        let solum_expanded::check::Reroll {
            index: _,
            from: _,
            to: _,
        } = r;
    };
    fields(vec![
        ("index", usize_(), true),
        ("from", u32_(), true),
        ("to", u32_(), true),
    ])
}

/// Every die of one pool: as rolled, the gear reroll (`null` without one), the Rule-of-6
/// chain.
fn pool_roll() -> Schema {
    let _every_field = |p: &solum_expanded::check::PoolRoll| {
        let solum_expanded::check::PoolRoll {
            dice: _,
            reroll: _,
            chain: _,
            chain_not_needed: _,
            result: _,
        } = p;
    };
    fields(vec![
        ("dice", list(u32_()), true),
        ("reroll", or_null(expanded_reroll()), true),
        ("chain", list(u32_()), true),
        ("chain_not_needed", boolean(), true),
        ("result", u32_(), true),
    ])
}

/// An unopposed check's outcome: `roll` is `null` for an automatic check.
fn check_outcome() -> Schema {
    use solum_expanded::check::{CheckOutcome, CheckSpec};
    let _every_field = |c: &CheckOutcome| {
        let CheckOutcome {
            spec:
                CheckSpec {
                    pool: _,
                    difficulty: _,
                    gear: _,
                },
            roll: _,
            result: _,
            passed: _,
        } = c;
    };
    let spec = fields(vec![
        ("pool", expanded_pool(), true),
        ("difficulty", expanded_difficulty(), true),
        ("gear", boolean(), true),
    ]);
    fields(vec![
        ("spec", spec, true),
        ("roll", or_null(pool_roll()), true),
        ("result", u32_(), true),
        ("passed", boolean(), true),
    ])
}

/// An opposed check's outcome: both sides' dice, the roll-off pairs, the verdict.
fn opposed_outcome() -> Schema {
    use solum_expanded::check::{OpposedOutcome, OpposedSpec, Side};
    let _every_field = |o: &OpposedOutcome| {
        let OpposedOutcome {
            spec:
                OpposedSpec {
                    first: Side { pool: _, gear: _ },
                    second: _,
                    draws: _,
                },
            first: _,
            second: _,
            roll_off: _,
            verdict: _,
        } = o;
    };
    let side = || {
        fields(vec![
            ("pool", expanded_pool(), true),
            ("gear", boolean(), true),
        ])
    };
    let spec = fields(vec![
        ("first", side(), true),
        ("second", side(), true),
        ("draws", super::draw_rule(), true),
    ]);
    fields(vec![
        ("spec", spec, true),
        ("first", pool_roll(), true),
        ("second", pool_roll(), true),
        ("roll_off", list(tuple(vec![u32_(), u32_()])), true),
        ("verdict", super::verdict(), true),
    ])
}

/// The distance between two combatants: engaged, nearby or far.
fn range_band() -> Schema {
    use solum_expanded::combat::RangeBand::{self, Engaged, Far, Nearby};
    let every = |b: RangeBand| match b {
        Engaged | Nearby | Far => b,
    };
    one_of_strings(serde_forms([Engaged, Nearby, Far].map(every)))
}

/// Toward or away from a target.
fn direction() -> Schema {
    use solum_expanded::combat::Direction::{self, Away, Closer};
    let every = |d: Direction| match d {
        Closer | Away => d,
    };
    one_of_strings(serde_forms([Closer, Away].map(every)))
}

/// The events of a So1um Expanded combat line, as the engine writes them: each an object
/// whose `event` names it (kebab-case), with its fields; fighters are indices into the
/// combat's list. A background is written only when one was named.
pub fn combat_events() -> Schema {
    list(either(
        expanded_event_samples().iter().map(combat_event).collect(),
    ))
}

/// One event of a So1um Expanded combat: `e`'s variant with its fields, named as the type
/// names them (a renamed or added field fails to compile).
fn combat_event(e: &solum_expanded::combat::Event) -> Schema {
    use solum_expanded::combat::Event;
    let v = |list| variant("event", e, list);
    let i = usize_;
    match e {
        Event::InitiativeRoll {
            fighter: _,
            check: _,
            background: _,
        } => v(vec![
            ("fighter", i(), true),
            ("check", check_outcome(), true),
            ("background", when_set(string()), false),
        ]),
        Event::OrderSet { order: _ } => v(vec![("order", list(i()), true)]),
        Event::RoundStarted { round: _ } => v(vec![("round", u32_(), true)]),
        Event::TurnStarted { fighter: _ } => v(vec![("fighter", i(), true)]),
        Event::Placed {
            a: _,
            b: _,
            band: _,
        } => v(vec![
            ("a", i(), true),
            ("b", i(), true),
            ("band", range_band(), true),
        ]),
        Event::Moved {
            fighter: _,
            target: _,
            from: _,
            to: _,
            as_action: _,
        } => v(vec![
            ("fighter", i(), true),
            ("target", i(), true),
            ("from", range_band(), true),
            ("to", range_band(), true),
            ("as_action", boolean(), true),
        ]),
        Event::Disengage {
            fighter: _,
            targets: _,
            die: _,
            success: _,
            as_action: _,
            background: _,
            background_die: _,
        } => v(vec![
            ("fighter", i(), true),
            ("targets", list(i()), true),
            ("die", u32_(), true),
            ("success", boolean(), true),
            ("as_action", boolean(), true),
            ("background", when_set(string()), false),
            ("background_die", when_set(u32_()), false),
        ]),
        Event::ChaseRoll {
            fighter: _,
            target: _,
            direction: _,
            roll: _,
            success: _,
            as_action: _,
        } => v(vec![
            ("fighter", i(), true),
            ("target", i(), true),
            ("direction", direction(), true),
            ("roll", opposed_outcome(), true),
            ("success", boolean(), true),
            ("as_action", boolean(), true),
        ]),
        Event::Melee {
            attacker: _,
            defender: _,
            roll: _,
            weapons: _,
            damage: _,
            attacker_background: _,
            defender_background: _,
        } => v(vec![
            ("attacker", i(), true),
            ("defender", i(), true),
            ("roll", opposed_outcome(), true),
            ("weapons", tuple(vec![or_null(i()), or_null(i())]), true),
            ("damage", tuple(vec![u32_(), u32_()]), true),
            ("attacker_background", when_set(string()), false),
            ("defender_background", when_set(string()), false),
        ]),
        Event::Shot {
            shooter: _,
            target: _,
            band: _,
            ally_engaged: _,
            shooter_engaged: _,
            check: _,
            background: _,
        } => v(vec![
            ("shooter", i(), true),
            ("target", i(), true),
            ("band", range_band(), true),
            ("ally_engaged", boolean(), true),
            ("shooter_engaged", boolean(), true),
            ("check", check_outcome(), true),
            ("background", when_set(string()), false),
        ]),
        Event::VehicleAttack {
            attacker: _,
            target: _,
            roll: _,
        } => v(vec![
            ("attacker", i(), true),
            ("target", i(), true),
            ("roll", opposed_outcome(), true),
        ]),
        Event::Switched {
            fighter: _,
            weapon: _,
        } => v(vec![("fighter", i(), true), ("weapon", string(), true)]),
        Event::Damaged {
            fighter: _,
            amount: _,
            hit_points: _,
            by: _,
        } => v(vec![
            ("fighter", i(), true),
            ("amount", u32_(), true),
            ("hit_points", u32_(), true),
            ("by", i(), true),
        ]),
        Event::NoEffect {
            fighter: _,
            reason: _,
        } => v(vec![("fighter", i(), true), ("reason", string(), true)]),
        Event::Out { fighter: _ } => v(vec![("fighter", i(), true)]),
        Event::Acted {
            fighter: _,
            what: _,
        } => v(vec![("fighter", i(), true), ("what", string(), true)]),
        Event::TurnEnded { fighter: _ } => v(vec![("fighter", i(), true)]),
        Event::CombatOver { winner: _ } => v(vec![("winner", or_null(string()), true)]),
        Event::Stopped { rounds: _ } => v(vec![("rounds", u32_(), true)]),
    }
}

/// One value of each variant of [`solum_expanded::combat::Event`] (its fields are not
/// read: [`combat_event`] takes only the variant).
fn expanded_event_samples() -> Vec<solum_expanded::combat::Event> {
    use solum_expanded::check::{
        CheckOutcome, CheckSpec, DrawRule, OpposedOutcome, OpposedSpec, PoolRoll, Verdict,
    };
    use solum_expanded::combat::{Direction, Event, RangeBand};
    use solum_expanded::{Difficulty, Pool};
    let pool = Pool::new(1).expect("one die is a pool");
    let roll = PoolRoll {
        dice: solum_dice::Faces::zeroed(1),
        reroll: None,
        chain: Vec::new(),
        chain_not_needed: false,
        result: 0,
    };
    let check = || CheckOutcome {
        spec: CheckSpec::new(pool, Difficulty::AUTOMATIC),
        roll: None,
        result: 0,
        passed: true,
    };
    let opposed = || OpposedOutcome {
        spec: OpposedSpec {
            draws: DrawRule::Stand,
            ..OpposedSpec::new(pool, pool)
        },
        first: roll.clone(),
        second: roll.clone(),
        roll_off: Vec::new(),
        verdict: Verdict::Draw,
    };
    let band = RangeBand::Nearby;
    vec![
        Event::InitiativeRoll {
            fighter: 0,
            check: check(),
            background: None,
        },
        Event::OrderSet { order: Vec::new() },
        Event::RoundStarted { round: 1 },
        Event::TurnStarted { fighter: 0 },
        Event::Placed { a: 0, b: 1, band },
        Event::Moved {
            fighter: 0,
            target: 1,
            from: band,
            to: band,
            as_action: false,
        },
        Event::Disengage {
            fighter: 0,
            targets: Vec::new(),
            die: 1,
            success: false,
            as_action: false,
            background: None,
            background_die: None,
        },
        Event::ChaseRoll {
            fighter: 0,
            target: 1,
            direction: Direction::Closer,
            roll: opposed(),
            success: false,
            as_action: false,
        },
        Event::Melee {
            attacker: 0,
            defender: 1,
            roll: opposed(),
            weapons: [None, None],
            damage: [0, 0],
            attacker_background: None,
            defender_background: None,
        },
        Event::Shot {
            shooter: 0,
            target: 1,
            band,
            ally_engaged: false,
            shooter_engaged: false,
            check: check(),
            background: None,
        },
        Event::VehicleAttack {
            attacker: 0,
            target: 1,
            roll: opposed(),
        },
        Event::Switched {
            fighter: 0,
            weapon: String::new(),
        },
        Event::Damaged {
            fighter: 0,
            amount: 0,
            hit_points: 0,
            by: 1,
        },
        Event::NoEffect {
            fighter: 0,
            reason: String::new(),
        },
        Event::Out { fighter: 0 },
        Event::Acted {
            fighter: 0,
            what: String::new(),
        },
        Event::TurnEnded { fighter: 0 },
        Event::CombatOver { winner: None },
        Event::Stopped { rounds: 0 },
    ]
}

/// The rounds of a fast static combat call: the hero's check and both sides' hit points
/// after each.
pub fn static_rounds() -> Schema {
    let _every_field = |r: &solum_expanded::combat::StaticRound| {
        let solum_expanded::combat::StaticRound {
            check: _,
            hit_points: _,
            foe_hit_points: _,
        } = r;
    };
    list(fields(vec![
        ("check", check_outcome(), true),
        ("hit_points", u32_(), true),
        ("foe_hit_points", u32_(), true),
    ]))
}

// ---------------------------------------------------------------------------------------
// The original So1um.

/// Body, mind or spirit.
pub(crate) fn classic_stat() -> Schema {
    use solum_classic::hero::Stat::{self, Body, Mind, Spirit};
    let every = |s: Stat| match s {
        Body | Mind | Spirit => s,
    };
    one_of_strings(serde_forms([Body, Mind, Spirit].map(every)))
}

/// A hero or monster of the original: `max_body` and `max_hit_points` are `null` when
/// unset; `combat_stat` and the hours of rest toward a point are written only when set.
pub fn hero() -> Schema {
    let _every_field = |h: &solum_classic::hero::Hero| {
        let solum_classic::hero::Hero {
            name: _,
            body: _,
            mind: _,
            spirit: _,
            hit_points: _,
            cliches: _,
            max_body: _,
            max_hit_points: _,
            gear: _,
            notes: _,
            combat_stat: _,
            rest_toward_hit_point: _,
            rest_toward_body: _,
        } = h;
    };
    fields(vec![
        ("name", string(), true),
        ("body", u32_(), true),
        ("mind", u32_(), true),
        ("spirit", u32_(), true),
        ("hit_points", u32_(), true),
        ("cliches", list(string()), true),
        ("max_body", or_null(u32_()), true),
        ("max_hit_points", or_null(u32_()), true),
        ("gear", list(string()), true),
        ("notes", string(), true),
        ("combat_stat", when_set(classic_stat()), false),
        ("rest_toward_hit_point", when_set(number()), false),
        ("rest_toward_body", when_set(number()), false),
    ])
}

/// A hero of the original, or `null`.
pub fn hero_or_null() -> Schema {
    or_null(hero())
}

/// Heroes or monsters of the original.
pub fn heroes() -> Schema {
    list(hero())
}

/// The dice rolled to create a hero, step by step.
pub fn creation_rolls() -> Schema {
    let _every_field = |c: &solum_classic::hero::CreationRolls| {
        let solum_classic::hero::CreationRolls {
            body: _,
            mind: _,
            spirit: _,
            hit_points: _,
            cliches: _,
        } = c;
    };
    fields(vec![
        ("body", list(u32_()), true),
        ("mind", list(u32_()), true),
        ("spirit", list(u32_()), true),
        ("hit_points", list(u32_()), true),
        ("cliches", list(u32_()), true),
    ])
}

/// A check's outcome: the gear reroll is `[index, from, to]` or `null`.
pub fn classic_check() -> Schema {
    let _every_field = |c: &solum_classic::check::Check| {
        let solum_classic::check::Check {
            pool: _,
            difficulty: _,
            dice: _,
            reroll: _,
            highest: _,
            passed: _,
        } = c;
    };
    fields(vec![
        ("pool", u32_(), true),
        ("difficulty", u32_(), true),
        ("dice", list(u32_()), true),
        (
            "reroll",
            or_null(tuple(vec![usize_(), u32_(), u32_()])),
            true,
        ),
        ("highest", u32_(), true),
        ("passed", boolean(), true),
    ])
}

/// The hero, or an opponent by its place in the list: `"hero"` or `{"foe": index}`.
fn who() -> Schema {
    use solum_classic::fight::Who::{self, Foe, Hero};
    let every = |w: Who| match w {
        Hero | Foe(_) => w,
    };
    let foe = serde_json::to_value(every(Foe(0))).unwrap_or_default();
    let foe_key = foe
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .unwrap_or_default();
    either(vec![
        one_of_strings(serde_forms([Hero].map(every))),
        fields(vec![(&foe_key, usize_(), true)]),
    ])
}

/// The exact chances of the next exchange, and of the fight from here (`null` but in a
/// duel).
fn next_exchange() -> Schema {
    use solum_classic::duel::ExchangeOdds;
    use solum_classic::fight::NextExchange;
    let _every_field = |n: &NextExchange| {
        let NextExchange {
            foe: _,
            dice: _,
            odds:
                ExchangeOdds {
                    win: _,
                    tie: _,
                    lose: _,
                    exact: _,
                },
            p_win_fight: _,
        } = n;
    };
    let odds = fields(vec![
        ("win", number(), true),
        ("tie", number(), true),
        ("lose", number(), true),
        ("exact", tuple(vec![string(), string(), string()]), true),
    ]);
    fields(vec![
        ("foe", usize_(), true),
        ("dice", tuple(vec![u32_(), u32_()]), true),
        ("odds", odds, true),
        ("p_win_fight", or_null(number()), true),
    ])
}

/// The next exchange's odds, or `null`.
pub fn next_exchange_or_null() -> Schema {
    or_null(next_exchange())
}

/// The fields of a hit that waits for its answer: who, and its Body and hit points now.
fn decision_fields() -> Vec<(&'static str, Schema, bool)> {
    let _every_field = |d: &solum_classic::fight::Decision| {
        let solum_classic::fight::Decision {
            who: _,
            body: _,
            hit_points: _,
        } = d;
    };
    vec![
        ("who", who(), true),
        ("body", u32_(), true),
        ("hit_points", u32_(), true),
    ]
}

/// A hit that waits for its answer, or `null`.
pub fn decision_or_null() -> Schema {
    or_null(fields(decision_fields()))
}

/// What happened in a call of the original's fight: each event an object whose `event`
/// names it (kebab-case), with its fields.
pub fn classic_events() -> Schema {
    use solum_classic::duel::Exchange;
    use solum_classic::fight::{Decision, Event, Loss, Who};
    let of = |e: Event| -> Schema {
        let v = |list| variant("event", &e, list);
        match &e {
            Event::Exchange {
                round: _,
                foe: _,
                roll:
                    Exchange {
                        first: _,
                        second: _,
                        winner: _,
                    },
                winner: _,
            } => v(vec![
                ("round", u32_(), true),
                ("foe", usize_(), true),
                (
                    "roll",
                    fields(vec![
                        ("first", list(u32_()), true),
                        ("second", list(u32_()), true),
                        ("winner", i8_(), true),
                    ]),
                    true,
                ),
                ("winner", or_null(who()), true),
            ]),
            Event::Decide(_) => v(decision_fields()),
            Event::Hit {
                who: _,
                loss: _,
                body: _,
                hit_points: _,
            } => v(vec![
                ("who", who(), true),
                ("loss", super::loss_value(), true),
                ("body", u32_(), true),
                ("hit_points", u32_(), true),
            ]),
            Event::Death { who: _ } => v(vec![("who", who(), true)]),
            Event::End { hero_won: _ } => v(vec![("hero_won", boolean(), true)]),
            Event::Abandoned => v(Vec::new()),
        }
    };
    let decision = Decision {
        who: Who::Hero,
        body: 0,
        hit_points: 0,
    };
    let samples = vec![
        Event::Exchange {
            round: 1,
            foe: 0,
            roll: Exchange {
                first: Vec::new(),
                second: Vec::new(),
                winner: 0,
            },
            winner: None,
        },
        Event::Decide(decision),
        Event::Hit {
            who: Who::Hero,
            loss: Loss::HitPoint,
            body: 0,
            hit_points: 0,
        },
        Event::Death { who: Who::Hero },
        Event::End { hero_won: false },
        Event::Abandoned,
    ];
    list(either(samples.into_iter().map(of).collect()))
}

// ---------------------------------------------------------------------------------------
// Sol'una.

/// A Sol'una test's outcome: the dice rolled, the flips played, the dice after them, the
/// largest group and its face.
fn soluna_test() -> Schema {
    use solum_soluna::flips::Flip;
    use solum_soluna::{TestOutcome, TestSpec};
    let _every_field = |t: &TestOutcome| {
        let TestOutcome {
            spec: TestSpec {
                dice: _,
                net_flips: _,
            },
            rolled: _,
            flips: _,
            faces: _,
            largest: _,
            face: _,
        } = t;
        let Flip {
            die: _,
            from: _,
            to: _,
        } = t.flips[0];
    };
    let spec = fields(vec![("dice", u32_(), true), ("net_flips", i32_(), true)]);
    let flip = fields(vec![
        ("die", usize_(), true),
        ("from", u32_(), true),
        ("to", u32_(), true),
    ]);
    fields(vec![
        ("spec", spec, true),
        ("rolled", list(u32_()), true),
        ("flips", list(flip), true),
        ("faces", list(u32_()), true),
        ("largest", u32_(), true),
        ("face", u32_(), true),
    ])
}

/// What happened in a call of a played skirmish: each event an object whose `event` names
/// it (kebab-case), with its fields; characters are indices into the skirmish's list.
pub fn soluna_events() -> Schema {
    use solum_soluna::skirmish::Event;
    let of = |e: Event| -> Schema {
        let v = |list| variant("event", &e, list);
        let i = usize_;
        match &e {
            Event::Phase { turn: _, phase: _ } => {
                v(vec![("turn", u32_(), true), ("phase", u32_(), true)])
            }
            Event::Attack {
                attacker: _,
                target: _,
                melee: _,
                positive: _,
                negative: _,
                added: _,
                removed: _,
                test: _,
                damage: _,
            } => v(vec![
                ("attacker", i(), true),
                ("target", i(), true),
                ("melee", boolean(), true),
                ("positive", u32_(), true),
                ("negative", u32_(), true),
                ("added", u32_(), true),
                ("removed", u32_(), true),
                ("test", soluna_test(), true),
                ("damage", u32_(), true),
            ]),
            Event::Damaged {
                character: _,
                amount: _,
                hit_points: _,
            } => v(vec![
                ("character", i(), true),
                ("amount", u32_(), true),
                ("hit_points", u32_(), true),
            ]),
            Event::Out { character: _ } => v(vec![("character", i(), true)]),
            Event::Engaged {
                mover: _,
                target: _,
            } => v(vec![("mover", i(), true), ("target", i(), true)]),
            Event::Over {
                winner: _,
                turns: _,
            } => v(vec![
                ("winner", or_null(string()), true),
                ("turns", u32_(), true),
            ]),
        }
    };
    let test = solum_soluna::TestOutcome {
        spec: solum_soluna::TestSpec {
            dice: 1,
            net_flips: 0,
        },
        rolled: Vec::new(),
        flips: Vec::new(),
        faces: Vec::new(),
        largest: 0,
        face: 0,
    };
    let samples = vec![
        Event::Phase { turn: 1, phase: 1 },
        Event::Attack {
            attacker: 0,
            target: 1,
            melee: true,
            positive: 0,
            negative: 0,
            added: 0,
            removed: 0,
            test,
            damage: 0,
        },
        Event::Damaged {
            character: 0,
            amount: 0,
            hit_points: 0,
        },
        Event::Out { character: 0 },
        Event::Engaged {
            mover: 0,
            target: 1,
        },
        Event::Over {
            winner: None,
            turns: 0,
        },
    ];
    list(either(samples.into_iter().map(of).collect()))
}

/// A decision of a played skirmish: an object whose `action` names it (kebab-case).
fn soluna_order() -> Schema {
    use solum_soluna::played::Order;
    let of = |o: Order| -> Schema {
        let v = |list| variant("action", &o, list);
        match &o {
            Order::Attack {
                target: _,
                ranged: _,
                flips: _,
                dice: _,
            } => v(vec![
                ("target", usize_(), true),
                ("ranged", boolean(), true),
                ("flips", u32_(), true),
                ("dice", u32_(), true),
            ]),
            Order::Move { target: _ } => v(vec![("target", usize_(), true)]),
        }
    };
    either(
        [
            Order::Attack {
                target: 0,
                ranged: false,
                flips: 0,
                dice: 0,
            },
            Order::Move { target: 0 },
        ]
        .into_iter()
        .map(of)
        .collect(),
    )
}

/// A skirmish in play: the characters as they are now, who is auto, the engaged pairs, the
/// turn and phase that wait, the decisions made in it (`null` for a character yet to
/// decide), the end (`null` until it is over).
pub fn skirmish() -> Schema {
    use solum_soluna::played::{Ending, Skirmish};
    let _every_field = |s: &Skirmish, e: &Ending| {
        let Skirmish {
            characters: _,
            auto: _,
            engaged: _,
            turn: _,
            phase: _,
            declared: _,
            over: _,
        } = s;
        let Ending {
            winner: _,
            turns: _,
        } = e;
    };
    let ending = fields(vec![
        ("winner", or_null(string()), true),
        ("turns", u32_(), true),
    ]);
    fields(vec![
        ("characters", list(super::soluna_character_shown()), true),
        ("auto", list(boolean()), true),
        ("engaged", list(tuple(vec![usize_(), usize_()])), true),
        ("turn", u32_(), true),
        ("phase", u32_(), true),
        ("declared", list(or_null(soluna_order())), true),
        ("over", or_null(ending), true),
    ])
}

#[cfg(test)]
mod tests {
    //! Values the rules make, as serde writes them, checked against their schemas by a small
    //! validator of the keywords this module writes: a schema that a real value fails is a
    //! wrong description (the field lists are held by patterns; the types are held here).

    use super::*;
    use serde_json::{Map, Value, json};
    use solum_dice::SeededDice;

    /// Why `v` fails `schema` (the keywords the schemas of this module and its parent use,
    /// and those utoipa derives), or `None`.
    fn problem(schema: &Value, v: &Value, at: &str) -> Option<String> {
        problem_in(schema, v, at, &Map::new())
    }

    /// [`problem`], with a derived schema's named parts (`$ref`) looked up in `named`.
    fn problem_in(
        schema: &Value,
        v: &Value,
        at: &str,
        named: &Map<String, Value>,
    ) -> Option<String> {
        let problem = |s: &Value, v: &Value, at: &str| problem_in(s, v, at, named);
        let fail = |why: String| Some(format!("{at}: {why} ({v})"));
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/components/schemas/");
            return match named.get(name) {
                Some(s) => problem(s, v, at),
                None => fail(format!("refers to {r}, which is not described")),
            };
        }
        for s in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(p) = problem(s, v, at) {
                return Some(p);
            }
        }
        if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
            let problems: Vec<String> = options.iter().filter_map(|s| problem(s, v, at)).collect();
            if problems.len() == options.len() {
                return fail(format!("fits none of its forms: {problems:?}"));
            }
        }
        if let Some(types) = schema.get("type") {
            let name = match v {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            let names: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let fits = names
                .iter()
                .any(|t| *t == name || (*t == "number" && name == "integer"));
            if !fits {
                return fail(format!("not of type {types}"));
            }
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array)
            && !values.contains(v)
        {
            return fail(format!("not one of {values:?}"));
        }
        if let Some(n) = v.as_f64() {
            if schema
                .get("minimum")
                .and_then(Value::as_f64)
                .is_some_and(|m| n < m)
            {
                return fail("below the minimum".into());
            }
            if schema
                .get("maximum")
                .and_then(Value::as_f64)
                .is_some_and(|m| n > m)
            {
                return fail("above the maximum".into());
            }
        }
        if let (Some(s), Some(most)) = (v.as_str(), schema.get("maxLength"))
            && most.as_u64().is_some_and(|m| s.chars().count() as u64 > m)
        {
            return fail("too long".into());
        }
        if let Some(o) = v.as_object() {
            for field in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !o.contains_key(field.as_str().unwrap_or_default()) {
                    return fail(format!("lacks {field}"));
                }
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            for (k, x) in o {
                let at = format!("{at}.{k}");
                match properties.and_then(|p| p.get(k)) {
                    Some(s) => {
                        if let Some(p) = problem(s, x, &at) {
                            return Some(p);
                        }
                    }
                    None => match schema.get("additionalProperties") {
                        Some(Value::Bool(false)) => return fail(format!("has {k}")),
                        Some(s @ Value::Object(_)) => {
                            if let Some(p) = problem(s, x, &at) {
                                return Some(p);
                            }
                        }
                        _ => {}
                    },
                }
            }
        }
        if let Some(a) = v.as_array() {
            let count = a.len() as u64;
            if schema
                .get("minItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| count < m)
                || schema
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| count > m)
            {
                return fail("a wrong number of items".into());
            }
            let prefix = schema
                .get("prefixItems")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for (i, x) in a.iter().enumerate() {
                let s = prefix.get(i).or_else(|| schema.get("items"));
                let at = format!("{at}[{i}]");
                match s {
                    Some(Value::Bool(false)) => return fail(format!("has item {i}")),
                    Some(s @ Value::Object(_)) => {
                        if let Some(p) = problem(s, x, &at) {
                            return Some(p);
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
            let problems: Vec<String> = options.iter().filter_map(|s| problem(s, v, at)).collect();
            if options.len() - problems.len() != 1 {
                return fail(format!(
                    "fits {} of its {} forms: {problems:?}",
                    options.len() - problems.len(),
                    options.len()
                ));
            }
        }
        None
    }

    /// `value` as serde writes it fits `schema`.
    #[track_caller]
    fn fits(schema: Schema, value: impl serde::Serialize) {
        let schema = serde_json::to_value(schema).expect("a schema is JSON");
        let value = serde_json::to_value(value).expect("a value of the rules is JSON");
        if let Some(p) = problem(&schema, &value, "") {
            panic!("{p}");
        }
    }

    /// The named schemas `T`'s derived schema refers to, each once: a name given to two
    /// different schemas (two rules crates' `Event`s) fails here, for the description
    /// would keep only one of them.
    #[track_caller]
    fn named_parts<T: utoipa::ToSchema>() -> Map<String, Value> {
        let mut parts = Vec::new();
        T::schemas(&mut parts);
        let mut named = Map::new();
        for (name, schema) in parts {
            let schema = serde_json::to_value(schema).expect("a schema is JSON");
            if let Some(before) = named.insert(name.clone(), schema.clone()) {
                assert_eq!(before, schema, "two schemas are named {name}");
            }
        }
        named
    }

    /// `value` as serde writes it fits `T`'s derived schema.
    #[track_caller]
    fn fits_derived<T: utoipa::ToSchema + serde::Serialize>(value: &T) {
        let schema = serde_json::to_value(T::schema()).expect("a schema is JSON");
        let value = serde_json::to_value(value).expect("a value of the rules is JSON");
        if let Some(p) = problem_in(&schema, &value, "", &named_parts::<T>()) {
            panic!("{p}");
        }
    }

    /// The validator refuses what it should: a check on the checker.
    #[test]
    fn the_validator_refuses_a_wrong_value() {
        let schema = serde_json::to_value(fields(vec![
            ("n", u32_(), true),
            ("s", or_null(string()), true),
        ]))
        .unwrap();
        assert!(problem(&schema, &json!({"n": 1, "s": null}), "").is_none());
        for wrong in [
            json!({"n": -1, "s": null}),
            json!({"n": 1}),
            json!({"n": 1, "s": 2}),
            json!([1]),
        ] {
            assert!(problem(&schema, &wrong, "").is_some(), "{wrong}");
        }
    }

    #[test]
    fn expanded_sheets_creatures_and_vehicles_fit() {
        let nick: solum_expanded::character::Character = toml::from_str(
            "schema = 1\nname = \"Nick\"\nbody = 3\nmind = 2\ncharm = 1\n\
             backgrounds = [\"Acrobat Thief\"]\nhit_points = 4\nadvancement_points = 2\n\
             weapons = [{ name = \"dagger\", class = \"light\" }, \
             { name = \"launcher\", class = \"heavy\", ranged = true, anti_vehicle = true }]\n\
             armor = { name = \"leather\", class = \"light\" }\n\
             gear = [{ name = \"rope\", effect = \"enables\" }]\n",
        )
        .unwrap();
        fits(expanded_character(), &nick);
        let bare = solum_expanded::character::Character {
            armor: None,
            ..nick
        };
        fits(expanded_character_or_null(), &bare);
        fits(expanded_character_or_null(), None::<()>);
        let bestiary = solum_expanded::creature::Bestiary::shipped();
        for c in bestiary.creatures() {
            fits(creature(), c);
        }
        assert!(bestiary.creatures().any(|c| c.ranged_damage.is_some()));
        fits(static_foes(), bestiary.static_foes().collect::<Vec<_>>());
        let vehicles = solum_expanded::vehicle::VehicleCatalogue::shipped();
        fits(vehicle_entries(), vehicles.vehicles().collect::<Vec<_>>());
    }

    /// Lines of every kind, picked by a fixed generator: every event but `stopped` (10,000
    /// rounds) shows, and all fit.
    #[test]
    fn expanded_combat_events_fit() {
        use solum_expanded::creature::Bestiary;
        use solum_expanded::line::{Session, parse_line};
        let setup = [
            "hero Osric pool=3 hp=9 damage=2 mind=2 bg ranged=2",
            "hero Wynn pool=2 hp=7 damage=3 mind=1",
            "foe orc*2",
            "foe Champion pool=3 hp=8 damage=2 mind=3 ranged=1",
            "vehicle smuggler side=heroes hero mind=2 bg hull=6 speed=average handling=average damage=2 scale=car",
            "vehicle customs side=foes mind=2 hull=6 speed=fast handling=clumsy damage=2 scale=large",
        ];
        let moves = [
            "initiative",
            "initiative bg Osric=x",
            "place Osric orc-1 engaged",
            "place Wynn Champion far",
            "place smuggler customs engaged",
            "move closer orc-1",
            "move away orc-1",
            "move closer Champion",
            "move away Champion",
            "chase away customs",
            "chase closer customs",
            "melee orc-1",
            "melee orc-2",
            "melee Osric",
            "unarmed orc-1",
            "shoot orc-2",
            "shoot Champion",
            "shoot customs",
            "shoot smuggler",
            "vattack customs",
            "vattack smuggler",
            "switch ranged",
            "switch melee",
            "switch unarmed",
            "act opens the door",
            "end",
            "end",
            "end",
        ];
        let mut events = Vec::new();
        for seed in 0..40u64 {
            let mut s = Session::new(Bestiary::shipped());
            let mut dice = SeededDice::new(seed);
            for line in setup {
                s.run(&parse_line(line).unwrap(), &mut dice).unwrap();
            }
            if seed % 2 == 1 {
                s.run(&parse_line("draws roll-off").unwrap(), &mut dice)
                    .ok();
            }
            let mut pick = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            for _ in 0..400 {
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let line = moves[(pick >> 33) as usize % moves.len()];
                if let Ok(e) = s.run(&parse_line(line).unwrap(), &mut dice) {
                    events.extend(e);
                }
            }
        }
        // A fight to its end.
        let mut s = Session::new(Bestiary::shipped());
        let mut dice = SeededDice::new(1);
        for line in [
            "hero Ann pool=6 hp=9 damage=3",
            "foe orc",
            "place Ann orc engaged",
            "order Ann orc",
        ]
        .into_iter()
        .chain(std::iter::repeat_n(["melee orc", "end", "end"], 100).flatten())
        {
            if let Ok(e) = s.run(&parse_line(line).unwrap(), &mut dice) {
                events.extend(e);
            }
        }
        let json = serde_json::to_value(&events).unwrap();
        let mut seen: Vec<&str> = json
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["event"].as_str())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        // Every variant but `stopped` shows; its one field is described like the others'.
        assert_eq!(seen.len(), expanded_event_samples().len() - 1, "{seen:?}");
        fits(combat_events(), &json);
    }

    #[test]
    fn static_rounds_fit() {
        use solum_expanded::combat::StaticCombat;
        use solum_expanded::{Difficulty, Pool};
        let mut fight = StaticCombat {
            pool: Pool::new(3).unwrap(),
            difficulty: Difficulty::new(7).unwrap(),
            hit_points: 6,
            damage: 2,
            foe_hit_points: 6,
            foe_damage: 1,
        };
        let played = fight.play_out(&mut SeededDice::new(5)).unwrap();
        assert!(!played.rounds.is_empty());
        fits(static_rounds(), &played.rounds);
    }

    #[test]
    fn classic_heroes_checks_and_fights_fit() {
        use solum_classic::fight::{ClassicFight, Command, Fighter};
        use solum_classic::hero::Stat;
        let book = solum_classic::Book::shipped();
        fits(heroes(), &book.hero);
        fits(heroes(), &book.monster);
        let mut dice = SeededDice::new(9);
        let (mut hero, rolls) = solum_classic::hero::create("Ann", &[], &mut dice)
            .unwrap()
            .unwrap();
        fits(creation_rolls(), &rolls);
        hero.combat_stat = Some(Stat::Mind);
        hero.max_body = Some(hero.body + 1);
        hero.rest_toward_body = 2.5;
        fits(hero_or_null(), &hero);
        for gear in [false, true] {
            let check = solum_classic::check::roll_check(3, 6, gear, &mut dice).unwrap();
            fits(classic_check(), &check);
        }
        fits(
            classic_check(),
            solum_classic::check::roll_check(2, 1, false, &mut dice).unwrap(),
        );
        let troll = book.find("troll").unwrap();
        let mut events = Vec::new();
        for seed in 0..20 {
            let mut dice = SeededDice::new(seed);
            let fighter = |h, asks| {
                Fighter::from_hero(h, None, false, solum_classic::duel::Policy::Survive, asks)
            };
            let mut fight =
                ClassicFight::new(fighter(&hero, true), vec![fighter(troll, false); 2]).unwrap();
            let mut calls = 0;
            while !fight.is_over() {
                calls += 1;
                fits(next_exchange_or_null(), fight.next_exchange());
                fits(decision_or_null(), fight.pending());
                let command = match fight.pending() {
                    Some(_) if seed % 2 == 0 => Command::Take(solum_classic::fight::Loss::Body),
                    Some(_) => Command::Take(solum_classic::fight::Loss::HitPoint),
                    None if seed == 3 && calls > 2 => Command::Abandon,
                    None => Command::Exchange,
                };
                events.extend(fight.apply(command, &mut dice).unwrap());
            }
        }
        let json = serde_json::to_value(&events).unwrap();
        let mut seen: Vec<&str> = json
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["event"].as_str())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 6, "{seen:?}");
        fits(classic_events(), &json);
    }

    #[test]
    fn sol_tests_and_sheets_fit() {
        use solum_sol::test::{EdgeOnTest, TestSpec, roll_opposed, roll_test};
        let mut dice = SeededDice::new(4);
        let spec = |dice, threshold, edge| TestSpec {
            dice,
            threshold,
            edge,
        };
        for edge in [
            None,
            Some(EdgeOnTest::PushTheLimit),
            Some(EdgeOnTest::SecondChance),
            Some(EdgeOnTest::CloseCall),
            Some(EdgeOnTest::Smackdown),
        ] {
            for threshold in [None, Some(2)] {
                let t = roll_test(&spec(6, threshold, edge), &mut dice).unwrap();
                fits_derived(&t);
            }
        }
        fits_derived(&None::<solum_sol::test::TestOutcome>);
        let (mut a, mut b) = (SeededDice::new(1), SeededDice::new(2));
        let o = roll_opposed(&spec(5, None, None), &spec(4, None, None), &mut a, &mut b).unwrap();
        fits_derived(&o);
        fits_derived(&None::<solum_sol::test::OpposedOutcome>);
        let pool = solum_sol::pool::PoolSpec {
            attribute: 3,
            ranks: 0,
            modifiers: vec![2, -1],
            untrained_penalty: true,
            ..Default::default()
        }
        .build()
        .unwrap();
        fits_derived(&pool);
        let mut sheet = solum_sol::sheet::Sheet {
            schema: 1,
            name: "Kay".into(),
            edge: solum_sol::edge::Edge::new(3),
            attributes: [("agility".to_owned(), 4), ("body".to_owned(), 3)].into(),
            skills: vec![solum_sol::advancement::Skill::new("pistols", 2)],
            trained_this_session: false,
            progress_this_encounter: true,
        };
        let t = roll_test(&spec(6, Some(1), None), &mut dice).unwrap();
        let progress = sheet.record_test("pistols", &t);
        fits_derived(&progress);
        fits_derived(&Some(progress));
        fits_derived(&sheet);
        // Each part is named for the system, apart from any other system's.
        let named = named_parts::<solum_sol::sheet::Sheet>();
        assert!(named.contains_key("sol.Skill") && named.contains_key("sol.Edge"));
        let named = named_parts::<solum_sol::test::OpposedOutcome>();
        for part in [
            "sol.TestOutcome",
            "sol.TestSpec",
            "sol.Reroll",
            "sol.EdgeOnTest",
        ] {
            assert!(named.contains_key(part), "{part}: {named:?}");
        }
        assert_eq!(
            <solum_sol::sheet::Sheet as utoipa::ToSchema>::name(),
            "sol.Sheet"
        );
    }

    #[test]
    fn dietype_rolls_and_sheets_fit() {
        use solum_dietype::{DieType, RollSpec, roll_damage, roll_opposed, roll_skill};
        let mut dice = SeededDice::new(6);
        let spec = RollSpec::new(DieType::D4, 3, 3).unwrap();
        fits_derived(&roll_skill(&spec, &mut dice).unwrap());
        fits_derived(&None::<solum_dietype::SkillRoll>);
        let o = roll_opposed((DieType::D6, 2), (DieType::D8, 1), &mut dice).unwrap();
        fits_derived(&o);
        fits_derived(&Some(o));
        fits_derived(&None::<solum_dietype::OpposedRoll>);
        let d = roll_damage(DieType::D6, 2, -3, &mut dice).unwrap().unwrap();
        fits_derived(&d);
        fits_derived(&Some(d));
        fits_derived(&None::<solum_dietype::DamageRoll>);
        let sheet: solum_dietype::sheet::Sheet = toml::from_str(
            "name = \"Mo\"\nabilities = { strength = \"d8\" }\nskills = { swords = 2 }\n\
             weapons = { sword = { die = \"d6\", modifier = -1 } }\n",
        )
        .unwrap();
        fits_derived(&sheet);
        // A die type is described as serde writes it: its name, each one serde reads back.
        let named = named_parts::<solum_dietype::sheet::Sheet>();
        assert!(named.contains_key("dietype.Weapon"), "{named:?}");
        let die = &named["dietype.DieType"];
        assert_eq!(die["type"], "string");
        let names = die["enum"].as_array().unwrap();
        assert_eq!(names.len(), DieType::ALL.len());
        for (name, d) in names.iter().zip(DieType::ALL) {
            assert_eq!(name, &serde_json::to_value(d).unwrap());
            assert_eq!(serde_json::from_value::<DieType>(name.clone()).unwrap(), d);
        }
        for d in DieType::ALL {
            fits_derived(&d);
        }
    }

    #[test]
    fn soluna_skirmishes_fit() {
        use solum_soluna::played::{Order, Skirmish};
        use solum_soluna::skirmish::Character;
        let character = |name: &str, side: &str, ranged| Character {
            name: name.into(),
            side: side.into(),
            mind: 3,
            body: 1,
            shield: 1,
            hit_points: 6,
            melee: 3,
            ranged,
            flips: 2,
            guard: 1,
            flips_per_test: 1,
            extra_dice: 2,
            dice_guard: 1,
            dice_per_test: 1,
        };
        let mut s = Skirmish::new(
            vec![
                character("Ana", "a", 2),
                character("Bo", "b", 0),
                character("Cy", "b", 3),
            ],
            vec![false, true, true],
        )
        .unwrap();
        let mut dice = SeededDice::new(8);
        let mut events = Vec::new();
        let mut turn = 0;
        while s.over.is_none() && turn < 200 {
            turn += 1;
            fits(skirmish(), &s);
            for who in s.waiting() {
                let attack = |target, ranged| Order::Attack {
                    target,
                    ranged,
                    flips: 1,
                    dice: 1,
                };
                let mut orders = vec![attack(2, true), attack(1, false), attack(2, false)];
                let moves = [Order::Move { target: 1 }, Order::Move { target: 2 }];
                if turn % 3 == 0 {
                    orders.splice(0..0, moves);
                } else {
                    orders.extend(moves);
                }
                assert!(orders.into_iter().any(|o| s.declare(who, o).is_ok()));
            }
            fits(skirmish(), &s);
            events.extend(s.resolve_phase(&mut dice).unwrap());
        }
        assert!(s.over.is_some());
        fits(skirmish(), &s);
        let json = serde_json::to_value(&events).unwrap();
        let mut seen: Vec<&str> = json
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["event"].as_str())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 6, "{seen:?}");
        fits(soluna_events(), &json);
    }

    #[test]
    fn notation_terms_fit() {
        let expr =
            solum_notation::parse("4d6dl1 + 2d6!r1 [fire] + solum(2, vs 8) + dt(d4) - 3").unwrap();
        let rolled = solum_notation::roll(&expr, &mut SeededDice::new(2)).unwrap();
        fits_derived(&rolled.terms);
    }
}
