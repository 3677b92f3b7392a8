//! `solum combat`: the combat tracker, from a script or interactively.

use std::io::{IsTerminal, Write};

use serde_json::json;
use solum_dice::SeededDice;
use solum_expanded::check::DrawRule;
use solum_expanded::combat::{Choice, Combat, Event};
use solum_play::describe;
use solum_play::encounter::{HELP, Line, Session, parse_line};
use solum_play::storage::load_bestiary;

use solum_app::combat::{CombatLineView, CombatStatus};
use solum_app::creatures::{CreatureChangeView, CreatureSource, CreatureView};

use crate::bad;
use crate::cli::{CombatAction, CombatArgs, CreatureCommand};
use crate::cli_campaign::CampaignArg;
use crate::render::{self, DIM, HEAD, paint, percent};

pub fn run(args: &CombatArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.help_lines {
        writeln!(out, "{HELP}")?;
        return Ok(());
    }
    if let Some(action) = &args.action {
        return campaign_action(action, out);
    }
    if let Some(path) = &args.attach {
        return attached(args, path, out);
    }
    let bestiary = load_bestiary(&args.bestiary).map_err(|e| bad(e.to_string()))?;
    let mut dice = match args.seed {
        Some(seed) => SeededDice::new(seed),
        None => SeededDice::from_entropy(),
    };
    let (text, base, interactive) = match &args.script {
        Some(path) => {
            let text = solum_play::storage::read_text(path).map_err(|e| bad(e.to_string()))?;
            let base = path.parent().map(ToOwned::to_owned).unwrap_or_default();
            (Some(text), base, false)
        }
        None => (
            None,
            std::path::PathBuf::from("."),
            std::io::stdin().is_terminal(),
        ),
    };
    let mut session = Session::new(bestiary, &base);
    if args.roll_off {
        session
            .set_draws(DrawRule::RollOff)
            .map_err(|e| bad(e.to_string()))?;
    }
    if !args.json {
        writeln!(
            out,
            "{}",
            paint(
                DIM,
                format!("seed {} (lines without `with` roll from it)", dice.seed())
            )
        )?;
    }
    if interactive {
        crate::say!("solum combat: type `help` for the lines, `quit` to leave.\n");
    }
    // Script lines, or standard input read one line at a time after the prompt.
    let mut script = text.map(|t| t.lines().map(str::to_owned).collect::<Vec<_>>().into_iter());
    let mut stdin = solum_play::storage::Lines::new(std::io::stdin().lock());
    for number in 0.. {
        if interactive {
            crate::say!("{}", prompt(&session));
        }
        let line = match &mut script {
            Some(lines) => match lines.next() {
                Some(l) => l,
                None => break,
            },
            None => match stdin.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(e) => return Err(bad(format!("standard input: {e}"))),
            },
        };
        let result = parse_line(&line).and_then(|parsed| {
            let events = session.run(&parsed, &mut dice)?;
            Ok((parsed, events))
        });
        match result {
            Ok((Line::Quit, _)) => break,
            Ok((Line::Help, _)) => writeln!(out, "{HELP}")?,
            Ok((Line::Status, _)) => write_status(out, &session)?,
            Ok((Line::Options, _)) => match session.combat() {
                Some(c) => write_choices(out, c)?,
                None => writeln!(out, "the combat has not started")?,
            },
            Ok((_, events)) => {
                if args.json {
                    if !events.is_empty() {
                        let names: Vec<&str> =
                            session.fighters().iter().map(|f| f.name.as_str()).collect();
                        writeln!(
                            out,
                            "{}",
                            json!({"line": number + 1, "events": events, "names": names})
                        )?;
                    }
                } else {
                    write_events(out, &session, &events)?;
                }
            }
            Err(err) => {
                let msg = format!("line {}: {err}", number + 1);
                if interactive {
                    crate::say!("{}: {msg}\n", render::error_label());
                } else {
                    return Err(bad(format!("{msg}\n  {}", line.trim())));
                }
            }
        }
    }
    if !args.json
        && let Some(c) = session.combat()
        && !c.is_over()
    {
        write_status(out, &session)?;
    }
    Ok(())
}

fn prompt(session: &Session) -> String {
    match session.combat().and_then(|c| c.acting().map(|a| (c, a))) {
        Some((c, a)) => {
            let (moved, acted) = c.turn_used();
            let left: Vec<&str> = [(!moved).then_some("move"), (!acted).then_some("action")]
                .into_iter()
                .flatten()
                .collect();
            format!(
                "[round {}] {} ({})> ",
                c.round(),
                c.fighters()[a].name,
                if left.is_empty() {
                    "end".to_owned()
                } else {
                    left.join(", ")
                }
            )
        }
        None => "setup> ".to_owned(),
    }
}

