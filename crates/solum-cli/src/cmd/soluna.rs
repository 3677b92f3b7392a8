//! `solum odds soluna`, `solum roll soluna`, `solum soluna …` (characters, tests, skirmishes).

use std::io::Write;

use solum_app::soluna_once::{
    Character, Event, Field, SolunaOddsView, SolunaOnceError, SolunaRollView, Target,
};

use crate::bad;
use crate::cli::{
    SkirmishActionArg, SkirmishPlay, SolunaAttackArg, SolunaCommand, SolunaEditArgs,
    SolunaOddsArgs, SolunaRollArgs,
};
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint, percent_f64};
use solum_app::fields::SolunaField;
use solum_app::soluna::{AttackOdds, PlayView, SkirmishState, SolunaEdit};

/// The flag of a field of a one-shot test.
fn flag(field: Field) -> String {
    match field {
        Field::Typed => "--rolled".to_owned(),
        f => format!("--{}", f.name().replace('_', "-")),
    }
}

/// A refusal of a one-shot test, named by its flag.
fn once_error(e: SolunaOnceError) -> anyhow::Error {
    match e {
        e if e.is_bad_input() => bad(e.describe(flag)),
        e => anyhow::Error::new(e),
    }
}

fn target(t: &crate::cli::SolunaTarget) -> Target {
    Target {
        tn: t.tn,
        body: t.body,
        shield: t.shield,
        melee: t.melee,
    }
}

/// Flips shown one per line after a roll; beyond, a count.
const FLIP_LINES: usize = 20;

/// `solum odds soluna`: the app's exact odds of the test as typed.
pub fn odds(args: &SolunaOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let view = solum_app::soluna_once::soluna_odds(args.dice, args.flips, target(&args.target));
    if args.json {
        return super::campaign::write_json(out, &view);
    }
    write_odds(&view, args.target.tn, out)
}

fn write_odds(v: &SolunaOddsView, tn: Option<u32>, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} dice, {} net flip(s): largest group mean {:.3}",
        v.dice, v.flips, v.mean
    )?;
    let mut table = render::table(&["largest", "exactly", "at least"], &[0, 1, 2]);
    for row in &v.rows {
        table.add_row(vec![
            row.largest.to_string(),
            percent_f64(row.p),
            percent_f64(row.at_least),
        ]);
    }
    writeln!(out, "{table}")?;
    if let (Some(tn), Some(p)) = (tn, v.p_tn) {
        writeln!(out, "target number {tn}: {}", paint(HEAD, percent_f64(p)))?;
    }
    if let Some(d) = &v.damage {
        let parts: Vec<String> = d
            .iter()
            .map(|(k, p)| format!("{k}: {}", percent_f64(*p)))
            .collect();
        writeln!(out, "damage: {}", parts.join(", "))?;
    }
    Ok(())
}

/// `solum roll soluna`: one test through the app.
pub fn roll(args: &SolunaRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let view = solum_app::soluna_once::roll_soluna(
        args.dice,
        args.flips,
        args.against_flips,
        target(&args.target),
        super::campaign::dice(args.roll.seed, args.roll.rolled.as_deref())?,
    )
    .map_err(once_error)?;
    if args.json {
        return super::campaign::write_json(out, &view);
    }
    write_roll(&view, args.target.tn, out)
}

fn write_roll(v: &SolunaRollView, tn: Option<u32>, out: &mut dyn Write) -> anyhow::Result<()> {
    let t = &v.test;
    let faces = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    writeln!(
        out,
        "{} {} dice, {} net flip(s)",
        paint(HEAD, "Sol'una test"),
        t.spec.dice,
        t.spec.net_flips
    )?;
    writeln!(out, "  rolled   {}", faces(&t.rolled))?;
    for f in t.flips.iter().take(FLIP_LINES) {
        writeln!(out, "  flip     die {}: {} → {}", f.die + 1, f.from, f.to)?;
    }
    if t.flips.len() > FLIP_LINES {
        writeln!(
            out,
            "  flip     … {} more (--json lists every flip)",
            t.flips.len() - FLIP_LINES
        )?;
    }
    if !t.flips.is_empty() {
        writeln!(out, "  now      {}", faces(&t.faces))?;
    }
    writeln!(out, "  largest  {} × {}", v.largest, v.face)?;
    if let Some(d) = v.damage {
        writeln!(out, "  damage   {d}")?;
    }
    if let (Some(tn), Some(ok)) = (tn, v.passed) {
        writeln!(
            out,
            "  target {tn}: {}",
            if ok {
                paint(GOOD, "PASSED")
            } else {
                paint(BAD, "FAILED")
            }
        )?;
    }
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// The flag of a new or edited character's field (`solum soluna new`, `soluna edit`).
fn new_flag(field: SolunaField) -> Option<&'static str> {
    use SolunaField as F;
    Some(match field {
        F::Name => "the name",
        F::Side => "--side",
        F::Mind => "--mind",
        F::Body => "--body",
        F::Shield => "--shield",
        F::HitPoints => "--hit-points",
        F::Melee => "--melee",
        F::Ranged => "--ranged",
        F::Flips => "--flips",
        F::Guard => "--guard",
        F::FlipsPerTest => "--flips-per-test",
        F::ExtraDice => "--extra-dice",
        F::DiceGuard => "--dice-guard",
        F::DicePerTest => "--dice-per-test",
    })
}

