//! A campaign opened when a use case first touches it, the way the use case touches it: a
//! read never creates a campaign, a write does. Decided here, once, for every front end: a
//! front end hands over how to open its campaign ([`Open`]) and runs the use case through
//! [`run`], whatever the command.
//!
//! Reading a missing campaign reads an empty one (an empty [`MemoryStore`]: what a write
//! would create), so a use case that writes after it reads (the oracle's setting, then its
//! roll) works on first use; the campaign is created when its first write comes. A use case
//! that only read a missing campaign is answered [`StoreError::Missing`], which names where
//! the campaign was looked for: a mistyped path is an error, never an empty campaign shown
//! and never a file left behind.

use std::cell::{OnceCell, RefCell};

use jiff::{SignedDuration, Timestamp};
use solum_store::{
    CampaignStore, Entry, InviteRow, Member, MemoryStore, NewEntry, OtherInvites, Redeemed, Scope,
    Sheet, Store, StoreError, StoreHandle, TableStore, WriteTx,
};

use crate::{AppError, Campaign, classic_who::CampaignAccess};

/// How a front end is asked to open its campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// Open it only if it exists: a missing campaign is [`StoreError::Missing`] and nothing
    /// is created.
    Existing,
    /// Open it, creating it on first use.
    OrCreate,
}

/// Runs `use_case` on the campaign `opener` opens when the use case first touches it (see
/// the module's documentation): the use case's answer, or [`StoreError::Missing`] when the
/// campaign is missing and the use case wrote nothing.
pub fn run<S, O, T, E>(
    opener: O,
    use_case: impl FnOnce(&mut Campaign<OpenOnUse<S, O>>) -> Result<T, E>,
) -> Result<T, E>
where
    S: Store,
    O: FnMut(Open) -> Result<S, StoreError> + Send,
    E: From<AppError>,
{
    let mut campaign = Campaign::new(OpenOnUse::new(opener));
    let answer = use_case(&mut campaign);
    match campaign.store().missing() {
        Some(location) => Err(E::from(AppError::Store(StoreError::Missing { location }))),
        None => answer,
    }
}

/// The campaign as a use case that decides for itself when it needs it asks for it
/// ([`crate::classic_who`]): to look (a missing campaign is `None`), to read (a missing
/// campaign is [`StoreError::Missing`]) or to write (created on first use).
pub fn open_for<S: CampaignStore>(
    opener: &mut impl FnMut(Open) -> Result<S, StoreError>,
    access: CampaignAccess,
) -> Result<Option<Campaign<S>>, StoreError> {
    let store = match access {
        CampaignAccess::Look => match opener(Open::Existing) {
            Err(StoreError::Missing { .. }) => return Ok(None),
            other => other?,
        },
        CampaignAccess::Read => opener(Open::Existing)?,
        CampaignAccess::Write => opener(Open::OrCreate)?,
    };
    Ok(Some(Campaign::new(store)))
}

/// What [`OpenOnUse`] holds once something was asked of it.
enum Opened<S> {
    /// The campaign, opened to read or to write.
    Campaign(S),
    /// No campaign at `location`: its reads are answered by an empty campaign.
    Missing {
        empty: MemoryStore,
        location: String,
    },
}

/// A store that opens its campaign on first use: to read ([`Open::Existing`]) when the first
/// thing asked is a read, to write ([`Open::OrCreate`]) when it is a write (or a write
/// follows reads of a missing campaign). Once open it is the campaign's store, unchanged.
pub struct OpenOnUse<S, O> {
    opener: RefCell<O>,
    opened: OnceCell<Opened<S>>,
    scope: Scope,
}

