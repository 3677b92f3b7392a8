//! `solum char …`: character sheets.

use std::io::Write;
use std::path::Path;

use serde_json::json;
use solum_expanded::character::{
    Armor, Attribute, Character, Class, CreationChoices, CreationError, Gear, GearEffect, Weapon,
    advance_attribute, advance_background, create,
};
use solum_play::storage::{load_character, save_character};

use crate::bad;
use crate::cli::{CharAdvanceArgs, CharCommand, CharEditArgs, CharNewArgs};
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint};

pub fn run(command: &CharCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        CharCommand::New(args) => new(args, out),
        CharCommand::Show { file, json } => {
            let hero = load(file)?;
            if *json {
                writeln!(out, "{}", sheet_json(&hero))?;
            } else {
                write_sheet(out, &hero)?;
            }
            Ok(())
        }
        CharCommand::Edit(args) => edit(args, out),
        CharCommand::Advance(args) => advance(args, out),
        CharCommand::Bestiary { bestiary, json } => list_bestiary(bestiary, *json, out),
        CharCommand::Rest { file, hours } => {
            if !hours.is_finite() || *hours < 0.0 || *hours > 10_000.0 {
                return Err(bad(format!(
                    "--hours {hours}: give hours of rest from 0 to 10000"
                )));
            }
            let mut hero = load(file)?;
            let half_hours = (hours * 2.0).floor() as u32;
            let healed = hero.rest(half_hours);
            save(file, &hero)?;
            if hero.is_out() {
                writeln!(
                    out,
                    "{} is out (0 hit points): being incapacitated is not resting.",
                    hero.name
                )?;
            } else {
                writeln!(
                    out,
                    "{} rests {half_hours} half hour(s): +{healed} hit point(s), now {}/{}",
                    hero.name,
                    hero.hit_points,
                    hero.max_hit_points()
                )?;
            }
            Ok(())
        }
    }
}

/// Like `crate::dice::with_dice`, but a broken rule is reported before any complaint about the typed
/// dice: a rule refused before rolling leaves every typed value unused, and the player must
/// hear the rule ("assign 3, 2 and 1"), not "too many values in --rolled".
fn with_dice_rules_first<T>(
    rolled: Option<&str>,
    seed: Option<u64>,
    order: &str,
    roll: impl FnOnce(&mut dyn solum_dice::DiceSource) -> Result<T, CreationError>,
) -> anyhow::Result<(T, Option<u64>)> {
    use crate::dice::{Generator, SideDice, Source, explain};
    let generator = std::cell::RefCell::new(Generator::new(seed));
    let blame = std::cell::Cell::new("--rolled");
    let mut source = Source::from_flag("--rolled", rolled)?;
    let value = match roll(&mut SideDice::new(&mut source, &generator, &blame)) {
        Ok(v) => v,
        Err(CreationError::Rules(e)) => return Err(bad(e.to_string())),
        Err(CreationError::Dice(e)) => return Err(explain(e, blame.get(), order)),
    };
    source.finish(order)?;
    let seed = generator.borrow().used_seed();
    Ok((value, seed))
}

