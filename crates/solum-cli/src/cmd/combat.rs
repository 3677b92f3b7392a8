//! `solum combat`: the combat tracker, from a script or interactively.

use std::io::{IsTerminal, Write};

use solum_app::combat::{
    ChoiceView, CombatLineView, CombatStatus, HELP, LineKind, OneShotCombat, SheetResolver,
    line_kind,
};
use solum_app::creatures::{CreatureChangeView, CreatureSource, CreatureView};

use crate::bad;
use crate::cli::{CombatAction, CombatArgs, CreatureCommand};
use crate::cli_campaign::CampaignArg;
use crate::render::{self, DIM, HEAD, paint, percent_f64};
use crate::storage::load_bestiary;

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
    let (text, base, interactive) = match &args.script {
        Some(path) => {
            let text = crate::storage::read_text(path, crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let base = path.parent().map(ToOwned::to_owned).unwrap_or_default();
            (Some(text), base, false)
        }
        None => (
            None,
            std::path::PathBuf::from("."),
            std::io::stdin().is_terminal(),
        ),
    };
    let mut fight = OneShotCombat::start(
        bestiary,
        args.roll_off,
        args.seed,
        Some(Box::new(SheetFiles { base })),
    )?;
    if !args.json {
        writeln!(
            out,
            "{}",
            paint(
                DIM,
                format!("seed {} (lines without `with` roll from it)", fight.seed())
            )
        )?;
    }
    if interactive {
        crate::say!("solum combat: type `help` for the lines, `quit` to leave.\n");
    }
    // Script lines, or standard input read one line at a time after the prompt.
    let mut script = text.map(|t| t.lines().map(str::to_owned).collect::<Vec<_>>().into_iter());
    let mut stdin = crate::storage::Lines::new(std::io::stdin().lock());
    let mut status = None;
    for number in 1.. {
        if interactive {
            crate::say!("{}", prompt(status.as_deref()));
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
        let played = one_line(&mut fight, &line, args.json, out);
        match played {
            Ok(Some(Played::Quit)) => break,
            Ok(Some(Played::Status(s))) => status = Some(s),
            Ok(None) => {}
            Err(err) => {
                let msg = refusal(number, &err);
                if interactive {
                    crate::say!("{}: {msg}\n", render::error_label());
                } else {
                    return Err(refused(err, &msg, &line));
                }
            }
        }
    }
    if !args.json {
        let s = fight.status()?;
        if s.started && !s.over {
            write_combat_status(out, &s)?;
        }
    }
    Ok(())
}

/// A refused line's message: its number, then what is wrong (the number stands for the
/// field the app names, "line").
fn refusal(number: u64, err: &anyhow::Error) -> String {
    use solum_app::fields::CombatField;
    let text = match err
        .downcast_ref::<solum_app::AppError>()
        .and_then(|app| app.refused_field::<CombatField>())
    {
        Some((CombatField::Line, problem)) => problem.to_owned(),
        _ => format!("{err:#}"),
    };
    format!("line {number}: {text}")
}

/// A script's refused line as the command's error: refused input stays bad input (exit 2),
/// quoting the line; anything else (a busy campaign, a failed write) keeps its own.
fn refused(err: anyhow::Error, msg: &str, line: &str) -> anyhow::Error {
    match err.downcast::<solum_app::AppError>() {
        Ok(app) if app.kind() != solum_app::ErrorKind::BadInput => app.into(),
        Ok(_) => bad(format!("{msg}\n  {}", line.trim())),
        Err(other) if other.is::<crate::BadInput>() => bad(format!("{msg}\n  {}", line.trim())),
        Err(other) => other,
    }
}

/// What a line of a one-shot combat left for the loop.
enum Played {
    /// Where the combat stands after the line.
    Status(Box<CombatStatus>),
    /// The player left.
    Quit,
}

/// One line of a one-shot combat: played, shown or refused.
fn one_line(
    fight: &mut OneShotCombat,
    line: &str,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<Option<Played>> {
    match line_kind(line)? {
        LineKind::Blank => Ok(None),
        LineKind::Quit => Ok(Some(Played::Quit)),
        LineKind::Help => {
            writeln!(out, "{HELP}")?;
            Ok(None)
        }
        kind @ (LineKind::Status | LineKind::Options) => {
            let s = fight.status()?;
            if json {
                writeln!(out, "{}", serde_json::to_string(&s)?)?;
            } else if kind == LineKind::Status {
                write_combat_status(out, &s)?;
            } else if s.started {
                write_choices(out, &s)?;
            } else {
                writeln!(out, "the combat has not started")?;
            }
            Ok(Some(Played::Status(Box::new(s))))
        }
        LineKind::Play => {
            let view = fight.play(line)?;
            if json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
            } else {
                write_events(out, &view)?;
            }
            Ok(Some(Played::Status(Box::new(view.status))))
        }
    }
}

/// `hero FILE` lines read their sheets relative to the script's folder, through the one
/// bounded reader.
struct SheetFiles {
    base: std::path::PathBuf,
}

impl SheetResolver for SheetFiles {
    fn sheet(&self, path: &str) -> Result<solum_app::Character, String> {
        crate::storage::load_character(&self.base.join(path)).map_err(|e| e.to_string())
    }
}

/// "[round 2] Nick (move, action)> " on a fighter's turn, "setup> " before the fight.
fn prompt(status: Option<&CombatStatus>) -> String {
    match status
        .filter(|s| s.started && !s.over)
        .and_then(|s| s.acting.as_ref().map(|a| (s, a)))
    {
        Some((s, acting)) => {
            let left: Vec<&str> = [
                s.move_left.then_some("move"),
                s.action_left.then_some("action"),
            ]
            .into_iter()
            .flatten()
            .collect();
            format!(
                "[round {}] {acting} ({})> ",
                s.round,
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

/// A line's events, one sentence each: the order, a round and a turn as headings, and the
/// acting fighter's options under each turn.
fn write_events(out: &mut dyn Write, view: &CombatLineView) -> std::io::Result<()> {
    let kinds = view
        .events
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, text) in view.text.iter().enumerate() {
        if text.is_empty() {
            continue;
        }
        match kinds.get(i).and_then(|e| e["event"].as_str()) {
            Some("round-started" | "order-set") => writeln!(out, "{}", paint(HEAD, text))?,
            Some("turn-started") => {
                writeln!(out, "{}", paint(HEAD, text))?;
                write_choices(out, &view.status)?;
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

/// `solum combat start|do|status|end`: one application call each, its view rendered.
fn campaign_action(action: &CombatAction, out: &mut dyn Write) -> anyhow::Result<()> {
    match action {
        CombatAction::Start {
            name,
            roll_off,
            json,
            campaign,
        } => {
            let view = super::campaign::on_campaign(campaign, |here| {
                here.start_combat(name.as_deref(), *roll_off)
            })??;
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
            let view =
                super::campaign::on_campaign(campaign, |here| here.combat_line(line, *seed))??;
            if *json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
            } else {
                write_line_view(out, &view)?;
            }
        }
        CombatAction::Status { json, campaign } => {
            let answer = super::campaign::on_campaign(campaign, |here| here.combat_answer())??;
            match (&answer.combat, json) {
                (_, true) => writeln!(out, "{}", serde_json::to_string(&answer)?)?,
                (Some(status), false) => write_combat_status(out, status)?,
                (None, false) => writeln!(
                    out,
                    "no combat is open (start one with `solum combat start`)"
                )?,
            }
        }
        CombatAction::End { json, campaign } => {
            let view = super::campaign::on_campaign(campaign, |here| here.end_combat())??;
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
    let mut campaign = super::campaign::held(&CampaignArg {
        campaign: Some(path.to_owned()),
        database: None,
    })?;
    let (text, interactive) = match &args.script {
        Some(path) => (
            Some(
                crate::storage::read_text(path, crate::storage::MAX_FILE_BYTES)
                    .map_err(|e| bad(e.to_string()))?,
            ),
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
    let mut stdin = crate::storage::Lines::new(std::io::stdin().lock());
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
        let result = match line_kind(&line) {
            Err(e) => Err(e.into()),
            Ok(LineKind::Blank) => continue,
            Ok(LineKind::Quit) => break,
            Ok(LineKind::Help) => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            Ok(LineKind::Status | LineKind::Options) => {
                match campaign.combat_status()? {
                    Some(s) if args.json => writeln!(out, "{}", serde_json::to_string(&s)?)?,
                    Some(s) => write_combat_status(out, &s)?,
                    None => writeln!(out, "no combat is open")?,
                }
                continue;
            }
            Ok(LineKind::Play) => campaign.combat_line(&line, None).map_err(Into::into),
        };
        match result {
            Ok(view) if args.json => writeln!(out, "{}", serde_json::to_string(&view)?)?,
            Ok(view) => write_line_view(out, &view)?,
            Err(err) => {
                let msg = refusal(number, &err);
                if interactive {
                    crate::say!("{}: {msg}\n", render::error_label());
                } else {
                    return Err(refused(err, &msg, &line));
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
        write_choices(out, s)?;
    }
    Ok(())
}

/// An option as text: "melee orc (engaged): win 59.26%, draw 14.00%, lose 26.74%".
fn choice_text(c: &ChoiceView) -> String {
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
            percent_f64(c.p_success),
            percent_f64(d),
            percent_f64(l)
        ),
        _ if rolls(c.action, false) => format!(
            "{label}: {} {}",
            if c.action == "shoot" {
                "hit"
            } else {
                "success"
            },
            percent_f64(c.p_success)
        ),
        _ if c.uses_action => format!("{label} (the action)"),
        _ => label,
    }
}

/// The acting fighter's options: what it holds, each option with its odds, and when no
/// attack reaches, what would (moving closer, or switching to a ranged weapon).
fn write_choices(out: &mut dyn Write, s: &CombatStatus) -> std::io::Result<()> {
    let Some(acting) = s.acting.as_ref().filter(|_| !s.over) else {
        return Ok(());
    };
    let fighter = s.fighters.iter().find(|f| &f.name == acting);
    let vehicle = fighter.is_some_and(|f| f.vehicle);
    let texts: Vec<String> = s.choices.iter().map(choice_text).collect();
    let switch = s
        .switch_to_shoot
        .as_ref()
        .map(|w| format!("`switch {w}` (the action) to shoot next turn"));
    let text = if s.action_left && !vehicle && !s.choices.iter().any(|c| is_attack(c.action)) {
        match &switch {
            Some(w) => format!(
                "options: no attack from here: move closer first, or {w}; {}",
                texts.join("; ")
            ),
            None => format!(
                "options: no attack from here: move closer first; {}",
                texts.join("; ")
            ),
        }
    } else {
        let holding = fighter
            .filter(|f| !f.vehicle)
            .map(|f| format!("holding {}; ", f.weapon))
            .unwrap_or_default();
        format!(
            "options: {holding}{}{}",
            texts.join("; "),
            switch.map(|w| format!("; or {w}")).unwrap_or_default()
        )
    };
    writeln!(out, "  {}", paint(DIM, text))
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
            if f.vehicle {
                "vehicle".to_owned()
            } else {
                f.weapon.clone()
            },
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
    write_choices(out, s)
}

/// `solum creature …`.
pub fn creature(command: &CreatureCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        CreatureCommand::Add {
            file,
            json,
            campaign,
        } => {
            let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let views = super::campaign::on_campaign(campaign, |here| here.add_creatures(&text))?
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
            let view = super::campaign::on_campaign(campaign, |here| here.remove_creature(name))??;
            write_changes(out, &[view], *json, "removed")
        }
        CreatureCommand::List { json, campaign } => {
            if *json {
                // What `GET /api/bestiary` answers: every creature with the word a combat
                // line names it by, and the static oppositions.
                let view = super::campaign::on_campaign(campaign, |here| here.bestiary())??;
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
                return Ok(());
            }
            let views = super::campaign::on_campaign(campaign, |here| here.creatures())??;
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
            let view = super::campaign::on_campaign(campaign, |here| here.creature(name))??;
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
            CreatureSource::File => "file",
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
