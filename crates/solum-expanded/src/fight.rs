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
use num_traits::{One, ToPrimitive, Zero};
use serde::Serialize;
use solum_dice::{DiceError, DiceSource, Prob};
use thiserror::Error;

use crate::check::{CheckSpec, DrawRule, OpposedSpec, Verdict, roll_check, roll_verdict};
use crate::odds::{opposed_odds, p_pass};
use crate::{Difficulty, Pool};

/// The largest hit points a fight takes: exact odds grow with the product of both sides'
/// hit points.
pub const MAX_FIGHT_HP: u32 = 10_000;

/// The most damage one blow deals here: far past any hit points, so `hp / damage` and the
/// hit-point arithmetic stay in range.
pub const MAX_DAMAGE: u32 = 1_000_000;

/// A fight that cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FightError {
    /// Hit points outside 1..=MAX_FIGHT_HP.
    #[error("{0}: {1} hit points is not possible here (1 to {MAX_FIGHT_HP})")]
    HitPoints(&'static str, u32),
    /// Damage of 0 on both sides: nobody can ever win.
    #[error("neither side deals damage: the fight never ends")]
    NoDamage,
    /// Neither side can ever take the other to 0, for the reasons given: the fight never ends.
    #[error("the fight never ends: {0}")]
    NeverEnds(String),
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

/// Odds of a fight: exact, or in `f64` within a stated bound when the exact fractions would
/// run to more than [`EXACT_BITS`] bits.
#[derive(Debug, Clone, PartialEq)]
pub struct FightOdds {
    /// The first side (or the hero) takes the other to 0 first. When `error_bound` is not 0
    /// this is the `f64` answer, held exactly as a fraction.
    pub win: Prob,
    /// The other side does (`1 − win`).
    pub lose: Prob,
    /// The chance one exchange (or round) goes the first side's way, draws excluded.
    pub p_exchange: Prob,
    /// Exchange wins the first side needs.
    pub wins_needed: u32,
    /// Exchange losses that take it out.
    pub losses_to_fall: u32,
    /// 0 when `win` is exact; else a bound on `|win − true chance|`.
    pub error_bound: f64,
}

impl FightOdds {
    /// Whether `win` and `lose` are exact.
    pub fn is_exact(&self) -> bool {
        self.error_bound == 0.0
    }
}

/// The size past which the race is summed in `f64`: the bits of its exact denominator,
/// `(m + n − 1) · bits(a + b)`. Below it the exact sum takes milliseconds.
pub const EXACT_BITS: u64 = 20_000;

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

/// How a fight that never ends says why, in the words of its kind of fight.
struct Words {
    first_no_damage: &'static str,
    first_never_wins: &'static str,
    second_no_damage: &'static str,
    second_never_wins: &'static str,
}

const DUEL_WORDS: Words = Words {
    first_no_damage: "the first side deals no damage",
    first_never_wins: "the first side can never win an exchange",
    second_no_damage: "the foe deals no damage",
    second_never_wins: "the foe can never win an exchange",
};

const STATIC_WORDS: Words = Words {
    first_no_damage: "the hero deals no damage (--damage 0)",
    first_never_wins: "the hero can never pass the difficulty",
    second_no_damage: "the opposition deals no damage (--foe-damage 0)",
    second_never_wins: "the hero never fails, so the opposition never hits",
};

/// The race's answer: exact, or a float and its error bound.
enum Race {
    Exact(Prob),
    Float { win: f64, error_bound: f64 },
}

/// P(m successes before n failures), each trial a success with `a / (a + b)`: the
/// regularized incomplete beta `I_p(m, n)`. `None` for `m` (or `n`) means that side deals
/// no damage. A fight where neither side can ever take the other to 0 is refused, with why.
fn race(
    a: &BigInt,
    b: &BigInt,
    m: Option<u32>,
    n: Option<u32>,
    words: &Words,
) -> Result<Race, FightError> {
    let can_win = m.is_some() && !a.is_zero();
    let can_lose = n.is_some() && !b.is_zero();
    match (can_win, can_lose) {
        (false, false) => {
            let first = if m.is_none() {
                words.first_no_damage
            } else {
                words.first_never_wins
            };
            let second = if n.is_none() {
                words.second_no_damage
            } else {
                words.second_never_wins
            };
            if m.is_none() && n.is_none() {
                return Err(FightError::NoDamage);
            }
            Err(FightError::NeverEnds(format!("{first} and {second}")))
        }
        (true, false) => Ok(Race::Exact(Prob::one())),
        (false, true) => Ok(Race::Exact(Prob::zero())),
        (true, true) => {
            let (m, n) = (m.expect("can win"), n.expect("can lose"));
            let c = a + b;
            let bits = u64::from(m + n - 1) * c.bits();
            if bits <= EXACT_BITS {
                Ok(Race::Exact(race_exact(a, b, m, n)))
            } else {
                let (win, error_bound) = race_float(a, b, m, n);
                Ok(Race::Float { win, error_bound })
            }
        }
    }
}

/// The race in exact integers: `a^m Σ_{j<n} C(m−1+j, j) b^j c^(n−1−j) / c^(m+n−1)`, the sum by
/// Horner's rule in `c` so memory stays the size of the answer.
fn race_exact(a: &BigInt, b: &BigInt, m: u32, n: u32) -> Prob {
    let c = a + b;
    let mut sum = BigInt::zero();
    let mut binom = BigInt::one();
    let mut b_pow = BigInt::one();
    for j in 0..n {
        if j > 0 {
            binom = binom * BigInt::from(m - 1 + j) / BigInt::from(j);
            b_pow *= b;
        }
        sum = sum * &c + &binom * &b_pow;
    }
    let numerator = num_traits::pow(a.clone(), m as usize) * sum;
    let denominator = num_traits::pow(c, (m + n - 1) as usize);
    Prob::new(numerator, denominator)
}

/// A float with a separate power-of-two exponent, so `p^m` for tiny `p` and large `m` neither
/// underflows nor loses digits. Scaling by powers of two is exact.
#[derive(Debug, Clone, Copy)]
struct Scaled {
    mantissa: f64,
    exp2: i64,
}

impl Scaled {
    const STEP: i64 = 256;

    fn new(mantissa: f64, exp2: i64) -> Self {
        let mut s = Self { mantissa, exp2 };
        let (big, small) = (2f64.powi(Self::STEP as i32), 2f64.powi(-Self::STEP as i32));
        while s.mantissa.abs() > big {
            s.mantissa *= small;
            s.exp2 += Self::STEP;
        }
        while s.mantissa != 0.0 && s.mantissa.abs() < small {
            s.mantissa *= big;
            s.exp2 -= Self::STEP;
        }
        s
    }

    /// A big integer, rounded to its top 64 bits then to `f64`.
    fn from_big(x: &BigInt) -> Self {
        let shift = x.bits().saturating_sub(64);
        let top = (x >> shift).to_f64().unwrap_or(f64::NAN);
        Self::new(top, shift as i64)
    }

    fn mul(self, o: Self) -> Self {
        Self::new(self.mantissa * o.mantissa, self.exp2 + o.exp2)
    }

    fn div(self, o: Self) -> Self {
        Self::new(self.mantissa / o.mantissa, self.exp2 - o.exp2)
    }

    fn add(self, o: Self) -> Self {
        if self.mantissa == 0.0 {
            return o;
        }
        if o.mantissa == 0.0 {
            return self;
        }
        let (hi, lo) = if self.exp2 >= o.exp2 {
            (self, o)
        } else {
            (o, self)
        };
        // A gap past 2^1100 is below every f64 digit of the larger: it changes nothing.
        let gap = (hi.exp2 - lo.exp2).min(1100) as i32;
        Self::new(hi.mantissa + lo.mantissa * 2f64.powi(-gap), hi.exp2)
    }

    fn powi(self, mut k: u32) -> Self {
        let (mut base, mut acc) = (self, Self::new(1.0, 0));
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.mul(base);
            }
            base = base.mul(base);
            k >>= 1;
        }
        acc
    }

    /// `self / (self + other)` as a plain `f64` (both positive).
    fn share(self, other: Self) -> f64 {
        let total = self.add(other);
        let r = self.div(total);
        r.mantissa * 2f64.powi(r.exp2.clamp(-1100, 1100) as i32)
    }
}