/// `solum char bestiary`: every creature and static opposition with its stats.
fn list_bestiary(
    files: &[std::path::PathBuf],
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let bestiary =
        solum_play::storage::load_bestiary(files).map_err(|e| bad(format!("--bestiary: {e}")))?;
    if json {
        let creatures: Vec<_> = bestiary.creatures().collect();
        let statics: Vec<_> = bestiary.static_foes().collect();
        writeln!(
            out,
            "{}",
            json!({"creatures": creatures, "static": statics})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        paint(
            HEAD,
            format!(
                "{:<22} {:>4} {:>3} {:>6} {:>4} {:>8}  notes",
                "creature", "pool", "hp", "damage", "mind", "ranged"
            )
        )
    )?;
    for c in bestiary.creatures() {
        writeln!(
            out,
            "{:<22} {:>4} {:>3} {:>6} {:>4} {:>8}  {}",
            c.name,
            c.pool,
            c.hit_points,
            c.damage,
            c.mind,
            // "AV": made to fight vehicles (S10).
            c.ranged_damage
                .map_or("-".to_owned(), |d| if c.anti_vehicle {
                    format!("{d} AV")
                } else {
                    d.to_string()
                }),
            c.notes
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        paint(
            HEAD,
            format!(
                "{:<22} {:>10} {:>3} {:>6}  notes",
                "static opposition", "difficulty", "hp", "damage"
            )
        )
    )?;
    for f in bestiary.static_foes() {
        writeln!(
            out,
            "{:<22} {:>10} {:>3} {:>6}  {}",
            f.name, f.difficulty, f.hit_points, f.damage, f.notes
        )?;
    }
    Ok(())
}

/// Storage errors of a file the user named are bad input (exit 2).
fn load(path: &Path) -> anyhow::Result<Character> {
    load_character(path).map_err(|e| bad(e.to_string()))
}

fn save(path: &Path, hero: &Character) -> anyhow::Result<()> {
    save_character(path, hero).map_err(|e| match e {
        solum_play::storage::StorageError::Invalid { .. } => bad(e.to_string()),
        other => anyhow::Error::new(other),
    })
}

/// Asks on standard input until the answer parses.
fn ask<T>(question: &str, parse: impl Fn(&str) -> Result<T, String>) -> anyhow::Result<T> {
    let mut lines = solum_play::storage::Lines::new(std::io::stdin().lock());
    loop {
        crate::say!("{question} ");
        let Some(line) = lines
            .next_line()
            .map_err(|e| bad(format!("standard input: {e}")))?
        else {
            return Err(bad(format!(
                "no answer to \"{question}\" (standard input ended)"
            )));
        };
        match parse(line.trim()) {
            Ok(v) => return Ok(v),
            Err(e) => crate::say!("  {e}\n"),
        }
    }
}

fn attribute_value(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(v @ 1..=3) => Ok(v),
        _ => Err(format!("`{s}`: give 3, 2 or 1")),
    }
}

fn new(args: &CharNewArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let name = match &args.name {
        Some(n) => n.clone(),
        None => ask("Name:", |s| {
            if s.is_empty() {
                Err("a name, please".into())
            } else {
                Ok(s.to_owned())
            }
        })?,
    };
    let (body, mind, charm) = match (args.body, args.mind, args.charm) {
        (Some(b), Some(m), Some(c)) => (b, m, c),
        _ => {
            crate::say!("Body, Mind and Charm take 3, 2 and 1, one each.\n");
            let body = match args.body {
                Some(v) => v,
                None => ask("Body (3, 2 or 1):", attribute_value)?,
            };
            let mind = match args.mind {
                Some(v) => v,
                None => ask("Mind:", |s| {
                    attribute_value(s).and_then(|v| {
                        if v == body {
                            Err(format!("Body is already {v}"))
                        } else {
                            Ok(v)
                        }
                    })
                })?,
            };
            let charm = match args.charm {
                Some(v) => v,
                // The one value left; create() refuses a spread that is not 3, 2, 1.
                None => 6u32.saturating_sub(body + mind),
            };
            (body, mind, charm)
        }
    };
    let mut backgrounds = args.backgrounds.clone();
    if backgrounds.is_empty() {
        backgrounds.push(ask("Background (e.g. Acrobat Thief):", |s| {
            if s.is_empty() {
                Err("a background, please".into())
            } else {
                Ok(s.to_owned())
            }
        })?);
    }
    let weapon_name = match &args.weapon {
        Some(w) => w.clone(),
        None => ask("Light weapon (e.g. dagger):", |s| {
            if s.is_empty() {
                Err("a weapon, please".into())
            } else {
                Ok(s.to_owned())
            }
        })?,
    };
    let choices = CreationChoices {
        name: name.clone(),
        body,
        mind,
        charm,
        backgrounds,
        weapon: Weapon {
            name: weapon_name,
            class: Class::Light,
            ranged: args.ranged,
            anti_vehicle: false,
        },
        armor_name: args.armor.clone(),
    };
    let path = super::new_sheet_path(args.output.as_deref(), &name, args.force)?;
    let ((hero, rolls), seed) = with_dice_rules_first(
        args.dice.rolled.as_deref(),
        args.dice.seed,
        "values go: 2d6 for backgrounds, then 1d6 for armor",
        |dice| create(&choices, dice),
    )?;
    save(&path, &hero)?;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"file": path, "character": sheet_json(&hero), "rolls": rolls, "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "Backgrounds: 2d6 {} {} → {} background(s){}",
        rolls.backgrounds_dice[0],
        rolls.backgrounds_dice[1],
        rolls.backgrounds_allowed(),
        if hero.unnamed_backgrounds > 0 {
            format!(
                " ({} to name: solum char edit {} --add-background …)",
                hero.unnamed_backgrounds,
                path.display()
            )
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "Armor: d6 {} → {}",
        rolls.armor_die,
        if rolls.has_armor() {
            "light armor"
        } else {
            "none"
        }
    )?;
    write_sheet(out, &hero)?;
    writeln!(
        out,
        "{}",
        paint(DIM, format!("saved to {}", path.display()))
    )?;
    render::write_seed(out, seed)?;
    Ok(())
}

fn sheet_json(hero: &Character) -> serde_json::Value {
    let mut v = serde_json::to_value(hero).expect("a character serialises");
    v["max_hit_points"] = json!(hero.max_hit_points());
    v["pools"] = json!({
        "body": hero.pool(Attribute::Body, false, None).pool().map(|p| p.dice()).ok(),
        "mind": hero.pool(Attribute::Mind, false, None).pool().map(|p| p.dice()).ok(),
        "charm": hero.pool(Attribute::Charm, false, None).pool().map(|p| p.dice()).ok(),
    });
    v
}

fn write_sheet(out: &mut dyn Write, hero: &Character) -> std::io::Result<()> {
    let status = if hero.is_out() {
        paint(BAD, " OUT")
    } else {
        String::new()
    };
    writeln!(
        out,
        "{}   hit points {}/{}{status}",
        paint(HEAD, &hero.name),
        hero.hit_points,
        hero.max_hit_points()
    )?;
    let heavy_armor = hero
        .armor
        .as_ref()
        .is_some_and(|a| a.too_heavy_for(hero.body));
    for attribute in Attribute::ALL {
        let pool = hero
            .pool(attribute, false, None)
            .pool()
            .map(|p| p.dice())
            .unwrap_or(1);
        let with_bg = hero
            .pool(attribute, true, None)
            .pool()
            .map(|p| p.dice())
            .unwrap_or(1);
        writeln!(
            out,
            "  {:<6} {}   pool {pool}, {with_bg} with a background{}",
            attribute.name(),
            hero.attribute(attribute),
            if heavy_armor {
                " (−1: armor too heavy)"
            } else {
                ""
            }
        )?;
    }
    let mut backgrounds = hero.backgrounds.clone();
    for _ in 0..hero.unnamed_backgrounds {
        backgrounds.push("(to be named)".into());
    }
    writeln!(out, "  backgrounds: {}", backgrounds.join("; "))?;
    for w in &hero.weapons {
        let warn = if w.too_heavy_for(hero.body) {
            " (Body < 3: −1 die, 2 damage)"
        } else {
            ""
        };
        writeln!(
            out,
            "  weapon: {} ({} {}{}, {} damage){warn}",
            w.name,
            w.class.name(),
            if w.ranged { "ranged" } else { "melee" },
            if w.anti_vehicle {
                ", made to fight vehicles"
            } else {
                ""
            },
            w.damage(hero.body)
        )?;
    }
    match &hero.armor {
        Some(a) => writeln!(
            out,
            "  armor: {} ({}, +{} hit points){}",
            a.name,
            a.class.name(),
            a.class.points(),
            if a.too_heavy_for(hero.body) {
                format!(" — too heavy for Body {}: −1 die on every check", hero.body)
            } else {
                String::new()
            }
        )?,
        None => writeln!(out, "  armor: none")?,
    }
    for g in &hero.gear {
        let effect = match g.effect {
            GearEffect::Enables => "enables",
            GearEffect::Reroll => "reroll one die once",
        };
        writeln!(out, "  gear: {} ({effect})", g.name)?;
    }
    writeln!(out, "  money: {}", hero.money)?;
    if !hero.notes.is_empty() {
        writeln!(out, "  notes: {}", hero.notes)?;
    }
    Ok(())
}

fn class(s: &str, what: &str) -> anyhow::Result<Class> {
    s.parse().map_err(|e: String| bad(format!("{what}: {e}")))
}

fn edit(args: &CharEditArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut hero = load(&args.file)?;
    for set in &args.set {
        let (k, v) = set
            .split_once('=')
            .ok_or_else(|| bad(format!("--set {set}: write ATTRIBUTE=N, e.g. body=3")))?;
        let attribute: Attribute = k.parse().map_err(|e: String| bad(format!("--set: {e}")))?;
        let value: u32 = v.trim().parse().map_err(|_| {
            bad(format!(
                "--set {set}: `{}` is not an attribute: attributes are 1 to {}",
                v.trim(),
                solum_expanded::character::MAX_ATTRIBUTE
            ))
        })?;
        hero.set_attribute(attribute, value);
    }
    for b in &args.add_background {
        if b.trim().is_empty() {
            return Err(bad("--add-background: a background needs words"));
        }
        if hero
            .backgrounds
            .iter()
            .any(|x| x.eq_ignore_ascii_case(b.trim()))
        {
            return Err(bad(format!(
                "--add-background {b}: {} already has it",
                hero.name
            )));
        }
        hero.backgrounds.push(b.trim().to_owned());
        hero.unnamed_backgrounds = hero.unnamed_backgrounds.saturating_sub(1);
    }
    for b in &args.remove_background {
        let before = hero.backgrounds.len();
        hero.backgrounds.retain(|x| !x.eq_ignore_ascii_case(b));
        if hero.backgrounds.len() == before {
            return Err(bad(format!(
                "--remove-background: {} has no background `{b}`",
                hero.name
            )));
        }
    }
    for w in &args.add_weapon {
        let parts: Vec<&str> = w.split(':').collect();
        let weapon = match parts.as_slice() {
            [name, c] => Weapon::melee(*name, class(c, "--add-weapon")?),
            [name, c, "ranged"] => Weapon::ranged(*name, class(c, "--add-weapon")?),
            [name, c, "ranged", "anti-vehicle"] => Weapon {
                anti_vehicle: true,
                ..Weapon::ranged(*name, class(c, "--add-weapon")?)
            },
            _ => {
                return Err(bad(format!(
                    "--add-weapon {w}: write NAME:CLASS, NAME:CLASS:ranged or NAME:CLASS:ranged:anti-vehicle"
                )));
            }
        };
        // A weapon is named in commands (remove, hold), so the name must say which.
        if weapon.name.trim().is_empty() {
            return Err(bad(format!("--add-weapon {w}: the weapon needs a name")));
        }
        if hero
            .weapons
            .iter()
            .any(|x| x.name.eq_ignore_ascii_case(&weapon.name))
        {
            return Err(bad(format!(
                "--add-weapon {w}: {} already carries a `{}`",
                hero.name, weapon.name
            )));
        }
        hero.weapons.push(weapon);
    }
    for w in &args.remove_weapon {
        let before = hero.weapons.len();
        hero.weapons.retain(|x| !x.name.eq_ignore_ascii_case(w));
        if hero.weapons.len() == before {
            return Err(bad(format!(
                "--remove-weapon: {} carries no `{w}`",
                hero.name
            )));
        }
    }
    // Armor points come and go with the armor.
    if let Some(a) = &args.armor {
        let (name, c) = a
            .rsplit_once(':')
            .ok_or_else(|| bad(format!("--armor {a}: write NAME:CLASS")))?;
        hero.set_armor(Some(Armor {
            name: name.to_owned(),
            class: class(c, "--armor")?,
        }));
    }
    if args.no_armor {
        hero.set_armor(None);
    }
    for g in &args.add_gear {
        let (name, effect) = g
            .rsplit_once(':')
            .ok_or_else(|| bad(format!("--add-gear {g}: write NAME:reroll or NAME:enables")))?;
        let effect = match effect {
            "reroll" => GearEffect::Reroll,
            "enables" => GearEffect::Enables,
            other => {
                return Err(bad(format!(
                    "--add-gear: `{other}` is not reroll or enables"
                )));
            }
        };
        if name.trim().is_empty() {
            return Err(bad(format!("--add-gear {g}: the gear needs a name")));
        }
        if hero.gear.iter().any(|x| x.name.eq_ignore_ascii_case(name)) {
            return Err(bad(format!(
                "--add-gear {g}: {} already has a `{name}`",
                hero.name
            )));
        }
        hero.gear.push(Gear {
            name: name.to_owned(),
            effect,
        });
    }
    for g in &args.remove_gear {
        let before = hero.gear.len();
        hero.gear.retain(|x| !x.name.eq_ignore_ascii_case(g));
        if hero.gear.len() == before {
            return Err(bad(format!("--remove-gear: {} has no `{g}`", hero.name)));
        }
    }
    if let Some(m) = args.money {
        hero.money = m;
    }
    if let Some(n) = &args.notes {
        hero.notes = n.clone();
    }
    if let Some(d) = args.damage {
        hero.take_damage(d);
    }
    if let Some(h) = args.heal {
        hero.heal(h);
    }
    hero.validate()
        .map_err(|e| bad(format!("{}: {e} (nothing was saved)", args.file.display())))?;
    save(&args.file, &hero)?;
    write_sheet(out, &hero)?;
    Ok(())
}

fn advance(args: &CharAdvanceArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut hero = load(&args.file)?;
    let (advancement, seed) = match (&args.background, &args.attribute) {
        (Some(b), _) => with_dice_rules_first(
            args.dice.rolled.as_deref(),
            args.dice.seed,
            "values go: one d6",
            |dice| advance_background(&mut hero, b, dice),
        )?,
        (None, Some(a)) => {
            let attribute: Attribute = a
                .parse()
                .map_err(|e: String| bad(format!("--attribute: {e}")))?;
            let n = hero.attribute(attribute);
            with_dice_rules_first(
                args.dice.rolled.as_deref(),
                args.dice.seed,
                &format!("values go: {} d6, one per point of {}", n, attribute.name()),
                |dice| advance_attribute(&mut hero, attribute, dice),
            )?
        }
        (None, None) => unreachable!("clap requires one"),
    };
    if advancement.success {
        save(&args.file, &hero)?;
    }
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"advancement": advancement, "character": sheet_json(&hero), "seed": seed})
        )?;
        return Ok(());
    }
    let dice: Vec<String> = advancement.dice.iter().map(u32::to_string).collect();
    writeln!(
        out,
        "{}: rolled {} — {}",
        advancement.what,
        dice.join(" "),
        if advancement.success {
            paint(GOOD, "success")
        } else {
            paint(
                BAD,
                "not this time (try again at the next advancement point)",
            )
        }
    )?;
    if advancement.success {
        write_sheet(out, &hero)?;
    }
    render::write_seed(out, seed)?;
    Ok(())
}
