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
pub enum TypedDiceError<F: FieldName> {
    /// The typed faces ran out before the roll was done.
    #[error("too few values in {}: {given} given, the roll needs more ({order})", field.name())]
    TooFew {
        /// The dice field.
        field: F,
        /// How many faces were typed.
        given: usize,
        /// The order faces are read in.
        order: &'static str,
    },
    /// A typed face is not a face of the die it was read for.
    #[error(
        "{}: value {value} (number {position}) is not a face of a d{sides}: it must be 1 to {sides}",
        field.name()
    )]
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
    #[error(
        "too many values in {}: {given} given, the roll used {used} ({})",
        field.name(),
        reasons_and(why, order)
    )]
    TooMany {
        /// The dice field.
        field: F,
        /// How many faces were typed.
        given: usize,
        /// How many the roll used.
        used: usize,
        /// Rules that left a die unrolled, in words.
        why: Vec<&'static str>,
        /// The order faces are read in.
        order: &'static str,
    },
    /// More values typed than a roll may take.
    #[error("{}: {given} values typed; at most {limit}", field.name())]
    TooManyTyped {
        /// The dice field.
        field: F,
        /// Values typed.
        given: usize,
        /// The limit.
        limit: usize,
    },
    /// A seed where every die is typed: it would roll nothing.
    #[error("seed {seed}: every die is typed, so a seed would roll nothing")]
    SeedRollsNothing {
        /// The seed given.
        seed: u64,
    },
    /// The system's randomness failed (not the caller's input).
    #[error("the dice could not be rolled: {0}")]
    Source(String),
}

fn reasons_and(why: &[&'static str], order: &'static str) -> String {
    why.iter()
        .copied()
        .chain([order])
        .collect::<Vec<_>>()
        .join("; ")
}

impl<F: FieldName> TypedDiceError<F> {
    /// The field at fault; `None` for a seed or the system's randomness.
    pub fn field(&self) -> Option<F> {
        match self {
            Self::TooFew { field, .. }
            | Self::NotAFace { field, .. }
            | Self::TooMany { field, .. }
            | Self::TooManyTyped { field, .. } => Some(*field),
            Self::SeedRollsNothing { .. } | Self::Source(_) => None,
        }
    }

    /// A stable code for the API (`dice-too-few`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::TooFew { .. } => "dice-too-few",
            Self::NotAFace { .. } => "dice-not-a-face",
            Self::TooMany { .. } => "dice-too-many",
            Self::TooManyTyped { .. } => "dice-typed-limit",
            Self::SeedRollsNothing { .. } => "dice-seed-rolls-nothing",
            Self::Source(_) => "dice-source",
        }
    }

    /// True when the input is at fault, false for a failure of the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, Self::Source(_))
    }

    /// A dice source's error while reading the faces typed in `field`.
    pub fn from_dice(e: DiceError, field: F, order: &'static str) -> Self {
        match e {
            DiceError::Exhausted { given } => Self::TooFew {
                field,
                given,
                order,
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

    /// A use case's dice error (the faces of `field`), or the source's failure.
    pub(crate) fn from_app(e: crate::AppError, field: F, order: &'static str) -> Self {
        match e {
            crate::AppError::Dice(d) => Self::from_dice(d, field, order),
            crate::AppError::UnusedDice { given, used } => Self::TooMany {
                field,
                given,
                used,
                why: Vec::new(),
                order,
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
            why: vec!["no roll-off"],
            order: "left to right",
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
