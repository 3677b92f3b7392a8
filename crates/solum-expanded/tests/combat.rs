//! The combat, vehicle and chase rules of So1um Expanded, driven through the state machine
//! with typed dice, event by event.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_dice::{ScriptedDice, TypedDice};
use solum_expanded::check::Verdict;
use solum_expanded::combat::{
    Combat, CombatError, Command, Direction, Event, Fighter, Mode, RangeBand, RollBackgrounds,
    StaticCombat,
};
use solum_expanded::creature::Bestiary;
use solum_expanded::vehicle::{Handling, Scale, Speed, Vehicle};
use solum_expanded::{Difficulty, Pool};

fn pool(n: u64) -> Pool {
    Pool::new(n).unwrap()
}

/// A fighter with the given pools and hit points.
fn fighter(
    name: &str,
    side: &str,
    hero: bool,
    mind: u32,
    melee: u64,
    hp: u32,
    damage: u32,
) -> Fighter {
    let mut f = Fighter::plain(name, side, hero, pool(melee), damage, None, hp);
    f.mind = mind;
    f.initiative_background = hero;
    f
}

/// A hero with a melee weapon (1 damage) and a ranged weapon in hand.
fn gunner(name: &str, side: &str, body: u64, damage: u32) -> Fighter {
    let mut f = Fighter::plain(name, side, true, pool(body), 1, Some(damage), 4);
    f.initiative_background = true;
    f.held = Some(1);
    f
}

/// Applies a command with scripted dice that must all be used.
fn apply(combat: &mut Combat, command: Command, dice: &[u32]) -> Vec<Event> {
    let mut script = ScriptedDice::new(dice);
    let events = combat.apply(&command, &mut script).unwrap();
    assert!(script.is_exhausted(), "{command:?} left dice unused");
    events
}

fn order_names(combat: &Combat) -> Vec<&str> {
    combat
        .order()
        .iter()
        .map(|&i| combat.fighters()[i].name.as_str())
        .collect()
}

fn nick_osric_and_orcs() -> Combat {
    let orc = Bestiary::shipped().creature("orc").unwrap().clone();
    let mut fighters = vec![
        fighter("Osric", "heroes", true, 1, 4, 5, 2),
        fighter("Nick", "heroes", true, 2, 3, 5, 1),
    ];
    for i in 1..=4 {
        fighters.push(Fighter::creature(&orc, &format!("orc {i}"), "orcs").unwrap());
    }
    Combat::new(fighters, Mode::Standard)
}

#[test]
fn initiative_example_nick_orcs_osric() {
    // Osric is listed first so the order comes from the rule, not the listing.
    // Osric rolls 2d6 (Mind 1 + background): 3, 3, fails. Nick rolls 3d6: 4, 3, 3, passes.
    let mut combat = nick_osric_and_orcs();
    let events = apply(&mut combat, Command::Initiative, &[3, 3, 4, 3, 3]);
    let passed: Vec<(usize, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::InitiativeRoll { fighter, check, .. } => Some((*fighter, check.passed)),
            _ => None,
        })
        .collect();
    assert_eq!(passed, [(0, false), (1, true)]);
    assert_eq!(
        order_names(&combat),
        ["Nick", "orc 1", "orc 2", "orc 3", "orc 4", "Osric"]
    );
    assert_eq!(combat.acting(), Some(1));

    // Had Osric passed too: Nick (Mind 2), Osric (Mind 1), then the orcs.
    let mut combat = nick_osric_and_orcs();
    apply(&mut combat, Command::Initiative, &[4, 1, 4, 3, 3]);
    assert_eq!(
        order_names(&combat),
        ["Nick", "Osric", "orc 1", "orc 2", "orc 3", "orc 4"]
    );
}

#[test]
fn ambushers_act_first() {
    let mut combat = nick_osric_and_orcs();
    apply(
        &mut combat,
        Command::Ambush {
            side: "orcs".into(),
        },
        &[],
    );
    assert_eq!(
        order_names(&combat)[..4],
        ["orc 1", "orc 2", "orc 3", "orc 4"]
    );
}

fn freighter() -> Vehicle {
    Vehicle {
        name: "tramp freighter".into(),
        hull: 5,
        speed: Speed::Average,
        handling: Handling::Average,
        damage: 2,
        scale: Scale::Large,
    }
}

fn starfighter() -> Vehicle {
    Vehicle {
        name: "customs starfighter".into(),
        hull: 2,
        speed: Speed::Fast,
        handling: Handling::Responsive,
        damage: 1,
        scale: Scale::Large,
    }
}

fn chase_roll(events: &[Event]) -> (Vec<u32>, Vec<u32>, bool) {
    events
        .iter()
        .find_map(|e| match e {
            Event::ChaseRoll { roll, success, .. } => Some((
                roll.first.dice.to_vec(),
                roll.second.dice.to_vec(),
                *success,
            )),
            _ => None,
        })
        .expect("a chase roll")
}

/// The smuggler and the customs starfighter, round by round. Where the customs pilot rolls a
/// 6 the text does not roll the Rule-of-6 chain ("he doesn't need to"), and neither does the
/// engine (ruling S2): only one side shows a 6, so no chain die is drawn.
#[test]
fn smuggler_and_customs_starfighter() {
    {
        let smuggler =
            Fighter::vehicle("smuggler", "smugglers", true, 2, true, freighter()).unwrap();
        let customs =
            Fighter::vehicle("customs", "customs", false, 2, true, starfighter()).unwrap();
        let mut combat = Combat::new(vec![smuggler, customs], Mode::Standard);
        assert_eq!(combat.band(0, 1), RangeBand::Nearby);
        // The smuggler won the initiative and goes first.
        apply(&mut combat, Command::Order { order: vec![0, 1] }, &[]);

        // Round 1. The smuggler plots the jump and tries to pull away: 3 dice vs 5.
        apply(
            &mut combat,
            Command::Act {
                what: "calculate hyperspace jump".into(),
            },
            &[],
        );
        let events = apply(
            &mut combat,
            Command::Chase {
                target: 1,
                direction: Direction::Away,
            },
            &[2, 3, 5, 2, 3, 4, 4, 6],
        );
        assert_eq!(
            chase_roll(&events),
            (vec![2, 3, 5], vec![2, 3, 4, 4, 6], false)
        );
        let unchained = events.iter().any(|e| {
            matches!(e, Event::ChaseRoll { roll, .. }
                if roll.second.chain.is_empty() && roll.second.chain_not_needed)
        });
        assert!(unchained, "the customs pilot doesn't need to roll again");
        assert_eq!(
            combat.band(0, 1),
            RangeBand::Nearby,
            "the customs vessel is still nearby"
        );
        apply(&mut combat, Command::EndTurn, &[]);

        // The customs pilot closes in: smuggler 2, 2, 3 against 2, 2, 3, 4, 4.
        let events = apply(
            &mut combat,
            Command::Chase {
                target: 0,
                direction: Direction::Closer,
            },
            &[2, 2, 3, 4, 4, 2, 2, 3],
        );
        let (customs_dice, smuggler_dice, success) = chase_roll(&events);
        assert_eq!(
            (customs_dice, smuggler_dice, success),
            (vec![2, 2, 3, 4, 4], vec![2, 2, 3], true)
        );
        assert_eq!(combat.band(0, 1), RangeBand::Engaged);

        // And attacks: 4 dice (handling) against 3: 1, 2, 3, 3 against 3, 4, 5: a miss.
        let events = apply(
            &mut combat,
            Command::VehicleAttack { target: 0 },
            &[1, 2, 3, 3, 3, 4, 5],
        );
        let attack = events.iter().find_map(|e| match e {
            Event::VehicleAttack { roll, .. } => Some(roll),
            _ => None,
        });
        let attack = attack.unwrap();
        assert_eq!((attack.first.dice.len(), attack.second.dice.len()), (4, 3));
        assert_eq!(attack.verdict, Verdict::Lose);
        assert!(
            !events.iter().any(|e| matches!(e, Event::Damaged { .. })),
            "a lost vehicle attack is a miss"
        );
        let events = apply(&mut combat, Command::EndTurn, &[]);
        assert!(events.contains(&Event::RoundStarted { round: 2 }));

        // Round 2. The smuggler fires: 3, 3, 5 against 3, 5, 5, 5: a draw, the starfighter dodged.
        let events = apply(
            &mut combat,
            Command::VehicleAttack { target: 1 },
            &[3, 3, 5, 3, 5, 5, 5],
        );
        let draw = events.iter().any(
            |e| matches!(e, Event::VehicleAttack { roll, .. } if roll.verdict == Verdict::Draw),
        );
        assert!(draw);
        assert_eq!(combat.fighters()[1].hit_points, 2);
        // Then pulls away again, 3 dice against 5, and wins (dice not printed in the text).
        let events = apply(
            &mut combat,
            Command::Chase {
                target: 1,
                direction: Direction::Away,
            },
            &[5, 4, 1, 4, 3, 2, 2, 1],
        );
        assert!(chase_roll(&events).2);
        assert_eq!(combat.band(0, 1), RangeBand::Nearby, "out of weapons range");
    }
}

