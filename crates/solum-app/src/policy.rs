//! Who may do what at a table: the role policy, in one place. Every write of the app runs
//! through [`crate::transact`], whose transaction asks these before it changes a sheet,
//! appends a secret entry or reveals one; the stores keep only the table's filter (which
//! table a scope reads and writes, and that a player's scope never reads a secret entry).

use solum_store::{CampaignStore, Member, Scope, TableStore};

use crate::AppError;
pub use crate::forbidden::{Forbidden, GmOnly, TYPED_DICE_REFUSED};

/// The table setting under which every member types the faces of the real dice they roll
/// ([`may_type_dice`]; [`crate::Campaign::set_real_dice`] sets it).
pub const REAL_DICE_KEY: &str = "real_dice";

/// Whether a member may roll with faces typed in by hand: a game master playing alone at
/// their table (a solo player with real dice), and everyone at a table whose game master
/// said it rolls real dice (a group around one table using the page as its sheets and
/// tracker). Anywhere else every live roll comes from the server's generator, so no one
/// chooses a face; a typed roll is marked as such in the journal for everyone.
pub fn may_type_dice<S: CampaignStore + TableStore>(
    store: &S,
    member: &Member,
) -> Result<bool, AppError> {
    if member.gm && store.members()?.len() == 1 {
        return Ok(true);
    }
    real_dice(store)
}

/// Whether the table rolls real dice ([`REAL_DICE_KEY`] is on).
pub fn real_dice<S: CampaignStore>(store: &S) -> Result<bool, AppError> {
    Ok(store.meta(REAL_DICE_KEY)?.as_deref() == Some("on"))
}

/// Refuses dice typed in by hand unless [`may_type_dice`] allows them for `member`: asked by
/// every use case that takes typed dice from a member (`tables::live_dice`,
/// `Campaign::combat_line_as`, `Campaign::vehicle_roll_as`), never by a front end.
pub fn check_typed_dice<S: CampaignStore + TableStore>(
    store: &S,
    member: &Member,
) -> Result<(), AppError> {
    if may_type_dice(store, member)? {
        Ok(())
    } else {
        Err(Forbidden::TypedDice.into())
    }
}

/// What only a game master does ([`GmOnly`]): allowed to a game master's scope (and the
/// command line's, the campaign's owner), refused to a player's as `what`.
pub fn game_master(gm: bool, what: GmOnly) -> Result<(), GmOnly> {
    if gm { Ok(()) } else { Err(what) }
}

/// A member changes the sheets they own; a game master (and the command line, the
/// campaign's owner) any sheet of the table. `owner` is who created the sheet (none: the
/// command line).
pub fn may_change_sheet(scope: Scope, owner: Option<i64>, name: &str) -> Result<(), Forbidden> {
    may_play(scope.gm, scope.member, owner, name)
}

/// A member plays (rolls from, changes) the characters they own; a game master every
/// character of the table. `member` none: the command line, which owns nothing but is the
/// game master of its own table.
pub fn may_play(
    gm: bool,
    member: Option<i64>,
    owner: Option<i64>,
    name: &str,
) -> Result<(), Forbidden> {
    if gm || (owner.is_some() && owner == member) {
        Ok(())
    } else {
        Err(Forbidden::NotYourCharacter(name.trim().to_owned()))
    }
}

/// Only a game master changes the table's settings (its oracle, the roll-off option). The
/// app's own bookkeeping (re-entry links, the import mark) is not a member's change.
pub fn may_change_settings(scope: Scope) -> Result<(), Forbidden> {
    if scope.gm {
        Ok(())
    } else {
        Err(Forbidden::Settings)
    }
}

/// Only a game master writes in secret.
pub fn may_write_secret(scope: Scope) -> Result<(), Forbidden> {
    if scope.secret_writes && !scope.gm {
        Err(Forbidden::Secret)
    } else {
        Ok(())
    }
}

/// Only a game master reveals a secret entry, and not while writing in secret (a reveal is
/// for the table to see).
pub fn may_reveal(scope: Scope) -> Result<(), Forbidden> {
    if scope.gm && !scope.secret_writes {
        Ok(())
    } else {
        Err(Forbidden::Reveal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: i64 = 7;

    #[test]
    fn sheets_change_by_their_owner_or_the_game_master() {
        let pia = Scope::member(TABLE, 2, false);
        let gm = Scope::member(TABLE, 1, true);
        assert!(may_change_sheet(pia, Some(2), "Lia").is_ok());
        assert!(may_change_sheet(pia, Some(3), "Nick").is_err());
        // A sheet the command line made has no owner: only a game master changes it.
        assert!(may_change_sheet(pia, None, "Orc").is_err());
        assert!(may_change_sheet(gm, Some(3), "Nick").is_ok());
        assert!(may_change_sheet(gm, None, "Orc").is_ok());
        assert!(may_change_sheet(Scope::HOME, None, "Orc").is_ok());
        assert!(matches!(
            may_change_sheet(pia, Some(3), "Nick"),
            Err(Forbidden::NotYourCharacter(n)) if n == "Nick"
        ));
    }

    #[test]
    fn what_only_a_game_master_does_is_refused_to_a_player_as_itself() {
        let pia = Scope::member(TABLE, 2, false);
        let gm = Scope::member(TABLE, 1, true);
        assert_eq!(
            game_master(pia.gm, GmOnly::Combat),
            Err(GmOnly::Combat),
            "a player"
        );
        assert_eq!(game_master(gm.gm, GmOnly::Combat), Ok(()));
        assert_eq!(game_master(Scope::HOME.gm, GmOnly::Reveal), Ok(()));
        assert_eq!(
            GmOnly::SolReward.to_string(),
            "only the game master rewards a point of Edge"
        );
    }

    #[test]
    fn secrets_are_the_game_masters() {
        let pia = Scope::member(TABLE, 2, false);
        let gm = Scope::member(TABLE, 1, true);
        assert!(may_write_secret(pia).is_ok());
        assert!(may_write_secret(pia.secret()).is_err());
        assert!(may_write_secret(gm.secret()).is_ok());
        assert!(may_reveal(gm).is_ok());
        assert!(may_reveal(gm.secret()).is_err());
        assert!(may_reveal(pia).is_err());
    }
}
