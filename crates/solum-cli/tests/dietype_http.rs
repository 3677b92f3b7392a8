//! One contract for `--json` and HTTP, for the Solum die types' sheets: `solum dietype new`,
//! `dietype edit` and `roll dietype --char` print what `POST /api/dietype/characters`,
//! `PATCH /api/dietype/characters/{name}` and `POST /api/dietype/characters/{name}/roll`
//! answer for the same sheet and the same dice.
//!
//! Each front end changes its own twin of one sheet, made alike; the answers differ only in
//! the name and the journal entry (`seq`), which are set aside.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::contract;

use contract::{anonymous, cli, http, patch, serve};

#[test]
fn a_die_type_sheet_answers_the_same_on_the_command_line_and_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, addr, token) = serve(dir.path());
    let campaign = dir.path().join("c.solum");
    let campaign = campaign.to_str().unwrap();
    let twin = |args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--json", "--campaign", campaign]);
        anonymous(&cli(&args), "Vax")
    };

    let (status, by_http) = http(
        &addr,
        "/api/dietype/characters",
        Some(&token),
        r#"{"name":"Vex","abilities":[["Strength","d8"],["Agility","d6"]],"skills":[["Fight",2]],"weapons":[["Sword",{"die":"d6","modifier":1}]],"notes":"tall"}"#,
    );
    assert!(status.contains("201"), "{status} {by_http}");
    let by_cli = twin(&[
        "dietype",
        "new",
        "Vax",
        "--ability",
        "Strength=d8",
        "--ability",
        "Agility=d6",
        "--skill",
        "Fight=2",
        "--weapon",
        "Sword=d6+1",
        "--notes",
        "tall",
    ]);
    assert_eq!(by_cli, anonymous(&by_http, "Vex"));

    // Strength to d10, a new skill, the sword gone, new notes.
    let (status, by_http) = patch(
        &addr,
        "/api/dietype/characters/Vex",
        &token,
        r#"{"abilities":[["Strength","d10"]],"skills":[["Sneak",1]],"remove_weapons":["Sword"],"notes":"taller"}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["sheet"]["sheet"]["abilities"]["Strength"], "d10");
    let by_cli = twin(&[
        "dietype",
        "edit",
        "Vax",
        "--ability",
        "Strength=d10",
        "--skill",
        "Sneak=1",
        "--remove-weapon",
        "Sword",
        "--notes",
        "taller",
    ]);
    assert_eq!(by_cli, anonymous(&by_http, "Vex"));

    // Strength d10 with Fight's two chances against 6: 7 and 3, one success.
    let (status, by_http) = http(
        &addr,
        "/api/dietype/characters/Vex/roll",
        Some(&token),
        r#"{"ability":"Strength","skill":"Fight","step":0,"against":{"difficulty":6},"weapon":null,"damage_step":0,"typed":[7,3]}"#,
    );
    assert!(status.contains("200"), "{status} {by_http}");
    assert_eq!(by_http["result"]["success"], true);
    let by_cli = twin(&[
        "roll",
        "dietype",
        "--char",
        "Vax",
        "--ability",
        "Strength",
        "--skill",
        "Fight",
        "--vs",
        "6",
        "--rolled",
        "7,3",
    ]);
    assert_eq!(by_cli, anonymous(&by_http, "Vex"));
    // The list: both sheets, each with who made it.
    contract::lists_agree(&addr, &token, campaign, "dietype");
}
