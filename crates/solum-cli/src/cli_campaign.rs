//! The campaign commands' arguments: the oracle, notes, scenes and the journal.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

/// Which campaign a command works on.
#[derive(Debug, Args)]
pub struct CampaignArg {
    /// The campaign file (SQLite). Default: `campaign.solum` in the user's data folder
    /// (`$XDG_DATA_HOME/solum` on Linux), or $SOLUM_CAMPAIGN. Created on first use.
    #[arg(long, value_name = "FILE", env = "SOLUM_CAMPAIGN", global = true)]
    pub campaign: Option<PathBuf>,
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

/// `solum journal …`.
#[derive(Debug, Subcommand)]
pub enum JournalCommand {
    /// Print the journal, one line per entry.
    Show {
        /// Only the last N entries.
        #[arg(long, value_name = "N")]
        last: Option<usize>,
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
        /// The story's title (Markdown).
        #[arg(long, default_value = "Journal")]
        title: String,
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
        campaign: CampaignArg,
    },
    /// Append the entries of a JSON export (every roll is re-derived first; all or nothing).
    Import {
        /// A file written by `journal export --format json`.
        file: PathBuf,
        #[command(flatten)]
        campaign: CampaignArg,
    },
}
