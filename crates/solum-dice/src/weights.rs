//! The exact engine, and the one exact type of the workspace: [`Distribution`], integer
//! weights over one common denominator.
//!
//! A [`Distribution`] holds, for a contiguous range of outcomes, the integer weight of each
//! over a denominator (a d6 is weights `1, 1, 1, 1, 1, 1` over 6). Sums are convolutions of
//! the weights, and the denominators multiply. Weights are kept in `u128` with checked
//! arithmetic; an operation whose weights would overflow is run again over big integers
//! (`num-bigint`), so the answer is always exact and the common case allocates no big
//! number. Exact fractions ([`Prob`]) are made only when asked for ([`Distribution::p_eq`],
//! [`Distribution::outcomes`]), one query at a time: a reduced big rational per outcome costs
//! a hundred times the weights it is made from, and most callers want a few of them or `f64`.
//!
//! Pools of identical dice ([`Pool`]) are evaluated over sorted multisets, icepool's idea: a
//! roll of `n` dice is seen as how many dice show each face, weighted by the number of
//! ordered rolls with those counts (a multinomial). Keep highest/lowest, count matching faces
//! and the largest matching set walk the faces once, carrying a small state per multiset
//! prefix, instead of visiting `sides^n` ordered rolls.
//!
//! The mass a truncated mechanic leaves out is `denominator − Σ weights`: nothing extra to
//! carry.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::OnceLock;

use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};

use crate::Prob;

/// An integer weight: `u128` with checked arithmetic (`None` on overflow), or a big integer
/// that never overflows. Generic code over this trait runs once in `u128` and, only if that
/// overflows, again in [`BigUint`].
pub trait Weight: Clone + Debug + PartialEq + PartialOrd {
    /// Zero.
    fn zero() -> Self;
    /// A small integer.
    fn from_u64(x: u64) -> Self;
    /// `self + other`, `None` on overflow.
    fn add(&self, other: &Self) -> Option<Self>;
    /// `self × other`, `None` on overflow.
    fn mul(&self, other: &Self) -> Option<Self>;
    /// `self − other`, for `other ≤ self`.
    fn sub(&self, other: &Self) -> Self;
    /// Whether this is zero.
    fn is_zero(&self) -> bool;
    /// The same value as a big integer.
    fn to_big(&self) -> BigUint;
    /// The nearest `f64`.
    fn to_f64(&self) -> f64;
    /// `self / other` as an exact fraction.
    fn ratio(&self, den: &Self) -> Prob;
    /// Wraps weights of this type as a [`Distribution`].
    fn into_weights(d: Dense<Self>) -> Distribution;
    /// `base^exp`, `None` on overflow.
    fn power(base: u64, exp: u32) -> Option<Self> {
        let mut result = Self::from_u64(1);
        let mut square = Self::from_u64(base);
        let mut e = exp;
        while e > 0 {
            if e & 1 == 1 {
                result = result.mul(&square)?;
            }
            e >>= 1;
            if e > 0 {
                square = square.mul(&square)?;
            }
        }
        Some(result)
    }
    /// `self × other` where the caller knows the product fits (it is part of a total
    /// that fits): unchecked in `u128` (wrapping, hence exact when it fits).
    fn mul_within(&self, other: &Self) -> Self;
    /// `self / k`, where `k` divides `self` exactly.
    fn div_exact(&self, k: u64) -> Self;
    /// `self × k` for a small `k`.
    fn times(&self, k: u64) -> Option<Self> {
        self.mul(&Self::from_u64(k))
    }
}

