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
    /// Characters: create by the rules, show, edit, advance, rest.
    #[command(subcommand, name = "char")]
    Character(CharCommand),
    /// Run a fight: a script of setup lines and commands, or interactively from standard
    /// input. `solum combat --help-lines` lists the line language.
    Combat(CombatArgs),
    /// Vehicle rolls: chase rolls, vehicle attacks and the scale rule.
    #[command(subcommand)]
    Vehicle(VehicleCommand),
    /// Play fast static combat round by round: the hero's pool against the opposition's
    /// difficulty, until one side is at 0.
    Static(PlayStaticArgs),
    /// Simulate many fights (seeded, parallel, reproducible) and report the win rate.
    Sim(SimArgs),
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
    /// Exact odds of a melee duel: opposed exchanges until one side is at 0 (draws repeat).
    Duel(DuelArgs),
    /// Exact odds of fast static combat: the hero's pool against a difficulty each round.
    Static(StaticArgs),
}

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// The first side's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub pool: i64,
    /// The first side's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub hp: i64,
    /// The first side's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub damage: i64,
    /// The foe's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_pool: i64,
    /// The foe's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_hp: i64,
    /// The foe's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_damage: i64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StaticArgs {
    /// The hero's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub pool: i64,
    /// The opposition's difficulty.
    #[arg(long, allow_hyphen_values = true)]
    pub vs: String,
    /// The hero's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub hp: i64,
    /// The hero's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub damage: i64,
    /// The opposition's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_hp: i64,
    /// The opposition's damage.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_damage: i64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Dice for a command that rolls: typed values or a seed.
