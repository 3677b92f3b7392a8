//! `solum odds sol`, `solum roll sol`, `solum sol …`: Project Sol.

use std::io::Write;
use std::path::Path;

use serde_json::json;
use solum_sol::advancement::Skill;
use solum_sol::edge::{Burn, Edge, Spend};
use solum_sol::odds::{opposed_odds, test_odds};
use solum_sol::pool::{build, buy_hits, parse_threshold, threshold_name};
use solum_sol::sheet::{SHEET_SCHEMA, Sheet};
use solum_sol::test::{EdgeOnTest, TestOutcome, TestSpec, roll_test};

use crate::bad;
use crate::cli::{EdgeUse, SolCommand, SolOddsArgs, SolRollArgs, SolTestArgs};
use crate::dice::with_dice;
use crate::render::{self, BAD, DIM, EVEN, GOOD, HEAD, paint, percent};

fn edge_on_test(e: Option<EdgeUse>) -> Option<EdgeOnTest> {
    e.map(|e| match e {
        EdgeUse::PushTheLimit => EdgeOnTest::PushTheLimit,
        EdgeUse::SecondChance => EdgeOnTest::SecondChance,
        EdgeUse::CloseCall => EdgeOnTest::CloseCall,
        EdgeUse::Smackdown => EdgeOnTest::Smackdown,
    })
}

fn threshold(text: &str) -> anyhow::Result<u32> {
    parse_threshold(text).map_err(|e| bad(format!("--threshold: {e}")))
}

fn dice_count(n: i64) -> anyhow::Result<u32> {
    if (1..=i64::from(solum_sol::pool::MAX_DICE)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(bad(format!(
            "--dice {n}: a pool has 1 to {} dice",
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
    } else {
        None
    };
    let o = test_odds(n, t, edge);
    let opposed = args
        .against
        .map(|d| dice_count(d).map(|d| opposed_odds(n, d, edge)))
        .transpose()?;
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
            v["p_attacker_succeeds"] = json!(render::to_f64(p));
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
            _ => "",
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
            "  against {} dice (the attacker wins ties): {}",
            args.against.unwrap_or(0),
            paint(HEAD, percent(&p))
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
    let mut modifiers = args.modifiers.clone();
    if let Some(hits) = args.assist {
        if hits < 0 {
            return Err(bad(format!(
                "--assist {hits}: an assistant's hits are 0 or more"
            )));
        }
        modifiers.push(hits);
    }
    let pool = match (args.dice, args.attribute) {
        (Some(d), _) => build(d, 0, &[], false).map(|mut p| {
            p.dice = p.dice.max(1);
            p
        }),
        (None, Some(a)) => build(a, args.ranks, &modifiers, args.untrained_penalty),
        (None, None) => unreachable!("clap requires one"),
    }
    .map_err(|e| bad(e.to_string()))?;
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
    let spec = TestSpec {
        dice: pool.dice,
        threshold: t,
        edge: edge_on_test(args.edge),
    };
    if let Some(group) = &args.group {
        return group_action(&spec, group, args, out);
    }
    let (outcome, seed) = with_dice(
        args.roll.rolled.as_deref(),
        args.roll.seed,
        "values go: the pool, then one die for each die a second chance rerolls",
        |d| roll_test(&spec, d),
    )?;
    let p = t.map(|t| test_odds(spec.dice, t, spec.edge).success);
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"pool": pool, "test": outcome, "p_success": p.as_ref().map(render::to_f64), "seed": seed})
        )?;
        return Ok(());
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
                    "modifier {:+} capped to {:+} by the skill's ranks",
                    pool.modifier, pool.applied
                )
            )
        )?;
    }
    write_test(out, &outcome, seed)?;
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
            let attr =
                |names: [&str; 2]| -> u32 { names.iter().filter_map(|n| sheet.attribute(n)).sum() };
            let (rea_int, bod_wil) = (attr(["REA", "INT"]), attr(["BOD", "WIL"]));
            let (spend, text) = match what {
                crate::cli::SpendUse::Blitz => (
                    Spend::Blitz,
                    format!("Blitz: add REA + INT = {rea_int} dice to this initiative test"),
                ),
                crate::cli::SpendUse::SeizeTheInitiative => (
                    Spend::SeizeTheInitiative,
                    "Seize the Initiative: top of the order for this round".to_owned(),
                ),
                crate::cli::SpendUse::DeadMansTrigger => (Spend::DeadMansTrigger, String::new()),
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
        SolCommand::NotDeadYet { file } => {
            let mut s = load(file)?;
            s.edge
                .burn(Burn::NotDeadYet)
                .map_err(|e| bad(e.to_string()))?;
            save(file, &s)?;
            writeln!(
                out,
                "Not Dead Yet: {} survives; lower the highest physical attribute by 1. Edge {}/{}.",
                s.name, s.edge.points, s.edge.attribute
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
    let pool = build(
        i64::from(attribute),
        i64::from(ranks),
        &args.modifiers,
        args.untrained_penalty,
    )
    .map_err(|e| bad(e.to_string()))?;
    let t = args.threshold.as_deref().map(threshold).transpose()?;
    let edge = edge_on_test(args.edge);
    // Edge first: if there is none to spend, nothing is rolled.
    match args.edge {
        Some(EdgeUse::Smackdown) => s.edge.burn(Burn::Smackdown),
        Some(EdgeUse::PushTheLimit) => s.edge.spend(Spend::PushTheLimit),
        Some(EdgeUse::SecondChance) => s.edge.spend(Spend::SecondChance),
        Some(EdgeUse::CloseCall) => s.edge.spend(Spend::CloseCall),
        None => Ok(()),
    }
    .map_err(|e| bad(e.to_string()))?;
    let spec = TestSpec {
        dice: pool.dice,
        threshold: t,
        edge,
    };
    let (outcome, seed) = with_dice(
        args.roll.rolled.as_deref(),
        args.roll.seed,
        "values go: the pool, then one die for each die a second chance rerolls",
        |d| roll_test(&spec, d),
    )?;
    let progress = match s.skill_mut(&args.skill) {
        Some(sk) => Some(sk.record(outcome.hits)),
        None => {
            let mut sk = Skill::new(&args.skill, 0);
            let p = sk.record(outcome.hits);
            if p.point {
                s.skills.push(sk);
            }
            Some(p)
        }
    };
    save(&args.file, &s)?;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"pool": pool, "test": outcome, "progress": progress, "edge": s.edge, "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {} + {} ({} + {} ranks{}) = {} dice",
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
        pool.dice
    )?;
    write_test(out, &outcome, seed)?;
    if let Some(p) = progress
        && p.point
    {
        writeln!(
            out,
            "  progress point in {}{}",
            args.skill,
            if p.rank_up { ": RANK UP" } else { "" }
        )?;
    }
    writeln!(out, "  Edge {}/{}", s.edge.points, s.edge.attribute)?;
    Ok(())
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
