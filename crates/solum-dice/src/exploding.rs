//! Sums of dice that explode on their highest face, computed from the structure of the
//! exploding die instead of by convolving its (large) weights.
//!
//! A die with faces `a..=t` (the top face `t`, weight `u`; the other faces' weights `A(x)`,
//! all over `s`) that explodes at most `d` times has, over `s^(d+1)`, the generating function
//!
//! ```text
//! G(x) = A(x) · Σ_{k=0..d} s^(d−k) (u x^t)^k  +  (u x^t)^(d+1)
//! ```
//!
//! (level `k` of the chain keeps a face below the top after `k` top faces; the last roll is
//! kept as it shows). Its weights are powers of `s` times small numbers, and so are those of
//! the sum of `n` such dice: by the binomial theorem,
//!
//! ```text
//! G(x)^n = Σ_m C(n, m) (u x^t)^((d+1)(n−m)) · A(x)^m · Σ_K Q_m[K] s^(dm−K) (u x^t)^K
//! ```
//!
//! where `Q_m[K]` counts the ways to write `K` as a sum of `m` parts in `0..=d`. Grouping the
//! terms by their power `p = dm − K` of `s`, the weight of an outcome `v` is
//! `Σ_p c_p(v) s^p` with small integer coefficients `c_p(v)` (at most `G(1)^n` with `s = 1`),
//! computed in `u64` or `u128`; each outcome is then assembled once, by Horner's rule over
//! its few powers of `s` and one multiplication by the lowest. For 10d10 exploding 9 times
//! this replaces a multiplication of two 166,000-bit integers by about 30,000 small
//! multiply-adds and 991 short big-integer products.
//!
//! When the faces below the top weigh the same (every fair die) and the sum's denominator
//! fits `u128`, [`uniform_sum`] takes a shorter way still: Horner's rule in the faces'
//! polynomial `U`, `n` running sums instead of the rows.
//!
//! The die is recognised from its weights alone (any `Distribution` that equals
//! `base.explode(d)` for a base die it can rebuild), so every caller of
//! [`Distribution::sum_of`](crate::Distribution::sum_of) profits; anything else takes the general
//! path.

use num_bigint::BigUint;
use num_traits::{CheckedMul, PrimInt, cast, checked_pow};

use crate::Distribution;
use crate::lane::Operand;
use crate::weights::Dense;

/// Rows of coefficients larger than this (powers of `s` × outcomes of a row) are left to
/// the general path: the work here grows as their product.
const MAX_CELLS: u128 = 1 << 24;

/// An exploding die, rebuilt from its weights.
#[derive(Debug, Clone, PartialEq)]
struct Exploding {
    /// The lowest face of the base die.
    a: i64,
    /// The top face (the one that explodes).
    t: i64,
    /// Distribution of the faces `a..t` (below the top), over `s`.
    lower: Vec<u64>,
    /// The top face's weight.
    u: u64,
    /// The base die's denominator.
    s: u64,
    /// At most this many extra rolls.
    depth: u32,
}

impl Exploding {
    /// Whether `g` holds exactly the weights of this die exploded `depth` times, over
    /// `s^(depth+1)`: level `k` keeps face `f < t` with weight `w_f · u^k · s^(depth−k)`, the
    /// last level keeps the top face with `u^(depth+1)`. Computed in `W`, which holds the
    /// denominator (and so every weight).
    fn matches<W: Word>(&self, g: &Dense<u128>) -> bool {
        let (Some(s), Some(u)) = (cast::<_, W>(self.s), cast::<_, W>(self.u)) else {
            return false;
        };
        let d = self.depth;
        let check = || -> Option<bool> {
            // Level by level: u^k and s^(d−k) carried along (s^(d+1) fits, so both do).
            let mut scale = checked_pow(s, d as usize)?;
            let mut up = W::one();
            let t = self.t;
            for k in 0..=i64::from(d) + 1 {
                for f in 0..t {
                    let o = k * t + f;
                    if o < g.min {
                        continue;
                    }
                    let expected = if k == i64::from(d) + 1 {
                        if f > 0 {
                            break;
                        }
                        up
                    } else if f < self.a {
                        W::zero()
                    } else {
                        cast::<_, W>(self.lower[(f - self.a) as usize])?
                            .checked_mul(&up)?
                            .checked_mul(&scale)?
                    };
                    if g.w.get((o - g.min) as usize) != expected.to_u128().as_ref() {
                        return Some(false);
                    }
                }
                // Onto the next level, if there is one: u^(d+2) need not fit (a heavy top
                // face in u64).
                if k <= i64::from(d) {
                    up = up.checked_mul(&u)?;
                    scale = scale / s;
                }
            }
            Some(true)
        };
        checked_pow(s, d as usize + 1).and_then(|den| den.to_u128()) == Some(g.den)
            && i64::try_from(g.w.len()).ok() == Some((i64::from(d) + 1) * self.t - g.min + 1)
            && check() == Some(true)
    }
}

/// The unsigned word the recognition computes in: `u64` when the die's denominator fits
/// it (hardware quotients), `u128` otherwise.
trait Word: PrimInt + CheckedMul {}

impl<W: PrimInt + CheckedMul> Word for W {}

/// The exact `k`-th root of `x` (`k ≥ 2`), if `x` is a `k`-th power: a bisection in
/// integers (no floating point: nothing to load or round on a cold call).
fn exact_root<W: Word>(x: W, k: u32) -> Option<W> {
    let two = W::one() + W::one();
    if x < two {
        return Some(x);
    }
    let width = W::zero().count_zeros();
    let bits = width - x.leading_zeros();
    // r^k = x with r < 2^ceil(bits/k), and k ≥ 2 keeps that shift inside the word.
    let (mut lo, mut hi) = (
        W::one(),
        W::one() << bits.div_ceil(k).min(width / 2) as usize,
    );
    while lo + W::one() < hi {
        let mid = (lo + hi) / two;
        match checked_pow(mid, k as usize) {
            Some(p) if p <= x => lo = mid,
            _ => hi = mid,
        }
    }
    (checked_pow(lo, k as usize) == Some(x)).then_some(lo)
}

/// Recognises `g` as `base.explode(depth)` for a base die with faces `a..=t`, `0 ≤ a < t`,
/// the base die's weights and denominator in `u64`, `depth ≥ 1`; `None` if it is not one.
///
/// In `u64` whenever the denominator fits it (every weight is at most the denominator):
/// `u128` quotients and remainders are library calls (10d10 exploding twice, warm: 3.24 µs
/// with the recognition in `u128`, 3.01 µs in `u64`).
fn recognise(g: &Dense<u128>) -> Option<Exploding> {
    if u64::try_from(g.den).is_ok() {
        recognise_in::<u64>(g)
    } else {
        recognise_in::<u128>(g)
    }
}

