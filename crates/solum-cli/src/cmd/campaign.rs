//! The campaign commands: the oracle, notes, scenes and the journal. Each opens the campaign,
//! makes one application call and renders its view.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use solum_app::AppError;
use solum_app::Leaning;
use solum_app::on_use::{Open, OpenOnUse};
use solum_app::rules::parse_faces;
use solum_app::{
    AskView, Campaign, ClassicAskView, Dice, DifficultyView, IdeaSource, IdeaView, JournalEntry,
    OracleSystem, OracleView, VerifyReport, ideas,
};
use solum_store::{Scope, Store, StoreError};
use solum_store_open::Database;

use crate::bad;
use crate::cli_campaign::{
    AskArgs, CampaignArg, DifficultyArgs, IdeaArgs, JournalCommand, JournalFormat, NoteArgs,
    OracleArgs, SceneCommand,
};
use crate::render::{self, DIM, paint};

/// The largest journal file `journal import` reads.
pub const MAX_IMPORT_BYTES: u64 = 64 * 1024 * 1024;

/// The campaign of the command line, opened by the app when its use case first touches it:
/// a read never creates it, a write does (see [`solum_app::on_use`]).
pub(crate) type Here = Campaign<OpenOnUse<Box<dyn Store>, Opener>>;

/// How the command line opens the campaign `--database`, `--campaign` or the environment
/// names, as the app asks: only if it exists, or created on first use.
pub(crate) type Opener = Box<dyn FnMut(Open) -> Result<Box<dyn Store>, StoreError> + Send>;

/// The opener of the campaign `arg` names.
pub(crate) fn opener(arg: &CampaignArg) -> anyhow::Result<Opener> {
    let db = database(arg)?;
    Ok(Box::new(move |how| match how {
        Open::Existing => solum_store_open::open_existing(&db, Scope::HOME),
        Open::OrCreate => solum_store_open::open(&db, Scope::HOME),
    }))
}

/// [`on_campaign`] for a use case the command line steps through (several calls, its own
/// errors between them): the same decision, one error type.
pub(crate) fn in_campaign<T>(
    arg: &CampaignArg,
    use_case: impl FnOnce(&mut Here) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    solum_app::on_use::run(opener(arg)?, use_case)
}

/// The campaign `arg` names, held through a session of many use cases (`solum play`, a
/// combat script): each touches it as it needs, so reading a missing campaign reads an empty
/// one and nothing is created before the first write.
pub(crate) fn held(arg: &CampaignArg) -> anyhow::Result<Here> {
    Ok(Campaign::new(OpenOnUse::new(opener(arg)?)))
}

/// Runs one use case on the campaign `arg` names. Whether it may create the campaign is the
/// app's decision, not the command's: a use case that only reads a missing campaign answers
/// that there is no campaign there, naming it, and leaves nothing behind
/// (`tests/reads_never_create.rs` runs every read command on a missing campaign). The outer
/// error is the command line's (a bad `--database`), the inner one the use case's.
pub(crate) fn on_campaign<T>(
    arg: &CampaignArg,
    use_case: impl FnOnce(&mut Here) -> Result<T, AppError>,
) -> anyhow::Result<Result<T, AppError>> {
    Ok(solum_app::on_use::run(opener(arg)?, use_case))
}

/// Turns `here` to the table `--table` names, if any (refused when the campaign has none).
fn at_table(here: &mut Here, table: &crate::cli_campaign::TableArg) -> Result<(), AppError> {
    match table.table {
        Some(id) => here.at_table(id),
        None => Ok(()),
    }
}

/// The longest `--database` or $SOLUM_DATABASE taken.
const MAX_DATABASE_LEN: usize = 2_048;

/// Where the campaign lives: `--database`, else $SOLUM_DATABASE, else the file of
/// [`campaign_path`].
pub(crate) fn database(arg: &CampaignArg) -> anyhow::Result<Database> {
    if let Some(db) = named_database(arg)? {
        return Ok(db);
    }
    Ok(Database::Sqlite(campaign_path(arg)?))
}

