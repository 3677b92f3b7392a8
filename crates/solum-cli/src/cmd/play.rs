//! `solum play`: the solo companion, an interactive session over a campaign. Each short
//! command makes the same application call as its one-shot command and journals the same
//! way; this module only reads lines, splits them and renders the views.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Parser;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use solum_app::{Campaign, Dice, IdeaSource, OracleSystem, ideas};
use solum_expanded::oracle::Leaning;
use solum_store::SqliteStore;

use crate::bad;
use crate::cli_campaign::PlayArgs;
use crate::cmd::{campaign, character, check};
use crate::render;

/// The command words, for completion and `help`.
const COMMANDS: [(&str, &str); 18] = [
    (
        "ask",
        "ask QUESTION       ask the oracle (also `? QUESTION`)",
    ),
    (
        "ask+",
        "ask+ QUESTION      with advantage: best of 2d6 (also `?+`)",
    ),
    (
        "ask-",
        "ask- QUESTION      with disadvantage: worst of 2d6 (also `?-`)",
    ),
    (
        "oracle",
        "oracle [expanded|classic]   the campaign's oracle for `ask` (shows it without a word)",
    ),
    ("note", "note TEXT          write in the journal"),
    (
        "scene",
        "scene TITLE [| GOAL]   start a scene (ends the open one)",
    ),
    ("end", "end [SUMMARY]      end the open scene"),
    (
        "idea",
        "idea [GENRE | @FILE] [N]   draw N idea words (default 3)",
    ),
    ("genres", "genres             list the idea genres"),
    (
        "difficulty",
        "difficulty [TASK]  roll the original's random difficulty",
    ),
    (
        "journal",
        "journal [N]        show the last N entries (default 10)",
    ),
    (
        "verify",
        "verify             re-derive every roll of the journal",
    ),
    (
        "char",
        "char list | char show NAME   the campaign's characters, a sheet",
    ),
    (
        "check",
        "check --char NAME --attr ATTR [--background BG] (--vs D | --against N) …   a check from a sheet (as `solum check`)",
    ),
    ("help", "help               this list"),
    ("quit", "quit               leave (also `exit`, or Ctrl-D)"),
    ("exit", ""),
    ("?", ""),
];

/// Completes the command word at the start of a line.
struct PlayHelper;

impl Completer for PlayHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let head = &line[..pos];
        if head.contains(char::is_whitespace) {
            return Ok((pos, Vec::new()));
        }
        let found = COMMANDS
            .iter()
            .filter(|(word, _)| word.starts_with(head) && word.len() > 1)
            .map(|(word, _)| Pair {
                display: (*word).to_string(),
                replacement: format!("{word} "),
            })
            .collect();
        Ok((0, found))
    }
}

impl Hinter for PlayHelper {
    type Hint = String;
}
impl Highlighter for PlayHelper {}
impl Validator for PlayHelper {}
impl Helper for PlayHelper {}

/// What the session remembers between lines.
struct Session {
    /// The oracle `--classic` chose for this session; `None`: the campaign's.
    oracle: Option<OracleSystem>,
    genre: String,
}

/// Whether the session goes on.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Go,
    Quit,
}

/// `solum play`.
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut campaign = campaign::open(&args.campaign)?;
    // Check the default genre now rather than at the first `idea`.
    ideas::genre_name(&args.genre).map_err(|e| bad(format!("--genre: {e}")))?;
    let mut session = Session {
        oracle: args.classic.then_some(OracleSystem::Classic),
        genre: args.genre.clone(),
    };
    let interactive = std::io::stdin().is_terminal();
    if !interactive {
        return run_piped(&mut session, &mut campaign, out);
    }
    let mut editor: Editor<PlayHelper, FileHistory> = Editor::new()?;
    editor.set_helper(Some(PlayHelper));
    // History only for a person at a terminal: a piped script is not something to recall.
    let history = history_path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    writeln!(
        out,
        "solum play: the solo companion. `help` lists the commands, `quit` leaves."
    )?;
    loop {
        let line = match editor.readline("solum> ") {
            Ok(line) => line,
            // Ctrl-C drops the line being typed; Ctrl-D leaves.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let _ = editor.add_history_entry(line);
        match session.run_line(&mut campaign, line, out) {
            Ok(Flow::Go) => {}
            Ok(Flow::Quit) => break,
            Err(e) => report(out, &e)?,
        }
        out.flush()?;
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(())
}

fn report(out: &mut dyn Write, e: &anyhow::Error) -> anyhow::Result<()> {
    out.flush()?;
    crate::say!("{}: {e:#}\n", render::error_label());
    Ok(())
}

/// A script piped to standard input: read through the bounded line reader (4096 bytes a
/// line, 1 MiB in all), every line run as if typed; the session goes on after a bad line,
/// and ends with exit 2 naming how many lines failed, so a script can tell.
fn run_piped(
    session: &mut Session,
    campaign: &mut Campaign<SqliteStore>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut lines = solum_play::storage::Lines::new(stdin.lock());
    let (mut ran, mut failed) = (0_usize, Vec::new());
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => return Err(bad(format!("standard input: {e}"))),
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        ran += 1;
        match session.run_line(campaign, line, out) {
            Ok(Flow::Go) => {}
            Ok(Flow::Quit) => break,
            Err(e) => {
                report(out, &e)?;
                failed.push(ran);
            }
        }
        out.flush()?;
    }
    if failed.is_empty() {
        Ok(())
    } else {
        let which: Vec<String> = failed.iter().map(usize::to_string).collect();
        Err(bad(format!(
            "{} of {ran} commands failed (commands {}); the others were journaled",
            failed.len(),
            which.join(", ")
        )))
    }
}

