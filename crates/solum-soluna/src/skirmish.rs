//! Skirmishes: ten action phases a turn, simultaneous resolution (ruling U4).
//!
//! The text promises a phase table it does not print. Ruling U4: a character with Mind `m`
//! acts `m` times a turn, in phases `⌈10·i/m⌉` for `i = 1..m`. Within a phase every attack
//! is rolled against the state at the start of the phase and its damage lands together, so
//! two characters can take each other out in the same phase; movement follows the attacks.
//!
//! What the text leaves open, decided here (docs/rules.md says the same):
//! * a character has hit points and is out at 0; damage is the largest group minus armour;
//! * flips are an exhaustible supply: for each test the tester commits up to
//!   `flips_per_test` positive flips and the target up to its `flips_per_test` negative flips
//!   from its guard; committed flips are spent;
//! * dice are a supply too (the text: tester and target modify "the number of dice or flips"
//!   from their supply): the tester adds up to `dice_per_test` dice from its `extra_dice`,
//!   the target takes up to its `dice_per_test` off from its `dice_guard`, never below one
//!   die (R2), and spends only what comes off;
//! * the tactic: attack an engaged foe in melee, else shoot if the character has a ranged
//!   attack, else move to engage; the foe with the fewest hit points first (listed order on
//!   ties), engaged foes before others.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use thiserror::Error;

use crate::test::{Armour, TestOutcome, TestSpec, damage, roll_test};

/// Phases in a turn.
pub const PHASES: u32 = 10;

/// The most characters in a skirmish: each attack keeps every die and every flip, so the
/// events of a fight grow with characters × turns × dice; a skirmish is a handful of
/// characters, and more is refused up front.
pub const MAX_CHARACTERS: usize = 20;

/// Turns after which a skirmish stops undecided.
pub const MAX_TURNS: u32 = 100;

/// The phases in which a character with this Mind acts (U4): `⌈10·i/m⌉`, `i = 1..m`. The
/// table covers Mind 1 to 10 (one action a turn to one every phase); any other Mind is
/// refused, not clamped: the text gives it no row.
pub fn phases(mind: u32) -> Result<Vec<u32>, PhaseTableError> {
    if !(1..=PHASES).contains(&mind) {
        return Err(PhaseTableError(mind));
    }
    Ok((1..=mind).map(|i| (PHASES * i).div_ceil(mind)).collect())
}

/// A Mind that has no row in the phase table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("Mind {0} is outside the phase table, which has Mind 1 to {PHASES}")]
pub struct PhaseTableError(pub u32);

/// A character in a skirmish.
///
/// Every character a skirmish takes is checked by [`Character::validate`] first, and a
/// skirmish only lowers its numbers: Mind 1 to 10, every other number at most
/// [`MAX_SHEET_VALUE`], hit points from 0 (out). The schema states those ranges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::Character))]
pub struct Character {
    /// Name.
    pub name: String,
    /// Side; different sides are foes.
    pub side: String,
    /// Mind: how many actions a turn (1 to 10; others are refused).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    pub mind: u32,
    /// Body: armour against every attack.
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub body: u32,
    /// Shield: armour against every attack but melee.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub shield: u32,
    /// Hit points; out at 0.
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub hit_points: u32,
    /// Dice for a melee attack (0: none).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub melee: u32,
    /// Dice for a ranged attack (0: none).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub ranged: u32,
    /// Positive flips left (for the character's own tests).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub flips: u32,
    /// Negative flips left (against tests aimed at the character).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub guard: u32,
    /// The most flips committed to one test, either way.
    #[serde(default = "one")]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub flips_per_test: u32,
    /// Dice left to add to the character's own tests.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub extra_dice: u32,
    /// Dice left to take off tests aimed at the character.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub dice_guard: u32,
    /// The most dice added to, or taken off, one test.
    #[serde(default = "one")]
    #[cfg_attr(feature = "openapi", schema(maximum = 1000))]
    pub dice_per_test: u32,
}

