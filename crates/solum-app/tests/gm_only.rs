//! Issue 23: who may act is decided once, in the app's role policy (`solum_app::policy`),
//! asked by the use case itself of its store's scope, so every front end gets the same
//! answer. For each game master's action: a player's scope is refused with its typed
//! `GmOnly` refusal (code `gm-only`, kind forbidden) and nothing is journaled or changed;
//! the game master's scope, and the command line's, are let through. Dice typed by hand are
//! refused where the table does not take them (a game master alone, or a table that rolls
//! real dice), whatever the use case.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_app::policy::{Forbidden, GmOnly};
use solum_app::tables;
use solum_app::vehicles::{VehicleDice, VehicleRollInput, VehicleRollKind};
use solum_app::{AppError, Campaign, Dice, ErrorKind, NewSol};
use solum_soluna::skirmish::Character;
use solum_store::{CampaignStore, Member, MemoryStore, Scope};

/// A table with its game master Ada and the player Pia, on one in-memory campaign.
struct Table {
    base: MemoryStore,
    ada: Member,
    pia: Member,
}

fn table() -> Table {
    let mut base = MemoryStore::new();
    let made = tables::create_table(&mut base, "Ford", "Ada").unwrap();
    let ada = tables::session(&base, &made.token).unwrap().unwrap();
    let mut as_ada = base.with_scope(tables::scope_of(&ada));
    let invite = tables::invite(&mut as_ada, &ada, false).unwrap();
    let joined = tables::join(&mut base, &invite.token, "Pia", None, false).unwrap();
    let pia = tables::session(&base, &joined.token).unwrap().unwrap();
    assert!(ada.gm && !pia.gm);
    Table { base, ada, pia }
}

impl Table {
    fn as_member(&self, who: &Member) -> Campaign<MemoryStore> {
        self.in_scope(tables::scope_of(who))
    }

    fn in_scope(&self, scope: Scope) -> Campaign<MemoryStore> {
        let store = self.base.with_scope(scope);
        let by = tables::by_of(&store, scope).unwrap();
        Campaign::new(store)
            .acting_as(by)
            .with_clock(|| "2026-11-30T20:00:00Z".parse().unwrap())
    }

    /// Every entry of the table's journal, secret ones too (the game master's count).
    fn entries(&self) -> u64 {
        self.as_member(&self.ada).store().entry_count().unwrap()
    }
}

/// The refusal a player's scope gets: the typed `GmOnly`, with the API's code and kind.
fn gm_only<T: std::fmt::Debug>(r: Result<T, AppError>) -> GmOnly {
    let e = r.unwrap_err();
    assert_eq!(e.code(), "gm-only", "{e}");
    assert_eq!(e.kind(), ErrorKind::Forbidden, "{e}");
    match e {
        AppError::GmOnly(what) => what,
        e => panic!("not a gm-only refusal: {e:?}"),
    }
}

fn soluna(name: &str, side: &str) -> Character {
    Character {
        name: name.into(),
        side: side.into(),
        mind: 1,
        body: 0,
        shield: 0,
        hit_points: 2,
        melee: 0,
        ranged: 2,
        flips: 0,
        guard: 0,
        flips_per_test: 1,
        extra_dice: 0,
        dice_guard: 0,
        dice_per_test: 1,
    }
}

#[test]
fn only_the_game_master_sets_the_tables_options() {
    let t = table();
    let mut pia = t.as_member(&t.pia);
    assert_eq!(gm_only(pia.set_roll_off(true)), GmOnly::RollOffSetting);
    assert_eq!(gm_only(pia.set_real_dice(true)), GmOnly::RealDiceSetting);
    // The message is the one the API has always said.
    let e = pia.set_roll_off(true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "not allowed: only the game master sets the table's roll-off option"
    );
    assert!(
        !pia.roll_off().unwrap() && !pia.real_dice().unwrap(),
        "unchanged"
    );
    let mut ada = t.as_member(&t.ada);
    ada.set_roll_off(true).unwrap();
    ada.set_real_dice(true).unwrap();
    assert!(pia.roll_off().unwrap() && pia.real_dice().unwrap());
}

#[test]
fn only_the_game_master_runs_a_combat() {
    let t = table();
    let mut pia = t.as_member(&t.pia);
    assert_eq!(
        gm_only(pia.start_combat(Some("Ambush"), false)),
        GmOnly::Combat
    );
    assert!(
        pia.combat_status().unwrap().is_none(),
        "no combat was opened"
    );
    assert_eq!(t.entries(), 0, "nothing journaled");
    // Refused before the state is read: the same answer whether a combat is open or not.
    assert_eq!(gm_only(pia.end_combat()), GmOnly::Combat);
    let mut ada = t.as_member(&t.ada);
    ada.start_combat(Some("Ambush"), false).unwrap();
    assert_eq!(t.entries(), 1);
    assert_eq!(gm_only(pia.end_combat()), GmOnly::Combat);
    assert!(pia.combat_status().unwrap().is_some(), "still open");
    assert_eq!(t.entries(), 1, "nothing journaled");
    ada.end_combat().unwrap();
    assert!(ada.combat_status().unwrap().is_none());
    assert_eq!(t.entries(), 2);
}

