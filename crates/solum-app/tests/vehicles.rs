//! Vehicles, chases and fight odds as use cases. Expected values come from the rules text's
//! extended example (S10: the smuggler and the customs starfighter) and from independent
//! arithmetic, never from the code's own output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::fight_odds::{FightOddsInput, SimLimits, SimOptions, SimRefusal};
use solum_app::vehicles::{
    Field, VehicleDice, VehicleError, VehicleRollInput, VehicleRollKind, roll_vehicle, vehicle_odds,
};
use solum_app::{AppError, Campaign, Dice, NewCharacter, Record};
use solum_expanded::character::{Class, Weapon};
use solum_expanded::check::Verdict;
use solum_expanded::vehicle::{Handling, Speed};
use solum_store::MemoryStore;

fn campaign() -> Campaign<MemoryStore> {
    Campaign::new(MemoryStore::new()).with_clock(|| "2026-12-02T02:00:00Z".parse().unwrap())
}

/// The text's smuggler (Mind 2 + background: 3 dice, tramp freighter) and customs pilot
/// (3 dice, customs starfighter).
fn smuggler_and_customs() -> VehicleRollInput {
    VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        vehicle: Some("tramp freighter".into()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_vehicle: Some("starfighter".into()),
        ..VehicleRollInput::default()
    }
}

#[test]
fn the_texts_chase_is_three_dice_against_five_and_the_smuggler_loses() {
    // "The customs starfighter is faster and has better handling … 5 dice vs. 3 dice."
    let input = VehicleRollInput {
        rolled: Some(vec![2, 3, 5]),
        against_rolled: Some(vec![2, 3, 4, 4, 6]),
        ..smuggler_and_customs()
    };
    let v = roll_vehicle(VehicleRollKind::Chase, &input, None).unwrap();
    assert_eq!((v.pool, v.against_pool), (3, 5));
    assert_eq!(v.against_bonus, ["faster", "better handling"]);
    // The customs pilot's 6 "doesn't need" its chain: only one side shows a 6.
    assert!(v.against_chain.is_empty());
    assert_eq!((v.result, v.against_result), (5, 6));
    assert_eq!(v.outcome, Verdict::Lose);
    assert_eq!(v.verdict, "LOSE: the distance stays");
    assert!(v.typed && v.seed.is_none());
    assert_eq!(v.faces, [2, 3, 5, 2, 3, 4, 4, 6]);
}

#[test]
fn the_texts_attacks_count_handling_only() {
    // The customs officer attacks: 4 dice (better handling) against 3; 1,2,3,3 vs 3,4,5:
    // "the shots go wide".
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        vehicle: Some("starfighter".into()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_vehicle: Some("freighter".into()),
        rolled: Some(vec![1, 2, 3, 3]),
        against_rolled: Some(vec![3, 4, 5]),
        ..VehicleRollInput::default()
    };
    let v = roll_vehicle(VehicleRollKind::Attack, &input, None).unwrap();
    assert_eq!((v.pool, v.against_pool), (4, 3));
    assert!(!v.speed_counts);
    assert_eq!((v.outcome, v.verdict), (Verdict::Lose, "MISS"));
    assert!(v.hull_damage.is_none());
    // The smuggler returns fire: 3,3,5 against 3,5,5,5, a draw: the starfighter dodged.
    let input = VehicleRollInput {
        rolled: Some(vec![3, 3, 5]),
        against_rolled: Some(vec![3, 5, 5, 5]),
        ..smuggler_and_customs()
    };
    let v = roll_vehicle(VehicleRollKind::Attack, &input, None).unwrap();
    assert_eq!((v.pool, v.against_pool), (3, 4));
    assert_eq!(v.outcome, Verdict::Draw);
    // A hit of the freighter's quad-laser turret (2) on the starfighter's hull (2): 0 left.
    let input = VehicleRollInput {
        rolled: Some(vec![3, 3, 5]),
        against_rolled: Some(vec![1, 2, 4, 4]),
        ..smuggler_and_customs()
    };
    let v = roll_vehicle(VehicleRollKind::Attack, &input, None).unwrap();
    assert_eq!(v.verdict, "HIT");
    let hit = v.hull_damage.unwrap();
    assert_eq!((hit.damage, hit.hull, hit.hull_left), (2, 2, 0));
    // The starfighter is larger than a car: no personal weapon harms it (S10).
    assert_eq!(v.scale.unwrap().heavy_weapon_damage, 0);
}

