//! The scale rule in combat (S10): which personal weapons harm which vehicles, and the reason
//! a shot that hits has no effect.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_dice::ScriptedDice;
use solum_expanded::character::{Character, Class, Weapon};
use solum_expanded::combat::{Combat, Command, Event, Fighter, Mode};
use solum_expanded::creature::{Creature, parse_bestiary};
use solum_expanded::vehicle::{Handling, Scale, Speed, Vehicle};

fn vehicle(scale: Scale) -> Fighter {
    let v = Vehicle {
        name: "target".into(),
        hull: 4,
        speed: Speed::Average,
        handling: Handling::Average,
        damage: 2,
        scale,
    };
    Fighter::vehicle("target", "b", false, 2, false, v).unwrap()
}

fn hero_with(weapon: Weapon) -> Fighter {
    let hero = Character {
        schema: 1,
        name: "Nick".into(),
        body: 3,
        mind: 2,
        charm: 1,
        backgrounds: vec!["Soldier".into()],
        unnamed_backgrounds: 0,
        hit_points: 5,
        weapons: vec![weapon],
        armor: None,
        gear: vec![],
        money: 0,
        notes: String::new(),
        advancement_points: 0,
        rest_minutes: 0,
    };
    Fighter::hero(&hero, "a", false).unwrap()
}

/// One shot at a nearby vehicle (difficulty 4) with 5, 1, 1: a hit. Returns the hull left
/// and the reason given when the hit has no effect.
fn shoot(shooter: Fighter, scale: Scale) -> (u32, Option<String>) {
    let mut combat = Combat::new(vec![shooter, vehicle(scale)], Mode::Standard);
    let mut none = ScriptedDice::new([]);
    combat
        .apply(&Command::Order { order: vec![0, 1] }, &mut none)
        .unwrap();
    let mut dice = ScriptedDice::new([5, 1, 1]);
    let events = combat
        .apply(&Command::Shoot { target: 1 }, &mut dice)
        .unwrap();
    assert!(dice.is_exhausted());
    let reason = events.iter().find_map(|e| match e {
        Event::NoEffect { reason, .. } => Some(reason.clone()),
        _ => None,
    });
    (combat.fighters()[1].hit_points, reason)
}

#[test]
fn a_light_pistol_fails_for_not_being_heavy() {
    let (hull, reason) = shoot(
        hero_with(Weapon::ranged("pistol", Class::Light)),
        Scale::CarOrTruck,
    );
    assert_eq!(hull, 4);
    let reason = reason.unwrap();
    assert!(reason.contains("only a heavy"), "{reason}");
    assert!(
        !reason.contains("size") && !reason.contains("larger"),
        "{reason}"
    );
}

#[test]
fn a_heavy_weapon_harms_a_car_but_fails_against_a_ship_for_its_size() {
    let mg = || hero_with(Weapon::ranged("machine gun", Class::Heavy));
    assert_eq!(shoot(mg(), Scale::CarOrTruck), (3, None));
    let (hull, reason) = shoot(mg(), Scale::Large);
    assert_eq!(hull, 4);
    assert!(reason.unwrap().contains("larger than a car or truck"));
}

#[test]
fn a_missile_launcher_made_to_fight_vehicles_harms_a_ship() {
    let launcher = Weapon {
        anti_vehicle: true,
        ..Weapon::ranged("shoulder-mounted missile launcher", Class::Heavy)
    };
    assert_eq!(shoot(hero_with(launcher.clone()), Scale::Large), (3, None));
    assert_eq!(shoot(hero_with(launcher), Scale::CarOrTruck), (3, None));
    // The same from a bestiary entry.
    let file = parse_bestiary(
        "[[creature]]\nname = \"rocket trooper\"\npool = 3\nhit_points = 2\ndamage = 1\nranged_damage = 3\nanti_vehicle = true\n",
    )
    .unwrap();
    let trooper: &Creature = &file.creature[0];
    let f = Fighter::creature(trooper, "rocket trooper", "a").unwrap();
    assert_eq!(shoot(f, Scale::Large), (3, None));
    // A sheet keeps the property.
    let sheet = toml::to_string(&Weapon {
        anti_vehicle: true,
        ..Weapon::ranged("launcher", Class::Heavy)
    })
    .unwrap();
    assert!(sheet.contains("anti_vehicle = true"));
}
