//! The schemas of the rules' own types as the app reads them in a request (feature
//! `openapi`), where the app holds them to limits of its own: a weapon's name to a name's
//! length, a sheet's lists to their size, an Edge on a test to those allowed there. The
//! rules' types derive their own schemas beside them (an enum's names, a range the type
//! guarantees), which these build on; the limits are the constants the app checks. `@name`
//! is the placeholder the web's description fills with the app's rule for a name.
//!
//! Used with `#[schema(schema_with = …)]` on the request types, where a request holds a
//! rules type to limits of the app's (a name's length, a list's size). The rules' types the
//! app answers with (a sheet, a check's dice, a fight's events) derive their schemas
//! beside them; the tests of `answers` check real values against those. This module names
//! no other module of the app (the app's own types describe themselves where they are
//! declared).

use serde::Serialize;
use serde_json::Value;
use utoipa::openapi::schema::{
    ArrayBuilder, ArrayItems, ObjectBuilder, OneOfBuilder, Schema, Type,
};
use utoipa::openapi::{RefOr, schema::AdditionalProperties};

#[cfg(test)]
mod answers;

/// The longest name of a weapon, a piece of gear, armor, a skill or an ability.
const MAX_NAME: usize = 100;

/// The serde forms of `values` (each a variant of one enum).
pub fn serde_forms<T: Serialize>(values: impl IntoIterator<Item = T>) -> Vec<Value> {
    values
        .into_iter()
        .map(|v| serde_json::to_value(v).unwrap_or_default())
        .collect()
}

/// A string that is one of `values`.
pub fn one_of_strings(values: Vec<Value>) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .into()
}

/// An integer from `min` to `max`.
pub fn integer(min: i64, max: i64) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(min))
        .maximum(Some(max))
        .into()
}

/// A name as the app takes one: words, at most [`MAX_NAME`] characters.
pub fn name() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(MAX_NAME))
        .pattern(Some("@name"))
        .into()
}

/// An object with exactly these fields (`required` or not), no other.
pub fn object(fields: Vec<(&str, Schema, bool)>) -> Schema {
    let mut o = ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(false)));
    for (field, schema, required) in fields {
        o = o.property(field, schema);
        if required {
            o = o.required(field);
        }
    }
    o.into()
}

/// One of these schemas.
pub fn either(schemas: Vec<Schema>) -> Schema {
    let mut o = OneOfBuilder::new();
    for s in schemas {
        o = o.item(s);
    }
    o.into()
}

/// `schema` or `null`.
pub fn or_null(schema: Schema) -> Schema {
    either(vec![
        schema,
        ObjectBuilder::new().schema_type(Type::Null).into(),
    ])
}

/// A pair written as a two-element array: `[first, second]`.
pub fn pair(first: Schema, second: Schema) -> Schema {
    ArrayBuilder::new()
        .prefix_items([first, second])
        .items(ArrayItems::False)
        .min_items(Some(2))
        .max_items(Some(2))
        .into()
}

/// `[name, value]` pairs, at most `max` of them.
pub fn named(value: Schema, max: Option<usize>) -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(pair(name(), value)))
        .max_items(max)
        .into()
}

/// `{ "variant": value }`: an enum's variant with a value, as serde writes it.
pub fn tagged(variant: &str, value: Schema) -> Schema {
    object(vec![(variant, value, true)])
}

/// `T`'s own schema, derived beside it in its rules crate, inline: the part of a request
/// the app holds to no limits of its own (an enum's names).
fn derived<T: utoipa::PartialSchema>() -> Schema {
    match T::schema() {
        RefOr::T(s) => s,
        r @ RefOr::Ref(_) => utoipa::openapi::schema::AllOfBuilder::new().item(r).into(),
    }
}

/// The So1um Expanded attributes: `body`, `mind`, `charm`.
pub fn attribute() -> Schema {
    derived::<solum_expanded::character::Attribute>()
}

