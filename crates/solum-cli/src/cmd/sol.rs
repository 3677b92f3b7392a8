//! `solum odds sol`, `solum roll sol`, `solum sol …`: Project Sol.

use std::io::{IsTerminal, Write};
use std::path::Path;

use solum_app::fields::SolField;
use solum_app::shorthand::{Pair, tuples};
use solum_app::sol::{Assist, Opposition, SolChangeView, SolEdge, SolSheetView};
use solum_app::sol_once::{
    BoughtView, EdgeOnTest, Field, GroupView, ModifierNote, ModifierRule, OpposedOutcome, Progress,
    Sheet, SolOddsAsk, SolOnceError, SolRollAsk, SolRollView, SolTestView, SolThreshold,
    TestOutcome, TryAgainView, roll_sol, sol_odds, typed_faces,
};
use solum_app::{AppError, Dice, NewSol, SolTest};

use super::campaign::{in_campaign, on_campaign};
use crate::bad;
use crate::cli::{
    DiceArgs, EdgeUse, SolCommand, SolOddsArgs, SolRollArgs, SolTestArgs, SpendUse, Then,
};
use crate::cli_campaign::CampaignArg;
use crate::render::{self, BAD, DIM, EVEN, GOOD, HEAD, paint, percent_exact};

fn edge_on_test(e: Option<EdgeUse>) -> Option<EdgeOnTest> {
    e.map(|e| match e {
        EdgeUse::PushTheLimit => EdgeOnTest::PushTheLimit,
        EdgeUse::SecondChance => EdgeOnTest::SecondChance,
        EdgeUse::CloseCall => EdgeOnTest::CloseCall,
        EdgeUse::Smackdown => EdgeOnTest::Smackdown,
    })
}

fn then_edge(t: Option<Then>) -> Option<EdgeOnTest> {
    match t? {
        Then::SecondChance => Some(EdgeOnTest::SecondChance),
        Then::CloseCall => Some(EdgeOnTest::CloseCall),
        Then::None => None,
    }
}

fn edge_words(e: Option<EdgeOnTest>) -> &'static str {
    match e {
        Some(EdgeOnTest::PushTheLimit) => ", pushing the limit",
        Some(EdgeOnTest::SecondChance) => ", with a second chance",
        Some(EdgeOnTest::CloseCall) => ", with a close call",
        Some(EdgeOnTest::Smackdown) => ", Smackdown",
        None => "",
    }
}

/// A glitch or critical glitch as words after a test's hits (empty without one).
fn glitch_words(t: &TestOutcome) -> String {
    if t.critical_glitch {
        format!("  {}", paint(BAD, "CRITICAL GLITCH"))
    } else if t.glitch {
        format!("  {}", paint(EVEN, "GLITCH"))
    } else {
        String::new()
    }
}

/// The modifier asked for and the one applied, and the rules between them, in words.
fn modifier_text(note: &ModifierNote) -> String {
    let why: Vec<String> = note
        .why
        .iter()
        .map(|w| match w {
            ModifierRule::NoBonusAtZeroRanks => "no bonus at 0 ranks".to_owned(),
            ModifierRule::Untrained { penalty } => format!("{penalty:+} untrained"),
            ModifierRule::TryAgain { number, penalty } => {
                format!("{penalty:+} for try again number {number}")
            }
            ModifierRule::CappedAtRanks { ranks } => {
                format!("a bonus is capped at the {ranks} rank(s)")
            }
        })
        .collect();
    format!(
        "asked {:+}; {:+} applied ({})",
        note.asked,
        note.applied,
        why.join(", ")
    )
}

/// The flag of a field of a one-shot roll.
fn flag(field: Field) -> String {
    format!("--{}", field.name().replace('_', "-"))
}

/// A refused one-shot roll, its fields named as flags.
fn once_error(e: SolOnceError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.describe(flag))
    } else {
        anyhow::Error::new(e)
    }
}

/// Whether to ask at the terminal for Edge after the dice: no choice given, no typed dice
/// (their rerolls would have been typed already), text output, a terminal on stdin.
fn interactive(
    then: Option<Then>,
    edge: Option<EdgeUse>,
    rolled: Option<&str>,
    json: bool,
) -> bool {
    then.is_none() && edge.is_none() && rolled.is_none() && !json && std::io::stdin().is_terminal()
}

