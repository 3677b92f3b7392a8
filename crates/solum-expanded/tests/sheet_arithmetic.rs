//! The sheet arithmetic of So1um Expanded at the integer edges: healing, damage, rest, and
//! attribute and armor changes that move the hit points. Sheets being edited may hold any
//! u32 (not yet validated), so nothing may wrap or panic. Every expected value is computed
//! here in i128, from the rules (S8: maximum = Body + Mind + armor points), not from the code.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use proptest::prelude::*;
use solum_dice::ScriptedDice;
use solum_expanded::character::{Armor, Attribute, Character, Class, advance_attribute};

fn sheet(body: u32, mind: u32, charm: u32, armor: Option<Class>, hit_points: u32) -> Character {
    Character {
        schema: 1,
        name: "Nick".into(),
        body,
        mind,
        charm,
        backgrounds: Vec::new(),
        unnamed_backgrounds: 0,
        hit_points,
        weapons: Vec::new(),
        armor: armor.map(|class| Armor {
            name: "suit".into(),
            class,
        }),
        gear: Vec::new(),
        money: 0,
        notes: String::new(),
        advancement_points: 0,
        rest_minutes: 0,
    }
}

fn armor_points(armor: Option<Class>) -> i128 {
    match armor {
        None => 0,
        Some(Class::Light) => 1,
        Some(Class::Medium) => 2,
        Some(Class::Heavy) => 3,
    }
}

/// The maximum by S8, held in a u32: it stops at u32::MAX, it does not wrap.
fn expected_max(body: u32, mind: u32, armor: Option<Class>) -> i128 {
    (i128::from(body) + i128::from(mind) + armor_points(armor)).min(i128::from(u32::MAX))
}

fn edge_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        Just(1u32),
        Just(u32::MAX),
        Just(u32::MAX - 1),
        Just(u32::MAX - 3),
        Just(u32::MAX / 2),
        Just(u32::MAX / 2 + 1),
        0u32..=12,
        any::<u32>(),
    ]
}

fn armor() -> impl Strategy<Value = Option<Class>> {
    prop_oneof![
        Just(None),
        Just(Some(Class::Light)),
        Just(Some(Class::Medium)),
        Just(Some(Class::Heavy)),
    ]
}

fn attribute() -> impl Strategy<Value = Attribute> {
    prop_oneof![
        Just(Attribute::Body),
        Just(Attribute::Mind),
        Just(Attribute::Charm)
    ]
}

