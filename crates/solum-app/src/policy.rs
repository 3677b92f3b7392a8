//! Who may do what at a table: the role policy, in one place. Every write of the app runs
//! through [`crate::transact`], whose transaction asks these before it changes a sheet,
//! appends a secret entry or reveals one; the stores keep only the table's filter (which
//! table a scope reads and writes, and that a player's scope never reads a secret entry).

use solum_store::{Scope, StoreError};

/// A member changes the sheets they own; a game master (and the command line, the
/// campaign's owner) any sheet of the table. `owner` is who created the sheet (none: the
/// command line).
pub fn may_change_sheet(scope: Scope, owner: Option<i64>, name: &str) -> Result<(), StoreError> {
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
) -> Result<(), StoreError> {
    if gm || (owner.is_some() && owner == member) {
        Ok(())
    } else {
        Err(StoreError::Forbidden(format!(
            "{} is not your character",
            name.trim()
        )))
    }
}

/// Only a game master changes the table's settings (its oracle, the roll-off option). The
/// app's own bookkeeping (re-entry links, the import mark) is not a member's change.
pub fn may_change_settings(scope: Scope) -> Result<(), StoreError> {
    if scope.gm {
        Ok(())
    } else {
        Err(StoreError::Forbidden(
            "only the game master changes the table's settings".into(),
        ))
    }
}

/// Only a game master writes in secret.
pub fn may_write_secret(scope: Scope) -> Result<(), StoreError> {
    if scope.secret_writes && !scope.gm {
        Err(StoreError::Forbidden(
            "only the game master rolls in secret".into(),
        ))
    } else {
        Ok(())
    }
}

/// Only a game master reveals a secret entry, and not while writing in secret (a reveal is
/// for the table to see).
pub fn may_reveal(scope: Scope) -> Result<(), StoreError> {
    if scope.gm && !scope.secret_writes {
        Ok(())
    } else {
        Err(StoreError::Forbidden(
            "only the game master reveals a secret entry, and not in secret".into(),
        ))
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
            Err(StoreError::Forbidden(m)) if m == "Nick is not your character"
        ));
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
