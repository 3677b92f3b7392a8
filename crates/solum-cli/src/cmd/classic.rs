//! `solum classic …` and `solum odds classic …`: the original So1um.

use std::io::Write;
use std::path::Path;

use crate::storage::Replace;
use serde_json::json;
use solum_classic::check::hero_pool;
use solum_classic::check::{
    difficulty_name, p_pass, parse_difficulty, random_difficulty, roll_check,
};
use solum_classic::duel::{
    DAMAGE, DuelError, DuelOdds, Exchange, Policy, Side, check_simulation, duel_chance,
    simulate_many,
};
use solum_classic::fight::{ClassicFight, Command, Event, FightError, Fighter, Loss, Who};
use solum_classic::hero::{Kind, Stat, create, parse_hero};
use solum_classic::oracle::{Odds, ask};
use solum_classic::{Book, Hero};

use solum_app::classic::{FightSetup, FightView, StoredHero};
use solum_app::{Campaign, Dice};
use solum_store::Store;

use crate::bad;
use crate::cli::{
    ClassicCheckArgs, ClassicCommand, ClassicDuelArgs, ClassicFightArgs, ClassicNewArgs,
    ClassicOddsCommand, DiceArgs,
};
use crate::cli_campaign::CampaignArg;
use crate::dice::with_dice;
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint, percent};

fn pool(n: i64) -> anyhow::Result<u32> {
    if (1..=i64::from(solum_classic::check::MAX_POOL)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(bad(format!(
            "{n} dice: a pool has 1 to {} dice",
            solum_classic::check::MAX_POOL
        )))
    }
}

fn difficulty(text: &str) -> anyhow::Result<u32> {
    parse_difficulty(text).map_err(|e| bad(format!("--vs {text}: {e}")))
}

/// A hero file (held to the rules of `kind`) or a name from the book.
fn load(who: &str, kind: Kind) -> anyhow::Result<Hero> {
    if who.trim().is_empty() {
        return Err(bad(
            "an empty name: name a hero file (.toml) or an entry of the book (see `solum classic bestiary`)",
        ));
    }
    let path = Path::new(who);
    if who.ends_with(".toml") {
        let text = crate::storage::read_text(path).map_err(|e| bad(e.to_string()))?;
        return parse_hero(&text, kind).map_err(|e| bad(format!("{who}: {e}")));
    }
    Book::shipped().find(who).cloned().ok_or_else(|| {
        bad(format!(
            "`{who}` is neither a .toml hero file nor in the book (see `solum classic bestiary`)"
        ))
    })
}

fn show(out: &mut dyn Write, h: &Hero) -> std::io::Result<()> {
    writeln!(
        out,
        "{}   B:{} M:{} S:{} HP:{}{}",
        paint(HEAD, &h.name),
        h.body,
        h.mind,
        h.spirit,
        h.hit_points,
        if h.is_dead() {
            paint(BAD, "  DEAD")
        } else {
            String::new()
        }
    )?;
    if !h.cliches.is_empty() {
        writeln!(out, "  clichés: {}", h.cliches.join(", "))?;
    }
    if !h.gear.is_empty() {
        writeln!(out, "  gear: {}", h.gear.join(", "))?;
    }
    if let Some(s) = h.combat_stat {
        writeln!(out, "  fights with {s:?}")?;
    }
    if h.rest_toward_hit_point > 0.0 || h.rest_toward_body > 0.0 {
        writeln!(
            out,
            "  rest banked: {} h toward a hit point, {} h toward Body",
            h.rest_toward_hit_point, h.rest_toward_body
        )?;
    }
    if !h.notes.is_empty() {
        writeln!(out, "  {}", h.notes)?;
    }
    Ok(())
}

