//! `solum odds dietype`, `solum roll dietype`: Solum die types.

use std::io::Write;

use serde_json::json;
use solum_dietype::odds::{opposed_odds, skill_odds};
use solum_dietype::tables::tables;
use solum_dietype::{
    DieType, RollSpec, difficulty_name, opposed_side, quality_name, roll_damage, roll_opposed,
    roll_opposed_damage, roll_skill,
};

use solum_app::dietype::{Against, DietypeEdit, DietypeRoll, DietypeRollView, DietypeView};
use solum_dietype::sheet::Weapon;

use crate::bad;
use crate::cli::{DietypeCommand, DietypeOddsArgs, DietypeRollArgs, DietypeSheetArgs};
use crate::dice::with_dice;
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint, percent};

/// The most die-type steps a flag takes either way: d4 to d12 is four steps, and twice that
/// leaves room for steps that cancel out; a larger number is a typing mistake.
const MAX_STEPS: i64 = 8;

fn steps(flag: &str, step: i64) -> anyhow::Result<i64> {
    if (-MAX_STEPS..=MAX_STEPS).contains(&step) {
        Ok(step)
    } else {
        Err(bad(format!(
            "{flag} {step}: die-type steps are -{MAX_STEPS} to {MAX_STEPS} (d4 to d12 is four)"
        )))
    }
}

fn die(text: &str, flag: &str, step: i64) -> anyhow::Result<DieType> {
    let step = steps(flag, step)?;
    Ok(text
        .parse::<DieType>()
        .map_err(|e| bad(e.to_string()))?
        .step(step))
}

/// The two sides of an opposed roll, each with its own steps.
fn sides(
    args: &crate::cli::DietypeArgs,
    die_text: &str,
    other: &str,
) -> anyhow::Result<((DieType, u32), (DieType, u32))> {
    let side = |text: &str, step: i64, chances: i64, flag: &str| -> anyhow::Result<_> {
        let d = text.parse::<DieType>().map_err(|e| bad(e.to_string()))?;
        let step_flag = if flag == "--chances" {
            "--step"
        } else {
            "--against-step"
        };
        opposed_side(d, steps(step_flag, step)?, chances)
            .map_err(|_| bad(format!("{flag} {chances}: a roll has 1 to 4 chances")))
    };
    Ok((
        side(die_text, args.step, args.chances, "--chances")?,
        side(
            other,
            args.against_step,
            args.against_chances,
            "--against-chances",
        )?,
    ))
}

