//! The command-line interface, declared once: parsing, help, completions and the man page
//! all come from these types.

use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;
use solum_app::characters::StartingAttribute;
use solum_app::check_once::CheckAttribute;
use solum_app::classic_once::{
    ClassicDamage, ClassicDifficulty, ClassicPool, DuelStat, Policy, Stat,
};
use solum_app::dietype_once::{Chances, DamageModifier, DieSteps, Difficulty};
use solum_app::fight_once::{CombatPool, Damage, HitPoints};
use solum_app::sol_once::{AssistHits, PoolModifier, Ranks, SolAttribute, SolDice};
use solum_app::soluna_once::{ExactSolunaPool, Flips, NetFlips, SolunaPool};

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
    /// The campaign, typed before the subcommand; clap hands it to the command's own
    /// `--campaign` (the same definition), so commands read only theirs.
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll a So1um Expanded check: against a difficulty (--vs) or an opposing pool (--against).
    Check(CheckArgs),
    /// Exact odds, without rolling: of dice notation (`solum odds 4d6kh3 "3d6 + 2"`), or of a
    /// rule with a subcommand.
    Odds(OddsArgs),
    /// Characters: create by the rules, show, edit, advance, rest.
    #[command(subcommand, name = "char")]
    Character(CharCommand),
    /// Run a fight: a script of setup lines and commands, or interactively from standard
    /// input. `solum combat --help-lines` lists the line language.
    Combat(CombatArgs),
    /// The campaign's own creatures for combat: add from a bestiary file, list, show, remove.
    #[command(subcommand)]
    Creature(CreatureCommand),
    /// Vehicle rolls: chase rolls, vehicle attacks and the scale rule.
    #[command(subcommand)]
    Vehicle(VehicleCommand),
    /// Play fast static combat round by round: the hero's pool against the opposition's
    /// difficulty, until one side is at 0.
    Static(PlayStaticArgs),
    /// Simulate many fights (seeded, parallel, reproducible) and report the win rate.
    Sim(SimArgs),
    /// Roll dice notation (`solum roll 4d6kh3`, `solum roll "2d6 + 3 [fire]"`), or a test of
    /// a sibling system with a subcommand: Solum die types, Project Sol, Sol'una.
    Roll(RollArgs),
    /// The original So1um: heroes, checks, the oracle, fights, the bestiary.
    #[command(subcommand)]
    Classic(ClassicCommand),
    /// Project Sol characters: tests that spend Edge and earn progress, refresh, training.
    #[command(subcommand)]
    Sol(SolCommand),
    /// Sol'una characters in the campaign, and skirmishes across the ten phases of a turn.
    #[command(subcommand)]
    Soluna(SolunaCommand),
    /// Solum die-type characters in the campaign (roll them with `roll dietype --char`).
    #[command(subcommand)]
    Dietype(DietypeCommand),
    /// Ask the solo oracle a yes/no question (journaled in the campaign).
    Ask(crate::cli_campaign::AskArgs),
    /// Write a note in the campaign's journal.
    Note(crate::cli_campaign::NoteArgs),
    /// Scenes of the campaign: start one with its goal, end it, show the open one.
    #[command(subcommand)]
    Scene(crate::cli_campaign::SceneCommand),
    /// The campaign's journal: show, export (Markdown or JSON), verify every roll, import.
    #[command(subcommand)]
    Journal(crate::cli_campaign::JournalCommand),
    /// Draw idea words from a genre list or your own list (journaled in the campaign).
    Idea(crate::cli_campaign::IdeaArgs),
    /// Show or set which oracle the campaign's `ask` uses: expanded or classic.
    Oracle(crate::cli_campaign::OracleArgs),
    /// Show or set the campaign's roll-off option (S3, S14): `on` rolls off the draws of every
    /// opposed roll (checks from sheets, their odds, the combat tracker), `off` lets them stand.
    RollOff(crate::cli_campaign::RollOffArgs),
    /// Roll the original So1um's random difficulty for a task (journaled in the campaign).
    Difficulty(crate::cli_campaign::DifficultyArgs),
    /// The solo companion: an interactive session over the campaign (`help` lists the
    /// commands). Reads piped standard input line by line too.
    Play(crate::cli_campaign::PlayArgs),
    /// Tables of the web table: `table new NAME` makes one and prints its game master's
    /// invite link (for a hosted campaign: see docs/hosting.md).
    #[command(subcommand)]
    Table(TableCommand),
    /// Serve the web table: the page and its JSON API over the campaign, on
    /// 127.0.0.1:7373 unless --addr says otherwise. Stop with Ctrl-C.
    Serve(ServeArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell to complete for.
        shell: Shell,
    },
    /// Print the man page (roff) to standard output.
    Man,
}

/// `solum odds EXPR…` or `solum odds SUBCOMMAND`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct OddsArgs {
    #[command(subcommand)]
    pub command: Option<OddsCommand>,
    #[command(flatten)]
    pub notation: NotationOddsArgs,
}

/// Exact odds of dice notation (see docs/notation.md).
#[derive(Debug, Args)]
pub struct NotationOddsArgs {
    /// Dice notation, one expression per argument (quote one with spaces): `4d6kh3`,
    /// `"3d6! + 2"`, `8d10>=7f1`, `solum(3, vs 7)`, `dt(d8)`, `sol(8)`, `una(5, +2)`.
    #[arg(required = true, value_name = "EXPR")]
    pub exprs: Vec<String>,
    /// Print JSON: an object with `distribution` (value → probability), `mean`, `sd`; a list
    /// of them for several expressions.
    #[arg(long)]
    pub json: bool,
    /// Draw the distributions, overlaid, into FILE.svg or FILE.png (a new file; written
    /// safely: never through a symbolic link, never into a pipe or device).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
    /// Replace the --plot file if it exists (a read-only file is still refused).
    #[arg(long, requires = "plot")]
    pub force: bool,
}

/// `solum roll EXPR` or `solum roll SUBCOMMAND`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct RollArgs {
    #[command(subcommand)]
    pub command: Option<RollCommand>,
    #[command(flatten)]
    pub notation: NotationRollArgs,
}

/// Roll dice notation (see docs/notation.md).
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("notation_dice").args(["rolled", "seed"])))]
pub struct NotationRollArgs {
    /// Dice notation: `4d6kh3`, `"2d6 + 3 [fire]"`, `3d6!`, `solum(3, vs 7)`, … Several words
    /// are joined with spaces.
    #[arg(required = true, value_name = "EXPR")]
    pub expr: Vec<String>,
    /// Dice rolled by hand: each die's face, then its rerolls and explosions, left to right
    /// (`--json` lists them as `dice`).
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// Seed of the generator, to replay exactly.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON: `total`, `dice` as rolled, `seed`, and the breakdown per term.
    #[arg(long)]
    pub json: bool,
    /// Keep the roll in the campaign's journal (`journal verify` re-derives it); implied by
    /// `--campaign FILE`.
    #[arg(long)]
    pub journal: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

impl Command {
    /// Whether the command may use a campaign: the global `--campaign` is refused by the
    /// others (odds, vehicle rolls, static combat, simulations, completions, the man page).
    pub fn keeps_campaign(&self) -> bool {
        match self {
            Self::Odds(_)
            | Self::Vehicle(_)
            | Self::Sim(_)
            | Self::Completions { .. }
            | Self::Man => false,
            // A check uses the campaign only from a campaign character's sheet.
            Self::Check(a) => a.pool.character.is_some(),
            // Fast static combat keeps a campaign character's fight (S11), and only that.
            Self::Static(a) => a.character.is_some(),
            // Sol and Sol'una rolls keep nothing; a die-type roll only from a character.
            Self::Roll(RollArgs {
                command: Some(RollCommand::Sol(_) | RollCommand::Soluna(_)),
                ..
            }) => false,
            Self::Roll(RollArgs {
                command: Some(RollCommand::Dietype(a)),
                ..
            }) => a.character.is_some(),
            // The original's oracle and book are not journaled (`ask --classic` is).
            Self::Classic(ClassicCommand::Oracle { .. } | ClassicCommand::Bestiary { .. }) => false,
            // The shipped bestiary and files (a campaign's is `creature list`).
            Self::Character(CharCommand::Bestiary { .. }) => false,
            // A hero saved to a file (-o) is not added to the campaign.
            Self::Classic(ClassicCommand::New(a)) if a.output.is_some() => false,
            // Listing the genres draws nothing.
            Self::Idea(a) => !a.genres,
            _ => true,
        }
    }
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
    /// Solum die types: success and quality of a skill roll, opposed rolls, the printed
    /// tables recomputed (--tables).
    Dietype(DietypeOddsArgs),
    /// Project Sol: hits, success, glitches and critical results of a test.
    Sol(SolOddsArgs),
    /// Sol'una: the distribution of the largest group after net flips.
    Soluna(SolunaOddsArgs),
    /// The original So1um: checks and duels.
    #[command(subcommand)]
    Classic(ClassicOddsCommand),
}

/// A Solum die-type roll, alone or opposed.
#[derive(Debug, Args)]
pub struct DietypeArgs {
    /// Chances (1 unskilled to 4).
    #[arg(long, default_value = "1", allow_negative_numbers = true)]
    pub chances: Chances,
    /// Difficulty, 2 to 12 (not in an opposed roll: the other side's roll is the target).
    #[arg(
        long,
        default_value = "4",
        allow_negative_numbers = true,
        conflicts_with = "against"
    )]
    pub vs: Difficulty,
    /// Die-type steps, -8 to 8: +1 is one type better (+1DT), -1 one worse; d4 to d12 at most.
    #[arg(long, default_value_t, allow_negative_numbers = true)]
    pub step: DieSteps,
    /// An opposed roll against this die type.
    #[arg(long)]
    pub against: Option<String>,
    /// The opposing side's chances.
    #[arg(
        long,
        default_value = "1",
        allow_negative_numbers = true,
        requires = "against"
    )]
    pub against_chances: Chances,
    /// The opposing side's die-type steps, -8 to 8 (+1DT, -1DT), clamped to d4..d12.
    #[arg(
        long,
        default_value_t,
        allow_negative_numbers = true,
        requires = "against"
    )]
    pub against_step: DieSteps,
}

