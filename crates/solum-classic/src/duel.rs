//! Combat of the original So1um and its exact odds (C2).
//!
//! Each exchange both sides roll the dice of their applicable stat (C3: Body by default, or
//! Mind for a spell, Spirit for a mind duel; one more for an applicable cliché); the high
//! roll takes one hit point from the other, a tie does nothing. The side that takes the hit
//! may lose a point of Body instead, which costs it a die from then on when it fights with
//! Body ("any subsequent Body contests use the current score"). Death comes at 0 Body or 0
//! hit points. The choice is the player's at the table; for odds and simulation a fixed
//! [`Policy`] makes it. The fight itself is [`crate::fight::ClassicFight`]; this module
//! holds its exact odds.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, Prob};
use thiserror::Error;

use crate::fight::{ClassicFight, FightError, Fighter};

/// How a side takes a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = classic::Policy))]
pub enum Policy {
    /// Lose hit points, keeping the dice; give up Body only when the last hit point is at
    /// stake and Body can spare one (the longest life).
    #[default]
    Survive,
    /// Always lose a hit point.
    HitPoints,
    /// Lose Body while it is above 1, then hit points.
    Body,
}

impl Policy {
    /// Whether to lose Body for this hit.
    pub fn loses_body(self, body: u32, hit_points: u32) -> bool {
        match self {
            Self::Survive => hit_points == 1 && body > 1,
            Self::HitPoints => false,
            Self::Body => body > 1,
        }
    }
}

impl std::str::FromStr for Policy {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "survive" => Ok(Self::Survive),
            "hit-points" | "hp" => Ok(Self::HitPoints),
            "body" => Ok(Self::Body),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a policy",
                "survive, hit-points or body",
            )),
        }
    }
}

/// One side of a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Side {
    /// Body: the combat dice and a life line.
    pub body: u32,
    /// Hit points.
    pub hit_points: u32,
    /// An applicable cliché adds a die.
    pub cliche: bool,
    /// How it takes hits.
    pub policy: Policy,
    /// The value of the applicable stat when it is not Body (Mind for a spell, Spirit for
    /// a mind duel): Body lost then costs no dice. `None` fights with Body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stat: Option<u32>,
}

impl Side {
    /// The dice it rolls now: the applicable stat (current Body by default), one more for
    /// a cliché.
    pub fn dice(&self) -> u32 {
        self.dice_at(self.body)
    }

    /// The dice it rolls at this Body.
    fn dice_at(&self, body: u32) -> u32 {
        // Saturating: a side out of the limits is refused before it rolls.
        self.stat
            .unwrap_or(body)
            .saturating_add(u32::from(self.cliche))
    }
}

/// The largest Body, hit points or stat a duel takes. The state space is both sides' Body
/// times hit points, at most 30⁴ = 810,000 states: the f64 solution holds them in 6.5 MB and
/// solves them in milliseconds.
pub const MAX_DUEL_STAT: u32 = 30;

/// The most states the exact rational solution visits: its fractions grow with every state
/// (Body 30 / hit points 30 took over two minutes), so past this the odds come from the
/// f64 solution, within [`F64_ERROR_BOUND`]. 4⁴ states answer in well under a second.
pub const MAX_EXACT_STATES: u64 = 256;

/// The most the f64 solution can be off the exact chance (an absolute bound; see
/// [`duel_odds_f64`] for its derivation).
pub const F64_ERROR_BOUND: f64 = 1e-12;

/// A duel that cannot be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DuelError {
    /// A number outside its limit: which side and field, and the value.
    #[error("{0}: {1} is outside 1 to {MAX_DUEL_STAT}")]
    Range(&'static str, u32),
    /// Too many states for the exact fractions.
    #[error(
        "{0} states: exact fractions stop at {MAX_EXACT_STATES} states (Body × hit points of one side times the other's); use the f64 odds"
    )]
    TooBigForExact(u64),
    /// A number of simulated duels outside its limit.
    #[error("--simulate {0}: run 1 to {MAX_SIMULATED} duels")]
    Fights(u32),
    /// A simulation that would roll too many dice.
    #[error(
        "--simulate {fights}: these duels roll {dice_each:.0} dice each on average, and one simulation rolls at most {MAX_SIMULATED_DICE:e} dice: simulate at most {most} duels"
    )]
    TooLong {
        /// Duels asked for.
        fights: u32,
        /// Dice a duel rolls on average.
        dice_each: f64,
        /// The most duels within the limit.
        most: u64,
    },
}

