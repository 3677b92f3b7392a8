//! [`MemoryStore`]: the whole store in memory, for the application's tests. It keeps the
//! guarantees every backend keeps (the [`conformance`](crate) suite runs on it): scope
//! filtering, each table's gap-free numbering, secrets and reveals, sheet versions and
//! ownership, invites and sessions, all-or-nothing writes, an append-only journal.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::{
    CampaignStore, Entry, InviteRow, Member, NewEntry, OtherInvites, Redeemed, SESSION_TOUCH,
    Scope, Sheet, SignedDuration, StoreError, StoreHandle, TableStore, Timestamp, WriteTx,
    checked_body, name_key, time_before,
};

/// What a [`MemoryStore`] names in its errors.
const LOCATION: &str = "(in memory)";

#[derive(Debug, Clone)]
struct Row {
    /// The store's own order (what reveals refer to).
    global: i64,
    table: i64,
    entry: Entry,
}

#[derive(Debug, Clone)]
struct SheetRow {
    table: i64,
    owner: Option<i64>,
    key: String,
    sheet: Sheet,
}

#[derive(Debug, Clone)]
struct MemberRow {
    id: i64,
    table: i64,
    name: String,
    key: String,
    gm: bool,
}

#[derive(Debug, Clone)]
struct InviteRecord {
    row: InviteRow,
    table: i64,
    token_hash: String,
}

#[derive(Debug, Clone)]
struct SessionRow {
    member: i64,
    last_used: Timestamp,
}

/// Everything a campaign holds.
#[derive(Debug, Clone, Default)]
struct Data {
    journal: Vec<Row>,
    meta: BTreeMap<String, String>,
    sheets: Vec<SheetRow>,
    /// Table id → name; table 0 ("home") always exists.
    tables: BTreeMap<i64, String>,
    members: Vec<MemberRow>,
    invites: Vec<InviteRecord>,
    sessions: HashMap<String, SessionRow>,
    /// Sessions ended so far.
    sessions_ended: u64,
    /// Global numbers of revealed secret entries.
    reveals: BTreeSet<i64>,
    /// Raised by every commit.
    commits: i64,
}

/// The whole store in memory. Clones share one campaign (as two connections to one file
/// would), each seen through its own [`Scope`].
#[derive(Debug, Clone)]
pub struct MemoryStore {
    data: Arc<Mutex<Data>>,
    scope: Scope,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::new()
    }
}

impl MemoryStore {
    /// An empty campaign, seen through [`Scope::HOME`].
    pub fn new() -> Self {
        let mut data = Data::default();
        data.tables.insert(0, "home".into());
        Self {
            data: Arc::new(Mutex::new(data)),
            scope: Scope::HOME,
        }
    }

