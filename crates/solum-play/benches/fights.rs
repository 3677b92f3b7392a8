//! Whole fights: simulated and exact. Run with `cargo bench -p solum-play --bench fights`.

use divan::{Bencher, black_box};
use solum_dice::SeededDice;
use solum_expanded::Pool;
use solum_expanded::combat::{Fighter, Mode};
use solum_expanded::fight::{DuelSpec, Duelist, duel_odds, simulate_duel};
use solum_play::sim::encounter;

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