/// Asks at the terminal whether to spend Second Chance or Close Call on the dice shown.
fn ask_then(t: &TestOutcome) -> std::io::Result<Option<EdgeOnTest>> {
    let faces: Vec<String> = t.dice.iter().map(u32::to_string).collect();
    let stdin = std::io::stdin();
    loop {
        crate::say!(
            "rolled {} = {} hit(s){}{}. Spend Edge? s = Second Chance, c = Close Call, Enter = keep: ",
            faces.join(" "),
            t.hits,
            match t.success {
                Some(true) => ", success",
                Some(false) => ", failure",
                None => "",
            },
            if t.critical_glitch {
                ", CRITICAL GLITCH"
            } else if t.glitch {
                ", glitch"
            } else {
                ""
            }
        );
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut stdin.lock(), &mut line)? == 0 {
            return Ok(None);
        }
        match line.trim().to_ascii_lowercase().as_str() {
            "" | "k" | "keep" | "n" | "no" => return Ok(None),
            "s" | "second chance" => return Ok(Some(EdgeOnTest::SecondChance)),
            "c" | "close call" => return Ok(Some(EdgeOnTest::CloseCall)),
            other => crate::say!("  `{other}`: s, c or Enter\n"),
        }
    }
}

/// A threshold as typed, its flag named.
fn threshold(text: &str) -> anyhow::Result<SolThreshold> {
    solum_app::sol_once::threshold(text).map_err(once_error)
}

pub fn odds(args: &SolOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let edge = if args.push_the_limit {
        Some(EdgeOnTest::PushTheLimit)
    } else if args.second_chance {
        Some(EdgeOnTest::SecondChance)
    } else if args.close_call {
        Some(EdgeOnTest::CloseCall)
    } else if args.smackdown {
        Some(EdgeOnTest::Smackdown)
    } else {
        None
    };
    let v = sol_odds(&SolOddsAsk {
        dice: args.dice,
        threshold: &args.threshold,
        edge,
        against: args.against,
        against_edge: edge_on_test(args.against_edge),
    })
    .map_err(once_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} dice against {} ({}){}: success {}",
        v.dice,
        v.threshold,
        v.threshold_name,
        edge_words(v.edge),
        paint(HEAD, percent_exact(v.p_success, &v.p_success_exact))
    )?;
    writeln!(
        out,
        "  critical success {}   glitch {}   critical glitch {}   mean hits {:.3}",
        percent_exact(v.p_critical_success, &v.p_critical_success_exact),
        percent_exact(v.p_glitch, &v.p_glitch_exact),
        percent_exact(v.p_critical_glitch, &v.p_critical_glitch_exact),
        v.mean_hits
    )?;
    if let Some(p) = &v.opposed {
        writeln!(
            out,
            "  against {} dice{} (the attacker wins ties): {}   critical success {}",
            p.against,
            edge_words(p.against_edge),
            paint(HEAD, percent_exact(p.p_success, &p.p_success_exact)),
            percent_exact(p.p_critical_success, &p.p_critical_success_exact),
        )?;
        writeln!(
            out,
            "  attacker glitch {}   critical glitch {}   defender glitch {}   critical glitch {}   defender wins by 3+ {}",
            percent_exact(p.p_attacker_glitch, &p.p_attacker_glitch_exact),
            percent_exact(
                p.p_attacker_critical_glitch,
                &p.p_attacker_critical_glitch_exact
            ),
            percent_exact(p.p_defender_glitch, &p.p_defender_glitch_exact),
            percent_exact(
                p.p_defender_critical_glitch,
                &p.p_defender_critical_glitch_exact
            ),
            percent_exact(
                p.p_defender_critical_success,
                &p.p_defender_critical_success_exact
            ),
        )?;
    }
    Ok(())
}

fn write_test(out: &mut dyn Write, t: &TestOutcome, seed: Option<u64>) -> std::io::Result<()> {
    let faces: Vec<String> = t.dice.iter().map(u32::to_string).collect();
    if t.dice.is_empty() {
        writeln!(out, "  Smackdown: no roll")?;
    } else {
        writeln!(out, "  dice     {}", faces.join(" "))?;
    }
    for r in &t.rerolls {
        writeln!(
            out,
            "  second chance: die {} {} → {}",
            r.index + 1,
            r.from,
            r.to
        )?;
    }
    let mut line = format!("  hits     {}", t.hits);
    if let Some(s) = t.success {
        line.push_str(&format!(
            "  {}",
            if s {
                paint(GOOD, format!("SUCCESS, {} net", t.net_hits.unwrap_or(0)))
            } else {
                paint(BAD, "FAILURE")
            }
        ));
    }
    if t.critical_success {
        line.push_str(&format!("  {}", paint(GOOD, "CRITICAL SUCCESS")));
    }
    if t.critical_glitch {
        line.push_str(&format!("  {}", paint(BAD, "CRITICAL GLITCH")));
    } else if t.glitch {
        line.push_str(&format!("  {}", paint(EVEN, "GLITCH")));
    }
    writeln!(out, "{line}")?;
    render::write_seed(out, seed)?;
    Ok(())
}