/// The database `--database` or $SOLUM_DATABASE names (`--campaign` wins over the
/// variable), if any.
fn named_database(arg: &CampaignArg) -> anyhow::Result<Option<Database>> {
    let (text, from) = match (&arg.database, &arg.campaign) {
        (Some(_), Some(_)) => {
            return Err(bad(
                "--database and --campaign both name the campaign: give one of them",
            ));
        }
        (Some(t), None) => (t.clone(), "--database"),
        (None, Some(_)) => return Ok(None),
        (None, None) => match std::env::var("SOLUM_DATABASE") {
            Ok(t) if !t.is_empty() => (t, "$SOLUM_DATABASE"),
            _ => return Ok(None),
        },
    };
    if text.trim().is_empty() {
        return Err(bad(format!("{from}: give a database address or a file")));
    }
    if text.len() > MAX_DATABASE_LEN {
        return Err(bad(format!(
            "{from}: {} bytes long; at most {MAX_DATABASE_LEN} are taken",
            text.len()
        )));
    }
    let db: Database = text
        .parse()
        .map_err(|e: solum_store::StoreError| bad(format!("{from}: {e}")))?;
    Ok(Some(db))
}

/// The campaign file: `--campaign` (before or after the subcommand), else $SOLUM_CAMPAIGN,
/// else the default one in the user's data folder.
pub(crate) fn campaign_path(arg: &CampaignArg) -> anyhow::Result<PathBuf> {
    match named_database(arg)? {
        Some(Database::Sqlite(path)) => return Ok(path),
        Some(db @ Database::Postgres(_)) => {
            return Err(bad(format!(
                "this command works on a campaign file, not on the database {db}: give --campaign FILE"
            )));
        }
        None => {}
    }
    let from_env = std::env::var_os("SOLUM_CAMPAIGN");
    Ok(match (&arg.campaign, from_env) {
        (Some(p), _) if p.as_os_str().is_empty() => {
            return Err(bad("--campaign: give a campaign file, not an empty name"));
        }
        (Some(p), _) => p.clone(),
        (None, Some(p)) if p.is_empty() => {
            return Err(bad(
                "$SOLUM_CAMPAIGN is set but empty: set it to a campaign file, unset it to use the default campaign, or give --campaign FILE",
            ));
        }
        (None, Some(p)) => PathBuf::from(p),
        (None, None) => {
            let p = solum_app::default_campaign_path().ok_or_else(|| {
                bad("no home folder to keep the default campaign in: use --campaign FILE")
            })?;
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            p
        }
    })
}

pub(crate) fn dice(seed: Option<u64>, rolled: Option<&str>) -> anyhow::Result<Dice> {
    Ok(match (seed, rolled) {
        (_, Some(text)) => {
            Dice::Typed(parse_faces(text).map_err(|e| bad(format!("--rolled: {e}")))?)
        }
        (Some(seed), None) => Dice::Seed(seed),
        (None, None) => Dice::Fresh,
    })
}

/// `solum ask`.
pub fn ask(args: &AskArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let leaning = if args.advantage {
        Leaning::Advantage
    } else if args.disadvantage {
        Leaning::Disadvantage
    } else {
        Leaning::Even
    };
    let dice = dice(args.seed, args.rolled.as_deref())?;
    let system = if args.classic {
        Some(OracleSystem::Classic)
    } else if args.expanded {
        Some(OracleSystem::Expanded)
    } else {
        None
    };
    let view = on_campaign(&args.campaign, |here| {
        here.ask_oracle(&args.question, leaning, dice, system)
    })??;
    if args.json {
        return write_json(out, &view);
    }
    write_oracle(out, &view)
}

pub(crate) fn write_oracle(out: &mut dyn Write, view: &OracleView) -> anyhow::Result<()> {
    match view {
        OracleView::Expanded(v) => write_answer(out, v),
        OracleView::Classic(v) => write_classic(out, v),
    }
}

/// `solum oracle`.
pub fn oracle(args: &OracleArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let Some(name) = &args.system else {
        // Only shows the setting: a read, which never creates the campaign.
        return write_oracle_system(
            out,
            on_campaign(&args.campaign, |here| here.oracle_system())??,
        );
    };
    let system = in_campaign(&args.campaign, |here| {
        here.set_oracle_system(OracleSystem::parse(name)?)?;
        Ok(here.oracle_system()?)
    })?;
    write_oracle_system(out, system)
}

/// `solum roll-off [on|off]`.
pub fn roll_off(
    args: &crate::cli_campaign::RollOffArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    // Without a setting it only shows one: a read, which never creates the campaign (a
    // missing one is refused before anything is shown).
    let setting = in_campaign(&args.campaign, |here| roll_off_set(here, args.setting))?;
    write_roll_off(out, setting, args.json)
}

