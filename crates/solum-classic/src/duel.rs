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
use num_traits::{One, Zero};
use serde::Serialize;
use solum_dice::{DiceError, DiceSource, Prob};
use thiserror::Error;

use crate::fight::{ClassicFight, FightError, Fighter};

/// How a side takes a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
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
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "survive" => Ok(Self::Survive),
            "hit-points" | "hp" => Ok(Self::HitPoints),
            "body" => Ok(Self::Body),
            other => Err(format!(
                "`{other}` is not a policy: survive, hit-points or body"
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
        self.stat.unwrap_or(body) + u32::from(self.cliche)
    }
}

/// The largest Body or hit points a duel takes (the state space is their product squared).
pub const MAX_DUEL_STAT: u32 = 30;

/// A duel that cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}: {1} is outside 1 to {MAX_DUEL_STAT}")]
pub struct DuelError(pub &'static str, pub u32);

fn check(side: &Side, who: &'static str) -> Result<(), DuelError> {
    for (what, v) in [
        ("body", side.body),
        ("hit points", side.hit_points),
        ("stat", side.stat.unwrap_or(1)),
    ] {
        if !(1..=MAX_DUEL_STAT).contains(&v) {
            return Err(DuelError(if who == "first" { what } else { "foe" }, v));
        }
    }
    Ok(())
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

/// The exact chance that `first` kills `second`.
pub fn duel_odds(first: Side, second: Side) -> Result<Prob, DuelError> {
    check(&first, "first")?;
    check(&second, "second")?;
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exchange {
    /// The first side's dice.
    pub first: Vec<u32>,
    /// The second side's dice.
    pub second: Vec<u32>,
    /// 1: the first side won, -1: the second, 0: a tie (no damage).
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
}
