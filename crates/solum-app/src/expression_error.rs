//! Why an expression was not rolled or its odds not computed ([`ExpressionError`], a code
//! per case), and the fields it names ([`Field`]): the refusals of [`crate::expression`]. It
//! names no module but `typed_dice` and `fields` (leaves both), so `error.rs`, which wraps
//! them, stays below every use case.

use crate::fields::input_fields;
use crate::typed_dice::TypedDiceError;

input_fields! {
    /// An input of a dice-notation request, for errors a front end names as its own flag or
    /// JSON field.
    Field {
        /// The expression.
        Expression = "expression",
        /// Faces typed in by hand.
        Typed = "typed",
    }
}

/// Why an expression was not rolled or its odds not computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpressionError {
    /// Empty, too long, or holding a control character.
    #[error("{problem}")]
    Text {
        /// What is wrong with the text.
        problem: String,
    },
    /// The notation refused the expression: a syntax error or one of its limits, shown
    /// under the expression with a caret where it points into it.
    #[error("{rendered}")]
    Notation {
        /// The notation's message, with the expression and a caret.
        rendered: String,
    },
    /// A roll that could draw more dice than one journal entry keeps.
    #[error(
        "the expression could draw up to {faces} dice, too many to journal (an entry holds at most {limit} bytes): roll fewer dice, or fewer rerolls and explosions"
    )]
    JournalLimit {
        /// The most dice the roll could draw.
        faces: u128,
        /// The bytes an entry holds.
        limit: usize,
    },
    /// Typed faces that do not fit the roll, or the system's randomness failed.
    #[error(transparent)]
    Typed(#[from] TypedDiceError<Field>),
}

impl ExpressionError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Text { .. } | Self::Notation { .. } | Self::JournalLimit { .. } => {
                Some(Field::Expression)
            }
            Self::Typed(e) => e.field(),
        }
    }

    /// A stable code for the API (`expression-notation`, `dice-too-few`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Text { .. } => "expression-text",
            Self::Notation { .. } => "expression-notation",
            Self::JournalLimit { .. } => "expression-journal-limit",
            Self::Typed(e) => e.code(),
        }
    }

    /// True when the input is at fault (a front end's bad input), false for a failure of
    /// the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::Typed(e) => e.is_bad_input(),
            _ => true,
        }
    }

    /// The message with the typed faces named as the front end names them (the command
    /// line passes `--rolled`).
    pub fn describe(&self, typed: &str) -> String {
        let text = self.to_string();
        if self.field() == Some(Field::Typed) {
            text.replacen(Field::Typed.name(), typed, 1)
        } else {
            text
        }
    }
}
