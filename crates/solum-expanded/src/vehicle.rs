//! Vehicles: hull, speed, handling, damage, and the scale rules (ruling S10). Chases and
//! vehicle attacks are fought in [`crate::combat`]; this module holds the stats and the pool
//! and damage rules they use.

use serde::{Deserialize, Serialize};

use crate::Pool;

/// How fast a vehicle is, worst to best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Speed {
    /// Bulk transports, large freighters.
    Slow,
    /// Cars, tramp freighters, capital ships.
    Average,
    /// Motorcycles, sports cars, starfighters.
    Fast,
    /// Interceptors, racing cars.
    LightningFast,
}

/// How agile a vehicle is, worst to best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Handling {
    /// Hard to steer.
    Clumsy,
    /// Ordinary.
    Average,
    /// Agile.
    Responsive,
    /// The best there is.
    Exceptional,
}

/// How big a vehicle is, for the scale rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// Up to the size of a car or truck: a heavy personal weapon deals it 1 damage.
    CarOrTruck,
    /// Larger: personal weapons cannot harm it.
    Large,
}

/// A vehicle's stats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vehicle {
    /// What it is.
    pub name: String,
    /// Like hit points, shields and armor included.
    pub hull: u32,
    /// Speed rating (chases).
    pub speed: Speed,
    /// Handling rating (chases and attacks).
    pub handling: Handling,
    /// Damage of its weapons against another vehicle's hull.
    pub damage: u32,
    /// Size for the scale rule.
    pub scale: Scale,
}

fn bonus<T: Ord>(mine: &T, theirs: &T) -> u32 {
    u32::from(mine > theirs)
}

/// The two pilots' pools in a chase roll: +1 die for the faster vehicle, +1 die for the
/// better-handling one; equal ratings add nothing.
pub fn chase_pools(
    pilot: Pool,
    mine: &Vehicle,
    their_pilot: Pool,
    theirs: &Vehicle,
) -> (Pool, Pool) {
    (
        pilot.plus(bonus(&mine.speed, &theirs.speed) + bonus(&mine.handling, &theirs.handling)),
        their_pilot
            .plus(bonus(&theirs.speed, &mine.speed) + bonus(&theirs.handling, &mine.handling)),
    )
}

/// The two pilots' pools in a vehicle attack: +1 die for better handling only.
pub fn attack_pools(
    pilot: Pool,
    mine: &Vehicle,
    their_pilot: Pool,
    theirs: &Vehicle,
) -> (Pool, Pool) {
    (
        pilot.plus(bonus(&mine.handling, &theirs.handling)),
        their_pilot.plus(bonus(&theirs.handling, &mine.handling)),
    )
}

/// Damage a personal weapon deals to a vehicle: a heavy weapon (3 damage) deals 1 to a
/// vehicle up to a car or truck; anything else deals none.
pub fn personal_weapon_vs_vehicle(weapon_damage: u32, scale: Scale) -> u32 {
    u32::from(weapon_damage >= 3 && scale == Scale::CarOrTruck)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn freighter() -> Vehicle {
        Vehicle {
            name: "tramp freighter".into(),
            hull: 5,
            speed: Speed::Average,
            handling: Handling::Average,
            damage: 2,
            scale: Scale::Large,
        }
    }

    pub fn starfighter() -> Vehicle {
        Vehicle {
            name: "customs starfighter".into(),
            hull: 2,
            speed: Speed::Fast,
            handling: Handling::Responsive,
            damage: 1,
            scale: Scale::Large,
        }
    }

    #[test]
    fn the_customs_pilot_gets_two_dice_in_a_chase_and_one_in_an_attack() {
        let three = Pool::new(3).unwrap();
        let (s, c) = chase_pools(three, &freighter(), three, &starfighter());
        assert_eq!((s.dice(), c.dice()), (3, 5));
        let (s, c) = attack_pools(three, &freighter(), three, &starfighter());
        assert_eq!((s.dice(), c.dice()), (3, 4));
    }

    #[test]
    fn a_pistol_cannot_hurt_a_truck_a_machine_gun_can() {
        assert_eq!(personal_weapon_vs_vehicle(1, Scale::CarOrTruck), 0);
        assert_eq!(personal_weapon_vs_vehicle(2, Scale::CarOrTruck), 0);
        assert_eq!(personal_weapon_vs_vehicle(3, Scale::CarOrTruck), 1);
        assert_eq!(personal_weapon_vs_vehicle(3, Scale::Large), 0);
    }
}