/// Sets (with a word) and reads the roll-off option of a campaign (also `solum play`).
pub(crate) fn roll_off_set(
    campaign: &mut Here,
    setting: Option<solum_app::Switch>,
) -> anyhow::Result<solum_app::RollOffSetting> {
    if let Some(switch) = setting {
        campaign.set_roll_off(switch.is_on())?;
    }
    Ok(campaign.roll_off_setting()?)
}

/// Shows the roll-off option, as JSON when asked.
pub(crate) fn write_roll_off(
    out: &mut dyn Write,
    setting: solum_app::RollOffSetting,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        return write_json(out, &setting);
    }
    writeln!(
        out,
        "roll-off {}",
        if setting.on {
            "on: draws of opposed rolls are rolled off with one die each until one is higher (S3, S14)"
        } else {
            "off: draws of opposed rolls stand, nothing happens (S3)"
        }
    )?;
    Ok(())
}

pub(crate) fn write_oracle_system(out: &mut dyn Write, system: OracleSystem) -> anyhow::Result<()> {
    let which = match system {
        OracleSystem::Expanded => "So1um Expanded's oracle (expanded)",
        OracleSystem::Classic => "the original So1um's oracle (classic)",
    };
    writeln!(out, "`ask` uses {which}")?;
    Ok(())
}

pub(crate) fn write_json(out: &mut dyn Write, view: &impl serde::Serialize) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, view)?;
    writeln!(out)?;
    Ok(())
}

fn how(leaning: Leaning) -> &'static str {
    match leaning {
        Leaning::Even => "d6",
        Leaning::Advantage => "best of 2d6",
        Leaning::Disadvantage => "worst of 2d6",
    }
}

fn write_classic(out: &mut dyn Write, v: &ClassicAskView) -> anyhow::Result<()> {
    writeln!(out, "{}", v.question)?;
    writeln!(
        out,
        "  Answer     {}   (original oracle, {}: {})   chance {:.2}%",
        paint(render::HEAD, &v.answer),
        how(v.leaning),
        render::faces(&v.dice),
        v.p_answer * 100.0
    )?;
    if let (Some(event), Some(die)) = (&v.event, v.event_die) {
        writeln!(out, "  Event      {event}   (event {die})")?;
    }
    write_provenance(out, v.typed, v.seed, v.seq)
}

fn write_provenance(
    out: &mut dyn Write,
    typed: bool,
    seed: Option<u64>,
    seq: i64,
) -> anyhow::Result<()> {
    if typed {
        writeln!(out, "  {}", paint(DIM, "dice typed in"))?;
    }
    render::write_seed(out, seed)?;
    writeln!(out, "  {}", paint(DIM, format!("journal entry {seq}")))?;
    Ok(())
}

/// `solum idea`.
pub fn idea(args: &IdeaArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.genres {
        if args.json {
            return write_json(out, &ideas::GenresAnswer::all());
        }
        for g in ideas::genres() {
            let n = ideas::genre_words(g)?.len();
            writeln!(out, "{g:<16} {n} words")?;
        }
        return Ok(());
    }
    let source = match &args.list {
        Some(path) => list_source(path)?,
        None => IdeaSource::Genre(args.genre.clone()),
    };
    let dice = dice(args.seed, args.rolled.as_deref())?;
    let view = on_campaign(&args.campaign, |here| here.idea(source, args.count, dice))??;
    if args.json {
        return write_json(out, &view);
    }
    write_idea(out, &view)
}

/// A player's list file as an idea source, named by its file name.
pub(crate) fn list_source(path: &Path) -> anyhow::Result<IdeaSource> {
    // Its refusals say what the file is for: `word list PATH: why`.
    let text = crate::storage::read_text(path, ideas::MAX_LIST_BYTES)
        .map_err(|e| bad(format!("word list {e}")))?;
    let words = ideas::parse_list(&text)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    Ok(IdeaSource::Custom { name, words })
}

pub(crate) fn write_idea(out: &mut dyn Write, v: &IdeaView) -> anyhow::Result<()> {
    writeln!(
        out,
        "Idea ({}): {}",
        v.list,
        paint(render::HEAD, v.words.join(" · "))
    )?;
    writeln!(
        out,
        "  {}",
        paint(DIM, format!("d{}: {}", v.list_size, render::faces(&v.dice)))
    )?;
    write_provenance(out, v.typed, v.seed, v.seq)
}

/// `solum difficulty`.
pub fn difficulty(args: &DifficultyArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let dice = dice(args.seed, args.rolled.as_deref())?;
    let view = on_campaign(&args.campaign, |here| {
        here.random_difficulty(args.task.as_deref(), dice)
    })??;
    if args.json {
        return write_json(out, &view);
    }
    write_difficulty(out, &view)
}

