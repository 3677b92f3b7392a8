//! Project Sol characters in a campaign, against a real SQLite file. Expected values come
//! from the rules text (P1–P4: Malcolm's Etiquette, Kyra's Sidearms, the Edge tables) and
//! hand arithmetic, never from the code's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::sync::{Arc, Barrier};

use solum_app::sol::{Assist, Opposition, SolChange, SpendUse};
use solum_app::{AppError, Campaign, Dice, ErrorKind, NewSol, Record, SolTest};
use solum_sol::test::EdgeOnTest;
use solum_store::CampaignStore;

use solum_store_sqlite::SqliteStore;

fn open(path: &std::path::Path) -> Campaign<SqliteStore> {
    Campaign::new(SqliteStore::open(path, solum_store::Scope::HOME).unwrap())
        .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

fn new(name: &str, edge: u32, attrs: &[(&str, u32)], skills: &[(&str, u32)]) -> NewSol {
    NewSol {
        name: name.into(),
        edge: solum_app::sol::SolEdge::new(edge).unwrap(),
        attributes: attrs.iter().map(|(k, v)| ((*k).into(), *v)).collect(),
        skills: skills.iter().map(|(k, v)| ((*k).into(), *v)).collect(),
    }
}

fn len(c: &Campaign<SqliteStore>) -> u64 {
    c.store().entry_count().unwrap()
}

fn bad(e: AppError, needle: &str) {
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    assert!(
        e.to_string().contains(needle),
        "expected {needle:?} in: {e}"
    );
}

fn etiquette() -> SolTest {
    SolTest::new("Etiquette", "CHA")
}

#[test]
fn malcolm_earns_one_point_per_encounter_and_five_raise_the_rank() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new("Malcolm", 2, &[("CHA", 1)], &[("Etiquette", 4)]))
        .unwrap();
    // CHA 1 + 4 ranks = 5 dice. Four hits are not more than 4 ranks: no point.
    let v = c
        .sol_test(
            "malcolm",
            &etiquette(),
            Dice::Typed(vec![5, 5, 6, 6, 1]),
            None,
        )
        .unwrap();
    assert_eq!(
        (v.result.pool.dice, v.result.test.as_ref().unwrap().hits),
        (5, 4)
    );
    assert!(!v.result.progress.point);
    // Five hits: a point, "including tests during which Malcolm uses Edge".
    let mut push = etiquette();
    push.edge = Some(EdgeOnTest::PushTheLimit);
    let v = c
        .sol_test("Malcolm", &push, Dice::Typed(vec![3, 4, 5, 6, 3]), None)
        .unwrap();
    assert!(v.result.progress.point);
    assert_eq!(v.edge.points, 1);
    // The same encounter earns no second point.
    let v = c
        .sol_test("Malcolm", &etiquette(), Dice::Typed(vec![5; 5]), None)
        .unwrap();
    assert!(!v.result.progress.point);
    // Four more encounters: the fifth point raises Etiquette to 5 and clears the points.
    for k in 2..=5 {
        c.sol_encounter("Malcolm").unwrap();
        let v = c
            .sol_test("Malcolm", &etiquette(), Dice::Typed(vec![5; 5]), None)
            .unwrap();
        assert!(v.result.progress.point);
        assert_eq!(v.result.progress.rank_up, k == 5);
    }
    let s = c.sol("Malcolm").unwrap().sheet;
    assert_eq!((s.skills[0].ranks, s.skills[0].progress), (5, 0));
    assert_eq!(s.edge.points, 1, "an encounter does not refresh Edge");
    // Create, 3 tests, then 4 × (encounter + test).
    assert_eq!(len(&c), 12);
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!(report.rolls, 7);
}

