//! `solum odds sol`, `solum roll sol`, `solum sol …`: Project Sol.

use std::cell::{Cell, RefCell};
use std::io::{IsTerminal, Write};
use std::path::Path;

use serde_json::json;
use solum_sol::advancement::Skill;
use solum_sol::edge::{Burn, Edge, Spend};
use solum_sol::odds::{opposed, test_odds};
use solum_sol::pool::{PoolSpec, build, buy_hits, parse_threshold, threshold_name};
use solum_sol::sheet::{NotDeadYetError, SHEET_SCHEMA, Sheet};
use solum_sol::test::{
    EdgeOnTest, OpposedOutcome, TestError, TestOutcome, TestSpec, roll_assisted, roll_opposed,
    roll_test, roll_test_then, try_again,
};

use crate::bad;
use crate::cli::{EdgeUse, SolCommand, SolOddsArgs, SolRollArgs, SolTestArgs, Then};
use crate::dice::{Generator, SideDice, Source, explain, with_dice};
use crate::render::{self, BAD, DIM, EVEN, GOOD, HEAD, paint, percent};

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
        eprint!(
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
            other => eprintln!("  `{other}`: s, c or Enter"),
        }
    }
}

fn threshold(text: &str) -> anyhow::Result<u32> {
    parse_threshold(text).map_err(|e| bad(format!("--threshold: {e}")))
}

fn dice_count(n: i64) -> anyhow::Result<u32> {
    dice_in("--dice", n)
}

fn dice_in(flag: &str, n: i64) -> anyhow::Result<u32> {
    if (1..=i64::from(solum_sol::pool::MAX_DICE)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(bad(format!(
            "{flag} {n}: a pool has 1 to {} dice",
            solum_sol::pool::MAX_DICE
        )))
    }
}

