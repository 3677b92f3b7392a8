//! Refusals typed in substance: each says which refusal it is (a stable code and a variant
//! with its kind), the field of the request at fault as the request names it, and the role
//! policy is asked before the rules. The codes expected are the ones docs/api.md lists.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::combat::{CombatSetup, FoeCount};
use solum_app::{AppError, Campaign, CharacterEdit, Dice, ErrorKind, NewCharacter};
use solum_expanded::character::{Class, Weapon};
use solum_store::{Member, MemoryStore, OtherInvites, Scope, Store, Timestamp};

/// 2026-11-30T20:00:00Z.
const AT: Timestamp = Timestamp::constant(1_796_068_800, 0);

/// A table at the memory store: its game master Ada and the players Pia and Quill.
fn table() -> (Box<dyn Store>, Member, Member, Member) {
    let mut store: Box<dyn Store> = Box::new(MemoryStore::new());
    let gm = store
        .create_table("Ford", "Ada", "ada", "s-ada", AT)
        .unwrap();
    let mut join = |name: &str| {
        let token = format!("invite-{name}");
        store
            .add_invite(
                gm.table,
                false,
                &token,
                AT,
                Timestamp::MAX,
                OtherInvites::Kept,
            )
            .unwrap();
        match store
            .redeem_invite(
                &token,
                name,
                &name.to_lowercase(),
                &format!("s-{name}"),
                AT,
                AT,
            )
            .unwrap()
        {
            solum_store::Redeemed::Joined(m) => m,
            other => panic!("{name} did not join: {other:?}"),
        }
    };
    let pia = join("Pia");
    let quill = join("Quill");
    (store, gm, pia, quill)
}

fn as_member(mut store: Box<dyn Store>, m: &Member) -> Campaign<Box<dyn Store>> {
    store.set_scope(Scope::member(m.table, m.id, m.gm));
    Campaign::new(store).with_clock(|| AT)
}

/// S9: Body 3, Mind 2, Charm 1; typed 2d6 1 and 3 (no even die: no extra background) and
/// d6 1 (no armor).
fn hero(name: &str) -> (NewCharacter, Dice) {
    (
        NewCharacter {
            name: name.into(),
            body: solum_app::characters::StartingAttribute::new(3).unwrap(),
            mind: solum_app::characters::StartingAttribute::new(2).unwrap(),
            charm: solum_app::characters::StartingAttribute::new(1).unwrap(),
            backgrounds: vec!["Hunter".into()],
            weapon: Weapon::ranged("bow", Class::Light),
            armor_name: "leather".into(),
        },
        Dice::Typed(vec![1, 3, 1]),
    )
}

#[test]
fn a_players_edit_of_anothers_sheet_is_refused_as_such_even_when_it_changes_nothing() {
    let (store, _gm, pia, quill) = table();
    let mut c = as_member(store, &pia);
    let (lia, dice) = hero("Lia");
    c.create_character(&lia, dice).unwrap();
    // Pia's own edit that changes nothing is the rule's refusal…
    let e = c
        .edit_character("Lia", &CharacterEdit::default())
        .unwrap_err();
    assert_eq!(e.code(), "edit-changes-nothing", "{e}");
    assert!(matches!(
        &e,
        AppError::Expanded(r) if r.kind == solum_app::ExpandedRefusal::EditChangesNothing
    ));
    // …Quill's is refused for whose sheet it is, before any rule is asked.
    let mut c = as_member(c.into_store(), &quill);
    let e = c
        .edit_character("Lia", &CharacterEdit::default())
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
    assert_eq!(e.code(), "forbidden");
    assert!(e.to_string().contains("Lia is not your character"), "{e}");
}

#[test]
fn a_game_masters_action_asked_by_a_player_is_gm_only_wherever_it_is_refused() {
    let (store, gm, pia, _quill) = table();
    let mut c = as_member(store, &gm);
    let (nick, dice) = hero("Nick");
    c.create_character(&nick, dice).unwrap();
    let mut c = as_member(c.into_store(), &pia);
    let grant = c.grant_advancement_point("Nick").unwrap_err();
    let correction = c
        .edit_character(
            "Nick",
            &CharacterEdit {
                correction: true,
                ..CharacterEdit::default()
            },
        )
        .unwrap_err();
    let mut store = c.into_store();
    let invite = solum_app::tables::invite(&mut store, &pia, false).unwrap_err();
    let invites = solum_app::tables::invites(&store, &pia).unwrap_err();
    for e in [grant, correction, invite, invites] {
        assert_eq!(e.code(), "gm-only", "{e}");
        assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
        assert!(e.to_string().contains("only the game master"), "{e}");
    }
}

