//! The journal as a story: one Markdown file a notes app can read, scenes as headings, rolls
//! on one compact line each.
//!
//! Every string that comes from a user (a note, a question, a name, a title) goes through
//! [`escape`] (or [`block`], which escapes each line): it can never become a heading, a
//! list, a quote, a link, code or HTML. A game master's secret entry is marked
//! `*(secret)*`; a revealed one is marked `*(revealed)*` with the date it was rolled.

use std::fmt::Write;

use solum_expanded::oracle::Leaning;

use crate::journal::{JournalEntry, Record, Rolled};
use crate::rolled::faces;

/// Renders the whole journal.
pub(crate) fn render(title: &str, entries: &[JournalEntry]) -> String {
    let mut out = header(title);
    for entry in entries {
        out.push_str(&render_entry(entry));
    }
    out
}

/// The story's heading.
pub fn header(title: &str) -> String {
    format!("# {}\n\n", inline(title))
}

/// One entry of the story: what [`render`] writes for it, so that a long journal can be
/// written a page of entries at a time.
pub fn render_entry(entry: &JournalEntry) -> String {
    let mut out = render_record(entry);
    // Who did it, at a table of several members (the command line's entries, a solo
    // player's story, name no one).
    if let Some(by) = entry.by.as_ref().filter(|b| b.member.is_some())
        && !matches!(
            entry.record,
            Record::SceneStart { .. } | Record::SceneEnd { .. }
        )
    {
        out = mark(&out, &format!("**{}:**", inline(&by.name)));
    }
    if entry.secret {
        mark(&out, "*(secret)*")
    } else {
        out
    }
}

/// Puts `marker` at the start of the entry's first line of text (after a quote's `> `).
fn mark(out: &str, marker: &str) -> String {
    let lead = out.len() - out.trim_start_matches('\n').len();
    let (head, rest) = out.split_at(lead);
    match rest.strip_prefix("> ") {
        Some(line) => format!("{head}> {marker} {line}"),
        None => format!("{head}{marker} {rest}"),
    }
}

fn render_record(entry: &JournalEntry) -> String {
    let mut out = String::new();
    {
        let date = entry.at.get(..10).unwrap_or(&entry.at);
        match &entry.record {
            Record::SceneStart { title, goal } => {
                let _ = writeln!(out, "\n## {}\n", inline(title));
                if let Some(goal) = goal {
                    let _ = writeln!(out, "*Goal:* {}\n", inline(goal));
                }
                let _ = writeln!(out, "*{date}*\n");
            }
            Record::SceneEnd { summary } => match summary {
                Some(s) => {
                    let _ = writeln!(out, "\n*Scene ends:* {}\n", inline(s));
                }
                None => {
                    let _ = writeln!(out, "\n*Scene ends.*\n");
                }
            },
            Record::Note { text } => {
                let _ = writeln!(out, "{}\n", block(text));
            }
            Record::Oracle {
                question,
                leaning,
                rolled,
                outcome,
            } => {
                let mut line = format!(
                    "> **{}** — *{}* ({}: {})",
                    inline(question),
                    outcome.answer.text(),
                    how(*leaning),
                    faces(&outcome.dice)
                );
                if let Some(event) = outcome.event {
                    let _ = write!(line, "; {}", event.text());
                }
                line.push_str(&provenance(rolled));
                let _ = writeln!(out, "{line}\n");
            }
            Record::ClassicOracle {
                question,
                leaning,
                rolled,
                outcome,
            } => {
                let mut line = format!(
                    "> **{}** — *{}* (original oracle, {}: {})",
                    inline(question),
                    inline(&outcome.answer),
                    how(*leaning),
                    faces(&outcome.dice)
                );
                if let Some(event) = &outcome.event {
                    let _ = write!(line, "; {}", inline(event));
                }
                line.push_str(&provenance(rolled));
                let _ = writeln!(out, "{line}\n");
            }
            Record::Difficulty {
                task,
                rolled,
                difficulty,
                name,
            } => {
                let task = task
                    .as_deref()
                    .map(|t| format!(" for {}", inline(t)))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "> *Difficulty{task}:* **{difficulty} ({})**{}\n",
                    inline(name),
                    provenance(rolled)
                );
            }
            Record::Reveal {
                of,
                secret_at,
                record,
            } => {
                let secret = JournalEntry {
                    seq: *of,
                    at: secret_at.clone(),
                    record: (**record).clone(),
                    secret: false,
                    by: None,
                    line: None,
                };
                let when = secret_at.get(..10).unwrap_or(secret_at);
                out.push_str(&mark(
                    &render_record(&secret),
                    &format!("*(revealed; rolled in secret on {})*", escape(when)),
                ));
            }
            Record::Idea {
                list,
                rolled,
                words,
                ..
            } => {
                let words = words.iter().map(|w| inline(w)).collect::<Vec<_>>();
                let _ = writeln!(
                    out,
                    "> *Idea ({}):* **{}** (d{}: {}){}\n",
                    inline(list.label()),
                    words.join(" · "),
                    list.words().map(|w| w.len()).unwrap_or(0),
                    faces(&rolled.faces),
                    provenance(rolled)
                );
            }
            // A system's kind says itself in one line ([`SystemRecord::summary`]).
            other => {
                let summary = other.system().map(|k| k.summary());
                let _ = writeln!(out, "> {}\n", inline(&summary.unwrap_or_default()));
            }
        }
    }
    out
}

