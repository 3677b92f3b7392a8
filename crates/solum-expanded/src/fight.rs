//! Whole fights: exact odds of a melee duel and of fast static combat, and a fast duel
//! simulation.
//!
//! A duel (alternative combat, or two melee fighters trading blows, S4/S11) is a series of
//! independent opposed exchanges: each is won with probability `w`, lost with `l`, drawn
//! otherwise, and draws change nothing. So the Markov chain over both sides' hit points is
//! absorbed exactly like a race: the first side wins if it wins `m = ⌈foe hp / damage⌉`
//! exchanges before it loses `n = ⌈hp / foe damage⌉`. With `p = w / (w + l)`:
//!
//! `P(win) = Σ_{j<n} C(m−1+j, j) p^m (1−p)^j`
//!
//! computed in exact integers. Tests compare it with the hit-point Markov chain solved state
//! by state and with seeded simulation. Fast static combat is the same race with `p` the
//! chance to pass the difficulty.

use num_bigint::BigInt;
use num_traits::{One, Zero};
use serde::Serialize;
use solum_dice::{DiceError, DiceSource, Prob};
use thiserror::Error;

use crate::check::{CheckSpec, DrawRule, OpposedSpec, Verdict, roll_check, roll_verdict};
use crate::odds::{opposed_odds, p_pass};
use crate::{Difficulty, Pool};

/// The largest hit points a fight takes: exact odds grow with the product of both sides'
/// hit points.
pub const MAX_FIGHT_HP: u32 = 10_000;

/// A fight that cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FightError {
    /// Hit points outside 1..=MAX_FIGHT_HP.
    #[error("{0}: {1} hit points is not possible here (1 to {MAX_FIGHT_HP})")]
    HitPoints(&'static str, u32),
    /// Damage of 0 on both sides: nobody can ever win.
    #[error("neither side deals damage: the fight never ends")]
    NoDamage,
}

/// One side of a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Duelist {
    /// Combat pool.
    pub pool: Pool,
    /// Hit points at the start.
    pub hit_points: u32,
    /// Weapon damage.
    pub damage: u32,
}

/// Two sides trading opposed melee exchanges until one is at 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DuelSpec {
    /// The side whose chance is reported.
    pub first: Duelist,
    /// The foe.
    pub second: Duelist,
    /// What a drawn exchange means (S3, S14): nothing, or a roll-off that one side wins.
    pub draws: DrawRule,
}

impl DuelSpec {
    /// A duel in which drawn exchanges change nothing.
    pub fn new(first: Duelist, second: Duelist) -> Self {
        Self {
            first,
            second,
            draws: DrawRule::Stand,
        }
    }
}

/// Fast static combat (S11): the hero's pool against a difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StaticSpec {
    /// The hero's pool.
    pub pool: Pool,
    /// The opposition's difficulty.
    pub difficulty: Difficulty,
    /// The hero's hit points.
    pub hit_points: u32,
    /// The hero's weapon damage.
    pub damage: u32,
    /// The opposition's hit points.
    pub foe_hit_points: u32,
    /// The opposition's damage.
    pub foe_damage: u32,
}

/// Exact odds of a fight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FightOdds {
    /// The first side (or the hero) takes the other to 0 first.
    pub win: Prob,
    /// The other side does.
    pub lose: Prob,
    /// The chance one exchange (or round) goes the first side's way, draws excluded.
    pub p_exchange: Prob,
    /// Exchange wins the first side needs.
    pub wins_needed: u32,
    /// Exchange losses that take it out.
    pub losses_to_fall: u32,
}

fn check_hp(who: &'static str, hp: u32) -> Result<(), FightError> {
    if (1..=MAX_FIGHT_HP).contains(&hp) {
        Ok(())
    } else {
        Err(FightError::HitPoints(who, hp))
    }
}

/// Blows needed to take `hp` to 0 with `damage` per blow (`None` if damage is 0).
fn blows(hp: u32, damage: u32) -> Option<u32> {
    (damage > 0).then(|| hp.div_ceil(damage))
}