/// The chance that the first side wins, exact when the duel is small enough.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DuelOdds {
    /// The chance, as a float.
    pub p: f64,
    /// The exact fraction, when the duel has at most [`MAX_EXACT_STATES`] states.
    #[serde(skip)]
    pub exact: Option<Prob>,
    /// How far `p` may be off the exact chance: 0 when exact, else [`F64_ERROR_BOUND`].
    pub error_bound: f64,
}

fn check(side: &Side, who: &'static str) -> Result<(), DuelError> {
    let first = who == "first";
    for (what, foe, v) in [
        ("body", "foe body", side.body),
        ("hit points", "foe hit points", side.hit_points),
        ("stat", "foe stat", side.stat.unwrap_or(1)),
    ] {
        if !(1..=MAX_DUEL_STAT).contains(&v) {
            return Err(DuelError::Range(if first { what } else { foe }, v));
        }
    }
    Ok(())
}

/// The states of the chain: Body times hit points of one side, times the other's.
pub fn duel_states(first: &Side, second: &Side) -> u64 {
    [first.body, first.hit_points, second.body, second.hit_points]
        .iter()
        .map(|&v| u64::from(v))
        .product()
}

/// The exact chances of one exchange of `a` dice against `b` dice: `a` wins (its best die
/// is higher), a tie (no damage), `b` wins. A pool under one die rolls one, as
/// [`roll_exchange`] does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::ExchangeOdds))]
pub struct ExchangeOdds {
    /// The first side's best die is higher.
    pub win: f64,
    /// Both best dice are equal.
    pub tie: f64,
    /// The second side's best die is higher.
    pub lose: f64,
    /// The same, exactly: win, tie, lose as fractions.
    #[cfg_attr(feature = "openapi", schema(min_items = 3, max_items = 3))]
    pub exact: [String; 3],
}

/// [`ExchangeOdds`] of `a` dice against `b` dice (each pool at most [`MAX_DUEL_STAT`] + 1
/// dice in a fight; larger pools are still exact, only slower).
pub fn exchange_odds(a: u32, b: u32) -> ExchangeOdds {
    let (a, b) = (a.max(1), b.max(1));
    let (win, lose) = exchange(a, b);
    let all = BigInt::from(6).pow(a + b);
    let tie = &all - &win - &lose;
    let p = |x: BigInt| Prob::new(x, all.clone());
    let (w, t, l) = (p(win), p(tie), p(lose));
    ExchangeOdds {
        win: solum_dice::prob_to_f64(&w),
        tie: solum_dice::prob_to_f64(&t),
        lose: solum_dice::prob_to_f64(&l),
        exact: [&w, &t, &l].map(|x| format!("{}/{}", x.numer(), x.denom())),
    }
}

/// Win and lose weights of one exchange of `a` dice against `b` dice, over 6^(a+b).
fn exchange(a: u32, b: u32) -> (BigInt, BigInt) {
    let w = |n: u32| -> Vec<BigInt> {
        (1..=6u32)
            .map(|v| BigInt::from(v).pow(n) - BigInt::from(v - 1).pow(n))
            .collect()
    };
    let (wa, wb) = (w(a), w(b));
    let (mut win, mut lose) = (BigInt::zero(), BigInt::zero());
    for (i, x) in wa.iter().enumerate() {
        for (j, y) in wb.iter().enumerate() {
            let p = x * y;
            if i > j {
                win += p;
            } else if i < j {
                lose += p;
            }
        }
    }
    (win, lose)
}

