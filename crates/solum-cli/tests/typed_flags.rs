//! Flags typed at the edge (issue 23): each number or word a command takes is parsed by its
//! type's `FromStr` (a `bounded!` range, or a rules' word), so clap refuses a bad one with
//! exit 2, naming the flag and saying the range or the words, before anything runs. One case
//! per flag typed; the words are the types' own (their unit tests pin them too).
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use common::solum_args;

const DUEL: &str = "a duel's Body, hit points and stat are 1 to 30";

/// Runs `solum ARGS` on a campaign path that does not exist, and checks it was refused
/// with exit 2 and `message` on standard error, and left no campaign behind.
fn refused(args: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let mut all = args.to_vec();
    if !matches!(args.first(), Some(&"odds" | &"vehicle")) {
        all.extend(["--campaign", c.to_str().unwrap()]);
    }
    let run = solum_args(&all);
    run.bad_input(message);
    assert!(!c.exists(), "`{}` left a campaign behind", args.join(" "));
}

#[test]
fn a_classic_duel_takes_its_numbers_and_words_typed() {
    let duel = ["odds", "classic", "duel"];
    let cases: [(&[&str], String); 12] = [
        (&["--body", "0", "--hp", "2"], format!("invalid value '0' for '--body <BODY>': {DUEL}")),
        (&["--pool", "31", "--hp", "2"], format!("invalid value '31' for '--body <BODY>': {DUEL}")),
        (&["--body", "2", "--hp", "-1"], format!("invalid value '-1' for '--hp <HP>': {DUEL}")),
        (
            &["--body", "2", "--hp", "2", "--stat-dice", "0"],
            format!("invalid value '0' for '--stat-dice <STAT_DICE>': {DUEL}"),
        ),
        (
            &["--body", "2", "--hp", "2", "--foe-body", "31", "--foe-hp", "2"],
            format!("invalid value '31' for '--foe-body <FOE_BODY>': {DUEL}"),
        ),
        (
            &["--body", "2", "--hp", "2", "--foe-body", "2", "--foe-hp", "2", "--foe-stat-dice", "31"],
            format!("invalid value '31' for '--foe-stat-dice <FOE_STAT_DICE>': {DUEL}"),
        ),
        (
            &["--body", "2", "--hp", "2", "--monster", "troll", "--damage", "2"],
            "invalid value '2' for '--damage <DAMAGE>': the original So1um deals 1 hit point per won exchange: damage is 1".into(),
        ),
        (
            &["--body", "2", "--hp", "2", "--monster", "troll", "--foe-damage", "0"],
            "invalid value '0' for '--foe-damage <FOE_DAMAGE>': the original So1um deals 1 hit point per won exchange: damage is 1".into(),
        ),
        (
            &["--body", "2", "--hp", "2", "--monster", "troll", "--policy", "flee"],
            "invalid value 'flee' for '--policy <POLICY>': `flee` is not a policy: survive, hit-points or body".into(),
        ),
        (
            &["--body", "2", "--hp", "2", "--monster", "troll", "--foe-policy", "Flee"],
            "invalid value 'Flee' for '--foe-policy <FOE_POLICY>': `flee` is not a policy: survive, hit-points or body".into(),
        ),
        (
            &["--body", "2", "--hp", "2", "--monster", "troll", "--foe-stat", "luck"],
            "invalid value 'luck' for '--foe-stat <FOE_STAT>': `luck` is not".into(),
        ),
        (
            &["--body", "2", "--hp", "2", "--foe-body", "2", "--foe-hp", "99999999999999999999"],
            format!("invalid value '99999999999999999999' for '--foe-hp <FOE_HP>': {DUEL}"),
        ),
    ];
    for (flags, message) in cases {
        let args: Vec<&str> = duel.iter().chain(flags).copied().collect();
        refused(&args, &message);
    }
    // Within range and typed as words, the same duel answers as before.
    let run = solum_args(&[
        "odds",
        "classic",
        "duel",
        "--body",
        "1",
        "--hp",
        "1",
        "--foe-body",
        "1",
        "--foe-hp",
        "1",
        "--policy",
        "HP",
        "--damage",
        "1",
        "--json",
    ]);
    assert_eq!(run.json()["p_win_exact"], "1/2");
}

