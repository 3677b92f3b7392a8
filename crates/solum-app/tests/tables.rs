//! Tables of the web table at the application layer, against a real SQLite file: the one
//! name rule, members that cannot look alike, invites that expire and can be revoked, and a
//! join that does not silently replace a session. Expected values come from the issue's
//! cases and the Unicode code charts, never from the program's output.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::tables::{self, HOME_GM_INVITE_SECONDS, PLAYER_INVITE_SECONDS};
use solum_app::{AppError, Campaign, ErrorKind, NewSol};
use solum_store::TableStore;

use solum_store_sqlite::SqliteStore;

fn store() -> (tempfile::TempDir, SqliteStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap();
    (dir, s)
}

/// Names that look blank, look like another, or reorder text: refused for tables, members
/// and the characters of every system alike.
const LOOK_ALIKES: &[&str] = &[
    "Hero\u{3164}",    // Hangul filler
    "Hero\u{115F}",    // Hangul choseong filler
    "Hero\u{FFA0}",    // half-width Hangul filler
    "Hero\u{00A0}",    // no-break space at the edge (not trimmed as a space)
    "Jean\u{00A0}Luc", // no-break space inside
    "\u{2800}",        // blank Braille pattern alone
    "Hero\u{2800}",
    "\u{3000}",     // ideographic space alone
    "Hero\u{200B}", // zero-width space
    "Hero\u{200E}", // left-to-right mark
    "\u{202E}oreH", // right-to-left override
    "Hero\u{2066}", // isolate
    "Hero\u{061C}", // Arabic letter mark
    "Hero\u{FE0F}", // variation selector
    "\u{0301}",     // a combining mark with nothing under it
    "\u{0301}Nick", // a combining mark first: it accents whatever is printed before
    "   ",
    "",
];

#[test]
fn look_alike_and_blank_names_are_refused_everywhere() {
    let (dir, mut s) = store();
    for name in LOOK_ALIKES {
        let e = tables::create_table(&mut s, "T", name).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput, "{name:?}: {e}");
        let e = tables::create_table(&mut s, name, "Gia").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput, "{name:?}: {e}");
    }
    let mut c = Campaign::new(
        SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap(),
    );
    for name in LOOK_ALIKES {
        let sol = NewSol {
            name: (*name).into(),
            edge: solum_app::sol::SolEdge::new(1).unwrap(),
            attributes: [("AGI".to_string(), 2)].into(),
            skills: Default::default(),
        };
        assert!(c.create_sol(&sol).is_err(), "sol {name:?}");
        assert!(
            c.create_classic_hero(name, &[], solum_app::Dice::Fresh)
                .is_err(),
            "classic {name:?}"
        );
        assert!(
            c.create_dietype_character(name, &Default::default())
                .is_err(),
            "dietype {name:?}"
        );
    }
    // Plain names with accents, apostrophes and one space between words pass.
    for name in ["Zoë", "O'Brien", "Jean Luc", "李小龍", "Ⅻ"] {
        tables::create_table(&mut s, "T", name).unwrap();
    }
}

/// The hostile tester's names beside `Nick`, each read as `Nick` by a reader: mathematical
/// bold capital N (U+1D40D, NFKC N), a dotless i (U+0131, upper case I), a small capital N
/// (U+0274), full-width N (U+FF2E), Cyrillic і (U+0456), Greek capital Nu (U+039D), and a
/// digit one for the i's capital (TR39's confusables: `1` and `I` are both `l`).
const LOOKS_LIKE_NICK: &[&str] = &[
    "\u{1D40D}ick",
    "N\u{0131}ck",
    "\u{0274}ick",
    "\u{FF2E}ick",
    "N\u{0456}ck",
    "\u{039D}ick",
    "N1ck",
];

#[test]
fn names_that_read_alike_have_one_key() {
    // By hand from Unicode's data: N, I, C and K upper-cased; TR39 maps capital I to small l
    // (its prototype), N, C and K to themselves; lower case last.
    assert_eq!(solum_app::name_key("Nick"), "nlck");
    assert_eq!(solum_app::name_key(" NICK  "), "nlck");
    for name in LOOKS_LIKE_NICK {
        assert_eq!(solum_app::name_key(name), "nlck", "{name:?}");
    }
    // O and the digit zero are one prototype (O); `ß` upper-cases to `SS`.
    assert_eq!(solum_app::name_key("B0b"), "bob");
    assert_eq!(
        solum_app::name_key("Straße"),
        solum_app::name_key("STRASSE")
    );
    // A mark a reader sees, another letter, another script's own letter: names of their own.
    for (a, b) in [
        ("Zoë", "Zoe"),
        ("Nick", "Nico"),
        ("A\u{0434}a", "Ada"),
        ("李", "Li"),
    ] {
        assert_ne!(solum_app::name_key(a), solum_app::name_key(b), "{a} {b}");
    }
    assert_eq!(
        solum_app::name_problem("\u{0301}Nick"),
        Some("starts with a combining mark (an accent with no letter before it)")
    );
    assert_eq!(solum_app::name_problem("Nicò"), None);
}

