//! Exact distributions of expressions.
//!
//! Inside, a distribution is integer weights over one common denominator (no fraction is
//! reduced until the end): sums of many dice stay fast. Each dice term takes its die's
//! distribution from [`crate::die::amounts`], the same state machine the roll runs; the So1um
//! terms take theirs from the rules crates' own odds.

use std::collections::BTreeMap;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};
use solum_dice::{Distribution, Prob};

use crate::ast::{BinOp, DiceTerm, Expr, ExprKind, Func, Game, SolEdge, Span};
use crate::die;
use crate::error::NotationError;
use crate::limits::{MAX_SUPPORT, MAX_UNA_EXACT, MAX_WORK};

/// Counts elementary steps against [`MAX_WORK`]: no expression can run for long.
#[derive(Debug, Default)]
pub struct Work {
    spent: u64,
}

impl Work {
    pub(crate) fn spend(&mut self, units: u64) -> Result<(), NotationError> {
        self.spent = self.spent.saturating_add(units);
        if self.spent > MAX_WORK {
            return Err(too_much_work(None));
        }
        Ok(())
    }

    /// Steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
}

fn too_much_work(span: Option<Span>) -> NotationError {
    NotationError::limit(
        format!(
            "exact odds of this expression need more than {MAX_WORK} steps: too many dice or \
             values (roll it instead, or make it smaller)"
        ),
        span,
    )
}

/// Weights over a common denominator; the weights may sum to less than the denominator
/// when a So1um term's odds leave out a negligible tail.
#[derive(Debug, Clone)]
struct Weights {
    map: BTreeMap<i64, BigUint>,
    den: BigUint,
}

impl Weights {
    fn certain(v: i64) -> Self {
        Self {
            map: BTreeMap::from([(v, BigUint::one())]),
            den: BigUint::one(),
        }
    }

    fn from_probs(pairs: impl IntoIterator<Item = (i64, Prob)>) -> Self {
        let pairs: Vec<(i64, Prob)> = pairs.into_iter().collect();
        let den = pairs
            .iter()
            .fold(BigInt::one(), |d, (_, p)| d.lcm(p.denom()));
        let map = pairs
            .into_iter()
            .filter(|(_, p)| !p.is_zero())
            .map(|(v, p)| {
                let w = p.numer() * (&den / p.denom());
                (v, w.to_biguint().expect("probabilities are not negative"))
            })
            .collect();
        Self {
            map,
            den: den.to_biguint().expect("denominators are positive"),
        }
    }

    fn from_distribution(d: &Distribution) -> Self {
        Self::from_probs(d.outcomes().iter().cloned())
    }

    fn into_distribution(self) -> Distribution {
        let den = BigInt::from(self.den);
        let kept: BigUint = self.map.values().sum();
        let neglected = Prob::new(&den - BigInt::from(kept), den.clone());
        Distribution::from_pairs(
            self.map
                .into_iter()
                .map(|(v, w)| (v, Prob::new(BigInt::from(w), den.clone()))),
            neglected,
        )
    }

    fn map_values(
        &self,
        mut f: impl FnMut(i64) -> Result<i64, NotationError>,
    ) -> Result<Self, NotationError> {
        let mut map: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (v, w) in &self.map {
            *map.entry(f(*v)?).or_default() += w;
        }
        Ok(Self {
            map,
            den: self.den.clone(),
        })
    }

    fn combine(
        &self,
        other: &Self,
        work: &mut Work,
        span: Span,
        f: impl Fn(i64, i64) -> Result<i64, NotationError>,
    ) -> Result<Self, NotationError> {
        let pairs = (self.map.len() as u64).saturating_mul(other.map.len() as u64);
        work.spend(pairs).map_err(|_| too_much_work(Some(span)))?;
        let mut map: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (a, wa) in &self.map {
            for (b, wb) in &other.map {
                *map.entry(f(*a, *b)?).or_default() += wa * wb;
            }
            check_support(map.len(), span)?;
        }
        Ok(Self {
            map,
            den: &self.den * &other.den,
        })
    }
}

fn check_support(len: usize, span: Span) -> Result<(), NotationError> {
    if len as u64 > MAX_SUPPORT {
        return Err(NotationError::limit(
            format!("exact odds of this expression have more than {MAX_SUPPORT} different values"),
            Some(span),
        ));
    }
    Ok(())
}

