//! Tables of the web table: a game master, players, invites and sessions, and what a
//! member may do.
//!
//! A table is a group inside one campaign file: its own journal, sheets and settings (see
//! [`solum_store::Scope`]); table 0 is the campaign's own, the one the command line plays.
//! A member acts through a session token; an invite token makes one member, once. Both are
//! 256 random bits from the operating system, handed out once and stored only as their
//! SHA-256, so a copy of the campaign file lets no one in.

use serde::Serialize;
use sha2::{Digest, Sha256};
use solum_store::{
    CampaignStore, Member, OtherInvites, Redeemed, Scope, SignedDuration, TableStore, Timestamp,
};

use crate::characters::{self, CharacterCheck, CheckOdds};
pub use crate::invite_refusal::{InviteRefusal, ReentryRefusal};
use crate::{AppError, Campaign, MAX_TITLE};

/// The longest name of a table or a member, in characters.
pub const MAX_NAME: usize = 60;

/// Bytes of randomness in a token (256 bits).
const TOKEN_BYTES: usize = 32;

/// A fresh token: 256 random bits from the operating system, as 64 hexadecimal digits.
pub fn new_token() -> Result<String, AppError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| AppError::internal("randomness for a token", e))?;
    Ok(hex(&bytes))
}

/// What the store keeps of a token: its SHA-256, hexadecimal.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A token as received: 64 hexadecimal digits, or it is no token of ours.
fn well_formed(token: &str) -> bool {
    token.len() == TOKEN_BYTES * 2 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `seconds` after `at`, in whole seconds (as an expiry is kept), or the latest time there
/// is (never wraps around).
fn after(at: Timestamp, seconds: i64) -> Timestamp {
    Timestamp::from_second(at.as_second().saturating_add(seconds)).unwrap_or(Timestamp::MAX)
}

/// How long a session lives unused ([`SESSION_IDLE_DAYS`]).
const SESSION_IDLE: SignedDuration = SignedDuration::from_hours(SESSION_IDLE_DAYS * 24);

/// A member as a front end shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberView {
    /// The member's id at the table.
    pub id: i64,
    /// Their name.
    pub name: String,
    /// `gm` or `player`.
    pub role: &'static str,
}

impl MemberView {
    /// The view of a member.
    pub fn of(member: &Member) -> Self {
        Self {
            id: member.id,
            name: member.name.clone(),
            role: if member.gm { "gm" } else { "player" },
        }
    }
}

/// Who a session is at its table, as `GET /api/me` answers: the table, the member and
/// the others, and whether they may type dice they rolled by hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Me {
    /// The table's id.
    pub table: i64,
    /// The table's name.
    pub table_name: String,
    /// The member the session is.
    pub member: MemberView,
    /// Every member of the table, this one included.
    pub members: Vec<MemberView>,
    /// Whether this member may type the faces of dice rolled by hand ([`may_type_dice`]).
    pub may_type_dice: bool,
    /// Whether the table rolls real dice (every member types the faces).
    pub real_dice: bool,
}

/// [`Me`] for `member`, read from its table's store.
pub fn me<S: CampaignStore + TableStore>(store: &S, member: &Member) -> Result<Me, AppError> {
    Ok(Me {
        table: member.table,
        table_name: member.table_name.clone(),
        member: MemberView::of(member),
        members: store.members()?.iter().map(MemberView::of).collect(),
        may_type_dice: may_type_dice(store, member)?,
        real_dice: crate::policy::real_dice(store)?,
    })
}

/// A session just opened: the token to keep (shown once) and who it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Joined {
    /// The session token (sent back as a bearer token).
    pub token: String,
    /// The table.
    pub table: i64,
    /// The table's name.
    pub table_name: String,
    /// The member.
    pub member: MemberView,
}

impl Joined {
    fn of(token: String, member: &Member) -> Self {
        Self {
            token,
            table: member.table,
            table_name: member.table_name.clone(),
            member: MemberView::of(member),
        }
    }
}

/// An invite just made: the token to send (shown once).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Invite {
    /// The invite token.
    pub token: String,
    /// `gm` or `player`: the role of whoever uses it.
    pub role: &'static str,
    /// Its id at the table (to revoke it).
    pub id: i64,
    /// When it stops working (RFC 3339, UTC).
    pub expires: String,
}

