//! Exact distributions of expressions.
//!
//! Everything runs on the dice core's exact type, [`solum_dice::Distribution`]: integer
//! weights over one common denominator, `u128` while they fit, big integers past that, and
//! exact fractions only when a caller asks for them. Each dice term takes its die's
//! weights from [`crate::die::amounts`], the same state machine the roll runs; sums are the
//! engine's convolutions (`sum_of`, by doubling), keep and drop its [`Pool`] over sorted
//! multisets. The So1um terms take theirs from the rules crates' own odds.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use solum_dice::{Dense, Distribution, Pool, Prob};

use crate::ast::{BinOp, DiceTerm, Expr, ExprKind, Game, SolEdge, Span};
use crate::die;
use crate::error::NotationError;
use crate::estimate::{Bound, cost};
use crate::limits::{MAX_BYTES, MAX_RANGE, MAX_SUPPORT, MAX_UNA_EXACT, MAX_WORK};

/// Counts elementary steps against a budget ([`MAX_WORK`] by default): no expression can
/// run for long. One `Work` passed to [`distribution_with`] for several expressions makes them
/// share the budget: their estimates and the steps they take add up.
#[derive(Debug)]
pub struct Work {
    spent: u64,
    admitted: u128,
    limit: u64,
    bytes: u64,
}

impl Default for Work {
    fn default() -> Self {
        Self::new()
    }
}

impl Work {
    /// A budget of [`MAX_WORK`] steps and [`MAX_BYTES`] bytes.
    pub fn new() -> Self {
        Self::with_limits(MAX_WORK, MAX_BYTES)
    }

    /// A budget of `steps` steps (estimated and counted) and `bytes` bytes held at once
    /// (estimated), e.g. a share of the usual one.
    pub fn with_limits(steps: u64, bytes: u64) -> Self {
        Self {
            spent: 0,
            admitted: 0,
            limit: steps,
            bytes,
        }
    }

    pub(crate) fn spend(&mut self, units: u64) -> Result<(), NotationError> {
        self.spent = self.spent.saturating_add(units);
        if self.spent > self.limit {
            return Err(too_much_work(None, self.limit));
        }
        Ok(())
    }

    /// [`Work::spend`] that names the term that went over.
    pub(crate) fn spend_at(&mut self, units: u64, span: Span) -> Result<(), NotationError> {
        let limit = self.limit;
        self.spend(units)
            .map_err(|_| too_much_work(Some(span), limit))
    }

    /// [`Work::spend_at`] of a cost computed in `u128`.
    fn spend_wide(&mut self, units: u128, span: Span) -> Result<(), NotationError> {
        self.spend_at(u64::try_from(units).unwrap_or(u64::MAX), span)
    }

    /// Refuses a step that would hold more than the budget's bytes at once (the estimate
    /// said so before; this guards the count as the work goes).
    fn hold(&self, bytes: u128, span: Span) -> Result<(), NotationError> {
        if bytes > u128::from(self.bytes) {
            return Err(NotationError::limit(
                format!(
                    "exact odds of this expression would hold about {} MB at once: at most {} \
                     MB (roll it instead, or make it smaller)",
                    bytes.div_ceil(1_000_000),
                    self.bytes / 1_000_000
                ),
                Some(span),
            ));
        }
        Ok(())
    }

    /// Refuses `expr` when its estimate, with the estimates admitted before it, passes the
    /// budget; admits it otherwise.
    fn admit(&mut self, expr: &Expr) -> Result<Bound, NotationError> {
        let b = crate::estimate::bound(expr)?;
        crate::estimate::admit(
            expr,
            &b,
            self.admitted,
            u128::from(self.limit),
            u128::from(self.bytes),
        )?;
        self.admitted = self.admitted.saturating_add(b.work);
        Ok(b)
    }

    /// Steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Steps estimated for the expressions admitted so far.
    pub fn estimated(&self) -> u128 {
        self.admitted
    }
}

fn too_much_work(span: Option<Span>, limit: u64) -> NotationError {
    NotationError::limit(
        format!(
            "exact odds of this expression need more than {limit} steps: too many dice or \
             values (roll it instead, or make it smaller)"
        ),
        span,
    )
}

/// The exact distribution of `expr`'s value: integer weights over one denominator, exact
/// fractions only when asked (a front end showing the thousands of values of a `1000d6`
/// reads the weights, [`crate::Odds`]). Dice terms are exact (explosions stop after
/// [`crate::limits::MAX_EXPLOSIONS`] by rule); the So1um terms whose chains are unbounded
/// (`solum(N)`, `dt(dX)`) carry the rules crates' neglected tail below 1e-12, reported by
/// [`Distribution::neglected`].
pub fn distribution(expr: &Expr) -> Result<Distribution, NotationError> {
    distribution_with(expr, &mut Work::default())
}

/// [`distribution`] within the budget `work`, which the expression's estimate and its steps
/// are taken from: the expressions of one command pass the same `Work` and share one budget.
pub fn distribution_with(expr: &Expr, work: &mut Work) -> Result<Distribution, NotationError> {
    crate::validate::validate(expr)?;
    work.admit(expr)?;
    eval(expr, work)
}