/// P(m successes before n failures), each trial a success with `a / (a + b)`.
fn race(a: &BigInt, b: &BigInt, m: Option<u32>, n: Option<u32>) -> Result<Prob, FightError> {
    let c = a + b;
    match (m, n) {
        (None, None) => Err(FightError::NoDamage),
        (None, Some(_)) => Ok(Prob::zero()),
        (Some(_), None) => Ok(if a.is_zero() {
            Prob::zero()
        } else {
            Prob::one()
        }),
        (Some(m), Some(n)) => {
            if c.is_zero() {
                return Err(FightError::NoDamage);
            }
            // Σ_{j<n} C(m-1+j, j) b^j c^(n-1-j), times a^m, over c^(m+n-1).
            let mut sum = BigInt::zero();
            let mut binom = BigInt::one();
            let mut b_pow = BigInt::one();
            let mut c_pows: Vec<BigInt> = Vec::with_capacity(n as usize);
            c_pows.push(BigInt::one());
            for _ in 1..n {
                let next = c_pows.last().expect("non-empty") * &c;
                c_pows.push(next);
            }
            for j in 0..n {
                if j > 0 {
                    binom = binom * BigInt::from(m - 1 + j) / BigInt::from(j);
                    b_pow *= b;
                }
                sum += &binom * &b_pow * &c_pows[(n - 1 - j) as usize];
            }
            let numerator = num_traits::pow(a.clone(), m as usize) * sum;
            let denominator = num_traits::pow(c, (m + n - 1) as usize);
            Ok(Prob::new(numerator, denominator))
        }
    }
}

fn odds(
    p_exchange: Prob,
    a: &BigInt,
    b: &BigInt,
    m: Option<u32>,
    n: Option<u32>,
) -> Result<FightOdds, FightError> {
    let win = race(a, b, m, n)?;
    Ok(FightOdds {
        lose: Prob::one() - &win,
        win,
        p_exchange,
        wins_needed: m.unwrap_or(0),
        losses_to_fall: n.unwrap_or(0),
    })
}

/// Exact odds that the first side wins a duel of opposed melee exchanges.
pub fn duel_odds(spec: &DuelSpec) -> Result<FightOdds, FightError> {
    check_hp("hit points", spec.first.hit_points)?;
    check_hp("foe hit points", spec.second.hit_points)?;
    let exchange = opposed_odds(&OpposedSpec {
        draws: spec.draws,
        ..OpposedSpec::new(spec.first.pool, spec.second.pool)
    });
    // Win and lose over a common denominator (draws drop out).
    let a = exchange.win.numer() * exchange.lose.denom();
    let b = exchange.lose.numer() * exchange.win.denom();
    let p = Prob::new(a.clone(), &a + &b);
    odds(
        p,
        &a,
        &b,
        blows(spec.second.hit_points, spec.first.damage),
        blows(spec.first.hit_points, spec.second.damage),
    )
}

/// Exact odds that the hero wins fast static combat.
pub fn static_odds(spec: &StaticSpec) -> Result<FightOdds, FightError> {
    check_hp("hit points", spec.hit_points)?;
    check_hp("foe hit points", spec.foe_hit_points)?;
    let pass = p_pass(&CheckSpec::new(spec.pool, spec.difficulty));
    let a = pass.numer().clone();
    let b = pass.denom() - pass.numer();
    odds(
        pass,
        &a,
        &b,
        blows(spec.foe_hit_points, spec.damage),
        blows(spec.hit_points, spec.foe_damage),
    )
}

/// How one simulated fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FightResult {
    /// The first side (or the hero) won.
    pub won: bool,
    /// Exchanges (or rounds) fought, draws included.
    pub exchanges: u32,
    /// The first side's hit points at the end.
    pub hit_points: u32,
    /// The other side's hit points at the end.
    pub foe_hit_points: u32,
}

/// Exchanges after which a simulated fight is stopped as undecided. Reached only when one
/// side cannot hurt the other, which the exact odds refuse up front.
pub const MAX_EXCHANGES: u32 = 100_000;

/// Simulates one duel, exchange by exchange, drawing dice like an opposed check from one
/// source (both pools, the chains only when both show a 6, then any roll-off: the order of
/// [`roll_verdict`]).
pub fn simulate_duel(spec: &DuelSpec, dice: &mut dyn DiceSource) -> Result<FightResult, DiceError> {
    let (mut hp, mut foe) = (spec.first.hit_points, spec.second.hit_points);
    let mut exchanges = 0;
    while hp > 0 && foe > 0 && exchanges < MAX_EXCHANGES {
        exchanges += 1;
        match roll_verdict(spec.first.pool, spec.second.pool, spec.draws, dice)? {
            Verdict::Win => foe = foe.saturating_sub(spec.first.damage),
            Verdict::Lose => hp = hp.saturating_sub(spec.second.damage),
            Verdict::Draw => {}
        }
    }
    Ok(FightResult {
        won: foe == 0 && hp > 0,
        exchanges,
        hit_points: hp,
        foe_hit_points: foe,
    })
}

