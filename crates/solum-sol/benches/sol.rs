//! Exact Project Sol odds. Run with `cargo bench -p solum-sol --bench sol`.

use divan::black_box;
use solum_sol::odds::test_odds;
use solum_sol::test::EdgeOnTest;

fn main() {
    divan::main();
}

/// Hits, success, glitches of a test, pool as given, threshold 4.
#[divan::bench(args = [5, 20, 50])]
fn exact_test(n: u32) -> solum_sol::odds::TestOdds {
    test_odds(black_box(n), 4, None)
}

/// With Second Chance.
#[divan::bench(args = [50])]
fn exact_test_second_chance(n: u32) -> solum_sol::odds::TestOdds {
    test_odds(black_box(n), 4, Some(EdgeOnTest::SecondChance))
}