pub fn odds(args: &SolOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let n = dice_count(args.dice)?;
    let t = threshold(&args.threshold)?;
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
    let o = test_odds(n, t, edge);
    let against_edge = edge_on_test(args.against_edge);
    let opposed = match args.against {
        Some(d) => Some(
            opposed(n, edge, dice_in("--against", d)?, against_edge)
                .map_err(|e| bad(format!("--against-edge: {e}")))?,
        ),
        None => None,
    };
    if args.json {
        let hits: serde_json::Map<String, serde_json::Value> = o
            .hits
            .outcomes()
            .iter()
            .map(|(k, p)| (k.to_string(), json!(render::to_f64(p))))
            .collect();
        let mut v = json!({
            "dice": n, "threshold": t, "edge": edge,
            "p_success": render::to_f64(&o.success), "p_success_exact": render::fraction(&o.success),
            "p_glitch": render::to_f64(&o.glitch), "p_critical_glitch": render::to_f64(&o.critical_glitch),
            "p_critical_success": render::to_f64(&o.critical_success),
            "mean_hits": o.hits.mean(), "hits": hits,
        });
        if let Some(p) = &opposed {
            v["p_attacker_succeeds"] = json!(render::to_f64(&p.success));
            v["opposed"] = json!({
                "against": args.against, "against_edge": against_edge,
                "p_success": render::to_f64(&p.success),
                "p_success_exact": render::fraction(&p.success),
                "p_critical_success": render::to_f64(&p.critical_success),
                "p_critical_success_exact": render::fraction(&p.critical_success),
                "p_defender_critical_success": render::to_f64(&p.defender_critical_success),
                "p_attacker_glitch": render::to_f64(&p.attacker_glitch),
                "p_attacker_critical_glitch": render::to_f64(&p.attacker_critical_glitch),
                "p_attacker_critical_glitch_exact": render::fraction(&p.attacker_critical_glitch),
                "p_defender_glitch": render::to_f64(&p.defender_glitch),
                "p_defender_critical_glitch": render::to_f64(&p.defender_critical_glitch),
            });
        }
        writeln!(out, "{v}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{n} dice against {t} ({}){}: success {}",
        threshold_name(t),
        match edge {
            Some(EdgeOnTest::PushTheLimit) => ", pushing the limit",
            Some(EdgeOnTest::SecondChance) => ", with a second chance",
            Some(EdgeOnTest::CloseCall) => ", with a close call",
            Some(EdgeOnTest::Smackdown) => ", Smackdown",
            None => "",
        },
        paint(HEAD, percent(&o.success))
    )?;
    writeln!(
        out,
        "  critical success {}   glitch {}   critical glitch {}   mean hits {:.3}",
        percent(&o.critical_success),
        percent(&o.glitch),
        percent(&o.critical_glitch),
        o.hits.mean()
    )?;
    if let Some(p) = opposed {
        writeln!(
            out,
            "  against {} dice{} (the attacker wins ties): {}   critical success {}",
            args.against.unwrap_or(0),
            edge_words(against_edge),
            paint(HEAD, percent(&p.success)),
            percent(&p.critical_success),
        )?;
        writeln!(
            out,
            "  attacker glitch {}   critical glitch {}   defender glitch {}   critical glitch {}   defender wins by 3+ {}",
            percent(&p.attacker_glitch),
            percent(&p.attacker_critical_glitch),
            percent(&p.defender_glitch),
            percent(&p.defender_critical_glitch),
            percent(&p.defender_critical_success),
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

/// The pool spec of `roll sol`: `--dice N` as it is, or attribute + ranks + modifiers.
fn roll_pool_spec(args: &SolRollArgs) -> anyhow::Result<PoolSpec> {
    let mut modifiers = args.modifiers.clone();
    if let Some(hits) = args.assist {
        if hits < 0 {
            return Err(bad(format!(
                "--assist {hits}: an assistant's hits are 0 or more"
            )));
        }
        modifiers.push(hits);
    }
    Ok(match (args.dice, args.attribute) {
        (Some(d), _) => PoolSpec {
            attribute: i64::from(dice_count(d)?),
            ..PoolSpec::default()
        },
        (None, Some(a)) => PoolSpec {
            attribute: a,
            ranks: args.ranks.unwrap_or(0),
            modifiers,
            untrained_penalty: args.untrained_penalty,
            retry: 0,
        },
        (None, None) => return Err(bad("give --dice, or --attribute (and --ranks)")),
    })
}

/// A rule error as a message for the player; dice errors name their flag.
fn test_error(e: TestError, flag: &str, order: &str) -> anyhow::Error {
    match e {
        TestError::Dice(d) => explain(d, flag, order),
        other => bad(other.to_string()),
    }
}

/// Splits a rule's result so that dice errors reach [`with_dice`] and the others wait.
fn split<T>(r: Result<T, TestError>) -> Result<Result<T, TestError>, solum_dice::DiceError> {
    match r {
        Err(TestError::Dice(d)) => Err(d),
        other => Ok(other),
    }
}

pub fn roll(args: &SolRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let spec = roll_pool_spec(args)?;
    let pool = spec.build().map_err(|e| bad(e.to_string()))?;
    let t = args.threshold.as_deref().map(threshold).transpose()?;
    if args.buy {
        let hits = buy_hits(pool.dice);
        let success = t.map(|t| hits >= t);
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"dice": pool.dice, "bought_hits": hits, "success": success})
            )?;
        } else {
            writeln!(
                out,
                "{} dice buy {hits} hit(s){}",
                pool.dice,
                match success {
                    Some(true) => " — success",
                    Some(false) => " — not enough",
                    None => "",
                }
            )?;
        }
        return Ok(());
    }
    let test_spec = TestSpec {
        dice: pool.dice,
        threshold: t,
        edge: edge_on_test(args.edge),
    };
    if let Some(group) = &args.group {
        return group_action(&test_spec, group, args, out);
    }
    if let Some(d) = args.against_dice {
        return roll_opposed_cmd(&test_spec, d, args, out);
    }
    if args.try_again {
        return try_again_cmd(&spec, t, args, out);
    }
    let ask = interactive(args.then, args.edge, args.roll.rolled.as_deref(), args.json);
    let mut choose = |plain: &TestOutcome| match args.then {
        Some(then) => then_edge(Some(then)),
        None if ask => ask_then(plain).unwrap_or(None),
        None => None,
    };
    let order = "values go: the assistant's pool if it rolls, then the pool, then one die for each die a second chance rerolls";
    let assist_dice = args
        .assist_dice
        .map(|n| dice_in("--assist-dice", n))
        .transpose()?;
    let (rolled, seed) =
        with_dice(
            args.roll.rolled.as_deref(),
            args.roll.seed,
            order,
            |d| match assist_dice {
                Some(n) => split(
                    roll_assisted(
                        &TestSpec {
                            dice: n,
                            threshold: None,
                            edge: None,
                        },
                        &spec,
                        t,
                        test_spec.edge,
                        d,
                        &mut choose,
                    )
                    .map(|a| (Some(a.assistant), a.pool, a.test)),
                ),
                None => {
                    roll_test_then(&test_spec, d, &mut choose).map(|o| Ok((None, pool.clone(), o)))
                }
            },
        )?;
    let (assistant, pool, outcome) = rolled.map_err(|e| test_error(e, "--rolled", order))?;
    let p = t.map(|t| test_odds(outcome.spec.dice, t, test_spec.edge).success);
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"pool": pool, "assistant": assistant, "test": outcome, "p_success": p.as_ref().map(render::to_f64), "seed": seed})
        )?;
        return Ok(());
    }
    if let Some(a) = &assistant {
        let faces: Vec<String> = a.dice.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{} {} dice: {} → {} hit(s) offered{}",
            paint(HEAD, "Assistant"),
            a.spec.dice,
            faces.join(" "),
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
    writeln!(
        out,
        "{} {} dice{}{}",
        paint(HEAD, "Test"),
        pool.dice,
        t.map(|t| format!(" against {t} ({})", threshold_name(t)))
            .unwrap_or_default(),
        p.map(|p| format!("   success {}", percent(&p)))
            .unwrap_or_default()
    )?;
    if pool.modifier != pool.applied {
        writeln!(
            out,
            "  {}",
            paint(
                DIM,
                format!(
                    "modifier {:+} applied as {:+}: bonuses are capped by the skill's ranks",
                    pool.modifier, pool.applied
                )
            )
        )?;
    }
    if args.edge.is_none() && outcome.spec.edge.is_some() {
        writeln!(
            out,
            "  {} after the roll",
            edge_words(outcome.spec.edge).trim_start_matches(", ")
        )?;
    }
    write_test(out, &outcome, seed)?;
    Ok(())
}

