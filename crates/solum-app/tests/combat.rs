//! A combat kept in a campaign, against a real SQLite file: started by one `Campaign`,
//! continued by a second on the same file, ended by a third. Expected hit points come from
//! the rules text (S4: the loser of an opposed melee roll takes the winner's weapon damage;
//! S8: hit points), and the events from one `Session` fed the same lines and dice directly.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::path::Path;

use solum_app::combat::CombatChange;
use solum_app::creatures::CreatureSource;
use solum_app::{AppError, Campaign, ErrorKind, Record};
use solum_dice::SeededDice;
use solum_expanded::creature::{Bestiary, Creature};
use solum_expanded::line::{Session, parse_line};
use solum_store::CampaignStore;

use solum_store_sqlite::SqliteStore;

fn open(path: &Path) -> Campaign<SqliteStore> {
    Campaign::new(SqliteStore::open(path, solum_store::Scope::HOME).unwrap())
        .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

/// Nick of the text: Body 3, Mind 2, 5 hit points, a light dagger (1 damage).
const NICK_SHEET: &str = r#"
schema = 1
name = "Nick"
body = 3
mind = 2
charm = 1
backgrounds = ["Acrobat Thief"]
hit_points = 5
weapons = [{ name = "dagger", class = "light" }]
"#;

const BEAR: &str = r#"
[[creature]]
name = "cave bear"
pool = 2
hit_points = 4
damage = 2
notes = "Sleeps in the tower's cellar."
"#;

/// The seed of the one line rolled by the generator.
const SEED: u64 = 7;

/// The fight: lines, and whether the generator rolls them (`SEED`).
const LINES: &[(&str, bool)] = &[
    ("hero Nick", false),
    ("foe cave-bear", false),
    ("place Nick cave-bear engaged", false),
    ("order cave-bear Nick", false),
    // The bear attacks: 2 dice, 5 and 2 (5); Nick defends with 3 dice, 4 3 1 (4): the bear
    // wins and deals its 2 damage (S4). Nick 5 → 3.
    ("melee Nick with 5,2,4,3,1", false),
    ("end", false),
    // Nick: 5 1 2 (5) against the bear's 3 1 (3): the dagger deals 1. Bear 4 → 3.
    ("melee cave-bear with 5,1,2,3,1", false),
    ("end", false),
    // The bear again, from the generator.
    ("melee Nick", true),
];

fn hp(status: &solum_app::combat::CombatStatus, name: &str) -> u32 {
    status
        .fighters
        .iter()
        .find(|f| f.name == name)
        .unwrap()
        .hit_points
}

#[test]
fn a_combat_left_and_resumed_across_campaigns_matches_one_session() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");

    // First process: the campaign's character and creature, the start and the setup.
    let mut first = open(&path);
    first.import_character(NICK_SHEET).unwrap();
    let added = first.add_creatures(BEAR).unwrap();
    assert_eq!(added.len(), 1);
    let start = first.start_combat(Some("cellar"), false).unwrap();
    assert_eq!(start.name, "cellar");
    let mut views = Vec::new();
    for (line, _) in &LINES[..4] {
        views.push(first.combat_line(line, None).unwrap());
    }
    drop(first);

    // Second process: the fight.
    let mut second = open(&path);
    for (line, seeded) in &LINES[4..] {
        let seed = seeded.then_some(SEED);
        views.push(second.combat_line(line, seed).unwrap());
    }
    let status = second.combat_status().unwrap().unwrap();
    // A creature fights under its bestiary name, spaces as dashes.
    assert_eq!(status.order, ["cave-bear", "Nick"]);
    assert_eq!(status.acting.as_deref(), Some("cave-bear"));
    assert_eq!(status.ranges.len(), 1);
    assert_eq!(status.ranges[0].band, "engaged");
    drop(second);

    // The same lines and dice in one session, run directly.
    let mut session = Session::new(Bestiary::shipped());
    let mut nick = solum_app::parse_sheet(NICK_SHEET).unwrap();
    nick.notes.clear();
    session.add_character(nick);
    let bear: Creature = solum_expanded::creature::parse_bestiary(BEAR)
        .unwrap()
        .creature
        .remove(0);
    session.add_creatures(vec![bear]).unwrap();
    let mut faces_by_hand = Vec::new();
    for ((line, seeded), view) in LINES.iter().zip(&views) {
        let mut dice = SeededDice::new(if *seeded { SEED } else { 0 });
        let (events, faces) = session
            .run_recorded(&parse_line(line).unwrap(), &mut dice)
            .unwrap();
        assert_eq!(
            serde_json::to_value(&events).unwrap(),
            view.events,
            "line `{line}`"
        );
        assert_eq!(view.line.faces, faces, "line `{line}`");
        if *seeded {
            faces_by_hand = faces;
        }
    }
    // The seeded attack drew the bear's 2 dice and Nick's 3 from seed 7: no 6, no chain.
    assert_eq!(faces_by_hand.len(), 5, "{faces_by_hand:?}");
    assert!(!faces_by_hand.contains(&6), "{faces_by_hand:?}");
    let nick_in_fight = session
        .fighters()
        .iter()
        .find(|f| f.name == "Nick")
        .unwrap()
        .hit_points;
    let last = &views.last().unwrap().status;
    assert_eq!(hp(last, "Nick"), nick_in_fight);
    // The typed exchanges by hand: Nick 5 − 2 = 3 before the seeded attack, the bear 4 − 1.
    assert_eq!(hp(&views[6].status, "Nick"), 3);
    assert_eq!(hp(&views[6].status, "cave-bear"), 3);
    // The seeded attack: the bear's best die against Nick's (no 6 in either: no chain).
    let (bear_dice, nick_dice) = faces_by_hand.split_at(2);
    let (b, n) = (
        bear_dice.iter().max().unwrap(),
        nick_dice.iter().max().unwrap(),
    );
    // The bear wins: Nick 3 − 2; a draw stands or Nick wins: the dagger hits the bear.
    assert_eq!(
        nick_in_fight,
        if b > n { 1 } else { 3 },
        "{faces_by_hand:?}"
    );

    // Third process: the end writes Nick's hit points back to his sheet.
    let mut third = open(&path);
    assert_eq!(third.character("Nick").unwrap().character.hit_points, 5);
    let end = third.end_combat().unwrap();
    assert_eq!(end.written.len(), 1);
    assert_eq!(end.written[0].joined, 5);
    assert_eq!(end.written[0].left, nick_in_fight);
    assert_eq!(end.written[0].after, Some(nick_in_fight));
    assert_eq!(
        third.character("Nick").unwrap().character.hit_points,
        nick_in_fight
    );
    assert!(third.combat_status().unwrap().is_none());
    let report = third.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    // Lines with dice: the three attacks.
    assert_eq!(report.rolls, 3);
    // Import, journal, creature, character: 1 + 1 + 1 start + 9 lines + 1 end.
    assert_eq!(third.store().entry_count().unwrap(), 13);
}