/// [`recognise`] in the word `W`, which holds the denominator.
fn recognise_in<W: Word>(g: &Dense<u128>) -> Option<Exploding> {
    let len = i64::try_from(g.w.len()).ok()?;
    let (a, hi) = (g.min, g.min.checked_add(len - 1)?);
    if len < 3 || a < 0 || g.w.first() == Some(&0) {
        return None;
    }
    let word = cast::<u128, W>;
    let (den, top) = (word(g.den)?, word(*g.w.last()?)?);
    // The highest outcome is (depth + 1) · t: try every depth that divides it, the deepest
    // first. A chain is self-similar (a d10 exploding 9 times is also a 50-sided die of five
    // levels exploding once), and the deepest reading has the smallest coefficients.
    for t in a + 1..=hi / 2 {
        if hi % t != 0 {
            continue;
        }
        let Ok(levels) = u32::try_from(hi / t) else {
            continue;
        };
        let depth = levels - 1;
        let Some(s) = exact_root(den, levels) else {
            continue;
        };
        let Some(u) = exact_root(top, levels) else {
            continue;
        };
        let (Some(base_s), Some(base_u)) = (s.to_u64(), u.to_u64()) else {
            continue;
        };
        let scale = checked_pow(s, depth as usize)?;
        let lower: Option<Vec<u64>> = g.w[..(t - a) as usize]
            .iter()
            .map(|&x| {
                let x = word(x)?;
                (x % scale == W::zero())
                    .then(|| (x / scale).to_u64())
                    .flatten()
            })
            .collect();
        let Some(lower) = lower else {
            continue;
        };
        // The weights alone decide: every outcome must be what the rebuilt die's chain gives.
        let x = Exploding {
            a,
            t,
            lower,
            u: base_u,
            s: base_s,
            depth,
        };
        if base_u > 0 && x.matches::<W>(g) {
            return Some(x);
        }
    }
    None
}

/// The sum of `n ≥ 2` copies of `g` when `g` is a die exploding on its top face (see the
/// module's text); `None` when it is not one, or when its coefficients would not fit `u128`
/// (then the caller convolves).
pub(crate) fn sum_of(g: &Dense<u128>, n: u32) -> Option<Distribution> {
    if n < 2 {
        return None;
    }
    let x = recognise(g)?;
    // Measured (`examples/explode_sum.rs`): while the sum's denominator fits in u64 the
    // convolutions run unchecked in u64 and are faster (4d6 exploding 3 times: 1.3 µs
    // against 2.5 µs); past it the structure wins (10d10 exploding twice, 10^30: 7 µs by
    // the rows, 2.6 µs by Horner's rule in U, against 17 µs; 9 times, 10^100: 80 µs
    // against 1.2 ms).
    let levels = (x.depth + 1).checked_mul(n)?;
    if u128::from(x.s)
        .checked_pow(levels)
        .is_some_and(|den| den <= u128::from(u64::MAX))
    {
        return None;
    }
    structured_sum(&x, n)
}

/// The sum of `n` copies of the exploding die `x` from its structure, whatever its size.
fn structured_sum(x: &Exploding, n: u32) -> Option<Distribution> {
    if let Some(sum) = uniform_sum(x, n) {
        return Some(sum);
    }
    let plan = Plan::new(x, n)?;
    // The narrowest types that hold every factor and every row's sum: u32 factors with
    // u64 sums multiply two lanes at a time.
    match (plan.factors, plan.row_sum_u64) {
        (Width::U32, true) => plan.run::<u32, u64>(),
        (Width::U64, true) => plan.run::<u64, u64>(),
        (Width::U32 | Width::U64, false) => plan.run::<u64, u128>(),
        (Width::U128, _) => plan.run::<u128, u128>(),
    }
}

/// The sum of `n` copies of `x` when its faces below the top weigh the same (every fair
/// die) and the sum's denominator fits `u128`; `None` otherwise.
///
/// Counted from the lowest outcome, one die is `G = w·U(x)·C(x^t) + u^(d+1)·x^E`, with
/// `U = 1 + x + … + x^(L−1)` its `L` faces below the top (weight `w` each), `C(y) =
/// Σ_k s^(d−k) u^k y^k` the chain and `E = (d+1)t − a` the outcome of exploding every
/// time. By the binomial theorem `G^n = Σ_j S_j · U^j`, where
/// `S_j = C(n, j) w^j (u^(d+1) x^E)^(n−j) C(x^t)^j = Σ_K C(n, j) w^j u^((d+1)(n−j)+K)
/// s^(dj−K) Q_j[K] x^(E(n−j)+tK)` has `dj + 1` terms (`Q_j[K]` counts the ways to write `K`
/// as `j` parts in `0..=d`). Horner's rule in `U` gives the sum: `n` times, multiply by
/// `U` (a running sum over a window of `L`) and add the next `S_j`. For 10d10 exploding
/// twice that is 121 terms and about 2,500 additions, against 6,700 multiply-adds and
/// 1,900 `u128` Horner steps by the rows of [`Plan`].
///
/// Exact in wrapping arithmetic: every step is a ring operation, so the result is right
/// modulo 2^128, and every weight of the sum is at most its denominator, which fits.
/// Compact on purpose (no generic helpers, one function): on a process's first sum the
/// time goes to fetching code that never ran.
#[inline(never)]
fn uniform_sum(x: &Exploding, n: u32) -> Option<Distribution> {
    let w = *x.lower.first()?;
    if w == 0 || x.lower.iter().any(|&v| v != w) || x.s < 2 {
        return None;
    }
    let levels = x.depth.checked_add(1)?.checked_mul(n)?;
    // s ≥ 2 and s^levels < 2^128: levels < 128, so n < 64 and C(n, j) · n fits u128.
    let den = u128::from(x.s).checked_pow(levels)?;
    let (n, d) = (n as usize, x.depth as usize);
    let (t, l) = (usize::try_from(x.t).ok()?, x.lower.len());
    // The outcome of exploding every time, from the lowest (0 ≤ a < t).
    let e = (d + 1) * t - usize::try_from(x.a).ok()?;
    let (s, u, w) = (u128::from(x.s), u128::from(x.u), u128::from(w));

    // Q_j for j = 0..=n one after another (Q_j from `q_at(j)`, `dj + 1` long), each a
    // running sum of width d + 1 over Q_(j−1).
    let q_at = |j: usize| d * j * j.saturating_sub(1) / 2 + j;
    // Then u^i for i = 0..=(d+1)n and s^i for i = 0..=dn.
    let (u_at, s_at) = (q_at(n + 1), q_at(n + 1) + (d + 1) * n + 1);
    let mut table = vec![0u128; s_at + d * n + 1];
    table[0] = 1;
    for j in 1..=n {
        let (done, rest) = table.split_at_mut(q_at(j));
        window_sums(&done[q_at(j - 1)..], d + 1, &mut rest[..=d * j]);
    }
    let (mut up, mut sp) = (1u128, 1u128);
    for i in 0..=(d + 1) * n {
        table[u_at + i] = up;
        up = up.wrapping_mul(u);
        if i <= d * n {
            table[s_at + i] = sp;
            sp = sp.wrapping_mul(s);
        }
    }
    let (q, powers) = table.split_at(u_at);
    let (u_pow, s_pow) = powers.split_at(s_at - u_at);

    let out_len = e * n + 1;
    let mut acc = vec![0u128; out_len];
    let mut next = vec![0u128; out_len];
    // Per j: C(n, j) w^j u^((d+1)(n−j)), from j = n down (C(n, j) and w^j divide exactly:
    // both are below the denominator, nothing wrapped).
    // (w^n ≤ s^n fits for weights that sum to at most the denominator; anything else
    // goes the general way rather than overflow.)
    let (mut binom, mut w_j, mut u_j) = (1u128, w.checked_pow(n as u32)?, 1u128);
    let u_step = u_pow[d + 1];
    // The highest index with a weight so far.
    let mut hi = 0;
    for j in (0..=n).rev() {
        if j < n {
            // acc ← acc · U: next[z] = acc[z] + … + acc[z − L + 1].
            hi = (hi + l - 1).min(out_len - 1);
            window_sums(&acc[..=hi], l, &mut next[..=hi]);
            std::mem::swap(&mut acc, &mut next);
            binom = binom * (j as u128 + 1) / (n - j) as u128;
            w_j /= w;
            u_j = u_j.wrapping_mul(u_step);
        }
        let scale = binom.wrapping_mul(w_j).wrapping_mul(u_j);
        let base = e * (n - j);
        let q_j = &q[q_at(j)..q_at(j) + d * j + 1];
        for (k, (&count, slot)) in q_j
            .iter()
            .zip(acc[base..].iter_mut().step_by(t))
            .enumerate()
        {
            let c = count.wrapping_mul(u_pow[k]).wrapping_mul(s_pow[d * j - k]);
            *slot = slot.wrapping_add(c.wrapping_mul(scale));
        }
        hi = hi.max(base + t * d * j);
    }
    Some(Distribution::from_dense(n as i64 * x.a, acc, den))
}

