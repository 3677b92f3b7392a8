//! The campaign commands' arguments: the oracle, notes, scenes and the journal.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

/// Which campaign a command works on. Declared once: flattened into `Cli` (so it may come
/// before the subcommand, `solum --campaign F ask …`) and into each campaign command;
/// `global` hands a value typed at either place to the command.
#[derive(Debug, Args)]
pub struct CampaignArg {
    /// The campaign file (SQLite). Default: $SOLUM_CAMPAIGN, else `campaign.solum` in the
    /// user's data folder (`$XDG_DATA_HOME/solum` on Linux). Created by the first command
    /// that changes it; a command that only reads refuses a missing one.
    // $SOLUM_CAMPAIGN is read where the campaign is opened, not by clap: a global `env`
    // would hand it to `solum combat SCRIPT` too, which attaches only on the typed flag.
    #[arg(long, value_name = "FILE", global = true)]
    pub campaign: Option<PathBuf>,
    /// The campaign's store by address: `postgres://USER@HOST:PORT/DATABASE` for a hosted
    /// PostgreSQL database (the password from $PGPASSWORD, the file $PGPASSFILE names or
    /// ~/.pgpass; one
    /// in the address works too, and wins, but shows in the process list), anything else a
    /// SQLite file. Default: $SOLUM_DATABASE, else
    /// --campaign. See docs/hosting.md.
    // Read where the campaign is opened, as $SOLUM_CAMPAIGN is.
    #[arg(long, value_name = "URL", global = true)]
    pub database: Option<String>,
}

/// `solum ask`.
#[derive(Debug, Args)]
pub struct AskArgs {
    /// A yes/no question, e.g. "Are guards present?".
    pub question: String,
    /// The odds favour the hero (an applicable background or advantage): best of 2d6.
    #[arg(long, conflicts_with = "disadvantage")]
    pub advantage: bool,
    /// The odds are slim (a significant disadvantage): worst of 2d6.
    #[arg(long)]
    pub disadvantage: bool,
    /// Ask the original So1um's oracle: its answers and its two event tables (one for
    /// "Yes, but" and "No, and", one for "Yes, and" and "No, but"), no disposition die.
    /// Without --classic or --expanded, the campaign's oracle (see `solum oracle`).
    #[arg(long, conflicts_with = "expanded")]
    pub classic: bool,
    /// Ask So1um Expanded's oracle, whatever the campaign's setting.
    #[arg(long)]
    pub expanded: bool,
    /// Replay the generator from this seed.
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// Dice rolled by hand: the answer die (two with advantage or disadvantage), then the
    /// event die on an And or a But, then the disposition die for an NPC or a monster.
    #[arg(long, value_name = "FACES")]
    pub rolled: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: CampaignArg,
}

/// `solum note`.
#[derive(Debug, Args)]
pub struct NoteArgs {
    /// What to write in the journal.
    pub text: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: CampaignArg,
}

/// `solum scene …`.
#[derive(Debug, Subcommand)]
pub enum SceneCommand {
    /// Set a new scene (ends the open one first).
    Start {
        /// A short description of where the hero is and what happens.
        title: String,
        /// What the hero wants from this scene.
        #[arg(long)]
        goal: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: CampaignArg,
    },
    /// End the open scene.
    End {
        /// How it ended.
        summary: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: CampaignArg,
    },
    /// Show the open scene.
    Show {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: CampaignArg,
    },
}

/// Export formats of the journal.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum JournalFormat {
    /// The story, for a notes app: scenes as headings, rolls compact.
    Markdown,
    /// Every entry as data (what `journal import` reads).
    Json,
}

/// Which table's journal a command reads.
#[derive(Debug, Clone, Copy, Args)]
pub struct TableArg {
    /// The table whose journal to read, whole (secret entries too), by its id as `solum
    /// table list` shows it: a hosted table's backup or check. Default: the campaign's own
    /// table (0), the command line's.
    #[arg(long, value_name = "ID", value_parser = clap::value_parser!(i64).range(0..))]
    pub table: Option<i64>,
}