pub fn roll(args: &SolRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ask = SolRollAsk {
        dice: args.dice,
        attribute: args.attribute,
        ranks: args.ranks,
        modifiers: args.modifiers.clone(),
        untrained_penalty: args.untrained_penalty,
        assist: args.assist,
        assist_dice: args.assist_dice,
        threshold: args.threshold.clone(),
        edge: edge_on_test(args.edge),
        buy: args.buy,
        group: args.group.clone(),
        against_dice: args.against_dice,
        against_edge: edge_on_test(args.against_edge),
        try_again: args.try_again,
    };
    let ask_after = interactive(args.then, args.edge, args.roll.rolled.as_deref(), args.json);
    let mut choose = |plain: &TestOutcome| match args.then {
        Some(then) => then_edge(Some(then)),
        None if ask_after => ask_then(plain).unwrap_or(None),
        None => None,
    };
    let view = roll_sol(
        &ask,
        args.roll.rolled.as_deref(),
        args.against_rolled.as_deref(),
        args.roll.seed,
        &mut choose,
    )
    .map_err(once_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    match &view {
        SolRollView::Bought(v) => write_bought(out, v)?,
        SolRollView::Group(v) => write_group_roll(out, v)?,
        SolRollView::Opposed(v) => {
            write_opposed(out, &v.opposed, v.p_success, &v.p_success_exact)?;
            render::write_seed(out, v.seed)?;
        }
        SolRollView::TryAgain(v) => write_try_again(out, v)?,
        SolRollView::Test(v) => write_roll_test(out, v, args.edge.is_none())?,
    }
    Ok(())
}

fn write_bought(out: &mut dyn Write, v: &BoughtView) -> std::io::Result<()> {
    writeln!(
        out,
        "{} dice buy {} hit(s){}",
        v.dice,
        v.bought_hits,
        match v.success {
            Some(true) => " — success",
            Some(false) => " — not enough",
            None => "",
        }
    )
}

/// A test of `roll sol`: the assistant's, the pool and its modifier, then the dice.
/// `edge_after`: no Edge was asked before the roll, so one in the test was chosen after.
fn write_roll_test(out: &mut dyn Write, v: &SolTestView, edge_after: bool) -> anyhow::Result<()> {
    if let Some(a) = &v.assistant {
        writeln!(
            out,
            "{} {} dice: {} → {} hit(s) offered{}",
            paint(HEAD, "Assistant"),
            a.spec.dice,
            faces_of(&a.dice),
            a.hits,
            if a.critical_glitch {
                "  CRITICAL GLITCH"
            } else if a.glitch {
                "  GLITCH"
            } else {
                ""
            }
        )?;
    }
    let outcome = &v.test;
    writeln!(
        out,
        "{} {} dice{}{}",
        paint(HEAD, "Test"),
        v.pool.dice,
        match (outcome.spec.threshold, v.threshold_name) {
            (Some(t), Some(name)) => format!(" against {t} ({name})"),
            _ => String::new(),
        },
        match (v.p_success, &v.p_success_exact) {
            (Some(p), Some(exact)) => format!("   success {}", percent_exact(p, exact)),
            _ => String::new(),
        }
    )?;
    if let Some(note) = &v.modifier_note {
        writeln!(out, "  {}", paint(DIM, modifier_text(note)))?;
    }
    if edge_after && outcome.spec.edge.is_some() {
        writeln!(
            out,
            "  {} after the roll",
            edge_words(outcome.spec.edge).trim_start_matches(", ")
        )?;
    }
    write_test(out, outcome, v.seed)?;
    Ok(())
}

fn write_opposed(
    out: &mut dyn Write,
    o: &OpposedOutcome,
    p: f64,
    p_exact: &str,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} attacker {} dice{}, defender {} dice{}   attacker succeeds {}",
        paint(HEAD, "Opposed test:"),
        o.attacker.spec.dice,
        edge_words(o.attacker.spec.edge),
        o.defender.spec.dice,
        edge_words(o.defender.spec.edge),
        percent_exact(p, p_exact)
    )?;
    for (who, t) in [("attacker", &o.attacker), ("defender", &o.defender)] {
        let mut line = format!(
            "  {who:<9}{}",
            if t.dice.is_empty() {
                "Smackdown: no roll".to_owned()
            } else {
                faces_of(&t.dice)
            }
        );
        for r in &t.rerolls {
            line.push_str(&format!("  [die {} {} → {}]", r.index + 1, r.from, r.to));
        }
        line.push_str(&format!("  → {} hit(s)", t.hits));
        if t.critical_glitch {
            line.push_str(&format!("  {}", paint(BAD, "CRITICAL GLITCH")));
        } else if t.glitch {
            line.push_str(&format!("  {}", paint(EVEN, "GLITCH")));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "  {}{}",
        if o.success {
            paint(GOOD, format!("the attacker SUCCEEDS, {} net", o.net_hits))
        } else {
            paint(
                BAD,
                format!("the attacker FAILS: the defender holds, {} net", o.net_hits),
            )
        },
        if o.critical_success {
            format!("  {}", paint(GOOD, "CRITICAL SUCCESS"))
        } else {
            String::new()
        }
    )?;
    Ok(())
}