/// How long an invite as player works: 7 days.
pub const PLAYER_INVITE_SECONDS: i64 = 7 * 86_400;
/// How long an invite as game master made at a table works: 1 day.
pub const GM_INVITE_SECONDS: i64 = 86_400;
/// How long the game master invite to the campaign's own table that `solum serve` prints
/// at its start works: 15 minutes (and once, like every invite).
pub const HOME_GM_INVITE_SECONDS: i64 = 15 * 60;

/// Creates a table with its game master, named `gm_name`, and opens their session.
pub fn create_table<S: TableStore>(
    store: &mut S,
    name: &str,
    gm_name: &str,
) -> Result<Joined, AppError> {
    let name = crate::name("table name", name, MAX_TITLE.min(MAX_NAME))?;
    let gm_name = crate::name("member name", gm_name, MAX_NAME)?;
    let token = new_token()?;
    let member = store.create_table(
        &name,
        &gm_name,
        &crate::name_key(&gm_name),
        &token_hash(&token),
        Timestamp::now(),
    )?;
    Ok(Joined::of(token, &member))
}

/// How long the game master invite of a table made by [`new_table`] works: 7 days (an
/// organizer makes the table and hands the link on; the game master may open it days later).
pub const NEW_TABLE_GM_INVITE_SECONDS: i64 = 7 * 86_400;

/// A table made for a game master who is not there yet (`solum table new`): the table and the
/// invite that makes its game master, shown once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewTable {
    /// The table's id.
    pub table: i64,
    /// Its name.
    pub table_name: String,
    /// The invite (as game master) to hand on: it works once, until its `expires`.
    pub invite: Invite,
}

/// The page's link that opens an invite: the page at `origin` (`http://host:port`, no
/// trailing slash) reads the token from its fragment, so the token never reaches a log.
pub fn invite_link(origin: &str, token: &str) -> String {
    format!("{origin}/#invite={token}")
}

/// A table just made, as a front end shows it: the table, and its game master's invite with
/// the page's link to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewTableView {
    /// The table's id.
    pub table: i64,
    /// Its name.
    pub table_name: String,
    /// The page's link that opens the invite ([`invite_link`]).
    pub link: String,
    /// The invite token (shown once).
    pub invite: String,
    /// `gm`: whoever opens the link runs the table.
    pub role: &'static str,
    /// When the invite stops working (RFC 3339, UTC).
    pub expires: String,
}

impl NewTable {
    /// The view of the new table, its invite linked on the page at `origin`.
    pub fn view(self, origin: &str) -> NewTableView {
        NewTableView {
            link: invite_link(origin, &self.invite.token),
            table: self.table,
            table_name: self.table_name,
            invite: self.invite.token,
            role: self.invite.role,
            expires: self.invite.expires,
        }
    }
}

/// Makes a table named `name` without members, and one invite as its game master that works
/// once for [`NEW_TABLE_GM_INVITE_SECONDS`]: whoever opens it chooses their name and runs
/// the table from the page (its own invites included).
pub fn new_table<S: TableStore>(store: &mut S, name: &str) -> Result<NewTable, AppError> {
    new_table_at(store, name, jiff::Timestamp::now())
}

/// [`new_table`] at the time `at` (tests).
pub fn new_table_at<S: TableStore>(
    store: &mut S,
    name: &str,
    at: jiff::Timestamp,
) -> Result<NewTable, AppError> {
    let name = crate::name("table name", name, MAX_TITLE.min(MAX_NAME))?;
    let token = new_token()?;
    let expires = after(at, NEW_TABLE_GM_INVITE_SECONDS);
    let (table, id) = store.create_table_with_invite(&name, &token_hash(&token), at, expires)?;
    Ok(NewTable {
        table,
        table_name: name,
        invite: Invite {
            token,
            role: "gm",
            id,
            expires: expires.to_string(),
        },
    })
}

fn game_master_only(by: &Member, what: &'static str) -> Result<(), AppError> {
    if by.gm {
        Ok(())
    } else {
        Err(crate::policy::GmOnly::Invites(what).into())
    }
}