pub fn run(command: &ClassicCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        ClassicCommand::New(args) if args.output.is_none() => new_campaign_hero(args, out)?,
        ClassicCommand::New(args) => new_hero_file(args, out)?,
        ClassicCommand::Show {
            who,
            json: as_json,
            campaign,
        } => {
            if let Some(c) = campaign_hero(campaign, who)? {
                let view = c.classic_hero(who)?;
                if *as_json {
                    return super::campaign::write_json(out, &view);
                }
                show(out, &view.hero)?;
                if view.in_fight {
                    writeln!(
                        out,
                        "  in a fight: `solum classic fight {} --status` shows it",
                        view.hero.name
                    )?;
                }
            } else {
                let hero = load(who, Kind::Hero)?;
                if *as_json {
                    return super::campaign::write_json(out, &hero);
                }
                show(out, &hero)?;
            }
        }
        ClassicCommand::List {
            json: as_json,
            campaign,
        } => {
            let heroes = super::campaign::open_existing(campaign)?.classic_heroes()?;
            if *as_json {
                return super::campaign::write_json(out, &heroes);
            }
            if heroes.is_empty() {
                writeln!(
                    out,
                    "No heroes yet: `solum classic new NAME` or `solum classic import FILE`."
                )?;
            }
            for v in &heroes {
                show(out, &v.hero)?;
            }
        }
        ClassicCommand::Import {
            file,
            json: as_json,
            campaign,
        } => {
            let text = crate::storage::read_text(file).map_err(|e| bad(e.to_string()))?;
            let view = super::campaign::open(campaign)?
                .import_classic_hero(&text)
                .map_err(|e| bad(format!("{}: {e}", file.display())))?;
            if *as_json {
                return super::campaign::write_json(out, &view);
            }
            show(out, &view.sheet.hero)?;
            writeln!(out, "{}", paint(DIM, "added to the campaign"))?;
        }
        ClassicCommand::Export { name, campaign } => {
            let text = super::campaign::open_existing(campaign)?.export_classic_hero(name)?;
            write!(out, "{text}")?;
        }
        ClassicCommand::Bestiary => {
            let book = Book::shipped();
            writeln!(out, "{}", paint(HEAD, "Sample heroes"))?;
            for h in &book.hero {
                show(out, h)?;
            }
            writeln!(out, "{}", paint(HEAD, "Monsters"))?;
            for h in &book.monster {
                show(out, h)?;
            }
            writeln!(
                out,
                "{} {}",
                paint(HEAD, "Clichés:"),
                book.cliches.join(", ")
            )?;
        }
        ClassicCommand::Check(args) => check(args, out)?,
        ClassicCommand::Oracle {
            question,
            advantage,
            disadvantage,
            dice,
            json,
        } => oracle(question, *advantage, *disadvantage, dice, *json, out)?,
        ClassicCommand::Edit {
            name,
            add_gear,
            remove_gear,
            json: as_json,
            campaign,
        } => {
            if campaign_hero(campaign, name)?.is_none() {
                return Err(bad(format!(
                    "`{name}` is not a hero of the campaign (`solum classic list`)"
                )));
            }
            let v =
                super::campaign::open(campaign)?.edit_classic_gear(name, add_gear, remove_gear)?;
            if *as_json {
                return super::campaign::write_json(out, &v);
            }
            show(out, &v.sheet.hero)?;
            writeln!(out, "{}", paint(DIM, format!("journal entry {}", v.seq)))?;
        }
        ClassicCommand::Fight(ClassicFightArgs { gear: Some(_), .. }) => {
            return Err(bad(
                "--gear: gear rerolls a die in a check only; in combat all are assumed properly armed and armoured (the text)",
            ));
        }
        ClassicCommand::Fight(args) => fight_cmd(args, out)?,
        ClassicCommand::Rest {
            file,
            hours,
            json,
            campaign,
        } => rest(file, *hours, *json, campaign, out)?,
    }
    Ok(())
}

/// `classic new NAME`: a hero rolled into the campaign.
fn new_campaign_hero(args: &ClassicNewArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ClassicNewArgs {
        name,
        cliches,

        dice,
        json: as_json,
        campaign,
        ..
    } = args;
    let view = super::campaign::open(campaign)?.create_classic_hero(
        name,
        cliches,
        super::campaign::dice(dice.seed, dice.rolled.as_deref())?,
    )?;
    if *as_json {
        return super::campaign::write_json(out, &view);
    }
    let f = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    if let Some(r) = &view.rolled {
        let d = &r.faces;
        writeln!(
            out,
            "Body {} · Mind {} · Spirit {} · hit points {} · clichés {}",
            f(&d[0..3]),
            f(&d[3..6]),
            f(&d[6..9]),
            f(&d[9..11]),
            f(&d[11..13])
        )?;
    }
    show(out, &view.sheet.hero)?;
    writeln!(
        out,
        "{}",
        paint(
            DIM,
            format!("added to the campaign (journal entry {})", view.seq)
        )
    )?;
    render::write_seed(out, view.rolled.and_then(|r| r.seed))?;
    Ok(())
}

/// `classic new NAME -o FILE`: a hero rolled into a file.
fn new_hero_file(args: &ClassicNewArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ClassicNewArgs {
        name,
        cliches,
        output,
        force,
        dice,
        json: as_json,
        ..
    } = args;
    let output = output.as_deref();
    // Before the file and the dice: a bad name or cliché wastes neither.
    solum_classic::hero::check_names(name, cliches).map_err(|e| {
        if e.field == "name" {
            bad(format!("the name `{name}`: {}", e.problem))
        } else {
            bad(format!("--cliche ({}): {}", e.field, e.problem))
        }
    })?;
    let path = super::new_sheet_path(output, name, *force)?;
    let (made, seed) = with_dice(
        dice.rolled.as_deref(),
        dice.seed,
        "values go: 3d6 Body, 3d6 Mind, 3d6 Spirit, 2d6 hit points, 2d6 clichés",
        |d| create(name, cliches, d),
    )?;
    let (hero, rolls) = made.map_err(|e| bad(e.to_string()))?;
    let replace = if *force {
        Replace::Allowed
    } else {
        Replace::Never
    };
    super::campaign::write_file(&path, toml::to_string_pretty(&hero)?.as_bytes(), replace)?;
    if *as_json {
        writeln!(
            out,
            "{}",
            json!({"hero": hero, "rolls": rolls, "file": path, "seed": seed})
        )?;
        return Ok(());
    }
    let f = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    writeln!(
        out,
        "Body {} · Mind {} · Spirit {} · hit points {} · clichés {}",
        f(&rolls.body),
        f(&rolls.mind),
        f(&rolls.spirit),
        f(&rolls.hit_points),
        f(&rolls.cliches)
    )?;
    show(out, &hero)?;
    writeln!(
        out,
        "{}",
        paint(DIM, format!("saved to {}", path.display()))
    )?;
    render::write_seed(out, seed)?;
    Ok(())
}

