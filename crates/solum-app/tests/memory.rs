//! The campaign use cases on the in-memory backend, held as the front ends hold a store
//! (`Box<dyn Store>`): the application needs no file to be tested. Expected values come from
//! the rules' texts (the oracle's table) and from the scene rule (a new scene ends the open
//! one first), not from the program's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::policy::Forbidden;
use solum_app::{AppError, Campaign, Dice, ErrorKind, OracleSystem};
use solum_expanded::oracle::Leaning;
use solum_store::{MemoryStore, OtherInvites, Scope, Store, StoreError, Timestamp};

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
    // A store's refusal keeps its kind through the app's error.
    let e = AppError::from(StoreError::Forbidden("not yours".into()));
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    // A player's scope may not change the table's settings: the app's policy, not the store's.
    let mut player = Campaign::new(MemoryStore::new().with_scope(Scope::member(0, 1, false)));
    let e = player.set_roll_off(true).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
    assert!(player.set_oracle_system(OracleSystem::Classic).is_err());
    assert!(!player.roll_off().unwrap(), "nothing changed");
    // A busy or conflicting store is "try again", not the caller's fault.
    let busy = AppError::from(StoreError::Conflict {
        location: "(in memory)".into(),
    });
    assert_eq!(busy.kind(), ErrorKind::Unavailable);
    assert!(c.note("still fine").is_ok());
}

/// The role policy (solum_app::policy) holds for every write the app makes, whatever the
/// backend: the memory store keeps no policy of its own, so each refusal here is the app's.
#[test]
fn the_role_policy_is_the_apps_on_a_store_that_keeps_none() {
    use solum_expanded::character::{Class, Weapon};
    let mut store: Box<dyn Store> = Box::new(MemoryStore::new());
    let at: Timestamp = "2026-11-30T20:00:00Z".parse().unwrap();
    let gm = store
        .create_table("Ford", "Ada", "ada", "s-ada", at)
        .unwrap();
    let join = |store: &mut Box<dyn Store>, name: &str| {
        let token = format!("invite-{name}");
        store
            .add_invite(
                gm.table,
                false,
                &token,
                at,
                Timestamp::MAX,
                OtherInvites::Kept,
            )
            .unwrap();
        match store
            .redeem_invite(
                &token,
                name,
                &name.to_lowercase(),
                &format!("s-{name}"),
                at,
                at,
            )
            .unwrap()
        {
            solum_store::Redeemed::Joined(m) => m,
            other => panic!("{name} did not join: {other:?}"),
        }
    };
    let pia = join(&mut store, "Pia");
    let quill = join(&mut store, "Quill");
    let as_member = |store: Box<dyn Store>, scope: Scope| {
        let mut store = store;
        store.set_scope(scope);
        Campaign::new(store).with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
    };
    let pia_scope = Scope::member(gm.table, pia.id, false);
    let mut c = as_member(store, pia_scope);
    // Body 3, Mind 2, Charm 1; 2d6 1 and 3: no even die, no extra background; d6 1: no armor.
    c.create_character(
        &solum_app::NewCharacter {
            name: "Lia".into(),
            body: solum_app::characters::StartingAttribute::new(3).unwrap(),
            mind: solum_app::characters::StartingAttribute::new(2).unwrap(),
            charm: solum_app::characters::StartingAttribute::new(1).unwrap(),
            backgrounds: vec!["Hunter".into()],
            weapon: Weapon::ranged("bow", Class::Light),
            armor_name: "leather".into(),
        },
        Dice::Typed(vec![1, 3, 1]),
    )
    .unwrap();
    let edit = solum_app::CharacterEdit {
        notes: Some("mine now".into()),
        ..solum_app::CharacterEdit::default()
    };
    // Quill may not change Pia's character; Pia may; the game master may.
    let mut c = as_member(c.into_store(), Scope::member(gm.table, quill.id, false));
    let e = c.edit_character("Lia", &edit).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
    assert!(e.to_string().contains("Lia is not your character"), "{e}");
    assert!(
        matches!(&e, AppError::Forbidden(Forbidden::NotYourCharacter(n)) if n == "Lia"),
        "{e:?}"
    );
    let mut c = as_member(c.into_store(), pia_scope);
    c.edit_character("Lia", &edit).unwrap();
    let mut c = as_member(c.into_store(), Scope::member(gm.table, gm.id, true));
    let gm_edit = solum_app::CharacterEdit {
        notes: Some("owes the ferryman".into()),
        ..solum_app::CharacterEdit::default()
    };
    c.edit_character("Lia", &gm_edit).unwrap();
    // A player writes nothing in secret; the game master does, and reveals it, not in secret.
    let mut c = as_member(c.into_store(), pia_scope.secret());
    let e = c.note("a secret of Pia's").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
    // Refused inside the write (the store's seam carries it as text), given back typed.
    assert!(matches!(e, AppError::Forbidden(Forbidden::Secret)), "{e:?}");
    let gm_scope = Scope::member(gm.table, gm.id, true);
    let mut c = as_member(c.into_store(), gm_scope.secret());
    let hidden = c.note("the traitor is Quill").unwrap().seq;
    let e = c.reveal(hidden).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "revealed in secret: {e}");
    let mut c = as_member(c.into_store(), pia_scope);
    let e = c.reveal(hidden).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "a player revealed: {e}");
    // A reveal is a game master's action (docs/api.md: `gm-only`, wherever it is refused).
    assert!(
        matches!(e, AppError::GmOnly(solum_app::policy::GmOnly::Reveal)),
        "{e:?}"
    );
    let mut c = as_member(c.into_store(), gm_scope);
    c.reveal(hidden).unwrap();
}