impl<S, O> std::fmt::Debug for OpenOnUse<S, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.opened.get() {
            None => "not opened",
            Some(Opened::Campaign(_)) => "open",
            Some(Opened::Missing { .. }) => "missing",
        };
        f.debug_struct("OpenOnUse")
            .field("state", &state)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl<S: Store, O: FnMut(Open) -> Result<S, StoreError>> OpenOnUse<S, O> {
    /// A campaign `opener` opens when first used, seen through [`Scope::HOME`].
    pub fn new(opener: O) -> Self {
        Self {
            opener: RefCell::new(opener),
            opened: OnceCell::new(),
            scope: Scope::HOME,
        }
    }

    /// Where the campaign was looked for, when it is missing and nothing was written.
    pub fn missing(&self) -> Option<String> {
        match self.opened.get() {
            Some(Opened::Missing { location, .. }) => Some(location.clone()),
            _ => None,
        }
    }

    fn open(&self, how: Open) -> Result<Opened<S>, StoreError> {
        let mut opener = self.opener.try_borrow_mut().map_err(|_| {
            // The opener never calls back into its store: a second borrow is a bug here.
            StoreError::BadRecord("the campaign was opened while it was being opened".into())
        })?;
        match (*opener)(how) {
            Ok(mut store) => {
                store.set_scope(self.scope);
                Ok(Opened::Campaign(store))
            }
            Err(StoreError::Missing { location }) if how == Open::Existing => Ok(Opened::Missing {
                empty: MemoryStore::new().with_scope(self.scope),
                location,
            }),
            Err(e) => Err(e),
        }
    }

    /// The store to read through: the campaign, or an empty one when it is missing.
    fn reader(&self) -> Result<&dyn Store, StoreError> {
        let opened = match self.opened.get() {
            Some(opened) => opened,
            None => {
                let opened = self.open(Open::Existing)?;
                self.opened.get_or_init(|| opened)
            }
        };
        Ok(match opened {
            Opened::Campaign(s) => s,
            Opened::Missing { empty, .. } => empty,
        })
    }

    /// The store to write through: the campaign, created if it is missing.
    fn writer(&mut self) -> Result<&mut S, StoreError> {
        if !matches!(self.opened.get(), Some(Opened::Campaign(_))) {
            let opened = self.open(Open::OrCreate)?;
            self.opened = OnceCell::from(opened);
        }
        match self.opened.get_mut() {
            Some(Opened::Campaign(s)) => Ok(s),
            // `Open::OrCreate` answers a campaign or an error, never a missing one.
            _ => Err(StoreError::BadRecord(
                "the campaign was not opened to write".into(),
            )),
        }
    }

    /// The campaign when it is open (nothing to do for a store never opened).
    fn open_store(&mut self) -> Option<&mut S> {
        match self.opened.get_mut() {
            Some(Opened::Campaign(s)) => Some(s),
            _ => None,
        }
    }
}

impl<S: Store, O: FnMut(Open) -> Result<S, StoreError>> CampaignStore for OpenOnUse<S, O> {
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        self.writer()?.append(entries)
    }
    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.reader()?.entries_after(after, limit)
    }
    fn entry_count(&self) -> Result<u64, StoreError> {
        self.reader()?.entry_count()
    }
    fn last_entries(&self, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.reader()?.last_entries(limit)
    }
    fn entries_before(&self, before: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.reader()?.entries_before(before, limit)
    }
    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        self.reader()?.last_of_kind(kind)
    }
    fn seqs_after(&self, after: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        self.reader()?.seqs_after(after, limit)
    }
    fn seqs_before(&self, before: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        self.reader()?.seqs_before(before, limit)
    }
    fn entries_at(&self, seqs: &[i64]) -> Result<Vec<Entry>, StoreError> {
        self.reader()?.entries_at(seqs)
    }
    fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.reader()?.meta(key)
    }
    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        self.writer()?.set_meta(key, value)
    }
    fn check_integrity(&self) -> Result<(), StoreError> {
        self.reader()?.check_integrity()
    }
    fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        self.reader()?.integrity_problems()
    }
    fn sees_every_entry(&self) -> bool {
        self.scope().gm
    }
    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        self.reader()?.sheet(system, name)
    }
    fn sheets(&self, system: &str) -> Result<Vec<Sheet>, StoreError> {
        self.reader()?.sheets(system)
    }
    fn write(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.writer()?.write(work)
    }
    fn begin_group(&mut self) -> Result<(), StoreError> {
        // A group of writes is a session of writing: its campaign is created.
        self.writer()?.begin_group()
    }
    fn end_group(&mut self) -> Result<(), StoreError> {
        match self.open_store() {
            Some(s) => s.end_group(),
            None => Ok(()),
        }
    }
}