#[test]
fn only_the_game_master_starts_runs_and_abandons_a_skirmish() {
    let t = table();
    let mut ada = t.as_member(&t.ada);
    ada.create_soluna_character(&soluna("Vex", "red")).unwrap();
    ada.create_soluna_character(&soluna("Oro", "blue")).unwrap();
    let before = t.entries();
    let names = ["Vex".to_owned(), "Oro".to_owned()];
    let mut pia = t.as_member(&t.pia);
    assert_eq!(
        gm_only(pia.start_soluna_skirmish(&names, &[], Dice::Fresh)),
        GmOnly::SkirmishStart
    );
    assert!(
        pia.soluna_skirmish_state().unwrap().skirmish.is_none(),
        "none started"
    );
    assert_eq!(t.entries(), before, "nothing journaled");
    // Both played (none auto): the skirmish waits for the first decision.
    ada.start_soluna_skirmish(&names, &[], Dice::Fresh).unwrap();
    let started = t.entries();
    assert_eq!(
        gm_only(pia.go_soluna_skirmish(Dice::Fresh)),
        GmOnly::SkirmishGo
    );
    assert_eq!(
        gm_only(pia.abandon_soluna_skirmish()),
        GmOnly::SkirmishAbandon
    );
    assert!(
        pia.soluna_skirmish_state().unwrap().skirmish.is_some(),
        "still played"
    );
    assert_eq!(t.entries(), started, "nothing journaled");
    // The game master passes the policy: what refuses a go now is the skirmish's state
    // (it waits for a decision), not who asked.
    let e = ada.go_soluna_skirmish(Dice::Fresh).unwrap_err();
    assert_eq!(e.code(), "soluna-skirmish", "{e}");
    ada.abandon_soluna_skirmish().unwrap();
    assert!(
        ada.soluna_skirmish_state().unwrap().skirmish.is_none(),
        "abandoned"
    );
    assert_eq!(t.entries(), started + 1);
}

#[test]
fn only_the_game_master_starts_encounters_and_sessions_and_rewards_edge() {
    let t = table();
    let mut pia = t.as_member(&t.pia);
    // Pia's own character: ownership is not enough, these are the game master's calls.
    pia.create_sol(&NewSol {
        name: "Cole".into(),
        edge: solum_app::sol::SolEdge::new(1).unwrap(),
        attributes: vec![("AGI".into(), 2)],
        skills: vec![("Sidearms".into(), 1)],
    })
    .unwrap();
    let before = t.entries();
    assert_eq!(gm_only(pia.sol_encounter("Cole")), GmOnly::SolEncounter);
    assert_eq!(gm_only(pia.sol_session("Cole")), GmOnly::SolSession);
    assert_eq!(gm_only(pia.sol_reward("Cole")), GmOnly::SolReward);
    assert_eq!(t.entries(), before, "nothing journaled");
    let mut ada = t.as_member(&t.ada);
    ada.sol_encounter("Cole").unwrap();
    ada.sol_session("Cole").unwrap();
    ada.sol_reward("Cole").unwrap();
    assert_eq!(t.entries(), before + 3);
}

#[test]
fn only_the_game_master_reveals_and_a_player_learns_nothing_of_the_entry() {
    let t = table();
    let mut secret = t.in_scope(tables::scope_of(&t.ada).secret());
    let hidden = secret.note("the traitor is Quill").unwrap().seq;
    let mut pia = t.as_member(&t.pia);
    assert_eq!(gm_only(pia.reveal(hidden)), GmOnly::Reveal);
    // An entry that does not exist gets the same answer: the refusal comes first.
    assert_eq!(gm_only(pia.reveal(999)), GmOnly::Reveal);
    assert_eq!(t.entries(), 1, "nothing journaled");
    // A game master writing in secret does not reveal either (the reveal is for the
    // table to see): the policy's other rule, still a forbidden refusal.
    let e = secret.reveal(hidden).unwrap_err();
    assert!(matches!(e, AppError::Forbidden(Forbidden::Reveal)), "{e:?}");
    t.as_member(&t.ada).reveal(hidden).unwrap();
    assert_eq!(t.entries(), 2);
    // The command line is the campaign's game master: it reveals what it wrote in secret.
    let home = MemoryStore::new();
    let seq = Campaign::new(home.with_scope(Scope::HOME.secret()))
        .note("hidden at home")
        .unwrap()
        .seq;
    Campaign::new(home).reveal(seq).unwrap();
}

