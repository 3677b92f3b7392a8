//! `solum serve`: the web table over the campaign. Opens the campaign (so a bad file fails
//! before anything listens), then hands over to `solum-web` until Ctrl-C.

use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};

use solum_store::Scope;
use solum_store_open::Database;

use crate::cli::{LogLevel, ServeArgs};

/// The server's events (`tracing`'s, from `solum-web`) as lines on standard error, with
/// their time and level. Set once a process; a second call (tests running the command in
/// one process) keeps the first.
fn log_to_stderr(level: LogLevel) {
    use tracing_subscriber::filter::LevelFilter;
    let max = match level {
        LogLevel::Off => LevelFilter::OFF,
        LogLevel::Error => LevelFilter::ERROR,
        LogLevel::Warn => LevelFilter::WARN,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(max)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

pub fn run(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    log_to_stderr(args.log);
    let db = super::campaign::database(&args.campaign)?;
    solum_store_open::open(&db, Scope::HOME).map_err(solum_app::AppError::from)?;
    // A database is shown without its password.
    let shown = match &db {
        Database::Sqlite(path) => path.display().to_string(),
        Database::Postgres(_) => db.to_string(),
    };
    let mut printed = Ok(());
    let mut config = solum_web::Config::new(db);
    config.public_origin = args.public_url.clone();
    config.trusted_proxies = args.trust_proxy.clone();
    if args.unthrottled {
        config = config.unthrottled();
    }
    solum_web::serve(config, args.addr, |ready| {
        let url = ready.url();
        let page = format!("{}/", ready.origin);
        let shown = if page == url {
            format!("{shown} at {url}")
        } else {
            format!("{shown} at {url} (browsers reach it at {page})")
        };
        printed = writeln!(out, "solum serve: the web table of {shown}")
            .and_then(|()| {
                writeln!(
                    out,
                    "Game master of the campaign's own table: {}",
                    ready.home_invite_link
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

/// The longest `--addr` taken: a host name of 253 bytes, a colon and a port, with room for
/// an IPv6 address in brackets.
pub const MAX_ADDR_LEN: usize = 300;

/// Parses `--addr`: `IP:PORT`, `[IPv6]:PORT` or `NAME:PORT`, a name resolved by the system
/// (its first address). A name that resolves to nothing is refused, saying so.
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    if text.len() > MAX_ADDR_LEN {
        return Err(format!(
            "is {} bytes long; at most {MAX_ADDR_LEN} are taken",
            text.len()
        ));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!("`{text}` is not HOST:PORT (e.g. 127.0.0.1:7373)"));
    };
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(format!(
            "`{text}` is not HOST:PORT with a port from 0 to 65535 (e.g. localhost:7373)"
        ));
    }
    let mut found = text
        .to_socket_addrs()
        .map_err(|e| format!("the host `{host}` could not be resolved: {e}"))?;
    found
        .next()
        .ok_or_else(|| format!("the host `{host}` resolves to no address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_names_are_taken_and_bad_ones_refused() {
        assert_eq!(
            parse_addr("127.0.0.1:7373").unwrap(),
            SocketAddr::from(([127, 0, 0, 1], 7373))
        );
        assert_eq!(
            parse_addr("[::1]:80").unwrap(),
            SocketAddr::from(([0, 0, 0, 0, 0, 0, 0, 1], 80))
        );
        let local = parse_addr("localhost:17380").unwrap();
        assert!(local.ip().is_loopback(), "{local}");
        assert_eq!(local.port(), 17380);
        for bad in ["localhost", ":80", "localhost:65536", "localhost:x"] {
            assert!(parse_addr(bad).is_err(), "{bad}");
        }
        assert!(
            parse_addr(&"a".repeat(400))
                .unwrap_err()
                .contains("at most")
        );
        // `.invalid` never resolves (RFC 6761).
        let e = parse_addr("no-such-host.invalid:80").unwrap_err();
        assert!(e.contains("no-such-host.invalid"), "{e}");
    }
}