impl Weight for u128 {
    fn zero() -> Self {
        0
    }
    fn from_u64(x: u64) -> Self {
        u128::from(x)
    }
    fn add(&self, other: &Self) -> Option<Self> {
        self.checked_add(*other)
    }
    fn mul(&self, other: &Self) -> Option<Self> {
        self.checked_mul(*other)
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul_within(&self, other: &Self) -> Self {
        self.wrapping_mul(*other)
    }
    fn div_exact(&self, k: u64) -> Self {
        self / u128::from(k)
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn to_f64(&self) -> f64 {
        *self as f64
    }
    fn ratio(&self, den: &Self) -> Prob {
        // Reduced in u128: far cheaper than the big-integer gcd of `Prob::new`.
        let g = gcd(*self, *den);
        Prob::new_raw(BigInt::from(self / g), BigInt::from(den / g))
    }
    fn into_weights(d: Dense<Self>) -> Distribution {
        Distribution {
            repr: Repr::Small(d.trimmed()),
        }
    }
}

impl Weight for BigUint {
    fn zero() -> Self {
        Zero::zero()
    }
    fn from_u64(x: u64) -> Self {
        BigUint::from(x)
    }
    fn add(&self, other: &Self) -> Option<Self> {
        Some(self + other)
    }
    fn mul(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul_within(&self, other: &Self) -> Self {
        self * other
    }
    fn div_exact(&self, k: u64) -> Self {
        self / k
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn to_f64(&self) -> f64 {
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    fn ratio(&self, den: &Self) -> Prob {
        Prob::new(BigInt::from(self.clone()), BigInt::from(den.clone()))
    }
    fn into_weights(d: Dense<Self>) -> Distribution {
        Distribution {
            repr: Repr::Big(d.trimmed()),
        }
        .shrunk()
    }
}

/// Binary gcd of two `u128` (gcd(0, d) = d; the denominator is never zero).
fn gcd(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b.max(1);
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// Distribution of the outcomes `min, min + 1, …` over `den`, in one integer type.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense<W> {
    /// The smallest outcome held (`w[0]` is its weight).
    pub min: i64,
    /// One weight per outcome from `min` on; zeros are allowed inside.
    pub w: Vec<W>,
    /// The common denominator.
    pub den: W,
}

impl<W: Weight> Dense<W> {
    /// Drops zero weights at both ends (an empty support keeps `min`).
    pub(crate) fn trimmed(mut self) -> Self {
        while self.w.last().is_some_and(W::is_zero) {
            self.w.pop();
        }
        let lead = self.w.iter().take_while(|x| x.is_zero()).count();
        if lead > 0 {
            self.w.drain(..lead);
            self.min += lead as i64;
        }
        self
    }

    fn sum(&self) -> Option<W> {
        self.w.iter().try_fold(W::zero(), |acc, x| acc.add(x))
    }

    fn to_big(&self) -> Dense<BigUint> {
        Dense {
            min: self.min,
            w: self.w.iter().map(W::to_big).collect(),
            den: self.den.to_big(),
        }
    }

    /// From sparse pairs: equal outcomes are merged.
    fn from_pairs(pairs: &[(i64, W)], den: W) -> Option<Self> {
        let Some(min) = pairs.iter().map(|p| p.0).min() else {
            return Some(Self {
                min: 0,
                w: Vec::new(),
                den,
            });
        };
        let max = pairs.iter().map(|p| p.0).max().unwrap_or(min);
        let mut w = vec![W::zero(); (max - min) as usize + 1];
        for (v, x) in pairs {
            let slot = &mut w[(v - min) as usize];
            *slot = slot.add(x)?;
        }
        Some(Self { min, w, den }.trimmed())
    }

    /// Convolution: the sum of independent outcomes.
    fn convolve(&self, other: &Self) -> Option<Self> {
        let den = self.den.mul(&other.den)?;
        if self.w.is_empty() || other.w.is_empty() {
            return Some(Self {
                min: self.min + other.min,
                w: Vec::new(),
                den,
            });
        }
        let mut w = vec![W::zero(); self.w.len() + other.w.len() - 1];
        for (i, a) in self.w.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.w.iter().enumerate() {
                if b.is_zero() {
                    continue;
                }
                let slot = &mut w[i + j];
                *slot = slot.add(&a.mul(b)?)?;
            }
        }
        Some(
            Self {
                min: self.min + other.min,
                w,
                den,
            }
            .trimmed(),
        )
    }

    /// `f(a, b)` of independent outcomes.
    fn combine(&self, other: &Self, f: &dyn Fn(i64, i64) -> i64) -> Option<Self> {
        let den = self.den.mul(&other.den)?;
        // The non-zero weights only: a sparse range (`d2 * 1000000`) holds a million slots
        // for two values, and the pairs of slots would be a million million.
        let nonzero = |d: &Self| -> Vec<(i64, W)> {
            d.w.iter()
                .enumerate()
                .filter(|(_, x)| !x.is_zero())
                .map(|(i, x)| (d.min + i as i64, x.clone()))
                .collect()
        };
        let (xs, ys) = (nonzero(self), nonzero(other));
        let mut pairs = Vec::with_capacity(xs.len() * ys.len());
        for (x, a) in &xs {
            for (y, b) in &ys {
                pairs.push((f(*x, *y), a.mul(b)?));
            }
        }
        Self::from_pairs(&pairs, den)
    }

    fn map(&self, f: &dyn Fn(i64) -> i64) -> Option<Self> {
        let pairs: Vec<(i64, W)> = self
            .w
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .map(|(i, x)| (f(self.min + i as i64), x.clone()))
            .collect();
        Self::from_pairs(&pairs, self.den.clone())
    }

    /// Replaces `outcome` by an independent roll of `with` (or drops it as neglected mass).
    fn substitute(&self, outcome: i64, with: Option<&Self>) -> Option<Self> {
        let Some(with) = with else {
            let mut d = self.clone();
            if let Some(i) = usize::try_from(outcome - d.min)
                .ok()
                .filter(|&i| i < d.w.len())
            {
                d.w[i] = W::zero();
            }
            return Some(d.trimmed());
        };
        let den = self.den.mul(&with.den)?;
        let mut pairs = Vec::with_capacity(self.w.len() + with.w.len());
        let mut replaced = W::zero();
        for (i, x) in self.w.iter().enumerate() {
            let v = self.min + i as i64;
            if v == outcome {
                replaced = x.clone();
            } else if !x.is_zero() {
                pairs.push((v, x.mul(&with.den)?));
            }
        }
        if !replaced.is_zero() {
            for (j, y) in with.w.iter().enumerate() {
                pairs.push((with.min + j as i64, replaced.mul(y)?));
            }
        }
        Self::from_pairs(&pairs, den)
    }

    /// Icepool's explode: on the highest outcome, roll again and add, at most `depth` more
    /// rolls (the last roll is kept as it shows, even on the highest outcome). Built in one
    /// pass over `s^(depth+1)`: after `k` top faces (`u` each) a face `f` below the top keeps
    /// `w_f · u^k · s^(depth−k)`; the last roll keeps every face with `w_f · u^depth`.
    fn explode(&self, depth: u32) -> Option<Self> {
        if self.w.is_empty() || depth == 0 {
            return Some(self.clone());
        }
        let top = self.w.len() - 1;
        let t = self.min + top as i64;
        let depth = depth as usize;
        // s^0 … s^depth, then the denominator s^(depth+1).
        let mut s_pow = Vec::with_capacity(depth + 1);
        s_pow.push(W::from_u64(1));
        for k in 1..=depth {
            let next = s_pow[k - 1].mul(&self.den)?;
            s_pow.push(next);
        }
        let den = s_pow[depth].mul(&self.den)?;
        let mut pairs = Vec::with_capacity((depth + 1) * self.w.len());
        let mut u_k = W::from_u64(1);
        for k in 0..=depth {
            let scale = u_k.mul(&s_pow[depth - k])?;
            let faces = if k == depth {
                &self.w[..]
            } else {
                &self.w[..top]
            };
            let shift = t.checked_mul(k as i64)?;
            for (i, x) in faces.iter().enumerate() {
                pairs.push((self.min + i as i64 + shift, x.mul(&scale)?));
            }
            if k < depth {
                u_k = u_k.mul(&self.w[top])?;
            }
        }
        Self::from_pairs(&pairs, den)
    }
}

/// The convolution of `u128` weights without per-step overflow checks. When the product of
/// the denominators fits and each side's weights sum to at most its denominator, every
/// weight of the result fits too; wrapping arithmetic is exact modulo 2^128 (or 2^64), so
/// its intermediate values need no check. Within `u64` (the product of the denominators fits
/// in 64 bits) the loop runs on `u64`; a square (`a` is `b`) counts each pair of positions
/// once. Anything else takes the checked [`Dense::convolve`].
fn convolve_small(a: &Dense<u128>, b: &Dense<u128>) -> Option<Dense<u128>> {
    let den = a.den.checked_mul(b.den)?;
    let within = |d: &Dense<u128>| d.sum().is_some_and(|s| s <= d.den);
    if a.w.is_empty() || b.w.is_empty() || !within(a) || !within(b) {
        return a.convolve(b);
    }
    let square = std::ptr::eq(a, b);
    let w: Vec<u128> = if u64::try_from(den).is_ok() {
        // Every weight is at most its denominator, hence below 2^64.
        let narrow = |d: &Dense<u128>| d.w.iter().map(|&x| x as u64).collect::<Vec<u64>>();
        let (x, y) = (narrow(a), narrow(b));
        wrapping_convolution(&x, &y, square, u64::wrapping_mul, u64::wrapping_add)
            .into_iter()
            .map(u128::from)
            .collect()
    } else {
        wrapping_convolution(&a.w, &b.w, square, u128::wrapping_mul, u128::wrapping_add)
    };
    Some(
        Dense {
            min: a.min + b.min,
            w,
            den,
        }
        .trimmed(),
    )
}

/// The schoolbook convolution in wrapping arithmetic; for a square, the products of two
/// different positions are taken once and doubled.
fn wrapping_convolution<T: Copy + Default + PartialEq>(
    a: &[T],
    b: &[T],
    square: bool,
    mul: impl Fn(T, T) -> T,
    add: impl Fn(T, T) -> T,
) -> Vec<T> {
    let mut w = vec![T::default(); a.len() + b.len() - 1];
    if square {
        for (i, &x) in a.iter().enumerate() {
            if x == T::default() {
                continue;
            }
            w[2 * i] = add(w[2 * i], mul(x, x));
            let twice = add(x, x);
            for (slot, &y) in w[2 * i + 1..].iter_mut().zip(&a[i + 1..]) {
                *slot = add(*slot, mul(twice, y));
            }
        }
    } else {
        for (i, &x) in a.iter().enumerate() {
            if x == T::default() {
                continue;
            }
            for (slot, &y) in w[i..].iter_mut().zip(b) {
                *slot = add(*slot, mul(x, y));
            }
        }
    }
    w
}

/// Products of lengths from which a big-integer convolution is done as one multiplication.
const KRONECKER_FROM: usize = 256;

/// The convolution of big weights by Kronecker substitution: each sequence becomes one
/// integer with a weight every `slot` bits, the two integers are multiplied (num-bigint's
/// Karatsuba and Toom-3), and the product's slots are the convolution. Every weight of the
/// product is at most `Σa · Σb`, so a slot one bit wider than that never carries.
fn kronecker(a: &Dense<BigUint>, b: &Dense<BigUint>) -> Dense<BigUint> {
    let sum = |d: &Dense<BigUint>| d.w.iter().sum::<BigUint>();
    let slot = (sum(a) * sum(b)).bits() + 1;
    let pack = |w: &[BigUint]| -> BigUint {
        let mut limbs = vec![0u64; (w.len() as u64 * slot).div_ceil(64) as usize + 1];
        for (i, x) in w.iter().enumerate() {
            let at = i as u64 * slot;
            let (word, shift) = ((at / 64) as usize, at % 64);
            for (j, d) in x.iter_u64_digits().enumerate() {
                limbs[word + j] |= d << shift;
                if shift > 0 {
                    limbs[word + j + 1] |= d >> (64 - shift);
                }
            }
        }
        BigUint::from_slice(
            &limbs
                .iter()
                .flat_map(|l| [*l as u32, (*l >> 32) as u32])
                .collect::<Vec<u32>>(),
        )
    };
    let product = pack(&a.w) * pack(&b.w);
    let digits: Vec<u64> = product.iter_u64_digits().collect();
    let len = a.w.len() + b.w.len() - 1;
    let words = slot.div_ceil(64) as usize + 1;
    let w = (0..len)
        .map(|i| {
            let at = i as u64 * slot;
            let (word, shift) = ((at / 64) as usize, at % 64);
            // The slot's bits, shifted down to bit 0, then cut to `slot` bits.
            let mut out = vec![0u64; words];
            for (k, o) in out.iter_mut().enumerate() {
                let lo = digits.get(word + k).copied().unwrap_or(0) >> shift;
                let hi = if shift > 0 {
                    digits.get(word + k + 1).copied().unwrap_or(0) << (64 - shift)
                } else {
                    0
                };
                *o = lo | hi;
            }
            // Cut to `slot` bits in place (no mask as a big integer per slot).
            let (full, rest) = ((slot / 64) as usize, slot % 64);
            for (k, o) in out.iter_mut().enumerate().skip(full) {
                *o = if k == full && rest > 0 {
                    *o & ((1u64 << rest) - 1)
                } else {
                    0
                };
            }
            BigUint::from_slice(
                &out.iter()
                    .flat_map(|l| [*l as u32, (*l >> 32) as u32])
                    .collect::<Vec<u32>>(),
            )
        })
        .collect();
    Dense {
        min: a.min + b.min,
        w,
        den: &a.den * &b.den,
    }
    .trimmed()
}

/// An exact probability distribution over whole-number outcomes: integer weights over a
/// common denominator, fractions only when asked.
///
/// Weights live in `u128` while they fit and in big integers past that; every operation is
/// exact either way. Where the real support is infinite (an exploding die, the Rule of 6)
/// the distribution holds the outcomes it kept, its weights sum to less than the
/// denominator, and [`Distribution::neglected`] is the exact mass left out; every query that
/// could be affected says so in its doc. A distribution of a finite mechanic has
/// `neglected() == 0`.
///
/// `==` compares probabilities: the same outcomes with the same chances, whatever the
/// denominators and whether the weights are held in `u128` or big integers.
#[derive(Debug, Clone)]
pub struct Distribution {
    repr: Repr,
}

#[derive(Debug, Clone)]
enum Repr {
    Small(Dense<u128>),
    Big(Dense<BigUint>),
    /// Big weights in one buffer ([`Flat`]), as the structured sums of exploding dice write
    /// them; read through [`Distribution::view`], which widens them to `Big`. Boxed: the other
    /// two keep `Distribution` small.
    Flat(Box<Flat>),
}

/// Big weights laid flat: outcome `min + i` weighs the `limbs` 64-bit limbs
/// `data[i · limbs..(i + 1) · limbs]`, least significant first. One allocation for a
/// thousand weights where `Dense<BigUint>` makes a thousand (the allocations were half
/// the time of 10d10 exploding 9 times); widened to big integers once, when first read.
#[derive(Debug, Clone)]
struct Flat {
    min: i64,
    limbs: usize,
    data: Vec<u64>,
    den: BigUint,
    wide: OnceLock<Dense<BigUint>>,
}

impl Flat {
    /// The weights as big integers, made on the first call and kept.
    fn wide(&self) -> &Dense<BigUint> {
        self.wide.get_or_init(|| self.widen())
    }

    /// The weights as big integers: the kept ones if they were read before, else made
    /// without keeping them (the caller owns its copy either way).
    fn to_dense(&self) -> Dense<BigUint> {
        if let Some(d) = self.wide.get() {
            return d.clone();
        }
        self.widen()
    }

    fn widen(&self) -> Dense<BigUint> {
        let mut digits = Vec::with_capacity(2 * self.limbs);
        let w = self
            .data
            .chunks_exact(self.limbs)
            .map(|limbs| big_from_limbs(limbs, &mut digits))
            .collect();
        Dense {
            min: self.min,
            w,
            den: self.den.clone(),
        }
        .trimmed()
    }
}

/// The weights as the read-only methods see them: flat big weights widened.
enum View<'a> {
    Small(&'a Dense<u128>),
    Big(&'a Dense<BigUint>),
}

/// A big integer from 64-bit limbs, least significant first (`digits`: scratch, reused).
pub(crate) fn big_from_limbs(limbs: &[u64], digits: &mut Vec<u32>) -> BigUint {
    // num-bigint takes 32-bit digits only.
    digits.clear();
    digits.extend(limbs.iter().flat_map(|&l| [l as u32, (l >> 32) as u32]));
    BigUint::from_slice(digits)
}

impl PartialEq for Distribution {
    fn eq(&self, other: &Self) -> bool {
        if let (View::Small(a), View::Small(b)) = (self.view(), other.view())
            && let Some(same) = same_chances(a, b)
        {
            return same;
        }
        same_chances(&self.big_ref(), &other.big_ref()).expect("big integers never overflow")
    }
}

impl Eq for Distribution {}

/// Whether `a` and `b` give every outcome the same chance: `a_i · den_b = b_i · den_a`
/// outcome by outcome (the kept masses, hence the neglected ones, then agree too); `None`
/// when a product overflows.
fn same_chances<W: Weight>(a: &Dense<W>, b: &Dense<W>) -> Option<bool> {
    if a.w.len() != b.w.len() || (!a.w.is_empty() && a.min != b.min) {
        return Some(false);
    }
    if a.den == b.den {
        return Some(a.w == b.w);
    }
    for (x, y) in a.w.iter().zip(&b.w) {
        if x.mul(&b.den)? != y.mul(&a.den)? {
            return Some(false);
        }
    }
    // No outcome kept on either side: both neglect everything.
    Some(true)
}

impl Distribution {
    /// Distribution of outcomes `min, min + 1, …` over `den` (which must not be zero, and must
    /// be at least the sum of the weights).
    pub fn from_dense(min: i64, w: Vec<u128>, den: u128) -> Self {
        assert!(den > 0, "a distribution needs a positive denominator");
        let d = Dense { min, w, den }.trimmed();
        debug_assert!(d.sum().is_none_or(|s| s <= d.den));
        Self {
            repr: Repr::Small(d),
        }
    }

    /// Big-integer weights of outcomes `min, min + 1, …` over `den`.
    pub fn from_dense_big(min: i64, w: Vec<BigUint>, den: BigUint) -> Self {
        assert!(
            !Zero::is_zero(&den),
            "a distribution needs a positive denominator"
        );
        Self {
            repr: Repr::Big(Dense { min, w, den }.trimmed()),
        }
    }

    /// Big weights of outcomes `min, min + 1, …` laid flat in `limbs` limbs each (every
    /// weight at most `den`, which fits as many limbs).
    pub(crate) fn from_flat(min: i64, limbs: usize, data: Vec<u64>, den: BigUint) -> Self {
        debug_assert!(limbs > 0 && data.len().is_multiple_of(limbs));
        Self {
            repr: Repr::Flat(Box::new(Flat {
                min,
                limbs,
                data,
                den,
                wide: OnceLock::new(),
            })),
        }
    }

    /// The weights for reading: flat big weights widened to big integers.
    fn view(&self) -> View<'_> {
        match &self.repr {
            Repr::Small(d) => View::Small(d),
            Repr::Big(d) => View::Big(d),
            Repr::Flat(f) => View::Big(f.wide()),
        }
    }

    /// Distribution from a [`Dense`] of either type, kept in `u128` if they fit.
    pub fn from_generic<W: Weight>(d: Dense<W>) -> Self {
        W::into_weights(d)
    }

    /// Runs a computation written once over any [`Weight`]: in `u128` first, and over big
    /// integers only if `u128` overflowed (`small` returned `None`).
    pub fn compute(
        small: impl FnOnce() -> Option<Dense<u128>>,
        big: impl FnOnce() -> Option<Dense<BigUint>>,
    ) -> Self {
        match small() {
            Some(d) => Self::from_generic(d),
            None => Self::from_generic(big().expect("big integers never overflow")),
        }
    }

    /// Distribution of `(outcome, weight)` pairs over their sum.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (i64, u64)>) -> Self {
        let pairs: Vec<(i64, u128)> = pairs.into_iter().map(|(v, w)| (v, w.into())).collect();
        let den = pairs.iter().map(|p| p.1).sum::<u128>();
        assert!(den > 0, "a distribution needs positive total weight");
        Self {
            repr: Repr::Small(Dense::from_pairs(&pairs, den).expect("u64 weights fit")),
        }
    }

    /// A fair die: faces `1..=sides`.
    pub fn die(sides: u32) -> Self {
        assert!(sides > 0, "a die needs a side");
        Self::from_dense(1, vec![1; sides as usize], u128::from(sides))
    }

    /// One certain outcome.
    pub fn certain(value: i64) -> Self {
        Self::from_dense(value, vec![1], 1)
    }

    /// The `u128` weights, if they are held in `u128`.
    #[cfg(test)]
    pub(crate) fn small_dense(&self) -> Option<&Dense<u128>> {
        match &self.repr {
            Repr::Small(d) => Some(d),
            Repr::Big(_) | Repr::Flat(_) => None,
        }
    }

    /// Whether the weights are still held in `u128`.
    pub fn is_small(&self) -> bool {
        matches!(self.repr, Repr::Small(_))
    }

    /// The same distribution with big-integer weights (for tests and references: every
    /// operation then takes the big-integer path).
    pub fn into_big(self) -> Self {
        match self.repr {
            Repr::Small(d) => Self {
                repr: Repr::Big(d.to_big()),
            },
            Repr::Flat(f) => Self {
                repr: Repr::Big(f.to_dense()),
            },
            big => Self { repr: big },
        }
    }

    /// Back to `u128` when every weight and the denominator fit.
    fn shrunk(self) -> Self {
        if let Repr::Big(d) = &self.repr {
            let den = d.den.to_u128();
            let w: Option<Vec<u128>> = d.w.iter().map(ToPrimitive::to_u128).collect();
            if let (Some(den), Some(w)) = (den, w) {
                return Self {
                    repr: Repr::Small(Dense { min: d.min, w, den }),
                };
            }
        }
        self
    }

    fn big(&self) -> Dense<BigUint> {
        self.big_ref().into_owned()
    }

    /// The weights as big integers, borrowed when they are already: a step that only reads
    /// them holds no copy (a wide sparse range, `1000 * 50d20kh25`, is a slot per number).
    fn big_ref(&self) -> std::borrow::Cow<'_, Dense<BigUint>> {
        match &self.repr {
            Repr::Small(d) => std::borrow::Cow::Owned(d.to_big()),
            Repr::Big(d) => std::borrow::Cow::Borrowed(d),
            Repr::Flat(f) => std::borrow::Cow::Owned(f.to_dense()),
        }
    }

    /// Runs `small` on both in `u128`, or `big` on both in big integers if either is big or
    /// `small` overflows.
    fn binary(
        &self,
        other: &Self,
        small: impl Fn(&Dense<u128>, &Dense<u128>) -> Option<Dense<u128>>,
        big: impl Fn(&Dense<BigUint>, &Dense<BigUint>) -> Option<Dense<BigUint>>,
    ) -> Self {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr)
            && let Some(d) = small(a, b)
        {
            return Self {
                repr: Repr::Small(d),
            };
        }
        Self {
            repr: Repr::Big(
                big(&self.big_ref(), &other.big_ref()).expect("big integers never overflow"),
            ),
        }
    }

    fn unary(
        &self,
        small: impl Fn(&Dense<u128>) -> Option<Dense<u128>>,
        big: impl Fn(&Dense<BigUint>) -> Option<Dense<BigUint>>,
    ) -> Self {
        if let Repr::Small(a) = &self.repr
            && let Some(d) = small(a)
        {
            return Self {
                repr: Repr::Small(d),
            };
        }
        Self {
            repr: Repr::Big(big(&self.big_ref()).expect("big integers never overflow")),
        }
    }

    /// The distribution of the sum of two independent outcomes (a convolution). Past
    /// `u128`, long convolutions are one big multiplication (Kronecker substitution).
    pub fn add(&self, other: &Self) -> Self {
        self.binary(other, convolve_small, |a, b| {
            if a.w.len() * b.w.len() >= KRONECKER_FROM {
                Some(kronecker(a, b))
            } else {
                a.convolve(b)
            }
        })
    }

    /// The sum of `n` independent copies (`n ≥ 1`; 0 is the certain 0): the square of half
    /// the sum when `n` is even, one more copy when it is odd. Adding one copy is cheap (the
    /// copy is short) and a square counts each pair once, so 10 dice cost 1², 2², 4 + 1, 5²
    /// instead of 1², 2², 4², 2 + 8.
    ///
    /// A die that explodes on its highest face ([`Distribution::explode`], recognised from its
    /// weights) is summed from its structure instead (see `exploding.rs`): its weights are
    /// powers of the denominator times small numbers, and so are the sum's. Any other die of
    /// at most 129 outcomes whose sum is past `u128` (`1000d6`) is summed by the recurrence
    /// of `power.rs`, one weight at a time from the ones before it.
    pub fn sum_of(&self, n: u32) -> Self {
        if let Repr::Small(d) = &self.repr
            && let Some(sum) = crate::exploding::sum_of(d, n).or_else(|| crate::power::sum_of(d, n))
        {
            return sum;
        }
        self.sum_by_squares(n)
    }

    /// [`Distribution::sum_of`] by convolutions only: the general path, without the shortcut for
    /// exploding dice (the reference it is tested and timed against).
    pub fn sum_by_squares(&self, n: u32) -> Self {
        match n {
            0 => Self::certain(0),
            1 => self.clone(),
            _ if n.is_multiple_of(2) => {
                let half = self.sum_by_squares(n / 2);
                half.add(&half)
            }
            _ => self.sum_by_squares(n - 1).add(self),
        }
    }

    /// The distribution of `f(a, b)` for independent `a` from `self`, `b` from `other`.
    pub fn combine(&self, other: &Self, f: impl Fn(i64, i64) -> i64) -> Self {
        self.binary(other, |a, b| a.combine(b, &f), |a, b| a.combine(b, &f))
    }

    /// The distribution of `f(outcome)`.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Self {
        self.unary(|a| a.map(&f), |a| a.map(&f))
    }

