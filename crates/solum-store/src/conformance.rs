//! The conformance suite: the guarantees every backend keeps, one function each, run on a
//! fresh store from `factory` (an empty campaign seen through [`Scope::HOME`]). Each panics
//! with a message naming the guarantee broken. A backend's tests call [`run_all`]:
//!
//! ```ignore
//! solum_store::conformance::run_all(&|| Box::new(MyStore::open_fresh()) as Box<dyn Store>);
//! ```
//!
//! Expected values follow from the trait's documented semantics (each table numbers its
//! journal 1, 2, 3, …; a player's scope never sees a secret entry; …), not from any
//! backend's output.
#![allow(clippy::unwrap_used)] // a test suite: an unwrap that fails is a check that fails

use serde_json::json;

use crate::{
    CampaignStore, MAX_ENTRY_BYTES, Member, NewEntry, OtherInvites, Redeemed, SESSION_TOUCH, Scope,
    Sheet, SignedDuration, Store, StoreError, TableStore, Timestamp, name_key,
};

/// What makes a fresh, empty store: a new temporary file, a new database schema, a new
/// [`crate::MemoryStore`].
pub type Factory<'a> = &'a dyn Fn() -> Box<dyn Store>;

/// Every guarantee, one after another, each on a fresh store.
pub fn run_all(factory: Factory<'_>) {
    append_numbers_each_table_from_one_without_gaps(factory);
    journal_pages_forwards_backwards_and_from_the_end(factory);
    a_table_never_reads_or_writes_another(factory);
    a_player_never_reads_a_secret_entry(factory);
    a_secret_entry_is_revealed_once(factory);
    sheets_have_versions_and_names_unique_whatever_the_case(factory);
    a_sheet_knows_its_owner(factory);
    a_failed_write_keeps_nothing(factory);
    a_group_begun_inside_a_group_commits_with_it(factory);
    a_name_no_sheet_can_have_finds_none(factory);
    a_tables_times_never_go_back(factory);
    settings_belong_to_their_table(factory);
    invites_are_used_once_and_expire_and_are_revoked(factory);
    a_new_invite_may_replace_the_others_of_its_role(factory);
    sessions_expire_when_idle_and_end_on_logout(factory);
    an_oversized_entry_or_sheet_is_refused(factory);
    the_journal_is_append_only(factory);
    a_table_made_for_an_invite_has_no_member_until_its_game_master_joins(factory);
    every_table_is_listed_whatever_the_scope(factory);
}

/// When the conformance tables are created: 2026-12-01T00:00:00Z.
/// (Unix second 1,796,083,200 = 86,400 × 20,788 days since 1970-01-01.)
const AT: Timestamp = Timestamp::constant(1_796_083_200, 0);

/// `n` seconds after [`AT`].
fn at(n: i64) -> Timestamp {
    AT.checked_add(secs(n)).expect("a time within range")
}

/// `n` seconds.
fn secs(n: i64) -> SignedDuration {
    SignedDuration::from_secs(n)
}

fn entry(n: i64) -> NewEntry {
    NewEntry {
        at: AT,
        kind: "note".into(),
        schema: 1,
        body: json!({ "text": format!("entry {n}") }),
    }
}

fn kind_entry(kind: &str, n: i64) -> NewEntry {
    NewEntry {
        kind: kind.into(),
        ..entry(n)
    }
}

fn sheet(system: &str, name: &str, hp: i64) -> Sheet {
    Sheet {
        system: system.into(),
        name: name.into(),
        schema: 1,
        version: 0,
        body: json!({ "name": name, "hp": hp }),
    }
}

fn seqs(entries: &[crate::Entry]) -> Vec<i64> {
    entries.iter().map(|e| e.seq).collect()
}

fn texts(entries: &[crate::Entry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| e.body["text"].as_str().unwrap_or("?").to_owned())
        .collect()
}

/// A new table with its game master (session `gm-<name>`), and the game master's scope.
fn table(s: &mut Box<dyn Store>, name: &str) -> (Member, Scope) {
    let gm = s
        .create_table(name, "Gamemaster", "gamemaster", &format!("gm-{name}"), AT)
        .unwrap_or_else(|e| panic!("conformance: creating table {name} failed: {e}"));
    assert!(gm.gm, "conformance: a table's creator is its game master");
    assert_eq!(
        gm.table_name, name,
        "conformance: a member knows their table's name"
    );
    let scope = Scope::member(gm.table, gm.id, true);
    (gm, scope)
}

/// A player joined to `table` by a fresh invite.
fn player(s: &mut Box<dyn Store>, table: i64, name: &str) -> Member {
    let token = format!("invite-{table}-{name}");
    s.add_invite(table, false, &token, AT, at(1_000), OtherInvites::Kept)
        .unwrap_or_else(|e| panic!("conformance: adding an invite failed: {e}"));
    match s.redeem_invite(
        &token,
        name,
        &name_key(name),
        &format!("session-{table}-{name}"),
        AT,
        at(1),
    ) {
        Ok(Redeemed::Joined(m)) => m,
        other => panic!("conformance: a fresh invite did not join {name}: {other:?}"),
    }
}

fn write_sheet(s: &mut Box<dyn Store>, new: &Sheet) -> Result<(), StoreError> {
    s.write(&mut |tx| tx.insert_sheet(new))
}

fn update(s: &mut Box<dyn Store>, name: &str, new: &Sheet) -> Result<Sheet, StoreError> {
    let mut out = None;
    s.write(&mut |tx| {
        out = Some(tx.update_sheet(&new.system, name, new)?);
        Ok(())
    })?;
    Ok(out.expect("conformance: a write that succeeded ran its work"))
}

