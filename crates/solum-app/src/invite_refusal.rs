//! Why an invite or a re-entry link cannot be used ([`InviteRefusal`], the code
//! `invite-unusable`; [`ReentryRefusal`], a code per case): the refusals of
//! [`crate::tables`]. It names no other module, so `error.rs`, which wraps them, stays below
//! every use case.

/// Why an invite cannot be used: one code for the API (`invite-unusable`), and which
/// case it is for a front end that acts on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InviteRefusal {
    /// Not an invite of this campaign (or not one at all).
    #[error("this invite is unknown")]
    Unknown,
    /// Already redeemed (an invite admits one member).
    #[error("this invite was used already: ask the game master for a new one")]
    Used,
    /// A game master invite of the campaign's own table that a newer start of `solum serve`
    /// replaced.
    #[error(
        "this invite was replaced by a newer start of `solum serve`: use the link it printed last"
    )]
    Replaced,
    /// Revoked by the game master.
    #[error("this invite was revoked by the game master: ask them for a new one")]
    Revoked,
    /// Past its time.
    #[error("this invite expired at {0}: ask the game master for a new one")]
    Expired(jiff::Timestamp),
}

/// Why a re-entry link was refused: each a stable code (`reentry-unknown`, `reentry-used`,
/// `reentry-expired`, `reentry-revoked`) the page acts on, and a sentence for the member.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReentryRefusal {
    /// Not a link this table made (or too old to be remembered).
    #[error(
        "this re-entry link is unknown here: check that it was copied whole, or ask for a new one"
    )]
    Unknown,
    /// Already used once (a link signs in once).
    #[error("this re-entry link was already used (a link signs in once): ask for a new one")]
    Used,
    /// Past its time ([`crate::tables::REENTRY_SECONDS`]).
    #[error("this re-entry link expired at {0}: ask for a new one")]
    Expired(String),
    /// Replaced by a newer link for the same member.
    #[error("this re-entry link was replaced by a newer one: use the newest, or ask for a new one")]
    Revoked,
}

impl ReentryRefusal {
    /// The stable code of the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Unknown => "reentry-unknown",
            Self::Used => "reentry-used",
            Self::Expired(_) => "reentry-expired",
            Self::Revoked => "reentry-revoked",
        }
    }
}