/// `roll sol --try-again`: each attempt until a success or no dice are left.
fn write_try_again(out: &mut dyn Write, v: &TryAgainView) -> anyhow::Result<()> {
    let tries = &v.attempts;
    writeln!(
        out,
        "{} against {}: {} attempt(s)",
        paint(HEAD, "Try again"),
        v.threshold.unwrap_or(0),
        tries.len()
    )?;
    for (i, a) in tries.iter().enumerate() {
        writeln!(
            out,
            "  try {} ({} dice): {} → {} hit(s)  {}",
            i + 1,
            a.pool.dice,
            faces_of(&a.test.dice),
            a.test.hits,
            if a.test.success == Some(true) {
                paint(GOOD, "SUCCESS")
            } else if a.test.critical_glitch {
                paint(BAD, "FAILURE, CRITICAL GLITCH")
            } else {
                paint(BAD, "FAILURE")
            }
        )?;
    }
    if tries.last().is_some_and(|a| a.test.success != Some(true)) {
        writeln!(out, "  no more tries: the pool would drop to 0")?;
    }
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// Members of a group action shown one per line; beyond, a summary.
const GROUP_LINES: usize = 20;

/// A group action of `roll sol --group`: the leader, the best and the first members, the
/// rest summed up.
fn write_group_roll(out: &mut dyn Write, g: &GroupView) -> anyhow::Result<()> {
    let tests = &g.tests;
    writeln!(out, "{} of {}", paint(HEAD, "Group action"), tests.len())?;
    let shown = |i: usize| i < GROUP_LINES || i == g.best;
    for (i, t) in tests.iter().enumerate().filter(|(i, _)| shown(*i)) {
        writeln!(
            out,
            "  {} {}: {} → {} hit(s){}{}",
            if i == 0 { "leader" } else { "member" },
            i + 1,
            faces_of(&t.dice),
            t.hits,
            glitch_words(t),
            if i == g.best { "  (best)" } else { "" }
        )?;
    }
    let hidden: Vec<&TestOutcome> = tests
        .iter()
        .enumerate()
        .filter(|(i, _)| !shown(*i))
        .map(|(_, t)| t)
        .collect();
    if !hidden.is_empty() {
        writeln!(
            out,
            "  … {} more member(s), {} with no hits, {} glitch(es), {} critical (--json lists every one)",
            hidden.len(),
            hidden.iter().filter(|t| t.hits == 0).count(),
            hidden.iter().filter(|t| t.glitch).count(),
            hidden.iter().filter(|t| t.critical_glitch).count()
        )?;
    }
    writeln!(
        out,
        "  the group has {} hit(s){}; the leader takes {} Level 1 wound(s)",
        g.hits,
        match g.success {
            Some(true) => " — success",
            Some(false) => " — failure",
            None => "",
        },
        g.leader_wounds
    )?;
    render::write_seed(out, g.seed)?;
    Ok(())
}

/// A sheet file read one-off (`sol show --file`): checked as an imported sheet would be.
fn load_file(path: &Path) -> anyhow::Result<Sheet> {
    let text = crate::storage::read_text(path, crate::storage::MAX_FILE_BYTES)
        .map_err(|e| bad(e.to_string()))?;
    solum_app::sol::parse_sheet(&text).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// Dice for a campaign command: typed values, a seed, or a fresh seed the app journals.
fn dice_of(roll: &DiceArgs) -> anyhow::Result<Dice> {
    Ok(match (&roll.rolled, roll.seed) {
        (Some(text), _) => Dice::Typed(typed_faces(Field::Rolled, text).map_err(once_error)?),
        (None, Some(seed)) => Dice::Seed(seed),
        (None, None) => Dice::Fresh,
    })
}

/// The flags of `sol test`, by the fields the application names.
fn test_flag(field: SolField) -> Option<&'static str> {
    Some(match field {
        SolField::Dice => "--rolled",
        SolField::AgainstDice => "--against-rolled",
        SolField::Then => "--then",
        SolField::Edge => "--edge",
        SolField::Retry => "--retry",
        SolField::Threshold => "--threshold",
        SolField::Assistant => "--assistant",
        SolField::Skill => "--skill",
        SolField::Attribute => "--attr",
        SolField::Modifiers => "--modifier",
        SolField::Group => "--group",
        SolField::Buy => "--buy",
        SolField::Name | SolField::Sheet | SolField::Attributes | SolField::Skills => {
            return None;
        }
    })
}

fn show(out: &mut dyn Write, s: &Sheet) -> std::io::Result<()> {
    writeln!(
        out,
        "{}   Edge {}/{}",
        paint(HEAD, &s.name),
        s.edge.points,
        s.edge.attribute
    )?;
    let attrs: Vec<String> = s
        .attributes
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    writeln!(out, "  attributes: {}", attrs.join(", "))?;
    for sk in &s.skills {
        writeln!(
            out,
            "  {} {} (progress {}/5{})",
            sk.name,
            sk.ranks,
            sk.progress,
            if sk.earned_this_encounter {
                ", earned this encounter"
            } else {
                ""
            }
        )?;
    }
    if s.trained_this_session {
        writeln!(out, "  trained this session")?;
    }
    if s.progress_this_encounter {
        writeln!(
            out,
            "  progress point earned this encounter (one per encounter in all)"
        )?;
    }
    Ok(())
}

/// Writes a change's view: JSON, or `text` then the Edge line.
fn done(out: &mut dyn Write, v: &SolChangeView, json: bool, text: &str) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(v)?)?;
        return Ok(());
    }
    writeln!(out, "{text}")?;
    writeln!(
        out,
        "  {}",
        paint(
            DIM,
            format!(
                "{}: Edge {}/{} (journal entry {})",
                v.sheet.sheet.name, v.edge.points, v.edge.attribute, v.seq
            )
        )
    )?;
    Ok(())
}

