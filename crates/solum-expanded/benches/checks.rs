//! Rolling checks and computing their exact odds.
//!
//! Run with `cargo bench -p solum-expanded --bench checks`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::{Bencher, black_box};
use solum_dice::SeededDice;
use solum_expanded::check::{CheckSpec, DrawRule, OpposedSpec, Side, roll_check};
use solum_expanded::odds::{opposed_odds, p_pass, result_distribution};
use solum_expanded::{Difficulty, Pool};

fn main() {
    divan::main();
}

fn pool(n: u32) -> Pool {
    Pool::new(u64::from(n)).unwrap()
}

/// One unopposed check of 4 dice against 5, with the seeded generator.
#[divan::bench]
fn roll_check_4_vs_5(bencher: Bencher) {
    let spec = CheckSpec::new(pool(4), Difficulty::TOUGH);
    let mut dice = SeededDice::new(1);
    bencher.bench_local(|| roll_check(black_box(&spec), &mut dice).unwrap().passed);
}

/// Exact P(pass) for a pool against difficulty 10 (Rule of 6 needed), with gear,
/// up to the largest pool (1000).
#[divan::bench(args = [1, 5, 10, 20, 30, 1000])]
fn exact_p_pass(n: u32) -> solum_dice::Prob {
    p_pass(black_box(
        &CheckSpec::new(pool(n), Difficulty::new(10).unwrap()).with_gear(true),
    ))
}

/// Exact win/draw/lose of pool n against pool n, up to 1000 against 1000.
#[divan::bench(args = [1, 5, 10, 20, 30, 1000])]
fn exact_opposed(n: u32) -> solum_expanded::odds::OpposedOdds {
    opposed_odds(black_box(&OpposedSpec::new(pool(n), pool(n))))
}

/// Exact win/draw/lose with gear on both sides, up to 1000 against 1000.
#[divan::bench(args = [1, 30, 1000])]
fn exact_opposed_with_gear(n: u32) -> solum_expanded::odds::OpposedOdds {
    let side = Side {
        pool: pool(n),
        gear: true,
    };
    opposed_odds(black_box(&OpposedSpec {
        first: side,
        second: side,
        draws: Default::default(),
    }))
}

/// P(pass) at the limits: the largest pool with gear against the easiest, a middling
/// and the hardest difficulty (1000, where only chains of 6 reach).
#[divan::bench(args = [2, 12, 1000])]
fn p_pass_at_the_limit(difficulty: u32) -> solum_dice::Prob {
    p_pass(black_box(
        &CheckSpec::new(pool(1000), Difficulty::new(i64::from(difficulty)).unwrap())
            .with_gear(true),
    ))
}

/// Exact win/draw/lose at the limits: 1000 dice with gear against 1000 dice with
/// gear, with the draw standing and with the roll-off.
#[divan::bench(args = [DrawRule::Stand, DrawRule::RollOff])]
fn opposed_odds_at_the_limit(draws: DrawRule) -> solum_expanded::odds::OpposedOdds {
    let side = Side {
        pool: pool(1000),
        gear: true,
    };
    opposed_odds(black_box(&OpposedSpec {
        first: side,
        second: side,
        draws,
    }))
}

/// The whole (truncated) result distribution of a pool.
#[divan::bench(args = [1, 30, 1000])]
fn exact_result_distribution(n: u32) -> solum_dice::Distribution {
    result_distribution(black_box(pool(n)))
}