impl<S: Store, O: FnMut(Open) -> Result<S, StoreError>> TableStore for OpenOnUse<S, O> {
    fn create_table(
        &mut self,
        name: &str,
        gm_name: &str,
        gm_key: &str,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Member, StoreError> {
        self.writer()?
            .create_table(name, gm_name, gm_key, session_hash, at)
    }
    fn create_table_with_invite(
        &mut self,
        name: &str,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
    ) -> Result<(i64, i64), StoreError> {
        self.writer()?
            .create_table_with_invite(name, token_hash, at, expires)
    }
    fn add_invite(
        &mut self,
        table: i64,
        gm: bool,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
        others: OtherInvites,
    ) -> Result<i64, StoreError> {
        self.writer()?
            .add_invite(table, gm, token_hash, at, expires, others)
    }
    fn redeem_invite(
        &mut self,
        token_hash: &str,
        name: &str,
        name_key: &str,
        session_hash: &str,
        at: Timestamp,
        now: Timestamp,
    ) -> Result<Redeemed, StoreError> {
        self.writer()?
            .redeem_invite(token_hash, name, name_key, session_hash, at, now)
    }
    fn invites(&self, table: i64) -> Result<Vec<InviteRow>, StoreError> {
        self.reader()?.invites(table)
    }
    fn revoke_invite(&mut self, table: i64, id: i64) -> Result<bool, StoreError> {
        self.writer()?.revoke_invite(table, id)
    }
    fn session_member(
        &self,
        session_hash: &str,
        now: Timestamp,
        idle: SignedDuration,
    ) -> Result<Option<Member>, StoreError> {
        self.reader()?.session_member(session_hash, now, idle)
    }
    fn end_session(&mut self, session_hash: &str) -> Result<bool, StoreError> {
        self.writer()?.end_session(session_hash)
    }
    fn sessions_ended(&self) -> Result<u64, StoreError> {
        self.reader()?.sessions_ended()
    }
    fn members(&self) -> Result<Vec<Member>, StoreError> {
        self.reader()?.members()
    }
    fn tables(&self) -> Result<Vec<solum_store::TableRow>, StoreError> {
        self.reader()?.tables()
    }
    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        TableStore::sheet_owner(self.reader()?, system, name)
    }
    fn sheet_owners(&self, system: &str) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        self.reader()?.sheet_owners(system)
    }
    fn add_session(
        &mut self,
        table: i64,
        member: i64,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Option<Member>, StoreError> {
        self.writer()?.add_session(table, member, session_hash, at)
    }
}