fn write_events(out: &mut dyn Write, session: &Session, events: &[Event]) -> std::io::Result<()> {
    let fighters = session.fighters();
    for e in events {
        let text = describe::event(e, fighters);
        if text.is_empty() {
            continue;
        }
        match e {
            Event::RoundStarted { .. } | Event::OrderSet { .. } => {
                writeln!(out, "{}", paint(HEAD, text))?
            }
            Event::TurnStarted { .. } => {
                writeln!(out, "{}", paint(HEAD, text))?;
                if let Some(c) = session.combat() {
                    write_choices(out, c)?;
                }
            }
            _ => writeln!(out, "  {text}")?,
        }
    }
    Ok(())
}

/// The words of an option before its odds: "melee orc bg Sailor (engaged)".
fn choice_label(
    action: &str,
    target: Option<&str>,
    weapon: Option<&str>,
    background: Option<&str>,
    defender_background: Option<&str>,
    band: Option<&str>,
) -> String {
    let mut label = action.to_owned();
    for w in [target, weapon].into_iter().flatten() {
        label.push(' ');
        label.push_str(w);
    }
    if let Some(b) = background {
        label.push_str(&format!(" bg {b}"));
    }
    if let Some(b) = defender_background {
        label.push_str(&format!(" defend-bg {b}"));
    }
    if let Some(band) = band {
        label.push_str(&format!(" ({band})"));
    }
    label
}

/// Whether an option rolls dice (the others are certain: moves, `switch`, `end turn`).
fn rolls(action: &str, opposed: bool) -> bool {
    opposed || matches!(action, "shoot" | "disengage")
}

/// The attacks among the options: what "no attack from here" looks for.
fn is_attack(action: &str) -> bool {
    matches!(action, "melee" | "unarmed" | "shoot" | "vehicle attack")
}

fn choice_text(c: &Choice, combat: &Combat) -> String {
    let target = c.target.map(|t| combat.fighters()[t].name.as_str());
    let label = choice_label(
        c.action,
        target,
        c.weapon.as_deref(),
        c.background.as_deref(),
        c.defender_background.as_deref(),
        c.band.map(|b| b.name()),
    );
    let odds = match (&c.odds, &c.p_success) {
        (Some(o), _) => format!(
            ": win {}, draw {}, lose {}",
            percent(&o.win),
            percent(&o.draw),
            percent(&o.lose)
        ),
        (None, Some(p)) if rolls(c.action, false) => format!(
            ": {} {}",
            if c.action == "shoot" {
                "hit"
            } else {
                "success"
            },
            percent(p)
        ),
        _ if c.uses_action => " (the action)".to_owned(),
        _ => String::new(),
    };
    format!("{label}{odds}")
}

fn write_choices(out: &mut dyn Write, combat: &Combat) -> std::io::Result<()> {
    let choices = combat.choices();
    // Carrying a ranged weapon not in hand: switching to it (the action) is a way to reach.
    let action_left = !combat.turn_used().1;
    let switch = combat
        .switch_to_shoot()
        .filter(|_| action_left)
        .map(|w| format!("`switch {w}` (the action) to shoot next turn"));
    if combat.acting().is_none() {
        return Ok(());
    }
    let texts: Vec<String> = choices.iter().map(|c| choice_text(c, combat)).collect();
    let vehicle = combat
        .acting()
        .is_some_and(|a| combat.fighters()[a].vehicle.is_some());
    if action_left && !vehicle && !choices.iter().any(|c| is_attack(c.action)) {
        let text = match &switch {
            Some(s) => format!("options: no attack from here: move closer first, or {s}"),
            None => "options: no attack from here: move closer first".to_owned(),
        };
        writeln!(
            out,
            "  {}",
            paint(DIM, format!("{text}; {}", texts.join("; ")))
        )?;
    } else {
        let holding = combat
            .acting()
            .map(|a| &combat.fighters()[a])
            .filter(|f| f.vehicle.is_none())
            .map(|f| format!("holding {}; ", f.held_name()))
            .unwrap_or_default();
        writeln!(
            out,
            "  {}",
            paint(
                DIM,
                format!(
                    "options: {holding}{}{}",
                    texts.join("; "),
                    switch.map(|s| format!("; or {s}")).unwrap_or_default()
                )
            )
        )?;
    }
    Ok(())
}

