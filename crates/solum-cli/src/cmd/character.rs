//! `solum char …`: So1um Expanded characters in the campaign. Each command opens the
//! campaign, makes one application call (which reads, changes and stores the sheet with its
//! journal entry in one transaction) and renders the view it returns. A character's name
//! is only a key in the campaign: no command turns it into a file path.

use std::io::Write;

use crate::storage::{Replace, load_character, read_text};
use solum_app::Character;
use solum_app::characters::{ChangeView, CharacterView, StartingAttribute};
use solum_app::fields::ExpandedField;
use solum_app::rules::{Attribute, Class, Weapon};
use solum_app::typed_dice::FieldName;
use solum_app::{AdvanceGoal, AppError, ArmorChange, CharacterEdit, NewCharacter};

use super::campaign::{self as camp, write_json};
use crate::bad;
use crate::cli::{CharAdvanceArgs, CharCommand, CharEditArgs, CharNewArgs, CharShowArgs};
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint};

pub fn run(command: &CharCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        CharCommand::New(args) => new(args, out),
        CharCommand::Show(args) => show(args, out),
        CharCommand::List { json, campaign } => {
            let owned = camp::on_campaign(campaign, |here| here.owned_characters())??;
            if *json {
                return write_json(out, &owned);
            }
            let views: Vec<_> = owned.into_iter().map(|o| o.view).collect();
            write_list(out, &views)
        }
        CharCommand::Edit(args) => edit(args, out),
        CharCommand::Advance(args) => advance(args, out),
        CharCommand::Grant {
            name,
            json,
            campaign,
        } => {
            let view = camp::on_campaign(campaign, |here| here.grant_advancement_point(name))??;
            if *json {
                return write_json(out, &view);
            }
            writeln!(
                out,
                "{} is granted an advancement point: {} unspent",
                view.sheet.character.name, view.sheet.advancement_points
            )?;
            write_entry(out, view.seq)
        }
        CharCommand::Bestiary { bestiary, json } => list_bestiary(bestiary, *json, out),
        CharCommand::Rest {
            name,
            hours,
            json,
            campaign,
        } => {
            let view = camp::on_campaign(campaign, |here| here.rest_character(name, *hours))?
                .map_err(|e| {
                    super::flagged(e, |f: ExpandedField| {
                        (f == ExpandedField::Hours).then_some("--hours")
                    })
                })?;
            if *json {
                return write_json(out, &view);
            }
            let hero = &view.sheet.character;
            if view.sheet.out {
                writeln!(out, "{} {}.", hero.name, Character::OUT_DOES_NOT_REST)?;
            } else {
                writeln!(
                    out,
                    "{} rests {hours} hour(s): +{} hit point(s), now {}/{}{}",
                    hero.name,
                    view.healed.unwrap_or(0),
                    hero.hit_points,
                    view.sheet.max_hit_points,
                    if view.sheet.rest_minutes > 0 {
                        format!(
                            ", {} minute(s) of rest toward the next",
                            view.sheet.rest_minutes
                        )
                    } else {
                        String::new()
                    }
                )?;
            }
            write_entry(out, view.seq)
        }
        CharCommand::Import {
            file,
            replace,
            json,
            campaign,
        } => {
            let text =
                read_text(file, crate::storage::MAX_FILE_BYTES).map_err(|e| bad(e.to_string()))?;
            let view = camp::on_campaign(campaign, |here| {
                if *replace {
                    here.replace_character(&text)
                } else {
                    here.import_character(&text)
                }
            })?
            .map_err(|e| match e {
                AppError::Store(s @ solum_store::StoreError::NameTaken { .. }) => {
                    bad(format!("{}: {s} (--replace replaces it)", file.display()))
                }
                e => anyhow::Error::new(e).context(file.display().to_string()),
            })?;
            if *json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet.character)?;
            write_entry(out, view.seq)
        }
        CharCommand::Export {
            name,
            out: file,
            force,
            campaign,
        } => {
            let text = camp::on_campaign(campaign, |here| here.export_character(name))??;
            match file {
                None => Ok(out.write_all(text.as_bytes())?),
                Some(path) => {
                    let replace = if *force {
                        Replace::Allowed
                    } else {
                        Replace::Never
                    };
                    camp::write_file(path, text.as_bytes(), replace)
                }
            }
        }
    }
}

fn write_entry(out: &mut dyn Write, seq: i64) -> anyhow::Result<()> {
    writeln!(out, "  {}", paint(DIM, format!("journal entry {seq}")))?;
    Ok(())
}