    /// An exploding die, as icepool's `Die.explode(depth=…)`: on the highest outcome roll
    /// again and add, at most `depth` more rolls; the last roll is kept as it shows. The
    /// result is exact for that depth (nothing is neglected).
    pub fn explode(&self, depth: u32) -> Self {
        self.unary(|a| a.explode(depth), |a| a.explode(depth))
    }

    /// `outcome` replaced by an independent roll of `with` (icepool's `Die.map` to a die), or,
    /// with `None`, left out as neglected mass (the denominator stays).
    pub fn substitute(&self, outcome: i64, with: Option<&Self>) -> Self {
        match with {
            None => self.unary(
                |a| a.substitute(outcome, None),
                |a| a.substitute(outcome, None),
            ),
            Some(w) => self.binary(
                w,
                |a, b| a.substitute(outcome, Some(b)),
                |a, b| a.substitute(outcome, Some(b)),
            ),
        }
    }

    /// The smallest outcome with a non-zero weight (`None` if there is none).
    pub fn min_outcome(&self) -> Option<i64> {
        match self.view() {
            View::Small(d) => (!d.w.is_empty()).then_some(d.min),
            View::Big(d) => (!d.w.is_empty()).then_some(d.min),
        }
    }

    /// The largest outcome with a non-zero weight (`None` if there is none).
    pub fn max_outcome(&self) -> Option<i64> {
        match self.view() {
            // The last index first: `min + len` overflows for an outcome at `i64::MAX`.
            View::Small(d) => (!d.w.is_empty()).then(|| d.min + (d.w.len() as i64 - 1)),
            View::Big(d) => (!d.w.is_empty()).then(|| d.min + (d.w.len() as i64 - 1)),
        }
    }