/// Attributes set by an edit: `[attribute, value]` pairs, each value 1 to
/// [`solum_expanded::character::MAX_ATTRIBUTE`].
pub fn attribute_settings() -> Schema {
    let most = i64::from(solum_expanded::character::MAX_ATTRIBUTE);
    ArrayBuilder::new()
        .items(RefOr::T(pair(attribute(), integer(1, most))))
        .into()
}

/// What a hero advances (S17): `{"background": name}` or `{"attribute": attribute}`.
pub fn advance_goal() -> Schema {
    use solum_expanded::character::AdvanceGoal::{self, Attribute, Background};
    let tag = |g: &AdvanceGoal| match g {
        Background(_) => "background",
        Attribute(_) => "attribute",
    };
    either(vec![
        tagged(tag(&Background(String::new())), name()),
        tagged(
            tag(&Attribute(solum_expanded::character::Attribute::Body)),
            attribute(),
        ),
    ])
}

/// Light, medium or heavy.
fn class() -> Schema {
    derived::<solum_expanded::character::Class>()
}

/// A So1um Expanded weapon: its name and class, ranged or not, anti-vehicle or not.
pub fn weapon() -> Schema {
    let flag = || ObjectBuilder::new().schema_type(Type::Boolean).into();
    object(vec![
        ("name", name(), true),
        ("class", class(), true),
        ("ranged", flag(), false),
        ("anti_vehicle", flag(), false),
    ])
}

/// So1um Expanded armor: its name and class.
pub fn armor() -> Schema {
    object(vec![("name", name(), true), ("class", class(), true)])
}

/// A piece of So1um Expanded gear: its name, and whether it enables or rerolls.
pub fn gear() -> Schema {
    object(vec![
        ("name", name(), true),
        (
            "effect",
            derived::<solum_expanded::character::GearEffect>(),
            true,
        ),
    ])
}

/// The most weapons or pieces of gear a sheet lists (`characters::MAX_LIST`, which a test
/// holds this to: the use cases depend on this module, so it names none of them).
const SHEET_LIST: usize = 20;

/// The most attributes or skills a Project Sol sheet lists (`sol::MAX_LIST`, likewise).
const SOL_LIST: usize = 50;

/// Weapons, each as [`weapon`] describes one (at most a sheet's).
pub fn weapons() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(weapon()))
        .max_items(Some(SHEET_LIST))
        .into()
}

/// Pieces of gear, each as [`gear`] describes one (at most a sheet's).
pub fn gears() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(gear()))
        .max_items(Some(SHEET_LIST))
        .into()
}

/// Which die a gear reroll takes (S1): `best`, `skip`, or `{"die": n}` (1 is the first die
/// of the pool).
pub fn gear_die() -> Schema {
    use solum_expanded::check::GearDie::{self, Best, Die, Skip};
    let every = |g: GearDie| match g {
        Best | Skip | Die(_) => g,
    };
    either(vec![
        one_of_strings(serde_forms([Best, Skip].map(every))),
        tagged("die", integer(1, i64::from(solum_expanded::MAX_POOL))),
    ])
}

/// A die type, `d4` to `d12`.
pub fn die_type() -> Schema {
    derived::<solum_dietype::DieType>()
}

/// A die-type weapon: its damage die and its modifier, −4 to +4.
pub fn dietype_weapon() -> Schema {
    object(vec![
        ("die", die_type(), true),
        ("modifier", integer(-4, 4), false),
    ])
}

/// An Edge chosen after the dice (Second Chance, Close Call), or `null`.
pub fn edge_after_dice() -> Schema {
    use solum_sol::test::EdgeOnTest::{CloseCall, SecondChance};
    edge_on_test(&[SecondChance, CloseCall])
}

/// Project Sol attributes or skills by name, each with its value, 0 to
/// [`solum_sol::sheet::MAX_SHEET_VALUE`] (at most a sheet's).
pub fn sol_values() -> Schema {
    named(
        integer(0, i64::from(solum_sol::sheet::MAX_SHEET_VALUE)),
        Some(SOL_LIST),
    )
}