/// The narrowest unsigned type that holds some numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Width {
    U32,
    U64,
    U128,
}

impl Width {
    fn of(most: u128) -> Self {
        if most <= u128::from(u32::MAX) {
            Self::U32
        } else if most <= u128::from(u64::MAX) {
            Self::U64
        } else {
            Self::U128
        }
    }
}

/// The sizes and bounds of one sum, checked before any work.
struct Plan<'a> {
    x: &'a Exploding,
    n: u32,
    /// `d · n`: the highest power of `s` with a coefficient.
    top_power: u32,
    /// Width of a row of coefficients: `(t − a) · n + 1` outcomes.
    width: usize,
    /// A bound on every coefficient: `G(1)^n` with `s = 1`.
    total: u128,
    /// `A^m` for `m = 0..=n`, one after the other (`A^m` from `a_at[m]`).
    a_powers: Vec<u128>,
    a_at: Vec<usize>,
    /// `C(n, m) · Q_m[K] · u^((d+1)(n−m) + K)` (from `alpha_at[m]`).
    alpha: Vec<u128>,
    alpha_at: Vec<usize>,
    /// The type that holds every factor (the powers of A, the scalars).
    factors: Width,
    /// Every row's coefficients sum to at most `u64::MAX`.
    row_sum_u64: bool,
}

impl<'a> Plan<'a> {
    fn new(x: &'a Exploding, n: u32) -> Option<Self> {
        let d = x.depth;
        let u = u128::from(x.u);
        let sum_lower = x
            .lower
            .iter()
            .try_fold(0u128, |acc, &w| acc.checked_add(u128::from(w)))?;
        // G(1) with s = 1 bounds every coefficient: Σ_p Σ_v c_p(v) = G(1)^n.
        let chain = (0..=d).try_fold(0u128, |acc, k| acc.checked_add(u.checked_pow(k)?))?;
        let one = sum_lower
            .checked_mul(chain)?
            .checked_add(u.checked_pow(d + 1)?)?;
        // `one` ≥ 3, so n ≤ 80 here: C(n, m) · n stays far inside u128 below.
        let total = one.checked_pow(n)?;
        let top_power = d.checked_mul(n)?;
        let width = usize::try_from((x.t - x.a) as u128 * u128::from(n) + 1).ok()?;
        if (u128::from(top_power) + 1) * width as u128 > MAX_CELLS {
            return None;
        }
        // The factors, in u128: A^m ≤ (ΣA)^n and each scalar times some entry of A^m is
        // one term of G(1)^n, so all are at most `total`.
        let (nn, dd) = (n as usize, d as usize);
        let lower: Vec<u128> = x.lower.iter().map(|&w| u128::from(w)).collect();
        let (a_powers, a_at) = powers_of_a(&lower, nn);
        let (alpha, alpha_at) = scalars::<u128>(nn, dd, x.u);
        let most = a_powers.iter().chain(&alpha).copied().max().unwrap_or(0);
        let factors = Width::of(most);
        // Row p's coefficients sum to Σ_m alpha[m][dm − p] (ΣA)^m: u64 rows when the
        // largest of these fits.
        let mut row_sum_u64 = total <= u128::from(u64::MAX);
        if !row_sum_u64 {
            // (ΣA)^m ≤ total for m ≤ n.
            let sum_powers: Vec<u128> = (0..=n).map(|m| sum_lower.pow(m)).collect();
            let fits = |p: usize| -> Option<bool> {
                let mut sum = 0u128;
                for m in p.div_ceil(dd)..=nn {
                    let term = alpha[alpha_at[m] + dd * m - p].checked_mul(sum_powers[m])?;
                    sum = sum.checked_add(term)?;
                }
                Some(sum <= u128::from(u64::MAX))
            };
            row_sum_u64 = (0..=dd * nn).all(|p| fits(p) == Some(true));
        }
        Some(Self {
            x,
            n,
            top_power,
            width,
            total,
            a_powers,
            a_at,
            alpha,
            alpha_at,
            factors,
            row_sum_u64,
        })
    }