/// The exact distribution of `expr`'s value. Dice terms are exact (explosions stop after
/// [`crate::limits::MAX_EXPLOSIONS`] by rule); the So1um terms whose chains are unbounded
/// (`solum(N)`, `dt(dX)`) carry the rules crates' neglected tail below 1e-12, reported by
/// [`Distribution::neglected`].
pub fn distribution(expr: &Expr) -> Result<Distribution, NotationError> {
    let mut work = Work::default();
    distribution_with(expr, &mut work)
}

/// [`distribution`] that reports the work it spent.
pub fn distribution_with(expr: &Expr, work: &mut Work) -> Result<Distribution, NotationError> {
    crate::validate::validate(expr)?;
    crate::estimate::check(expr)?;
    Ok(eval(expr, work)?.into_distribution())
}

fn eval(expr: &Expr, work: &mut Work) -> Result<Weights, NotationError> {
    let span = expr.span;
    match &expr.kind {
        ExprKind::Num(n) => Ok(Weights::certain(*n)),
        ExprKind::Dice(term) => dice(term, work, span),
        ExprKind::Neg(e) => eval(e, work)?.map_values(|v| negate(v, span)),
        ExprKind::Label(e, _) => eval(e, work),
        ExprKind::Bin(op, a, b) => {
            let (a, b) = (eval(a, work)?, eval(b, work)?);
            let op = *op;
            a.combine(&b, work, span, |x, y| arith(op, x, y, span))
        }
        ExprKind::Call(func, args) => {
            let mut acc = eval(&args[0], work)?;
            for a in &args[1..] {
                let b = eval(a, work)?;
                acc = acc.combine(&b, work, span, |x, y| {
                    Ok(match func {
                        Func::Min => x.min(y),
                        Func::Max => x.max(y),
                    })
                })?;
            }
            Ok(acc)
        }
        ExprKind::Game(g) => game(g, work, span),
    }
}

pub(crate) fn negate(v: i64, span: Span) -> Result<i64, NotationError> {
    v.checked_neg()
        .ok_or_else(|| NotationError::eval("a number too large to negate", span))
}

/// The one definition of the arithmetic, for rolls and odds alike. `/` rounds toward zero.
pub(crate) fn arith(op: BinOp, a: i64, b: i64, span: Span) -> Result<i64, NotationError> {
    let r = match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => {
            if b == 0 {
                return Err(NotationError::eval("division by zero", span));
            }
            a.checked_div(b)
        }
    };
    r.ok_or_else(|| NotationError::eval("a number too large", span))
}

fn dice(term: &DiceTerm, work: &mut Work, span: Span) -> Result<Weights, NotationError> {
    let amounts = die::amounts(term, work)?;
    let one = Weights::from_probs(amounts);
    match term.keep {
        Some(keep) => {
            let (k, highest) = keep.kept(term.count);
            kept_sum(&one, term, term.count, k, highest, work, span)
        }
        None => {
            let scored = one.map_values(|a| Ok(die::finish(term, a)))?;
            sum_of(&scored, term.count, work, span)
        }
    }
}

/// The sum of `n` independent values of `one`: dense convolution, one die at a time. A
/// weight of 1 (every face of a plain die) is an addition, with no product at all.
fn sum_of(one: &Weights, n: u32, work: &mut Work, span: Span) -> Result<Weights, NotationError> {
    let (Some((&lo, _)), Some((&hi, _))) = (one.map.first_key_value(), one.map.last_key_value())
    else {
        return Ok(Weights::certain(0));
    };
    let width = (hi - lo + 1) as usize;
    let mut w = vec![BigUint::zero(); width];
    for (v, x) in &one.map {
        w[(v - lo) as usize] = x.clone();
    }
    let faces: Vec<(usize, &BigUint)> =
        w.iter().enumerate().filter(|(_, x)| !x.is_zero()).collect();
    let unit = BigUint::one();
    let mut acc: Vec<BigUint> = vec![BigUint::one()];
    for _ in 0..n {
        work.spend((acc.len() * faces.len()) as u64)
            .map_err(|_| too_much_work(Some(span)))?;
        let mut next = vec![BigUint::zero(); acc.len() + width - 1];
        for &(j, x) in &faces {
            for (i, a) in acc.iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                if *x == unit {
                    next[i + j] += a;
                } else {
                    next[i + j] += a * x;
                }
            }
        }
        check_support(next.iter().filter(|x| !x.is_zero()).count(), span)?;
        acc = next;
    }
    let base = lo * i64::from(n);
    Ok(Weights {
        map: acc
            .into_iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .map(|(i, x)| (base + i as i64, x))
            .collect(),
        den: one.den.pow(n),
    })
}

