//! The campaign commands: the oracle, notes, scenes and the journal. Each opens the campaign,
//! makes one application call and renders its view.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use solum_app::{AskView, Campaign, Dice, JournalEntry, JournalExport, Record};
use solum_dice::parse_faces;
use solum_expanded::oracle::Leaning;
use solum_store::SqliteStore;

use crate::bad;
use crate::cli_campaign::{
    AskArgs, CampaignArg, JournalCommand, JournalFormat, NoteArgs, SceneCommand,
};
use crate::render::{self, DIM, paint};

/// The largest journal file `journal import` reads.
pub const MAX_IMPORT_BYTES: u64 = 64 * 1024 * 1024;

fn open(arg: &CampaignArg) -> anyhow::Result<Campaign<SqliteStore>> {
    let path: PathBuf = match &arg.campaign {
        Some(p) => p.clone(),
        None => {
            let p = solum_app::default_campaign_path().ok_or_else(|| {
                bad("no home folder to keep the default campaign in: use --campaign FILE")
            })?;
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            p
        }
    };
    Ok(Campaign::new(
        SqliteStore::open(&path).map_err(solum_app::AppError::from)?,
    ))
}

fn dice(seed: Option<u64>, rolled: Option<&str>) -> anyhow::Result<Dice> {
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
    let mut campaign = open(&args.campaign)?;
    let view = campaign.ask(&args.question, leaning, dice)?;
    if args.json {
        serde_json::to_writer(&mut *out, &view)?;
        writeln!(out)?;
        return Ok(());
    }
    write_answer(out, &view)
}

fn write_answer(out: &mut dyn Write, v: &AskView) -> anyhow::Result<()> {
    let how = match v.leaning {
        Leaning::Even => "d6",
        Leaning::Advantage => "best of 2d6",
        Leaning::Disadvantage => "worst of 2d6",
    };
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
    let entry = open(&args.campaign)?.note(&args.text)?;
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
            let entries = open(campaign)?.start_scene(title, goal.as_deref())?;
            write_entries(out, &entries, *json)
        }
        SceneCommand::End {
            summary,
            json,
            campaign,
        } => {
            let entry = open(campaign)?.end_scene(summary.as_deref())?;
            write_entries(out, &[entry], *json)
        }
        SceneCommand::Show { json, campaign } => {
            let open_scene = open(campaign)?.open_scene()?;
            match (open_scene, *json) {
                (scene, true) => {
                    serde_json::to_writer(&mut *out, &scene)?;
                    writeln!(out)?;
                }
                (Some(entry), false) => write_entries(out, &[entry], false)?,
                (None, false) => writeln!(out, "No scene is open.")?,
            }
            Ok(())
        }
    }
}

/// `solum journal …`.
pub fn journal(command: &JournalCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        JournalCommand::Show { last, campaign } => {
            let entries = open(campaign)?.entries()?;
            let skip = last.map_or(0, |n| entries.len().saturating_sub(n));
            write_entries(out, &entries[skip..], false)
        }
        JournalCommand::Export {
            format,
            output,
            title,
            campaign,
        } => {
            let campaign = open(campaign)?;
            let text = match format {
                JournalFormat::Json => {
                    let mut s = serde_json::to_string_pretty(&campaign.export()?)?;
                    s.push('\n');
                    s
                }
                JournalFormat::Markdown => campaign.export_markdown(title)?,
            };
            match output {
                Some(path) => write_new_file(path, text.as_bytes()),
                None => Ok(out.write_all(text.as_bytes())?),
            }
        }
        JournalCommand::Verify { json, campaign } => {
            let report = open(campaign)?.verify()?;
            if *json {
                serde_json::to_writer(&mut *out, &report)?;
                writeln!(out)?;
            } else {
                for m in &report.mismatches {
                    writeln!(out, "entry {}: {}", m.seq, m.reason)?;
                }
                writeln!(
                    out,
                    "{} entries, {} rolls re-derived, {} do not match",
                    report.entries,
                    report.rolls,
                    report.mismatches.len()
                )?;
            }
            if report.mismatches.is_empty() {
                Ok(())
            } else {
                out.flush()?;
                let seqs: Vec<String> = report
                    .mismatches
                    .iter()
                    .map(|m| m.seq.to_string())
                    .collect();
                Err(anyhow::anyhow!(
                    "the journal does not verify: entries {}",
                    seqs.join(", ")
                ))
            }
        }
        JournalCommand::Import { file, campaign } => {
            let text = read_capped(file, MAX_IMPORT_BYTES)?;
            let export: JournalExport = serde_json::from_str(&text).map_err(|e| {
                bad(format!(
                    "{}: not a solum journal export: {e}",
                    file.display()
                ))
            })?;
            let n = open(campaign)?.import(export)?;
            writeln!(out, "imported {n} entries")?;
            Ok(())
        }
    }
}

fn write_entries(out: &mut dyn Write, entries: &[JournalEntry], json: bool) -> anyhow::Result<()> {
    for e in entries {
        if json {
            serde_json::to_writer(&mut *out, e)?;
            writeln!(out)?;
            continue;
        }
        let when = e.at.get(..16).unwrap_or(&e.at).replace('T', " ");
        let what = match &e.record {
            Record::Note { text } => text.clone(),
            Record::SceneStart { title, goal } => match goal {
                Some(g) => format!("Scene: {}  (goal: {})", title, g),
                None => format!("Scene: {}", title),
            },
            Record::SceneEnd { summary } => match summary {
                Some(s) => format!("Scene ends: {}", s),
                None => "Scene ends".into(),
            },
            Record::Oracle {
                question, outcome, ..
            } => {
                let mut s = format!(
                    "{} → {} ({})",
                    question,
                    outcome.answer.text(),
                    render::faces(&outcome.dice)
                );
                if let Some(event) = outcome.event {
                    s.push_str(&format!("; {}", event.text()));
                }
                s
            }
        };
        writeln!(out, "{:>5}  {}  {what}", e.seq, paint(DIM, when))?;
    }
    Ok(())
}

/// Reads a regular file of at most `cap` bytes.
fn read_capped(path: &Path, cap: u64) -> anyhow::Result<String> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(bad(format!("{}: not a regular file", path.display())));
    }
    let mut text = String::new();
    file.take(cap + 1)
        .read_to_string(&mut text)
        .map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if text.len() as u64 > cap {
        return Err(bad(format!(
            "{}: larger than the limit of {} MiB",
            path.display(),
            cap / (1024 * 1024)
        )));
    }
    Ok(text)
}

/// Writes a new file safely: a temporary file beside it, flushed to disk, then renamed into
/// place only if nothing exists there.
fn write_new_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a file in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist_noclobber(path).map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            bad(format!("{} exists: choose another name", path.display()))
        } else {
            anyhow::Error::from(e.error).context(format!("writing {}", path.display()))
        }
    })?;
    Ok(())
}