/// `classic check`: a campaign hero's check (journaled), or one from a file, the book or
/// a number of dice.
/// `classic check HERO` for a campaign hero: the pool from the sheet, journaled.
fn hero_check(
    mut c: Campaign<Box<dyn Store>>,
    args: &ClassicCheckArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let ClassicCheckArgs {
        pool: who,
        stat: named_stat,
        cliche,
        vs,
        random,
        gear,
        dice,
        json: as_json,
        ..
    } = args;
    let s = named_stat
        .as_deref()
        .map(|t| stat(t, "--stat"))
        .transpose()?
        .unwrap_or(Stat::Body);
    let fixed = if *random {
        None
    } else {
        vs.as_deref().map(difficulty).transpose()?
    };
    let v = c.check_classic_hero(
        who,
        s,
        cliche.as_deref(),
        fixed,
        gear.as_deref(),
        super::campaign::dice(dice.seed, dice.rolled.as_deref())?,
    )?;
    if *as_json {
        return super::campaign::write_json(out, &v);
    }
    writeln!(
        out,
        "{} rolls {:?}{}{}",
        v.name,
        v.inputs.stat,
        v.inputs
            .cliche
            .as_deref()
            .map(|c| format!(" + 1 die for “{c}”"))
            .unwrap_or_default(),
        v.inputs
            .gear_name
            .as_deref()
            .map(|g| format!(", with the {g} (one reroll)"))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "{} {} dice vs {} ({})   chance {:.2}%",
        paint(HEAD, "Check"),
        v.inputs.pool,
        v.check.difficulty,
        v.difficulty_name,
        100.0 * v.p_pass
    )?;
    if v.check.difficulty == 1 {
        writeln!(
            out,
            "  automatic: no roll needed{}",
            super::check::gear_unused(v.inputs.gear)
        )?;
    }
    if !v.check.dice.is_empty() {
        let faces: Vec<String> = v.check.dice.iter().map(u32::to_string).collect();
        writeln!(out, "  dice  {}", faces.join(" "))?;
    }
    if let Some((i, from, to)) = v.check.reroll {
        writeln!(out, "  gear  die {}: {from} → {to}", i + 1)?;
    }
    writeln!(
        out,
        "  {}",
        if v.check.passed {
            paint(GOOD, "SUCCESS")
        } else {
            paint(BAD, "FAILURE")
        }
    )?;
    render::write_seed(out, v.rolled.seed)?;
    Ok(())
}

fn check(args: &ClassicCheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ClassicCheckArgs {
        pool: who,
        stat: named_stat,
        cliche,
        vs,
        random,
        gear,
        dice,
        json: as_json,
        campaign,
    } = args;
    if let Some(c) = campaign_hero(campaign, who)? {
        return hero_check(c, args, out);
    }
    let (n, hero) = check_pool(who, named_stat.as_deref(), cliche.as_deref())?;
    let fixed = vs.as_deref().map(difficulty).transpose()?;
    let ((d, check), seed) = with_dice(
        dice.rolled.as_deref(),
        dice.seed,
        "values go: the difficulty die (with --random), the pool, then the gear reroll",
        |dd| {
            let d = match fixed {
                Some(d) if !*random => d,
                _ => random_difficulty(dd)?,
            };
            Ok((d, roll_check(n, d, gear.is_some(), dd)?))
        },
    )?;
    let p = p_pass(n, d, gear.is_some());
    if *as_json {
        writeln!(
            out,
            "{}",
            json!({"check": check, "difficulty_name": difficulty_name(d), "p_pass": render::to_f64(&p), "seed": seed, "hero": hero})
        )?;
        return Ok(());
    }
    if let Some(h) = &hero {
        writeln!(
            out,
            "{} rolls {}{}",
            h["name"].as_str().unwrap_or_default(),
            h["stat"].as_str().unwrap_or_default(),
            h["cliche"]
                .as_str()
                .map(|c| format!(" + 1 die for “{c}”"))
                .unwrap_or_default()
        )?;
    }
    writeln!(
        out,
        "{} {n} dice vs {d} ({})   chance {}",
        paint(HEAD, "Check"),
        difficulty_name(d),
        percent(&p)
    )?;
    if d == 1 {
        writeln!(
            out,
            "  automatic: no roll needed{}",
            super::check::gear_unused(gear.is_some())
        )?;
    }
    if !check.dice.is_empty() {
        let faces: Vec<String> = check.dice.iter().map(u32::to_string).collect();
        writeln!(out, "  dice  {}", faces.join(" "))?;
    }
    if let Some((i, from, to)) = check.reroll {
        writeln!(out, "  gear  die {}: {from} → {to}", i + 1)?;
    }
    writeln!(
        out,
        "  {}",
        if check.passed {
            paint(GOOD, "SUCCESS")
        } else {
            paint(BAD, "FAILURE")
        }
    )?;
    render::write_seed(out, seed)?;
    Ok(())
}

/// `classic oracle`: the original's yes/no oracle (not journaled).
fn oracle(
    question: &[String],
    advantage: bool,
    disadvantage: bool,
    dice: &DiceArgs,
    as_json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let odds = if advantage {
        Odds::Advantage
    } else if disadvantage {
        Odds::Disadvantage
    } else {
        Odds::Even
    };
    let (c, seed) = with_dice(
        dice.rolled.as_deref(),
        dice.seed,
        "values go: the answer die (two with advantage or disadvantage), then the event die",
        |d| ask(odds, d),
    )?;
    let q = question.join(" ");
    if as_json {
        writeln!(
            out,
            "{}",
            json!({"question": q, "consultation": c, "seed": seed})
        )?;
        return Ok(());
    }
    if !q.is_empty() {
        writeln!(out, "{}", paint(DIM, q))?;
    }
    let faces: Vec<String> = c.dice.iter().map(u32::to_string).collect();
    writeln!(
        out,
        "{}  ({})",
        paint(HEAD, c.answer.text()),
        faces.join(" ")
    )?;
    if let Some((d, text)) = c.event {
        writeln!(out, "  event {d}: {text}")?;
    }
    render::write_seed(out, seed)?;
    Ok(())
}

