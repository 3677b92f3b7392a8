//! `solum vehicle …`: chase rolls, vehicle attacks and the scale rule.

use std::io::Write;

use solum_app::AppError;
use solum_app::rules::{Scale, Verdict, parse_faces};
use solum_app::vehicles::{
    Field, VehicleRollInput, VehicleRollKind, VehicleRollView, roll_vehicle, scale_rule,
};

use crate::bad;
use crate::cli::{VehicleCommand, VehicleRollArgs};
use crate::render::{self, BAD, EVEN, GOOD, HEAD, paint};

/// `solum vehicle list`: the shipped catalogue.
fn list(json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let catalogue = solum_app::vehicles::vehicles();
    if json {
        writeln!(out, "{}", serde_json::to_string(&catalogue)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        paint(
            HEAD,
            format!(
                "{:<22} {:>4}  {:<15} {:<12} {:>6}  {:<13} notes",
                "vehicle", "hull", "speed", "handling", "damage", "scale"
            )
        )
    )?;
    for v in &catalogue.vehicles {
        writeln!(
            out,
            "{:<22} {:>4}  {:<15} {:<12} {:>6}  {:<13} {}",
            v.name,
            v.hull,
            kebab(&v.speed),
            kebab(&v.handling),
            v.damage,
            kebab(&v.scale),
            v.notes
        )?;
    }
    Ok(())
}

use solum_app::vehicles::rating_word as kebab;

pub fn run(command: &VehicleCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    let (args, chase) = match command {
        VehicleCommand::Chase(a) => (a, true),
        VehicleCommand::Attack(a) => (a, false),
        VehicleCommand::List { json } => return list(*json, out),
        VehicleCommand::Scale {
            weapon_damage,
            scale,
            anti_vehicle,
            json,
        } => {
            let scaled = scale_rule(*weapon_damage, *anti_vehicle, *scale);
            if *json {
                writeln!(out, "{}", serde_json::to_string(&scaled)?)?;
                return Ok(());
            }
            writeln!(
                out,
                "A personal weapon of {weapon_damage} damage{} deals {} to a {} vehicle: {}.",
                if *anti_vehicle {
                    ", made to fight vehicles,"
                } else {
                    ""
                },
                scaled.damage,
                match scaled.scale {
                    Scale::CarOrTruck => "car- or truck-sized",
                    Scale::Large => "larger",
                },
                scaled.reason
            )?;
            return Ok(());
        }
    };
    roll(args, chase, out)
}

fn roll(args: &VehicleRollArgs, chase: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let kind = if chase {
        VehicleRollKind::Chase
    } else {
        VehicleRollKind::Attack
    };
    let faces = |flag: &str, text: Option<&str>| -> anyhow::Result<Option<Vec<u32>>> {
        text.map(|t| parse_faces(t).map_err(|e| bad(format!("{flag}: {e}"))))
            .transpose()
    };
    let input = VehicleRollInput {
        pilot: Some(args.pilot),
        vehicle: args.vehicle.clone(),
        speed: args.speed,
        handling: args.handling,
        against_pilot: Some(args.against_pilot),
        against_vehicle: args.against_vehicle.clone(),
        against_speed: args.against_speed,
        against_handling: args.against_handling,
        roll_off: args.roll_off,
        rolled: faces("--rolled", args.rolled.as_deref())?,
        against_rolled: faces("--against-rolled", args.against_rolled.as_deref())?,
        ..VehicleRollInput::default()
    };
    let refused = |e| match e {
        AppError::Vehicle(v) => bad(v.describe(Field::flag)),
        other => anyhow::Error::new(other),
    };
    if args.odds {
        let odds = solum_app::vehicles::vehicle_odds(kind, &input).map_err(refused)?;
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&odds)?)?;
            return Ok(());
        }
        return render_odds(&odds, out);
    }
    let view = roll_vehicle(kind, &input, args.seed).map_err(refused)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    render_roll(&view, out)
}

/// A vehicle roll's odds as text, nothing rolled.
fn render_odds(
    odds: &solum_app::vehicles::VehicleOddsView,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    odds_line(
        out,
        odds.kind,
        [odds.pool, odds.against_pool],
        [odds.p_win, odds.p_draw, odds.p_lose],
    )
}

/// `Chase 3 dice against 4 dice   win …  draw …  lose …`.
fn odds_line(
    out: &mut dyn Write,
    kind: VehicleRollKind,
    [pool, against]: [u32; 2],
    [win, draw, lose]: [f64; 3],
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} {} against {}   win {}  draw {}  lose {}",
        paint(
            HEAD,
            match kind {
                VehicleRollKind::Chase => "Chase",
                VehicleRollKind::Attack => "Vehicle attack",
            }
        ),
        render::dice_count(pool),
        render::dice_count(against),
        paint(HEAD, render::percent_f64(win)),
        render::percent_f64(draw),
        render::percent_f64(lose)
    )?;
    Ok(())
}

/// A vehicle roll as text: who flies what, the odds, every die and the verdict.
fn render_roll(view: &VehicleRollView, out: &mut dyn Write) -> anyhow::Result<()> {
    if view.vehicle.is_some() || view.against_vehicle.is_some() {
        let named = |v: &Option<String>| v.clone().unwrap_or_else(|| "your vehicle".to_owned());
        writeln!(
            out,
            "{} against {}",
            named(&view.vehicle),
            named(&view.against_vehicle)
        )?;
    }
    odds_line(
        out,
        view.kind,
        [view.pool, view.against_pool],
        [view.p_win, view.p_draw, view.p_lose],
    )?;
    let faces = |dice: &[u32]| {
        dice.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let side = |dice: &[u32], chain: &[u32], result: u32| {
        let mut line = faces(dice);
        if !chain.is_empty() {
            line.push_str(&format!(
                "  Rule of 6: 6 +{}",
                faces(chain).replace(' ', " +")
            ));
        }
        format!("{line}  result {result}")
    };
    writeln!(
        out,
        "  {:<10} {}",
        "You",
        side(&view.dice, &view.chain, view.result)
    )?;
    writeln!(
        out,
        "  {:<10} {}",
        "Against",
        side(&view.against_dice, &view.against_chain, view.against_result)
    )?;
    for (a, b) in &view.roll_off {
        writeln!(out, "  {:<10} {a} vs {b}", "Roll-off")?;
    }
    let colour = match view.outcome {
        Verdict::Win => GOOD,
        Verdict::Draw => EVEN,
        Verdict::Lose => BAD,
    };
    writeln!(out, "  {:<10} {}", "Result", paint(colour, view.verdict))?;
    if let Some(hit) = &view.hull_damage {
        writeln!(
            out,
            "  {:<10} {} damage: hull {} -> {}",
            "Hull", hit.damage, hit.hull, hit.hull_left
        )?;
    }
    render::write_seed(out, view.seed)?;
    Ok(())
}
