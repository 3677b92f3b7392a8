//! Duel odds of the original So1um at the documented limits. Run with
//! `cargo bench -p solum-classic --bench duel`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::black_box;
use solum_classic::duel::{Policy, Side, duel_chance, duel_odds, duel_odds_f64, simulate_many};
use solum_dice::SeededDice;

fn main() {
    divan::main();
}

fn side(body: u32, hit_points: u32, policy: Policy) -> Side {
    Side {
        body,
        hit_points,
        cliche: false,
        policy,
        stat: None,
    }
}

/// The f64 chain, both sides at Body = hit points = n (n = 30 is the limit: 810,000 states).
#[divan::bench(args = [10, 20, 30])]
fn f64_mirror(n: u32) -> f64 {
    duel_odds_f64(
        black_box(side(n, n, Policy::Survive)),
        side(n, n, Policy::Body),
    )
    .unwrap()
}

/// What `odds classic duel` runs at the limit, a cliché making the pools 31 dice.
#[divan::bench]
fn chance_at_the_limit() -> f64 {
    let a = Side {
        cliche: true,
        ..side(30, 30, Policy::Body)
    };
    duel_chance(black_box(a), side(30, 30, Policy::Survive))
        .unwrap()
        .p
}

/// The exact fractions at their limit of 256 states: the worst shapes (large pools,
/// Body lost first) and a square one.
#[divan::bench(args = [(16, 1, 16, 1), (1, 16, 16, 1), (4, 4, 4, 4)])]
fn exact_at_the_limit(shape: (u32, u32, u32, u32)) -> solum_dice::Prob {
    let (ab, ah, bb, bh) = shape;
    let a = Side {
        cliche: true,
        ..side(ab, ah, Policy::Body)
    };
    duel_odds(black_box(a), side(bb, bh, Policy::Body)).unwrap()
}

/// 1,000 simulated duels of 3/4 against 3/4 on the fight state machine: the dice rate
/// behind the simulation limit.
#[divan::bench]
fn simulate_thousand() -> u64 {
    let a = side(3, 4, Policy::Survive);
    simulate_many(a, a, 1_000, None, &mut SeededDice::new(1))
        .unwrap()
        .exchanges
}