#[test]
fn a_look_alike_of_a_member_or_a_character_is_refused_in_every_system() {
    use solum_app::dietype::DietypeEdit;
    use solum_expanded::character::{Class, Weapon};
    let (dir, mut s) = store();
    let gm = tables::create_table(&mut s, "T", "Nick").unwrap();
    let gm_member = tables::session(&s, &gm.token).unwrap().unwrap();
    for name in LOOKS_LIKE_NICK {
        let invite = tables::invite(&mut s, &gm_member, false).unwrap();
        let e = tables::join(&mut s, &invite.token, name, None, false).unwrap_err();
        assert!(matches!(e, AppError::NameTaken { .. }), "{name:?}: {e}");
    }
    let mut c = Campaign::new(
        SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap(),
    );
    let expanded = |name: &str| solum_app::characters::NewCharacter {
        name: name.into(),
        body: solum_app::characters::StartingAttribute::new(3).unwrap(),
        mind: solum_app::characters::StartingAttribute::new(2).unwrap(),
        charm: solum_app::characters::StartingAttribute::new(1).unwrap(),
        backgrounds: vec!["Hunter".into()],
        weapon: Weapon::melee("knife", Class::Light),
        armor_name: "leather".into(),
    };
    let sol = |name: &str| NewSol {
        name: name.into(),
        edge: solum_app::sol::SolEdge::new(1).unwrap(),
        attributes: [("AGI".to_string(), 2)].into(),
        skills: Default::default(),
    };
    let soluna = |name: &str| solum_soluna::skirmish::Character {
        name: name.into(),
        side: "red".into(),
        mind: 1,
        body: 0,
        shield: 0,
        hit_points: 2,
        melee: 1,
        ranged: 0,
        flips: 0,
        guard: 0,
        flips_per_test: 1,
        extra_dice: 0,
        dice_guard: 0,
        dice_per_test: 1,
    };
    // S9's dice typed: 2d6 1 and 3, d6 1 (no extra background, no armor).
    let typed = || solum_app::Dice::Typed(vec![1, 3, 1]);
    c.create_character(&expanded("Nick"), typed()).unwrap();
    c.create_classic_hero("Nick", &[], solum_app::Dice::Fresh)
        .unwrap();
    c.create_dietype_character("Nick", &DietypeEdit::default())
        .unwrap();
    c.create_sol(&sol("Nick")).unwrap();
    c.create_soluna_character(&soluna("Nick")).unwrap();
    for name in LOOKS_LIKE_NICK {
        let refusals = [
            c.create_character(&expanded(name), typed()).unwrap_err(),
            c.create_classic_hero(name, &[], solum_app::Dice::Fresh)
                .unwrap_err(),
            c.create_dietype_character(name, &DietypeEdit::default())
                .unwrap_err(),
            c.create_sol(&sol(name)).unwrap_err(),
            c.create_soluna_character(&soluna(name)).unwrap_err(),
        ];
        for (system, e) in ["expanded", "classic", "dietype", "sol", "soluna"]
            .iter()
            .zip(refusals)
        {
            assert_eq!(
                e.code(),
                "character-name-look-alike",
                "{system} {name:?}: {e}"
            );
        }
    }
}

#[test]
fn a_player_cannot_take_a_name_that_compares_equal_to_a_members() {
    let (_dir, mut s) = store();
    let gm = tables::create_table(&mut s, "T", "Gia Rossi").unwrap();
    let gm_member = tables::session(&s, &gm.token).unwrap().unwrap();
    for (i, name) in [
        "Gia Rossi",
        "gia rossi",
        " GIA  ROSSI ",
        "ｇｉａ ｒｏｓｓｉ",
        "Gi\u{0430} R\u{043E}ssi", // Cyrillic а and о
        "Gi\u{03B1} Ross\u{0456}", // Greek α, Cyrillic і
    ]
    .into_iter()
    .enumerate()
    {
        let invite = tables::invite(&mut s, &gm_member, false).unwrap();
        let e = tables::join(&mut s, &invite.token, name, None, false).unwrap_err();
        assert!(matches!(e, AppError::NameTaken { .. }), "{name:?}: {e}");
        // The invite is still good for another name.
        tables::join(&mut s, &invite.token, &format!("Pia {i}"), None, false).unwrap();
    }
}