/// The original's fight and check: stats, policies and the decision of a hit are the rules'
/// words, read by clap (a campaign hero's and a one-shot's alike).
#[test]
fn a_classic_fight_and_check_take_their_words_typed() {
    let policy = "`flee` is not a policy: survive, hit-points or body";
    refused(
        &[
            "classic",
            "fight",
            "alessandor",
            "goblin",
            "--policy",
            "flee",
        ],
        &format!("invalid value 'flee' for '--policy <POLICY>': {policy}"),
    );
    refused(
        &[
            "classic",
            "fight",
            "alessandor",
            "goblin",
            "--foe-policy",
            "flee",
        ],
        &format!("invalid value 'flee' for '--foe-policy <FOE_POLICY>': {policy}"),
    );
    for (args, flag) in [
        (
            &["classic", "fight", "alessandor", "goblin", "--stat", "luck"][..],
            "--stat <STAT>",
        ),
        (
            &[
                "classic",
                "fight",
                "alessandor",
                "goblin",
                "--foe-stat",
                "luck",
            ],
            "--foe-stat <FOE_STAT>",
        ),
        (
            &[
                "classic",
                "check",
                "alessandor",
                "--stat",
                "luck",
                "--vs",
                "4",
            ],
            "--stat <STAT>",
        ),
    ] {
        refused(
            args,
            &format!("invalid value 'luck' for '{flag}': `luck` is not"),
        );
    }
    let classic = "the original So1um's difficulties run from 1 (automatic) to 6 (hard), or a name: automatic, simple, easy, average, tricky, hard";
    for (args, value) in [
        (&["classic", "check", "alessandor", "--vs", "7"][..], "7"),
        (&["classic", "check", "3", "--vs", "-1"], "-1"),
        (
            &["odds", "classic", "check", "3", "--vs", "impossible"],
            "impossible",
        ),
    ] {
        refused(
            args,
            &format!("invalid value '{value}' for '--vs <VS>': difficulty `{value}`: {classic}"),
        );
    }
    refused(
        &["classic", "fight", "Ada", "--decide", "maybe"],
        "invalid value 'maybe' for '--decide <body|hp>': `maybe` is not a way to take a hit: body or hp",
    );
}

/// An Expanded difficulty is the rules' `Difficulty` wherever it is typed: a check (from
/// numbers or a sheet), its odds, and fast static combat (typed or from a sheet).
#[test]
fn an_expanded_difficulty_is_typed_wherever_it_is_given() {
    let range = "difficulty 0 is not possible: difficulties run from 1 (automatic) to 1000";
    let name = "`hopeless` is not a difficulty: give a number or one of automatic, very-easy, easy, average, tough, hard";
    for (args, value, words) in [
        (&["check", "3", "--vs", "0"][..], "0", range),
        (
            &["odds", "check", "3", "--vs", "hopeless"],
            "hopeless",
            name,
        ),
        (
            &[
                "check", "--char", "Nick", "--attr", "mind", "--vs", "hopeless",
            ],
            "hopeless",
            name,
        ),
    ] {
        refused(
            args,
            &format!("invalid value '{value}' for '--vs <DIFFICULTY>': {words}"),
        );
    }
    for args in [
        &[
            "static",
            "--pool",
            "3",
            "--hp",
            "5",
            "--damage",
            "1",
            "--vs",
            "0",
            "--foe-hp",
            "2",
            "--foe-damage",
            "1",
        ][..],
        &[
            "static",
            "--char",
            "Nick",
            "--vs",
            "0",
            "--foe-hp",
            "2",
            "--foe-damage",
            "1",
        ],
    ] {
        refused(args, &format!("invalid value '0' for '--vs <VS>': {range}"));
    }
    // A name reads as its number.
    let run = solum_args(&["odds", "check", "3", "--vs", "Very-Easy", "--json"]);
    assert_eq!(run.json()["difficulty"], 2, "{}", run.stdout);
}

#[test]
fn a_sheet_check_takes_its_attribute_and_gear_die_typed() {
    refused(
        &["check", "--char", "Nick", "--attr", "luck", "--vs", "4"],
        "invalid value 'luck' for '--attr <ATTR>': `luck` is not an attribute: body, mind or charm",
    );
    for die in ["0", "first", "2.5"] {
        refused(
            &[
                "check",
                "--char",
                "Nick",
                "--attr",
                "mind",
                "--gear-die",
                die,
                "--vs",
                "4",
            ],
            &format!(
                "invalid value '{die}' for '--gear-die <N|best|none>': `{die}`: write best, none, or the position of the rerolled die from 1"
            ),
        );
    }
}

#[test]
fn a_character_takes_its_starting_attributes_and_advanced_attribute_typed() {
    for (flag, value) in [("--body", "4"), ("--mind", "0"), ("--charm", "-3")] {
        let mut args = vec![
            "char", "new", "Nick", "--body", "3", "--mind", "2", "--charm", "1",
        ];
        let at = args.iter().position(|a| *a == flag).unwrap();
        args[at + 1] = value;
        args.extend(["-b", "Thief", "--weapon", "dagger", "--seed", "1"]);
        let upper = flag.trim_start_matches("--").to_ascii_uppercase();
        refused(
            &args,
            &format!(
                "invalid value '{value}' for '{flag} <{upper}>': Body, Mind and Charm start at 1 to 3: 3, 2 and 1, one each"
            ),
        );
    }
    refused(
        &["char", "advance", "Nick", "--attribute", "luck"],
        "invalid value 'luck' for '--attribute <ATTRIBUTE>': `luck` is not an attribute: body, mind or charm",
    );
}