fn duel(first: Fighter, second: Fighter) -> Combat {
    let mut combat = Combat::new(vec![first, second], Mode::Standard);
    apply(&mut combat, Command::Order { order: vec![0, 1] }, &[]);
    combat
}

#[test]
fn melee_damage_goes_to_the_loser_even_the_attacker() {
    let mut combat = duel(
        fighter("hero", "a", true, 1, 2, 4, 2),
        fighter("brute", "b", false, 1, 3, 5, 3),
    );
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Closer,
        },
        &[],
    );
    // The attacker rolls 2, 1; the defender 4, 3, 1: the attacker loses and takes 3.
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[2, 1, 4, 3, 1]);
    assert!(events.contains(&Event::Damaged {
        fighter: 0,
        amount: 3,
        hit_points: 1,
        by: 1
    }));
    assert_eq!(combat.fighters()[1].hit_points, 5);
    // The action is spent; the turn passes; the brute attacks and loses: it takes 2.
    apply(&mut combat, Command::EndTurn, &[]);
    let events = apply(&mut combat, Command::Melee { target: 0 }, &[2, 2, 1, 5, 3]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 2,
        hit_points: 3,
        by: 0
    }));
    // A draw deals nothing.
    apply(&mut combat, Command::EndTurn, &[]);
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[4, 1, 4, 4, 2]);
    assert!(!events.iter().any(|e| matches!(e, Event::Damaged { .. })));
}

#[test]
fn melee_takes_a_fighter_out_and_ends_the_combat() {
    let mut combat = duel(
        fighter("hero", "a", true, 1, 2, 4, 2),
        fighter("rat", "b", false, 1, 1, 1, 1),
    );
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Closer,
        },
        &[],
    );
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 1, 2]);
    assert!(events.contains(&Event::Out { fighter: 1 }));
    assert!(events.contains(&Event::CombatOver {
        winner: Some("a".into())
    }));
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert_eq!(err, CombatError::Over);
}

fn shot_difficulty(events: &[Event]) -> Difficulty {
    events
        .iter()
        .find_map(|e| match e {
            Event::Shot { check, .. } => Some(check.spec.difficulty),
            _ => None,
        })
        .expect("a shot")
}

/// S5: engaged 6; nearby 4; nearby and engaged with an ally 6; far 5; far and engaged 7.
#[test]
fn each_ranged_difficulty() {
    let cases = [
        (RangeBand::Engaged, false, 6),
        (RangeBand::Nearby, false, 4),
        (RangeBand::Nearby, true, 6),
        (RangeBand::Far, false, 5),
        (RangeBand::Far, true, 7),
    ];
    for (band, ally_engaged, expected) in cases {
        let mut combat = Combat::new(
            vec![
                gunner("shooter", "a", 2, 2),
                fighter("ally", "a", true, 1, 2, 3, 1),
                fighter("target", "b", false, 1, 2, 3, 1),
            ],
            Mode::Standard,
        );
        apply(&mut combat, Command::Place { a: 0, b: 2, band }, &[]);
        if ally_engaged {
            apply(
                &mut combat,
                Command::Place {
                    a: 1,
                    b: 2,
                    band: RangeBand::Engaged,
                },
                &[],
            );
        }
        apply(
            &mut combat,
            Command::Order {
                order: vec![0, 1, 2],
            },
            &[],
        );
        // 6, 6 (and, only against 7, a chain of 1): passes every one of them.
        let dice: &[u32] = if expected > 6 { &[6, 6, 1] } else { &[6, 6] };
        let events = apply(&mut combat, Command::Shoot { target: 2 }, dice);
        assert_eq!(
            shot_difficulty(&events).value(),
            expected,
            "{band:?} ally {ally_engaged}"
        );
        assert!(events.contains(&Event::Damaged {
            fighter: 2,
            amount: 2,
            hit_points: 1,
            by: 0
        }));
    }
}

#[test]
fn a_missed_shot_costs_nothing() {
    let mut combat = duel(
        gunner("shooter", "a", 2, 2),
        fighter("target", "b", false, 1, 2, 3, 1),
    );
    let events = apply(&mut combat, Command::Shoot { target: 1 }, &[3, 2]);
    assert!(!events.iter().any(|e| matches!(e, Event::Damaged { .. })));
    assert_eq!(combat.fighters()[0].hit_points, 4);
}

#[test]
fn disengage_roll_and_second_move() {
    let mut combat = duel(
        fighter("hero", "a", true, 1, 2, 4, 1),
        fighter("orc", "b", false, 1, 2, 3, 2),
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    // Odd: the move is lost, still engaged.
    let events = apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Away,
        },
        &[3],
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Disengage {
            die: 3,
            success: false,
            as_action: false,
            ..
        }
    )));
    assert_eq!(combat.band(0, 1), RangeBand::Engaged);
    // The action spent as a second move: a second disengage roll, even, now nearby.
    let events = apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Away,
        },
        &[4],
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Disengage {
            die: 4,
            success: true,
            as_action: true,
            ..
        }
    )));
    assert_eq!(combat.band(0, 1), RangeBand::Nearby);
    // Nothing left this turn.
    let err = combat
        .apply(
            &Command::Move {
                target: 1,
                direction: Direction::Away,
            },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert!(matches!(err, CombatError::NothingLeft(_)));
}

#[test]
fn no_move_past_far_or_closer_than_engaged() {
    let mut combat = duel(
        fighter("hero", "a", true, 1, 2, 4, 1),
        fighter("orc", "b", false, 1, 2, 3, 2),
    );
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Away,
        },
        &[],
    );
    let err = combat
        .apply(
            &Command::Move {
                target: 1,
                direction: Direction::Away,
            },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "hero is already far from orc: no move goes farther"
    );
    let mut combat = duel(
        fighter("hero", "a", true, 1, 2, 4, 1),
        fighter("orc", "b", false, 1, 2, 3, 2),
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let err = combat
        .apply(
            &Command::Move {
                target: 1,
                direction: Direction::Closer,
            },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert!(matches!(err, CombatError::NoFurther(..)));
}

#[test]
fn no_attack_on_someone_who_is_out() {
    let mut combat = Combat::new(
        vec![
            fighter("hero", "a", true, 1, 2, 4, 1),
            fighter("orc 1", "b", false, 1, 2, 0, 2),
            fighter("orc 2", "b", false, 1, 2, 3, 2),
        ],
        Mode::Standard,
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    apply(
        &mut combat,
        Command::Order {
            order: vec![0, 1, 2],
        },
        &[],
    );
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert_eq!(err.to_string(), "orc 1 is out and cannot be attacked");
    // Out fighters lose their turns.
    apply(&mut combat, Command::EndTurn, &[]);
    assert_eq!(combat.acting(), Some(2));
}

#[test]
fn errors_leave_the_combat_unchanged_even_when_dice_run_out() {
    let mut combat = duel(
        fighter("hero", "a", true, 1, 2, 4, 1),
        fighter("orc", "b", false, 1, 2, 3, 2),
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut TypedDice::new([5, 2]))
        .unwrap_err();
    assert!(matches!(err, CombatError::Dice(_)));
    assert_eq!(combat.turn_used(), (false, false));
    apply(&mut combat, Command::Melee { target: 1 }, &[5, 2, 3, 1]);
}

#[test]
fn melee_needs_engagement_and_a_heavy_weapon_needs_body_3() {
    use solum_expanded::character::{Character, Class, Weapon};
    let mut osric = Character {
        schema: 1,
        name: "Osric".into(),
        body: 2,
        mind: 1,
        charm: 3,
        backgrounds: vec!["Seasoned Veteran".into()],
        unnamed_backgrounds: 0,
        hit_points: 3,
        weapons: vec![Weapon::melee("two-handed sword", Class::Heavy)],
        armor: None,
        gear: vec![],
        money: 0,
        notes: String::new(),
        advancement_points: 0,
        rest_minutes: 0,
    };
    let f = Fighter::hero(&osric, "heroes", true).unwrap();
    // Body 2 + background - 1 for the heavy weapon; it deals only 2.
    assert_eq!((f.melee().0.dice(), f.melee().1), (2, 2));
    osric.body = 3;
    osric.hit_points = 4;
    let f = Fighter::hero(&osric, "heroes", true).unwrap();
    assert_eq!((f.melee().0.dice(), f.melee().1), (4, 3));
    let mut combat = duel(f, fighter("orc", "b", false, 1, 2, 3, 2));
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "orc is near Osric, not engaged: move closer first"
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Far,
        },
        &[],
    );
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "orc is far from Osric, not engaged: move closer first"
    );
}