/// Simulates one fast static combat.
pub fn simulate_static(
    spec: &StaticSpec,
    dice: &mut dyn DiceSource,
) -> Result<FightResult, DiceError> {
    let (mut hp, mut foe) = (spec.hit_points, spec.foe_hit_points);
    let check = CheckSpec::new(spec.pool, spec.difficulty);
    let mut rounds = 0;
    while hp > 0 && foe > 0 && rounds < MAX_EXCHANGES {
        rounds += 1;
        if roll_check(&check, dice)?.passed {
            foe = foe.saturating_sub(spec.damage);
        } else {
            hp = hp.saturating_sub(spec.foe_damage);
        }
    }
    Ok(FightResult {
        won: foe == 0 && hp > 0,
        exchanges: rounds,
        hit_points: hp,
        foe_hit_points: foe,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{SeededDice, prob, prob_to_f64};

    fn duelist(pool: u64, hit_points: u32, damage: u32) -> Duelist {
        Duelist {
            pool: Pool::new(pool).unwrap(),
            hit_points,
            damage,
        }
    }

    /// The chance an exchange goes the first side's way, draws excluded, from exhaustive
    /// enumeration of the real roll function (not from `opposed_odds`). With the roll-off a
    /// draw is no outcome at all; standing draws drop out of the race. The enumeration stops
    /// after `pools + 4` dice; the exact chance must lie between the bounds left by what
    /// it could not follow.
    fn exchange_p(spec: &DuelSpec) -> Prob {
        let depth = (spec.first.pool.dice() + spec.second.pool.dice()) as usize + 4;
        let e = solum_dice::enumerate(depth, |dice| -> Result<Verdict, DiceError> {
            roll_verdict(spec.first.pool, spec.second.pool, spec.draws, dice)
        })
        .unwrap();
        let win = e.p(|v| *v == Verdict::Win);
        let lose = e.p(|v| *v == Verdict::Lose);
        let exact = duel_odds(spec).unwrap().p_exchange;
        let low = &win / (&win + &lose + &e.truncated);
        let high = (&win + &e.truncated) / (&win + &lose + &e.truncated);
        assert!(
            low <= exact && exact <= high,
            "{spec:?}: {low} <= {exact} <= {high}"
        );
        exact
    }

    /// The hit-point Markov chain solved state by state: f(h, g) = p f(h, g − W) +
    /// (1 − p) f(h − V, g), f(·, 0) = 1, f(0, ·) = 0.
    fn markov(p: &Prob, spec: &DuelSpec) -> Prob {
        let (h0, g0) = (
            spec.first.hit_points as usize,
            spec.second.hit_points as usize,
        );
        let (w, v) = (spec.first.damage as usize, spec.second.damage as usize);
        let mut f = vec![vec![Prob::zero(); g0 + 1]; h0 + 1];
        for h in 1..=h0 {
            f[h][0] = Prob::one();
            for g in 1..=g0 {
                let after_win = f[h][g.saturating_sub(w)].clone();
                let after_loss = f[h.saturating_sub(v)][g].clone();
                f[h][g] = p * after_win + (Prob::one() - p) * after_loss;
            }
        }
        f[h0][g0].clone()
    }

    #[test]
    fn closed_form_matches_the_markov_chain() {
        for (a, b) in [(1, 1), (3, 2), (2, 4)] {
            for (hp, foe_hp) in [(1, 1), (5, 3), (4, 9), (7, 7)] {
                for (dmg, foe_dmg) in [(1, 1), (2, 3), (3, 1)] {
                    for draws in [DrawRule::Stand, DrawRule::RollOff] {
                        // Enumerate each pair of pools once.
                        let check_exchange = hp == 1 && foe_hp == 1 && dmg == 1;
                        let spec = DuelSpec {
                            draws,
                            ..DuelSpec::new(duelist(a, hp, dmg), duelist(b, foe_hp, foe_dmg))
                        };
                        let odds = duel_odds(&spec).unwrap();
                        if check_exchange {
                            exchange_p(&spec);
                        }
                        assert_eq!(odds.win, markov(&odds.p_exchange, &spec), "{spec:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn reference_values() {
        // Equal pools, equal sides: an even fight.
        let even = DuelSpec::new(duelist(3, 5, 2), duelist(3, 5, 2));
        assert_eq!(duel_odds(&even).unwrap().win, prob(1, 2));
        let even_off = DuelSpec {
            draws: DrawRule::RollOff,
            ..even
        };
        assert_eq!(duel_odds(&even_off).unwrap().win, prob(1, 2));
        // One blow each: the chance to win one exchange.
        let one = DuelSpec::new(duelist(2, 1, 1), duelist(1, 1, 1));
        let odds = duel_odds(&one).unwrap();
        assert_eq!(odds.win, odds.p_exchange);
        // 2 dice against 1, counted by hand over 6^3 = 216 (the first's top face a has
        // weight 2a - 1, the second's b weight 1). Win: a > b below 6, 3+10+21+36 = 70;
        // a = 6 over b < 6, 11 × 5 = 55; both 6 (11), the chains: 3/7. Lose: a < b < 6,
        // 1+4+9+16 = 30; b = 6 over a < 6, 25; both 6: 3/7. Draw: a = b < 6, 25; both 6: 1/7.
        let w = prob(70 + 55, 216) + prob(11 * 3, 216 * 7);
        let l = prob(30 + 25, 216) + prob(11 * 3, 216 * 7);
        let d = prob(25, 216) + prob(11, 216 * 7);
        assert_eq!(&w + &l + &d, Prob::one());
        assert_eq!(odds.p_exchange, &w / (&w + &l));
        // With the roll-off a draw is won half the time: the same race chance.
        let off = DuelSpec {
            draws: DrawRule::RollOff,
            ..one
        };
        let odds_off = duel_odds(&off).unwrap();
        assert_eq!(odds_off.win, &w + &d / BigInt::from(2));
        assert_eq!(odds_off.p_exchange, &w + &d / BigInt::from(2));
        // Static: 1 die against 4, one blow each: 1/2.
        let s = StaticSpec {
            pool: Pool::new(1).unwrap(),
            difficulty: Difficulty::AVERAGE,
            hit_points: 2,
            damage: 1,
            foe_hit_points: 1,
            foe_damage: 2,
        };
        assert_eq!(static_odds(&s).unwrap().win, prob(1, 2));
        // Two passes needed before two failures at 1/2: 5/16 + ... = P = p^2 (1 + 2q) = 1/2.
        let s = StaticSpec {
            foe_hit_points: 2,
            hit_points: 4,
            ..s
        };
        assert_eq!(static_odds(&s).unwrap().win, prob(1, 2));
    }

    #[test]
    fn no_damage_edges() {
        let spec = DuelSpec::new(duelist(3, 5, 0), duelist(3, 5, 0));
        assert_eq!(duel_odds(&spec).unwrap_err(), FightError::NoDamage);
        let spec = DuelSpec::new(duelist(3, 5, 1), duelist(3, 5, 0));
        assert_eq!(duel_odds(&spec).unwrap().win, Prob::one());
        let spec = DuelSpec::new(duelist(3, 0, 1), duelist(3, 5, 1));
        assert!(duel_odds(&spec).is_err());
    }

    #[test]
    fn duel_and_static_match_simulation() {
        let mut dice = SeededDice::new(3);
        let n = 200_000;
        for draws in [DrawRule::Stand, DrawRule::RollOff] {
            let duel = DuelSpec {
                draws,
                ..DuelSpec::new(duelist(3, 6, 2), duelist(4, 8, 1))
            };
            let exact = prob_to_f64(&duel_odds(&duel).unwrap().win);
            let wins = (0..n)
                .filter(|_| simulate_duel(&duel, &mut dice).unwrap().won)
                .count();
            let se = (exact * (1.0 - exact) / n as f64).sqrt();
            let seen = wins as f64 / n as f64;
            assert!(
                (seen - exact).abs() < 4.0 * se,
                "{draws:?}: seen {seen}, exact {exact}"
            );
        }

        let fast = StaticSpec {
            pool: Pool::new(3).unwrap(),
            difficulty: Difficulty::AVERAGE,
            hit_points: 5,
            damage: 1,
            foe_hit_points: 5,
            foe_damage: 2,
        };
        let exact = prob_to_f64(&static_odds(&fast).unwrap().win);
        let wins = (0..n)
            .filter(|_| simulate_static(&fast, &mut dice).unwrap().won)
            .count();
        let se = (exact * (1.0 - exact) / n as f64).sqrt();
        assert!((wins as f64 / n as f64 - exact).abs() < 4.0 * se);
    }
}