fn write_status(out: &mut dyn Write, session: &Session) -> std::io::Result<()> {
    let combat = session.combat();
    let acting = combat.and_then(Combat::acting);
    let mut table = render::table(
        &[
            "fighter",
            "side",
            "hit points",
            "pool",
            "damage",
            "weapon",
            "range to acting",
        ],
        &[2, 3, 4],
    );
    for (i, f) in session.fighters().iter().enumerate() {
        let range = match (combat, acting) {
            (Some(c), Some(a)) if a != i => c.band(a, i).name().to_owned(),
            (_, Some(a)) if a == i => "(acting)".to_owned(),
            _ => String::new(),
        };
        // The weapon in hand (S13): its pool and damage, melee or ranged.
        let (pool, damage, weapon) = match &f.vehicle {
            Some(v) => (
                format!("pilot {}", v.pilot_pool),
                v.vehicle.damage.to_string(),
                "vehicle".to_owned(),
            ),
            None => {
                let (pool, damage) = match f.ranged() {
                    Some(r) => (r.pool, format!("ranged {}", r.damage)),
                    None => (f.melee().0, f.melee().1.to_string()),
                };
                (pool.to_string(), damage, f.held_name().to_owned())
            }
        };
        table.add_row(vec![
            f.name.clone(),
            f.side.clone(),
            if f.is_out() {
                "OUT".to_owned()
            } else {
                format!("{}/{}", f.hit_points, f.max_hit_points)
            },
            pool,
            damage,
            weapon,
            range,
        ]);
    }
    writeln!(out, "{table}")
}

/// `solum combat start|do|status|end`: one application call each, its view rendered.
fn campaign_action(action: &CombatAction, out: &mut dyn Write) -> anyhow::Result<()> {
    match action {
        CombatAction::Start {
            name,
            roll_off,
            json,
            campaign,
        } => {
            let view = super::campaign::open(campaign)?.start_combat(name.as_deref(), *roll_off)?;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
            } else {
                writeln!(
                    out,
                    "combat \"{}\" started{} (journal entry {}); fighters join with `solum combat do \"hero NAME\"` and `\"foe CREATURE\"`",
                    view.name,
                    if view.roll_off {
                        ", draws rolled off"
                    } else {
                        ""
                    },
                    view.seq
                )?;
            }
        }
        CombatAction::Do {
            line,
            seed,
            json,
            campaign,
        } => {
            let view = super::campaign::open(campaign)?.combat_line(line, *seed)?;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
            } else {
                write_line_view(out, &view)?;
            }
        }
        CombatAction::Status { json, campaign } => {
            let status = super::campaign::open_existing(campaign)?.combat_status()?;
            match (status, json) {
                (status, true) => writeln!(out, "{}", serde_json::to_string(&status)?)?,
                (Some(status), false) => write_combat_status(out, &status)?,
                (None, false) => writeln!(
                    out,
                    "no combat is open (start one with `solum combat start`)"
                )?,
            }
        }
        CombatAction::End { json, campaign } => {
            let view = super::campaign::open(campaign)?.end_combat()?;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
            } else {
                write_combat_status(out, &view.status)?;
                writeln!(
                    out,
                    "combat \"{}\" ended (journal entry {})",
                    view.status.name, view.seq
                )?;
                for w in &view.written {
                    match (w.before, w.after) {
                        (Some(before), Some(after)) => writeln!(
                            out,
                            "  {}: {} hit points in the fight → {}; sheet {before} → {after}",
                            w.name, w.joined, w.left
                        )?,
                        _ => writeln!(
                            out,
                            "  {}: no longer in the campaign, nothing written",
                            w.name
                        )?,
                    }
                }
            }
        }
    }
    Ok(())
}