fn truck() -> Vehicle {
    Vehicle {
        name: "truck".into(),
        hull: 4,
        speed: Speed::Average,
        handling: Handling::Clumsy,
        damage: 2,
        scale: Scale::CarOrTruck,
    }
}

#[test]
fn a_pistol_against_a_truck_and_a_machine_gun() {
    let driver = Fighter::vehicle("truck", "b", false, 2, false, truck()).unwrap();
    let mut combat = duel(gunner("pistolero", "a", 3, 1), driver.clone());
    let events = apply(&mut combat, Command::Shoot { target: 1 }, &[5, 1, 1]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::NoEffect { fighter: 1, .. }))
    );
    assert_eq!(combat.fighters()[1].hit_points, 4);
    let mut combat = duel(gunner("gunner", "a", 3, 3), driver);
    let events = apply(&mut combat, Command::Shoot { target: 1 }, &[5, 1, 1]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 1,
        hit_points: 3,
        by: 0
    }));
}

#[test]
fn a_vehicle_weapon_takes_a_person_to_zero() {
    let tank = Vehicle {
        damage: 3,
        ..truck()
    };
    let mut combat = duel(
        Fighter::vehicle("tank", "a", true, 2, false, tank).unwrap(),
        fighter("soldier", "b", false, 1, 3, 6, 2),
    );
    // Only at engaged range.
    let err = combat
        .apply(&Command::Shoot { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert!(matches!(err, CombatError::NotEngaged { .. }));
    assert_eq!(
        err.to_string(),
        "soldier is near tank, not engaged: move closer first"
    );
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Closer,
        },
        &[],
    );
    // Against 6: a 6 hits, no chain die is drawn.
    let events = apply(&mut combat, Command::Shoot { target: 1 }, &[6, 3]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 6,
        hit_points: 0,
        by: 0
    }));
    assert!(events.contains(&Event::Out { fighter: 1 }));
}

#[test]
fn alternative_combat_has_no_ranges() {
    let mut combat = Combat::new(
        vec![
            fighter("hero", "a", true, 1, 2, 4, 2),
            fighter("orc", "b", false, 1, 2, 3, 2),
        ],
        Mode::Alternative,
    );
    apply(&mut combat, Command::Order { order: vec![0, 1] }, &[]);
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 1, 2, 2]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 2,
        hit_points: 1,
        by: 0
    }));
    let err = combat
        .apply(
            &Command::Move {
                target: 1,
                direction: Direction::Closer,
            },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert_eq!(err, CombatError::NoMovement);
}

#[test]
fn fast_static_combat_trooper_squad() {
    let squad = Bestiary::shipped()
        .static_foe("trooper squad")
        .unwrap()
        .clone();
    let mut fight = StaticCombat {
        pool: pool(3),
        difficulty: Difficulty::new(i64::from(squad.difficulty)).unwrap(),
        hit_points: 5,
        damage: 2,
        foe_hit_points: squad.hit_points,
        foe_damage: squad.damage,
    };
    // 4 or more hits the squad for 2; a failure costs the hero 2.
    let round = fight.round(&mut ScriptedDice::new([4, 1, 2])).unwrap();
    assert!(round.check.passed);
    assert_eq!((round.hit_points, round.foe_hit_points), (5, 3));
    let round = fight.round(&mut ScriptedDice::new([3, 1, 2])).unwrap();
    assert_eq!((round.hit_points, round.foe_hit_points), (3, 3));
    fight.round(&mut ScriptedDice::new([5, 5, 5])).unwrap();
    fight.round(&mut ScriptedDice::new([4, 4, 4])).unwrap();
    assert!(fight.is_over());
    assert_eq!(fight.foe_hit_points, 0);
}

#[test]
fn choices_show_exact_odds() {
    let mut combat = duel(
        gunner("shooter", "a", 3, 2),
        fighter("orc", "b", false, 1, 2, 3, 2),
    );
    let choices = combat.choices();
    let shoot = choices.iter().find(|c| c.action == "shoot").unwrap();
    // Nearby: 3 dice against 4.
    assert_eq!(shoot.p_success.clone().unwrap(), solum_dice::prob(7, 8));
    assert!(!choices.iter().any(|c| c.action == "melee"));
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Closer,
        },
        &[],
    );
    let choices = combat.choices();
    assert!(
        choices
            .iter()
            .any(|c| c.action == "melee" && c.odds.is_some())
    );
    assert!(choices.iter().any(|c| c.action == "disengage"));
}

/// A hero sheet with the given Body and Mind, one background, these weapons and armor.
fn sheet(
    body: u32,
    mind: u32,
    weapons: Vec<solum_expanded::character::Weapon>,
    armor: Option<solum_expanded::character::Class>,
) -> solum_expanded::character::Character {
    use solum_expanded::character::{Armor, Character};
    Character {
        schema: 1,
        name: "Hero".into(),
        body,
        mind,
        charm: 1,
        backgrounds: vec!["Veteran".into()],
        unnamed_backgrounds: 0,
        hit_points: 4,
        weapons,
        armor: armor.map(|class| Armor {
            name: "armor".into(),
            class,
        }),
        gear: vec![],
        money: 0,
        notes: String::new(),
        advancement_points: 0,
        rest_minutes: 0,
    }
}

fn initiative_dice(events: &[Event]) -> Vec<u32> {
    events
        .iter()
        .find_map(|e| match e {
            Event::InitiativeRoll { check, .. } => check.roll.as_ref().map(|r| r.dice.to_vec()),
            _ => None,
        })
        .expect("an initiative roll")
}

/// S1: armor too heavy costs a die on "any form of check", initiative included. Body 1,
/// Mind 3 in medium armor (which needs Body 2), with a background: 3 + 1 - 1 = 3 dice.
/// A heavy weapon costs a die only "for a check to attack with the weapon": not here.
#[test]
fn armor_too_heavy_costs_an_initiative_die_a_heavy_weapon_does_not() {
    use solum_expanded::character::{Class, Weapon};
    let hero = sheet(1, 3, vec![], Some(Class::Medium));
    let orc = fighter("orc", "foes", false, 1, 2, 3, 1);
    let mut combat = Combat::new(
        vec![Fighter::hero(&hero, "heroes", true).unwrap(), orc.clone()],
        Mode::Standard,
    );
    // Exactly three dice are drawn (the script must be used up, and a fourth would panic).
    let events = apply(&mut combat, Command::Initiative, &[3, 2, 1]);
    assert_eq!(initiative_dice(&events), [3, 2, 1]);
    assert_eq!(order_names(&combat), ["orc", "Hero"], "3 < 4 fails");

    // Body 2 with a heavy weapon and no armor: Mind 2 + background = 3 dice.
    let hero = sheet(2, 2, vec![Weapon::melee("maul", Class::Heavy)], None);
    let f = Fighter::hero(&hero, "heroes", true).unwrap();
    assert_eq!(
        f.melee().0.dice(),
        2,
        "the attack pays for the heavy weapon"
    );
    let mut combat = Combat::new(vec![f, orc], Mode::Standard);
    let events = apply(&mut combat, Command::Initiative, &[4, 1, 1]);
    assert_eq!(initiative_dice(&events), [4, 1, 1]);
    assert_eq!(order_names(&combat), ["Hero", "orc"]);
}