fn refused(e: AppError, needle: &str) {
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    assert!(e.to_string().contains(needle), "{e}");
}

#[test]
fn a_refused_line_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_character(NICK_SHEET).unwrap();
    c.add_creatures(BEAR).unwrap();
    refused(
        c.combat_line("foe orc", None).unwrap_err(),
        "no combat is open",
    );
    c.start_combat(None, false).unwrap();
    refused(
        c.start_combat(Some("again"), false).unwrap_err(),
        "the combat combat is open",
    );
    for (line, _) in &LINES[..4] {
        c.combat_line(line, None).unwrap();
    }
    let before = c.combat_status().unwrap().unwrap();
    let entries = c.store().entry_count().unwrap();
    let row = c.store().sheet("combat", "open").unwrap().unwrap().version;
    for (line, needle) in [
        ("fly away", "`fly` is not a command"),
        // The bear acts: Nick's dagger is not his to swing now, and a fighter cannot attack
        // itself.
        ("melee cave-bear", "cannot target themselves"),
        ("melee Nick with 5,2,4,3,1,1", "too many values"),
        ("melee Nick with 5,2", "too few values"),
        ("hero nick.toml", "not sheet files"),
        ("hero Nick", "fighters join before it starts"),
        ("status", "changes nothing"),
        ("act \u{202E}open the door", "control"),
    ] {
        refused(c.combat_line(line, Some(1)).unwrap_err(), needle);
    }
    refused(
        c.combat_line(&format!("act {}", "x".repeat(600)), None)
            .unwrap_err(),
        "the limit is 500",
    );
    assert_eq!(c.store().entry_count().unwrap(), entries);
    assert_eq!(
        c.store().sheet("combat", "open").unwrap().unwrap().version,
        row
    );
    assert_eq!(c.combat_status().unwrap().unwrap(), before);
    // The refused lines left the bear's action: it still attacks.
    c.combat_line("melee Nick with 5,2,4,3,1", None).unwrap();
}

