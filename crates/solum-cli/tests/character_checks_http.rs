//! One contract for `--json` and HTTP, for the checks made from a campaign's characters:
//! `solum check --char` (and `--odds`), `solum sol test` and `solum classic check HERO` print
//! what `POST /api/characters/{name}/check` (and `/odds`), `/api/sol/characters/{name}/test`
//! and `/api/classic/characters/{name}/check` answer for the same sheet and the same dice.
//!
//! A roll can change its sheet (a progress point is earned once an encounter), so each
//! front end rolls for its own twin of the same sheet, made alike; the answers differ only in
//! the name and the journal entry (`seq`), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{anonymous, cli, http, serve};

#[test]
fn a_check_from_a_sheet_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();

    // So1um Expanded: Body 3 (three dice) against 4, typed 5 3 2: passed, 7/8 before the roll.
    for name in ["Nick", "Nack"] {
        let body = format!(
            r#"{{"name":"{name}","body":3,"mind":2,"charm":1,"backgrounds":["Sailor"],"weapon":{{"name":"dagger","class":"light"}},"armor_name":"leather"}}"#
        );
        let (status, made) = http(&addr, "/api/characters", Some(&token), &body);
        assert!(status.contains("201"), "{status} {made}");
    }
    let (status, by_http) = http(
        &addr,
        "/api/characters/Nick/check",
        Some(&token),
        r#"{"attribute":"body","against":{"difficulty":4},"typed":[5,3,2]}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["odds"]["pass_exact"], "7/8");
    let by_cli = cli(&[
        "check",
        "--char",
        "Nack",
        "--attr",
        "body",
        "--vs",
        "4",
        "--rolled",
        "5,3,2",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(anonymous(&by_cli, "Nack"), anonymous(&by_http, "Nick"));

    // The odds alone, opposed by 2 dice: nothing rolled.
    let (status, by_http) = http(
        &addr,
        "/api/characters/Nick/odds",
        Some(&token),
        r#"{"attribute":"body","against":{"opposed":{"dice":2,"gear":false}}}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert!(by_http["draw"].is_number(), "{by_http}");
    let by_cli = cli(&[
        "check",
        "--char",
        "Nack",
        "--attr",
        "body",
        "--against",
        "2",
        "--odds",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(by_cli, by_http);

    // Project Sol: CHA 1 + Etiquette 4 = 5 dice; 5 5 6 6 1 is 4 hits against 2.
    for name in ["Malcolm", "Mal"] {
        let body = format!(
            r#"{{"name":"{name}","edge":2,"attributes":[["CHA",1]],"skills":[["Etiquette",4]]}}"#
        );
        let (status, made) = http(&addr, "/api/sol/characters", Some(&token), &body);
        assert!(status.contains("201"), "{status} {made}");
    }
    let (status, by_http) = http(
        &addr,
        "/api/sol/characters/Malcolm/test",
        Some(&token),
        r#"{"skill":"Etiquette","attribute":"CHA","threshold":2,"typed":[5,5,6,6,1]}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["test"]["hits"], 4);
    let by_cli = cli(&[
        "sol",
        "test",
        "Mal",
        "--skill",
        "Etiquette",
        "--attr",
        "CHA",
        "--threshold",
        "2",
        "--rolled",
        "5,5,6,6,1",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(anonymous(&by_cli, "Mal"), anonymous(&by_http, "Malcolm"));

    // The original So1um: twins imported from one hero file (Body 3), a Body check against
    // 5 with 5 2 2: the highest die passes; 1 − (4/6)³ = 19/27 before the roll.
    for name in ["Grok", "Grak"] {
        let file = dir.path().join(format!("{name}.toml"));
        std::fs::write(
            &file,
            format!(
                "name = \"{name}\"\nbody = 3\nmind = 1\nspirit = 2\nhit_points = 4\ncliches = [\"The veteran warrior\"]\n"
            ),
        )
        .unwrap();
        cli(&[
            "classic",
            "import",
            file.to_str().unwrap(),
            "--json",
            "--campaign",
            campaign,
        ]);
    }
    let (status, by_http) = http(
        &addr,
        "/api/classic/characters/Grok/check",
        Some(&token),
        r#"{"stat":"body","difficulty":5,"typed":[5,2,2]}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["check"]["passed"], true);
    let p = 1.0 - (4.0f64 / 6.0).powi(3);
    assert!((by_http["p_pass"].as_f64().unwrap() - p).abs() < 1e-12);
    let by_cli = cli(&[
        "classic",
        "check",
        "Grak",
        "--stat",
        "body",
        "--vs",
        "5",
        "--rolled",
        "5,2,2",
        "--json",
        "--campaign",
        campaign,
    ]);
    assert_eq!(anonymous(&by_cli, "Grak"), anonymous(&by_http, "Grok"));
}