pub fn run(command: &SolunaCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    use super::campaign::{in_campaign, on_campaign, write_json};
    match command {
        SolunaCommand::Skirmish(a) => match &a.play {
            Some(play) => skirmish_play(play, out),
            None => {
                if let [file] = a.who.as_slice()
                    && file.ends_with(".toml")
                {
                    return skirmish_file(
                        std::path::Path::new(file),
                        a.seed,
                        a.rolled.as_deref(),
                        a.json,
                        out,
                    );
                }
                if !a.auto {
                    return Err(bad(format!(
                        "a skirmish of campaign characters is played: `solum soluna skirmish start {}` \
                         (then `act NAME attack|move TARGET`); `--auto` lets the tactic fight it whole",
                        a.who.join(" ")
                    )));
                }
                let view = in_campaign(&a.campaign, |here| {
                    Ok(here.soluna_skirmish(
                        &a.who,
                        super::campaign::dice(a.seed, a.rolled.as_deref())?,
                    )?)
                })?;
                if a.json {
                    return write_json(out, &view);
                }
                write_events(out, &view.names, &view.events)?;
                render::write_seed(out, view.rolled.seed).map_err(Into::into)
            }
        },
        SolunaCommand::Test(a) => {
            let request = solum_app::soluna::SolunaTest {
                attack: match a.attack {
                    SolunaAttackArg::Melee => solum_app::soluna::SolunaAttack::Melee,
                    SolunaAttackArg::Ranged => solum_app::soluna::SolunaAttack::Ranged,
                },
                flips: a.flips,
                against: a.against,
                target: a.tn,
            };
            let d = &a.dice;
            let view = in_campaign(&d.campaign, |here| {
                Ok(here.soluna_test(
                    &a.name,
                    &request,
                    super::campaign::dice(d.seed, d.rolled.as_deref())?,
                )?)
            })?;
            if d.json {
                return write_json(out, &view);
            }
            write_test(out, &view)
        }
        SolunaCommand::New(a) => {
            let c = Character {
                name: a.name.clone(),
                side: a.side.clone(),
                mind: a.mind,
                body: a.body,
                shield: a.shield,
                hit_points: a.hit_points,
                melee: a.melee,
                ranged: a.ranged,
                flips: a.flips,
                guard: a.guard,
                flips_per_test: a.flips_per_test,
                extra_dice: a.extra_dice,
                dice_guard: a.dice_guard,
                dice_per_test: a.dice_per_test,
            };
            let view = on_campaign(&a.campaign, |here| here.create_soluna_character(&c))?
                .map_err(|e| super::flagged(e, new_flag))?;
            if a.json {
                return write_json(out, &view);
            }
            for v in &view.characters {
                write_character(out, v)?;
            }
            writeln!(out, "{}", paint(DIM, format!("journal entry {}", view.seq)))?;
            Ok(())
        }
        SolunaCommand::Edit(a) => edit(a, out),
        SolunaCommand::Show {
            name,
            json: as_json,
            campaign,
        } => {
            let v = on_campaign(campaign, |here| here.soluna_character(name))??;
            if *as_json {
                return write_json(out, &v);
            }
            write_character(out, &v)
        }
        SolunaCommand::List {
            json: as_json,
            campaign,
        } => {
            let all = on_campaign(campaign, |here| here.owned_soluna_characters())??;
            if *as_json {
                return write_json(out, &all);
            }
            if all.is_empty() {
                writeln!(
                    out,
                    "No Sol'una characters yet: `solum soluna new NAME …` or `solum soluna import FILE`."
                )?;
            }
            for v in &all {
                write_character(out, &v.view)?;
            }
            Ok(())
        }
        SolunaCommand::Import {
            file,
            json: as_json,
            campaign,
        } => {
            let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let view = on_campaign(campaign, |here| here.import_soluna_characters(&text))?
                .map_err(|e| bad(format!("{}: {e}", file.display())))?;
            if *as_json {
                return write_json(out, &view);
            }
            for v in &view.characters {
                write_character(out, v)?;
            }
            writeln!(out, "{}", paint(DIM, format!("journal entry {}", view.seq)))?;
            Ok(())
        }
        SolunaCommand::Export { names, campaign } => {
            write!(
                out,
                "{}",
                on_campaign(campaign, |here| here.export_soluna_characters(names))??
            )?;
            Ok(())
        }
    }
}

