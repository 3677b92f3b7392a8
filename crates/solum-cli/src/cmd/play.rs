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
use solum_app::Leaning;
use solum_app::groups::Groups;
use solum_app::ideas::IdeaCount;
use solum_app::{Dice, IdeaSource, OracleSystem, ideas};

use crate::bad;
use crate::cli_campaign::{CampaignArg, PlayArgs};
use crate::cmd::{campaign, check};
use crate::render;

/// The command words, for completion and `help`.
const COMMANDS: &[(&str, &str)] = &[
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
    (
        "roll-off",
        "roll-off [on|off]  the campaign's roll-off option for opposed rolls (shows it without a word)",
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
        "char new|show|list|edit|advance|grant|rest|import|export …   as `solum char …` (show: char show NAME)",
    ),
    (
        "check",
        "check --char NAME --attr ATTR [--background BG] (--vs D | --against N) …   a check from a sheet (as `solum check`)",
    ),
    (
        "combat",
        "combat start [--name N] [--roll-off] | combat status | combat end   the campaign's fight (as `solum combat …`)",
    ),
    (
        "do",
        "do LINE            one line of the fight: `do hero Nick`, `do foe orc`, `do melee orc with 5,4,3,2` (also `fight LINE`)",
    ),
    ("fight", ""),
    (
        "status",
        "status             the open fight: order, whose turn, hit points",
    ),
    (
        "static",
        "static --char NAME (--foe F | --vs D --foe-hp N --foe-damage N) [--background BG] [--rolled …]   fast static combat from a sheet; `static --char NAME` goes on, `--abandon` leaves",
    ),
    (
        "creature",
        "creature list | show NAME | add FILE | remove NAME   the campaign's creatures",
    ),
    (
        "sol",
        "sol new|show|list|test|session|encounter|reward|spend|train …   Project Sol (as `solum sol …`)",
    ),
    (
        "classic",
        "classic new|show|list|edit|check|fight|rest|oracle|bestiary …   the original So1um (as `solum classic …`; a fight under way: `classic fight NAME --rolled 6,6,1` or `--seed S`, `--decide body|hp`, `--abandon`, `--status`)",
    ),
    (
        "dietype",
        "dietype new|show|list|edit|import|export …   Solum die types (as `solum dietype …`)",
    ),
    (
        "soluna",
        "soluna new|show|list|skirmish|import|export …   Sol'una (as `solum soluna …`)",
    ),
    ("help", "help               this list"),
    ("quit", "quit               leave (also `exit`, or Ctrl-D)"),
    ("exit", ""),
    ("?", ""),
];

/// How dice rolled by hand are typed, after the list of commands.
const DICE_HELP: &str = "Dice rolled by hand: end an ask, idea or difficulty line with `--rolled 4,5,4` (or `--seed S` to replay a roll); char, check, sol, classic, dietype and soluna lines take the same flags as their one-shot commands (`classic check Al --vs 4 --rolled 5,2`, `classic fight Al troll --seed 7`); a fight line types its dice with `with 5,4,3,2`. `char new --help` (any such command) shows its flags.";