/// `classic fight`: a campaign hero's fight (kept in the campaign) or one from files and the
/// book.
fn fight_cmd(args: &ClassicFightArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ClassicFightArgs {
        gear: _,
        hero,
        foes,
        abandon,
        status: show_status,
        decide,
        stat: hero_stat,
        foe_stat,
        cliche,
        foe_cliche,
        policy: p,
        foe_policy,
        ask,
        dice,
        json: as_json,
        campaign,
    } = args;
    let campaign_fight = decide.is_some() || foes.is_empty() || *abandon || *show_status;
    if campaign_fight && campaign_hero(campaign, hero)?.is_none() {
        // Only a campaign hero has a fight under way: a missing campaign is named as such
        // (and not created) before the hero is looked for.
        super::campaign::open_existing(campaign)?;
        return Err(bad(format!(
            "`{hero}` is not a hero of the campaign: only a campaign hero's fight goes on \
             (or is abandoned) without foes; name the foes to fight"
        )));
    }
    if *show_status {
        return fight_status(hero, *as_json, campaign, out);
    }
    if *abandon {
        let decision = decide.as_deref().map(loss).transpose()?;
        let view = super::campaign::open(campaign)?.abandon_classic_fight(hero, decision)?;
        if *as_json {
            return super::campaign::write_json(out, &view);
        }
        return write_fight_view(out, &view);
    }
    if campaign_fight || (!hero.ends_with(".toml") && campaign_hero(campaign, hero)?.is_some()) {
        let setup = if campaign_fight {
            for (flag, given) in [
                ("--stat", hero_stat.is_some()),
                ("--foe-stat", foe_stat.is_some()),
                ("--cliche", *cliche),
                ("--foe-cliche", *foe_cliche),
                ("--policy", p.is_some()),
                ("--foe-policy", foe_policy != "survive"),
            ] {
                if given {
                    return Err(bad(format!(
                        "{flag}: a fight under way keeps the setup it began with"
                    )));
                }
            }
            None
        } else {
            Some(FightSetup {
                foes: foes
                    .iter()
                    .map(|f| load(f, Kind::Monster).map(StoredHero))
                    .collect::<anyhow::Result<_>>()?,
                stat: hero_stat
                    .as_deref()
                    .map(|t| stat(t, "--stat"))
                    .transpose()?,
                foe_stat: foe_stat
                    .as_deref()
                    .map(|t| stat(t, "--foe-stat"))
                    .transpose()?,
                cliche: *cliche,
                foe_cliche: *foe_cliche,
                policy: p.as_deref().map(|t| policy(t, "--policy")).transpose()?,
                foe_policy: policy(foe_policy, "--foe-policy")?,
            })
        };
        let decision = decide.as_deref().map(loss).transpose()?;
        return campaign_fight_run(hero, setup, decision, dice, *as_json, campaign, out);
    }
    fight(
        (hero, foes),
        (
            hero_stat
                .as_deref()
                .map(|t| stat(t, "--stat"))
                .transpose()?,
            foe_stat
                .as_deref()
                .map(|t| stat(t, "--foe-stat"))
                .transpose()?,
        ),
        (*cliche, *foe_cliche),
        (
            policy(p.as_deref().unwrap_or("survive"), "--policy")?,
            policy(foe_policy, "--foe-policy")?,
        ),
        *ask || (std::io::IsTerminal::is_terminal(&std::io::stdin()) && dice.rolled.is_none()),
        dice,
        *as_json,
        out,
    )?;
    Ok(())
}

/// `classic rest`: a campaign hero (journaled) or a hero file rests.
fn rest(
    file: &str,
    hours: f64,
    as_json: bool,
    campaign: &CampaignArg,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if !file.ends_with(".toml") {
        let v = super::campaign::open(campaign)?
            .rest_classic_hero(file, hours)
            .map_err(|e| match e {
                solum_app::AppError::Character { field, problem } if field == "hours" => {
                    bad(format!("--hours: {problem}"))
                }
                e => e.into(),
            })?;
        if as_json {
            return super::campaign::write_json(out, &v);
        }
        let [hp, body] = v.healed.unwrap_or_default();
        writeln!(
            out,
            "{} rests {hours} hours: +{hp} hit point(s), +{body} Body.",
            v.sheet.hero.name
        )?;
        show(out, &v.sheet.hero)?;
        return Ok(());
    }
    let file = std::path::Path::new(file);
    let who = file.to_string_lossy().into_owned();
    if !who.ends_with(".toml") {
        return Err(bad(format!("{who}: rest needs a hero file (.toml)")));
    }
    let mut hero = load(&who, Kind::Hero)?;
    let rest = hero.rest(hours).map_err(|e| bad(format!("--hours: {e}")))?;
    super::campaign::write_file(
        file,
        toml::to_string_pretty(&hero)?.as_bytes(),
        Replace::Allowed,
    )?;
    if as_json {
        writeln!(out, "{}", json!({"rest": rest, "hero": hero}))?;
        return Ok(());
    }
    writeln!(
        out,
        "{} rests {hours} hours: +{} hit point(s), +{} Body.",
        hero.name, rest.hit_points, rest.body
    )?;
    show(out, &hero)?;
    Ok(())
}

/// Exact odds as a percentage; f64 odds with their error bound.
fn odds_text(odds: &DuelOdds) -> String {
    match &odds.exact {
        Some(p) => percent(p),
        None if odds.p < 1e-6 => format!(
            "{:.3e}% (f64, within {:.0e})",
            100.0 * odds.p,
            odds.error_bound
        ),
        None => format!(
            "{:.4}% (f64, within {:.0e})",
            100.0 * odds.p,
            odds.error_bound
        ),
    }
}

