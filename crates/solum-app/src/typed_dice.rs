//! Dice typed in by hand that do not fit a one-shot roll: one error for every system's roll
//! (dice notation, vehicles, die types, Sol'una), generic over the system's field names.

use solum_dice::DiceError;

/// A request's field, as a front end names it (its JSON key; the command line's flag).
pub trait FieldName: Copy + std::fmt::Debug {
    /// The field's JSON name.
    fn name(self) -> &'static str;
}

/// Why typed dice did not fit a roll, or the dice could not be rolled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe(|f| f.name().to_owned()))]
pub enum TypedDiceError<F: FieldName> {
    /// The typed text is not a list of faces.
    Faces {
        /// The dice field.
        field: F,
        /// What is wrong with the text.
        problem: String,
    },
    /// The typed faces ran out before the roll was done.
    TooFew {
        /// The dice field.
        field: F,
        /// How many faces were typed.
        given: usize,
        /// The order faces are read in.
        order: String,
    },
    /// A typed face is not a face of the die it was read for.
    NotAFace {
        /// The dice field.
        field: F,
        /// The face typed.
        value: u32,
        /// Its place among the typed faces, from 1.
        position: usize,
        /// The die it was read for.
        sides: u32,
    },
    /// More faces were typed than the roll used, with the rules that left dice unrolled.
    TooMany {
        /// The dice field.
        field: F,
        /// How many faces were typed.
        given: usize,
        /// How many the roll used.
        used: usize,
        /// Rules that left a die unrolled (or ended the rolling), in words.
        why: Vec<String>,
        /// The order faces are read in.
        order: String,
    },
    /// More values typed than a roll may take.
    TooManyTyped {
        /// The dice field.
        field: F,
        /// Values typed.
        given: usize,
        /// The limit.
        limit: usize,
    },
    /// A seed where every die is typed: it would roll nothing.
    SeedRollsNothing {
        /// The seed given.
        seed: u64,
    },
    /// The system's randomness failed (not the caller's input).
    Source(String),
}

/// Typed faces that ran out, in `field` (as the front end names it).
pub(crate) fn too_few(field: &str, given: usize, order: &str) -> String {
    format!("too few values in {field}: {given} given, the roll needs more ({order})")
}

/// A typed value that is no face of the die it was read for.
pub(crate) fn not_a_face(field: &str, value: u32, position: usize, sides: u32) -> String {
    format!(
        "{field}: value {value} (number {position}) is not a face of a d{sides}: it must be 1 to {sides}"
    )
}

/// More typed values than the roll used; `why` is the rules that left dice unrolled and the
/// order values are read in.
pub(crate) fn too_many(field: &str, given: usize, used: usize, why: &str) -> String {
    format!("too many values in {field}: {given} given, the roll used {used} ({why})")
}

fn reasons_and(why: &[String], order: &str) -> String {
    why.iter()
        .map(String::as_str)
        .chain([order])
        .collect::<Vec<_>>()
        .join("; ")
}

impl<F: FieldName> TypedDiceError<F> {
    /// The field at fault; `None` for a seed or the system's randomness.
    pub fn field(&self) -> Option<F> {
        match self {
            Self::Faces { field, .. }
            | Self::TooFew { field, .. }
            | Self::NotAFace { field, .. }
            | Self::TooMany { field, .. }
            | Self::TooManyTyped { field, .. } => Some(*field),
            Self::SeedRollsNothing { .. } | Self::Source(_) => None,
        }
    }

    /// A stable code for the API (`dice-too-few`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Faces { .. } => "dice-faces",
            Self::TooFew { .. } => "dice-too-few",
            Self::NotAFace { .. } => "dice-not-a-face",
            Self::TooMany { .. } => "dice-too-many",
            Self::TooManyTyped { .. } => "dice-typed-limit",
            Self::SeedRollsNothing { .. } => "dice-seed-rolls-nothing",
            Self::Source(_) => "dice-source",
        }
    }

    /// The message with the field named by `name` (the command line passes its flags; the
    /// error's `Display` names the JSON field).
    pub fn describe(&self, name: impl Fn(F) -> String) -> String {
        match self {
            Self::Faces { field, problem } => format!("{}: {problem}", name(*field)),
            Self::TooFew {
                field,
                given,
                order,
            } => too_few(&name(*field), *given, order),
            Self::NotAFace {
                field,
                value,
                position,
                sides,
            } => not_a_face(&name(*field), *value, *position, *sides),
            Self::TooMany {
                field,
                given,
                used,
                why,
                order,
            } => too_many(&name(*field), *given, *used, &reasons_and(why, order)),
            Self::TooManyTyped {
                field,
                given,
                limit,
            } => format!("{}: {given} values typed; at most {limit}", name(*field)),
            Self::SeedRollsNothing { seed } => {
                format!("seed {seed}: every die is typed, so a seed would roll nothing")
            }
            Self::Source(e) => format!("the dice could not be rolled: {e}"),
        }
    }

    /// True when the input is at fault, false for a failure of the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, Self::Source(_))
    }

    /// The faces typed as text in `field` (`5,3,2`), or why they are not faces.
    pub fn faces(text: &str, field: F) -> Result<Vec<u32>, Self> {
        solum_dice::parse_faces(text).map_err(|e| Self::Faces {
            field,
            problem: e.to_string(),
        })
    }

    /// A dice source's error while reading the faces typed in `field`.
    pub fn from_dice(e: DiceError, field: F, order: impl Into<String>) -> Self {
        match e {
            DiceError::Exhausted { given } => Self::TooFew {
                field,
                given,
                order: order.into(),
            },
            DiceError::OutOfRange {
                value,
                sides,
                position,
            } => Self::NotAFace {
                field,
                value,
                position,
                sides,
            },
            other => Self::Source(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Typed;
    impl FieldName for Typed {
        fn name(self) -> &'static str {
            "typed"
        }
    }

    #[test]
    fn messages_name_the_field_and_the_order() {
        let e =
            TypedDiceError::from_dice(DiceError::Exhausted { given: 2 }, Typed, "left to right");
        assert_eq!(
            e.to_string(),
            "too few values in typed: 2 given, the roll needs more (left to right)"
        );
        assert_eq!(e.code(), "dice-too-few");
        let e = TypedDiceError::TooMany {
            field: Typed,
            given: 4,
            used: 3,
            why: vec!["no roll-off".to_owned()],
            order: "left to right".to_owned(),
        };
        assert_eq!(
            e.to_string(),
            "too many values in typed: 4 given, the roll used 3 (no roll-off; left to right)"
        );
        let e = TypedDiceError::from_dice(
            DiceError::OutOfRange {
                value: 7,
                sides: 6,
                position: 2,
            },
            Typed,
            "",
        );
        assert_eq!(
            e.to_string(),
            "typed: value 7 (number 2) is not a face of a d6: it must be 1 to 6"
        );
        assert_eq!(e.field(), Some(Typed));
    }
}
