//! Pool and training arithmetic at the edges of the integer types: never a wrap, never a
//! panic; the expected values are computed independently in i128/u64.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use proptest::prelude::*;
use solum_sol::advancement::Skill;
use solum_sol::pool::{PoolError, build};

fn edge_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(u32::MAX),
        Just(u32::MAX - 1),
        Just(u32::MAX / 2),
        Just(0u32),
        0u32..=10,
        any::<u32>(),
    ]
}

// Pool arithmetic at the integer edges is covered by `pool::tests` (every input bounded
// to ±MAX_DICE before any sum); training is covered here.
proptest! {
    #[test]
    fn training_never_wraps(ranks in edge_u32(), progress in 0u32..5) {
        let mut skill = Skill::new("Sidearms", ranks);
        skill.progress = progress;
        let before = skill.clone();
        match skill.train() {
            None => {
                prop_assert_eq!(ranks, u32::MAX);
                prop_assert_eq!(skill, before);
            }
            Some(cost) => {
                prop_assert_eq!(cost, 2 * (u64::from(ranks) + 1));
                prop_assert_eq!(u64::from(skill.ranks), u64::from(ranks) + 1);
                prop_assert_eq!(skill.progress, 0);
            }
        }
    }
}

/// The two cases of the issue: twice 2^62 is 2^63, one past i64::MAX.
#[test]
fn the_reported_wraps_are_errors() {
    let m = 1i64 << 62;
    // Each modifier is refused by its size before anything is summed.
    assert!(matches!(
        build(3, 2, &[m, m], false),
        Err(PoolError::Modifier(v)) if v == m
    ));
    assert!(matches!(
        build(3, 2, &[m, m, -m], false),
        Err(PoolError::Modifier(_))
    ));
    assert_eq!(build(3, 2, &[900, -900, 1], false).unwrap().dice, 6);
    let mut top = Skill::new("Sidearms", u32::MAX);
    assert_eq!(top.train(), None);
    assert_eq!(top.ranks, u32::MAX);
}