/// Die-type abilities by name, each with its die (at most 50, a sheet's entries).
pub fn dietype_abilities() -> Schema {
    named(die_type(), Some(50))
}

/// Die-type skills by name, each with its chances, 1 to 4 (at most 50).
pub fn dietype_skills() -> Schema {
    named(integer(1, 4), Some(50))
}

/// Die-type weapons by name (at most 50).
pub fn dietype_weapons() -> Schema {
    named(dietype_weapon(), Some(50))
}

/// A Project Sol Edge used on a test (P2), of those `allowed`.
fn edge_on_test(allowed: &[solum_sol::test::EdgeOnTest]) -> Schema {
    use solum_sol::test::EdgeOnTest::{CloseCall, PushTheLimit, SecondChance, Smackdown};
    let every = |e: &solum_sol::test::EdgeOnTest| match e {
        PushTheLimit | SecondChance | CloseCall | Smackdown => *e,
    };
    or_null(one_of_strings(serde_forms(allowed.iter().map(every))))
}

/// A Sol'una character, whole: every field of the rules crate's `Character`, with the limits
/// its `validate` checks (Mind 1 to 10, hit points from 1, every number at most
/// [`solum_soluna::skirmish::MAX_SHEET_VALUE`]). Melee or ranged dice, one of the two, is a
/// rule between two fields that no keyword states.
pub fn soluna_character() -> Schema {
    use solum_soluna::skirmish::{Character, MAX_SHEET_VALUE};
    let most = i64::from(MAX_SHEET_VALUE);
    let number = || integer(0, most);
    // Each field of the type, so that a field added to it fails to compile here.
    let _every_field = |c: &Character| {
        let Character {
            name: _,
            side: _,
            mind: _,
            body: _,
            shield: _,
            hit_points: _,
            melee: _,
            ranged: _,
            flips: _,
            guard: _,
            flips_per_test: _,
            extra_dice: _,
            dice_guard: _,
            dice_per_test: _,
        } = c;
    };
    object(vec![
        ("name", self::name(), true),
        ("side", self::name(), true),
        ("mind", integer(1, 10), true),
        ("body", number(), true),
        ("shield", number(), false),
        ("hit_points", integer(1, most), true),
        ("melee", number(), false),
        ("ranged", number(), false),
        ("flips", number(), false),
        ("guard", number(), false),
        ("flips_per_test", number(), false),
        ("extra_dice", number(), false),
        ("dice_guard", number(), false),
        ("dice_per_test", number(), false),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_limits_are_the_use_cases_own() {
        assert_eq!(SHEET_LIST, crate::characters::MAX_LIST);
        assert_eq!(SOL_LIST, crate::sol::MAX_LIST);
    }

    /// Each described value reads back as the rules' type (the schema says what serde
    /// takes, not a guess at it).
    #[test]
    fn the_values_described_are_the_ones_serde_reads() {
        let values = |s: Schema| -> Vec<Value> {
            let v = serde_json::to_value(s).unwrap_or_default();
            v["enum"].as_array().cloned().unwrap_or_default()
        };
        for v in values(attribute()) {
            assert!(serde_json::from_value::<solum_expanded::character::Attribute>(v).is_ok());
        }
        let dice = values(die_type());
        assert_eq!(dice.len(), 5);
        for v in dice {
            assert!(serde_json::from_value::<solum_dietype::DieType>(v).is_ok());
        }
        let weapon = serde_json::json!({"name": "dagger", "class": "light", "ranged": false});
        assert!(serde_json::from_value::<solum_expanded::character::Weapon>(weapon).is_ok());
        assert!(
            serde_json::from_value::<solum_expanded::check::GearDie>(serde_json::json!({"die": 2}))
                .is_ok()
        );
    }
}
