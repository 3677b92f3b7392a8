//! Combat as a state machine (rulings S4–S8, S10, S11, S13–S15): commands in, events out.
//!
//! [`Combat::apply`] takes a [`Command`] and a dice source and returns the [`Event`]s it
//! caused, or an error that leaves the combat unchanged (all dice of a command are rolled
//! before anything changes). The tracker, the simulation and the journal all drive this
//! one machine.

use serde::Serialize;
use solum_dice::{DiceError, DiceSource};
use thiserror::Error;

use crate::character::{Attribute, Character};
use crate::check::{
    CheckOutcome, CheckSpec, DrawRule, OpposedOutcome, OpposedSpec, Verdict, roll_check,
    roll_opposed,
};
use crate::creature::Creature;
use crate::odds::{OpposedOdds, opposed_odds, p_pass};
use crate::vehicle::{
    Piloted, Vehicle, attack_pools, chase_pools, roll_chase, roll_vehicle_attack, scale_damage,
};
use crate::{Difficulty, Pool, PoolSpec, RulesError};

/// The distance between two combatants (S7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::RangeBand))]
pub enum RangeBand {
    /// Face to face: melee, disengage to leave.
    Engaged,
    /// A few metres: where combat starts.
    Nearby,
    /// Tens to hundreds of metres.
    Far,
}

impl RangeBand {
    /// The band's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Engaged => "engaged",
            Self::Nearby => "nearby",
            Self::Far => "far",
        }
    }

    /// One step closer, if there is one.
    pub fn closer(self) -> Option<Self> {
        match self {
            Self::Engaged => None,
            Self::Nearby => Some(Self::Engaged),
            Self::Far => Some(Self::Nearby),
        }
    }

    /// One step away, if there is one.
    pub fn farther(self) -> Option<Self> {
        match self {
            Self::Engaged => Some(Self::Nearby),
            Self::Nearby => Some(Self::Far),
            Self::Far => None,
        }
    }
}

impl std::str::FromStr for RangeBand {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "engaged" => Ok(Self::Engaged),
            "nearby" => Ok(Self::Nearby),
            "far" | "far away" | "far-away" => Ok(Self::Far),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a range",
                "engaged, nearby or far",
            )),
        }
    }
}

/// The difficulty of a ranged attack (S5): engaged with the shooter 6; nearby 4, or 6 when
/// the target is engaged with one of the shooter's allies; far 5, or 7 with an ally engaged.
/// While the shooter is engaged with any hostile, every shot is against at least 6.
pub fn ranged_difficulty(
    band: RangeBand,
    target_engaged_with_ally: bool,
    shooter_engaged: bool,
) -> Difficulty {
    let value = match (band, target_engaged_with_ally) {
        (RangeBand::Engaged, _) => 6,
        (RangeBand::Nearby, false) => 4,
        (RangeBand::Nearby, true) => 6,
        (RangeBand::Far, false) => 5,
        (RangeBand::Far, true) => 7,
    };
    let value = if shooter_engaged { value.max(6) } else { value };
    Difficulty::new(value).expect("4 to 7 are difficulties")
}

/// A ranged weapon as a combatant uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RangedAttack {
    /// The pool to shoot with (Body + background − penalties).
    pub pool: Pool,
    /// Damage on a hit.
    pub damage: u32,
    /// Made to fight vehicles: harms a vehicle of any size (S10).
    pub anti_vehicle: bool,
}

/// A combatant's vehicle and pilot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Crewed {
    /// The vehicle; its hull is the combatant's hit points.
    pub vehicle: Vehicle,
    /// The pilot's pool: Mind + a background.
    pub pilot_pool: Pool,
}

impl Crewed {
    /// The pilot and vehicle as the vehicle rules take them.
    pub fn piloted(&self) -> Piloted<'_> {
        Piloted {
            pilot: self.pilot_pool,
            vehicle: &self.vehicle,
        }
    }
}

/// A weapon a combatant carries, as it fights with it (S13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Armament {
    /// What it is: "sword", "rifle".
    pub name: String,
    /// The pool to attack with it (Body − penalties; + a background when the fighter was
    /// built with one on every roll).
    pub pool: Pool,
    /// The pool when the roll names one of the fighter's backgrounds (S18): one die more,
    /// before the penalties and the minimum of one die (S1).
    pub bg_pool: Pool,
    /// Damage it deals (after the Body rule).
    pub damage: u32,
    /// A ranged weapon shoots; in melee it is an improvised weapon (1 damage).
    pub ranged: bool,
    /// Made to fight vehicles: harms a vehicle of any size (S10).
    pub anti_vehicle: bool,
}

/// Damage of an unarmed strike, or of a ranged weapon used as an improvised melee weapon
/// (S13: light).
pub const IMPROVISED_DAMAGE: u32 = 1;

/// Everything combat needs to know about one combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fighter {
    /// Name shown in events; unique within a combat.
    pub name: String,
    /// The side it fights on; different sides are hostile.
    pub side: String,
    /// Heroes roll initiative; opponents do not (S6).
    pub hero: bool,
    /// Mind: initiative pool for heroes, and the order within a segment.
    pub mind: u32,
    /// A background helps the initiative roll.
    pub initiative_background: bool,
    /// Armor too heavy for its Body: one die less on any form of check, initiative included.
    pub armor_too_heavy: bool,
    /// Pool for unarmed strikes and improvised weapons (Body + background − armor).
    pub unarmed_pool: Pool,
    /// The unarmed pool when the roll names a background (S18).
    pub unarmed_bg_pool: Pool,
    /// The backgrounds of its sheet, which a roll of the fight may name (S18); empty for a
    /// fighter typed in or from the bestiary.
    pub backgrounds: Vec<String>,
    /// The weapons it carries, in listed order.
    pub weapons: Vec<Armament>,
    /// The weapon in hand: an index into `weapons`, `None` for bare hands (S13).
    pub held: Option<usize>,
    /// Hit points now (a vehicle's hull).
    pub hit_points: u32,
    /// Hit points when unhurt.
    pub max_hit_points: u32,
    /// The vehicle it pilots, if any.
    pub vehicle: Option<Crewed>,
}

/// The weapon that serves a fighter best (S13): the highest damage (after the Body rule),
/// then the larger pool (so a medium weapon beats a heavy one that costs a die), then the
/// first listed. `None` when it carries nothing.
pub fn best_weapon(weapons: &[Armament]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, w) in weapons.iter().enumerate() {
        let better = best.is_none_or(|b| {
            let b = &weapons[b];
            (w.damage, w.pool.dice()) > (b.damage, b.pool.dice())
        });
        if better {
            best = Some(i);
        }
    }
    best
}

impl Fighter {
    /// A fighter from plain numbers (an NPC, or a hero typed in): `damage` for its melee
    /// weapon, `ranged` for a ranged weapon's damage if it has one, both rolled with `pool`.
    /// It holds the better of the two (S13). Mind 1, no background.
    pub fn plain(
        name: &str,
        side: &str,
        hero: bool,
        pool: Pool,
        damage: u32,
        ranged: Option<u32>,
        hit_points: u32,
    ) -> Self {
        let mut weapons = vec![Armament {
            name: "weapon".to_owned(),
            pool,
            bg_pool: pool,
            damage,
            ranged: false,
            anti_vehicle: false,
        }];
        if let Some(damage) = ranged {
            weapons.push(Armament {
                name: "ranged".to_owned(),
                pool,
                bg_pool: pool,
                damage,
                ranged: true,
                anti_vehicle: false,
            });
        }
        Self {
            name: name.to_owned(),
            side: side.to_owned(),
            hero,
            mind: 1,
            initiative_background: false,
            armor_too_heavy: false,
            unarmed_pool: pool,
            unarmed_bg_pool: pool,
            backgrounds: Vec::new(),
            held: best_weapon(&weapons),
            weapons,
            hit_points,
            max_hit_points: hit_points,
            vehicle: None,
        }
    }