    /// The sum, with factors in `O` and coefficients in `T` (both checked to hold them).
    fn run<O: Operand, T: Accumulator<O>>(mut self) -> Option<Distribution> {
        let x = self.x;
        let cast = |v: &[u128]| -> Vec<O> { v.iter().map(|&y| O::from_u128(y)).collect() };
        let (a_powers, alpha) = (cast(&self.a_powers), cast(&self.alpha));
        // Freed before the answer is allocated: its big integers reuse this memory rather
        // than touch new pages (a fresh page costs a fault, about a microsecond).
        self.a_powers = Vec::new();
        self.alpha = Vec::new();

        let min = i64::from(self.n) * x.a;
        let out_len =
            usize::try_from(((i64::from(x.depth) + 1) * x.t - x.a) * i64::from(self.n) + 1).ok()?;
        let levels = x.depth.checked_add(1)?.checked_mul(self.n)?;
        let t = usize::try_from(x.t).ok()?;
        let rows = Rows {
            a_powers,
            a_at: &self.a_at,
            alpha,
            alpha_at: &self.alpha_at,
            n: self.n as usize,
            d: x.depth as usize,
            step: (x.t - x.a) as usize,
            top: self.top_power as usize,
            t,
            width: self.width,
            out_len,
            s: x.s,
        };
        let mut buf = vec![T::default(); rows.width];

        if let Some(den) = u128::from(x.s).checked_pow(levels) {
            return Some(rows.weights_in_u128(&mut buf, min, den));
        }
        Some(rows.big_weights(&mut buf, levels, self.total, min))
    }
}

/// One sum's rows of coefficients (row `p` holds those of `s^p`), built one at a time from
/// its factors in `O`, and where each row lands among the sum's outcomes.
struct Rows<'p, O> {
    /// `A^m` for `m = 0..=n`, one after the other (`A^m` from `a_at[m]`).
    a_powers: Vec<O>,
    a_at: &'p [usize],
    /// `C(n, m) · Q_m[K] · u^((d+1)(n−m) + K)` (from `alpha_at[m]`).
    alpha: Vec<O>,
    alpha_at: &'p [usize],
    /// The dice summed.
    n: usize,
    /// The most extra rolls of each die.
    d: usize,
    /// `t − a`: how far `A^m` moves for each die fewer in it.
    step: usize,
    /// `d · n`: the highest power of `s` with a coefficient.
    top: usize,
    /// The top face: row `p` starts at outcome `t · (top − p)`.
    t: usize,
    /// Width of a row of coefficients: `(t − a) · n + 1` outcomes.
    width: usize,
    /// The outcomes of the sum.
    out_len: usize,
    /// The base die's denominator.
    s: u64,
}

impl<O: Operand> Rows<'_, O> {
    /// Row `p` into `row`: `Σ_m alpha[m][dm − p] · A^m`, each `A^m` moved `step · (n − m)`.
    fn row_into<T: Accumulator<O>>(&self, p: usize, row: &mut [T]) {
        let (n, d, step) = (self.n, self.d, self.step);
        let (a_powers, a_at) = (&self.a_powers[..], self.a_at);
        let (alpha, alpha_at) = (&self.alpha[..], self.alpha_at);
        let len_a = |m: usize| a_at[m + 1] - a_at[m];
        row.fill(T::default());
        for m in p.div_ceil(d)..=n {
            let scalar = alpha[alpha_at[m] + d * m - p];
            if scalar == O::default() {
                continue;
            }
            let from = step * (n - m);
            for (slot, &y) in row[from..from + len_a(m)]
                .iter_mut()
                .zip(&a_powers[a_at[m]..])
            {
                *slot = slot.mac(scalar, y);
            }
        }
    }

    /// The lowest power of s an outcome has: the last row it is in.
    fn lowest(&self, z: usize) -> usize {
        self.top.saturating_sub(z / self.t)
    }

    /// The weights when the denominator `den` fits u128, so that every weight does too.
    fn weights_in_u128<T: Accumulator<O>>(
        &self,
        buf: &mut [T],
        min: i64,
        den: u128,
    ) -> Distribution {
        let (top, t, width) = (self.top, self.t, self.width);
        let s = u128::from(self.s);
        // Every weight is at most den: Horner in u128 straight into the answer, rows
        // from the highest power of s down, then × s^lowest (nothing wraps).
        let mut acc = vec![0u128; self.out_len];
        for p in (0..=top).rev() {
            self.row_into(p, buf);
            let at = t * (top - p);
            for (slot, c) in acc[at..at + width].iter_mut().zip(&*buf) {
                *slot = slot.wrapping_mul(s).wrapping_add(c.to_u128());
            }
        }
        let pow: Vec<u128> = (0..=top as u32).map(|p| s.wrapping_pow(p)).collect();
        for (z, w) in acc.iter_mut().enumerate() {
            *w = w.wrapping_mul(pow[self.lowest(z)]);
        }
        Distribution::from_dense(min, acc, den)
    }

    /// The weights when the denominator `s^levels` is past u128: big integers, laid flat.
    fn big_weights<T: Accumulator<O>>(
        &self,
        buf: &mut [T],
        levels: u32,
        total: u128,
        min: i64,
    ) -> Distribution {
        // Big weights. Each outcome's Horner sum over its rows lives in a ring of `width`
        // slots (an outcome leaves the rows for good once they move past it), in u128 when
        // total · s^(rows − 1) bounds it, else in `limbs` 64-bit limbs; then one product
        // with s^lowest makes its weight, written straight into one flat buffer of
        // `limbs` limbs an outcome (every weight is at most the denominator, which has as
        // many): one allocation for all the weights instead of a big integer each.
        let den = BigUint::from(self.s).pow(levels);
        let limbs = den.iter_u64_digits().len();
        let rows = self.width.div_ceil(self.t) as u32;
        let narrow = u128::from(self.s)
            .checked_pow(rows - 1)
            .and_then(|p| p.checked_mul(total))
            .is_some();
        let pows = limb_powers(self.s, self.top as u32, limbs);
        let mut flat = vec![0u64; self.out_len * limbs];
        if narrow {
            self.ring_in_u128(buf, &pows, limbs, &mut flat);
        } else {
            self.ring_in_limbs(buf, &pows, limbs, &mut flat);
        }
        Distribution::from_flat(min, limbs, flat, den)
    }

    /// Each outcome's Horner sum in a ring of u128 (total · s^(rows − 1) bounds it), times
    /// `s^lowest` (`pows`, `limbs` limbs each) into `flat` once the rows move past it.
    fn ring_in_u128<T: Accumulator<O>>(
        &self,
        buf: &mut [T],
        pows: &[u64],
        limbs: usize,
        flat: &mut [u64],
    ) {
        let (top, t, width) = (self.top, self.t, self.width);
        let s = u128::from(self.s);
        let mut wide = vec![0u64; 2 * limbs + 2];
        let mut done = 0;
        let mut ring = vec![0u128; width];
        // The next outcome to finish, its ring slot and its lowest power of s.
        let (mut slot, mut low, mut in_level) = (0, top, 0);
        // Each power's limbs without its leading zeros.
        let pow_len: Vec<usize> = (0..=top)
            .map(|p| {
                let pow = &pows[p * limbs..(p + 1) * limbs];
                pow.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1)
            })
            .collect();
        let mut finish = |z: usize, ring: &mut [u128]| {
            let sum = std::mem::take(&mut ring[slot]);
            let pow = &pows[low * limbs..low * limbs + pow_len[low]];
            let k = times_u128(sum, pow, &mut wide);
            store(flat, limbs, z, &wide[..k]);
            slot = if slot + 1 == width { 0 } else { slot + 1 };
            in_level += 1;
            if in_level == t {
                in_level = 0;
                low = low.saturating_sub(1);
            }
        };
        for p in (0..=top).rev() {
            let at = t * (top - p);
            while done < at {
                finish(done, &mut ring);
                done += 1;
            }
            self.row_into(p, buf);
            // The row's outcomes in ring order: from `at % width` to the end, then
            // from the start.
            let split = width - at % width;
            let (head, tail) = buf.split_at(split);
            let (ring_tail, ring_head) = ring.split_at_mut(at % width);
            for (slot, c) in ring_head
                .iter_mut()
                .zip(head)
                .chain(ring_tail.iter_mut().zip(tail))
            {
                *slot = slot.wrapping_mul(s).wrapping_add(c.to_u128());
            }
        }
        while done < self.out_len {
            finish(done, &mut ring);
            done += 1;
        }
    }

    /// Each outcome's Horner sum in `limbs` 64-bit limbs (past u128), times `s^lowest`
    /// (`pows`, `limbs` limbs each) into `flat` once the rows move past it.
    fn ring_in_limbs<T: Accumulator<O>>(
        &self,
        buf: &mut [T],
        pows: &[u64],
        limbs: usize,
        flat: &mut [u64],
    ) {
        let (top, t, width) = (self.top, self.t, self.width);
        let pow_of = |z: usize| {
            let pow = &pows[self.lowest(z) * limbs..(self.lowest(z) + 1) * limbs];
            &pow[..pow.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1)]
        };
        let mut wide = vec![0u64; 2 * limbs + 2];
        let mut done = 0;
        let mut ring = vec![0u64; width * limbs];
        let mut used = vec![0u32; width];
        let mut finish = |z: usize, ring: &mut [u64], used: &mut [u32]| {
            let slot = z % width;
            let number = &mut ring[slot * limbs..(slot + 1) * limbs];
            let k = times(&number[..used[slot] as usize], pow_of(z), &mut wide);
            store(flat, limbs, z, &wide[..k]);
            number.fill(0);
            used[slot] = 0;
        };
        for p in (0..=top).rev() {
            let at = t * (top - p);
            while done < at {
                finish(done, &mut ring, &mut used);
                done += 1;
            }
            self.row_into(p, buf);
            for (i, c) in buf.iter().enumerate() {
                let slot = (at + i) % width;
                let number = &mut ring[slot * limbs..(slot + 1) * limbs];
                used[slot] = mul_add(number, used[slot], self.s, c.to_u128());
            }
        }
        while done < self.out_len {
            finish(done, &mut ring, &mut used);
            done += 1;
        }
    }
}