    /// How many outcomes have a non-zero weight (the size of the support): a count over
    /// the weights held, nothing copied.
    pub fn support_size(&self) -> usize {
        match self.view() {
            View::Small(d) => d.w.iter().filter(|x| **x != 0).count(),
            View::Big(d) => d.w.iter().filter(|x| !Zero::is_zero(*x)).count(),
        }
    }

    /// The outcomes with non-zero weight, ascending (no weight copied).
    pub fn values(&self) -> Vec<i64> {
        fn go<W: Weight>(d: &Dense<W>) -> Vec<i64> {
            d.w.iter()
                .enumerate()
                .filter(|(_, x)| !x.is_zero())
                .map(|(i, _)| d.min + i as i64)
                .collect()
        }
        match self.view() {
            View::Small(d) => go(d),
            View::Big(d) => go(d),
        }
    }

    /// The outcomes with non-zero weight and their weights, as big integers.
    pub fn weights_big(&self) -> Vec<(i64, BigUint)> {
        let d = self.big();
        d.w.into_iter()
            .enumerate()
            .filter(|(_, x)| !Zero::is_zero(x))
            .map(|(i, x)| (d.min + i as i64, x))
            .collect()
    }

    /// The common denominator, as a big integer.
    pub fn denominator_big(&self) -> BigUint {
        match self.view() {
            View::Small(d) => BigUint::from(d.den),
            View::Big(d) => d.den.clone(),
        }
    }

    /// The weight of exactly `value`.
    pub fn weight(&self, value: i64) -> BigUint {
        match self.view() {
            View::Small(d) => BigUint::from(at(d, value).unwrap_or(0)),
            View::Big(d) => at(d, value).unwrap_or_default(),
        }
    }

    /// Probability of exactly `value`, exactly.
    pub fn p_eq(&self, value: i64) -> Prob {
        match self.view() {
            View::Small(d) => at(d, value).unwrap_or(0).ratio(&d.den),
            View::Big(d) => at(d, value).unwrap_or_default().ratio(&d.den),
        }
    }

    /// Probability of at least `value` among the kept outcomes, exactly.
    pub fn p_at_least(&self, value: i64) -> Prob {
        fn tail<W: Weight>(d: &Dense<W>, value: i64) -> Option<W> {
            let from = (value - d.min).max(0) as usize;
            d.w.iter()
                .skip(from)
                .try_fold(W::zero(), |acc, x| acc.add(x))
        }
        match self.view() {
            View::Small(d) => match tail(d, value) {
                Some(t) => t.ratio(&d.den),
                None => tail(&d.to_big(), value)
                    .unwrap_or_default()
                    .ratio(&BigUint::from(d.den)),
            },
            View::Big(d) => tail(d, value).unwrap_or_default().ratio(&d.den),
        }
    }

    /// The mass left out by truncation: `1 − Σ weights / denominator`.
    pub fn neglected(&self) -> Prob {
        let d = self.big();
        let sum = d.sum().unwrap_or_default();
        d.den.sub(&sum).ratio(&d.den)
    }

