//! Exact fight odds of So1um Expanded without a campaign: `solum odds duel` (two pools with
//! hit points and damage, optionally checked against a seeded simulation) and `solum odds
//! static` (fast static combat, S11). Nothing is journaled.

use serde::Serialize;
use solum_dice::{DiceSource, Prob, SeededDice, TypedDice, prob_to_f64};
use solum_expanded::Difficulty;
use solum_expanded::combat::{StaticCombat, StaticRound};
use solum_expanded::creature::Bestiary;
use solum_expanded::fight::{
    DuelSpec, Duelist, FightError, FightOdds, MAX_DAMAGE, MAX_FIGHT_HP, StaticSpec, duel_odds,
    simulate_duel, static_odds,
};

use crate::bounded::bounded;
use crate::check_once::DrawRule;
use crate::fields::input_fields;
use crate::typed_dice::TypedDiceError;

/// A fighter's combat pool (and a vehicle's pilot's): the So1um Expanded pool typed as a
/// number, beside the check whose opposing side takes it too.
pub use crate::check_once::CombatPool;

bounded! {
    /// A fighter's hit points, 1 to [`MAX_FIGHT_HP`] (exact odds grow with their product).
    pub struct HitPoints(u32) in 1, MAX_FIGHT_HP;
    "hit points are {min} to {max}"
}

bounded! {
    /// The damage a won exchange (or round) deals, 0 to [`MAX_DAMAGE`].
    pub struct Damage(u32) in 0, MAX_DAMAGE;
    "damage is {min} to {max}"
}

/// The most duels a simulation runs.
pub const MAX_SIMULATED: u64 = 1_000_000_000;

input_fields! {
    /// An input of a fight's odds, for errors a front end names as its own flag (pools, hit
    /// points, damage and a typed difficulty are refused by their types: [`CombatPool`],
    /// [`HitPoints`], [`Damage`], the rules' [`Difficulty`]; a bestiary's by the bestiary).
    Field {
        /// Duels to simulate.
        Simulate = "simulate",
        /// A static opposition of the bestiary, by name.
        Foe = "foe",
        /// Faces typed in by hand.
        Rolled = "rolled",
    }
}

/// Why a fight's odds were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FightOnceError {
    /// A fight the rules cannot settle (nobody deals damage, …).
    #[error(transparent)]
    Fight(#[from] FightError),
    /// A number of duels to simulate out of range, or more work than a run may take.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    Simulate {
        /// What is wrong.
        problem: String,
    },
    /// The simulation failed (not expected with seeded dice).
    #[error("the simulation failed: {0}")]
    Simulation(String),
    /// A name that is no static opposition of the bestiary.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    UnknownFoe {
        /// The name asked for.
        name: String,
        /// The static oppositions there are.
        known: Vec<String>,
    },
    /// Typed dice that do not fit the fight, or the dice could not be rolled.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    Dice(#[from] TypedDiceError<Field>),
}

impl FightOnceError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Simulate { .. } => Some(Field::Simulate),
            Self::UnknownFoe { .. } => Some(Field::Foe),
            Self::Dice(e) => e.field(),
            Self::Fight(_) | Self::Simulation(_) => None,
        }
    }

    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Fight(_) => "fight-never-ends",
            Self::Simulate { .. } => "fight-simulate",
            Self::Simulation(_) => "fight-simulation",
            Self::UnknownFoe { .. } => "fight-foe-unknown",
            Self::Dice(e) => e.code(),
        }
    }

    /// True when the input is at fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::Simulation(_) => false,
            Self::Dice(e) => e.is_bad_input(),
            _ => true,
        }
    }

    /// The message with the fields named by `name` (the command line passes its flags).
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        match self {
            Self::Simulate { problem } => format!("{} {problem}", name(Field::Simulate)),
            Self::Fight(e) => e.to_string(),
            Self::Simulation(e) => format!("the simulation failed: {e}"),
            Self::UnknownFoe { name: foe, known } => format!(
                "{} `{foe}` is not a static opposition (known: {})",
                name(Field::Foe),
                known.join(", ")
            ),
            Self::Dice(e) => e.describe(name),
        }
    }
}

/// One side of a fight as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FighterAsk {
    /// Its pool.
    pub pool: CombatPool,
    /// Its hit points.
    pub hp: HitPoints,
    /// The damage it deals.
    pub damage: Damage,
}