pub fn run(command: &SolCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        SolCommand::New {
            name,
            edge,
            attributes,
            skills,
            campaign,
            json,
        } => new_sol(name, *edge, attributes, skills, campaign, *json, out)?,
        SolCommand::Show {
            name,
            file,
            campaign,
            json,
        } => {
            let view = match (file, name) {
                (Some(f), _) => SolSheetView {
                    sheet: load_file(f)?,
                    version: 0,
                },
                (None, Some(n)) => on_campaign(campaign, |here| here.sol(n))??,
                (None, None) => return Err(bad("give a NAME, or --file SHEET")),
            };
            if *json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
            } else {
                show(out, &view.sheet)?;
            }
        }
        SolCommand::List { campaign, json } => {
            let all = on_campaign(campaign, |here| here.owned_sols())??;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&all)?)?;
            } else if all.is_empty() {
                writeln!(out, "No Project Sol characters yet (solum sol new NAME …).")?;
            } else {
                for v in &all {
                    let s = &v.view.sheet;
                    writeln!(
                        out,
                        "{}   Edge {}/{}   {} skill(s)",
                        paint(HEAD, &s.name),
                        s.edge.points,
                        s.edge.attribute,
                        s.skills.len()
                    )?;
                }
            }
        }
        SolCommand::Import {
            file,
            campaign,
            json,
        } => {
            let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let v = on_campaign(campaign, |here| here.import_sol(&text))?.map_err(|e| match e {
                AppError::Sol(r) => bad(format!("{}: {r}", file.display())),
                e => e.into(),
            })?;
            done(
                out,
                &v,
                *json,
                &format!("{} joins the campaign.", v.sheet.sheet.name),
            )?;
        }
        SolCommand::Export {
            name,
            output,
            force,
            campaign,
        } => export(name, output.as_deref(), *force, campaign, out)?,
        SolCommand::Test(args) => test(args, out)?,
        SolCommand::Session {
            name,
            campaign,
            json,
        } => {
            let v = on_campaign(campaign, |here| here.sol_session(name))??;
            let text = format!(
                "New session: Edge refreshed to {}/{}; training allowed again.",
                v.edge.points, v.edge.attribute
            );
            done(out, &v, *json, &text)?;
        }
        SolCommand::Encounter {
            name,
            campaign,
            json,
        } => {
            let v = on_campaign(campaign, |here| here.sol_encounter(name))??;
            done(
                out,
                &v,
                *json,
                "New encounter: progress can be earned again.",
            )?;
        }
        SolCommand::Reward {
            name,
            campaign,
            json,
        } => {
            let v = on_campaign(campaign, |here| here.sol_reward(name))??;
            let text = format!("Edge {}/{}.", v.edge.points, v.edge.attribute);
            done(out, &v, *json, &text)?;
        }
        SolCommand::Spend {
            name,
            what,
            roll,
            campaign,
            json,
        } => spend(name, what, roll, campaign, *json, out)?,
        SolCommand::NotDeadYet {
            name,
            attribute,
            campaign,
            json,
        } => not_dead_yet(name, attribute.as_ref(), campaign, *json, out)?,
        SolCommand::Train {
            name,
            skill,
            campaign,
            json,
        } => {
            let v = on_campaign(campaign, |here| here.sol_train(name, skill))?.map_err(|e| {
                super::flagged(e, |f: SolField| (f == SolField::Skill).then_some("--skill"))
            })?;
            let t = v.trained.as_ref().expect("a training trains");
            let text = format!(
                "{} trained to rank {}: cost rating {}; progress points cleared.",
                t.skill, t.ranks, t.cost
            );
            done(out, &v, *json, &text)?;
        }
    }
    Ok(())
}

