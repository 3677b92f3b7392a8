//! Why a fight simulation was refused ([`SimRefusal`], a code per case): the refusals of
//! [`crate::fight_odds`]. It names no module but `sim`, so `error.rs`, which wraps them,
//! stays below every use case.

/// The most fighters one side may have.
pub const MAX_SIDE: usize = 200;

/// Why a simulation was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimRefusal {
    /// More fights than the limit.
    #[error("fights {asked}: 1 to {max}")]
    Fights {
        /// Fights asked for.
        asked: u64,
        /// The limit.
        max: u64,
    },
    /// The estimated work is past the limit.
    #[error(
        "fights {asked}: each takes about {steps_each:.0} steps (dice rolled and fighters considered, from a seeded pilot), and one simulation here takes at most {max_work}{}",
        if *most == 0 { format!(": one fight alone rolls more than {} dice", crate::sim::PILOT_DICE) } else { format!(": simulate at most {most} fights") }
    )]
    TooMuchWork {
        /// Fights asked for.
        asked: u64,
        /// Steps one fight takes on average.
        steps_each: f64,
        /// The limit in steps.
        max_work: u64,
        /// The most fights that fit.
        most: u64,
    },
    /// A side without fighters.
    #[error("{0}: a fight needs at least one fighter on each side")]
    EmptySide(&'static str),
    /// A side with too many fighters.
    #[error("{side}: {count} fighters; at most {MAX_SIDE} a side")]
    CrowdedSide {
        /// The side.
        side: &'static str,
        /// Its fighters.
        count: usize,
    },
    /// The current combat was asked for, and none is open.
    #[error("no combat is open: start one, or name heroes and foes")]
    NoCombat,
    /// The current combat and chosen fighters at once.
    #[error("current_combat: the open combat's sides, or chosen heroes and foes, not both")]
    CombatAndChosen,
}

impl SimRefusal {
    /// A stable code for the API (`sim-fights`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Fights { .. } => "sim-fights",
            Self::TooMuchWork { .. } => "sim-too-much-work",
            Self::EmptySide(_) => "sim-empty-side",
            Self::CrowdedSide { .. } => "sim-crowded-side",
            Self::NoCombat => "sim-no-combat",
            Self::CombatAndChosen => "sim-combat-and-chosen",
        }
    }
}
