//! Pool and training arithmetic at the edges of the integer types: never a wrap, never a
//! panic; the expected values are computed independently in i128/u64.

use proptest::prelude::*;
use solum_sol::advancement::Skill;
use solum_sol::pool::{MAX_DICE, PoolError, build};

/// Values at and near the ends of i64, and ordinary ones.
fn edge_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MAX),
        Just(i64::MIN),
        Just(i64::MAX - 1),
        Just(i64::MIN + 1),
        Just(1i64 << 62),
        Just(-(1i64 << 62)),
        Just(0i64),
        -10i64..=10,
        any::<i64>(),
    ]
}

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

proptest! {
    #[test]
    fn modifiers_never_wrap(
        attribute in prop_oneof![Just(i64::MAX), 0i64..=8, any::<i64>()],
        ranks in prop_oneof![Just(i64::MAX), 0i64..=8, any::<i64>()],
        modifiers in proptest::collection::vec(edge_i64(), 0..5),
        penalty: bool,
    ) {
        let got = build(attribute, ranks, &modifiers, penalty);
        if attribute < 0 || ranks < 0 {
            prop_assert!(matches!(got, Err(PoolError::Negative(_))));
            return Ok(());
        }
        let mut sum: i128 = modifiers.iter().map(|&m| i128::from(m)).sum();
        if sum < i128::from(i64::MIN) || sum > i128::from(i64::MAX) {
            prop_assert!(matches!(got, Err(PoolError::Modifier)), "{got:?}");
            return Ok(());
        }
        if ranks == 0 && penalty {
            sum -= 3;
            if sum < i128::from(i64::MIN) {
                prop_assert!(matches!(got, Err(PoolError::Modifier)), "{got:?}");
                return Ok(());
            }
        }
        let applied = if sum > 0 { sum.min(i128::from(ranks)) } else { sum };
        let dice = (i128::from(attribute) + i128::from(ranks) + applied).max(1);
        if dice > i128::from(MAX_DICE) {
            prop_assert!(matches!(got, Err(PoolError::TooMany(_))), "{got:?}");
        } else {
            let pool = got.unwrap();
            prop_assert_eq!(i128::from(pool.dice), dice);
            prop_assert_eq!(i128::from(pool.modifier), sum);
            prop_assert_eq!(i128::from(pool.applied), applied);
        }
    }

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
    assert!(matches!(
        build(3, 2, &[m, m], false),
        Err(PoolError::Modifier)
    ));
    assert_eq!(build(3, 2, &[m, m, -m], false).unwrap().dice, 7);
    let mut top = Skill::new("Sidearms", u32::MAX);
    assert_eq!(top.train(), None);
    assert_eq!(top.ranks, u32::MAX);
}