/// The exact odds of a fight, as a race over exchanges (or rounds).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FightOddsView {
    /// The first side (the hero) wins.
    pub p_win: f64,
    /// The other side does.
    pub p_lose: f64,
    /// `p_win` exactly, when it is exact (`error_bound` 0).
    pub p_win_exact: Option<String>,
    /// `p_lose` exactly, when it is exact.
    pub p_lose_exact: Option<String>,
    /// 0 when exact; else a bound on the error of `p_win`.
    pub error_bound: f64,
    /// One exchange (or round) goes the first side's way, draws excluded.
    pub p_exchange: f64,
    /// The same, exactly.
    pub p_exchange_exact: String,
    /// Exchange wins the first side needs.
    pub wins_needed: u32,
    /// Exchange losses that take it out.
    pub losses_to_fall: u32,
}

fn exact(o: &FightOdds, p: &Prob) -> Option<String> {
    o.is_exact().then(|| p.to_string())
}

impl From<FightOdds> for FightOddsView {
    fn from(o: FightOdds) -> Self {
        Self {
            p_win: prob_to_f64(&o.win),
            p_lose: prob_to_f64(&o.lose),
            p_win_exact: exact(&o, &o.win),
            p_lose_exact: exact(&o, &o.lose),
            error_bound: o.error_bound,
            p_exchange: prob_to_f64(&o.p_exchange),
            p_exchange_exact: o.p_exchange.to_string(),
            wins_needed: o.wins_needed,
            losses_to_fall: o.losses_to_fall,
        }
    }
}

/// A seeded simulation of the duel beside its exact odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimulatedDuels {
    /// Duels run.
    pub fights: u64,
    /// Won by the first side.
    pub win_rate: f64,
    /// The standard error of the win rate.
    pub standard_error: f64,
    /// How many standard errors the rate lies from the exact chance.
    pub z: f64,
    /// Exchanges per duel, on average.
    pub mean_exchanges: f64,
    /// The seed (replay with it).
    pub seed: u64,
}

/// The odds of a duel, with a simulation if one was asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DuelOddsView {
    /// The first duelist.
    pub first: Duelist,
    /// The second.
    pub second: Duelist,
    /// Draws rolled off rather than repeated.
    pub roll_off: bool,
    /// The exact odds.
    #[serde(flatten)]
    pub odds: FightOddsView,
    /// The simulation, if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated: Option<SimulatedDuels>,
}

/// A duel as typed; `simulate` duels are run from `seed` (a fresh one when `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuelAsk {
    /// The first side.
    pub first: FighterAsk,
    /// The other side.
    pub second: FighterAsk,
    /// Draws rolled off.
    pub roll_off: bool,
    /// Duels to simulate beside the exact odds.
    pub simulate: Option<u64>,
    /// The simulation's seed.
    pub seed: Option<u64>,
}

/// The exact odds of a duel, and a seeded simulation of it if asked for (sized before it
/// runs: a run past the simulation's work limit is refused with the number that fits).
pub fn duel_odds_once(ask: &DuelAsk) -> Result<DuelOddsView, FightOnceError> {
    let spec = DuelSpec {
        first: Duelist {
            pool: ask.first.pool.pool(),
            hit_points: ask.first.hp.get(),
            damage: ask.first.damage.get(),
        },
        second: Duelist {
            pool: ask.second.pool.pool(),
            hit_points: ask.second.hp.get(),
            damage: ask.second.damage.get(),
        },
        draws: if ask.roll_off {
            DrawRule::RollOff
        } else {
            DrawRule::Stand
        },
    };
    let odds = duel_odds(&spec)?;
    let simulated = match ask.simulate {
        None => None,
        Some(n) => Some(simulate(&spec, n, ask.seed, prob_to_f64(&odds.win))?),
    };
    Ok(DuelOddsView {
        first: spec.first,
        second: spec.second,
        roll_off: ask.roll_off,
        odds: odds.into(),
        simulated,
    })
}

fn simulate(
    spec: &DuelSpec,
    fights: u64,
    seed: Option<u64>,
    exact: f64,
) -> Result<SimulatedDuels, FightOnceError> {
    let fights = Some(fights)
        .filter(|n| (1..=MAX_SIMULATED).contains(n))
        .ok_or_else(|| FightOnceError::Simulate {
            problem: format!("{fights}: 1 to {MAX_SIMULATED} fights"),
        })?;
    let seed = seed.unwrap_or_else(|| SeededDice::from_entropy().seed());
    crate::sim::check_work(
        fights,
        seed,
        || (),
        |(), d| Ok(simulate_duel(spec, d)?),
        |()| 0,
    )
    .map_err(|e| {
        if e.is_too_much() {
            FightOnceError::Simulate {
                problem: e.to_string(),
            }
        } else {
            FightOnceError::Simulation(e.to_string())
        }
    })?;
    let tally = crate::sim::run(fights, seed, &|_| {}, |d| Ok(simulate_duel(spec, d)?))
        .map_err(|e| FightOnceError::Simulation(e.to_string()))?;
    Ok(SimulatedDuels {
        fights: tally.fights,
        win_rate: tally.win_rate(),
        standard_error: tally.standard_error(),
        z: (tally.win_rate() - exact) / tally.standard_error().max(1e-300),
        mean_exchanges: tally.mean_rounds(),
        seed,
    })
}

