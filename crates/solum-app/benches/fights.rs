//! Whole fights: simulated and exact. Run with `cargo bench -p solum-app --bench fights`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::{Bencher, black_box};
use solum_app::sim::encounter;
use solum_dice::SeededDice;
use solum_expanded::Pool;
use solum_expanded::combat::{Fighter, Mode};
use solum_expanded::fight::{
    DuelSpec, Duelist, MAX_FIGHT_HP, StaticSpec, duel_odds, simulate_duel, static_odds,
};
use solum_expanded::{Difficulty, MAX_POOL};

fn main() {
    divan::main();
}

fn duel(hp: u32) -> DuelSpec {
    DuelSpec {
        first: Duelist {
            pool: Pool::new(3).unwrap(),
            hit_points: hp,
            damage: 1,
        },
        second: Duelist {
            pool: Pool::new(2).unwrap(),
            hit_points: hp,
            damage: 1,
        },
        draws: solum_expanded::check::DrawRule::Stand,
    }
}

/// One simulated one-on-one fight, 5 hit points a side, 1 damage a blow.
#[divan::bench]
fn simulated_duel_5hp(bencher: Bencher) {
    let spec = duel(5);
    let mut dice = SeededDice::new(1);
    bencher.bench_local(|| simulate_duel(black_box(&spec), &mut dice).unwrap().won);
}

/// Exact duel odds, hit points a side as given.
#[divan::bench(args = [5, 10, 30])]
fn exact_duel(hp: u32) -> solum_dice::Prob {
    duel_odds(black_box(&duel(hp))).unwrap().win
}

fn fighter(name: &str, side: &str, pool: u64, hp: u32) -> Fighter {
    Fighter::plain(
        name,
        side,
        side == "heroes",
        Pool::new(pool).unwrap(),
        2,
        None,
        hp,
    )
}

/// A whole encounter through the combat state machine: four heroes against six orcs.
#[divan::bench]
fn encounter_4_heroes_vs_6_orcs(bencher: Bencher) {
    let mut fighters: Vec<Fighter> = (0..4)
        .map(|i| fighter(&format!("h{i}"), "heroes", 3, 5))
        .collect();
    fighters.extend((0..6).map(|i| fighter(&format!("o{i}"), "orcs", 2, 3)));
    let mut dice = SeededDice::new(1);
    bencher.bench_local(|| {
        encounter(black_box(&fighters), Mode::Standard, None, &mut dice)
            .unwrap()
            .won
    });
}

/// Duel odds at the limits: `MAX_FIGHT_HP` a side, 1 damage a blow, pools as given (3 dice
/// each, or `MAX_POOL` each). Past `EXACT_BITS` this is the `f64` race.
#[divan::bench(args = [3, MAX_POOL])]
fn duel_odds_at_max_hp(pool: u32) -> f64 {
    let side = Duelist {
        pool: Pool::new(u64::from(pool)).unwrap(),
        hit_points: MAX_FIGHT_HP,
        damage: 1,
    };
    duel_odds(black_box(&DuelSpec::new(side, side)))
        .unwrap()
        .error_bound
}

/// Static odds at the limits: `MAX_FIGHT_HP` each side, 1 damage, pools as given against 6.
#[divan::bench(args = [3, MAX_POOL])]
fn static_odds_at_max_hp(pool: u32) -> f64 {
    static_odds(black_box(&StaticSpec {
        pool: Pool::new(u64::from(pool)).unwrap(),
        difficulty: Difficulty::new(6).unwrap(),
        hit_points: MAX_FIGHT_HP,
        damage: 1,
        foe_hit_points: MAX_FIGHT_HP,
        foe_damage: 1,
    }))
    .unwrap()
    .error_bound
}

/// The largest duel the exact integers still take: 1 damage, even pools of 1 die
/// (`p = 1/2`, 2 bits), hit points as given.
#[divan::bench(args = [1000, 5000])]
fn exact_duel_large(hp: u32) -> solum_dice::Prob {
    let side = Duelist {
        pool: Pool::new(1).unwrap(),
        hit_points: hp,
        damage: 1,
    };
    duel_odds(black_box(&DuelSpec::new(side, side)))
        .unwrap()
        .win
}