#[test]
fn cyrillic_and_greek_look_alikes_of_a_members_name_are_taken() {
    let (_dir, mut s) = store();
    let gm = tables::create_table(&mut s, "T", "Ada").unwrap();
    let gm_member = tables::session(&s, &gm.token).unwrap().unwrap();
    // U+0410 Cyrillic capital A, U+0391 Greek capital Alpha, U+0430 Cyrillic small a.
    for name in [
        "\u{0410}da",
        "\u{0391}da",
        "Ad\u{0430}",
        "\u{0410}D\u{0410}",
    ] {
        let invite = tables::invite(&mut s, &gm_member, false).unwrap();
        let e = tables::join(&mut s, &invite.token, name, None, false).unwrap_err();
        assert!(matches!(e, AppError::NameTaken { .. }), "{name:?}: {e}");
    }
    // Letters that do not look like a Latin one stay names of their own: Cyrillic Д (De).
    let invite = tables::invite(&mut s, &gm_member, false).unwrap();
    tables::join(&mut s, &invite.token, "A\u{0434}a", None, false).unwrap();
    assert_eq!(
        solum_app::name_key("\u{0391}DA"),
        solum_app::name_key("ada")
    );
}

#[test]
fn invites_expire_can_be_revoked_and_say_why_they_are_refused() {
    let (_dir, mut s) = store();
    let gm = tables::create_table(&mut s, "T", "Gia").unwrap();
    let gm_member = tables::session(&s, &gm.token).unwrap().unwrap();
    let now = jiff::Timestamp::now();
    let invite = tables::invite(&mut s, &gm_member, false).unwrap();
    let expires: jiff::Timestamp = invite.expires.parse().unwrap();
    let life = expires.as_second() - now.as_second();
    assert!(
        (PLAYER_INVITE_SECONDS - 5..=PLAYER_INVITE_SECONDS).contains(&life),
        "{life}"
    );
    // A week and a second on, refused as expired.
    let later = jiff::Timestamp::from_second(expires.as_second() + 1).unwrap();
    let e = tables::join_at(&mut s, &invite.token, "Pia", None, false, later).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    assert!(e.to_string().contains("expired"), "{e}");
    // Revoked: refused as revoked; its id is gone from what can be revoked.
    tables::revoke_invite(&mut s, &gm_member, invite.id).unwrap();
    let e = tables::join(&mut s, &invite.token, "Pia", None, false).unwrap_err();
    assert!(e.to_string().contains("revoked"), "{e}");
    assert!(matches!(
        tables::revoke_invite(&mut s, &gm_member, invite.id),
        Err(AppError::NoSuchInvite(_))
    ));
    // Used: refused as used.
    let invite = tables::invite(&mut s, &gm_member, false).unwrap();
    let pia = tables::join(&mut s, &invite.token, "Pia", None, false).unwrap();
    let e = tables::join(&mut s, &invite.token, "Pio", None, false).unwrap_err();
    assert!(e.to_string().contains("used"), "{e}");
    // A player neither lists nor revokes nor invites.
    let pia_member = tables::session(&s, &pia.token).unwrap().unwrap();
    for e in [
        tables::invites(&s, &pia_member).map(drop).unwrap_err(),
        tables::revoke_invite(&mut s, &pia_member, 1).unwrap_err(),
        tables::invite(&mut s, &pia_member, false)
            .map(drop)
            .unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
    }
    let states: Vec<&str> = tables::invites(&s, &gm_member)
        .unwrap()
        .iter()
        .map(|i| i.state)
        .collect();
    assert_eq!(states, ["revoked", "used"]);
}

