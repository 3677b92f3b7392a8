//! Why a vehicle roll was refused ([`VehicleError`], a code per case), and the fields it
//! names ([`Field`]): the refusals of [`crate::vehicles`]. It names no module but
//! `typed_dice` and `fields` (leaves both), so `error.rs`, which wraps them, stays below
//! every use case.

use crate::fields::input_fields;
use crate::typed_dice::TypedDiceError;

input_fields! {
    /// An input field, for errors a front end names as its own flag or JSON field.
    Field {
        /// The first pilot's typed pool.
        Pilot = "pilot",
        /// The first pilot's character.
        Character = "character",
        /// The first pilot's background.
        Background = "background",
        /// The first vehicle, by name.
        Vehicle = "vehicle",
        /// The first vehicle's speed.
        Speed = "speed",
        /// The first vehicle's handling.
        Handling = "handling",
        /// Dice typed for the first pilot.
        Rolled = "rolled",
        /// The other pilot's typed pool.
        AgainstPilot = "against_pilot",
        /// The other pilot's character.
        AgainstCharacter = "against_character",
        /// The other pilot's background.
        AgainstBackground = "against_background",
        /// The other vehicle, by name.
        AgainstVehicle = "against_vehicle",
        /// The other vehicle's speed.
        AgainstSpeed = "against_speed",
        /// The other vehicle's handling.
        AgainstHandling = "against_handling",
        /// Dice typed for the other pilot.
        AgainstRolled = "against_rolled",
        /// Every die of the roll typed in draw order (the campaign's dice choice).
        Typed = "typed",
        /// The generator's seed.
        Seed = "seed",
    }
}

impl Field {
    /// The command line's flag for it (`--against-speed`).
    pub fn flag(self) -> String {
        format!("--{}", self.name().replace('_', "-"))
    }
}

/// Why a vehicle roll was refused: the rule or the input at fault, as data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VehicleError {
    /// Speed was given for a vehicle attack: it counts only in a chase (S10).
    #[error("{} {value}: speed counts only in a chase, not in a vehicle attack", field.name())]
    SpeedInAttack {
        /// The speed field.
        field: Field,
        /// The speed given.
        value: String,
    },
    /// A vehicle name the catalogue does not hold.
    #[error("{} {name}: not in the catalogue (one of: {known})", field.name())]
    UnknownVehicle {
        /// The vehicle field.
        field: Field,
        /// The name given.
        name: String,
        /// The catalogue's names.
        known: String,
    },
    /// A catalogue vehicle and typed ratings at once: the catalogue gives the ratings.
    #[error("{} cannot be used with {}: the catalogue's vehicle has its own", field.name(), vehicle.name())]
    RatingsBesideVehicle {
        /// The rating field.
        field: Field,
        /// The vehicle field.
        vehicle: Field,
    },
    /// Neither a pool nor a character for a pilot, or both.
    #[error("{}: give the pilot's pool or a character, one of the two", field.name())]
    PilotNeeded {
        /// The pool field.
        field: Field,
    },
    /// A background not on the pilot's sheet (or named without a character).
    #[error("{} {background}: {problem}", field.name())]
    Background {
        /// The background field.
        field: Field,
        /// The name given.
        background: String,
        /// Why it cannot be used.
        problem: String,
    },
    /// Typed dice that do not fit the roll (or a seed where every die is typed).
    #[error(transparent)]
    Typed(#[from] TypedDiceError<Field>),
}

impl VehicleError {
    /// The field at fault.
    pub fn field(&self) -> Field {
        match self {
            Self::SpeedInAttack { field, .. }
            | Self::UnknownVehicle { field, .. }
            | Self::RatingsBesideVehicle { field, .. }
            | Self::PilotNeeded { field }
            | Self::Background { field, .. } => *field,
            Self::Typed(e) => e.field().unwrap_or(Field::Seed),
        }
    }

    /// A stable code for the API (`vehicle-speed-in-attack`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::SpeedInAttack { .. } => "vehicle-speed-in-attack",
            Self::UnknownVehicle { .. } => "vehicle-unknown",
            Self::RatingsBesideVehicle { .. } => "vehicle-ratings-beside-vehicle",
            Self::PilotNeeded { .. } => "vehicle-pilot-needed",
            Self::Background { .. } => "vehicle-background",
            Self::Typed(e) => e.code(),
        }
    }

    /// True when the input is at fault, false for a failure of the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::Typed(e) => e.is_bad_input(),
            _ => true,
        }
    }

    /// The message with the fields named by `name` (the command line passes its flags):
    /// the message begins with the field (or, for dice counts, names it after "in").
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        let text = self.to_string();
        let field = self.field();
        let mut out = text.replacen(field.name(), &name(field), 1);
        if let Self::RatingsBesideVehicle { vehicle, .. } = self {
            out = out.replacen(
                &format!("with {}", vehicle.name()),
                &format!("with {}", name(*vehicle)),
                1,
            );
        }
        out
    }
}