/// A script or standard input played on the campaign's open combat, one stored line at a
/// time: a script stops at the first refused line (the lines before it stay played).
fn attached(args: &CombatArgs, path: &std::path::Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut campaign = super::campaign::open(&CampaignArg {
        campaign: Some(path.to_owned()),
        database: None,
    })?;
    let (text, interactive) = match &args.script {
        Some(path) => (
            Some(solum_play::storage::read_text(path).map_err(|e| bad(e.to_string()))?),
            false,
        ),
        None => (None, std::io::stdin().is_terminal()),
    };
    if campaign.combat_status()?.is_none() {
        return Err(bad(
            "--campaign: no combat is open in this campaign (start one with `solum combat start`)",
        ));
    }
    if interactive {
        crate::say!(
            "solum combat (campaign): type `help` for the lines, `quit` to leave; every line is kept.\n"
        );
    }
    let mut script = text.map(|t| t.lines().map(str::to_owned).collect::<Vec<_>>().into_iter());
    let mut stdin = solum_play::storage::Lines::new(std::io::stdin().lock());
    for number in 1.. {
        if interactive {
            crate::say!("campaign> ");
        }
        let line = match &mut script {
            Some(lines) => match lines.next() {
                Some(l) => l,
                None => break,
            },
            None => match stdin.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(e) => return Err(bad(format!("standard input: {e}"))),
            },
        };
        let result = match parse_line(&line) {
            Err(e) => Err(bad(e.to_string())),
            Ok(Line::Blank) => continue,
            Ok(Line::Quit) => break,
            Ok(Line::Help) => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            Ok(Line::Status | Line::Options) => {
                match campaign.combat_status()? {
                    Some(s) if args.json => writeln!(out, "{}", serde_json::to_string(&s)?)?,
                    Some(s) => write_combat_status(out, &s)?,
                    None => writeln!(out, "no combat is open")?,
                }
                continue;
            }
            Ok(_) => campaign.combat_line(&line, None).map_err(Into::into),
        };
        match result {
            Ok(view) if args.json => writeln!(out, "{}", serde_json::to_string(&view)?)?,
            Ok(view) => write_line_view(out, &view)?,
            Err(err) => {
                let msg = format!("line {number}: {err:#}");
                if interactive {
                    crate::say!("{}: {msg}\n", render::error_label());
                } else {
                    // Refused input stays bad input (exit 2); a busy campaign stays exit 1.
                    return Err(match err.downcast::<solum_app::AppError>() {
                        Ok(app) if app.kind() != solum_app::ErrorKind::BadInput => app.into(),
                        _ => bad(format!("{msg}\n  {}", line.trim())),
                    });
                }
            }
        }
    }
    Ok(())
}

fn write_line_view(out: &mut dyn Write, view: &CombatLineView) -> std::io::Result<()> {
    if let Some(seed) = view.line.seed {
        writeln!(
            out,
            "{}",
            paint(
                DIM,
                format!("dice {} (seed {seed})", render::faces(&view.line.faces))
            )
        )?;
    }
    if let Some(c) = &view.line.character {
        writeln!(
            out,
            "  {} joins from the campaign: {}/{} hit points",
            c.name,
            c.hit_points,
            c.max_hit_points()
        )?;
    }
    for text in view.text.iter().filter(|t| !t.is_empty()) {
        writeln!(out, "  {text}")?;
    }
    let s = &view.status;
    if !s.started {
        let names: Vec<&str> = s.fighters.iter().map(|f| f.name.as_str()).collect();
        writeln!(out, "  fighters: {}", names.join(", "))?;
    } else if s.over {
        writeln!(
            out,
            "{}",
            paint(
                HEAD,
                "the fight is over: `solum combat end` writes the hit points back"
            )
        )?;
    } else if let Some(a) = &s.acting {
        writeln!(
            out,
            "{}",
            paint(HEAD, format!("round {}: {a} acts", s.round))
        )?;
        write_status_choices(out, s)?;
    }
    Ok(())
}

fn write_status_choices(out: &mut dyn Write, s: &CombatStatus) -> std::io::Result<()> {
    if s.choices.is_empty() {
        return Ok(());
    }
    let pct = |p: f64| format!("{:.1}%", p * 100.0);
    let texts: Vec<String> = s
        .choices
        .iter()
        .map(|c| {
            let label = choice_label(
                c.action,
                c.target.as_deref(),
                c.weapon.as_deref(),
                c.background.as_deref(),
                c.defender_background.as_deref(),
                c.band,
            );
            match (c.p_draw, c.p_lose) {
                (Some(d), Some(l)) => format!(
                    "{label}: win {}, draw {}, lose {}",
                    pct(c.p_success),
                    pct(d),
                    pct(l)
                ),
                _ if rolls(c.action, false) => format!(
                    "{label}: {} {}",
                    if c.action == "shoot" {
                        "hit"
                    } else {
                        "success"
                    },
                    pct(c.p_success)
                ),
                _ if c.uses_action => format!("{label} (the action)"),
                _ => label,
            }
        })
        .collect();
    writeln!(
        out,
        "  {}",
        paint(DIM, format!("options: {}", texts.join("; ")))
    )
}