/// `solum soluna edit NAME --FIELD …`: the call `PATCH /api/soluna/characters/{name}`
/// makes, with the fields the flags give.
fn edit(a: &SolunaEditArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let edit = SolunaEdit {
        name: None,
        side: a.side.clone(),
        mind: a.mind,
        body: a.body,
        shield: a.shield,
        hit_points: a.hit_points,
        melee: a.melee,
        ranged: a.ranged,
        flips: a.flips,
        guard: a.guard,
        flips_per_test: a.flips_per_test,
        extra_dice: a.extra_dice,
        dice_guard: a.dice_guard,
        dice_per_test: a.dice_per_test,
    };
    let view = super::campaign::on_campaign(&a.campaign, |here| {
        here.edit_soluna_character(&a.name, &edit)
    })?
    .map_err(|e| match e {
        solum_app::AppError::Expanded(r)
            if r.kind == solum_app::ExpandedRefusal::EditChangesNothing =>
        {
            bad(format!(
                "{}: nothing would change: the sheet has these values already",
                a.name.trim()
            ))
        }
        e => super::flagged(e, new_flag),
    })?;
    if a.json {
        return super::campaign::write_json(out, &view);
    }
    // What changed, as the app answers it (`hit_points 2 → 5` reads `hit points 2 → 5`).
    let changed: Vec<String> = view
        .changed
        .iter()
        .map(|c| format!("{} {} → {}", c.field.replace('_', " "), c.before, c.after))
        .collect();
    for v in &view.characters {
        writeln!(
            out,
            "{} {}",
            paint(HEAD, format!("{} changed:", v.character.name)),
            changed.join(", ")
        )?;
        write_character(out, v)?;
    }
    writeln!(out, "{}", paint(DIM, format!("journal entry {}", view.seq)))?;
    Ok(())
}

fn write_character(out: &mut dyn Write, v: &solum_app::soluna::SolunaView) -> anyhow::Result<()> {
    let c = &v.character;
    writeln!(
        out,
        "{} ({})   Mind {} · Body {} · Shield {} · HP {} · melee {} · ranged {}",
        paint(HEAD, &c.name),
        c.side,
        c.mind,
        c.body,
        c.shield,
        c.hit_points,
        c.melee,
        c.ranged
    )?;
    writeln!(
        out,
        "  flips {} (guard {}, {} a test) · extra dice {} (guard {}, {} a test) · acts in phases {:?}",
        c.flips, c.guard, c.flips_per_test, c.extra_dice, c.dice_guard, c.dice_per_test, v.phases
    )?;
    Ok(())
}

/// `solum soluna skirmish FILE.toml`: the skirmish the file describes, fought to its end.
fn skirmish_file(
    file: &std::path::Path,
    seed: Option<u64>,
    rolled: Option<&str>,
    as_json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
        .map_err(|e| bad(e.to_string()))?;
    let view = solum_app::soluna_once::fight_skirmish(&text, super::campaign::dice(seed, rolled)?)
        .map_err(|e| match e {
            SolunaOnceError::Skirmish(problem) => bad(format!("{}: {problem}", file.display())),
            e => once_error(e),
        })?;
    if as_json {
        return super::campaign::write_json(out, &view);
    }
    write_events(out, &view.names, &view.events)?;
    render::write_seed(out, view.seed)?;
    Ok(())
}