/// An invite to the member's table; only its game master invites. A player's invite works
/// for [`PLAYER_INVITE_SECONDS`], a game master's for [`GM_INVITE_SECONDS`].
pub fn invite<S: TableStore>(store: &mut S, by: &Member, gm: bool) -> Result<Invite, AppError> {
    game_master_only(by, "makes")?;
    let life = if gm {
        GM_INVITE_SECONDS
    } else {
        PLAYER_INVITE_SECONDS
    };
    invite_to(
        store,
        by.table,
        gm,
        life,
        jiff::Timestamp::now(),
        OtherInvites::Kept,
    )
}

/// Who an invite makes of the one who uses it, as a request says it: `"player"` (also when
/// not said) or `"gm"`; anything else is refused as the request is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum InviteRole {
    /// A player of the table.
    #[default]
    Player,
    /// Another game master of the table.
    Gm,
}

impl InviteRole {
    /// Whether the invite makes a game master ([`invite`]'s `gm`).
    pub fn is_gm(self) -> bool {
        self == Self::Gm
    }
}

/// The most characters of a token a request sends (an invite's, a re-entry link's): more
/// than any token solum makes, so a longer one is refused as the request is read, before
/// anything is looked up.
pub const MAX_TOKEN_CHARS: usize = 200;

/// A token longer than [`MAX_TOKEN_CHARS`]: `longer than any …` (the kind of link).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("longer than any {0}")]
pub struct TokenTooLong(&'static str);

macro_rules! token {
    ($(#[$meta:meta])* $name:ident, $what:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
        #[serde(try_from = "String")]
        pub struct $name(String);

        impl $name {
            /// The token as sent.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = TokenTooLong;
            fn try_from(token: String) -> Result<Self, TokenTooLong> {
                // Counted in characters, as a description's `maxLength` counts.
                if token.chars().count() > MAX_TOKEN_CHARS {
                    Err(TokenTooLong($what))
                } else {
                    Ok(Self(token))
                }
            }
        }
    };
}

token! {
    /// An invite's token as a request sends it ([`join`]): at most [`MAX_TOKEN_CHARS`]
    /// characters.
    InviteToken, "invite"
}

token! {
    /// A re-entry link's token as a request sends it ([`redeem_reentry`]): at most
    /// [`MAX_TOKEN_CHARS`] characters.
    ReentryToken, "re-entry link"
}

/// The game master invite to the campaign's own table (table 0) that `solum serve` prints:
/// it works once, for [`HOME_GM_INVITE_SECONDS`], and every unused one made before is
/// revoked, so invites do not pile up with every start.
pub fn home_gm_invite<S: TableStore>(store: &mut S) -> Result<Invite, AppError> {
    // The others revoked in the same transaction: of servers started together, one link
    // works.
    invite_to(
        store,
        0,
        true,
        HOME_GM_INVITE_SECONDS,
        jiff::Timestamp::now(),
        OtherInvites::Revoked,
    )
}

fn invite_to<S: TableStore>(
    store: &mut S,
    table: i64,
    gm: bool,
    life: i64,
    at: jiff::Timestamp,
    others: OtherInvites,
) -> Result<Invite, AppError> {
    let token = new_token()?;
    let expires = after(at, life);
    let id = store.add_invite(table, gm, &token_hash(&token), at, expires, others)?;
    Ok(Invite {
        token,
        role: if gm { "gm" } else { "player" },
        id,
        expires: expires.to_string(),
    })
}

fn unix_text(seconds: i64) -> String {
    Timestamp::from_second(seconds).map_or_else(|_| seconds.to_string(), |t| t.to_string())
}

/// An invite of the table as its game master lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InviteView {
    /// Its id (to revoke it).
    pub id: i64,
    /// `gm` or `player`.
    pub role: &'static str,
    /// When it was made (RFC 3339).
    pub created: String,
    /// When it stops working (RFC 3339).
    pub expires: String,
    /// `open`, `used`, `revoked` or `expired`.
    pub state: &'static str,
    /// The member who used it.
    pub used_by: Option<i64>,
}

/// Every invite of the game master's table, oldest first, with its state now.
pub fn invites<S: TableStore>(store: &S, by: &Member) -> Result<Vec<InviteView>, AppError> {
    game_master_only(by, "lists")?;
    let now = Timestamp::now();
    Ok(store
        .invites(by.table)?
        .into_iter()
        .map(|r| InviteView {
            id: r.id,
            role: if r.gm { "gm" } else { "player" },
            created: r.created.to_string(),
            expires: r.expires.to_string(),
            state: match (r.used_by, r.revoked) {
                (Some(_), _) => "used",
                (None, true) => "revoked",
                (None, false) if now >= r.expires => "expired",
                (None, false) => "open",
            },
            used_by: r.used_by,
        })
        .collect())
}

/// Revokes an unused invite of the game master's table: it opens nothing any more.
pub fn revoke_invite<S: TableStore>(store: &mut S, by: &Member, id: i64) -> Result<(), AppError> {
    game_master_only(by, "revokes")?;
    if store.revoke_invite(by.table, id)? {
        Ok(())
    } else {
        Err(AppError::NoSuchInvite(id))
    }
}

/// Uses an invite: a new member named `name`, with a fresh session.
///
/// `current` is the session the request already holds, if any: joining replaces it in the
/// browser, so while it is a live session the join is refused ([`AppError::SessionHeld`])
/// unless `replace` says the member chose to switch tables.
pub fn join<S: TableStore>(
    store: &mut S,
    invite: &str,
    name: &str,
    current: Option<&str>,
    replace: bool,
) -> Result<Joined, AppError> {
    join_at(
        store,
        invite,
        name,
        current,
        replace,
        jiff::Timestamp::now(),
    )
}

/// [`join`] at `at`.
pub fn join_at<S: TableStore>(
    store: &mut S,
    invite: &str,
    name: &str,
    current: Option<&str>,
    replace: bool,
    at: jiff::Timestamp,
) -> Result<Joined, AppError> {
    let name = crate::name("member name", name, MAX_NAME)?;
    if !replace
        && let Some(token) = current
        && let Some(held) = session_at(store, token, at)?
    {
        return Err(AppError::SessionHeld {
            table_name: held.table_name,
        });
    }
    if !well_formed(invite) {
        return Err(InviteRefusal::Unknown.into());
    }
    let token = new_token()?;
    let key = crate::name_key(&name);
    match store.redeem_invite(
        &token_hash(invite),
        &name,
        &key,
        &token_hash(&token),
        at,
        at,
    )? {
        Redeemed::Joined(member) => Ok(Joined::of(token, &member)),
        Redeemed::Unknown => Err(InviteRefusal::Unknown.into()),
        Redeemed::Used => Err(InviteRefusal::Used.into()),
        // `solum serve` revokes the unused game master invites of the campaign's own table
        // at every start (see `home_gm_invite`).
        Redeemed::Revoked { table: 0, gm: true } => Err(InviteRefusal::Replaced.into()),
        Redeemed::Revoked { .. } => Err(InviteRefusal::Revoked.into()),
        Redeemed::Expired(t) => Err(InviteRefusal::Expired(t).into()),
        Redeemed::NameTaken(taken) => Err(AppError::NameTaken { name, taken }),
    }
}

/// How long a re-entry link works: 7 days (`POST /api/me/reentry`).
pub const REENTRY_SECONDS: i64 = 7 * 86_400;

/// A re-entry link just made: the token to keep (shown once), for whom, until when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reentry {
    /// The one-time token (`TABLE.MEMBER.SECRET`); the page's link is `/#reentry=TOKEN`.
    pub token: String,
    /// The member it signs in again.
    pub member: MemberView,
    /// When it stops working (RFC 3339, UTC).
    pub expires: String,
}

