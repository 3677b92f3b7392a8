//! A skirmish played, not watched (ruling U5): a state machine that waits, in each phase,
//! for the decision of every character someone plays, and resolves the phase once they are
//! all in.
//!
//! On each action the player (or the game master, for its side) chooses to attack or to
//! move, the target, and how many of the character's flips (and extra dice) to spend, at most
//! what the sheet has left and its cap per test. Characters marked *auto* are played by the
//! tactic of [`crate::skirmish`] (the tactic that simulations use). A phase resolves as U4
//! says: every attack is rolled against the state at the start of the phase and their damage
//! lands together, then the moves; all dice of a phase are rolled before anything changes, so
//! a phase whose dice run out leaves the skirmish as it was.
//!
//! What the texts leave open, decided here (docs/rules.md says the same):
//! * the target's negative flips and dice taken off are committed by the rules, as many as
//!   its supplies and caps allow (the same as the tactic): the defender does not act in the
//!   attacker's action;
//! * an attack on an engaged foe is melee if the attacker has melee dice (ranged if asked
//!   and it has ranged dice); on a foe not engaged it is ranged, and a character without
//!   ranged dice must move to engage first;
//! * the exact odds of a declared attack are those of the phase's start, with the target's
//!   guard spent first on this attack.

use serde::{Deserialize, Serialize};
use solum_dice::DiceSource;
use thiserror::Error;

use crate::skirmish::{
    Action, Character, Event, MAX_TURNS, PHASES, SkirmishError, check_characters, choose, phases,
    standing_sides,
};
use crate::test::{Armour, TestSpec, damage, roll_test};

/// What a character does in its action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::Order))]
pub enum Order {
    /// Attack a foe, committing `flips` positive flips and `dice` extra dice.
    Attack {
        /// The foe (index in the skirmish's list).
        target: usize,
        /// Shoot even when engaged (a ranged attack on a foe not engaged is implied).
        #[serde(default)]
        ranged: bool,
        /// Positive flips spent: at most the flips left and the cap per test.
        #[serde(default)]
        flips: u32,
        /// Extra dice spent: at most the extra dice left and the cap per test.
        #[serde(default)]
        dice: u32,
    },
    /// Move to engage a foe (after the phase's attacks).
    Move {
        /// The foe.
        target: usize,
    },
}

/// How a skirmish ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::Ending))]
pub struct Ending {
    /// The side left standing, if any.
    pub winner: Option<String>,
    /// Turns fought.
    pub turns: u32,
}

/// A decision the rules refuse; nothing changes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OrderError {
    /// The skirmish is over.
    #[error("the skirmish is over")]
    Over,
    /// No such character in the skirmish.
    #[error("character number {0} is not in the skirmish")]
    NoCharacter(usize),
    /// The character does not act in this phase.
    #[error("{name} does not act in turn {turn}, phase {phase}{waiting}")]
    NotNow {
        /// Who.
        name: String,
        /// The turn.
        turn: u32,
        /// The phase.
        phase: u32,
        /// Who does, if anyone.
        waiting: String,
    },
    /// The character is played by the tactic.
    #[error("{0} is played by the tactic (auto)")]
    Auto(String),
    /// Already decided this phase.
    #[error("{0} has already decided this phase")]
    Decided(String),
    /// The target is not a standing foe.
    #[error("{0}")]
    Target(String),
    /// The attack is not possible.
    #[error("{0}")]
    Attack(String),
}

/// A skirmish in play: the characters as they are now, who is auto, who is engaged with
/// whom, the phase that waits, and the decisions made in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::Skirmish))]
pub struct Skirmish {
    /// The characters, in listed order (the order of the tactic's ties and of the dice).
    pub characters: Vec<Character>,
    /// Played by the tactic.
    pub auto: Vec<bool>,
    /// Engaged pairs `[a, b]` with `a < b`, in the order they engaged.
    #[cfg_attr(feature = "openapi", schema(schema_with = engaged_pairs))]
    pub engaged: Vec<[usize; 2]>,
    /// The turn, from 1.
    pub turn: u32,
    /// The phase that waits, 1 to 10.
    pub phase: u32,
    /// The decisions of this phase, per character.
    pub declared: Vec<Option<Order>>,
    /// The end, once over.
    pub over: Option<Ending>,
}