#[test]
fn a_character_at_0_hit_points_or_unknown_names_do_not_join() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_character(&NICK_SHEET.replace("hit_points = 5", "hit_points = 0"))
        .unwrap();
    c.start_combat(None, false).unwrap();
    refused(c.combat_line("hero Nick", None).unwrap_err(), "is out");
    refused(
        c.combat_line("foe dragon", None).unwrap_err(),
        "not in the bestiary",
    );
    refused(
        c.combat_line("hero Nick as Nicky", None).unwrap_err(),
        "own name",
    );
}

#[test]
fn verify_names_a_changed_combat_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.import_character(NICK_SHEET).unwrap();
    c.add_creatures(BEAR).unwrap();
    c.start_combat(None, false).unwrap();
    let mut seqs = Vec::new();
    for (line, seeded) in LINES {
        seqs.push(c.combat_line(line, seeded.then_some(SEED)).unwrap().seq);
    }
    let end = c.end_combat().unwrap();
    assert!(c.verify().unwrap().mismatches.is_empty());
    drop(c);
    // Line 5 (the bear's typed attack) now claims Nick took 1, and the end claims more
    // hit points were written back than the fight cost.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(&format!(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.line.text[0]', 'Nick shrugs it off')
         WHERE seq = {};
         UPDATE journal SET body = json_set(body, '$.change.ended.written[0].after', 5)
         WHERE seq = {};",
        seqs[4], end.seq
    ))
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    let bad: Vec<_> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(bad, [seqs[4], end.seq], "{:?}", report.mismatches);
    assert!(
        report.mismatches[0]
            .reason
            .contains("melee Nick with 5,2,4,3,1")
    );
    assert!(report.mismatches[1].reason.contains("written back to Nick"));

    // The seed of the generated line changed: its faces no longer follow.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(&format!(
        "UPDATE journal SET body = json_set(body, '$.change.line.line.seed', 8) WHERE seq = {};",
        seqs[8]
    ))
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    assert!(
        report
            .mismatches
            .iter()
            .any(|m| m.seq == seqs[8] && m.reason.contains("recorded faces")),
        "{:?}",
        report.mismatches
    );
}

