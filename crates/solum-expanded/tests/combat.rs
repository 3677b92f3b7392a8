//! The combat, vehicle and chase rules of So1um Expanded, driven through the state machine
//! with typed dice, event by event.

use solum_dice::{ScriptedDice, TypedDice};
use solum_expanded::check::Verdict;
use solum_expanded::combat::{
    Combat, CombatError, Command, Direction, Event, Fighter, Mode, RangeBand, StaticCombat,
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
    Fighter {
        name: name.into(),
        side: side.into(),
        hero,
        mind,
        initiative_background: hero,
        melee_pool: pool(melee),
        melee_damage: damage,
        ranged: None,
        hit_points: hp,
        max_hit_points: hp,
        vehicle: None,
    }
}

fn gunner(name: &str, side: &str, body: u64, damage: u32) -> Fighter {
    Fighter {
        ranged: Some(solum_expanded::combat::RangedAttack {
            pool: pool(body),
            damage,
            anti_vehicle: false,
        }),
        ..fighter(name, side, true, 1, body, 4, 1)
    }
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
            Event::InitiativeRoll { fighter, check } => Some((*fighter, check.passed)),
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
            Event::ChaseRoll { roll, success, .. } => {
                Some((roll.first.dice.clone(), roll.second.dice.clone(), *success))
            }
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
    };
    let f = Fighter::hero(&osric, "heroes", true).unwrap();
    // Body 2 + background - 1 for the heavy weapon; it deals only 2.
    assert_eq!((f.melee_pool.dice(), f.melee_damage), (2, 2));
    osric.body = 3;
    osric.hit_points = 4;
    let f = Fighter::hero(&osric, "heroes", true).unwrap();
    assert_eq!((f.melee_pool.dice(), f.melee_damage), (4, 3));
    let mut combat = duel(f, fighter("orc", "b", false, 1, 2, 3, 2));
    let err = combat
        .apply(&Command::Melee { target: 1 }, &mut ScriptedDice::new([]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Osric is nearby from orc: that attack needs them engaged"
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
    assert!(matches!(err, CombatError::NotEngaged(..)));
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
