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
//! [`solum_expanded::MAX_POOL`] dice, which only its checked constructor builds) is stated.
//!
//! The original's and Sol'una's answer types are not described here: they derive their
//! schemas beside them (`utoipa::ToSchema` under their crates' feature `openapi`, named
//! `classic.…` and `soluna.…`), from the same serde attributes. Those serde reads with
//! `deny_unknown_fields` (a hero, a skirmish, a Sol'una character) are closed objects, and
//! a Sol'una character states the limits its `validate` checks, hit points from 0 (the app
//! checks every character a skirmish takes, and the skirmish only lowers its numbers).
//!
//! The tests below roll real values of every type and check them against their schemas.

use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ArrayItems, ObjectBuilder, Schema, Type,
};

use super::{die_type, either, integer, one_of_strings, or_null, serde_forms};

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

/// An `i64`.
fn i64_() -> Schema {
    integer(i64::MIN, i64::MAX)
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

/// A map written as an object: any keys (names), each value `values`.
fn map_of(values: Schema) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::RefOr(RefOr::T(values))))
        .into()
}

/// `schema`, written only when the field is set (no `null`, the field left out instead).
pub(crate) fn when_set(schema: Schema) -> Schema {
    schema
}

// ---------------------------------------------------------------------------------------
// Project Sol.

/// How a pool was built: its dice, the modifier given and the one applied, defaulting or
/// not.
pub fn sol_pool() -> Schema {
    let _every_field = |p: &solum_sol::pool::Pool| {
        let solum_sol::pool::Pool {
            dice: _,
            modifier: _,
            applied: _,
            defaulting: _,
        } = p;
    };
    fields(vec![
        ("dice", u32_(), true),
        ("modifier", i64_(), true),
        ("applied", i64_(), true),
        ("defaulting", boolean(), true),
    ])
}

/// A test's outcome: the threshold, `success` and `net_hits` are `null` without a
/// threshold; the Edge used is `null` when none was.
pub fn sol_test() -> Schema {
    use solum_sol::test::{Reroll, TestOutcome, TestSpec};
    let _every_field = |t: &TestOutcome| {
        let TestOutcome {
            spec:
                TestSpec {
                    dice: _,
                    threshold: _,
                    edge: _,
                },
            dice: _,
            rerolls: _,
            hits: _,
            ones: _,
            glitch: _,
            critical_glitch: _,
            success: _,
            net_hits: _,
            critical_success: _,
        } = t;
        let Reroll {
            index: _,
            from: _,
            to: _,
        } = t.rerolls[0];
    };
    let spec = fields(vec![
        ("dice", u32_(), true),
        ("threshold", or_null(u32_()), true),
        ("edge", super::any_edge(), true),
    ]);
    let reroll = fields(vec![
        ("index", usize_(), true),
        ("from", u32_(), true),
        ("to", u32_(), true),
    ]);
    fields(vec![
        ("spec", spec, true),
        ("dice", list(u32_()), true),
        ("rerolls", list(reroll), true),
        ("hits", u32_(), true),
        ("ones", u32_(), true),
        ("glitch", boolean(), true),
        ("critical_glitch", boolean(), true),
        ("success", or_null(boolean()), true),
        ("net_hits", or_null(u32_()), true),
        ("critical_success", boolean(), true),
    ])
}

/// A test's outcome, or `null`.
pub fn sol_test_or_null() -> Schema {
    or_null(sol_test())
}

/// Both sides of an opposed test.
pub fn sol_opposed_or_null() -> Schema {
    let _every_field = |o: &solum_sol::test::OpposedOutcome| {
        let solum_sol::test::OpposedOutcome {
            attacker: _,
            defender: _,
            success: _,
            net_hits: _,
            critical_success: _,
        } = o;
    };
    or_null(fields(vec![
        ("attacker", sol_test(), true),
        ("defender", sol_test(), true),
        ("success", boolean(), true),
        ("net_hits", u32_(), true),
        ("critical_success", boolean(), true),
    ]))
}

/// What a test did for a skill: a progress point, a rank.
pub fn sol_progress() -> Schema {
    let _every_field = |p: &solum_sol::advancement::Progress| {
        let solum_sol::advancement::Progress {
            point: _,
            rank_up: _,
        } = p;
    };
    fields(vec![
        ("point", boolean(), true),
        ("rank_up", boolean(), true),
    ])
}

/// What a test did for a skill, or `null`.
pub fn sol_progress_or_null() -> Schema {
    or_null(sol_progress())
}

