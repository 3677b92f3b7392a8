//! The fields the campaign's use cases name when they refuse a request, as one enum per
//! system: a front end that names a field as its own flag (`--add-background`, `--attr`)
//! matches a variant, so a field it forgets is a compile error rather than a message that
//! names a JSON key. [`crate::AppError::refused_field`] reads a refusal's field as one.
//!
//! The one-shot use cases have their own (`check_once::Field`, `sol_once::Field`, …).

use crate::typed_dice::FieldName;

/// A request's fields, every one listed.
pub trait RequestField: FieldName + 'static {
    /// Every field.
    const ALL: &'static [Self];
}

macro_rules! request_fields {
    (
        $(#[$doc:meta])*
        $name:ident { $( $(#[$vdoc:meta])* $v:ident = $key:literal, )* }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vdoc])* $v, )*
        }

        impl FieldName for $name {
            fn name(self) -> &'static str {
                match self {
                    $( Self::$v => $key, )*
                }
            }
        }

        impl RequestField for $name {
            const ALL: &'static [Self] = &[$(Self::$v,)*];
        }
    };
}

/// The inputs of a one-shot use case (`check_once::Field`, `sol_once::Field`, …), as
/// [`request_fields!`] makes a system's, and serialized by their JSON names.
macro_rules! input_fields {
    (
        $(#[$doc:meta])*
        $name:ident { $( $(#[$vdoc:meta])* $v:ident = $key:literal, )* }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
        pub enum $name {
            $( $(#[$vdoc])* #[serde(rename = $key)] $v, )*
        }

        impl $name {
            /// The field's name in JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $( Self::$v => $key, )*
                }
            }
        }

        impl $crate::typed_dice::FieldName for $name {
            fn name(self) -> &'static str {
                $name::name(self)
            }
        }

        impl $crate::fields::RequestField for $name {
            const ALL: &'static [Self] = &[$(Self::$v,)*];
        }
    };
}
pub(crate) use input_fields;

request_fields! {
    /// The fields of So1um Expanded's character use cases: an edit
    /// ([`crate::CharacterEdit`]), a rest, an advancement and a check from a sheet.
    ExpandedField {
        /// The character's name.
        Name = "name",
        /// Attributes set.
        Set = "set",
        /// Backgrounds added.
        AddBackgrounds = "add_backgrounds",
        /// Backgrounds removed.
        RemoveBackgrounds = "remove_backgrounds",
        /// Weapons added.
        AddWeapons = "add_weapons",
        /// Weapons removed.
        RemoveWeapons = "remove_weapons",
        /// Gear added.
        AddGear = "add_gear",
        /// Gear removed.
        RemoveGear = "remove_gear",
        /// Money.
        Money = "money",
        /// Notes.
        Notes = "notes",
        /// Damage taken.
        Damage = "damage",
        /// Hours of rest.
        Hours = "hours",
        /// Advancement points to spend (S9).
        AdvancementPoints = "advancement_points",
        /// The background a check uses.
        Background = "background",
        /// The weapon a check uses.
        Weapon = "weapon",
        /// The gear a check rerolls with.
        Gear = "gear",
        /// Which die the gear rerolls.
        GearDie = "gear_die",
        /// Draws rolled off.
        RollOff = "roll_off",
        /// The difficulty.
        Difficulty = "difficulty",
        /// The opposing pool.
        Opposition = "opposition",
    }
}

request_fields! {
    /// The fields of Project Sol's use cases: a sheet, a test, training, spending Edge.
    SolField {
        /// The character's name.
        Name = "name",
        /// The sheet as a whole (attributes, skills, Edge).
        Sheet = "sheet",
        /// A new sheet's attributes.
        Attributes = "attributes",
        /// A new sheet's skills.
        Skills = "skills",
        /// The dice typed for the test.
        Dice = "dice",
        /// The defender's typed dice.
        AgainstDice = "against dice",
        /// The Edge use after the dice.
        Then = "then",
        /// The Edge use before them.
        Edge = "edge",
        /// A retry.
        Retry = "retry",
        /// The threshold.
        Threshold = "threshold",
        /// The assistant.
        Assistant = "assistant",
        /// The skill.
        Skill = "skill",
        /// The attribute.
        Attribute = "attribute",
        /// Dice pool modifiers.
        Modifiers = "modifiers",
        /// A group test.
        Group = "group",
        /// Hits bought.
        Buy = "buy",
    }
}

request_fields! {
    /// The fields of the Solum die types' character use cases: a sheet's edit and a roll.
    DieTypeField {
        /// The character's name.
        Name = "name",
        /// Abilities set.
        Abilities = "abilities",
        /// Skills set.
        Skills = "skills",
        /// Weapons set.
        Weapons = "weapons",
        /// Abilities removed.
        RemoveAbilities = "remove_abilities",
        /// Skills removed.
        RemoveSkills = "remove_skills",
        /// Weapons removed.
        RemoveWeapons = "remove_weapons",
        /// Notes.
        Notes = "notes",
        /// The ability rolled.
        Ability = "ability",
        /// The skill rolled.
        Skill = "skill",
        /// The weapon rolled.
        Weapon = "weapon",
        /// Die-type steps.
        Step = "step",
        /// The opposing die type.
        Against = "against",
    }
}

request_fields! {
    /// The fields of a new or edited Sol'una character.
    SolunaField {
        /// The character's name.
        Name = "name",
        /// The side.
        Side = "side",
        /// Mind.
        Mind = "mind",
        /// Body.
        Body = "body",
        /// Shield.
        Shield = "shield",
        /// Hit points.
        HitPoints = "hit_points",
        /// Melee.
        Melee = "melee",
        /// Ranged.
        Ranged = "ranged",
        /// Flips.
        Flips = "flips",
        /// Guard.
        Guard = "guard",
        /// Flips per test.
        FlipsPerTest = "flips_per_test",
        /// Extra dice.
        ExtraDice = "extra_dice",
        /// Dice guard.
        DiceGuard = "dice_guard",
        /// Dice per test.
        DicePerTest = "dice_per_test",
    }
}

request_fields! {
    /// The fields of the original So1um's hero and fight use cases.
    ClassicField {
        /// The hero's name.
        Name = "name",
        /// Hours of rest.
        Hours = "hours",
        /// Gear.
        Gear = "gear",
        /// The difficulty.
        Difficulty = "difficulty",
        /// A fight's stat of the hero.
        Stat = "stat",
        /// A fight's stat of the foes.
        FoeStat = "foe_stat",
        /// A cliché: a check's, or a fight's of the hero.
        Cliche = "cliche",
        /// A fight's cliché of the foes.
        FoeCliche = "foe_cliche",
        /// How the hero takes hits in a fight.
        Policy = "policy",
        /// How the foes take hits in a fight.
        FoePolicy = "foe_policy",
    }
}

request_fields! {
    /// The fields of a combat at the table.
    CombatField {
        /// A line of the combat language.
        Line = "line",
        /// The heroes of a new combat.
        Heroes = "heroes",
        /// The foes of a new combat.
        Foes = "foes",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys<F: RequestField>() -> Vec<&'static str> {
        F::ALL.iter().map(|f| f.name()).collect()
    }

    /// Every key is named by the app or a rules crate it passes refusals on from (a key
    /// nothing names would be a flag a front end maps for nothing, or a typo that never
    /// matches).
    #[test]
    fn every_field_is_one_the_app_names() {
        let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut src = String::new();
        for krate in [
            "solum-app",
            "solum-expanded",
            "solum-classic",
            "solum-sol",
            "solum-soluna",
            "solum-dietype",
        ] {
            for e in std::fs::read_dir(crates.join(krate).join("src")).unwrap() {
                let p = e.unwrap().path();
                if p.is_file() && p.file_name().unwrap() != "fields.rs" {
                    src.push_str(&std::fs::read_to_string(p).unwrap());
                }
            }
        }
        let mut missing = Vec::new();
        for key in [
            keys::<ExpandedField>(),
            keys::<SolField>(),
            keys::<DieTypeField>(),
            keys::<SolunaField>(),
            keys::<ClassicField>(),
            keys::<CombatField>(),
        ]
        .concat()
        {
            if !src.contains(&format!("\"{key}\"")) {
                missing.push(key);
            }
        }
        assert!(missing.is_empty(), "named by no use case: {missing:?}");
    }

    #[test]
    fn no_system_names_a_field_twice() {
        fn distinct<F: RequestField>() -> bool {
            let k = keys::<F>();
            k.iter().collect::<std::collections::HashSet<_>>().len() == k.len()
        }
        assert!(distinct::<ExpandedField>() && distinct::<SolField>());
        assert!(distinct::<DieTypeField>() && distinct::<SolunaField>());
        assert!(distinct::<ClassicField>() && distinct::<CombatField>());
    }
}