/// Where the hit points go when the maximum moves from `was` to `now`: by the same amount,
/// within 0..=now.
fn follow(hit_points: u32, was: i128, now: i128) -> i128 {
    (i128::from(hit_points) + (now - was)).clamp(0, now)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn heal_at_the_edges(
        body in edge_u32(), mind in edge_u32(), armor in armor(), hp in edge_u32(), amount in edge_u32(),
    ) {
        let mut h = sheet(body, mind, 1, armor, hp);
        let max = expected_max(body, mind, armor);
        let healed = h.heal(amount);
        let expected = i128::from(amount).min((max - i128::from(hp)).max(0));
        prop_assert_eq!(i128::from(healed), expected);
        prop_assert_eq!(i128::from(h.hit_points), i128::from(hp) + expected);
    }

    #[test]
    fn damage_at_the_edges(
        body in edge_u32(), mind in edge_u32(), armor in armor(), hp in edge_u32(), amount in edge_u32(),
    ) {
        let mut h = sheet(body, mind, 1, armor, hp);
        let taken = h.take_damage(amount);
        let expected = i128::from(amount).min(i128::from(hp));
        prop_assert_eq!(i128::from(taken), expected);
        prop_assert_eq!(i128::from(h.hit_points), i128::from(hp) - expected);
    }

    #[test]
    fn rest_at_the_edges(
        body in edge_u32(), mind in edge_u32(), armor in armor(), hp in edge_u32(), half_hours in edge_u32(),
    ) {
        let mut h = sheet(body, mind, 1, armor, hp);
        let max = expected_max(body, mind, armor);
        let healed = h.rest(half_hours);
        // Out (0 hit points) rests nothing; otherwise 1 a half hour, up to the maximum.
        let expected = if hp == 0 {
            0
        } else {
            i128::from(half_hours).min((max - i128::from(hp)).max(0))
        };
        prop_assert_eq!(i128::from(healed), expected);
        prop_assert_eq!(i128::from(h.hit_points), i128::from(hp) + expected);
    }

    #[test]
    fn attribute_change_moves_hit_points(
        body in edge_u32(), mind in edge_u32(), armor in armor(), hp in edge_u32(),
        which in attribute(), value in edge_u32(),
    ) {
        let mut h = sheet(body, mind, 2, armor, hp);
        let was = expected_max(body, mind, armor);
        h.set_attribute(which, value);
        let (body, mind) = match which {
            Attribute::Body => (value, mind),
            Attribute::Mind => (body, value),
            Attribute::Charm => (body, mind),
        };
        let now = expected_max(body, mind, armor);
        prop_assert_eq!(h.attribute(which), value);
        prop_assert_eq!(i128::from(h.max_hit_points()), now);
        prop_assert_eq!(i128::from(h.hit_points), follow(hp, was, now));
    }

    #[test]
    fn armor_change_moves_hit_points(
        body in edge_u32(), mind in edge_u32(), before in armor(), after in armor(), hp in edge_u32(),
    ) {
        let mut h = sheet(body, mind, 1, before, hp);
        let was = expected_max(body, mind, before);
        h.set_armor(after.map(|class| Armor { name: "new suit".into(), class }));
        let now = expected_max(body, mind, after);
        prop_assert_eq!(i128::from(h.max_hit_points()), now);
        prop_assert_eq!(i128::from(h.hit_points), follow(hp, was, now));
    }

    /// A won attribute advancement at any hit points: the new point is added, never wraps.
    #[test]
    fn advancement_moves_hit_points(
        value in 1u32..=3, other in edge_u32(), armor in armor(), hp in edge_u32(), which in attribute(),
    ) {
        let (body, mind) = match which {
            Attribute::Body => (value, other),
            _ => (other, value),
        };
        let mut h = sheet(body, mind, value, armor, hp);
        let was = expected_max(body, mind, armor);
        // value dice, all even: a success.
        let dice = vec![2u32; value as usize];
        let a = advance_attribute(&mut h, which, &mut ScriptedDice::new(dice)).unwrap();
        prop_assert!(a.success);
        prop_assert_eq!(h.attribute(which), value + 1);
        let (body, mind) = match which {
            Attribute::Body => (value + 1, mind),
            Attribute::Mind => (body, value + 1),
            Attribute::Charm => (body, mind),
        };
        let now = expected_max(body, mind, armor);
        prop_assert_eq!(i128::from(h.hit_points), follow(hp, was, now));
    }
}

/// The rules' own examples: Body 3, Mind 2, light armor is 6/6; losing the armor takes the
/// point away, a raise of Mind adds one, and a fall of Body below the wounds leaves 0, not a wrap.
#[test]
fn hit_points_follow_the_sheet() {
    let mut h = sheet(3, 2, 1, Some(Class::Light), 6);
    h.set_armor(None);
    assert_eq!((h.hit_points, h.max_hit_points()), (5, 5));
    h.take_damage(4);
    h.set_attribute(Attribute::Mind, 3);
    assert_eq!((h.hit_points, h.max_hit_points()), (2, 6));
    h.set_attribute(Attribute::Body, 1);
    assert_eq!((h.hit_points, h.max_hit_points()), (0, 4));
    h.set_armor(Some(Armor {
        name: "chainmail".into(),
        class: Class::Medium,
    }));
    assert_eq!((h.hit_points, h.max_hit_points()), (2, 6));
}

/// A sheet holding more hit points than its maximum (being edited) rests nothing, no panic.
#[test]
fn rest_above_the_maximum_is_no_panic() {
    let mut h = sheet(1, 1, 1, None, u32::MAX);
    assert_eq!(h.rest(u32::MAX), 0);
    assert_eq!(h.hit_points, u32::MAX);
}