    /// Another connection to the same campaign, seen through `scope`.
    pub fn with_scope(&self, scope: Scope) -> Self {
        Self {
            data: Arc::clone(&self.data),
            scope,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Data> {
        // A test that panicked while holding the lock left whole data behind (every change
        // is made on a copy and swapped in), so the data stays usable.
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn visible(row: &Row, scope: Scope) -> bool {
    row.table == scope.table && (!row.entry.secret || scope.gm)
}

impl Data {
    fn entries_after(&self, scope: Scope, after: i64, limit: usize) -> Vec<Entry> {
        self.journal
            .iter()
            .filter(|r| visible(r, scope) && r.entry.seq > after)
            .take(limit)
            .map(|r| r.entry.clone())
            .collect()
    }

    fn last_of_kind(&self, scope: Scope, kind: &str) -> Option<Entry> {
        self.journal
            .iter()
            .rev()
            .find(|r| visible(r, scope) && r.entry.kind == kind)
            .map(|r| r.entry.clone())
    }

    fn sheet_row(&self, table: i64, system: &str, name: &str) -> Option<&SheetRow> {
        let key = name_key(name);
        self.sheets
            .iter()
            .find(|s| s.table == table && s.sheet.system == system && s.key == key)
    }

    fn last_seq(&self, table: i64) -> i64 {
        self.journal
            .iter()
            .rev()
            .find(|r| r.table == table)
            .map_or(0, |r| r.entry.seq)
    }

    fn append(&mut self, scope: Scope, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        for e in entries {
            checked_body("an entry", &e.body)?;
        }
        let mut last = self.last_seq(scope.table);
        // A table's times never go back (see `CampaignStore::append`).
        let mut last_at = self
            .journal
            .iter()
            .rev()
            .find(|r| r.table == scope.table)
            .map(|r| r.entry.at);
        let mut global = self.journal.last().map_or(0, |r| r.global);
        let mut stored = Vec::with_capacity(entries.len());
        for e in entries {
            let at = last_at.map_or(e.at, |l| e.at.max(l));
            last_at = Some(at);
            last = last.checked_add(1).ok_or_else(|| {
                StoreError::BadRecord("the table's journal has no number left".into())
            })?;
            global = global.checked_add(1).ok_or_else(|| {
                StoreError::BadRecord("the campaign's journal has no number left".into())
            })?;
            let entry = Entry {
                seq: last,
                at,
                kind: e.kind.clone(),
                schema: e.schema,
                body: e.body.clone(),
                secret: scope.secret_writes,
            };
            self.journal.push(Row {
                global,
                table: scope.table,
                entry: entry.clone(),
            });
            stored.push(entry);
        }
        Ok(stored)
    }

    fn member(&self, id: i64) -> Option<Member> {
        self.members.iter().find(|m| m.id == id).map(|m| Member {
            id: m.id,
            table: m.table,
            table_name: self.tables.get(&m.table).cloned().unwrap_or_default(),
            name: m.name.clone(),
            gm: m.gm,
        })
    }

    fn add_member(&mut self, table: i64, name: &str, key: &str, gm: bool) -> i64 {
        let id = self.members.iter().map(|m| m.id).max().unwrap_or(0) + 1;
        self.members.push(MemberRow {
            id,
            table,
            name: name.to_owned(),
            key: key.to_owned(),
            gm,
        });
        id
    }

    fn add_session(&mut self, hash: &str, member: i64, at: Timestamp) -> Result<(), StoreError> {
        if self.sessions.contains_key(hash) {
            return Err(StoreError::BadRecord(
                "a session with this token exists".into(),
            ));
        }
        self.sessions.insert(
            hash.to_owned(),
            SessionRow {
                member,
                last_used: at,
            },
        );
        Ok(())
    }
}

/// A write transaction of [`MemoryStore`]: changes a copy that replaces the campaign only
/// when the work succeeds.
struct MemoryTx<'a> {
    data: &'a mut Data,
    scope: Scope,
}

impl WriteTx for MemoryTx<'_> {
    fn scope(&self) -> Scope {
        self.scope
    }

    fn sheet_names(&self, system: &str) -> Result<Vec<String>, StoreError> {
        Ok(self
            .data
            .sheets
            .iter()
            .filter(|s| s.table == self.scope.table && s.sheet.system == system)
            .map(|s| s.sheet.name.clone())
            .collect())
    }

    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .data
            .sheet_row(self.scope.table, system, name)
            .and_then(|s| s.owner))
    }

    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        Ok(self
            .data
            .sheet_row(self.scope.table, system, name)
            .map(|s| s.sheet.clone()))
    }

    fn insert_sheet(&mut self, sheet: &Sheet) -> Result<(), StoreError> {
        checked_body("a sheet", &sheet.body)?;
        if self
            .data
            .sheet_row(self.scope.table, &sheet.system, &sheet.name)
            .is_some()
        {
            return Err(StoreError::NameTaken {
                name: sheet.name.clone(),
            });
        }
        self.data.sheets.push(SheetRow {
            table: self.scope.table,
            owner: self.scope.member,
            key: name_key(&sheet.name),
            sheet: Sheet {
                version: 1,
                ..sheet.clone()
            },
        });
        Ok(())
    }

    fn update_sheet(
        &mut self,
        system: &str,
        name: &str,
        sheet: &Sheet,
    ) -> Result<Sheet, StoreError> {
        checked_body("a sheet", &sheet.body)?;
        let table = self.scope.table;
        let old = self
            .data
            .sheet_row(table, system, name)
            .cloned()
            .ok_or_else(|| StoreError::NoSuchSheet { name: name.into() })?;
        if name_key(&sheet.name) != name_key(name)
            && self.data.sheet_row(table, system, &sheet.name).is_some()
        {
            return Err(StoreError::NameTaken {
                name: sheet.name.clone(),
            });
        }
        let version = old.sheet.version.checked_add(1).ok_or_else(|| {
            StoreError::BadRecord(format!("the sheet of {name} has changed too often"))
        })?;
        let new = Sheet {
            version,
            system: system.to_owned(),
            ..sheet.clone()
        };
        let key = name_key(name);
        if let Some(row) = self
            .data
            .sheets
            .iter_mut()
            .find(|s| s.table == table && s.sheet.system == system && s.key == key)
        {
            row.key = name_key(&new.name);
            row.sheet = new.clone();
        }
        Ok(new)
    }

    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        self.data.append(self.scope, entries)
    }

    fn share_owner(
        &mut self,
        system: &str,
        name: &str,
        owner_system: &str,
    ) -> Result<(), StoreError> {
        let table = self.scope.table;
        let Some(owner) = self
            .data
            .sheet_row(table, owner_system, name)
            .map(|s| s.owner)
        else {
            return Ok(());
        };
        let key = name_key(name);
        if let Some(row) = self
            .data
            .sheets
            .iter_mut()
            .find(|s| s.table == table && s.sheet.system == system && s.key == key)
        {
            row.owner = owner;
        }
        Ok(())
    }

    fn reveal(&mut self, seq: i64) -> Result<Entry, StoreError> {
        let table = self.scope.table;
        let Some(row) = self
            .data
            .journal
            .iter()
            .find(|r| r.table == table && r.entry.seq == seq && r.entry.secret)
        else {
            return Err(StoreError::NotSecret { seq });
        };
        let (global, entry) = (row.global, row.entry.clone());
        if !self.data.reveals.insert(global) {
            return Err(StoreError::RevealedAlready { seq });
        }
        Ok(entry)
    }

    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        Ok(self.data.last_of_kind(self.scope, kind))
    }

    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        Ok(self.data.entries_after(self.scope, after, limit))
    }
}