#[test]
fn a_vehicle_roll_takes_its_ratings_typed() {
    let speed = "`warp` is not a speed: slow, average, fast or lightning-fast";
    let handling = "`nimble` is not a handling: clumsy, average, responsive or exceptional";
    for (flag, value, words) in [
        ("--speed", "warp", speed),
        ("--against-speed", "warp", speed),
        ("--handling", "nimble", handling),
        ("--against-handling", "nimble", handling),
    ] {
        let upper = flag
            .trim_start_matches("--")
            .replace('-', "_")
            .to_ascii_uppercase();
        refused(
            &[
                "vehicle",
                "chase",
                "--pilot",
                "3",
                "--against-pilot",
                "3",
                flag,
                value,
            ],
            &format!("invalid value '{value}' for '{flag} <{upper}>': {words}"),
        );
    }
    // The scale rule's weapon and size.
    for damage in ["0", "1000001", "-1"] {
        refused(
            &[
                "vehicle",
                "scale",
                "--weapon-damage",
                damage,
                "--scale",
                "car",
            ],
            &format!(
                "invalid value '{damage}' for '--weapon-damage <WEAPON_DAMAGE>': a personal weapon deals 1 to 1000000 damage"
            ),
        );
    }
    refused(
        &[
            "vehicle",
            "scale",
            "--weapon-damage",
            "3",
            "--scale",
            "huge",
        ],
        "invalid value 'huge' for '--scale <SCALE>': `huge` is not a vehicle's scale: car (up to a car or truck) or large",
    );
    let v = solum_args(&[
        "vehicle",
        "scale",
        "--weapon-damage",
        "3",
        "--scale",
        "Truck",
        "--json",
    ])
    .json();
    assert_eq!(v["damage"], 1, "{v}");
    // Any case reads, as the catalogue's words.
    let run = solum_args(&[
        "vehicle",
        "chase",
        "--pilot",
        "3",
        "--against-pilot",
        "3",
        "--speed",
        "Lightning-Fast",
        "--against-handling",
        "EXCEPTIONAL",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn campaign_settings_and_counts_are_typed() {
    refused(
        &["roll-off", "maybe"],
        "invalid value 'maybe' for '[SETTING]': `maybe` is not a setting: on or off",
    );
    for last in ["0", "-1", "4294967296"] {
        refused(
            &["journal", "show", "--last", last],
            &format!(
                "invalid value '{last}' for '--last <N>': a number of entries is 1 to 4294967295"
            ),
        );
    }
}

/// The numbers a table's request reads with their types (issue 23) are the same types as
/// flags: an idea's count, a Project Sol character's Edge, a Sol'una test's flips and target
/// number.
#[test]
fn the_numbers_a_request_reads_typed_are_typed_flags_too() {
    for (flag, count) in [("--count", "21"), ("--count", "0"), ("-n", "-1")] {
        refused(
            &["idea", flag, count],
            &format!("invalid value '{count}' for '--count <COUNT>': an idea draws 1 to 20 words"),
        );
    }
    for edge in ["1001", "-1"] {
        refused(
            &["sol", "new", "Kyra", "--edge", edge],
            &format!("invalid value '{edge}' for '--edge <EDGE>': Edge is 0 to 1000"),
        );
    }
    for (flag, upper, value) in [
        ("--flips", "FLIPS", "1001"),
        ("--against", "AGAINST", "-1"),
        ("--against", "AGAINST", "4000000000"),
    ] {
        refused(
            &["soluna", "test", "Csen", flag, value],
            &format!("invalid value '{value}' for '{flag} <{upper}>': flips are 0 to 1000"),
        );
    }
    refused(
        &["soluna", "test", "Csen", "--tn", "0"],
        "invalid value '0' for '--tn <TN>': a target number is 1 to 1000 (a test rolls at most 1000 dice)",
    );
}

/// In `solum play`, a `journal N` line and a `roll-off` line read their words by the same
/// types: the failed line is named and the script ends with exit 2.
#[test]
fn play_lines_read_counts_and_switches_by_their_types() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c.solum");
    let out = assert_cmd::Command::cargo_bin("solum")
        .unwrap()
        .args(["play", "--campaign", c.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .env_remove("SOLUM_CAMPAIGN")
        .write_stdin("note one\njournal 0\nroll-off sometimes\nroll-off ON\njournal 1\n")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("journal \"0\": a number of entries is 1 to 4294967295"),
        "{stderr}"
    );
    assert!(
        stderr.contains("roll-off: `sometimes` is not a setting: on or off"),
        "{stderr}"
    );
    assert!(stderr.contains("2 of 5 commands failed"), "{stderr}");
    assert!(stdout.contains("roll-off on"), "{stdout}");
}
