//! Monte Carlo of whole fights, seeded, parallel and reproducible.
//!
//! Fights are cut into fixed chunks; chunk `i` rolls with its own generator seeded from
//! `(seed, i)`, and results are summed as integers. So the numbers depend on the seed and
//! the number of fights, never on the number of threads or the order chunks finish in.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;
use solum_dice::{DiceError, DiceSource, SeededDice};
use solum_expanded::check::DrawRule;
use solum_expanded::combat::{Combat, CombatError, Command, Fighter, Mode};
use solum_expanded::fight::FightResult;
use solum_expanded::tactic::next_command;

/// Fights per chunk: large enough to amortise the scheduling, small enough to balance cores.
pub const CHUNK: u64 = 4096;

/// Rounds after which an encounter is stopped as undecided.
pub const MAX_ROUNDS: u32 = 1000;

/// The seed of chunk `index`: a SplitMix64 step, so neighbouring chunks get unrelated
/// streams.
pub fn chunk_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Totals over many fights, kept as integers so that sums do not depend on order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Fights run.
    pub fights: u64,
    /// Won by the first side.
    pub wins: u64,
    /// Won by the other side.
    pub losses: u64,
    /// Neither (both out, or stopped undecided).
    pub undecided: u64,
    /// Exchanges or rounds, summed.
    pub rounds: u64,
    /// The first side's hit points left, summed.
    pub hit_points_left: u64,
    /// The other side's hit points left, summed.
    pub foe_hit_points_left: u64,
}

impl Tally {
    fn add(&mut self, r: &FightResult) {
        self.fights += 1;
        if r.won {
            self.wins += 1;
        } else if r.hit_points == 0 && r.foe_hit_points > 0 {
            self.losses += 1;
        } else {
            self.undecided += 1;
        }
        self.rounds += u64::from(r.exchanges);
        self.hit_points_left += u64::from(r.hit_points);
        self.foe_hit_points_left += u64::from(r.foe_hit_points);
    }

    fn merge(mut self, o: Self) -> Self {
        self.fights += o.fights;
        self.wins += o.wins;
        self.losses += o.losses;
        self.undecided += o.undecided;
        self.rounds += o.rounds;
        self.hit_points_left += o.hit_points_left;
        self.foe_hit_points_left += o.foe_hit_points_left;
        self
    }

    /// The win rate.
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.fights.max(1) as f64
    }

    /// The 95% Wilson score interval of the win rate.
    pub fn win_interval(&self) -> (f64, f64) {
        let n = self.fights.max(1) as f64;
        let p = self.win_rate();
        let z = 1.959_963_984_540_054_f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (centre - half, centre + half)
    }

    /// The standard error of the win rate.
    pub fn standard_error(&self) -> f64 {
        let p = self.win_rate();
        (p * (1.0 - p) / self.fights.max(1) as f64).sqrt()
    }

    /// Mean exchanges or rounds per fight.
    pub fn mean_rounds(&self) -> f64 {
        self.rounds as f64 / self.fights.max(1) as f64
    }

    /// Mean hit points left to the first side.
    pub fn mean_hit_points_left(&self) -> f64 {
        self.hit_points_left as f64 / self.fights.max(1) as f64
    }

    /// Mean hit points left to the other side.
    pub fn mean_foe_hit_points_left(&self) -> f64 {
        self.foe_hit_points_left as f64 / self.fights.max(1) as f64
    }
}

/// The most work one simulation may do, estimated before it starts, in steps: a die rolled
/// is a step, and so is each fighter the tactic considers for a command (the cost of a
/// large encounter is its fighters, not its dice). About two seconds of a release build on
/// two cores, whatever the fighters.
pub const MAX_SIM_WORK: u64 = 100_000_000;

/// The pilot that estimates a simulation's work: at most this many fights…
pub const PILOT_FIGHTS: u64 = 256;

/// …and at most this many dice (one fight alone past it is refused).
pub const PILOT_DICE: u64 = MAX_SIM_WORK / 20;

/// What a simulation would cost, from its pilot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorkEstimate {
    /// Fights the pilot played.
    pub pilot_fights: u64,
    /// Steps the pilot took (dice and fighters considered).
    pub pilot_steps: u64,
    /// Steps one fight takes on average (from the pilot).
    pub steps_per_fight: f64,
    /// The most fights that fit in [`MAX_SIM_WORK`].
    pub most_fights: u64,
}