impl MemoryStore {
    /// Runs `work` on a copy of the campaign, under its lock, and keeps the copy only when
    /// `work` succeeds: all or nothing, one writer at a time.
    fn commit<T>(
        &self,
        work: impl FnOnce(&mut Data) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut data = self.lock();
        let mut copy = data.clone();
        let out = work(&mut copy)?;
        copy.commits = copy.commits.wrapping_add(1);
        *data = copy;
        Ok(out)
    }
}

impl CampaignStore for MemoryStore {
    fn append(&mut self, entries: &[NewEntry]) -> Result<Vec<Entry>, StoreError> {
        let scope = self.scope;
        self.commit(|d| d.append(scope, entries))
    }

    fn entries_after(&self, after: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        Ok(self.lock().entries_after(self.scope, after, limit))
    }

    fn entry_count(&self) -> Result<u64, StoreError> {
        let n = self
            .lock()
            .journal
            .iter()
            .filter(|r| visible(r, self.scope))
            .count();
        Ok(u64::try_from(n).unwrap_or(u64::MAX))
    }

    fn last_entries(&self, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let data = self.lock();
        let mut out: Vec<Entry> = data
            .journal
            .iter()
            .rev()
            .filter(|r| visible(r, self.scope))
            .take(limit)
            .map(|r| r.entry.clone())
            .collect();
        out.reverse();
        Ok(out)
    }

    fn entries_before(&self, before: i64, limit: usize) -> Result<Vec<Entry>, StoreError> {
        let data = self.lock();
        Ok(data
            .journal
            .iter()
            .rev()
            .filter(|r| visible(r, self.scope) && r.entry.seq < before)
            .take(limit)
            .map(|r| r.entry.clone())
            .collect())
    }

    fn seqs_after(&self, after: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        Ok(self
            .lock()
            .entries_after(self.scope, after, limit)
            .iter()
            .map(|e| e.seq)
            .collect())
    }

    fn seqs_before(&self, before: i64, limit: usize) -> Result<Vec<i64>, StoreError> {
        Ok(self
            .entries_before(before, limit)?
            .iter()
            .map(|e| e.seq)
            .collect())
    }

    fn entries_at(&self, seqs: &[i64]) -> Result<Vec<Entry>, StoreError> {
        let data = self.lock();
        Ok(data
            .journal
            .iter()
            .filter(|r| visible(r, self.scope) && seqs.contains(&r.entry.seq))
            .map(|r| r.entry.clone())
            .collect())
    }

    fn last_of_kind(&self, kind: &str) -> Result<Option<Entry>, StoreError> {
        Ok(self.lock().last_of_kind(self.scope, kind))
    }

    fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self.lock().meta.get(&self.scope.meta_key(key)).cloned())
    }

    fn set_meta(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        // Who may change a setting is the app's role policy (solum_app::policy).
        let key = self.scope.meta_key(key);
        self.commit(|d| {
            d.meta.insert(key, value.to_owned());
            Ok(())
        })
    }

    fn check_integrity(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn integrity_problems(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    fn sees_every_entry(&self) -> bool {
        self.scope.gm
    }

    fn sheet(&self, system: &str, name: &str) -> Result<Option<Sheet>, StoreError> {
        Ok(self
            .lock()
            .sheet_row(self.scope.table, system, name)
            .map(|s| s.sheet.clone()))
    }

    fn sheets(&self, system: &str) -> Result<Vec<Sheet>, StoreError> {
        let data = self.lock();
        let mut rows: Vec<&SheetRow> = data
            .sheets
            .iter()
            .filter(|s| s.table == self.scope.table && s.sheet.system == system)
            .collect();
        rows.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(rows.into_iter().map(|s| s.sheet.clone()).collect())
    }

    fn write(
        &mut self,
        work: &mut dyn FnMut(&mut dyn WriteTx) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let scope = self.scope;
        self.commit(|data| work(&mut MemoryTx { data, scope }))
    }
}

impl TableStore for MemoryStore {
    fn create_table(
        &mut self,
        name: &str,
        gm_name: &str,
        gm_key: &str,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Member, StoreError> {
        self.commit(|d| {
            let table = d.tables.keys().max().copied().unwrap_or(0) + 1;
            d.tables.insert(table, name.to_owned());
            let member = d.add_member(table, gm_name, gm_key, true);
            d.add_session(session_hash, member, at)?;
            d.member(member)
                .ok_or_else(|| StoreError::BadRecord("the new member is missing".into()))
        })
    }

    fn create_table_with_invite(
        &mut self,
        name: &str,
        token_hash: &str,
        at: Timestamp,
        expires: Timestamp,
    ) -> Result<(i64, i64), StoreError> {
        // One commit: no table is left without its invite.
        self.commit(|d| {
            if d.invites.iter().any(|i| i.token_hash == token_hash) {
                return Err(StoreError::BadRecord(
                    "an invite with this token exists".into(),
                ));
            }
            let table = d.tables.keys().max().copied().unwrap_or(0) + 1;
            d.tables.insert(table, name.to_owned());
            let id = insert_invite(d, table, true, token_hash, at, expires)?;
            Ok((table, id))
        })
    }

    fn add_session(
        &mut self,
        table: i64,
        member: i64,
        session_hash: &str,
        at: Timestamp,
    ) -> Result<Option<Member>, StoreError> {
        self.commit(|d| match d.member(member) {
            Some(m) if m.table == table => {
                d.add_session(session_hash, member, at)?;
                Ok(Some(m))
            }
            _ => Ok(None),
        })
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
        self.commit(|d| {
            if others == OtherInvites::Revoked {
                for i in d.invites.iter_mut().filter(|i| {
                    i.table == table && i.row.gm == gm && i.row.used_by.is_none() && !i.row.revoked
                }) {
                    i.row.revoked = true;
                }
            }
            insert_invite(d, table, gm, token_hash, at, expires)
        })
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
        let found = {
            let d = self.lock();
            let Some(invite) = d.invites.iter().find(|i| i.token_hash == token_hash) else {
                return Ok(Redeemed::Unknown);
            };
            let row = &invite.row;
            if row.used_by.is_some() {
                return Ok(Redeemed::Used);
            }
            if row.revoked {
                return Ok(Redeemed::Revoked {
                    table: invite.table,
                    gm: row.gm,
                });
            }
            if now >= row.expires {
                return Ok(Redeemed::Expired(row.expires));
            }
            (invite.table, row.gm)
        };
        let (table, gm) = found;
        self.commit(|d| {
            // Looked at again under the write lock: another redeemer may have come first.
            match d.invites.iter().find(|i| i.token_hash == token_hash) {
                Some(i) if i.row.used_by.is_none() && !i.row.revoked => {}
                _ => return Ok(Redeemed::Used),
            }
            if let Some(taken) = d
                .members
                .iter()
                .find(|m| m.table == table && m.key == name_key)
            {
                return Ok(Redeemed::NameTaken(taken.name.clone()));
            }
            let member = d.add_member(table, name, name_key, gm);
            if let Some(i) = d.invites.iter_mut().find(|i| i.token_hash == token_hash) {
                i.row.used_by = Some(member);
            }
            d.add_session(session_hash, member, at)?;
            d.member(member)
                .map(Redeemed::Joined)
                .ok_or_else(|| StoreError::BadRecord("the new member is missing".into()))
        })
    }

    fn invites(&self, table: i64) -> Result<Vec<InviteRow>, StoreError> {
        Ok(self
            .lock()
            .invites
            .iter()
            .filter(|i| i.table == table)
            .map(|i| i.row.clone())
            .collect())
    }

    fn revoke_invite(&mut self, table: i64, id: i64) -> Result<bool, StoreError> {
        self.commit(|d| {
            Ok(d.invites
                .iter_mut()
                .find(|i| {
                    i.table == table && i.row.id == id && i.row.used_by.is_none() && !i.row.revoked
                })
                .map(|i| i.row.revoked = true)
                .is_some())
        })
    }

    fn session_member(
        &self,
        session_hash: &str,
        now: Timestamp,
        idle: SignedDuration,
    ) -> Result<Option<Member>, StoreError> {
        let mut d = self.lock();
        let Some(session) = d.sessions.get(session_hash) else {
            return Ok(None);
        };
        if session.last_used < time_before(now, idle) {
            return Ok(None);
        }
        let (member, last_used) = (session.member, session.last_used);
        if last_used < time_before(now, SESSION_TOUCH)
            && let Some(s) = d.sessions.get_mut(session_hash)
        {
            s.last_used = now;
        }
        Ok(d.member(member))
    }

    fn end_session(&mut self, session_hash: &str) -> Result<bool, StoreError> {
        self.commit(|d| {
            let ended = d.sessions.remove(session_hash).is_some();
            if ended {
                d.sessions_ended = d.sessions_ended.saturating_add(1);
            }
            Ok(ended)
        })
    }

    fn sessions_ended(&self) -> Result<u64, StoreError> {
        Ok(self.lock().sessions_ended)
    }

    fn members(&self) -> Result<Vec<Member>, StoreError> {
        let d = self.lock();
        let mut ids: Vec<i64> = d
            .members
            .iter()
            .filter(|m| m.table == self.scope.table)
            .map(|m| m.id)
            .collect();
        ids.sort_unstable();
        Ok(ids.into_iter().filter_map(|id| d.member(id)).collect())
    }

    fn tables(&self) -> Result<Vec<crate::TableRow>, StoreError> {
        let d = self.lock();
        Ok(d.tables
            .iter()
            .map(|(&id, name)| crate::TableRow {
                id,
                name: name.clone(),
                members: d.members.iter().filter(|m| m.table == id).count() as u64,
            })
            .collect())
    }

    fn sheet_owner(&self, system: &str, name: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .lock()
            .sheet_row(self.scope.table, system, name)
            .and_then(|s| s.owner))
    }

    fn sheet_owners(&self, system: &str) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        Ok(self
            .lock()
            .sheets
            .iter()
            .filter(|s| s.table == self.scope.table && s.sheet.system == system)
            .map(|s| (s.sheet.name.clone(), s.owner))
            .collect())
    }
}