/// Fast static combat as typed (S11): the hero's pool against a difficulty, each side's hit
/// points and damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticAsk {
    /// The hero.
    pub hero: FighterAsk,
    /// The opposition's difficulty.
    pub vs: Difficulty,
    /// The opposition's hit points.
    pub foe_hp: HitPoints,
    /// The opposition's damage.
    pub foe_damage: Damage,
}

/// The odds of fast static combat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StaticOddsView {
    /// What was asked, checked.
    pub spec: StaticSpec,
    /// The exact odds.
    #[serde(flatten)]
    pub odds: FightOddsView,
}

/// The exact odds of fast static combat.
pub fn static_odds_once(ask: &StaticAsk) -> Result<StaticOddsView, FightOnceError> {
    let spec = StaticSpec {
        pool: ask.hero.pool.pool(),
        difficulty: ask.vs,
        hit_points: ask.hero.hp.get(),
        damage: ask.hero.damage.get(),
        foe_hit_points: ask.foe_hp.get(),
        foe_damage: ask.foe_damage.get(),
    };
    Ok(StaticOddsView {
        odds: static_odds(&spec)?.into(),
        spec,
    })
}

/// The opposition of a one-shot fast static combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaticFoeAsk<'a> {
    /// A static entry of the bestiary, by name.
    Named(&'a str),
    /// Typed: a difficulty, hit points and damage ("the opposition").
    Typed {
        /// Its difficulty.
        vs: Difficulty,
        /// Its hit points.
        hp: HitPoints,
        /// Its damage.
        damage: Damage,
    },
}

/// A one-shot fast static combat as typed (`solum static` without a character, S11):
/// played round by round from typed faces or a seed, nothing journaled.
#[derive(Debug, Clone, Copy)]
pub struct StaticPlayAsk<'a> {
    /// The hero.
    pub hero: FighterAsk,
    /// The opposition.
    pub foe: StaticFoeAsk<'a>,
    /// Where a named opposition is looked up: the shipped bestiary and the files the front
    /// end read (`creatures::bestiary_with`).
    pub bestiary: &'a Bestiary,
    /// Faces typed in by hand, as text (`4,1,1`).
    pub rolled: Option<&'a str>,
    /// The seed of the dice not typed (a fresh one when `None`).
    pub seed: Option<u64>,
}

/// A one-shot fast static combat played to its end (or to the rounds' cap).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StaticPlayView {
    /// The opposition's name ("the opposition" when typed).
    pub foe: String,
    /// The fight as it started, checked.
    pub spec: StaticSpec,
    /// The hero's exact chance to win, as the nearest `f64`.
    pub p_win: f64,
    /// The same exactly, when it is exact.
    pub p_win_exact: Option<String>,
    /// Every round, in order.
    pub rounds: Vec<StaticRound>,
    /// True when the opposition fell.
    pub won: bool,
    /// True when the rounds' cap stopped the fight with both sides standing.
    pub stopped: bool,
    /// The seed, if a generator rolled anything.
    pub seed: Option<u64>,
}

/// The order typed faces are read in by a fast static combat.
pub const STATIC_ORDER: &str =
    "values go: each round's pool, then its Rule-of-6 chain (only above difficulty 6)";

fn static_spec(ask: &StaticPlayAsk<'_>) -> Result<(String, StaticSpec), FightOnceError> {
    let (name, difficulty, foe_hit_points, foe_damage) = match ask.foe {
        StaticFoeAsk::Named(name) => {
            let foe = ask
                .bestiary
                .static_foe(name)
                .ok_or_else(|| FightOnceError::UnknownFoe {
                    name: name.to_owned(),
                    known: ask.bestiary.static_foes().map(|f| f.name.clone()).collect(),
                })?;
            // A bestiary holds only what `Bestiary::add` validated: 1 to the rules' most.
            let difficulty = Difficulty::new(i64::from(foe.difficulty))
                .expect("a bestiary's static opposition has a difficulty of the rules");
            (foe.name.clone(), difficulty, foe.hit_points, foe.damage)
        }
        StaticFoeAsk::Typed { vs, hp, damage: d } => {
            ("the opposition".to_owned(), vs, hp.get(), d.get())
        }
    };
    let spec = StaticSpec {
        pool: ask.hero.pool.pool(),
        difficulty,
        hit_points: ask.hero.hp.get(),
        damage: ask.hero.damage.get(),
        foe_hit_points,
        foe_damage,
    };
    Ok((name, spec))
}