#[test]
fn one_die_against_one_has_the_odds_of_the_rule_of_6_by_hand() {
    // 1 die each: the higher wins; both 6 (1/36) rolls chains, which is the same contest
    // again. w = 15/36 + w/36, so w = 15/35 = 3/7; a standing draw d = 5/36 + d/36 = 1/7.
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(1).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(1).unwrap()),
        ..VehicleRollInput::default()
    };
    let o = vehicle_odds(VehicleRollKind::Chase, &input).unwrap();
    assert_eq!(
        (
            o.p_win_exact.as_str(),
            o.p_draw_exact.as_str(),
            o.p_lose_exact.as_str()
        ),
        ("3/7", "1/7", "3/7")
    );
    // With the roll-off the draw is settled by a fair contest: 1/2 each.
    let o = vehicle_odds(
        VehicleRollKind::Chase,
        &VehicleRollInput {
            roll_off: true,
            ..input
        },
    )
    .unwrap();
    assert_eq!(
        (o.p_win_exact.as_str(), o.p_draw_exact.as_str()),
        ("1/2", "0")
    );
}

#[test]
fn rule_facts_are_typed_errors_naming_the_field() {
    let input = VehicleRollInput {
        speed: Some(Speed::Fast),
        ..smuggler_and_customs()
    };
    // Speed beside a catalogue vehicle is refused in a chase …
    let e = roll_vehicle(VehicleRollKind::Chase, &input, Some(1)).unwrap_err();
    assert!(matches!(
        e,
        AppError::Vehicle(VehicleError::RatingsBesideVehicle {
            field: Field::Speed,
            ..
        })
    ));
    // … and speed counts only in a chase (S10): refused in an attack, not ignored.
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_speed: Some(Speed::Fast),
        ..VehicleRollInput::default()
    };
    let AppError::Vehicle(e) = roll_vehicle(VehicleRollKind::Attack, &input, Some(1)).unwrap_err()
    else {
        panic!("a vehicle error")
    };
    assert_eq!(e.field(), Field::AgainstSpeed);
    assert_eq!(
        e.describe(Field::flag),
        "--against-speed fast: speed counts only in a chase, not in a vehicle attack"
    );
    // A typed die too many, with the rule that left it unrolled.
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_speed: Some(Speed::Fast),
        against_handling: Some(Handling::Responsive),
        rolled: Some(vec![2, 3, 5]),
        against_rolled: Some(vec![2, 3, 4, 4, 6, 1]),
        ..VehicleRollInput::default()
    };
    let e = roll_vehicle(VehicleRollKind::Chase, &input, None).unwrap_err();
    assert!(e.to_string().contains("only one side shows a 6"), "{e}");
    // A seed beside every die typed would roll nothing.
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(1).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(1).unwrap()),
        rolled: Some(vec![3]),
        against_rolled: Some(vec![2]),
        ..VehicleRollInput::default()
    };
    assert!(matches!(
        roll_vehicle(VehicleRollKind::Chase, &input, Some(4)).unwrap_err(),
        AppError::Vehicle(VehicleError::Typed(
            solum_app::TypedDiceError::SeedRollsNothing { seed: 4 }
        ))
    ));
    let e = roll_vehicle(
        VehicleRollKind::Chase,
        &VehicleRollInput {
            vehicle: Some("warp barge".into()),
            ..smuggler_and_customs()
        },
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("not in the catalogue"));
    assert_eq!(e.kind(), solum_app::ErrorKind::BadInput);
}