/// The schema of [`Skirmish::engaged`]: each pair exactly two indices (utoipa would derive
/// an array of any length from `[usize; 2]`).
#[cfg(feature = "openapi")]
fn engaged_pairs() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    let index = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0));
    let pair = ArrayBuilder::new()
        .items(index)
        .min_items(Some(2))
        .max_items(Some(2));
    ArrayBuilder::new()
        .items(pair)
        .description(Some(
            "Engaged pairs `[a, b]` with `a < b`, in the order they engaged.",
        ))
        .build()
}

impl Skirmish {
    /// Starts a skirmish with the same checks as [`crate::skirmish::fight`]; it waits at the
    /// first phase in which someone acts. Rolls nothing.
    pub fn new(characters: Vec<Character>, auto: Vec<bool>) -> Result<Self, SkirmishError> {
        check_characters(&characters)?;
        if auto.len() != characters.len() {
            return Err(SkirmishError::Character(
                String::new(),
                "one auto mark per character",
            ));
        }
        let n = characters.len();
        let mut s = Self {
            characters,
            auto,
            engaged: Vec::new(),
            turn: 1,
            phase: 1,
            declared: vec![None; n],
            over: None,
        };
        if s.actors().is_empty() {
            s.advance();
        }
        Ok(s)
    }

    /// Checks a skirmish read back from storage as the rules would have made it: the
    /// characters as a skirmish takes them (any hit points), one auto mark and one decision
    /// slot each, engaged pairs and targets within the list, a phase and a turn in range, and
    /// every decision one the rules accept now.
    pub fn validate(&self) -> Result<(), SkirmishError> {
        let n = self.characters.len();
        let broken = |what: &'static str| Err(SkirmishError::Character(String::new(), what));
        if self.auto.len() != n || self.declared.len() != n {
            return broken("one auto mark and one decision per character");
        }
        if !(1..=PHASES).contains(&self.phase) || !(1..=MAX_TURNS).contains(&self.turn) {
            return broken("a turn or phase out of range");
        }
        if self.engaged.len() > n * n || self.engaged.iter().any(|&[a, b]| a >= b || b >= n) {
            return broken("an engaged pair out of range");
        }
        let mut alive = self.characters.clone();
        for c in &mut alive {
            c.hit_points = c.hit_points.max(1);
        }
        check_characters(&alive)?;
        if self.over.is_none() {
            for (i, d) in self.declared.iter().enumerate() {
                if let Some(order) = d {
                    self.check(i, order, false).map_err(|_| {
                        SkirmishError::Character(
                            self.characters[i].name.clone(),
                            "a decision the rules refuse",
                        )
                    })?;
                    if self.auto[i] || !self.actors().contains(&i) {
                        return broken("a decision of a character that does not decide now");
                    }
                }
            }
        }
        Ok(())
    }

    /// The characters standing that act in the waiting phase.
    pub fn actors(&self) -> Vec<usize> {
        (0..self.characters.len())
            .filter(|&i| {
                self.characters[i].hit_points > 0
                    && phases(self.characters[i].mind).is_ok_and(|p| p.contains(&self.phase))
            })
            .collect()
    }

    /// The played characters of the waiting phase that have not decided yet.
    pub fn waiting(&self) -> Vec<usize> {
        if self.over.is_some() {
            return Vec::new();
        }
        self.actors()
            .into_iter()
            .filter(|&i| !self.auto[i] && self.declared[i].is_none())
            .collect()
    }

    /// True when the waiting phase can be rolled: nobody's decision is missing.
    pub fn ready(&self) -> bool {
        self.over.is_none() && self.waiting().is_empty()
    }

    /// True when `a` and `b` are engaged.
    pub fn is_engaged(&self, a: usize, b: usize) -> bool {
        let pair = [a.min(b), a.max(b)];
        self.engaged.contains(&pair)
    }