/// Why typed faces were left over: what ended the rolling, then the rules that rolled no
/// die where one might be expected.
fn static_left_over(spec: &StaticSpec, rounds: &[StaticRound]) -> Vec<String> {
    let mut why = vec![format!("the fight is over after round {}", rounds.len())];
    if spec.difficulty.is_automatic() {
        why.push("difficulty 1 is automatic: no round rolls dice".to_owned());
    } else if rounds
        .iter()
        .any(|r| r.check.roll.as_ref().is_some_and(|p| p.chain_not_needed))
    {
        why.push(format!(
            "a 6 already reaches {}, so no Rule-of-6 chain die is rolled",
            spec.difficulty.value()
        ));
    }
    why
}

/// Plays a one-shot fast static combat (S11): its exact odds, then rounds until one side
/// falls, from the faces typed (every one must be used) or a seed.
pub fn play_static_once(ask: &StaticPlayAsk<'_>) -> Result<StaticPlayView, FightOnceError> {
    let (foe, spec) = static_spec(ask)?;
    let typed = ask
        .rolled
        .map(|t| TypedDiceError::faces(t, Field::Rolled))
        .transpose()?;
    if let (Some(_), Some(seed)) = (&typed, ask.seed) {
        return Err(TypedDiceError::SeedRollsNothing { seed }.into());
    }
    let odds = FightOddsView::from(static_odds(&spec)?);
    let mut fight = StaticCombat {
        pool: spec.pool,
        difficulty: spec.difficulty,
        hit_points: spec.hit_points,
        damage: spec.damage,
        foe_hit_points: spec.foe_hit_points,
        foe_damage: spec.foe_damage,
    };
    let mut seeded = None;
    let (play, left_over) = match typed {
        Some(faces) => {
            let mut dice = TypedDice::new(faces);
            let play = fight
                .play_out(&mut dice)
                .map_err(|e| TypedDiceError::from_dice(e, Field::Rolled, STATIC_ORDER))?;
            (play, dice.finish().err())
        }
        None => {
            let dice = seeded.insert(match ask.seed {
                Some(seed) => SeededDice::new(seed),
                None => SeededDice::from_entropy(),
            });
            let play = fight
                .play_out(dice as &mut dyn DiceSource)
                .map_err(|e| TypedDiceError::<Field>::Source(e.to_string()))?;
            (play, None)
        }
    };
    if let Some((used, given)) = left_over {
        return Err(TypedDiceError::TooMany {
            field: Field::Rolled,
            given,
            used,
            why: static_left_over(&spec, &play.rounds),
            order: STATIC_ORDER.to_owned(),
        }
        .into());
    }
    // A fight decided without a roll (difficulty 1) rolled nothing: no seed to show.
    let rolled_any = play.rounds.iter().any(|r| r.check.roll.is_some());
    Ok(StaticPlayView {
        foe,
        won: fight.foe_hit_points == 0,
        spec,
        p_win: odds.p_win,
        p_win_exact: odds.p_win_exact,
        rounds: play.rounds,
        stopped: play.stopped,
        seed: seeded.filter(|_| rolled_any).map(|d| d.seed()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(pool: u32, hp: u32, damage: u32) -> FighterAsk {
        FighterAsk {
            pool: CombatPool::new(pool).unwrap(),
            hp: HitPoints::new(hp).unwrap(),
            damage: Damage::new(damage).unwrap(),
        }
    }

    fn hp(n: u32) -> HitPoints {
        HitPoints::new(n).unwrap()
    }

    fn dmg(n: u32) -> Damage {
        Damage::new(n).unwrap()
    }

    crate::bounded::bounded_tests!(hit_points, HitPoints, "hit points are 1 to 10000");
    crate::bounded::bounded_tests!(damage, Damage, "damage is 0 to 1000000");

    #[test]
    fn a_mirror_duel_is_even_and_its_simulation_agrees() {
        let ask = DuelAsk {
            first: side(2, 3, 1),
            second: side(2, 3, 1),
            roll_off: false,
            simulate: Some(20_000),
            seed: Some(5),
        };
        let v = duel_odds_once(&ask).unwrap();
        // Two like sides: each wins half the duels, exactly.
        assert_eq!(v.odds.p_win_exact.as_deref(), Some("1/2"));
        let sim = v.simulated.unwrap();
        assert_eq!((sim.fights, sim.seed), (20_000, 5));
        assert!(sim.z.abs() < 5.0, "{sim:?}");
    }

    #[test]
    fn numbers_out_of_range_name_their_field() {
        let ask = DuelAsk {
            first: side(2, 3, 1),
            second: side(2, 3, 1),
            roll_off: false,
            simulate: Some(0),
            seed: None,
        };
        assert_eq!(duel_odds_once(&ask).unwrap_err().code(), "fight-simulate");
    }

    #[test]
    fn static_combat_against_an_automatic_difficulty_is_won() {
        // Difficulty 1 passes every round: the hero always wins.
        let v = static_odds_once(&StaticAsk {
            hero: side(1, 1, 1),
            vs: Difficulty::new(1).unwrap(),
            foe_hp: hp(3),
            foe_damage: dmg(1),
        })
        .unwrap();
        assert_eq!(v.odds.p_win_exact.as_deref(), Some("1"));
    }

    fn play(rolled: Option<&str>, seed: Option<u64>) -> Result<StaticPlayView, FightOnceError> {
        play_static_once(&StaticPlayAsk {
            hero: side(2, 2, 1),
            foe: StaticFoeAsk::Typed {
                vs: Difficulty::new(4).unwrap(),
                hp: hp(2),
                damage: dmg(1),
            },
            bestiary: &Bestiary::shipped(),
            rolled,
            seed,
        })
    }

    #[test]
    fn a_one_shot_static_fight_plays_typed_rounds_to_the_end() {
        // Two dice against 4, each side 2 hit points and 1 damage (S11): 3,2 fails (the
        // hero falls to 1), 4,1 and 5,1 pass (the opposition to 1, then 0).
        let v = play(Some("3,2 4,1 5,1"), None).unwrap();
        let hp: Vec<(u32, u32)> = v
            .rounds
            .iter()
            .map(|r| (r.hit_points, r.foe_hit_points))
            .collect();
        assert_eq!(hp, [(1, 2), (1, 1), (1, 0)]);
        assert!(v.won && !v.stopped);
        assert_eq!((v.foe.as_str(), v.seed), ("the opposition", None));
        assert!(v.p_win > 0.0 && v.p_win < 1.0);
        let json = serde_json::to_value(&v).unwrap();
        for key in ["p_win", "rounds", "won", "stopped", "seed"] {
            assert!(json.get(key).is_some(), "{key}");
        }
    }

    #[test]
    fn a_one_shot_static_fight_refuses_dice_and_foes_as_values() {
        let e = play(Some("3,2 4,1 5,1 6"), None).unwrap_err();
        assert_eq!(
            e,
            FightOnceError::Dice(TypedDiceError::TooMany {
                field: Field::Rolled,
                given: 7,
                used: 6,
                why: vec!["the fight is over after round 3".to_owned()],
                order: STATIC_ORDER.to_owned(),
            })
        );
        assert_eq!(e.code(), "dice-too-many");
        assert_eq!(
            e.describe(|f| format!("--{}", f.name())),
            format!(
                "too many values in --rolled: 7 given, the roll used 6 (the fight is over after round 3; {STATIC_ORDER})"
            )
        );
        let e = play(Some("3,2 4"), None).unwrap_err();
        assert_eq!((e.code(), e.field()), ("dice-too-few", Some(Field::Rolled)));
        assert_eq!(play(Some("x"), None).unwrap_err().code(), "dice-faces");
        let e = play(Some("4,4"), Some(3)).unwrap_err();
        assert_eq!(e.code(), "dice-seed-rolls-nothing");
        let e = play_static_once(&StaticPlayAsk {
            hero: side(3, 5, 2),
            foe: StaticFoeAsk::Named("dragon"),
            bestiary: &Bestiary::shipped(),
            rolled: None,
            seed: Some(1),
        })
        .unwrap_err();
        assert_eq!(
            (e.code(), e.field()),
            ("fight-foe-unknown", Some(Field::Foe))
        );
        assert!(
            e.to_string()
                .starts_with("foe `dragon` is not a static opposition")
        );
    }

    #[test]
    fn a_seeded_one_shot_static_fight_is_repeatable() {
        let a = play(None, Some(9)).unwrap();
        assert_eq!(a, play(None, Some(9)).unwrap());
        assert_eq!(a.seed, Some(9));
    }
}