fn hit(side: Side, body: u32, hp: u32) -> (u32, u32) {
    if side.policy.loses_body(body, hp) {
        (body - 1, hp)
    } else {
        (body, hp - 1)
    }
}

/// The chance that `first` kills `second`: the exact fraction up to [`MAX_EXACT_STATES`]
/// states, else the f64 solution.
pub fn duel_chance(first: Side, second: Side) -> Result<DuelOdds, DuelError> {
    check(&first, "first")?;
    check(&second, "second")?;
    if duel_states(&first, &second) <= MAX_EXACT_STATES {
        let exact = duel_odds(first, second)?;
        Ok(DuelOdds {
            p: solum_dice::prob_to_f64(&exact),
            exact: Some(exact),
            error_bound: 0.0,
        })
    } else {
        Ok(DuelOdds {
            p: duel_odds_f64(first, second)?,
            exact: None,
            error_bound: F64_ERROR_BOUND,
        })
    }
}

/// The exact chance that `first` kills `second`, for duels of at most
/// [`MAX_EXACT_STATES`] states.
pub fn duel_odds(first: Side, second: Side) -> Result<Prob, DuelError> {
    check(&first, "first")?;
    check(&second, "second")?;
    let states = duel_states(&first, &second);
    if states > MAX_EXACT_STATES {
        return Err(DuelError::TooBigForExact(states));
    }
    let mut memo: HashMap<(u32, u32, u32, u32), Prob> = HashMap::new();
    let mut exchanges: HashMap<(u32, u32), (BigInt, BigInt)> = HashMap::new();
    Ok(solve(
        first,
        second,
        (first.body, first.hit_points, second.body, second.hit_points),
        &mut memo,
        &mut exchanges,
    ))
}

/// The chance that `first` kills `second` in f64, solving the same chain once in
/// topological order: every exchange that draws blood takes one from one of the four
/// numbers (Body and hit points of both sides), so a state depends only on states that are
/// lexicographically smaller, and ascending loops meet each after its successors.
///
/// Error bound. The win and lose weights are exact integers; `p = win / (win + lose)` and
/// `q = lose / (win + lose)` come within 4 ulp (two roundings to f64, one division). A
/// state's value `p·x + q·y` of two values in [0, 1] adds at most 3 ulp of rounding plus
/// the error of `p` and `q`, and the error carried from `x` and `y` does not grow (`p + q =
/// 1`). A path has at most 4 × 30 = 120 steps, so the error is at most 120 × 11 × 2⁻⁵³ ≈
/// 1.5 × 10⁻¹³, under [`F64_ERROR_BOUND`].
pub fn duel_odds_f64(first: Side, second: Side) -> Result<f64, DuelError> {
    solve_f64(first, second).map(|(p, _)| p)
}

/// The dice a duel rolls on average, ties included: what a simulation of it costs.
pub fn expected_dice(first: Side, second: Side) -> Result<f64, DuelError> {
    solve_f64(first, second).map(|(_, dice)| dice)
}

/// The most dice one simulation may roll on average (`fights` times [`expected_dice`]):
/// a second or two of rolling in a release build. Past it, fewer duels.
pub const MAX_SIMULATED_DICE: f64 = 1e8;

/// Refuses a simulation of `fights` duels that would roll more than [`MAX_SIMULATED_DICE`]
/// dice on average (two 30-dice sides tie nine exchanges in ten), before any die is rolled.
pub fn check_simulation(first: Side, second: Side, fights: u32) -> Result<(), DuelError> {
    if !(1..=MAX_SIMULATED).contains(&fights) {
        return Err(DuelError::Fights(fights));
    }
    let dice = expected_dice(first, second)?;
    if f64::from(fights) * dice > MAX_SIMULATED_DICE {
        return Err(DuelError::TooLong {
            fights,
            dice_each: dice,
            most: (MAX_SIMULATED_DICE / dice).floor() as u64,
        });
    }
    Ok(())
}