/// `sol new`: a Project Sol character into the campaign.
fn new_sol(
    name: &str,
    edge: SolEdge,
    attributes: &[Pair<String, u32>],
    skills: &[Pair<String, u32>],
    campaign: &CampaignArg,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let new = NewSol {
        name: name.to_owned(),
        edge,
        attributes: tuples(attributes),
        skills: tuples(skills),
    };
    let v = on_campaign(campaign, |here| here.create_sol(&new))?.map_err(|e| {
        super::flagged(e, |f| match f {
            SolField::Name => Some("NAME"),
            SolField::Attributes => Some("--attr"),
            SolField::Skills => Some("--skill"),
            SolField::Sheet => Some("--attr/--skill/--edge"),
            _ => None,
        })
    })?;
    if json {
        return done(out, &v, true, "");
    }
    show(out, &v.sheet.sheet)?;
    writeln!(
        out,
        "{}",
        paint(DIM, format!("in the campaign, journal entry {}", v.seq))
    )?;
    Ok(())
}

/// `sol export`: a character's sheet as TOML, to standard output or a file.
fn export(
    name: &str,
    output: Option<&Path>,
    force: bool,
    campaign: &CampaignArg,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let text = on_campaign(campaign, |here| here.export_sol(name))??;
    match output {
        None => write!(out, "{text}")?,
        Some(path) => {
            if path.exists() && !force {
                return Err(bad(format!(
                    "{}: already exists (use --force to replace it)",
                    path.display()
                )));
            }
            let replace = if force {
                crate::storage::Replace::Allowed
            } else {
                crate::storage::Replace::Never
            };
            super::campaign::write_file(path, text.as_bytes(), replace)?;
            writeln!(
                out,
                "{}",
                paint(DIM, format!("saved to {}", path.display()))
            )?;
        }
    }
    Ok(())
}

/// `sol spend`: one of the Edge uses (Blitz, Seize the Initiative, Dead Man's Trigger).
fn spend(
    name: &str,
    what: &SpendUse,
    roll: &DiceArgs,
    campaign: &CampaignArg,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if roll.rolled.is_some() && roll.seed.is_some() {
        return Err(bad(
            "--seed cannot be used with --rolled: typed dice roll nothing from it",
        ));
    }
    let use_ = match what {
        SpendUse::Blitz => solum_app::sol::SpendUse::Blitz,
        SpendUse::SeizeTheInitiative => solum_app::sol::SpendUse::SeizeTheInitiative,
        SpendUse::DeadMansTrigger => solum_app::sol::SpendUse::DeadMansTrigger,
    };
    let dice = dice_of(roll)?;
    let v =
        on_campaign(campaign, |here| here.sol_spend(name, use_, dice))?.map_err(|e| match &e {
            // Dice given to a use that rolls none (the app's rule): either dice flag.
            AppError::Sol(r) if r.kind == solum_app::SolRefusal::NoDice => {
                bad(format!("--rolled/--seed: {}", r.problem))
            }
            _ => super::flagged(e, |f: SolField| (f == SolField::Dice).then_some("--rolled")),
        })?;
    if json {
        return done(out, &v, true, "");
    }
    let spent = v.spend.as_ref().expect("a spend has its outcome");
    match (&spent.bonus_dice, &spent.trigger) {
        (Some(b), _) => writeln!(
            out,
            "Blitz: add REA + INT = {b} dice to this initiative test"
        )?,
        (None, Some(t)) => {
            writeln!(
                out,
                "Dead Man's Trigger: BOD + WIL = {} dice against {}",
                t.spec.dice,
                t.spec.threshold.unwrap_or(0)
            )?;
            write_test(out, t, v.rolled.as_ref().and_then(|r| r.seed))?;
            writeln!(
                out,
                "  {}",
                if t.success == Some(true) {
                    "one last action before blacking out"
                } else {
                    "no last action"
                }
            )?;
        }
        (None, None) => writeln!(out, "Seize the Initiative: top of the order for this round")?,
    }
    writeln!(out, "  Edge {}/{}", v.edge.points, v.edge.attribute)?;
    Ok(())
}