#[test]
fn a_player_naming_an_unknown_character_is_told_it_is_unknown() {
    let (store, _gm, pia, _quill) = table();
    let mut c = as_member(store, &pia);
    let e = c
        .as_roller_of(&pia, solum_app::sol::SYSTEM, "Nobody", |c| {
            c.sol_train("Nobody", "Pistols")
        })
        .unwrap_err();
    assert_eq!(e.code(), "character-unknown", "{e}");
    assert_eq!(e.kind(), ErrorKind::BadInput);
}

#[test]
fn a_character_name_that_only_looks_like_one_of_the_table_is_refused() {
    let (store, gm, _pia, _quill) = table();
    let mut c = as_member(store, &gm);
    let (nick, dice) = hero("Nick");
    c.create_character(&nick, dice).unwrap();
    // Full-width N, Cyrillic і (U+0456), Greek capital Ν (U+039D): each looks like Nick.
    for look_alike in ["\u{FF2E}ick", "N\u{0456}ck", "\u{039D}ick"] {
        let (h, dice) = hero(look_alike);
        let e = c.create_character(&h, dice).unwrap_err();
        assert_eq!(e.code(), "character-name-look-alike", "{look_alike}: {e}");
        assert_eq!(e.field().as_deref(), Some("name"));
        assert!(e.to_string().contains("looks like Nick"), "{e}");
    }
    // Equal but for case is the store's own refusal; a name that differs is welcome.
    let (h, dice) = hero("NICK");
    assert_eq!(
        c.create_character(&h, dice).unwrap_err().code(),
        "character-name-taken"
    );
    let (h, dice) = hero("Nico");
    c.create_character(&h, dice).unwrap();
    assert_eq!(c.characters().unwrap().len(), 2, "nothing else was written");
}

#[test]
fn a_combat_setups_refusal_names_the_setups_field() {
    let (store, gm, _pia, _quill) = table();
    let mut c = as_member(store, &gm);
    let setup = CombatSetup {
        heroes: Vec::new(),
        foes: vec![FoeCount {
            name: "no such beast".into(),
            count: solum_app::combat::FoeNumber::new(1).unwrap(),
        }],
    };
    let e = c.start_combat_with(None, false, &setup).unwrap_err();
    assert_eq!(e.code(), "combat-setup", "{e}");
    assert_eq!(e.field().as_deref(), Some("foes"), "{e}");
    let setup = CombatSetup {
        heroes: vec!["Nobody".into()],
        foes: Vec::new(),
    };
    let e = c.start_combat_with(None, false, &setup).unwrap_err();
    assert_eq!(e.field().as_deref(), Some("heroes"), "{e}");
    assert!(
        c.entries().unwrap().is_empty(),
        "a refused start writes nothing"
    );
}

#[test]
fn a_text_refused_names_its_json_key() {
    let mut store: Box<dyn Store> = Box::new(MemoryStore::new());
    let e = solum_app::tables::create_table(&mut store, "  ", "Ada").unwrap_err();
    assert_eq!(e.code(), "text-empty");
    assert_eq!(e.field().as_deref(), Some("table"));
    assert_eq!(e.to_string(), "the table name is empty");
    let e = solum_app::tables::create_table(&mut store, "Ford", "").unwrap_err();
    assert_eq!(e.field().as_deref(), Some("name"));
}

#[test]
fn a_refusal_names_its_field_for_a_front_end_and_its_code_for_a_client() {
    let (store, gm, _pia, _quill) = table();
    let mut c = as_member(store, &gm);
    let (nick, dice) = hero("Nick");
    c.create_character(&nick, dice).unwrap();
    let e = c
        .edit_character(
            "Nick",
            &CharacterEdit {
                remove_weapons: vec!["axe".into()],
                ..CharacterEdit::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.code(), "character-has-no");
    assert_eq!(
        e.refusal(),
        Some(("remove_weapons", "Nick carries no `axe`"))
    );
    assert_eq!(e.to_string(), "remove_weapons: Nick carries no `axe`");
}

#[test]
fn a_refusal_names_the_requests_own_key_or_none() {
    let (store, gm, _pia, _quill) = table();
    // A re-entry link for a member the table lacks: the path's `id`.
    let mut store = store;
    let e = solum_app::tables::reentry_at(&mut store, &gm, 999, AT).unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("member-unknown", Some("id"))
    );
    // Fast static combat of a character the table lacks: unknown, as on every other route
    // (`character-unknown`, about no field); going on with a fight that is not open is about
    // no field either.
    let mut c = as_member(store, &gm);
    let request = |hero: &str| solum_app::fast_static::StaticRequest {
        hero: hero.into(),
        start: None,
        weapon: None,
        background: None,
    };
    let e = c
        .static_fight(&request("Nobody"), Dice::Seed(1))
        .unwrap_err();
    assert_eq!(
        (e.code(), e.field().as_deref()),
        ("character-unknown", None)
    );
    let (nick, dice) = hero("Nick");
    c.create_character(&nick, dice).unwrap();
    let e = c.static_fight(&request("Nick"), Dice::Seed(1)).unwrap_err();
    assert_eq!((e.code(), e.field()), ("static-state", None));
    assert!(
        e.to_string()
            .starts_with("Nick is in no fast static combat"),
        "{e}"
    );
}