fn one() -> u32 {
    1
}

/// The largest number a character's sheet holds (armour, hit points, supplies): far past
/// any character of the text, and small enough that sums never overflow.
pub const MAX_SHEET_VALUE: u32 = 1000;

// `Character`'s schema (feature `openapi`) states the limits above as numbers (utoipa takes
// no constant): they are these.
#[cfg(feature = "openapi")]
const _: () = assert!(MAX_SHEET_VALUE == 1000 && PHASES == 10);

/// A character that breaks a rule or a limit: the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{field}: {problem}")]
pub struct CharacterError {
    /// The field, as a skirmish file names it.
    pub field: &'static str,
    /// What is wrong.
    pub problem: String,
}

impl Character {
    /// Checks the character as a skirmish would take it, before any die: a name and a side,
    /// a Mind in the phase table, hit points, an attack, and every number within
    /// [`MAX_SHEET_VALUE`] (dice within a test's 1000).
    pub fn validate(&self) -> Result<(), CharacterError> {
        let fail = |field, problem: String| Err(CharacterError { field, problem });
        if self.name.trim().is_empty() {
            return fail("name", "a character needs a name".into());
        }
        if self.side.trim().is_empty() {
            return fail("side", "a character needs a side".into());
        }
        if let Err(e) = phases(self.mind) {
            return fail("mind", e.to_string());
        }
        if self.hit_points == 0 {
            return fail(
                "hit_points",
                "a character needs hit points (1 or more)".into(),
            );
        }
        if self.melee == 0 && self.ranged == 0 {
            return fail(
                "melee",
                "a character needs an attack: melee or ranged dice".into(),
            );
        }
        for (field, value) in [
            ("body", self.body),
            ("shield", self.shield),
            ("hit_points", self.hit_points),
            ("melee", self.melee),
            ("ranged", self.ranged),
            ("flips", self.flips),
            ("guard", self.guard),
            ("flips_per_test", self.flips_per_test),
            ("extra_dice", self.extra_dice),
            ("dice_guard", self.dice_guard),
            ("dice_per_test", self.dice_per_test),
        ] {
            if value > MAX_SHEET_VALUE {
                return fail(field, format!("{value} is more than {MAX_SHEET_VALUE}"));
            }
        }
        Ok(())
    }
}

/// A skirmish file: `[[character]]` entries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkirmishFile {
    /// The characters, in listed order.
    pub character: Vec<Character>,
}