#[test]
fn edge_before_and_after_the_dice() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new("Cole", 1, &[("AGI", 2)], &[("Sidearms", 1)]))
        .unwrap();
    let mut t = SolTest::new("Sidearms", "AGI");
    t.threshold = Some(solum_app::sol_once::SolThreshold::new(1).unwrap());
    t.then = Some(EdgeOnTest::CloseCall);
    // 5 6 6: no glitch, Close Call not used and not spent.
    let v = c
        .sol_test("Cole", &t, Dice::Typed(vec![5, 6, 6]), None)
        .unwrap();
    assert_eq!(
        (v.edge.points, v.result.test.as_ref().unwrap().spec.edge),
        (1, None)
    );
    // 1 1 3: no hit and two ones of three, a critical glitch on a failed test; Close Call
    // makes it a glitch and spends the point.
    let v = c
        .sol_test("Cole", &t, Dice::Typed(vec![1, 1, 3]), None)
        .unwrap();
    assert!(
        v.result.test.as_ref().unwrap().glitch && !v.result.test.as_ref().unwrap().critical_glitch
    );
    assert_eq!(v.edge.points, 0);
    // No point left: Second Chance up front is refused before any die, nothing stored.
    let before = len(&c);
    t.then = Some(EdgeOnTest::SecondChance);
    bad(
        c.sol_test("Cole", &t, Dice::Typed(vec![1, 1, 3]), None)
            .unwrap_err(),
        "no Edge left",
    );
    assert_eq!(len(&c), before);
    // A session refreshes it; Second Chance rerolls the two misses: 5 1 2 → 5 6 5.
    c.sol_session("Cole").unwrap();
    let v = c
        .sol_test("Cole", &t, Dice::Typed(vec![5, 1, 2, 6, 5]), None)
        .unwrap();
    assert_eq!(v.result.test.as_ref().unwrap().hits, 3);
    assert_eq!(v.result.test.as_ref().unwrap().rerolls.len(), 2);
    assert_eq!(v.edge.points, 0);
    // Smackdown burns a point: Edge 0/0 after a refresh, and no progress for 5 hits.
    c.sol_session("Cole").unwrap();
    let mut smack = SolTest::new("Sidearms", "AGI");
    smack.threshold = Some(solum_app::sol_once::SolThreshold::new(1).unwrap());
    smack.edge = Some(EdgeOnTest::Smackdown);
    let v = c
        .sol_test("Cole", &smack, Dice::Typed(vec![]), None)
        .unwrap();
    assert_eq!(v.result.test.as_ref().unwrap().net_hits, Some(4));
    assert!(!v.result.progress.point);
    assert_eq!((v.edge.attribute, v.edge.points), (0, 0));
    c.sol_session("Cole").unwrap();
    assert_eq!(c.sol("Cole").unwrap().sheet.edge.points, 0);
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn a_refused_test_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new("Hyde", 1, &[("LOG", 3)], &[("Hacking", 2)]))
        .unwrap();
    let mut t = SolTest::new("Hacking", "LOG");
    t.edge = Some(EdgeOnTest::PushTheLimit);
    // 5 dice: two values are too few, six too many; the point is not spent either way.
    bad(
        c.sol_test("Hyde", &t, Dice::Typed(vec![5, 5]), None)
            .unwrap_err(),
        "dice: too few",
    );
    bad(
        c.sol_test("Hyde", &t, Dice::Typed(vec![5; 6]), None)
            .unwrap_err(),
        "dice: too many values",
    );
    bad(
        c.sol_test("Hyde", &SolTest::new("Hacking", "STR"), Dice::Seed(1), None)
            .unwrap_err(),
        "no attribute `STR`",
    );
    let mut retry = SolTest::new("Hacking", "LOG");
    retry.threshold = Some(solum_app::sol_once::SolThreshold::new(2).unwrap());
    retry.retry = 3;
    bad(
        c.sol_test("Hyde", &retry, Dice::Seed(1), None).unwrap_err(),
        "retry",
    );
    bad(
        c.sol_test("Nobody", &t, Dice::Seed(1), None).unwrap_err(),
        "no character named Nobody",
    );
    let s = c.sol("Hyde").unwrap();
    assert_eq!((s.sheet.edge.points, s.version), (1, 1));
    assert_eq!(len(&c), 1);
}