/// `solum char show`: from the campaign, or from a sheet file (read only).
fn show(args: &CharShowArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    match (&args.file, &args.name) {
        (Some(file), _) => {
            let hero = load_character(file).map_err(|e| bad(e.to_string()))?;
            let view = solum_app::characters::SheetFileView::of(hero);
            if args.json {
                return write_json(out, &view);
            }
            Ok(write_sheet(out, &view.character)?)
        }
        (None, Some(name)) => {
            let view = camp::on_campaign(&args.campaign, |here| here.character(name))??;
            if args.json {
                return write_json(out, &view);
            }
            Ok(write_sheet(out, &view.character)?)
        }
        (None, None) => unreachable!("clap requires a name or --file"),
    }
}

pub(crate) fn write_list(out: &mut dyn Write, views: &[CharacterView]) -> anyhow::Result<()> {
    if views.is_empty() {
        writeln!(out, "No characters yet: `solum char new NAME` creates one.")?;
        return Ok(());
    }
    for v in views {
        let h = &v.character;
        writeln!(
            out,
            "{:<24} body {} mind {} charm {}   hit points {}/{}{}",
            h.name,
            h.body,
            h.mind,
            h.charm,
            h.hit_points,
            v.max_hit_points,
            if v.out {
                paint(BAD, " OUT")
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}

/// `solum char bestiary`: every creature and static opposition with its stats.
fn list_bestiary(
    files: &[std::path::PathBuf],
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let bestiary =
        crate::storage::load_bestiary(files).map_err(|e| bad(format!("--bestiary: {e}")))?;
    if json {
        return write_json(out, &solum_app::creatures::BestiaryView::of(&bestiary));
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

/// Asks on standard input until the answer parses.
fn ask<T>(question: &str, parse: impl Fn(&str) -> Result<T, String>) -> anyhow::Result<T> {
    let mut lines = crate::storage::Lines::new(std::io::stdin().lock());
    loop {
        crate::say!("{question} ");
        let Some(line) = lines
            .next_line()
            .map_err(|e| bad(format!("standard input: {e}")))?
        else {
            // End the prompt's line, so the error starts on its own.
            crate::say!("\n");
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

/// An attribute typed at the prompt, in its type's words.
fn attribute_value(s: &str) -> Result<StartingAttribute, String> {
    s.parse().map_err(|e| format!("`{s}`: {e}"))
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
                // The one value left. Body and Mind given alike leave none: Mind's again,
                // and the rules refuse the spread, which is not 3, 2, 1.
                None => StartingAttribute::new(6u32.saturating_sub(body.get() + mind.get()))
                    .unwrap_or(mind),
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
    let choices = NewCharacter {
        name,
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
    let dice = camp::dice(args.dice.seed, args.dice.rolled.as_deref())?;
    let view = camp::on_campaign(&args.campaign, |here| here.create_character(&choices, dice))?
        .map_err(|e| {
            crate::dice::typed_dice_error(e, solum_app::characters::CREATION_TYPED_ORDER)
        })?;
    if args.json {
        return write_json(out, &view);
    }
    write_created(out, &view)
}

fn write_created(out: &mut dyn Write, view: &ChangeView) -> anyhow::Result<()> {
    let hero = &view.sheet.character;
    let faces = view
        .rolled
        .as_ref()
        .map(|r| r.faces.clone())
        .unwrap_or_default();
    if let [a, b, armor] = faces[..] {
        let total = hero.backgrounds.len() + hero.unnamed_backgrounds as usize;
        writeln!(
            out,
            "Backgrounds: 2d6 {a} {b} → {total} background(s){}",
            if hero.unnamed_backgrounds > 0 {
                format!(
                    " ({} to name: solum char edit \"{}\" --add-background …)",
                    hero.unnamed_backgrounds, hero.name
                )
            } else {
                String::new()
            }
        )?;
        writeln!(
            out,
            "Armor: d6 {armor} → {}",
            if hero.armor.is_some() {
                "light armor"
            } else {
                "none"
            }
        )?;
    }
    write_sheet(out, hero)?;
    if let Some(r) = &view.rolled {
        if r.typed {
            writeln!(out, "  {}", paint(DIM, "dice typed in"))?;
        }
        render::write_seed(out, r.seed)?;
    }
    write_entry(out, view.seq)
}

pub(crate) fn write_sheet(out: &mut dyn Write, hero: &Character) -> std::io::Result<()> {
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
        writeln!(out, "  gear: {} ({})", g.name, g.effect.describe())?;
    }
    writeln!(out, "  money: {}", hero.money)?;
    writeln!(
        out,
        "  advancement points: {} (each buys one attempt: `char advance`)",
        hero.advancement_points
    )?;
    if hero.rest_minutes > 0 {
        writeln!(
            out,
            "  rest: {} minute(s) toward the next hit point",
            hero.rest_minutes
        )?;
    }
    if !hero.notes.is_empty() {
        writeln!(out, "  notes: {}", hero.notes)?;
    }
    Ok(())
}

fn edit(args: &CharEditArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut edit = CharacterEdit {
        set: solum_app::shorthand::tuples(&args.set),
        add_backgrounds: args.add_background.clone(),
        remove_backgrounds: args.remove_background.clone(),
        add_weapons: args.add_weapon.clone(),
        remove_weapons: args.remove_weapon.clone(),
        armor: args.armor.clone().map(ArmorChange::Wear),
        add_gear: args.add_gear.clone(),
        remove_gear: args.remove_gear.clone(),
        money: args.money,
        notes: args.notes.clone(),
        damage: args.damage,
        heal: args.heal,
        correction: args.correction,
    };
    if args.no_armor {
        edit.armor = Some(ArmorChange::TakeOff);
    }
    let changes = CharacterEdit {
        correction: false,
        ..edit.clone()
    };
    if changes == CharacterEdit::default() {
        return Err(bad(
            "nothing to change: give --set, --add-background, --damage, … (see --help)",
        ));
    }
    let view = camp::on_campaign(&args.campaign, |here| {
        here.edit_character(&args.name, &edit)
    })?
    .map_err(|e| {
        let AppError::Expanded(r) = &e else {
            return e.into();
        };
        let flag = match e.refused_field::<ExpandedField>() {
            Some((f, _)) => edit_flag(f).to_owned(),
            None => r.field.clone(),
        };
        bad(format!(
            "{flag}: {}{} (nothing was changed)",
            r.problem,
            if r.kind == solum_app::ExpandedRefusal::EditByAdvancement {
                " (--correction)"
            } else {
                ""
            }
        ))
    })?;
    if args.json {
        return write_json(out, &view);
    }
    write_sheet(out, &view.sheet.character)?;
    if let Some(hp) = view.hit_points {
        let given: Vec<String> = [("damage", args.damage), ("heal", args.heal)]
            .into_iter()
            .filter_map(|(what, n)| n.map(|n| format!("{what} {n}")))
            .collect();
        writeln!(
            out,
            "  {}: hit points {} → {}{}",
            given.join(", "),
            hp.before,
            hp.after,
            if hp.held {
                format!(" (hit points stay from 0 to {})", hp.max)
            } else {
                String::new()
            }
        )?;
    }
    write_entry(out, view.seq)
}

/// The flag behind a field of an edit, for messages; a field of the sheet stays as named.
fn edit_flag(field: ExpandedField) -> &'static str {
    match field {
        ExpandedField::AddBackgrounds => "--add-background",
        ExpandedField::RemoveBackgrounds => "--remove-background",
        ExpandedField::AddWeapons => "--add-weapon",
        ExpandedField::RemoveWeapons => "--remove-weapon",
        ExpandedField::AddGear => "--add-gear",
        ExpandedField::RemoveGear => "--remove-gear",
        ExpandedField::Set => "--set",
        other => other.name(),
    }
}

fn advance(args: &CharAdvanceArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let goal = match (&args.background, &args.attribute) {
        (Some(b), _) => AdvanceGoal::Background(b.clone()),
        (None, Some(a)) => AdvanceGoal::Attribute(*a),
        (None, None) => unreachable!("clap requires one"),
    };
    let order = solum_app::characters::advance_typed_order(&goal);
    let dice = camp::dice(args.dice.seed, args.dice.rolled.as_deref())?;
    let view = camp::on_campaign(&args.campaign, |here| {
        here.advance_character(&args.name, &goal, dice)
    })?
    .map_err(|e| match e.refused_field::<ExpandedField>() {
        Some((ExpandedField::AdvancementPoints, problem)) => bad(format!(
            "{problem} (`solum char grant {}`)",
            args.name.trim()
        )),
        _ => crate::dice::typed_dice_error(e, &order),
    })?;
    if args.json {
        return write_json(out, &view);
    }
    let success = view.success.unwrap_or(false);
    let rolled = view.rolled.as_ref();
    let faces: Vec<String> = rolled
        .map(|r| r.faces.iter().map(u32::to_string).collect())
        .unwrap_or_default();
    let what = match &goal {
        AdvanceGoal::Background(b) => format!("A: new background \"{b}\""),
        AdvanceGoal::Attribute(a) => format!("B: raise {}", a.name()),
    };
    writeln!(
        out,
        "{what}: rolled {} — {}",
        faces.join(" "),
        if success {
            paint(GOOD, "success")
        } else {
            paint(
                BAD,
                "not this time (try again at the next advancement point)",
            )
        }
    )?;
    writeln!(
        out,
        "  an advancement point spent: {} left",
        view.sheet.advancement_points
    )?;
    if success {
        write_sheet(out, &view.sheet.character)?;
    }
    if let Some(r) = rolled {
        render::write_seed(out, r.seed)?;
    }
    write_entry(out, view.seq)
}