/// A source that counts its dice and fails past a cap, so that a pilot stops in time.
struct Counting<'a> {
    inner: &'a mut SeededDice,
    rolled: u64,
    cap: u64,
}

impl DiceSource for Counting<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        if self.rolled >= self.cap {
            return Err(DiceError::Exhausted {
                given: usize::try_from(self.cap).unwrap_or(usize::MAX),
            });
        }
        self.rolled += 1;
        self.inner.roll(sides)
    }
}

/// Estimates the work of `fights` fights by a seeded pilot of a few fights (at most
/// [`PILOT_FIGHTS`] fights and [`PILOT_DICE`] dice), and refuses before any real work when
/// the whole run would take more than [`MAX_SIM_WORK`] steps, saying how many fights
/// would fit. `steps` tells the steps a state has taken besides its dice (0 for a duel).
pub fn check_work<S, I, F, W>(
    fights: u64,
    seed: u64,
    init: I,
    fight: F,
    steps: W,
) -> Result<WorkEstimate, SimError>
where
    I: Fn() -> S,
    F: Fn(&mut S, &mut dyn DiceSource) -> Result<FightResult, SimError>,
    W: Fn(&S) -> u64,
{
    let mut generator = SeededDice::new(chunk_seed(seed, u64::MAX));
    let mut dice = Counting {
        inner: &mut generator,
        rolled: 0,
        cap: PILOT_DICE,
    };
    let mut state = init();
    let mut played = 0;
    while played < PILOT_FIGHTS.min(fights) && dice.rolled + steps(&state) < PILOT_DICE {
        match fight(&mut state, &mut dice) {
            Ok(_) => played += 1,
            Err(_) if dice.rolled >= PILOT_DICE && played == 0 => {
                return Err(SimError::TooMuchWork {
                    fights,
                    steps_each: PILOT_DICE as f64,
                    most: 0,
                });
            }
            Err(_) if dice.rolled >= PILOT_DICE => break,
            Err(e) => return Err(e),
        }
    }
    let taken = dice.rolled.saturating_add(steps(&state));
    let steps_per_fight = (taken as f64 / played.max(1) as f64).max(1.0);
    let most = (MAX_SIM_WORK as f64 / steps_per_fight).floor() as u64;
    let estimate = WorkEstimate {
        pilot_fights: played,
        pilot_steps: taken,
        steps_per_fight,
        most_fights: most,
    };
    if fights > most {
        return Err(SimError::TooMuchWork {
            fights,
            steps_each: steps_per_fight,
            most,
        });
    }
    Ok(estimate)
}

/// Why a simulation stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A fight could not roll (not expected with seeded dice).
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// The tactic asked for something the rules refuse: a bug worth reporting.
    #[error("the simulated tactic broke a rule: {0}")]
    Combat(#[from] CombatError),
    /// The simulation would take more than [`MAX_SIM_WORK`] steps (refused before it
    /// starts).
    #[error(
        "{fights} fights: each takes about {steps_each:.0} steps (dice rolled and fighters considered, from a seeded pilot), and one simulation takes at most {MAX_SIM_WORK}{}",
        if *most == 0 { format!(": one fight alone rolls more than {PILOT_DICE} dice") } else { format!(": simulate at most {most} fights") }
    )]
    TooMuchWork {
        /// Fights asked for.
        fights: u64,
        /// Steps one fight takes on average.
        steps_each: f64,
        /// The most fights that fit.
        most: u64,
    },
}

impl SimError {
    /// Whether the input asked too much (a refusal, not a failure).
    pub fn is_too_much(&self) -> bool {
        matches!(self, Self::TooMuchWork { .. })
    }
}

/// Runs `fights` fights of `fight` in parallel. `progress` is told how many fights are done
/// (it must be cheap; it is called once per chunk).
pub fn run<F>(
    fights: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    fight: F,
) -> Result<Tally, SimError>
where
    F: Fn(&mut SeededDice) -> Result<FightResult, SimError> + Sync,
{
    run_with(fights, seed, progress, || (), |(), dice| fight(dice))
}