/// Both sides' chance and the expected dice, by the same ascending loops.
fn solve_f64(first: Side, second: Side) -> Result<(f64, f64), DuelError> {
    check(&first, "first")?;
    check(&second, "second")?;
    let (a, b) = (first, second);
    // Indices 0..=value; a 0 anywhere is a death.
    let dims = [a.body, a.hit_points, b.body, b.hit_points].map(|v| v as usize + 1);
    let at = |ab: u32, ah: u32, bb: u32, bh: u32| {
        ((ab as usize * dims[1] + ah as usize) * dims[2] + bb as usize) * dims[3] + bh as usize
    };
    // Per pair of pools: the chances to win and to lose an exchange that is not a tie, and
    // the dice rolled until one is not.
    let mut step: HashMap<(u32, u32), (f64, f64, f64)> = HashMap::new();
    let size: usize = dims.iter().product();
    let (mut value, mut dice) = (vec![0.0f64; size], vec![0.0f64; size]);
    for ab in 0..=a.body {
        for ah in 0..=a.hit_points {
            for bb in 0..=b.body {
                for bh in 0..=b.hit_points {
                    let i = at(ab, ah, bb, bh);
                    if bb == 0 || bh == 0 {
                        value[i] = 1.0;
                        continue;
                    }
                    if ab == 0 || ah == 0 {
                        continue;
                    }
                    let pools = (a.dice_at(ab), b.dice_at(bb));
                    let (p, q, rolled) = *step.entry(pools).or_insert_with(|| {
                        let (win, lose) = exchange(pools.0, pools.1);
                        let total = &win + &lose;
                        let all = BigInt::from(6).pow(pools.0 + pools.1);
                        let f = |x: &BigInt| x.to_f64().unwrap_or(f64::MAX);
                        let exchanges = f(&all) / f(&total);
                        (
                            f(&win) / f(&total),
                            f(&lose) / f(&total),
                            exchanges * f64::from(pools.0 + pools.1),
                        )
                    });
                    let (nbb, nbh) = hit(b, bb, bh);
                    let (nab, nah) = hit(a, ab, ah);
                    let (w, l) = (at(ab, ah, nbb, nbh), at(nab, nah, bb, bh));
                    value[i] = p * value[w] + q * value[l];
                    dice[i] = rolled + p * dice[w] + q * dice[l];
                }
            }
        }
    }
    let start = at(a.body, a.hit_points, b.body, b.hit_points);
    Ok((value[start], dice[start]))
}

fn solve(
    a: Side,
    b: Side,
    state: (u32, u32, u32, u32),
    memo: &mut HashMap<(u32, u32, u32, u32), Prob>,
    exchanges: &mut HashMap<(u32, u32), (BigInt, BigInt)>,
) -> Prob {
    let (ab, ah, bb, bh) = state;
    if bb == 0 || bh == 0 {
        return Prob::one();
    }
    if ab == 0 || ah == 0 {
        return Prob::zero();
    }
    if let Some(p) = memo.get(&state) {
        return p.clone();
    }
    let pools = (a.dice_at(ab), b.dice_at(bb));
    let (win, lose) = exchanges
        .entry(pools)
        .or_insert_with(|| exchange(pools.0, pools.1))
        .clone();
    // Draws repeat the exchange: only win and lose matter.
    let total = &win + &lose;
    let p = Prob::new(win, total.clone());
    let q = Prob::new(lose, total);
    let (nbb, nbh) = hit(b, bb, bh);
    let (nab, nah) = hit(a, ab, ah);
    let value = p * solve(a, b, (ab, ah, nbb, nbh), memo, exchanges)
        + q * solve(a, b, (nab, nah, bb, bh), memo, exchanges);
    memo.insert(state, value.clone());
    value
}

/// One exchange of blows: both sides' dice and who won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Exchange))]
pub struct Exchange {
    /// The first side's dice.
    pub first: Vec<u32>,
    /// The second side's dice.
    pub second: Vec<u32>,
    /// 1: the first side won, -1: the second, 0: a tie (no damage).
    #[cfg_attr(feature = "openapi", schema(minimum = -1, maximum = 1))]
    pub winner: i8,
}