/// Writes outcome `z`'s weight (`product`, its limbs) into its `limbs` limbs of `flat`.
fn store(flat: &mut [u64], limbs: usize, z: usize, product: &[u64]) {
    let (kept, rest) = product.split_at(limbs.min(product.len()));
    debug_assert!(
        rest.iter().all(|&l| l == 0),
        "a weight above the denominator"
    );
    flat[z * limbs..][..kept.len()].copy_from_slice(kept);
}

/// `dst[z] = src[z + 1 − width] + … + src[z]` (entries of `src` before 0 or past its end
/// count as 0), in wrapping arithmetic: the product by `1 + x + … + x^(width − 1)`, as a
/// running sum that one entry enters and one leaves. The counts of `j` parts (`Q_j`), the
/// powers of a fair die's faces and each step of Horner's rule in `U` are such products.
/// No bounds checks inside the loops: they are the hot part of a sum by Horner's rule.
fn window_sums<O: Operand>(src: &[O], width: usize, dst: &mut [O]) {
    let zero = O::default();
    let at = |z: usize| src.get(z).copied().unwrap_or(zero);
    let (len, full) = (dst.len(), src.len().min(dst.len()));
    let first = width.min(len);
    let mut run = zero;
    // Until the window is full, nothing leaves it.
    for (z, slot) in dst[..first].iter_mut().enumerate() {
        run = run.wadd(at(z));
        *slot = run;
    }
    if width < full {
        // Both the entering and the leaving entry are in `src`.
        let (entering, leaving) = (&src[width..full], &src[..full - width]);
        for ((slot, &v), &old) in dst[width..full].iter_mut().zip(entering).zip(leaving) {
            run = run.wadd(v.wsub(old));
            *slot = run;
        }
    }
    // Past the end of `src` only leaving entries remain.
    for (z, slot) in dst.iter_mut().enumerate().skip(first.max(full)) {
        run = run.wsub(at(z - width));
        *slot = run;
    }
}

/// `A^m` for `m = 0..=n`, laid one after the other (`A^m` from index `at[m]` to
/// `at[m + 1]`). Each entry is at most `(ΣA)^n`, checked to fit `O`.
fn powers_of_a<O: Operand>(lower: &[O], n: usize) -> (Vec<O>, Vec<usize>) {
    let k = lower.len();
    let mut at = Vec::with_capacity(n + 2);
    at.push(0);
    for m in 0..=n {
        at.push(at[m] + m * (k - 1) + 1);
    }
    let mut out = vec![O::default(); at[n + 1]];
    out[0] = O::from_u128(1);
    let uniform = lower.iter().all(|&w| w == lower[0]);
    for m in 1..=n {
        let (done, rest) = out.split_at_mut(at[m]);
        let prev = &done[at[m - 1]..];
        let next = &mut rest[..at[m + 1] - at[m]];
        if uniform {
            // Equal weights: a running sum over a window of `k`.
            window_sums(prev, k, next);
            for slot in next.iter_mut() {
                *slot = slot.wmul(lower[0]);
            }
        } else {
            for (i, &p) in prev.iter().enumerate() {
                for (slot, &w) in next[i..].iter_mut().zip(lower) {
                    *slot = slot.wadd(p.wmul(w));
                }
            }
        }
    }
    (out, at)
}

