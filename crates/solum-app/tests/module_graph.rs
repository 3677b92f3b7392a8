//! The modules of `solum-app` form no cycle (rust-analyzer's tidy tests are the model: the
//! source is read as text, so the rule holds without anyone remembering it).
//!
//! A module depends on another when its code (comments and its `tests` module left out)
//! names it: `crate::journal::…`, `use crate::{journal::By, …}`, or an item the crate root
//! re-exports from it (`crate::Divergence` is `divergence`'s). One module is left out of the
//! graph on purpose: the crate root, `lib.rs`, which declares every module and holds
//! `Campaign`, whose use cases every system module extends.
//!
//! The error type, `error.rs`, is in the graph like any module, and sits below every use case
//! that returns it: what it wraps (the systems' refusals in `refusal.rs`, the role policy's
//! in `forbidden.rs`, an invite's, a simulation's, an expression's and a vehicle roll's in
//! modules of their own) names no module that names the error type back. Why an export is not
//! imported, `error/import_problem.rs`, is read as part of it: an `ImportProblem` holds the
//! `AppError` an entry was refused with.
//!
//! So the journal's registry (`journal.rs`, `records.rs`) names every system's record kind,
//! and no system names the registry: a system journals its kind through
//! `journaling::Journaled`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module's source: comment lines and its `tests` module left out. A module with
/// submodules (`src/schema.rs` and the folder `src/schema/`) is read as one: its files' code
/// together, under its name.
fn sources() -> BTreeMap<String, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all: BTreeMap<String, String> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let files: Vec<std::path::PathBuf> = if path.is_dir() {
            let mut inner: Vec<_> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            inner.sort();
            inner
        } else {
            vec![path.clone()]
        };
        for file in files {
            assert!(
                file.extension().is_some_and(|e| e == "rs"),
                "{}: solum-app's modules are files of src/ and of one level of folders",
                file.display()
            );
            let text = std::fs::read_to_string(&file).unwrap();
            let code: String = text
                .lines()
                .take_while(|l| !l.starts_with("mod tests"))
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let kept = all.entry(name.clone()).or_default();
            kept.push('\n');
            kept.push_str(&code);
        }
    }
    all
}

/// The items the root re-exports, by the module they come from (`pub use journal::{By, …};`).
fn reexports(root: &str) -> BTreeMap<String, String> {
    let mut items = BTreeMap::new();
    for statement in root.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = path.split_once("::") else {
            continue;
        };
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.split(" as ").last().unwrap().trim();
            if !name.is_empty() {
                items.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    items
}

/// The paths a module's code names from the crate: `crate::a::b` and each member of
/// `use crate::{a::b, C, d::{e, f}}`, as their first segment.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut firsts = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The top-level members of the group.
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        firsts.insert(ident(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            firsts.insert(ident(rest));
        }
    }
    firsts.remove("");
    firsts
}

/// Each module's dependencies on the other modules (the root's own items left out).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let sources = sources();
    let items = reexports(&sources["lib"]);
    sources
        .iter()
        .map(|(module, code)| {
            let deps = crate_paths(code)
                .into_iter()
                .filter_map(|first| {
                    if sources.contains_key(&first) {
                        Some(first)
                    } else {
                        items.get(&first).cloned()
                    }
                })
                .filter(|dep| dep != module && dep != "lib")
                .collect();
            (module.clone(), deps)
        })
        .collect()
}

/// A cycle through `from`, if there is one: the modules in order.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    // Depth-first from `from`, remembering each module's parent, until `from` is met again.
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    let mut stack = vec![from.to_owned()];
    while let Some(at) = stack.pop() {
        for next in &graph[&at] {
            if next == from {
                let mut path = vec![at.clone()];
                while let Some(p) = parent.get(path.last().unwrap()) {
                    path.push(p.clone());
                }
                path.push(from.to_owned());
                path.reverse();
                path.dedup();
                path.push(from.to_owned());
                return Some(path);
            }
            if !parent.contains_key(next) {
                parent.insert(next.clone(), at.clone());
                stack.push(next.clone());
            }
        }
    }
    None
}

#[test]
fn the_modules_of_the_app_form_no_cycle() {
    let graph = graph();
    // The reading found what it must: the registry names the systems' kinds.
    assert!(
        graph["journal"].contains("characters"),
        "{:?}",
        graph["journal"]
    );
    assert!(graph["records"].contains("sol"), "{:?}", graph["records"]);
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_through(&graph, m))
        .map(|c| c.join(" → "))
        .collect();
    assert!(
        cycles.is_empty(),
        "modules of solum-app that depend on each other (move what both need into a module \
         below them, as `rolled.rs` and `journaling.rs` are for the journal):\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_error_type_names_only_modules_below_it() {
    let graph = graph();
    // The reading found what it must: the error type wraps the systems' refusals, and its
    // folder (the import problem, whose entry count is `bounded`) is read with it.
    assert!(graph["error"].contains("refusal"), "{:?}", graph["error"]);
    assert!(graph["error"].contains("bounded"), "{:?}", graph["error"]);
    assert!(!graph.contains_key("import_problem"));
    if let Some(cycle) = cycle_through(&graph, "error") {
        panic!(
            "error.rs names {}, which names error.rs back: {}. The error type sits below every \
             use case: move the refusal it wraps into a module that names no use case (as \
             `refusal.rs` and `forbidden.rs` are), and re-export it where it was",
            cycle[1],
            cycle.join(" → ")
        );
    }
}

#[test]
fn a_cycle_is_found_where_there_is_one() {
    // The search itself, on a made-up graph: a → b → c → a.
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"][..]),
        ("c", &["a"][..]),
        ("d", &["a"][..]),
    ]
    .into_iter()
    .map(|(m, deps)| (m.into(), deps.iter().map(|d| d.to_string()).collect()))
    .collect();
    assert_eq!(cycle_through(&graph, "a").unwrap(), ["a", "b", "c", "a"]);
    assert_eq!(cycle_through(&graph, "d"), None);
    assert_eq!(
        crate_paths("use crate::{journal::{By, Record}, AppError};\nx = crate::rolled::faces(y);"),
        ["AppError", "journal", "rolled"]
            .into_iter()
            .map(String::from)
            .collect()
    );
}