fn how(leaning: Leaning) -> &'static str {
    match leaning {
        Leaning::Even => "d6",
        Leaning::Advantage => "best of 2d6",
        Leaning::Disadvantage => "worst of 2d6",
    }
}

/// How the dice came: a story says when they were rolled by hand, and leaves the
/// generator's seed to the JSON export (which `journal verify` reads).
fn provenance(rolled: &Rolled) -> String {
    if rolled.typed {
        " `typed`".into()
    } else {
        String::new()
    }
}

/// The one escaping of a user's text for Markdown, on one line: line breaks and tabs become
/// spaces, other control characters go, every character Markdown (with its common
/// extensions: tables, strikethrough) reads as markup is escaped with a backslash, and so
/// is a line's first character where it would start a block (a list's `-`, `+` or `1.`, a
/// setext heading's `=` or `-`, a fence's `~`), so that no text turns into a heading, a
/// list, a quote, code, a link or HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut start = true;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!' | '{' | '}' | '~'
            | '&' => {
                out.push('\\');
                out.push(c);
            }
            '-' | '+' | '=' if start => {
                out.push('\\');
                out.push(c);
            }
            '0'..='9' if start => {
                // An ordered list's marker: digits, then `.` or `)`.
                out.push(c);
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    out.push(d);
                    chars.next();
                }
                if let Some(&m @ ('.' | ')')) = chars.peek() {
                    out.push('\\');
                    out.push(m);
                    chars.next();
                }
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
        if !(out.is_empty() || out.ends_with(' ')) {
            start = false;
        }
    }
    out
}

/// A note: paragraphs kept, each line escaped by [`escape`] (so no line starts a block)
/// and ended with a hard break.
fn block(text: &str) -> String {
    text.lines().map(escape).collect::<Vec<_>>().join("  \n")
}

/// One line of a user's text: [`escape`].
fn inline(text: &str) -> String {
    escape(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_text_cannot_become_markup() {
        assert_eq!(inline("# <script>"), "\\# \\<script\\>");
        assert_eq!(inline("a\nb"), "a b");
        assert_eq!(inline("[x](javascript:)"), "\\[x\\](javascript:)");
    }

    /// Line starts that would open a block are escaped; the same characters inside a line
    /// are left as they are (a well-known 2-for-1 = a 10+ deal).
    #[test]
    fn no_line_of_a_note_starts_a_block() {
        assert_eq!(escape("- a"), "\\- a");
        assert_eq!(escape("+ a"), "\\+ a");
        assert_eq!(escape("==="), "\\===");
        assert_eq!(escape("---"), "\\---");
        assert_eq!(escape("12. a"), "12\\. a");
        assert_eq!(escape("3) a"), "3\\) a");
        assert_eq!(escape("  - a"), "  \\- a");
        assert_eq!(escape("~~~"), "\\~\\~\\~");
        assert_eq!(escape("> q"), "\\> q");
        assert_eq!(escape("a &amp; b"), "a \\&amp; b");
        assert_eq!(
            escape("a well-known 2-for-1 = a 10+ deal"),
            "a well-known 2-for-1 = a 10+ deal"
        );
        assert_eq!(escape("1999 was"), "1999 was");
        assert_eq!(
            block("A calm day\n===\n- one\n1. two\n# three\n> four"),
            "A calm day  \n\\===  \n\\- one  \n1\\. two  \n\\# three  \n\\> four"
        );
    }

    fn at(seq: i64, record: Record, secret: bool) -> JournalEntry {
        JournalEntry {
            seq,
            at: "2026-12-01T10:00:00Z".into(),
            record,
            secret,
            by: None,
            line: None,
        }
    }

    /// A secret roll is marked in the game master's story, and so is a revealed one.
    #[test]
    fn secret_and_revealed_rolls_are_marked() {
        let oracle = Record::Difficulty {
            task: Some("- pick the lock".into()),
            rolled: Rolled {
                seed: None,
                typed: true,
                faces: vec![4],
            },
            difficulty: 4,
            name: "Hard".into(),
        };
        let story = render(
            "T",
            &[
                at(1, oracle.clone(), true),
                at(
                    2,
                    Record::Reveal {
                        of: 1,
                        secret_at: "2026-11-30T09:00:00Z".into(),
                        record: Box::new(oracle),
                    },
                    false,
                ),
                at(
                    3,
                    Record::Note {
                        text: "Quiet.\n===".into(),
                    },
                    false,
                ),
            ],
        );
        assert_eq!(
            story,
            "# T\n\n\
             > *(secret)* *Difficulty for \\- pick the lock:* **4 (Hard)** `typed`\n\n\
             > *(revealed; rolled in secret on 2026-11-30)* *Difficulty for \\- pick the lock:* **4 (Hard)** `typed`\n\n\
             Quiet.  \n\\===\n\n"
        );
    }
}
