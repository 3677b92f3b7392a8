//! Bounds on the size of an expression's exact odds, computed from the tree alone before
//! any work starts: the most values each step can have, the size of their weights (bits),
//! the steps it can take and the bytes it can hold.
//!
//! The cost of exact odds grows with the size of the numbers as much as with their count: a
//! `500d6` has 2,501 values, but each weight is a number of 1,300 bits, so a product of two
//! weights is hundreds of machine multiplications and a pair of them holds hundreds of
//! bytes. Every operation is therefore costed from the bits of its weights (`cost`), the
//! same formulas the evaluation counts as it goes (`Work` in `exact.rs`).

use crate::ast::{BinOp, DiceTerm, Expr, ExprKind, Game};
use crate::error::NotationError;
use crate::limits::{MAX_BYTES, MAX_EXPLOSIONS, MAX_RANGE, MAX_SUPPORT, MAX_WORK};

/// What a subexpression can reach: its range, a bound on its distinct values, the bits of
/// its weights, and the work and memory to compute it.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    /// Lowest value (within `i64`: a value outside is refused when it is met).
    pub lo: i128,
    /// Highest value.
    pub hi: i128,
    /// At most this many distinct values.
    pub support: u128,
    /// Estimated cost: steps to compute it, at most about this many (a step is about 25 ns
    /// of a release build; [`MAX_WORK`] of them take well under a second).
    pub work: u128,
    /// Bits of the common denominator of its weights, at most (every weight is below it).
    pub bits: u128,
    /// Bytes held at once while computing it, at most about this many.
    pub bytes: u128,
    /// At least this many distinct values: with `support`, whether a sum is surely dense
    /// (the evaluation then convolves) or may go pair by pair, which the estimate must cover.
    least: u128,
}

impl Bound {
    /// The numbers from the lowest value to the highest.
    pub fn width(&self) -> u128 {
        (self.hi - self.lo + 1).max(1) as u128
    }

    /// Bytes of the distribution itself, once computed: the engine holds a slot for every
    /// number of its range (at most [`MAX_RANGE`]: a wider one is refused when it is met).
    fn held(&self) -> u128 {
        cost::held(
            self.width().min(u128::from(MAX_RANGE)),
            self.support,
            self.bits,
        )
    }

    /// Bytes held at once while `a` then `b` are computed and a step holding `step` bytes
    /// makes `out` of them: the most of `a`'s own peak, `b`'s beside `a`, and the step's
    /// with both and its result.
    fn peak(a: &Self, b: &Self, step: u128, out: &Self) -> u128 {
        a.bytes.max(a.held().saturating_add(b.bytes)).max(
            a.held()
                .saturating_add(b.held())
                .saturating_add(step)
                .saturating_add(out.held()),
        )
    }
}

/// Working memory any evaluation may hold besides what the estimate counts for its weights
/// (the engine's tables, buffers and small maps, about 0.8 MB measured for
/// `(3d20)+((2d6)*(2d2!))`): counted once per expression against [`MAX_BYTES`].
pub const ENGINE_BYTES: u128 = 4 << 20;

/// Refuses, before any work, an expression whose exact odds would pass [`MAX_SUPPORT`]
/// values, [`MAX_WORK`] steps or [`MAX_BYTES`] bytes.
pub fn check(expr: &Expr) -> Result<Bound, NotationError> {
    let b = bound(expr)?;
    admit(expr, &b, 0, u128::from(MAX_WORK), u128::from(MAX_BYTES))?;
    Ok(b)
}

