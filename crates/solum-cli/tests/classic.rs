//! The original So1um end to end: hero files, checks from a hero, rest on the sheet, fights.

mod common;

use common::{num, solum, solum_args};

fn hero_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let f = dir.path().join(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_owned()
}

const GROK: &str = "name = \"Grok\"\nbody = 3\nmind = 1\nspirit = 2\nhit_points = 4\ncliches = [\"The veteran warrior\"]\n";

#[test]
fn classic_check_from_a_hero_file_with_its_cliche() {
    let dir = tempfile::tempdir().unwrap();
    let f = hero_file(&dir, "grok.toml", GROK);
    // Spirit 2 plus one die for the cliché: three dice, tricky (5); the third die passes.
    let v = solum_args(&[
        "classic",
        "check",
        &f,
        "--stat",
        "spirit",
        "--cliche",
        "veteran warrior",
        "--vs",
        "tricky",
        "--rolled",
        "1,2,5",
        "--json",
    ])
    .json();
    assert_eq!(v["check"]["pool"], 3);
    assert_eq!(v["check"]["passed"], true);
    assert_eq!(v["hero"]["cliche"], "The veteran warrior");
    // 1 - (4/6)^3 = 19/27.
    assert!((num(&v, "p_pass") - 19.0 / 27.0).abs() < 1e-12);
    // Body by default, no cliché: three dice.
    let v = solum_args(&[
        "classic", "check", &f, "--vs", "6", "--rolled", "1,2,3", "--json",
    ])
    .json();
    assert_eq!(v["check"]["pool"], 3);
    assert_eq!(v["check"]["passed"], false);
    // A sample hero of the book, by name.
    let out = solum("classic check alessandor --stat mind --cliche cleric --vs 4 --rolled 4,1");
    assert!(
        out.ok().contains("Alessandor the Blade rolls Mind + 1 die"),
        "{}",
        out.stdout
    );
    solum_args(&[
        "classic",
        "check",
        &f,
        "--cliche",
        "Sticky fingers",
        "--vs",
        "4",
    ])
    .bad_input("--cliche: Grok has no cliché `Sticky fingers` (theirs: The veteran warrior)");
    solum_args(&["classic", "check", &f, "--stat", "luck", "--vs", "4"]).bad_input("--stat");
    solum("classic check 2 --cliche x --vs 4").bad_input("need a hero");
}

#[test]
fn classic_hero_files_are_validated() {
    let dir = tempfile::tempdir().unwrap();
    let f = hero_file(&dir, "bad.toml", &GROK.replace("mind = 1", "mind = 4"));
    solum_args(&["classic", "show", &f]).bad_input("bad.toml: mind: 4 is outside 1 to 3");
    let f = hero_file(
        &dir,
        "hp.toml",
        &GROK.replace("hit_points = 4", "hit_points = 9"),
    );
    solum_args(&["classic", "check", &f, "--vs", "3"])
        .bad_input("hp.toml: hit_points: 9 is outside 3 to 5");
    let f = hero_file(&dir, "typo.toml", &format!("{GROK}bdoy = 2\n"));
    solum_args(&["classic", "rest", &f, "--hours", "8"]).bad_input("unknown field `bdoy`");
    solum_args(&["classic", "fight", &f, "goblin", "--seed", "1"]).bad_input("typo.toml");
    // A monster file is held to a monster's limits: the book's Squidhead would do.
    let m = hero_file(
        &dir,
        "squid.toml",
        "name = \"Squid\"\nbody = 2\nmind = 5\nspirit = 4\nhit_points = 6\ncombat_stat = \"mind\"\n",
    );
    let ok = hero_file(&dir, "grok.toml", GROK);
    solum_args(&["classic", "fight", &ok, &m, "--seed", "3", "--json"]).json();
    let m0 = hero_file(
        &dir,
        "m0.toml",
        "name = \"M\"\nbody = 0\nmind = 1\nspirit = 1\nhit_points = 1\n",
    );
    solum_args(&["classic", "fight", &ok, &m0]).bad_input("m0.toml: body: 0 is outside");
}

#[test]
fn classic_rest_adds_up_on_the_sheet() {
    let dir = tempfile::tempdir().unwrap();
    // Grok at Body 2 of 3 and 1 hit point of 4.
    let f = hero_file(
        &dir,
        "grok.toml",
        &GROK
            .replace("body = 3", "body = 2\nmax_body = 3")
            .replace("hit_points = 4", "hit_points = 1\nmax_hit_points = 4"),
    );
    let v = solum_args(&["classic", "rest", &f, "--hours", "5.5", "--json"]).json();
    assert_eq!(v["rest"]["hit_points"], 0);
    assert_eq!(v["rest"]["toward_hit_point"], 5.5);
    assert!(
        std::fs::read_to_string(&f)
            .unwrap()
            .contains("rest_toward_hit_point = 5.5")
    );
    // 2.5 more hours make the 8 of a hit point.
    let v = solum_args(&["classic", "rest", &f, "--hours", "2.5", "--json"]).json();
    assert_eq!(v["rest"]["hit_points"], 1);
    assert_eq!(v["hero"]["hit_points"], 2);
    // 16 more: 24 in all, a day: one Body, and two more hit points.
    let v = solum_args(&["classic", "rest", &f, "--hours", "16", "--json"]).json();
    assert_eq!(
        (v["rest"]["hit_points"].as_u64(), v["rest"]["body"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(v["hero"]["body"], 3);
    solum_args(&["classic", "rest", &f, "--hours", "-2"]).bad_input("--hours");
    solum_args(&["classic", "rest", &f, "--hours", "soon"]).bad_input("--hours");
}