fn dice_text(n: u32) -> String {
    format!("{n} {}", if n == 1 { "die" } else { "dice" })
}

fn stat(text: &str, flag: &str) -> anyhow::Result<Stat> {
    text.parse()
        .map_err(|e: solum_dice::UnknownWord| bad(format!("{flag}: {e}")))
}

/// The pool of `solum classic check`: a number of dice, or a hero's stat and cliché. Returns
/// the pool and, for a hero, what it rolls (for the output).
fn check_pool(
    who: &str,
    named_stat: Option<&str>,
    cliche: Option<&str>,
) -> anyhow::Result<(u32, Option<serde_json::Value>)> {
    let digits = who.trim().trim_start_matches(['-', '+']);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Past i64 is still a number of dice, just too many.
        let Ok(n) = who.trim().parse::<i64>() else {
            return Err(bad(format!(
                "{} dice: a pool has 1 to {} dice",
                who.trim(),
                solum_classic::check::MAX_POOL
            )));
        };
        if named_stat.is_some() || cliche.is_some() {
            return Err(bad(format!(
                "--stat and --cliche need a hero (a .toml file or a name from the book), not {n} dice"
            )));
        }
        return Ok((pool(n)?, None));
    }
    let hero = load(who, Kind::Hero)?;
    let s = named_stat
        .map(|t| stat(t, "--stat"))
        .transpose()?
        .unwrap_or(Stat::Body);
    let n = hero_pool(&hero, s, cliche).map_err(|e| match e {
        solum_classic::check::CheckError::Cliche(_) => bad(format!("--cliche: {e}")),
        _ => bad(format!("{who}: {e}")),
    })?;
    let cliche = cliche.and_then(|c| hero.cliche(c).ok()).map(str::to_owned);
    let s_name = match s {
        Stat::Body => "Body",
        Stat::Mind => "Mind",
        Stat::Spirit => "Spirit",
    };
    Ok((
        n,
        Some(
            json!({"name": hero.name, "stat": s_name, "stat_value": hero.stat(s), "cliche": cliche}),
        ),
    ))
}

fn policy(text: &str, flag: &str) -> anyhow::Result<Policy> {
    text.parse()
        .map_err(|e: solum_dice::UnknownWord| bad(format!("{flag}: {e}")))
}

fn duel(args: &ClassicDuelArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.damage != DAMAGE || args.foe_damage != DAMAGE {
        return Err(bad(
            "the original So1um deals 1 hit point per won exchange: --damage and --foe-damage are 1",
        ));
    }
    let foe_policy = policy(&args.foe_policy, "--foe-policy")?;
    let (foe_name, foe) = match (&args.monster, args.foe_body, args.foe_hp) {
        (Some(m), _, _) => {
            let h = load(m, Kind::Monster)?;
            let s = args
                .foe_stat
                .as_deref()
                .map(|t| stat(t, "--foe-stat"))
                .transpose()?;
            let f = Fighter::from_hero(&h, s, args.foe_cliche, foe_policy, false);
            (h.name, f.side)
        }
        (None, Some(body), Some(hit_points)) => (
            "the foe".to_owned(),
            Side {
                body,
                hit_points,
                cliche: args.foe_cliche,
                policy: foe_policy,
                stat: args.foe_stat_dice,
            },
        ),
        _ => return Err(bad("name a --monster, or give --foe-body and --foe-hp")),
    };
    let (foe_body, foe_hp) = (foe.body, foe.hit_points);
    let me = Side {
        body: args.body,
        hit_points: args.hp,
        cliche: args.cliche,
        policy: policy(&args.policy, "--policy")?,
        stat: args.stat_dice,
    };
    let odds = duel_chance(me, foe).map_err(|e| match e {
        // Name the flag the number came from (or the monster it belongs to).
        DuelError::Range(what, _) => {
            let flag = match (what, &args.monster) {
                (w, Some(m)) if w.starts_with("foe") => m.clone(),
                ("body", _) => "--body".to_owned(),
                ("hit points", _) => "--hp".to_owned(),
                ("stat", _) => "--stat-dice".to_owned(),
                ("foe body", _) => "--foe-body".to_owned(),
                ("foe hit points", _) => "--foe-hp".to_owned(),
                _ => "--foe-stat-dice".to_owned(),
            };
            bad(format!("{flag}: {e}"))
        }
        e => bad(format!("{e}; past it use --simulate N")),
    })?;
    let simulated = match args.simulate {
        None => None,
        Some(n) => {
            check_simulation(me, foe, n).map_err(|e| bad(e.to_string()))?;
            let (sim, seed) = with_dice(None, args.seed, "", |d| {
                Ok(simulate_many(me, foe, n, Some(odds.p), d))
            })?;
            Some((sim.map_err(|e| bad(e.to_string()))?, seed))
        }
    };
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"foe": foe_name, "me": me, "foe_side": foe, "p_win": odds.p, "p_win_exact": odds.exact.as_ref().map(render::fraction), "error_bound": odds.error_bound,
                   "simulated": simulated.map(|(s, _)| s), "seed": simulated.and_then(|(_, seed)| seed)})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "B{} HP{}{} ({}) against {foe_name} (B{foe_body} HP{foe_hp}, {}): win {}",
        me.body,
        me.hit_points,
        if me.cliche { " +cliché" } else { "" },
        dice_text(me.dice()),
        dice_text(foe.dice()),
        paint(HEAD, odds_text(&odds))
    )?;
    if let Some((sim, seed)) = simulated {
        writeln!(
            out,
            "  simulated: {} of {} duels won ({:.2}% ± {:.2}% standard error), {:.2} exchanges a duel",
            sim.wins,
            sim.fights,
            100.0 * sim.rate,
            100.0 * sim.standard_error,
            sim.exchanges as f64 / f64::from(sim.fights)
        )?;
        render::write_seed(out, seed)?;
    }
    Ok(())
}