/// Refuses `b` (the bound of `expr`) when its work, added to `used` already spent by the
/// same command, passes `work_limit`, or its memory passes `bytes_limit`.
pub(crate) fn admit(
    expr: &Expr,
    b: &Bound,
    used: u128,
    work_limit: u128,
    bytes_limit: u128,
) -> Result<(), NotationError> {
    if used.saturating_add(b.work) > work_limit {
        let message = if used == 0 {
            format!(
                "exact odds of this expression would take about {} steps: at most {work_limit} \
                 (roll it instead, or make it smaller)",
                b.work
            )
        } else {
            format!(
                "exact odds of this expression would take about {} steps, and the expressions \
                 before it {used}: at most {work_limit} in one command (ask for fewer at once, \
                 or make them smaller)",
                b.work
            )
        };
        return Err(NotationError::limit(message, Some(expr.span)));
    }
    if b.bytes.saturating_add(ENGINE_BYTES) > bytes_limit {
        return Err(NotationError::limit(
            format!(
                "exact odds of this expression would hold about {} MB: at most {} MB (roll it \
                 instead, or make it smaller)",
                b.bytes.saturating_add(ENGINE_BYTES).div_ceil(1_000_000),
                bytes_limit / 1_000_000
            ),
            Some(expr.span),
        ));
    }
    Ok(())
}

fn refuse_support(expr: &Expr, support: u128) -> NotationError {
    NotationError::limit(
        format!(
            "exact odds of this term could have {support} different values: at most {MAX_SUPPORT}"
        ),
        Some(expr.span),
    )
}

/// The costs of the engine's operations, from the sizes of their weights: shared by the
/// estimate (before) and the count (during).
pub(crate) mod cost {
    /// Machine words of a weight of `bits` bits.
    pub fn words(bits: u128) -> u128 {
        bits.div_ceil(64).max(1)
    }

    /// Whether weights of these bits stay in the engine's `u128` (their product fits).
    pub fn small(bits: u128) -> bool {
        bits <= 126
    }

    /// One product of weights of `a` and `b` bits: one step while the result fits `u128`;
    /// past it, a big integer made (about nine steps: its allocation) and an eighth of
    /// words × words (schoolbook, the most the big-integer library takes). A step is about
    /// 25 ns in a release build; measured: `max(200d6, 200d6)`, a million products of 9
    /// words by 9, in 0.56 s, `max(20d100, 20d100)`, 3.9 million of 5 by 5, in 0.97 s.
    pub fn mul(a: u128, b: u128) -> u128 {
        if small(a.saturating_add(b)) {
            1
        } else {
            9 + words(a).saturating_mul(words(b)) / 8
        }
    }

    /// Bytes of one weight of `bits` bits as the engine holds it: 16 in `u128`, a big
    /// integer's header, its words and the allocator's share past it.
    pub fn weight_bytes(bits: u128) -> u128 {
        if small(bits) {
            16
        } else {
            40u128.saturating_add(words(bits).saturating_mul(8))
        }
    }

    /// Bytes of a distribution: a slot for every number of its range, the weights of its
    /// values, the list of its values a step reads, and 16 KiB for the rest.
    pub fn held(width: u128, support: u128, bits: u128) -> u128 {
        let slot = if small(bits) { 16 } else { 24 };
        width
            .saturating_mul(slot)
            .saturating_add(support.saturating_mul(weight_bytes(bits).saturating_add(8)))
            .saturating_add(16_384)
    }

    /// `f(a, b)` over every pair of values: each pair's product is made and kept until the
    /// pairs are sorted into the result.
    pub fn combine(pairs: u128, a_bits: u128, b_bits: u128) -> u128 {
        pairs.saturating_mul(1u128.saturating_add(mul(a_bits, b_bits)))
    }

    /// Bytes of the pairs [`combine`] holds at once: each its value and the product of two
    /// weights, whose digits the big-integer library may hold at twice their length (a
    /// product by one word grows the other's digits by one, and its vector doubles).
    pub fn combine_bytes(pairs: u128, a_bits: u128, b_bits: u128) -> u128 {
        let product = if small(a_bits.saturating_add(b_bits)) {
            16
        } else {
            40u128.saturating_add(
                words(a_bits)
                    .saturating_add(words(b_bits))
                    .saturating_mul(16),
            )
        };
        pairs.saturating_mul(8u128.saturating_add(product))
    }