impl StoreHandle for MemoryStore {
    fn scope(&self) -> Scope {
        self.scope
    }

    fn set_scope(&mut self, scope: Scope) {
        self.scope = scope;
    }

    fn location(&self) -> String {
        LOCATION.to_owned()
    }

    fn is_idle(&self) -> bool {
        true
    }

    fn last_seq(&self, table: i64) -> Result<i64, StoreError> {
        Ok(self.lock().last_seq(table))
    }

    fn data_version(&self) -> Result<i64, StoreError> {
        Ok(self.lock().commits)
    }
}

/// Stores an unused invite (see [`TableStore::add_invite`]).
fn insert_invite(
    d: &mut Data,
    table: i64,
    gm: bool,
    token_hash: &str,
    at: Timestamp,
    expires: Timestamp,
) -> Result<i64, StoreError> {
    if !d.tables.contains_key(&table) {
        return Err(StoreError::BadRecord(format!("no table {table}")));
    }
    if d.invites.iter().any(|i| i.token_hash == token_hash) {
        return Err(StoreError::BadRecord(
            "an invite with this token exists".into(),
        ));
    }
    let id = d.invites.iter().map(|i| i.row.id).max().unwrap_or(0) + 1;
    d.invites.push(InviteRecord {
        row: InviteRow {
            id,
            gm,
            created: at,
            expires,
            used_by: None,
            revoked: false,
        },
        table,
        token_hash: token_hash.to_owned(),
    });
    Ok(id)
}