/// The codes only a library caller can meet (no front end sends what makes them), each with
/// its golden case below; `solum-web`'s `every_refusal_code_has_a_golden_case` reads this list.
const LIBRARY_GOLDEN_CODES: &[&str] = &[
    "dice-typed-twice",
    "dietype-die",
    "oracle-unknown",
    "word-list-invalid",
    "import-invalid",
];

#[test]
fn library_only_refusals_have_their_code_field_and_words() {
    use solum_app::vehicles::{VehicleDice, VehicleRollInput, VehicleRollKind};
    let mut c = Campaign::new(MemoryStore::new()).with_clock(|| AT);
    // Dice typed per pilot and in one list at once: which list is meant is not known.
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        rolled: Some(vec![1, 2, 3]),
        ..VehicleRollInput::default()
    };
    let cases = [
        (
            "dice-typed-twice",
            c.vehicle_roll(
                VehicleRollKind::Attack,
                &input,
                VehicleDice::Dice(Dice::Typed(vec![1, 2, 3, 4, 5, 6])),
            )
            .map(|_| ()),
            Some("typed"),
            "typed: type the dice in one list or per pilot, not both",
        ),
        // The other side of a die-type roll as typed on the command line (the web reads a
        // die type before any use case runs).
        (
            "dietype-die",
            solum_app::dietype::Against::typed(
                solum_app::dietype_once::Difficulty::new(4).unwrap(),
                Some((
                    "d7",
                    solum_app::dietype_once::Chances::new(1).unwrap(),
                    solum_app::dietype_once::DieSteps::default(),
                )),
            )
            .map(|_| ()),
            Some("against"),
            "against: `d7` is not a die type: d4, d6, d8, d10 or d12",
        ),
        // The command line's `solum oracle NAME` and a play script's `oracle NAME`.
        (
            "oracle-unknown",
            solum_app::OracleSystem::parse("tarot").map(|_| ()),
            Some("oracle"),
            "no oracle \"tarot\" (say expanded or classic)",
        ),
        // `solum idea --list FILE` with a file of comments only.
        (
            "word-list-invalid",
            solum_app::ideas::parse_list("# only a comment\n\n").map(|_| ()),
            None,
            "word list, line 0: the list holds no words",
        ),
        // `solum journal import FILE` with JSON that is no export.
        (
            "import-invalid",
            c.import_json(r#"{"entries": 5}"#).map(|_| ()),
            None,
            "the journal to import is not valid: invalid type: integer `5`, expected a list of entries at line 1 column 13",
        ),
    ];
    let codes: Vec<&str> = cases.iter().map(|c| c.0).collect();
    assert_eq!(codes, LIBRARY_GOLDEN_CODES);
    for (code, got, field, words) in cases {
        let e = got.expect_err(code);
        assert_eq!(e.code(), code);
        assert_eq!(e.field().as_deref(), field, "{code}");
        assert_eq!(e.to_string(), words, "{code}");
        assert_eq!(e.kind(), ErrorKind::BadInput, "{code}");
    }
    // Nothing was journaled.
    assert!(c.export().unwrap().entries.is_empty());
}

#[test]
fn dice_typed_by_hand_are_a_lone_game_masters_or_a_real_dice_tables() {
    use solum_app::tables::{TYPED_DICE_REFUSED, live_dice};
    let (store, gm, pia, _quill) = table();
    let mut c = as_member(store, &gm);
    // Three at the table and no word of real dice: the generator only, for everyone.
    for m in [&gm, &pia] {
        assert_eq!(live_dice(c.store(), m, None).unwrap(), Dice::Fresh);
        let e = live_dice(c.store(), m, Some(vec![6, 6])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Forbidden);
        assert_eq!(e.to_string(), format!("not allowed: {TYPED_DICE_REFUSED}"));
    }
    // The game master says the table rolls real dice: anyone types them.
    c.set_real_dice(true).unwrap();
    for m in [&gm, &pia] {
        assert_eq!(
            live_dice(c.store(), m, Some(vec![6, 6])).unwrap(),
            Dice::Typed(vec![6, 6])
        );
    }
}