fn write_events(out: &mut dyn Write, names: &[String], events: &[Event]) -> anyhow::Result<()> {
    let n = |i: &usize| names[*i].as_str();
    for e in events {
        match e {
            Event::Phase { turn, phase } => writeln!(
                out,
                "{}",
                paint(HEAD, format!("turn {turn}, phase {phase}"))
            )?,
            Event::Attack {
                attacker,
                target,
                melee,
                positive,
                negative,
                added,
                removed,
                test,
                damage,
            } => {
                let faces: Vec<String> = test.rolled.iter().map(u32::to_string).collect();
                let dice = if added + removed > 0 {
                    format!("dice +{added} −{removed}, ")
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "  {} {} {}: {} ({dice}flips +{positive} −{negative}) → {} × {} — {damage} damage",
                    n(attacker),
                    if *melee { "strikes" } else { "shoots" },
                    n(target),
                    faces.join(" "),
                    test.largest,
                    test.face
                )?
            }
            Event::Damaged {
                character,
                amount,
                hit_points,
            } => writeln!(out, "  {} takes {amount} ({hit_points} left)", n(character))?,
            Event::Out { character } => writeln!(out, "  {} is out!", n(character))?,
            Event::Engaged { mover, target } => {
                writeln!(out, "  {} engages {}", n(mover), n(target))?
            }
            Event::Over { winner, turns } => writeln!(
                out,
                "{}",
                paint(
                    HEAD,
                    match winner {
                        Some(w) => format!("{w} win after {turns} turn(s)"),
                        None => format!("nobody stands after {turns} turn(s)"),
                    }
                )
            )?,
        }
    }
    Ok(())
}

fn write_test(out: &mut dyn Write, v: &solum_app::soluna::SolunaTestView) -> anyhow::Result<()> {
    let r = &v.request;
    writeln!(
        out,
        "{} {} dice of {}, flips +{} −{}",
        paint(HEAD, format!("{} tests", v.name)),
        v.dice,
        match r.attack {
            solum_app::soluna::SolunaAttack::Melee => "melee",
            solum_app::soluna::SolunaAttack::Ranged => "ranged",
        },
        r.flips,
        r.against
    )?;
    if let (Some(tn), Some(p)) = (r.target, v.p_target) {
        writeln!(out, "  chance to reach {tn}: {}", render::percent_f64(p))?;
    }
    writeln!(out, "  rolled   {}", render::faces(&v.rolled.faces))?;
    for f in v.result.flips.iter().take(FLIP_LINES) {
        writeln!(out, "  flip     die {}: {} → {}", f[0] + 1, f[1], f[2])?;
    }
    if !v.result.flips.is_empty() {
        writeln!(out, "  now      {}", render::faces(&v.result.faces))?;
    }
    writeln!(out, "  largest  {} × {}", v.result.largest, v.result.face)?;
    if let (Some(tn), Some(ok)) = (r.target, v.result.passed) {
        writeln!(
            out,
            "  target {tn}: {}",
            if ok {
                paint(GOOD, "PASSED")
            } else {
                paint(BAD, "FAILED")
            }
        )?;
    }
    render::write_seed(out, v.rolled.seed)?;
    Ok(())
}

fn odds_line(o: &AttackOdds) -> String {
    format!(
        "{} dice, net flips {:+}, armour {}: damage ≥ 1 {}, takes out {}",
        o.dice,
        o.net_flips,
        o.armour,
        render::percent_f64(o.p_damage),
        render::percent_f64(o.p_out)
    )
}

fn skirmish_play(play: &SkirmishPlay, out: &mut dyn Write) -> anyhow::Result<()> {
    use super::campaign::{dice, in_campaign, on_campaign, write_json};
    use solum_app::soluna::{SkirmishAct, SkirmishAction};
    let (view, as_json) = match play {
        SkirmishPlay::Start {
            names,
            auto,
            dice: d,
        } => (
            in_campaign(&d.campaign, |here| {
                Ok(here.start_soluna_skirmish(names, auto, dice(d.seed, d.rolled.as_deref())?)?)
            })?,
            d.json,
        ),
        SkirmishPlay::Act {
            name,
            action,
            target,
            flips,
            extra_dice,
            ranged,
            dice: d,
        } => {
            let act = SkirmishAct {
                action: match action {
                    SkirmishActionArg::Attack => SkirmishAction::Attack,
                    SkirmishActionArg::Move => SkirmishAction::Move,
                },
                target: target.clone(),
                ranged: *ranged,
                flips: *flips,
                dice: *extra_dice,
            };
            (
                in_campaign(&d.campaign, |here| {
                    Ok(here.act_soluna_skirmish(name, &act, dice(d.seed, d.rolled.as_deref())?)?)
                })?,
                d.json,
            )
        }
        SkirmishPlay::Move {
            name,
            target,
            dice: d,
        } => {
            let act = SkirmishAct {
                action: SkirmishAction::Move,
                target: target.clone(),
                ranged: false,
                flips: 0,
                dice: 0,
            };
            (
                in_campaign(&d.campaign, |here| {
                    Ok(here.act_soluna_skirmish(name, &act, dice(d.seed, d.rolled.as_deref())?)?)
                })?,
                d.json,
            )
        }
        SkirmishPlay::Go { dice: d } => (
            in_campaign(&d.campaign, |here| {
                Ok(here.go_soluna_skirmish(dice(d.seed, d.rolled.as_deref())?)?)
            })?,
            d.json,
        ),
        SkirmishPlay::Abandon { json, campaign } => {
            let view = on_campaign(campaign, |here| here.abandon_soluna_skirmish())??;
            if *json {
                return write_json(out, &view);
            }
            writeln!(out, "{}", paint(HEAD, "skirmish abandoned"))?;
            for c in view.sheets.iter().flatten() {
                writeln!(
                    out,
                    "  {}: {} hit point(s), flips {}, guard {}",
                    c.name, c.hit_points, c.flips, c.guard
                )?;
            }
            return Ok(());
        }
        SkirmishPlay::Status { json, campaign } => {
            let answer = on_campaign(campaign, |here| here.soluna_skirmish_state())??;
            if *json {
                return write_json(out, &answer);
            }
            return match &answer.skirmish {
                Some(state) => write_state(out, state),
                None => Ok(writeln!(
                    out,
                    "{}",
                    solum_app::soluna::SkirmishAnswer::NONE
                )?),
            };
        }
    };
    if as_json {
        return write_json(out, &view);
    }
    write_play(out, &view)
}

