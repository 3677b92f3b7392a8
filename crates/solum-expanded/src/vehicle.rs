//! Vehicles: hull, speed, handling, damage, and the scale rules (ruling S10). Chases and
//! vehicle attacks are fought in [`crate::combat`]; this module holds the stats, the pool
//! and damage rules they use, and the chase and attack rolls themselves with their exact
//! odds, each with the draw rule of the table (S3, S14).

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};

use crate::Pool;
use crate::check::{DrawRule, OpposedOutcome, OpposedSpec, roll_opposed};
use crate::odds::{OpposedOdds, opposed_odds};

/// How fast a vehicle is, worst to best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Speed))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Handling))]
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

impl std::str::FromStr for Speed {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "slow" => Ok(Self::Slow),
            "average" => Ok(Self::Average),
            "fast" => Ok(Self::Fast),
            "lightning-fast" => Ok(Self::LightningFast),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a speed",
                "slow, average, fast or lightning-fast",
            )),
        }
    }
}

impl std::str::FromStr for Handling {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "clumsy" => Ok(Self::Clumsy),
            "average" => Ok(Self::Average),
            "responsive" => Ok(Self::Responsive),
            "exceptional" => Ok(Self::Exceptional),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a handling",
                "clumsy, average, responsive or exceptional",
            )),
        }
    }
}

/// How big a vehicle is, for the scale rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Scale))]
pub enum Scale {
    /// Up to the size of a car or truck: a heavy personal weapon deals it 1 damage.
    CarOrTruck,
    /// Larger: personal weapons cannot harm it.
    Large,
}

/// A size as a player names it: `car`, `truck`, `car-or-truck` or `small` for a car or
/// truck, `large` for anything larger (any case).
impl std::str::FromStr for Scale {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "car" | "truck" | "car-or-truck" | "small" => Ok(Self::CarOrTruck),
            "large" => Ok(Self::Large),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a vehicle's scale",
                "car (up to a car or truck) or large",
            )),
        }
    }
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

/// Why a personal weapon does or does not harm a vehicle (the scale rule, S10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::ScaleRule))]
pub enum ScaleRule {
    /// A heavy personal weapon against a vehicle up to a car or truck: 1 damage.
    HeavyAgainstSmall,
    /// A weapon made to fight vehicles: it harms a vehicle of any size.
    AntiVehicle,
    /// Only heavy weapons (3 damage) harm a vehicle at all.
    NotHeavy,
    /// Vehicles larger than a car or truck are beyond any personal weapon not made to fight
    /// vehicles, heavy ones included.
    TooLarge,
}

impl ScaleRule {
    /// The rule in words, for messages.
    pub fn reason(self) -> &'static str {
        match self {
            Self::HeavyAgainstSmall => {
                "a heavy personal weapon deals 1 damage to a vehicle up to a car or truck"
            }
            Self::AntiVehicle => "a weapon made to fight vehicles harms a vehicle of any size",
            Self::NotHeavy => {
                "only a heavy personal weapon (or one made to fight vehicles) can harm a vehicle"
            }
            Self::TooLarge => {
                "personal weapons cannot harm a vehicle larger than a car or truck, unless made to fight vehicles"
            }
        }
    }
}

/// What a personal weapon does to a vehicle: the damage, and the rule that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ScaleDamage {
    /// Damage to the vehicle's hull.
    pub damage: u32,
    /// Why.
    pub rule: ScaleRule,
}