#[test]
fn opposed_tests_with_each_sides_dice() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new("Cole", 2, &[("AGI", 2)], &[("Sidearms", 1)]))
        .unwrap();
    // Sidearms + AGI = 3 dice pushing the limit: 3 4 6 are 3 hits against 5 2, 1 hit.
    let mut t = SolTest::new("Sidearms", "AGI");
    t.edge = Some(EdgeOnTest::PushTheLimit);
    t.against = Some(Opposition {
        dice: solum_app::sol_once::SolDice::new(2).unwrap(),
        edge: None,
    });
    let v = c
        .sol_test("Cole", &t, Dice::Typed(vec![3, 4, 6]), Some(vec![5, 2]))
        .unwrap();
    let o = v.result.opposed.as_ref().unwrap();
    assert!(o.success);
    assert_eq!(o.net_hits, 2);
    assert!(v.result.progress.point, "3 hits, more than 1 rank");
    assert_eq!(v.edge.points, 1);
    // Typed together: the defender's faces follow the attacker's.
    t.edge = None;
    let v = c
        .sol_test("Cole", &t, Dice::Typed(vec![1, 2, 3, 5, 6]), None)
        .unwrap();
    let o = v.result.opposed.unwrap();
    assert!(!o.success);
    assert_eq!(o.defender.hits, 2);
    // A defender's value too many: refused, naming the defender's dice.
    bad(
        c.sol_test("Cole", &t, Dice::Typed(vec![5, 5, 5]), Some(vec![5, 5, 5]))
            .unwrap_err(),
        "against dice: too many values",
    );
    // One seed serves both sides, and re-derives.
    c.sol_test("Cole", &t, Dice::Seed(42), None).unwrap();
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!(report.rolls, 3);
}