    fn engaged_matrix(&self) -> Vec<Vec<bool>> {
        let n = self.characters.len();
        let mut m = vec![vec![false; n]; n];
        for &[a, b] in &self.engaged {
            if a < n && b < n {
                m[a][b] = true;
                m[b][a] = true;
            }
        }
        m
    }

    /// The most positive flips and extra dice `who` may commit to one test now.
    pub fn most(&self, who: usize) -> (u32, u32) {
        let c = &self.characters[who];
        (
            c.flips.min(c.flips_per_test),
            c.extra_dice.min(c.dice_per_test),
        )
    }

    /// The test an attack would roll at the start of the phase (melee or not, the spec): the
    /// target's guard and dice guard spent first on it. Checks the order as [`Self::declare`]
    /// does.
    pub fn attack_spec(&self, who: usize, order: &Order) -> Result<(bool, TestSpec), OrderError> {
        self.check(who, order, false)?;
        match *order {
            Order::Attack {
                target,
                ranged,
                flips,
                dice,
            } => {
                let melee = self.is_melee(who, target, ranged);
                let (spec, _, _) =
                    self.spec_against(&self.characters, who, target, melee, flips, dice);
                Ok((melee, spec))
            }
            Order::Move { .. } => Err(OrderError::Attack("a move rolls no dice".into())),
        }
    }

    fn is_melee(&self, who: usize, target: usize, ranged: bool) -> bool {
        let me = &self.characters[who];
        self.is_engaged(who, target) && me.melee > 0 && !(ranged && me.ranged > 0)
    }

    /// The test of an attack against the characters `cs` as they stand, with the target's
    /// negative flips and dice taken off (R2: never below one die).
    fn spec_against(
        &self,
        cs: &[Character],
        who: usize,
        target: usize,
        melee: bool,
        flips: u32,
        added: u32,
    ) -> (TestSpec, u32, u32) {
        let me = &cs[who];
        let t = &cs[target];
        let weapon = if melee { me.melee } else { me.ranged };
        let negative = t.guard.min(t.flips_per_test);
        let before = weapon.saturating_add(added);
        let removed = t
            .dice_guard
            .min(t.dice_per_test)
            .min(before.saturating_sub(1));
        let spec = TestSpec {
            dice: (before - removed).max(1),
            net_flips: flips as i32 - negative as i32,
        };
        (spec, negative, removed)
    }

    fn check(&self, who: usize, order: &Order, deciding: bool) -> Result<(), OrderError> {
        if self.over.is_some() {
            return Err(OrderError::Over);
        }
        let Some(me) = self.characters.get(who) else {
            return Err(OrderError::NoCharacter(who));
        };
        if deciding {
            if !self.actors().contains(&who) {
                let waiting: Vec<&str> = self
                    .waiting()
                    .iter()
                    .map(|&i| self.characters[i].name.as_str())
                    .collect();
                return Err(OrderError::NotNow {
                    name: me.name.clone(),
                    turn: self.turn,
                    phase: self.phase,
                    waiting: if waiting.is_empty() {
                        String::new()
                    } else {
                        format!(" (waiting for {})", waiting.join(", "))
                    },
                });
            }
            if self.auto[who] {
                return Err(OrderError::Auto(me.name.clone()));
            }
            if self.declared[who].is_some() {
                return Err(OrderError::Decided(me.name.clone()));
            }
        }
        let target = match *order {
            Order::Attack { target, .. } | Order::Move { target } => target,
        };
        let Some(t) = self.characters.get(target) else {
            return Err(OrderError::NoCharacter(target));
        };
        if target == who || t.side == me.side {
            return Err(OrderError::Target(format!(
                "{} is not a foe of {}",
                t.name, me.name
            )));
        }
        if t.hit_points == 0 {
            return Err(OrderError::Target(format!("{} is out", t.name)));
        }
        match *order {
            Order::Move { target } => {
                if self.is_engaged(who, target) {
                    return Err(OrderError::Target(format!(
                        "{} is already engaged with {}",
                        me.name, t.name
                    )));
                }
            }
            Order::Attack {
                target,
                ranged,
                flips,
                dice,
            } => {
                let engaged = self.is_engaged(who, target);
                if ranged && me.ranged == 0 {
                    return Err(OrderError::Attack(format!(
                        "{} has no ranged dice",
                        me.name
                    )));
                }
                if !engaged && me.ranged == 0 {
                    return Err(OrderError::Attack(format!(
                        "{} has no ranged dice and is not engaged with {}: move first",
                        me.name, t.name
                    )));
                }
                let (most_flips, most_dice) = self.most(who);
                if flips > most_flips {
                    return Err(OrderError::Attack(format!(
                        "{flips} flips: {} spends at most {most_flips} on a test (flips left {}, per test {})",
                        me.name, me.flips, me.flips_per_test
                    )));
                }
                if dice > most_dice {
                    return Err(OrderError::Attack(format!(
                        "{dice} extra dice: {} adds at most {most_dice} to a test (extra dice left {}, per test {})",
                        me.name, me.extra_dice, me.dice_per_test
                    )));
                }
            }
        }
        Ok(())
    }