#[test]
fn a_chase_at_the_table_is_journaled_and_verify_re_derives_it() {
    let mut c = campaign();
    // Nick: Mind 2 (Body 3, Charm 1); 1,1 for the 2d6 (no extra background), 1 for armor.
    c.create_character(
        &NewCharacter {
            name: "Nick".into(),
            body: solum_app::characters::StartingAttribute::new(3).unwrap(),
            mind: solum_app::characters::StartingAttribute::new(2).unwrap(),
            charm: solum_app::characters::StartingAttribute::new(1).unwrap(),
            backgrounds: vec!["Smuggler".into()],
            weapon: Weapon::melee("dagger", Class::Light),
            armor_name: "leather jacket".into(),
        },
        Dice::Typed(vec![1, 1, 1]),
    )
    .unwrap();
    let input = VehicleRollInput {
        pilot: None,
        character: Some("nick".into()),
        background: Some("smuggler".into()),
        ..smuggler_and_customs()
    };
    let odds = c.vehicle_odds(VehicleRollKind::Chase, &input).unwrap();
    assert_eq!((odds.pool, odds.against_pool), (3, 5));
    // Every die typed in one list, in draw order: Nick's pool, then the customs pilot's.
    let v = c
        .vehicle_roll(
            VehicleRollKind::Chase,
            &input,
            VehicleDice::Dice(Dice::Typed(vec![2, 3, 5, 2, 3, 4, 4, 6])),
        )
        .unwrap();
    assert_eq!(v.roll.character.as_deref(), Some("Nick"));
    assert_eq!((v.roll.pilot, v.roll.outcome), (3, Verdict::Lose));
    // A seeded one, then verify: both re-derive.
    let seeded = c
        .vehicle_roll(
            VehicleRollKind::Attack,
            &input,
            VehicleDice::PerPilot(Some(2026)),
        )
        .unwrap();
    assert_eq!(seeded.roll.seed, Some(2026));
    // A vehicle known by its ratings only (no name, hull or weapons).
    c.vehicle_roll(
        VehicleRollKind::Chase,
        &VehicleRollInput {
            pilot: Some(solum_app::check_once::CombatPool::new(2).unwrap()),
            speed: Some(Speed::LightningFast),
            against_pilot: Some(solum_app::check_once::CombatPool::new(2).unwrap()),
            ..VehicleRollInput::default()
        },
        VehicleDice::Dice(Dice::Seed(11)),
    )
    .unwrap();
    let entries = c.entries().unwrap();
    assert_eq!(entries.last().unwrap().record.kind(), "vehicle");
    // The journal moves to another campaign whole: every roll re-derives on import.
    let mut other = campaign();
    let moved = other.import(c.export().unwrap()).unwrap();
    assert_eq!(moved, entries.len());
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    // A changed outcome is caught.
    let Record::Vehicle(mut r) = entries.last().unwrap().record.clone() else {
        panic!("a vehicle record")
    };
    r.outcome.result += 1;
    let recorded = r.outcome.result;
    let why = solum_app::journal::replay(&Record::Vehicle(r))
        .unwrap()
        .unwrap();
    // The divergence is data: the one field, the value kept and the value the dice give.
    let d = why.differences();
    assert_eq!(d.len(), 1, "{why}");
    assert_eq!(d[0].path, "outcome.result");
    assert_eq!(d[0].recorded, serde_json::json!(recorded));
    assert_eq!(d[0].derived, serde_json::json!(recorded - 1));
    // A background the sheet does not have is refused, naming the field.
    let e = c
        .vehicle_odds(
            VehicleRollKind::Chase,
            &VehicleRollInput {
                background: Some("Admiral".into()),
                ..input
            },
        )
        .unwrap_err();
    assert!(matches!(
        e,
        AppError::Vehicle(VehicleError::Background {
            field: Field::Background,
            ..
        })
    ));
}