#[test]
fn an_assistant_of_the_campaign_rolls_first_and_records_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new("Hyde", 1, &[("LOG", 3)], &[("Hacking", 2)]))
        .unwrap();
    c.create_sol(&new("Kyra", 1, &[("LOG", 1)], &[("Hacking", 1)]))
        .unwrap();
    let mut t = SolTest::new("Hacking", "LOG");
    t.threshold = Some(solum_app::sol_once::SolThreshold::new(1).unwrap());
    t.assist = Some(Assist::Character("kyra".into()));
    // Kyra rolls LOG 1 + 1 rank = 2 dice: 5 6, two hits, more than her 1 rank: a point.
    // Hyde: LOG 3 + 2 ranks + 2 bonus dice (capped at 2 ranks) = 7 dice.
    let v = c
        .sol_test(
            "Hyde",
            &t,
            Dice::Typed(vec![5, 6, 1, 2, 3, 4, 5, 6, 1]),
            None,
        )
        .unwrap();
    assert_eq!(v.result.pool.dice, 7);
    assert_eq!(v.result.assistant.as_ref().unwrap().hits, 2);
    assert!(v.result.assistant_progress.unwrap().point);
    assert_eq!(v.assistant_name.as_deref(), Some("Kyra"));
    let kyra = c.sol("Kyra").unwrap();
    assert_eq!((kyra.sheet.skills[0].progress, kyra.version), (1, 2));
    // A character does not assist itself; an assistant not in the campaign is named.
    t.assist = Some(Assist::Character("HYDE".into()));
    bad(
        c.sol_test("Hyde", &t, Dice::Seed(1), None).unwrap_err(),
        "cannot assist itself",
    );
    t.assist = Some(Assist::Character("Jax".into()));
    bad(
        c.sol_test("Hyde", &t, Dice::Seed(1), None).unwrap_err(),
        "no character named Jax",
    );
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn edge_spent_outside_a_test_and_not_dead_yet() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new(
        "Kyra",
        3,
        &[
            ("BOD", 4),
            ("STR", 4),
            ("AGI", 2),
            ("REA", 3),
            ("INT", 2),
            ("WIL", 1),
            ("LOG", 6),
        ],
        &[],
    ))
    .unwrap();
    // Blitz: REA 3 + INT 2 = 5 bonus dice.
    let v = c.sol_spend("Kyra", SpendUse::Blitz, Dice::Fresh).unwrap();
    assert_eq!(v.spend.unwrap().bonus_dice, Some(5));
    assert_eq!(v.edge.points, 2);
    bad(
        c.sol_spend("Kyra", SpendUse::Blitz, Dice::Seed(1))
            .unwrap_err(),
        "only Dead Man's Trigger rolls dice",
    );
    // Dead Man's Trigger: BOD 4 + WIL 1 = 5 dice against 3; 5 6 5 1 2 is 3 hits.
    let v = c
        .sol_spend(
            "Kyra",
            SpendUse::DeadMansTrigger,
            Dice::Typed(vec![5, 6, 5, 1, 2]),
        )
        .unwrap();
    let trigger = v.spend.unwrap().trigger.unwrap();
    assert_eq!((trigger.spec.dice, trigger.spec.threshold), (5, Some(3)));
    assert_eq!(trigger.success, Some(true));
    assert_eq!(v.edge.points, 1);
    c.sol_spend("Kyra", SpendUse::SeizeTheInitiative, Dice::Fresh)
        .unwrap();
    bad(
        c.sol_spend("Kyra", SpendUse::SeizeTheInitiative, Dice::Fresh)
            .unwrap_err(),
        "no Edge left",
    );
    // P5: with no point available, Edge cannot be burnt (Not Dead Yet refused).
    bad(
        c.sol_not_dead_yet("Kyra", Some("str")).unwrap_err(),
        "no Edge point available to burn (0 of 3)",
    );
    // No Edge to burn: no choice to ask for, whatever ties.
    assert!(c.sol_not_dead_yet_tie("Kyra").unwrap().is_empty());
    // A new session: 3 of 3. BOD and STR tie at 4: the player names one.
    c.sol_session("Kyra").unwrap();
    bad(
        c.sol_not_dead_yet("Kyra", None).unwrap_err(),
        "BOD, STR tie",
    );
    assert_eq!(c.sol_not_dead_yet_tie("Kyra").unwrap(), ["BOD", "STR"]);
    bad(
        c.sol_not_dead_yet("Kyra", Some("LOG")).unwrap_err(),
        "not the highest",
    );
    let v = c.sol_not_dead_yet("Kyra", Some("str")).unwrap();
    let l = v.lowered.unwrap();
    assert_eq!((l.attribute.as_str(), l.from, l.to), ("STR", 4, 3));
    // The burn takes an available point and the attribute: 3 of 3 -> 2 of 2.
    assert_eq!((v.edge.attribute, v.edge.points), (2, 2));
    // STR 3 now: BOD alone is highest, and nothing is asked.
    assert!(c.sol_not_dead_yet_tie("Kyra").unwrap().is_empty());
    let v = c.sol_not_dead_yet("Kyra", None).unwrap();
    assert_eq!(v.lowered.unwrap().attribute, "BOD");
    // Created, 4 spends, a session, 2 Not Dead Yet.
    assert_eq!(len(&c), 7);
    let report = c.verify().unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert_eq!(report.rolls, 1);
    // A sheet without REA or BOD: no Edge spent.
    c.create_sol(&new("Malcolm", 1, &[("CHA", 1)], &[]))
        .unwrap();
    bad(
        c.sol_spend("Malcolm", SpendUse::Blitz, Dice::Fresh)
            .unwrap_err(),
        "no attribute `REA`",
    );
    bad(
        c.sol_spend("Malcolm", SpendUse::DeadMansTrigger, Dice::Typed(vec![5]))
            .unwrap_err(),
        "no attribute `BOD`",
    );
    assert_eq!(c.sol("Malcolm").unwrap().sheet.edge.points, 1);
}

#[test]
fn kyra_trains_once_per_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.import_sol(
        "schema = 1\nname = \"Kyra\"\n[edge]\nattribute = 2\npoints = 1\n[attributes]\nAGI = 3\n\
         [[skills]]\nname = \"Sidearms\"\nranks = 2\nprogress = 3\n",
    )
    .unwrap();
    // Rank 2 to 3: cost rating 3 × 2 = 6, progress cleared.
    let v = c.sol_train("Kyra", "sidearms").unwrap();
    let t = v.trained.unwrap();
    assert_eq!((t.skill.as_str(), t.ranks, t.cost), ("Sidearms", 3, 6));
    assert_eq!(v.sheet.sheet.skills[0].progress, 0);
    bad(
        c.sol_train("Kyra", "Sidearms").unwrap_err(),
        "one training session per game session",
    );
    c.sol_session("Kyra").unwrap();
    let v = c.sol_train("Kyra", "Sidearms").unwrap();
    assert_eq!(v.trained.unwrap().cost, 8);
    assert_eq!(v.edge.points, 2, "the session refreshed Edge");
    assert!(c.verify().unwrap().mismatches.is_empty());
}

