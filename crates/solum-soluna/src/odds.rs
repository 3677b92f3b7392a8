//! Exact distribution of the largest group, summed over the die's symmetry orbits.

use std::sync::OnceLock;

use solum_dice::Distribution;

use crate::SolunaError;
use crate::flips::{Counts, largest_after};

/// The largest pool with exact odds: weights are counted in `u128`, and 6^40 fits.
pub const MAX_EXACT_DICE: u32 = 40;

fn pascal() -> &'static Vec<Vec<u128>> {
    static TABLE: OnceLock<Vec<Vec<u128>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let n = MAX_EXACT_DICE as usize;
        let mut t = vec![vec![0u128; n + 1]; n + 1];
        for i in 0..=n {
            t[i][0] = 1;
            for j in 1..=i {
                t[i][j] = t[i - 1][j - 1] + if j < i { t[i - 1][j] } else { 0 };
            }
        }
        t
    })
}

/// The number of rolls with these counts: n! / (c1! … c6!).
fn multinomial(c: &Counts) -> u128 {
    let t = pascal();
    let mut left = c.iter().sum::<u32>() as usize;
    let mut w = 1u128;
    for &x in c {
        w *= t[left][x as usize];
        left -= x as usize;
    }
    w
}

/// Visits one count vector per orbit of the die's 48 symmetries, with the number of count
/// vectors in the orbit. Faces pair up as (1,6), (2,5), (3,4); an orbit's representative has
/// each pair in descending order and the pairs sorted in descending order.
fn orbits(n: u32, mut visit: impl FnMut(&Counts, u128)) {
    let pairs: Vec<(u32, u32)> = {
        let mut p: Vec<(u32, u32)> = (0..=n)
            .flat_map(|a| (0..=a.min(n - a)).map(move |b| (a, b)))
            .collect();
        p.sort_unstable_by(|x, y| y.cmp(x));
        p
    };
    for (i, &p1) in pairs.iter().enumerate() {
        let s1 = p1.0 + p1.1;
        for &p2 in &pairs[i..] {
            let s2 = p2.0 + p2.1;
            if s1 + s2 > n {
                continue;
            }
            let s3 = n - s1 - s2;
            for a3 in s3.div_ceil(2)..=s3 {
                let p3 = (a3, s3 - a3);
                if p3 > p2 {
                    continue;
                }
                // Orbit size: orderings of the pairs times turning over unequal pairs.
                let orderings = match (p1 == p2, p2 == p3) {
                    (true, true) => 1,
                    (true, false) | (false, true) => 3,
                    (false, false) => 6,
                };
                let turns: u128 = [p1, p2, p3]
                    .iter()
                    .map(|&(a, b)| if a != b { 2 } else { 1 })
                    .product();
                let counts = [p1.0, p2.0, p3.0, p3.1, p2.1, p1.1];
                visit(&counts, orderings * turns);
            }
        }
    }
}

/// The exact distribution of the largest group of `dice` d6 after `net_flips` optimal
/// flips (U2: positive for the tester, negative against it): integer weights over `6^dice`,
/// counted in `u128` (6^40 fits).
pub fn largest_distribution(dice: u32, net_flips: i32) -> Result<Distribution, SolunaError> {
    if dice == 0 {
        return Err(SolunaError::Dice(0));
    }
    if dice > MAX_EXACT_DICE {
        return Err(SolunaError::TooLargeForExact(dice));
    }
    let mut by_size = vec![0u128; dice as usize + 1];
    for (c, weight) in orbit_table(dice) {
        by_size[largest_after(c, net_flips) as usize] += weight;
    }
    Ok(Distribution::from_dense(0, by_size, 6u128.pow(dice)))
}