pub fn odds(args: &DietypeOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.tables {
        return write_tables(args.json, out);
    }
    let Some(die_text) = &args.die else {
        return Err(bad("give a die type (d4 … d12), or --tables"));
    };
    let d = die(die_text, "--step", args.roll.step)?;
    if let Some(other) = &args.roll.against {
        let (a, b) = sides(&args.roll, die_text, other)?;
        let o = opposed_odds(a, b);
        if args.json {
            let q = |v: &[f64]| -> serde_json::Map<String, serde_json::Value> {
                v.iter()
                    .enumerate()
                    .skip(1)
                    .map(|(i, p)| (i.to_string(), json!(p)))
                    .collect()
            };
            writeln!(
                out,
                "{}",
                json!({"die": d, "chances": a.1, "against": b.0, "against_chances": b.1,
                       "p_win": o.win, "p_draw": o.draw, "p_lose": o.lose,
                       "win_quality": q(&o.win_quality), "lose_quality": q(&o.lose_quality),
                       "error_bound": o.error_bound})
            )?;
        } else {
            writeln!(
                out,
                "{d} ×{} against {} ×{}: win {}  draw {:.2}%  lose {:.2}%",
                a.1,
                b.0,
                b.1,
                paint(HEAD, format!("{:.2}%", 100.0 * o.win)),
                100.0 * o.draw,
                100.0 * o.lose
            )?;
            for (q, p) in o.win_quality.iter().enumerate().skip(1) {
                writeln!(
                    out,
                    "  win, {:<13} {:>7.2}%",
                    quality_name(q as u32),
                    100.0 * p
                )?;
            }
            writeln!(
                out,
                "  {}",
                paint(
                    DIM,
                    format!("error below {:.0e} (explosions truncated)", o.error_bound)
                )
            )?;
        }
        return Ok(());
    }
    let spec = RollSpec::new(d, args.roll.chances, args.roll.vs).map_err(|e| bad(e.to_string()))?;
    let o = skill_odds(&spec);
    if args.json {
        let quality: serde_json::Map<String, serde_json::Value> = o
            .quality
            .iter()
            .enumerate()
            .map(|(q, p)| (q.to_string(), json!(render::to_f64(p))))
            .collect();
        writeln!(
            out,
            "{}",
            json!({"die": d, "chances": spec.chances, "difficulty": spec.difficulty,
                   "p_success": render::to_f64(&o.success), "p_success_exact": render::fraction(&o.success),
                   "p_per_chance": render::to_f64(&o.per_chance), "quality": quality})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{d} with {} chance(s) against {} {}: success {}",
        spec.chances,
        spec.difficulty,
        difficulty_name(spec.difficulty),
        paint(HEAD, percent(&o.success))
    )?;
    let mut table = render::table(&["quality", "name", "chance"], &[0, 2]);
    for (q, p) in o.quality.iter().enumerate() {
        table.add_row(vec![
            q.to_string(),
            quality_name(q as u32).to_owned(),
            percent(p),
        ]);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

fn write_tables(json_out: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let all = tables();
    if json_out {
        writeln!(out, "{}", serde_json::to_string(&all)?)?;
        return Ok(());
    }
    for t in &all {
        writeln!(out, "{}", paint(HEAD, t.title))?;
        let increments = t.cells.iter().any(|c| c.printed_increment.is_some());
        let mut header = vec!["", "printed", "exact", ""];
        if increments {
            header.extend(["printed +", "exact +", ""]);
        }
        let mut table = render::table(&header, &[1, 2, 4, 5]);
        for c in &t.cells {
            let mut row = vec![
                c.label.clone(),
                format!("{}%", c.printed),
                format!("{:.3}%", c.exact),
                if c.right {
                    "ok".to_owned()
                } else {
                    "WRONG".to_owned()
                },
            ];
            if let (Some(p), Some(x), Some(ok)) =
                (c.printed_increment, c.exact_increment, c.increment_right)
            {
                row.extend([
                    format!("+{p}%"),
                    format!("{x:+.3}"),
                    if ok { "ok".into() } else { "WRONG".into() },
                ]);
            }
            table.add_row(row);
        }
        writeln!(out, "{table}\n")?;
    }
    writeln!(
        out,
        "{}",
        paint(
            DIM,
            "ok: the printed number is the exact one rounded; WRONG: it is not."
        )
    )?;
    Ok(())
}

pub fn roll(args: &DietypeRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(name) = &args.character {
        return roll_character(name, args, out);
    }
    let die_text = args.die.as_deref().unwrap_or_default();
    let d = die(die_text, "--step", args.roll.step)?;
    let order = "values go: each chance's die, a maximum followed by its two new dice, then the other side's, then damage dice";
    // Armour's -1DT on the weapon is a step of the damage die, clamped to d4..d12 (D3).
    let damage_die = args
        .damage
        .as_deref()
        .map(|t| die(t, "--damage-step", args.damage_step))
        .transpose()?;
    if !(-4..=4).contains(&args.modifier) {
        return Err(bad(format!(
            "--modifier {}: modifiers run from -4 to +4",
            args.modifier
        )));
    }
    if let Some(other) = &args.roll.against {
        let (a, b) = sides(&args.roll, die_text, other)?;
        let ((r, damage), seed) =
            with_dice(args.dice.rolled.as_deref(), args.dice.seed, order, |dice| {
                let r = roll_opposed(a, b, dice)?;
                let damage = match damage_die {
                    Some(dd) => roll_opposed_damage(&r, dd, args.modifier, dice)?.expect("checked"),
                    None => None,
                };
                Ok((r, damage))
            })?;
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"roll": r, "against": b.0, "damage_die": damage_die, "damage": damage, "seed": seed})
            )?;
            return Ok(());
        }
        let show = |v: &[solum_dietype::ChanceRoll]| {
            v.iter()
                .map(|c| c.result.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        writeln!(
            out,
            "{} {d} ×{} against {} ×{}",
            paint(HEAD, "Opposed"),
            a.1,
            b.0,
            b.1
        )?;
        writeln!(out, "  you      {}", show(&r.first))?;
        writeln!(out, "  against  {}", show(&r.second))?;
        let verdict = match r.winner {
            1 => paint(GOOD, format!("WIN, {}", quality_name(r.quality))),
            -1 => paint(BAD, format!("LOSE (they: {})", quality_name(r.quality))),
            _ => "DRAW".to_owned(),
        };
        writeln!(out, "  {verdict}")?;
        if let (Some(dmg), Some(dd)) = (damage, damage_die) {
            write_damage(out, dd, &dmg)?;
        }
        render::write_seed(out, seed)?;
        return Ok(());
    }
    let spec = RollSpec::new(d, args.roll.chances, args.roll.vs).map_err(|e| bad(e.to_string()))?;
    let p = skill_odds(&spec).success;
    let ((r, damage), seed) =
        with_dice(args.dice.rolled.as_deref(), args.dice.seed, order, |dice| {
            let r = roll_skill(&spec, dice)?;
            let damage = match damage_die {
                Some(dd) if r.quality > 0 => {
                    Some(roll_damage(dd, r.quality, args.modifier, dice)?.expect("checked"))
                }
                _ => None,
            };
            Ok((r, damage))
        })?;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"roll": r, "success": r.success(), "quality": r.quality, "quality_name": quality_name(r.quality),
                   "p_success": render::to_f64(&p), "damage_die": damage_die, "damage": damage, "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {d} with {} chance(s) against {}   success {}",
        paint(HEAD, "Roll"),
        spec.chances,
        spec.difficulty,
        paint(HEAD, percent(&p))
    )?;
    for (i, c) in r.chances.iter().enumerate() {
        let faces: Vec<String> = c.faces.iter().map(u32::to_string).collect();
        let mark = if c.result >= spec.difficulty {
            paint(GOOD, "✓")
        } else {
            paint(BAD, "✗")
        };
        writeln!(
            out,
            "  chance {}: {} = {} {mark}",
            i + 1,
            faces.join(" "),
            c.result
        )?;
    }
    let verdict = if r.success() {
        paint(
            GOOD,
            format!(
                "{} (quality {})",
                quality_name(r.quality).to_uppercase(),
                r.quality
            ),
        )
    } else {
        paint(BAD, "FAILURE")
    };
    writeln!(out, "  {verdict}")?;
    if let (Some(dmg), Some(dd)) = (damage, damage_die) {
        write_damage(out, dd, &dmg)?;
    }
    render::write_seed(out, seed)?;
    Ok(())
}

