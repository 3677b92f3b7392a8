//! One error type for every use case, with its kind (bad input, forbidden, …) and a stable
//! code. The front ends map the kind: the command line to its exit code, the web to its HTTP
//! status; the app knows neither.
//!
//! The refusals of the systems' rules are typed per system ([`ExpandedRefusal`],
//! [`ClassicRefusal`], [`SolRefusal`], [`SolunaRefusal`], [`DieTypeRefusal`],
//! [`CombatRefusal`], [`CreatureRefusal`], [`TableRefusal`]): each kind of refusal has a
//! stable code of its own, the request's field at fault and the problem in the words users
//! read, so no front end compares message text.
//!
//! The error type sits below every use case: the modules it names (the refusals it wraps, in
//! `refusal.rs`, `forbidden.rs`, `invite_refusal.rs`, `sim_refusal.rs`, `expression_error.rs`
//! and `vehicle_error.rs`; the divergence, typed dice and fields it carries) name none that
//! names it back (`tests/module_graph.rs` checks it). Why an export is not imported
//! ([`ImportProblem`]) is part of it, in `error/import_problem.rs`: a problem holds the
//! `AppError` an entry was refused with, as [`AppError::BadImport`] holds the problem.

pub mod import_problem;

use solum_dice::DiceError;
use solum_store::StoreError;
use thiserror::Error;

use crate::refusal::{
    ClassicRefusal, CombatRefusal, CreatureRefusal, DieTypeRefusal, ExpandedRefusal, Refused,
    SolRefusal, SolunaRefusal, TableRefusal,
};
use crate::typed_dice::{FieldName, TypedDiceError};
pub use import_problem::{ExportEntry, ImportProblem};

/// What kind of failure an [`AppError`] is, independent of the front end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request itself is wrong: fix the input and try again.
    BadInput,
    /// The campaign is busy or full right now: nothing changed, try again later.
    Unavailable,
    /// The request is understood but not allowed to whoever made it (a player changing
    /// another's character, an unknown invite).
    Forbidden,
    /// The request meets a state it would end without saying so (joining a table while
    /// signed in): ask again saying so.
    Conflict,
    /// Something failed that the user cannot fix by changing the input.
    Internal,
}

impl AppError {
    /// This error as typed dice that did not fit (the faces of `field`, read in `order`),
    /// or the error itself when it is about something else: a front end names the field as
    /// its own flag with [`TypedDiceError::describe`].
    pub fn typed_dice<F: FieldName>(
        self,
        field: F,
        order: impl Into<String>,
    ) -> Result<TypedDiceError<F>, AppError> {
        match self {
            Self::Dice(d) => Ok(TypedDiceError::from_dice(d, field, order)),
            Self::UnusedDice { given, used } => Ok(TypedDiceError::TooMany {
                field,
                given,
                used,
                why: Vec::new(),
                order: order.into(),
            }),
            other => Err(other),
        }
    }

    /// A one-shot use case's error as typed dice that did not fit, or the dice source's
    /// failure.
    pub(crate) fn into_typed_dice<F: FieldName>(
        self,
        field: F,
        order: impl Into<String>,
    ) -> TypedDiceError<F> {
        self.typed_dice(field, order)
            .unwrap_or_else(|other| TypedDiceError::Source(other.to_string()))
    }

    /// A failure of `what` that the user cannot fix (a value that does not serialize).
    pub(crate) fn internal(what: &'static str, reason: impl std::fmt::Display) -> Self {
        Self::Internal {
            what,
            reason: reason.to_string(),
        }
    }
}

