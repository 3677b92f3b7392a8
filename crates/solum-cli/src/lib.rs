//! The `solum` command line: parsing, dice sources and rendering. The rules live in the
//! library crates; this crate only turns arguments into rule calls and outcomes into text
//! or JSON.
//!
//! Exit codes: 0 when the command ran (whatever the dice said), 1 for an internal or I/O
//! error, 2 for bad input (a malformed argument, an impossible pool, typed dice that do not
//! fit the roll).

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod cli;
mod cli_campaign;
mod cmd;
mod dice;
mod render;
/// Every file the command line reads or writes, bounded and safe (public for the fuzz
/// targets, which read bytes the way the commands do).
pub mod storage;

pub use cli::Cli;

/// Bad input from the user: printed as it is, exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The exit code of an application error's kind: 2 for bad input (the user fixes the input
/// and tries again), 1 for anything else (busy, refused to whoever asked, internal). The
/// command line's own mapping: the app knows no exit codes.
pub fn exit_code(kind: solum_app::ErrorKind) -> u8 {
    use solum_app::ErrorKind;
    match kind {
        ErrorKind::BadInput => 2,
        ErrorKind::Forbidden
        | ErrorKind::Conflict
        | ErrorKind::Unavailable
        | ErrorKind::Internal => 1,
    }
}

/// Shorthand for a bad-input error.
pub(crate) fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// Writes to standard error, control characters escaped; a failure to write there is
/// ignored, since there is nowhere left to report it (unlike `eprintln!`, which panics).
pub(crate) fn to_stderr(args: std::fmt::Arguments<'_>) {
    let mut err = render::Escaped::new(anstream::stderr().lock());
    let _ = err.write_fmt(args);
    let _ = err.finish();
}

/// `eprint!` through [`to_stderr`].
macro_rules! say {
    ($($arg:tt)*) => { $crate::to_stderr(format_args!($($arg)*)) };
}
pub(crate) use say;

/// Runs the command line and returns the process's exit code.
///
/// All output goes through one writer ([`render::Escaped`]) that remembers a failed write:
/// a reader that stopped reading (`solum … | head`) ends the command quietly with exit 0,
/// as `head` asked for no more; any other failure to write (a full disk) is one line on
/// standard error and exit 1. A failed write is never reported as success.
pub fn main_with_args<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // clap refuses the flag twice at one level but lets a value after the subcommand
    // replace one before it: refused alike, so no campaign is chosen silently.
    let campaigns = args
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .filter(|a| *a == "--campaign" || a.to_string_lossy().starts_with("--campaign="))
        .count();
    if campaigns > 1 {
        say!(
            "{}: --campaign is given {campaigns} times: give it once, before or after the command's name\n",
            render::error_label()
        );
        return ExitCode::from(2);
    }
    let mut out = render::Escaped::new(anstream::stdout().lock());
    let result = match Cli::try_parse_from(args) {
        Ok(cli) if cli.campaign.campaign.is_some() && !cli.command.keeps_campaign() => {
            // The global flag reaches every command; one that keeps nothing says so rather
            // than ignore it.
            Err(bad(
                "--campaign: this command keeps nothing in a campaign (odds, vehicle rolls, static combat without --char, simulations, checks and die-type rolls without --char, Sol and Sol'una rolls, the classic oracle and book, `char bestiary` (a campaign's creatures: `creature list`), `idea --genres` and `classic new -o FILE` are not journaled)",
            ))
        }
        Ok(cli) => cmd::run(cli, &mut out),
        // Help and version go to standard output through the same writer (exit 0).
        Err(err) if err.exit_code() == 0 => {
            write!(out, "{}", err.render().ansi()).map_err(Into::into)
        }
        Err(err) => {
            // Usage errors go to standard error (exit 2), through the same escaping as
            // everything else: clap echoes the argument it refuses, escape sequences and all.
            say!("{}", err.render().ansi());
            return ExitCode::from(err.exit_code() as u8);
        }
    };
    let finished = out.finish();
    match out.failed() {
        Some((std::io::ErrorKind::BrokenPipe, _)) => return ExitCode::SUCCESS,
        Some((_, text)) => {
            say!(
                "{}: cannot write to standard output: {text}\n",
                render::error_label()
            );
            return ExitCode::from(1);
        }
        None => {}
    }
    match result.and(finished.map_err(Into::into)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let code = match err.downcast_ref::<solum_app::AppError>() {
                Some(e) => exit_code(e.kind()),
                None if err.downcast_ref::<BadInput>().is_some() => 2,
                None => 1,
            };
            say!("{}: {err:#}\n", render::error_label());
            ExitCode::from(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::exit_code;
    use solum_app::ErrorKind;

    /// 2 only where the user fixes the input; the lib's doc comment says so.
    #[test]
    fn exit_codes_by_kind() {
        assert_eq!(exit_code(ErrorKind::BadInput), 2);
        for kind in [
            ErrorKind::Forbidden,
            ErrorKind::Conflict,
            ErrorKind::Unavailable,
            ErrorKind::Internal,
        ] {
            assert_eq!(exit_code(kind), 1, "{kind:?}");
        }
    }
}