pub(crate) fn write_difficulty(out: &mut dyn Write, v: &DifficultyView) -> anyhow::Result<()> {
    let task = v
        .task
        .as_deref()
        .map(|t| format!(" for {}", t))
        .unwrap_or_default();
    writeln!(
        out,
        "Difficulty{task}: {}",
        paint(render::HEAD, format!("{} ({})", v.difficulty, v.name))
    )?;
    write_provenance(out, v.typed, v.seed, v.seq)
}

fn write_answer(out: &mut dyn Write, v: &AskView) -> anyhow::Result<()> {
    let how = how(v.leaning);
    writeln!(out, "{}", v.question)?;
    writeln!(
        out,
        "  Answer     {}   ({how}: {})   chance {:.2}%",
        paint(render::HEAD, v.answer),
        render::faces(&v.dice),
        v.p_answer * 100.0
    )?;
    if let Some(event) = &v.event {
        let dice = match (v.event_die, v.disposition_die) {
            (Some(e), Some(d)) => format!("event {e}, disposition {d}"),
            (Some(e), None) => format!("event {e}"),
            _ => String::new(),
        };
        writeln!(out, "  Event      {event}   ({dice})")?;
    }
    if v.typed {
        writeln!(out, "  {}", paint(DIM, "dice typed in"))?;
    }
    render::write_seed(out, v.seed)?;
    writeln!(out, "  {}", paint(DIM, format!("journal entry {}", v.seq)))?;
    Ok(())
}

/// `solum note`.
pub fn note(args: &NoteArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let entry = on_campaign(&args.campaign, |here| here.note(&args.text))??;
    write_entries(out, &[entry], args.json)
}

/// `solum scene …`.
pub fn scene(command: &SceneCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        SceneCommand::Start {
            title,
            goal,
            json,
            campaign,
        } => {
            let entries = on_campaign(campaign, |here| here.start_scene(title, goal.as_deref()))??;
            if *json {
                // As `POST /api/scenes` answers: the entries, an open scene's end first.
                return write_json(out, &entries);
            }
            write_entries(out, &entries, false)
        }
        SceneCommand::End {
            summary,
            json,
            campaign,
        } => {
            let entry = on_campaign(campaign, |here| here.end_scene(summary.as_deref()))??;
            write_entries(out, &[entry], *json)
        }
        SceneCommand::Show { json, campaign } => {
            let answer = on_campaign(campaign, |here| here.scene_answer())??;
            match (&answer.scene, *json) {
                (_, true) => write_json(out, &answer)?,
                (Some(entry), false) => write_entries(out, std::slice::from_ref(entry), false)?,
                (None, false) => writeln!(out, "No scene is open.")?,
            }
            Ok(())
        }
    }
}

