//! One module per command.

use std::io::Write;

use clap::CommandFactory;

use crate::bad;
use crate::cli::{Cli, Command, OddsArgs, OddsCommand, RollArgs, RollCommand};

mod campaign;
mod character;
mod check;
mod classic;
mod combat;
mod dietype;
mod notation;
mod odds;
mod play;
pub(crate) mod serve;
mod sim;
mod sol;
mod soluna;
mod table;
mod vehicle;

/// A refusal of the application whose field `flag` names as one of the command's flags:
/// bad input saying that flag; any other error as it is. The field is matched as a variant
/// of the system's field enum, never as text.
pub(crate) fn flagged<F: solum_app::fields::RequestField>(
    e: solum_app::AppError,
    flag: impl Fn(F) -> Option<&'static str>,
) -> anyhow::Error {
    if let Some((field, problem)) = e.refused_field::<F>()
        && let Some(flag) = flag(field)
    {
        return bad(format!("{flag}: {problem}"));
    }
    e.into()
}

/// Runs a parsed command line, writing to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> anyhow::Result<()> {
    match cli.command {
        Command::Check(args) => check::run(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Check(args)),
            ..
        }) => odds::check(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Duel(args)),
            ..
        }) => odds::duel(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Static(args)),
            ..
        }) => odds::fast_static(&args, out),
        Command::Character(c) => character::run(&c, out),
        Command::Combat(args) => combat::run(&args, out),
        Command::Creature(c) => combat::creature(&c, out),
        Command::Vehicle(c) => vehicle::run(&c, out),
        Command::Sim(args) => sim::run(&args, out),
        Command::Static(args) => odds::play_static(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Dietype(args)),
            ..
        }) => dietype::odds(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Sol(args)),
            ..
        }) => sol::odds(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Soluna(args)),
            ..
        }) => soluna::odds(&args, out),
        Command::Odds(OddsArgs {
            command: Some(OddsCommand::Classic(c)),
            ..
        }) => classic::odds(&c, out),
        Command::Roll(RollArgs {
            command: Some(RollCommand::Dietype(args)),
            ..
        }) => dietype::roll(&args, out),
        Command::Roll(RollArgs {
            command: Some(RollCommand::Sol(args)),
            ..
        }) => sol::roll(&args, out),
        Command::Roll(RollArgs {
            command: Some(RollCommand::Soluna(args)),
            ..
        }) => soluna::roll(&args, out),
        Command::Roll(RollArgs {
            command: None,
            notation,
        }) => notation::roll(&notation, out),
        Command::Odds(OddsArgs {
            command: None,
            notation,
        }) => notation::odds(&notation, out),
        Command::Classic(c) => classic::run(&c, out),
        Command::Sol(c) => sol::run(&c, out),
        Command::Soluna(c) => soluna::run(&c, out),
        Command::Dietype(c) => dietype::run(&c, out),
        Command::Ask(args) => campaign::ask(&args, out),
        Command::Note(args) => campaign::note(&args, out),
        Command::Scene(c) => campaign::scene(&c, out),
        Command::Journal(c) => campaign::journal(&c, out),
        Command::Idea(args) => campaign::idea(&args, out),
        Command::Difficulty(args) => campaign::difficulty(&args, out),
        Command::Oracle(args) => campaign::oracle(&args, out),
        Command::RollOff(args) => campaign::roll_off(&args, out),
        Command::Play(args) => play::run(&args, out),
        Command::Serve(args) => serve::run(&args, out),
        Command::Table(crate::cli::TableCommand::New(args)) => table::new(&args, out),
        Command::Table(crate::cli::TableCommand::List { json, campaign }) => {
            table::list(&campaign, json, out)
        }
        Command::Completions { shell } => {
            // clap_complete panics on a failed write: generate into memory, then write.
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "solum", &mut text);
            out.write_all(&text)?;
            Ok(())
        }
        Command::Man => {
            clap_mangen::Man::new(Cli::command()).render(out)?;
            Ok(())
        }
    }
}

/// Where a `new` command saves a sheet: `--output`, or NAME.toml; an existing file is only
/// replaced with `--force`, so no sheet is lost by accident.
pub fn new_sheet_path(
    output: Option<&std::path::Path>,
    name: &str,
    force: bool,
) -> anyhow::Result<std::path::PathBuf> {
    let path = output
        .map(ToOwned::to_owned)
        .unwrap_or_else(|| format!("{}.toml", name.to_lowercase().replace(' ', "-")).into());
    // A hero file is TOML, and `classic check`/`show` know it by its extension.
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    {
        return Err(bad(format!(
            "-o {}: a hero file is TOML; give a name ending in .toml",
            path.display()
        )));
    }
    if path.exists() && !force {
        return Err(bad(format!(
            "{}: already exists (use --force to replace it, or -o FILE)",
            path.display()
        )));
    }
    Ok(path)
}
