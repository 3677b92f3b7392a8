//! The rules of the original So1um (rulings C1, C2), by Matt Jackson.
//!
//! Three stats (Body, Mind, Spirit), each the number of even dice in 3d6 (at least 1); hit
//! points are Body plus the even dice of 2d6; clichés are 1 plus the even dice of 2d6. A
//! check rolls the stat's dice (one more for an applicable cliché) and passes when one die
//! reaches the difficulty (no Rule of 6 in this edition). In combat both sides roll; the
//! high roll takes one hit point from the other, or the loser gives up a point of Body
//! instead; at 0 Body or 0 hit points the loser dies.
//!
//! Exact duel odds ([`duel`]) solve the Markov chain over both sides' hit points and Body,
//! since losing Body shrinks a side's dice.

pub mod check;
pub mod duel;
pub mod fight;
pub mod hero;
pub mod oracle;

pub use hero::{Book, Hero, SHIPPED};