/// S5: while the shooter is engaged with any hostile, every shot is against 6, or the
/// target's own difficulty where it is higher (7).
#[test]
fn shooting_while_engaged_is_against_6_whoever_the_target_is() {
    let setup = || {
        let mut combat = Combat::new(
            vec![
                gunner("shooter", "a", 2, 2),
                fighter("ally", "a", true, 1, 2, 3, 1),
                fighter("orc 1", "b", false, 1, 2, 3, 1),
                fighter("orc 2", "b", false, 1, 2, 3, 1),
            ],
            Mode::Standard,
        );
        let engaged = RangeBand::Engaged;
        apply(
            &mut combat,
            Command::Place {
                a: 0,
                b: 2,
                band: engaged,
            },
            &[],
        );
        apply(
            &mut combat,
            Command::Order {
                order: vec![0, 1, 2, 3],
            },
            &[],
        );
        combat
    };
    // orc 2 is nearby: 4 when free; engaged with orc 1, 6. A 5 now misses.
    let mut combat = setup();
    let shoot = combat.choices();
    let shoot = shoot
        .iter()
        .find(|c| c.action == "shoot" && c.target == Some(3))
        .unwrap();
    // Two dice against 6: at least one 6, 1 - (5/6)^2 = 11/36 (4 would be 3/4).
    assert_eq!(shoot.p_success.clone().unwrap(), solum_dice::prob(11, 36));
    let events = apply(&mut combat, Command::Shoot { target: 3 }, &[5, 4]);
    assert_eq!(shot_difficulty(&events).value(), 6);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Shot { shooter_engaged: true, check, .. } if !check.passed
    )));
    assert_eq!(combat.fighters()[3].hit_points, 3);

    // orc 2 far and engaged with the ally: its own difficulty, 7, stays.
    let mut combat = setup();
    combat
        .apply(
            &Command::Place {
                a: 0,
                b: 3,
                band: RangeBand::Far,
            },
            &mut ScriptedDice::new([]),
        )
        .unwrap();
    combat
        .apply(
            &Command::Place {
                a: 1,
                b: 3,
                band: RangeBand::Engaged,
            },
            &mut ScriptedDice::new([]),
        )
        .unwrap();
    let events = apply(&mut combat, Command::Shoot { target: 3 }, &[5, 4]);
    assert_eq!(shot_difficulty(&events).value(), 7);

    // An engaged foe who is out holds nobody: back to 4, and a 5 hits.
    let mut combat = setup();
    let mut fighters = combat.fighters().to_vec();
    fighters[2].hit_points = 0;
    combat = Combat::new(fighters, Mode::Standard);
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 2,
            band: RangeBand::Engaged,
        },
        &[],
    );
    apply(
        &mut combat,
        Command::Order {
            order: vec![0, 1, 2, 3],
        },
        &[],
    );
    let events = apply(&mut combat, Command::Shoot { target: 3 }, &[5, 4]);
    assert_eq!(shot_difficulty(&events).value(), 4);
    assert_eq!(combat.fighters()[3].hit_points, 1);
}

fn disengage(events: &[Event]) -> (Vec<usize>, u32, bool) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Disengage {
                targets,
                die,
                success,
                ..
            } => Some((targets.clone(), *die, *success)),
            _ => None,
        })
        .expect("a disengage roll")
}

/// S7: engaged with any hostile, every move starts with one disengage d6 for all of them:
/// odd, the move is lost; even, it is nearby each of them and that was the move. Moves
/// between allies need no roll.
#[test]
fn every_move_while_engaged_starts_with_one_disengage_roll() {
    let mut combat = Combat::new(
        vec![
            fighter("hero", "a", true, 1, 2, 4, 1),
            fighter("orc 1", "b", false, 1, 2, 3, 1),
            fighter("orc 2", "b", false, 1, 2, 3, 1),
            fighter("orc 3", "b", false, 1, 2, 3, 1),
            fighter("friend", "a", true, 1, 2, 3, 1),
        ],
        Mode::Standard,
    );
    let engaged = RangeBand::Engaged;
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: engaged,
        },
        &[],
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 2,
            band: engaged,
        },
        &[],
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 4,
            band: engaged,
        },
        &[],
    );
    apply(
        &mut combat,
        Command::Order {
            order: vec![0, 1, 2, 3, 4],
        },
        &[],
    );
    // Away from orc 3, who holds nobody: one roll for orc 1 and orc 2; a 3 loses the move.
    let away = Command::Move {
        target: 3,
        direction: Direction::Away,
    };
    let events = apply(&mut combat, away, &[3]);
    assert_eq!(disengage(&events), (vec![1, 2], 3, false));
    assert_eq!(combat.band(0, 3), RangeBand::Nearby);
    assert_eq!(combat.turn_used(), (true, false));
    // Closer to orc 3 as the second move: a 4 frees it from both; orc 3 stays nearby.
    let closer = Command::Move {
        target: 3,
        direction: Direction::Closer,
    };
    let events = apply(&mut combat, closer, &[4]);
    assert_eq!(disengage(&events), (vec![1, 2], 4, true));
    assert_eq!(
        [1, 2, 3, 4].map(|i| combat.band(0, i)),
        [
            RangeBand::Nearby,
            RangeBand::Nearby,
            RangeBand::Nearby,
            RangeBand::Engaged
        ]
    );
    assert_eq!(combat.turn_used(), (true, true));
    // Next round: engaged only with a friend, moving away needs no roll.
    for _ in 0..5 {
        apply(&mut combat, Command::EndTurn, &[]);
    }
    assert_eq!(combat.acting(), Some(0));
    let events = apply(
        &mut combat,
        Command::Move {
            target: 4,
            direction: Direction::Away,
        },
        &[],
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Disengage { .. })));
    assert_eq!(combat.band(0, 4), RangeBand::Nearby);
}

/// S13: at the start a fighter holds the weapon that serves it best: highest damage after
/// the Body rule, a medium weapon before a heavy one that costs a die, then the first
/// listed; the order of the list decides nothing else.
#[test]
fn the_best_weapon_is_in_hand_whatever_the_list_order() {
    use solum_expanded::character::{Class, Weapon};
    let sword = Weapon::melee("sword", Class::Medium);
    let axe = Weapon::melee("greataxe", Class::Heavy);
    for weapons in [
        vec![sword.clone(), axe.clone()],
        vec![axe.clone(), sword.clone()],
    ] {
        // Body 2: the axe deals 2 and costs a die, the sword deals 2 with Body 2 + 1 dice.
        let f = Fighter::hero(&sheet(2, 2, weapons.clone(), None), "heroes", true).unwrap();
        assert_eq!(f.held_name(), "sword");
        assert_eq!((f.melee().0.dice(), f.melee().1), (3, 2));
        // Body 3: the axe deals 3 with no penalty.
        let f = Fighter::hero(&sheet(3, 2, weapons, None), "heroes", true).unwrap();
        assert_eq!(f.held_name(), "greataxe");
        assert_eq!((f.melee().0.dice(), f.melee().1), (4, 3));
    }
    // Equal choices: the first listed.
    let club = Weapon::melee("club", Class::Medium);
    let f = Fighter::hero(&sheet(2, 2, vec![club, sword], None), "heroes", true).unwrap();
    assert_eq!(f.held_name(), "club");
    // A named weapon is held instead; bare hands have no weapon.
    let mut f = Fighter::hero(&sheet(2, 2, vec![axe], None), "heroes", true).unwrap();
    assert!(f.hold("unarmed"));
    assert_eq!((f.held_name(), f.melee().1), ("unarmed", 1));
    assert!(!f.hold("bow"));
}

