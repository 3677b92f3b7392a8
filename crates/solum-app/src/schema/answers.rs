//! The rules' answer types as the API describes them: each derives its schema beside the
//! type (`utoipa::ToSchema` under its crate's feature `openapi`, named by its system:
//! `expanded.Character`, `classic.Event`, `sol.TestOutcome`, …), read from the same serde
//! attributes its JSON is written with, so a field or variant added to the rules is
//! described as it is added. One rule for what is required: a field that is an `Option`,
//! is left out when empty (`skip_serializing_if`) or is read with a default is not (a
//! client reads a sheet written by an older solum too); a type serde reads with
//! `deny_unknown_fields` is a closed object; a range is stated where the type guarantees it
//! (a So1um Expanded pool of 1 to [`solum_expanded::MAX_POOL`] dice, which only its checked
//! constructor builds) or every write of the app checks it (a Sol'una character's numbers).
//! Names and notes are any text: an answer may show a sheet read from a file or a campaign
//! older than a limit.
//!
//! These tests roll real values of every type and check them against the derived schemas
//! with a small validator of the keywords utoipa writes: a schema that a real value fails
//! is a wrong description, and one name given to two schemas fails too.

use serde_json::{Map, Value, json};
use solum_dice::SeededDice;

/// Why `v` fails `schema`, its named parts (`$ref`) looked up in `named`, or `None`.
fn problem(schema: &Value, v: &Value, at: &str, named: &Map<String, Value>) -> Option<String> {
    let fail = |why: String| Some(format!("{at}: {why} ({v})"));
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/components/schemas/");
        return match named.get(name) {
            Some(s) => problem(s, v, at, named),
            None => fail(format!("refers to {r}, which is not described")),
        };
    }
    let why = forms_problem(schema, v, at, named)
        .or_else(|| kind_problem(schema, v))
        .or_else(|| object_problem(schema, v, at, named))
        .or_else(|| array_problem(schema, v, at, named));
    match why {
        // A part's problem says where it is already.
        Some(Nested(p)) => Some(p),
        Some(Here(why)) => fail(why),
        None => None,
    }
}

/// A problem found by a part of [`problem`]: of the value itself, or of a value inside it
/// (whose message names its own place).
enum Why {
    Here(String),
    Nested(String),
}
use Why::{Here, Nested};

/// `allOf` (every form), `anyOf` (one at least) and `oneOf` (exactly one).
fn forms_problem(schema: &Value, v: &Value, at: &str, named: &Map<String, Value>) -> Option<Why> {
    let forms = |key| schema.get(key).and_then(Value::as_array);
    let problems = |forms: &Vec<Value>| -> Vec<String> {
        forms
            .iter()
            .filter_map(|s| problem(s, v, at, named))
            .collect()
    };
    if let Some(p) = forms("allOf").and_then(|all| problems(all).into_iter().next()) {
        return Some(Nested(p));
    }
    if let Some(any) = forms("anyOf") {
        let p = problems(any);
        if p.len() == any.len() {
            return Some(Here(format!("fits none of its forms: {p:?}")));
        }
    }
    if let Some(one) = forms("oneOf") {
        let p = problems(one);
        if one.len() - p.len() != 1 {
            return Some(Here(format!(
                "fits {} of its {} forms: {p:?}",
                one.len() - p.len(),
                one.len()
            )));
        }
    }
    None
}

/// `type`, `enum`, `minimum`, `maximum` and `maxLength`.
fn kind_problem(schema: &Value, v: &Value) -> Option<Why> {
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
        if !names
            .iter()
            .any(|t| *t == name || (*t == "number" && name == "integer"))
        {
            return Some(Here(format!("not of type {types}")));
        }
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array)
        && !values.contains(v)
    {
        return Some(Here(format!("not one of {values:?}")));
    }
    let bound = |key| schema.get(key).and_then(Value::as_f64);
    if let Some(n) = v.as_f64() {
        if bound("minimum").is_some_and(|m| n < m) {
            return Some(Here("below the minimum".into()));
        }
        if bound("maximum").is_some_and(|m| n > m) {
            return Some(Here("above the maximum".into()));
        }
    }
    if let (Some(s), Some(most)) = (v.as_str(), bound("maxLength"))
        && s.chars().count() as f64 > most
    {
        return Some(Here("too long".into()));
    }
    None
}

/// `required`, `properties` and `additionalProperties`.
fn object_problem(schema: &Value, v: &Value, at: &str, named: &Map<String, Value>) -> Option<Why> {
    let o = v.as_object()?;
    let required = schema.get("required").and_then(Value::as_array);
    if let Some(field) = required
        .into_iter()
        .flatten()
        .find(|f| !o.contains_key(f.as_str().unwrap_or_default()))
    {
        return Some(Here(format!("lacks {field}")));
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    for (k, x) in o {
        let at = format!("{at}.{k}");
        let s = match properties.and_then(|p| p.get(k)) {
            Some(s) => s,
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => return Some(Here(format!("has {k}"))),
                Some(s @ Value::Object(_)) => s,
                _ => continue,
            },
        };
        if let Some(p) = problem(s, x, &at, named) {
            return Some(Nested(p));
        }
    }
    None
}