/// Each table numbers its own journal 1, 2, 3, … in commit order with no gap, whether
/// entries come one call at a time or several in one call.
pub fn append_numbers_each_table_from_one_without_gaps(factory: Factory<'_>) {
    let mut s = factory();
    let stored = s.append(&[entry(1), entry(2)]).unwrap();
    assert_eq!(
        seqs(&stored),
        [1, 2],
        "conformance: the first entries are 1 and 2"
    );
    assert_eq!(
        stored[0].body,
        entry(1).body,
        "conformance: append returns the body"
    );
    assert!(
        !stored[0].secret,
        "conformance: the home scope appends in the open"
    );
    let (_, t) = table(&mut s, "second");
    s.set_scope(t);
    let other = s.append(&[entry(10)]).unwrap();
    assert_eq!(
        seqs(&other),
        [1],
        "conformance: another table's journal starts at 1"
    );
    s.set_scope(Scope::HOME);
    let third = s.append(&[entry(3)]).unwrap();
    assert_eq!(
        seqs(&third),
        [3],
        "conformance: a table's next number ignores other tables' entries"
    );
    let all = s.entries_after(0, 100).unwrap();
    assert_eq!(
        seqs(&all),
        [1, 2, 3],
        "conformance: entries come back in order"
    );
    assert_eq!(texts(&all), ["entry 1", "entry 2", "entry 3"]);
    assert_eq!(
        s.entry_count().unwrap(),
        3,
        "conformance: entry_count of table 0"
    );
    assert_eq!(
        s.last_seq(0).unwrap(),
        3,
        "conformance: last_seq of table 0"
    );
    assert_eq!(
        s.last_seq(t.table).unwrap(),
        1,
        "conformance: last_seq of table 2"
    );
    assert_eq!(
        s.last_seq(999).unwrap(),
        0,
        "conformance: last_seq of no journal is 0"
    );
    assert!(
        s.append(&[]).unwrap().is_empty(),
        "conformance: appending nothing"
    );
    assert_eq!(
        s.append(&[entry(4)]).unwrap()[0].seq,
        4,
        "conformance: no gap"
    );
}

