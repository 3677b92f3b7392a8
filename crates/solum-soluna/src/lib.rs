//! The rules of Sol'una (rulings U1–U4).
//!
//! A test rolls a pool of d6 and reads the **largest group** of equal faces. Flips then move
//! dice to adjacent faces (every face but the die's own and its opposite, `7 − face`); the
//! tester's positive flips grow the largest group, the target's negative flips shrink it, and
//! only the net count is used. Damage is the group minus armour; a target-number test passes
//! when the group reaches the number.
//!
//! Exact odds ([`odds`]) rest on two facts. First, the optimal outcome of flips depends only
//! on how many dice show each face, and has a closed form (see [`flips`]). Second, that
//! outcome is unchanged by the 48 symmetries of the die (permute the three opposite pairs,
//! turn any pair over), so the distribution sums over orbits of count vectors rather than
//! over the 6^N rolls: about 1,400 orbits for 20 dice instead of 53,130 count vectors or
//! 3.7·10^15 rolls.

pub mod flips;
pub mod odds;
pub mod played;
pub mod skirmish;
mod test;

/// The limits of a test: dice in a pool and flips either way.
pub mod test_limits {
    pub use crate::test::{MAX_DICE, MAX_FLIPS};
}

pub use test::{Armour, SolunaError, TestOutcome, TestSpec, damage, roll_test, target_number};
