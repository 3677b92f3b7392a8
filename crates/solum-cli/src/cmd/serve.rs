//! `solum serve`: the web table over the campaign. Opens the campaign (so a bad file fails
//! before anything listens), then hands over to `solum-web` until Ctrl-C.

use std::io::Write;

use solum_store::SqliteStore;

use crate::cli::ServeArgs;

pub fn run(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let path = super::campaign::campaign_path(&args.campaign)?;
    SqliteStore::open(&path).map_err(solum_app::AppError::from)?;
    let shown = path.display().to_string();
    let mut printed = Ok(());
    solum_web::serve(solum_web::Config::new(path), args.addr, |ready| {
        let url = ready.url();
        printed = writeln!(out, "solum serve: the web table of {shown} at {url}")
            .and_then(|()| {
                writeln!(
                    out,
                    "Game master of the campaign's own table: {url}#invite={}",
                    ready.home_invite
                )
            })
            .and_then(|()| {
                writeln!(
                    out,
                    "  (works once, until {}; the link an earlier start printed no longer works)",
                    ready.home_invite_expires
                )
            })
            .and_then(|()| writeln!(out, "Stop with Ctrl-C."))
            .and_then(|()| out.flush());
    })?;
    printed?;
    writeln!(out, "solum serve: stopped")?;
    Ok(())
}
