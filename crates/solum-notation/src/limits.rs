//! The limits that keep every expression quick, checked before any work starts (the work
//! budget is also counted as the work goes, so nothing can run for ever).

/// The most bytes an expression may have.
pub const MAX_LEN: usize = 1000;
/// The deepest nesting of parentheses and function calls.
pub const MAX_DEPTH: usize = 32;
/// The most dice one expression rolls (summed over its terms, the So1um pools included;
/// explosions and rerolls come on top, bounded by the next two limits).
pub const MAX_DICE: u32 = 1000;
/// The most sides a die may have (the dice core's limit).
pub const MAX_SIDES: u32 = solum_dice::MAX_SIDES;
/// A die explodes at most this many times; a face that would explode once more is kept as
/// it is. This is part of the rule, so rolls and exact odds agree and the odds are exact.
pub const MAX_EXPLOSIONS: u32 = 20;
/// A die rerolled with `r` (until) this many times stops the roll with an error. Only typed
/// dice or astronomically bad luck get there: a reroll whose chance of reaching it is over
/// [`MAX_REROLL_FAILURE`] is refused before any work, for the roll and the odds alike.
pub const MAX_REROLLS: u32 = 200;
/// The largest chance, allowed for an `r` (reroll until), that one die needs more than
/// [`MAX_REROLLS`] rerolls: one in 10^12.
pub const MAX_REROLL_FAILURE: f64 = 1e-12;
/// The most distinct values an exact distribution may have at any step.
pub const MAX_SUPPORT: u64 = 100_000;
/// The widest range of numbers an exact distribution may spread over (the engine holds a
/// weight for every number between its lowest and highest value).
pub const MAX_RANGE: u64 = 2_000_000;
/// The most elementary steps exact odds may take, estimated before the work starts from the
/// count of the values and the bits of their weights (a sum of dice costs its values times
/// the bits of its denominator, a kept pool its states, a pair of values the product of
/// their weights' words): set so that what is allowed takes well under a second in a release
/// build. One budget for a whole command: the expressions of one `solum odds` share it.
pub const MAX_WORK: u64 = 20_000_000;
/// The most bytes exact odds may hold at once, estimated before the work starts (the
/// weights of every distribution held, the pairs of a `*` or `max` before they are summed).
pub const MAX_BYTES: u64 = 200_000_000;
/// The largest number that may be written.
pub const MAX_NUMBER: i64 = 1_000_000;
/// The longest label.
pub const MAX_LABEL: usize = 60;
/// The most dice a Sol'una term may have for exact odds (the rules crate's limit).
pub const MAX_UNA_EXACT: u32 = solum_soluna::odds::MAX_EXACT_DICE;
