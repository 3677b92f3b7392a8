//! `solum vehicle …`: chase rolls, vehicle attacks and the scale rule.

use std::io::Write;

use serde_json::json;
use solum_expanded::check::{DrawRule, Verdict};
use solum_expanded::vehicle::{
    Handling, Piloted, Scale, Speed, Vehicle, VehicleCatalogue, VehicleEntry, attack_odds,
    chase_odds, roll_chase, roll_vehicle_attack, scale_damage,
};

use super::flag_pool;
use crate::bad;
use crate::cli::{VehicleCommand, VehicleRollArgs};
use crate::render::{self, BAD, EVEN, GOOD, HEAD, paint, percent};

fn rating<T: serde::de::DeserializeOwned>(
    value: &str,
    flag: &str,
    options: &str,
) -> anyhow::Result<T> {
    serde_json::from_value(serde_json::Value::String(value.trim().to_ascii_lowercase()))
        .map_err(|_| bad(format!("{flag} {value}: one of {options}")))
}

/// A vehicle by catalogue name, or by speed and handling (average when not given).
fn vehicle(
    name: Option<&str>,
    speed: Option<&str>,
    handling: Option<&str>,
    prefix: &str,
) -> anyhow::Result<Vehicle> {
    if let Some(name) = name {
        let catalogue = VehicleCatalogue::shipped();
        return catalogue.get(name).map(|v| v.vehicle()).ok_or_else(|| {
            let names: Vec<&str> = catalogue.vehicles().map(|v| v.name.as_str()).collect();
            bad(format!(
                "--{prefix}vehicle {name}: not in the catalogue (one of: {})",
                names.join(", ")
            ))
        });
    }
    Ok(Vehicle {
        name: String::new(),
        hull: 1,
        speed: rating::<Speed>(
            speed.unwrap_or("average"),
            &format!("--{prefix}speed"),
            "slow, average, fast, lightning-fast",
        )?,
        handling: rating::<Handling>(
            handling.unwrap_or("average"),
            &format!("--{prefix}handling"),
            "clumsy, average, responsive, exceptional",
        )?,
        damage: 0,
        scale: Scale::Large,
    })
}

/// `solum vehicle list`: the shipped catalogue.
fn list(json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let catalogue = VehicleCatalogue::shipped();
    if json {
        let all: Vec<&VehicleEntry> = catalogue.vehicles().collect();
        writeln!(out, "{}", json!({ "vehicles": all }))?;
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
    for v in catalogue.vehicles() {
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

/// A rating as the catalogue spells it (`lightning-fast`).
fn kebab<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

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
            let scale = match scale.to_ascii_lowercase().as_str() {
                "car" | "truck" | "car-or-truck" | "small" => Scale::CarOrTruck,
                "large" => Scale::Large,
                other => {
                    return Err(bad(format!(
                        "--scale {other}: car (up to a car or truck) or large"
                    )));
                }
            };
            let scaled = scale_damage(*weapon_damage, *anti_vehicle, scale);
            if *json {
                writeln!(
                    out,
                    "{}",
                    json!({"damage": scaled.damage, "rule": scaled.rule, "reason": scaled.rule.reason()})
                )?;
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
                match scale {
                    Scale::CarOrTruck => "car- or truck-sized",
                    Scale::Large => "larger",
                },
                scaled.rule.reason()
            )?;
            return Ok(());
        }
    };
    roll(args, chase, out)
}