/// The setting of the table that keeps a member's re-entry link (its hash and expiry).
fn reentry_key(member: i64) -> String {
    format!("reentry.{member}")
}

/// The setting that remembers a member's last links that can no longer be used (`u:HASH`
/// used, `r:HASH` revoked by a newer link), so a refusal can say which; at most
/// [`REENTRY_PAST`] of them, newest last.
fn reentry_past_key(member: i64) -> String {
    format!("reentry.{member}.past")
}

/// How many of a member's past re-entry links are remembered (older ones read as unknown).
pub const REENTRY_PAST: usize = 8;

/// Remembers a link that can no longer be used (`mark` `u` used, `r` revoked).
fn remember_past<S: CampaignStore>(
    store: &mut S,
    member: i64,
    mark: char,
    hash: &str,
) -> Result<(), AppError> {
    let key = reentry_past_key(member);
    let kept = store.meta(&key)?.unwrap_or_default();
    let mut past: Vec<&str> = kept.split_whitespace().collect();
    let entry = format!("{mark}:{hash}");
    past.push(&entry);
    let skip = past.len().saturating_sub(REENTRY_PAST);
    store.set_meta(&key, &past[skip..].join(" "))?;
    Ok(())
}

/// The table a re-entry token is for, read from the token (`None`: no token of ours). The
/// server opens that table's store to [`redeem_reentry`] it.
pub fn reentry_table(token: &str) -> Option<i64> {
    let (table, rest) = token.split_once('.')?;
    let (member, secret) = rest.split_once('.')?;
    let table = table.parse::<i64>().ok().filter(|t| *t >= 0)?;
    member.parse::<i64>().ok()?;
    well_formed(secret).then_some(table)
}