/// S13: changing weapons is the action; a ranged weapon used in melee and an unarmed
/// strike deal 1.
#[test]
fn switching_weapons_takes_the_action_and_improvised_blows_deal_1() {
    // The hero carries a club (3 damage) and a rifle (2) and holds the rifle.
    let mut hero = Fighter::plain("hero", "a", true, pool(2), 3, Some(2), 9);
    hero.held = Some(1);
    let mut combat = duel(hero, fighter("orc", "b", false, 1, 2, 9, 2));
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    // Melee with the rifle in hand: 5 4 against 3 2, a win for 1.
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 4, 3, 2]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 1,
        hit_points: 8,
        by: 0
    }));
    apply(&mut combat, Command::EndTurn, &[]);
    apply(&mut combat, Command::EndTurn, &[]);
    // Switching to the club is the action: no attack after it this turn.
    let events = apply(&mut combat, Command::Switch { weapon: Some(0) }, &[]);
    assert!(events.contains(&Event::Switched {
        fighter: 0,
        weapon: "weapon".into()
    }));
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert!(matches!(err, CombatError::ActionUsed(_)));
    assert_eq!(
        combat
            .apply(&Command::Shoot { target: 1 }, &mut ScriptedDice::new([]))
            .unwrap_err()
            .to_string(),
        "hero has already used the action this turn"
    );
    apply(&mut combat, Command::EndTurn, &[]);
    apply(&mut combat, Command::EndTurn, &[]);
    // The club deals 3; it cannot shoot.
    let err = combat
        .apply(&Command::Shoot { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert!(matches!(err, CombatError::NotHoldingRanged(..)));
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 4, 3, 2]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 3,
        hit_points: 5,
        by: 0
    }));
    apply(&mut combat, Command::EndTurn, &[]);
    apply(&mut combat, Command::EndTurn, &[]);
    // An unarmed strike with the club in hand: 1.
    let events = apply(&mut combat, Command::Unarmed { target: 1 }, &[5, 4, 3, 2]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 1,
        hit_points: 4,
        by: 0
    }));
    // A weapon it does not carry.
    apply(&mut combat, Command::EndTurn, &[]);
    apply(&mut combat, Command::EndTurn, &[]);
    let err = combat
        .apply(
            &Command::Switch { weapon: Some(5) },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert!(matches!(err, CombatError::UnknownWeapon(_, 5)));
}

/// A defender holding a ranged weapon who wins the exchange deals 1, not its gun's damage.
#[test]
fn a_defender_with_a_gun_in_hand_strikes_back_for_1() {
    let mut shooter = Fighter::plain("shooter", "b", false, pool(2), 1, Some(3), 5);
    shooter.held = Some(1);
    let mut combat = duel(fighter("hero", "a", true, 1, 2, 5, 2), shooter);
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[2, 1, 4, 3]);
    assert!(events.contains(&Event::Damaged {
        fighter: 0,
        amount: 1,
        hit_points: 4,
        by: 1
    }));
}

fn truck_driver(name: &str, side: &str) -> Fighter {
    Fighter::vehicle(name, side, side == "a", 2, false, truck()).unwrap()
}

/// S14: with the roll-off option a drawn melee exchange, vehicle attack or chase is rolled
/// off, one die each (first side first) until one is higher; without it the draw stands.
#[test]
fn roll_off_settles_draws_in_melee_vehicle_attacks_and_chases() {
    use solum_expanded::check::DrawRule;
    let melee = |draws| {
        let mut combat = duel(
            fighter("hero", "a", true, 1, 2, 4, 2),
            fighter("orc", "b", false, 1, 2, 3, 1),
        );
        combat.set_draws(draws);
        apply(
            &mut combat,
            Command::Place {
                a: 0,
                b: 1,
                band: RangeBand::Engaged,
            },
            &[],
        );
        combat
    };
    // 5 4 against 5 3: a draw that stands.
    let mut combat = melee(DrawRule::Stand);
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 4, 5, 3]);
    assert!(!events.iter().any(|e| matches!(e, Event::Damaged { .. })));
    // Rolled off: 2:2 again, then 4:1, the hero wins and deals 2.
    let mut combat = melee(DrawRule::RollOff);
    let events = apply(
        &mut combat,
        Command::Melee { target: 1 },
        &[5, 4, 5, 3, 2, 2, 4, 1],
    );
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 2,
        hit_points: 1,
        by: 0
    }));

    // Vehicles: two trucks, 2 dice each. A drawn attack rolled off 1:3 is lost (a miss);
    // a drawn chase away rolled off 3:1 is won.
    let trucks = || {
        let mut combat = duel(truck_driver("red", "a"), truck_driver("blue", "b"));
        combat.set_draws(DrawRule::RollOff);
        combat
    };
    let mut combat = trucks();
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let events = apply(
        &mut combat,
        Command::VehicleAttack { target: 1 },
        &[5, 4, 5, 3, 1, 3],
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::VehicleAttack { roll, .. } if roll.verdict == Verdict::Lose && roll.roll_off == [(1, 3)]
    )));
    assert_eq!(combat.fighters()[1].hit_points, 4);
    let mut combat = trucks();
    let chase = Command::Chase {
        target: 1,
        direction: Direction::Away,
    };
    let events = apply(&mut combat, chase, &[5, 4, 5, 3, 3, 1]);
    assert!(chase_roll(&events).2);
    assert_eq!(combat.band(0, 1), RangeBand::Far);
}

/// S14 in the odds: with the roll-off option a draw becomes a roll-off that each side wins
/// with probability 1/2, so the options show no draw. Checked against exhaustive
/// enumeration of the state machine's own melee exchange (2 dice against 1).
#[test]
fn choices_with_roll_off_match_the_enumerated_exchange() {
    use num_traits::Zero;
    use solum_dice::{Prob, enumerate, prob_to_f64};
    use solum_expanded::check::DrawRule;
    let engaged_duel = |draws| {
        let mut combat = duel(
            fighter("hero", "a", true, 1, 2, 9, 1),
            fighter("orc", "b", false, 1, 1, 9, 1),
        );
        combat.set_draws(draws);
        combat
            .apply(
                &Command::Place {
                    a: 0,
                    b: 1,
                    band: RangeBand::Engaged,
                },
                &mut ScriptedDice::new([]),
            )
            .unwrap();
        combat
    };
    let exchange = |combat: &Combat| {
        enumerate(12, |dice| {
            let mut c = combat.clone();
            c.apply(&Command::Melee { target: 1 }, dice).map(|events| {
                events.iter().find_map(|e| match e {
                    Event::Melee { roll, .. } => Some(roll.verdict),
                    _ => None,
                })
            })
        })
        .unwrap()
    };
    let rolled_off = engaged_duel(DrawRule::RollOff);
    let odds = rolled_off.choices()[0].odds.clone().unwrap();
    assert_eq!(rolled_off.choices()[0].action, "melee");
    assert!(odds.draw.is_zero());
    let e = exchange(&rolled_off);
    assert!(
        prob_to_f64(&e.truncated) < 1e-3,
        "deep enough: {}",
        prob_to_f64(&e.truncated)
    );
    let win = e.p(|v| *v == Some(Verdict::Win));
    let lose = e.p(|v| *v == Some(Verdict::Lose));
    assert!(e.p(|v| *v == Some(Verdict::Draw)).is_zero());
    // The enumeration misses only the truncated paths.
    for (exact, seen) in [(&odds.win, &win), (&odds.lose, &lose)] {
        let gap: Prob = exact - seen;
        assert!(
            gap >= Prob::zero() && gap <= e.truncated,
            "{exact} vs {seen}"
        );
    }
    // And against the draw standing: the draws are shared half and half.
    let standing = engaged_duel(DrawRule::Stand);
    let s = exchange(&standing);
    let draw = s.p(|v| *v == Some(Verdict::Draw));
    let half: Prob = &draw / solum_dice::prob(2, 1);
    let expected: Prob = s.p(|v| *v == Some(Verdict::Win)) + half;
    let gap: Prob = &odds.win - &expected;
    assert!(prob_to_f64(&gap).abs() <= prob_to_f64(&(&s.truncated + &e.truncated)));
}