/// The scale rule (S10). A personal weapon made to fight vehicles (`anti_vehicle`, the
/// text's shoulder-mounted missile launcher) deals 1 damage to a vehicle of any size; the
/// text exempts it from "larger vehicles can't be damaged" and gives no other amount, so it
/// hits like a heavy weapon against a car (decision, docs/rules.md). Otherwise only a heavy
/// weapon (3 damage) harms a vehicle, 1 damage, and only one up to a car or truck: a light
/// or medium weapon fails for not being heavy, whatever the vehicle's size; a heavy one fails
/// against a larger vehicle for its size.
pub fn scale_damage(weapon_damage: u32, anti_vehicle: bool, scale: Scale) -> ScaleDamage {
    let (damage, rule) = if anti_vehicle {
        (1, ScaleRule::AntiVehicle)
    } else if weapon_damage < 3 {
        (0, ScaleRule::NotHeavy)
    } else if scale == Scale::Large {
        (0, ScaleRule::TooLarge)
    } else {
        (1, ScaleRule::HeavyAgainstSmall)
    };
    ScaleDamage { damage, rule }
}

/// Damage a personal weapon not made to fight vehicles deals to a vehicle: a heavy weapon
/// (3 damage) deals 1 to a vehicle up to a car or truck; anything else deals none. See
/// [`scale_damage`] for the reason and for weapons made to fight vehicles.
pub fn personal_weapon_vs_vehicle(weapon_damage: u32, scale: Scale) -> u32 {
    scale_damage(weapon_damage, false, scale).damage
}

/// The vehicle catalogue shipped with solum: the text's example vehicles.
pub const SHIPPED_VEHICLES: &str = include_str!("../data/vehicles.toml");

/// A vehicle catalogue entry: a vehicle's stats and notes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::VehicleEntry))]
pub struct VehicleEntry {
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
    /// Free notes.
    #[serde(default)]
    pub notes: String,
}

impl VehicleEntry {
    /// The vehicle's stats.
    pub fn vehicle(&self) -> Vehicle {
        Vehicle {
            name: self.name.clone(),
            hull: self.hull,
            speed: self.speed,
            handling: self.handling,
            damage: self.damage,
            scale: self.scale,
        }
    }
}

/// A vehicles file: `[[vehicle]]` entries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleFile {
    /// The vehicles.
    #[serde(default)]
    pub vehicle: Vec<VehicleEntry>,
}

/// A vehicle entry that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{entry}: {field}: {problem}")]
pub struct VehicleError {
    /// The entry's name.
    pub entry: String,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub problem: String,
}

/// Vehicles by name (any case, `-` and `_` read as spaces).
#[derive(Debug, Clone, Default)]
pub struct VehicleCatalogue {
    vehicles: std::collections::BTreeMap<String, VehicleEntry>,
}

fn vehicle_key(name: &str) -> String {
    name.trim().to_lowercase().replace(['-', '_'], " ")
}

impl VehicleCatalogue {
    /// The shipped catalogue.
    pub fn shipped() -> Self {
        let mut c = Self::default();
        let file: VehicleFile =
            parse_vehicles(SHIPPED_VEHICLES).expect("the shipped vehicles parse");
        c.add(file).expect("the shipped vehicles are valid");
        c
    }

    /// Adds a file's vehicles, replacing entries of the same name.
    pub fn add(&mut self, file: VehicleFile) -> Result<(), VehicleError> {
        for v in file.vehicle {
            let err = |field, problem: &str| VehicleError {
                entry: v.name.clone(),
                field,
                problem: problem.to_owned(),
            };
            if v.name.trim().is_empty() {
                return Err(err("name", "a vehicle needs a name"));
            }
            if v.hull == 0 {
                return Err(err("hull", "a vehicle needs at least 1 hull point"));
            }
            self.vehicles.insert(vehicle_key(&v.name), v);
        }
        Ok(())
    }

    /// A vehicle by name; a unique word of its name is enough (`starfighter`).
    pub fn get(&self, name: &str) -> Option<&VehicleEntry> {
        let k = vehicle_key(name);
        if let Some(v) = self.vehicles.get(&k) {
            return Some(v);
        }
        let mut by_word = self
            .vehicles
            .iter()
            .filter(|(name, _)| name.split(' ').any(|w| w == k))
            .map(|(_, v)| v);
        match (by_word.next(), by_word.next()) {
            (Some(v), None) => Some(v),
            _ => None,
        }
    }