#[test]
fn fight_odds_are_bounded_and_reproducible() {
    let mut c = campaign();
    c.create_character(
        &NewCharacter {
            name: "Osric".into(),
            body: solum_app::characters::StartingAttribute::new(3).unwrap(),
            mind: solum_app::characters::StartingAttribute::new(2).unwrap(),
            charm: solum_app::characters::StartingAttribute::new(1).unwrap(),
            backgrounds: vec!["Soldier".into()],
            weapon: Weapon::melee("sword", Class::Light),
            armor_name: "leather jacket".into(),
        },
        Dice::Typed(vec![1, 1, 1]),
    )
    .unwrap();
    let input = FightOddsInput {
        heroes: vec!["Osric".into()],
        foes: vec![solum_app::combat::FoeCount {
            name: "orc".into(),
            count: solum_app::combat::FoeNumber::new(2).unwrap(),
        }],
        options: SimOptions {
            fights: Some(2_000),
            seed: Some(7),
            ..SimOptions::default()
        },
        ..FightOddsInput::default()
    };
    let a = c.fight_odds(&input, SimLimits::WEB).unwrap();
    let b = c.fight_odds(&input, SimLimits::WEB).unwrap();
    assert_eq!(a, b, "the same seed gives the same figures");
    assert_eq!((a.heroes, a.foes, a.fights), (1, 2, 2_000));
    assert_eq!(a.wins + a.losses + a.undecided, 2_000);
    assert!(a.win_rate_95[0] <= a.win_rate && a.win_rate <= a.win_rate_95[1]);
    // Past the web's number of fights: refused before any fight.
    let many = FightOddsInput {
        options: SimOptions {
            fights: Some(20_001),
            ..input.options.clone()
        },
        ..input.clone()
    };
    assert!(matches!(
        c.fight_odds(&many, SimLimits::WEB).unwrap_err(),
        AppError::Simulation(SimRefusal::Fights { max: 20_000, .. })
    ));
    // No combat open.
    let current = FightOddsInput {
        current_combat: true,
        ..FightOddsInput::default()
    };
    assert!(matches!(
        c.fight_odds(&current, SimLimits::WEB).unwrap_err(),
        AppError::Simulation(SimRefusal::NoCombat)
    ));
    // The open combat's sides.
    c.start_combat_with(
        None,
        false,
        &solum_app::combat::CombatSetup {
            heroes: vec!["Osric".into()],
            foes: vec![solum_app::combat::FoeCount {
                name: "orc".into(),
                count: solum_app::combat::FoeNumber::new(1).unwrap(),
            }],
        },
    )
    .unwrap();
    let v = c
        .fight_odds(
            &FightOddsInput {
                options: SimOptions {
                    fights: Some(500),
                    seed: Some(1),
                    ..SimOptions::default()
                },
                ..current
            },
            SimLimits::WEB,
        )
        .unwrap();
    assert_eq!((v.heroes, v.foes), (1, 1));
    assert_eq!(v.names[0], "Osric");
}

#[test]
fn a_fight_without_heroes_is_refused() {
    let c = campaign();
    let e = c
        .fight_odds(
            &FightOddsInput {
                foes: vec![solum_app::combat::FoeCount {
                    name: "orc".into(),
                    count: solum_app::combat::FoeNumber::new(1).unwrap(),
                }],
                ..FightOddsInput::default()
            },
            SimLimits::WEB,
        )
        .unwrap_err();
    assert!(matches!(
        e,
        AppError::Simulation(SimRefusal::EmptySide("heroes"))
    ));
}

/// An imported vehicle entry whose pilot the rules refuse (a pool of 0 dice) is refused by
/// the import, naming the entry and the rule; nothing is imported.
#[test]
fn an_imported_pilot_the_rules_refuse_is_refused_with_its_entry() {
    let mut c = campaign();
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        ..VehicleRollInput::default()
    };
    c.vehicle_roll(
        VehicleRollKind::Chase,
        &input,
        VehicleDice::Dice(Dice::Seed(7)),
    )
    .unwrap();
    let mut export = serde_json::to_value(c.export().unwrap()).unwrap();
    export["entries"][0]["first"]["pilot"] = 0.into();
    let mut fresh = campaign();
    let e = fresh.import_json(&export.to_string()).unwrap_err();
    assert_eq!(e.code(), "import-invalid");
    assert_eq!(e.kind(), solum_app::ErrorKind::BadInput);
    assert_eq!(
        e.to_string(),
        "the journal to import is not valid: entry 1 (vehicle entry, numbered 1 in the export): \
         pilot: a pool of 0 dice is not possible: a pool has 1 to 1000 dice"
    );
    assert!(fresh.export().unwrap().entries.is_empty());
}