/// S15: alternative combat needs no initiative: no die is rolled and combatants act side by
/// side in the order listed, an NPC ally in the heroes' segment; the GM may set an order.
#[test]
fn alternative_combat_starts_in_listed_order_without_a_roll() {
    let fighters = vec![
        fighter("Nick", "heroes", true, 2, 3, 5, 1),
        fighter("orc 1", "orcs", false, 3, 2, 3, 1),
        fighter("Osric", "heroes", true, 1, 2, 5, 2),
        fighter("guide", "heroes", false, 4, 2, 3, 1),
        fighter("orc 2", "orcs", false, 1, 2, 3, 1),
    ];
    let mut combat = Combat::new(fighters.clone(), Mode::Alternative);
    let events = apply(&mut combat, Command::Initiative, &[]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::InitiativeRoll { .. }))
    );
    assert_eq!(
        order_names(&combat),
        ["Nick", "Osric", "guide", "orc 1", "orc 2"]
    );
    // The GM's order stands as given.
    let mut combat = Combat::new(fighters.clone(), Mode::Alternative);
    apply(
        &mut combat,
        Command::Order {
            order: vec![4, 3, 2, 1, 0],
        },
        &[],
    );
    assert_eq!(
        order_names(&combat),
        ["orc 2", "guide", "Osric", "orc 1", "Nick"]
    );
    // An ambushing side acts first, by Mind high to low; then the others as listed.
    for mode in [Mode::Alternative, Mode::Standard] {
        let mut combat = Combat::new(fighters.clone(), mode);
        apply(
            &mut combat,
            Command::Ambush {
                side: "heroes".into(),
            },
            &[],
        );
        assert_eq!(
            order_names(&combat),
            ["guide", "Nick", "Osric", "orc 1", "orc 2"]
        );
        let mut combat = Combat::new(fighters.clone(), mode);
        apply(
            &mut combat,
            Command::Ambush {
                side: "orcs".into(),
            },
            &[],
        );
        assert_eq!(
            order_names(&combat),
            ["orc 1", "orc 2", "Nick", "Osric", "guide"]
        );
    }
}

/// The chance that `n` dice pass `d` (2..=7), counted by hand: below 7 at least one die
/// reaches `d`; at 7 a 6 must show, and any chain die then makes 7 or more.
fn p_round(n: u32, d: u32) -> solum_dice::Prob {
    use solum_dice::prob;
    let miss = |fail_faces: i64| -> solum_dice::Prob {
        (0..n).fold(prob(1, 1), |acc, _| acc * prob(fail_faces, 6))
    };
    match d {
        2..=6 => prob(1, 1) - miss(i64::from(d) - 1),
        7 => prob(1, 1) - miss(5),
        _ => unreachable!("cases stay at 7 or below"),
    }
}

/// The hero's chance to win fast static combat, by recursion over both sides' hit points.
fn static_win(
    p: &solum_dice::Prob,
    hp: u32,
    dmg: u32,
    foe_hp: u32,
    foe_dmg: u32,
) -> solum_dice::Prob {
    use solum_dice::prob;
    if foe_hp == 0 {
        return prob(1, 1);
    }
    if hp == 0 {
        return prob(0, 1);
    }
    let win = static_win(p, hp, dmg, foe_hp.saturating_sub(dmg), foe_dmg);
    let lose = static_win(p, hp.saturating_sub(foe_dmg), dmg, foe_hp, foe_dmg);
    p * win + (prob(1, 1) - p) * lose
}

/// S11: `StaticCombat::round`, played to the end, against `static_odds` and an independent
/// recursion: exactly (recursion), by enumerating every die the rounds draw (small cases),
/// and by seeded simulation within 4 standard errors.
#[test]
fn fast_static_combat_rounds_match_the_exact_odds() {
    use solum_dice::{Prob, SeededDice, enumerate, prob_to_f64};
    use solum_expanded::fight::{StaticSpec, static_odds};
    // pool, difficulty, hit points, damage, foe hit points, foe damage
    let cases = [
        (1, 4, 2, 1, 2, 1),
        (2, 7, 1, 2, 4, 2),
        (2, 5, 2, 1, 2, 1),
        (1, 2, 3, 1, 3, 2),
    ];
    for (n, d, hp, dmg, foe_hp, foe_dmg) in cases {
        let fight = StaticCombat {
            pool: pool(n),
            difficulty: Difficulty::new(i64::from(d)).unwrap(),
            hit_points: hp,
            damage: dmg,
            foe_hit_points: foe_hp,
            foe_damage: foe_dmg,
        };
        let expected = static_win(&p_round(n as u32, d), hp, dmg, foe_hp, foe_dmg);
        let exact = static_odds(&StaticSpec {
            pool: fight.pool,
            difficulty: fight.difficulty,
            hit_points: hp,
            damage: dmg,
            foe_hit_points: foe_hp,
            foe_damage: foe_dmg,
        })
        .unwrap()
        .win;
        assert_eq!(
            exact, expected,
            "static_odds, case {n} {d} {hp} {dmg} {foe_hp} {foe_dmg}"
        );

        let play = |dice: &mut dyn solum_dice::DiceSource| {
            let mut f = fight.clone();
            while !f.is_over() {
                f.round(dice)?;
            }
            Ok::<bool, CombatError>(f.foe_hit_points == 0)
        };
        let e = enumerate(12, play).unwrap();
        let won = e.p(|w| *w);
        let gap: Prob = &expected - &won;
        assert!(
            prob_to_f64(&gap) >= 0.0 && gap <= e.truncated && prob_to_f64(&e.truncated) < 1e-3,
            "enumerated {} vs {} (truncated {})",
            prob_to_f64(&won),
            prob_to_f64(&expected),
            prob_to_f64(&e.truncated)
        );

        let mut dice = SeededDice::new(2026 + u64::from(d));
        let fights = 40_000;
        let wins = (0..fights).filter(|_| play(&mut dice).unwrap()).count();
        let rate = wins as f64 / fights as f64;
        let p = prob_to_f64(&expected);
        let se = (p * (1.0 - p) / fights as f64).sqrt();
        assert!((rate - p).abs() < 4.0 * se, "simulated {rate} vs {p}");
    }
}

/// Alternative combat (S11): "the loser takes damage according to the weapon used by the
/// winner", so a gun in hand deals its damage there; in standard melee it deals 1 (S13).
#[test]
fn a_gun_in_alternative_combat_deals_its_damage() {
    let gunman = || {
        let mut f = Fighter::plain("gunman", "a", true, pool(2), 1, Some(3), 5);
        f.held = Some(1);
        f
    };
    let mut combat = Combat::new(
        vec![gunman(), fighter("orc", "b", false, 1, 2, 9, 1)],
        Mode::Alternative,
    );
    apply(&mut combat, Command::Initiative, &[]);
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 4, 3, 2]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 3,
        hit_points: 6,
        by: 0
    }));
    let mut combat = duel(gunman(), fighter("orc", "b", false, 1, 2, 9, 1));
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let events = apply(&mut combat, Command::Melee { target: 1 }, &[5, 4, 3, 2]);
    assert!(events.contains(&Event::Damaged {
        fighter: 1,
        amount: 1,
        hit_points: 8,
        by: 0
    }));
    // A vehicle has no weapons to change.
    let mut combat = duel(truck_driver("red", "a"), truck_driver("blue", "b"));
    let err = combat
        .apply(
            &Command::Switch { weapon: None },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert!(matches!(err, CombatError::WrongAttack(_)));
}