/// `minItems`, `maxItems`, `prefixItems` and `items`.
fn array_problem(schema: &Value, v: &Value, at: &str, named: &Map<String, Value>) -> Option<Why> {
    let a = v.as_array()?;
    let count = a.len() as u64;
    let bound = |key| schema.get(key).and_then(Value::as_u64);
    if bound("minItems").is_some_and(|m| count < m) || bound("maxItems").is_some_and(|m| count > m)
    {
        return Some(Here("a wrong number of items".into()));
    }
    let prefix = schema.get("prefixItems").and_then(Value::as_array);
    for (i, x) in a.iter().enumerate() {
        let s = prefix
            .and_then(|p| p.get(i))
            .or_else(|| schema.get("items"));
        match s {
            Some(Value::Bool(false)) => return Some(Here(format!("has item {i}"))),
            Some(s @ Value::Object(_)) => {
                if let Some(p) = problem(s, x, &format!("{at}[{i}]"), named) {
                    return Some(Nested(p));
                }
            }
            _ => {}
        }
    }
    None
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

/// `events` fit their derived schema, and every variant of it shows among them: as many
/// tags (`event`) as the schema has forms.
#[track_caller]
fn every_variant_fits<T: utoipa::ToSchema + serde::Serialize>(events: &Vec<T>)
where
    Vec<T>: utoipa::ToSchema,
{
    let json = serde_json::to_value(events).expect("events are JSON");
    let mut seen: Vec<&str> = json
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["event"].as_str())
        .collect();
    seen.sort_unstable();
    seen.dedup();
    let forms = serde_json::to_value(T::schema()).expect("a schema is JSON")["oneOf"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(seen.len(), forms, "{seen:?}");
    fits_derived(events);
}

/// `value` as serde writes it fits `T`'s derived schema.
#[track_caller]
fn fits_derived<T: utoipa::ToSchema + serde::Serialize>(value: &T) {
    let schema = serde_json::to_value(T::schema()).expect("a schema is JSON");
    let value = serde_json::to_value(value).expect("a value of the rules is JSON");
    if let Some(p) = problem(&schema, &value, "", &named_parts::<T>()) {
        panic!("{p}");
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
    every_variant_fits(&events);
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
    every_variant_fits(&events);
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
    let (mut a, mut b) = (SeededDice::new(1), SeededDice::new(2));
    let o = roll_opposed(&spec(5, None, None), &spec(4, None, None), &mut a, &mut b).unwrap();
    fits_derived(&o);
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
    let o = roll_opposed((DieType::D6, 2), (DieType::D8, 1), &mut dice).unwrap();
    fits_derived(&o);
    fits_derived(&Some(o));
    let d = roll_damage(DieType::D6, 2, -3, &mut dice).unwrap().unwrap();
    fits_derived(&d);
    fits_derived(&Some(d));
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
    assert!(problem(&schema, &wrong, "", &named_parts::<Character>()).is_some());
    every_variant_fits(&events);
}

#[test]
fn notation_terms_fit() {
    let expr =
        solum_notation::parse("4d6dl1 + 2d6!r1 [fire] + solum(2, vs 8) + dt(d4) - 3").unwrap();
    let rolled = solum_notation::roll(&expr, &mut SeededDice::new(2)).unwrap();
    fits_derived(&rolled.terms);
}

/// The validator refuses what it should: a check on the checker.
#[test]
fn the_validator_refuses_a_wrong_value() {
    let schema = json!({
        "type": "object",
        "required": ["n", "s"],
        "properties": {
            "n": {"type": "integer", "minimum": 0, "maximum": 9},
            "s": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/S"}]},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}], "items": false},
        },
        "additionalProperties": false,
    });
    let named: Map<String, Value> = [("S".to_owned(), json!({"type": "string", "enum": ["a"]}))]
        .into_iter()
        .collect();
    for right in [
        json!({"n": 1, "s": null}),
        json!({"n": 9, "s": "a", "pair": [1]}),
    ] {
        assert!(problem(&schema, &right, "", &named).is_none(), "{right}");
    }
    for wrong in [
        json!({"n": -1, "s": null}),
        json!({"n": 10, "s": null}),
        json!({"n": 1}),
        json!({"n": 1, "s": 2}),
        json!({"n": 1, "s": "b"}),
        json!({"n": 1, "s": null, "pair": [1, 2]}),
        json!({"n": 1, "s": null, "other": 0}),
        json!([1]),
    ] {
        assert!(problem(&schema, &wrong, "", &named).is_some(), "{wrong}");
    }
    // A name the description does not hold is a problem, not a pass.
    assert!(problem(&schema, &json!({"n": 1, "s": "a"}), "", &Map::new()).is_some());
}