/// `roll sol --against-dice`: an opposed test, each side's typed dice in its own flag.
fn roll_opposed_cmd(
    attacker: &TestSpec,
    against: i64,
    args: &SolRollArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let defender = TestSpec {
        dice: dice_in("--against-dice", against)?,
        threshold: None,
        edge: edge_on_test(args.against_edge),
    };
    let (o, seed) = opposed_with_dice(
        attacker,
        &defender,
        args.roll.rolled.as_deref(),
        args.against_rolled.as_deref(),
        args.roll.seed,
    )?;
    let odds = opposed(attacker.dice, attacker.edge, defender.dice, defender.edge)
        .map_err(|e| bad(e.to_string()))?;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"opposed": o, "p_success": render::to_f64(&odds.success), "seed": seed})
        )?;
        return Ok(());
    }
    write_opposed(out, &o, &odds.success)?;
    render::write_seed(out, seed)?;
    Ok(())
}

/// Rolls an opposed test, each side's typed dice from its own flag, the rest seeded.
fn opposed_with_dice(
    attacker: &TestSpec,
    defender: &TestSpec,
    rolled: Option<&str>,
    against_rolled: Option<&str>,
    seed: Option<u64>,
) -> anyhow::Result<(OpposedOutcome, Option<u64>)> {
    let order = "each side's values: its pool, then one die for each die its second chance rerolls";
    let generator = RefCell::new(Generator::new(seed));
    let blame = Cell::new("--rolled");
    let mut first = Source::from_flag("--rolled", rolled)?;
    let mut second = Source::from_flag("--against-rolled", against_rolled)?;
    let o = {
        let mut a = SideDice::new(&mut first, &generator, &blame);
        let mut b = SideDice::new(&mut second, &generator, &blame);
        roll_opposed(attacker, defender, &mut a, &mut b)
    }
    .map_err(|e| test_error(e, blame.get(), order))?;
    first.finish(order)?;
    second.finish(order)?;
    let seed = generator.borrow().used_seed();
    Ok((o, seed))
}

