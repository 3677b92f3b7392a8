//! The journal's record kinds that a system or a use case adds, registered in one place.
//!
//! The journal asks every such kind the same questions (does it hold dice, its line, its
//! replay, its limits for an import) through [`SystemRecord`]; [`Record::system`] is the one
//! list of them. A new kind is a variant of [`Record`], an impl of [`SystemRecord`] below and
//! its arm in `system` (the compiler asks for the arm: the match names every variant).

use crate::AppError;
use crate::journal::{Record, Rolled, capitalized};

/// What the journal asks of a record kind a system adds.
pub trait SystemRecord {
    /// True when the record holds dice that `verify` rolls again.
    fn has_dice(&self) -> bool;
    /// One line for the story.
    fn summary(&self) -> String;
    /// What the page's feed and `journal show` say of it: the summary, unless the kind says
    /// which system it is (a table may play several).
    fn line(&self) -> String {
        self.summary()
    }
    /// Re-derives the record on its own: `None` when it matches, or why it does not.
    fn replay(&self) -> Option<String>;
    /// The limits of a record made at the table, checked again for an imported journal.
    fn check(&self) -> Result<(), AppError>;
    /// The roll, for a record that keeps one.
    fn rolled(&self) -> Option<&Rolled> {
        None
    }
}

impl Record {
    /// The record as a system's kind, or `None` for the journal's own kinds (notes, scenes,
    /// the oracles, difficulty, ideas, reveals).
    pub fn system(&self) -> Option<&dyn SystemRecord> {
        Some(match self {
            Self::Character(r) => r.as_ref(),
            Self::Sol(r) => r.as_ref(),
            Self::Combat(r) => r.as_ref(),
            Self::FastStatic(r) => r.as_ref(),
            Self::Creature(r) => r.as_ref(),
            Self::Classic(r) => r.as_ref(),
            Self::Soluna(r) => r.as_ref(),
            Self::Dietype(r) => r.as_ref(),
            Self::Notation(r) => r.as_ref(),
            Self::Vehicle(r) => r.as_ref(),
            Self::Note { .. }
            | Self::SceneStart { .. }
            | Self::SceneEnd { .. }
            | Self::Oracle { .. }
            | Self::ClassicOracle { .. }
            | Self::Difficulty { .. }
            | Self::Idea { .. }
            | Self::Reveal { .. } => return None,
        })
    }
}

/// The questions a kind answers with its own methods of the same names.
macro_rules! answers_itself {
    ($ty:ty) => {
        fn has_dice(&self) -> bool {
            <$ty>::has_dice(self)
        }
        fn summary(&self) -> String {
            <$ty>::summary(self)
        }
        fn replay(&self) -> Option<String> {
            <$ty>::replay(self)
        }
        fn check(&self) -> Result<(), AppError> {
            <$ty>::check(self)
        }
    };
}

impl SystemRecord for crate::characters::CharacterRecord {
    answers_itself!(crate::characters::CharacterRecord);
}

impl SystemRecord for crate::fast_static::StaticRecord {
    answers_itself!(crate::fast_static::StaticRecord);
}

impl SystemRecord for crate::vehicles::VehicleRecord {
    answers_itself!(crate::vehicles::VehicleRecord);
    fn rolled(&self) -> Option<&Rolled> {
        Some(&self.rolled)
    }
}

impl SystemRecord for crate::notation::NotationRecord {
    answers_itself!(crate::notation::NotationRecord);
    fn line(&self) -> String {
        capitalized(&self.summary())
    }
    fn rolled(&self) -> Option<&Rolled> {
        Some(&self.rolled)
    }
}

impl SystemRecord for crate::classic::ClassicRecord {
    answers_itself!(crate::classic::ClassicRecord);
    fn line(&self) -> String {
        format!("So1um (original): {}", self.summary())
    }
}

impl SystemRecord for crate::soluna::SolunaRecord {
    answers_itself!(crate::soluna::SolunaRecord);
    fn line(&self) -> String {
        format!("Sol'una: {}", self.summary())
    }
}

impl SystemRecord for crate::dietype::DietypeRecord {
    answers_itself!(crate::dietype::DietypeRecord);
    fn line(&self) -> String {
        format!("Die types: {}", self.summary())
    }
}

impl SystemRecord for crate::sol::SolRecord {
    answers_itself!(crate::sol::SolRecord);
    fn line(&self) -> String {
        format!("Project Sol: {}", self.summary())
    }
}

impl SystemRecord for crate::combat::CombatRecord {
    fn has_dice(&self) -> bool {
        Self::has_dice(self)
    }
    fn summary(&self) -> String {
        Self::summary(self)
    }
    fn line(&self) -> String {
        capitalized(&self.summary())
    }
    /// A combat line re-derives only on the combat its earlier lines built: the journal's
    /// `Replayer` does that, in order.
    fn replay(&self) -> Option<String> {
        None
    }
    fn check(&self) -> Result<(), AppError> {
        Self::check(self)
    }
}

impl SystemRecord for crate::creatures::CreatureRecord {
    /// A bestiary change rolls nothing.
    fn has_dice(&self) -> bool {
        false
    }
    fn summary(&self) -> String {
        Self::summary(self)
    }
    fn line(&self) -> String {
        capitalized(&self.summary())
    }
    fn replay(&self) -> Option<String> {
        Self::replay(self)
    }
    fn check(&self) -> Result<(), AppError> {
        Self::check(self)
    }
}