#[test]
fn two_trainings_started_at_once_one_is_refused() {
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.solum");
        open(&path)
            .create_sol(&new("Kyra", 1, &[("AGI", 3)], &[("Sidearms", 2)]))
            .unwrap();
        let gate = Arc::new(Barrier::new(2));
        let threads: Vec<_> = ["Sidearms", "Longarms"]
            .into_iter()
            .map(|skill| {
                let (path, gate) = (path.clone(), gate.clone());
                std::thread::spawn(move || {
                    let mut c = open(&path);
                    gate.wait();
                    c.sol_train("Kyra", skill).map_err(|e| e.to_string())
                })
            })
            .collect();
        let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let ok = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(ok, 1, "{results:?}");
        assert!(results.iter().any(|r| {
            r.as_ref()
                .is_err_and(|e| e.contains("one training session"))
        }));
        let c = open(&path);
        assert_eq!(len(&c), 2);
        let s = c.sol("Kyra").unwrap().sheet;
        // One skill went up by one rank: Sidearms 2 → 3, or Longarms 0 → 1.
        let total: u32 = s.skills.iter().map(|k| k.ranks).sum();
        assert_eq!(total, 3);
    }
}

#[test]
fn fifty_rewards_at_once_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    // Edge 0 of 1000: fifty rewards cannot reach the cap, so every one must show.
    c.import_sol("schema = 1\nname = \"Zed\"\n[edge]\nattribute = 1000\npoints = 0\n")
        .unwrap();
    let gate = Arc::new(Barrier::new(50));
    let threads: Vec<_> = (0..50)
        .map(|_| {
            let (path, gate) = (path.clone(), gate.clone());
            std::thread::spawn(move || {
                let mut c = open(&path);
                gate.wait();
                c.sol_reward("Zed").map(|v| v.edge.points)
            })
        })
        .collect();
    let mut seen: Vec<u32> = threads
        .into_iter()
        .map(|t| t.join().unwrap().unwrap())
        .collect();
    seen.sort_unstable();
    // Each reward saw the one before it: 1, 2, …, 50, none twice.
    assert_eq!(seen, (1..=50).collect::<Vec<_>>());
    let c = open(&path);
    let v = c.sol("Zed").unwrap();
    assert_eq!((v.sheet.edge.points, v.version), (50, 51));
    assert_eq!(len(&c), 51);
}

#[test]
fn sheets_round_trip_and_limits_hold() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = open(&dir.path().join("c.solum"));
    c.create_sol(&new("Malcolm", 3, &[("CHA", 5)], &[("Etiquette", 4)]))
        .unwrap();
    bad(
        c.create_sol(&new("malcolm ", 1, &[], &[])).unwrap_err(),
        "already has a character named",
    );
    bad(
        c.create_sol(&new("Kyra", 1, &[("LOG", 3), ("log", 4)], &[]))
            .unwrap_err(),
        "`log` given twice",
    );
    // An Edge past a sheet's values is no Edge: refused as it is read, in its type's words.
    assert_eq!(
        solum_app::sol::SolEdge::new(1001).unwrap_err().to_string(),
        "Edge is 0 to 1000"
    );
    bad(
        c.import_sol("schema = 1\nname = \"Kyra\"\n[edge]\nattribute = 2\npoints = 3\n")
            .unwrap_err(),
        "edge.points: 3 is more than the attribute 2",
    );
    bad(
        c.import_sol("schema = 2\nname = \"Kyra\"\n[edge]\nattribute = 2\npoints = 2\n")
            .unwrap_err(),
        "schema",
    );
    let text = c.export_sol("MALCOLM").unwrap();
    let mut other = open(&dir.path().join("other.solum"));
    let v = other.import_sol(&text).unwrap();
    assert_eq!(v.sheet.sheet, c.sol("Malcolm").unwrap().sheet);
    let names: Vec<String> = c
        .sols()
        .unwrap()
        .into_iter()
        .map(|s| s.sheet.name)
        .collect();
    assert_eq!(names, ["Malcolm"]);
    // A journal export with Project Sol records imports and re-derives elsewhere.
    c.sol_test("Malcolm", &etiquette(), Dice::Seed(7), None)
        .unwrap();
    let export = c.export().unwrap();
    let mut third = open(&dir.path().join("third.solum"));
    assert_eq!(third.import(export).unwrap(), 2);
    assert_eq!(third.verify().unwrap().rolls, 1);
}