/// `history.txt` beside the default campaign, in the user's data folder.
fn history_path() -> Option<PathBuf> {
    let dir = solum_app::default_campaign_path()?.parent()?.to_path_buf();
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history.txt"))
}

impl Session {
    /// Runs one line: a command word and its rest.
    fn run_line(
        &mut self,
        campaign: &mut Campaign<SqliteStore>,
        line: &str,
        out: &mut dyn Write,
    ) -> anyhow::Result<Flow> {
        let (word, rest) = split_word(line);
        match word {
            "ask" | "?" => self.ask(campaign, rest, Leaning::Even, out)?,
            "ask+" | "?+" => self.ask(campaign, rest, Leaning::Advantage, out)?,
            "ask-" | "?-" => self.ask(campaign, rest, Leaning::Disadvantage, out)?,
            "oracle" => {
                // Setting it changes the campaign's setting, as `solum oracle` does.
                if !rest.is_empty() {
                    campaign.set_oracle_system(OracleSystem::parse(rest)?)?;
                    self.oracle = None;
                }
                let system = match self.oracle {
                    Some(s) => s,
                    None => campaign.oracle_system()?,
                };
                campaign::write_oracle_system(out, system)?;
            }
            "note" => {
                let entry = campaign.note(rest)?;
                campaign::write_entries(out, &[entry], false)?;
            }
            "scene" => {
                let (title, goal) = match rest.split_once('|') {
                    Some((t, g)) => (t, Some(g)),
                    None => (rest, None),
                };
                let entries = campaign.start_scene(title, goal)?;
                campaign::write_entries(out, &entries, false)?;
            }
            "end" => {
                let summary = (!rest.is_empty()).then_some(rest);
                let entry = campaign.end_scene(summary)?;
                campaign::write_entries(out, &[entry], false)?;
            }
            "idea" => {
                let (source, count) = self.idea_args(rest)?;
                let view = campaign.idea(source, count, Dice::Fresh)?;
                campaign::write_idea(out, &view)?;
            }
            "genres" => {
                writeln!(out, "{}", ideas::genres().join(", "))?;
            }
            "difficulty" | "diff" => {
                let task = (!rest.is_empty()).then_some(rest);
                let view = campaign.random_difficulty(task, Dice::Fresh)?;
                campaign::write_difficulty(out, &view)?;
            }
            "journal" => {
                let n = match rest {
                    "" => 10,
                    n => n
                        .parse::<usize>()
                        .map_err(|_| bad(format!("journal \"{n}\": give a number of entries")))?,
                };
                let entries = campaign.entries()?;
                let skip = entries.len().saturating_sub(n);
                campaign::write_entries(out, &entries[skip..], false)?;
            }
            "verify" => {
                let report = campaign.verify()?;
                campaign::write_verify(out, &report)?;
            }
            "char" => match split_word(rest) {
                ("list", "") => {
                    character::write_list(out, &campaign.characters()?)?;
                }
                ("show", name) if !name.is_empty() => {
                    let view = campaign.character(unquote(name))?;
                    character::write_sheet(out, &view.character)?;
                }
                _ => return Err(bad("char: say `char list` or `char show NAME`")),
            },
            "check" => {
                // The one-shot command's own definition parses the line: the same flags, the
                // same refusals.
                let typed = words(rest)?;
                // The session's campaign is the one used ($SOLUM_CAMPAIGN fills the flag in
                // any case, so only a typed one is refused).
                if typed.iter().any(|w| w.starts_with("--campaign")) {
                    return Err(bad("check: --campaign: the session's campaign is used"));
                }
                let mut argv = vec!["solum".to_owned(), "check".to_owned()];
                argv.extend(typed);
                let cli = crate::Cli::try_parse_from(argv).map_err(|e| {
                    let text = e.render().to_string();
                    bad(text
                        .lines()
                        .next()
                        .unwrap_or("check: bad arguments")
                        .to_owned())
                })?;
                let crate::cli::Command::Check(args) = cli.command else {
                    unreachable!("parsed as `solum check`")
                };
                if args.pool.character.is_none() {
                    return Err(bad(
                        "check: in a session, roll from a character: check --char NAME --attr ATTR …",
                    ));
                }
                check::from_sheet(&args, Some(campaign), out)?;
            }
            "help" | "h" => {
                for (_, text) in COMMANDS.iter().filter(|(_, t)| !t.is_empty()) {
                    writeln!(out, "  {text}")?;
                }
            }
            "quit" | "exit" | "q" => return Ok(Flow::Quit),
            other => {
                return Err(bad(format!("unknown command \"{}\" (type `help`)", other)));
            }
        }
        Ok(Flow::Go)
    }

