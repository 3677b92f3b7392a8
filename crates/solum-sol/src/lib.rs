//! The rules of Project Sol (rulings P1–P4).
//!
//! A test rolls a pool of d6 and counts **hits** (5 and 6; 3 to 6 with Push the Limit)
//! against a threshold or an opposing pool ([`test::roll_opposed`]). Half or more ones is a
//! glitch; a glitch with no hits on a failed test a critical glitch; three or more net hits a
//! critical success. The pool is attribute + skill ranks + one combined modifier whose bonus
//! is capped by the ranks (none at 0 ranks), never below one die. Edge is spent (one use per
//! test, perhaps after the dice are seen) or burnt; skills grow by progress points and
//! training.
//!
//! Exact odds ([`odds`]) use that every die ends in one of three states, hit, one or other,
//! independently of the others, even with Second Chance (a die that missed gets a second
//! try), so each quantity is a binomial sum over exact integers; the two sides of an opposed
//! test are independent, so its odds are sums over one side's hits of the other's.

pub mod advancement;
pub mod edge;
pub mod odds;
pub mod pool;
pub mod sheet;
pub mod test;