/// [`run`], with a state made once per chunk by `init` and lent to each fight (a combat to
/// restart rather than rebuild).
pub fn run_with<S, I, F>(
    fights: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    init: I,
    fight: F,
) -> Result<Tally, SimError>
where
    I: Fn() -> S + Sync,
    F: Fn(&mut S, &mut SeededDice) -> Result<FightResult, SimError> + Sync,
{
    let chunks = fights.div_ceil(CHUNK);
    let done = AtomicU64::new(0);
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut dice = SeededDice::new(chunk_seed(seed, chunk));
            let mut state = init();
            let n = CHUNK.min(fights - chunk * CHUNK);
            let mut tally = Tally::default();
            for _ in 0..n {
                tally.add(&fight(&mut state, &mut dice)?);
            }
            progress(done.fetch_add(n, Ordering::Relaxed) + n);
            Ok(tally)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))
}

/// One encounter fought with the documented tactic (see
/// [`solum_expanded::tactic`]): the side of the first fighter is "the first side".
/// Initiative is rolled (alternative combat: the listed order, S15), or `ambush` names the
/// side that acts first.
pub fn encounter(
    fighters: &[Fighter],
    mode: Mode,
    ambush: Option<&str>,
    dice: &mut SeededDice,
) -> Result<FightResult, SimError> {
    Encounter::new(fighters, mode, ambush).fight(dice)
}

/// An encounter to fight again and again: the combat is restarted, not rebuilt, and one
/// event buffer serves every command.
pub struct Encounter {
    combat: Combat,
    start: Command,
    side: String,
    events: Vec<solum_expanded::combat::Event>,
    /// Fighters considered, summed over every command played (see [`MAX_SIM_WORK`]).
    considered: u64,
}

impl Encounter {
    /// The fighters of an encounter, in listed order.
    pub fn new(fighters: &[Fighter], mode: Mode, ambush: Option<&str>) -> Self {
        Self {
            combat: Combat::new(fighters.to_vec(), mode),
            start: match ambush {
                Some(side) => Command::Ambush {
                    side: side.to_owned(),
                },
                None => Command::Initiative,
            },
            side: fighters.first().map(|f| f.side.clone()).unwrap_or_default(),
            events: Vec::new(),
            considered: 0,
        }
    }

    /// The same encounter with draws settled as `draws` says (the roll-off option, S14).
    pub fn with_draws(mut self, draws: DrawRule) -> Self {
        self.combat.set_draws(draws);
        self
    }

    /// Fighters considered so far, a step for each fighter at each command: the work of
    /// the tactic and the state machine besides the dice.
    pub fn considered(&self) -> u64 {
        self.considered
    }

