//! The campaign use cases on the in-memory backend, held as the front ends hold a store
//! (`Box<dyn Store>`): the application needs no file to be tested. Expected values come from
//! the rules' texts (the oracle's table) and from the scene rule (a new scene ends the open
//! one first), not from the program's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::{AppError, Campaign, Dice, ErrorKind};
use solum_expanded::oracle::Leaning;
use solum_store::{MemoryStore, Scope, Store, StoreError};

fn campaign() -> Campaign<Box<dyn Store>> {
    let store: Box<dyn Store> = Box::new(MemoryStore::new());
    Campaign::new(store).with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

#[test]
fn a_campaign_runs_on_the_memory_store_through_a_boxed_store() {
    let mut c = campaign();
    // Advantage: the higher of 2 and 6 is 6, "Yes, and"; 6 and 4 then name the event.
    let v = c
        .ask(
            "Is the door locked?",
            Leaning::Advantage,
            Dice::Typed(vec![2, 6, 6, 4]),
        )
        .unwrap();
    assert_eq!((v.answer, v.die), ("Yes, and", 6));
    c.start_scene("The tomb", Some("Find the idol")).unwrap();
    let two = c.start_scene("The escape", None).unwrap();
    assert_eq!(two.len(), 2, "the open scene ends before the next starts");
    c.end_scene(Some("Out alive")).unwrap();
    assert!(c.open_scene().unwrap().is_none());
    c.note("We made it.").unwrap();
    let seqs: Vec<i64> = c.entries().unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        [1, 2, 3, 4, 5, 6],
        "ask, start, end, start, end, note"
    );
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!(report.entries, 6);
}

#[test]
fn a_refusal_of_the_store_reaches_the_caller_as_its_variant() {
    let mut c = campaign();
    // A player's scope at the home table may not change its settings.
    let mut s: Box<dyn Store> = Box::new(MemoryStore::new().with_scope(Scope::member(0, 1, false)));
    let e = s.set_meta("k", "v").unwrap_err();
    assert!(matches!(e, StoreError::Forbidden(_)), "{e:?}");
    let e = AppError::from(e);
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    // A busy or conflicting store is "try again", not the caller's fault.
    let busy = AppError::from(StoreError::Conflict {
        location: "(in memory)".into(),
    });
    assert_eq!(busy.kind(), ErrorKind::Unavailable);
    assert!(c.note("still fine").is_ok());
}