/// The scalars `C(n, m) · Q_m[K] · u^((d+1)(n−m) + K)` for `m = 0..=n`, `K = 0..=dm`,
/// laid one `m` after the other (from `at[m]`); `Q_m[K]` counts the ways to write `K` as
/// `m` parts of `0..=d`. Each is at most `2^n (d+1)^n u^((d+1)n)`, checked to fit `O`.
fn scalars<O: Operand>(n: usize, d: usize, u: u64) -> (Vec<O>, Vec<usize>) {
    let mut at = Vec::with_capacity(n + 2);
    at.push(0);
    for m in 0..=n {
        at.push(at[m] + d * m + 1);
    }
    let mut out = vec![O::default(); at[n + 1]];
    let u = O::from_u128(u128::from(u));
    let mut u_pow = vec![O::from_u128(1); (d + 1) * n + 1];
    for i in 1..u_pow.len() {
        u_pow[i] = u_pow[i - 1].wmul(u);
    }
    let mut binom = O::from_u128(1);
    // Q_m kept in the scalars' own slots before scaling: Q_m from Q_{m−1} by a running
    // sum of width d + 1.
    let mut q = vec![O::default(); d * n + 1];
    let mut prev = Vec::with_capacity(d * n + 1);
    q[0] = O::from_u128(1);
    for m in 0..=n {
        if m > 0 {
            prev.clear();
            prev.extend_from_slice(&q[..d * (m - 1) + 1]);
            window_sums(&prev, d + 1, &mut q[..=d * m]);
            // C(n, m) from C(n, m − 1), exact at each step.
            binom = O::from_u128(binom.to_u128() * (n - m + 1) as u128 / m as u128);
        }
        for k in 0..=d * m {
            out[at[m] + k] = binom.wmul(q[k]).wmul(u_pow[(d + 1) * (n - m) + k]);
        }
    }
    (out, at)
}

/// `s^p` for `p = 0..=top`, each in `limbs` 64-bit limbs, one after the other.
fn limb_powers(s: u64, top: u32, limbs: usize) -> Vec<u64> {
    let mut pows = vec![0u64; (top as usize + 1) * limbs];
    pows[0] = 1;
    let mut used = 1;
    for p in 1..=top as usize {
        let (done, rest) = pows.split_at_mut(p * limbs);
        let next = &mut rest[..limbs];
        next.copy_from_slice(&done[(p - 1) * limbs..]);
        used = mul_add(next, used, s, 0);
    }
    pows
}

/// `number = number · s + c` over its first `used` limbs; returns the limbs now used. The
/// caller guarantees the result fits the slice.
fn mul_add(number: &mut [u64], used: u32, s: u64, c: u128) -> u32 {
    let mut carry = c;
    let used = used as usize;
    for limb in &mut number[..used] {
        let y = u128::from(*limb) * u128::from(s) + u128::from(carry as u64);
        *limb = y as u64;
        carry = (carry >> 64) + (y >> 64);
    }
    let mut len = used;
    while carry != 0 {
        number[len] = carry as u64;
        carry >>= 64;
        len += 1;
    }
    len as u32
}

/// `a · b` for `a` below 2^128, in 64-bit limbs in `wide` (long enough); returns the limbs
/// written.
fn times_u128(a: u128, b: &[u64], wide: &mut [u64]) -> usize {
    let (lo, hi) = (a as u64, (a >> 64) as u64);
    let mut carry = 0u64;
    for (slot, &y) in wide.iter_mut().zip(b) {
        let v = u128::from(lo) * u128::from(y) + u128::from(carry);
        *slot = v as u64;
        carry = (v >> 64) as u64;
    }
    wide[b.len()] = carry;
    let mut len = b.len() + 1;
    if hi != 0 {
        // The high limb's row, one limb up (each step at most 2^128 − 1).
        let mut carry = 0u64;
        for (slot, &y) in wide[1..].iter_mut().zip(b) {
            let v = u128::from(hi) * u128::from(y) + u128::from(*slot) + u128::from(carry);
            *slot = v as u64;
            carry = (v >> 64) as u64;
        }
        wide[b.len() + 1] = carry;
        len += 1;
    }
    len
}

/// `a · b` in 64-bit limbs in `wide` (long enough); returns the limbs written.
fn times(a: &[u64], b: &[u64], wide: &mut [u64]) -> usize {
    let len = a.len() + b.len();
    let wide = &mut wide[..len];
    wide.fill(0);
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (slot, &y) in wide[i..].iter_mut().zip(b) {
            let v = u128::from(x) * u128::from(y) + u128::from(*slot) + carry;
            *slot = v as u64;
            carry = v >> 64;
        }
        wide[i + b.len()] = carry as u64;
    }
    len
}

/// A row's coefficients: `u64` when every row sums to at most `u64::MAX`, else `u128`.
/// Arithmetic wraps, exact below the bounds checked in [`Plan::new`].
trait Accumulator<O>: Copy + Default {
    /// `self + a · b`.
    fn mac(self, a: O, b: O) -> Self;
    fn to_u128(self) -> u128;
}

impl Accumulator<u32> for u64 {
    fn mac(self, a: u32, b: u32) -> Self {
        // 32 × 32 → 64 bits: a multiplication the vector unit does two at a time.
        self.wrapping_add(u64::from(a) * u64::from(b))
    }
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
}

impl Accumulator<u64> for u64 {
    fn mac(self, a: u64, b: u64) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
}

impl Accumulator<u64> for u128 {
    fn mac(self, a: u64, b: u64) -> Self {
        // One widening multiplication.
        self.wrapping_add(u128::from(a) * u128::from(b))
    }
    fn to_u128(self) -> u128 {
        self
    }
}