/// A skirmish that cannot be fought.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SkirmishError {
    /// Fewer than two sides.
    #[error("a skirmish needs characters on at least two sides")]
    OneSide,
    /// More characters than [`MAX_CHARACTERS`].
    #[error("{0} characters: a skirmish takes at most {MAX_CHARACTERS}")]
    TooMany(usize),
    /// A character with an empty name.
    #[error("character number {0}: an empty name")]
    EmptyName(usize),
    /// Two characters with the same name (any case).
    #[error("`{0}` is listed twice: each character needs its own name")]
    Duplicate(String),
    /// A character the rules cannot use.
    #[error("{0}: {1}")]
    Character(String, &'static str),
    /// A character whose Mind has no row in the phase table.
    #[error("{0}: {1}")]
    Mind(String, PhaseTableError),
    /// Dice ran out.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// What happened, in order. Characters are indices into the skirmish's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::Event))]
pub enum Event {
    /// A phase in which someone acts.
    Phase {
        /// Turn, from 1.
        turn: u32,
        /// Phase, 1 to 10.
        phase: u32,
    },
    /// An attack, rolled against the state at the start of the phase.
    Attack {
        /// Who attacks.
        attacker: usize,
        /// Whom.
        target: usize,
        /// Melee (Body armour) or ranged (Body + Shield).
        melee: bool,
        /// Positive flips committed.
        positive: u32,
        /// Negative flips committed by the target.
        negative: u32,
        /// Dice the attacker added from its supply.
        added: u32,
        /// Dice the target took off from its supply.
        removed: u32,
        /// The test.
        test: TestOutcome,
        /// Damage it deals.
        damage: u32,
    },
    /// Damage landed at the end of the attacks.
    Damaged {
        /// Who.
        character: usize,
        /// How much.
        amount: u32,
        /// Hit points left.
        hit_points: u32,
    },
    /// Out of the fight.
    Out {
        /// Who.
        character: usize,
    },
    /// A move to engage.
    Engaged {
        /// Who moved.
        mover: usize,
        /// Whom they engaged.
        target: usize,
    },
    /// The end.
    Over {
        /// The side left standing, if any.
        winner: Option<String>,
        /// Turns fought.
        turns: u32,
    },
}

pub(crate) enum Action {
    Melee(usize),
    Ranged(usize),
    Engage(usize),
}

/// Fights a skirmish to the end and returns every event. The characters are changed: hit
/// points and flips as they are at the end.
pub fn fight(
    characters: &mut [Character],
    dice: &mut dyn DiceSource,
) -> Result<Vec<Event>, SkirmishError> {
    let schedule = check_characters(characters)?;
    fight_checked(characters, &schedule, dice)
}

/// The checks a skirmish makes before any die, shared by [`fight`] and the played skirmish
/// ([`crate::played::Skirmish`]): at most [`MAX_CHARACTERS`], names, hit points, an attack,
/// pools within a test's limit, two sides standing, and each Mind's phases.
pub(crate) fn check_characters(characters: &[Character]) -> Result<Vec<Vec<u32>>, SkirmishError> {
    if characters.len() > MAX_CHARACTERS {
        return Err(SkirmishError::TooMany(characters.len()));
    }
    let mut names = std::collections::BTreeSet::new();
    for (i, c) in characters.iter().enumerate() {
        if c.name.trim().is_empty() {
            return Err(SkirmishError::EmptyName(i + 1));
        }
        if !names.insert(c.name.trim().to_lowercase()) {
            return Err(SkirmishError::Duplicate(c.name.clone()));
        }
        if c.flips_per_test > crate::test::MAX_FLIPS as u32 {
            return Err(SkirmishError::Character(
                c.name.clone(),
                "flips_per_test is more than the 1000 flips a test takes",
            ));
        }
    }
    for c in characters.iter() {
        if c.hit_points == 0 {
            return Err(SkirmishError::Character(c.name.clone(), "needs hit points"));
        }
        if c.melee == 0 && c.ranged == 0 {
            return Err(SkirmishError::Character(
                c.name.clone(),
                "has no attack (melee or ranged dice)",
            ));
        }
        if c.melee
            .max(c.ranged)
            .saturating_add(c.dice_per_test.min(c.extra_dice))
            > crate::test::MAX_DICE
        {
            return Err(SkirmishError::Character(
                c.name.clone(),
                "rolls too many dice",
            ));
        }
    }
    if standing_sides(characters).len() < 2 {
        return Err(SkirmishError::OneSide);
    }
    characters
        .iter()
        .map(|c| phases(c.mind).map_err(|e| SkirmishError::Mind(c.name.clone(), e)))
        .collect()
}

/// The characters with at least one hit point, their sides sorted and deduplicated.
pub(crate) fn standing_sides(cs: &[Character]) -> Vec<String> {
    let mut sides: Vec<&str> = cs
        .iter()
        .filter(|c| c.hit_points > 0)
        .map(|c| c.side.as_str())
        .collect();
    sides.sort_unstable();
    sides.dedup();
    sides.into_iter().map(str::to_owned).collect()
}

fn fight_checked(
    characters: &mut [Character],
    schedule: &[Vec<u32>],
    dice: &mut dyn DiceSource,
) -> Result<Vec<Event>, SkirmishError> {
    let n = characters.len();
    let mut engaged = vec![vec![false; n]; n];
    let mut events = Vec::new();
    for turn in 1..=MAX_TURNS {
        for phase in 1..=PHASES {
            let actors: Vec<usize> = (0..n)
                .filter(|&i| characters[i].hit_points > 0 && schedule[i].contains(&phase))
                .collect();
            if actors.is_empty() {
                continue;
            }
            events.push(Event::Phase { turn, phase });
            let actions: Vec<(usize, Action)> = actors
                .iter()
                .filter_map(|&i| choose(characters, &engaged, i).map(|a| (i, a)))
                .collect();
            // Attacks first, all against the state at the start of the phase.
            let mut landed = vec![0u32; n];
            for (i, action) in &actions {
                let (target, melee) = match action {
                    Action::Melee(t) => (*t, true),
                    Action::Ranged(t) => (*t, false),
                    Action::Engage(_) => continue,
                };
                let positive = characters[*i].flips.min(characters[*i].flips_per_test);
                let negative = characters[target]
                    .guard
                    .min(characters[target].flips_per_test);
                characters[*i].flips -= positive;
                characters[target].guard -= negative;
                let weapon_dice = if melee {
                    characters[*i].melee
                } else {
                    characters[*i].ranged
                };
                let added = characters[*i].extra_dice.min(characters[*i].dice_per_test);
                characters[*i].extra_dice -= added;
                let before = weapon_dice + added;
                // The target takes dice off only down to one (R2): it spends no die that
                // would not come off.
                let removed = characters[target]
                    .dice_guard
                    .min(characters[target].dice_per_test)
                    .min(before.saturating_sub(1));
                characters[target].dice_guard -= removed;
                let spec = TestSpec {
                    dice: (before - removed).max(1),
                    net_flips: positive as i32 - negative as i32,
                };
                let test = roll_test(&spec, dice)?;
                let armour = Armour {
                    body: characters[target].body,
                    shield: characters[target].shield,
                };
                let dealt = damage(test.largest, armour, melee);
                landed[target] = landed[target].saturating_add(dealt);
                events.push(Event::Attack {
                    attacker: *i,
                    target,
                    melee,
                    positive,
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
                let ch = &mut characters[c];
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
            // Then movement, for those still standing.
            for (i, action) in &actions {
                if let Action::Engage(t) = action
                    && characters[*i].hit_points > 0
                    && characters[*t].hit_points > 0
                {
                    engaged[*i][*t] = true;
                    engaged[*t][*i] = true;
                    events.push(Event::Engaged {
                        mover: *i,
                        target: *t,
                    });
                }
            }
            let sides = standing_sides(characters);
            if sides.len() < 2 {
                events.push(Event::Over {
                    winner: sides.into_iter().next(),
                    turns: turn,
                });
                return Ok(events);
            }
        }
    }
    events.push(Event::Over {
        winner: None,
        turns: MAX_TURNS,
    });
    Ok(events)
}

pub(crate) fn choose(cs: &[Character], engaged: &[Vec<bool>], i: usize) -> Option<Action> {
    let me = &cs[i];
    let target = (0..cs.len())
        .filter(|&t| t != i && cs[t].side != me.side && cs[t].hit_points > 0)
        .min_by_key(|&t| (!engaged[i][t], cs[t].hit_points, t))?;
    Some(if engaged[i][target] && me.melee > 0 {
        Action::Melee(target)
    } else if me.ranged > 0 {
        Action::Ranged(target)
    } else {
        Action::Engage(target)
    })
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
    fn the_phase_table() {
        assert_eq!(phases(1).unwrap(), [10]);
        assert_eq!(phases(2).unwrap(), [5, 10]);
        assert_eq!(phases(3).unwrap(), [4, 7, 10]);
        assert_eq!(phases(4).unwrap(), [3, 5, 8, 10]);
        assert_eq!(phases(10).unwrap(), (1..=10).collect::<Vec<_>>());
        // Mind m acts m times a turn, once per phase at most (U4).
        for m in 1..=PHASES {
            let p = phases(m).unwrap();
            assert_eq!(p.len() as u32, m);
            assert!(p.windows(2).all(|w| w[0] < w[1]) && p[p.len() - 1] == PHASES);
        }
    }

    /// The first attack's dice rolled, and the dice added and taken off.
    fn first_attack(events: &[Event]) -> (usize, u32, u32) {
        events
            .iter()
            .find_map(|e| match e {
                Event::Attack {
                    test,
                    added,
                    removed,
                    ..
                } => Some((test.rolled.len(), *added, *removed)),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn tester_and_target_change_the_dice_from_their_supplies() {
        // A shoots with 2 dice, adds 2 from its supply of 3; B takes 1 off from its 1.
        let mut a = ch("A", "a", 1, 1, 0, 2);
        a.extra_dice = 3;
        a.dice_per_test = 2;
        let mut b = ch("B", "b", 1, 1, 0, 1);
        b.dice_guard = 1;
        b.dice_per_test = 2;
        let mut cs = [a, b];
        // A rolls 2 + 2 − 1 = 3 dice (4, 4, 1: a pair), B one die (a group of 1).
        let events = fight(&mut cs, &mut ScriptedDice::new([4, 4, 1, 2])).unwrap();
        assert_eq!(first_attack(&events), (3, 2, 1));
        assert_eq!(
            (cs[0].extra_dice, cs[1].dice_guard),
            (1, 0),
            "supplies are spent"
        );
        assert!(events.contains(&Event::Out { character: 1 }));
    }

    #[test]
    fn no_die_is_taken_off_a_single_die_test() {
        // B's one-die shot cannot lose a die (R2): A's guard is not spent on it.
        let mut a = ch("A", "a", 1, 3, 0, 3);
        a.dice_guard = 2;
        let b = ch("B", "b", 1, 3, 0, 1);
        let mut cs = [b, a];
        // B: one die (5); A: three dice, 2, 2, 2, is 3 damage.
        let events = fight(&mut cs, &mut ScriptedDice::new([5, 2, 2, 2])).unwrap();
        assert_eq!(first_attack(&events), (1, 0, 0));
        assert_eq!(cs[1].dice_guard, 2);
        assert!(events.contains(&Event::Out { character: 0 }));
    }

    #[test]
    fn a_mind_outside_the_phase_table_is_refused() {
        assert_eq!(phases(0), Err(PhaseTableError(0)));
        assert_eq!(phases(11), Err(PhaseTableError(11)));
        let mut cs = [ch("A", "a", 11, 1, 0, 2), ch("B", "b", 1, 1, 0, 2)];
        let err = fight(&mut cs, &mut ScriptedDice::new(Vec::new())).unwrap_err();
        assert_eq!(err, SkirmishError::Mind("A".into(), PhaseTableError(11)));
        assert_eq!(
            err.to_string(),
            "A: Mind 11 is outside the phase table, which has Mind 1 to 10"
        );
        let mut cs = [ch("A", "a", 1, 1, 0, 2), ch("B", "b", 0, 1, 0, 2)];
        assert!(matches!(
            fight(&mut cs, &mut ScriptedDice::new(Vec::new())),
            Err(SkirmishError::Mind(name, PhaseTableError(0))) if name == "B"
        ));
    }

    #[test]
    fn empty_duplicate_or_too_many_characters_are_refused() {
        let none = || ScriptedDice::new(Vec::new());
        let mut cs = vec![ch("A", "x", 1, 1, 1, 0), ch(" ", "y", 1, 1, 1, 0)];
        assert_eq!(
            fight(&mut cs, &mut none()),
            Err(SkirmishError::EmptyName(2))
        );
        let mut cs = vec![ch("Csen", "x", 1, 1, 1, 0), ch("csen", "y", 1, 1, 1, 0)];
        assert_eq!(
            fight(&mut cs, &mut none()),
            Err(SkirmishError::Duplicate("csen".into()))
        );
        let mut cs: Vec<Character> = (0..=MAX_CHARACTERS)
            .map(|i| {
                ch(
                    &format!("C{i}"),
                    if i % 2 == 0 { "x" } else { "y" },
                    1,
                    1,
                    1,
                    0,
                )
            })
            .collect();
        assert_eq!(
            fight(&mut cs, &mut none()),
            Err(SkirmishError::TooMany(MAX_CHARACTERS + 1))
        );
        // Flips per test beyond a test's limit would wrap the net flips: refused.
        let mut cs = vec![ch("A", "x", 1, 1, 1, 0), ch("B", "y", 1, 1, 1, 0)];
        cs[0].flips_per_test = u32::MAX;
        cs[0].flips = u32::MAX;
        assert!(matches!(
            fight(&mut cs, &mut none()),
            Err(SkirmishError::Character(name, _)) if name == "A"
        ));
    }

    #[test]
    fn two_shooters_take_each_other_out_in_the_same_phase() {
        let mut cs = [ch("A", "a", 1, 1, 0, 2), ch("B", "b", 1, 1, 0, 2)];
        // Both act in phase 10: A rolls 3,3 (pair: 2 damage), B rolls 5,5.
        let events = fight(&mut cs, &mut ScriptedDice::new([3, 3, 5, 5])).unwrap();
        assert!(events.contains(&Event::Out { character: 0 }));
        assert!(events.contains(&Event::Out { character: 1 }));
        assert_eq!(
            events.last(),
            Some(&Event::Over {
                winner: None,
                turns: 1
            })
        );
    }

    #[test]
    fn attacks_resolve_before_movement() {
        // The brawler (Mind 2: phases 5, 10) moves in at phase 5; the shooter (Mind 2) shoots
        // it in the same phase first.
        let mut cs = [
            ch("brawler", "a", 2, 1, 3, 0),
            ch("shooter", "b", 2, 3, 0, 1),
        ];
        let events = fight(&mut cs, &mut ScriptedDice::new([4])).unwrap();
        let attack = events
            .iter()
            .position(|e| matches!(e, Event::Attack { attacker: 1, .. }))
            .unwrap();
        let out = events
            .iter()
            .position(|e| *e == Event::Out { character: 0 })
            .unwrap();
        assert!(attack < out);
        assert!(
            !events.iter().any(|e| matches!(e, Event::Engaged { .. })),
            "out before it could move"
        );
    }

    #[test]
    fn corona_csen_sears_de_viled() {
        let mut csen = ch("Corona Csen", "sol", 1, 3, 5, 0);
        csen.flips = 3;
        csen.flips_per_test = 3;
        let mut viled = ch("De'Viled", "smugglers", 1, 1, 1, 0);
        viled.body = 2;
        viled.shield = 2;
        viled.guard = 2;
        viled.flips_per_test = 2;
        let mut cs = [csen, viled];
        // Turn 1, phase 10: both move in. Turn 2, phase 10: Csen rolls 4,2,6,3,6 with one net
        // flip; De'Viled rolls one die (a group of 1, minus Body 0: 1 damage).
        let events = fight(&mut cs, &mut ScriptedDice::new([4, 2, 6, 3, 6, 2])).unwrap();
        let sear = events
            .iter()
            .find_map(|e| match e {
                Event::Attack {
                    attacker: 0,
                    test,
                    damage,
                    positive,
                    negative,
                    ..
                } => Some((test.largest, *damage, *positive, *negative)),
                _ => None,
            })
            .unwrap();
        assert_eq!(sear, (3, 1, 3, 2));
        assert!(events.contains(&Event::Out { character: 1 }));
        assert_eq!(cs[0].flips, 0, "committed flips are spent");
    }
}