/// `switch` and `hold=` take the same words: "melee" and "ranged" name the best carried
/// weapon of that kind (S13's order: damage, then dice, first listed on a tie); a weapon's
/// own name comes first.
#[test]
fn melee_and_ranged_name_the_best_weapon_of_that_kind() {
    use solum_expanded::combat::Armament;
    let arm = |name: &str, dice: u64, damage: u32, ranged: bool| Armament {
        name: name.into(),
        pool: pool(dice),
        bg_pool: pool(dice),
        damage,
        ranged,
        anti_vehicle: false,
    };
    let mut f = Fighter::plain("Osric", "heroes", true, pool(2), 1, None, 4);
    f.weapons = vec![
        arm("bow", 2, 2, true),
        arm("dagger", 2, 1, false),
        arm("sword", 2, 2, false),
        arm("axe", 1, 2, false),
        arm("rifle", 2, 3, true),
    ];
    assert_eq!(f.weapon_index("melee"), Some(Some(2)));
    assert_eq!(f.weapon_index("MELEE"), Some(Some(2)));
    assert_eq!(f.weapon_index("ranged"), Some(Some(4)));
    assert_eq!(f.weapon_index("dagger"), Some(Some(1)));
    assert_eq!(f.weapon_index("unarmed"), Some(None));
    assert_eq!(f.weapon_index("spear"), None);
    // A weapon called "ranged" (an inline fighter's) is named before the word.
    let mut g = Fighter::plain("A", "heroes", true, pool(2), 3, Some(2), 4);
    assert_eq!(g.weapon_index("ranged"), Some(Some(1)));
    assert_eq!(g.weapon_index("melee"), Some(Some(0)));
    // No weapon of that kind: nothing.
    f.weapons.retain(|w| !w.ranged);
    assert_eq!(f.weapon_index("ranged"), None);
    assert!(g.hold("ranged") && g.held == Some(1));
    assert!(g.hold("melee") && g.held == Some(0));
}

/// An attack out of reach is refused in plain words, naming the way to close in: two
/// vehicles chase, anyone else moves.
#[test]
fn vehicles_out_of_reach_are_told_to_chase_closer() {
    let mut combat = duel(
        Fighter::vehicle("tank", "a", true, 2, false, truck()).unwrap(),
        Fighter::vehicle("lorry", "b", false, 2, false, truck()).unwrap(),
    );
    let err = combat
        .apply(
            &Command::VehicleAttack { target: 1 },
            &mut ScriptedDice::new([]),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "lorry is near tank, not engaged: chase closer first"
    );
}

/// A fighter out of reach holding its melee weapon but carrying a ranged one is told it may
/// switch (the action, S13) to shoot; not once engaged, holding it, or in alternative combat.
#[test]
fn switching_to_shoot_is_offered_out_of_reach() {
    let mut archer = Fighter::plain("A", "a", true, pool(2), 3, Some(2), 5);
    assert!(archer.hold("melee"));
    let orc = fighter("orc", "b", false, 1, 2, 9, 1);
    let mut combat = duel(archer.clone(), orc.clone());
    assert_eq!(combat.band(0, 1), RangeBand::Nearby);
    assert!(
        !combat
            .choices()
            .iter()
            .any(|c| matches!(c.action, "melee" | "unarmed" | "shoot")),
        "no melee, no shot from here"
    );
    assert_eq!(combat.switch_to_shoot(), Some("ranged"));
    let events = apply(&mut combat, Command::Switch { weapon: Some(1) }, &[]);
    assert!(events.iter().any(|e| matches!(e, Event::Switched { .. })));
    assert_eq!(combat.switch_to_shoot(), None, "it holds it now");
    // Engaged: no target out of reach.
    let mut engaged = duel(archer.clone(), orc.clone());
    apply(
        &mut engaged,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    assert_eq!(engaged.switch_to_shoot(), None);
    // Alternative combat has no shots.
    let mut alt = Combat::new(vec![archer.clone(), orc.clone()], Mode::Alternative);
    apply(&mut alt, Command::Order { order: vec![0, 1] }, &[]);
    assert_eq!(alt.switch_to_shoot(), None);
    // No ranged weapon carried: nothing to switch to.
    archer.weapons.retain(|w| !w.ranged);
    assert_eq!(duel(archer, orc).switch_to_shoot(), None);
}

/// Issue 22: the options list only what is legal now. Engaged with an orc, A may attack,
/// disengage or end the turn; once the melee has spent the action, no attack is offered
/// (only the move: a disengage); once the disengage has spent the move, nothing but the end
/// of the turn.
#[test]
fn no_attack_is_offered_once_the_action_is_spent() {
    let mut combat = duel(
        fighter("A", "a", true, 1, 2, 5, 2),
        fighter("orc", "b", false, 1, 1, 5, 1),
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let actions =
        |c: &Combat| -> Vec<&'static str> { c.choices().iter().map(|c| c.action).collect() };
    assert!(actions(&combat).contains(&"melee"));
    assert!(actions(&combat).contains(&"disengage"));
    // A rolls 5, 3 against the orc's 2: the orc takes 2. The action is spent.
    apply(&mut combat, Command::Melee { target: 1 }, &[5, 3, 2]);
    let after_melee = actions(&combat);
    for attack in ["melee", "unarmed", "shoot"] {
        assert!(
            !after_melee.contains(&attack),
            "{attack} offered after the action is spent: {after_melee:?}"
        );
    }
    assert!(after_melee.contains(&"disengage"), "{after_melee:?}");
    // The disengage roll, 4: free, and that was the move. Nothing is left to roll.
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Away,
        },
        &[4],
    );
    let after_move = actions(&combat);
    for spent in [
        "melee",
        "unarmed",
        "shoot",
        "disengage",
        "move closer",
        "move away",
    ] {
        assert!(!after_move.contains(&spent), "{spent}: {after_move:?}");
    }
}

/// The whole turn, option by option, with the exact odds written by hand. A: 2 dice, a
/// 2-damage weapon in hand; the orc: 1 die. 2d6 against 1d6 (S2: a 6 on both sides chains,
/// the chains draw with 1/7, else each side wins 3/7): win 125/216 + 11/216·3/7 = 227/378,
/// draw 25/216 + 11/216·1/7 = 31/252, lose 55/216 + 11/216·3/7 = 209/756.
#[test]
fn options_are_enumerated_turn_by_turn_with_exact_odds() {
    use solum_dice::prob;
    let mut combat = duel(
        fighter("A", "a", true, 1, 2, 5, 2),
        fighter("orc", "b", false, 1, 1, 5, 1),
    );
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let listed = |c: &Combat| -> Vec<(&'static str, Option<usize>, Option<String>, bool)> {
        c.choices()
            .iter()
            .map(|c| (c.action, c.target, c.weapon.clone(), c.uses_action))
            .collect()
    };
    assert_eq!(
        listed(&combat),
        vec![
            ("melee", Some(1), None, true),
            // Bare hands: the same 2 dice, 1 damage.
            ("unarmed", Some(1), None, true),
            ("disengage", Some(1), None, false),
            ("switch", None, Some("unarmed".to_owned()), true),
            ("end turn", None, None, false),
        ]
    );
    let melee = combat.choices()[0].odds.clone().unwrap();
    assert_eq!(
        (melee.win, melee.draw, melee.lose),
        (prob(227, 378), prob(31, 252), prob(209, 756))
    );
    assert_eq!(combat.choices()[2].p_success, Some(prob(1, 2)));
    // The disengage fails (3): the move is spent; the action is left, so a second
    // disengage uses it (S7), and so would an attack.
    apply(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Away,
        },
        &[3],
    );
    assert_eq!(
        listed(&combat),
        vec![
            ("melee", Some(1), None, true),
            ("unarmed", Some(1), None, true),
            ("disengage", Some(1), None, true),
            ("switch", None, Some("unarmed".to_owned()), true),
            ("end turn", None, None, false),
        ]
    );
    // The melee spends the action: only the end of the turn is left.
    apply(&mut combat, Command::Melee { target: 1 }, &[5, 3, 2]);
    assert_eq!(listed(&combat), vec![("end turn", None, None, false)]);
    // Nearby and not engaged, on a fresh turn: plain moves, no roll, certain.
    apply(&mut combat, Command::EndTurn, &[]);
    apply(&mut combat, Command::EndTurn, &[]);
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Nearby,
        },
        &[],
    );
    assert_eq!(
        listed(&combat),
        vec![
            ("move closer", Some(1), None, false),
            ("move away", Some(1), None, false),
            ("switch", None, Some("unarmed".to_owned()), true),
            ("end turn", None, None, false),
        ]
    );
    assert!(
        combat
            .choices()
            .iter()
            .all(|c| c.p_success == Some(prob(1, 1)))
    );
}

