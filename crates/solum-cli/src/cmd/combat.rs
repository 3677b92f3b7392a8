//! `solum combat`: the combat tracker, from a script or interactively.

use std::io::{IsTerminal, Write};

use serde_json::json;
use solum_dice::SeededDice;
use solum_expanded::check::DrawRule;
use solum_expanded::combat::{Choice, Combat, Event};
use solum_play::describe;
use solum_play::encounter::{HELP, Line, Session, parse_line};
use solum_play::storage::load_bestiary;

use crate::bad;
use crate::cli::CombatArgs;
use crate::render::{self, DIM, HEAD, paint, percent};

pub fn run(args: &CombatArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.help_lines {
        writeln!(out, "{HELP}")?;
        return Ok(());
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

fn choice_text(c: &Choice, combat: &Combat) -> String {
    let target = &combat.fighters()[c.target].name;
    let odds = match (&c.odds, &c.p_success) {
        (Some(o), _) => format!(
            "win {}, draw {}, lose {}",
            percent(&o.win),
            percent(&o.draw),
            percent(&o.lose)
        ),
        (None, Some(p)) => format!(
            "{} {}",
            if c.action == "shoot" {
                "hit"
            } else {
                "success"
            },
            percent(p)
        ),
        (None, None) => String::new(),
    };
    format!("{} {target} ({}): {odds}", c.action, c.band.name())
}

fn write_choices(out: &mut dyn Write, combat: &Combat) -> std::io::Result<()> {
    let choices = combat.choices();
    // Carrying a ranged weapon not in hand: switching to it (the action) is a way to reach.
    let switch = combat
        .switch_to_shoot()
        .map(|w| format!("`switch {w}` (the action) to shoot next turn"));
    if choices.is_empty() && combat.acting().is_some() {
        let text = match &switch {
            Some(s) => format!("options: no attack from here: move closer first, or {s}"),
            None => "options: no attack from here: move closer first".to_owned(),
        };
        writeln!(out, "  {}", paint(DIM, text))?;
    } else if !choices.is_empty() {
        let texts: Vec<String> = choices.iter().map(|c| choice_text(c, combat)).collect();
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
