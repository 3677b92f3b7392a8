//! The solo companion's use cases: idea words, the original oracle and the random difficulty,
//! journaled and re-derived.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::{AppError, Campaign, Dice, ErrorKind, IdeaSource, Record, ideas};
use solum_dice::{DiceSource, SeededDice};
use solum_expanded::oracle::Leaning;
use solum_store_sqlite::SqliteStore;

/// A count of words to draw.
fn drawing(count: u32) -> ideas::IdeaCount {
    ideas::IdeaCount::new(count).unwrap()
}

fn campaign(dir: &tempfile::TempDir) -> Campaign<SqliteStore> {
    let store = SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap();
    Campaign::new(store).with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
}

/// The fantasy list read straight from the data file, independently of the parser.
fn fantasy_file() -> Vec<String> {
    include_str!("../data/ideas/fantasy.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

fn genre(g: &str) -> IdeaSource {
    IdeaSource::Genre(g.into())
}

#[test]
fn idea_words_are_the_seeds_faces_read_on_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    let list = fantasy_file();
    for seed in 0..30 {
        let v = c
            .idea(genre("fantasy"), drawing(3), Dice::Seed(seed))
            .unwrap();
        let mut d = SeededDice::new(seed);
        let faces: Vec<u32> = (0..3).map(|_| d.roll(list.len() as u32).unwrap()).collect();
        let words: Vec<String> = faces
            .iter()
            .map(|&f| list[f as usize - 1].clone())
            .collect();
        assert_eq!((v.dice, v.words), (faces, words));
        assert_eq!(v.list_size, list.len());
    }
}

/// Golden words: the seed's faces (the ChaCha8 stream, pinned in solum-dice) read on the
/// fantasy list by line number. If this fails, the stream or the list changed, and old
/// journals would no longer verify.
#[test]
fn golden_idea_words_for_seed_2026() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    let v = c
        .idea(genre("fantasy"), drawing(4), Dice::Seed(2026))
        .unwrap();
    assert_eq!(v.dice, GOLDEN_FACES);
    assert_eq!(v.words, GOLDEN_WORDS);
}
const GOLDEN_FACES: [u32; 4] = [7, 71, 41, 30];
const GOLDEN_WORDS: [&str; 4] = ["forgotten god", "exile", "riddle", "cursed blade"];

#[test]
fn typed_faces_pick_words_by_position_and_must_fit_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    let list = fantasy_file();
    let n = list.len() as u32;
    let v = c
        .idea(genre("fantasy"), drawing(2), Dice::Typed(vec![1, n]))
        .unwrap();
    assert_eq!(v.words, [list[0].clone(), list[list.len() - 1].clone()]);
    assert!(v.typed && v.seed.is_none());
    let e = c
        .idea(genre("fantasy"), drawing(1), Dice::Typed(vec![n + 1]))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert!(matches!(
        c.idea(genre("western"), drawing(1), Dice::Seed(1)),
        Err(AppError::UnknownGenre { .. })
    ));
    // A count out of range is no count: refused as it is read, in the type's words.
    for out in [0, ideas::MAX_COUNT + 1] {
        let e = ideas::IdeaCount::new(out).unwrap_err();
        assert_eq!(e.to_string(), "an idea draws 1 to 20 words");
    }
    assert_eq!(c.entries().unwrap().len(), 1);
}

#[test]
fn a_players_list_is_journaled_whole_and_replays_without_it() {
    let dir = tempfile::tempdir().unwrap();
    // The list's text, as a front end read it from the player's file.
    let words = ideas::parse_list("# my words\nred door\n\nsilver owl\nthe ferry\n").unwrap();
    assert_eq!(words, ["red door", "silver owl", "the ferry"]);
    let mut c = campaign(&dir);
    let v = c
        .idea(
            IdeaSource::Custom {
                name: "mine.txt".into(),
                words,
            },
            drawing(3),
            Dice::Typed(vec![3, 1, 3]),
        )
        .unwrap();
    assert_eq!(v.words, ["the ferry", "red door", "the ferry"]);
    assert_eq!(v.list, "mine.txt");
    let report = c.verify().unwrap();
    assert_eq!((report.rolls, report.mismatches.len()), (1, 0));
}

#[test]
fn a_list_of_too_many_words_is_refused() {
    let many = "w\n".repeat(ideas::MAX_WORDS + 1);
    let e = ideas::parse_list(&many).unwrap_err();
    assert!(matches!(e, AppError::BadWordList { .. }), "{e}");
    assert_eq!(e.kind(), ErrorKind::BadInput);
    assert_eq!(e.code(), "word-list-invalid");
}