fn write_play(out: &mut dyn Write, v: &PlayView) -> anyhow::Result<()> {
    if let Some(o) = &v.odds {
        writeln!(out, "odds before the roll: {}", odds_line(o))?;
    }
    write_events(out, &v.state.names, &v.events)?;
    if v.state.skirmish.over.is_none() {
        write_state(out, &v.state)?;
    } else {
        for c in v.sheets.iter().flatten() {
            writeln!(
                out,
                "  sheet {}: {} hit point(s), flips {}, guard {}, extra dice {}, dice guard {}",
                c.name, c.hit_points, c.flips, c.guard, c.extra_dice, c.dice_guard
            )?;
        }
    }
    if !v.rolled.faces.is_empty() || v.rolled.seed.is_some() && !v.events.is_empty() {
        render::write_seed(out, v.rolled.seed)?;
    }
    Ok(())
}

fn write_state(out: &mut dyn Write, st: &SkirmishState) -> anyhow::Result<()> {
    let s = &st.skirmish;
    if let Some(e) = &s.over {
        writeln!(
            out,
            "{}",
            paint(
                HEAD,
                match &e.winner {
                    Some(w) => format!("over: {w} win after {} turn(s)", e.turns),
                    None => format!("over: nobody stands after {} turn(s)", e.turns),
                }
            )
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        paint(HEAD, format!("turn {}, phase {} waits", s.turn, s.phase))
    )?;
    for (i, c) in s.characters.iter().enumerate() {
        let foes: Vec<&str> = s
            .engaged
            .iter()
            .filter_map(|&[a, b]| {
                if a == i {
                    Some(st.names[b].as_str())
                } else if b == i {
                    Some(st.names[a].as_str())
                } else {
                    None
                }
            })
            .collect();
        writeln!(
            out,
            "  {} ({}{}): HP {} · flips {} · guard {} · extra dice {}{}{}",
            c.name,
            c.side,
            if s.auto[i] { ", auto" } else { "" },
            c.hit_points,
            c.flips,
            c.guard,
            c.extra_dice,
            if foes.is_empty() {
                String::new()
            } else {
                format!(" · engaged with {}", foes.join(", "))
            },
            if s.declared[i].is_some() {
                " · decided"
            } else {
                ""
            }
        )?;
    }
    if st.waiting.is_empty() {
        writeln!(
            out,
            "  no decision missing: `solum soluna skirmish go` rolls (--rolled or --seed)"
        )?;
    } else {
        writeln!(out, "  waiting for {}", st.waiting.join(", "))?;
    }
    for o in &st.options {
        let line = if o.action == "move" {
            format!("act {} move {}", o.name, o.target)
        } else {
            format!(
                "act {} attack {}{} --flips {}{}",
                o.name,
                o.target,
                if o.ranged { " --ranged" } else { "" },
                o.most_flips,
                if o.most_dice > 0 {
                    format!(" --extra-dice {}", o.most_dice)
                } else {
                    String::new()
                }
            )
        };
        match &o.odds {
            Some(odds) => writeln!(out, "    {line}   {}", odds_line(odds))?,
            None => writeln!(out, "    {line}")?,
        }
    }
    Ok(())
}
