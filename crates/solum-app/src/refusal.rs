//! The refusals of each system's rules and use cases, typed per system: each kind of refusal
//! is a variant with a stable code of its own (docs/api.md lists every one), and a refusal
//! carries the request's field at fault and the problem in the words users read.
//!
//! A front end acts on the kind (`SolRefusal::AttributeTie`) and names the field as its own
//! flag or JSON key; it never reads the message to learn what happened.
//!
//! This module names no other: a refusal becomes an [`crate::AppError`] with its `at` and
//! `bare`, which `error.rs` defines beside the variant that carries it.

/// One refusal: which one (`kind`, whose code is stable), the field of the request or sheet
/// at fault (its JSON key, or a path such as `backgrounds[2]`), and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{problem}", if field.is_empty() { String::new() } else { format!("{field}: ") })]
pub struct Refused<K> {
    /// Which refusal.
    pub kind: K,
    /// The field at fault, as the request or sheet names it; empty when the refusal is about
    /// no field of the request (the state of a skirmish, say): then it names none.
    pub field: String,
    /// What is wrong with it, in the user's words.
    pub problem: String,
}

macro_rules! refusals {
    (
        $(#[$doc:meta])*
        $name:ident {
            $( $(#[$vdoc:meta])* $v:ident = $code:literal, )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vdoc])* $v, )*
        }

        impl $name {
            /// Every refusal of this system (the golden tests check each code is documented).
            pub const ALL: &'static [Self] = &[$(Self::$v,)*];

            /// The stable code of this refusal, for a front end to act on.
            pub fn code(self) -> &'static str {
                match self {
                    $( Self::$v => $code, )*
                }
            }
        }
    };
}

refusals! {
    /// A refusal of So1um Expanded: its characters, checks and vehicles' pilots.
    ExpandedRefusal {
        /// The Expanded rules refuse the sheet or the change (S1–S17), in their words.
        Rules = "expanded-rules",
        /// A sheet over one of the campaign's limits (list lengths, notes, bytes).
        SheetLimit = "character-sheet-limit",
        /// A sheet file to import that does not read.
        SheetFile = "character-sheet-file",
        /// A stored sheet this solum cannot read (another schema, damaged).
        StoredSheet = "character-sheet-unreadable",
        /// Adding a background, weapon or piece of gear the sheet has.
        AlreadyHas = "character-already-has",
        /// Naming a background, weapon or piece of gear the sheet does not have.
        HasNo = "character-has-no",
        /// A character at 0 hit points asked to act.
        Out = "character-out",
        /// A pool outside the rules.
        Pool = "check-pool",
        /// A gear reroll's die that is not in the pool, or without rerolling gear.
        GearDie = "check-gear-die",
        /// A roll-off asked for a check against a difficulty.
        RollOff = "check-roll-off",
        /// A name given twice, or added and removed, in one edit.
        EditTwice = "edit-named-twice",
        /// An edit of what changes only by creation and advancement (S17).
        EditByAdvancement = "edit-by-advancement-only",
        /// An edit that changes nothing on the sheet.
        EditChangesNothing = "edit-changes-nothing",
        /// Hours of rest out of range.
        RestHours = "rest-hours",
        /// Dice typed in one list and per pilot at once.
        TypedTwice = "dice-typed-twice",
    }
}

refusals! {
    /// A refusal of the original So1um: heroes, checks, fights.
    ClassicRefusal {
        /// The original's rules refuse the hero or the change, in their words.
        Rules = "classic-rules",
        /// A hero over one of the campaign's limits (notes, gear).
        SheetLimit = "classic-sheet-limit",
        /// A hero file to import that does not read.
        SheetFile = "classic-sheet-file",
        /// A stored hero this solum cannot read.
        StoredSheet = "classic-sheet-unreadable",
        /// A foe the book does not have.
        FoeUnknown = "classic-foe-unknown",
        /// Foes named out of range, or a setup (foes, stats, clichés, policies) given for a
        /// fight under way, which keeps the one it began with.
        Foes = "classic-foes",
        /// A decision about a hit that is not waiting, or a hit waiting for one.
        Decide = "classic-decide",
        /// A hero not in a fight asked to go on with one.
        NotInFight = "classic-not-in-fight",
        /// A fight asked to go on, be abandoned or shown without foes for a hero the campaign
        /// does not have (a hero of a file or the book): only a campaign hero's fight is kept.
        NotCampaignHero = "classic-not-campaign-hero",
        /// A hero in a fight asked to start another or to rest.
        InFight = "classic-in-fight",
        /// A fight grown to the most calls one fight keeps.
        FightTooLong = "classic-fight-too-long",
        /// A stored fight whose dice do not give what was recorded.
        ReplayMismatch = "classic-replay-mismatch",
        /// Hours of rest out of range.
        RestHours = "classic-rest-hours",
        /// A gear change the rules refuse, or one that changes nothing.
        Gear = "classic-gear",
        /// A cliché the hero does not have.
        Cliche = "classic-cliche",
        /// A fight rolled in secret: only a check of the original may be secret.
        SecretFight = "classic-secret-fight",
    }
}

refusals! {
    /// A refusal of Project Sol: sheets, tests, Edge, groups.
    SolRefusal {
        /// Project Sol's rules refuse the sheet, in their words.
        Sheet = "sol-sheet-invalid",
        /// A sheet over one of the campaign's limits, or a file that does not read.
        SheetLimit = "sol-sheet-limit",
        /// A stored sheet this solum cannot read.
        StoredSheet = "sol-sheet-unreadable",
        /// A name given twice.
        NamedTwice = "sol-named-twice",
        /// Modifiers out of range.
        Modifiers = "sol-modifiers",
        /// A pool outside the rules.
        Pool = "sol-pool",
        /// An attribute the sheet does not have.
        Attribute = "sol-attribute-unknown",
        /// Not Dead Yet on a tie for the highest physical attribute, none chosen.
        AttributeTie = "sol-attribute-tie",
        /// Not Dead Yet naming an attribute that is not the highest.
        NotHighest = "sol-attribute-not-highest",
        /// Edge the test cannot use.
        Edge = "sol-edge",
        /// A retry the rules refuse.
        Retry = "sol-retry",
        /// A group action the rules refuse.
        Group = "sol-group",
        /// Bought hits with what rolls dice.
        Buy = "sol-buy",
        /// An opposed test the rules refuse, or dice typed for one that is not opposed.
        Opposed = "sol-opposed",
        /// An assistant the rules refuse.
        Assistant = "sol-assistant",
        /// Dice typed for a use that rolls none.
        NoDice = "sol-no-dice",
        /// More dice typed than the roll uses.
        TooManyDice = "dice-too-many",
        /// A typed face the test cannot use.
        Dice = "dice-typed-invalid",
        /// A character's name taken in the campaign.
        NameTaken = "character-name-taken",
    }
}

refusals! {
    /// A refusal of Sol'una: characters, tests, skirmishes.
    SolunaRefusal {
        /// Sol'una's rules refuse the character, in their words.
        Sheet = "soluna-sheet-invalid",
        /// A file of characters that does not read or lists none.
        File = "soluna-file",
        /// An attack with dice the character does not have (or more than a test rolls).
        Attack = "soluna-attack",
        /// Flips past what the character has left or commits to one test.
        Flips = "soluna-flips",
        /// The skirmish's rules refuse the call, in their words.
        Skirmish = "soluna-skirmish",
        /// No skirmish is being played.
        NoSkirmish = "soluna-no-skirmish",
        /// A skirmish is being played already.
        SkirmishUnderWay = "soluna-skirmish-under-way",
        /// A character at 0 hit points asked to test or fight.
        Out = "soluna-out",
        /// The skirmish's names: too many, too few, named twice.
        Names = "soluna-names",
        /// The characters played by the dice: too many or unknown.
        Auto = "soluna-auto",
        /// A character or target not in the skirmish.
        NotInSkirmish = "soluna-not-in-skirmish",
        /// An action the rules refuse.
        Action = "soluna-action",
    }
}

refusals! {
    /// A refusal of the die-type system (Solum die types).
    DieTypeRefusal {
        /// The die-type rules refuse the sheet, or a sheet file does not read.
        Sheet = "dietype-sheet-invalid",
        /// An ability, skill or weapon the sheet does not have.
        HasNo = "dietype-has-no",
        /// Not a die type (the other side's of an opposed roll, as typed).
        DieType = "dietype-die",
    }
}

refusals! {
    /// A refusal of a combat: the tracker, fight odds, fast static combat.
    CombatRefusal {
        /// No combat is open.
        NoneOpen = "combat-none-open",
        /// A combat is open already.
        Open = "combat-open",
        /// A stored combat or fight this solum cannot read or replay.
        Stored = "combat-unreadable",
        /// A combat's setup: heroes or foes refused.
        Setup = "combat-setup",
        /// A line the combat refuses.
        Line = "combat-line",
        /// A sheet the combat cannot use.
        Sheet = "combat-sheet",
        /// A static opposition out of range, or not in the bestiary.
        Opposition = "static-opposition",
        /// A static combat's state refuses the call (none under way, one under way).
        StaticState = "static-state",
        /// A weapon the static combat cannot use.
        Weapon = "static-weapon",
        /// A background the static combat cannot use.
        Background = "static-background",
        /// Typed dice a static combat cannot use.
        Dice = "static-dice",
        /// A character at 0 hit points asked to fight.
        Out = "static-out",
    }
}

refusals! {
    /// A refusal of a campaign's creatures (its bestiary).
    CreatureRefusal {
        /// A creature the rules or the limits refuse.
        Invalid = "creature-invalid",
        /// A creature file that does not read.
        File = "creature-file",
        /// A name taken by the shipped bestiary or the campaign.
        NameTaken = "creature-name-taken",
        /// No creature of that name.
        Unknown = "creature-unknown",
        /// A creature of the shipped bestiary, which cannot be removed.
        Shipped = "creature-shipped",
        /// A stored creature this solum cannot read.
        Stored = "creature-unreadable",
    }
}

refusals! {
    /// A refusal of a table: its members and sheets.
    TableRefusal {
        /// No member of that name at the table.
        MemberUnknown = "member-unknown",
        /// No table of that id in the campaign.
        Unknown = "table-unknown",
        /// A character's name that looks like one the table has (another script, width).
        CharacterNameLookAlike = "character-name-look-alike",
    }
}

/// Every code a system's refusal may answer, each once (for the tests of docs/api.md).
pub fn refusal_codes() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    out.extend(ExpandedRefusal::ALL.iter().map(|k| k.code()));
    out.extend(ClassicRefusal::ALL.iter().map(|k| k.code()));
    out.extend(SolRefusal::ALL.iter().map(|k| k.code()));
    out.extend(SolunaRefusal::ALL.iter().map(|k| k.code()));
    out.extend(DieTypeRefusal::ALL.iter().map(|k| k.code()));
    out.extend(CombatRefusal::ALL.iter().map(|k| k.code()));
    out.extend(CreatureRefusal::ALL.iter().map(|k| k.code()));
    out.extend(TableRefusal::ALL.iter().map(|k| k.code()));
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_kebab_case() {
        for code in refusal_codes() {
            assert!(
                !code.is_empty()
                    && code
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
                    && !code.starts_with('-')
                    && !code.ends_with('-'),
                "{code}"
            );
        }
    }

    #[test]
    fn a_refusal_reads_field_then_problem() {
        let e = SolRefusal::AttributeTie.at("attribute", "a tie for the highest");
        assert_eq!(e.to_string(), "attribute: a tie for the highest");
        assert_eq!(e.code(), "sol-attribute-tie");
        assert_eq!(e.field().as_deref(), Some("attribute"));
    }
}