    /// All vehicles, by name.
    pub fn vehicles(&self) -> impl Iterator<Item = &VehicleEntry> {
        self.vehicles.values()
    }
}

/// Reads a vehicles file's text (TOML). The caller reads the file; this only parses.
pub fn parse_vehicles(text: &str) -> Result<VehicleFile, toml::de::Error> {
    toml::from_str(text)
}

/// A piloted vehicle in a chase or a vehicle attack: the pilot's pool (Mind + background)
/// and the vehicle.
#[derive(Debug, Clone, Copy)]
pub struct Piloted<'a> {
    /// The pilot's Mind pool, before the vehicle's dice.
    pub pilot: Pool,
    /// The vehicle flown.
    pub vehicle: &'a Vehicle,
}

/// The opposed roll of a chase (S10): the mover first, with the vehicles' speed and handling
/// dice, draws settled by `draws`.
pub fn chase_spec(mover: Piloted<'_>, other: Piloted<'_>, draws: DrawRule) -> OpposedSpec {
    let (a, b) = chase_pools(mover.pilot, mover.vehicle, other.pilot, other.vehicle);
    OpposedSpec {
        draws,
        ..OpposedSpec::new(a, b)
    }
}

/// The opposed roll of a vehicle attack (S10): the attacker first, with the handling die,
/// draws settled by `draws` (a roll-off can turn a draw into a hit or a miss).
pub fn attack_spec(attacker: Piloted<'_>, target: Piloted<'_>, draws: DrawRule) -> OpposedSpec {
    let (a, b) = attack_pools(
        attacker.pilot,
        attacker.vehicle,
        target.pilot,
        target.vehicle,
    );
    OpposedSpec {
        draws,
        ..OpposedSpec::new(a, b)
    }
}

/// Rolls a chase: the mover gets what it wants only on a win. Dice as in
/// [`roll_opposed`] (the Rule-of-6 chains only when both show a 6, then roll-off pairs).
pub fn roll_chase(
    mover: Piloted<'_>,
    other: Piloted<'_>,
    draws: DrawRule,
    mover_dice: &mut dyn DiceSource,
    other_dice: &mut dyn DiceSource,
) -> Result<OpposedOutcome, DiceError> {
    roll_opposed(&chase_spec(mover, other, draws), mover_dice, other_dice)
}

/// Rolls a vehicle attack: a win is a hit; a loss (or a standing draw) is a miss, nothing more.
pub fn roll_vehicle_attack(
    attacker: Piloted<'_>,
    target: Piloted<'_>,
    draws: DrawRule,
    attacker_dice: &mut dyn DiceSource,
    target_dice: &mut dyn DiceSource,
) -> Result<OpposedOutcome, DiceError> {
    roll_opposed(
        &attack_spec(attacker, target, draws),
        attacker_dice,
        target_dice,
    )
}

/// Exact win, draw and lose chances of a chase, for the mover.
pub fn chase_odds(mover: Piloted<'_>, other: Piloted<'_>, draws: DrawRule) -> OpposedOdds {
    opposed_odds(&chase_spec(mover, other, draws))
}