/// Forwards from a number, backwards from one (newest first), the latest page, and the
/// latest of a kind.
pub fn journal_pages_forwards_backwards_and_from_the_end(factory: Factory<'_>) {
    let mut s = factory();
    let kinds = ["scene-start", "note", "note", "scene-end", "note"];
    for n in 1..=10 {
        let kind = kinds[usize::try_from(n - 1).unwrap_or(0) % kinds.len()];
        s.append(&[kind_entry(kind, n)]).unwrap();
    }
    assert_eq!(
        seqs(&s.entries_after(3, 4).unwrap()),
        [4, 5, 6, 7],
        "conformance: entries_after(3, 4)"
    );
    assert!(
        s.entries_after(10, 5).unwrap().is_empty(),
        "conformance: after the end"
    );
    assert!(
        s.entries_after(0, 0).unwrap().is_empty(),
        "conformance: limit 0"
    );
    assert_eq!(
        seqs(&s.last_entries(3).unwrap()),
        [8, 9, 10],
        "conformance: last_entries(3) in order"
    );
    assert_eq!(
        seqs(&s.last_entries(100).unwrap()),
        (1..=10).collect::<Vec<_>>(),
        "conformance: last_entries past the start"
    );
    assert_eq!(
        seqs(&s.entries_before(5, 2).unwrap()),
        [4, 3],
        "conformance: entries_before(5, 2), newest first"
    );
    assert_eq!(
        seqs(&s.entries_before(i64::MAX, 2).unwrap()),
        [10, 9],
        "conformance: entries_before from the end"
    );
    assert!(
        s.entries_before(1, 5).unwrap().is_empty(),
        "conformance: before 1"
    );
    assert_eq!(
        s.seqs_after(3, 4).unwrap(),
        [4, 5, 6, 7],
        "conformance: seqs_after(3, 4)"
    );
    assert_eq!(
        s.seqs_before(i64::MAX, 3).unwrap(),
        [10, 9, 8],
        "conformance: seqs_before from the end, newest first"
    );
    assert!(
        s.seqs_after(10, 5).unwrap().is_empty() && s.seqs_before(1, 5).unwrap().is_empty(),
        "conformance: seqs past either end"
    );
    let at = s.entries_at(&[7, 2, 11, 0, -1, 7]).unwrap();
    assert_eq!(
        seqs(&at),
        [2, 7],
        "conformance: entries_at in order, once each, none that is not there"
    );
    assert_eq!(
        texts(&at),
        ["entry 2", "entry 7"],
        "conformance: entries_at reads the bodies"
    );
    assert_eq!(
        at,
        s.entries_after(0, 10)
            .unwrap()
            .into_iter()
            .filter(|e| e.seq == 2 || e.seq == 7)
            .collect::<Vec<_>>(),
        "conformance: entries_at reads what entries_after reads"
    );
    assert!(
        s.entries_at(&[]).unwrap().is_empty(),
        "conformance: entries_at of nothing"
    );
    // Kinds of entries 1..=10: start, note, note, end, note, start, note, note, end, note.
    let start = s.last_of_kind("scene-start").unwrap().map(|e| e.seq);
    let end = s.last_of_kind("scene-end").unwrap().map(|e| e.seq);
    assert_eq!(start, Some(6), "conformance: the last scene-start");
    assert_eq!(end, Some(9), "conformance: the last scene-end");
    assert_eq!(
        s.last_of_kind("nothing").unwrap(),
        None,
        "conformance: no such kind"
    );
    let mut inside = None;
    s.write(&mut |tx| {
        inside = Some((
            tx.last_of_kind("scene-start")?.map(|e| e.seq),
            seqs(&tx.entries_after(8, 10)?),
        ));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        inside,
        Some((Some(6), vec![9, 10])),
        "conformance: reads inside a write see the same journal"
    );
}

/// A scope at one table reads nothing of another (entries, sheets, settings, members,
/// owners) and changes nothing of it.
pub fn a_table_never_reads_or_writes_another(factory: Factory<'_>) {
    let mut s = factory();
    let (_, a) = table(&mut s, "alpha");
    let (gm_b, b) = table(&mut s, "beta");
    s.set_scope(a);
    s.append(&[entry(1), kind_entry("scene-start", 2)]).unwrap();
    s.set_scope(a.secret());
    s.append(&[entry(3)]).unwrap();
    s.set_scope(a);
    write_sheet(&mut s, &sheet("expanded", "Mira", 5)).unwrap();
    s.set_meta("theme", "alpha's").unwrap();
    let player_a = player(&mut s, a.table, "Ash");

    s.set_scope(b);
    assert!(
        s.entries_after(0, 100).unwrap().is_empty(),
        "conformance: beta reads alpha's entries"
    );
    assert!(
        s.last_entries(100).unwrap().is_empty(),
        "conformance: beta's last entries"
    );
    assert!(
        s.entries_before(i64::MAX, 100).unwrap().is_empty(),
        "conformance: beta's entries before"
    );
    assert_eq!(
        s.entry_count().unwrap(),
        0,
        "conformance: beta counts alpha's entries"
    );
    assert!(
        s.seqs_after(0, 100).unwrap().is_empty()
            && s.seqs_before(i64::MAX, 100).unwrap().is_empty()
            && s.entries_at(&[1, 2, 3]).unwrap().is_empty(),
        "conformance: beta reads alpha's numbers or entries by number"
    );
    assert_eq!(
        s.last_of_kind("scene-start").unwrap(),
        None,
        "conformance: beta's last of kind"
    );
    assert_eq!(
        s.sheet("expanded", "Mira").unwrap(),
        None,
        "conformance: beta reads alpha's sheet"
    );
    assert!(
        s.sheets("expanded").unwrap().is_empty(),
        "conformance: beta lists alpha's sheets"
    );
    assert_eq!(
        s.sheet_owner("expanded", "Mira").unwrap(),
        None,
        "conformance: beta's sheet owner"
    );
    assert_eq!(
        s.meta("theme").unwrap(),
        None,
        "conformance: beta reads alpha's setting"
    );
    let members: Vec<i64> = s.members().unwrap().iter().map(|m| m.id).collect();
    assert_eq!(
        members,
        [gm_b.id],
        "conformance: beta's members are beta's alone"
    );
    assert!(!members.contains(&player_a.id));
    let e = update(&mut s, "Mira", &sheet("expanded", "Mira", 1)).unwrap_err();
    assert!(
        matches!(e, StoreError::NoSuchSheet { .. }),
        "conformance: beta changed alpha's sheet: {e:?}"
    );
    let e = s.write(&mut |tx| tx.reveal(3).map(drop)).unwrap_err();
    assert!(
        matches!(e, StoreError::NotSecret { seq: 3 }),
        "conformance: beta revealed alpha's secret: {e:?}"
    );
    let mut seen = None;
    s.write(&mut |tx| {
        seen = Some((
            tx.sheet("expanded", "Mira")?,
            tx.entries_after(0, 100)?.len(),
        ));
        tx.share_owner("expanded", "Mira", "expanded")
    })
    .unwrap();
    assert_eq!(
        seen,
        Some((None, 0)),
        "conformance: a write at beta reads alpha"
    );
    // Beta's own sheet of the same name is its own.
    write_sheet(&mut s, &sheet("expanded", "Mira", 9)).unwrap();
    assert_eq!(
        s.append(&[entry(1)]).unwrap()[0].seq,
        1,
        "conformance: beta numbers from 1"
    );

    s.set_scope(a);
    let mira = s.sheet("expanded", "Mira").unwrap().expect("alpha's Mira");
    assert_eq!(
        mira.body["hp"], 5,
        "conformance: beta's Mira changed alpha's"
    );
    assert_eq!(mira.version, 1, "conformance: alpha's Mira untouched");
    assert_eq!(seqs(&s.entries_after(0, 100).unwrap()), [1, 2, 3]);
    assert_eq!(s.meta("theme").unwrap().as_deref(), Some("alpha's"));
}

/// A player's scope never reads a secret entry, by any read (who may write one is the app's
/// role policy).
pub fn a_player_never_reads_a_secret_entry(factory: Factory<'_>) {
    let mut s = factory();
    let (_, t) = table(&mut s, "secrets");
    let p = player(&mut s, t.table, "Pip");
    s.set_scope(t);
    s.append(&[entry(1)]).unwrap();
    s.set_scope(t.secret());
    let secret = s.append(&[kind_entry("oracle", 2)]).unwrap();
    assert_eq!(
        seqs(&secret),
        [2],
        "conformance: a secret entry takes the next number"
    );
    assert!(
        secret[0].secret,
        "conformance: a secret scope writes secret entries"
    );
    s.set_scope(t);
    s.append(&[entry(3)]).unwrap();

    let gm_all = s.entries_after(0, 10).unwrap();
    assert_eq!(
        seqs(&gm_all),
        [1, 2, 3],
        "conformance: the game master sees every entry"
    );
    assert_eq!(
        gm_all.iter().map(|e| e.secret).collect::<Vec<_>>(),
        [false, true, false]
    );
    assert!(
        s.sees_every_entry(),
        "conformance: a game master sees every entry"
    );

    let ps = Scope::member(t.table, p.id, false);
    s.set_scope(ps);
    assert!(
        !s.sees_every_entry(),
        "conformance: a player does not see every entry"
    );
    assert_eq!(
        seqs(&s.entries_after(0, 10).unwrap()),
        [1, 3],
        "conformance: entries_after"
    );
    assert_eq!(
        seqs(&s.last_entries(10).unwrap()),
        [1, 3],
        "conformance: last_entries"
    );
    assert_eq!(
        seqs(&s.entries_before(4, 10).unwrap()),
        [3, 1],
        "conformance: entries_before"
    );
    assert_eq!(s.entry_count().unwrap(), 2, "conformance: entry_count");
    assert_eq!(
        s.seqs_after(0, 10).unwrap(),
        [1, 3],
        "conformance: seqs_after"
    );
    assert_eq!(
        s.seqs_before(4, 10).unwrap(),
        [3, 1],
        "conformance: seqs_before"
    );
    assert_eq!(
        seqs(&s.entries_at(&[1, 2, 3]).unwrap()),
        [1, 3],
        "conformance: entries_at"
    );
    assert_eq!(
        s.last_of_kind("oracle").unwrap(),
        None,
        "conformance: last_of_kind"
    );
    let mut inside = None;
    s.write(&mut |tx| {
        inside = Some((seqs(&tx.entries_after(0, 10)?), tx.last_of_kind("oracle")?));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        inside,
        Some((vec![1, 3], None)),
        "conformance: reads inside a player's write"
    );
}

/// A secret entry of the table is revealed once; anything else is refused (who may reveal
/// is the app's role policy).
pub fn a_secret_entry_is_revealed_once(factory: Factory<'_>) {
    let mut s = factory();
    let (_, t) = table(&mut s, "reveals");
    s.set_scope(t.secret());
    s.append(&[entry(1)]).unwrap();
    s.set_scope(t);
    s.append(&[entry(2)]).unwrap();

    let reveal = |s: &mut Box<dyn Store>, seq: i64| {
        let mut out = None;
        s.write(&mut |tx| {
            out = Some(tx.reveal(seq)?);
            Ok(())
        })
        .map(|()| out.expect("conformance: a write that succeeded ran its work"))
    };
    // Who may reveal is the role policy's (solum_app::policy), asked before this call.
    s.set_scope(t);
    let shown = reveal(&mut s, 1).unwrap();
    assert_eq!(shown.seq, 1, "conformance: the revealed entry's number");
    assert!(
        shown.secret,
        "conformance: a revealed entry stays a secret entry"
    );
    assert_eq!(
        shown.body,
        entry(1).body,
        "conformance: the revealed entry's body"
    );
    let e = reveal(&mut s, 1).unwrap_err();
    assert!(
        matches!(e, StoreError::RevealedAlready { seq: 1 }),
        "conformance: a second reveal: {e:?}"
    );
    let e = reveal(&mut s, 2).unwrap_err();
    assert!(
        matches!(e, StoreError::NotSecret { seq: 2 }),
        "conformance: revealing an open entry: {e:?}"
    );
    let e = reveal(&mut s, 99).unwrap_err();
    assert!(
        matches!(e, StoreError::NotSecret { seq: 99 }),
        "conformance: revealing no entry: {e:?}"
    );
}

/// A sheet starts at version 1 and each change raises it; names compare by [`name_key`]
/// and are unique per system at a table.
pub fn sheets_have_versions_and_names_unique_whatever_the_case(factory: Factory<'_>) {
    let mut s = factory();
    assert_eq!(name_key("  MiRa "), "mira", "conformance: name_key");
    write_sheet(&mut s, &sheet("expanded", "Mira", 5)).unwrap();
    let found = s
        .sheet("expanded", "  mIRA ")
        .unwrap()
        .expect("conformance: Mira by another case");
    assert_eq!(found.name, "Mira", "conformance: the name as written");
    assert_eq!(found.version, 1, "conformance: a new sheet is version 1");
    assert_eq!(found.body["hp"], 5);
    let e = write_sheet(&mut s, &sheet("expanded", "MIRA", 1)).unwrap_err();
    assert!(
        matches!(&e, StoreError::NameTaken { name } if name == "MIRA"),
        "conformance: a second MIRA: {e:?}"
    );
    write_sheet(&mut s, &sheet("classic", "Mira", 2)).expect("conformance: names are per system");

    let v2 = update(&mut s, "mira", &sheet("expanded", "Mira", 4)).unwrap();
    assert_eq!(
        (v2.version, v2.body["hp"].as_i64()),
        (2, Some(4)),
        "conformance: update"
    );
    let renamed = update(&mut s, "Mira", &sheet("expanded", "Kai", 4)).unwrap();
    assert_eq!(renamed.version, 3, "conformance: a rename is a change");
    assert_eq!(
        s.sheet("expanded", "Mira").unwrap(),
        None,
        "conformance: the old name is free"
    );
    assert_eq!(
        s.sheet("expanded", "KAI").unwrap().map(|x| x.version),
        Some(3)
    );
    write_sheet(&mut s, &sheet("expanded", "zed", 1)).unwrap();
    let e = update(&mut s, "Kai", &sheet("expanded", " ZED", 4)).unwrap_err();
    assert!(
        matches!(e, StoreError::NameTaken { .. }),
        "conformance: renamed onto a taken name: {e:?}"
    );
    let e = update(&mut s, "Nobody", &sheet("expanded", "Nobody", 1)).unwrap_err();
    assert!(
        matches!(&e, StoreError::NoSuchSheet { name } if name == "Nobody"),
        "conformance: changing no sheet: {e:?}"
    );
    write_sheet(&mut s, &sheet("expanded", "alice", 1)).unwrap();
    let names: Vec<String> = s
        .sheets("expanded")
        .unwrap()
        .into_iter()
        .map(|x| x.name)
        .collect();
    assert_eq!(
        names,
        ["alice", "Kai", "zed"],
        "conformance: sheets by name key"
    );
    assert_eq!(
        s.sheets("classic").unwrap().len(),
        1,
        "conformance: sheets of one system"
    );
    assert_eq!(
        s.sheet("expanded", "kai").unwrap().map(|x| x.version),
        Some(3),
        "conformance: a refused rename changed the sheet"
    );
}

/// A sheet knows who created it (or was given it with `share_owner`), read inside a write as
/// outside: the role policy (`solum_app::policy`) decides from it who may change the sheet.
pub fn a_sheet_knows_its_owner(factory: Factory<'_>) {
    let mut s = factory();
    let (gm, t) = table(&mut s, "owners");
    let p1 = player(&mut s, t.table, "Pip");
    let p2 = player(&mut s, t.table, "Quill");
    let s1 = Scope::member(t.table, p1.id, false);
    let s2 = Scope::member(t.table, p2.id, false);
    s.set_scope(s1);
    write_sheet(&mut s, &sheet("expanded", "Ash", 5)).unwrap();
    assert_eq!(
        s.sheet_owner("expanded", "ash").unwrap(),
        Some(p1.id),
        "conformance: owner"
    );
    s.set_scope(s2);
    let mut inside = None;
    s.write(&mut |tx| {
        inside = Some((tx.scope(), tx.sheet_owner("expanded", "ASH")?));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        inside,
        Some((s2, Some(p1.id))),
        "conformance: scope and owner inside a write"
    );
    s.set_scope(s1);
    assert_eq!(
        update(&mut s, "Ash", &sheet("expanded", "Ash", 4))
            .unwrap()
            .version,
        2
    );
    s.set_scope(t);
    assert_eq!(
        update(&mut s, "Ash", &sheet("expanded", "Ash", 3))
            .unwrap()
            .version,
        3
    );
    write_sheet(&mut s, &sheet("expanded", "Boss", 9)).unwrap();
    assert_eq!(s.sheet_owner("expanded", "Boss").unwrap(), Some(gm.id));
    // A companion row the game master started on Ash belongs to whoever plays Ash.
    write_sheet(&mut s, &sheet("classic-fight", "Ash", 1)).unwrap();
    s.write(&mut |tx| tx.share_owner("classic-fight", "Ash", "expanded"))
        .unwrap();
    assert_eq!(
        s.sheet_owner("classic-fight", "Ash").unwrap(),
        Some(p1.id),
        "conformance: share_owner"
    );
    // Nothing is shared when the owning character is missing.
    write_sheet(&mut s, &sheet("classic-fight", "Boss", 1)).unwrap();
    s.write(&mut |tx| tx.share_owner("classic-fight", "Boss", "classic"))
        .unwrap();
    assert_eq!(s.sheet_owner("classic-fight", "Boss").unwrap(), Some(gm.id));
    let mut owners = s.sheet_owners("expanded").unwrap();
    owners.sort();
    assert_eq!(
        owners,
        [
            ("Ash".to_string(), Some(p1.id)),
            ("Boss".to_string(), Some(gm.id))
        ],
        "conformance: sheet_owners, one system's"
    );
    let (_, elsewhere) = table(&mut s, "elsewhere");
    s.set_scope(elsewhere);
    assert!(
        s.sheet_owners("expanded").unwrap().is_empty(),
        "conformance: sheet_owners of another table"
    );
    s.set_scope(t);

    s.set_scope(s1);
    assert_eq!(
        update(&mut s, "Ash", &sheet("classic-fight", "Ash", 2))
            .unwrap()
            .version,
        2,
        "conformance: the player goes on with the shared row"
    );
    let mut owners = None;
    s.write(&mut |tx| {
        owners = Some((
            tx.sheet_owner("classic-fight", "Ash")?,
            tx.sheet_owner("expanded", "Boss")?,
            tx.sheet_owner("expanded", "Nobody")?,
        ));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        owners,
        Some((Some(p1.id), Some(gm.id), None)),
        "conformance: owners inside a write"
    );
}

/// A write whose work fails keeps nothing of what it did, and takes no number.
pub fn a_failed_write_keeps_nothing(factory: Factory<'_>) {
    let mut s = factory();
    let e = s
        .write(&mut |tx| {
            tx.append(&[entry(1)])?;
            tx.insert_sheet(&sheet("expanded", "Ghost", 1))?;
            Err(StoreError::BadRecord("the change was refused".into()))
        })
        .unwrap_err();
    assert!(
        matches!(e, StoreError::BadRecord(_)),
        "conformance: the work's error: {e:?}"
    );
    assert_eq!(
        s.entry_count().unwrap(),
        0,
        "conformance: a failed write kept its entry"
    );
    assert_eq!(
        s.sheet("expanded", "Ghost").unwrap(),
        None,
        "conformance: a failed write kept its sheet"
    );
    let big = NewEntry {
        body: json!({ "text": "x".repeat(MAX_ENTRY_BYTES) }),
        ..entry(2)
    };
    let e = s
        .write(&mut |tx| {
            tx.append(&[entry(2)])?;
            tx.append(std::slice::from_ref(&big)).map(drop)
        })
        .unwrap_err();
    assert!(
        matches!(e, StoreError::TooLarge { .. }),
        "conformance: {e:?}"
    );
    assert_eq!(
        s.entry_count().unwrap(),
        0,
        "conformance: half a write was kept"
    );
    let e = s.append(&[entry(3), big.clone()]).unwrap_err();
    assert!(
        matches!(e, StoreError::TooLarge { .. }),
        "conformance: {e:?}"
    );
    assert_eq!(
        s.entry_count().unwrap(),
        0,
        "conformance: half an append was kept"
    );
    assert_eq!(
        s.append(&[entry(4)]).unwrap()[0].seq,
        1,
        "conformance: a failed write took a number"
    );
    let mut v = None;
    s.write(&mut |tx| {
        tx.insert_sheet(&sheet("expanded", "Real", 1))?;
        v = Some(tx.sheet("expanded", "real")?.map(|x| x.version));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        v,
        Some(Some(1)),
        "conformance: a write reads its own changes"
    );
}

/// A group begun while one is open (a use case that groups its own writes, run inside a
/// server's group) neither commits nor undoes the writes before it: everything commits at
/// the outer group's end, and a refused write inside it keeps nothing of its own only.
pub fn a_group_begun_inside_a_group_commits_with_it(factory: Factory<'_>) {
    let mut s = factory();
    s.begin_group().unwrap();
    s.append(&[entry(1)]).unwrap();
    s.begin_group().unwrap();
    s.append(&[entry(2)]).unwrap();
    let refused = s.write(&mut |tx| {
        tx.append(&[entry(99)])?;
        Err(StoreError::BadRecord("the change was refused".into()))
    });
    assert!(refused.is_err(), "conformance: the refused write succeeded");
    s.end_group().unwrap();
    s.append(&[entry(3)]).unwrap();
    s.end_group().unwrap();
    assert_eq!(
        texts(&s.entries_after(0, 10).unwrap()),
        ["entry 1", "entry 2", "entry 3"],
        "conformance: an inner group lost or doubled the writes around it"
    );
    assert!(
        s.is_idle(),
        "conformance: the outer group's end left it open"
    );
}

/// A sheet looked up by a name no sheet can have (a NUL character, which PostgreSQL's text
/// cannot hold) is none, on every backend: not a refusal of the text.
pub fn a_name_no_sheet_can_have_finds_none(factory: Factory<'_>) {
    let mut s = factory();
    write_sheet(&mut s, &sheet("expanded", "Nick", 1)).unwrap();
    for name in ["Ni\u{0}ck", "\u{0}"] {
        assert_eq!(
            s.sheet("expanded", name).unwrap(),
            None,
            "conformance: {name:?}"
        );
        assert_eq!(
            TableStore::sheet_owner(&*s, "expanded", name).unwrap(),
            None,
            "conformance: {name:?}"
        );
    }
}

/// An entry dated before its table's last one (a clock read before another writer's, a
/// server whose clock is behind) is stored with the last one's time, and says so when it
/// comes back: a journal read in order never goes back in time. Another table keeps its own.
pub fn a_tables_times_never_go_back(factory: Factory<'_>) {
    let mut s = factory();
    let dated = |n: i64, when: i64| NewEntry {
        at: at(when),
        ..entry(n)
    };
    assert_eq!(s.append(&[dated(1, 10)]).unwrap()[0].at, at(10));
    let stored = s.append(&[dated(2, 5), dated(3, 7), dated(4, 12)]).unwrap();
    let times: Vec<Timestamp> = stored.iter().map(|e| e.at).collect();
    assert_eq!(
        times,
        [at(10), at(10), at(12)],
        "conformance: an entry went back in time"
    );
    let read: Vec<Timestamp> = s
        .entries_after(0, 10)
        .unwrap()
        .iter()
        .map(|e| e.at)
        .collect();
    assert_eq!(
        read,
        [at(10), at(10), at(10), at(12)],
        "conformance: as stored"
    );
    let (_, scope) = table(&mut s, "Other");
    s.set_scope(scope);
    assert_eq!(
        s.append(&[dated(5, 1)]).unwrap()[0].at,
        at(1),
        "conformance: another table's time was moved"
    );
}

/// Settings are kept per table: each scope reads and writes its own table's (who may change
/// one is the app's role policy, `solum_app::policy`).
pub fn settings_belong_to_their_table(factory: Factory<'_>) {
    let mut s = factory();
    assert_eq!(s.meta("k").unwrap(), None, "conformance: no setting yet");
    s.set_meta("k", "home").unwrap();
    s.set_meta("k", "home again").unwrap();
    let (_, t) = table(&mut s, "settings");
    let p = player(&mut s, t.table, "Pip");
    s.set_scope(t);
    assert_eq!(
        s.meta("k").unwrap(),
        None,
        "conformance: a table reads home's setting"
    );
    s.set_meta("k", "table").unwrap();
    s.set_scope(Scope::member(t.table, p.id, false));
    assert_eq!(
        s.meta("k").unwrap().as_deref(),
        Some("table"),
        "conformance: a player reads"
    );
    // The table filter only: a player's scope writes its own table's setting.
    s.set_meta("k", "player's").unwrap();
    s.set_scope(t);
    assert_eq!(
        s.meta("k").unwrap().as_deref(),
        Some("player's"),
        "conformance: a player's scope writes its table's setting"
    );
    s.set_scope(Scope::HOME);
    assert_eq!(
        s.meta("k").unwrap().as_deref(),
        Some("home again"),
        "conformance: home's setting"
    );
}

/// An invite added with [`OtherInvites::Revoked`] is the only unused one of its role left
/// (the others of that role are revoked with it); the other role's are kept.
pub fn a_new_invite_may_replace_the_others_of_its_role(factory: Factory<'_>) {
    let mut s = factory();
    let (_, t) = table(&mut s, "replaced");
    let expires = at(100);
    for (token, gm) in [("r-gm1", true), ("r-gm2", true), ("r-pl1", false)] {
        s.add_invite(t.table, gm, token, AT, expires, OtherInvites::Kept)
            .unwrap();
    }
    let open = |s: &mut Box<dyn Store>| -> Vec<(i64, bool)> {
        s.invites(t.table)
            .unwrap()
            .into_iter()
            .filter(|i| i.used_by.is_none() && !i.revoked)
            .map(|i| (i.id, i.gm))
            .collect()
    };
    let players: Vec<(i64, bool)> = open(&mut s).into_iter().filter(|(_, gm)| !gm).collect();
    assert_eq!(players.len(), 1, "conformance: one player invite open");
    let gm3 = s
        .add_invite(t.table, true, "r-gm3", AT, expires, OtherInvites::Revoked)
        .unwrap();
    let (gms, kept): (Vec<_>, Vec<_>) = open(&mut s).into_iter().partition(|(_, gm)| *gm);
    assert_eq!(
        gms,
        vec![(gm3, true)],
        "conformance: replacing the gm invites leaves the new one only"
    );
    assert_eq!(
        kept, players,
        "conformance: replacing the gm invites keeps the players'"
    );
}

/// An invite is used once, before it expires, unless revoked; a name taken at the table
/// refuses it and leaves it unused.
pub fn invites_are_used_once_and_expire_and_are_revoked(factory: Factory<'_>) {
    let mut s = factory();
    let (gm, t) = table(&mut s, "invites");
    let (_, other) = table(&mut s, "other");
    let expires = at(100);
    let id1 = s
        .add_invite(t.table, false, "inv1", AT, expires, OtherInvites::Kept)
        .unwrap();
    let rows = s.invites(t.table).unwrap();
    assert_eq!(rows.len(), 1, "conformance: the table's invites");
    assert_eq!(
        (
            rows[0].id,
            rows[0].gm,
            rows[0].expires,
            rows[0].used_by,
            rows[0].revoked
        ),
        (id1, false, expires, None, false)
    );
    assert_eq!(rows[0].created, AT);
    assert!(
        s.invites(other.table).unwrap().is_empty(),
        "conformance: invites per table"
    );

    let joined = match s
        .redeem_invite("inv1", "Bo", "bo", "s-bo", AT, at(1))
        .unwrap()
    {
        Redeemed::Joined(m) => m,
        other => panic!("conformance: a fresh invite: {other:?}"),
    };
    assert_eq!(
        (joined.table, joined.name.as_str(), joined.gm),
        (t.table, "Bo", false)
    );
    assert_eq!(joined.table_name, "invites");
    assert_eq!(
        s.redeem_invite("inv1", "Cy", "cy", "s-cy", AT, at(2))
            .unwrap(),
        Redeemed::Used,
        "conformance: an invite used twice"
    );
    assert_eq!(s.invites(t.table).unwrap()[0].used_by, Some(joined.id));

    s.add_invite(t.table, false, "inv2", AT, expires, OtherInvites::Kept)
        .unwrap();
    assert_eq!(
        s.redeem_invite("inv2", "Cy", "cy", "s-cy", AT, expires)
            .unwrap(),
        Redeemed::Expired(expires),
        "conformance: an invite at its expiry"
    );
    let id3 = s
        .add_invite(t.table, false, "inv3", AT, expires, OtherInvites::Kept)
        .unwrap();
    assert!(
        !s.revoke_invite(other.table, id3).unwrap(),
        "conformance: revoked from another table"
    );
    assert!(
        s.revoke_invite(t.table, id3).unwrap(),
        "conformance: revoke"
    );
    assert!(
        !s.revoke_invite(t.table, id3).unwrap(),
        "conformance: revoked twice"
    );
    assert!(
        !s.revoke_invite(t.table, id1).unwrap(),
        "conformance: a used invite revoked"
    );
    assert_eq!(
        s.redeem_invite("inv3", "Cy", "cy", "s-cy", AT, at(2))
            .unwrap(),
        Redeemed::Revoked {
            table: t.table,
            gm: false
        }
    );
    assert_eq!(
        s.redeem_invite("nope", "Cy", "cy", "s-cy", AT, at(2))
            .unwrap(),
        Redeemed::Unknown
    );
    s.add_invite(t.table, false, "inv4", AT, expires, OtherInvites::Kept)
        .unwrap();
    assert_eq!(
        s.redeem_invite("inv4", "  BO", "bo", "s-bo2", AT, at(2))
            .unwrap(),
        Redeemed::NameTaken("Bo".into()),
        "conformance: a name taken at the table"
    );
    let cy = match s
        .redeem_invite("inv4", "Cy", "cy", "s-cy", AT, at(3))
        .unwrap()
    {
        Redeemed::Joined(m) => m,
        other => panic!("conformance: a refused name left the invite unused: {other:?}"),
    };
    s.add_invite(t.table, true, "gm1", AT, expires, OtherInvites::Kept)
        .unwrap();
    s.add_invite(t.table, true, "gm2", AT, expires, OtherInvites::Kept)
        .unwrap();
    s.add_invite(t.table, false, "pl1", AT, expires, OtherInvites::Kept)
        .unwrap();
    // A new game master invite that replaces the others (see the test below).
    s.add_invite(t.table, true, "gm3", AT, expires, OtherInvites::Revoked)
        .unwrap();
    assert_eq!(
        s.redeem_invite("gm1", "Dee", "dee", "s-dee", AT, at(4))
            .unwrap(),
        Redeemed::Revoked {
            table: t.table,
            gm: true
        }
    );
    let gm2 = match s
        .redeem_invite("pl1", "Eve", "eve", "s-eve", AT, at(4))
        .unwrap()
    {
        Redeemed::Joined(m) => m,
        other => panic!("conformance: a player invite was revoked with the gm ones: {other:?}"),
    };
    s.set_scope(t);
    let members: Vec<(i64, String)> = s
        .members()
        .unwrap()
        .into_iter()
        .map(|m| (m.id, m.name))
        .collect();
    assert_eq!(
        members,
        [
            (gm.id, "Gamemaster".to_owned()),
            (joined.id, "Bo".to_owned()),
            (cy.id, "Cy".to_owned()),
            (gm2.id, "Eve".to_owned())
        ],
        "conformance: members in the order they joined"
    );
}

/// A session is found while used within its idle limit, marked used at most once per
/// [`SESSION_TOUCH`], and ends at logout.
pub fn sessions_expire_when_idle_and_end_on_logout(factory: Factory<'_>) {
    let mut s = factory();
    let (gm, _) = table(&mut s, "sessions");
    let hash = "gm-sessions";
    let found = s.session_member(hash, at(10), secs(100)).unwrap();
    assert_eq!(
        found.map(|m| m.id),
        Some(gm.id),
        "conformance: a fresh session"
    );
    assert_eq!(
        s.session_member(hash, at(101), secs(100)).unwrap(),
        None,
        "conformance: a session idle past its limit"
    );
    assert_eq!(s.session_member("nope", AT, secs(100)).unwrap(), None);
    // Seen within SESSION_TOUCH of its last use: not marked, so it still dates from AT.
    assert!(
        s.session_member(hash, at(50), secs(10_000))
            .unwrap()
            .is_some()
    );
    assert_eq!(
        s.session_member(hash, at(150), secs(140)).unwrap(),
        None,
        "conformance: a use within SESSION_TOUCH moved the session's last use"
    );
    // Seen past SESSION_TOUCH: marked used then.
    let later = at(SESSION_TOUCH.as_secs() + 1);
    assert!(
        s.session_member(hash, later, SignedDuration::MAX)
            .unwrap()
            .is_some()
    );
    assert!(
        s.session_member(hash, at(SESSION_TOUCH.as_secs() + 51), secs(60))
            .unwrap()
            .is_some(),
        "conformance: a use past SESSION_TOUCH was not marked"
    );
    let before = s.sessions_ended().unwrap();
    assert!(s.end_session(hash).unwrap(), "conformance: logout");
    assert!(!s.end_session(hash).unwrap(), "conformance: logout twice");
    let after = s.sessions_ended().unwrap();
    assert!(
        after == before + 1 || (before, after) == (0, 0),
        "conformance: an ended session counts once ({before} → {after}), or not at all where \
         servers are told otherwise"
    );
    assert_eq!(
        s.session_member(hash, at(SESSION_TOUCH.as_secs() + 52), SignedDuration::MAX)
            .unwrap(),
        None
    );
}

/// An entry or a sheet over [`MAX_ENTRY_BYTES`] of JSON is refused before anything is
/// written; one at the limit is kept.
pub fn an_oversized_entry_or_sheet_is_refused(factory: Factory<'_>) {
    let mut s = factory();
    // A JSON string of n characters is n + 2 bytes with its quotes.
    let at_limit = NewEntry {
        body: json!("x".repeat(MAX_ENTRY_BYTES - 2)),
        ..entry(1)
    };
    let over = NewEntry {
        body: json!("x".repeat(MAX_ENTRY_BYTES - 1)),
        ..entry(2)
    };
    let e = s.append(std::slice::from_ref(&over)).unwrap_err();
    assert!(
        matches!(e, StoreError::TooLarge { bytes, limit, .. } if bytes == MAX_ENTRY_BYTES + 1 && limit == MAX_ENTRY_BYTES),
        "conformance: an entry one byte over: {e:?}"
    );
    assert_eq!(s.entry_count().unwrap(), 0);
    let kept = s.append(std::slice::from_ref(&at_limit)).unwrap();
    assert_eq!(
        kept[0].body, at_limit.body,
        "conformance: an entry at the limit"
    );
    let big = Sheet {
        body: json!("x".repeat(MAX_ENTRY_BYTES)),
        ..sheet("expanded", "Huge", 1)
    };
    let e = write_sheet(&mut s, &big).unwrap_err();
    assert!(
        matches!(e, StoreError::TooLarge { .. }),
        "conformance: an oversized sheet: {e:?}"
    );
    assert_eq!(s.sheet("expanded", "Huge").unwrap(), None);
}

/// Nothing a store offers changes or removes a journal entry: after sheets, settings,
/// reveals and more entries, the first entries read back exactly as appended.
pub fn the_journal_is_append_only(factory: Factory<'_>) {
    let mut s = factory();
    let first = s.append(&[entry(1), entry(2)]).unwrap();
    s.set_scope(Scope::HOME.secret());
    let secret = s.append(&[entry(3)]).unwrap();
    s.set_scope(Scope::HOME);
    write_sheet(&mut s, &sheet("expanded", "Mira", 1)).unwrap();
    update(&mut s, "Mira", &sheet("expanded", "Mira", 2)).unwrap();
    s.set_meta("k", "v").unwrap();
    s.write(&mut |tx| tx.reveal(3).map(drop)).unwrap();
    s.append(&[entry(4)]).unwrap();
    let back = s.entries_after(0, 3).unwrap();
    let mut expected = first;
    expected.extend(secret);
    assert_eq!(
        back, expected,
        "conformance: an entry changed after it was appended"
    );
}

/// `create_table_with_invite`: a new table, empty, whose one invite (as game master) makes
/// its first member, its game master; the table's journal starts at 1.
pub fn a_table_made_for_an_invite_has_no_member_until_its_game_master_joins(factory: Factory<'_>) {
    let mut s = factory();
    let expires = at(100);
    let (t, invite) = s
        .create_table_with_invite("The Convention", "gm-inv", AT, expires)
        .unwrap();
    assert_ne!(t, 0, "conformance: a new table is not the campaign's own");
    let (t2, _) = s
        .create_table_with_invite("Another", "gm-inv2", AT, expires)
        .unwrap();
    assert_ne!(t, t2, "conformance: each call makes its own table");
    let rows = s.invites(t).unwrap();
    assert_eq!(rows.len(), 1, "conformance: the new table's one invite");
    assert_eq!(
        (rows[0].id, rows[0].gm, rows[0].expires, rows[0].used_by),
        (invite, true, expires, None)
    );
    s.set_scope(Scope {
        table: t,
        ..Scope::HOME
    });
    assert!(
        s.members().unwrap().is_empty(),
        "conformance: no member before the invite is used"
    );
    let gm = match s
        .redeem_invite("gm-inv", "Ada", "ada", "s-ada", AT, at(1))
        .unwrap()
    {
        Redeemed::Joined(m) => m,
        other => panic!("conformance: the new table's invite: {other:?}"),
    };
    assert_eq!(
        (gm.table, gm.gm, gm.table_name.as_str()),
        (t, true, "The Convention")
    );
    s.set_scope(Scope::member(t, gm.id, true));
    let stored = s.append(&[entry(1)]).unwrap();
    assert_eq!(
        seqs(&stored),
        vec![1],
        "conformance: the new table's journal"
    );
}

/// The campaign's tables come back by id, its own table 0 first, each with how many have
/// joined it, through any scope (a player's too): what an operator lists.
pub fn every_table_is_listed_whatever_the_scope(factory: Factory<'_>) {
    let mut s = factory();
    let home = s.tables().unwrap();
    assert_eq!(home.len(), 1, "conformance: {home:?}");
    assert_eq!(
        (home[0].id, home[0].members),
        (0, 0),
        "conformance: {home:?}"
    );
    let (gm, _) = table(&mut s, "Friday");
    player(&mut s, gm.table, "Bo");
    let (other, _) = table(&mut s, "Sunday");
    let (made, _) = s
        .create_table_with_invite("Later", "later-invite", AT, at(1_000))
        .unwrap();
    s.set_scope(Scope::member(other.table, other.id, false));
    let listed: Vec<(i64, String, u64)> = s
        .tables()
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t.name, t.members))
        .collect();
    assert_eq!(
        listed,
        [
            (0, home[0].name.clone(), 0),
            (gm.table, "Friday".into(), 2),
            (other.table, "Sunday".into(), 1),
            (made, "Later".into(), 0),
        ],
        "conformance: the tables listed"
    );
}