    /// Each outcome with non-zero weight and its probability as the nearest `f64` (the
    /// quotient of the exact integers, for display and comparisons).
    pub fn probabilities_f64(&self) -> Vec<(i64, f64)> {
        fn go<W: Weight>(d: &Dense<W>) -> Vec<(i64, f64)> {
            let den = d.den.to_f64();
            if den.is_finite() {
                d.w.iter()
                    .enumerate()
                    .filter(|(_, x)| !x.is_zero())
                    .map(|(i, x)| (d.min + i as i64, x.to_f64() / den))
                    .collect()
            } else {
                // Past f64's range: divide exactly first.
                d.w.iter()
                    .enumerate()
                    .filter(|(_, x)| !x.is_zero())
                    .map(|(i, x)| (d.min + i as i64, crate::prob_to_f64(&x.ratio(&d.den))))
                    .collect()
            }
        }
        match self.view() {
            View::Small(d) => go(d),
            View::Big(d) => go(d),
        }
    }

    /// Each kept outcome with its exact probability, reduced, smallest outcome first: the
    /// fractions made here, when asked (a `1000d6` has 5,001 of them over 6^1000; read
    /// [`Distribution::probabilities_f64`] or the weights where a fraction per outcome is
    /// not needed).
    pub fn outcomes(&self) -> Vec<(i64, Prob)> {
        match self.view() {
            View::Small(d) => {
                d.w.iter()
                    .enumerate()
                    .filter(|(_, x)| **x != 0)
                    .map(|(i, x)| (d.min + i as i64, x.ratio(&d.den)))
                    .collect()
            }
            View::Big(d) => {
                // Dice denominators are products of small primes: each weight reduced by
                // stripping those, not by a big gcd.
                let den = crate::Fractions::new(&d.den);
                d.w.iter()
                    .enumerate()
                    .filter(|(_, x)| !Zero::is_zero(*x))
                    .map(|(i, x)| (d.min + i as i64, den.ratio(x)))
                    .collect()
            }
        }
    }

    /// Probability of at most `value`, exactly.
    pub fn p_at_most(&self, value: i64) -> Prob {
        fn head<W: Weight>(d: &Dense<W>, value: i64) -> W {
            let upto = (i128::from(value) - i128::from(d.min) + 1).clamp(0, d.w.len() as i128);
            // Every partial sum is at most the denominator: no overflow.
            d.w[..upto as usize].iter().fold(W::zero(), |acc, x| {
                acc.add(x).expect("within the denominator")
            })
        }
        match self.view() {
            View::Small(d) => head(d, value).ratio(&d.den),
            View::Big(d) => head(d, value).ratio(&d.den),
        }
    }

    /// The sum of the kept probabilities: `1 − neglected`.
    pub fn total(&self) -> Prob {
        match self.view() {
            View::Small(d) => d.sum().expect("within the denominator").ratio(&d.den),
            View::Big(d) => d.sum().unwrap_or_default().ratio(&d.den),
        }
    }

    /// The mean of the kept outcomes, renormalised, as the nearest `f64`. Computed from the
    /// lowest value up (the distances to it are exact in `f64` up to 2^53 apart), so a
    /// narrow distribution far from zero (`9000000000000000000 + 1d6`) keeps its spread.
    pub fn mean(&self) -> f64 {
        let ps = self.probabilities_f64();
        let Some(&(lo, _)) = ps.first() else {
            return 0.0;
        };
        lo as f64 + mean_above(&ps, lo, crate::prob_to_f64(&self.total()))
    }

    /// The standard deviation of the kept outcomes, renormalised: computed on the distances
    /// to the lowest value, so it is right however far from zero the values are.
    pub fn std_dev(&self) -> f64 {
        let ps = self.probabilities_f64();
        let Some(&(lo, _)) = ps.first() else {
            return 0.0;
        };
        let total = crate::prob_to_f64(&self.total());
        let mean = mean_above(&ps, lo, total);
        let var = ps
            .iter()
            .map(|&(v, p)| ((i128::from(v) - i128::from(lo)) as f64 - mean).powi(2) * p)
            .sum::<f64>()
            / total;
        var.sqrt()
    }

    /// Builds a distribution from exact `(outcome, probability)` pairs and the mass left out
    /// (zero if none): weights over the least common denominator of them all. Equal
    /// outcomes are merged and zero probabilities dropped. Panics on a negative probability
    /// or probabilities over 1 with the neglected mass (a programming error: these come
    /// from the rules, not from a player).
    pub fn from_fractions(pairs: impl IntoIterator<Item = (i64, Prob)>, neglected: Prob) -> Self {
        use num_integer::Integer;
        let pairs: Vec<(i64, Prob)> = pairs.into_iter().collect();
        let den = pairs
            .iter()
            .map(|(_, p)| p.denom().clone())
            .chain(std::iter::once(neglected.denom().clone()))
            .fold(BigInt::from(1u8), |acc, d| acc.lcm(&d));
        let weights: Vec<(i64, BigUint)> = pairs
            .iter()
            .map(|(v, p)| {
                let x = p.numer() * (&den / p.denom());
                (*v, x.to_biguint().expect("probabilities are not negative"))
            })
            .collect();
        let den = den.to_biguint().expect("denominators are positive");
        let d = Dense::from_pairs(&weights, den).expect("big integers never overflow");
        assert!(
            d.sum().is_some_and(|s| s <= d.den),
            "probabilities over 1 for one distribution"
        );
        Self::from_generic(d)
    }

    /// The same distribution as reduced big rationals, the tests' independent reference.
    #[cfg(test)]
    pub(crate) fn to_rational(&self) -> crate::dist::Rational {
        crate::dist::Rational::from_pairs(self.outcomes(), self.neglected())
    }
}

/// The mean distance of the kept outcomes above `lo`, renormalised by the kept mass `total`.
fn mean_above(ps: &[(i64, f64)], lo: i64, total: f64) -> f64 {
    ps.iter()
        .map(|&(v, p)| (i128::from(v) - i128::from(lo)) as f64 * p)
        .sum::<f64>()
        / total
}

fn at<W: Weight>(d: &Dense<W>, value: i64) -> Option<W> {
    let i = value.checked_sub(d.min)?;
    usize::try_from(i).ok().and_then(|i| d.w.get(i).cloned())
}

/// `n` identical independent dice, evaluated over sorted multisets of their faces.
///
/// A multiset (how many dice show each face) stands for `n! / Π c!` ordered rolls, and the
/// evaluations here depend only on the multiset, so the faces are walked once, each taking
/// `c` of the remaining dice with weight `C(remaining, c) · w^c`, and a small state (kept
/// count and sum, a count, a largest set) is carried instead of the rolls.
#[derive(Debug, Clone)]
pub struct Pool {
    die: Distribution,
    dice: u32,
}

impl Pool {
    /// `dice` copies of `die`.
    pub fn new(die: Distribution, dice: u32) -> Self {
        Self { die, dice }
    }

    /// The sum of the `k` highest dice (all dice if `k ≥ n`).
    pub fn keep_highest(&self, k: u32) -> Distribution {
        self.keep(k, true)
    }

    /// The sum of the `k` lowest dice.
    pub fn keep_lowest(&self, k: u32) -> Distribution {
        self.keep(k, false)
    }

    fn keep(&self, k: u32, highest: bool) -> Distribution {
        // Keeping at least every die keeps them all.
        let k = k.min(self.dice);
        if k > 0
            && let Repr::Small(d) = &self.die.repr
            && let Some(r) = crate::keep::keep_sum(d, self.dice, k, highest)
        {
            return match r {
                crate::keep::Kept::Small(d) => Distribution {
                    repr: Repr::Small(d),
                },
                // Back to u128 where the weights fit after all (as the general path).
                crate::keep::Kept::Big(d) => Distribution { repr: Repr::Big(d) }.shrunk(),
            };
        }
        self.keep_by_multisets(k, highest)
    }

    /// The sum of the `k` highest (or lowest) dice by the general evaluation over sorted
    /// multisets, which knows nothing of the keep walk: where the walk's bound does not hold,
    /// and the reference the walk is tested against.
    pub fn keep_by_multisets(&self, k: u32, highest: bool) -> Distribution {
        let k = k.min(self.dice);
        self.evaluate(
            highest,
            (0u32, 0i64),
            |&(taken, sum), face, c| {
                let take = c.min(k - taken);
                (taken + take, sum + face * i64::from(take))
            },
            |&(_, sum)| sum,
        )
    }