fn write_opposed(
    out: &mut dyn Write,
    o: &OpposedOutcome,
    p: &solum_dice::Prob,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} attacker {} dice{}, defender {} dice{}   attacker succeeds {}",
        paint(HEAD, "Opposed test:"),
        o.attacker.spec.dice,
        edge_words(o.attacker.spec.edge),
        o.defender.spec.dice,
        edge_words(o.defender.spec.edge),
        percent(p)
    )?;
    for (who, t) in [("attacker", &o.attacker), ("defender", &o.defender)] {
        let faces: Vec<String> = t.dice.iter().map(u32::to_string).collect();
        let mut line = format!(
            "  {who:<9}{}",
            if t.dice.is_empty() {
                "Smackdown: no roll".to_owned()
            } else {
                faces.join(" ")
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

/// `roll sol --try-again`: tries until a success or no dice are left.
fn try_again_cmd(
    spec: &PoolSpec,
    t: Option<u32>,
    args: &SolRollArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let order = "values go: each attempt's pool in turn";
    let (tries, seed) = with_dice(args.roll.rolled.as_deref(), args.roll.seed, order, |d| {
        split(try_again(spec, t, d))
    })?;
    let tries = tries.map_err(|e| test_error(e, "--rolled", order))?;
    if args.json {
        writeln!(out, "{}", json!({"attempts": tries, "seed": seed}))?;
        return Ok(());
    }
    writeln!(
        out,
        "{} against {}: {} attempt(s)",
        paint(HEAD, "Try again"),
        t.unwrap_or(0),
        tries.len()
    )?;
    for (i, a) in tries.iter().enumerate() {
        let faces: Vec<String> = a.test.dice.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "  try {} ({} dice): {} → {} hit(s)  {}",
            i + 1,
            a.pool.dice,
            faces.join(" "),
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
    render::write_seed(out, seed)?;
    Ok(())
}

fn load(path: &Path) -> anyhow::Result<Sheet> {
    let text = solum_play::storage::read_text(path).map_err(|e| bad(e.to_string()))?;
    let sheet: Sheet = toml::from_str(&text)
        .map_err(|e| bad(format!("{}: {}", path.display(), e.to_string().trim_end())))?;
    if sheet.schema != SHEET_SCHEMA {
        return Err(bad(format!(
            "{}: schema: version {} is not known (this solum reads {SHEET_SCHEMA})",
            path.display(),
            sheet.schema
        )));
    }
    if sheet.edge.points > sheet.edge.attribute {
        return Err(bad(format!(
            "{}: edge.points: {} is more than the attribute {}",
            path.display(),
            sheet.edge.points,
            sheet.edge.attribute
        )));
    }
    Ok(sheet)
}

fn save(path: &Path, sheet: &Sheet) -> anyhow::Result<()> {
    let text = toml::to_string_pretty(sheet)?;
    solum_play::storage::write_atomically(path, &text)?;
    Ok(())
}

fn pairs(items: &[String], what: &str) -> anyhow::Result<Vec<(String, u32)>> {
    items
        .iter()
        .map(|i| {
            let (k, v) = i
                .split_once('=')
                .ok_or_else(|| bad(format!("--{what} {i}: write NAME=N")))?;
            let n = v
                .trim()
                .parse::<u32>()
                .map_err(|_| bad(format!("--{what} {i}: `{v}` is not a number")))?;
            Ok((k.trim().to_owned(), n))
        })
        .collect()
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
    Ok(())
}

pub fn run(command: &SolCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        SolCommand::New {
            name,
            edge,
            attributes,
            skills,
            output,
            force,
        } => {
            let path = super::new_sheet_path(output.as_deref(), name, *force)?;
            let sheet = Sheet {
                schema: SHEET_SCHEMA,
                name: name.clone(),
                edge: Edge::new(*edge),
                attributes: pairs(attributes, "attr")?.into_iter().collect(),
                skills: pairs(skills, "skill")?
                    .into_iter()
                    .map(|(n, r)| Skill::new(&n, r))
                    .collect(),
                trained_this_session: false,
            };
            save(&path, &sheet)?;
            show(out, &sheet)?;
            writeln!(
                out,
                "{}",
                paint(DIM, format!("saved to {}", path.display()))
            )?;
        }
        SolCommand::Show { file } => show(out, &load(file)?)?,
        SolCommand::Test(args) => test(args, out)?,
        SolCommand::Session { file } => {
            let mut s = load(file)?;
            s.edge.refresh();
            s.trained_this_session = false;
            s.skills.iter_mut().for_each(Skill::new_encounter);
            save(file, &s)?;
            writeln!(
                out,
                "New session: Edge refreshed to {}/{}.",
                s.edge.points, s.edge.attribute
            )?;
        }
        SolCommand::Encounter { file } => {
            let mut s = load(file)?;
            s.skills.iter_mut().for_each(Skill::new_encounter);
            save(file, &s)?;
            writeln!(out, "New encounter: progress can be earned again.")?;
        }
        SolCommand::Reward { file } => {
            let mut s = load(file)?;
            s.edge.reward();
            save(file, &s)?;
            writeln!(out, "Edge {}/{}.", s.edge.points, s.edge.attribute)?;
        }
        SolCommand::Spend { file, what, roll } => {
            let mut sheet = load(file)?;
            // The attributes a use needs must be on the sheet: a missing one is no 0.
            let attr = |names: [&str; 2]| -> anyhow::Result<u32> {
                names
                    .iter()
                    .map(|n| {
                        sheet
                            .attribute(n)
                            .ok_or_else(|| bad(format!("{}: no attribute `{n}`", file.display())))
                    })
                    .sum()
            };
            let (spend, text) = match what {
                crate::cli::SpendUse::Blitz => (
                    Spend::Blitz,
                    format!(
                        "Blitz: add REA + INT = {} dice to this initiative test",
                        attr(["REA", "INT"])?
                    ),
                ),
                crate::cli::SpendUse::SeizeTheInitiative => (
                    Spend::SeizeTheInitiative,
                    "Seize the Initiative: top of the order for this round".to_owned(),
                ),
                crate::cli::SpendUse::DeadMansTrigger => (Spend::DeadMansTrigger, String::new()),
            };
            let bod_wil = if spend == Spend::DeadMansTrigger {
                attr(["BOD", "WIL"])?
            } else {
                0
            };
            sheet.edge.spend(spend).map_err(|e| bad(e.to_string()))?;
            if spend == Spend::DeadMansTrigger {
                let dice = bod_wil.max(1);
                let spec = TestSpec {
                    dice,
                    threshold: Some(3),
                    edge: None,
                };
                let (t, seed) = with_dice(
                    roll.rolled.as_deref(),
                    roll.seed,
                    "values go: the BOD + WIL pool",
                    |d| roll_test(&spec, d),
                )?;
                save(file, &sheet)?;
                writeln!(out, "Dead Man's Trigger: BOD + WIL = {dice} dice against 3")?;
                write_test(out, &t, seed)?;
                writeln!(
                    out,
                    "  {}",
                    if t.success == Some(true) {
                        "one last action before blacking out"
                    } else {
                        "no last action"
                    }
                )?;
            } else {
                save(file, &sheet)?;
                writeln!(out, "{text}")?;
            }
            writeln!(out, "  Edge {}/{}", sheet.edge.points, sheet.edge.attribute)?;
        }
        SolCommand::NotDeadYet { file, attribute } => {
            let mut s = load(file)?;
            let (tied, _) = s.highest_physical();
            let choice = match attribute {
                Some(a) => Some(a.clone()),
                None if tied.len() > 1
                    && s.edge.attribute > 0
                    && std::io::stdin().is_terminal() =>
                {
                    Some(ask_attribute(&tied)?)
                }
                None => None,
            };
            let lowered = s.not_dead_yet(choice.as_deref()).map_err(|e| match e {
                NotDeadYetError::Tie { .. } => bad(format!("{e} with --attr")),
                NotDeadYetError::NotHighest { .. } => bad(format!("--attr: {e}")),
                other => bad(format!("{}: {other}", file.display())),
            })?;
            save(file, &s)?;
            writeln!(
                out,
                "Not Dead Yet: {} survives; {} {} → {}. Edge {}/{}.",
                s.name,
                lowered.attribute,
                lowered.from,
                lowered.to,
                s.edge.points,
                s.edge.attribute
            )?;
        }
        SolCommand::Train { file, skill } => {
            let mut s = load(file)?;
            if s.trained_this_session {
                return Err(bad(
                    "one training session per game session: already trained this session",
                ));
            }
            if s.skill_mut(skill).is_none() {
                s.skills.push(Skill::new(skill, 0));
            }
            let sk = s.skill_mut(skill).expect("added");
            let cost = sk.train().ok_or_else(|| {
                bad(format!(
                    "{skill}: already at the highest rank, {}",
                    u32::MAX
                ))
            })?;
            let ranks = sk.ranks;
            s.trained_this_session = true;
            save(file, &s)?;
            writeln!(
                out,
                "{skill} trained to rank {ranks}: cost rating {cost}; progress points cleared."
            )?;
        }
    }
    Ok(())
}

/// Records a test of `skill` on the sheet; a skill not yet listed joins it when it earns a
/// point.
fn record(s: &mut Sheet, skill: &str, t: &TestOutcome) -> solum_sol::advancement::Progress {
    match s.skill_mut(skill) {
        Some(sk) => sk.record_test(t),
        None => {
            let mut sk = Skill::new(skill, 0);
            let p = sk.record_test(t);
            if p.point {
                s.skills.push(sk);
            }
            p
        }
    }
}

fn test(args: &SolTestArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut s = load(&args.file)?;
    let attribute = s.attribute(&args.attribute).ok_or_else(|| {
        bad(format!(
            "{}: no attribute `{}`",
            args.file.display(),
            args.attribute
        ))
    })?;
    let ranks = s.ranks(&args.skill);
    let spec = PoolSpec {
        attribute: i64::from(attribute),
        ranks: i64::from(ranks),
        modifiers: args.modifiers.clone(),
        untrained_penalty: args.untrained_penalty,
        retry: args.retry,
    };
    // Every check before any die or Edge: a command that fails changes nothing.
    let pool = spec
        .build()
        .map_err(|e| bad(format!("--retry {}: {e}", args.retry)))?;
    let t = args.threshold.as_deref().map(threshold).transpose()?;
    if args.retry > 0 && t.is_none() {
        return Err(bad(
            "--retry: only a failed test against a --threshold is tried again",
        ));
    }
    let mut helper = match &args.assistant {
        Some(path) => Some((path, load(path)?)),
        None => None,
    };
    let assistant = match (args.assist_dice, &helper) {
        (Some(n), _) => Some(dice_in("--assist-dice", n)?),
        (None, Some((path, a))) => {
            let attr = a.attribute(&args.attribute).ok_or_else(|| {
                bad(format!(
                    "{}: no attribute `{}`",
                    path.display(),
                    args.attribute
                ))
            })?;
            let p = build(
                i64::from(attr),
                i64::from(a.ranks(&args.skill)),
                &[],
                args.untrained_penalty,
            )
            .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            Some(p.dice)
        }
        (None, None) => None,
    };
    let edge = edge_on_test(args.edge);
    // Edge declared before rolling: with no point left, nothing is rolled.
    match args.edge {
        Some(EdgeUse::Smackdown) => s.edge.burn(Burn::Smackdown),
        Some(EdgeUse::PushTheLimit) => s.edge.spend(Spend::PushTheLimit),
        Some(EdgeUse::SecondChance) => s.edge.spend(Spend::SecondChance),
        Some(EdgeUse::CloseCall) => s.edge.spend(Spend::CloseCall),
        None => Ok(()),
    }
    .map_err(|e| bad(format!("--edge: {e}")))?;
    if let Some(d) = args.against_dice {
        let attacker = TestSpec {
            dice: pool.dice,
            threshold: None,
            edge,
        };
        let defender = TestSpec {
            dice: dice_in("--against-dice", d)?,
            threshold: None,
            edge: edge_on_test(args.against_edge),
        };
        let (o, seed) = opposed_with_dice(
            &attacker,
            &defender,
            args.roll.rolled.as_deref(),
            args.against_rolled.as_deref(),
            args.roll.seed,
        )?;
        let progress = record(&mut s, &args.skill, &o.attacker);
        save(&args.file, &s)?;
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"pool": pool, "opposed": o, "progress": progress, "edge": s.edge, "seed": seed})
            )?;
            return Ok(());
        }
        let odds = opposed(attacker.dice, attacker.edge, defender.dice, defender.edge)
            .map_err(|e| bad(e.to_string()))?;
        writeln!(
            out,
            "{} {} + {} = {} dice",
            paint(HEAD, &s.name),
            args.skill,
            args.attribute,
            pool.dice
        )?;
        write_opposed(out, &o, &odds.success)?;
        render::write_seed(out, seed)?;
        if progress.point {
            writeln!(
                out,
                "  progress point in {}{}",
                args.skill,
                if progress.rank_up { ": RANK UP" } else { "" }
            )?;
        }
        writeln!(out, "  Edge {}/{}", s.edge.points, s.edge.attribute)?;
        return Ok(());
    }
    if then_edge(args.then).is_some() && s.edge.points == 0 {
        return Err(bad(format!(
            "--then: no Edge left to spend (0 of {})",
            s.edge.attribute
        )));
    }
    let ask = interactive(args.then, args.edge, args.roll.rolled.as_deref(), args.json)
        && s.edge.points > 0;
    let mut choose = |plain: &TestOutcome| match args.then {
        Some(then) => then_edge(Some(then)),
        None if ask => ask_then(plain).unwrap_or(None),
        None => None,
    };
    let order = "values go: the assistant's pool if it rolls, then the pool, then one die for each die a second chance rerolls";
    let (rolled, seed) =
        with_dice(
            args.roll.rolled.as_deref(),
            args.roll.seed,
            order,
            |d| match assistant {
                Some(n) => split(
                    roll_assisted(
                        &TestSpec {
                            dice: n,
                            threshold: None,
                            edge: None,
                        },
                        &spec,
                        t,
                        edge,
                        d,
                        &mut choose,
                    )
                    .map(|a| (Some(a.assistant), a.pool, a.test)),
                ),
                None => roll_test_then(
                    &TestSpec {
                        dice: pool.dice,
                        threshold: t,
                        edge,
                    },
                    d,
                    &mut choose,
                )
                .map(|o| Ok((None, pool.clone(), o))),
            },
        )?;
    let (help, pool, outcome) = rolled.map_err(|e| test_error(e, "--rolled", order))?;
    // Edge chosen after the dice: spent only when it was used.
    if args.edge.is_none() {
        match outcome.spec.edge {
            Some(EdgeOnTest::SecondChance) => s.edge.spend(Spend::SecondChance),
            Some(EdgeOnTest::CloseCall) => s.edge.spend(Spend::CloseCall),
            _ => Ok(()),
        }
        .map_err(|e| bad(format!("--then: {e}")))?;
    }
    let progress = record(&mut s, &args.skill, &outcome);
    let helper_progress = match (&mut helper, &help) {
        (Some((_, a)), Some(h)) => Some(record(a, &args.skill, h)),
        _ => None,
    };
    save(&args.file, &s)?;
    if let Some((path, a)) = &helper {
        save(path, a)?;
    }
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"pool": pool, "assistant": help, "assistant_progress": helper_progress, "test": outcome, "progress": progress, "edge": s.edge, "seed": seed})
        )?;
        return Ok(());
    }
    if let Some(h) = &help {
        let faces: Vec<String> = h.dice.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{} {}{} dice: {} → {} hit(s) offered",
            paint(HEAD, "Assistant"),
            helper
                .as_ref()
                .map(|(_, a)| format!("{}, ", a.name))
                .unwrap_or_default(),
            h.spec.dice,
            faces.join(" "),
            h.hits
        )?;
    }
    writeln!(
        out,
        "{} {} + {} ({} + {} ranks{}) = {} dice{}",
        paint(HEAD, &s.name),
        args.skill,
        args.attribute,
        attribute,
        ranks,
        if pool.applied != 0 {
            format!(" {:+}", pool.applied)
        } else {
            String::new()
        },
        pool.dice,
        if args.retry > 0 {
            format!(", try again number {}", args.retry)
        } else {
            String::new()
        }
    )?;
    if args.edge.is_none() && outcome.spec.edge.is_some() {
        writeln!(
            out,
            "  {} after the roll",
            edge_words(outcome.spec.edge).trim_start_matches(", ")
        )?;
    }
    write_test(out, &outcome, seed)?;
    if progress.point {
        writeln!(
            out,
            "  progress point in {}{}",
            args.skill,
            if progress.rank_up { ": RANK UP" } else { "" }
        )?;
    }
    if let Some(p) = helper_progress
        && p.point
    {
        writeln!(
            out,
            "  the assistant earns a progress point in {}",
            args.skill
        )?;
    }
    writeln!(out, "  Edge {}/{}", s.edge.points, s.edge.attribute)?;
    Ok(())
}