fn eval(expr: &Expr, work: &mut Work) -> Result<Distribution, NotationError> {
    let span = expr.span;
    match &expr.kind {
        ExprKind::Num(n) => Ok(Distribution::certain(*n)),
        ExprKind::Dice(term) => dice(term, work, span),
        ExprKind::Neg(e) => {
            let w = eval(e, work)?;
            // -i64::MIN is the one value that cannot be negated.
            if let Some(least) = w.min_outcome() {
                negate(least, span)?;
            }
            Ok(w.map(|v| -v))
        }
        ExprKind::Label(e, _) => eval(e, work),
        ExprKind::Bin(op, a, b) => {
            let (a, b) = (eval(a, work)?, eval(b, work)?);
            let op = *op;
            match op {
                // Sums are convolutions (one big multiplication past u128) when both sides
                // are dense; a sparse side (`d2 * 1000`) is cheaper pair by pair.
                BinOp::Add | BinOp::Sub => {
                    let b = if op == BinOp::Sub {
                        checked(&b, work, span, |y| negate(y, span))?;
                        b.map(|y| -y)
                    } else {
                        b
                    };
                    let (sa, sb) = (Shape::of(&a), Shape::of(&b));
                    if sa.dense() && sb.dense() {
                        sa.fits_sum(&sb, span)?;
                        let (wa, wb) = (u128::from(sa.width()), u128::from(sb.width()));
                        work.hold(cost::convolve_bytes(wa, wb, bits(&a), bits(&b)), span)?;
                        work.spend_wide(cost::convolve(wa, wb, bits(&a), bits(&b)), span)?;
                        Ok(a.add(&b))
                    } else {
                        combine(&a, &b, work, span, |x, y| arith(BinOp::Add, x, y, span))
                    }
                }
                _ => combine(&a, &b, work, span, |x, y| arith(op, x, y, span)),
            }
        }
        ExprKind::Call(func, args) => {
            let mut acc = eval(&args[0], work)?;
            for a in &args[1..] {
                let b = eval(a, work)?;
                acc = combine(&acc, &b, work, span, |x, y| Ok(func.apply(x, y)))?;
            }
            Ok(acc)
        }
        ExprKind::Game(g) => game(g, work, span),
    }
}

/// Where a distribution's values lie: how many there are and the range they span (the
/// engine holds every value of the range, so a sparse range costs its width).
struct Shape {
    values: u64,
    lo: i64,
    hi: i64,
}

impl Shape {
    fn of(w: &Distribution) -> Self {
        Self {
            values: w.support_size() as u64,
            lo: w.min_outcome().unwrap_or(0),
            hi: w.max_outcome().unwrap_or(0),
        }
    }

    fn width(&self) -> u64 {
        (i128::from(self.hi) - i128::from(self.lo) + 1) as u64
    }

    /// At least half the range holds a value.
    fn dense(&self) -> bool {
        self.width() <= self.values.saturating_mul(2)
    }

    fn fits_sum(&self, other: &Self, span: Span) -> Result<(), NotationError> {
        check_range(
            i128::from(self.lo) + i128::from(other.lo),
            i128::from(self.hi) + i128::from(other.hi),
            span,
        )
    }
}

/// Bits of the common denominator of `w`'s weights.
fn bits(w: &Distribution) -> u128 {
    u128::from(w.denominator_big().bits())
}

/// Refuses a result with a value no `i64` holds (as the roll refuses it), or whose values
/// spread over more than [`MAX_RANGE`] numbers.
fn check_range(lo: i128, hi: i128, span: Span) -> Result<(), NotationError> {
    if lo < i128::from(i64::MIN) || hi > i128::from(i64::MAX) {
        return Err(too_large(span));
    }
    let width = hi - lo + 1;
    if width > i128::from(MAX_RANGE) {
        return Err(NotationError::limit(
            // The refused part may be a part of the expression (`1d6*1000000` of
            // `1d6*1000000*1000000`): the span underlines it, the numbers are its own.
            format!(
                "exact odds of the underlined part spread from {lo} to {hi}, {width} numbers: \
                 at most {MAX_RANGE} numbers apart (roll it instead, or make it smaller)"
            ),
            Some(span),
        ));
    }
    Ok(())
}

/// Runs the fallible `f` on every value first (an error, or a value no `i64` holds, is
/// reported before the engine runs).
fn checked(
    w: &Distribution,
    work: &mut Work,
    span: Span,
    f: impl Fn(i64) -> Result<i64, NotationError>,
) -> Result<(), NotationError> {
    let values = w.values();
    work.spend_at(values.len() as u64, span)?;
    for v in values {
        f(v)?;
    }
    Ok(())
}