    /// Fights it once, from the start.
    pub fn fight(&mut self, dice: &mut dyn DiceSource) -> Result<FightResult, SimError> {
        let combat = &mut self.combat;
        combat.restart();
        self.events.clear();
        combat.apply_into(&self.start, dice, &mut self.events)?;
        while combat.round() <= MAX_ROUNDS {
            match next_command(combat) {
                Some(cmd) => {
                    self.considered += combat.fighters().len() as u64;
                    self.events.clear();
                    combat.apply_into(&cmd, dice, &mut self.events)?;
                }
                None => break,
            }
        }
        let hp = |mine: bool| -> u32 {
            combat
                .fighters()
                .iter()
                .filter(|f| (f.side == self.side) == mine)
                .map(|f| u64::from(f.hit_points))
                .sum::<u64>()
                // A side's total only says who stands; saturate rather than wrap.
                .min(u64::from(u32::MAX)) as u32
        };
        let (mine, theirs) = (hp(true), hp(false));
        Ok(FightResult {
            won: mine > 0 && theirs == 0,
            exchanges: combat.round(),
            hit_points: mine,
            foe_hit_points: theirs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::prob_to_f64;
    use solum_expanded::Pool;
    use solum_expanded::fight::{DuelSpec, Duelist, duel_odds, simulate_duel};

    fn duel() -> DuelSpec {
        DuelSpec {
            first: Duelist {
                pool: Pool::new(3).unwrap(),
                hit_points: 5,
                damage: 2,
            },
            second: Duelist {
                pool: Pool::new(2).unwrap(),
                hit_points: 8,
                damage: 2,
            },
            draws: solum_expanded::check::DrawRule::Stand,
        }
    }

    #[test]
    fn same_numbers_whatever_the_thread_count() {
        let spec = duel();
        let run_with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| run(50_000, 42, &|_| {}, |d| Ok(simulate_duel(&spec, d)?)).unwrap())
        };
        let one = run_with(1);
        assert_eq!(one, run_with(2));
        assert_eq!(one, run_with(3));
        assert_eq!(one.fights, 50_000);
    }

    #[test]
    fn simulated_duels_match_exact_odds() {
        let spec = duel();
        let tally = run(200_000, 7, &|_| {}, |d| Ok(simulate_duel(&spec, d)?)).unwrap();
        let exact = prob_to_f64(&duel_odds(&spec).unwrap().win);
        assert!(
            (tally.win_rate() - exact).abs() < 4.0 * tally.standard_error(),
            "{} vs {exact}",
            tally.win_rate()
        );
    }

    /// The same duel fought through the combat state machine (alternative combat, the
    /// tactic) agrees with the exact odds too: one truth for the rules.
    #[test]
    fn encounters_through_the_state_machine_match_exact_odds() {
        let spec = duel();
        let fighter = |name: &str, side: &str, d: &Duelist| {
            Fighter::plain(
                name,
                side,
                side == "heroes",
                d.pool,
                d.damage,
                None,
                d.hit_points,
            )
        };
        let fighters = [
            fighter("a", "heroes", &spec.first),
            fighter("b", "foes", &spec.second),
        ];
        let tally = run(100_000, 9, &|_| {}, |d| {
            encounter(&fighters, Mode::Alternative, None, d)
        })
        .unwrap();
        let exact = prob_to_f64(&duel_odds(&spec).unwrap().win);
        assert!(
            (tally.win_rate() - exact).abs() < 4.0 * tally.standard_error(),
            "{} vs {exact}",
            tally.win_rate()
        );
    }

    /// With the roll-off option (S14) every exchange of alternative combat hurts someone:
    /// the hero wins an exchange with p = win + draw / 2, and the fight is a race to
    /// ⌈8 / 2⌉ = 4 wins before ⌈5 / 2⌉ = 3 losses, summed here as a negative binomial.
    #[test]
    fn encounters_with_roll_off_match_the_race_of_exchanges() {
        use solum_expanded::check::OpposedSpec;
        use solum_expanded::odds::opposed_odds;
        let spec = duel();
        let stand = opposed_odds(&OpposedSpec::new(spec.first.pool, spec.second.pool));
        let p = prob_to_f64(&stand.win) + prob_to_f64(&stand.draw) / 2.0;
        let (wins, losses) = (4, 3);
        let binomial =
            |n: u64, k: u64| (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
        let exact: f64 = (0..losses)
            .map(|k| binomial(wins - 1 + k, k) * p.powi(wins as i32) * (1.0 - p).powi(k as i32))
            .sum();
        let fighters = [
            Fighter::plain("a", "heroes", true, spec.first.pool, 2, None, 5),
            Fighter::plain("b", "foes", false, spec.second.pool, 2, None, 8),
        ];
        let tally = run_with(
            100_000,
            5,
            &|_| {},
            || Encounter::new(&fighters, Mode::Alternative, None).with_draws(DrawRule::RollOff),
            |e, d| e.fight(d),
        )
        .unwrap();
        assert!(
            (tally.win_rate() - exact).abs() < 4.0 * tally.standard_error(),
            "{} vs {exact}",
            tally.win_rate()
        );
        // Without the roll-off the draws stand and the same fight is not the same race.
        let standing = run(100_000, 5, &|_| {}, |d| {
            encounter(&fighters, Mode::Alternative, None, d)
        })
        .unwrap();
        assert!(standing.mean_rounds() > tally.mean_rounds());
    }

    #[test]
    fn wilson_interval_contains_the_rate() {
        let t = Tally {
            fights: 100,
            wins: 30,
            ..Tally::default()
        };
        let (lo, hi) = t.win_interval();
        assert!(lo < 0.3 && 0.3 < hi && lo > 0.2 && hi < 0.4);
    }
}
