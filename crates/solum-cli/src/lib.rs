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

pub use cli::Cli;

/// Bad input from the user: printed as it is, exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Shorthand for a bad-input error.
pub(crate) fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// Runs the command line and returns the process's exit code.
pub fn main_with_args<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (2).
            let _ = err.print();
            return ExitCode::from(err.exit_code() as u8);
        }
    };
    let mut out = anstream::stdout().lock();
    match cmd::run(cli, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped reading (`solum … | head`) is not an error.
        Err(err)
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            let _ = out.flush();
            let bad_input = err.downcast_ref::<BadInput>().is_some()
                || err
                    .downcast_ref::<solum_app::AppError>()
                    .is_some_and(|e| e.kind() == solum_app::ErrorKind::BadInput);
            let mut stderr = anstream::stderr().lock();
            let _ = writeln!(stderr, "{}: {err:#}", render::error_label());
            ExitCode::from(if bad_input { 2 } else { 1 })
        }
    }
}