    /// How many dice show an outcome for which `matches` holds.
    pub fn count(&self, matches: impl Fn(i64) -> bool) -> Distribution {
        // Binomial: each die matches with weight P (the matching faces) or not with Q.
        if let Repr::Small(d) = &self.die.repr
            && let Some(r) = count_dense(d, self.dice, &matches)
        {
            return Distribution {
                repr: Repr::Small(r),
            };
        }
        Distribution {
            repr: Repr::Big(
                count_dense(&self.die.big(), self.dice, &matches)
                    .expect("big integers never overflow"),
            ),
        }
    }

    /// The size of the largest set of dice showing the same outcome.
    pub fn largest_match(&self) -> Distribution {
        self.evaluate(false, 0u32, |&m, _, c| m.max(c), |&m| i64::from(m))
    }

    /// The general evaluation: faces are visited in ascending order (descending if
    /// `descending`), `step(state, face, count)` folds each face's count into the state, and
    /// `outcome` reads the final state. The state must depend only on the multiset.
    pub fn evaluate<S: Ord + Clone>(
        &self,
        descending: bool,
        initial: S,
        step: impl Fn(&S, i64, u32) -> S,
        outcome: impl Fn(&S) -> i64,
    ) -> Distribution {
        if let Repr::Small(d) = &self.die.repr
            && let Some(r) = evaluate(d, self.dice, descending, &initial, &step, &outcome)
        {
            return Distribution {
                repr: Repr::Small(r),
            };
        }
        let big = self.die.big();
        Distribution {
            repr: Repr::Big(
                evaluate(&big, self.dice, descending, &initial, &step, &outcome)
                    .expect("big integers never overflow"),
            ),
        }
    }
}

/// How many of `n` dice match: `C(n, j) · P^j · Q^(n−j)` over `den^n`, with `P` the weight
/// of the matching faces and `Q` that of the others; `None` on overflow.
fn count_dense<W: Weight>(d: &Dense<W>, n: u32, matches: &dyn Fn(i64) -> bool) -> Option<Dense<W>> {
    let (mut p, mut q) = (W::zero(), W::zero());
    for (i, x) in d.w.iter().enumerate() {
        if matches(d.min + i as i64) {
            p = p.add(x)?;
        } else {
            q = q.add(x)?;
        }
    }
    let n = n as usize;
    // Q^(n−j), from j = n down.
    let mut q_pow = vec![W::from_u64(1); n + 1];
    for j in (0..n).rev() {
        q_pow[j] = q_pow[j + 1].mul(&q)?;
    }
    let mut w = Vec::with_capacity(n + 1);
    let (mut binom, mut p_pow) = (W::from_u64(1), W::from_u64(1));
    for (j, q_j) in q_pow.iter().enumerate() {
        if j > 0 {
            binom = binom.times((n - j + 1) as u64)?.div_exact(j as u64);
            p_pow = p_pow.mul(&p)?;
        }
        w.push(binom.mul(&p_pow)?.mul(q_j)?);
    }
    let mut den = W::from_u64(1);
    for _ in 0..n {
        den = den.mul(&d.den)?;
    }
    Some(Dense { min: 0, w, den }.trimmed())
}

/// Binomial coefficients `C(m, c)` for `m ≤ n`, checked.
fn pascal<W: Weight>(n: u32) -> Option<Vec<Vec<W>>> {
    let n = n as usize;
    let mut t: Vec<Vec<W>> = Vec::with_capacity(n + 1);
    for i in 0..=n {
        let mut row = vec![W::from_u64(1); i + 1];
        for j in 1..i {
            row[j] = t[i - 1][j - 1].add(&t[i - 1][j])?;
        }
        t.push(row);
    }
    Some(t)
}

/// Pools with at most this many multisets visit each multiset directly: no state merging.
const DIRECT_MULTISETS: u128 = 4096;

/// The number of multisets of `n` dice over `m` faces, `C(n + m − 1, m − 1)`, saturating.
fn multisets(n: u32, m: usize) -> u128 {
    let mut c: u128 = 1;
    for i in 1..m as u128 {
        c = c.saturating_mul(u128::from(n) + i) / i;
    }
    c
}

/// Visits every multiset once, folding the state face by face: `C(n + m − 1, m − 1)` leaves,
/// each with its weight `Π C(left, c) · w^c`.
#[allow(clippy::too_many_arguments)]
fn direct<W: Weight, S: Clone>(
    faces: &[(i64, &W)],
    pows: &[Vec<W>],
    binom: &[Vec<W>],
    left: u32,
    state: S,
    weight: W,
    step: &dyn Fn(&S, i64, u32) -> S,
    outcome: &dyn Fn(&S) -> i64,
    out: &mut Vec<(i64, W)>,
) -> Option<()> {
    let Some((&(face, _), rest)) = faces.split_first() else {
        out.push((outcome(&state), weight));
        return Some(());
    };
    // The last face takes every die left.
    let counts = if rest.is_empty() {
        left..=left
    } else {
        0..=left
    };
    let depth = pows.len() - faces.len();
    for c in counts {
        // Each partial product is part of one term of (Σ w)^n ≤ den^n, which the caller
        // checked to fit: no per-step check.
        let w = weight
            .mul_within(&binom[left as usize][c as usize])
            .mul_within(&pows[depth][c as usize]);
        direct(
            rest,
            pows,
            binom,
            left - c,
            step(&state, face, c),
            w,
            step,
            outcome,
            out,
        )?;
    }
    Some(())
}

