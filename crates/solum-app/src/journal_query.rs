//! How a front end asks for the journal, each value held to its range by its type as the
//! request is read (a query string's or a body's `Deserialize`): how many entries a page
//! holds ([`PageLimit`]), the text searched for ([`JournalSearch`]) and the format of an
//! export ([`ExportFormat`]). The reads themselves are [`crate::Campaign::journal_page`] and
//! [`crate::Campaign::journal_page_known`].

use serde::{Deserialize, Serialize};

use crate::bounded::bounded;
use crate::journal::{JournalEntry, Record};

/// One page of the journal as every front end shows it (`GET /api/journal`, `solum journal
/// show --json`): its entries oldest first, each as [`JournalEntry::for_display`] gives it,
/// and where the next page starts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JournalPage {
    /// The entries, oldest first.
    pub entries: Vec<JournalEntry>,
    /// With `after`: the `after` of the next page when more may follow, else `null`.
    pub next: Option<i64>,
}

impl JournalPage {
    /// The page of these entries, each shown as front ends show it.
    pub fn shown(entries: Vec<JournalEntry>, next: Option<i64>) -> Self {
        Self {
            entries: entries.into_iter().map(JournalEntry::for_display).collect(),
            next,
        }
    }
}

/// The entries one page of the journal holds unless the request says otherwise.
pub const PAGE: u16 = 100;

/// The most entries one page of the journal holds.
pub const MAX_PAGE: u16 = 500;

bounded! {
    /// How many entries one page of the journal holds: 1 to [`MAX_PAGE`] ([`PAGE`] when not
    /// said, [`PageLimit::default`]).
    pub struct PageLimit(u16) in 1, MAX_PAGE;
    "between {min} and {max} entries a page"
}

impl Default for PageLimit {
    fn default() -> Self {
        Self(PAGE)
    }
}

impl PageLimit {
    /// The number of entries, as the journal's reads count them.
    pub fn entries(self) -> usize {
        usize::from(self.0)
    }
}

/// The most characters of a search of the journal.
pub const MAX_SEARCH: usize = 200;

/// A search longer than [`MAX_SEARCH`] characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the search text is longer than {MAX_SEARCH} characters")]
pub struct SearchTooLong;

/// Text searched for in the journal: at most [`MAX_SEARCH`] characters, found in any field
/// of an entry's record, without regard to case ([`JournalSearch::matches`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct JournalSearch(String);

impl TryFrom<String> for JournalSearch {
    type Error = SearchTooLong;
    fn try_from(text: String) -> Result<Self, SearchTooLong> {
        if text.chars().count() > MAX_SEARCH {
            Err(SearchTooLong)
        } else {
            Ok(Self(text.to_lowercase()))
        }
    }
}

impl JournalSearch {
    /// Whether the record holds the text in any of its fields (its JSON, any case).
    pub fn matches(&self, record: &Record) -> bool {
        serde_json::to_string(record).is_ok_and(|json| json.to_lowercase().contains(&self.0))
    }
}

/// The format of a journal's export: the `solum-journal` JSON that an import reads (when
/// not said), or the story in Markdown ([`crate::markdown`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ExportFormat {
    /// `json`: what `journal import` reads.
    #[default]
    Json,
    /// `markdown`: the story.
    Markdown,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails
    use super::*;

    crate::bounded::bounded_tests!(page_limit, PageLimit, "between 1 and 500 entries a page");

    #[test]
    fn a_page_holds_a_hundred_entries_unless_said() {
        assert_eq!(PageLimit::default().entries(), 100);
    }

    #[test]
    fn a_search_is_at_most_two_hundred_characters_and_matches_any_case() {
        let at = "é".repeat(200);
        assert!(JournalSearch::try_from(at).is_ok(), "counted in characters");
        let over = serde_json::from_str::<JournalSearch>(&format!("\"{}\"", "a".repeat(201)));
        let e = over.unwrap_err().to_string();
        assert!(
            e.contains("the search text is longer than 200 characters"),
            "{e}"
        );
        let search: JournalSearch = serde_json::from_str("\"HARBOUR\"").unwrap();
        let note = Record::Note {
            text: "At the harbour.".into(),
        };
        assert!(search.matches(&note));
        let other = Record::Note {
            text: "At the inn.".into(),
        };
        assert!(!search.matches(&other));
    }

    #[test]
    fn an_export_is_json_or_markdown() {
        assert_eq!(
            serde_json::from_str::<ExportFormat>("\"markdown\"").unwrap(),
            ExportFormat::Markdown
        );
        assert_eq!(
            serde_json::from_str::<ExportFormat>("\"json\"").unwrap(),
            ExportFormat::Json
        );
        assert_eq!(ExportFormat::default(), ExportFormat::Json);
        let e = serde_json::from_str::<ExportFormat>("\"pdf\"").unwrap_err();
        assert!(
            e.to_string().contains("expected `json` or `markdown`"),
            "{e}"
        );
    }
}
