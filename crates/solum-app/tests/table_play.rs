//! Issue 21 at the application layer: who made an entry, re-entry links that expire.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::tables;
use solum_app::{Campaign, JournalEntry};
use solum_store::Scope;
use solum_store_sqlite::SqliteStore;

fn campaign_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    (dir, path)
}

/// Table 0 played without a member (the command line) says so; entries of a member carry
/// the member's name; `journal verify` re-derives both.
#[test]
fn the_command_line_and_members_are_named_in_the_journal() {
    let (_dir, path) = campaign_file();
    let mut cli = Campaign::new(SqliteStore::open(&path, Scope::HOME).unwrap());
    cli.note("From the terminal.").unwrap();
    let mut store = SqliteStore::open(&path, Scope::HOME).unwrap();
    let joined = tables::create_table(&mut store, "Club", "Ada").unwrap();
    let scope = Scope::member(joined.table, joined.member.id, true);
    let store = SqliteStore::open(&path, scope).unwrap();
    let by = tables::by_of(&store, scope).unwrap();
    let mut ada = Campaign::new(store).acting_as(by);
    ada.note("At the club.").unwrap();
    let home: Vec<JournalEntry> = cli.entries().unwrap();
    let by = home[0].by.clone().unwrap();
    assert_eq!(
        (by.member, by.name.as_str(), by.gm),
        (None, "command line", true)
    );
    let club = ada.entries().unwrap();
    let by = club[0].by.clone().unwrap();
    assert_eq!(
        (by.member, by.name.as_str(), by.gm),
        (Some(joined.member.id), "Ada", true)
    );
    assert!(cli.verify().unwrap().mismatches.is_empty());
    assert!(ada.verify().unwrap().mismatches.is_empty());
}

/// A re-entry link works within 7 days, not at or after its expiry.
#[test]
fn a_re_entry_link_expires_after_seven_days() {
    let (_dir, path) = campaign_file();
    let mut store = SqliteStore::open(&path, Scope::HOME).unwrap();
    let joined = tables::create_table(&mut store, "Club", "Ada").unwrap();
    let gm_scope = Scope {
        table: joined.table,
        member: None,
        gm: true,
        secret_writes: false,
    };
    let mut store = SqliteStore::open(&path, gm_scope).unwrap();
    let ada = tables::session(&store, &joined.token).unwrap().unwrap();
    let t0: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    let week = jiff::SignedDuration::from_hours(7 * 24);
    let link = tables::reentry_at(&mut store, &ada, ada.id, t0).unwrap();
    assert_eq!(link.expires, "2026-12-08T10:00:00Z");
    let late = tables::redeem_reentry_at(&mut store, &link.token, None, false, t0 + week);
    let late = late.unwrap_err();
    assert_eq!(late.code(), "reentry-expired");
    let message = late.to_string();
    assert!(
        message.contains("expired at 2026-12-08T10:00:00Z"),
        "{message}"
    );
    let link = tables::reentry_at(&mut store, &ada, ada.id, t0).unwrap();
    let just_in_time = t0 + week - jiff::SignedDuration::from_secs(1);
    let back =
        tables::redeem_reentry_at(&mut store, &link.token, None, false, just_in_time).unwrap();
    assert_eq!((back.member.id, back.member.role), (ada.id, "gm"));
}

/// An invite that cannot be used says which case it is, as a value (one code for the API).
#[test]
fn an_unusable_invite_says_why_as_a_value() {
    use solum_app::AppError;
    use solum_app::tables::InviteRefusal;
    let (_dir, path) = campaign_file();
    let mut store = SqliteStore::open(&path, Scope::HOME).unwrap();
    let joined = tables::create_table(&mut store, "Club", "Ada").unwrap();
    let scope = Scope::member(joined.table, joined.member.id, true);
    let mut store = SqliteStore::open(&path, scope).unwrap();
    let ada = tables::session(&store, &joined.token).unwrap().unwrap();
    let refusal = |r: Result<tables::Joined, AppError>| {
        let e = r.unwrap_err();
        assert_eq!(e.code(), "invite-unusable", "{e}");
        match e {
            AppError::Invite(why) => why,
            e => panic!("{e:?}"),
        }
    };
    let joins = |store: &mut SqliteStore, token: &str, name: &str| {
        tables::join(store, token, name, None, false)
    };
    assert_eq!(
        refusal(joins(&mut store, "not an invite", "Bo")),
        InviteRefusal::Unknown
    );
    let once = tables::invite(&mut store, &ada, false).unwrap();
    joins(&mut store, &once.token, "Bo").unwrap();
    assert_eq!(
        refusal(joins(&mut store, &once.token, "Cy")),
        InviteRefusal::Used
    );
    let revoked = tables::invite(&mut store, &ada, false).unwrap();
    tables::revoke_invite(&mut store, &ada, revoked.id).unwrap();
    assert_eq!(
        refusal(joins(&mut store, &revoked.token, "Cy")),
        InviteRefusal::Revoked
    );
    let late = tables::invite(&mut store, &ada, false).unwrap();
    let after = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(8 * 24);
    let expires: jiff::Timestamp = late.expires.parse().unwrap();
    assert_eq!(
        refusal(tables::join_at(
            &mut store,
            &late.token,
            "Di",
            None,
            false,
            after
        )),
        InviteRefusal::Expired(expires)
    );
}