/// `f(a, b)` over every pair of values, by the engine's `combine`, after the one definition
/// of the arithmetic has been run on each pair (errors, range) so the engine's closure
/// cannot fail.
fn combine(
    a: &Distribution,
    b: &Distribution,
    work: &mut Work,
    span: Span,
    f: impl Fn(i64, i64) -> Result<i64, NotationError>,
) -> Result<Distribution, NotationError> {
    let (va, vb) = (a.values(), b.values());
    let pairs = (va.len() as u128).saturating_mul(vb.len() as u128);
    let (ba, bb) = (bits(a), bits(b));
    work.hold(cost::combine_bytes(pairs, ba, bb), span)?;
    work.spend_wide(cost::combine(pairs, ba, bb), span)?;
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for x in &va {
        for y in &vb {
            let r = f(*x, *y)?;
            lo = lo.min(r);
            hi = hi.max(r);
        }
    }
    if lo <= hi {
        check_range(i128::from(lo), i128::from(hi), span)?;
    }
    let out = a.combine(b, |x, y| f(x, y).expect("checked above"));
    check_support(Shape::of(&out).values, span)?;
    Ok(out)
}

fn check_support(values: u64, span: Span) -> Result<(), NotationError> {
    if values > MAX_SUPPORT {
        return Err(NotationError::limit(
            format!("exact odds of this expression have more than {MAX_SUPPORT} different values"),
            Some(span),
        ));
    }
    Ok(())
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
    r.ok_or_else(|| too_large(span))
}

/// A value no `i64` holds: the one message of the roll and the odds.
fn too_large(span: Span) -> NotationError {
    NotationError::eval("a number too large", span)
}

fn dice(term: &DiceTerm, work: &mut Work, span: Span) -> Result<Distribution, NotationError> {
    let one = die::amounts(term, work)?;
    let shape = Shape::of(&one);
    let n = term.count;
    let out = match term.keep {
        Some(keep) => {
            // Keep and drop compare the dice's amounts and sum the kept dice's scores: the
            // engine's pool walks the sorted multisets, best first, taking the first `k`.
            let (k, highest) = keep.kept(n);
            work.spend_at(
                shape
                    .values
                    .saturating_mul(u64::from(n) + 1)
                    .saturating_mul(u64::from(n) + 1)
                    .saturating_mul(u64::from(k) * (shape.width() - 1) + 1)
                    / 2,
                span,
            )?;
            kept_sum(term, one, n, k, highest)
        }
        None => {
            let scored = one.map(|a| die::finish(term, a));
            let s = Shape::of(&scored);
            check_range(
                i128::from(s.lo) * i128::from(n),
                i128::from(s.hi) * i128::from(n),
                span,
            )?;
            work.spend_at(
                s.width()
                    .saturating_mul(s.width().saturating_mul(u64::from(n))),
                span,
            )?;
            scored.sum_of(n)
        }
    };
    check_support(Shape::of(&out).values, span)?;
    Ok(out)
}

/// The sum of the scores of the `k` dice of `n` with the highest (`highest`) or lowest
/// amounts. When a die's score never decreases as its amount grows (no success count, or one
/// whose successes are high faces and failures low ones), the `k` best amounts carry the `k`
/// best scores, so the pool of scored dice keeps the same sum: the engine's keep walk
/// (`Pool::keep_highest`). Otherwise the general evaluation over the sorted multisets of
/// amounts.
fn kept_sum(term: &DiceTerm, one: Distribution, n: u32, k: u32, highest: bool) -> Distribution {
    let values = one.values();
    let scores: Vec<i64> = values.iter().map(|&a| die::finish(term, a)).collect();
    if scores.windows(2).all(|p| p[0] <= p[1]) {
        let scored = if scores == values {
            one
        } else {
            one.map(|a| die::finish(term, a))
        };
        let pool = Pool::new(scored, n);
        return if highest {
            pool.keep_highest(k)
        } else {
            pool.keep_lowest(k)
        };
    }
    Pool::new(one, n).evaluate(
        highest,
        (0u32, 0i64),
        |&(taken, sum), amount, c| {
            let take = c.min(k - taken);
            (
                taken + take,
                sum + die::finish(term, amount) * i64::from(take),
            )
        },
        |&(_, sum)| sum,
    )
}

/// The So1um terms' exact odds, from the rules crates.
fn game(g: &Game, work: &mut Work, span: Span) -> Result<Distribution, NotationError> {
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
                    Distribution::from_fractions(
                        [(1, p.clone()), (0, Prob::one() - p)],
                        Prob::zero(),
                    )
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
    Ok(d)
}

/// Sparse big weights (ascending values, no repeats) over `den` as the engine's weights,
/// kept in `u128` when they fit.
pub(crate) fn from_big_pairs(pairs: &[(i64, BigUint)], den: BigUint) -> Distribution {
    let Some(&(lo, _)) = pairs.first() else {
        return Distribution::from_generic(Dense {
            min: 0,
            w: Vec::new(),
            den,
        });
    };
    let hi = pairs.last().map_or(lo, |p| p.0);
    let mut w = vec![BigUint::zero(); (hi - lo) as usize + 1];
    for (v, x) in pairs {
        w[(v - lo) as usize] += x;
    }
    Distribution::from_generic(Dense { min: lo, w, den })
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