    fn ask(
        &self,
        campaign: &mut Campaign<SqliteStore>,
        question: &str,
        leaning: Leaning,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let view = campaign.ask_oracle(question, leaning, Dice::Fresh, self.oracle)?;
        campaign::write_oracle(out, &view)
    }

    /// `idea [GENRE | @FILE] [N]`.
    fn idea_args(&self, rest: &str) -> anyhow::Result<(IdeaSource, u32)> {
        let mut words: Vec<&str> = rest.split_whitespace().collect();
        let mut count = 3;
        if let Some(last) = words.last()
            && last.chars().all(|c| c.is_ascii_digit())
        {
            count = last
                .parse()
                .map_err(|_| bad(format!("idea: {last} words is too many")))?;
            words.pop();
        }
        let name = words.join(" ");
        let source = match name.strip_prefix('@') {
            Some(path) => campaign::list_source(std::path::Path::new(path))?,
            None if name.is_empty() => IdeaSource::Genre(self.genre.clone()),
            None => IdeaSource::Genre(name),
        };
        Ok((source, count))
    }
}

/// A name as typed, without the quotes around it if any.
fn unquote(text: &str) -> &str {
    let t = text.trim();
    for q in ['"', '\''] {
        if let Some(inner) = t.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner;
        }
    }
    t
}

/// The words of a line as a shell would split them for the simple cases: whitespace
/// separates, and "double" or 'single' quotes keep spaces inside one word.
fn words(line: &str) -> anyhow::Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for ch in line.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '"' | '\'') => {
                quote = Some(ch);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    if quote.is_some() {
        return Err(bad("a quote is not closed"));
    }
    words.extend(word);
    Ok(words)
}

/// The first word of a line and the rest, trimmed. `?` needs no space: `?Is it dark?`.
fn split_word(line: &str) -> (&str, &str) {
    for short in ["?+", "?-", "?"] {
        if let Some(rest) = line.strip_prefix(short)
            && !rest.starts_with(['+', '-'])
        {
            return (short, rest.trim());
        }
    }
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_a_command_word_and_its_rest() {
        assert_eq!(split_word("ask  Is it dark? "), ("ask", "Is it dark?"));
        assert_eq!(split_word("?Is it dark?"), ("?", "Is it dark?"));
        assert_eq!(split_word("?+ Is it dark?"), ("?+", "Is it dark?"));
        assert_eq!(split_word("?- x"), ("?-", "x"));
        assert_eq!(split_word("verify"), ("verify", ""));
    }

    #[test]
    fn words_split_like_a_shell_keeping_quoted_spaces() {
        assert_eq!(
            words(r#"--char "Nick the Bold" --attr body -b 'Acrobat Thief' --vs 5"#).unwrap(),
            [
                "--char",
                "Nick the Bold",
                "--attr",
                "body",
                "-b",
                "Acrobat Thief",
                "--vs",
                "5"
            ]
        );
        assert_eq!(words("  a   b ").unwrap(), ["a", "b"]);
        assert_eq!(words(r#"x """#).unwrap(), ["x", ""]);
        assert!(words(r#"--char "Nick"#).is_err());
        assert_eq!(unquote(" \"Nick the Bold\" "), "Nick the Bold");
        assert_eq!(unquote("Nick"), "Nick");
    }

    #[test]
    fn tab_completes_command_words_at_the_start_only() {
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        let words = |line: &str| {
            let (start, found) = PlayHelper.complete(line, line.len(), &ctx).unwrap();
            (
                start,
                found.into_iter().map(|p| p.replacement).collect::<Vec<_>>(),
            )
        };
        assert_eq!(words("ve"), (0, vec!["verify ".to_string()]));
        assert_eq!(
            words("as"),
            (0, ["ask ", "ask+ ", "ask- "].map(String::from).to_vec())
        );
        assert_eq!(words("d"), (0, vec!["difficulty ".to_string()]));
        assert_eq!(words("note ve"), (7, vec![]));
    }

    #[test]
    fn idea_takes_a_genre_a_file_and_a_count() {
        let s = Session {
            oracle: None,
            genre: "horror".into(),
        };
        let (src, n) = s.idea_args("").unwrap();
        assert_eq!((src, n), (IdeaSource::Genre("horror".into()), 3));
        let (src, n) = s.idea_args("science fiction 5").unwrap();
        assert_eq!((src, n), (IdeaSource::Genre("science fiction".into()), 5));
        assert!(s.idea_args("@/no/such/file.txt").is_err());
    }
}