    /// A convolution (the sum of two dense distributions of `a` and `b` numbers): pair by
    /// pair, or, for big weights, one product of two numbers holding every weight (Kronecker
    /// substitution), whose cost grows as its words to the power 1.5 (Karatsuba, Toom-3).
    /// Never less than a step a pair, so the cost grows with the bits (an estimate with more
    /// bits than the weights turn out to have is never the cheaper).
    pub fn convolve(a: u128, b: u128, a_bits: u128, b_bits: u128) -> u128 {
        let slots = a.saturating_mul(b);
        if small(a_bits.saturating_add(b_bits)) {
            return slots;
        }
        slots
            .saturating_mul(mul(a_bits, b_bits))
            .min(kronecker(a, b, a_bits, b_bits))
            .max(slots)
    }

    /// Words of the numbers a Kronecker product packs.
    fn packed_words(a: u128, b: u128, a_bits: u128, b_bits: u128) -> u128 {
        // A slot holds the largest weight of the product, its bits and the count's.
        let slot = a_bits.saturating_add(b_bits).saturating_add(2 + 64);
        a.saturating_add(b).saturating_mul(slot) / 64 + 2
    }

    /// How much faster than a word product per word^1.5 the library's big products run,
    /// measured (release build): `500d6 + 500d6`, 208,000 words, in 0.4 s with its halves.
    const KRONECKER_SPEEDUP: u128 = 8;

    fn kronecker(a: u128, b: u128, a_bits: u128, b_bits: u128) -> u128 {
        let n = packed_words(a, b, a_bits, b_bits);
        // n^1.5, rounded up, in integers: n × ⌈√n⌉.
        n.saturating_mul(n.isqrt() + 1) / KRONECKER_SPEEDUP
    }

    /// Bytes a convolution holds at once: both packed numbers, their product and its digits.
    pub fn convolve_bytes(a: u128, b: u128, a_bits: u128, b_bits: u128) -> u128 {
        if small(a_bits.saturating_add(b_bits)) {
            return 0;
        }
        packed_words(a, b, a_bits, b_bits).saturating_mul(8 * 4)
    }
}

/// The bound of `expr` without the work and memory limits (the values limit still stops it
/// early): what [`check`] compares with the limits.
pub fn bound(expr: &Expr) -> Result<Bound, NotationError> {
    let b = match &expr.kind {
        ExprKind::Num(n) => Bound {
            lo: i128::from(*n),
            hi: i128::from(*n),
            support: 1,
            work: 0,
            bits: 0,
            bytes: 16,
            least: 1,
        },
        ExprKind::Dice(term) => dice_bound(term),
        ExprKind::Neg(e) => {
            let b = bound(e)?;
            Bound {
                lo: -b.hi,
                hi: -b.lo,
                ..b
            }
        }
        ExprKind::Label(e, _) => bound(e)?,
        ExprKind::Bin(op, a, b) => bin_bound(*op, &bound(a)?, &bound(b)?),
        ExprKind::Call(_, args) => call_bound(args)?,
        ExprKind::Game(g) => game_bound(g),
    };
    // A value no `i64` holds is refused when it is met: the range stays within `i64`, so
    // nothing here can overflow an `i128`.
    let b = Bound {
        lo: b.lo.clamp(i128::from(i64::MIN), i128::from(i64::MAX)),
        hi: b.hi.clamp(i128::from(i64::MIN), i128::from(i64::MAX)),
        ..b
    };
    if b.support > u128::from(MAX_SUPPORT) {
        return Err(refuse_support(expr, b.support));
    }
    Ok(b)
}

