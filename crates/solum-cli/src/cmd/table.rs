//! `solum table new`: a table for a game master who joins from the page (a hosted campaign's
//! way to open tables; see docs/hosting.md).

use std::io::Write;

use crate::cli::TableNewArgs;
use crate::render::{DIM, paint};

/// Where the link points when `--public-url` is not given: the address `solum serve`
/// listens on by default.
pub const DEFAULT_PUBLIC_URL: &str = "http://127.0.0.1:7373";

/// Lists the campaign's tables (a missing campaign is refused, not created).
pub fn list(
    campaign: &crate::cli_campaign::CampaignArg,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let tables = super::campaign::on_campaign(campaign, |here| here.tables())??;
    if json {
        serde_json::to_writer(&mut *out, &tables)?;
        writeln!(out)?;
        return Ok(());
    }
    for t in &tables {
        let name = if t.id == 0 {
            "(the campaign's own: the command line's)".to_owned()
        } else {
            format!("\"{}\"", t.name)
        };
        writeln!(
            out,
            "{:>4}  {name}  {}",
            t.id,
            paint(
                DIM,
                format!("{} member(s), {} entries", t.members, t.entries)
            )
        )?;
    }
    Ok(())
}

/// Makes the table and prints its game master's link.
pub fn new(args: &TableNewArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    // A write: the app opens the campaign for it, created on first use.
    let made = super::campaign::on_campaign(&args.campaign, |here| here.new_table(&args.name))??;
    let origin = args
        .public_url
        .as_ref()
        .map_or(DEFAULT_PUBLIC_URL, |p| p.origin());
    let made = made.view(origin);
    if args.json {
        serde_json::to_writer(&mut *out, &made)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "Table {} \"{}\" made.", made.table, made.table_name)?;
    writeln!(out, "Game master: {}", made.link)?;
    writeln!(
        out,
        "{}",
        paint(
            DIM,
            format!(
                "  (works once, until {}: whoever opens it names themselves, runs the table and invites its players from the page)",
                made.expires
            )
        )
    )?;
    Ok(())
}