/// Rolls one exchange: the first side's pool, then the second's; the high roll wins.
pub fn roll_exchange(
    first_pool: u32,
    second_pool: u32,
    dice: &mut dyn DiceSource,
) -> Result<Exchange, DiceError> {
    let first = dice.roll_many(first_pool.max(1) as usize, 6)?;
    let second = dice.roll_many(second_pool.max(1) as usize, 6)?;
    let top = |v: &[u32]| v.iter().copied().max().unwrap_or(0);
    let winner = match top(&first).cmp(&top(&second)) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
    };
    Ok(Exchange {
        first,
        second,
        winner,
    })
}

/// Damage of a won exchange: always one hit point (or one Body) in the original So1um.
pub const DAMAGE: u32 = 1;

/// The most duels one simulation runs.
pub const MAX_SIMULATED: u32 = 10_000_000;

/// What many simulated duels gave.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Simulated {
    /// Duels fought.
    pub fights: u32,
    /// Duels the first side won.
    pub wins: u32,
    /// The share won.
    pub rate: f64,
    /// Its standard error, from the exact chance when given, else from the rate.
    pub standard_error: f64,
    /// Exchanges rolled in all, ties included.
    pub exchanges: u64,
}

/// Fights `fights` duels on the fight state machine. `exact`, when known, gives the
/// standard error its expected size.
pub fn simulate_many(
    first: Side,
    second: Side,
    fights: u32,
    exact: Option<f64>,
    dice: &mut dyn DiceSource,
) -> Result<Simulated, FightError> {
    let (mut wins, mut exchanges) = (0u32, 0u64);
    for _ in 0..fights {
        let end = simulate(first, second, dice)?;
        wins += u32::from(end.won);
        exchanges += u64::from(end.exchanges);
    }
    let n = f64::from(fights.max(1));
    let rate = f64::from(wins) / n;
    let p = exact.unwrap_or(rate);
    Ok(Simulated {
        fights,
        wins,
        rate,
        standard_error: (p * (1.0 - p) / n).sqrt(),
        exchanges,
    })
}

/// How a simulated duel ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DuelEnd {
    /// The first side killed the second.
    pub won: bool,
    /// Exchanges rolled, ties included.
    pub exchanges: u32,
}

