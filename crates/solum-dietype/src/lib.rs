//! The rules of Solum die types (rulings D1–D3).
//!
//! One die, d4 to d12, against a difficulty from 2 to 12. Every skill roll **explodes**: a
//! die showing its maximum is not counted but becomes two new dice of the same type, again
//! and again; the result is the sum of the faces that are not the maximum. Skill gives more
//! chances (1 to 4 rolls); the **quality** of a success is the number of chances that reach
//! the difficulty. In an opposed roll the higher best result wins and its quality counts the
//! chances that beat the loser's best.
//!
//! Exact odds: the value `X` of one exploding dN satisfies `P(X=k) = [k<N]/N + (1/N) Σ
//! P(X=i) P(X=k−i)`; with `W_k = P(X=k)·N^(2k−1)` that is the integer recurrence `W_k =
//! [k<N] N^(2k−2) + Σ W_i W_{k−i}`, computed once per die type and cached. A difficulty up to
//! 12 needs only `k < 12`, so success and quality odds are exact with no truncation; the full
//! distribution (for opposed rolls) is truncated where the neglected mass drops below 1e-12,
//! and says so.

mod die;
pub mod odds;
mod roll;
pub mod sheet;
pub mod tables;

pub use die::{DieType, DieTypeError, difficulty_name, quality_name};
pub use roll::{
    ChanceRoll, DamageRoll, OpposedRoll, RollSpec, SkillRoll, explode, opposed_side, roll_damage,
    roll_opposed, roll_opposed_damage, roll_skill,
};