/// Each orbit's representative with its weight (orbit size × multinomial), built once per
/// pool size: every number of flips of that pool walks the same list.
fn orbit_table(dice: u32) -> &'static [(Counts, u128)] {
    static TABLES: [OnceLock<Vec<(Counts, u128)>>; MAX_EXACT_DICE as usize + 1] =
        [const { OnceLock::new() }; MAX_EXACT_DICE as usize + 1];
    TABLES[dice as usize].get_or_init(|| {
        let mut table = Vec::new();
        orbits(dice, |c, orbit| table.push((*c, orbit * multinomial(c))));
        table
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TestSpec;
    use crate::test::roll_test;
    use num_traits::One;
    use solum_dice::{DiceError, Prob, SeededDice, enumerate, prob, prob_to_f64};

    #[test]
    fn orbits_cover_every_roll() {
        for n in 1..=MAX_EXACT_DICE {
            let mut total = 0u128;
            orbits(n, |c, orbit| total += orbit * multinomial(c));
            assert_eq!(total, 6u128.pow(n), "{n} dice");
        }
    }

    #[test]
    fn reference_values() {
        // One die: always a group of 1.
        assert_eq!(largest_distribution(1, 0).unwrap().p_eq(1), prob(1, 1));
        // Two dice: a pair with 1/6.
        assert_eq!(largest_distribution(2, 0).unwrap().p_eq(2), prob(1, 6));
        // Two dice and one flip: a pair unless they are opposite (1/6 of rolls); flipping one
        // die onto an adjacent face of the other is always possible otherwise.
        assert_eq!(largest_distribution(2, 1).unwrap().p_eq(2), prob(5, 6));
        // ... and with two flips always.
        assert_eq!(largest_distribution(2, 2).unwrap().p_eq(2), prob(1, 1));
        // Against: one flip breaks any pair.
        assert_eq!(largest_distribution(2, -1).unwrap().p_eq(1), prob(1, 1));
    }

    /// Every roll of up to 5 dice enumerated through `roll_test` itself.
    #[test]
    fn matches_enumeration_of_the_roll() {
        for n in 1..=5u32 {
            for k in -5..=5 {
                let spec = TestSpec {
                    dice: n,
                    net_flips: k,
                };
                let e = enumerate(n as usize, |d| -> Result<u32, DiceError> {
                    Ok(roll_test(&spec, d)?.largest)
                })
                .unwrap();
                let exact = largest_distribution(n, k).unwrap();
                for size in 1..=n {
                    let counted = e.p(|&s| s == size);
                    assert_eq!(
                        counted,
                        exact.p_eq(i64::from(size)),
                        "{n} dice, {k} flips, size {size}"
                    );
                }
            }
        }
    }

    #[test]
    fn matches_simulation_for_larger_pools() {
        let mut dice = SeededDice::new(5);
        for (n, k) in [(12, 3), (20, -5), (20, 5)] {
            let exact = largest_distribution(n, k).unwrap();
            let spec = TestSpec {
                dice: n,
                net_flips: k,
            };
            let trials = 40_000;
            let mut seen = vec![0u32; n as usize + 1];
            for _ in 0..trials {
                seen[roll_test(&spec, &mut dice).unwrap().largest as usize] += 1;
            }
            for size in 1..=n {
                let p = prob_to_f64(&exact.p_eq(i64::from(size)));
                let se = (p * (1.0 - p) / f64::from(trials)).sqrt().max(1e-9);
                let f = f64::from(seen[size as usize]) / f64::from(trials);
                assert!(
                    (f - p).abs() < 4.0 * se + 1e-6,
                    "{n} dice {k} flips size {size}: {f} vs {p}"
                );
            }
        }
    }

    /// Without flips the largest group is the dice core's largest matching set, evaluated over
    /// the multisets of the pool rather than the die's symmetries.
    #[test]
    fn no_flips_match_the_pool_largest_match() {
        for n in [1u32, 6, 13, 25, 40] {
            let pool = solum_dice::Pool::new(Distribution::die(6), n);
            assert_eq!(
                largest_distribution(n, 0).unwrap(),
                pool.largest_match(),
                "{n} dice"
            );
        }
    }

    #[test]
    fn sums_to_one_and_flips_are_monotone() {
        for n in [1, 5, 13, 20] {
            let mut previous_mean = 0.0;
            for k in -5..=5 {
                let d = largest_distribution(n, k).unwrap();
                assert_eq!(d.total(), Prob::one());
                assert!(d.mean() >= previous_mean - 1e-12);
                previous_mean = d.mean();
            }
        }
        assert!(largest_distribution(41, 0).is_err());
        assert_eq!(largest_distribution(0, 0), Err(SolunaError::Dice(0)));
    }
}