#[test]
fn only_the_game_master_re_invites_a_member() {
    let t = table();
    let mut store = t.base.with_scope(Scope {
        table: t.ada.table,
        member: None,
        gm: true,
        secret_writes: false,
    });
    // Not even herself: a player's own link is `reentry`, not a re-invite.
    assert_eq!(
        gm_only(tables::reinvite(&mut store, &t.pia, t.ada.id)),
        GmOnly::Reinvite
    );
    assert_eq!(
        gm_only(tables::reinvite(&mut store, &t.pia, t.pia.id)),
        GmOnly::Reinvite
    );
    tables::reentry(&mut store, &t.pia, t.pia.id).unwrap();
    let link = tables::reinvite(&mut store, &t.ada, t.pia.id).unwrap();
    assert_eq!(link.member.id, t.pia.id);
}

#[test]
fn typed_dice_are_refused_where_the_table_does_not_take_them() {
    let t = table();
    let mut pia = t.as_member(&t.pia);
    // A chase typed by hand (the text's smuggler against customs, both pools typed).
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        vehicle: Some("tramp freighter".into()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_vehicle: Some("starfighter".into()),
        rolled: Some(vec![2, 3, 5]),
        against_rolled: Some(vec![2, 3, 4, 4, 6]),
        ..VehicleRollInput::default()
    };
    let chase = |c: &mut Campaign<MemoryStore>, who: &Member| {
        c.vehicle_roll_as(
            who,
            VehicleRollKind::Chase,
            &input,
            VehicleDice::Dice(Dice::Fresh),
        )
    };
    let typed_refused = |e: AppError| {
        assert_eq!(
            (e.code(), e.kind()),
            ("forbidden", ErrorKind::Forbidden),
            "{e}"
        );
        assert!(
            matches!(e, AppError::Forbidden(Forbidden::TypedDice)),
            "{e:?}"
        );
    };
    typed_refused(chase(&mut pia, &t.pia).unwrap_err());
    // A game master with a player at the table rolls the server's dice too.
    let mut ada = t.as_member(&t.ada);
    typed_refused(chase(&mut ada, &t.ada).unwrap_err());
    // A combat line with faces typed (`with …`), refused before the line is played.
    typed_refused(
        pia.combat_line_as(&t.pia, "melee orc with 6,6")
            .unwrap_err(),
    );
    assert_eq!(t.entries(), 0, "nothing journaled");
    // Once the table rolls real dice, every member types the faces: the chase is rolled
    // with them (the text's: 5 against 6, the smuggler loses), and the line goes on to
    // be refused for what it is (no combat open), not for its dice.
    ada.set_real_dice(true).unwrap();
    let v = chase(&mut pia, &t.pia).unwrap();
    assert!(v.roll.typed);
    assert_eq!((v.roll.result, v.roll.against_result), (5, 6));
    assert_eq!(t.entries(), 1);
    let e = pia
        .combat_line_as(&t.pia, "melee orc with 6,6")
        .unwrap_err();
    assert_eq!(e.code(), "combat-none-open", "{e}");
}

#[test]
fn a_game_master_alone_at_the_table_types_dice() {
    let mut base = MemoryStore::new();
    let made = tables::create_table(&mut base, "Alone", "Sol").unwrap();
    let sol = tables::session(&base, &made.token).unwrap().unwrap();
    let scope = tables::scope_of(&sol);
    let store = base.with_scope(scope);
    let by = tables::by_of(&store, scope).unwrap();
    let mut c = Campaign::new(store).acting_as(by);
    let input = VehicleRollInput {
        pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        against_pilot: Some(solum_app::check_once::CombatPool::new(3).unwrap()),
        rolled: Some(vec![1, 2, 3]),
        against_rolled: Some(vec![2, 3, 4]),
        ..VehicleRollInput::default()
    };
    let v = c
        .vehicle_roll_as(
            &sol,
            VehicleRollKind::Chase,
            &input,
            VehicleDice::Dice(Dice::Fresh),
        )
        .unwrap();
    assert!(v.roll.typed);
    assert_eq!((v.roll.result, v.roll.against_result), (3, 4));
}

/// A roll in secret is the game master's: a player's is refused before anything is rolled,
/// with the API's `secret-gm-only` naming `secret`; the game master's scope writes in
/// secret, and a roll in the open is anyone's.
#[test]
fn only_the_game_master_rolls_in_secret() {
    let t = table();
    let e = tables::roll_scope(&t.pia, true).unwrap_err();
    assert!(matches!(e, AppError::Forbidden(Forbidden::Secret)), "{e}");
    assert_eq!(e.code(), "secret-gm-only");
    assert_eq!(e.field().as_deref(), Some("secret"));
    assert_eq!(e.kind(), ErrorKind::Forbidden);
    let open = tables::roll_scope(&t.pia, false).unwrap();
    assert_eq!(open, tables::scope_of(&t.pia));
    let secret = tables::roll_scope(&t.ada, true).unwrap();
    assert!(secret.secret_writes && secret.gm);
}