/// `x^k Σ_{j<terms} C(k−1+j, j) y^j`, each term from the last by the ratio
/// `(k−1+j)/j · y`.
fn tail(x: Scaled, y: Scaled, k: u32, terms: u32) -> Scaled {
    let mut term = Scaled::new(1.0, 0);
    let mut sum = term;
    for j in 1..terms {
        let ratio = f64::from(k - 1 + j) / f64::from(j);
        term = term.mul(y).mul(Scaled::new(ratio, 0));
        sum = sum.add(term);
    }
    x.powi(k).mul(sum)
}

/// The race in `f64`: both tails, `W = p^m Σ_{j<n} C(m−1+j, j) q^j` and
/// `L = q^n Σ_{i<m} C(n−1+i, i) p^i`, then `W / (W + L)` (the two add to 1 in exact
/// arithmetic, so the division only cancels rounding). Returns the answer and a bound on
/// its error.
///
/// The bound: `p` and `q` carry 3 roundings each (top bits, conversion, division), which
/// `p^m` multiplies by `m`; squaring adds 2 per bit of `m`; each term of a tail adds 4 and
/// the sum 1 per term. So each tail is within `ε (4m + 8n + 2 log₂ m + 2 log₂ n + 16)`
/// relatively (roles swapped for `L`), and `W / (W + L)` within twice the larger of the two.
fn race_float(a: &BigInt, b: &BigInt, m: u32, n: u32) -> (f64, f64) {
    let c = Scaled::from_big(&(a + b));
    let p = Scaled::from_big(a).div(c);
    let q = Scaled::from_big(b).div(c);
    let w = tail(p, q, m, n);
    let l = tail(q, p, n, m);
    let (mf, nf) = (f64::from(m), f64::from(n));
    let each = |k: f64, t: f64| 4.0 * k + 8.0 * t + 2.0 * k.log2() + 2.0 * t.log2() + 16.0;
    let rel = each(mf, nf).max(each(nf, mf)) * f64::EPSILON;
    (w.share(l), 2.0 * rel)
}

