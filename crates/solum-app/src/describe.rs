//! Events as plain text, one line each: what the CLI prints and the journal keeps.

use solum_expanded::check::{CheckOutcome, OpposedOutcome, PoolRoll, Verdict};
use solum_expanded::combat::{Direction, Event, Fighter};

fn faces(roll: &PoolRoll) -> String {
    let mut text = roll
        .dice
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(r) = roll.reroll {
        text.push_str(&format!(" (gear: {}→{})", r.from, r.to));
    }
    if !roll.chain.is_empty() {
        let chain: Vec<String> = roll.chain.iter().map(|f| format!("+{f}")).collect();
        text.push_str(&format!(" [6 {}]", chain.join(" ")));
    }
    format!("{text} = {}", roll.result)
}

/// A check as `4 3 3 = 4 vs 4: pass`.
pub fn check(c: &CheckOutcome) -> String {
    match &c.roll {
        None => "automatic".to_owned(),
        Some(roll) => format!(
            "{} vs {}: {}",
            faces(roll),
            c.spec.difficulty.value(),
            if c.passed { "pass" } else { "fail" }
        ),
    }
}

/// An opposed roll as `2 3 5 = 5 against 2 3 4 4 6 = 6` (a chain shows as `6 6 1 [6 +4] = 10`).
pub fn opposed(o: &OpposedOutcome) -> String {
    let mut text = format!("{} against {}", faces(&o.first), faces(&o.second));
    if !o.roll_off.is_empty() {
        let pairs: Vec<String> = o.roll_off.iter().map(|(a, b)| format!("{a}:{b}")).collect();
        text.push_str(&format!(", roll-off {}", pairs.join(" ")));
    }
    text
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "wins",
        Verdict::Draw => "draw",
        Verdict::Lose => "loses",
    }
}

/// A fighter's name by index ("?" for none: an event never names one out of range).
fn name(fighters: &[Fighter], i: usize) -> &str {
    fighters.get(i).map_or("?", |f| f.name.as_str())
}

/// S18: the background named for a roll, after the roller's name; nothing without one.
fn bg(b: &Option<String>) -> String {
    b.as_ref().map_or(String::new(), |b| format!(" [{b}]"))
}

/// One line for an event; `fighters` gives the names.
pub fn event(e: &Event, fighters: &[Fighter]) -> String {
    let n = |i: &usize| name(fighters, *i);
    match e {
        Event::InitiativeRoll {
            fighter,
            check: c,
            background,
        } => {
            format!(
                "{}{} rolls initiative: {}",
                n(fighter),
                bg(background),
                check(c)
            )
        }
        Event::OrderSet { order } => {
            let names: Vec<&str> = order.iter().map(n).collect();
            format!("Order: {}", names.join(", "))
        }
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::TurnStarted { fighter } => {
            let name = n(fighter);
            if name.ends_with('s') {
                format!("{name}' turn")
            } else {
                format!("{name}'s turn")
            }
        }
        Event::Placed { a, b, band } => format!("{} and {} are {}", n(a), n(b), band.name()),
        Event::Moved {
            fighter,
            target,
            from,
            to,
            as_action,
        } => format!(
            "{} moves {} {}: {} → {}{}",
            n(fighter),
            if to < from { "closer to" } else { "away from" },
            n(target),
            from.name(),
            to.name(),
            if *as_action { " (second move)" } else { "" }
        ),
        Event::Disengage { .. }
        | Event::ChaseRoll { .. }
        | Event::Melee { .. }
        | Event::Shot { .. }
        | Event::VehicleAttack { .. } => roll_event(e, fighters),
        Event::Damaged {
            fighter,
            amount,
            hit_points,
            by,
        } => format!(
            "{} takes {amount} damage from {} ({} left)",
            n(fighter),
            n(by),
            hit_points
        ),
        Event::Switched { fighter, weapon } => {
            format!("{} switches to {weapon}", n(fighter))
        }
        Event::NoEffect { fighter, reason } => format!("{} is hit, but {reason}", n(fighter)),
        Event::Out { fighter } => format!("{} is out!", n(fighter)),
        Event::Acted { fighter, what } => format!("{}: {what}", n(fighter)),
        Event::TurnEnded { .. } => String::new(),
        Event::CombatOver { winner } => match winner {
            Some(side) => format!("Combat over: {side} win"),
            None => "Combat over: nobody stands".to_owned(),
        },
        Event::Stopped { rounds } => {
            format!("Combat stopped after {rounds} rounds, both sides stand: nobody wins")
        }
    }
}

/// One line for an event that shows a roll (a disengage, a chase, a melee exchange, a shot,
/// a vehicle's attack); any other event is described by [`event`].
fn roll_event(e: &Event, fighters: &[Fighter]) -> String {
    let n = |i: &usize| name(fighters, *i);
    let dir = |d: &Direction| match d {
        Direction::Closer => "closer to",
        Direction::Away => "away from",
    };
    match e {
        Event::Disengage {
            fighter,
            targets,
            die,
            success,
            background,
            background_die,
            ..
        } => format!(
            "{}{} tries to disengage from {}: d6 {die}{}, {}",
            n(fighter),
            bg(background),
            targets.iter().map(n).collect::<Vec<_>>().join(" and "),
            background_die.map_or(String::new(), |d| format!(" and {d}")),
            if *success {
                "free: that was the move"
            } else {
                "held: the move is lost"
            }
        ),
        Event::ChaseRoll {
            fighter,
            target,
            direction,
            roll,
            success,
            ..
        } => format!(
            "{} chases {} {}: {} — {}",
            n(fighter),
            dir(direction),
            n(target),
            opposed(roll),
            if *success {
                "gets what they want"
            } else {
                "does not get away with it"
            }
        ),
        Event::Melee {
            attacker,
            defender,
            roll,
            weapons,
            damage,
            attacker_background,
            defender_background,
        } => {
            // "sword 2", "unarmed 1": what each strikes with and would deal.
            let with = |f: &usize, w: &Option<usize>, d: u32| {
                let name = w
                    .and_then(|w| fighters.get(*f)?.weapons.get(w))
                    .map_or("unarmed", |w| w.name.as_str());
                format!("{name} {d}")
            };
            format!(
                "{}{} ({}) attacks {}{} ({}) in melee: {} — {} {}",
                n(attacker),
                bg(attacker_background),
                with(attacker, &weapons[0], damage[0]),
                n(defender),
                bg(defender_background),
                with(defender, &weapons[1], damage[1]),
                opposed(roll),
                n(attacker),
                verdict(roll.verdict)
            )
        }
        Event::Shot {
            shooter,
            target,
            band,
            ally_engaged,
            shooter_engaged,
            check: c,
            background,
        } => format!(
            "{}{} shoots at {} ({}{}{}): {} — {}",
            n(shooter),
            bg(background),
            n(target),
            band.name(),
            if *ally_engaged {
                ", engaged with an ally"
            } else {
                ""
            },
            if *shooter_engaged {
                ", while engaged"
            } else {
                ""
            },
            check(c),
            if c.passed { "hit" } else { "miss" }
        ),
        Event::VehicleAttack {
            attacker,
            target,
            roll,
        } => format!(
            "{} fires at {}: {} — {}",
            n(attacker),
            n(target),
            opposed(roll),
            match roll.verdict {
                Verdict::Win => "hit",
                Verdict::Draw => "draw: a miss",
                Verdict::Lose => "miss",
            }
        ),
        other => event(other, fighters),
    }
}
