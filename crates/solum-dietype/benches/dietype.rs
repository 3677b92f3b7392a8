//! Exact Solum die-type odds. Run with `cargo bench -p solum-dietype --bench dietype`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::black_box;
use solum_dietype::odds::{opposed_odds, skill_odds};
use solum_dietype::{DieType, RollSpec};

fn main() {
    divan::main();
}

/// A skill roll: success and quality, d12 with four chances against 8 (tables cached).
#[divan::bench]
fn exact_skill() -> solum_dietype::odds::SkillOdds {
    skill_odds(black_box(&RollSpec::new(DieType::D12, 4, 8).unwrap()))
}

/// An opposed roll with quality, d8 ×3 against d6 ×2.
#[divan::bench]
fn exact_opposed() -> solum_dietype::odds::OpposedOdds {
    opposed_odds(black_box((DieType::D8, 3)), black_box((DieType::D6, 2)))
}

/// At the limits: d12 with four chances against difficulty 12.
#[divan::bench]
fn exact_skill_at_the_limit() -> solum_dietype::odds::SkillOdds {
    skill_odds(black_box(&RollSpec::new(DieType::D12, 4, 12).unwrap()))
}

/// At the limits: d12 ×4 against d12 ×4 (the longest tables).
#[divan::bench]
fn exact_opposed_at_the_limit() -> solum_dietype::odds::OpposedOdds {
    opposed_odds(black_box((DieType::D12, 4)), black_box((DieType::D12, 4)))
}

/// The printed tables, recomputed.
#[divan::bench]
fn printed_tables() -> Vec<solum_dietype::tables::Table> {
    solum_dietype::tables::tables()
}