/// Each start of `solum serve` makes a home game master invite that works once, for 15
/// minutes, and revokes the one before, so they do not pile up.
#[test]
fn the_home_game_master_invite_is_short_single_and_replaces_the_last() {
    let (_dir, mut s) = store();
    let first = tables::home_gm_invite(&mut s).unwrap();
    let second = tables::home_gm_invite(&mut s).unwrap();
    let e = tables::join(&mut s, &first.token, "Gia", None, false).unwrap_err();
    assert!(e.to_string().contains("replaced by a newer start"), "{e}");
    let made = jiff::Timestamp::now().as_second();
    let expires: jiff::Timestamp = second.expires.parse().unwrap();
    assert!(
        (HOME_GM_INVITE_SECONDS - 5..=HOME_GM_INVITE_SECONDS)
            .contains(&(expires.as_second() - made))
    );
    let late = jiff::Timestamp::from_second(expires.as_second()).unwrap();
    assert!(tables::join_at(&mut s, &second.token, "Gia", None, false, late).is_err());
    let gia = tables::join(&mut s, &second.token, "Gia", None, false).unwrap();
    assert_eq!((gia.table, gia.member.role), (0, "gm"));
    let again = tables::join(&mut s, &second.token, "Gio", None, false).unwrap_err();
    assert!(again.to_string().contains("used"), "{again}");
    assert_eq!(s.invites(0).unwrap().len(), 2);
}

/// Joining while holding a live session is refused (409, `session-held`) unless the
/// request says it replaces the session; a dead session does not hold.
#[test]
fn joining_while_signed_in_asks_first() {
    let (_dir, mut s) = store();
    let a = tables::create_table(&mut s, "Mine", "Gia").unwrap();
    let b = tables::create_table(&mut s, "Theirs", "Bo").unwrap();
    let bo = tables::session(&s, &b.token).unwrap().unwrap();
    let invite = tables::invite(&mut s, &bo, false).unwrap();
    let e = tables::join(&mut s, &invite.token, "Gia", Some(&a.token), false).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Conflict);
    assert_eq!(e.code(), "session-held");
    assert!(e.to_string().contains("Mine"), "{e}");
    // Nothing was used: the invite still works, with replace.
    let joined = tables::join(&mut s, &invite.token, "Gia", Some(&a.token), true).unwrap();
    assert_eq!(joined.table_name, "Theirs");
    // A logged-out token holds nothing.
    tables::logout(&mut s, &a.token).unwrap();
    let invite = tables::invite(&mut s, &bo, false).unwrap();
    tables::join(&mut s, &invite.token, "Gio", Some(&a.token), false).unwrap();
}

/// Scenes and kept combats are named by the same rule.
#[test]
fn scene_titles_and_combat_names_follow_the_name_rule() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Campaign::new(
        SqliteStore::open(&dir.path().join("c.solum"), solum_store::Scope::HOME).unwrap(),
    );
    for name in ["The bridge\u{3164}", "\u{2800}", "Bridge\u{200B}"] {
        let e = c.start_scene(name, None).unwrap_err();
        assert!(matches!(e, AppError::BadName { .. }), "{name:?}: {e}");
    }
    c.start_scene("The bridge", None).unwrap();
}

/// `solum table new`'s use case: a table with no member and one game master invite that
/// works once, for 7 days (604,800 s) from its making, and makes whoever uses it the table's
/// game master.
#[test]
fn a_new_table_waits_for_its_game_master_with_one_invite() {
    let (_dir, mut s) = store();
    // 2026-12-02T00:00:00Z is 1796169600 (date -d 2026-12-02T00:00:00Z +%s).
    let at: jiff::Timestamp = "2026-12-02T00:00:00Z".parse().unwrap();
    let made = tables::new_table_at(&mut s, "  The Convention ", at).unwrap();
    assert_eq!(made.table_name, "The Convention");
    assert_ne!(made.table, 0);
    assert_eq!(made.invite.role, "gm");
    assert_eq!(made.invite.expires, "2026-12-09T00:00:00Z");
    assert_eq!(made.invite.token.len(), 64);

    // Past its week the invite no longer works.
    let late: jiff::Timestamp = "2026-12-09T00:00:01Z".parse().unwrap();
    let e = tables::join_at(&mut s, &made.invite.token, "Ada", None, false, late).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");

    let soon: jiff::Timestamp = "2026-12-08T23:59:59Z".parse().unwrap();
    let gm = tables::join_at(&mut s, &made.invite.token, "Ada", None, false, soon).unwrap();
    assert_eq!((gm.table, gm.member.role), (made.table, "gm"));
    assert_eq!(gm.table_name, "The Convention");
    // Once only.
    assert!(tables::join_at(&mut s, &made.invite.token, "Bo", None, false, soon).is_err());

    for bad in LOOK_ALIKES {
        let e = tables::new_table(&mut s, bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput, "{bad:?}: {e}");
    }
}
