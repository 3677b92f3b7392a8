//! solum-cli's integration tests: each file under tests/ drives the real `solum` binary (or
//! compares its `--json` with the HTTP route's) and is a module of this one test binary, so
//! the suite links once rather than once a file. Run one file's tests with
//! `cargo test -p solum-cli --test cli FILE::`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

mod common;
mod contract;

mod bounded_sol_soluna_dietype;
mod bounded_work;
mod campaign;
mod character_checks_http;
mod characters;
mod check;
mod classic;
mod classic_http;
mod classic_sessions;
mod combat_campaign;
mod combat_http;
mod contradictions;
mod dietype;
mod dietype_http;
mod error_exits;
mod escaping;
mod expanded;
mod expanded_bounds;
mod expanded_campaign;
mod expanded_combat_sessions;
mod fights_http;
mod hosted;
mod hostile;
mod hosting_proxy;
mod long_campaigns_sol_dietype;
mod names_and_story;
mod notation;
mod notation_http;
mod odds_budget;
mod play;
mod play_classic;
mod play_session;
mod reads_never_create;
mod safe_writes;
mod scenes_http;
mod serve;
mod sheets_http;
mod siblings;
mod sol;
mod sol_campaign;
mod sol_http;
mod sol_legacy;
mod solo_http;
mod soluna;
mod soluna_http;
mod soluna_played;
mod typed_flags;
mod vehicle_http;
mod verify_damage;