fn write_damage(
    out: &mut dyn Write,
    die: DieType,
    dmg: &solum_dietype::DamageRoll,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "  damage ({}×{die}): {:?} {:+} = {}",
        dmg.faces.len(),
        dmg.faces,
        dmg.modifier,
        dmg.total
    )?;
    Ok(())
}

/// `NAME=VALUE`, split at the last `=`.
fn pair<'a>(flag: &str, text: &'a str) -> anyhow::Result<(&'a str, &'a str)> {
    text.rsplit_once('=')
        .map(|(n, v)| (n.trim(), v.trim()))
        .filter(|(n, v)| !n.is_empty() && !v.is_empty())
        .ok_or_else(|| bad(format!("{flag} {text}: write NAME=VALUE")))
}

/// `d4`, `d4+1`, `d8-2`: a weapon's damage die and modifier.
fn weapon(text: &str) -> anyhow::Result<Weapon> {
    let t = text.trim().to_ascii_lowercase();
    let (die_text, modifier) = match t.find(['+', '-']) {
        Some(i) => (
            &t[..i],
            t[i..].parse::<i32>().map_err(|_| {
                bad(format!(
                    "--weapon {text}: the modifier is a number, -4 to +4"
                ))
            })?,
        ),
        None => (t.as_str(), 0),
    };
    let die = die_text
        .parse::<DieType>()
        .map_err(|e| bad(format!("--weapon {text}: {e}")))?;
    Ok(Weapon { die, modifier })
}

fn edit_of(sheet: &DietypeSheetArgs) -> anyhow::Result<DietypeEdit> {
    let mut edit = DietypeEdit {
        notes: sheet.notes.clone(),
        ..Default::default()
    };
    for a in &sheet.ability {
        let (n, d) = pair("--ability", a)?;
        let d = d
            .parse::<DieType>()
            .map_err(|e| bad(format!("--ability {a}: {e}")))?;
        edit.abilities.push((n.to_owned(), d));
    }
    for s in &sheet.skill {
        let (n, c) = pair("--skill", s)?;
        let c = c
            .parse::<u32>()
            .map_err(|_| bad(format!("--skill {s}: chances are a number, 1 to 4")))?;
        edit.skills.push((n.to_owned(), c));
    }
    for w in &sheet.weapon {
        let (n, spec) = pair("--weapon", w)?;
        edit.weapons.push((n.to_owned(), weapon(spec)?));
    }
    Ok(edit)
}