#[test]
fn a_changed_sol_record_is_named_by_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = open(&path);
    c.create_sol(&new("Cole", 3, &[("AGI", 3)], &[("Sidearms", 1)]))
        .unwrap();
    c.import_sol("schema = 1\nname = \"Zed\"\n[edge]\nattribute = 3\npoints = 0\n")
        .unwrap();
    c.sol_reward("Zed").unwrap();
    c.sol_test(
        "Cole",
        &SolTest::new("Sidearms", "AGI"),
        Dice::Typed(vec![5, 6, 1, 2]),
        None,
    )
    .unwrap();
    c.sol_spend("Cole", SpendUse::Blitz, Dice::Fresh)
        .unwrap_err();
    assert!(c.verify().unwrap().mismatches.is_empty());
    let entries = c.entries().unwrap();
    assert!(matches!(
        &entries[2].record,
        Record::Sol(r) if matches!(r.change, SolChange::Reward { .. })
    ));
    drop(c);
    // The reward claims 2 points instead of 1; the test claims 3 hits instead of 2.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.reward.after.edge.points', 2)
           WHERE seq = 3;
         UPDATE journal SET body = json_set(body, '$.change.test.result.test.hits', 3)
           WHERE seq = 4;",
    )
    .unwrap();
    drop(raw);
    let report = open(&path).verify().unwrap();
    let seqs: Vec<i64> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [3, 4], "{:?}", report.mismatches);
    assert!(report.mismatches[0].reason.contains("Zed"));
}