fn write_combat_status(out: &mut dyn Write, s: &CombatStatus) -> std::io::Result<()> {
    let state = if !s.started {
        "setting up".to_owned()
    } else if s.over {
        format!("round {}, over", s.round)
    } else {
        format!(
            "round {}, {} acts",
            s.round,
            s.acting.as_deref().unwrap_or("nobody")
        )
    };
    writeln!(
        out,
        "{}",
        paint(
            HEAD,
            format!("combat \"{}\" ({state}; {} lines)", s.name, s.lines)
        )
    )?;
    if !s.order.is_empty() {
        writeln!(out, "order: {}", s.order.join(", "))?;
    }
    let mut table = render::table(&["fighter", "side", "hit points", "weapon", "from"], &[2]);
    for f in &s.fighters {
        table.add_row(vec![
            f.name.clone(),
            f.side.clone(),
            if f.out {
                "OUT".to_owned()
            } else {
                format!("{}/{}", f.hit_points, f.max_hit_points)
            },
            f.weapon.clone(),
            if f.character { "campaign" } else { "" }.to_owned(),
        ]);
    }
    writeln!(out, "{table}")?;
    if s.started {
        // Only the pairs away from the starting band are listed (the view is compact).
        let ranges: Vec<String> = s
            .ranges
            .iter()
            .map(|r| format!("{}–{} {}", r.a, r.b, r.band))
            .collect();
        if ranges.is_empty() {
            writeln!(out, "ranges: every pair {}", s.range_default)?;
        } else {
            writeln!(
                out,
                "ranges: {}; every other pair {}",
                ranges.join("; "),
                s.range_default
            )?;
        }
    }
    write_status_choices(out, s)
}

/// `solum creature …`.
pub fn creature(command: &CreatureCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        CreatureCommand::Add {
            file,
            json,
            campaign,
        } => {
            let text = solum_play::storage::read_text(file).map_err(|e| bad(e.to_string()))?;
            let views = super::campaign::open(campaign)?
                .add_creatures(&text)
                .map_err(|e| match e.kind() {
                    solum_app::ErrorKind::BadInput => bad(format!("{}: {e}", file.display())),
                    _ => e.into(),
                })?;
            write_changes(out, &views, *json, "added")
        }
        CreatureCommand::Remove {
            name,
            json,
            campaign,
        } => {
            let view = super::campaign::open(campaign)?.remove_creature(name)?;
            write_changes(out, &[view], *json, "removed")
        }
        CreatureCommand::List { json, campaign } => {
            let views = super::campaign::open_existing(campaign)?.creatures()?;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&views)?)?;
                return Ok(());
            }
            let mut table = render::table(
                &["creature", "pool", "hp", "damage", "mind", "ranged", "from"],
                &[1, 2, 3, 4],
            );
            for v in &views {
                table.add_row(creature_row(v));
            }
            writeln!(out, "{table}")?;
            Ok(())
        }
        CreatureCommand::Show {
            name,
            json,
            campaign,
        } => {
            let view = super::campaign::open_existing(campaign)?.creature(name)?;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
                return Ok(());
            }
            let c = &view.creature;
            let row = creature_row(&view);
            writeln!(out, "{}", paint(HEAD, &c.name))?;
            writeln!(
                out,
                "pool {}, {} hit points, damage {}, mind {}, ranged {} ({})",
                row[1], row[2], row[3], row[4], row[5], row[6]
            )?;
            if !c.notes.is_empty() {
                writeln!(out, "{}", c.notes)?;
            }
            Ok(())
        }
    }
}

fn creature_row(v: &CreatureView) -> Vec<String> {
    let c = &v.creature;
    vec![
        c.name.clone(),
        c.pool.to_string(),
        c.hit_points.to_string(),
        c.damage.to_string(),
        c.mind.to_string(),
        // "AV": made to fight vehicles (S10).
        c.ranged_damage.map_or("-".to_owned(), |d| {
            if c.anti_vehicle {
                format!("{d} AV")
            } else {
                d.to_string()
            }
        }),
        match v.source {
            CreatureSource::Shipped => "shipped",
            CreatureSource::Campaign => "campaign",
        }
        .to_owned(),
    ]
}

fn write_changes(
    out: &mut dyn Write,
    views: &[CreatureChangeView],
    json: bool,
    what: &str,
) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(views)?)?;
        return Ok(());
    }
    for v in views {
        writeln!(out, "{what} {} (journal entry {})", v.creature.name, v.seq)?;
    }
    Ok(())
}