/// The subcommands completed after a command word.
const SUBCOMMANDS: [(&str, &[&str]); 7] = [
    (
        "char",
        &[
            "new", "show", "list", "edit", "advance", "grant", "rest", "import", "export",
        ],
    ),
    ("combat", &["start", "status", "end", "do"]),
    ("creature", &["list", "show", "add", "remove"]),
    (
        "sol",
        &[
            "new",
            "show",
            "list",
            "test",
            "session",
            "encounter",
            "reward",
            "spend",
            "train",
            "import",
            "export",
        ],
    ),
    (
        "classic",
        &[
            "new", "show", "list", "import", "export", "bestiary", "check", "oracle", "fight",
            "rest", "edit",
        ],
    ),
    (
        "dietype",
        &["new", "show", "list", "import", "export", "edit"],
    ),
    (
        "soluna",
        &["new", "show", "list", "import", "export", "skirmish"],
    ),
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
        if let Some((first, second)) = head.split_once(' ') {
            if !SUBCOMMANDS.iter().any(|(word, _)| *word == first) {
                return Ok((pos, Vec::new()));
            }
            // The second word of `char`, `combat`, `creature` and `sol`.
            let found = SUBCOMMANDS
                .iter()
                .filter(|(word, _)| *word == first)
                .flat_map(|(_, subs)| subs.iter())
                .filter(|sub| !second.contains(' ') && sub.starts_with(second))
                .map(|sub| Pair {
                    display: (*sub).to_string(),
                    replacement: format!("{sub} "),
                })
                .collect();
            return Ok((first.len() + 1, found));
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
    /// The campaign file, for the lines run by the one-shot commands' own code.
    path: PathBuf,
    /// A person at a terminal: a command may ask for what its flags leave out. A piped
    /// script's standard input is the script itself, so nothing may read from it.
    interactive: bool,
    /// What this session's `verify` lines have read.
    verified: VerifyBudget,
}

/// The journal entries the `verify` lines of one session may read together. Each reads the
/// whole journal, so a script of `verify` lines (150,000 fit in a 1 MiB script) over a large
/// campaign would run for a day; this bounds it at a few seconds of work, whatever the
/// script's length.
const MAX_VERIFY_READS: usize = 2_000_000;

/// The entries a `journal` line shows without a count.
const LAST_ENTRIES: u32 = 10;

/// What the `verify` lines of a session have read, against [`MAX_VERIFY_READS`].
#[derive(Debug, Default)]
struct VerifyBudget {
    read: usize,
}

impl VerifyBudget {
    /// Refuses one more `verify` once the session's have read [`MAX_VERIFY_READS`] entries.
    fn admit(&self) -> anyhow::Result<()> {
        if self.read >= MAX_VERIFY_READS {
            return Err(bad(format!(
                "verify: this session's verify lines have read {} journal entries, at most \
                 {MAX_VERIFY_READS}; run `solum journal verify` on its own",
                self.read
            )));
        }
        Ok(())
    }

    fn spend(&mut self, entries: usize) {
        self.read = self.read.saturating_add(entries);
    }
}

/// Whether the session goes on.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Go,
    Quit,
}

/// `solum play`.
pub fn run(args: &PlayArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let path = campaign::campaign_path(&args.campaign)?;
    let mut campaign = campaign::held(&CampaignArg {
        campaign: Some(path.clone()),
        database: None,
    })?;
    // Check the default genre now rather than at the first `idea`.
    ideas::genre_name(&args.genre).map_err(|e| bad(format!("--genre: {e}")))?;
    let interactive = std::io::stdin().is_terminal();
    let mut session = Session {
        oracle: args.classic.then_some(OracleSystem::Classic),
        genre: args.genre.clone(),
        path,
        interactive,
        verified: VerifyBudget::default(),
    };
    if !interactive {
        return run_piped(&mut session, &mut campaign, out);
    }
    let mut editor: Editor<PlayHelper, FileHistory> = Editor::new()?;
    editor.set_helper(Some(PlayHelper));
    // History only for a person at a terminal: a piped script is not something to recall.
    // rustyline reads and writes the file itself: only a regular, writable file (or none
    // yet) is used, never a link or a pipe, as the safe writer would refuse them.
    let history = history_path()
        .filter(|p| crate::storage::check_target(p, crate::storage::Replace::Allowed).is_ok());
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
    campaign: &mut campaign::Here,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut lines = crate::storage::Lines::new(stdin.lock());
    let (mut ran, mut failed) = (0_usize, Vec::new());
    // Lines are committed in groups (solum_app::groups): one disk sync per group, not per
    // line; a line that writes through the one-shot commands' own connection commits the
    // group first and is committed on its own.
    let mut groups = Groups::new();
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                groups.commit(campaign)?;
                return Err(bad(format!("standard input: {e}")));
            }
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        ran += 1;
        let own = !uses_another_connection(split_word(line).0);
        if own {
            groups.before_line(campaign)?;
        } else {
            groups.commit(campaign)?;
        }
        let flow = session.run_line(campaign, line, out);
        if own {
            groups.after_line(campaign)?;
        }
        match flow {
            Ok(Flow::Go) => {}
            Ok(Flow::Quit) => break,
            Err(e) => {
                report(out, &e)?;
                failed.push(ran);
            }
        }
        out.flush()?;
    }
    groups.commit(campaign)?;
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