/// A game master's secret test changes no sheet, nor its version, until it is revealed: a
/// player reading the sheet learns nothing. The reveal applies the Edge spent and the
/// progress earned to the sheet as it is then, once; a player cannot reveal, and reads
/// the revealed entry.
#[test]
fn a_secret_test_changes_no_sheet_until_the_game_master_reveals_it() {
    use solum_app::tables;
    use solum_store::Scope;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut home = SqliteStore::open(&path, solum_store::Scope::HOME).unwrap();
    let gm = tables::create_table(&mut home, "Table", "Gia").unwrap();
    let gm_member = tables::session(&home, &gm.token).unwrap().unwrap();
    let invite = tables::invite(&mut home, &gm_member, false).unwrap();
    let pia = tables::join(&mut home, &invite.token, "Pia", None, false).unwrap();
    let at = |scope: Scope| {
        Campaign::new(SqliteStore::open(&path, scope).unwrap())
            .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
    };
    let gm_scope = Scope::member(gm.table, gm.member.id, true);
    let player_scope = Scope::member(pia.table, pia.member.id, false);
    let mut gm_c = at(gm_scope);
    gm_c.create_sol(&new("Cole", 1, &[("AGI", 2)], &[("Sidearms", 1)]))
        .unwrap();
    let before = at(player_scope).sol("Cole").unwrap();
    assert_eq!((before.sheet.edge.points, before.version), (1, 1));

    // AGI 2 + 1 rank = 3 dice; Second Chance declared (1 Edge) rerolls the misses of
    // 5 1 2 into 6 5: three hits, more than the one rank, so a progress point.
    let mut t = SolTest::new("Sidearms", "AGI");
    t.threshold = Some(solum_app::sol_once::SolThreshold::new(1).unwrap());
    t.edge = Some(EdgeOnTest::SecondChance);
    let mut secret = at(gm_scope.secret());
    let v = secret
        .sol_test("Cole", &t, Dice::Typed(vec![5, 1, 2, 6, 5]), None)
        .unwrap();
    assert_eq!(v.result.test.as_ref().unwrap().hits, 3);
    assert!(v.result.progress.point);
    assert!(!v.applied, "a secret test waits for its reveal");
    let progress = |s: &solum_app::sol::SolSheetView| {
        s.sheet
            .skills
            .iter()
            .find(|k| k.name == "Sidearms")
            .map(|k| k.progress)
    };
    for scope in [player_scope, gm_scope] {
        let seen = at(scope).sol("Cole").unwrap();
        assert_eq!(seen, before, "the sheet as {scope:?} reads it");
        assert_eq!(progress(&seen), Some(0));
    }
    assert_eq!(
        len(&at(player_scope)),
        1,
        "the player reads only the creation"
    );

    // The journal re-derives the unchanged sheet: a secret test changes none.
    let report = at(gm_scope).verify().unwrap();
    assert!(report.is_clean(), "{report:?}");
    // A player cannot reveal (the entry is not theirs to see); the game master can, once.
    assert!(at(player_scope).reveal(v.seq).is_err());
    assert!(secret.reveal(v.seq).is_err(), "not from a secret scope");
    let shown = gm_c.reveal(v.seq).unwrap();
    assert!(!shown.secret);
    assert!(matches!(&shown.record, Record::Reveal { of, .. } if *of == v.seq));
    let e = gm_c.reveal(v.seq).unwrap_err();
    assert!(e.to_string().contains("already"), "{e}");
    let after = at(player_scope).sol("Cole").unwrap();
    assert_eq!(
        (after.sheet.edge.points, after.version, progress(&after)),
        (0, 2, Some(1))
    );
    let seen = at(player_scope).entries().unwrap();
    assert_eq!(seen.len(), 2);
    assert!(
        matches!(&seen[1].record, Record::Reveal { record, .. } if matches!(**record, Record::Sol(_)))
    );
    // The journal re-derives the sheet the reveal changed (Edge 0, progress 1).
    let report = at(gm_scope).verify().unwrap();
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(report.sheets, 1);
    assert!(at(player_scope).verify().unwrap().is_clean());
    // The game master's story marks the secret test and its reveal.
    let story = at(gm_scope).export_markdown("T").unwrap();
    assert_eq!(story.matches("*(secret)*").count(), 1, "{story}");
    assert_eq!(
        story
            .matches("*(revealed; rolled in secret on 2026-11-30)*")
            .count(),
        1,
        "{story}"
    );
    // A player's export, reveal and all, imports into another campaign: its test
    // re-derives from its dice.
    let export = at(player_scope).export().unwrap();
    let text = serde_json::to_string(&export).unwrap();
    let mut other = open(&dir.path().join("other.solum"));
    let n = other
        .import(solum_app::JournalExport::from_json(&text).unwrap())
        .unwrap();
    assert_eq!(n, 2);
}

/// A revealed test whose Edge the sheet no longer has is refused with the reason, and
/// nothing changes.
#[test]
fn a_reveal_the_sheet_cannot_pay_for_changes_nothing() {
    use solum_app::tables;
    use solum_store::Scope;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut home = SqliteStore::open(&path, solum_store::Scope::HOME).unwrap();
    let gm = tables::create_table(&mut home, "Table", "Gia").unwrap();
    let gm_scope = Scope::member(gm.table, gm.member.id, true);
    let at = |scope: Scope| {
        Campaign::new(SqliteStore::open(&path, scope).unwrap())
            .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
    };
    let mut gm_c = at(gm_scope);
    gm_c.create_sol(&new("Cole", 1, &[("AGI", 2)], &[("Sidearms", 1)]))
        .unwrap();
    let mut t = SolTest::new("Sidearms", "AGI");
    t.threshold = Some(solum_app::sol_once::SolThreshold::new(1).unwrap());
    t.edge = Some(EdgeOnTest::PushTheLimit);
    let v = at(gm_scope.secret())
        .sol_test("Cole", &t, Dice::Fresh, None)
        .unwrap();
    // The same point spent in public meanwhile.
    gm_c.sol_test("Cole", &t, Dice::Fresh, None).unwrap();
    let entries = len(&gm_c);
    let e = gm_c.reveal(v.seq).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    assert!(e.to_string().contains("edge"), "{e}");
    assert_eq!(len(&gm_c), entries);
}