/// `sol not-dead-yet`: the character survives by lowering a physical attribute.
fn not_dead_yet(
    name: &str,
    attribute: Option<&String>,
    campaign: &CampaignArg,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let v = in_campaign(campaign, |c| {
        Ok(
            match c.sol_not_dead_yet(name, attribute.map(String::as_str)) {
                // A tie is the player's choice: asked at a terminal, and the app checks the
                // choice again against the sheet it reads.
                Err(AppError::Sol(r))
                    if r.kind == solum_app::SolRefusal::AttributeTie
                        && attribute.is_none()
                        && !json
                        && std::io::stdin().is_terminal() =>
                {
                    let choice = ask_attribute(&c.sol_not_dead_yet_tie(name)?)?;
                    c.sol_not_dead_yet(name, Some(&choice))
                }
                other => other,
            },
        )
    })?
    .map_err(|e| match &e {
        AppError::Sol(r) if r.kind == solum_app::SolRefusal::AttributeTie => {
            bad(format!("{} with --attr", r.problem))
        }
        _ => super::flagged(e, |f| match f {
            SolField::Attribute => Some("--attr"),
            SolField::Edge => Some("Edge"),
            _ => None,
        }),
    })?;
    let l = v.lowered.as_ref().expect("Not Dead Yet lowers one");
    let text = format!(
        "Not Dead Yet: {} survives; {} {} → {}. Edge {}/{}.",
        v.sheet.sheet.name, l.attribute, l.from, l.to, v.edge.points, v.edge.attribute
    );
    done(out, &v, json, &text)?;
    Ok(())
}

/// The test a `sol test` asks for, from its flags.
fn test_request(args: &SolTestArgs, threshold: Option<SolThreshold>) -> anyhow::Result<SolTest> {
    Ok(SolTest {
        skill: args.skill.clone(),
        attribute: args.attribute.clone(),
        threshold,
        modifiers: args.modifiers.clone(),
        untrained_penalty: args.untrained_penalty,
        retry: args.retry,
        edge: edge_on_test(args.edge),
        then: then_edge(args.then),
        assist: match (args.assist_dice, &args.assistant) {
            (Some(n), _) => Some(Assist::Dice(n)),
            (None, Some(name)) => Some(Assist::Character(name.clone())),
            (None, None) => None,
        },
        against: args.against_dice.map(|d| Opposition {
            dice: d,
            edge: edge_on_test(args.against_edge),
        }),
        group: args.group.clone(),
        buy: args.buy,
    })
}

fn test(args: &SolTestArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let t = args.threshold.as_deref().map(threshold).transpose()?;
    let req = test_request(args, t)?;
    let against_typed = args
        .against_rolled
        .as_deref()
        .map(|text| typed_faces(Field::AgainstRolled, text).map_err(once_error))
        .transpose()?;
    let dice = dice_of(&args.roll)?;
    let v = on_campaign(&args.campaign, |here| {
        here.sol_test(&args.name, &req, dice, against_typed)
    })?
    .map_err(|e| super::flagged(e, test_flag))?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    let r = &v.result;
    if let Some(h) = &r.assistant {
        let faces: Vec<String> = h.dice.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{} {}{} dice: {} → {} hit(s) offered{}",
            paint(HEAD, "Assistant"),
            v.assistant_name
                .as_ref()
                .map(|n| format!("{n}, "))
                .unwrap_or_default(),
            h.spec.dice,
            faces.join(" "),
            h.hits,
            glitch_words(h)
        )?;
    }
    writeln!(
        out,
        "{} {} + {} ({} + {} ranks{}) = {} dice{}",
        paint(HEAD, &v.name),
        args.skill,
        args.attribute,
        r.attribute_value,
        r.ranks,
        if r.pool.applied != 0 {
            format!(" {:+}", r.pool.applied)
        } else {
            String::new()
        },
        r.pool.dice,
        if args.retry > 0 {
            format!(", try again number {}", args.retry)
        } else {
            String::new()
        }
    )?;
    if let Some(note) = &v.modifier_note {
        writeln!(out, "  {}", paint(DIM, modifier_text(note)))?;
    }
    if let Some(b) = &r.bought {
        writeln!(
            out,
            "  {} dice buy {} hit(s), no roll{}",
            r.pool.dice,
            b.hits,
            match (b.success, t) {
                (Some(true), _) => format!(
                    "  {}",
                    paint(GOOD, format!("SUCCESS, {} net", b.net_hits.unwrap_or(0)))
                ),
                (Some(false), Some(t)) => {
                    format!("  {}", paint(BAD, format!("FAILURE: {t} needed")))
                }
                _ => String::new(),
            }
        )?;
        writeln!(out, "  Edge {}/{}", v.edge.points, v.edge.attribute)?;
        return Ok(());
    }
    match (&r.opposed, &r.test) {
        (Some(o), _) => {
            // The chance the app worked out before the roll, exactly.
            let (Some(p), Some(exact)) = (v.p_success, v.p_success_exact.as_deref()) else {
                return Err(anyhow::anyhow!(
                    "the opposed test came back without its odds"
                ));
            };
            write_opposed(out, o, p, exact)?;
            render::write_seed(out, v.seed)?;
        }
        (None, Some(t)) => {
            if args.edge.is_none() && t.spec.edge.is_some() {
                writeln!(
                    out,
                    "  {} after the roll",
                    edge_words(t.spec.edge).trim_start_matches(", ")
                )?;
            }
            if r.group.is_none() {
                write_test(out, t, v.seed)?;
            }
        }
        (None, None) => return Err(anyhow::anyhow!("the test came back without its dice")),
    }
    if let (Some(g), Some(lead)) = (&r.group, &r.test) {
        write_group(out, &v.name, (lead, r.progress), g, &args.skill)?;
        render::write_seed(out, v.seed)?;
    }
    if r.group.is_some() {
        // Every participant's progress is on its line.
    } else if r.progress.point {
        writeln!(
            out,
            "  progress point in {}{}",
            args.skill,
            if r.progress.rank_up { ": RANK UP" } else { "" }
        )?;
    } else if let Some(t) = r.opposed.as_ref().map(|o| &o.attacker).or(r.test.as_ref())
        && t.spec.edge != Some(EdgeOnTest::Smackdown)
        && t.hits > r.ranks.max(1)
    {
        writeln!(
            out,
            "  no progress point: one per encounter, already earned in this one"
        )?;
    }
    if let Some(p) = r.assistant_progress
        && p.point
    {
        writeln!(
            out,
            "  the assistant earns a progress point in {}",
            args.skill
        )?;
    }
    writeln!(out, "  Edge {}/{}", v.edge.points, v.edge.attribute)?;
    Ok(())
}