/// A Project Sol sheet: attributes by name, skills in order, Edge.
pub fn sol_sheet() -> Schema {
    use solum_sol::advancement::Skill;
    use solum_sol::edge::Edge;
    use solum_sol::sheet::Sheet;
    let _every_field = |s: &Sheet| {
        let Sheet {
            schema: _,
            name: _,
            edge: Edge {
                attribute: _,
                points: _,
            },
            attributes: _,
            skills: _,
            trained_this_session: _,
            progress_this_encounter: _,
        } = s;
        let Skill {
            name: _,
            ranks: _,
            progress: _,
            earned_this_encounter: _,
        } = &s.skills[0];
    };
    let skill = fields(vec![
        ("name", string(), true),
        ("ranks", u32_(), true),
        ("progress", u32_(), true),
        ("earned_this_encounter", boolean(), true),
    ]);
    let edge = fields(vec![("attribute", u32_(), true), ("points", u32_(), true)]);
    fields(vec![
        ("schema", u32_(), true),
        ("name", string(), true),
        ("edge", edge, true),
        ("attributes", map_of(u32_()), true),
        ("skills", list(skill), true),
        ("trained_this_session", boolean(), true),
        ("progress_this_encounter", boolean(), true),
    ])
}

// ---------------------------------------------------------------------------------------
// Die types.

/// One chance of a die-type roll: every face (a maximum became two dice) and its result.
fn chance_rolls() -> Schema {
    let _every_field = |c: &solum_dietype::ChanceRoll| {
        let solum_dietype::ChanceRoll {
            faces: _,
            result: _,
        } = c;
    };
    list(fields(vec![
        ("faces", list(u32_()), true),
        ("result", u32_(), true),
    ]))
}

/// A skill roll against a difficulty: the die, chances and difficulty, every chance, the
/// quality; or `null`.
pub fn dietype_skill_or_null() -> Schema {
    use solum_dietype::{RollSpec, SkillRoll};
    let _every_field = |r: &SkillRoll| {
        let SkillRoll {
            spec:
                RollSpec {
                    die: _,
                    chances: _,
                    difficulty: _,
                },
            chances: _,
            quality: _,
        } = r;
    };
    let spec = fields(vec![
        ("die", die_type(), true),
        ("chances", u32_(), true),
        ("difficulty", u32_(), true),
    ]);
    or_null(fields(vec![
        ("spec", spec, true),
        ("chances", chance_rolls(), true),
        ("quality", u32_(), true),
    ]))
}

/// An opposed die-type roll: both sides' chances, the winner (1, −1, 0 for a draw) and the
/// quality.
pub fn dietype_opposed() -> Schema {
    let _every_field = |o: &solum_dietype::OpposedRoll| {
        let solum_dietype::OpposedRoll {
            first: _,
            second: _,
            winner: _,
            quality: _,
        } = o;
    };
    fields(vec![
        ("first", chance_rolls(), true),
        ("second", chance_rolls(), true),
        ("winner", i8_(), true),
        ("quality", u32_(), true),
    ])
}

/// An opposed die-type roll, or `null`.
pub fn dietype_opposed_or_null() -> Schema {
    or_null(dietype_opposed())
}

/// The damage of a die-type weapon: its dice, its modifier, the total; or `null`.
pub fn dietype_damage_or_null() -> Schema {
    let _every_field = |d: &solum_dietype::DamageRoll| {
        let solum_dietype::DamageRoll {
            faces: _,
            modifier: _,
            total: _,
        } = d;
    };
    or_null(fields(vec![
        ("faces", list(u32_()), true),
        ("modifier", i32_(), true),
        ("total", u32_(), true),
    ]))
}