    /// A hero from a character sheet; `background` says whether a background helps in a
    /// fight (Body checks) and in initiative (Mind checks). It holds the weapon that serves
    /// it best (S13); [`Fighter::hold`] names another.
    pub fn hero(hero: &Character, side: &str, background: bool) -> Result<Self, RulesError> {
        let weapons = hero
            .weapons
            .iter()
            .map(|w| -> Result<Armament, RulesError> {
                Ok(Armament {
                    name: w.name.clone(),
                    pool: hero.pool(Attribute::Body, background, Some(w)).pool()?,
                    bg_pool: hero.pool(Attribute::Body, true, Some(w)).pool()?,
                    damage: w.damage(hero.body),
                    anti_vehicle: w.anti_vehicle,
                    ranged: w.ranged,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let unarmed = hero.pool(Attribute::Body, background, None);
        Ok(Self {
            name: hero.name.clone(),
            side: side.to_owned(),
            hero: true,
            mind: hero.mind,
            initiative_background: background && !hero.backgrounds.is_empty(),
            armor_too_heavy: unarmed.armor_too_heavy,
            unarmed_pool: unarmed.pool()?,
            unarmed_bg_pool: hero.pool(Attribute::Body, true, None).pool()?,
            backgrounds: hero.backgrounds.clone(),
            held: best_weapon(&weapons),
            weapons,
            hit_points: hero.hit_points,
            max_hit_points: hero.max_hit_points(),
            vehicle: None,
        })
    }

    /// An NPC or monster from a bestiary entry.
    pub fn creature(creature: &Creature, name: &str, side: &str) -> Result<Self, RulesError> {
        let pool = Pool::new(u64::from(creature.pool))?;
        let mut f = Self::plain(
            name,
            side,
            false,
            pool,
            creature.damage,
            creature.ranged_damage,
            creature.hit_points,
        );
        f.mind = creature.mind;
        for w in f.weapons.iter_mut().filter(|w| w.ranged) {
            w.anti_vehicle = creature.anti_vehicle;
        }
        Ok(f)
    }

    /// A piloted vehicle: its hull is its hit points, the pilot's Mind (+ background) its
    /// pool for chases and attacks.
    pub fn vehicle(
        name: &str,
        side: &str,
        hero: bool,
        pilot_mind: u32,
        background: bool,
        vehicle: Vehicle,
    ) -> Result<Self, RulesError> {
        let pilot_pool = PoolSpec {
            attribute: pilot_mind,
            background,
            ..PoolSpec::default()
        }
        .pool()?;
        Ok(Self {
            name: name.to_owned(),
            side: side.to_owned(),
            hero,
            mind: pilot_mind,
            initiative_background: background,
            armor_too_heavy: false,
            unarmed_pool: pilot_pool,
            unarmed_bg_pool: pilot_pool,
            backgrounds: Vec::new(),
            weapons: Vec::new(),
            held: None,
            hit_points: vehicle.hull,
            max_hit_points: vehicle.hull,
            vehicle: Some(Crewed {
                vehicle,
                pilot_pool,
            }),
        })
    }

    /// Out: 0 hit points, cannot act.
    pub fn is_out(&self) -> bool {
        self.hit_points == 0
    }

    /// The weapon in hand, if any.
    pub fn held_weapon(&self) -> Option<&Armament> {
        self.held.and_then(|i| self.weapons.get(i))
    }

    /// The name of the weapon in hand, or "unarmed".
    pub fn held_name(&self) -> &str {
        self.held_weapon().map_or("unarmed", |w| w.name.as_str())
    }

    /// The index of a carried weapon by name (exact, then case-insensitive); failing that,
    /// "melee" or "ranged" name the best carried weapon of that kind (S13's order), so the
    /// words of `hold=` serve `switch` too; `Some(None)` for "unarmed" when it carries no
    /// weapon of that name; `None` when there is none.
    pub fn weapon_index(&self, name: &str) -> Option<Option<usize>> {
        let of_kind = |ranged: bool| self.best_of_kind(ranged);
        self.weapons
            .iter()
            .position(|w| w.name == name)
            .or_else(|| {
                self.weapons
                    .iter()
                    .position(|w| w.name.eq_ignore_ascii_case(name))
            })
            .or_else(|| match name.to_ascii_lowercase().as_str() {
                "melee" => of_kind(false),
                "ranged" => of_kind(true),
                _ => None,
            })
            .map(Some)
            .or_else(|| name.eq_ignore_ascii_case("unarmed").then_some(None))
    }

    /// The index of the best carried weapon that is ranged (or not), by S13's order.
    pub fn best_of_kind(&self, ranged: bool) -> Option<usize> {
        let kind: Vec<usize> = (0..self.weapons.len())
            .filter(|&i| self.weapons[i].ranged == ranged)
            .collect();
        let armaments: Vec<Armament> = kind.iter().map(|&i| self.weapons[i].clone()).collect();
        best_weapon(&armaments).map(|b| kind[b])
    }

    /// Puts the named weapon in hand before the combat (S13: "the one named for it").
    /// Returns false when it carries no such weapon.
    pub fn hold(&mut self, name: &str) -> bool {
        match self.weapon_index(name) {
            Some(held) => {
                self.held = held;
                true
            }
            None => false,
        }
    }

    /// Pool and damage in melee with the weapon in hand: a melee weapon as it is; a ranged
    /// weapon (improvised) or bare hands deal 1 with the unarmed pool (S13).
    pub fn melee(&self) -> (Pool, u32) {
        match self.held_weapon() {
            Some(w) if !w.ranged => (w.pool, w.damage),
            _ => (self.unarmed_pool, IMPROVISED_DAMAGE),
        }
    }

    /// Pool and damage of an unarmed strike, whatever is in hand.
    pub fn unarmed(&self) -> (Pool, u32) {
        (self.unarmed_pool, IMPROVISED_DAMAGE)
    }

    /// [`Fighter::melee`], with one of its backgrounds named for the roll or not (S18).
    pub fn melee_with(&self, background: bool) -> (Pool, u32) {
        match self.held_weapon() {
            Some(w) if !w.ranged => (if background { w.bg_pool } else { w.pool }, w.damage),
            _ => self.unarmed_with(background),
        }
    }

    /// [`Fighter::unarmed`], with a background named for the roll or not (S18).
    pub fn unarmed_with(&self, background: bool) -> (Pool, u32) {
        let pool = if background {
            self.unarmed_bg_pool
        } else {
            self.unarmed_pool
        };
        (pool, IMPROVISED_DAMAGE)
    }

    /// The name of one of its sheet's backgrounds as the sheet spells it (exact, then any
    /// case), if it has it.
    pub fn background(&self, name: &str) -> Option<&str> {
        let name = name.trim();
        self.backgrounds
            .iter()
            .find(|b| *b == name)
            .or_else(|| {
                self.backgrounds
                    .iter()
                    .find(|b| b.eq_ignore_ascii_case(name))
            })
            .map(String::as_str)
    }

    /// The ranged weapon in hand, if the weapon in hand is one.
    pub fn ranged(&self) -> Option<RangedAttack> {
        self.ranged_with(false)
    }

    /// [`Fighter::ranged`], with a background named for the shot or not (S18).
    pub fn ranged_with(&self, background: bool) -> Option<RangedAttack> {
        self.held_weapon()
            .filter(|w| w.ranged)
            .map(|w| RangedAttack {
                pool: if background { w.bg_pool } else { w.pool },
                damage: w.damage,
                anti_vehicle: w.anti_vehicle,
            })
    }

    /// Whether it carries a ranged weapon at all (in hand or not).
    pub fn has_ranged(&self) -> bool {
        self.weapons.iter().any(|w| w.ranged)
    }
}

/// How the fight is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Mode))]
pub enum Mode {
    /// Initiative, range bands, melee and ranged attacks.
    #[default]
    Standard,
    /// Alternative combat (S11): no ranges or movement, every attack an opposed Body check
    /// whose loser takes the winner's weapon damage.
    Alternative,
}

/// Toward or away from a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Direction))]
pub enum Direction {
    /// One band closer.
    Closer,
    /// One band away.
    Away,
}

/// The backgrounds named for the rolls of one command (S18): each entry is a fighter that
/// rolls in the command and one background of its sheet that fits the task. A fighter not
/// named rolls without a background (the default). [`Combat::apply_chosen`] refuses a
/// background the fighter's sheet lacks, a fighter that does not roll in the command, and a
/// fighter named twice, before any die is rolled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RollBackgrounds(pub Vec<(usize, String)>);

impl RollBackgrounds {
    /// No background on any roll.
    pub const NONE: Self = Self(Vec::new());

    /// The background named for `fighter`, if any.
    pub fn of(&self, fighter: usize) -> Option<&str> {
        self.0
            .iter()
            .find(|(f, _)| *f == fighter)
            .map(|(_, b)| b.as_str())
    }

    /// True when no background is named.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a combatant, or the GM, does. Targets are fighter indices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "command")]
pub enum Command {
    /// Heroes roll initiative (S6) and round 1 starts.
    Initiative,
    /// One side ambushes: it acts first every round, no roll; round 1 starts.
    Ambush {
        /// The ambushing side.
        side: String,
    },
    /// The GM sets the order (fighter indices) and round 1 starts.
    Order {
        /// Every fighter, once.
        order: Vec<usize>,
    },
    /// The GM places two fighters at a range.
    Place {
        /// One fighter.
        a: usize,
        /// The other.
        b: usize,
        /// Their range.
        band: RangeBand,
    },
    /// The acting fighter moves one band toward or away from a target (its move, or its
    /// action as a second move).
    Move {
        /// Whom the range changes with.
        target: usize,
        /// Closer or away.
        direction: Direction,
    },
    /// A contested vehicle move (chase roll, S10) against an unwilling vehicle.
    Chase {
        /// The other vehicle.
        target: usize,
        /// Closer or away.
        direction: Direction,
    },
    /// A melee attack on an engaged hostile (S4).
    Melee {
        /// The defender.
        target: usize,
    },
    /// A ranged attack (S5).
    Shoot {
        /// The target.
        target: usize,
    },
    /// An unarmed strike on an engaged hostile, whatever is in hand: a melee attack that
    /// deals 1 damage if won (S13).
    Unarmed {
        /// The defender.
        target: usize,
    },
    /// A vehicle attack on an engaged vehicle (S10).
    VehicleAttack {
        /// The other vehicle.
        target: usize,
    },
    /// The acting fighter changes weapons: its action (S13).
    Switch {
        /// An index into the fighter's weapons, or `None` for bare hands.
        weapon: Option<usize>,
    },
    /// Any other action: open a door, drink a potion, plot a jump.
    Act {
        /// What it is.
        what: String,
    },
    /// The acting fighter's turn ends.
    EndTurn,
}

/// What happened. Fighters are indices into [`Combat::fighters`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Event))]
pub enum Event {
    /// A hero's initiative check.
    InitiativeRoll {
        /// The hero.
        fighter: usize,
        /// Mind (+ background) against 4.
        check: CheckOutcome,
        /// The background the hero named for the roll (S18).
        #[serde(skip_serializing_if = "Option::is_none")]
        background: Option<String>,
    },
    /// The initiative order, for the whole combat.
    OrderSet {
        /// Fighter indices, first to act first.
        order: Vec<usize>,
    },
    /// A round begins.
    RoundStarted {
        /// 1 for the first.
        round: u32,
    },
    /// A fighter's turn begins.
    TurnStarted {
        /// Whose turn.
        fighter: usize,
    },
    /// The GM placed two fighters.
    Placed {
        /// One fighter.
        a: usize,
        /// The other.
        b: usize,
        /// Their range now.
        band: RangeBand,
    },
    /// A move changed a range.
    Moved {
        /// Who moved.
        fighter: usize,
        /// Relative to whom.
        target: usize,
        /// The range before.
        from: RangeBand,
        /// The range now.
        to: RangeBand,
        /// The move used the action.
        as_action: bool,
    },
    /// A disengage roll (S7): one d6 for every hostile the mover is engaged with; even, it
    /// is nearby each of them and that was the move; odd, the move is lost.
    Disengage {
        /// Who tried to move.
        fighter: usize,
        /// The engaged hostiles, in listed order.
        targets: Vec<usize>,
        /// The d6.
        die: u32,
        /// Even (either die, with a background).
        success: bool,
        /// The move used the action.
        as_action: bool,
        /// The background named for the roll (S18): one d6 more, either even frees.
        #[serde(skip_serializing_if = "Option::is_none")]
        background: Option<String>,
        /// The background's d6, rolled after `die`.
        #[serde(skip_serializing_if = "Option::is_none")]
        background_die: Option<u32>,
    },
    /// A chase roll.
    ChaseRoll {
        /// The vehicle moving.
        fighter: usize,
        /// The vehicle resisting.
        target: usize,
        /// What the mover wanted.
        direction: Direction,
        /// The opposed roll, mover first.
        roll: OpposedOutcome,
        /// The mover won.
        success: bool,
        /// The move used the action.
        as_action: bool,
    },
    /// A melee exchange.
    Melee {
        /// The fighter whose turn it is.
        attacker: usize,
        /// The defender.
        defender: usize,
        /// The opposed Body roll, attacker first.
        roll: OpposedOutcome,
        /// The weapons struck with, attacker first: indices into each one's weapons,
        /// `None` for bare hands (S13).
        #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
        weapons: [Option<usize>; 2],
        /// The damage each would deal on a win, attacker first.
        #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
        damage: [u32; 2],
        /// The background the attacker named for the roll (S18).
        #[serde(skip_serializing_if = "Option::is_none")]
        attacker_background: Option<String>,
        /// The background the defender named for the defence roll (S18).
        #[serde(skip_serializing_if = "Option::is_none")]
        defender_background: Option<String>,
    },
    /// A ranged attack.
    Shot {
        /// The shooter.
        shooter: usize,
        /// The target.
        target: usize,
        /// The range.
        band: RangeBand,
        /// The target was engaged with one of the shooter's allies.
        ally_engaged: bool,
        /// The shooter was engaged with a hostile: at least 6 (S5).
        shooter_engaged: bool,
        /// The check.
        check: CheckOutcome,
        /// The background the shooter named for the shot (S18).
        #[serde(skip_serializing_if = "Option::is_none")]
        background: Option<String>,
    },
    /// A vehicle attack.
    VehicleAttack {
        /// The attacking vehicle.
        attacker: usize,
        /// The target vehicle.
        target: usize,
        /// The opposed Mind roll with the handling die, attacker first.
        roll: OpposedOutcome,
    },
    /// A fighter changed weapons (its action).
    Switched {
        /// Who.
        fighter: usize,
        /// The weapon now in hand, or "unarmed".
        weapon: String,
    },
    /// Damage taken.
    Damaged {
        /// Who.
        fighter: usize,
        /// Points lost.
        amount: u32,
        /// Hit points left.
        hit_points: u32,
        /// Who dealt it.
        by: usize,
    },
    /// A hit that does nothing (a personal weapon against a vehicle).
    NoEffect {
        /// Who was hit.
        fighter: usize,
        /// Why nothing happened.
        reason: String,
    },
    /// A fighter is out: 0 hit points.
    Out {
        /// Who.
        fighter: usize,
    },
    /// Any other action.
    Acted {
        /// Who.
        fighter: usize,
        /// What.
        what: String,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose.
        fighter: usize,
    },
    /// The combat is over: at most one side still stands.
    CombatOver {
        /// The side left standing, if any.
        winner: Option<String>,
    },
    /// The combat reached [`MAX_COMBAT_ROUNDS`] with more than one side standing and is
    /// stopped: nobody won.
    Stopped {
        /// Rounds fought.
        rounds: u32,
    },
}

/// Rounds after which a combat is stopped with both sides standing ([`Event::Stopped`]): far
/// past any fight where blows land, reached when nobody can hurt anybody.
pub const MAX_COMBAT_ROUNDS: u32 = 10_000;

/// A command the rules do not allow now. The combat is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CombatError {
    /// Round 1 has not started.
    #[error("combat has not started: roll initiative, declare an ambush or set the order first")]
    NotStarted,
    /// Round 1 already started.
    #[error("combat has already started")]
    AlreadyStarted,
    /// Everyone on one side is out.
    #[error("combat is over")]
    Over,
    /// No such fighter.
    #[error("there is no fighter number {0}")]
    UnknownFighter(usize),
    /// A fighter cannot target itself.
    #[error("{0} cannot target themselves")]
    SelfTarget(String),
    /// The target is on the same side.
    #[error("{0} is not hostile to {1}")]
    NotHostile(String, String),
    /// The target is out.
    #[error("{0} is out and cannot be attacked")]
    TargetOut(String),
    /// Melee or vehicle attack at a range other than engaged.
    #[error("{target} is {apart} {actor}, not engaged: {closer} closer first")]
    NotEngaged {
        /// Who attacks.
        actor: String,
        /// Who is attacked.
        target: String,
        /// How far apart, in words: "near" (nearby) or "far from".
        apart: &'static str,
        /// The way to close in: "move", or "chase" between two vehicles.
        closer: &'static str,
    },
    /// No ranged weapon.
    #[error("{0} has no ranged weapon")]
    NoRangedWeapon(String),
    /// A ranged weapon carried but not in hand.
    #[error("{0} holds {1}, not a ranged weapon: `switch` to it first (the action)")]
    NotHoldingRanged(String, String),
    /// No such weapon.
    #[error("{0} carries no weapon number {1}")]
    UnknownWeapon(String, usize),
    /// Both the move and the action of this turn are used.
    #[error("{0} has already used the move and the action this turn")]
    NothingLeft(String),
    /// The action of this turn is used.
    #[error("{0} has already used the action this turn")]
    ActionUsed(String),
    /// A move past the last band.
    #[error("{0} is already {1} from {2}: no move goes {3}")]
    NoFurther(String, &'static str, String, &'static str),
    /// A vehicle rule for a fighter that is not a vehicle.
    #[error("{0} is not a vehicle")]
    NotAVehicle(String),
    /// A vehicle cannot fight in melee or shoot a vehicle with a personal weapon rule.
    #[error("{0}")]
    WrongAttack(String),
    /// Movement in alternative combat.
    #[error("alternative combat has no ranges or movement")]
    NoMovement,
    /// A bad order.
    #[error("the order must list every fighter exactly once")]
    BadOrder,
    /// An unknown side.
    #[error("no fighter is on side `{0}`")]
    UnknownSide(String),
    /// A background named for a roll that cannot take it (S18).
    #[error("{0}")]
    Background(String),
    /// The dice could not be rolled.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Setup,
    Running,
    Over,
}

/// One option of the acting fighter, legal now, with its exact chance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// "melee", "unarmed", "shoot", "vehicle attack", "chase closer", "chase away",
    /// "disengage", "move closer", "move away", "switch", "end turn".
    pub action: &'static str,
    /// The target, for an option that has one.
    pub target: Option<usize>,
    /// The range to the target now.
    pub band: Option<RangeBand>,
    /// For `switch`: the weapon to take in hand ("unarmed" for bare hands).
    pub weapon: Option<String>,
    /// The option takes the action (an attack, a switch, a second move).
    pub uses_action: bool,
    /// The background the acting fighter names for the roll (S18), if any.
    pub background: Option<String>,
    /// The background the defender names for its defence roll (melee, S18), if any.
    pub defender_background: Option<String>,
    /// For an opposed action: win, draw, lose.
    pub odds: Option<OpposedOdds>,
    /// For an unopposed action: the chance it succeeds (1 for an option without a roll).
    pub p_success: Option<solum_dice::Prob>,
}

/// A fight in progress.
#[derive(Debug, Clone)]
pub struct Combat {
    fighters: Vec<Fighter>,
    /// Each fighter's side as a small number (equal numbers: the same side), so that the hot
    /// checks compare integers, not names.
    sides: Vec<u32>,
    /// Hit points at the start, for [`Combat::restart`].
    start_hit_points: Vec<u32>,
    /// Range of each pair, row-major n×n, symmetric.
    bands: Vec<RangeBand>,
    /// Weapons in hand at the start, for [`Combat::restart`].
    start_held: Vec<Option<usize>>,
    mode: Mode,
    /// What a draw means in every opposed roll of this combat (S14).
    draws: DrawRule,
    phase: Phase,
    order: Vec<usize>,
    /// Ambushers act first every round (S6); kept to report it.
    round: u32,
    /// Position in `order` of the acting fighter.
    turn: usize,
    moved: bool,
    acted: bool,
}

impl Combat {
    /// A combat among `fighters`, everyone nearby everyone (the default start, S7).
    pub fn new(fighters: Vec<Fighter>, mode: Mode) -> Self {
        let n = fighters.len();
        let sides = fighters
            .iter()
            .map(|f| {
                fighters
                    .iter()
                    .position(|g| g.side == f.side)
                    .expect("the fighter itself") as u32
            })
            .collect();
        let start_hit_points = fighters.iter().map(|f| f.hit_points).collect();
        let start_held = fighters.iter().map(|f| f.held).collect();
        let mut combat = Self {
            fighters,
            sides,
            start_hit_points,
            start_held,
            bands: vec![RangeBand::Nearby; n * n],
            mode,
            draws: DrawRule::Stand,
            phase: Phase::Setup,
            order: Vec::new(),
            round: 0,
            turn: 0,
            moved: false,
            acted: false,
        };
        combat.restart();
        combat
    }

    /// Back to the start: hit points as given, everyone nearby, no order, round 0. The same
    /// fighters can fight again without being built anew (what a simulation does).
    pub fn restart(&mut self) {
        let n = self.fighters.len();
        for ((f, &hp), &held) in self
            .fighters
            .iter_mut()
            .zip(&self.start_hit_points)
            .zip(&self.start_held)
        {
            f.hit_points = hp;
            f.held = held;
        }
        self.bands.fill(RangeBand::Nearby);
        for i in 0..n {
            self.bands[i * n + i] = RangeBand::Engaged;
        }
        self.phase = Phase::Setup;
        self.order.clear();
        self.round = 0;
        self.turn = 0;
        self.moved = false;
        self.acted = false;
    }

    /// The fighters, with their hit points now.
    pub fn fighters(&self) -> &[Fighter] {
        &self.fighters
    }

    /// The fighter index of a name (exact, then case-insensitive).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.fighters
            .iter()
            .position(|f| f.name == name)
            .or_else(|| {
                self.fighters
                    .iter()
                    .position(|f| f.name.eq_ignore_ascii_case(name))
            })
    }

    /// The range between two fighters.
    pub fn band(&self, a: usize, b: usize) -> RangeBand {
        self.bands[a * self.fighters.len() + b]
    }

    fn set_band(&mut self, a: usize, b: usize, band: RangeBand) {
        let n = self.fighters.len();
        self.bands[a * n + b] = band;
        self.bands[b * n + a] = band;
    }

    /// The initiative order (empty before the start).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The round (0 before the start).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The fighter whose turn it is, while the combat runs.
    pub fn acting(&self) -> Option<usize> {
        (self.phase == Phase::Running).then(|| self.order[self.turn])
    }

    /// Whether the acting fighter has used its move and its action.
    pub fn turn_used(&self) -> (bool, bool) {
        (self.moved, self.acted)
    }

    /// True once at most one side still stands.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// What a draw means in melee, alternative combat, vehicle attacks and chases (S14).
    pub fn draws(&self) -> DrawRule {
        self.draws
    }

    /// Sets what a draw means (the roll-off option, S14); a table sets it before the fight.
    pub fn set_draws(&mut self, draws: DrawRule) {
        self.draws = draws;
    }

    /// The opposed roll of this combat between two pools.
    fn opposed_spec(&self, first: Pool, second: Pool) -> OpposedSpec {
        OpposedSpec {
            draws: self.draws,
            ..OpposedSpec::new(first, second)
        }
    }

    /// Pool and damage of `fighter`'s blow with the weapon in hand. In alternative combat
    /// every weapon deals its damage ("according to the weapon used by the winner", S11);
    /// in standard combat a ranged weapon in melee is improvised (1, S13).
    /// `background`: one of its backgrounds is named for the roll (S18).
    fn strike_with(&self, fighter: usize, background: bool) -> (Pool, u32) {
        let f = &self.fighters[fighter];
        match (self.mode, f.held_weapon()) {
            (Mode::Alternative, Some(w)) => (if background { w.bg_pool } else { w.pool }, w.damage),
            _ => f.melee_with(background),
        }
    }

    /// Whether `fighter` is engaged with a hostile that is not out.
    pub fn engaged_with_hostile(&self, fighter: usize) -> bool {
        (0..self.fighters.len()).any(|i| self.holds_engaged(fighter, i))
    }

    /// `other` is a hostile, not out, engaged with `fighter`.
    fn holds_engaged(&self, fighter: usize, other: usize) -> bool {
        other != fighter
            && self.hostile(fighter, other)
            && !self.fighters[other].is_out()
            && self.band(fighter, other) == RangeBand::Engaged
    }

    /// The difficulty of a shot by `shooter` at `target` now (S5), with whether the target
    /// is engaged with an ally and whether the shooter is engaged with a hostile.
    pub fn shot_difficulty(&self, shooter: usize, target: usize) -> (Difficulty, bool, bool) {
        let ally = self.engaged_with_ally(shooter, target);
        let engaged = self.engaged_with_hostile(shooter);
        (
            ranged_difficulty(self.band(shooter, target), ally, engaged),
            ally,
            engaged,
        )
    }

    fn hostile(&self, a: usize, b: usize) -> bool {
        self.sides[a] != self.sides[b]
    }

    fn name(&self, i: usize) -> String {
        self.fighters[i].name.clone()
    }

    /// The refusal of an attack that needs the two engaged, in plain words.
    fn not_engaged(&self, actor: usize, target: usize, band: RangeBand) -> CombatError {
        CombatError::NotEngaged {
            actor: self.name(actor),
            target: self.name(target),
            apart: if band == RangeBand::Far {
                "far from"
            } else {
                "near"
            },
            // A chase is between two vehicles; anyone else just moves.
            closer: if self.fighters[actor].vehicle.is_some()
                && self.fighters[target].vehicle.is_some()
            {
                "chase"
            } else {
                "move"
            },
        }
    }

    /// Applies a command; on an error nothing changed.
    pub fn apply(
        &mut self,
        command: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, CombatError> {
        let mut events = Vec::new();
        self.apply_into(command, dice, &mut events)?;
        Ok(events)
    }

    /// [`Combat::apply`], appending the events to `events` (a buffer a simulation reuses).
    /// On an error nothing changed, though `events` may hold some of the command's events.
    pub fn apply_into(
        &mut self,
        command: &Command,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<(), CombatError> {
        self.apply_chosen_into(command, &RollBackgrounds::NONE, dice, events)
    }

    /// [`Combat::apply`] with backgrounds named for the command's rolls (S18).
    pub fn apply_chosen(
        &mut self,
        command: &Command,
        backgrounds: &RollBackgrounds,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, CombatError> {
        let mut events = Vec::new();
        self.apply_chosen_into(command, backgrounds, dice, &mut events)?;
        Ok(events)
    }

    /// Which fighters roll in `command` now, for the backgrounds they may name (S18):
    /// initiative, each hero; melee, the attacker and the defender; a shot, the shooter; a
    /// move while engaged with a hostile, the mover (the disengage roll). Chases and vehicle
    /// attacks are rolled by pilots typed in, who have no sheet.
    fn rollers(&self, command: &Command) -> Vec<usize> {
        let actor = self.acting();
        match command {
            Command::Initiative if self.phase == Phase::Setup && self.mode == Mode::Standard => (0
                ..self.fighters.len())
                .filter(|&i| self.fighters[i].hero)
                .collect(),
            Command::Melee { target } | Command::Unarmed { target } => {
                actor.into_iter().chain([*target]).collect()
            }
            Command::Shoot { .. } => actor.into_iter().collect(),
            Command::Move { .. } => actor
                .filter(|&a| self.engaged_with_hostile(a))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Checks the backgrounds named for `command` and returns them as the sheets spell them.
    fn check_backgrounds(
        &self,
        command: &Command,
        backgrounds: &RollBackgrounds,
    ) -> Result<RollBackgrounds, CombatError> {
        if backgrounds.is_empty() {
            return Ok(RollBackgrounds::NONE);
        }
        let rollers = self.rollers(command);
        let mut out = Vec::with_capacity(backgrounds.0.len());
        for (i, (f, name)) in backgrounds.0.iter().enumerate() {
            self.check_fighter(*f)?;
            let fighter = &self.fighters[*f];
            if backgrounds.0[..i].iter().any(|(g, _)| g == f) {
                return Err(CombatError::Background(format!(
                    "{} names two backgrounds for one roll: at most one applies (S1)",
                    fighter.name
                )));
            }
            if !rollers.contains(f) {
                return Err(CombatError::Background(format!(
                    "{} rolls no dice in this command: there is no roll for the background `{name}`",
                    fighter.name
                )));
            }
            let Some(own) = fighter.background(name) else {
                let has = if fighter.backgrounds.is_empty() {
                    "none on a sheet".to_owned()
                } else {
                    fighter.backgrounds.join(", ")
                };
                return Err(CombatError::Background(format!(
                    "`{name}` is not a background of {} (backgrounds: {has})",
                    fighter.name
                )));
            };
            out.push((*f, own.to_owned()));
        }
        Ok(RollBackgrounds(out))
    }

    /// [`Combat::apply_into`] with backgrounds named for the command's rolls (S18).
    pub fn apply_chosen_into(
        &mut self,
        command: &Command,
        backgrounds: &RollBackgrounds,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<(), CombatError> {
        if !backgrounds.is_empty() {
            match self.phase {
                Phase::Over => return Err(CombatError::Over),
                Phase::Setup if !matches!(command, Command::Initiative) => {
                    return Err(CombatError::NotStarted);
                }
                _ => {}
            }
        }
        let bgs = self.check_backgrounds(command, backgrounds)?;
        let bgs = &bgs;
        match command {
            Command::Place { a, b, band } => {
                self.check_fighter(*a)?;
                self.check_fighter(*b)?;
                if a == b {
                    return Err(CombatError::SelfTarget(self.name(*a)));
                }
                self.set_band(*a, *b, *band);
                events.push(Event::Placed {
                    a: *a,
                    b: *b,
                    band: *band,
                });
                return Ok(());
            }
            Command::Initiative | Command::Ambush { .. } | Command::Order { .. } => {
                if self.phase != Phase::Setup {
                    return Err(CombatError::AlreadyStarted);
                }
                let order = match command {
                    // Alternative combat needs no initiative (S15).
                    Command::Initiative if self.mode == Mode::Alternative => self.listed_order(),
                    Command::Initiative => self.roll_initiative(bgs, dice, events)?,
                    Command::Ambush { side } => self.ambush_order(side)?,
                    Command::Order { order } => {
                        let mut sorted = order.clone();
                        sorted.sort_unstable();
                        if sorted != (0..self.fighters.len()).collect::<Vec<_>>() {
                            return Err(CombatError::BadOrder);
                        }
                        order.clone()
                    }
                    _ => unreachable!(),
                };
                self.order = order.clone();
                self.phase = Phase::Running;
                self.round = 1;
                self.turn = 0;
                events.push(Event::OrderSet { order });
                events.push(Event::RoundStarted { round: 1 });
                self.start_turn(events);
                return Ok(());
            }
            _ => {}
        }
        let actor = match self.phase {
            Phase::Setup => return Err(CombatError::NotStarted),
            Phase::Over => return Err(CombatError::Over),
            Phase::Running => self.order[self.turn],
        };
        match command {
            Command::Move { target, direction } => {
                self.do_move(*target, *direction, false, bgs, dice, events)?
            }
            Command::Chase { target, direction } => {
                self.do_move(*target, *direction, true, bgs, dice, events)?
            }
            Command::Melee { target } => self.melee(actor, *target, false, bgs, dice, events)?,
            Command::Unarmed { target } => self.melee(actor, *target, true, bgs, dice, events)?,
            Command::Switch { weapon } => {
                if self.fighters[actor].vehicle.is_some() {
                    return Err(CombatError::WrongAttack(format!(
                        "{} is a vehicle: it has no weapons to change",
                        self.name(actor)
                    )));
                }
                if let Some(w) = weapon
                    && *w >= self.fighters[actor].weapons.len()
                {
                    return Err(CombatError::UnknownWeapon(self.name(actor), *w));
                }
                self.use_action(actor)?;
                self.fighters[actor].held = *weapon;
                events.push(Event::Switched {
                    fighter: actor,
                    weapon: self.fighters[actor].held_name().to_owned(),
                });
            }
            Command::Shoot { target } => self.shoot(actor, *target, bgs, dice, events)?,
            Command::VehicleAttack { target } => {
                self.vehicle_attack(actor, *target, dice, events)?
            }
            Command::Act { what } => {
                self.use_action(actor)?;
                events.push(Event::Acted {
                    fighter: actor,
                    what: what.clone(),
                });
            }
            Command::EndTurn => self.end_turn(events),
            _ => unreachable!("handled above"),
        }
        self.check_over(events);
        // A fighter taken out on its own turn cannot go on acting.
        if self.phase == Phase::Running
            && self.fighters[actor].is_out()
            && self.order[self.turn] == actor
        {
            self.end_turn(events);
        }
        Ok(())
    }

    fn check_fighter(&self, i: usize) -> Result<(), CombatError> {
        if i < self.fighters.len() {
            Ok(())
        } else {
            Err(CombatError::UnknownFighter(i))
        }
    }

    fn check_target(&self, actor: usize, target: usize) -> Result<(), CombatError> {
        self.check_fighter(target)?;
        if actor == target {
            return Err(CombatError::SelfTarget(self.name(actor)));
        }
        if !self.hostile(actor, target) {
            return Err(CombatError::NotHostile(self.name(target), self.name(actor)));
        }
        if self.fighters[target].is_out() {
            return Err(CombatError::TargetOut(self.name(target)));
        }
        Ok(())
    }

    /// An attack needs a hostile target that is not out, and the action of the turn.
    fn check_attack(&self, actor: usize, target: usize) -> Result<(), CombatError> {
        self.check_target(actor, target)?;
        if self.acted {
            return Err(CombatError::ActionUsed(self.name(actor)));
        }
        Ok(())
    }

    /// S6: heroes roll Mind (+ background) against 4; passed heroes by Mind, then the
    /// opponents by Mind, then the heroes who failed by Mind; ties keep the listed order.
    fn roll_initiative(
        &self,
        bgs: &RollBackgrounds,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<Vec<usize>, CombatError> {
        let mut passed = Vec::new();
        let mut failed = Vec::new();
        let mut rolls = Vec::new();
        for (i, f) in self.fighters.iter().enumerate() {
            if !f.hero {
                continue;
            }
            // Armor too heavy costs a die on any form of check (S1); a heavy weapon only on
            // an attack with it, so not here.
            let background = bgs.of(i).map(str::to_owned);
            let pool = PoolSpec {
                attribute: f.mind,
                background: f.initiative_background || background.is_some(),
                armor_too_heavy: f.armor_too_heavy,
                ..PoolSpec::default()
            }
            .pool()
            .unwrap_or(Pool::new(1).expect("1 die"));
            let check = roll_check(&CheckSpec::new(pool, Difficulty::AVERAGE), dice)?;
            if check.passed {
                passed.push(i);
            } else {
                failed.push(i);
            }
            rolls.push(Event::InitiativeRoll {
                fighter: i,
                check,
                background,
            });
        }
        let mut opponents: Vec<usize> = (0..self.fighters.len())
            .filter(|&i| !self.fighters[i].hero)
            .collect();
        for group in [&mut passed, &mut opponents, &mut failed] {
            group.sort_by_key(|&i| std::cmp::Reverse(self.fighters[i].mind));
        }
        events.extend(rolls);
        Ok(passed.into_iter().chain(opponents).chain(failed).collect())
    }

    /// The order without initiative (S15): side by side, in the order the sides were first
    /// listed (so NPC allies act in the heroes' segment), each side in listed order.
    fn listed_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.fighters.len()).collect();
        // `sides[i]` is the index of the first fighter listed on i's side.
        order.sort_by_key(|&i| self.sides[i]);
        order
    }

    /// An ambush (S6, S15): the ambushing side first, by Mind high to low (ties keep the
    /// listed order), then the others as [`Combat::listed_order`] puts them.
    fn ambush_order(&self, side: &str) -> Result<Vec<usize>, CombatError> {
        let (mut first, rest): (Vec<usize>, Vec<usize>) = self
            .listed_order()
            .into_iter()
            .partition(|&i| self.fighters[i].side == side);
        if first.is_empty() {
            return Err(CombatError::UnknownSide(side.to_owned()));
        }
        first.sort_by_key(|&i| std::cmp::Reverse(self.fighters[i].mind));
        Ok(first.into_iter().chain(rest).collect())
    }

    fn start_turn(&mut self, events: &mut Vec<Event>) {
        self.moved = false;
        self.acted = false;
        events.push(Event::TurnStarted {
            fighter: self.order[self.turn],
        });
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        events.push(Event::TurnEnded {
            fighter: self.order[self.turn],
        });
        if self.phase != Phase::Running {
            return;
        }
        // Next fighter who is not out; a wrap starts a new round.
        for _ in 0..self.order.len() {
            self.turn += 1;
            if self.turn == self.order.len() {
                self.turn = 0;
                if self.round >= MAX_COMBAT_ROUNDS {
                    self.phase = Phase::Over;
                    events.push(Event::Stopped { rounds: self.round });
                    return;
                }
                self.round += 1;
                events.push(Event::RoundStarted { round: self.round });
            }
            if !self.fighters[self.order[self.turn]].is_out() {
                break;
            }
        }
        self.start_turn(events);
    }

    fn check_over(&mut self, events: &mut Vec<Event>) {
        if self.phase != Phase::Running {
            return;
        }
        let mut standing = (0..self.fighters.len()).filter(|&i| !self.fighters[i].is_out());
        let first = standing.next();
        let rivals = first.is_some_and(|f| standing.any(|i| self.sides[i] != self.sides[f]));
        if !rivals {
            self.phase = Phase::Over;
            events.push(Event::CombatOver {
                winner: first.map(|f| self.fighters[f].side.clone()),
            });
        }
    }

    /// Uses the move if free, else the action (a second move). Returns whether the action
    /// was used.
    fn take_move(&self, actor: usize) -> Result<bool, CombatError> {
        if !self.moved {
            Ok(false)
        } else if !self.acted {
            Ok(true)
        } else {
            Err(CombatError::NothingLeft(self.name(actor)))
        }
    }

    fn use_action(&mut self, actor: usize) -> Result<(), CombatError> {
        if self.acted {
            return Err(CombatError::ActionUsed(self.name(actor)));
        }
        self.acted = true;
        Ok(())
    }

    fn mark_moved(&mut self, as_action: bool) {
        if as_action {
            self.acted = true;
        } else {
            self.moved = true;
        }
    }

    /// The acting fighter's move (or chase) toward or away from `target`.
    fn do_move(
        &mut self,
        target: usize,
        direction: Direction,
        contested: bool,
        bgs: &RollBackgrounds,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<(), CombatError> {
        let actor = self.order[self.turn];
        if self.mode == Mode::Alternative {
            return Err(CombatError::NoMovement);
        }
        self.check_fighter(target)?;
        if actor == target {
            return Err(CombatError::SelfTarget(self.name(actor)));
        }
        let as_action = self.take_move(actor)?;
        let from = self.band(actor, target);
        let to = match direction {
            Direction::Closer => from.closer(),
            Direction::Away => from.farther(),
        }
        .ok_or_else(|| {
            CombatError::NoFurther(
                self.name(actor),
                from.name(),
                self.name(target),
                match direction {
                    Direction::Closer => "closer",
                    Direction::Away => "farther",
                },
            )
        })?;
        if contested {
            self.check_target(actor, target)?;
            let (mover, other) = match (
                &self.fighters[actor].vehicle,
                &self.fighters[target].vehicle,
            ) {
                (Some(a), Some(b)) => (a.piloted(), b.piloted()),
                (None, _) => return Err(CombatError::NotAVehicle(self.name(actor))),
                (_, None) => return Err(CombatError::NotAVehicle(self.name(target))),
            };
            // The chase rule of the vehicle module, with this combat's draw rule (S10, S14).
            let roll = {
                let shared = solum_dice::SharedDice::new(dice);
                roll_chase(mover, other, self.draws, &mut &shared, &mut &shared)?
            };
            let success = roll.verdict == Verdict::Win;
            self.mark_moved(as_action);
            events.push(Event::ChaseRoll {
                fighter: actor,
                target,
                direction,
                roll,
                success,
                as_action,
            });
            if !success {
                return Ok(());
            }
        } else if self.engaged_with_hostile(actor) {
            // S7: engaged with any hostile, every move starts with one disengage roll for
            // all of them; even, it is nearby each of them and that was the move.
            let targets: Vec<usize> = (0..self.fighters.len())
                .filter(|&i| self.holds_engaged(actor, i))
                .collect();
            // S18: a background named for the roll adds a d6; either even frees.
            let background = bgs.of(actor).map(str::to_owned);
            let die = dice.roll(6)?;
            let background_die = match background {
                Some(_) => Some(dice.roll(6)?),
                None => None,
            };
            let success =
                solum_dice::is_even(die) || background_die.is_some_and(solum_dice::is_even);
            self.mark_moved(as_action);
            events.push(Event::Disengage {
                fighter: actor,
                targets: targets.clone(),
                die,
                success,
                as_action,
                background,
                background_die,
            });
            if success {
                for t in targets {
                    self.set_band(actor, t, RangeBand::Nearby);
                    events.push(Event::Moved {
                        fighter: actor,
                        target: t,
                        from: RangeBand::Engaged,
                        to: RangeBand::Nearby,
                        as_action,
                    });
                }
            }
            return Ok(());
        } else {
            self.mark_moved(as_action);
        }
        self.set_band(actor, target, to);
        events.push(Event::Moved {
            fighter: actor,
            target,
            from,
            to,
            as_action,
        });
        Ok(())
    }

    fn damage(&mut self, fighter: usize, amount: u32, by: usize, events: &mut Vec<Event>) {
        let f = &mut self.fighters[fighter];
        let taken = amount.min(f.hit_points);
        f.hit_points -= taken;
        events.push(Event::Damaged {
            fighter,
            amount: taken,
            hit_points: f.hit_points,
            by,
        });
        if f.hit_points == 0 && taken > 0 {
            events.push(Event::Out { fighter });
        }
    }

    fn melee(
        &mut self,
        actor: usize,
        target: usize,
        unarmed: bool,
        bgs: &RollBackgrounds,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<(), CombatError> {
        self.check_attack(actor, target)?;
        for i in [actor, target] {
            if self.fighters[i].vehicle.is_some() {
                return Err(CombatError::WrongAttack(format!(
                    "{} is a vehicle: vehicles fight with vehicle attacks, not melee",
                    self.name(i)
                )));
            }
        }
        let band = self.band(actor, target);
        if self.mode == Mode::Standard && band != RangeBand::Engaged {
            return Err(self.not_engaged(actor, target, band));
        }
        // S13: each fights with the weapon in hand; bare hands and a ranged weapon deal 1.
        // S18: each side's pool with the background it named for this roll, if any.
        let (mine, theirs) = (bgs.of(actor), bgs.of(target));
        let (pool, damage) = if unarmed {
            self.fighters[actor].unarmed_with(mine.is_some())
        } else {
            self.strike_with(actor, mine.is_some())
        };
        let (their_pool, their_damage) = self.strike_with(target, theirs.is_some());
        let spec = self.opposed_spec(pool, their_pool);
        let roll = {
            let shared = solum_dice::SharedDice::new(dice);
            roll_opposed(&spec, &mut &shared, &mut &shared)?
        };
        self.acted = true;
        let verdict = roll.verdict;
        events.push(Event::Melee {
            attacker: actor,
            defender: target,
            roll,
            weapons: [
                if unarmed {
                    None
                } else {
                    self.fighters[actor].held
                },
                self.fighters[target].held,
            ],
            damage: [damage, their_damage],
            attacker_background: mine.map(str::to_owned),
            defender_background: theirs.map(str::to_owned),
        });
        // S4: the winner deals its weapon's damage to the loser, whoever's turn it is.
        match verdict {
            Verdict::Win => self.damage(target, damage, actor, events),
            Verdict::Lose => self.damage(actor, their_damage, target, events),
            Verdict::Draw => {}
        }
        Ok(())
    }

    /// Whether `target` is engaged with one of `shooter`'s allies (not the shooter, not out).
    fn engaged_with_ally(&self, shooter: usize, target: usize) -> bool {
        (0..self.fighters.len()).any(|i| {
            i != shooter
                && i != target
                && !self.fighters[i].is_out()
                && self.fighters[i].side == self.fighters[shooter].side
                && self.band(i, target) == RangeBand::Engaged
        })
    }

    fn shoot(
        &mut self,
        actor: usize,
        target: usize,
        bgs: &RollBackgrounds,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<(), CombatError> {
        self.check_attack(actor, target)?;
        let band = self.band(actor, target);
        let (difficulty, ally_engaged, shooter_engaged) = self.shot_difficulty(actor, target);
        let mut no_effect = "the weapon deals no damage";
        let (pool, damage_to_target) = match (
            &self.fighters[actor].vehicle,
            &self.fighters[target].vehicle,
        ) {
            (Some(_), Some(_)) => {
                return Err(CombatError::WrongAttack(
                    "vehicles fight vehicles with a vehicle attack".into(),
                ));
            }
            // A vehicle weapon may only fire at engaged targets; against a person a hit
            // takes them to 0 hit points (S10).
            (Some(crew), None) => {
                if band != RangeBand::Engaged {
                    return Err(self.not_engaged(actor, target, band));
                }
                (crew.pilot_pool, self.fighters[target].hit_points)
            }
            (None, _) => {
                let me = &self.fighters[actor];
                let ranged = me.ranged_with(bgs.of(actor).is_some()).ok_or_else(|| {
                    if me.has_ranged() {
                        CombatError::NotHoldingRanged(self.name(actor), me.held_name().to_owned())
                    } else {
                        CombatError::NoRangedWeapon(self.name(actor))
                    }
                })?;
                let damage = match &self.fighters[target].vehicle {
                    Some(crew) => {
                        // The scale rule, with its reason when the weapon cannot harm (S10).
                        let scaled =
                            scale_damage(ranged.damage, ranged.anti_vehicle, crew.vehicle.scale);
                        no_effect = scaled.rule.reason();
                        scaled.damage
                    }
                    None => ranged.damage,
                };
                (ranged.pool, damage)
            }
        };
        let check = roll_check(&CheckSpec::new(pool, difficulty), dice)?;
        self.acted = true;
        let hit = check.passed;
        events.push(Event::Shot {
            shooter: actor,
            target,
            band,
            ally_engaged,
            shooter_engaged,
            check,
            background: bgs.of(actor).map(str::to_owned),
        });
        if hit {
            if damage_to_target == 0 {
                events.push(Event::NoEffect {
                    fighter: target,
                    reason: no_effect.into(),
                });
            } else {
                self.damage(target, damage_to_target, actor, events);
            }
        }
        Ok(())
    }

    fn vehicle_attack(
        &mut self,
        actor: usize,
        target: usize,
        dice: &mut dyn DiceSource,
        events: &mut Vec<Event>,
    ) -> Result<(), CombatError> {
        self.check_attack(actor, target)?;
        let (attacker, defender) = match (
            &self.fighters[actor].vehicle,
            &self.fighters[target].vehicle,
        ) {
            (Some(a), Some(b)) => (a.piloted(), b.piloted()),
            (None, _) => return Err(CombatError::NotAVehicle(self.name(actor))),
            (_, None) => return Err(CombatError::NotAVehicle(self.name(target))),
        };
        let band = self.band(actor, target);
        if band != RangeBand::Engaged {
            return Err(self.not_engaged(actor, target, band));
        }
        // The vehicle attack rule of the vehicle module, with this combat's draw rule.
        let roll = {
            let shared = solum_dice::SharedDice::new(dice);
            roll_vehicle_attack(attacker, defender, self.draws, &mut &shared, &mut &shared)?
        };
        self.acted = true;
        let hit = roll.verdict == Verdict::Win;
        events.push(Event::VehicleAttack {
            attacker: actor,
            target,
            roll,
        });
        // A lost or drawn vehicle attack is a miss, nothing more.
        if hit {
            let damage = self.fighters[actor]
                .vehicle
                .as_ref()
                .map_or(0, |c| c.vehicle.damage);
            self.damage(target, damage, actor, events);
        }
        Ok(())
    }

    /// The ranged weapon the acting fighter carries but does not hold, when switching to it
    /// (the action, S13) would let it shoot a hostile it cannot reach in melee: the best one
    /// by S13's order. `None` in alternative combat, for a vehicle, or when it holds one.
    pub fn switch_to_shoot(&self) -> Option<&str> {
        let actor = self.acting()?;
        let me = &self.fighters[actor];
        if self.mode != Mode::Standard || me.vehicle.is_some() || me.ranged().is_some() {
            return None;
        }
        let out_of_reach = (0..self.fighters.len()).any(|t| {
            t != actor
                && !self.fighters[t].is_out()
                && self.hostile(actor, t)
                && self.band(actor, t) != RangeBand::Engaged
        });
        if !out_of_reach {
            return None;
        }
        me.best_of_kind(true).map(|i| me.weapons[i].name.as_str())
    }

    /// The acting fighter's options, each legal now, with exact odds (draws split by a
    /// roll-off when the combat has that option, S14): attacks only while the action is
    /// left; moves (a disengage while engaged with a hostile, S7) while the move or the
    /// action is left; `switch` only with the action (S13); `end turn` always. A roll that
    /// may name a background (S18) is listed once without one and once with each of the
    /// roller's backgrounds (melee: each choice of the attacker with each of the
    /// defender's), so the odds follow the choice.
    pub fn choices(&self) -> Vec<Choice> {
        let Some(actor) = self.acting() else {
            return Vec::new();
        };
        let me = &self.fighters[actor];
        let turn = Turn {
            actor,
            me,
            action_left: !self.acted,
            move_left: !self.moved || !self.acted,
            // A move uses the move if free, else the action (S7).
            move_uses_action: self.moved,
            standard: self.mode == Mode::Standard,
            mine: background_choices(me),
            engaged_any: self.engaged_with_hostile(actor),
        };
        let mut out = Vec::new();
        for (t, them) in self.fighters.iter().enumerate() {
            if t == actor || them.is_out() || !self.hostile(actor, t) {
                continue;
            }
            self.choices_against(&turn, t, &mut out);
        }
        self.untargeted_choices(&turn, &mut out);
        out
    }

    /// The acting fighter's options against the hostile `t`: by what each of them rides
    /// (vehicles attack and chase, a vehicle shoots at a fighter on foot, a fighter on foot
    /// strikes, shoots and disengages), then the plain moves.
    fn choices_against(&self, turn: &Turn<'_>, t: usize, out: &mut Vec<Choice>) {
        let (me, them) = (turn.me, &self.fighters[t]);
        let (action_left, move_left) = (turn.action_left, turn.move_left);
        let (move_uses_action, standard) = (turn.move_uses_action, turn.standard);
        let opposed = |p, q| Some(opposed_odds(&self.opposed_spec(p, q)));
        let band = self.band(turn.actor, t);
        let engaged = band == RangeBand::Engaged || self.mode == Mode::Alternative;
        let choice = |action, uses_action, odds, p_success| Choice {
            action,
            target: Some(t),
            band: Some(band),
            weapon: None,
            uses_action,
            background: None,
            defender_background: None,
            odds,
            p_success,
        };
        match (&me.vehicle, &them.vehicle) {
            (Some(a), Some(b)) => {
                if engaged && action_left {
                    let (p, q) = attack_pools(a.pilot_pool, &a.vehicle, b.pilot_pool, &b.vehicle);
                    out.push(choice("vehicle attack", true, opposed(p, q), None));
                }
                let (p, q) = chase_pools(a.pilot_pool, &a.vehicle, b.pilot_pool, &b.vehicle);
                if band != RangeBand::Engaged && move_left && standard {
                    out.push(choice(
                        "chase closer",
                        move_uses_action,
                        opposed(p, q),
                        None,
                    ));
                }
                if band != RangeBand::Far && move_left && standard {
                    out.push(choice("chase away", move_uses_action, opposed(p, q), None));
                }
            }
            (Some(a), None) => {
                if band == RangeBand::Engaged && action_left {
                    let (d, _, _) = self.shot_difficulty(turn.actor, t);
                    out.push(choice(
                        "shoot",
                        true,
                        None,
                        Some(p_pass(&CheckSpec::new(a.pilot_pool, d))),
                    ));
                }
            }
            (None, _) => self.choices_on_foot(turn, t, band, engaged, &choice, out),
        }
        // Plain moves, with no roll, while not engaged with any hostile (a move while
        // engaged is the disengage above).
        if standard && move_left && !turn.engaged_any && me.vehicle.is_none() {
            let one = || Some(solum_dice::prob(1, 1));
            if band != RangeBand::Engaged {
                out.push(choice("move closer", move_uses_action, None, one()));
            }
            if band != RangeBand::Far {
                out.push(choice("move away", move_uses_action, None, one()));
            }
        }
    }

    /// The options of a fighter on foot against the hostile `t` at `band` (`choice` names
    /// both): melee and bare hands, a shot, a disengage, each once without a background
    /// and once with each of the roller's (S18).
    fn choices_on_foot<C>(
        &self,
        turn: &Turn<'_>,
        t: usize,
        band: RangeBand,
        engaged: bool,
        choice: &C,
        out: &mut Vec<Choice>,
    ) where
        C: Fn(&'static str, bool, Option<OpposedOdds>, Option<solum_dice::Prob>) -> Choice,
    {
        let (actor, me, them, mine) = (turn.actor, turn.me, &self.fighters[t], &turn.mine);
        let (action_left, standard) = (turn.action_left, turn.standard);
        let opposed = |p, q| Some(opposed_odds(&self.opposed_spec(p, q)));
        if engaged && them.vehicle.is_none() && action_left {
            let held = me.held_weapon().is_some();
            for theirs_bg in background_choices(them) {
                let theirs = self.strike_with(t, theirs_bg.is_some()).0;
                for mine_bg in mine {
                    let strike = self.strike_with(actor, mine_bg.is_some());
                    let unarmed = me.unarmed_with(mine_bg.is_some());
                    let mut c = choice("melee", true, opposed(strike.0, theirs), None);
                    c.background = mine_bg.clone();
                    c.defender_background = theirs_bg.clone();
                    out.push(c);
                    // Bare hands are an option only where they differ from the weapon.
                    if held && unarmed != strike {
                        let mut c = choice("unarmed", true, opposed(unarmed.0, theirs), None);
                        c.background = mine_bg.clone();
                        c.defender_background = theirs_bg.clone();
                        out.push(c);
                    }
                }
            }
        }
        if me.ranged().is_some() && standard && action_left {
            let (d, _, _) = self.shot_difficulty(actor, t);
            for mine_bg in mine {
                let r = me.ranged_with(mine_bg.is_some()).expect("holds one");
                let mut c = choice(
                    "shoot",
                    true,
                    None,
                    Some(p_pass(&CheckSpec::new(r.pool, d))),
                );
                c.background = mine_bg.clone();
                out.push(c);
            }
        }
        if band == RangeBand::Engaged && standard && turn.move_left {
            // S7: even on a d6; S18: a background adds a d6, either even frees.
            for mine_bg in mine {
                let p = if mine_bg.is_some() {
                    solum_dice::prob(3, 4)
                } else {
                    solum_dice::prob(1, 2)
                };
                let mut c = choice("disengage", turn.move_uses_action, None, Some(p));
                c.background = mine_bg.clone();
                out.push(c);
            }
        }
    }

    /// The options with no target: a switch of weapons while the action is left, then
    /// `end turn`.
    fn untargeted_choices(&self, turn: &Turn<'_>, out: &mut Vec<Choice>) {
        let me = turn.me;
        let untargeted = |action, weapon, uses_action| Choice {
            action,
            target: None,
            band: None,
            weapon,
            uses_action,
            background: None,
            defender_background: None,
            odds: None,
            p_success: Some(solum_dice::prob(1, 1)),
        };
        // S13: changing weapons takes the action; every weapon not in hand, then bare hands.
        if turn.action_left && me.vehicle.is_none() {
            for (i, w) in me.weapons.iter().enumerate() {
                if me.held != Some(i) {
                    out.push(untargeted("switch", Some(w.name.clone()), true));
                }
            }
            if me.held.is_some() {
                out.push(untargeted("switch", Some("unarmed".to_owned()), true));
            }
        }
        out.push(untargeted("end turn", None, false));
    }
}

/// The acting fighter and what it has left this turn, on which each of its choices
/// ([`Combat::choices`]) depends.
struct Turn<'c> {
    actor: usize,
    me: &'c Fighter,
    action_left: bool,
    move_left: bool,
    /// A move uses the move if free, else the action (S7).
    move_uses_action: bool,
    standard: bool,
    /// The backgrounds the fighter may name ([`background_choices`]).
    mine: Vec<Option<String>>,
    /// Engaged with some hostile: a move is then a disengage (S7).
    engaged_any: bool,
}

/// No background, then each of the fighter's, as the sheet lists them.
fn background_choices(f: &Fighter) -> Vec<Option<String>> {
    std::iter::once(None)
        .chain(f.backgrounds.iter().cloned().map(Some))
        .collect()
}

/// Fast static combat (S11): the hero rolls against the opposition's difficulty each round;
/// a pass deals the hero's damage to it, a failure deals its damage to the hero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StaticCombat {
    /// The hero's combat pool.
    pub pool: Pool,
    /// The opposition's difficulty.
    pub difficulty: Difficulty,
    /// The hero's hit points now.
    pub hit_points: u32,
    /// The hero's weapon damage.
    pub damage: u32,
    /// The opposition's hit points now.
    pub foe_hit_points: u32,
    /// The opposition's damage.
    pub foe_damage: u32,
}

/// One round of fast static combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::StaticRound))]
pub struct StaticRound {
    /// The hero's check.
    pub check: CheckOutcome,
    /// Hit points after the round.
    pub hit_points: u32,
    /// The opposition's hit points after the round.
    pub foe_hit_points: u32,
}

/// Rounds after which [`StaticCombat::play_out`] stops a fight with both sides standing.
/// Every round hurts one side, so a fight where both deal damage ends within
/// `⌈hp/damage⌉ + ⌈foe hp/foe damage⌉ − 1` rounds, at most 19,999 at
/// [`crate::fight::MAX_FIGHT_HP`]: the cap stops only a fight where one side deals nothing
/// and the other almost never gets its round (e.g. 3 dice against 1000).
pub const MAX_STATIC_ROUNDS: u32 = 2 * crate::fight::MAX_FIGHT_HP;

/// A fast static combat played to its end, or to [`MAX_STATIC_ROUNDS`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StaticPlay {
    /// Every round, in order.
    pub rounds: Vec<StaticRound>,
    /// True when the cap stopped the fight with both sides standing.
    pub stopped: bool,
}

impl StaticCombat {
    /// Plays rounds until one side is at 0 or [`MAX_STATIC_ROUNDS`] have been fought.
    pub fn play_out(&mut self, dice: &mut dyn DiceSource) -> Result<StaticPlay, DiceError> {
        let mut rounds = Vec::new();
        while !self.is_over() && rounds.len() < MAX_STATIC_ROUNDS as usize {
            match self.round(dice) {
                Ok(r) => rounds.push(r),
                Err(CombatError::Dice(e)) => return Err(e),
                Err(e) => unreachable!("a static fight that is not over plays: {e}"),
            }
        }
        Ok(StaticPlay {
            rounds,
            stopped: !self.is_over(),
        })
    }

    /// True when either side is at 0.
    pub fn is_over(&self) -> bool {
        self.hit_points == 0 || self.foe_hit_points == 0
    }

    /// Plays one round.
    pub fn round(&mut self, dice: &mut dyn DiceSource) -> Result<StaticRound, CombatError> {
        if self.is_over() {
            return Err(CombatError::Over);
        }
        let check = roll_check(&CheckSpec::new(self.pool, self.difficulty), dice)?;
        if check.passed {
            self.foe_hit_points = self.foe_hit_points.saturating_sub(self.damage);
        } else {
            self.hit_points = self.hit_points.saturating_sub(self.foe_damage);
        }
        Ok(StaticRound {
            check,
            hit_points: self.hit_points,
            foe_hit_points: self.foe_hit_points,
        })
    }
}