/// Why a use case did not happen. When it is returned, nothing was stored.
#[derive(Debug, Error)]
pub enum AppError {
    /// A text field is empty.
    #[error("the {0} {is} empty", is = agree(.0, "is", "are"))]
    Empty(&'static str),
    /// A text field is longer than its limit.
    #[error("the {what} {is} {len} characters long; the limit is {limit}", is = agree(what, "is", "are"))]
    TooLong {
        /// Which field.
        what: &'static str,
        /// Its length in characters.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// A text field holds a control character.
    #[error(
        "the {0} {holds} a control or text-direction character (text, tabs and line breaks are allowed)",
        holds = agree(.0, "holds", "hold")
    )]
    ControlCharacter(&'static str),
    /// Typed dice did not fit the roll: the dice core says how (too few, a face out of
    /// range).
    #[error("{0}")]
    Dice(#[from] DiceError),
    /// Typed dice ran out, and the rule knows what the missing die was for.
    #[error("{given} dice values typed, too few: {why}")]
    DiceShort {
        /// Values typed.
        given: usize,
        /// What the next die would have been rolled for.
        why: String,
    },
    /// More dice were typed than the roll uses.
    #[error("{given} dice values typed, but the roll uses only {used}")]
    UnusedDice {
        /// Values typed.
        given: usize,
        /// Values the roll used.
        used: usize,
    },
    /// An idea genre solum does not have.
    #[error("no idea list for the genre \"{name}\" (the genres: {known})")]
    UnknownGenre {
        /// The name asked for.
        name: String,
        /// The genres there are.
        known: String,
    },
    /// A word list is not usable.
    #[error("word list, line {line}: {reason}")]
    BadWordList {
        /// The 1-based line (0: the list as a whole).
        line: usize,
        /// Why.
        reason: String,
    },
    /// An oracle solum does not have.
    #[error("no oracle \"{0}\" (say expanded or classic)")]
    UnknownOracle(String),
    /// `scene end` without an open scene.
    #[error("no scene is open: start one first")]
    NoOpenScene,
    /// An imported journal is not what `journal export --format json` writes.
    #[error("the journal to import is not valid: {0}")]
    BadImport(ImportProblem),
    /// An imported entry does not re-derive: its dice do not give what it records, or the
    /// rules refuse it, or it contradicts the entries before it.
    #[error("entry {index} of the import does not re-derive from its dice: ({entry}) {divergence}")]
    ImportMismatch {
        /// 1-based position in the import.
        index: usize,
        /// The entry, as the export names it (`oracle entry, numbered 1 in the export`).
        entry: String,
        /// How it diverges.
        divergence: crate::Divergence,
    },
    /// A stored entry cannot be read by this solum.
    #[error("journal entry {seq} cannot be read: {reason}")]
    UnreadableEntry {
        /// The entry.
        seq: i64,
        /// Why.
        reason: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A refusal of So1um Expanded's rules (characters, checks, pilots).
    #[error(transparent)]
    Expanded(Refused<ExpandedRefusal>),
    /// A refusal of the original So1um's rules.
    #[error(transparent)]
    Classic(Refused<ClassicRefusal>),
    /// A refusal of Project Sol's rules.
    #[error(transparent)]
    Sol(Refused<SolRefusal>),
    /// A refusal of Sol'una's rules.
    #[error(transparent)]
    Soluna(Refused<SolunaRefusal>),
    /// A refusal of the die-type rules.
    #[error(transparent)]
    DieType(Refused<DieTypeRefusal>),
    /// A refusal of a combat (tracker, fight odds, fast static combat).
    #[error(transparent)]
    Combat(Refused<CombatRefusal>),
    /// A refusal of the campaign's creatures.
    #[error(transparent)]
    Creature(Refused<CreatureRefusal>),
    /// A refusal of a table's members or sheets.
    #[error(transparent)]
    Table(Refused<TableRefusal>),
    /// Something failed that the user cannot fix (a value that does not serialize, the
    /// system's randomness): what, for the log.
    #[error("{what}: {reason}")]
    Internal {
        /// What failed.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// No character of that name in the campaign.
    #[error("the campaign has no character named {0}")]
    NoSuchCharacter(String),
    /// Not allowed to whoever asked (see [`ErrorKind::Forbidden`]): which role rule refused.
    #[error("not allowed: {0}")]
    Forbidden(#[from] crate::forbidden::Forbidden),
    /// A game master's action asked by a player (granting points, corrections, invites):
    /// the one code `gm-only` wherever it is refused.
    #[error("not allowed: {0}")]
    GmOnly(#[from] crate::forbidden::GmOnly),
    /// A name breaks the name rule ([`crate::name_problem`]).
    #[error("the {what} {problem}")]
    BadName {
        /// Which name.
        what: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A member of the table already goes by a name that compares equal.
    #[error(
        "the name {name} is taken at this table by {taken} (names compare without case and extra spaces); choose another"
    )]
    NameTaken {
        /// The name asked for.
        name: String,
        /// The member's.
        taken: String,
    },
    /// An invite that cannot be used (unknown, used, replaced, revoked or expired): which.
    #[error(transparent)]
    Invite(#[from] crate::invite_refusal::InviteRefusal),
    /// No such invite at the table.
    #[error("the table has no invite {0} that is still open")]
    NoSuchInvite(i64),
    /// A vehicle roll refused by a rule or for its input (S10): the field and why, as data.
    #[error(transparent)]
    Vehicle(#[from] crate::vehicle_error::VehicleError),
    /// A re-entry link that cannot be used, saying why (unknown, used, expired, revoked).
    #[error(transparent)]
    Reentry(#[from] crate::invite_refusal::ReentryRefusal),
    /// A fight simulation refused for its input or its size.
    #[error(transparent)]
    Simulation(#[from] crate::sim_refusal::SimRefusal),
    /// The odds of a dice expression refused for its text.
    #[error(transparent)]
    Expression(#[from] crate::expression_error::ExpressionError),
    /// Joining a table while signed in replaces the session: the front end must say so.
    #[error(
        "you are signed in at the table {table_name}; joining another table ends that session here: ask again with \"replace\": true to switch"
    )]
    SessionHeld {
        /// The table of the session held.
        table_name: String,
    },
}

/// Each system's refusal as the variant of [`AppError`] that carries it: `at` and `bare`
/// (the refusals themselves are in `refusal.rs`, which names no other module).
macro_rules! refused_as {
    ($( $kind:ident => $variant:ident, )*) => {
        $(
            impl $kind {
                /// This refusal of `field`, saying `problem`.
                pub fn at(self, field: impl Into<String>, problem: impl Into<String>) -> AppError {
                    AppError::$variant(Refused {
                        kind: self,
                        field: field.into(),
                        problem: problem.into(),
                    })
                }

                /// This refusal about no field of the request (the state of the table, a
                /// skirmish under way): it names none.
                pub fn bare(self, problem: impl Into<String>) -> AppError {
                    self.at("", problem)
                }
            }
        )*
    };
}

refused_as! {
    ExpandedRefusal => Expanded,
    ClassicRefusal => Classic,
    SolRefusal => Sol,
    SolunaRefusal => Soluna,
    DieTypeRefusal => DieType,
    CombatRefusal => Combat,
    CreatureRefusal => Creature,
    TableRefusal => Table,
}

/// The verb of a sentence about the field `what`: a field named in the plural (`heroes`,
/// `notes`, `add_backgrounds`) takes the plural form.
fn agree(what: &str, one: &'static str, many: &'static str) -> &'static str {
    if what.ends_with('s') && !what.ends_with("ss") {
        many
    } else {
        one
    }
}

impl AppError {
    /// A stable code for a front end to act on (`session-held`, `character-unknown`, …):
    /// one per kind of refusal, never derived from the message. docs/api.md lists them.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Empty(_) => "text-empty",
            Self::TooLong { .. } => "text-too-long",
            Self::ControlCharacter(_) => "text-control-character",
            Self::Dice(DiceError::Exhausted { .. }) => "dice-too-few",
            Self::Dice(_) => "dice-typed-invalid",
            Self::DiceShort { .. } => "dice-too-few",
            Self::UnusedDice { .. } => "dice-too-many",
            Self::UnknownGenre { .. } => "genre-unknown",
            Self::BadWordList { .. } => "word-list-invalid",
            Self::UnknownOracle(_) => "oracle-unknown",
            Self::NoOpenScene => "scene-none-open",
            Self::BadImport(_) => "import-invalid",
            Self::ImportMismatch { .. } => "import-mismatch",
            Self::UnreadableEntry { .. } => "entry-unreadable",
            Self::Store(e) => store_code(e),
            Self::Expanded(r) => r.kind.code(),
            Self::Classic(r) => r.kind.code(),
            Self::Sol(r) => r.kind.code(),
            Self::Soluna(r) => r.kind.code(),
            Self::DieType(r) => r.kind.code(),
            Self::Combat(r) => r.kind.code(),
            Self::Creature(r) => r.kind.code(),
            Self::Table(r) => r.kind.code(),
            Self::Internal { .. } => "internal",
            Self::GmOnly(_) => "gm-only",
            Self::NoSuchCharacter(_) => "character-unknown",
            Self::Forbidden(crate::forbidden::Forbidden::Secret) => "secret-gm-only",
            Self::Forbidden(_) => "forbidden",
            Self::BadName { .. } => "name-invalid",
            Self::NameTaken { .. } => "name-taken",
            Self::Invite(_) => "invite-unusable",
            Self::NoSuchInvite(_) => "invite-unknown",
            Self::Vehicle(v) => v.code(),
            Self::Reentry(r) => r.code(),
            Self::Simulation(s) => s.code(),
            Self::Expression(e) => e.code(),
            Self::SessionHeld { .. } => "session-held",
        }
    }

    /// The field of the request at fault, where the error knows it (`name`, `speed`, the
    /// field a rule names): data of the error, never parsed from its message.
    pub fn field(&self) -> Option<String> {
        match self {
            Self::Empty(what)
            | Self::TooLong { what, .. }
            | Self::ControlCharacter(what)
            | Self::BadName { what, .. } => Some(json_key(what).to_owned()),
            Self::NameTaken { .. } => Some("name".to_owned()),
            Self::Forbidden(crate::forbidden::Forbidden::Secret) => Some("secret".to_owned()),
            Self::UnknownGenre { .. } => Some("genre".to_owned()),
            Self::UnknownOracle(_) => Some("oracle".to_owned()),
            Self::Vehicle(v) => Some(v.field().name().to_owned()),
            Self::Expression(e) => e.field().map(|f| f.name().to_owned()),
            other => other
                .refusal()
                .map(|(field, _)| field.to_owned())
                .filter(|f| !f.is_empty()),
        }
    }

    /// A system's refusal whose field is one of `F`'s (a path such as `add_weapons[1].name`
    /// counts as its first key), with its problem: a front end matches the variant to name
    /// its own flag. `None` for another field, or any other error.
    pub fn refused_field<F: crate::fields::RequestField>(&self) -> Option<(F, &str)> {
        let (field, problem) = self.refusal()?;
        let head = field.split(['.', '[']).next()?;
        F::ALL
            .iter()
            .copied()
            .find(|f| f.name() == head)
            .map(|f| (f, problem))
    }

    /// A system's refusal as its field and problem, for a front end that names the field as
    /// its own flag (`--attr: …`); `None` for any other error. Which refusal it is, is
    /// [`AppError::code`] or the variant's `kind`, never the problem's text.
    pub fn refusal(&self) -> Option<(&str, &str)> {
        match self {
            Self::Expanded(r) => Some((&r.field, &r.problem)),
            Self::Classic(r) => Some((&r.field, &r.problem)),
            Self::Sol(r) => Some((&r.field, &r.problem)),
            Self::Soluna(r) => Some((&r.field, &r.problem)),
            Self::DieType(r) => Some((&r.field, &r.problem)),
            Self::Combat(r) => Some((&r.field, &r.problem)),
            Self::Creature(r) => Some((&r.field, &r.problem)),
            Self::Table(r) => Some((&r.field, &r.problem)),
            _ => None,
        }
    }

    /// The kind of failure, for exit codes and HTTP statuses.
    pub fn kind(&self) -> ErrorKind {
        match self {
            // The system's randomness failed: not the caller's input.
            Self::Expression(e) if !e.is_bad_input() => ErrorKind::Internal,
            Self::Vehicle(e) if !e.is_bad_input() => ErrorKind::Internal,
            Self::Empty(_)
            | Self::TooLong { .. }
            | Self::ControlCharacter(_)
            | Self::Dice(_)
            | Self::DiceShort { .. }
            | Self::UnusedDice { .. }
            | Self::NoOpenScene
            | Self::UnknownGenre { .. }
            | Self::BadWordList { .. }
            | Self::UnknownOracle(_)
            | Self::BadImport(_)
            | Self::ImportMismatch { .. }
            | Self::Expanded(_)
            | Self::Classic(_)
            | Self::Sol(_)
            | Self::Soluna(_)
            | Self::DieType(_)
            | Self::Combat(_)
            | Self::Creature(_)
            | Self::Table(_)
            | Self::NoSuchCharacter(_)
            | Self::BadName { .. }
            | Self::NameTaken { .. }
            | Self::NoSuchInvite(_)
            | Self::Vehicle(_)
            | Self::Simulation(_)
            | Self::Expression(_) => ErrorKind::BadInput,
            Self::Invite(_) | Self::Reentry(_) => ErrorKind::Forbidden,
            Self::SessionHeld { .. } => ErrorKind::Conflict,
            Self::UnreadableEntry { .. } | Self::Internal { .. } => ErrorKind::Internal,
            Self::Forbidden(_) | Self::GmOnly(_) => ErrorKind::Forbidden,
            Self::Store(e) => match e {
                StoreError::Forbidden(_) => ErrorKind::Forbidden,
                StoreError::Busy { .. }
                | StoreError::Conflict { .. }
                | StoreError::Full { .. }
                | StoreError::Unreachable { .. } => ErrorKind::Unavailable,
                e if e.is_bad_input() => ErrorKind::BadInput,
                StoreError::ReadOnly { .. } => ErrorKind::BadInput,
                _ => ErrorKind::Internal,
            },
        }
    }
}

/// The request's JSON key of a text the messages name in words (`the table name is empty`
/// names the key `table`): a field is what the request holds, never a phrase.
fn json_key(what: &'static str) -> &'static str {
    match what {
        "table name" => "table",
        "member name" | "combat name" => "name",
        "combat line" => "line",
        "scene title" => "title",
        "scene goal" => "goal",
        "scene summary" => "summary",
        "note" => "text",
        other => other,
    }
}

/// The code of a store's refusal or failure (see [`AppError::code`]).
fn store_code(e: &StoreError) -> &'static str {
    match e {
        StoreError::NameTaken { .. } => "character-name-taken",
        StoreError::NoSuchSheet { .. } => "character-unknown",
        StoreError::TooLarge { .. } => "entry-too-large",
        StoreError::NotSecret { .. } => "entry-not-secret",
        StoreError::RevealedAlready { .. } => "entry-revealed-already",
        StoreError::BadRecord(_) => "entry-refused",
        StoreError::Forbidden(_) => "forbidden",
        StoreError::Busy { .. } | StoreError::Conflict { .. } => "campaign-busy",
        StoreError::Full { .. } => "campaign-full",
        StoreError::Unreachable { .. } => "campaign-unreachable",
        StoreError::CommitUnknown { .. } => "campaign-commit-unknown",
        StoreError::ReadOnly { .. } => "campaign-read-only",
        _ => "campaign-unusable",
    }
}

impl crate::Divergence {
    /// What an error of the app met while re-deriving says: dice that do not fit (too few,
    /// too many, a face out of range) make the entry unreplayable; any other error is the
    /// rules refusing what it records.
    pub(crate) fn of_error(e: &AppError) -> Self {
        match e {
            AppError::Dice(_) | AppError::DiceShort { .. } | AppError::UnusedDice { .. } => {
                Self::unreplayable(e)
            }
            e if e.code() == "dice-typed-invalid" => Self::unreplayable(e),
            // Met while re-deriving, an import's refusal is of the entry's dice (a generated
            // roll kept without its seed): said without the import's preamble.
            AppError::BadImport(problem) => Self::unreplayable(problem),
            e => Self::refused(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AppError;

    #[test]
    fn a_text_refusal_agrees_with_its_field() {
        assert_eq!(AppError::Empty("title").to_string(), "the title is empty");
        assert_eq!(AppError::Empty("notes").to_string(), "the notes are empty");
        assert!(
            AppError::ControlCharacter("heroes")
                .to_string()
                .starts_with("the heroes hold a control")
        );
        assert!(
            AppError::ControlCharacter("expression")
                .to_string()
                .starts_with("the expression holds a control")
        );
        let long = AppError::TooLong {
            what: "add_backgrounds",
            len: 70,
            limit: 60,
        };
        assert_eq!(
            long.to_string(),
            "the add_backgrounds are 70 characters long; the limit is 60"
        );
        assert_eq!(
            AppError::Empty("address").to_string(),
            "the address is empty"
        );
    }
}