/// The sum of the scores of the `k` highest (or lowest) of `n` dice, each with the amounts
/// of `one`. Values are visited from the best down; the state is how many dice have been
/// placed and the sum so far (the first `k` placed are the kept ones), so the cost is
/// values × n² × sums rather than every combination.
fn kept_sum(
    one: &Weights,
    term: &DiceTerm,
    n: u32,
    k: u32,
    highest: bool,
    work: &mut Work,
    span: Span,
) -> Result<Weights, NotationError> {
    let n = n as usize;
    let k = k as usize;
    let mut values: Vec<(i64, &BigUint)> = one.map.iter().map(|(v, w)| (*v, w)).collect();
    if highest {
        values.reverse();
    }
    let binom = binomials(n);
    // states[placed] = sum → weight
    let mut states: Vec<BTreeMap<i64, BigUint>> = vec![BTreeMap::new(); n + 1];
    states[0].insert(0, BigUint::one());
    for (v, w) in values {
        let s = die::finish(term, v);
        let mut next: Vec<BTreeMap<i64, BigUint>> = vec![BTreeMap::new(); n + 1];
        for placed in 0..=n {
            let entries = std::mem::take(&mut states[placed]);
            if entries.is_empty() {
                continue;
            }
            let mut power = BigUint::one();
            for c in 0..=(n - placed) {
                work.spend(entries.len() as u64)
                    .map_err(|_| too_much_work(Some(span)))?;
                let newly_kept = (placed + c).min(k) - placed.min(k);
                let factor = &binom[n - placed][c] * &power;
                let target = &mut next[placed + c];
                for (sum, weight) in &entries {
                    *target.entry(sum + newly_kept as i64 * s).or_default() += weight * &factor;
                }
                check_support(target.len(), span)?;
                power *= w;
            }
        }
        states = next;
    }
    Ok(Weights {
        map: std::mem::take(&mut states[n]),
        den: one.den.pow(n as u32),
    })
}

fn binomials(n: usize) -> Vec<Vec<BigUint>> {
    let mut rows: Vec<Vec<BigUint>> = Vec::with_capacity(n + 1);
    for i in 0..=n {
        let mut row = vec![BigUint::one(); i + 1];
        for j in 1..i {
            row[j] = &rows[i - 1][j - 1] + &rows[i - 1][j];
        }
        rows.push(row);
    }
    rows
}

/// The So1um terms' exact odds, from the rules crates.
fn game(g: &Game, work: &mut Work, span: Span) -> Result<Weights, NotationError> {
    work.spend(1000)?;
    let bad = |m: String| NotationError::syntax(m, span.start, span.end);
    let d = match *g {
        Game::Solum { dice, vs, gear } => {
            let pool =
                solum_expanded::Pool::new(u64::from(dice)).map_err(|e| bad(e.to_string()))?;
            match vs {
                None => solum_expanded::odds::result_distribution(pool),
                Some(vs) => {
                    let difficulty = solum_expanded::Difficulty::new(i64::from(vs))
                        .map_err(|e| bad(e.to_string()))?;
                    let spec =
                        solum_expanded::check::CheckSpec::new(pool, difficulty).with_gear(gear);
                    let p = solum_expanded::odds::p_pass(&spec);
                    Distribution::from_pairs([(1, p.clone()), (0, Prob::one() - p)], Prob::zero())
                }
            }
        }
        Game::DieType { sides } => solum_dietype::odds::distribution(die_type(sides)),
        Game::Sol { dice, edge } => solum_sol::odds::test_odds(dice, 0, sol_edge(edge)).hits,
        Game::Una { dice, flips } => {
            if dice > MAX_UNA_EXACT {
                return Err(NotationError::limit(
                    format!("exact odds of una go up to {MAX_UNA_EXACT} dice (roll it instead)"),
                    Some(span),
                ));
            }
            solum_soluna::odds::largest_distribution(dice, flips).map_err(|e| bad(e.to_string()))?
        }
    };
    Ok(Weights::from_distribution(&d))
}

pub(crate) fn die_type(sides: u32) -> solum_dietype::DieType {
    match sides {
        4 => solum_dietype::DieType::D4,
        6 => solum_dietype::DieType::D6,
        8 => solum_dietype::DieType::D8,
        10 => solum_dietype::DieType::D10,
        _ => solum_dietype::DieType::D12,
    }
}

pub(crate) fn sol_edge(edge: Option<SolEdge>) -> Option<solum_sol::test::EdgeOnTest> {
    edge.map(|e| match e {
        SolEdge::Push => solum_sol::test::EdgeOnTest::PushTheLimit,
        SolEdge::Second => solum_sol::test::EdgeOnTest::SecondChance,
    })
}