/// Exact hit (win), draw and miss (lose) chances of a vehicle attack.
pub fn attack_odds(attacker: Piloted<'_>, target: Piloted<'_>, draws: DrawRule) -> OpposedOdds {
    opposed_odds(&attack_spec(attacker, target, draws))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Verdict;
    use solum_dice::{ScriptedDice, enumerate, prob};

    /// Each rating reads its serde name (any case), a scale its words, and an unknown word
    /// lists the names.
    #[test]
    fn speed_handling_and_scale_read_their_words() {
        for s in [
            Speed::Slow,
            Speed::Average,
            Speed::Fast,
            Speed::LightningFast,
        ] {
            let name = serde_json::to_value(s).unwrap();
            let name = name.as_str().unwrap();
            assert_eq!(name.parse::<Speed>(), Ok(s));
            assert_eq!(name.to_ascii_uppercase().parse::<Speed>(), Ok(s));
        }
        for h in [
            Handling::Clumsy,
            Handling::Average,
            Handling::Responsive,
            Handling::Exceptional,
        ] {
            let name = serde_json::to_value(h).unwrap();
            assert_eq!(name.as_str().unwrap().parse::<Handling>(), Ok(h));
        }
        assert_eq!(
            "warp".parse::<Speed>().unwrap_err().to_string(),
            "`warp` is not a speed: slow, average, fast or lightning-fast"
        );
        for (word, scale) in [
            ("car", Scale::CarOrTruck),
            ("Truck", Scale::CarOrTruck),
            ("car-or-truck", Scale::CarOrTruck),
            ("small", Scale::CarOrTruck),
            (" LARGE ", Scale::Large),
        ] {
            assert_eq!(word.parse::<Scale>(), Ok(scale), "{word:?}");
        }
        assert_eq!(
            "huge".parse::<Scale>().unwrap_err().to_string(),
            "`huge` is not a vehicle's scale: car (up to a car or truck) or large"
        );
        assert_eq!(
            "Nimble".parse::<Handling>().unwrap_err().to_string(),
            "`nimble` is not a handling: clumsy, average, responsive or exceptional"
        );
    }

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

    #[test]
    fn the_scale_rule_gives_its_reason() {
        // A light pistol fails for not being heavy, even against a car.
        let pistol = scale_damage(1, false, Scale::CarOrTruck);
        assert_eq!((pistol.damage, pistol.rule), (0, ScaleRule::NotHeavy));
        assert_eq!(
            scale_damage(2, false, Scale::Large).rule,
            ScaleRule::NotHeavy
        );
        // A heavy weapon: 1 against a car or truck, nothing against a ship, for its size.
        let mg = scale_damage(3, false, Scale::CarOrTruck);
        assert_eq!((mg.damage, mg.rule), (1, ScaleRule::HeavyAgainstSmall));
        let vs_ship = scale_damage(3, false, Scale::Large);
        assert_eq!((vs_ship.damage, vs_ship.rule), (0, ScaleRule::TooLarge));
        // The text's shoulder-mounted missile launcher harms even a ship.
        for scale in [Scale::CarOrTruck, Scale::Large] {
            let missile = scale_damage(3, true, scale);
            assert_eq!((missile.damage, missile.rule), (1, ScaleRule::AntiVehicle));
        }
        assert!(
            ScaleRule::TooLarge
                .reason()
                .contains("larger than a car or truck")
        );
        assert!(ScaleRule::NotHeavy.reason().contains("only a heavy"));
    }

    #[test]
    fn the_shipped_catalogue_holds_the_texts_vehicles() {
        let c = VehicleCatalogue::shipped();
        // The text's extended example.
        assert_eq!(c.get("tramp freighter").unwrap().vehicle(), freighter());
        let fighter = c.get("Customs-Starfighter").unwrap().vehicle();
        assert_eq!(fighter, starfighter());
        // A unique word of the name is enough.
        assert_eq!(c.get("starfighter").unwrap().name, "customs starfighter");
        assert!(c.get("warp barge").is_none());
        assert!(c.vehicles().count() >= 2);
        let bad = parse_vehicles("[[vehicle]]\nname = \"x\"\nhull = 0\nspeed = \"slow\"\nhandling = \"average\"\ndamage = 1\nscale = \"large\"\n").unwrap();
        assert_eq!(
            VehicleCatalogue::default().add(bad).unwrap_err().field,
            "hull"
        );
    }

    fn crew(pilot: u64, vehicle: &Vehicle) -> Piloted<'_> {
        Piloted {
            pilot: Pool::new(pilot).unwrap(),
            vehicle,
        }
    }

    #[test]
    fn the_smugglers_return_fire_draws_or_rolls_off() {
        // Round 2 of the text: 3, 3, 5 against 3, 5, 5, 5: "a draw which in essence means the
        // starfighter dodged (as an option you could roll off with one die)".
        let (f, s) = (freighter(), starfighter());
        let mut a = ScriptedDice::new([3, 3, 5]);
        let mut b = ScriptedDice::new([3, 5, 5, 5]);
        let stand =
            roll_vehicle_attack(crew(3, &f), crew(3, &s), DrawRule::Stand, &mut a, &mut b).unwrap();
        assert_eq!(stand.verdict, Verdict::Draw);
        assert!(a.is_exhausted() && b.is_exhausted());
        // With the roll-off: 4 against 4, then 5 against 2: the smuggler hits.
        let mut a = ScriptedDice::new([3, 3, 5, 4, 5]);
        let mut b = ScriptedDice::new([3, 5, 5, 5, 4, 2]);
        let off = roll_vehicle_attack(crew(3, &f), crew(3, &s), DrawRule::RollOff, &mut a, &mut b)
            .unwrap();
        assert_eq!(off.roll_off, [(4, 4), (5, 2)]);
        assert_eq!(off.verdict, Verdict::Win);
        assert!(a.is_exhausted() && b.is_exhausted());
    }

    #[test]
    fn the_smugglers_chase_roll_needs_no_chain_die() {
        // 2, 3, 5 against 2, 3, 4, 4, 6: the customs pilot "doesn't need to" roll again.
        let (f, s) = (freighter(), starfighter());
        let mut a = ScriptedDice::new([2, 3, 5]);
        let mut b = ScriptedDice::new([2, 3, 4, 4, 6]);
        let o = roll_chase(crew(3, &f), crew(3, &s), DrawRule::RollOff, &mut a, &mut b).unwrap();
        assert_eq!(o.verdict, Verdict::Lose);
        assert!(o.second.chain_not_needed && o.roll_off.is_empty());
    }

    /// The chase and attack odds, with and without the roll-off, against exhaustive
    /// enumeration of the roll functions themselves.
    #[test]
    fn vehicle_odds_match_enumeration() {
        let (f, s) = (freighter(), starfighter());
        for (pilot, their) in [(1, 1), (1, 2)] {
            for draws in [DrawRule::Stand, DrawRule::RollOff] {
                for chase in [false, true] {
                    let (me, them) = (crew(pilot, &f), crew(their, &s));
                    let odds = if chase {
                        chase_odds(me, them, draws)
                    } else {
                        attack_odds(me, them, draws)
                    };
                    let spec = if chase {
                        chase_spec(me, them, draws)
                    } else {
                        attack_spec(me, them, draws)
                    };
                    let depth = (spec.first.pool.dice() + spec.second.pool.dice()) as usize + 5;
                    let e = enumerate(depth, |dice| -> Result<Verdict, DiceError> {
                        let shared = solum_dice::SharedDice::new(dice);
                        let roll = if chase {
                            roll_chase(me, them, draws, &mut &shared, &mut &shared)
                        } else {
                            roll_vehicle_attack(me, them, draws, &mut &shared, &mut &shared)
                        };
                        Ok(roll?.verdict)
                    })
                    .unwrap();
                    for (v, exact) in [
                        (Verdict::Win, &odds.win),
                        (Verdict::Draw, &odds.draw),
                        (Verdict::Lose, &odds.lose),
                    ] {
                        let counted = e.p(|x| *x == v);
                        assert!(
                            &counted <= exact && *exact <= &counted + &e.truncated,
                            "{pilot} vs {their} {draws:?} chase {chase} {v:?}"
                        );
                    }
                }
            }
        }
        // The freighter's 1 die against the starfighter's 1 + 1 (handling): exactly the odds
        // of 1 die against 2; the roll-off leaves no draw.
        let off = attack_odds(crew(1, &f), crew(1, &s), DrawRule::RollOff);
        assert_eq!(off.draw, prob(0, 1));
        assert_eq!(
            off.win,
            opposed_odds(&OpposedSpec {
                draws: DrawRule::RollOff,
                ..OpposedSpec::new(Pool::new(1).unwrap(), Pool::new(2).unwrap())
            })
            .win
        );
    }
}