impl Accumulator<u128> for u128 {
    fn mac(self, a: u128, b: u128) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
    fn to_u128(self) -> u128 {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::Rational;
    use crate::{DiceError, DiceSource, Distribution, enumerate};
    use proptest::prelude::*;

    fn dense(w: &Distribution) -> &Dense<u128> {
        w.small_dense().expect("a small die")
    }

    /// `n` dice of `sides` faces, each rolling again on its top face at most `depth` more
    /// times, the last roll kept as it shows: every sequence of faces, enumerated.
    fn enumerated(n: u32, sides: u32, depth: u32) -> Rational {
        let rule = |d: &mut dyn DiceSource| -> Result<i64, DiceError> {
            let mut total = 0;
            for _ in 0..n {
                for roll in 0..=depth {
                    let f = d.roll(sides)?;
                    total += i64::from(f);
                    if f != sides || roll == depth {
                        break;
                    }
                }
            }
            Ok(total)
        };
        let e = enumerate((n * (depth + 1)) as usize, rule).unwrap();
        Rational::from_pairs(e.outcomes, e.truncated)
    }

    /// The structured sum takes the shortcut (it is recognised and planned) and equals the
    /// convolutions.
    fn check(die: &Distribution, n: u32) {
        let x = recognise(dense(die)).expect("recognised");
        let fast = structured_sum(&x, n).expect("takes the shortcut");
        assert_eq!(fast, die.sum_by_squares(n), "{die:?} × {n}");
        assert_eq!(die.sum_of(n), fast);
    }

    #[test]
    fn exploding_sums_match_convolutions_and_enumeration() {
        for sides in 2..=10u32 {
            for depth in 1..=3u32 {
                let die = Distribution::die(sides).explode(depth);
                for n in 2..=4u32 {
                    check(&die, n);
                    // Every sequence of rolls: (depth · sides + 1)^n of them at most.
                    if u64::from(depth * sides + 1).pow(n) <= 40_000 {
                        let x = recognise(dense(&die)).expect("recognised");
                        assert_eq!(
                            structured_sum(&x, n).expect("summed").to_rational(),
                            enumerated(n, sides, depth),
                            "{n}d{sides} exploding {depth} times"
                        );
                    }
                }
            }
        }
    }

    /// The benchmark's sums: in u128 (depth 2, 10^30) and in big integers with each
    /// outcome's Horner sum in u128 (depth 9, 10^100).
    #[test]
    fn ten_d10_exploding() {
        let two = Distribution::die(10).explode(2);
        check(&two, 10);
        assert!(two.sum_of(10).is_small());
        let nine = Distribution::die(10).explode(9);
        check(&nine, 10);
        let sum = nine.sum_of(10);
        assert!(!sum.is_small());
        // Ten tens nine times over, then ten tens: 1/10^100 at 1000.
        assert_eq!(sum.weight(1000), BigUint::from(1u32));
        assert_eq!(sum.weight(10), BigUint::from(10u32).pow(90));
        assert_eq!(sum.to_rational().total(), crate::prob(1, 1));
    }

    /// Past u128 even per outcome (d100 exploding 3 times, 10 dice: 10^80): the Horner
    /// sums in limbs.
    #[test]
    fn limb_sums_match_convolutions() {
        let die = Distribution::die(100).explode(3);
        let plan_needs_limbs = {
            let x = recognise(dense(&die)).expect("recognised");
            let plan = Plan::new(&x, 10).expect("planned");
            let rows = plan.width.div_ceil(100) as u32;
            100u128
                .checked_pow(rows - 1)
                .and_then(|p| p.checked_mul(plan.total))
                .is_none()
        };
        assert!(plan_needs_limbs);
        check(&die, 10);
    }

    /// The one-pass explode equals rolling again level by level (the chain built one roll
    /// at a time, as before), for fair and unfair dice, in u128 and in big integers.
    #[test]
    fn explode_in_one_pass_equals_level_by_level() {
        fn by_levels(die: &Distribution, depth: u32) -> Distribution {
            let faces = die.weights_big();
            let s = die.denominator_big();
            let (t, u) = faces.last().cloned().expect("a face");
            let mut r: std::collections::BTreeMap<i64, BigUint> = faces.iter().cloned().collect();
            let mut den = s.clone();
            for _ in 0..depth {
                let mut next = std::collections::BTreeMap::new();
                for (v, x) in &faces[..faces.len() - 1] {
                    *next.entry(*v).or_insert_with(BigUint::default) += x * &den;
                }
                for (v, x) in &r {
                    *next.entry(t + v).or_insert_with(BigUint::default) += &u * x;
                }
                r = next;
                den *= &s;
            }
            let min = *r.keys().next().expect("a value");
            let max = *r.keys().last().expect("a value");
            let w = (min..=max)
                .map(|v| r.get(&v).cloned().unwrap_or_default())
                .collect();
            Distribution::from_dense_big(min, w, den)
        }
        for die in [
            Distribution::die(6),
            Distribution::die(10),
            Distribution::from_pairs([(1, 1), (2, 2), (3, 3)]),
            Distribution::from_pairs([(-2, 1), (0, 4), (3, 2)]),
            Distribution::from_pairs([(0, 1), (1, 1)]),
        ] {
            for depth in 0..=12 {
                let fast = die.explode(depth);
                assert_eq!(
                    fast.to_rational(),
                    by_levels(&die, depth).to_rational(),
                    "{die:?} {depth}"
                );
                assert_eq!(fast.clone().into_big(), by_levels(&die, depth).into_big());
            }
        }
        // Past u128: d100 exploding 20 times (100^21) goes big and stays exact.
        let big = Distribution::die(100).explode(20);
        assert!(!big.is_small());
        assert_eq!(big, by_levels(&Distribution::die(100), 20));
    }

    /// The running window sums equal their definition, for sources shorter, as long as
    /// and longer than the result, and windows narrower and wider than both.
    #[test]
    fn window_sums_are_sums_over_the_window() {
        let src: Vec<u64> = (1..=9).map(|i| i * i + 3).collect();
        for src_len in 0..=src.len() {
            let src = &src[..src_len];
            for len in 0..=12 {
                for width in 1..=14 {
                    let mut got = vec![0u64; len];
                    window_sums(src, width, &mut got);
                    let want: Vec<u64> = (0..len)
                        .map(|z| {
                            (z.saturating_sub(width - 1)..=z)
                                .filter_map(|i| src.get(i))
                                .sum()
                        })
                        .collect();
                    assert_eq!(got, want, "{src:?} {len} {width}");
                }
            }
        }
    }

    /// Dice whose faces below the top weigh the same take Horner's rule in `U` whenever the
    /// denominator fits u128 (small ones too, when called directly), and it equals the
    /// convolutions; other dice, or denominators past u128, do not take it.
    #[test]
    fn uniform_faces_take_horner_in_u() {
        let mut taken = 0;
        for base in [
            Distribution::die(2),
            Distribution::die(6),
            Distribution::die(10),
            Distribution::die(20),
            // Equal weights 2 below a top of weight 1, over 7; and a face 0.
            Distribution::from_pairs([(1, 2), (2, 2), (3, 2), (4, 1)]),
            Distribution::from_pairs([(0, 1), (1, 1), (2, 1), (3, 1)]),
        ] {
            for depth in 1..=4 {
                let die = base.explode(depth);
                let x = recognise(dense(&die)).expect("recognised");
                for n in 2..=12 {
                    let fits = u128::from(x.s).checked_pow((depth + 1) * n).is_some();
                    let got = uniform_sum(&x, n);
                    assert_eq!(got.is_some(), fits, "{base:?} {depth} {n}");
                    if let Some(got) = got {
                        assert_eq!(got, die.sum_by_squares(n), "{base:?} {depth} {n}");
                        taken += 1;
                    }
                }
            }
        }
        assert!(taken > 150, "{taken}");
        // Faces below the top of unequal weights: the rows of the plan instead.
        let uneven = Distribution::from_pairs([(1, 1), (2, 2), (3, 3)]).explode(2);
        let x = recognise(dense(&uneven)).expect("recognised");
        assert!(uniform_sum(&x, 4).is_none());
        assert_eq!(structured_sum(&x, 4), Some(uneven.sum_by_squares(4)));
    }

    /// Each choice of types for the factors and the rows is taken by some sum, and agrees.
    #[test]
    fn every_width_agrees() {
        for (sides, depth, n, factors, row_sum_u64) in [
            (10, 2, 10, Width::U32, true),
            (20, 2, 10, Width::U64, true),
            (100, 3, 10, Width::U64, false),
            (100, 2, 12, Width::U128, false),
        ] {
            let die = Distribution::die(sides).explode(depth);
            let x = recognise(dense(&die)).expect("recognised");
            let plan = Plan::new(&x, n).expect("planned");
            assert_eq!(
                (plan.factors, plan.row_sum_u64),
                (factors, row_sum_u64),
                "d{sides}"
            );
            check(&die, n);
        }
    }

    /// Dice that are not fair, with gaps, a face 0 or a heavy top face explode the same way.
    #[test]
    fn other_dice_explode_alike() {
        let dice = [
            Distribution::from_pairs([(1, 1), (2, 2), (3, 3)]),
            Distribution::from_pairs([(1, 2), (3, 1), (4, 1)]),
            Distribution::from_pairs([(0, 1), (1, 1), (2, 1), (3, 1)]),
            Distribution::from_pairs([(2, 5), (5, 1), (7, 2)]),
        ];
        for base in &dice {
            for depth in 1..=4 {
                for n in 2..=5 {
                    check(&base.explode(depth), n);
                }
            }
        }
    }

    /// Anything that is not an exploding die is left to the convolutions.
    #[test]
    fn other_weights_are_not_recognised() {
        assert!(recognise(dense(&Distribution::die(6))).is_none());
        assert!(recognise(dense(&Distribution::die(6).sum_of(3))).is_none());
        // An exploding die with one weight changed.
        let d = dense(&Distribution::die(6).explode(2)).clone();
        let mut w = d.w.clone();
        w[8] += 1;
        let changed = Dense {
            w,
            den: d.den + 1,
            ..d
        };
        assert!(recognise(&changed).is_none());
        // Truncated (the top face's chain left out): no longer the chain's weights.
        let cut = Distribution::die(6).explode(2).substitute(18, None);
        assert!(recognise(dense(&cut)).is_none());
        assert_eq!(cut.sum_of(3), cut.sum_by_squares(3));
    }

    /// The recognition in `u64` (denominators that fit it) and in `u128` read a die alike,
    /// and a die is recognised on both sides of the `u64` boundary.
    #[test]
    fn recognition_is_the_same_in_either_word() {
        for sides in 2..=12u32 {
            for depth in 1..=4u32 {
                let die = Distribution::die(sides).explode(depth);
                let g = dense(&die);
                let narrow = recognise_in::<u64>(g).expect("recognised in u64");
                assert_eq!(recognise_in::<u128>(g), Some(narrow.clone()));
                assert_eq!((narrow.s, narrow.depth), (u64::from(sides), depth));
            }
        }
        assert!(recognise_in::<u64>(dense(&Distribution::die(6))).is_none());
        // A heavy top face with the denominator just inside u64: 80^10 fits, and the chain
        // reads u^(d+1) = 60^10 but never 60^11, which would not.
        let heavy = Distribution::from_pairs([(1, 10), (2, 10), (3, 60)]).explode(9);
        assert!(u64::try_from(dense(&heavy).den).is_ok());
        let x = recognise_in::<u64>(dense(&heavy)).expect("recognised in u64");
        assert_eq!((x.s, x.u, x.depth), (80, 60, 9));
        check(&heavy, 2);
        // 10^19 fits u64 and 10^20 does not; 2^63 fits and 2^64 does not.
        for (sides, depth, fits) in [
            (10, 18, true),
            (10, 19, false),
            (2, 62, true),
            (2, 63, false),
        ] {
            let die = Distribution::die(sides).explode(depth);
            let g = dense(&die);
            assert_eq!(u64::try_from(g.den).is_ok(), fits);
            let x = recognise(g).expect("recognised");
            assert_eq!((x.s, x.u, x.depth), (u64::from(sides), 1, depth));
            assert_eq!(recognise_in::<u64>(g).is_some(), fits);
        }
    }

    #[test]
    fn roots_are_exact() {
        assert_eq!(exact_root(1000u64, 3), Some(10));
        assert_eq!(exact_root(1000u128, 3), Some(10));
        assert_eq!(exact_root(999u64, 3), None);
        assert_eq!(exact_root(10u128.pow(38), 38), Some(10));
        assert_eq!(exact_root(u128::MAX, 2), None);
        assert_eq!(exact_root(u64::MAX, 2), None);
        assert_eq!(
            exact_root(u128::from(u64::MAX).pow(2), 2),
            Some(u128::from(u64::MAX))
        );
        assert_eq!(
            exact_root(u64::from(u32::MAX).pow(2), 2),
            Some(u64::from(u32::MAX))
        );
        assert_eq!(exact_root(3u64.pow(40), 40), Some(3));
        assert_eq!(exact_root(1u64, 7), Some(1));
    }

    proptest! {
        /// Fair dice: the shortcut equals the convolutions.
        #[test]
        fn fair_dice(sides in 2u32..=12, depth in 1u32..=4, n in 2u32..=6) {
            let die = Distribution::die(sides).explode(depth);
            let x = recognise(dense(&die)).expect("recognised");
            prop_assert_eq!(structured_sum(&x, n), Some(die.sum_by_squares(n)));
        }

        /// Any die: the shortcut (when it applies) equals the convolutions.
        #[test]
        fn any_dice(
            weights in prop::collection::vec(0u64..4, 1..6),
            top in 1u64..4,
            depth in 1u32..=3,
            n in 2u32..=4,
        ) {
            let mut pairs: Vec<(i64, u64)> = weights
                .iter()
                .enumerate()
                .filter(|(_, w)| **w > 0)
                .map(|(i, &w)| (i as i64 + 1, w))
                .collect();
            pairs.push((weights.len() as i64 + 1, top));
            let faces = pairs.len();
            let die = Distribution::from_pairs(pairs).explode(depth);
            // A die of two faces or more is recognised.
            let x = recognise(dense(&die));
            prop_assert_eq!(x.is_some(), faces >= 2);
            if let Some(x) = x {
                prop_assert_eq!(structured_sum(&x, n), Some(die.sum_by_squares(n)));
            }
        }
    }
}