impl<S: Store, O: FnMut(Open) -> Result<S, StoreError>> StoreHandle for OpenOnUse<S, O> {
    fn scope(&self) -> Scope {
        self.scope
    }
    fn set_scope(&mut self, scope: Scope) {
        self.scope = scope;
        match self.opened.get_mut() {
            Some(Opened::Campaign(s)) => s.set_scope(scope),
            Some(Opened::Missing { empty, .. }) => *empty = empty.with_scope(scope),
            None => {}
        }
    }
    fn location(&self) -> String {
        match self.opened.get() {
            Some(Opened::Campaign(s)) => s.location(),
            Some(Opened::Missing { location, .. }) => location.clone(),
            None => "a campaign not opened yet".into(),
        }
    }
    fn is_idle(&self) -> bool {
        match self.opened.get() {
            Some(Opened::Campaign(s)) => s.is_idle(),
            _ => true,
        }
    }
    fn is_closed(&self) -> bool {
        match self.opened.get() {
            Some(Opened::Campaign(s)) => s.is_closed(),
            _ => false,
        }
    }
    fn is_alive(&self) -> bool {
        match self.opened.get() {
            Some(Opened::Campaign(s)) => s.is_alive(),
            _ => true,
        }
    }
    fn last_seq(&self, table: i64) -> Result<i64, StoreError> {
        self.reader()?.last_seq(table)
    }
    fn data_version(&self) -> Result<i64, StoreError> {
        self.reader()?.data_version()
    }
    fn leave_checkpoints(&mut self) -> Result<(), StoreError> {
        match self.open_store() {
            Some(s) => s.leave_checkpoints(),
            None => Ok(()),
        }
    }
    fn checkpoint(&self) -> Result<u64, StoreError> {
        match self.opened.get() {
            Some(Opened::Campaign(s)) => s.checkpoint(),
            _ => Ok(0),
        }
    }
    fn restart_log(&mut self) -> Result<(), StoreError> {
        match self.open_store() {
            Some(s) => s.restart_log(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::{Dice, Leaning};

    /// A campaign that may be there (`Some`) or not, and every way it was asked to open.
    #[derive(Clone, Default)]
    struct Place {
        campaign: Arc<Mutex<Option<MemoryStore>>>,
        asked: Arc<Mutex<Vec<Open>>>,
    }

    impl Place {
        fn with_campaign() -> Self {
            let place = Self::default();
            *place.campaign.lock().unwrap() = Some(MemoryStore::new());
            place
        }

        fn opener(&self) -> impl FnMut(Open) -> Result<MemoryStore, StoreError> + Send + use<> {
            let place = self.clone();
            move |how| {
                place.asked.lock().unwrap().push(how);
                let mut campaign = place.campaign.lock().unwrap();
                match (campaign.as_ref(), how) {
                    (Some(store), _) => Ok(store.clone()),
                    (None, Open::Existing) => Err(StoreError::Missing {
                        location: "typo.solum".into(),
                    }),
                    (None, Open::OrCreate) => Ok(campaign.insert(MemoryStore::new()).clone()),
                }
            }
        }

        fn asked(&self) -> Vec<Open> {
            self.asked.lock().unwrap().clone()
        }

        fn exists(&self) -> bool {
            self.campaign.lock().unwrap().is_some()
        }
    }

    fn missing(e: &AppError) -> bool {
        matches!(e, AppError::Store(StoreError::Missing { location }) if location == "typo.solum")
    }

    #[test]
    fn a_read_of_a_missing_campaign_is_refused_and_creates_nothing() {
        let place = Place::default();
        let e = run(place.opener(), |c| c.characters()).unwrap_err();
        assert!(missing(&e), "{e}");
        // Even a read that found nothing in the empty stand-in (it answers `Ok`) is refused.
        let e = run(place.opener(), |c| c.oracle_system()).unwrap_err();
        assert!(missing(&e), "{e}");
        assert_eq!(place.asked(), [Open::Existing, Open::Existing]);
        assert!(!place.exists());
    }

    #[test]
    fn a_write_after_reads_creates_the_missing_campaign() {
        let place = Place::default();
        // The oracle reads its setting, then journals its roll.
        let view = run(place.opener(), |c| {
            c.ask_oracle("Is it raining?", Leaning::Even, Dice::Seed(7), None)
        })
        .unwrap();
        assert!(matches!(view, crate::OracleView::Expanded(_)));
        assert_eq!(place.asked(), [Open::Existing, Open::OrCreate]);
        assert!(place.exists());
        // What was written is in the campaign, read the next time.
        let entries = run(place.opener(), |c| c.entries()).unwrap();
        assert_eq!(entries.len(), 1);
    }

    #[test]
    fn a_write_first_opens_to_write_once() {
        let place = Place::default();
        run(place.opener(), |c| {
            c.note("first")?;
            c.note("second")
        })
        .unwrap();
        assert_eq!(place.asked(), [Open::OrCreate]);
        assert_eq!(run(place.opener(), |c| c.entries()).unwrap().len(), 2);
    }

    #[test]
    fn an_existing_campaign_is_opened_once_to_read_and_written_through_the_same_store() {
        let place = Place::with_campaign();
        run(place.opener(), |c| {
            c.characters()?;
            c.note("after a read")
        })
        .unwrap();
        assert_eq!(place.asked(), [Open::Existing]);
        assert_eq!(run(place.opener(), |c| c.entries()).unwrap().len(), 1);
    }

    #[test]
    fn a_use_case_refused_before_it_touches_the_campaign_says_why_and_opens_nothing() {
        let place = Place::default();
        let e = run(place.opener(), |c| c.note("")).unwrap_err();
        assert!(!missing(&e), "{e}");
        assert!(place.asked().is_empty());
    }

    #[test]
    fn the_access_a_use_case_asks_for_opens_as_it_says() {
        let place = Place::default();
        let mut open = place.opener();
        assert!(open_for(&mut open, CampaignAccess::Look).unwrap().is_none());
        assert!(matches!(
            open_for(&mut open, CampaignAccess::Read),
            Err(StoreError::Missing { .. })
        ));
        assert!(!place.exists());
        assert!(
            open_for(&mut open, CampaignAccess::Write)
                .unwrap()
                .is_some()
        );
        assert!(place.exists());
        assert!(open_for(&mut open, CampaignAccess::Look).unwrap().is_some());
    }
}