/// Simulates one duel on the fight state machine, both sides following their policies.
pub fn simulate(
    first: Side,
    second: Side,
    dice: &mut dyn DiceSource,
) -> Result<DuelEnd, FightError> {
    let fighter = |name: &str, side| Fighter {
        name: name.to_owned(),
        side,
        asks: false,
    };
    let mut fight = ClassicFight::new(fighter("first", first), vec![fighter("second", second)])?;
    let (won, exchanges) = fight.run(dice)?;
    Ok(DuelEnd { won, exchanges })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{SeededDice, prob, prob_to_f64};

    fn side(body: u32, hit_points: u32, policy: Policy) -> Side {
        Side {
            body,
            hit_points,
            cliche: false,
            policy,
            stat: None,
        }
    }

    #[test]
    fn reference_values() {
        // One die each, one hit point each: an even fight.
        assert_eq!(
            duel_odds(side(1, 1, Policy::Survive), side(1, 1, Policy::Survive)).unwrap(),
            prob(1, 2)
        );
        // Mirror fights are even whatever the policy.
        for policy in [Policy::Survive, Policy::HitPoints, Policy::Body] {
            assert_eq!(
                duel_odds(side(3, 4, policy), side(3, 4, policy)).unwrap(),
                prob(1, 2)
            );
        }
        assert!(duel_odds(side(0, 1, Policy::Survive), side(1, 1, Policy::Survive)).is_err());
    }

    #[test]
    fn giving_up_body_buys_time() {
        // Alessandor (B2, HP2) against a troll (B4, HP4): surviving on Body beats never
        // giving it up.
        let troll = side(4, 4, Policy::Survive);
        let survive = duel_odds(side(2, 2, Policy::Survive), troll).unwrap();
        let stubborn = duel_odds(side(2, 2, Policy::HitPoints), troll).unwrap();
        assert!(survive > stubborn);
    }

    #[test]
    fn an_exchange_goes_to_the_high_roll() {
        use solum_dice::ScriptedDice;
        let e = roll_exchange(2, 1, &mut ScriptedDice::new([3, 5, 4])).unwrap();
        assert_eq!(e.winner, 1);
        let e = roll_exchange(1, 1, &mut ScriptedDice::new([4, 4])).unwrap();
        assert_eq!(e.winner, 0);
    }

    #[test]
    fn exact_matches_simulation() {
        let (a, b) = (
            Side {
                body: 2,
                hit_points: 3,
                cliche: true,
                policy: Policy::Survive,
                stat: None,
            },
            side(4, 4, Policy::Body),
        );
        let exact = prob_to_f64(&duel_odds(a, b).unwrap());
        let sim = simulate_many(a, b, 100_000, Some(exact), &mut SeededDice::new(12)).unwrap();
        assert_eq!(sim.fights, 100_000);
        assert!(sim.exchanges >= u64::from(sim.fights));
        assert!(
            (sim.rate - exact).abs() < 4.0 * sim.standard_error,
            "{} vs {exact}",
            sim.rate
        );
    }

    fn all_policies() -> [Policy; 3] {
        [Policy::Survive, Policy::HitPoints, Policy::Body]
    }

    #[test]
    fn f64_odds_match_the_exact_fractions_where_both_run() {
        // Every small duel (within the exact limit) with every policy, a cliché and a stat.
        let mut compared = 0;
        for (ab, ah, bb, bh) in [
            (1, 1, 1, 1),
            (2, 2, 2, 2),
            (1, 3, 3, 1),
            (4, 4, 4, 4),
            (3, 2, 2, 4),
        ] {
            for pa in all_policies() {
                for pb in all_policies() {
                    for (cliche, stat) in [(false, None), (true, None), (false, Some(3))] {
                        let a = Side {
                            cliche,
                            stat,
                            ..side(ab, ah, pa)
                        };
                        let b = side(bb, bh, pb);
                        let exact = prob_to_f64(&duel_odds(a, b).unwrap());
                        let fast = duel_odds_f64(a, b).unwrap();
                        assert!((exact - fast).abs() <= F64_ERROR_BOUND, "{a:?} {b:?}");
                        let chance = duel_chance(a, b).unwrap();
                        assert_eq!(chance.error_bound, 0.0);
                        assert_eq!(chance.exact, Some(duel_odds(a, b).unwrap()));
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 5 * 9 * 3);
    }

    #[test]
    fn past_the_exact_limit_the_f64_odds_answer() {
        let big = side(30, 30, Policy::Survive);
        assert_eq!(duel_odds(big, big), Err(DuelError::TooBigForExact(810_000)));
        let chance = duel_chance(big, big).unwrap();
        assert_eq!(chance.exact, None);
        assert_eq!(chance.error_bound, F64_ERROR_BOUND);
        // A mirror fight is even.
        assert!((chance.p - 0.5).abs() <= F64_ERROR_BOUND);
        // 5 × 5 × 5 × 3 = 375 states: just past the exact limit; its complement from the
        // other side's view is the exact fraction's.
        let (a, b) = (side(5, 5, Policy::Body), side(5, 3, Policy::HitPoints));
        assert!(duel_states(&a, &b) > MAX_EXACT_STATES);
        let p = duel_odds_f64(a, b).unwrap();
        let q = duel_odds_f64(b, a).unwrap();
        assert!((p + q - 1.0).abs() <= 2.0 * F64_ERROR_BOUND, "{p} + {q}");
        // Out of range: named, before any work.
        assert_eq!(
            duel_chance(side(31, 1, Policy::Survive), big),
            Err(DuelError::Range("body", 31))
        );
        assert_eq!(
            duel_chance(big, side(1, u32::MAX, Policy::Survive)),
            Err(DuelError::Range("foe hit points", u32::MAX))
        );
    }

    #[test]
    fn f64_odds_match_simulation_past_the_exact_limit() {
        let mut dice = SeededDice::new(2030);
        for (a, b) in [
            (side(6, 8, Policy::Survive), side(7, 6, Policy::Body)),
            (
                Side {
                    cliche: true,
                    ..side(3, 9, Policy::HitPoints)
                },
                side(5, 7, Policy::Survive),
            ),
        ] {
            let exact = duel_odds_f64(a, b).unwrap();
            assert!(duel_states(&a, &b) > MAX_EXACT_STATES);
            let sim = simulate_many(a, b, 20_000, Some(exact), &mut dice).unwrap();
            assert!(
                (sim.rate - exact).abs() < 4.0 * sim.standard_error,
                "{} vs {exact}",
                sim.rate
            );
        }
        // Pools that never shrink (hit points only): 6 + 7 dice an exchange, so the expected
        // dice are 13 times the exchanges the simulation counted, within 3%.
        let (a, b) = (side(6, 8, Policy::HitPoints), side(7, 6, Policy::HitPoints));
        let sim = simulate_many(a, b, 20_000, None, &mut dice).unwrap();
        let seen = 13.0 * sim.exchanges as f64 / f64::from(sim.fights);
        let each = expected_dice(a, b).unwrap();
        assert!((seen - each).abs() < 0.03 * each, "{seen} vs {each}");
    }

    #[test]
    fn expected_dice_of_one_die_each() {
        // One die each, one hit point: ties 1/6, so 6/5 exchanges of 2 dice.
        let one = side(1, 1, Policy::HitPoints);
        assert!((expected_dice(one, one).unwrap() - 12.0 / 5.0).abs() < 1e-12);
    }

    #[test]
    fn simulations_that_roll_too_many_dice_are_refused_up_front() {
        let big = side(30, 30, Policy::Survive);
        assert!(matches!(
            check_simulation(big, big, 10_000),
            Err(DuelError::TooLong { most, .. }) if most < 10_000 && most > 0
        ));
        let one = side(1, 1, Policy::Survive);
        assert_eq!(check_simulation(one, one, 0), Err(DuelError::Fights(0)));
        assert_eq!(
            check_simulation(one, one, MAX_SIMULATED + 1),
            Err(DuelError::Fights(MAX_SIMULATED + 1))
        );
        assert_eq!(check_simulation(one, one, MAX_SIMULATED), Ok(()));
    }

    proptest::proptest! {
        #[test]
        fn the_two_sides_chances_add_up_to_one(
            ab in 1u32..=6, ah in 1u32..=6, bb in 1u32..=6, bh in 1u32..=6,
            pa in 0usize..3, pb in 0usize..3, cliche: bool,
        ) {
            let a = Side { cliche, ..side(ab, ah, all_policies()[pa]) };
            let b = side(bb, bh, all_policies()[pb]);
            let p = duel_odds_f64(a, b).unwrap();
            let q = duel_odds_f64(b, a).unwrap();
            proptest::prop_assert!((p + q - 1.0).abs() <= 2.0 * F64_ERROR_BOUND);
            proptest::prop_assert!((0.0..=1.0).contains(&p));
        }

        #[test]
        fn any_u32_is_refused_or_answered(
            body in proptest::prop_oneof![0u32..=31, proptest::num::u32::ANY],
            hp in proptest::prop_oneof![0u32..=31, proptest::num::u32::ANY],
        ) {
            let a = side(body, hp, Policy::Survive);
            let b = side(2, 2, Policy::Survive);
            let ok = (1..=MAX_DUEL_STAT).contains(&body) && (1..=MAX_DUEL_STAT).contains(&hp);
            proptest::prop_assert_eq!(duel_odds_f64(a, b).is_ok(), ok);
            proptest::prop_assert_eq!(duel_chance(b, a).is_ok(), ok);
        }
    }
}
