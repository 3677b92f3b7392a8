//! The role policy's refusals ([`crate::policy`] asks the rules): why a member may not do
//! what they asked ([`Forbidden`], the code `forbidden`) and what only a game master does
//! ([`GmOnly`], the code `gm-only`). It names no other module, so `error.rs`, which wraps
//! them, stays below every use case.

/// Why dice typed in by hand were refused, where [`crate::policy::may_type_dice`] does not allow
/// them.
pub const TYPED_DICE_REFUSED: &str = "dice typed in by hand are for a game master playing alone, or a table whose game master said it rolls real dice";

/// Why a member may not do what they asked: one code for the API (`forbidden`), and which
/// rule of the table's roles refused it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forbidden {
    /// A player plays and changes only the characters they created.
    #[error("{0} is not your character")]
    NotYourCharacter(String),
    /// Only a game master changes the table's settings.
    #[error("only the game master changes the table's settings")]
    Settings,
    /// Only a game master rolls in secret.
    #[error("only the game master rolls in secret")]
    Secret,
    /// Only a game master reveals a secret entry, and not while writing in secret.
    #[error("only the game master reveals a secret entry, and not in secret")]
    Reveal,
    /// A player asks for their own re-entry link only.
    #[error("a player asks for their own re-entry link only")]
    OthersReentry,
    /// Dice typed in by hand, where the table does not take them ([`TYPED_DICE_REFUSED`]).
    #[error("{}", TYPED_DICE_REFUSED)]
    TypedDice,
    /// A player acting in a fight no one has the turn of yet.
    #[error("no one's turn yet (the game master starts the fight)")]
    NoTurnYet,
    /// A player acting in another combatant's turn (the one named).
    #[error("it is {0}'s turn, and a player acts only for their own heroes")]
    NotYourTurn(String),
    /// A player setting up a fight rather than playing their hero's turn.
    #[error(
        "a player plays only their own hero's turn (a move, an attack, a switch of weapons, act or end); the game master sets up the fight"
    )]
    FightSetup,
    /// A player rolling for a pilot who is not their character.
    #[error(
        "{name} is not your character: as {side} it is rolled by the game master (or type that pilot's pool)"
    )]
    Pilot {
        /// The pilot.
        name: String,
        /// Which pilot of the roll (`your pilot`, `the opposing pilot`).
        side: &'static str,
    },
    /// A player ending or replacing the game master's scene (its title).
    #[error("the scene \"{0}\" is the game master's: only a game master ends it or starts another")]
    GmScene(String),
}

/// What only a game master does, asked by a player: one code for the API (`gm-only`), and
/// which it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GmOnly {
    /// Turning the roll-off on for a check (the table's roll-off setting).
    #[error(
        "draws stand at this table: only the game master turns the roll-off on (the table's roll-off setting)"
    )]
    RollOff,
    /// Correcting a sheet's attributes or backgrounds (S17).
    #[error("only the game master corrects attributes and backgrounds (S17)")]
    Corrections,
    /// Granting advancement points (S17).
    #[error("only the game master grants advancement points (S17)")]
    AdvancementPoints,
    /// Making, listing or revoking the table's invites (the verb).
    #[error("only the game master {0} the table's invites")]
    Invites(&'static str),
    /// Re-inviting a member (a re-entry link for a member of the table).
    #[error("only the game master re-invites a member")]
    Reinvite,
    /// Revealing a secret entry to the table.
    #[error("only the game master reveals a secret entry")]
    Reveal,
    /// Setting the table's roll-off option (S3, S14).
    #[error("only the game master sets the table's roll-off option")]
    RollOffSetting,
    /// Saying whether the table rolls real dice.
    #[error("only the game master says whether the table rolls real dice")]
    RealDiceSetting,
    /// Starting or ending the table's combat (the tracker).
    #[error("only the game master runs a combat")]
    Combat,
    /// Starting a played Sol'una skirmish (U5).
    #[error("only the game master starts a skirmish")]
    SkirmishStart,
    /// Rolling the phases of a skirmish that wait only for dice.
    #[error("only the game master runs a skirmish")]
    SkirmishGo,
    /// Abandoning the played skirmish.
    #[error("only the game master abandons a skirmish")]
    SkirmishAbandon,
    /// Starting a Project Sol encounter for a character (P3).
    #[error("only the game master starts an encounter")]
    SolEncounter,
    /// Starting a Project Sol play session for a character.
    #[error("only the game master starts a session")]
    SolSession,
    /// Rewarding a point of Edge.
    #[error("only the game master rewards a point of Edge")]
    SolReward,
}
