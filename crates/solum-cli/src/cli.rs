//! The command-line interface, declared once: parsing, help, completions and the man page
//! all come from these types.

use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;

/// Rules, dice and exact odds for the So1um family of tabletop role-playing games.
///
/// Every roll shows every die and its exact chance; `--seed S` replays a roll, and
/// `--rolled 5,3,2` takes dice rolled by hand.
#[derive(Debug, Parser)]
#[command(
    name = "solum",
    version,
    propagate_version = true,
    max_term_width = 100
)]
#[command(
    after_help = "Exit codes: 0 the command ran (whatever the dice said), 1 internal or I/O error, 2 bad input."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll a So1um Expanded check: against a difficulty (--vs) or an opposing pool (--against).
    Check(CheckArgs),
    /// Exact odds, without rolling.
    #[command(subcommand)]
    Odds(OddsCommand),
    /// Print a shell completion script.
    Completions {
        /// The shell to complete for.
        shell: Shell,
    },
    /// Print the man page (roff) to standard output.
    Man,
}

#[derive(Debug, Subcommand)]
pub enum OddsCommand {
    /// Odds of a So1um Expanded check: a table of difficulties 2-12 and opposed pools, or
    /// one number with --vs or --against.
    Check(OddsCheckArgs),
}

/// How a pool is built from an attribute (ruling S1).
#[derive(Debug, Clone, Args)]
pub struct PoolArgs {
    /// The attribute rolled (Body, Mind or Charm): the number of dice before modifiers.
    #[arg(value_name = "ATTRIBUTE", allow_negative_numbers = true)]
    pub attribute: i64,
    /// One background applies: +1 die (never more than one).
    #[arg(short = 'b', long)]
    pub background: bool,
    /// Armor too heavy for the Body: -1 die.
    #[arg(long)]
    pub armor_too_heavy: bool,
    /// Attacking with a heavy weapon at Body below 3: -1 die.
    #[arg(long)]
    pub heavy_weapon: bool,
    /// Useful gear: reroll the lowest die once, when that can change the outcome.
    #[arg(short, long)]
    pub gear: bool,
}

/// What the check is against.
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct Against {
    /// Difficulty: a number from 1 (automatic) up, or very-easy, easy, average, tough, hard.
    #[arg(long, value_name = "DIFFICULTY", allow_hyphen_values = true)]
    pub vs: Option<String>,
    /// An opposed check against a pool of this many dice.
    #[arg(long, value_name = "POOL", allow_negative_numbers = true)]
    pub against: Option<i64>,
}

/// Options of the opposing side.
#[derive(Debug, Clone, Args)]
pub struct OpposingArgs {
    /// The opposing side has useful gear (one reroll of its lowest die).
    #[arg(long, requires = "against")]
    pub against_gear: bool,
    /// Settle draws with a roll-off of single dice instead of letting them stand.
    #[arg(long, requires = "against")]
    pub roll_off: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub pool: PoolArgs,
    #[command(flatten)]
    pub target: Against,
    #[command(flatten)]
    pub opposing: OpposingArgs,
    /// Dice rolled by hand, in the order the roll uses them: the pool, the gear reroll (if
    /// used), the Rule-of-6 chain (then roll-off dice).
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// The opposing side's dice rolled by hand, in the same order.
    #[arg(long, value_name = "V1,V2,...", requires = "against")]
    pub against_rolled: Option<String>,
    /// Seed of the generator, to replay a roll exactly (a fresh seed is chosen and shown
    /// otherwise).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct OddsCheckArgs {
    #[command(flatten)]
    pub pool: PoolArgs,
    /// Difficulty: one number, or a name. Without it (and without --against), a table.
    #[arg(
        long,
        value_name = "DIFFICULTY",
        conflicts_with = "against",
        allow_hyphen_values = true
    )]
    pub vs: Option<String>,
    /// Odds of an opposed check against a pool of this many dice.
    #[arg(long, value_name = "POOL", allow_negative_numbers = true)]
    pub against: Option<i64>,
    #[command(flatten)]
    pub opposing: OpposingArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
