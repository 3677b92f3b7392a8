//! The dependency rule of ARCHITECTURE.md as a test (rust-analyzer's tidy tests are the
//! model): it reads the real crate graph from `cargo metadata` and fails when
//!
//! - the application layer (`solum-app`) depends on a concrete store backend,
//! - a rules crate depends on the application, a store or a front end,
//! - a system's rules crate depends on another system's, or on the notation above them, or
//!   the dice core on anything of the rules above it,
//! - a front end (`solum-cli`, `solum-web`) depends on a rules crate directly,
//! - nothing may depend on the test-support crate except as a dev-dependency,
//! - a workspace crate is in no layer (a new crate is placed here first).
//!
//! Only normal and build dependencies count: a test may check its answers against a rules
//! crate or run on a real backend. Today's violations are listed in [`KNOWN`], each with the
//! reason it is still there; a new violation fails, and so does an entry that no longer
//! happens (remove it: the list only shrinks).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// The layers, bottom to top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    /// The dice core: sources, distributions, odds. No I/O, no clock, no store.
    Dice,
    /// One system's rules, over the dice core alone.
    System,
    /// Dice notation, whose So1um terms call the systems' rules.
    Notation,
    /// The store's interface (traits, errors, the in-memory backend).
    StoreInterface,
    /// A concrete store backend, and the crate that picks one from a name.
    StoreBackend,
    /// The application layer: use cases over a `dyn Store` and a dice source.
    App,
    /// Thin front ends: parse, call the app, render.
    FrontEnd,
    /// Test support (a throwaway PostgreSQL server).
    TestSupport,
    /// Benchmarks: measure anything, ship nothing.
    Tool,
}

/// Every workspace crate's layer.
fn layer(name: &str) -> Option<Layer> {
    Some(match name {
        "solum-dice" => Layer::Dice,
        "solum-expanded" | "solum-classic" | "solum-sol" | "solum-soluna" | "solum-dietype" => {
            Layer::System
        }
        "solum-notation" => Layer::Notation,
        "solum-store" => Layer::StoreInterface,
        "solum-store-sqlite" | "solum-store-postgres" | "solum-store-open" => Layer::StoreBackend,
        "solum-app" => Layer::App,
        "solum-cli" | "solum-web" => Layer::FrontEnd,
        "solum-testpg" => Layer::TestSupport,
        "solum-bench" => Layer::Tool,
        _ => return None,
    })
}

/// Today's violations, (from, to, why it is still there). Remove an entry when its edge goes.
const KNOWN: &[(&str, &str, &str)] = &[];

/// A crate's name and its workspace dependencies (normal and build only), from cargo.
fn workspace_graph() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
            "--manifest-path",
            manifest,
        ])
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let meta: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let packages = meta["packages"].as_array().expect("a package list");
    let names: BTreeSet<String> = packages
        .iter()
        .map(|p| p["name"].as_str().expect("a name").to_owned())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("a dependency list")
                .iter()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|d| names.contains(*d))
                .map(str::to_owned)
                .collect();
            (p["name"].as_str().expect("a name").to_owned(), deps)
        })
        .collect()
}

/// Why `from → to` breaks the rule, if it does.
fn breaks(from: Layer, to: Layer) -> Option<&'static str> {
    use Layer::*;
    match (from, to) {
        (_, TestSupport) => Some("test support is a dev-dependency only"),
        (App, StoreBackend) => {
            Some("the app works on a `dyn Store`; the front end picks the backend")
        }
        (Dice | System | Notation, App | StoreInterface | StoreBackend | FrontEnd) => {
            Some("a rules crate does no I/O and knows no use case")
        }
        (Dice, System | Notation) => Some("the dice core knows no system"),
        (System, System) => Some("a system's rules use the dice core alone, never another system"),
        (System, Notation) => Some("the notation sits above the systems"),
        (FrontEnd, Dice | System | Notation) => {
            Some("a front end calls the app, never a rules crate")
        }
        _ => None,
    }
}

/// The violations in `graph`: (from, to) → the rule broken.
fn violations(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<(String, String), String> {
    let mut found = BTreeMap::new();
    for (from, deps) in graph {
        let Some(from_layer) = layer(from) else {
            continue;
        };
        for to in deps {
            let Some(to_layer) = layer(to) else {
                continue;
            };
            if let Some(rule) = breaks(from_layer, to_layer) {
                found.insert((from.clone(), to.clone()), rule.to_owned());
            }
        }
    }
    found
}

#[test]
fn every_workspace_crate_has_a_layer() {
    let unplaced: Vec<String> = workspace_graph()
        .into_keys()
        .filter(|name| layer(name).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "place these crates in a layer (tests/dependency_rule.rs, `layer`): {unplaced:?}"
    );
}

#[test]
fn no_new_edge_breaks_the_dependency_rule_and_the_known_ones_only_shrink() {
    let found = violations(&workspace_graph());
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .map(|(from, to, _)| ((*from).to_owned(), (*to).to_owned()))
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|(edge, _)| !known.contains(*edge))
        .map(|((from, to), rule)| format!("{from} → {to}: {rule}"))
        .collect();
    assert!(
        new.is_empty(),
        "new dependencies break the rule:\n{}",
        new.join("\n")
    );
    let gone: Vec<String> = known
        .iter()
        .filter(|edge| !found.contains_key(*edge))
        .map(|(from, to)| format!("{from} → {to}"))
        .collect();
    assert!(
        gone.is_empty(),
        "these known violations are gone: remove them from KNOWN\n{}",
        gone.join("\n")
    );
}

#[test]
fn the_rule_catches_each_kind_of_violation() {
    // The checker itself, on a made-up graph: each forbidden kind of edge is found, and the
    // allowed ones (a front end on the app and a store opener, the app on the store's
    // interface, a system on the dice core, the notation on the systems) are not.
    let graph: BTreeMap<String, BTreeSet<String>> = [
        (
            "solum-app",
            &["solum-store-sqlite", "solum-store", "solum-dice"][..],
        ),
        ("solum-expanded", &["solum-app", "solum-dice"][..]),
        ("solum-dice", &["solum-store", "solum-sol"][..]),
        (
            "solum-sol",
            &["solum-dice", "solum-soluna", "solum-notation"][..],
        ),
        (
            "solum-notation",
            &["solum-dice", "solum-sol", "solum-expanded"][..],
        ),
        (
            "solum-web",
            &["solum-soluna", "solum-app", "solum-store-open"][..],
        ),
        ("solum-cli", &["solum-testpg", "solum-web"][..]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.iter().map(|s| (*s).to_owned()).collect()))
    .collect();
    let found: BTreeSet<(String, String)> = violations(&graph).into_keys().collect();
    let expected: BTreeSet<(String, String)> = [
        ("solum-app", "solum-store-sqlite"),
        ("solum-expanded", "solum-app"),
        ("solum-dice", "solum-store"),
        ("solum-dice", "solum-sol"),
        ("solum-sol", "solum-soluna"),
        ("solum-sol", "solum-notation"),
        ("solum-web", "solum-soluna"),
        ("solum-cli", "solum-testpg"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_owned(), b.to_owned()))
    .collect();
    assert_eq!(found, expected);
}