/// Makes a re-entry link for the member `whom` of `by`'s table: `by` themselves, or any
/// member when `by` is a game master (a re-invite). It signs that same member in again
/// once, within [`REENTRY_SECONDS`]; a newer link for the member revokes the older one.
/// `store` must see the table as its game master does (the link is one of its settings).
pub fn reentry<S: CampaignStore + TableStore>(
    store: &mut S,
    by: &Member,
    whom: i64,
) -> Result<Reentry, AppError> {
    reentry_at(store, by, whom, jiff::Timestamp::now())
}

/// A game master's re-invite of the member `whom` of their table: [`reentry`], refused to a
/// player ([`crate::policy::GmOnly::Reinvite`]) whoever `whom` is (a player asks for their
/// own link with [`reentry`]).
pub fn reinvite<S: CampaignStore + TableStore>(
    store: &mut S,
    by: &Member,
    whom: i64,
) -> Result<Reentry, AppError> {
    crate::policy::game_master(by.gm, crate::policy::GmOnly::Reinvite)?;
    reentry(store, by, whom)
}

/// [`reentry`] at `at`.
pub fn reentry_at<S: CampaignStore + TableStore>(
    store: &mut S,
    by: &Member,
    whom: i64,
    at: jiff::Timestamp,
) -> Result<Reentry, AppError> {
    if whom != by.id && !by.gm {
        return Err(crate::policy::Forbidden::OthersReentry.into());
    }
    let member = store
        .members()?
        .into_iter()
        .find(|m| m.id == whom && m.table == by.table)
        .ok_or_else(|| {
            crate::TableRefusal::MemberUnknown.at("id", format!("the table has no member {whom}"))
        })?;
    let token = format!("{}.{}.{}", member.table, member.id, new_token()?);
    let expires = at.as_second().saturating_add(REENTRY_SECONDS);
    // The link this one replaces is remembered as revoked, so its refusal says so.
    if let Some(old) = store.meta(&reentry_key(member.id))?
        && let Some((hash, _)) = old.split_once(' ')
    {
        let hash = hash.to_owned();
        remember_past(store, member.id, 'r', &hash)?;
    }
    store.set_meta(
        &reentry_key(member.id),
        &format!("{} {expires}", token_hash(&token)),
    )?;
    Ok(Reentry {
        token,
        member: MemberView::of(&member),
        expires: unix_text(expires),
    })
}

/// Uses a re-entry link: a new session for its member, whose link is used up. Refused
/// (403 saying which) when unknown, used, revoked by a newer one, or expired; a request
/// that holds a live session is refused with `session-held` unless `replace`. `store` must
/// see the token's table ([`reentry_table`]) as its game master does.
pub fn redeem_reentry<S: CampaignStore + TableStore>(
    store: &mut S,
    token: &str,
    current: Option<&str>,
    replace: bool,
) -> Result<Joined, AppError> {
    redeem_reentry_at(store, token, current, replace, jiff::Timestamp::now())
}