#[test]
fn creatures_are_added_listed_shown_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    let shipped = Bestiary::shipped().creatures().count();
    c.add_creatures(BEAR).unwrap();
    let all = c.creatures().unwrap();
    assert_eq!(all.len(), shipped + 1);
    let bear = c.creature("Cave_Bear").unwrap();
    assert_eq!(bear.source, CreatureSource::Campaign);
    assert_eq!((bear.creature.pool, bear.creature.hit_points), (2, 4));
    assert_eq!(c.creature("orc").unwrap().source, CreatureSource::Shipped);
    // Twice, a shipped name, a bad number, a static entry: refused, naming the field.
    refused(c.add_creatures(BEAR).unwrap_err(), "already");
    refused(
        c.add_creatures(&BEAR.replace("cave bear", "Orc"))
            .unwrap_err(),
        "shipped bestiary",
    );
    refused(
        c.add_creatures(&BEAR.replace("pool = 2", "pool = 0"))
            .unwrap_err(),
        "cave bear.pool",
    );
    refused(
        c.add_creatures(
            "[[static]]\nname = \"wall\"\ndifficulty = 4\nhit_points = 3\ndamage = 1\n",
        )
        .unwrap_err(),
        "static",
    );
    refused(
        c.add_creatures("[[creature]]\nname = ").unwrap_err(),
        "file",
    );
    let entries = c.store().entry_count().unwrap();
    assert_eq!(entries, 1);
    let removed = c.remove_creature("cave bear").unwrap();
    assert_eq!(removed.creature.name, "cave bear");
    refused(c.creature("cave bear").unwrap_err(), "no creature named");
    refused(c.remove_creature("orc").unwrap_err(), "shipped");
    assert_eq!(c.creatures().unwrap().len(), shipped);
    // Added again after its removal.
    c.add_creatures(BEAR).unwrap();
    let kinds: Vec<_> = c
        .entries()
        .unwrap()
        .into_iter()
        .map(|e| match e.record {
            Record::Creature(r) => r.summary(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds.len(), 3);
    assert!(kinds[1].contains("leaves"));
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn combat_records_round_trip_through_an_export() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("a.solum"));
    c.import_character(NICK_SHEET).unwrap();
    c.add_creatures(BEAR).unwrap();
    c.start_combat(None, true).unwrap();
    for (line, seeded) in LINES {
        c.combat_line(line, seeded.then_some(SEED)).unwrap();
    }
    c.end_combat().unwrap();
    let export = c.export().unwrap();
    assert!(export.entries.iter().any(|e| matches!(
        &e.record,
        Record::Combat(r) if matches!(r.change, CombatChange::Ended { .. })
    )));
    let mut other = open(&dir.path().join("b.solum"));
    assert_eq!(other.import(export.clone()).unwrap(), export.entries.len());
    assert!(other.verify().unwrap().mismatches.is_empty());
}

/// Eight processes' worth of campaigns play `end` at once: each line is replayed, applied and
/// stored in one write transaction, so none is lost. Two fighters, 40 turns ended: 20 full
/// rounds, and round 21 starts with the first in the order.
#[test]
fn concurrent_lines_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.start_combat(Some("long night"), false).unwrap();
    for line in [
        "hero A pool=2 hp=50 damage=1",
        "foe B pool=2 hp=50 damage=1",
        "order A B",
    ] {
        c.combat_line(line, None).unwrap();
    }
    drop(c);
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut c = open(&path);
                for _ in 0..5 {
                    c.combat_line("end", None).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let c = open(&path);
    let status = c.combat_status().unwrap().unwrap();
    assert_eq!(status.lines, 43);
    assert_eq!(status.round, 21);
    assert_eq!(status.acting.as_deref(), Some("A"));
    assert_eq!(c.store().entry_count().unwrap(), 44);
    assert!(c.verify().unwrap().mismatches.is_empty());
}

/// The ranges of a combat list only the pairs that are not at S7's starting band (nearby):
/// six fighters make 15 pairs, of which the two lines below move two.
#[test]
fn ranges_list_only_the_pairs_a_line_moved() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.start_combat(Some("crowd"), false).unwrap();
    for line in [
        "hero A pool=2 hp=5 damage=1",
        "hero B pool=2 hp=5 damage=1",
        "hero C pool=2 hp=5 damage=1",
        "foe X pool=2 hp=5 damage=1",
        "foe Y pool=2 hp=5 damage=1",
        "foe Z pool=2 hp=5 damage=1",
        "place A X engaged",
        "place C Z far",
        "order A B C X Y Z",
    ] {
        c.combat_line(line, None).unwrap();
    }
    let status = c.combat_status().unwrap().unwrap();
    assert_eq!(status.range_default, "nearby");
    let pairs: Vec<(&str, &str, &str)> = status
        .ranges
        .iter()
        .map(|r| (r.a.as_str(), r.b.as_str(), r.band))
        .collect();
    assert_eq!(pairs, [("A", "X", "engaged"), ("C", "Z", "far")]);
}

/// Sheets a one-shot's `hero FILE` lines name: Nick's, and no other.
struct NickFile;

impl solum_app::combat::SheetResolver for NickFile {
    fn sheet(&self, path: &str) -> Result<solum_app::Character, String> {
        match path {
            "nick.toml" => Ok(solum_app::parse_sheet(NICK_SHEET).unwrap()),
            other => Err(format!("{other}: no such file")),
        }
    }
}

