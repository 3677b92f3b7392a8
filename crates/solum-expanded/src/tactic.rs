//! The documented tactic that simulated fighters follow, one command at a time.
//!
//! On its turn a fighter picks a target: among hostiles that are not out, those engaged with
//! it first, then the nearest; ties go to the fewest hit points left, then the first listed.
//! Then:
//! 1. if it can attack the target now, it does, with the weapon in hand (it never
//!    switches): a shot when it holds a ranged weapon (at any range), melee when engaged
//!    (any range in alternative combat, where a ranged weapon in hand is used as an
//!    improvised weapon), a vehicle attack when both are vehicles and engaged;
//! 2. otherwise it closes in: its move, then its action as a second move (a chase roll for
//!    vehicles), attacking as soon as it can;
//! 3. then it ends its turn.
//!
//! Nobody retreats or disengages: the tactic measures the fight, not the art of running.

use crate::combat::{Combat, Command, Direction, Mode, RangeBand};

fn target(combat: &Combat, actor: usize) -> Option<usize> {
    let me = &combat.fighters()[actor];
    combat
        .fighters()
        .iter()
        .enumerate()
        .filter(|(i, f)| *i != actor && !f.is_out() && f.side != me.side)
        .min_by_key(|(i, f)| (combat.band(actor, *i), f.hit_points, *i))
        .map(|(i, _)| i)
}

/// The next command of the acting fighter, or `None` when the combat is not running.
pub fn next_command(combat: &Combat) -> Option<Command> {
    let actor = combat.acting()?;
    let Some(target) = target(combat, actor) else {
        return Some(Command::EndTurn);
    };
    let (moved, acted) = combat.turn_used();
    let me = &combat.fighters()[actor];
    let them = &combat.fighters()[target];
    let band = combat.band(actor, target);
    let engaged = band == RangeBand::Engaged;
    let vehicles = me.vehicle.is_some() && them.vehicle.is_some();
    if !acted {
        let attack = if vehicles {
            engaged.then_some(Command::VehicleAttack { target })
        } else if me.vehicle.is_some() {
            engaged.then_some(Command::Shoot { target })
        } else if me.ranged().is_some() && combat.mode() == Mode::Standard {
            Some(Command::Shoot { target })
        } else if (engaged || combat.mode() == Mode::Alternative) && them.vehicle.is_none() {
            Some(Command::Melee { target })
        } else {
            None
        };
        if let Some(attack) = attack {
            return Some(attack);
        }
    }
    let can_close = !engaged && combat.mode() == Mode::Standard && !(moved && acted);
    if can_close {
        return Some(if vehicles {
            Command::Chase {
                target,
                direction: Direction::Closer,
            }
        } else {
            Command::Move {
                target,
                direction: Direction::Closer,
            }
        });
    }
    Some(Command::EndTurn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Pool;
    use crate::combat::Fighter;
    use solum_dice::SeededDice;

    fn fighter(name: &str, side: &str, pool: u64, hp: u32) -> Fighter {
        Fighter::plain(
            name,
            side,
            side == "heroes",
            Pool::new(pool).unwrap(),
            1,
            None,
            hp,
        )
    }

    #[test]
    fn a_fight_driven_by_the_tactic_ends() {
        let mut dice = SeededDice::new(11);
        for _ in 0..200 {
            let mut combat = Combat::new(
                vec![
                    fighter("a", "heroes", 3, 4),
                    fighter("b", "heroes", 2, 3),
                    fighter("x", "foes", 2, 3),
                    fighter("y", "foes", 2, 3),
                    fighter("z", "foes", 1, 2),
                ],
                Mode::Standard,
            );
            combat.apply(&Command::Initiative, &mut dice).unwrap();
            let mut steps = 0;
            while let Some(cmd) = next_command(&combat) {
                if combat.is_over() {
                    break;
                }
                combat.apply(&cmd, &mut dice).unwrap();
                steps += 1;
                assert!(steps < 10_000, "the tactic must make progress");
            }
            assert!(combat.is_over());
        }
    }
}
