//! Dice notation for the So1um family: what players type on Roll20, Foundry or a Discord
//! bot (`4d6kh3`, `3d6! + 2 [fire]`, `8d10>=7f1`), with the family's mechanics as terms of
//! the language (`solum(3, vs 7)`, `dt(d8)`, `sol(8)`, `una(5, +2)`).
//!
//! An expression is parsed once ([`parse`]) and then either rolled ([`roll()`], every die
//! kept) or computed exactly ([`distribution`]). Both come from one definition per term:
//! a dice term's die is one state machine (see the `die` module) that the roll runs on
//! faces from a [`solum_dice::DiceSource`] and the odds run on every face; the So1um terms
//! call their rules crate's roll function and its exact odds. Every limit in [`limits`] is
//! checked before work starts, so no expression hangs or exhausts memory.
//!
//! ```
//! use solum_dice::{TypedDice, prob};
//! let e = solum_notation::parse("4d6kh3").unwrap();
//! let rolled = solum_notation::roll(&e, &mut TypedDice::new([6, 1, 4, 3])).unwrap();
//! assert_eq!(rolled.total, 13);
//! let d = solum_notation::distribution(&solum_notation::parse("3d6").unwrap()).unwrap();
//! assert_eq!(d.p_eq(10), prob(27, 216));
//! ```

pub mod ast;
mod die;
mod error;
pub mod estimate;
mod exact;
pub mod limits;
mod odds;
mod parse;
mod roll;
mod validate;

pub use ast::{Expr, ExprKind, Span};
pub use die::{DieRoll, Face};
pub use error::NotationError;
pub use exact::{Work, distribution, distribution_with};
pub use odds::{Odds, Row, odds, odds_with};
pub use parse::parse;
pub use roll::{MAX_FACES, Rolled, TermRoll, roll};
