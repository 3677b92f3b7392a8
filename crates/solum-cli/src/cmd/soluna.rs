//! `solum odds soluna`, `solum roll soluna`, `solum soluna skirmish`.

use std::io::Write;

use serde_json::json;
use solum_soluna::odds::largest_distribution;
use solum_soluna::skirmish::{Event, SkirmishFile, fight};
use solum_soluna::{Armour, TestSpec, damage, roll_test, target_number};

use crate::bad;
use crate::cli::{SolunaCommand, SolunaOddsArgs, SolunaRollArgs};
use crate::dice::with_dice;
use crate::render::{self, BAD, GOOD, HEAD, paint, percent};

pub fn odds(args: &SolunaOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let spec = TestSpec::new(
        args.dice,
        args.flips.max(0),
        args.flips.saturating_neg().max(0),
    )
    .map_err(|e| bad(e.to_string()))?;
    let dist = largest_distribution(spec.dice, spec.net_flips).map_err(|e| bad(e.to_string()))?;
    let p_tn = args.target.tn.map(|tn| dist.p_at_least(i64::from(tn)));
    let armour = args.target.body.map(|body| Armour {
        body,
        shield: args.target.shield,
    });
    let damage_dist =
        armour.map(|a| dist.map(|g| i64::from(damage(g as u32, a, args.target.melee))));
    if args.json {
        let largest: serde_json::Map<String, serde_json::Value> = dist
            .outcomes()
            .iter()
            .map(|(k, p)| (k.to_string(), json!(render::to_f64(p))))
            .collect();
        let mut v = json!({"dice": spec.dice, "flips": spec.net_flips, "largest": largest, "mean": dist.mean()});
        if let Some(p) = &p_tn {
            v["p_tn"] = json!(render::to_f64(p));
        }
        if let Some(d) = &damage_dist {
            v["damage"] = d
                .outcomes()
                .iter()
                .map(|(k, p)| (k.to_string(), json!(render::to_f64(p))))
                .collect::<serde_json::Map<_, _>>()
                .into();
        }
        writeln!(out, "{v}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} dice, {} net flip(s): largest group mean {:.3}",
        spec.dice,
        spec.net_flips,
        dist.mean()
    )?;
    let mut table = render::table(&["largest", "exactly", "at least"], &[0, 1, 2]);
    for (k, p) in dist.outcomes() {
        table.add_row(vec![
            k.to_string(),
            percent(p),
            percent(&dist.p_at_least(*k)),
        ]);
    }
    writeln!(out, "{table}")?;
    if let (Some(tn), Some(p)) = (args.target.tn, p_tn) {
        writeln!(out, "target number {tn}: {}", paint(HEAD, percent(&p)))?;
    }
    if let Some(d) = damage_dist {
        let parts: Vec<String> = d
            .outcomes()
            .iter()
            .map(|(k, p)| format!("{k}: {}", percent(p)))
            .collect();
        writeln!(out, "damage: {}", parts.join(", "))?;
    }
    Ok(())
}

pub fn roll(args: &SolunaRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let spec =
        TestSpec::new(args.dice, args.flips, args.against_flips).map_err(|e| bad(e.to_string()))?;
    let (t, seed) = with_dice(
        args.roll.rolled.as_deref(),
        args.roll.seed,
        "values go: one per die of the pool",
        |d| roll_test(&spec, d),
    )?;
    let armour = args.target.body.map(|body| Armour {
        body,
        shield: args.target.shield,
    });
    let dealt = armour.map(|a| damage(t.largest, a, args.target.melee));
    let passed = args.target.tn.map(|tn| target_number(t.largest, tn));
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"test": t, "largest": t.largest, "face": t.face, "damage": dealt, "passed": passed, "seed": seed})
        )?;
        return Ok(());
    }
    let faces = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    writeln!(
        out,
        "{} {} dice, {} net flip(s)",
        paint(HEAD, "Sol'una test"),
        spec.dice,
        spec.net_flips
    )?;
    writeln!(out, "  rolled   {}", faces(&t.rolled))?;
    for f in &t.flips {
        writeln!(out, "  flip     die {}: {} → {}", f.die + 1, f.from, f.to)?;
    }
    if !t.flips.is_empty() {
        writeln!(out, "  now      {}", faces(&t.faces))?;
    }
    writeln!(out, "  largest  {} × {}", t.largest, t.face)?;
    if let Some(d) = dealt {
        writeln!(out, "  damage   {d}")?;
    }
    if let (Some(tn), Some(ok)) = (args.target.tn, passed) {
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
    render::write_seed(out, seed)?;
    Ok(())
}

pub fn run(command: &SolunaCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    let SolunaCommand::Skirmish {
        file,
        seed,
        rolled,
        json: as_json,
    } = command;
    let text = solum_play::storage::read_text(file).map_err(|e| bad(e.to_string()))?;
    let skirmish: SkirmishFile = toml::from_str(&text)
        .map_err(|e| bad(format!("{}: {}", file.display(), e.to_string().trim_end())))?;
    let mut characters = skirmish.character;
    let names: Vec<String> = characters.iter().map(|c| c.name.clone()).collect();
    let (events, used_seed) = with_dice(
        rolled.as_deref(),
        *seed,
        "values go: each attack's dice, in the order of the events",
        |d| Ok(fight(&mut characters, d)),
    )?;
    let events = events.map_err(|e| bad(format!("{}: {e}", file.display())))?;
    if *as_json {
        writeln!(
            out,
            "{}",
            json!({"names": names, "events": events, "seed": used_seed})
        )?;
        return Ok(());
    }
    let n = |i: &usize| names[*i].as_str();
    for e in &events {
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
    render::write_seed(out, used_seed)?;
    Ok(())
}