fn odds(
    p_exchange: Prob,
    a: &BigInt,
    b: &BigInt,
    m: Option<u32>,
    n: Option<u32>,
) -> Result<FightOdds, FightError> {
    odds_in(p_exchange, a, b, m, n, &DUEL_WORDS)
}

fn odds_in(
    p_exchange: Prob,
    a: &BigInt,
    b: &BigInt,
    m: Option<u32>,
    n: Option<u32>,
    words: &Words,
) -> Result<FightOdds, FightError> {
    let (win, error_bound) = match race(a, b, m, n, words)? {
        Race::Exact(win) => (win, 0.0),
        Race::Float { win, error_bound } => (
            Prob::from_float(win).expect("a share of two positive tails is finite"),
            error_bound,
        ),
    };
    Ok(FightOdds {
        lose: Prob::one() - &win,
        win,
        p_exchange,
        wins_needed: m.unwrap_or(0),
        losses_to_fall: n.unwrap_or(0),
        error_bound,
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
    odds_in(
        pass,
        &a,
        &b,
        blows(spec.foe_hit_points, spec.damage),
        blows(spec.hit_points, spec.foe_damage),
        &STATIC_WORDS,
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

    fn big(x: u64) -> BigInt {
        BigInt::from(x)
    }

    #[test]
    fn float_race_is_within_its_bound_of_the_exact_race() {
        for (a, b) in [
            (1u64, 1u64),
            (1, 5),
            (5, 1),
            (7, 11),
            (1, 1_000_000),
            (1_000_003, 2),
        ] {
            for (m, n) in [
                (1, 1),
                (1, 50),
                (50, 1),
                (7, 9),
                (100, 100),
                (300, 20),
                (20, 900),
            ] {
                let exact = prob_to_f64(&race_exact(&big(a), &big(b), m, n));
                let (float, bound) = race_float(&big(a), &big(b), m, n);
                assert!(bound < 1e-11, "bound {bound}");
                assert!(
                    (exact - float).abs() <= bound,
                    "a {a} b {b} m {m} n {n}: exact {exact} float {float} bound {bound}"
                );
            }
        }
    }

    #[test]
    fn float_race_at_the_limits_matches_the_exact_race() {
        // 10,000 a side at even odds: both paths run, the exact one just under EXACT_BITS.
        let (a, b) = (big(1), big(1));
        let exact = prob_to_f64(&race_exact(&a, &b, 10_000, 9_999));
        let (float, bound) = race_float(&a, &b, 10_000, 9_999);
        assert!(bound < 1e-10, "{bound}");
        assert!((exact - float).abs() <= bound, "{exact} {float} {bound}");
        // Symmetry: m = n at even odds is exactly 1/2.
        let (half, bound) = race_float(&a, &b, 10_000, 10_000);
        assert!((half - 0.5).abs() <= bound);
    }

    #[test]
    fn float_race_handles_tiny_chances_without_underflow() {
        // p = 2^-3000: p^m underflows a plain f64 but not the scaled one. Win needs one
        // success before 2 failures: P = p (1 + q) = p (2 − p), about 2^-2999.
        let a = big(1);
        let b = (BigInt::one() << 3000u32) - 1;
        let (win, _) = race_float(&a, &b, 1, 2);
        assert_eq!(win, 0.0, "2^-2999 is below the smallest f64");
        let (lose, bound) = race_float(&b, &a, 2, 1);
        assert!((lose - 1.0).abs() <= bound);
        // And a chance that is small but representable: p = 1/1000, 3 successes before 2.
        let (win, bound) = race_float(&big(1), &big(999), 3, 2);
        let exact = prob_to_f64(&race_exact(&big(1), &big(999), 3, 2));
        assert!((win - exact).abs() <= bound * exact.max(1e-300) + bound);
    }

    #[test]
    fn float_race_matches_a_simulated_race() {
        // Successes with p = 1/3 (a d6 of 5 or 6): 40 before 70 failures.
        let (m, n) = (40, 70);
        let (float, _) = race_float(&big(1), &big(2), m, n);
        let mut dice = SeededDice::new(11);
        let fights = 40_000;
        let mut wins = 0;
        for _ in 0..fights {
            let (mut s, mut f) = (0, 0);
            while s < m && f < n {
                if dice.roll(6).unwrap() >= 5 {
                    s += 1;
                } else {
                    f += 1;
                }
            }
            wins += usize::from(s == m);
        }
        let rate = wins as f64 / fights as f64;
        let se = (float * (1.0 - float) / fights as f64).sqrt();
        assert!((rate - float).abs() < 4.0 * se, "{rate} vs {float}");
        assert!(
            float > 0.05 && float < 0.95,
            "a test that can fail: {float}"
        );
    }

    #[test]
    fn static_odds_past_the_exact_size_are_float_and_match_simulation() {
        // 100 dice make the pass chance's denominator hundreds of bits: the float path.
        let spec = StaticSpec {
            pool: Pool::new(100).unwrap(),
            difficulty: Difficulty::new(9).unwrap(),
            hit_points: 30,
            damage: 1,
            foe_hit_points: 60,
            foe_damage: 1,
        };
        let odds = static_odds(&spec).unwrap();
        assert!(!odds.is_exact());
        assert!(odds.error_bound < 1e-12);
        let exact = prob_to_f64(&odds.win);
        assert!(exact > 0.05 && exact < 0.95, "{exact}");
        let mut dice = SeededDice::new(5);
        let n = 3_000;
        let wins = (0..n)
            .filter(|_| simulate_static(&spec, &mut dice).unwrap().won)
            .count();
        let se = (exact * (1.0 - exact) / n as f64).sqrt();
        assert!((wins as f64 / n as f64 - exact).abs() < 4.0 * se);
    }

    #[test]
    fn fights_that_never_end_are_refused_with_why() {
        // The hero always passes against 1 but deals nothing: the foe never gets to hit.
        let spec = StaticSpec {
            pool: Pool::new(3).unwrap(),
            difficulty: Difficulty::new(1).unwrap(),
            hit_points: 5,
            damage: 0,
            foe_hit_points: 5,
            foe_damage: 2,
        };
        let err = static_odds(&spec).unwrap_err().to_string();
        assert!(err.contains("never ends"), "{err}");
        assert!(err.contains("the hero deals no damage"), "{err}");
        assert!(err.contains("never fails"), "{err}");
        // Neither deals damage.
        let spec = StaticSpec {
            difficulty: Difficulty::new(4).unwrap(),
            foe_damage: 0,
            ..spec
        };
        assert_eq!(static_odds(&spec).unwrap_err(), FightError::NoDamage);
        // The rule of 6 reaches any difficulty: against 1000 the hero passes one day.
        let spec = StaticSpec {
            difficulty: Difficulty::new(1000).unwrap(),
            damage: 1,
            ..spec
        };
        assert_eq!(static_odds(&spec).unwrap().win, Prob::one());
        // One side harmless but the other can still win: the fight ends.
        let spec = StaticSpec {
            difficulty: Difficulty::new(4).unwrap(),
            foe_damage: 0,
            ..spec
        };
        assert_eq!(static_odds(&spec).unwrap().win, Prob::one());
    }

    #[test]
    fn exact_odds_at_the_limits_are_answered() {
        // 10,000 hit points a side, 1 damage: exact below EXACT_BITS or float (how fast: the
        // benchmarks), and right by symmetry.
        let spec = DuelSpec::new(duelist(3, MAX_FIGHT_HP, 1), duelist(3, MAX_FIGHT_HP, 1));
        let odds = duel_odds(&spec).unwrap();
        assert!((prob_to_f64(&odds.win) - 0.5).abs() <= odds.error_bound + 1e-15);
        let spec = StaticSpec {
            pool: Pool::new(3).unwrap(),
            difficulty: Difficulty::AVERAGE,
            hit_points: MAX_FIGHT_HP,
            damage: 1,
            foe_hit_points: MAX_FIGHT_HP,
            foe_damage: 1,
        };
        static_odds(&spec).unwrap();
    }

    proptest::proptest! {
        /// Hit points and damage at the integer edges: no panic, no wrap; a refusal or a
        /// chance in [0, 1] whose `win + lose` is 1.
        #[test]
        fn any_hit_points_and_damage_give_odds_or_a_refusal(
            hp in proptest::prop_oneof![0u32..=3, MAX_FIGHT_HP - 2..=MAX_FIGHT_HP + 2, proptest::num::u32::ANY],
            foe_hp in proptest::prop_oneof![1u32..=3, MAX_FIGHT_HP - 1..=MAX_FIGHT_HP],
            damage in proptest::prop_oneof![0u32..=2, u32::MAX - 1..=u32::MAX, proptest::num::u32::ANY],
            foe_damage in proptest::prop_oneof![0u32..=2, u32::MAX - 1..=u32::MAX],
            pool in 1u64..=4,
        ) {
            let spec = DuelSpec::new(duelist(pool, hp, damage), duelist(3, foe_hp, foe_damage));
            match duel_odds(&spec) {
                Ok(o) => {
                    proptest::prop_assert!(o.win >= Prob::zero() && o.win <= Prob::one());
                    proptest::prop_assert_eq!(&o.win + &o.lose, Prob::one());
                    proptest::prop_assert!(o.error_bound < 1e-9);
                    if let (Some(m), true) = (blows(foe_hp, damage), damage > 0) {
                        // Enough blows, and one fewer is not enough.
                        proptest::prop_assert!(u64::from(m) * u64::from(damage) >= u64::from(foe_hp));
                        proptest::prop_assert!(u64::from(m - 1) * u64::from(damage) < u64::from(foe_hp));
                    }
                }
                Err(FightError::HitPoints(..)) => {
                    proptest::prop_assert!(!(1..=MAX_FIGHT_HP).contains(&hp));
                }
                Err(e) => proptest::prop_assert!(damage == 0 && foe_damage == 0, "{e}"),
            }
            // A simulated blow of any size only ever takes hit points to 0.
            let small = DuelSpec::new(
                duelist(pool, hp.clamp(1, 3), damage),
                duelist(3, foe_hp.min(3), foe_damage),
            );
            let r = simulate_duel(&small, &mut SeededDice::new(u64::from(hp))).unwrap();
            proptest::prop_assert!(r.hit_points <= small.first.hit_points);
            proptest::prop_assert!(r.foe_hit_points <= small.second.hit_points);
        }
    }
}