#[derive(Debug, Args)]
pub struct DietypeOddsArgs {
    /// The die type: d4, d6, d8, d10 or d12.
    pub die: Option<String>,
    #[command(flatten)]
    pub roll: DietypeArgs,
    /// Print the text's probability tables, each printed number beside the exact one.
    #[arg(long, conflicts_with_all = ["die", "against", "chances", "vs", "step"])]
    pub tables: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Edge used on a Project Sol test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EdgeUse {
    /// Spend: 3 to 6 are hits.
    PushTheLimit,
    /// Spend: reroll the dice that are not hits.
    SecondChance,
    /// Spend: negate a glitch, or make a critical glitch a glitch.
    CloseCall,
    /// Burn: succeed with four net hits.
    Smackdown,
}

#[derive(Debug, Args)]
pub struct SolOddsArgs {
    /// Dice in the pool, 1 to 1000; exact odds, opposed ones included, answer within a second.
    #[arg(long, allow_negative_numbers = true)]
    pub dice: SolDice,
    /// Threshold: a number or simple, average, difficult, very-difficult, formidable, absurd.
    #[arg(long, default_value = "1")]
    pub threshold: String,
    /// Push the Limit: 3 to 6 are hits.
    #[arg(long, conflicts_with_all = ["second_chance", "close_call", "smackdown"])]
    pub push_the_limit: bool,
    /// Second Chance: reroll the dice that are not hits.
    #[arg(long, conflicts_with_all = ["close_call", "smackdown"])]
    pub second_chance: bool,
    /// Close Call: negate a glitch.
    #[arg(long, conflicts_with = "smackdown")]
    pub close_call: bool,
    /// Smackdown (burnt Edge): success with four net hits, no roll.
    #[arg(long)]
    pub smackdown: bool,
    /// An opposed test against a defender's pool (the attacker wins ties).
    #[arg(long, allow_negative_numbers = true)]
    pub against: Option<SolDice>,
    /// Edge the defender uses in the opposed test.
    #[arg(long, value_enum, requires = "against")]
    pub against_edge: Option<EdgeUse>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Edge chosen after the dice are seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Then {
    /// Reroll every die that is not a hit (spent only if one is not).
    SecondChance,
    /// Negate a glitch or make a critical glitch a glitch (spent only on a glitch).
    CloseCall,
    /// Keep the roll.
    None,
}

/// What a Sol'una test is aimed at: a target number, or armour for damage.
#[derive(Debug, Args)]
pub struct SolunaTarget {
    /// A target number to reach.
    #[arg(long)]
    pub tn: Option<u32>,
    /// The target's Body (armour against every attack), for damage.
    #[arg(long)]
    pub body: Option<u32>,
    /// The target's Shield (ignored in melee); needs --body, as damage does.
    #[arg(long, default_value_t = 0, requires = "body")]
    pub shield: u32,
    /// A melee attack: the Shield does not count; needs --body, as damage does.
    #[arg(long, requires = "body")]
    pub melee: bool,
}

#[derive(Debug, Args)]
pub struct SolunaOddsArgs {
    /// Dice in the pool, 1 to 40 for exact odds (`roll soluna` rolls up to 1000).
    #[arg(long, allow_negative_numbers = true)]
    pub dice: ExactSolunaPool,
    /// Net flips, -1000 to 1000: positive for the tester, negative against.
    #[arg(long, default_value = "0", allow_negative_numbers = true)]
    pub flips: NetFlips,
    #[command(flatten)]
    pub target: SolunaTarget,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum ClassicOddsCommand {
    /// Exact chance to pass a check.
    Check {
        /// Dice (the stat, +1 for a cliché), 1 to 1000.
        #[arg(allow_negative_numbers = true)]
        pool: ClassicPool,
        /// Difficulty, 1 to 6 or a name.
        #[arg(long, allow_hyphen_values = true)]
        vs: ClassicDifficulty,
        /// Gear rerolls one die (outside combat).
        #[arg(long)]
        gear: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Exact chance to kill a foe in a duel, hit point by hit point (and Body by Body).
    Duel(ClassicDuelArgs),
}

#[derive(Debug, Args)]
pub struct ClassicDuelArgs {
    /// Your Body: your combat dice (`--pool` says the same), 1 to 30.
    #[arg(long, visible_alias = "pool", allow_negative_numbers = true)]
    pub body: DuelStat,
    /// Your hit points, 1 to 30.
    #[arg(long, allow_negative_numbers = true)]
    pub hp: DuelStat,
    /// A cliché applies: +1 die.
    #[arg(long)]
    pub cliche: bool,
    /// Fight with another stat of this value (Mind for a spell, Spirit for a mind duel):
    /// your dice no longer shrink with Body. 1 to 30.
    #[arg(long, allow_negative_numbers = true)]
    pub stat_dice: Option<DuelStat>,
    /// How you take hits: survive (default), hit-points, body.
    #[arg(long, default_value = "survive")]
    pub policy: Policy,
    /// A monster (or sample hero) of the book: goblin, troll, owlbear...
    #[arg(long, conflicts_with_all = ["foe_body", "foe_hp"])]
    pub monster: Option<String>,
    /// The foe's Body (`--foe-pool` says the same), 1 to 30.
    #[arg(
        long,
        requires = "foe_hp",
        visible_alias = "foe-pool",
        allow_negative_numbers = true
    )]
    pub foe_body: Option<DuelStat>,
    /// The foe's hit points, 1 to 30.
    #[arg(long, requires = "foe_body", allow_negative_numbers = true)]
    pub foe_hp: Option<DuelStat>,
    /// A cliché helps the foe.
    #[arg(long)]
    pub foe_cliche: bool,
    /// The monster's stat in this fight: body, mind or spirit (default: its entry's own,
    /// else Body).
    // `requires` alone lets it pass beside --foe-body, which conflicts with --monster.
    #[arg(long, requires = "monster", conflicts_with_all = ["foe_body", "foe_hp", "foe_stat_dice"])]
    pub foe_stat: Option<Stat>,
    /// The foe fights with another stat of this value (with --foe-body and --foe-hp), 1 to
    /// 30.
    #[arg(long, conflicts_with = "monster", allow_negative_numbers = true)]
    pub foe_stat_dice: Option<DuelStat>,
    /// How the foe takes hits.
    #[arg(long, default_value = "survive")]
    pub foe_policy: Policy,
    /// Damage per won exchange: always 1 in the original So1um (accepted for the style of
    /// `solum odds duel`).
    #[arg(long, default_value = "1", allow_negative_numbers = true)]
    pub damage: ClassicDamage,
    /// The foe's damage per won exchange: always 1.
    #[arg(long, default_value = "1", allow_negative_numbers = true)]
    pub foe_damage: ClassicDamage,
    /// Also fight this many duels on the fight state machine and show the rate won.
    #[arg(long)]
    pub simulate: Option<u32>,
    /// Seed of the simulation, to replay exactly.
    #[arg(long, requires = "simulate")]
    pub seed: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum RollCommand {
    /// Solum die types: a skill roll (chances against a difficulty), or opposed.
    Dietype(DietypeRollArgs),
    /// Project Sol: a test against a threshold, with Edge.
    Sol(SolRollArgs),
    /// Sol'una: a largest-group test with flips, damage or a target number.
    Soluna(SolunaRollArgs),
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("dice_source").args(["rolled", "seed"])))]
#[command(group(clap::ArgGroup::new("damage_source").args(["damage", "weapon"])))]
pub struct DietypeRollArgs {
    /// The die type: d4, d6, d8, d10 or d12 (not with --char: the sheet gives it).
    #[arg(required_unless_present = "character", conflicts_with = "character")]
    pub die: Option<String>,
    /// A campaign character: the die comes from --ability, the chances from --skill
    /// (journaled).
    #[arg(long = "char", value_name = "NAME", conflicts_with_all = ["chances", "damage"], requires = "ability")]
    pub character: Option<String>,
    /// The character's ability whose die type is rolled.
    #[arg(long, requires = "character")]
    pub ability: Option<String>,
    /// The character's skill whose chances are used (none: one chance).
    #[arg(long, requires = "character")]
    pub skill: Option<String>,
    /// On a success, the damage of the character's weapon (its die and modifier).
    #[arg(long, requires = "character")]
    pub weapon: Option<String>,
    #[command(flatten)]
    pub roll: DietypeArgs,
    /// On a success (or an opposed win), roll damage: one die of this type per point of
    /// quality.
    #[arg(long)]
    pub damage: Option<String>,
    /// Die-type steps on the damage die (--damage or --weapon), -8 to 8: -1 for armour
    /// (-1DT), clamped to d4..d12.
    #[arg(
        long,
        default_value_t,
        allow_negative_numbers = true,
        requires = "damage_source"
    )]
    pub damage_step: DieSteps,
    /// Flat damage modifier, -4 to +4.
    #[arg(
        long,
        default_value_t,
        allow_negative_numbers = true,
        requires = "damage"
    )]
    pub modifier: DamageModifier,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("dice_source").args(["rolled", "seed"])))]