fn evaluate<W: Weight, S: Ord + Clone>(
    die: &Dense<W>,
    n: u32,
    descending: bool,
    initial: &S,
    step: &dyn Fn(&S, i64, u32) -> S,
    outcome: &dyn Fn(&S) -> i64,
) -> Option<Dense<W>> {
    let binom = pascal::<W>(n)?;
    let live = die.w.iter().filter(|x| !x.is_zero()).count();
    // `direct` multiplies unchecked: sound when the weights sum to at most the denominator
    // (true of every distribution; checked here, not assumed).
    if n > 0 && multisets(n, live) <= DIRECT_MULTISETS && die.sum().is_some_and(|s| s <= die.den) {
        let mut faces: Vec<(i64, &W)> = die
            .w
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.is_zero())
            .map(|(i, x)| (die.min + i as i64, x))
            .collect();
        if descending {
            faces.reverse();
        }
        let pows = faces
            .iter()
            .map(|(_, w)| {
                let mut p = vec![W::from_u64(1)];
                for c in 1..=n as usize {
                    let next = p[c - 1].mul(w)?;
                    p.push(next);
                }
                Some(p)
            })
            .collect::<Option<Vec<_>>>()?;
        let mut den = W::from_u64(1);
        for _ in 0..n {
            den = den.mul(&die.den)?;
        }
        let mut pairs = Vec::with_capacity(multisets(n, live) as usize);
        direct(
            &faces,
            &pows,
            &binom,
            n,
            initial.clone(),
            W::from_u64(1),
            step,
            outcome,
            &mut pairs,
        )?;
        return Dense::from_pairs(&pairs, den);
    }
    let mut den = W::from_u64(1);
    for _ in 0..n {
        den = den.mul(&die.den)?;
    }
    let mut faces: Vec<(i64, &W)> = die
        .w
        .iter()
        .enumerate()
        .filter(|(_, x)| !x.is_zero())
        .map(|(i, x)| (die.min + i as i64, x))
        .collect();
    if descending {
        faces.reverse();
    }
    // States keyed by (state, dice used so far).
    let mut states: BTreeMap<(S, u32), W> = BTreeMap::new();
    states.insert((initial.clone(), 0), W::from_u64(1));
    let last = faces.len().saturating_sub(1);
    for (fi, &(face, w)) in faces.iter().enumerate() {
        // Powers of this face's weight, up to n.
        let mut pow = Vec::with_capacity(n as usize + 1);
        pow.push(W::from_u64(1));
        for c in 1..=n as usize {
            let next = pow[c - 1].mul(w)?;
            pow.push(next);
        }
        let mut next: BTreeMap<(S, u32), W> = BTreeMap::new();
        for ((s, used), x) in &states {
            let left = n - used;
            // The last face takes every die left.
            let counts = if fi == last { left..=left } else { 0..=left };
            for c in counts {
                let weight = x
                    .mul(&binom[left as usize][c as usize])?
                    .mul(&pow[c as usize])?;
                let key = (step(s, face, c), used + c);
                match next.get_mut(&key) {
                    Some(slot) => *slot = slot.add(&weight)?,
                    None => {
                        next.insert(key, weight);
                    }
                }
            }
        }
        states = next;
    }
    let pairs: Vec<(i64, W)> = states
        .into_iter()
        .filter(|((_, used), _)| *used == n)
        .map(|((s, _), x)| (outcome(&s), x))
        .collect();
    if n == 0 {
        return Dense::from_pairs(&[(outcome(initial), W::from_u64(1))], den);
    }
    Dense::from_pairs(&pairs, den)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::Rational;
    use crate::{DiceError, enumerate, prob};
    use proptest::prelude::*;

    /// The enumeration's outcomes as the rational reference.
    fn enumerated(
        max_rolls: usize,
        rule: impl FnMut(&mut dyn crate::DiceSource) -> Result<i64, DiceError>,
    ) -> Rational {
        let e = enumerate(max_rolls, rule).unwrap();
        Rational::from_pairs(e.outcomes, e.truncated)
    }

    #[test]
    fn die_and_sum_match_enumeration() {
        let two = Distribution::die(6).add(&Distribution::die(6));
        assert_eq!(two.p_eq(7), prob(1, 6));
        let e = enumerated(3, |d| Ok(i64::from(d.roll(6)? + d.roll(6)? + d.roll(4)?)));
        assert_eq!(two.add(&Distribution::die(4)).to_rational(), e);
        assert_eq!(
            Distribution::die(6).sum_of(3),
            Distribution::die(6).add(&two)
        );
        assert_eq!(Distribution::die(6).sum_of(0), Distribution::certain(0));
    }

    #[test]
    fn keep_highest_and_lowest_match_enumeration() {
        for n in 1..=4u32 {
            for k in 0..=n {
                let pool = Pool::new(Distribution::die(6), n);
                let high = enumerated(n as usize, |d| {
                    let mut f = d.roll_many(n as usize, 6)?;
                    f.sort_unstable_by(|a, b| b.cmp(a));
                    Ok(f.iter().take(k as usize).map(|&x| i64::from(x)).sum())
                });
                assert_eq!(pool.keep_highest(k).to_rational(), high, "{n} {k}");
                let low = enumerated(n as usize, |d| {
                    let mut f = d.roll_many(n as usize, 6)?;
                    f.sort_unstable();
                    Ok(f.iter().take(k as usize).map(|&x| i64::from(x)).sum())
                });
                assert_eq!(pool.keep_lowest(k).to_rational(), low, "{n} {k}");
            }
        }
    }

    #[test]
    fn count_and_largest_match_enumeration() {
        for n in 1..=5u32 {
            let pool = Pool::new(Distribution::die(6), n);
            let hits = enumerated(n as usize, |d| {
                Ok(d.roll_many(n as usize, 6)?
                    .iter()
                    .filter(|&&f| f >= 5)
                    .count() as i64)
            });
            assert_eq!(pool.count(|f| f >= 5).to_rational(), hits);
            let largest = enumerated(n as usize, |d| {
                let f = d.roll_many(n as usize, 6)?;
                Ok((1..=6)
                    .map(|v| f.iter().filter(|&&x| x == v).count())
                    .max()
                    .unwrap_or(0) as i64)
            });
            assert_eq!(pool.largest_match().to_rational(), largest);
        }
    }

    #[test]
    fn explode_matches_enumeration() {
        // A d4 that explodes at most twice: three rolls at most, the last kept as shown.
        let e = enumerated(3, |d| {
            let mut sum = 0;
            for roll in 0..3 {
                let f = d.roll(4)?;
                sum += i64::from(f);
                if f != 4 || roll == 2 {
                    break;
                }
            }
            Ok(sum)
        });
        let x = Distribution::die(4).explode(2);
        assert_eq!(x.to_rational(), e);
        assert_eq!(x.p_eq(12), prob(1, 64));
        assert_eq!(x.into_big().explode(0).p_eq(1), prob(1, 4));
    }

    #[test]
    fn substitute_matches_enumeration() {
        // A d4 whose 4 becomes a d4 + d4 rolled after it.
        let e = enumerated(3, |d| {
            let f = d.roll(4)?;
            Ok(if f == 4 {
                i64::from(d.roll(4)? + d.roll(4)?)
            } else {
                i64::from(f)
            })
        });
        let d4 = Distribution::die(4);
        let x = d4.substitute(4, Some(&d4.add(&d4)));
        assert_eq!(x.to_rational(), e);
        // P(2) = 1/4 directly, or a 4 then 1 + 1: 1/4 · 1/16.
        assert_eq!(x.into_big().substitute(2, None).neglected(), prob(17, 64));
        let dropped = d4.substitute(4, None);
        assert_eq!(dropped.p_eq(1), prob(1, 4));
        assert_eq!(dropped.neglected(), prob(1, 4));
    }

    #[test]
    fn overflow_falls_back_to_big_integers_exactly() {
        // 6^60 overflows u128: the sum of 60 dice goes big and stays exact.
        let sixty = Distribution::die(6).sum_of(60);
        assert!(!sixty.is_small());
        assert_eq!(
            sixty.p_eq(60),
            Prob::new(1.into(), BigInt::from(6u32).pow(60u32))
        );
        assert_eq!(sixty.to_rational().total(), prob(1, 1));
        let pool = Pool::new(Distribution::die(6), 60);
        let high = pool.keep_highest(1);
        assert!(!high.is_small());
        assert_eq!(
            high.p_eq(1),
            Prob::new(1.into(), BigInt::from(6u32).pow(60u32))
        );
    }

    /// A structured sum past `u128` comes back in flat limbs, and every way of reading it,
    /// or of computing on it, gives what the same sum by convolutions (big integers) gives.
    #[test]
    fn flat_weights_read_like_the_convolutions() {
        let die = Distribution::die(10).explode(9);
        let flat = die.sum_of(4);
        let reference = die.sum_by_squares(4);
        assert!(matches!(flat.repr, Repr::Flat(_)), "10^40 passes u128");
        assert!(matches!(reference.repr, Repr::Big(_)));
        assert_eq!(flat, reference);
        assert_eq!(reference, flat);
        assert!(!flat.is_small());
        assert_eq!(flat.min_outcome(), Some(4));
        assert_eq!(flat.max_outcome(), Some(400));
        assert_eq!(flat.support_size(), reference.support_size());
        assert_eq!(flat.values(), reference.values());
        assert_eq!(flat.weights_big(), reference.weights_big());
        assert_eq!(flat.denominator_big(), BigUint::from(10u32).pow(40));
        for v in [3, 4, 10, 11, 57, 399, 400, 401] {
            assert_eq!(flat.weight(v), reference.weight(v), "{v}");
            assert_eq!(flat.p_eq(v), reference.p_eq(v), "{v}");
            assert_eq!(flat.p_at_least(v), reference.p_at_least(v), "{v}");
        }
        // All four tens and then ten more times each: 1 in 10^40.
        assert_eq!(flat.weight(400), BigUint::from(1u32));
        assert_eq!(flat.neglected(), reference.neglected());
        assert_eq!(flat.probabilities_f64(), reference.probabilities_f64());
        assert_eq!(flat.to_rational(), reference.to_rational());
        assert_eq!(flat.clone().into_big(), reference);
        assert_eq!(
            flat.add(&Distribution::die(6)),
            reference.add(&Distribution::die(6))
        );
        assert_eq!(
            Pool::new(flat.clone(), 2).keep_highest(1),
            Pool::new(reference.clone(), 2).keep_highest(1)
        );
        assert!(
            std::mem::size_of::<Distribution>() <= 64,
            "flat weights are boxed"
        );
        // Equality is of chances: the same numbers in u128 or big integers, or over
        // another denominator, are the same distribution; another chance is not.
        assert_eq!(Distribution::die(6), Distribution::die(6).into_big());
        assert_eq!(
            Distribution::die(3),
            Distribution::from_dense(1, vec![2, 2, 2], 6)
        );
        assert_eq!(
            Distribution::die(3).into_big(),
            Distribution::from_dense(1, vec![2, 2, 2], 6)
        );
        assert_ne!(
            Distribution::die(3),
            Distribution::from_dense(1, vec![2, 2, 1], 6)
        );
        assert_ne!(Distribution::die(3), Distribution::die(3).map(|v| v + 1));
        assert_ne!(
            Distribution::from_dense(1, vec![1, 1], 4),
            Distribution::from_dense(1, vec![1, 1], 2)
        );
    }

    /// The one-multiplication convolution equals the schoolbook one, with gaps and zeros.
    /// Two values a million apart are two values: `combine` pairs the values, not the slots
    /// of their range (a million million of them), and the largest outcome may be i64::MAX.
    #[test]
    fn sparse_ranges_combine_by_their_values() {
        let far = Distribution::from_pairs([(0, 1), (1_000_000, 3)]);
        let max = far.combine(&far, i64::max);
        // P(max = 0) = 1/4 · 1/4; the rest is 10^6.
        assert_eq!(max.p_eq(0), crate::prob(1, 16));
        assert_eq!(max.p_eq(1_000_000), crate::prob(15, 16));
        let top = Distribution::certain(i64::MAX);
        assert_eq!(top.max_outcome(), Some(i64::MAX));
        let near = Distribution::from_pairs([(i64::MAX - 1, 1), (i64::MAX, 1)]);
        assert_eq!(near.max_outcome(), Some(i64::MAX));
        assert_eq!(near.values(), [i64::MAX - 1, i64::MAX]);
    }

    #[test]
    fn kronecker_matches_schoolbook() {
        let die = Distribution::die(10).explode(3).into_big();
        let gappy = Distribution::from_pairs([(-3, 5), (0, 1), (7, 2), (40, 9)])
            .sum_of(3)
            .into_big();
        for (a, b) in [(&die, &die), (&die, &gappy), (&gappy, &gappy)] {
            let (Repr::Big(x), Repr::Big(y)) = (&a.repr, &b.repr) else {
                unreachable!("made big")
            };
            assert_eq!(kronecker(x, y), x.convolve(y).unwrap());
        }
        let ten = Distribution::die(10).explode(9).sum_of(10);
        let reference = (1..10).fold(Distribution::die(10).explode(9).into_big(), |acc, _| {
            let (Repr::Big(x), Repr::Small(y)) =
                (&acc.repr, &Distribution::die(10).explode(9).repr)
            else {
                unreachable!("big and small")
            };
            Distribution {
                repr: Repr::Big(x.convolve(&y.to_big()).unwrap()),
            }
        });
        assert_eq!(ten, reference);
    }

    /// The unchecked `u64`/`u128` convolution (squares included) equals the checked one,
    /// and sums of many copies equal copies added one at a time with the checked
    /// convolution, in `u64` (d6), across into `u128` (d10 exploding twice, 10^30) and past
    /// it into big integers (d10 exploding 9 times).
    #[test]
    fn unchecked_convolution_matches_checked() {
        let small = |w: &Distribution| match &w.repr {
            Repr::Small(d) => d.clone(),
            Repr::Big(_) | Repr::Flat(_) => unreachable!("small"),
        };
        let gappy = Distribution::from_pairs([(-3, 5), (0, 1), (7, 2), (40, 9)]);
        let dice = [
            Distribution::die(6),
            Distribution::die(10).explode(2),
            Distribution::die(10).explode(2).sum_of(4),
            gappy.clone(),
            gappy.sum_of(5),
        ];
        for a in &dice {
            let x = small(a);
            assert_eq!(convolve_small(&x, &x), x.convolve(&x));
            for b in &dice {
                let y = small(b);
                assert_eq!(convolve_small(&x, &y), x.convolve(&y));
            }
        }
        for die in [
            Distribution::die(6),
            Distribution::die(10).explode(2),
            Distribution::die(10).explode(9),
            gappy,
        ] {
            let mut one_by_one = Distribution::certain(0);
            for n in 1..=12 {
                one_by_one = Distribution {
                    repr: match (&one_by_one.repr, &die.repr) {
                        (Repr::Small(x), Repr::Small(y)) => match x.convolve(y) {
                            Some(d) => Repr::Small(d),
                            None => Repr::Big(x.to_big().convolve(&y.to_big()).unwrap()),
                        },
                        _ => Repr::Big(one_by_one.big().convolve(&die.big()).unwrap()),
                    },
                };
                assert_eq!(
                    die.sum_of(n).to_rational(),
                    one_by_one.to_rational(),
                    "{n} dice"
                );
            }
        }
        // The u64 path's bound: 24 d6 are 6^24 > 2^64, and still exact.
        let d6 = Distribution::die(6).sum_of(24);
        assert_eq!(d6.weight(24), BigUint::from(1u32));
        assert_eq!(d6.denominator_big(), BigUint::from(6u32).pow(24));
    }

    /// Small pools visit multisets directly, large ones merge states: both ways agree.
    #[test]
    fn direct_multisets_agree_with_merged_states() {
        assert_eq!(multisets(4, 6), 126);
        for n in [3u32, 9, 12] {
            let die = Distribution::die(6);
            let Repr::Small(d) = &die.repr else {
                unreachable!("a die is small")
            };
            let binom = pascal::<u128>(n).unwrap();
            let step = |&(t, s): &(u32, i64), f: i64, c: u32| {
                let take = c.min(3 - t);
                (t + take, s + f * i64::from(take))
            };
            let out = |&(_, s): &(u32, i64)| s;
            let faces: Vec<(i64, &u128)> =
                d.w.iter()
                    .enumerate()
                    .map(|(i, x)| (1 + i as i64, x))
                    .rev()
                    .collect();
            let pows: Vec<Vec<u128>> = faces
                .iter()
                .map(|_| (0..=n).map(|_| 1u128).collect())
                .collect();
            let mut pairs = Vec::new();
            direct(
                &faces,
                &pows,
                &binom,
                n,
                (0u32, 0i64),
                1u128,
                &step,
                &out,
                &mut pairs,
            )
            .unwrap();
            let direct_result = Dense::from_pairs(&pairs, 6u128.pow(n)).unwrap();
            let pool = Pool::new(die.clone(), n).keep_highest(3);
            assert_eq!(Distribution::from_generic(direct_result), pool, "{n} dice");
        }
    }

    #[test]
    fn neglected_is_the_missing_weight() {
        let w = Distribution::from_dense(1, vec![1, 1], 4);
        assert_eq!(w.neglected(), prob(1, 2));
        assert_eq!(w.to_rational().neglected(), &prob(1, 2));
        assert_eq!(w.p_at_least(2), prob(1, 4));
    }

    #[test]
    fn distribution_round_trips_through_weights() {
        let d = Rational::from_pairs([(2, prob(1, 3)), (5, prob(1, 4))], prob(5, 12));
        let w = Distribution::from_fractions(d.outcomes().to_vec(), d.neglected().clone());
        assert!(w.is_small());
        assert_eq!(w.to_rational(), d);
        assert_eq!(w.denominator_big(), BigUint::from(12u32));
    }

    fn die_strategy() -> impl Strategy<Value = Vec<(i64, u64)>> {
        prop::collection::vec((-3i64..6, 1u64..5), 1..5)
    }

    fn reference(pairs: &[(i64, u64)]) -> Rational {
        let total: u64 = pairs.iter().map(|p| p.1).sum();
        Rational::from_pairs(
            pairs
                .iter()
                .map(|&(v, w)| (v, prob(w as i64, total as i64))),
            Prob::zero(),
        )
    }

    proptest! {
        /// Convolution, combine and map in integers agree with the BigRational reference,
        /// in `u128` and in big integers alike.
        #[test]
        fn integer_path_agrees_with_rationals(a in die_strategy(), b in die_strategy()) {
            let (wa, wb) = (Distribution::from_pairs(a.clone()), Distribution::from_pairs(b.clone()));
            let (ra, rb) = (reference(&a), reference(&b));
            prop_assert_eq!(wa.add(&wb).to_rational(), ra.add(&rb));
            prop_assert_eq!(wa.clone().into_big().add(&wb).to_rational(), ra.add(&rb));
            let f = |x: i64, y: i64| x.max(y) * 2 - y;
            prop_assert_eq!(wa.combine(&wb, f).to_rational(), ra.combine(&rb, f));
            prop_assert_eq!(wa.map(|x| x * x).to_rational(), ra.map(|x| x * x));
            prop_assert_eq!(wa.sum_of(3).to_rational(), ra.add(&ra).add(&ra));
        }

        /// A pool over multisets equals the same pool built by ordered convolution with the
        /// reference rationals.
        #[test]
        fn pools_agree_with_ordered_rolls(a in die_strategy(), n in 1u32..5, k in 0u32..5) {
            let die = Distribution::from_pairs(a.clone());
            let pool = Pool::new(die.clone(), n);
            let r = reference(&a);
            // Keep highest k over ordered rolls: fold the sorted kept values (k ≤ n small).
            let mut rolls: Vec<(Vec<i64>, Prob)> = vec![(Vec::new(), Prob::from_integer(1.into()))];
            for _ in 0..n {
                rolls = rolls
                    .iter()
                    .flat_map(|(f, p)| r.outcomes().iter().map(move |(v, q)| {
                        let mut f = f.clone();
                        f.push(*v);
                        (f, p * q)
                    }))
                    .collect();
            }
            let keep = Rational::from_pairs(
                rolls.iter().map(|(f, p)| {
                    let mut f = f.clone();
                    f.sort_unstable_by(|x, y| y.cmp(x));
                    (f.iter().take(k as usize).sum::<i64>(), p.clone())
                }),
                Prob::zero(),
            );
            prop_assert_eq!(pool.keep_highest(k).to_rational(), keep.clone());
            prop_assert_eq!(Pool::new(die.into_big(), n).keep_highest(k).to_rational(), keep);
        }
    }
}