/// [`redeem_reentry`] at `at`.
pub fn redeem_reentry_at<S: CampaignStore + TableStore>(
    store: &mut S,
    token: &str,
    current: Option<&str>,
    replace: bool,
    at: jiff::Timestamp,
) -> Result<Joined, AppError> {
    if !replace
        && let Some(held) = current
        && let Some(held) = session_at(store, held, at)?
    {
        return Err(AppError::SessionHeld {
            table_name: held.table_name,
        });
    }
    let unknown = || AppError::from(ReentryRefusal::Unknown);
    let table = reentry_table(token).ok_or_else(unknown)?;
    let member: i64 = token
        .split('.')
        .nth(1)
        .and_then(|m| m.parse().ok())
        .ok_or_else(unknown)?;
    let hashed = token_hash(token);
    let kept = store.meta(&reentry_key(member))?.unwrap_or_default();
    let live = kept
        .split_once(' ')
        .filter(|(hash, _)| *hash == hashed)
        .map(|(_, expires)| expires);
    let Some(expires) = live else {
        // Not the member's live link: one it had, or none of ours.
        let past = store.meta(&reentry_past_key(member))?.unwrap_or_default();
        let refusal = past
            .split_whitespace()
            .rev()
            .find_map(|e| match e.split_once(':') {
                Some(("u", h)) if h == hashed => Some(ReentryRefusal::Used),
                Some(("r", h)) if h == hashed => Some(ReentryRefusal::Revoked),
                _ => None,
            })
            .unwrap_or(ReentryRefusal::Unknown);
        return Err(refusal.into());
    };
    let expires: i64 = expires.parse().map_err(|_| unknown())?;
    if at.as_second() >= expires {
        return Err(ReentryRefusal::Expired(unix_text(expires)).into());
    }
    // Used once: the link is gone before the session is opened.
    store.set_meta(&reentry_key(member), "")?;
    remember_past(store, member, 'u', &hashed)?;
    let session = new_token()?;
    let member = store
        .add_session(table, member, &token_hash(&session), at)?
        .ok_or_else(unknown)?;
    Ok(Joined::of(session, &member))
}

/// How long a session lives unused: 30 days. Each use starts the count again; past it the
/// member joins again through a new invite.
pub const SESSION_IDLE_DAYS: i64 = 30;

/// The member a session token belongs to; `None` for a token that is not a session, or one
/// idle for more than [`SESSION_IDLE_DAYS`].
pub fn session<S: TableStore>(store: &S, token: &str) -> Result<Option<Member>, AppError> {
    session_at(store, token, Timestamp::now())
}

/// [`session`] at `now`.
pub fn session_at<S: TableStore>(
    store: &S,
    token: &str,
    now: Timestamp,
) -> Result<Option<Member>, AppError> {
    if !well_formed(token) {
        return Ok(None);
    }
    Ok(store.session_member(&token_hash(token), now, SESSION_IDLE)?)
}

/// The member of the session whose token hashes to `hash` (as a server keeps it for its open
/// live streams), or none when it ended or expired: the rule of [`session`].
pub fn session_by_hash<S: TableStore>(store: &S, hash: &str) -> Result<Option<Member>, AppError> {
    Ok(store.session_member(hash, Timestamp::now(), SESSION_IDLE)?)
}

/// Ends the session of `token` (logging out): its row is deleted, so the token opens
/// nothing any more. False when it was no session.
pub fn logout<S: TableStore>(store: &mut S, token: &str) -> Result<bool, AppError> {
    if !well_formed(token) {
        return Ok(false);
    }
    Ok(store.end_session(&token_hash(token))?)
}

/// Who a campaign seen through `scope` acts as, for the journal's `by`: the scope's member
/// by their name at the table, or the command line (no member). A member the table no longer
/// has is named by id only ("member 7").
pub fn by_of<S: TableStore>(store: &S, scope: Scope) -> Result<crate::By, AppError> {
    let Some(id) = scope.member else {
        return Ok(crate::By::command_line());
    };
    // The member's role, not the scope's: a player's scope is widened for a few shared
    // rows (a combat's, a skirmish's) once the app has checked the player's right.
    let member = store.members()?.into_iter().find(|m| m.id == id);
    Ok(match member {
        Some(m) => crate::By::member(id, &m.name, m.gm),
        None => crate::By::member(id, &format!("member {id}"), false),
    })
}

