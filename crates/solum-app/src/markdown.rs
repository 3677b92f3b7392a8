//! The journal as a story: one Markdown file a notes app can read, scenes as headings, rolls
//! on one compact line each.

use std::fmt::Write;

use solum_expanded::oracle::Leaning;

use crate::journal::{JournalEntry, Record, Rolled};

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
                let _ = write!(line, " {}", provenance(rolled));
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
                let _ = write!(line, " {}", provenance(rolled));
                let _ = writeln!(out, "{line}\n");
            }
            Record::Character(_)
            | Record::Classic(_)
            | Record::Soluna(_)
            | Record::Dietype(_)
            | Record::Notation(_) => {
                let summary = entry.record.character_summary().unwrap_or_default();
                let _ = writeln!(out, "> {}\n", inline(&summary));
            }
            Record::Sol(s) => {
                let _ = writeln!(out, "> {}\n", inline(&s.summary()));
            }
            Record::Combat(c) => {
                let _ = writeln!(out, "> {}\n", inline(&c.summary()));
            }
            Record::Creature(c) => {
                let _ = writeln!(out, "> {}\n", inline(&c.summary()));
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
                    "> *Difficulty{task}:* **{difficulty} ({})** {}\n",
                    inline(name),
                    provenance(rolled)
                );
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
                    "> *Idea ({}):* **{}** (d{}: {}) {}\n",
                    inline(list.label()),
                    words.join(" · "),
                    list.words().map(|w| w.len()).unwrap_or(0),
                    faces(&rolled.faces),
                    provenance(rolled)
                );
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

fn faces(dice: &[u32]) -> String {
    dice.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn provenance(rolled: &Rolled) -> String {
    match (rolled.typed, rolled.seed) {
        (true, _) => "`typed`".into(),
        (false, Some(seed)) => format!("`seed {seed}`"),
        (false, None) => String::new(),
    }
}

/// One line of the player's text, with Markdown's active characters escaped so that a name
/// cannot turn into a heading, a link or HTML.
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A note: paragraphs kept, each line escaped like [`inline`].
fn block(text: &str) -> String {
    text.lines().map(inline).collect::<Vec<_>>().join("  \n")
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
}