/// A term of dice: one die's amount (its chain when it explodes), then the sum of the pool
/// or of the dice it keeps.
fn dice_bound(term: &DiceTerm) -> Bound {
    let (flo, fhi) = term.die.range();
    let (flo, fhi) = (i128::from(flo), i128::from(fhi));
    let faces = u128::from(term.die.faces());
    let chain = if term.explode.is_some() {
        i128::from(MAX_EXPLOSIONS) + 1
    } else {
        1
    };
    // One die's amount.
    let (lo, hi) = if term.success.is_some() {
        (-chain, chain)
    } else {
        let lo = if flo < 0 { flo * chain } else { flo };
        (lo, fhi * chain)
    };
    let s1 = (hi - lo + 1) as u128;
    let n = u128::from(term.count);
    // One die's state machine, and the count of the sum's steps as the evaluation
    // makes it (its width squared, once a die).
    let machine = faces * (chain as u128) * s1;
    let die_work = machine + s1 * s1 * u128::from(term.count);
    // Bits of one die's denominator: its faces once per roll it can take (twice with
    // a reroll: the roll and its reroll at each step of the chain).
    let rolls = (chain as u128) * if term.reroll.is_some() { 2 } else { 1 };
    let den_bits = rolls * u128::from(32 - (faces as u32).leading_zeros());
    let bits = n * den_bits;
    let (sum_lo, sum_hi, support, work, held) = match term.keep {
        // The engine's sums end in one big multiplication: the cost grows with the
        // result's size, its values times the bits of each weight. The sum by
        // squares holds the half, its square and the packed numbers.
        None => {
            let support = n * (s1 - 1) + 1;
            let held = cost::held(support, support, bits);
            (
                lo * n as i128,
                hi * n as i128,
                support,
                support * n * den_bits,
                held.saturating_mul(2)
                    .saturating_add(cost::convolve_bytes(support, support, bits, bits)),
            )
        }
        // The pool visits (dice used, sum kept) states face by face, each taking
        // every count of the dice left: about half of (n + 1) on average; it holds
        // the states of one face at a time.
        Some(k) => {
            let (kept, _) = k.kept(term.count);
            let kept = u128::from(kept);
            let support = kept * (s1 - 1) + 1;
            let states = (n + 1).saturating_mul(support);
            (
                lo * kept as i128,
                hi * kept as i128,
                support,
                s1 * (n + 1) * (n + 1) * support / 2,
                cost::held(states, states, bits).saturating_mul(2),
            )
        }
    };
    Bound {
        lo: sum_lo,
        hi: sum_hi,
        support,
        work: die_work + work,
        bits,
        // The die's state machine (maps of big weights, about 128 bytes a step) and
        // the walk's tables, 64 KiB at most for a small pool.
        bytes: held
            .saturating_add(machine.saturating_mul(128))
            .saturating_add(65_536),
        // Plain dice (kept or not) reach every sum of their range; exploding,
        // rerolled or counted dice may leave gaps.
        least: if term.explode.is_none() && term.reroll.is_none() && term.success.is_none() {
            support
        } else {
            1
        },
    }
}