/// A sheet's rule broken, named by the flag that set it.
fn flagged(e: solum_app::AppError) -> anyhow::Error {
    match e {
        solum_app::AppError::Character { field, problem } => {
            let flag = match field.split('.').next().unwrap_or_default() {
                "abilities" => "--ability",
                "skills" => "--skill",
                "weapons" => "--weapon",
                "remove_abilities" => "--remove-ability",
                "remove_skills" => "--remove-skill",
                "remove_weapons" => "--remove-weapon",
                "notes" => "--notes",
                "name" => "the name",
                _ => "",
            };
            if flag.is_empty() {
                bad(format!("{field}: {problem}"))
            } else {
                bad(format!("{flag} ({field}): {problem}"))
            }
        }
        e => e.into(),
    }
}

fn write_sheet(out: &mut dyn Write, v: &DietypeView) -> anyhow::Result<()> {
    let s = &v.sheet;
    writeln!(out, "{}", paint(HEAD, &s.name))?;
    let list = |parts: Vec<String>| {
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    };
    writeln!(
        out,
        "  abilities  {}",
        list(
            s.abilities
                .iter()
                .map(|(k, d)| format!("{k} {d}"))
                .collect()
        )
    )?;
    writeln!(
        out,
        "  skills     {}",
        list(s.skills.iter().map(|(k, c)| format!("{k} ×{c}")).collect())
    )?;
    writeln!(
        out,
        "  weapons    {}",
        list(
            s.weapons
                .iter()
                .map(|(k, w)| if w.modifier == 0 {
                    format!("{k} {}", w.die)
                } else {
                    format!("{k} {}{:+}", w.die, w.modifier)
                })
                .collect()
        )
    )?;
    if !s.notes.is_empty() {
        writeln!(out, "  {}", s.notes)?;
    }
    Ok(())
}

/// `solum dietype …`: die-type characters in the campaign.
pub fn run(command: &DietypeCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    use super::campaign::{open, open_existing, write_json};
    match command {
        DietypeCommand::New {
            name,
            sheet,
            json: as_json,
            campaign,
        } => {
            let view = open(campaign)?
                .create_dietype_character(name, &edit_of(sheet)?)
                .map_err(flagged)?;
            if *as_json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet)
        }
        DietypeCommand::Show {
            name,
            json: as_json,
            campaign,
        } => {
            let v = open_existing(campaign)?.dietype_character(name)?;
            if *as_json {
                return write_json(out, &v);
            }
            write_sheet(out, &v)
        }
        DietypeCommand::List {
            json: as_json,
            campaign,
        } => {
            let all = open_existing(campaign)?.dietype_characters()?;
            if *as_json {
                return write_json(out, &all);
            }
            if all.is_empty() {
                writeln!(
                    out,
                    "No die-type characters yet: `solum dietype new NAME --ability Agility=d8 …`."
                )?;
            }
            for v in &all {
                write_sheet(out, v)?;
            }
            Ok(())
        }
        DietypeCommand::Import {
            file,
            json: as_json,
            campaign,
        } => {
            let text = solum_play::storage::read_text(file).map_err(|e| bad(e.to_string()))?;
            let view = open(campaign)?
                .import_dietype_character(&text)
                .map_err(|e| bad(format!("{}: {e}", file.display())))?;
            if *as_json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet)
        }
        DietypeCommand::Export { name, campaign } => {
            write!(
                out,
                "{}",
                open_existing(campaign)?.export_dietype_character(name)?
            )?;
            Ok(())
        }
        DietypeCommand::Edit {
            name,
            sheet,
            remove_ability,
            remove_skill,
            remove_weapon,
            json: as_json,
            campaign,
        } => {
            let mut edit = edit_of(sheet)?;
            edit.remove_abilities = remove_ability.clone();
            edit.remove_skills = remove_skill.clone();
            edit.remove_weapons = remove_weapon.clone();
            if edit == DietypeEdit::default() {
                return Err(bad(
                    "nothing to change: give --ability, --skill, --weapon, a --remove-… or --notes",
                ));
            }
            let view = open(campaign)?
                .edit_dietype_character(name, &edit)
                .map_err(flagged)?;
            if *as_json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet)
        }
    }
}