/// `solum journal …`.
#[derive(Debug, Subcommand)]
pub enum JournalCommand {
    /// Print the journal, one line per entry.
    Show {
        /// Only the last N entries (1 or more).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        last: Option<solum_app::LastEntries>,
        /// Print JSON: the page `GET /api/journal?limit=N` answers (`{"entries": […],
        /// "next": null}`, each entry as the page shows it).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        table: TableArg,
        #[command(flatten)]
        campaign: CampaignArg,
    },
    /// Write the journal as Markdown or JSON.
    Export {
        /// The format.
        #[arg(long, value_enum, default_value = "markdown")]
        format: JournalFormat,
        /// Write to this file instead of standard output (refused if it exists).
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The story's title (Markdown only; not empty), "Journal" if not given.
        #[arg(long)]
        title: Option<String>,
        #[command(flatten)]
        table: TableArg,
        #[command(flatten)]
        campaign: CampaignArg,
    },
    /// Re-derive every roll of the journal from its seed or typed dice; exit 1 naming each
    /// entry that does not match.
    Verify {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        table: TableArg,
        #[command(flatten)]
        campaign: CampaignArg,
    },
    /// Append the entries of a JSON export (every roll is re-derived first; all or nothing).
    Import {
        /// A file written by `journal export --format json` (`-` for standard input), at most
        /// 64 MiB.
        file: PathBuf,
        #[command(flatten)]
        campaign: CampaignArg,
    },
    /// Show the table a game master's secret entry of the campaign's own table (a roll made
    /// in secret at `solum serve`): a public entry records it, and what it does to a sheet
    /// (a Project Sol test's Edge and progress) happens now. Each entry once.
    Reveal {
        /// The secret entry's number (as `journal show` lists it).
        seq: i64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        campaign: CampaignArg,
    },
}

/// `solum idea`.
#[derive(Debug, Args)]
pub struct IdeaArgs {
    /// List the built-in genres and exit.
    #[arg(long, conflicts_with_all = ["genre", "list", "count", "seed", "rolled"])]
    pub genres: bool,
    /// The genre whose words to draw (see --genres).
    #[arg(long, short, default_value = "fantasy", conflicts_with = "list")]
    pub genre: String,
    /// Draw from your own list instead: a text file, one word or phrase a line, `#` for
    /// comments, at most 1000 words and 64 KiB. Its words are journaled with the draw.
    #[arg(long, value_name = "FILE")]
    pub list: Option<PathBuf>,
    /// How many words to draw (1 to 20), each by a die as large as the list.
    #[arg(long, short = 'n', default_value = "3", allow_negative_numbers = true)]
    pub count: solum_app::ideas::IdeaCount,
    /// Replay the generator from this seed.
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// Dice rolled by hand, one per word, each 1 to the list's size.
    #[arg(long, value_name = "FACES")]
    pub rolled: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: CampaignArg,
}

/// `solum difficulty`.
#[derive(Debug, Args)]
pub struct DifficultyArgs {
    /// The task the difficulty is for, e.g. "climb the wall".
    pub task: Option<String>,
    /// Replay the generator from this seed.
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// The d6 rolled by hand.
    #[arg(long, value_name = "FACE")]
    pub rolled: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: CampaignArg,
}

/// `solum oracle`.
#[derive(Debug, Args)]
pub struct OracleArgs {
    /// `expanded` (So1um Expanded's, the default) or `classic` (the original's). Without
    /// it, shows the campaign's setting.
    pub system: Option<String>,
    #[command(flatten)]
    pub campaign: CampaignArg,
}

/// `solum roll-off`.
#[derive(Debug, Args)]
pub struct RollOffArgs {
    /// `on` or `off`. Without it, shows the campaign's setting.
    pub setting: Option<solum_app::Switch>,
    /// Print JSON: what `GET`/`PUT /api/settings/roll-off` answer (`{"on": true}`).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub campaign: CampaignArg,
}

/// `solum play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// `ask` uses the original So1um's oracle in this session, whatever the campaign's
    /// setting.
    #[arg(long)]
    pub classic: bool,
    /// The genre `idea` draws from when none is named.
    #[arg(long, default_value = "fantasy")]
    pub genre: String,
    #[command(flatten)]
    pub campaign: CampaignArg,
}