/// Asks at the terminal which of the tied attributes Not Dead Yet lowers.
fn ask_attribute(tied: &[String]) -> anyhow::Result<String> {
    let stdin = std::io::stdin();
    loop {
        eprint!(
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
        eprintln!("  `{answer}`: one of {}", tied.join(", "));
    }
}

/// A group action: the leader's test (`spec`) and one per other participant.
fn group_action(
    spec: &TestSpec,
    group: &str,
    args: &SolRollArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let pools = solum_dice::parse_faces(group).map_err(|e| bad(format!("--group: {e}")))?;
    let specs: Vec<TestSpec> = std::iter::once(Ok(*spec))
        .chain(pools.iter().map(|&p| {
            dice_count(i64::from(p)).map(|dice| TestSpec {
                dice,
                threshold: spec.threshold,
                edge: None,
            })
        }))
        .collect::<anyhow::Result<_>>()?;
    let (tests, seed) = with_dice(
        args.roll.rolled.as_deref(),
        args.roll.seed,
        "values go: the leader's pool, then each participant's",
        |d| {
            specs
                .iter()
                .map(|s| roll_test(s, d))
                .collect::<Result<Vec<_>, _>>()
        },
    )?;
    let g = solum_sol::test::group_action(&tests).expect("the leader is there");
    let success = spec.threshold.map(|t| g.hits >= t);
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"tests": tests, "best": g.best, "hits": g.hits, "leader_wounds": g.leader_wounds, "success": success, "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(out, "{} of {}", paint(HEAD, "Group action"), tests.len())?;
    for (i, t) in tests.iter().enumerate() {
        let faces: Vec<String> = t.dice.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "  {} {}: {} → {} hit(s){}",
            if i == 0 { "leader" } else { "member" },
            i + 1,
            faces.join(" "),
            t.hits,
            if i == g.best { "  (best)" } else { "" }
        )?;
    }
    writeln!(
        out,
        "  the group has {} hit(s){}; the leader takes {} Level 1 wound(s)",
        g.hits,
        match success {
            Some(true) => " — success",
            Some(false) => " — failure",
            None => "",
        },
        g.leader_wounds
    )?;
    render::write_seed(out, seed)?;
    Ok(())
}
