//! Healing and damage at the edges of u32: never a wrap, never a panic; expected values
//! computed independently in u64.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use proptest::prelude::*;
use solum_expanded::character::Character;

fn hero(body: u32, mind: u32, hit_points: u32) -> Character {
    toml::from_str(&format!(
        "schema = 1\nname = \"Nick\"\nbody = {body}\nmind = {mind}\ncharm = 1\nhit_points = {hit_points}\n"
    ))
    .unwrap()
}

fn edge_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(u32::MAX),
        Just(u32::MAX - 1),
        Just(u32::MAX / 2 + 1),
        Just(0u32),
        0u32..=10,
        any::<u32>(),
    ]
}

proptest! {
    #[test]
    fn healing_never_wraps(body in 1u32..=4, mind in 1u32..=4, hp in 0u32..=8, amount in edge_u32()) {
        let max = body + mind;
        let hp = hp.min(max);
        let mut h = hero(body, mind, hp);
        let healed = h.heal(amount);
        let expected = u64::from(amount).min(u64::from(max - hp));
        prop_assert_eq!(u64::from(healed), expected);
        prop_assert_eq!(u64::from(h.hit_points), u64::from(hp) + expected);
        prop_assert!(h.hit_points <= h.max_hit_points());
    }

    #[test]
    fn damage_never_wraps(body in 1u32..=4, mind in 1u32..=4, hp in 0u32..=8, amount in edge_u32()) {
        let hp = hp.min(body + mind);
        let mut h = hero(body, mind, hp);
        let taken = h.take_damage(amount);
        prop_assert_eq!(u64::from(taken), u64::from(amount).min(u64::from(hp)));
        prop_assert_eq!(u64::from(h.hit_points), u64::from(hp) - u64::from(taken));
    }
}

/// The case of the issue: healing 4294967295 at 2/6 heals to 6/6, not to 1/6.
#[test]
fn healing_the_most_heals_fully() {
    let mut h = hero(3, 3, 2);
    assert_eq!(h.heal(u32::MAX), 4);
    assert_eq!(h.hit_points, 6);
}