#[test]
fn the_original_oracle_reads_its_own_two_tables() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    // The text: 4 is "Yes, but", read on the first table; 5 there is an unfriendly NPC.
    let v = c
        .ask_classic(
            "Is the bridge guarded?",
            Leaning::Even,
            Dice::Typed(vec![4, 5]),
        )
        .unwrap();
    assert_eq!(
        (v.answer.as_str(), v.event.as_deref()),
        ("Yes, but…", Some("Unfriendly NPC"))
    );
    // 3 is "No, but", read on the second table; 2 there aids the player.
    let v = c
        .ask_classic("Is it locked?", Leaning::Even, Dice::Typed(vec![3, 2]))
        .unwrap();
    assert_eq!(
        (v.answer.as_str(), v.event.as_deref()),
        ("No, but…", Some("Something that aids the player"))
    );
    // Disadvantage: the worst of two dice; 1 is "No, and", first table, 6 a monster.
    let v = c
        .ask_classic(
            "Do they believe me?",
            Leaning::Disadvantage,
            Dice::Typed(vec![6, 1, 6]),
        )
        .unwrap();
    assert_eq!(
        (v.answer.as_str(), v.event.as_deref()),
        ("No, and…", Some("Unfriendly Monster"))
    );
    let table = [
        "No, and…",
        "No",
        "No, but…",
        "Yes, but…",
        "Yes",
        "Yes, and…",
    ];
    for seed in 0..40 {
        let v = c
            .ask_classic("Seeded?", Leaning::Even, Dice::Seed(seed))
            .unwrap();
        let face = SeededDice::new(seed).roll(6).unwrap();
        assert_eq!(v.answer, table[face as usize - 1]);
        assert_eq!(v.event.is_some(), ![2, 5].contains(&face));
    }
}

#[test]
fn the_random_difficulty_is_one_d6_on_the_texts_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    let names = ["automatic", "simple", "easy", "average", "tricky", "hard"];
    for face in 1..=6 {
        let v = c
            .random_difficulty(Some("climb the wall"), Dice::Typed(vec![face]))
            .unwrap();
        assert_eq!(
            (v.difficulty, v.name.as_str()),
            (face, names[face as usize - 1])
        );
    }
    for seed in 0..20 {
        let v = c.random_difficulty(None, Dice::Seed(seed)).unwrap();
        assert_eq!(v.difficulty, SeededDice::new(seed).roll(6).unwrap());
    }
    assert!(c.random_difficulty(Some(" "), Dice::Seed(1)).is_err());
}

#[test]
fn verify_names_a_changed_idea_classic_or_difficulty_entry() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.solum");
    let mut c = Campaign::new(SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    c.idea(genre("horror"), drawing(2), Dice::Seed(5)).unwrap();
    c.ask_classic("Q?", Leaning::Even, Dice::Typed(vec![5]))
        .unwrap();
    c.random_difficulty(None, Dice::Typed(vec![3])).unwrap();
    c.idea(genre("cyberpunk"), drawing(2), Dice::Seed(6))
        .unwrap();
    let report = c.verify().unwrap();
    assert_eq!((report.entries, report.rolls), (4, 4));
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    drop(c);

    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(
        "DROP TRIGGER journal_no_update;
         UPDATE journal SET body = json_set(body, '$.words[0]', 'a word never drawn') WHERE seq = 1;
         UPDATE journal SET body = json_set(body, '$.outcome.answer', 'No') WHERE seq = 2;
         UPDATE journal SET body = json_set(body, '$.difficulty', 6, '$.name', 'hard') WHERE seq = 3;",
    )
    .unwrap();
    drop(raw);
    let c = Campaign::new(SqliteStore::open(&path, solum_store::Scope::HOME).unwrap());
    let report = c.verify().unwrap();
    let seqs: Vec<_> = report.mismatches.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [1, 2, 3], "{:?}", report.mismatches);
    assert!(report.mismatches[0].reason.contains("a word never drawn"));
}

#[test]
fn new_records_export_import_and_render_as_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = campaign(&dir);
    c.start_scene("The marsh", None).unwrap();
    c.idea(genre("sf"), drawing(2), Dice::Typed(vec![1, 2]))
        .unwrap();
    c.ask_classic(
        "Is *it* there?",
        Leaning::Advantage,
        Dice::Typed(vec![2, 5]),
    )
    .unwrap();
    c.random_difficulty(Some("swim"), Dice::Typed(vec![4]))
        .unwrap();
    let export = c.export().unwrap();
    let kinds: Vec<_> = export.entries.iter().map(|e| e.record.kind()).collect();
    assert_eq!(
        kinds,
        ["scene-start", "idea", "classic-oracle", "difficulty"]
    );
    assert!(matches!(
        &export.entries[1].record,
        Record::Idea { list: solum_app::IdeaList::Genre { genre }, .. } if genre == "science-fiction"
    ));

    let other = tempfile::tempdir().unwrap();
    let mut d = campaign(&other);
    assert_eq!(d.import(export.clone()).unwrap(), 4);
    assert!(d.verify().unwrap().mismatches.is_empty());
    // A tampered idea does not import.
    let mut bad = export;
    if let Record::Idea { words, .. } = &mut bad.entries[1].record {
        words[1] = "derelict ship".into();
    }
    let e = d.import(bad).unwrap_err();
    assert!(
        matches!(e, AppError::ImportMismatch { index: 2, .. }),
        "{e}"
    );

    let md = c.export_markdown("Log").unwrap();
    let sf: Vec<String> = include_str!("../data/ideas/science-fiction.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(String::from)
        .collect();
    assert!(
        md.contains(&format!(
            "*Idea (science-fiction):* **{} · {}**",
            sf[0], sf[1]
        )),
        "{md}"
    );
    assert!(
        md.contains("**Is \\*it\\* there?** — *Yes* (original oracle, best of 2d6: 2 5)"),
        "{md}"
    );
    assert!(
        md.contains("*Difficulty for swim:* **4 (average)**"),
        "{md}"
    );
}
