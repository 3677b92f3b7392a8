//! Exact Project Sol odds, up to the limits (1000 dice a pool). Run with
//! `cargo bench -p solum-sol --bench sol`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::black_box;
use solum_sol::odds::{opposed, test_odds};
use solum_sol::test::EdgeOnTest;

fn main() {
    divan::main();
}

/// Hits, success, glitches of a test, pool as given, threshold 4.
#[divan::bench(args = [5, 20, 50, 1000])]
fn exact_test(n: u32) -> solum_sol::odds::TestOdds {
    test_odds(black_box(n), 4, None)
}

/// With Second Chance, up to the largest pool and threshold.
#[divan::bench(args = [50, 1000])]
fn exact_test_second_chance(n: u32) -> solum_sol::odds::TestOdds {
    test_odds(black_box(n), black_box(n), Some(EdgeOnTest::SecondChance))
}

/// An opposed test at the limit: 1000 dice against 1000, Second Chance on both sides.
#[divan::bench(args = [100, 1000])]
fn exact_opposed(n: u32) -> solum_sol::odds::OpposedOdds {
    let e = Some(EdgeOnTest::SecondChance);
    opposed(black_box(n), e, black_box(n), e).unwrap()
}