/// A die-type sheet: abilities, skills and weapons, each an object by name.
pub fn dietype_sheet() -> Schema {
    use solum_dietype::sheet::{Sheet, Weapon};
    let _every_field = |s: &Sheet, w: &Weapon| {
        let Sheet {
            name: _,
            abilities: _,
            skills: _,
            weapons: _,
            notes: _,
        } = s;
        let Weapon {
            die: _,
            modifier: _,
        } = w;
    };
    let weapon = fields(vec![("die", die_type(), true), ("modifier", i32_(), true)]);
    fields(vec![
        ("name", string(), true),
        ("abilities", map_of(die_type()), true),
        ("skills", map_of(u32_()), true),
        ("weapons", map_of(weapon), true),
        ("notes", string(), true),
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
        fits_derived(&nick);
        let bare = solum_expanded::character::Character {
            armor: None,
            ..nick
        };
        fits_derived(&Some(bare));
        fits_derived(&None::<solum_expanded::character::Character>);
        let bestiary = solum_expanded::creature::Bestiary::shipped();
        for c in bestiary.creatures() {
            fits_derived(c);
        }
        assert!(bestiary.creatures().any(|c| c.ranged_damage.is_some()));
        fits_derived(&bestiary.static_foes().cloned().collect::<Vec<_>>());
        let vehicles = solum_expanded::vehicle::VehicleCatalogue::shipped();
        fits_derived(&vehicles.vehicles().cloned().collect::<Vec<_>>());
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
        // A fight called off (10,000 rounds are not played here).
        events.push(solum_expanded::combat::Event::Stopped { rounds: 10_000 });
        let json = serde_json::to_value(&events).unwrap();
        let mut seen: Vec<&str> = json
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["event"].as_str())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        // Every variant shows: as many as the derived schema has forms.
        let forms = serde_json::to_value(
            <solum_expanded::combat::Event as utoipa::PartialSchema>::schema(),
        )
        .unwrap()["oneOf"]
            .as_array()
            .map_or(0, Vec::len);
        assert_eq!(seen.len(), forms, "{seen:?}");
        fits_derived(&events);
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
        fits_derived(&played.rounds);
    }

    #[test]
    fn classic_heroes_checks_and_fights_fit() {
        use solum_classic::fight::{ClassicFight, Command, Fighter};
        use solum_classic::hero::Stat;
        let book = solum_classic::Book::shipped();
        fits_derived(&book.hero);
        fits_derived(&book.monster);
        let mut dice = SeededDice::new(9);
        let (mut hero, rolls) = solum_classic::hero::create("Ann", &[], &mut dice)
            .unwrap()
            .unwrap();
        fits_derived(&rolls);
        hero.combat_stat = Some(Stat::Mind);
        hero.max_body = Some(hero.body + 1);
        hero.rest_toward_body = 2.5;
        fits_derived(&hero);
        for gear in [false, true] {
            let check = solum_classic::check::roll_check(3, 6, gear, &mut dice).unwrap();
            fits_derived(&check);
        }
        fits_derived(&solum_classic::check::roll_check(2, 1, false, &mut dice).unwrap());
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
                fits_derived(&fight.next_exchange());
                fits_derived(&fight.pending());
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
        fits_derived(&events);
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
                fits(sol_test_or_null(), &t);
            }
        }
        fits(sol_test_or_null(), None::<()>);
        let (mut a, mut b) = (SeededDice::new(1), SeededDice::new(2));
        let o = roll_opposed(&spec(5, None, None), &spec(4, None, None), &mut a, &mut b).unwrap();
        fits(sol_opposed_or_null(), &o);
        let pool = solum_sol::pool::PoolSpec {
            attribute: 3,
            ranks: 0,
            modifiers: vec![2, -1],
            untrained_penalty: true,
            ..Default::default()
        }
        .build()
        .unwrap();
        fits(sol_pool(), &pool);
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
        fits(sol_progress_or_null(), progress);
        fits(sol_sheet(), &sheet);
    }

    #[test]
    fn dietype_rolls_and_sheets_fit() {
        use solum_dietype::{DieType, RollSpec, roll_damage, roll_opposed, roll_skill};
        let mut dice = SeededDice::new(6);
        let spec = RollSpec::new(DieType::D4, 3, 3).unwrap();
        fits(
            dietype_skill_or_null(),
            roll_skill(&spec, &mut dice).unwrap(),
        );
        fits(dietype_skill_or_null(), None::<()>);
        let o = roll_opposed((DieType::D6, 2), (DieType::D8, 1), &mut dice).unwrap();
        fits(dietype_opposed(), &o);
        let d = roll_damage(DieType::D6, 2, -3, &mut dice).unwrap().unwrap();
        fits(dietype_damage_or_null(), &d);
        let sheet: solum_dietype::sheet::Sheet = toml::from_str(
            "name = \"Mo\"\nabilities = { strength = \"d8\" }\nskills = { swords = 2 }\n\
             weapons = { sword = { die = \"d6\", modifier = -1 } }\n",
        )
        .unwrap();
        fits(dietype_sheet(), &sheet);
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
            fits_derived(&s);
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
            fits_derived(&s);
            events.extend(s.resolve_phase(&mut dice).unwrap());
        }
        assert!(s.over.is_some());
        fits_derived(&s);
        // A character's schema states the limits it was checked against: Mind 11 fails.
        let mut wrong = serde_json::to_value(&s.characters[0]).unwrap();
        wrong["mind"] = json!(11);
        let schema = serde_json::to_value(<Character as utoipa::PartialSchema>::schema()).unwrap();
        assert!(problem_in(&schema, &wrong, "", &named_parts::<Character>()).is_some());
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
        fits_derived(&events);
    }

    #[test]
    fn notation_terms_fit() {
        let expr =
            solum_notation::parse("4d6dl1 + 2d6!r1 [fire] + solum(2, vs 8) + dt(d4) - 3").unwrap();
        let rolled = solum_notation::roll(&expr, &mut SeededDice::new(2)).unwrap();
        fits_derived(&rolled.terms);
    }
}