/// `solum journal …`.
pub fn journal(command: &JournalCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        JournalCommand::Show {
            last,
            json,
            table,
            campaign,
        } => {
            let entries = on_campaign(campaign, |here| {
                at_table(here, table)?;
                match last {
                    Some(n) => here.last_entries(*n),
                    None => here.entries(),
                }
            })??;
            if *json {
                return write_json(
                    out,
                    &solum_app::journal_query::JournalPage::shown(entries, None),
                );
            }
            write_entries(out, &entries, false)
        }
        JournalCommand::Export {
            format,
            output,
            title,
            table,
            campaign,
        } => {
            if matches!(format, JournalFormat::Json) && title.is_some() {
                return Err(bad(
                    "--title: a JSON export has no title (give --format markdown, or no --title)",
                ));
            }
            let text = in_campaign(campaign, |here| {
                at_table(here, table)?;
                Ok(match format {
                    JournalFormat::Json => {
                        let mut s = serde_json::to_string_pretty(&here.export()?)?;
                        s.push('\n');
                        s
                    }
                    JournalFormat::Markdown => here
                        .export_markdown(title.as_deref().unwrap_or("Journal"))
                        .context("--title")?,
                })
            })?;
            match output {
                Some(path) => write_new_file(path, text.as_bytes()),
                None => Ok(out.write_all(text.as_bytes())?),
            }
        }
        JournalCommand::Verify {
            json,
            table,
            campaign,
        } => {
            let report = on_campaign(campaign, |here| {
                at_table(here, table)?;
                here.verify()
            })??;
            if *json {
                serde_json::to_writer(&mut *out, &report)?;
                writeln!(out)?;
            } else {
                write_verify(out, &report)?;
            }
            if report.is_clean() {
                Ok(())
            } else {
                out.flush()?;
                let mut wrong = Vec::new();
                if !report.integrity.is_empty() {
                    wrong.push("the database is damaged".to_owned());
                }
                if !report.mismatches.is_empty() {
                    let seqs: Vec<String> = report
                        .mismatches
                        .iter()
                        .map(|m| m.seq.to_string())
                        .collect();
                    wrong.push(format!("entries {} do not re-derive", seqs.join(", ")));
                }
                if !report.sheet_mismatches.is_empty() {
                    let names: Vec<String> = report
                        .sheet_mismatches
                        .iter()
                        .map(|m| format!("{} {}", m.system, m.name))
                        .collect();
                    wrong.push(format!(
                        "sheets {} differ from their journal",
                        names.join(", ")
                    ));
                }
                Err(anyhow::anyhow!(
                    "the campaign does not verify: {}",
                    wrong.join("; ")
                ))
            }
        }
        JournalCommand::Import { file, campaign } => {
            let text = if file.as_os_str() == "-" {
                crate::storage::read_stdin(MAX_IMPORT_BYTES)
            } else {
                crate::storage::read_text(file, MAX_IMPORT_BYTES)
            }
            .map_err(|e| bad(e.to_string()))?;
            let count =
                on_campaign(campaign, |here| here.import_json(&text))?.map_err(|e| match e {
                    solum_app::AppError::BadImport(reason) => {
                        bad(format!("{}: {reason}", file.display()))
                    }
                    e => e.into(),
                })?;
            let (n, total) = (count.added, count.total);
            if n == total {
                writeln!(out, "imported {n} entries")?;
            } else {
                writeln!(
                    out,
                    "imported {n} entries; {} were already in the journal",
                    total - n
                )?;
            }
            Ok(())
        }
        JournalCommand::Reveal {
            seq,
            json,
            campaign,
        } => {
            let entry = on_campaign(campaign, |here| here.reveal(*seq))??;
            // As `POST /api/journal/{seq}/reveal` answers: with the entry's `line`.
            write_entries(out, &[entry.for_display()], *json)
        }
    }
}

pub(crate) fn write_verify(out: &mut dyn Write, report: &VerifyReport) -> anyhow::Result<()> {
    for problem in &report.integrity {
        writeln!(out, "database: {problem}")?;
    }
    for m in &report.mismatches {
        writeln!(out, "entry {}: {}", m.seq, m.reason)?;
    }
    for m in &report.sheet_mismatches {
        writeln!(out, "sheet {} {}: {}", m.system, m.name, m.reason)?;
    }
    writeln!(
        out,
        "{} entries, {} rolls re-derived, {} do not match",
        report.entries,
        report.rolls,
        report.mismatches.len()
    )?;
    writeln!(
        out,
        "{} sheets compared with their journal, {} differ; database integrity {}",
        report.sheets,
        report.sheet_mismatches.len(),
        if report.integrity.is_empty() {
            "ok"
        } else {
            "FAILED"
        }
    )?;
    Ok(())
}

pub(crate) fn write_entries(
    out: &mut dyn Write,
    entries: &[JournalEntry],
    json: bool,
) -> anyhow::Result<()> {
    for e in entries {
        if json {
            serde_json::to_writer(&mut *out, e)?;
            writeln!(out)?;
            continue;
        }
        let when = e.at.get(..16).unwrap_or(&e.at).replace('T', " ");
        let mut what = e.record.line();
        if e.secret {
            what.insert_str(0, "(secret) ");
        }
        writeln!(out, "{:>5}  {}  {what}", e.seq, paint(DIM, when))?;
    }
    Ok(())
}

/// Writes a new file through the one safe write of `crate::storage`; an existing file
/// is never replaced.
fn write_new_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_file(path, bytes, crate::storage::Replace::Never)
}

/// A file written safely (`crate::storage::write_file`), the one way the command line
/// writes a file; the refusals (a symbolic link, not a regular file, read-only, already
/// there) are bad input.
pub(crate) fn write_file(
    path: &Path,
    bytes: &[u8],
    replace: crate::storage::Replace,
) -> anyhow::Result<()> {
    use crate::storage::StorageError;
    crate::storage::write_file(path, bytes, replace).map_err(|e| match e {
        StorageError::NotAFile { .. }
        | StorageError::Symlink { .. }
        | StorageError::ReadOnly { .. }
        | StorageError::Exists { .. } => bad(e.to_string()),
        other => anyhow::Error::new(other),
    })
}
