//! `solum odds dietype`, `solum roll dietype`: Solum die types.

use std::io::Write;

use serde_json::json;
use solum_dietype::odds::{opposed_odds, skill_odds};
use solum_dietype::tables::tables;
use solum_dietype::{
    DieType, RollSpec, difficulty_name, opposed_side, quality_name, roll_damage, roll_opposed,
    roll_opposed_damage, roll_skill,
};

use crate::bad;
use crate::cli::{DietypeOddsArgs, DietypeRollArgs};
use crate::dice::with_dice;
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint, percent};

fn die(text: &str, step: i64) -> anyhow::Result<DieType> {
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
    let side = |text: &str, step: i64, chances: i64, flag: &str| {
        let d = text.parse::<DieType>().map_err(|e| bad(e.to_string()))?;
        opposed_side(d, step, chances)
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
    let d = die(die_text, args.roll.step)?;
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
    let d = die(&args.die, args.roll.step)?;
    let order = "values go: each chance's die, a maximum followed by its two new dice, then the other side's, then damage dice";
    // Armour's -1DT on the weapon is a step of the damage die, clamped to d4..d12 (D3).
    let damage_die = args
        .damage
        .as_deref()
        .map(|t| die(t, args.damage_step))
        .transpose()?;
    if !(-4..=4).contains(&args.modifier) {
        return Err(bad(format!(
            "--modifier {}: modifiers run from -4 to +4",
            args.modifier
        )));
    }
    if let Some(other) = &args.roll.against {
        let (a, b) = sides(&args.roll, &args.die, other)?;
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
