//! `solum odds dietype`, `solum roll dietype`: Solum die types.

use std::io::Write;

use solum_app::dietype::{Against, DietypeEdit, DietypeRoll, DietypeRollView, DietypeView};
use solum_app::dietype_once::{
    ChanceRoll, DamageAsk, DamageRoll, DieType, DietypeAsk, DietypeOddsView, DietypeOnceError,
    Field, OpposedOddsView, OpposedRollView, SideAsk, SkillOddsView, SkillRollView,
};

use crate::bad;
use crate::cli::{DietypeCommand, DietypeOddsArgs, DietypeRollArgs, DietypeSheetArgs};
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint, percent_f64};

/// The flag of a field of a one-shot roll.
fn flag(field: Field) -> String {
    match field {
        Field::Die => "the die type".to_owned(),
        Field::Typed => "--rolled".to_owned(),
        f => format!("--{}", f.name().replace('_', "-")),
    }
}

fn once_error(e: DietypeOnceError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.describe(flag))
    } else {
        anyhow::Error::new(e)
    }
}

/// The roll as typed: the first side, and a difficulty or the other side.
fn ask<'a>(args: &'a crate::cli::DietypeArgs, die: &'a str) -> DietypeAsk<'a> {
    DietypeAsk {
        side: SideAsk {
            die,
            step: args.step,
            chances: args.chances,
        },
        vs: args.vs,
        against: args.against.as_deref().map(|other| SideAsk {
            die: other,
            step: args.against_step,
            chances: args.against_chances,
        }),
    }
}

/// `solum odds dietype`: the app's odds of the roll as typed, or the text's tables.
pub fn odds(args: &DietypeOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.tables {
        return write_tables(args.json, out);
    }
    let Some(die_text) = &args.die else {
        return Err(bad("give a die type (d4 … d12), or --tables"));
    };
    let view =
        solum_app::dietype_once::dietype_odds(&ask(&args.roll, die_text)).map_err(once_error)?;
    if args.json {
        return super::campaign::write_json(out, &view);
    }
    match &view {
        DietypeOddsView::Skill(o) => write_skill_odds(o, out),
        DietypeOddsView::Opposed(o) => write_opposed_odds(o, out),
    }
}

fn write_opposed_odds(o: &OpposedOddsView, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} ×{} against {} ×{}: win {}  draw {:.2}%  lose {:.2}%",
        o.die,
        o.chances,
        o.against,
        o.against_chances,
        paint(HEAD, format!("{:.2}%", 100.0 * o.p_win)),
        100.0 * o.p_draw,
        100.0 * o.p_lose
    )?;
    for (q, p) in &o.win_quality {
        let name = o.quality_names.get(q).copied().unwrap_or_default();
        writeln!(out, "  win, {name:<13} {:>7.2}%", 100.0 * p)?;
    }
    writeln!(
        out,
        "  {}",
        paint(
            DIM,
            format!("error below {:.0e} (explosions truncated)", o.error_bound)
        )
    )?;
    Ok(())
}

