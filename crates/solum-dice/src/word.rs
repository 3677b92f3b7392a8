//! The error of a name typed for one of the game's words (an attribute, a range band, a
//! class…): typed, so that a front end can classify it as bad input without reading text.

use thiserror::Error;

/// A word that is not one of the names a game term accepts.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{given}` is not {what}: {expected}")]
pub struct UnknownWord {
    /// What was typed, trimmed and lower-cased.
    pub given: String,
    /// What kind of word was expected, with its article ("an attribute").
    pub what: &'static str,
    /// The accepted words, as a sentence ("body, mind or charm").
    pub expected: &'static str,
}

impl UnknownWord {
    /// The error for `given`, which is not one of `expected`.
    pub fn new(given: &str, what: &'static str, expected: &'static str) -> Self {
        Self {
            given: given.to_owned(),
            what,
            expected,
        }
    }
}

/// Why typed dice values could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FacesError {
    /// Nothing was typed.
    #[error("no dice values given (expected e.g. 5,3,2)")]
    NoValues,
    /// Two commas in a row, or a comma at an end: a value silently dropped would shift
    /// every later die.
    #[error("dice value number {position} is empty (two commas in a row, or a comma at an end)")]
    EmptyValue {
        /// The value's place, from 1.
        position: usize,
    },
    /// A value is not a whole number.
    #[error("dice value number {position} is `{item}`, not a whole number from 1 up")]
    NotANumber {
        /// The value's place, from 1.
        position: usize,
        /// What was typed there.
        item: String,
    },
}

/// A value written in a game's one-line shorthand (`dagger:light`, `body=3`, `d8+1`) that
/// does not read: the form is wrong, or a word or number of it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShorthandError {
    /// Not in the shorthand's form.
    #[error("`{written}`: write {form}")]
    Form {
        /// What was written.
        written: String,
        /// The form, as the user reads it ("NAME:CLASS").
        form: &'static str,
    },
    /// A word of it is not one the game knows.
    #[error(transparent)]
    Word(#[from] UnknownWord),
    /// A part of it that is not what it should be (a number out of range, a die type).
    #[error("`{written}`: {problem}")]
    Part {
        /// The part as written.
        written: String,
        /// What is wrong with it.
        problem: String,
    },
}