pub struct SolRollArgs {
    /// Dice in the pool, 1 to 1000 (or build it with --attribute and --ranks).
    #[arg(
        long,
        allow_negative_numbers = true,
        required_unless_present = "attribute",
        conflicts_with_all = ["attribute", "ranks", "modifiers", "untrained_penalty", "assist", "assist_dice"]
    )]
    pub dice: Option<SolDice>,
    /// The attribute, 0 to 1000.
    #[arg(long, allow_negative_numbers = true)]
    pub attribute: Option<SolAttribute>,
    /// Skill ranks, 0 to 1000 (bonuses are capped by them).
    #[arg(long, allow_negative_numbers = true)]
    pub ranks: Option<Ranks>,
    /// A bonus or penalty, -1000 to 1000; repeat for several (they combine, then the cap
    /// applies).
    #[arg(long = "modifier", allow_negative_numbers = true)]
    pub modifiers: Vec<PoolModifier>,
    /// The skill has an untrained penalty (3 dice when defaulting).
    #[arg(long)]
    pub untrained_penalty: bool,
    /// Threshold: a number or a name. Without it, the hits are just counted.
    #[arg(long)]
    pub threshold: Option<String>,
    /// Edge used on the test.
    #[arg(long, value_enum)]
    pub edge: Option<EdgeUse>,
    /// Edge chosen after seeing the dice (at a terminal, asked when not given).
    #[arg(long, value_enum, conflicts_with_all = ["edge", "buy", "group", "try_again", "against_dice"])]
    pub then: Option<Then>,
    /// An assistant's hits: bonus dice, capped with the other bonuses by the ranks.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "assist_dice")]
    pub assist: Option<AssistHits>,
    /// An assistant rolls its own test of this many dice first; its hits are bonus dice,
    /// capped with the other bonuses by the ranks.
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["group", "buy", "try_again", "against_dice"])]
    pub assist_dice: Option<SolDice>,
    /// A group action: the other participants' pools (e.g. 4,3,5), at most 99 (100 with the
    /// leader); the best hits stand, the leader takes a Level 1 wound for each participant
    /// with no hits. Beyond 20 members the text sums up the rest (--json lists all).
    #[arg(long, value_name = "POOL,POOL,...")]
    pub group: Option<String>,
    /// Buy hits instead of rolling: one per full four dice.
    #[arg(long, conflicts_with = "edge")]
    pub buy: bool,
    /// Try Again: on a failure, roll again with 2 dice fewer (a penalty combined with the
    /// modifiers), until a success or the pool would drop to 0.
    #[arg(long, requires = "threshold", conflicts_with_all = ["edge", "group", "buy"])]
    pub try_again: bool,
    /// An opposed test against a defender's pool (the attacker wins ties).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["threshold", "group", "buy", "try_again"])]
    pub against_dice: Option<SolDice>,
    /// Edge the defender uses in the opposed test.
    #[arg(long, value_enum, requires = "against_dice")]
    pub against_edge: Option<EdgeUse>,
    /// The defender's dice rolled by hand: its pool, then its Second Chance rerolls.
    #[arg(long, value_name = "V1,V2,...", requires = "against_dice")]
    pub against_rolled: Option<String>,
    #[command(flatten)]
    pub roll: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("dice_source").args(["rolled", "seed"])))]