fn roll(args: &VehicleRollArgs, chase: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    // With both pilots' dice typed, a seed would roll nothing.
    if let (Some(_), Some(_), Some(seed)) = (&args.rolled, &args.against_rolled, args.seed) {
        return Err(bad(format!(
            "--seed {seed}: every die is typed with --rolled and --against-rolled, so a seed would roll nothing"
        )));
    }
    // Speed counts only in a chase (S10); a vehicle attack would silently ignore it.
    if !chase {
        for (flag, value) in [
            ("--speed", &args.speed),
            ("--against-speed", &args.against_speed),
        ] {
            if let Some(v) = value {
                return Err(bad(format!(
                    "{flag} {v}: speed counts only in a chase, not in a vehicle attack"
                )));
            }
        }
    }
    let pilot = flag_pool("--pilot", args.pilot)?;
    let their_pilot = flag_pool("--against-pilot", args.against_pilot)?;
    let mine = vehicle(
        args.vehicle.as_deref(),
        args.speed.as_deref(),
        args.handling.as_deref(),
        "",
    )?;
    let theirs = vehicle(
        args.against_vehicle.as_deref(),
        args.against_speed.as_deref(),
        args.against_handling.as_deref(),
        "against-",
    )?;
    let draws = if args.roll_off {
        DrawRule::RollOff
    } else {
        DrawRule::Stand
    };
    let (me, them) = (
        Piloted {
            pilot,
            vehicle: &mine,
        },
        Piloted {
            pilot: their_pilot,
            vehicle: &theirs,
        },
    );
    let odds = if chase {
        chase_odds(me, them, draws)
    } else {
        attack_odds(me, them, draws)
    };
    let generator = std::cell::RefCell::new(crate::dice::Generator::new(args.seed));
    let blame = std::cell::Cell::new("--rolled");
    let mut first = crate::dice::Source::from_flag("--rolled", args.rolled.as_deref())?;
    let mut second =
        crate::dice::Source::from_flag("--against-rolled", args.against_rolled.as_deref())?;
    let order = "values go: the pool, then the Rule-of-6 chain (only when both pilots show a 6), then roll-off dice";
    let outcome = {
        let mut a = crate::dice::SideDice::new(&mut first, &generator, &blame);
        let mut b = crate::dice::SideDice::new(&mut second, &generator, &blame);
        if chase {
            roll_chase(me, them, draws, &mut a, &mut b)
        } else {
            roll_vehicle_attack(me, them, draws, &mut a, &mut b)
        }
    }
    .map_err(|e| crate::dice::explain(e, blame.get(), order))?;
    let (a, b) = (outcome.spec.first.pool, outcome.spec.second.pool);
    use super::check::{opposed_unused_reasons, order_with_reasons};
    first.finish(&order_with_reasons(
        &opposed_unused_reasons(&outcome, true),
        order,
    ))?;
    second.finish(&order_with_reasons(
        &opposed_unused_reasons(&outcome, false),
        order,
    ))?;
    let seed = generator.borrow().used_seed();
    let what = if chase { "chase" } else { "vehicle attack" };
    if args.json {
        writeln!(
            out,
            "{}",
            json!({
                "kind": what, "pool": a, "against_pool": b,
                "dice": outcome.first.dice, "chain": outcome.first.chain, "result": outcome.first.result,
                "against_dice": outcome.second.dice, "against_chain": outcome.second.chain,
                "against_result": outcome.second.result,
                "draws": draws, "roll_off": outcome.roll_off,
                "vehicle": (!mine.name.is_empty()).then_some(&mine.name),
                "against_vehicle": (!theirs.name.is_empty()).then_some(&theirs.name),
                "outcome": outcome.verdict,
                "p_win": render::to_f64(&odds.win), "p_draw": render::to_f64(&odds.draw), "p_lose": render::to_f64(&odds.lose),
                "seed": seed,
            })
        )?;
        return Ok(());
    }
    if !mine.name.is_empty() || !theirs.name.is_empty() {
        let named = |v: &Vehicle| {
            if v.name.is_empty() {
                "your vehicle".to_owned()
            } else {
                v.name.clone()
            }
        };
        writeln!(out, "{} against {}", named(&mine), named(&theirs))?;
    }
    writeln!(
        out,
        "{} {} against {}   win {}  draw {}  lose {}",
        paint(HEAD, if chase { "Chase" } else { "Vehicle attack" }),
        render::dice_count(a.dice()),
        render::dice_count(b.dice()),
        paint(HEAD, percent(&odds.win)),
        percent(&odds.draw),
        percent(&odds.lose)
    )?;
    writeln!(
        out,
        "  {:<10} {}",
        "You",
        solum_play::describe::opposed(&outcome)
    )?;
    let verdict = match (outcome.verdict, chase) {
        (Verdict::Win, true) => paint(GOOD, "WIN: the move happens"),
        (Verdict::Win, false) => paint(GOOD, "HIT"),
        (Verdict::Draw, _) => paint(EVEN, "DRAW: nothing happens"),
        (Verdict::Lose, true) => paint(BAD, "LOSE: the distance stays"),
        (Verdict::Lose, false) => paint(BAD, "MISS"),
    };
    writeln!(out, "  {:<10} {verdict}", "Result")?;
    render::write_seed(out, seed)?;
    Ok(())
}