    /// Records `who`'s decision for the waiting phase. Rolls nothing: the phase rolls when
    /// every played character of it has decided ([`Self::resolve_phase`]).
    pub fn declare(&mut self, who: usize, order: Order) -> Result<(), OrderError> {
        self.check(who, &order, true)?;
        self.declared[who] = Some(order);
        Ok(())
    }

    /// Resolves the waiting phase when it is [`ready`](Self::ready): the auto characters'
    /// actions chosen by the tactic, every attack rolled (in listed order of the attackers)
    /// against the state at the start of the phase, damage landed together, then the moves;
    /// then waits at the next phase in which someone acts. Every die is rolled before
    /// anything changes. Returns the events; nothing when not ready.
    pub fn resolve_phase(
        &mut self,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, SkirmishError> {
        if !self.ready() {
            return Ok(Vec::new());
        }
        let n = self.characters.len();
        let matrix = self.engaged_matrix();
        let mut events = vec![Event::Phase {
            turn: self.turn,
            phase: self.phase,
        }];
        let actions: Vec<(usize, Order)> = self
            .actors()
            .into_iter()
            .filter_map(|i| match self.declared[i] {
                Some(o) => Some((i, o)),
                None => {
                    let (flips, dice) = self.most(i);
                    choose(&self.characters, &matrix, i).map(|a| {
                        (
                            i,
                            match a {
                                Action::Melee(t) => Order::Attack {
                                    target: t,
                                    ranged: false,
                                    flips,
                                    dice,
                                },
                                Action::Ranged(t) => Order::Attack {
                                    target: t,
                                    ranged: true,
                                    flips,
                                    dice,
                                },
                                Action::Engage(t) => Order::Move { target: t },
                            },
                        )
                    })
                }
            })
            .collect();
        let mut cs = self.characters.clone();
        let mut landed = vec![0u32; n];
        for &(i, order) in &actions {
            let Order::Attack {
                target,
                ranged,
                flips,
                dice: added,
            } = order
            else {
                continue;
            };
            let melee = self.is_melee(i, target, ranged);
            let (spec, negative, removed) = self.spec_against(&cs, i, target, melee, flips, added);
            cs[i].flips = cs[i].flips.saturating_sub(flips);
            cs[i].extra_dice = cs[i].extra_dice.saturating_sub(added);
            cs[target].guard = cs[target].guard.saturating_sub(negative);
            cs[target].dice_guard = cs[target].dice_guard.saturating_sub(removed);
            let test = roll_test(&spec, dice)?;
            let armour = Armour {
                body: cs[target].body,
                shield: cs[target].shield,
            };
            let dealt = damage(test.largest, armour, melee);
            landed[target] = landed[target].saturating_add(dealt);
            events.push(Event::Attack {
                attacker: i,
                target,
                melee,
                positive: flips,
                negative,
                added,
                removed,
                test,
                damage: dealt,
            });
        }
        for (c, &amount) in landed.iter().enumerate() {
            if amount == 0 {
                continue;
            }
            let ch = &mut cs[c];
            ch.hit_points = ch.hit_points.saturating_sub(amount);
            events.push(Event::Damaged {
                character: c,
                amount,
                hit_points: ch.hit_points,
            });
            if ch.hit_points == 0 {
                events.push(Event::Out { character: c });
            }
        }
        let mut engaged = self.engaged.clone();
        for &(i, order) in &actions {
            if let Order::Move { target } = order
                && cs[i].hit_points > 0
                && cs[target].hit_points > 0
            {
                let pair = [i.min(target), i.max(target)];
                if !engaged.contains(&pair) {
                    engaged.push(pair);
                    events.push(Event::Engaged { mover: i, target });
                }
            }
        }
        self.characters = cs;
        self.engaged = engaged;
        self.declared = vec![None; n];
        let sides = standing_sides(&self.characters);
        if sides.len() < 2 {
            let ending = Ending {
                winner: sides.into_iter().next(),
                turns: self.turn,
            };
            events.push(Event::Over {
                winner: ending.winner.clone(),
                turns: ending.turns,
            });
            self.over = Some(ending);
            return Ok(events);
        }
        self.advance();
        if let Some(e) = &self.over {
            events.push(Event::Over {
                winner: e.winner.clone(),
                turns: e.turns,
            });
        }
        Ok(events)
    }

    /// Moves to the next phase in which a standing character acts; past [`MAX_TURNS`] the
    /// skirmish stops undecided.
    fn advance(&mut self) {
        loop {
            if self.phase >= PHASES {
                if self.turn >= MAX_TURNS {
                    self.over = Some(Ending {
                        winner: None,
                        turns: MAX_TURNS,
                    });
                    return;
                }
                self.turn += 1;
                self.phase = 1;
            } else {
                self.phase += 1;
            }
            if !self.actors().is_empty() {
                return;
            }
        }
    }

    /// The index of a character by name (any case, surrounding blanks ignored).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        let key = name.trim().to_lowercase();
        self.characters
            .iter()
            .position(|c| c.name.trim().to_lowercase() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    fn ch(name: &str, side: &str, mind: u32, hp: u32, melee: u32, ranged: u32) -> Character {
        Character {
            name: name.into(),
            side: side.into(),
            mind,
            body: 0,
            shield: 0,
            hit_points: hp,
            melee,
            ranged,
            flips: 0,
            guard: 0,
            flips_per_test: 1,
            extra_dice: 0,
            dice_guard: 0,
            dice_per_test: 1,
        }
    }

    #[test]
    fn it_waits_for_each_played_character_and_rolls_nothing_before() {
        // Mind 2 acts in phases 5 and 10 (U4); Mind 1 in phase 10.
        let a = ch("A", "a", 2, 3, 0, 2);
        let b = ch("B", "b", 1, 3, 0, 2);
        let mut s = Skirmish::new(vec![a, b], vec![false, false]).unwrap();
        assert_eq!((s.turn, s.phase), (1, 5));
        assert_eq!(s.waiting(), [0]);
        // B does not act in phase 5.
        let err = s.declare(1, Order::Move { target: 0 }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "B does not act in turn 1, phase 5 (waiting for A)"
        );
        s.declare(
            0,
            Order::Attack {
                target: 1,
                ranged: false,
                flips: 0,
                dice: 0,
            },
        )
        .unwrap();
        assert!(s.ready());
        // A shoots B (not engaged: ranged): 2, 2 is a group of 2, Shield 0 Body 0: 2 damage.
        let events = s.resolve_phase(&mut ScriptedDice::new([2, 2])).unwrap();
        assert!(events.contains(&Event::Damaged {
            character: 1,
            amount: 2,
            hit_points: 1
        }));
        assert_eq!((s.turn, s.phase), (1, 10));
        assert_eq!(s.waiting(), [0, 1]);
    }

    #[test]
    fn a_played_attack_spends_only_the_flips_chosen() {
        // Corona Csen's sear from the text: 5 dice 4,2,6,3,6; Csen commits 3 flips, De'Viled 2
        // against: one net flip makes three 6s; Body 2 (melee ignores Shield): 1 damage.
        let mut csen = ch("Corona Csen", "sol", 1, 3, 5, 0);
        csen.flips = 5;
        csen.flips_per_test = 3;
        let mut viled = ch("De'Viled", "smugglers", 1, 2, 1, 0);
        viled.body = 2;
        viled.shield = 2;
        viled.guard = 2;
        viled.flips_per_test = 2;
        let mut s = Skirmish::new(vec![csen, viled], vec![false, true]).unwrap();
        // Turn 1, phase 10: Csen moves in; De'Viled (auto) moves in too.
        s.declare(0, Order::Move { target: 1 }).unwrap();
        let events = s.resolve_phase(&mut ScriptedDice::new(Vec::new())).unwrap();
        assert!(events.contains(&Event::Engaged {
            mover: 0,
            target: 1
        }));
        assert_eq!((s.turn, s.phase), (2, 10));
        // Four flips: more than the 3 a test takes.
        let four = Order::Attack {
            target: 1,
            ranged: false,
            flips: 4,
            dice: 0,
        };
        assert!(matches!(s.declare(0, four), Err(OrderError::Attack(_))));
        let sear = Order::Attack {
            target: 1,
            ranged: false,
            flips: 3,
            dice: 0,
        };
        assert_eq!(
            s.attack_spec(0, &sear).unwrap(),
            (
                true,
                TestSpec {
                    dice: 5,
                    net_flips: 1
                }
            )
        );
        s.declare(0, sear).unwrap();
        // De'Viled (auto, engaged) strikes back with one die: a 2, a group of 1, Body 0.
        let events = s
            .resolve_phase(&mut ScriptedDice::new([4, 2, 6, 3, 6, 2]))
            .unwrap();
        let sear = events
            .iter()
            .find_map(|e| match e {
                Event::Attack {
                    attacker: 0,
                    test,
                    damage,
                    ..
                } => Some((test.largest, *damage)),
                _ => None,
            })
            .unwrap();
        assert_eq!(sear, (3, 1));
        assert_eq!(s.characters[0].flips, 2, "5 left less the 3 spent");
        assert_eq!(s.characters[1].guard, 0);
        assert_eq!(s.characters[1].hit_points, 1);
        assert_eq!(s.characters[0].hit_points, 2);
    }

    #[test]
    fn a_phase_whose_dice_run_out_changes_nothing() {
        let mut s = Skirmish::new(
            vec![ch("A", "a", 1, 1, 0, 2), ch("B", "b", 1, 1, 0, 2)],
            vec![false, true],
        )
        .unwrap();
        s.declare(
            0,
            Order::Attack {
                target: 1,
                ranged: false,
                flips: 0,
                dice: 0,
            },
        )
        .unwrap();
        let before = s.clone();
        // A's two dice, then B's dice are missing.
        assert!(
            s.resolve_phase(&mut solum_dice::TypedDice::new(vec![3, 3]))
                .is_err()
        );
        assert_eq!(s, before);
        // Both out in the same phase (U4).
        let events = s
            .resolve_phase(&mut ScriptedDice::new([3, 3, 5, 5]))
            .unwrap();
        assert_eq!(
            events.last(),
            Some(&Event::Over {
                winner: None,
                turns: 1
            })
        );
        assert!(s.over.is_some());
        assert_eq!(
            s.declare(0, Order::Move { target: 1 }),
            Err(OrderError::Over)
        );
    }

    #[test]
    fn a_brawler_without_ranged_dice_must_move_first() {
        let mut s = Skirmish::new(
            vec![ch("A", "a", 1, 1, 3, 0), ch("B", "b", 1, 1, 0, 2)],
            vec![false, false],
        )
        .unwrap();
        let hit = Order::Attack {
            target: 1,
            ranged: false,
            flips: 0,
            dice: 0,
        };
        assert!(
            matches!(s.declare(0, hit), Err(OrderError::Attack(m)) if m.contains("move first"))
        );
        assert!(matches!(
            s.declare(0, Order::Move { target: 0 }),
            Err(OrderError::Target(_))
        ));
    }
}