/// A one-shot combat is the campaign's tracker over a campaign kept in memory: a sheet
/// file's hero comes through the resolver and is kept as the line's copy, the dice of line
/// `n` come from `chunk_seed(seed, n)`, so the same seed plays the same fight, and a
/// refused line changes nothing.
#[test]
fn a_one_shot_combat_reads_sheets_through_its_resolver_and_replays_from_its_seed() {
    use solum_app::combat::OneShotCombat;
    let lines = [
        "hero nick.toml",
        "foe orc",
        "place Nick orc engaged",
        "order Nick orc",
        "melee orc",
    ];
    let fight = |seed| {
        let mut f = OneShotCombat::start(
            Bestiary::shipped(),
            false,
            Some(seed),
            Some(Box::new(NickFile)),
        )
        .unwrap();
        assert_eq!(f.seed(), seed);
        lines.map(|l| f.play(l).unwrap())
    };
    let first = fight(7);
    assert_eq!(first, fight(7));
    // S8: Nick's sheet gives 5 hit points; the line keeps the sheet it read.
    let nick = &first[0].status.fighters[0];
    assert_eq!((nick.name.as_str(), nick.hit_points), ("Nick", 5));
    assert_eq!(first[0].line.sheet.as_ref().unwrap().name, "Nick");
    assert_eq!(first[0].line.seed, None, "a setup line rolls nothing");
    let melee = &first[4];
    assert_eq!(melee.line.seed, Some(solum_app::sim::chunk_seed(7, 4)));
    // The melee's faces, played again from that seed on a session fed the same lines,
    // give the same events (the engine's own replay, independent of the app).
    let mut session = Session::new(Bestiary::shipped());
    session.add_sheet("nick.toml", solum_app::parse_sheet(NICK_SHEET).unwrap());
    let mut dice = SeededDice::new(0);
    for l in &lines[..4] {
        session.run(&parse_line(l).unwrap(), &mut dice).unwrap();
    }
    let mut typed = solum_dice::TypedDice::new(melee.line.faces.clone());
    let events = session
        .run(&parse_line("melee orc").unwrap(), &mut typed)
        .unwrap();
    assert_eq!(melee.events, serde_json::to_value(&events).unwrap());

    let mut f = OneShotCombat::start(
        Bestiary::shipped(),
        false,
        Some(1),
        Some(Box::new(NickFile)),
    )
    .unwrap();
    let err = f.play("hero other.toml").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadInput);
    assert!(
        err.to_string().contains("other.toml: no such file"),
        "{err}"
    );
    assert!(f.status().unwrap().fighters.is_empty());
    // Without a resolver a sheet file is refused, as in a campaign's combat.
    let mut bare = OneShotCombat::start(Bestiary::shipped(), false, Some(1), None).unwrap();
    assert!(bare.play("hero nick.toml").is_err());
}

/// A one-shot's `--bestiary` entry replaces the shipped creature of its name (the file's
/// numbers, not the shipped ones), and the line keeps its copy.
#[test]
fn a_one_shot_combat_takes_its_bestiary_files_over_the_shipped_one() {
    use solum_app::combat::OneShotCombat;
    let file = "[[creature]]\nname = \"orc\"\npool = 5\nhit_points = 9\ndamage = 3\n";
    let bestiary = solum_app::creatures::bestiary_with([file]).unwrap();
    let mut f = OneShotCombat::start(bestiary, false, Some(3), None).unwrap();
    let view = f.play("foe orc*2").unwrap();
    let hp: Vec<u32> = view.status.fighters.iter().map(|f| f.hit_points).collect();
    assert_eq!(hp, [9, 9]);
    assert_eq!(view.line.creature.as_ref().unwrap().pool, 5);
    // The shipped orc, for comparison, is not this one.
    assert_ne!(Bestiary::shipped().creature("orc").unwrap().hit_points, 9);
    let err = solum_app::creatures::bestiary_with([
        "[[creature]]\nname = \"x\"\npool = 0\nhit_points = 1\ndamage = 1\n",
    ])
    .unwrap_err();
    assert_eq!(err.0, 0);
    assert!(err.1.to_string().contains("x.pool"), "{}", err.1);
}