/// A hero of Body 2 and Mind 2 with the background "Veteran", a bow, and no armor.
fn veteran_archer() -> Fighter {
    use solum_expanded::character::{Class, Weapon};
    let bow = Weapon {
        name: "bow".into(),
        class: Class::Light,
        ranged: true,
        anti_vehicle: false,
    };
    Fighter::hero(&sheet(2, 2, vec![bow], None), "heroes", false).unwrap()
}

fn scripted(
    combat: &mut Combat,
    command: Command,
    bgs: &[(usize, &str)],
    dice: &[u32],
) -> Vec<Event> {
    let bgs = RollBackgrounds(bgs.iter().map(|(f, b)| (*f, (*b).to_owned())).collect());
    let mut script = ScriptedDice::new(dice);
    let events = combat.apply_chosen(&command, &bgs, &mut script).unwrap();
    assert!(script.is_exhausted(), "{command:?} left dice unused");
    events
}

/// S18: each roll names one of the roller's backgrounds, or none (the default), and the
/// pool follows: Body 2 + a background = 3 dice, without = 2; Mind 2 for initiative.
#[test]
fn a_background_is_named_per_roll_not_per_fight() {
    use solum_dice::prob;
    let orc = || fighter("orc", "b", false, 1, 1, 9, 1);
    // Initiative: Mind 2 + Veteran = 3 dice against 4: 1, 2, 4 passes.
    let mut combat = Combat::new(vec![veteran_archer(), orc()], Mode::Standard);
    let events = scripted(
        &mut combat,
        Command::Initiative,
        &[(0, "veteran")],
        &[1, 2, 4],
    );
    assert!(events.iter().any(|e| matches!(e,
        Event::InitiativeRoll { check, background: Some(b), .. } if check.passed && b == "Veteran")));
    // Without: 2 dice, 1, 2 fails.
    let mut combat = Combat::new(vec![veteran_archer(), orc()], Mode::Standard);
    let events = apply(&mut combat, Command::Initiative, &[1, 2]);
    assert!(events.iter().any(|e| matches!(e,
        Event::InitiativeRoll { check, background: None, .. } if !check.passed)));

    // A shot at the nearby orc, against 4 (S5): 3 dice with the background (7/8), 2 without
    // (3/4); the options list both.
    let mut combat = duel(veteran_archer(), orc());
    let shots: Vec<(Option<String>, Option<solum_dice::Prob>)> = combat
        .choices()
        .iter()
        .filter(|c| c.action == "shoot")
        .map(|c| (c.background.clone(), c.p_success.clone()))
        .collect();
    assert_eq!(
        shots,
        vec![
            (None, Some(prob(3, 4))),
            (Some("Veteran".into()), Some(prob(7, 8)))
        ]
    );
    let events = scripted(
        &mut combat,
        Command::Shoot { target: 1 },
        &[(0, "Veteran")],
        &[1, 2, 4],
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Shot { check, .. } if check.passed))
    );
    // The next roll of the same fight names none: 2 dice, 1, 2 misses.
    apply(&mut combat, Command::EndTurn, &[]);
    apply(&mut combat, Command::EndTurn, &[]);
    let events = apply(&mut combat, Command::Shoot { target: 1 }, &[1, 2]);
    assert!(events.iter().any(|e| matches!(e,
        Event::Shot { check, background: None, .. } if !check.passed)));

    // Melee, bare hands (the bow is improvised: 1 damage, S13). With the background, 3 dice
    // against the orc's 1: win 149/216 (125/1296 ties below 6, 91/1296 both 6s).
    let mut combat = duel(veteran_archer(), orc());
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let with_bg = combat
        .choices()
        .into_iter()
        .find(|c| c.action == "melee" && c.background.as_deref() == Some("Veteran"))
        .unwrap();
    let odds = with_bg.odds.unwrap();
    assert_eq!(
        (odds.win, odds.draw, odds.lose),
        (prob(149, 216), prob(23, 216), prob(11, 54))
    );
    // 1, 1, 4 against 3: the third die is the background's, and it wins.
    let events = scripted(
        &mut combat,
        Command::Melee { target: 1 },
        &[(0, "Veteran")],
        &[1, 1, 4, 3],
    );
    assert!(events.iter().any(|e| matches!(e,
        Event::Melee { roll, attacker_background: Some(b), defender_background: None, .. }
            if roll.verdict == Verdict::Win && b == "Veteran")));

    // The disengage (S7) with a background: two d6, either even frees: 3 then 4.
    let events = scripted(
        &mut combat,
        Command::Move {
            target: 1,
            direction: Direction::Away,
        },
        &[(0, "Veteran")],
        &[3, 4],
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Disengage {
            die: 3,
            background_die: Some(4),
            success: true,
            ..
        }
    )));
}

/// S18 for the defence roll: the orc attacks the hero, who names Veteran for the defence: 3
/// dice (1, 1, 6) against the orc's 5: the hero wins and deals 1.
#[test]
fn a_defender_names_a_background_for_the_defence_roll() {
    let mut combat = Combat::new(
        vec![fighter("orc", "b", false, 1, 1, 9, 1), veteran_archer()],
        Mode::Standard,
    );
    apply(&mut combat, Command::Order { order: vec![0, 1] }, &[]);
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let events = scripted(
        &mut combat,
        Command::Melee { target: 1 },
        &[(1, "Veteran")],
        &[5, 1, 1, 6],
    );
    assert!(events.iter().any(|e| matches!(e,
        Event::Melee { roll, defender_background: Some(_), .. } if roll.verdict == Verdict::Lose)));
    assert_eq!(combat.fighters()[0].hit_points, 8);
}

/// S18: a background the roller's sheet lacks, a background for a fighter that does not roll
/// in the command, or for a fighter without a sheet, is refused before any die is rolled.
#[test]
fn a_background_not_on_the_rollers_sheet_is_refused() {
    let mut combat = duel(veteran_archer(), fighter("orc", "b", false, 1, 1, 9, 1));
    apply(
        &mut combat,
        Command::Place {
            a: 0,
            b: 1,
            band: RangeBand::Engaged,
        },
        &[],
    );
    let refuse = |combat: &mut Combat, command: Command, bgs: Vec<(usize, String)>| {
        let before = combat.clone().fighters().to_vec();
        let err = combat
            .apply_chosen(&command, &RollBackgrounds(bgs), &mut ScriptedDice::new([]))
            .unwrap_err();
        assert!(matches!(err, CombatError::Background(_)), "{err}");
        assert_eq!(combat.fighters(), &before[..]);
        err.to_string()
    };
    let msg = refuse(
        &mut combat,
        Command::Melee { target: 1 },
        vec![(0, "Sailor".into())],
    );
    assert!(
        msg.contains("`Sailor` is not a background of Hero (backgrounds: Veteran)"),
        "{msg}"
    );
    let msg = refuse(
        &mut combat,
        Command::Melee { target: 1 },
        vec![(1, "Veteran".into())],
    );
    assert!(msg.contains("not a background of orc"), "{msg}");
    let msg = refuse(&mut combat, Command::EndTurn, vec![(0, "Veteran".into())]);
    assert!(msg.contains("rolls no dice"), "{msg}");
    let msg = refuse(
        &mut combat,
        Command::Melee { target: 1 },
        vec![(0, "Veteran".into()), (0, "Veteran".into())],
    );
    assert!(msg.contains("at most one"), "{msg}");
}