/// Lines run by the one-shot commands' code, which opens the campaign on its own
/// connection.
fn uses_another_connection(word: &str) -> bool {
    matches!(
        word,
        "char"
            | "combat"
            | "creature"
            | "sol"
            | "do"
            | "fight"
            | "status"
            | "classic"
            | "dietype"
            | "soluna"
    )
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
        campaign: &mut campaign::Here,
        line: &str,
        out: &mut dyn Write,
    ) -> anyhow::Result<Flow> {
        let (word, rest) = split_word(line);
        match word {
            "ask" | "?" => self.ask(campaign, rest, Leaning::Even, out)?,
            "ask+" | "?+" => self.ask(campaign, rest, Leaning::Advantage, out)?,
            "ask-" | "?-" => self.ask(campaign, rest, Leaning::Disadvantage, out)?,
            "char" | "combat" | "creature" | "sol" | "classic" | "dietype" | "soluna" => {
                self.command_line(word, rest, out)?;
            }
            "do" | "fight" => self.fight_line(word, rest, out)?,
            "status" => self.one_shot(vec!["combat".into(), "status".into()], out)?,
            "roll-off" => roll_off_line(campaign, rest, out)?,
            "static" => static_line(campaign, rest, out)?,
            "oracle" => self.oracle_line(campaign, rest, out)?,
            "note" | "scene" | "end" => story_line(campaign, word, rest, out)?,
            "idea" => {
                let (rest, dice) = take_dice(rest)?;
                let (source, count) = self.idea_args(rest)?;
                let view = campaign.idea(source, count, dice)?;
                campaign::write_idea(out, &view)?;
            }
            "genres" => {
                writeln!(out, "{}", ideas::genres().join(", "))?;
            }
            "difficulty" | "diff" => {
                let (rest, dice) = take_dice(rest)?;
                let task = (!rest.is_empty()).then_some(rest);
                let view = campaign.random_difficulty(task, dice)?;
                campaign::write_difficulty(out, &view)?;
            }
            "journal" => journal_line(campaign, rest, out)?,
            "verify" => {
                self.verified.admit()?;
                let report = campaign.verify()?;
                self.verified.spend(report.entries);
                campaign::write_verify(out, &report)?;
            }
            "check" => check_line(campaign, rest, out)?,
            "help" | "h" => write_help(out)?,
            "quit" | "exit" | "q" => return Ok(Flow::Quit),
            other => {
                return Err(bad(format!("unknown command \"{}\" (type `help`)", other)));
            }
        }
        Ok(Flow::Go)
    }

    /// A line of a one-shot command (`char …`, `combat …`, `sol …`, …), run as that command.
    fn command_line(&self, word: &str, rest: &str, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut argv = vec![word.to_owned()];
        match split_word(rest) {
            // `char show Nick the Bold`: a name of several words needs no quotes.
            ("show", name) if !name.is_empty() && !name.contains("--") => {
                argv.extend(["show".to_owned(), unquote(name).to_owned()]);
            }
            _ => argv.extend(words(rest)?),
        }
        self.one_shot(argv, out)
    }

    /// A `do` or `fight` line: the rest is one line of the fight's language, kept whole;
    /// `--seed S` at its end is the one-shot command's flag.
    fn fight_line(&self, word: &str, rest: &str, out: &mut dyn Write) -> anyhow::Result<()> {
        let (line, dice) = take_dice(rest)?;
        let mut argv = vec!["combat".to_owned(), "do".to_owned(), line.to_owned()];
        match dice {
            Dice::Fresh => {}
            Dice::Seed(seed) => argv.extend(["--seed".to_owned(), seed.to_string()]),
            Dice::Typed(_) => {
                return Err(bad(format!(
                    "{word}: type a fight line's dice with `with 5,4,3,2`, not --rolled"
                )));
            }
        }
        self.one_shot(argv, out)
    }

    /// An `oracle` line: with a name, sets the campaign's oracle (as `solum oracle` does);
    /// then shows the one this session asks.
    fn oracle_line(
        &mut self,
        campaign: &mut campaign::Here,
        rest: &str,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        if !rest.is_empty() {
            campaign.set_oracle_system(OracleSystem::parse(rest)?)?;
            self.oracle = None;
        }
        let system = match self.oracle {
            Some(s) => s,
            None => campaign.oracle_system()?,
        };
        campaign::write_oracle_system(out, system)
    }

    fn ask(
        &self,
        campaign: &mut campaign::Here,
        rest: &str,
        leaning: Leaning,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let (question, dice) = take_dice(rest)?;
        let view = campaign.ask_oracle(question, leaning, dice, self.oracle)?;
        campaign::write_oracle(out, &view)
    }

    /// Runs a line as its one-shot command: parsed by the same clap definition (the same
    /// flags, the same refusals, `--help`), run by the same code on the session's campaign,
    /// so it journals exactly as `solum char …`, `solum combat …` or `solum sol …` does.
    fn one_shot(&self, typed: Vec<String>, out: &mut dyn Write) -> anyhow::Result<()> {
        let what = typed[0].clone();
        if typed.iter().any(|w| w.starts_with("--campaign")) {
            return Err(bad(format!(
                "{what}: --campaign: the session's campaign is used"
            )));
        }
        // The campaign goes before the command (the global flag), so a `--` typed in the
        // line cannot turn it into a positional word.
        let mut argv: Vec<std::ffi::OsString> = vec![
            "solum".into(),
            "--campaign".into(),
            self.path.clone().into_os_string(),
        ];
        argv.extend(typed.into_iter().map(Into::into));
        let cli = match crate::Cli::try_parse_from(argv) {
            Ok(cli) => cli,
            // `--help` and a bare group (`char`) show clap's text in the session.
            Err(e)
                if e.exit_code() == 0
                    || e.kind()
                        == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
            {
                write!(out, "{}", e.render())?;
                return Ok(());
            }
            Err(e) => return Err(clap_error(&e, &what)),
        };
        use crate::cli::{CharCommand, Command};
        match &cli.command {
            // A script is the session's standard input: nothing may prompt on it.
            Command::Character(CharCommand::New(a))
                if !self.interactive
                    && (a.name.is_none()
                        || a.body.is_none()
                        || a.mind.is_none()
                        || a.charm.is_none()
                        || a.backgrounds.is_empty()
                        || a.weapon.is_none()) =>
            {
                return Err(bad(
                    "char new: in a script, give every choice: char new NAME --body B --mind M --charm C --background BG --weapon W",
                ));
            }
            // A script cannot answer the fight's questions: hits are answered with --decide.
            Command::Classic(crate::cli::ClassicCommand::Fight(a))
                if a.ask && !self.interactive =>
            {
                return Err(bad(
                    "classic fight --ask: in a script, answer a hit with `classic fight NAME --decide body|hp`, or give a --policy",
                ));
            }
            // Without a subcommand `solum combat` reads a script from standard input.
            Command::Combat(a) if a.action.is_none() => {
                return Err(bad(
                    "combat: say `combat start`, `combat status`, `combat end`, or `do LINE`",
                ));
            }
            _ => {}
        }
        crate::cmd::run(cli, out)
    }

    /// `idea [GENRE | @FILE] [N]`.
    fn idea_args(&self, rest: &str) -> anyhow::Result<(IdeaSource, IdeaCount)> {
        let mut words: Vec<&str> = rest.split_whitespace().collect();
        let mut count = IdeaCount::new(3).expect("three words is a draw");
        if let Some(last) = words.last()
            && last.chars().all(|c| c.is_ascii_digit())
        {
            count = last
                .parse()
                .map_err(|e| bad(format!("idea: `{last}`: {e}")))?;
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

/// A clap error as one line naming the command (clap's own first line, without its
/// `error:` label, which the session's report adds).
/// A session line that is a one-shot command (`check`, `static`), parsed by the command's
/// own definition (the same flags, the same refusals). The session's campaign is the one
/// used ($SOLUM_CAMPAIGN fills the flag in any case, so only a typed one is refused).
fn as_command(name: &str, rest: &str) -> anyhow::Result<crate::cli::Command> {
    let typed = words(rest)?;
    if typed.iter().any(|w| w.starts_with("--campaign")) {
        return Err(bad(format!(
            "{name}: --campaign: the session's campaign is used"
        )));
    }
    let mut argv = vec!["solum".to_owned(), name.to_owned()];
    argv.extend(typed);
    let cli = crate::Cli::try_parse_from(argv).map_err(|e| clap_error(&e, name))?;
    Ok(cli.command)
}

fn clap_error(e: &clap::Error, what: &str) -> anyhow::Error {
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("bad arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    bad(format!("{what}: {first}"))
}

/// Dice typed at the end of an `ask`, `idea`, `difficulty` or `do` line: `--rolled FACES`
/// (faces joined by commas) or `--seed S`, the one-shot commands' flags, with their
/// validation. Returns the line without them.
fn take_dice(rest: &str) -> anyhow::Result<(&str, Dice)> {
    let mut text = rest.trim();
    let (mut seed, mut rolled): (Option<&str>, Option<&str>) = (None, None);
    loop {
        let (head, last) = match text.rsplit_once(char::is_whitespace) {
            Some((h, l)) => (h.trim_end(), l),
            None => ("", text),
        };
        if let Some(v) = last.strip_prefix("--rolled=") {
            (rolled, text) = (Some(v), head);
            continue;
        }
        if let Some(v) = last.strip_prefix("--seed=") {
            (seed, text) = (Some(v), head);
            continue;
        }
        let (before, flag) = match head.rsplit_once(char::is_whitespace) {
            Some((b, f)) => (b.trim_end(), f),
            None => ("", head),
        };
        match flag {
            "--rolled" if rolled.is_none() && !last.is_empty() => {
                (rolled, text) = (Some(last), before)
            }
            "--seed" if seed.is_none() && !last.is_empty() => (seed, text) = (Some(last), before),
            _ => break,
        }
    }
    // A flag left in the middle (`--rolled 4 5`, a flag twice) would become part of the
    // question: refused rather than journaled.
    if text
        .split_whitespace()
        .any(|w| w.starts_with("--rolled") || w.starts_with("--seed"))
    {
        return Err(bad(
            "--rolled FACES and --seed S go once each at the end of the line, faces joined by commas: `ask Is it dark? --rolled 4,5,4`",
        ));
    }
    if seed.is_some() && rolled.is_some() {
        return Err(bad("--seed and --rolled: give one or the other"));
    }
    let seed = seed
        .map(|s| {
            s.parse::<u64>()
                .map_err(|_| bad(format!("--seed {s}: a whole number from 0 to {}", u64::MAX)))
        })
        .transpose()?;
    Ok((text, campaign::dice(seed, rolled)?))
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

/// A `roll-off` line: with `on` or `off`, sets the campaign's option; then shows it.
fn roll_off_line(
    campaign: &mut campaign::Here,
    rest: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let setting = (!rest.is_empty())
        .then(|| rest.parse())
        .transpose()
        .map_err(|e| bad(format!("roll-off: {e}")))?;
    let setting = campaign::roll_off_set(campaign, setting)?;
    campaign::write_roll_off(out, setting, false)
}

/// A `static` line: fast static combat (S11) in a session is a campaign character's, the
/// one-shot command's flags run on the session's campaign.
fn static_line(
    campaign: &mut campaign::Here,
    rest: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let crate::cli::Command::Static(args) = as_command("static", rest)? else {
        unreachable!("parsed as `solum static`")
    };
    let Some(name) = args.character.clone() else {
        return Err(bad(
            "static: in a session, fight with a character: static --char NAME --foe F …",
        ));
    };
    super::odds::static_from_sheet(&args, &name, Some(campaign), out)
}

/// A `note`, `scene TITLE[|GOAL]` or `end [SUMMARY]` line: the story's entries.
fn story_line(
    campaign: &mut campaign::Here,
    word: &str,
    rest: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let entries = match word {
        "note" => vec![campaign.note(rest)?],
        "scene" => {
            let (title, goal) = match rest.split_once('|') {
                Some((t, g)) => (t, Some(g)),
                None => (rest, None),
            };
            campaign.start_scene(title, goal)?
        }
        _ => {
            let summary = (!rest.is_empty()).then_some(rest);
            vec![campaign.end_scene(summary)?]
        }
    };
    campaign::write_entries(out, &entries, false)
}

/// A `journal [N]` line: the last N entries ([`LAST_ENTRIES`] without a count).
fn journal_line(
    campaign: &mut campaign::Here,
    rest: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let n = match rest {
        "" => solum_app::LastEntries::new(LAST_ENTRIES)?,
        n => n
            .parse::<solum_app::LastEntries>()
            .map_err(|e| bad(format!("journal \"{n}\": {e}")))?,
    };
    let entries = campaign.last_entries(n)?;
    campaign::write_entries(out, &entries, false)
}

/// A `check` line: the one-shot command's own definition parses it (the same flags, the
/// same refusals), rolled from a character of the session's campaign.
fn check_line(
    campaign: &mut campaign::Here,
    rest: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let crate::cli::Command::Check(args) = as_command("check", rest)? else {
        unreachable!("parsed as `solum check`")
    };
    if args.pool.character.is_none() {
        return Err(bad(
            "check: in a session, roll from a character: check --char NAME --attr ATTR …",
        ));
    }
    check::from_sheet(&args, Some(campaign), out)
}

/// The `help` line: every command, then how dice are typed.
fn write_help(out: &mut dyn Write) -> anyhow::Result<()> {
    for (_, text) in COMMANDS.iter().filter(|(_, t)| !t.is_empty()) {
        writeln!(out, "  {text}")?;
    }
    writeln!(out, "{DICE_HELP}")?;
    Ok(())
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
        assert_eq!(
            words("d"),
            (
                0,
                ["difficulty ", "do ", "dietype "]
                    .map(String::from)
                    .to_vec()
            )
        );
        // The sibling systems' words and their subcommands.
        assert_eq!(words("cla"), (0, vec!["classic ".to_string()]));
        assert_eq!(words("classic f"), (8, vec!["fight ".to_string()]));
        assert_eq!(words("soluna sk"), (7, vec!["skirmish ".to_string()]));
        assert_eq!(words("note ve"), (7, vec![]));
        // The second word of a command with subcommands.
        assert_eq!(words("char ad"), (5, vec!["advance ".to_string()]));
        assert_eq!(
            words("combat s"),
            (7, ["start ", "status "].map(String::from).to_vec())
        );
        assert_eq!(words("char advance Ni"), (5, vec![]));
    }

    #[test]
    fn dice_typed_at_the_end_of_a_line_are_taken_off_it() {
        let typed = |line: &str| match take_dice(line) {
            Ok((rest, Dice::Typed(f))) => (rest.to_owned(), format!("typed {f:?}")),
            Ok((rest, Dice::Seed(s))) => (rest.to_owned(), format!("seed {s}")),
            Ok((rest, Dice::Fresh)) => (rest.to_owned(), "fresh".to_owned()),
            Err(e) => ("".to_owned(), format!("error {e}")),
        };
        assert_eq!(
            typed("Are guards present? --rolled 4,5,4"),
            ("Are guards present?".into(), "typed [4, 5, 4]".into())
        );
        assert_eq!(
            typed("Are guards present? --seed 7"),
            ("Are guards present?".into(), "seed 7".into())
        );
        assert_eq!(
            typed("horror 2 --rolled=3,9"),
            ("horror 2".into(), "typed [3, 9]".into())
        );
        assert_eq!(typed("Is it dark?"), ("Is it dark?".into(), "fresh".into()));
        assert_eq!(typed("--rolled 4"), ("".into(), "typed [4]".into()));
        assert!(
            typed("Q? --rolled 4 5")
                .1
                .starts_with("error --rolled FACES")
        );
        assert!(
            typed("Q? --seed 1 --rolled 4")
                .1
                .contains("one or the other")
        );
        assert!(typed("Q? --seed x").1.contains("--seed x"));
        assert!(typed("Q? --rolled x").1.starts_with("error --rolled:"));
    }

    #[test]
    fn verify_lines_of_a_session_read_a_bounded_journal_in_all() {
        let mut b = VerifyBudget::default();
        b.admit().unwrap();
        b.spend(MAX_VERIFY_READS - 1);
        b.admit().unwrap();
        b.spend(1);
        let e = b.admit().unwrap_err().to_string();
        assert!(e.contains("have read 2000000 journal entries"), "{e}");
        b.spend(usize::MAX);
        assert!(b.admit().is_err());
    }

    #[test]
    fn idea_takes_a_genre_a_file_and_a_count() {
        let s = Session {
            oracle: None,
            genre: "horror".into(),
            path: PathBuf::new(),
            interactive: false,
            verified: VerifyBudget::default(),
        };
        let (src, n) = s.idea_args("").unwrap();
        assert_eq!((src, n.get()), (IdeaSource::Genre("horror".into()), 3));
        let (src, n) = s.idea_args("science fiction 5").unwrap();
        assert_eq!(
            (src, n.get()),
            (IdeaSource::Genre("science fiction".into()), 5)
        );
        assert!(s.idea_args("@/no/such/file.txt").is_err());
        // A count is read by its type, in its words.
        let e = s.idea_args("fantasy 21").unwrap_err().to_string();
        assert_eq!(e, "idea: `21`: an idea draws 1 to 20 words");
    }
}