/// The scope a member's requests run in: their table, their role.
pub fn scope_of(member: &Member) -> Scope {
    Scope::member(member.table, member.id, member.gm)
}

/// The scope of a roll by `member`, in secret when asked: only a game master rolls in
/// secret ([`crate::policy::may_write_secret`]; `secret-gm-only`, naming `secret`).
pub fn roll_scope(member: &Member, secret: bool) -> Result<Scope, AppError> {
    let scope = scope_of(member);
    let scope = if secret { scope.secret() } else { scope };
    crate::policy::may_write_secret(scope)?;
    Ok(scope)
}

pub use crate::policy::{REAL_DICE_KEY, TYPED_DICE_REFUSED, check_typed_dice, may_type_dice};

/// The dice of a live roll by `member`: the generator with a fresh seed, or the faces typed
/// in by hand where [`may_type_dice`] allows them (journaled as typed).
pub fn live_dice<S: CampaignStore + TableStore>(
    store: &S,
    member: &Member,
    typed: Option<Vec<u32>>,
) -> Result<crate::Dice, AppError> {
    match typed {
        None => Ok(crate::Dice::Fresh),
        Some(faces) => {
            check_typed_dice(store, member)?;
            Ok(crate::Dice::Typed(faces))
        }
    }
}

/// A character of the table with who created it, for a front end to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OwnedCharacter {
    /// The sheet.
    #[serde(flatten)]
    pub view: characters::CharacterView,
    /// The member who created it (none: made at the command line).
    pub owner: Option<i64>,
}

/// A table of the campaign as its operator lists it (`solum table list`): to back up or
/// verify each table's journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// The table's id (0: the campaign's own, the command line's).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Members who have joined it.
    pub members: u64,
    /// Entries in its journal (secret ones too).
    pub entries: i64,
}

impl<S: TableStore + solum_store::StoreHandle> Campaign<S> {
    /// Makes a table in this campaign ([`new_table`]): a write, so a campaign opened on use
    /// ([`crate::on_use`]) is created by it; a name refused leaves none behind.
    pub fn new_table(&mut self, name: &str) -> Result<NewTable, AppError> {
        new_table(&mut self.store, name)
    }

    /// Every table of the campaign, by id, with its members and the length of its journal.
    pub fn tables(&self) -> Result<Vec<TableView>, AppError> {
        self.store
            .tables()?
            .into_iter()
            .map(|t| {
                Ok(TableView {
                    entries: self.store.last_seq(t.id)?,
                    id: t.id,
                    name: t.name,
                    members: t.members,
                })
            })
            .collect()
    }

    /// From now on, reads and writes the table `id` whole, as its game master does and
    /// secret entries too (the command line's view of its own table 0): what an operator
    /// exports or verifies. Refused when the campaign has no such table.
    pub fn at_table(&mut self, id: i64) -> Result<(), AppError> {
        if !self.store.tables()?.iter().any(|t| t.id == id) {
            return Err(crate::TableRefusal::Unknown.at(
                "table",
                format!("the campaign has no table {id} (`solum table list` lists them)"),
            ));
        }
        self.store.set_scope(Scope {
            table: id,
            ..Scope::HOME
        });
        Ok(())
    }
}

impl<S: CampaignStore + TableStore> Campaign<S> {
    /// Runs `roll`, a use case rolling from the character `name` of `system`, only when
    /// `member` may roll from it (a game master from any of the table's characters, a player
    /// from the ones they created), the check and the roll in one write transaction: a
    /// rename by another writer cannot slip between them and hand a player someone else's
    /// character. Refused with [`AppError::Forbidden`], nothing written.
    pub fn as_roller_of<T>(
        &mut self,
        member: &Member,
        system: &str,
        name: &str,
        roll: impl FnOnce(&mut Self) -> Result<T, AppError>,
    ) -> Result<T, AppError> {
        self.begin_group()?;
        let check = if member.gm {
            Ok(())
        } else {
            // An unknown name is unknown to a player too (not "not your character"): the
            // sheet is looked for before who owns it.
            self.store()
                .sheet(system, name)
                .and_then(|sheet| match sheet {
                    Some(_) => self.store().sheet_owner(system, name),
                    None => Err(solum_store::StoreError::NoSuchSheet {
                        name: name.trim().to_owned(),
                    }),
                })
                .map_err(AppError::from)
                .and_then(|owner| {
                    Ok(crate::policy::may_play(
                        false,
                        Some(member.id),
                        owner,
                        name,
                    )?)
                })
        };
        let out = check.and_then(|()| roll(self));
        // A refused roll wrote nothing (its own savepoint was rolled back): ending the group
        // commits what succeeded, or nothing.
        let ended = self.end_group();
        let out = out?;
        ended?;
        Ok(out)
    }