/// `solum roll dietype --char NAME --ability A [--skill S]`: the die and the chances from
/// the sheet, journaled in the campaign.
fn roll_character(name: &str, args: &DietypeRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.modifier != 0 {
        return Err(bad(
            "--modifier: with --char the weapon's modifier comes from the sheet",
        ));
    }
    let against = match &args.roll.against {
        Some(other) => {
            let d = other
                .parse::<DieType>()
                .map_err(|e| bad(format!("--against {other}: {e}")))?;
            if !(1..=4).contains(&args.roll.against_chances) {
                return Err(bad(format!(
                    "--against-chances {}: a roll has 1 to 4 chances",
                    args.roll.against_chances
                )));
            }
            Against::Opposed {
                die: d,
                chances: args.roll.against_chances as u32,
                step: steps("--against-step", args.roll.against_step)?,
            }
        }
        None => {
            if !(2..=12).contains(&args.roll.vs) {
                return Err(bad(format!(
                    "--vs {}: difficulties run from 2 (trivial) to 12 (divine)",
                    args.roll.vs
                )));
            }
            Against::Difficulty(args.roll.vs as u32)
        }
    };
    let request = DietypeRoll {
        ability: args.ability.clone().unwrap_or_default(),
        skill: args.skill.clone(),
        step: steps("--step", args.roll.step)?,
        against,
        weapon: args.weapon.clone(),
        damage_step: steps("--damage-step", args.damage_step)?,
    };
    let v = super::campaign::open(&args.campaign)?
        .roll_dietype_character(
            name,
            &request,
            super::campaign::dice(args.dice.seed, args.dice.rolled.as_deref())?,
        )
        .map_err(|e| match e {
            solum_app::AppError::Character { field, problem } => {
                bad(format!("--{}: {problem}", field.replace('_', "-")))
            }
            e => e.into(),
        })?;
    if args.json {
        return super::campaign::write_json(out, &v);
    }
    write_character_roll(out, &v)
}

fn write_character_roll(out: &mut dyn Write, v: &DietypeRollView) -> anyhow::Result<()> {
    let i = &v.inputs;
    writeln!(
        out,
        "{} {} rolls {} ({}{}) with {} chance(s){}   success {:.2}%",
        paint(HEAD, "Roll"),
        v.name,
        i.roll.ability,
        i.die,
        if i.die != i.ability_die {
            format!(", {} on the sheet", i.ability_die)
        } else {
            String::new()
        },
        i.chances,
        i.roll
            .skill
            .as_deref()
            .map(|s| format!(" for {s}"))
            .unwrap_or_default(),
        100.0 * v.p_success
    )?;
    let show = |c: &solum_dietype::ChanceRoll| {
        let faces: Vec<String> = c.faces.iter().map(u32::to_string).collect();
        format!("{} = {}", faces.join(" "), c.result)
    };
    if let Some(r) = &v.result.skill {
        for (n, c) in r.chances.iter().enumerate() {
            let mark = if c.result >= r.spec.difficulty {
                paint(GOOD, "✓")
            } else {
                paint(BAD, "✗")
            };
            writeln!(out, "  chance {}: {} {mark}", n + 1, show(c))?;
        }
    }
    if let Some(r) = &v.result.opposed {
        for c in &r.first {
            writeln!(out, "  you      {}", show(c))?;
        }
        for c in &r.second {
            writeln!(out, "  against  {}", show(c))?;
        }
    }
    let verdict = match &v.result.opposed {
        Some(r) => match r.winner {
            1 => paint(GOOD, format!("WIN, {}", quality_name(r.quality))),
            -1 => paint(BAD, format!("LOSE (they: {})", quality_name(r.quality))),
            _ => "DRAW".to_owned(),
        },
        None if v.result.success => paint(
            GOOD,
            format!(
                "{} (quality {})",
                quality_name(v.result.quality).to_uppercase(),
                v.result.quality
            ),
        ),
        None => paint(BAD, "FAILURE"),
    };
    writeln!(out, "  {verdict}")?;
    if let (Some(dmg), Some(w)) = (&v.result.damage, &i.weapon) {
        write_damage(out, w.die.step(i.roll.damage_step), dmg)?;
    }
    render::write_seed(out, v.rolled.seed)?;
    Ok(())
}
