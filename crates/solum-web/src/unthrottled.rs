//! The limits of a load benchmark: `solum serve --unthrottled` (off by default).
//!
//! A load benchmark on loopback (`bench/examples/table_load.rs`: 100 tables × 10 members,
//! every live stream open, 2,000 rolls a second) comes from one address and rolls far past
//! the budgets meant for strangers on a network: the request rate per session, the write
//! budgets per table, session and address, the tables one address may create, and the caps
//! of connections and live streams. [`Config::unthrottled`] lifts them, and nothing else: the
//! request and body limits, the timeouts and the heavy-work turns stay. It is never for a
//! table others can reach.

use crate::Config;

/// Connections and live streams an unthrottled server takes (the open-files limit still
/// lowers the connections: see [`crate::connection_cap`]).
pub const UNTHROTTLED_CONNECTIONS: usize = 16_384;

impl Config {
    /// These limits with every rate limit and stream cap lifted, for a load benchmark on
    /// loopback (`solum serve --unthrottled`).
    pub fn unthrottled(mut self) -> Self {
        // A bucket that refills a million times a second never runs dry.
        let (burst, per_sec) = (1_000_000, 1_000_000.0);
        self.rate_burst = burst;
        self.rate_per_sec = per_sec;
        self.anonymous_burst = burst;
        self.anonymous_per_sec = per_sec;
        self.table_write_burst = burst;
        self.table_writes_per_sec = per_sec;
        self.session_write_burst = burst;
        self.session_writes_per_sec = per_sec;
        self.peer_write_burst = burst;
        self.peer_writes_per_sec = per_sec;
        self.table_create_burst = burst;
        self.table_creates_per_sec = per_sec;
        self.max_connections = UNTHROTTLED_CONNECTIONS;
        self.max_connections_per_peer = UNTHROTTLED_CONNECTIONS;
        self.live_max = UNTHROTTLED_CONNECTIONS;
        self.live_per_session = UNTHROTTLED_CONNECTIONS;
        self.live_per_peer = UNTHROTTLED_CONNECTIONS;
        self.live_per_table = UNTHROTTLED_CONNECTIONS;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_rates_and_caps_are_lifted() {
        let plain = Config::new(std::path::PathBuf::from("c.solum"));
        let lifted = Config::new(std::path::PathBuf::from("c.solum")).unthrottled();
        assert!(lifted.table_writes_per_sec > 1_000.0 && lifted.live_max > 1_000);
        assert!(lifted.max_connections_per_peer > 1_000 && lifted.rate_burst > 1_000);
        assert!(lifted.anonymous_burst > 1_000 && lifted.anonymous_per_sec > 1_000.0);
        // What protects the server itself stays.
        assert_eq!(lifted.heavy_at_once, plain.heavy_at_once);
        assert_eq!(lifted.body_read_timeout, plain.body_read_timeout);
        assert_eq!(lifted.live_buffer, plain.live_buffer);
    }
}