/// The codes of the program's own failures, which no request makes (a rule asking the dice
/// for an impossible die, a value that does not serialize): each as the application meets
/// it, with the code, kind and words the front ends answer with. `solum-web`'s
/// `every_documented_code_has_a_golden_case` reads this list.
const FAILURE_GOLDEN_CODES: &[&str] = &["dice-source", "internal"];

#[test]
fn the_programs_own_failures_have_their_code_kind_and_words() {
    use solum_app::expression::{ExpressionError, Field};
    use solum_dice::DiceError;
    // Typed dice read by a rule that asks for a d0: not the faces' fault, so not theirs.
    let typed = AppError::Dice(DiceError::BadDie { sides: 0 })
        .typed_dice(Field::Typed, "left to right")
        .unwrap();
    let cases = [
        (
            "dice-source",
            AppError::Expression(ExpressionError::Typed(typed)),
            "the dice could not be rolled: a d0 cannot be rolled (1 to 1000 sides)",
        ),
        (
            "internal",
            AppError::Internal {
                what: "journal",
                reason: "nothing stored".to_owned(),
            },
            "journal: nothing stored",
        ),
    ];
    let codes: Vec<&str> = cases.iter().map(|c| c.0).collect();
    assert_eq!(codes, FAILURE_GOLDEN_CODES);
    for (code, e, words) in cases {
        assert_eq!(e.code(), code);
        assert_eq!(e.kind(), ErrorKind::Internal, "{code}");
        assert_eq!(e.field(), None, "{code}");
        assert_eq!(e.to_string(), words, "{code}");
    }
}

/// The codes of a store's failures, which no request makes on demand (a busy or full disk,
/// a database cut off mid-commit): each failure as the store reports it, with the code, kind
/// and words the front ends answer with.
const STORE_GOLDEN_CODES: &[&str] = &[
    "campaign-busy",
    "campaign-full",
    "campaign-unreachable",
    "campaign-commit-unknown",
    "campaign-read-only",
    "entry-too-large",
    "campaign-unusable",
    "entry-refused",
    "entry-revealed-already",
];

#[test]
fn store_failures_have_their_code_kind_and_words() {
    use solum_store::StoreError;
    let at = || "db.internal:5432/club".to_owned();
    let cases = [
        (
            "campaign-busy",
            StoreError::Busy { location: at() },
            ErrorKind::Unavailable,
            "db.internal:5432/club: the campaign is busy (another solum is writing); nothing was changed, try again",
        ),
        (
            "campaign-full",
            StoreError::Full { location: at() },
            ErrorKind::Unavailable,
            "db.internal:5432/club: the disk is full; nothing was changed, earlier entries are safe",
        ),
        (
            "campaign-unreachable",
            StoreError::Unreachable {
                location: at(),
                reason: "connection refused".into(),
            },
            ErrorKind::Unavailable,
            "db.internal:5432/club: cannot reach the database (connection refused); nothing under way was kept, try again once it answers",
        ),
        (
            "campaign-commit-unknown",
            StoreError::CommitUnknown { location: at() },
            ErrorKind::Internal,
            "db.internal:5432/club: the connection to the database was lost while the change was being committed: it may or may not have been kept; look at the journal before sending it again",
        ),
        (
            "campaign-read-only",
            StoreError::ReadOnly { location: at() },
            ErrorKind::BadInput,
            "db.internal:5432/club: the campaign is read-only (check the file's and its folder's permissions)",
        ),
        (
            "entry-too-large",
            StoreError::TooLarge {
                what: "an entry",
                bytes: 70_000,
                limit: 65_536,
            },
            ErrorKind::BadInput,
            "entry refused: an entry of 70000 bytes is over the limit of 65536",
        ),
        (
            "campaign-unusable",
            StoreError::NotACampaign {
                location: at(),
                reason: "no solum tables".into(),
            },
            ErrorKind::BadInput,
            "db.internal:5432/club: not a solum campaign (no solum tables)",
        ),
        (
            "entry-refused",
            StoreError::BadRecord("the table's journal has no number left".into()),
            ErrorKind::BadInput,
            "entry refused: the table's journal has no number left",
        ),
        (
            "entry-revealed-already",
            StoreError::RevealedAlready { seq: 4 },
            ErrorKind::BadInput,
            "entry refused: entry 4 is revealed already",
        ),
    ];
    let codes: Vec<&str> = cases.iter().map(|c| c.0).collect();
    assert_eq!(codes, STORE_GOLDEN_CODES);
    for (code, failure, kind, words) in cases {
        let e = AppError::from(failure);
        assert_eq!(e.code(), code);
        assert_eq!(e.kind(), kind, "{code}");
        assert_eq!(e.field(), None, "{code}");
        assert_eq!(e.to_string(), words, "{code}");
    }
}