fn write_skill_odds(o: &SkillOddsView, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} with {} chance(s) against {} {}: success {}",
        o.die,
        o.chances,
        o.difficulty,
        o.difficulty_name,
        paint(HEAD, percent_f64(o.p_success))
    )?;
    let mut table = render::table(&["quality", "name", "chance"], &[0, 2]);
    for (q, p) in &o.quality {
        table.add_row(vec![
            q.to_string(),
            o.quality_names
                .get(q)
                .copied()
                .unwrap_or_default()
                .to_owned(),
            percent_f64(*p),
        ]);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

fn write_tables(json_out: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let all = solum_app::dietype_once::dietype_tables();
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

/// `solum roll dietype`: one roll through the app (`--char`: the campaign's use case).
pub fn roll(args: &DietypeRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(name) = &args.character {
        return roll_character(name, args, out);
    }
    let die_text = args.die.as_deref().unwrap_or_default();
    let damage = args.damage.as_deref().map(|die| DamageAsk {
        die,
        step: args.damage_step,
        modifier: args.modifier,
    });
    let dice = super::campaign::dice(args.dice.seed, args.dice.rolled.as_deref())?;
    let view =
        solum_app::dietype_once::roll_dietype(&ask(&args.roll, die_text), damage.as_ref(), dice)
            .map_err(once_error)?;
    if args.json {
        return super::campaign::write_json(out, &view);
    }
    match &view {
        solum_app::dietype_once::DietypeRollView::Skill(v) => write_skill_roll(v, out),
        solum_app::dietype_once::DietypeRollView::Opposed(v) => write_opposed_roll(v, out),
    }
}

fn chance_results(v: &[ChanceRoll]) -> String {
    v.iter()
        .map(|c| c.result.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_opposed_roll(v: &OpposedRollView, out: &mut dyn Write) -> anyhow::Result<()> {
    let r = &v.roll;
    writeln!(
        out,
        "{} {} ×{} against {} ×{}",
        paint(HEAD, "Opposed"),
        v.die,
        v.chances,
        v.against,
        v.against_chances
    )?;
    writeln!(out, "  you      {}", chance_results(&r.first))?;
    writeln!(out, "  against  {}", chance_results(&r.second))?;
    let verdict = match r.winner {
        1 => paint(GOOD, format!("WIN, {}", v.quality_name)),
        -1 => paint(BAD, format!("LOSE (they: {})", v.quality_name)),
        _ => "DRAW".to_owned(),
    };
    writeln!(out, "  {verdict}")?;
    if let (Some(dmg), Some(dd)) = (&v.damage, v.damage_die) {
        write_damage(out, dd, dmg)?;
    }
    render::write_seed(out, v.seed)?;
    Ok(())
}

fn write_skill_roll(v: &SkillRollView, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} {} with {} chance(s) against {}   success {}",
        paint(HEAD, "Roll"),
        v.die,
        v.chances,
        v.difficulty,
        paint(HEAD, percent_f64(v.p_success))
    )?;
    for (i, c) in v.roll.chances.iter().enumerate() {
        let faces: Vec<String> = c.faces.iter().map(u32::to_string).collect();
        let mark = if c.result >= v.difficulty {
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
    let verdict = if v.success {
        paint(
            GOOD,
            format!("{} (quality {})", v.quality_name.to_uppercase(), v.quality),
        )
    } else {
        paint(BAD, "FAILURE")
    };
    writeln!(out, "  {verdict}")?;
    if let (Some(dmg), Some(dd)) = (&v.damage, v.damage_die) {
        write_damage(out, dd, dmg)?;
    }
    render::write_seed(out, v.seed)?;
    Ok(())
}

fn write_damage(out: &mut dyn Write, die: DieType, dmg: &DamageRoll) -> anyhow::Result<()> {
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

fn edit_of(sheet: &DietypeSheetArgs) -> anyhow::Result<DietypeEdit> {
    use solum_app::shorthand::tuples as pairs;
    Ok(DietypeEdit {
        notes: sheet.notes.clone(),
        abilities: pairs(&sheet.ability),
        skills: pairs(&sheet.skill),
        weapons: pairs(&sheet.weapon),
        ..Default::default()
    })
}

/// A sheet's rule broken, named by the flag that set it (and the field, which may name one
/// entry of a list).
fn flagged(e: solum_app::AppError) -> anyhow::Error {
    use solum_app::fields::DieTypeField as F;
    let flag = match e.refused_field::<F>() {
        Some((F::Abilities, _)) => "--ability",
        Some((F::Skills, _)) => "--skill",
        Some((F::Weapons, _)) => "--weapon",
        Some((F::RemoveAbilities, _)) => "--remove-ability",
        Some((F::RemoveSkills, _)) => "--remove-skill",
        Some((F::RemoveWeapons, _)) => "--remove-weapon",
        Some((F::Notes, _)) => "--notes",
        Some((F::Name, _)) => "the name",
        _ => "",
    };
    match e.refusal() {
        Some((field, problem)) if flag.is_empty() => bad(format!("{field}: {problem}")),
        Some((field, problem)) => bad(format!("{flag} ({field}): {problem}")),
        None => e.into(),
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
    use super::campaign::{on_campaign, write_json};
    match command {
        DietypeCommand::New {
            name,
            sheet,
            json: as_json,
            campaign,
        } => {
            let edit = edit_of(sheet)?;
            let view = on_campaign(campaign, |here| here.create_dietype_character(name, &edit))?
                .map_err(flagged)?;
            if *as_json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet)?;
            write_entry(out, view.seq)
        }
        DietypeCommand::Show {
            name,
            json: as_json,
            campaign,
        } => {
            let v = on_campaign(campaign, |here| here.dietype_character(name))??;
            if *as_json {
                return write_json(out, &v);
            }
            write_sheet(out, &v)
        }
        DietypeCommand::List {
            json: as_json,
            campaign,
        } => {
            let all = on_campaign(campaign, |here| here.owned_dietype_characters())??;
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
                write_sheet(out, &v.view)?;
            }
            Ok(())
        }
        DietypeCommand::Import {
            file,
            json: as_json,
            campaign,
        } => {
            let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let view = on_campaign(campaign, |here| here.import_dietype_character(&text))?
                .map_err(|e| bad(format!("{}: {e}", file.display())))?;
            if *as_json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet)?;
            write_entry(out, view.seq)
        }
        DietypeCommand::Export { name, campaign } => {
            write!(
                out,
                "{}",
                on_campaign(campaign, |here| here.export_dietype_character(name))??
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
            let view = on_campaign(campaign, |here| here.edit_dietype_character(name, &edit))?
                .map_err(flagged)?;
            if *as_json {
                return write_json(out, &view);
            }
            write_sheet(out, &view.sheet)?;
            write_entry(out, view.seq)
        }
    }
}

/// `solum roll dietype --char NAME --ability A [--skill S]`: the die and the chances from
/// the sheet, journaled in the campaign.
fn roll_character(name: &str, args: &DietypeRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.modifier.get() != 0 {
        return Err(bad(
            "--modifier: with --char the weapon's modifier comes from the sheet",
        ));
    }
    let opposed = args
        .roll
        .against
        .as_deref()
        .map(|die| (die, args.roll.against_chances, args.roll.against_step));
    let against = Against::typed(args.roll.vs, opposed).map_err(|e| {
        use solum_app::fields::DieTypeField as F;
        super::flagged(e, |f| match f {
            F::Against => Some("--against"),
            _ => None,
        })
    })?;
    let request = DietypeRoll {
        ability: args.ability.clone().unwrap_or_default(),
        skill: args.skill.clone(),
        step: args.roll.step,
        against,
        weapon: args.weapon.clone(),
        damage_step: args.damage_step,
    };
    let dice = super::campaign::dice(args.dice.seed, args.dice.rolled.as_deref())?;
    let v = super::campaign::on_campaign(&args.campaign, |here| {
        here.roll_dietype_character(name, &request, dice)
    })?
    .map_err(|e| {
        use solum_app::fields::DieTypeField as F;
        super::flagged(e, |f| match f {
            F::Ability => Some("--ability"),
            F::Against => Some("--against"),
            F::Skill => Some("--skill"),
            F::Weapon => Some("--weapon"),
            F::Step => Some("--step"),
            _ => None,
        })
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
    let show = |c: &ChanceRoll| {
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
            1 => paint(GOOD, format!("WIN, {}", v.quality_name)),
            -1 => paint(BAD, format!("LOSE (they: {})", v.quality_name)),
            _ => "DRAW".to_owned(),
        },
        None if v.result.success => paint(
            GOOD,
            format!(
                "{} (quality {})",
                v.quality_name.to_uppercase(),
                v.result.quality
            ),
        ),
        None => paint(BAD, "FAILURE"),
    };
    writeln!(out, "  {verdict}")?;
    if let (Some(dmg), Some(die)) = (&v.result.damage, v.damage_die) {
        write_damage(out, die, dmg)?;
    }
    render::write_seed(out, v.rolled.seed)?;
    Ok(())
}

/// The journal entry a change was kept as.
fn write_entry(out: &mut dyn Write, seq: i64) -> anyhow::Result<()> {
    writeln!(out, "{}", paint(DIM, format!("journal entry {seq}")))?;
    Ok(())
}