pub fn odds(command: &ClassicOddsCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        ClassicOddsCommand::Check {
            pool: n,
            vs,
            gear,
            json: as_json,
        } => {
            let (n, d) = (pool(*n)?, difficulty(vs)?);
            let p = p_pass(n, d, *gear);
            if *as_json {
                writeln!(
                    out,
                    "{}",
                    json!({"pool": n, "difficulty": d, "gear": gear, "p_pass": render::to_f64(&p), "p_pass_exact": render::fraction(&p)})
                )?;
            } else {
                writeln!(
                    out,
                    "{n} dice vs {d} ({}): pass {}",
                    difficulty_name(d),
                    paint(HEAD, percent(&p))
                )?;
            }
            Ok(())
        }
        ClassicOddsCommand::Duel(args) => duel(args, out),
    }
}

/// Asks the player how the hero takes a hit: the fight's pending decision.
fn ask_loss(name: &str, body: u32, hit_points: u32) -> anyhow::Result<Loss> {
    let stdin = std::io::stdin();
    loop {
        crate::say!(
            "{name} is hit (Body {body}, hit points {hit_points}): lose a hit point or Body? [h/b] "
        );
        let Some(line) = crate::storage::Lines::new(stdin.lock())
            .next_line()
            .map_err(|e| bad(format!("standard input: {e}")))?
        else {
            return Err(bad("standard input ended during the fight"));
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "h" | "hp" | "hit point" | "" => return Ok(Loss::HitPoint),
            "b" | "body" => return Ok(Loss::Body),
            other => crate::say!("  `{other}`: h or b\n"),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn fight(
    (hero_id, foe_ids): (&String, &[String]),
    (hero_stat, foe_stat): (Option<Stat>, Option<Stat>),
    (cliche, foe_cliche): (bool, bool),
    (my_policy, foe_policy): (Policy, Policy),
    ask: bool,
    dice: &crate::cli::DiceArgs,
    as_json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    // One sheet is one fighter: a file may not fight itself or come twice (the book's
    // entries may: two goblins are two goblins).
    let mut files: Vec<(std::path::PathBuf, &str)> = Vec::new();
    for id in std::iter::once(hero_id).chain(foe_ids) {
        if id.ends_with(".toml") {
            let key = std::fs::canonicalize(id).unwrap_or_else(|_| id.into());
            if let Some((_, first)) = files.iter().find(|(k, _)| *k == key) {
                return Err(bad(format!(
                    "{id}: the same sheet as {first}; a sheet is one fighter"
                )));
            }
            files.push((key, id));
        }
    }
    let mut hero = load(hero_id, Kind::Hero)?;
    let foes = foe_ids
        .iter()
        .map(|f| load(f, Kind::Monster))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let me = Fighter::from_hero(&hero, hero_stat, cliche, my_policy, ask);
    let them: Vec<Fighter> = foes
        .iter()
        .map(|f| Fighter::from_hero(f, foe_stat, foe_cliche, foe_policy, false))
        .collect();
    // The exact odds of a duel (too big a duel has none).
    let p = match them.as_slice() {
        [one] => duel_chance(me.side, one.side).ok(),
        _ => None,
    };
    let mut fight = ClassicFight::new(me, them).map_err(|e| bad(e.to_string()))?;
    let labels = foe_labels(&foes);
    let mut events = Vec::new();
    let (driven, seed) = with_dice(
        dice.rolled.as_deref(),
        dice.seed,
        "values go: each foe's attack in turn, the hero's dice then that foe's",
        |d| {
            while !fight.is_over() {
                let command = match fight.pending() {
                    Some(decision) => {
                        match ask_loss(&hero.name, decision.body, decision.hit_points) {
                            Ok(loss) => Command::Take(loss),
                            Err(e) => return Ok(Err(e)),
                        }
                    }
                    None => Command::Exchange,
                };
                match fight.apply(command, d) {
                    Ok(e) => events.extend(e),
                    Err(FightError::Dice(e)) => return Err(e),
                    Err(e) => return Ok(Err(bad(e.to_string()))),
                }
            }
            Ok(Ok(()))
        },
    )?;
    driven?;
    let won = fight.hero_won();
    // One line per exchange, with the hit it cost and where both sides stand after it.
    let before: Vec<(u32, u32)> = std::iter::once(&hero)
        .chain(&foes)
        .map(|h| (h.body, h.hit_points))
        .collect();
    if hero_id.ends_with(".toml") {
        hero.set_wounds(fight.hero().side.body, fight.hero().side.hit_points);
        super::campaign::write_file(
            Path::new(hero_id),
            toml::to_string_pretty(&hero)?.as_bytes(),
            Replace::Allowed,
        )?;
    }
    let lines = exchange_lines(&events, before);
    if as_json {
        let exchanges: Vec<_> = lines
            .iter()
            .map(|(round, foe, e, _, b, st)| {
                json!({"round": round, "foe_index": foe, "exchange": e, "body_lost": b,
                       "hero": [st[0].0, st[0].1], "foe": [st[foe + 1].0, st[foe + 1].1]})
            })
            .collect();
        writeln!(
            out,
            "{}",
            json!({"p_win": p.as_ref().map(|o| o.p), "exchanges": exchanges,
                   "events": events, "hero_dead": fight.hero().is_dead(), "foe_dead": won,
                   "foes_dead": fight.foes().iter().map(Fighter::is_dead).collect::<Vec<_>>(),
                   "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {} ({}) against {}{}",
        paint(HEAD, "Fight"),
        hero.name,
        dice_text(fight.hero().side.dice()),
        labels
            .iter()
            .zip(fight.foes())
            .map(|(l, f)| format!("{l} ({})", dice_text(f.side.dice())))
            .collect::<Vec<_>>()
            .join(", "),
        p.map(|o| format!("   win {}", odds_text(&o)))
            .unwrap_or_default()
    )?;
    for (i, (round, foe, e, winner, b, st)) in lines.iter().enumerate() {
        let f = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let loser = match winner {
            Some(Who::Hero) => labels[*foe].as_str(),
            _ => hero.name.as_str(),
        };
        let what = match (winner, b) {
            (None, _) => "tie: no damage".to_owned(),
            (_, Some(true)) => format!("{loser} loses Body"),
            _ => format!("{loser} loses a hit point"),
        };
        let versus = if labels.len() > 1 {
            format!("[round {round}, {}] ", labels[*foe])
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {:>2}. {versus}{} against {} — {what}   (B{} HP{} / B{} HP{})",
            i + 1,
            f(&e.first),
            f(&e.second),
            st[0].0,
            st[0].1,
            st[foe + 1].0,
            st[foe + 1].1
        )?;
    }
    let end = if won {
        paint(
            GOOD,
            format!(
                "{} {}",
                labels.join(", "),
                if labels.len() > 1 { "die" } else { "dies" }
            ),
        )
    } else {
        paint(BAD, format!("{} dies", hero.name))
    };
    writeln!(out, "  {end}")?;
    render::write_seed(out, seed)?;
    Ok(())
}

/// The foes as the fight names them: a name that comes twice gets its place (`goblin #2`).
fn foe_labels(foes: &[Hero]) -> Vec<String> {
    foes.iter()
        .enumerate()
        .map(|(i, f)| {
            if foes.iter().filter(|g| g.name == f.name).count() > 1 {
                format!("{} #{}", f.name, i + 1)
            } else {
                f.name.clone()
            }
        })
        .collect()
}

/// One exchange as shown: its round, the foe, the dice, the winner (none on a tie), whether
/// the hit cost Body, and where every fighter stands after it (the hero first).
type ExchangeLine = (
    u32,
    usize,
    Exchange,
    Option<Who>,
    Option<bool>,
    Vec<(u32, u32)>,
);

/// One line per exchange of `events`, with the hit it cost and where both sides stand after
/// it, from where every fighter stood before the fight (`state`, the hero first).
fn exchange_lines(events: &[Event], mut state: Vec<(u32, u32)>) -> Vec<ExchangeLine> {
    let mut lines: Vec<ExchangeLine> = Vec::new();
    let slot = |who: Who| match who {
        Who::Hero => 0,
        Who::Foe(i) => i + 1,
    };
    for event in events {
        match event {
            Event::Exchange {
                round,
                foe,
                roll,
                winner,
            } => lines.push((*round, *foe, roll.clone(), *winner, None, state.clone())),
            Event::Hit {
                who,
                loss,
                body,
                hit_points,
            } => {
                state[slot(*who)] = (*body, *hit_points);
                if let Some(last) = lines.last_mut() {
                    last.4 = Some(*loss == Loss::Body);
                    last.5 = state.clone();
                }
            }
            _ => {}
        }
    }
    lines
}

/// The campaign, when it exists and holds a hero of that name: only then is a name a
/// campaign hero (a missing campaign is not created to look a book name up).
fn campaign_hero(arg: &CampaignArg, who: &str) -> anyhow::Result<Option<Campaign<Box<dyn Store>>>> {
    if who.ends_with(".toml") || who.trim().is_empty() {
        return Ok(None);
    }
    let path = super::campaign::campaign_path(arg)?;
    if !path.exists() {
        return Ok(None);
    }
    let c = super::campaign::open(arg)?;
    Ok(c.has_classic_hero(who)?.then_some(c))
}

fn loss(text: &str) -> anyhow::Result<Loss> {
    match text.trim().to_ascii_lowercase().as_str() {
        "body" | "b" => Ok(Loss::Body),
        "hp" | "h" | "hit-point" | "hit-points" => Ok(Loss::HitPoint),
        other => Err(bad(format!("--decide {other}: say body or hp"))),
    }
}

/// A campaign hero's fight: starts it (with a setup) or goes on with it, then, at a terminal
/// and unless the dice are typed, asks each pending hit and goes on until the end.
fn campaign_fight_run(
    hero: &str,
    setup: Option<FightSetup>,
    decision: Option<Loss>,
    dice: &DiceArgs,
    as_json: bool,
    campaign: &CampaignArg,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut c = super::campaign::open(campaign)?;
    let d = super::campaign::dice(dice.seed, dice.rolled.as_deref())?;
    let mut view = match &setup {
        Some(s) => c.start_classic_fight(hero, s, d)?,
        None => c.continue_classic_fight(hero, decision, d)?,
    };
    let interactive =
        !as_json && dice.rolled.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin());
    loop {
        if as_json {
            super::campaign::write_json(out, &view)?;
        } else {
            write_fight_view(out, &view)?;
        }
        match view.status.pending {
            Some(p) if interactive => {
                let l = ask_loss(&view.hero, p.body, p.hit_points)?;
                view = c.continue_classic_fight(hero, Some(l), Dice::Fresh)?;
            }
            _ => return Ok(()),
        }
    }
}

/// `classic fight HERO --status`: the fight under way and the odds of its next exchange.
fn fight_status(
    hero: &str,
    as_json: bool,
    campaign: &CampaignArg,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let view = super::campaign::open_existing(campaign)?.classic_fight(hero)?;
    if as_json {
        return super::campaign::write_json(out, &json!({ "fight": view }));
    }
    let Some(v) = view else {
        writeln!(out, "{hero} is not in a fight.")?;
        return Ok(());
    };
    let s = &v.status;
    writeln!(
        out,
        "{} {} against {} (round {}, {} call(s) so far){}",
        paint(HEAD, "Fight"),
        v.hero,
        v.foes.join(", "),
        s.round,
        v.calls,
        v.p_win
            .map(|p| format!("   win {:.2}% (when it began)", 100.0 * p))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "  {}: Body {}, hit points {}",
        v.hero, s.hero[0], s.hero[1]
    )?;
    for (name, [b, hp]) in v.foes.iter().zip(&s.foes) {
        let dead = if *b == 0 || *hp == 0 { " (dead)" } else { "" };
        writeln!(out, "  {name}: Body {b}, hit points {hp}{dead}")?;
    }
    write_fight_next(out, &v.hero, &v.foes, v.next.as_ref(), s)
}

/// What the fight waits for, with the exact odds of its next exchange.
fn write_fight_next(
    out: &mut dyn Write,
    hero: &str,
    foes: &[String],
    next: Option<&solum_classic::fight::NextExchange>,
    s: &solum_app::classic::FightStatus,
) -> anyhow::Result<()> {
    if s.over {
        return Ok(());
    }
    if let Some(p) = s.pending {
        writeln!(
            out,
            "  {hero} is hit (Body {}, hit points {}): answer with `solum classic fight {hero} --decide body` or `--decide hp`",
            p.body, p.hit_points
        )?;
        return Ok(());
    }
    if let Some(n) = next {
        writeln!(
            out,
            "  next exchange: {hero} ({}) against {} ({}): win {:.2}% · tie {:.2}% · lose {:.2}%{}",
            dice_text(n.dice[0]),
            foes.get(n.foe).map_or("?", String::as_str),
            dice_text(n.dice[1]),
            100.0 * n.odds.win,
            100.0 * n.odds.tie,
            100.0 * n.odds.lose,
            n.p_win_fight
                .map(|p| format!("; the fight from here: win {:.2}%", 100.0 * p))
                .unwrap_or_default()
        )?;
    }
    writeln!(
        out,
        "  the fight waits for more dice: `solum classic fight {hero} --rolled …` (or `--seed N`); `solum classic fight {hero} --abandon` ends it"
    )?;
    Ok(())
}

fn write_fight_view(out: &mut dyn Write, v: &FightView) -> anyhow::Result<()> {
    let f = |x: &[u32]| x.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let name = |who: Who| match who {
        Who::Hero => v.hero.as_str(),
        Who::Foe(i) => v.foes.get(i).map_or("?", String::as_str),
    };
    writeln!(
        out,
        "{} {} against {}{}",
        paint(HEAD, "Fight"),
        v.hero,
        v.foes.join(", "),
        v.p_win
            .map(|p| format!("   win {:.2}% (when it began)", 100.0 * p))
            .unwrap_or_default()
    )?;
    for e in &v.events {
        match e {
            Event::Exchange {
                round,
                foe,
                roll,
                winner,
            } => writeln!(
                out,
                "  round {round}: {} {} against {} {} — {}",
                v.hero,
                f(&roll.first),
                name(Who::Foe(*foe)),
                f(&roll.second),
                match winner {
                    None => "tie: no damage".to_owned(),
                    Some(w) => format!("{} wins", name(*w)),
                }
            )?,
            Event::Hit {
                who,
                loss,
                body,
                hit_points,
            } => writeln!(
                out,
                "    {} loses {} (Body {body}, hit points {hit_points})",
                name(*who),
                match loss {
                    Loss::Body => "Body",
                    Loss::HitPoint => "a hit point",
                }
            )?,
            Event::Death { who } => writeln!(out, "    {} dies", name(*who))?,
            Event::Abandoned => writeln!(
                out,
                "    {} breaks off and flees: no further damage",
                v.hero
            )?,
            Event::Decide(_) | Event::End { .. } => {}
        }
    }
    let s = &v.status;
    if s.abandoned {
        writeln!(
            out,
            "  {}",
            paint(
                DIM,
                format!(
                    "{}'s fight is abandoned; the sheet: Body {}, hit points {}",
                    v.hero, s.hero[0], s.hero[1]
                )
            )
        )?;
    } else if s.over {
        writeln!(
            out,
            "  {}",
            if s.hero_won {
                paint(GOOD, format!("{} wins", v.hero))
            } else {
                paint(BAD, format!("{} dies", v.hero))
            }
        )?;
        writeln!(
            out,
            "  {}",
            paint(
                DIM,
                format!(
                    "{}'s sheet: Body {}, hit points {}",
                    v.hero, s.hero[0], s.hero[1]
                )
            )
        )?;
    } else {
        write_fight_next(out, &v.hero, &v.foes, v.next.as_ref(), s)?;
    }
    render::write_seed(out, v.rolled.seed)?;
    Ok(())
}
