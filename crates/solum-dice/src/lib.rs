//! The dice core shared by every system of the So1um family.
//!
//! Three ideas carry every rules crate:
//!
//! * [`DiceSource`] is the one seam through which randomness enters. A rule is a plain
//!   function that takes `&mut dyn DiceSource`; it never sees a global generator or a clock.
//!   Play uses [`SeededDice`] (ChaCha8, replayable from its seed), tests use [`ScriptedDice`],
//!   and a player who rolled real dice types them into [`TypedDice`].
//! * [`Distribution`] is an exact probability distribution over whole numbers: integer
//!   weights over one common denominator, exact fractions ([`Prob`]) made only when asked
//!   for. Where a mechanic explodes (Rule of 6, Solum die types) the
//!   support is infinite: the distribution is truncated and says how much mass it neglected.
//! * [`enumerate`] runs a rule function over *every* sequence of dice it can ask for and
//!   returns the exact distribution of its outcomes. It is the brute-force reference that the
//!   closed forms of each system are tested against, so the odds and the roll come from one
//!   definition.
//!
//! The alternative rejected: a distribution type generic over any outcome and backed by
//! floats. Floats would make "within 1e-9 of exact" a hope instead of a fact, and the
//! systems' outcomes that matter (a result, a hit count, a group size) are all integers.
//!
//! ```
//! use solum_dice::{DiceSource, SeededDice};
//! let mut dice = SeededDice::new(42);
//! let face = dice.roll(6).unwrap();
//! assert!((1..=6).contains(&face));
//! // The same seed replays the same faces.
//! assert_eq!(SeededDice::new(42).roll(6).unwrap(), face);
//! ```

mod dist;
mod enumerate;
mod exploding;
mod faces;
mod fractions;
mod keep;
mod lane;
mod power;
mod source;
mod weights;
mod whole;
mod word;

/// True for an even face: the So1um games read even dice for creation, advancement and
/// disengage rolls.
pub fn is_even(face: u32) -> bool {
    face.is_multiple_of(2)
}

pub use dist::{Prob, prob, prob_to_f64};
pub use enumerate::{Enumeration, enumerate};
pub use faces::Faces;
pub use fractions::Fractions;
pub use source::{
    DiceError, DiceSource, MAX_SIDES, RecordingDice, ScriptedDice, SeededDice, SharedDice,
    TypedDice, parse_faces,
};
pub use weights::{Dense, Distribution, Pool, Weight};
pub use whole::deserialize_whole;
pub use word::{FacesError, ShorthandError, UnknownWord};