/// `a op b`: the corners of the two ranges, and the cost of a convolution or of the pairs.
fn bin_bound(op: BinOp, a: &Bound, b: &Bound) -> Bound {
    let corners = match op {
        BinOp::Add => [a.lo + b.lo, a.hi + b.hi, a.lo + b.lo, a.hi + b.hi],
        BinOp::Sub => [a.lo - b.hi, a.hi - b.lo, a.lo - b.hi, a.hi - b.lo],
        BinOp::Mul => [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi],
        // Dividing never leaves the dividend's range in size.
        BinOp::Div => [a.lo.min(-a.hi), a.hi.max(-a.lo), a.lo, a.hi],
    };
    let lo = *corners.iter().min().expect("four corners");
    let hi = *corners.iter().max().expect("four corners");
    let pairs = a.support.saturating_mul(b.support);
    let bits = a.bits + b.bits;
    let mut out = Bound {
        lo,
        hi,
        support: 0,
        work: 0,
        bits,
        bytes: 0,
        // A sum of integer sets holds at least |A| + |B| - 1 values.
        least: match op {
            BinOp::Add | BinOp::Sub => (a.least + b.least).saturating_sub(1).max(1),
            BinOp::Mul | BinOp::Div => 1,
        },
    };
    out.support = pairs.min(out.width());
    // Sums of two dense sides (half their range or more holds a value, as the
    // evaluation decides) are convolutions; everything else goes pair by pair (and
    // the evaluation counts both again as it goes, bytes included).
    let range = u128::from(MAX_RANGE);
    let (wa, wb) = (a.width().min(range), b.width().min(range));
    // The evaluation decides by the values it meets: a sum is surely dense only when
    // the fewest values it can have fill half the widest range it can span; else it
    // may go either way, and the estimate covers the dearer.
    let surely_dense = |x: &Bound, w: u128| w <= x.least.saturating_mul(2);
    let convolve = (
        cost::convolve(wa, wb, a.bits, b.bits),
        cost::convolve_bytes(wa, wb, a.bits, b.bits),
    );
    let pairwise = (
        cost::combine(pairs, a.bits, b.bits).saturating_add(wa + wb),
        cost::combine_bytes(pairs, a.bits, b.bits),
    );
    let (step, step_bytes) = match op {
        BinOp::Add | BinOp::Sub if surely_dense(a, wa) && surely_dense(b, wb) => convolve,
        BinOp::Add | BinOp::Sub => (convolve.0.max(pairwise.0), convolve.1.max(pairwise.1)),
        BinOp::Mul | BinOp::Div => pairwise,
    };
    // And a pass over the values of both sides (`-` negates the right one's first).
    out.work = a
        .work
        .saturating_add(b.work)
        .saturating_add(step)
        .saturating_add(a.support + b.support);
    // `-` holds the right side negated beside it.
    let negated = if op == BinOp::Sub { b.held() } else { 0 };
    out.bytes = Bound::peak(a, b, step_bytes.saturating_add(negated), &out);
    out
}

/// A function of several values (`max`, `min`): each argument in turn against what the ones
/// before gave.
fn call_bound(args: &[Expr]) -> Result<Bound, NotationError> {
    let mut acc = bound(&args[0])?;
    for a in &args[1..] {
        let b = bound(a)?;
        let pairs = acc.support.saturating_mul(b.support);
        let bits = acc.bits + b.bits;
        let mut out = Bound {
            lo: acc.lo.min(b.lo),
            hi: acc.hi.max(b.hi),
            support: 0,
            work: 0,
            bits,
            bytes: 0,
            least: 1,
        };
        out.support = acc.support.saturating_add(b.support).min(out.width());
        let range = u128::from(MAX_RANGE);
        out.work = acc
            .work
            .saturating_add(b.work)
            .saturating_add(cost::combine(pairs, acc.bits, b.bits))
            .saturating_add(acc.width().min(range) + b.width().min(range));
        out.bytes = Bound::peak(&acc, &b, cost::combine_bytes(pairs, acc.bits, b.bits), &out);
        acc = out;
    }
    Ok(acc)
}

/// A game's roll: its range and the measured size of its denominators.
fn game_bound(g: &Game) -> Bound {
    // Bits of the denominators, measured (see the tests): a Rule of 6 pool about
    // 2.6 a die past 44, a die type's table below 1000, Project Sol 2.6 a die (5.2
    // with Second Chance), Sol'una 2.6 a die.
    let (lo, hi, support, bits) = match *g {
        Game::Solum { dice, vs, .. } => {
            let bits = 3 * u128::from(dice) + 64;
            match vs {
                Some(_) => (0, 1, 2, bits),
                // 1-5, then 6 + chains of 16 levels.
                None => (1, 6 + 6 * 16, 85, bits),
            }
        }
        // The die-type tables stop below 1e-12: every number from 1 to at most 160
        // (measured: 155 for a d4, 136 for a d12).
        Game::DieType { .. } => (1, 160, 160, 1024),
        Game::Sol { dice, .. } => (
            0,
            i128::from(dice),
            u128::from(dice) + 1,
            6 * u128::from(dice) + 6,
        ),
        Game::Una { dice, .. } => (
            1,
            i128::from(dice),
            u128::from(dice),
            4 * u128::from(dice) + 4,
        ),
    };
    Bound {
        lo,
        hi,
        support,
        work: 1000 + support,
        bits,
        bytes: cost::held(support, support, bits).saturating_add(1_000_000),
        least: 1,
    }
}