pub struct SolunaRollArgs {
    /// Dice in the pool, 1 to 1000; flips beyond 20 are counted, not listed (--json lists all).
    #[arg(long, allow_negative_numbers = true)]
    pub dice: SolunaPool,
    /// The tester's positive flips, 0 to 1000.
    #[arg(long, default_value = "0", allow_negative_numbers = true)]
    pub flips: Flips,
    /// The target's negative flips, 0 to 1000.
    #[arg(long, default_value = "0", allow_negative_numbers = true)]
    pub against_flips: Flips,
    #[command(flatten)]
    pub target: SolunaTarget,
    #[command(flatten)]
    pub roll: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum ClassicCommand {
    /// Create a hero in the campaign (or a file with -o): 3d6 each for Body, Mind, Spirit
    /// (even dice), 2d6 for hit points, 2d6 for clichés.
    #[command(group(clap::ArgGroup::new("classic_dice").args(["rolled", "seed"])))]
    New(ClassicNewArgs),
    /// Show a hero of the campaign, a hero file, or a sample hero or monster of the book.
    Show {
        /// A campaign hero, a hero file (.toml), or a name from the book.
        who: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// List the campaign's heroes.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Add a hero file (TOML) to the campaign.
    Import {
        /// The hero file.
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Print a campaign hero as a hero file (TOML).
    Export {
        /// The hero's name.
        name: String,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// List the book: sample heroes, monsters and clichés.
    Bestiary {
        /// Print JSON (what `GET /api/classic/book` answers).
        #[arg(long)]
        json: bool,
    },
    /// Roll a check: stat dice (+1 for a cliché) against a difficulty.
    #[command(group(clap::ArgGroup::new("classic_dice").args(["rolled", "seed"])))]
    Check(ClassicCheckArgs),
    /// Give a campaign hero gear, or take it away, or write its notes (journaled): gear lets
    /// a check reroll one die once (`classic check HERO --gear PIECE`).
    #[command(group(clap::ArgGroup::new("classic_edit").args(["add_gear", "remove_gear", "notes"]).multiple(true).required(true)))]
    Edit {
        /// The campaign hero.
        name: String,
        /// A piece of gear to give (repeat; at most 20 on a sheet, 100 characters a name).
        #[arg(long = "add-gear", value_name = "PIECE")]
        add_gear: Vec<String>,
        /// A piece of gear to take away (repeat).
        #[arg(long = "remove-gear", value_name = "PIECE")]
        remove_gear: Vec<String>,
        /// The hero's notes, replacing the ones it has (at most 4,000 characters; one change
        /// a command, so not with gear).
        #[arg(long, conflicts_with_all = ["add_gear", "remove_gear"])]
        notes: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Ask the oracle a yes/no question.
    #[command(group(clap::ArgGroup::new("classic_dice").args(["rolled", "seed"])))]
    Oracle {
        /// The question (kept in the output).
        question: Vec<String>,
        /// Best of 2d6 (a cliché or an advantage).
        #[arg(long, conflicts_with = "disadvantage")]
        advantage: bool,
        /// Worst of 2d6.
        #[arg(long)]
        disadvantage: bool,
        #[command(flatten)]
        dice: DiceArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fight to the death, exchange by exchange; with several foes each makes one attack on
    /// its turn. The loser of an exchange loses a hit point or, by choice, a point of Body
    /// (asked with --ask or at a terminal; otherwise by policy). A campaign hero's fight is
    /// kept in the campaign: without --policy it stops at each hit the hero takes, and
    /// `classic fight HERO --decide body|hp` answers it and goes on (any later process);
    /// typed dice that run out leave it waiting for `classic fight HERO --rolled …` (or
    /// `--seed N`); `--abandon` ends it (the hero flees), `--status` shows it.
    #[command(group(clap::ArgGroup::new("classic_dice").args(["rolled", "seed"])))]
    Fight(ClassicFightArgs),
    /// Rest: 1 hit point per 8 hours, 1 Body per day; hours add up on the sheet across rests.
    Rest {
        /// A campaign hero, or a hero file (.toml).
        file: String,
        /// Hours of rest (fractions allowed: 1.5).
        #[arg(long, allow_negative_numbers = true)]
        hours: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// `solum classic new`.
#[derive(Debug, Args)]
pub struct ClassicNewArgs {
    /// The hero's name.
    pub name: String,
    /// A cliché; repeat for the extra ones the 2d6 grant.
    #[arg(long = "cliche", short = 'c')]
    pub cliches: Vec<String>,
    /// Save a hero file here instead of adding the hero to the campaign.
    #[arg(long, short)]
    pub output: Option<std::path::PathBuf>,
    /// Replace an existing file (with -o).
    #[arg(long, requires = "output")]
    pub force: bool,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// `solum classic check`.
#[derive(Debug, Args)]
pub struct ClassicCheckArgs {
    /// Dice, or a hero who rolls a stat: a campaign hero (journaled), a .toml file or a
    /// name from the book.
    pub pool: String,
    /// The hero's stat: body (default), mind or spirit.
    #[arg(long)]
    pub stat: Option<Stat>,
    /// One of the hero's clichés that applies: one more die.
    #[arg(long)]
    pub cliche: Option<String>,
    /// Difficulty, 1 to 6 or a name.
    #[arg(
        long,
        required_unless_present = "random",
        conflicts_with = "random",
        allow_hyphen_values = true
    )]
    pub vs: Option<ClassicDifficulty>,
    /// Roll the difficulty on a d6 first.
    #[arg(long)]
    pub random: bool,
    /// Gear: reroll the lowest die once when failing. A campaign hero must carry it:
    /// name the piece (`--gear rope`), or give `--gear` alone when the hero carries one.
    #[arg(long, value_name = "PIECE", num_args = 0..=1, default_missing_value = "")]
    pub gear: Option<String>,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// `solum classic fight`.
#[derive(Debug, Args)]
pub struct ClassicFightArgs {
    /// The hero: a campaign hero, a .toml file (updated after the fight) or a name from
    /// the book.
    pub hero: String,
    /// The foes: names from the book or .toml files, in turn order. None: go on with the
    /// campaign hero's fight under way.
    pub foes: Vec<String>,
    /// End the campaign hero's fight under way: the hero flees where it stands (no
    /// further damage, the foes live on); the wounds taken go to the sheet (journaled).
    /// A pending hit is answered first: give --decide with it.
    #[arg(long, conflicts_with_all = ["foes", "ask", "rolled", "seed", "status"])]
    pub abandon: bool,
    /// Show the campaign hero's fight under way and the exact odds of its next exchange
    /// (nothing is rolled or journaled).
    #[arg(long, conflicts_with_all = ["foes", "ask", "rolled", "seed", "decide"])]
    pub status: bool,
    /// The fight a campaign hero would start against the foes named, before its first
    /// exchange: each side's dice and the exact odds (nothing is rolled or journaled; what
    /// `POST /api/classic/characters/{name}/fight/odds` answers).
    #[arg(long, requires = "foes", conflicts_with_all = ["abandon", "status", "ask", "rolled", "seed", "decide"])]
    pub odds: bool,
    /// Answer the campaign hero's pending hit: lose Body or a hit point (hp), then go on.
    #[arg(long, value_name = "body|hp", conflicts_with_all = ["foes", "ask"])]
    pub decide: Option<solum_app::classic_once::Loss>,
    /// The hero's stat in this fight: body (default), mind (a spell), spirit (a mind duel).
    #[arg(long)]
    pub stat: Option<Stat>,
    /// The foes' stat (default: each entry's own, else Body).
    #[arg(long)]
    pub foe_stat: Option<Stat>,
    /// A cliché helps the hero: +1 die.
    #[arg(long)]
    pub cliche: bool,
    /// A cliché helps the foes.
    #[arg(long)]
    pub foe_cliche: bool,
    /// How the hero takes hits when not asked: survive (the default), hit-points, body.
    /// A campaign hero with a policy fights to the end in one call.
    #[arg(long)]
    pub policy: Option<Policy>,
    /// How the foe takes hits.
    #[arg(long, default_value = "survive")]
    pub foe_policy: Policy,
    /// Ask the player at each hit the hero takes (on standard input); the hero's
    /// --policy then has nothing to decide.
    #[arg(long, conflicts_with = "policy")]
    pub ask: bool,
    /// Refused: gear rerolls only in checks ("in combat it is assumed all are properly
    /// armed/armored").
    #[arg(long, value_name = "PIECE", num_args = 0..=1, default_missing_value = "", hide = true)]
    pub gear: Option<String>,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

#[derive(Debug, Subcommand)]
pub enum SolCommand {
    /// Create a Project Sol character in the campaign.
    New {
        /// Name (found later in any case).
        name: String,
        /// The Edge attribute (sheet values are 0 to 1000).
        #[arg(long, default_value = "2", allow_negative_numbers = true)]
        edge: solum_app::sol::SolEdge,
        /// An attribute: NAME=VALUE (e.g. LOG=4); repeat.
        #[arg(long = "attr", value_name = "NAME=VALUE")]
        attributes: Vec<solum_app::shorthand::Pair<String, u32>>,
        /// A skill: NAME=RANKS (e.g. Etiquette=4); repeat.
        #[arg(long = "skill", value_name = "NAME=RANKS")]
        skills: Vec<solum_app::shorthand::Pair<String, u32>>,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show a character of the campaign, or a sheet file read one-off (--file).
    Show {
        /// The character's name.
        #[arg(required_unless_present = "file")]
        name: Option<String>,
        /// A TOML sheet file to read instead (nothing is stored).
        #[arg(long, conflicts_with = "name")]
        file: Option<std::path::PathBuf>,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the campaign's Project Sol characters.
    List {
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Add a character from a TOML sheet (the format `sol export` writes).
    Import {
        /// The sheet file.
        file: std::path::PathBuf,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write a character's sheet as TOML (to standard output, or -o FILE).
    Export {
        /// The character's name.
        name: String,
        /// The file to write (an existing one only with --force).
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
        /// Replace an existing file.
        #[arg(long, requires = "output")]
        force: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// A test from the sheet: attribute + skill ranks + modifiers (capped by ranks), Edge
    /// spent or burnt, progress earned.
    Test(Box<SolTestArgs>),
    /// A new session: Edge refreshes, training is allowed again, a new encounter begins.
    Session {
        /// The character's name.
        name: String,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A new encounter: progress can be earned again.
    Encounter {
        /// The character's name.
        name: String,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The GM rewards a point of Edge (never above the attribute).
    Reward {
        /// The character's name.
        name: String,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Spend Edge outside a test: Blitz, Seize the Initiative, or Dead Man's Trigger (which
    /// rolls its BOD + WIL (3) test). Dice uses are spent with `sol test --edge`.
    Spend {
        /// The character's name.
        name: String,
        /// What for.
        #[arg(value_enum)]
        what: SpendUse,
        #[command(flatten)]
        roll: DiceArgs,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Burn Edge for Not Dead Yet: the highest physical attribute (BOD, AGI, REA, STR)
    /// drops by 1 (Smackdown is burnt with `sol test --edge smackdown`).
    NotDeadYet {
        /// The character's name.
        name: String,
        /// On a tie for highest, the attribute to lower (asked at a terminal otherwise).
        #[arg(long = "attr")]
        attribute: Option<String>,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Train the next rank of a skill, once per session (cost rating: the new rank × 2).
    Train {
        /// The character's name.
        name: String,
        /// The skill.
        #[arg(long)]
        skill: String,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Edge spent outside a test's dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SpendUse {
    /// REA + INT bonus dice to an initiative test.
    Blitz,
    /// Top of the initiative order for one round.
    SeizeTheInitiative,
    /// About to fall: a BOD + WIL (3) test for one last action.
    DeadMansTrigger,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("dice_source").args(["rolled", "seed"])))]
pub struct SolTestArgs {
    /// The character's name.
    pub name: String,
    /// The skill tested (absent or 0 ranks: defaulting).
    #[arg(long)]
    pub skill: String,
    /// The attribute paired with it.
    #[arg(long = "attr")]
    pub attribute: String,
    /// Threshold: a number or a name.
    #[arg(long)]
    pub threshold: Option<String>,
    /// A bonus or penalty, -1000 to 1000; repeat.
    #[arg(long = "modifier", allow_negative_numbers = true)]
    pub modifiers: Vec<PoolModifier>,
    /// The skill has an untrained penalty.
    #[arg(long)]
    pub untrained_penalty: bool,
    /// Edge used (spent, or burnt for Smackdown).
    #[arg(long, value_enum)]
    pub edge: Option<EdgeUse>,
    /// Second Chance or Close Call, chosen before the roll for after it: used, and spent,
    /// only where it changes something (a die that is not a hit; a glitch).
    #[arg(long, value_enum, conflicts_with = "edge")]
    pub then: Option<Then>,
    /// Try Again: this test is retry number N of a failed test (2 dice fewer each, a penalty
    /// combined with the modifiers).
    #[arg(long, default_value_t = 0)]
    pub retry: u32,
    /// An assistant rolls its own test of this many dice first; its hits are bonus dice,
    /// capped with the other bonuses by the ranks.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "assistant")]
    pub assist_dice: Option<SolDice>,
    /// An assistant of the same campaign, by name: it rolls the same attribute + its ranks in
    /// the skill first, and records its own progress.
    #[arg(long)]
    pub assistant: Option<String>,
    /// An opposed test against a defender's pool, this character attacking.
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["threshold", "then", "assist_dice", "assistant"])]
    pub against_dice: Option<SolDice>,
    /// Edge the defender uses in the opposed test.
    #[arg(long, value_enum, requires = "against_dice")]
    pub against_edge: Option<EdgeUse>,
    /// The defender's dice rolled by hand: its pool, then its Second Chance rerolls.
    #[arg(long, value_name = "V1,V2,...", requires = "against_dice")]
    pub against_rolled: Option<String>,
    /// A group action led by this character: another participant of the campaign, by name;
    /// repeat (at most 99). Each rolls the same attribute + its own ranks; the best hits count.
    #[arg(long = "group", value_name = "NAME", conflicts_with_all = ["against_dice", "assist_dice", "assistant", "then", "buy"])]
    pub group: Vec<String>,
    /// Buy hits instead of rolling: one hit per full four dice of the pool; no Edge, no
    /// progress.
    #[arg(long, conflicts_with_all = ["against_dice", "assist_dice", "assistant", "then", "edge", "rolled", "seed"])]
    pub buy: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
    #[command(flatten)]
    pub roll: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum SolunaCommand {
    /// A skirmish: played (`start`, `act`, `move`, `status`, `go`, `abandon`), or fought
    /// whole by the tactic (campaign characters with `--auto`, or a skirmish file).
    Skirmish(SkirmishArgs),
    /// A test from a campaign character's attack dice (journaled; the sheet does not change).
    Test(SolunaTestArgs),
    /// Add a character to the campaign, with the fields of a skirmish character.
    New(SolunaNewArgs),
    /// Change a campaign character's sheet (journaled with the sheet before): each flag sets
    /// its field, the others are kept; the name never changes. Checked as a new character is.
    Edit(SolunaEditArgs),
    /// Show a campaign character.
    Show {
        /// The name.
        name: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// List the campaign's characters.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Add every character of a skirmish file to the campaign.
    Import {
        /// The skirmish file (TOML, `[[character]]` entries).
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Print campaign characters as a skirmish file (all without names).
    Export {
        /// The names.
        names: Vec<String>,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// `solum soluna skirmish …`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SkirmishArgs {
    #[command(subcommand)]
    pub play: Option<SkirmishPlay>,
    /// With --auto: campaign characters (2 to 20, in listed order); or one skirmish file
    /// (.toml), a simulation.
    #[arg(required = true)]
    pub who: Vec<String>,
    /// Let the tactic fight the whole skirmish of campaign characters (journaled; the sheets
    /// do not change), as a simulation.
    #[arg(long)]
    pub auto: bool,
    /// Seed (not with --rolled: typed dice roll nothing from it).
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// Dice rolled by hand, in the order the skirmish rolls them.
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// Print the events as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// The dice of a skirmish call: a seed or typed faces (neither: a fresh seed, journaled).
#[derive(Debug, Args)]
pub struct SkirmishDice {
    /// Seed (not with --rolled).
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// Dice rolled by hand: each attack's dice of the phases this call rolls, attackers in
    /// listed order; they must end at the end of a phase.
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// A played skirmish of campaign characters (ruling U5): one at a time per campaign.
#[derive(Debug, Subcommand)]
pub enum SkirmishPlay {
    /// Start a skirmish of campaign characters; it waits for the first decision.
    Start {
        /// The characters (2 to 20), in listed order.
        #[arg(required = true)]
        names: Vec<String>,
        /// A character or a side the tactic plays (repeatable).
        #[arg(long, value_name = "NAME|SIDE")]
        auto: Vec<String>,
        #[command(flatten)]
        dice: SkirmishDice,
    },
    /// A character's action in the waiting phase: `attack TARGET` or `move TARGET`.
    Act {
        /// The character acting.
        name: String,
        /// attack or move.
        action: SkirmishActionArg,
        /// The foe.
        target: String,
        /// Positive flips spent on the attack (at most the flips left and per test).
        #[arg(long, default_value_t = 0)]
        flips: u32,
        /// Extra dice spent on the attack (at most the extra dice left and per test).
        #[arg(long, default_value_t = 0)]
        extra_dice: u32,
        /// Shoot even when engaged.
        #[arg(long)]
        ranged: bool,
        #[command(flatten)]
        dice: SkirmishDice,
    },
    /// The same as `act NAME move TARGET`.
    Move {
        /// The character moving.
        name: String,
        /// The foe it engages.
        target: String,
        #[command(flatten)]
        dice: SkirmishDice,
    },
    /// Where the skirmish stands: the phase, who it waits for, each option with its odds.
    Status {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Roll the phases that wait only for dice.
    Go {
        #[command(flatten)]
        dice: SkirmishDice,
    },
    /// Abandon the skirmish (journaled; damage and supplies spent stay on the sheets).
    Abandon {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// The two actions of a played skirmish.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SkirmishActionArg {
    /// Attack the target.
    Attack,
    /// Move to engage the target.
    Move,
}

/// `solum soluna test NAME`: a test from a campaign character's attack dice.
#[derive(Debug, Args)]
pub struct SolunaTestArgs {
    /// The character.
    pub name: String,
    /// The attack whose dice are rolled.
    #[arg(long, value_enum, default_value = "melee")]
    pub attack: SolunaAttackArg,
    /// Positive flips committed (at most the flips left and per test).
    #[arg(long, default_value = "0", allow_negative_numbers = true)]
    pub flips: solum_app::soluna_once::Flips,
    /// Negative flips against the test (0 to 1000).
    #[arg(long, default_value = "0", allow_negative_numbers = true)]
    pub against: solum_app::soluna_once::Flips,
    /// A target number the largest group must reach (1 to 1000).
    #[arg(long, allow_negative_numbers = true)]
    pub tn: Option<solum_app::soluna::TargetNumber>,
    #[command(flatten)]
    pub dice: SkirmishDice,
}

/// Melee or ranged dice.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SolunaAttackArg {
    /// The melee dice.
    Melee,
    /// The ranged dice.
    Ranged,
}

/// `solum soluna new`: the fields of a skirmish character.
#[derive(Debug, Args)]
pub struct SolunaNewArgs {
    /// The name.
    pub name: String,
    /// The side; different sides are foes.
    #[arg(long)]
    pub side: String,
    /// Mind: actions a turn, 1 to 10.
    #[arg(long)]
    pub mind: u32,
    /// Body: armour against every attack.
    #[arg(long, default_value_t = 0)]
    pub body: u32,
    /// Shield: armour against every attack but melee.
    #[arg(long, default_value_t = 0)]
    pub shield: u32,
    /// Hit points; out at 0.
    #[arg(long)]
    pub hit_points: u32,
    /// Dice of a melee attack.
    #[arg(long, default_value_t = 0)]
    pub melee: u32,
    /// Dice of a ranged attack.
    #[arg(long, default_value_t = 0)]
    pub ranged: u32,
    /// Positive flips for the character's own tests.
    #[arg(long, default_value_t = 0)]
    pub flips: u32,
    /// Negative flips against tests aimed at the character.
    #[arg(long, default_value_t = 0)]
    pub guard: u32,
    /// The most flips committed to one test.
    #[arg(long, default_value_t = 1)]
    pub flips_per_test: u32,
    /// Dice to add to the character's own tests.
    #[arg(long, default_value_t = 0)]
    pub extra_dice: u32,
    /// Dice to take off tests aimed at the character.
    #[arg(long, default_value_t = 0)]
    pub dice_guard: u32,
    /// The most dice added to, or taken off, one test.
    #[arg(long, default_value_t = 1)]
    pub dice_per_test: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// `solum soluna edit`: the fields of `soluna new`, each one given set, the others kept.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("soluna_edit").args([
    "side", "mind", "body", "shield", "hit_points", "melee", "ranged", "flips", "guard",
    "flips_per_test", "extra_dice", "dice_guard", "dice_per_test",
]).multiple(true).required(true)))]
pub struct SolunaEditArgs {
    /// The campaign character.
    pub name: String,
    /// The side; different sides are foes.
    #[arg(long)]
    pub side: Option<String>,
    /// Mind: actions a turn, 1 to 10.
    #[arg(long)]
    pub mind: Option<u32>,
    /// Body: armour against every attack.
    #[arg(long)]
    pub body: Option<u32>,
    /// Shield: armour against every attack but melee.
    #[arg(long)]
    pub shield: Option<u32>,
    /// Hit points; out at 0.
    #[arg(long)]
    pub hit_points: Option<u32>,
    /// Dice of a melee attack.
    #[arg(long)]
    pub melee: Option<u32>,
    /// Dice of a ranged attack.
    #[arg(long)]
    pub ranged: Option<u32>,
    /// Positive flips for the character's own tests.
    #[arg(long)]
    pub flips: Option<u32>,
    /// Negative flips against tests aimed at the character.
    #[arg(long)]
    pub guard: Option<u32>,
    /// The most flips committed to one test.
    #[arg(long)]
    pub flips_per_test: Option<u32>,
    /// Dice to add to the character's own tests.
    #[arg(long)]
    pub extra_dice: Option<u32>,
    /// Dice to take off tests aimed at the character.
    #[arg(long)]
    pub dice_guard: Option<u32>,
    /// The most dice added to, or taken off, one test.
    #[arg(long)]
    pub dice_per_test: Option<u32>,
    /// Print JSON (what `PATCH /api/soluna/characters/{name}` answers).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// `solum dietype …`: die-type characters in the campaign.
#[derive(Debug, Subcommand)]
pub enum DietypeCommand {
    /// Add a character: abilities with their die type, skills with their chances, weapons.
    New {
        /// The name.
        name: String,
        #[command(flatten)]
        sheet: DietypeSheetArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Show a character.
    Show {
        /// The name.
        name: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// List the campaign's die-type characters.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Add a character from its TOML sheet.
    Import {
        /// The sheet file.
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Print a character's TOML sheet.
    Export {
        /// The name.
        name: String,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Change a sheet: set or remove abilities, skills and weapons, notes.
    Edit {
        /// The name.
        name: String,
        #[command(flatten)]
        sheet: DietypeSheetArgs,
        /// Remove an ability (repeat).
        #[arg(long)]
        remove_ability: Vec<String>,
        /// Remove a skill (repeat).
        #[arg(long)]
        remove_skill: Vec<String>,
        /// Remove a weapon (repeat).
        #[arg(long)]
        remove_weapon: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// The parts of a die-type sheet a command sets.
#[derive(Debug, Args)]
pub struct DietypeSheetArgs {
    /// An ability and its die type, e.g. `Agility=d8` (repeat).
    #[arg(long, value_name = "NAME=DIE")]
    pub ability: Vec<solum_app::shorthand::Pair<String, solum_app::dietype_once::DieType>>,
    /// A skill and its chances, 1 to 4, e.g. `Swords=2` (repeat).
    #[arg(long, value_name = "NAME=CHANCES")]
    pub skill: Vec<solum_app::shorthand::Pair<String, u32>>,
    /// A weapon, its damage die and modifier, e.g. `Dagger=d4+1` (repeat).
    #[arg(long, value_name = "NAME=DIE[+M]")]
    pub weapon: Vec<solum_app::shorthand::Pair<String, solum_app::dietype_once::Weapon>>,
    /// Notes.
    #[arg(long)]
    pub notes: Option<String>,
}

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// The first side's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub pool: CombatPool,
    /// The first side's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub hp: HitPoints,
    /// The first side's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub damage: Damage,
    /// The foe's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_pool: CombatPool,
    /// The foe's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_hp: HitPoints,
    /// The foe's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_damage: Damage,
    /// Also simulate this many duels (seeded, on all cores) beside the exact answer.
    #[arg(long, value_name = "FIGHTS")]
    pub simulate: Option<u64>,
    /// Seed for --simulate.
    #[arg(long, requires = "simulate")]
    pub seed: Option<u64>,
    /// A drawn exchange is settled by a roll-off of single dice instead of changing nothing.
    #[arg(long)]
    pub roll_off: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StaticArgs {
    /// The hero's combat pool.
    #[arg(long, allow_negative_numbers = true)]
    pub pool: CombatPool,
    /// The opposition's difficulty: a number from 1 (automatic) up, or very-easy, easy,
    /// average, tough, hard.
    #[arg(long, allow_hyphen_values = true)]
    pub vs: solum_app::check_once::Difficulty,
    /// The hero's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub hp: HitPoints,
    /// The hero's weapon damage.
    #[arg(long, allow_negative_numbers = true)]
    pub damage: Damage,
    /// The opposition's hit points.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_hp: HitPoints,
    /// The opposition's damage.
    #[arg(long, allow_negative_numbers = true)]
    pub foe_damage: Damage,
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

/// `solum char …`: So1um Expanded characters, kept in the campaign by name.
#[derive(Debug, Subcommand)]
pub enum CharCommand {
    /// Create a hero by the rules: 3/2/1 to Body, Mind and Charm, 2d6 for backgrounds, 1d6
    /// for light armor, one light weapon. Asks for what the flags do not give.
    New(CharNewArgs),
    /// Show a character's sheet with hit points and pools worked out.
    Show(CharShowArgs),
    /// List the campaign's characters.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Change a character's sheet; the result is checked against the rules before it is
    /// stored (nothing is stored otherwise), and the change is journaled.
    Edit(CharEditArgs),
    /// Advancement after an adventure: A, a new background (even d6), or B, raise an
    /// attribute (roll its dice, all even). Spends one advancement point, success or not
    /// (S17); without a point it is refused and nothing is rolled.
    Advance(CharAdvanceArgs),
    /// Grant an advancement point (S17: at the end of an adventure; the GM's, or the solo
    /// player's), journaled. Alias: advance-point.
    #[command(visible_alias = "advance-point")]
    Grant {
        /// The character's name.
        name: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// The bestiary: the shipped NPCs and monsters (and static oppositions) with their stats,
    /// plus the entries of any --bestiary files.
    Bestiary {
        /// Extra bestiary files (same shape as the shipped one); later entries replace earlier.
        #[arg(long)]
        bestiary: Vec<std::path::PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Rest: 1 hit point per half hour, up to the maximum; rest adds up on the sheet across
    /// rests (two quarter hours heal 1).
    Rest {
        /// The character's name.
        name: String,
        /// Hours of rest, to the nearest minute (1.5 is three half hours, 0.25 a quarter hour;
        /// at most 10,000).
        #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
        hours: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Add a character to the campaign from a TOML sheet.
    Import {
        /// The sheet (TOML, at most 1 MiB).
        file: std::path::PathBuf,
        /// Replace a character of the same name instead of refusing.
        #[arg(long)]
        replace: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Write a character's sheet as TOML (what `char import` reads).
    Export {
        /// The character's name.
        name: String,
        /// Write to this file instead of standard output (written safely; an existing file
        /// only with --force).
        #[arg(long, short, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        /// Replace an existing file (a regular, writable one; its permissions are kept).
        #[arg(long, requires = "out")]
        force: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

#[derive(Debug, Args)]
// Typed dice are all used, so a seed beside them would roll nothing: refused, not ignored.
#[command(group(clap::ArgGroup::new("char_new_dice").args(["rolled", "seed"]).multiple(false)))]
pub struct CharNewArgs {
    /// The hero's name (only a name: no file is written).
    pub name: Option<String>,
    /// Body: 3, 2 or 1.
    #[arg(long, allow_negative_numbers = true)]
    pub body: Option<StartingAttribute>,
    /// Mind: 3, 2 or 1.
    #[arg(long, allow_negative_numbers = true)]
    pub mind: Option<StartingAttribute>,
    /// Charm: 3, 2 or 1.
    #[arg(long, allow_negative_numbers = true)]
    pub charm: Option<StartingAttribute>,
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
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// `solum char show`.
#[derive(Debug, Args)]
pub struct CharShowArgs {
    /// The character's name in the campaign.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub name: Option<String>,
    /// Read a TOML sheet file instead, without a campaign (read only).
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

#[derive(Debug, Args)]
pub struct CharEditArgs {
    /// The character's name.
    pub name: String,
    /// Set Body, Mind or Charm: `body=3`.
    #[arg(long = "set", value_name = "ATTR=N")]
    pub set: Vec<solum_app::shorthand::Pair<solum_app::rules::Attribute, u32>>,
    /// Add a background.
    #[arg(long)]
    pub add_background: Vec<String>,
    /// Remove a background.
    #[arg(long)]
    pub remove_background: Vec<String>,
    /// Add a weapon: `NAME:light|medium|heavy[:ranged[:anti-vehicle]]` (anti-vehicle: made to
    /// fight vehicles, like a missile launcher).
    #[arg(long, value_name = "NAME:CLASS[:ranged]")]
    pub add_weapon: Vec<solum_app::rules::Weapon>,
    /// Remove a weapon by name.
    #[arg(long)]
    pub remove_weapon: Vec<String>,
    /// Wear armor: `NAME:light|medium|heavy`.
    #[arg(long, value_name = "NAME:CLASS", conflicts_with = "no_armor")]
    pub armor: Option<solum_app::rules::Armor>,
    /// Take armor off.
    #[arg(long)]
    pub no_armor: bool,
    /// Add gear: `NAME:reroll|enables`.
    #[arg(long, value_name = "NAME:EFFECT")]
    pub add_gear: Vec<solum_app::rules::Gear>,
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
    /// A GM correction (S17): attributes and backgrounds change only by creation and
    /// advancement; --set, --remove-background and --add-background beyond the backgrounds
    /// still to be named need it, and the journal marks the edit as a correction.
    #[arg(long)]
    pub correction: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

#[derive(Debug, Args)]
// As for `char new`: a seed beside typed dice would roll nothing.
#[command(group(clap::ArgGroup::new("char_advance_dice").args(["rolled", "seed"]).multiple(false)))]
pub struct CharAdvanceArgs {
    /// The character's name.
    pub name: String,
    /// A: try for this new background.
    #[arg(
        long,
        conflicts_with = "attribute",
        required_unless_present = "attribute"
    )]
    pub background: Option<String>,
    /// B: try to raise body, mind or charm.
    #[arg(long)]
    pub attribute: Option<solum_app::rules::Attribute>,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct CombatArgs {
    /// A combat kept in the campaign: start it, play lines one at a time (from any process),
    /// show it, end it. Without a subcommand, a script or standard input is run.
    #[command(subcommand)]
    pub action: Option<CombatAction>,
    /// A script of lines to run; without it, lines are read from standard input.
    pub script: Option<std::path::PathBuf>,
    /// Seed for every line without typed dice (`with …`).
    #[arg(long, conflicts_with = "campaign")]
    pub seed: Option<u64>,
    /// Extra bestiary files (TOML), added to the shipped one.
    #[arg(long, conflicts_with = "campaign")]
    pub bestiary: Vec<std::path::PathBuf>,
    /// Print events as JSON lines.
    #[arg(long)]
    pub json: bool,
    /// Draws in melee, alternative combat, vehicle attacks and chases are rolled off (one
    /// die each until one is higher) instead of standing; the line `draws roll-off` does the
    /// same from a script.
    #[arg(long, conflicts_with = "campaign")]
    pub roll_off: bool,
    /// Play the script or standard input on this campaign's open combat (`solum combat
    /// start`): each line is stored and journaled as `solum combat do` does. Only this flag
    /// attaches (not $SOLUM_CAMPAIGN), so a plain script runs as it always did.
    // The id is the global flag's, so `solum --campaign F combat SCRIPT` attaches too and
    // the two never define `--campaign` twice in one command.
    #[arg(long = "campaign", id = "campaign", value_name = "FILE")]
    pub attach: Option<std::path::PathBuf>,
    /// List the line language and stop.
    #[arg(long, conflicts_with_all = ["script", "seed", "json", "roll_off", "bestiary", "campaign"])]
    pub help_lines: bool,
}

/// `solum combat start|do|status|end`: the campaign's combat in progress.
#[derive(Debug, Subcommand)]
pub enum CombatAction {
    /// Start a combat in the campaign (one may be open at a time). Fighters join with lines:
    /// `solum combat do "hero NAME [bg]"` for a campaign character, `"foe CREATURE[*N]"`.
    Start {
        /// The combat's name, for the journal.
        #[arg(long)]
        name: Option<String>,
        /// Draws are rolled off (S14) instead of standing.
        #[arg(long)]
        roll_off: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Play one line of the line language (`solum combat --help-lines`) on the open combat;
    /// dice typed with `… with 5,3,2`, else from the generator (seed journaled).
    Do {
        /// The line, e.g. "melee orc" or "melee orc with 5,4,3,2".
        line: String,
        /// Roll this line's dice from this seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Show the open combat: initiative order, whose turn, ranges, hit points, who is out.
    Status {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// End the open combat: the characters' sheets lose the hit points they lost in it.
    End {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// `solum creature …`: the campaign's own creatures, beside the shipped bestiary.
#[derive(Debug, Subcommand)]
pub enum CreatureCommand {
    /// Add the `[[creature]]` entries of a bestiary file (TOML) to the campaign.
    Add {
        /// The bestiary file.
        file: std::path::PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Every creature a campaign combat can name: shipped and the campaign's.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// One creature's stats.
    Show {
        /// The creature's name.
        name: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
    /// Remove one of the campaign's creatures.
    Remove {
        /// The creature's name.
        name: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// A pilot and vehicle in a vehicle roll.
#[derive(Debug, Clone, Args)]
pub struct VehicleRollArgs {
    /// The pilot's pool (Mind + background), 1 to 1000.
    #[arg(long, allow_negative_numbers = true)]
    pub pilot: CombatPool,
    /// A vehicle of the shipped catalogue (`solum vehicle list`), e.g. "tramp freighter";
    /// its speed and handling are used.
    #[arg(long, conflicts_with_all = ["speed", "handling"])]
    pub vehicle: Option<String>,
    /// The vehicle's speed: slow, average (the default), fast, lightning-fast.
    #[arg(long)]
    pub speed: Option<solum_app::rules::Speed>,
    /// The vehicle's handling: clumsy, average (the default), responsive, exceptional.
    #[arg(long)]
    pub handling: Option<solum_app::rules::Handling>,
    /// The other pilot's pool, 1 to 1000.
    #[arg(long, allow_negative_numbers = true)]
    pub against_pilot: CombatPool,
    /// The other vehicle, from the shipped catalogue (e.g. starfighter).
    #[arg(long, conflicts_with_all = ["against_speed", "against_handling"])]
    pub against_vehicle: Option<String>,
    /// The other vehicle's speed (default average).
    #[arg(long)]
    pub against_speed: Option<solum_app::rules::Speed>,
    /// The other vehicle's handling (default average).
    #[arg(long)]
    pub against_handling: Option<solum_app::rules::Handling>,
    /// Dice rolled by hand for the first pilot: the pool, then the Rule-of-6 chain (only when
    /// both pilots show a 6), then roll-off dice.
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// Dice rolled by hand for the other pilot.
    #[arg(long, value_name = "V1,V2,...")]
    pub against_rolled: Option<String>,
    /// Settle a draw with a roll-off of single dice instead of letting it stand.
    #[arg(long)]
    pub roll_off: bool,
    /// Seed of the generator.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The exact odds only: nothing is rolled (what `POST /api/vehicles/chase/odds` and
    /// `/attack/odds` answer).
    #[arg(long, conflicts_with_all = ["rolled", "against_rolled", "seed"])]
    pub odds: bool,
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
    /// The shipped vehicle catalogue: the text's example vehicles with their stats.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The scale rule: what a personal weapon does to a vehicle.
    Scale {
        /// The personal weapon's damage (1 light, 2 medium, 3 heavy; 1 to 1000000, the
        /// limit of every damage).
        #[arg(long, allow_negative_numbers = true)]
        weapon_damage: solum_app::vehicles::WeaponDamage,
        /// The vehicle's size: car (up to a car or truck) or large.
        #[arg(long)]
        scale: solum_app::rules::Scale,
        /// The weapon is made to fight vehicles (like a shoulder-mounted missile launcher).
        #[arg(long)]
        anti_vehicle: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct PlayStaticArgs {
    /// A campaign character fights (S11): pool, weapon and hit points from the sheet; the
    /// rounds are journaled and the sheet loses the hit points. Typed dice that run out at the
    /// end of a round leave the fight waiting: run again with `--char` alone to go on.
    #[arg(long = "char", value_name = "NAME", conflicts_with_all = ["pool", "hp", "damage", "bestiary"])]
    pub character: Option<String>,
    /// With --char: the weapon of the sheet to fight with (when the fight starts; default the
    /// one that serves best).
    #[arg(long, requires = "character")]
    pub weapon: Option<String>,
    /// With --char: a background of the sheet named for this call's rounds (S18; default none).
    #[arg(long, requires = "character")]
    pub background: Option<String>,
    /// With --char: leave the open fight (journaled; the sheet keeps what it cost).
    #[arg(long, requires = "character", conflicts_with_all = ["foe", "vs", "weapon", "background", "rolled", "seed"])]
    pub abandon: bool,
    /// With --char: show the open fight and the odds of winning from here (nothing is
    /// rolled or journaled; what `GET /api/characters/{name}/static` answers).
    #[arg(long, requires = "character", conflicts_with_all = ["foe", "vs", "weapon", "background", "rolled", "seed", "abandon"])]
    pub status: bool,
    /// The hero's combat pool.
    #[arg(
        long,
        allow_negative_numbers = true,
        required_unless_present = "character"
    )]
    pub pool: Option<CombatPool>,
    /// The hero's hit points.
    #[arg(
        long,
        allow_negative_numbers = true,
        required_unless_present = "character"
    )]
    pub hp: Option<HitPoints>,
    /// The hero's weapon damage.
    #[arg(
        long,
        allow_negative_numbers = true,
        required_unless_present = "character"
    )]
    pub damage: Option<Damage>,
    /// An opposition from the bestiary's static entries (e.g. "trooper squad").
    #[arg(long, conflicts_with_all = ["vs", "foe_hp", "foe_damage"])]
    pub foe: Option<String>,
    /// The opposition's difficulty (without --foe).
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["foe", "character"])]
    pub vs: Option<solum_app::check_once::Difficulty>,
    /// The opposition's hit points (without --foe).
    #[arg(long, allow_negative_numbers = true, required_unless_present_any = ["foe", "character"])]
    pub foe_hp: Option<HitPoints>,
    /// The opposition's damage (without --foe).
    #[arg(long, allow_negative_numbers = true, required_unless_present_any = ["foe", "character"])]
    pub foe_damage: Option<Damage>,
    /// Extra bestiary files.
    #[arg(long)]
    pub bestiary: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub dice: DiceArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
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
    /// Draws in opposed rolls are rolled off instead of standing.
    #[arg(long)]
    pub roll_off: bool,
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
    /// The attribute rolled (Body, Mind or Charm), 1 to 1002: the number of dice before
    /// modifiers (a pool has at most 1000 dice).
    #[arg(value_name = "ATTRIBUTE", allow_negative_numbers = true)]
    pub attribute: CheckAttribute,
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
    pub vs: Option<solum_app::check_once::Difficulty>,
    /// An opposed check against a pool of this many dice, 1 to 1000.
    #[arg(long, value_name = "POOL", allow_negative_numbers = true)]
    pub against: Option<CombatPool>,
}

/// Options of the opposing side.
#[derive(Debug, Clone, Args)]
pub struct OpposingArgs {
    // `requires` alone lets these through beside --vs: clap drops a requirement that
    // conflicts with a present flag, and --against conflicts with --vs. Hence both.
    /// The opposing side has useful gear (one reroll of its lowest die).
    #[arg(long, requires = "against", conflicts_with = "vs")]
    pub against_gear: bool,
    /// Settle draws with a roll-off of single dice instead of letting them stand.
    #[arg(long, requires = "against", conflicts_with = "vs")]
    pub roll_off: bool,
}

/// How `solum check` builds its pool: from numbers (ATTRIBUTE and the modifier flags, ruling
/// S1), or from a character's sheet (`--char NAME --attr ATTR`, or `--sheet FILE`).
#[derive(Debug, Clone, Args)]
#[group(skip)]
#[command(group(clap::ArgGroup::new("pool_source").args(["attribute", "character", "sheet"]).required(true).multiple(false)))]
pub struct CheckPoolArgs {
    /// The attribute rolled (Body, Mind or Charm), 1 to 1002: the number of dice before
    /// modifiers (a pool has at most 1000 dice).
    #[arg(value_name = "ATTRIBUTE", allow_negative_numbers = true)]
    pub attribute: Option<CheckAttribute>,
    /// Roll from this character's sheet in the campaign (journaled): the pool, armor and
    /// heavy-weapon penalties and gear come from the sheet.
    #[arg(long = "char", value_name = "NAME", requires = "attr")]
    pub character: Option<String>,
    /// Roll from a TOML sheet file instead, without a campaign (read only, not journaled).
    #[arg(long, value_name = "FILE", requires = "attr")]
    pub sheet: Option<std::path::PathBuf>,
    /// With --char or --sheet: the attribute rolled (body, mind or charm).
    #[arg(long, value_name = "ATTR")]
    pub attr: Option<solum_app::check_once::Attribute>,
    /// One background applies: +1 die (never more than one). With --char or --sheet, name
    /// the sheet's background: `--background "Acrobat Thief"`.
    #[arg(short = 'b', long, value_name = "BG", num_args = 0..=1, default_missing_value = "")]
    pub background: Option<String>,
    /// With --char or --sheet and reroll gear: which die the gear rerolls (S1): `best` (the
    /// default: the lowest, only when that can help), `none`, or the position of the die you
    /// rerolled in the pool as rolled, counted from 1 (`--gear-die 2`).
    #[arg(long, value_name = "N|best|none", requires = "attr")]
    pub gear_die: Option<solum_app::characters::GearDie>,
    /// With --char or --sheet: attacking with this weapon of the sheet (a heavy one at Body
    /// below 3 costs a die).
    #[arg(long, value_name = "WEAPON", requires = "attr")]
    pub weapon: Option<String>,
    /// Armor too heavy for the Body: -1 die (a sheet knows this itself).
    #[arg(long, conflicts_with_all = ["character", "sheet"])]
    pub armor_too_heavy: bool,
    /// Attacking with a heavy weapon at Body below 3: -1 die (a sheet knows this itself).
    #[arg(long, conflicts_with_all = ["character", "sheet"])]
    pub heavy_weapon: bool,
    /// Useful gear: reroll the lowest die once, when that can change the outcome. With
    /// --char or --sheet, name the sheet's gear: `--gear "thieves' tools"`.
    #[arg(short, long, value_name = "GEAR", num_args = 0..=1, default_missing_value = "")]
    pub gear: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub pool: CheckPoolArgs,
    #[command(flatten)]
    pub target: Against,
    #[command(flatten)]
    pub opposing: OpposingArgs,
    /// Dice rolled by hand, in the order the roll uses them: the pool, the gear reroll (if
    /// used), the Rule-of-6 chain (only when it can matter: above difficulty 6, or both sides
    /// on a 6), then roll-off dice. With --seed only when the other side is rolled by it.
    #[arg(long, value_name = "V1,V2,...")]
    pub rolled: Option<String>,
    /// The opposing side's dice rolled by hand, in the same order. (From a sheet, --rolled
    /// takes every die of both sides, in the order the roll draws them.)
    #[arg(
        long,
        value_name = "V1,V2,...",
        requires = "against",
        conflicts_with_all = ["vs", "character", "sheet"]
    )]
    pub against_rolled: Option<String>,
    /// Seed of the generator, to replay a roll exactly (a fresh seed is chosen and shown
    /// otherwise).
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --char: the exact odds of this check only; nothing is rolled or journaled (what
    /// `POST /api/characters/{name}/odds` answers).
    #[arg(long, requires = "character", conflicts_with_all = ["rolled", "seed"])]
    pub odds: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
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
    pub vs: Option<solum_app::check_once::Difficulty>,
    /// Odds of an opposed check against a pool of this many dice, 1 to 1000.
    #[arg(long, value_name = "POOL", allow_negative_numbers = true)]
    pub against: Option<CombatPool>,
    #[command(flatten)]
    pub opposing: OpposingArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `solum table …`.
#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Make a table and print the link that makes its game master (once, for 7 days):
    /// whoever opens it names themselves, runs the table and invites the players from the
    /// page.
    New(TableNewArgs),
    /// List the campaign's tables: id, name, members, journal entries (to export or verify
    /// each: `journal export --table ID`, `journal verify --table ID`).
    List {
        /// Print JSON: one array of `id`, `name`, `members`, `entries`.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: crate::cli_campaign::CampaignArg,
    },
}

/// `solum table new`.
#[derive(Debug, Args)]
pub struct TableNewArgs {
    /// The table's name (at most 60 characters).
    pub name: String,
    /// The address browsers reach the servers at (as `serve --public-url`), which the link
    /// starts with. Default: http://127.0.0.1:7373, the address `solum serve` listens on
    /// unless told otherwise.
    #[arg(long, value_name = "URL", value_parser = solum_web::PublicOrigin::parse)]
    pub public_url: Option<solum_web::PublicOrigin>,
    /// Print one JSON object: `table`, `table_name`, `link`, `invite`, `role`, `expires`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// `solum serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on. Anything but a loopback address opens the table to the
    /// network (there is no TLS: put a proxy in front for that). HOST may be a name
    /// (`localhost:7373`): it listens on the first address the name resolves to.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:7373",
          value_parser = crate::cmd::serve::parse_addr)]
    pub addr: std::net::SocketAddr,
    /// The address browsers use when a reverse proxy is in front
    /// (`https://table.example.org`): its host is answered to, and changes must come from
    /// its origin. See docs/hosting.md.
    #[arg(long, value_name = "URL", value_parser = solum_web::PublicOrigin::parse)]
    pub public_url: Option<solum_web::PublicOrigin>,
    /// A reverse proxy's address (repeat for several): its `X-Forwarded-For` names the
    /// client that rate limits and caps count, and its connections count only against the
    /// overall cap. Without it, every client behind a proxy shares the proxy's limits.
    #[arg(long, value_name = "IP")]
    pub trust_proxy: Vec<std::net::IpAddr>,
    /// Lifts every rate limit and the caps of connections and live streams, for a load
    /// benchmark on loopback (bench/examples/table_load.rs). Never for a table others can
    /// reach: it lets one client flood the campaign.
    #[arg(long)]
    pub unthrottled: bool,
    /// What the server writes to standard error, one line an event: `error` (a request that
    /// failed inside, a group of writes not kept), `warn` (also a lost change feed, a failed
    /// checkpoint), or `off`.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = LogLevel::Warn)]
    pub log: LogLevel,
    #[command(flatten)]
    pub campaign: crate::cli_campaign::CampaignArg,
}

/// How much `solum serve` writes to standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogLevel {
    /// Nothing.
    Off,
    /// What failed.
    Error,
    /// What failed, and what went wrong and was mended.
    Warn,
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