#[derive(Debug, Clone, Args)]
pub struct DiceArgs {
    /// Dice rolled by hand, in the order the rules use them.
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// Seed of the generator, to replay exactly.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Debug, Subcommand)]
pub enum CharCommand {
    /// Create a hero by the rules: 3/2/1 to Body, Mind and Charm, 2d6 for backgrounds, 1d6
    /// for light armor, one light weapon. Asks for what the flags do not give.
    New(CharNewArgs),
    /// Show a character sheet with hit points and pools worked out.
    Show {
        /// The character file.
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Change a character sheet; the result is checked against the rules before it is saved.
    Edit(CharEditArgs),
    /// Advancement after an adventure: A, a new background (even d6), or B, raise an
    /// attribute (roll its dice, all even).
    Advance(CharAdvanceArgs),
    /// Rest: 1 hit point per half hour, up to the maximum.
    Rest {
        /// The character file.
        file: std::path::PathBuf,
        /// Hours of rest (1.5 is three half hours).
        #[arg(long, default_value_t = 0.5)]
        hours: f64,
    },
}

#[derive(Debug, Args)]
pub struct CharNewArgs {
    /// The hero's name.
    pub name: Option<String>,
    /// Body: 3, 2 or 1.
    #[arg(long)]
    pub body: Option<u32>,
    /// Mind: 3, 2 or 1.
    #[arg(long)]
    pub mind: Option<u32>,
    /// Charm: 3, 2 or 1.
    #[arg(long)]
    pub charm: Option<u32>,
    /// A background; repeat for the extra ones the 2d6 grant.
    #[arg(long = "background", short = 'b')]
    pub backgrounds: Vec<String>,
    /// The starting light weapon.
    #[arg(long)]
    pub weapon: Option<String>,
    /// The starting weapon shoots.
    #[arg(long)]
    pub ranged: bool,
    /// What the light armor is, if the d6 grants it.
    #[arg(long, default_value = "leather armor")]
    pub armor: String,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Where to save the sheet (default: NAME.toml).
    #[arg(long, short)]
    pub output: Option<std::path::PathBuf>,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CharEditArgs {
    /// The character file.
    pub file: std::path::PathBuf,
    /// Set Body, Mind or Charm: `body=3`.
    #[arg(long = "set", value_name = "ATTR=N")]
    pub set: Vec<String>,
    /// Add a background.
    #[arg(long)]
    pub add_background: Vec<String>,
    /// Remove a background.
    #[arg(long)]
    pub remove_background: Vec<String>,
    /// Add a weapon: `NAME:light|medium|heavy[:ranged]`.
    #[arg(long, value_name = "NAME:CLASS[:ranged]")]
    pub add_weapon: Vec<String>,
    /// Remove a weapon by name.
    #[arg(long)]
    pub remove_weapon: Vec<String>,
    /// Wear armor: `NAME:light|medium|heavy`.
    #[arg(long, value_name = "NAME:CLASS", conflicts_with = "no_armor")]
    pub armor: Option<String>,
    /// Take armor off.
    #[arg(long)]
    pub no_armor: bool,
    /// Add gear: `NAME:reroll|enables`.
    #[arg(long, value_name = "NAME:EFFECT")]
    pub add_gear: Vec<String>,
    /// Remove gear by name.
    #[arg(long)]
    pub remove_gear: Vec<String>,
    /// Set the money.
    #[arg(long)]
    pub money: Option<u32>,
    /// Replace the notes.
    #[arg(long)]
    pub notes: Option<String>,
    /// Take damage.
    #[arg(long)]
    pub damage: Option<u32>,
    /// Heal by other means (magic, medicine), up to the maximum.
    #[arg(long)]
    pub heal: Option<u32>,
}

#[derive(Debug, Args)]
pub struct CharAdvanceArgs {
    /// The character file.
    pub file: std::path::PathBuf,
    /// A: try for this new background.
    #[arg(
        long,
        conflicts_with = "attribute",
        required_unless_present = "attribute"
    )]
    pub background: Option<String>,
    /// B: try to raise body, mind or charm.
    #[arg(long)]
    pub attribute: Option<String>,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CombatArgs {
    /// A script of lines to run; without it, lines are read from standard input.
    pub script: Option<std::path::PathBuf>,
    /// Seed for every line without typed dice (`with …`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Extra bestiary files (TOML), added to the shipped one.
    #[arg(long)]
    pub bestiary: Vec<std::path::PathBuf>,
    /// Print events as JSON lines.
    #[arg(long)]
    pub json: bool,
    /// List the line language and stop.
    #[arg(long)]
    pub help_lines: bool,
}

/// A pilot and vehicle in a vehicle roll.
#[derive(Debug, Clone, Args)]
pub struct VehicleRollArgs {
    /// The pilot's pool (Mind + background).
    #[arg(long)]
    pub pilot: i64,
    /// The vehicle's speed: slow, average, fast, lightning-fast.
    #[arg(long, default_value = "average")]
    pub speed: String,
    /// The vehicle's handling: clumsy, average, responsive, exceptional.
    #[arg(long, default_value = "average")]
    pub handling: String,
    /// The other pilot's pool.
    #[arg(long)]
    pub against_pilot: i64,
    /// The other vehicle's speed.
    #[arg(long, default_value = "average")]
    pub against_speed: String,
    /// The other vehicle's handling.
    #[arg(long, default_value = "average")]
    pub against_handling: String,
    /// Dice rolled by hand for the first pilot: the pool, then the Rule-of-6 chain.
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// Dice rolled by hand for the other pilot.
    #[arg(long, value_name = "V1,V2,...")]
    pub against_rolled: Option<String>,
    /// Seed of the generator.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum VehicleCommand {
    /// A chase roll: +1 die for the faster vehicle, +1 for the better handling.
    Chase(VehicleRollArgs),
    /// A vehicle attack: +1 die for the better handling.
    Attack(VehicleRollArgs),
    /// The scale rule: what a personal weapon does to a vehicle.
    Scale {
        /// The personal weapon's damage (1 light, 2 medium, 3 heavy).
        #[arg(long)]
        weapon_damage: u32,
        /// The vehicle's size: car (up to a car or truck) or large.
        #[arg(long)]
        scale: String,
    },
}

#[derive(Debug, Args)]
pub struct PlayStaticArgs {
    /// The hero's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub pool: i64,
    /// The hero's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub hp: i64,
    /// The hero's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub damage: i64,
    /// An opposition from the bestiary's static entries (e.g. "trooper squad").
    #[arg(long, conflicts_with_all = ["vs", "foe_hp", "foe_damage"])]
    pub foe: Option<String>,
    /// The opposition's difficulty (without --foe).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "foe")]
    pub vs: Option<String>,
    /// The opposition's hit points (without --foe).
    #[arg(long, allow_negative_numbers = true, required_unless_present = "foe")]
    pub foe_hp: Option<i64>,
    /// The opposition's damage (without --foe).
    #[arg(long, allow_negative_numbers = true, required_unless_present = "foe")]
    pub foe_damage: Option<i64>,
    /// Extra bestiary files.
    #[arg(long)]
    pub bestiary: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SimArgs {
    /// A hero: a character file, a bestiary name, or `pool=N,hp=N,damage=N[,ranged=N][,mind=N]`;
    /// `*N` repeats it. Repeat the flag for more heroes.
    #[arg(long, required = true)]
    pub hero: Vec<String>,
    /// A foe, in the same forms (`orc*6`).
    #[arg(long, required = true)]
    pub foe: Vec<String>,
    /// Number of fights.
    #[arg(long, default_value_t = 100_000)]
    pub fights: u64,
    /// Seed (a fresh one is chosen and shown otherwise).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Alternative combat: opposed melee only, no ranges.
    #[arg(long)]
    pub alternative: bool,
    /// The heroes ambush: they act first, no initiative roll.
    #[arg(long, conflicts_with = "ambushed")]
    pub ambush: bool,
    /// The foes ambush the heroes.
    #[arg(long)]
    pub ambushed: bool,
    /// Extra bestiary files.
    #[arg(long)]
    pub bestiary: Vec<std::path::PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
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