/// A group action from sheets (issue 22): every participant's progress lands on its own
/// sheet, a secret one waits for its reveal (the participants' sheets too), and `journal
/// verify` re-derives the participants' sheets and names a changed one.
#[test]
fn a_group_action_records_every_participant_and_verify_names_a_changed_one() {
    use solum_app::tables;
    use solum_store::Scope;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut home = SqliteStore::open(&path, solum_store::Scope::HOME).unwrap();
    let gm = tables::create_table(&mut home, "Table", "Gia").unwrap();
    let at = |scope: Scope| {
        Campaign::new(SqliteStore::open(&path, scope).unwrap())
            .with_clock(|| "2026-12-01T20:00:00Z".parse().unwrap())
    };
    let gm_scope = Scope::member(gm.table, gm.member.id, true);
    let mut c = at(gm_scope);
    c.create_sol(&new("Kai", 2, &[("AGI", 3)], &[("Sidearms", 1)]))
        .unwrap();
    c.create_sol(&new("Bea", 2, &[("AGI", 2)], &[("Sidearms", 2)]))
        .unwrap();
    let ranks_progress = |c: &Campaign<SqliteStore>, n: &str| {
        let s = c.sol(n).unwrap().sheet;
        let k = s.skills.iter().find(|k| k.name == "Sidearms").unwrap();
        (k.ranks, k.progress)
    };
    // Kai leads: 4 dice, 5 5 6 1: 3 hits (a point above 1 rank). Bea: 4 dice, 6 6 6 2: 3
    // hits (a point above 2 ranks). Ties keep the first: the leader's test is the best.
    let mut t = SolTest::new("Sidearms", "AGI");
    t.threshold = Some(solum_app::sol_once::SolThreshold::new(3).unwrap());
    t.group = vec!["bea".into()];
    let mut secret = at(gm_scope.secret());
    let v = secret
        .sol_test("Kai", &t, Dice::Typed(vec![5, 5, 6, 1, 6, 6, 6, 2]), None)
        .unwrap();
    let g = v.result.group.as_ref().unwrap();
    assert_eq!(
        (g.best, g.hits, g.success, g.leader_wounds),
        (0, 3, Some(true), 0)
    );
    assert_eq!(g.members[0].name, "Bea");
    assert!(g.members[0].progress.point && v.result.progress.point);
    // Secret: no sheet changes until the reveal, the participant's neither.
    assert_eq!(ranks_progress(&c, "Kai"), (1, 0));
    assert_eq!(ranks_progress(&c, "Bea"), (2, 0));
    assert!(c.verify().unwrap().is_clean());
    c.reveal(v.seq).unwrap();
    assert_eq!(ranks_progress(&c, "Kai"), (1, 1));
    assert_eq!(ranks_progress(&c, "Bea"), (2, 1));
    assert!(c.verify().unwrap().is_clean());
    // In the open, a new encounter for both: the same dice, applied at once.
    c.sol_encounter("Kai").unwrap();
    c.sol_encounter("Bea").unwrap();
    let v = c
        .sol_test("Kai", &t, Dice::Typed(vec![5, 5, 6, 1, 6, 6, 6, 2]), None)
        .unwrap();
    assert!(v.applied);
    assert_eq!(ranks_progress(&c, "Bea"), (2, 2));
    let report = c.verify().unwrap();
    assert!(report.is_clean(), "{report:?}");
    drop(c);
    drop(secret);
    // The record claims Bea's sheet after holds 4 points: verify names the entry.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(&format!(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.change.test.group_after[0].skills[0].progress', 4)
           WHERE seq = {};",
        v.seq
    ))
    .unwrap();
    drop(raw);
    let report = at(gm_scope).verify().unwrap();
    let seqs: Vec<i64> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [v.seq], "{:?}", report.mismatches);
}
