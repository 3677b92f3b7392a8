//! The rules of So1um Expanded Edition.
//!
//! Every rule is a plain function over plain types. Randomness comes in through
//! [`solum_dice::DiceSource`], and outcomes come back as data that show every die:
//! the pool as rolled, the gear reroll, the Rule-of-6 chain and the verdict. The CLI, the
//! web table and the journal all render the same outcome values.
//!
//! The exact odds in [`odds`] are closed forms of the same rules. They are tested against
//! exhaustive enumeration of the roll functions in [`check`] (with [`solum_dice::enumerate`])
//! and against seeded simulation, so the odds and the roll cannot drift apart.
//!
//! ```
//! use solum_dice::TypedDice;
//! use solum_expanded::{Difficulty, Pool, check::{CheckSpec, roll_check}, odds::p_pass};
//! // Nick climbs the tower: Body 3 + background, difficulty 5, rolls 5, 3, 2, 2.
//! let spec = CheckSpec::new(Pool::new(4).unwrap(), Difficulty::new(5).unwrap());
//! let outcome = roll_check(&spec, &mut TypedDice::new([5, 3, 2, 2])).unwrap();
//! assert!(outcome.passed);
//! assert_eq!(outcome.result, 5);
//! assert!(p_pass(&spec) > num_traits::Zero::zero());
//! ```

pub mod character;
pub mod check;
pub mod combat;
pub mod creature;
pub mod fight;
pub mod line;
pub mod odds;
pub mod oracle;
mod pool;
pub mod tactic;
pub mod vehicle;

pub use pool::{
    Difficulty, MAX_DIFFICULTY, MAX_POOL, MAX_POOL_ATTRIBUTE, Penalty, Pool, PoolSpec, RulesError,
};