/// A group action from sheets: every participant's dice, hits and glitches, the best, the
/// group's result and the leader's wounds.
fn write_group(
    out: &mut dyn Write,
    leader: &str,
    (lead, lead_progress): (&TestOutcome, Progress),
    g: &solum_app::sol::GroupResult,
    skill: &str,
) -> std::io::Result<()> {
    writeln!(
        out,
        "  {} of {}, led by {leader}",
        paint(HEAD, "Group action"),
        g.members.len() + 1
    )?;
    let rows = std::iter::once((leader, lead.spec.dice, lead, lead_progress))
        .chain(
            g.members
                .iter()
                .map(|m| (m.name.as_str(), m.pool.dice, &m.test, m.progress)),
        )
        .enumerate();
    for (i, (name, dice, t, progress)) in rows {
        let mut line = format!(
            "  {name} ({dice} dice): {}",
            if t.dice.is_empty() {
                "Smackdown: no roll".to_owned()
            } else {
                faces_of(&t.dice)
            }
        );
        for r in &t.rerolls {
            line.push_str(&format!("  [die {} {} → {}]", r.index + 1, r.from, r.to));
        }
        line.push_str(&format!(" → {} hit(s){}", t.hits, glitch_words(t)));
        if i == g.best {
            line.push_str("  (best)");
        }
        if progress.point {
            line.push_str(&format!(
                "  progress point in {skill}{}",
                if progress.rank_up { ": RANK UP" } else { "" }
            ));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "  the group has {} hit(s){}; {leader} takes {} Level 1 wound(s)",
        g.hits,
        match g.success {
            Some(true) => format!(
                "  {}",
                paint(GOOD, format!("SUCCESS, {} net", g.net_hits.unwrap_or(0)))
            ),
            Some(false) => format!("  {}", paint(BAD, "FAILURE")),
            None => String::new(),
        },
        g.leader_wounds
    )
}

fn faces_of(dice: &[u32]) -> String {
    dice.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Asks at the terminal which of the tied attributes Not Dead Yet lowers.
fn ask_attribute(tied: &[String]) -> anyhow::Result<String> {
    let stdin = std::io::stdin();
    loop {
        crate::say!(
            "{} tie for highest: which one drops by 1? ",
            tied.join(", ")
        );
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut stdin.lock(), &mut line)? == 0 {
            return Err(bad("standard input ended before an attribute was chosen"));
        }
        let answer = line.trim();
        if tied.iter().any(|t| t.eq_ignore_ascii_case(answer)) {
            return Ok(answer.to_owned());
        }
        crate::say!("  `{answer}`: one of {}\n", tied.join(", "));
    }
}