    /// Plays a line of the open combat as `member`: a game master plays any line, a player
    /// only an action of their own hero on its turn ([`Campaign::combat_line_for`]).
    pub fn combat_line_as(
        &mut self,
        member: &Member,
        line: &str,
    ) -> Result<crate::combat::CombatLineView, AppError> {
        // Faces typed with `with` are real dice: for a game master alone at the table, or a
        // table that rolls real dice. (A line that does not parse types none, and is refused
        // by the use case, naming the line.)
        if crate::combat::line_types_dice(line) {
            check_typed_dice(self.store(), member)?;
        }
        if member.gm {
            return self.combat_line(line, None);
        }
        let own: Vec<String> = self
            .owned_characters()?
            .into_iter()
            .filter(|c| c.owner == Some(member.id))
            .map(|c| c.view.character.name)
            .collect();
        self.combat_line_for(line, None, Some(&own))
    }

    /// Edits a sheet as `member`: a game master's change to a sheet another member created
    /// is a correction (S17), marked in the journal as one ("GM correction of …"), whatever
    /// the edit said; a player edits only their own (the role policy, [`crate::policy`],
    /// refuses the others).
    pub fn edit_character_as(
        &mut self,
        member: &Member,
        name: &str,
        edit: &characters::CharacterEdit,
    ) -> Result<characters::ChangeView, AppError> {
        let mut edit = edit.clone();
        if member.gm
            && !edit.correction
            && self
                .store()
                .sheet_owner(characters::SYSTEM, name)?
                .is_some_and(|owner| owner != member.id)
        {
            edit.correction = true;
        }
        self.edit_character(name, &edit)
    }

    /// Every So1um Expanded character of the table with its owner.
    pub fn owned_characters(&self) -> Result<Vec<OwnedCharacter>, AppError> {
        let views = self.characters()?;
        if views.is_empty() {
            return Ok(Vec::new());
        }
        // One read of the owners, not one a character.
        // By the names' comparison form, as `sheet_owner` looks a name up.
        let owners: std::collections::HashMap<String, Option<i64>> = self
            .store()
            .sheet_owners(characters::SYSTEM)?
            .into_iter()
            .map(|(name, owner)| (solum_store::name_key(&name), owner))
            .collect();
        Ok(views
            .into_iter()
            .map(|view| {
                let owner = owners
                    .get(&solum_store::name_key(&view.character.name))
                    .copied()
                    .flatten();
                OwnedCharacter { view, owner }
            })
            .collect())
    }
}

impl<S: CampaignStore> Campaign<S> {
    /// The exact odds of a check from a sheet, before any roll: what
    /// [`Campaign::check_from_character`] would roll, and nothing is journaled.
    pub fn check_odds(&self, name: &str, check: &CharacterCheck) -> Result<CheckOdds, AppError> {
        let sheet = self
            .store()
            .sheet(characters::SYSTEM, name)?
            .ok_or_else(|| AppError::NoSuchCharacter(name.trim().to_owned()))?;
        let hero = characters::from_sheet(&sheet)?;
        characters::odds_of(&characters::table_inputs(
            &hero,
            check,
            self.roll_off()?,
            self.store().sees_every_entry(),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_bits_of_hex_and_differ() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 64);
        assert!(well_formed(&a));
        assert_ne!(a, b);
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(!well_formed("abc"));
        assert!(!well_formed(&"g".repeat(64)));
    }
}
