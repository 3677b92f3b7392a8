//! `solum classic …` and `solum odds classic …`: the original So1um.

use std::io::Write;
use std::path::Path;

use crate::storage::Replace;
use solum_app::classic_once::{
    ClassicDuelAsk, ClassicOnceError, DuelNumbers, Field, Foe, Hero, Kind, NewHeroView, Odds,
    Policy, check_hero_names, classic_check_odds, classic_duel_odds, classic_oracle, hero_of,
    hero_toml, new_hero, rest_hero,
};
use solum_app::classic_once::{Event, FightOnceView, Loss, NextExchange, Who};

use solum_app::Campaign;
use solum_app::classic::FightView;
use solum_app::classic_who::{
    CampaignAccess, ClassicCheckAnswer, ClassicCheckWho, ClassicFightAnswer, ClassicFightWho,
    ClassicShown, FightCall, HeroSource, WhoError, classic_check_who, classic_fight_who,
    classic_show_who,
};
use solum_app::fields::ClassicField;
use solum_store::Store;

use crate::bad;
use crate::cli::{
    ClassicCheckArgs, ClassicCommand, ClassicDuelArgs, ClassicFightArgs, ClassicNewArgs,
    ClassicOddsCommand, DiceArgs,
};
use crate::cli_campaign::CampaignArg;
use crate::render::{self, BAD, DIM, GOOD, HEAD, paint, percent_exact};

/// The flag of a field of a one-shot check or duel.
fn flag(field: Field) -> String {
    format!("--{}", field.name().replace('_', "-"))
}

/// A refused one-shot check or duel, its fields named as flags.
fn once_error(e: ClassicOnceError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.describe(flag))
    } else {
        anyhow::Error::new(e)
    }
}

/// The text of the hero file `who` names (a name ending in .toml), read; `None` for a word.
fn file_text(who: &str) -> anyhow::Result<Option<String>> {
    if who.ends_with(".toml") && !who.trim().is_empty() {
        return Ok(Some(
            crate::storage::read_text(Path::new(who), crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?,
        ));
    }
    Ok(None)
}

/// WHO as the app takes it: the file's text read, or the word.
fn source<'a>(who: &'a str, text: Option<&'a str>) -> HeroSource<'a> {
    match text {
        Some(text) => HeroSource::File { path: who, text },
        None => HeroSource::Named(who),
    }
}

/// The campaign, opened when the app asks whether a name is one of its heroes: `None` when
/// there is no campaign (a name is looked up, never a campaign created for it; a campaign
/// file or a PostgreSQL database alike).
fn existing(
    arg: &CampaignArg,
) -> impl FnOnce() -> anyhow::Result<Option<Campaign<Box<dyn Store>>>> + '_ {
    move || opened(arg, CampaignAccess::Look)
}

/// A refusal of a command about WHO: the campaign's as it is, a one-shot's named by flags.
fn who_error(e: WhoError<anyhow::Error>) -> anyhow::Error {
    match e {
        WhoError::Open(e) => e,
        WhoError::Campaign(e) => e.into(),
        WhoError::Once(e) => once_error(e),
    }
}

/// A hero file (held to the rules of `kind`) or a name from the book.
fn load(who: &str, kind: Kind) -> anyhow::Result<Hero> {
    let text = file_text(who)?;
    hero_of(who, text.as_deref(), kind).map_err(once_error)
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
            let text = file_text(who)?;
            match classic_show_who(source(who, text.as_deref()), existing(campaign))
                .map_err(who_error)?
            {
                ClassicShown::Campaign(view) => {
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
                }
                ClassicShown::Hero(hero) => {
                    if *as_json {
                        return super::campaign::write_json(out, &hero);
                    }
                    show(out, &hero)?;
                }
            }
        }
        ClassicCommand::List {
            json: as_json,
            campaign,
        } => {
            let heroes =
                super::campaign::on_campaign(campaign, |here| here.owned_classic_heroes())??;
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
                show(out, &v.view.hero)?;
            }
        }
        ClassicCommand::Import {
            file,
            json: as_json,
            campaign,
        } => {
            let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let view =
                super::campaign::on_campaign(campaign, |here| here.import_classic_hero(&text))?
                    .map_err(|e| bad(format!("{}: {e}", file.display())))?;
            if *as_json {
                return super::campaign::write_json(out, &view);
            }
            show(out, &view.sheet.hero)?;
            writeln!(out, "{}", paint(DIM, "added to the campaign"))?;
        }
        ClassicCommand::Export { name, campaign } => {
            let text =
                super::campaign::on_campaign(campaign, |here| here.export_classic_hero(name))??;
            write!(out, "{text}")?;
        }
        ClassicCommand::Bestiary { json } => {
            let book = solum_app::classic::classic_book();
            if *json {
                return super::campaign::write_json(out, &book);
            }
            writeln!(out, "{}", paint(HEAD, "Sample heroes"))?;
            for h in &book.heroes {
                show(out, h)?;
            }
            writeln!(out, "{}", paint(HEAD, "Monsters"))?;
            for h in &book.monsters {
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
            notes,
            json: as_json,
            campaign,
        } => {
            let v = super::campaign::on_campaign(campaign, |here| match notes {
                Some(notes) => here.edit_classic_notes(name, notes),
                None => here.edit_classic_gear(name, add_gear, remove_gear),
            })??;
            if *as_json {
                return super::campaign::write_json(out, &v);
            }
            show(out, &v.sheet.hero)?;
            writeln!(out, "{}", paint(DIM, format!("journal entry {}", v.seq)))?;
        }
        ClassicCommand::Fight(ClassicFightArgs { gear: Some(_), .. }) => {
            return Err(bad(format!(
                "--gear: {}",
                solum_app::rules::GEAR_ONLY_IN_CHECKS
            )));
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
    let dice = super::campaign::dice(dice.seed, dice.rolled.as_deref())?;
    let view = super::campaign::on_campaign(campaign, |here| {
        here.create_classic_hero(name, cliches, dice)
    })??;
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
    check_hero_names(name, cliches).map_err(once_error)?;
    let path = super::new_sheet_path(output, name, *force)?;
    let v = new_hero(name, cliches, dice.rolled.as_deref(), dice.seed).map_err(once_error)?;
    let replace = if *force {
        Replace::Allowed
    } else {
        Replace::Never
    };
    let text = hero_toml(&v.hero).map_err(once_error)?;
    super::campaign::write_file(&path, text.as_bytes(), replace)?;
    if *as_json {
        /// The view and where it was saved.
        #[derive(serde::Serialize)]
        struct Saved<'a> {
            #[serde(flatten)]
            view: &'a NewHeroView,
            file: &'a Path,
        }
        writeln!(
            out,
            "{}",
            serde_json::to_string(&Saved {
                view: &v,
                file: &path
            })?
        )?;
        return Ok(());
    }
    let f = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let rolls = &v.rolls;
    writeln!(
        out,
        "Body {} · Mind {} · Spirit {} · hit points {} · clichés {}",
        f(&rolls.body),
        f(&rolls.mind),
        f(&rolls.spirit),
        f(&rolls.hit_points),
        f(&rolls.cliches)
    )?;
    show(out, &v.hero)?;
    writeln!(
        out,
        "{}",
        paint(DIM, format!("saved to {}", path.display()))
    )?;
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// A campaign hero's check, rolled from the sheet and journaled.
fn write_hero_check(
    v: &solum_app::classic::HeroCheckView,
    as_json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if as_json {
        return super::campaign::write_json(out, v);
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
    if v.check.automatic() {
        super::check::write_automatic(out, v.inputs.gear)?;
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

/// `classic check WHO`: a campaign hero's check (journaled), or one of a file, the book or
/// a number of dice; the app says which WHO is.
fn check(args: &ClassicCheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ClassicCheckArgs {
        pool: who,
        stat,
        cliche,
        vs,
        random,
        gear,
        dice,
        json: as_json,
        campaign,
    } = args;
    let text = file_text(who)?;
    let ask = ClassicCheckWho {
        who: source(who, text.as_deref()),
        stat: *stat,
        cliche: cliche.as_deref(),
        vs: *vs,
        random: *random,
        gear: gear.as_deref(),
        rolled: dice.rolled.as_deref(),
        seed: dice.seed,
    };
    let v = match classic_check_who(&ask, existing(campaign)).map_err(who_error)? {
        ClassicCheckAnswer::Campaign(v) => return write_hero_check(&v, *as_json, out),
        ClassicCheckAnswer::Once(v) => v,
    };
    if *as_json {
        writeln!(out, "{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    if let Some(h) = &v.hero {
        writeln!(
            out,
            "{} rolls {}{}",
            h.name,
            h.stat,
            h.cliche
                .as_deref()
                .map(|c| format!(" + 1 die for “{c}”"))
                .unwrap_or_default()
        )?;
    }
    let check = &v.check;
    writeln!(
        out,
        "{} {} dice vs {} ({})   chance {}",
        paint(HEAD, "Check"),
        check.pool,
        check.difficulty,
        v.difficulty_name,
        percent_exact(v.p_pass, &v.p_pass_exact)
    )?;
    if check.automatic() {
        super::check::write_automatic(out, gear.is_some())?;
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
    render::write_seed(out, v.seed)?;
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
    let v = classic_oracle(&question.join(" "), odds, dice.rolled.as_deref(), dice.seed)
        .map_err(once_error)?;
    if as_json {
        writeln!(out, "{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    if !v.question.is_empty() {
        writeln!(out, "{}", paint(DIM, &v.question))?;
    }
    let c = &v.consultation;
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
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// `classic fight`: the app says whether HERO's is a campaign hero's fight (kept in the
/// campaign) or a one-shot fight of a file or the book, and fights it; the front end reads
/// the files named, asks the player at a terminal, and writes a hero file back.
fn fight_cmd(args: &ClassicFightArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ClassicFightArgs {
        gear: _,
        hero,
        foes,
        abandon,
        status,
        odds,
        decide,
        stat,
        foe_stat,
        cliche,
        foe_cliche,
        policy,
        foe_policy,
        ask,
        dice,
        json: as_json,
        campaign,
    } = args;
    let decision = *decide;
    let hero_text = file_text(hero)?;
    let foe_texts = foes
        .iter()
        .map(|f| file_text(f))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let who = source(hero, hero_text.as_deref());
    let foe_sources: Vec<HeroSource<'_>> = foes
        .iter()
        .zip(&foe_texts)
        .map(|(f, text)| source(f, text.as_deref()))
        .collect();
    let same_sheet = same_sheet(std::iter::once(who).chain(foe_sources.iter().copied()));
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let fight_ask = ClassicFightWho {
        who,
        foes: foe_sources,
        call: if *odds {
            FightCall::Odds
        } else if *status {
            FightCall::Status
        } else if *abandon {
            FightCall::Abandon
        } else {
            FightCall::Fight
        },
        decision,
        stat: *stat,
        foe_stat: *foe_stat,
        cliche: *cliche,
        foe_cliche: *foe_cliche,
        policy: *policy,
        // The flag's default is no setup given.
        foe_policy: Some(*foe_policy).filter(|p| *p != Policy::Survive),
        rolled: dice.rolled.as_deref(),
        seed: dice.seed,
        asks: *ask || (terminal && dice.rolled.is_none()),
        same_sheet,
    };
    // The player's answer at the terminal; a failure to read it is said as it was.
    let mut unread = None;
    let mut ask_player =
        |name: &str, body: u32, hit_points: u32| match ask_loss(name, body, hit_points) {
            Ok(loss) => Some(loss),
            Err(e) => {
                unread = Some(e);
                None
            }
        };
    let answer = classic_fight_who(&fight_ask, opener(campaign), &mut ask_player);
    if let Some(e) = unread {
        return Err(e);
    }
    match answer.map_err(fight_error)? {
        ClassicFightAnswer::Fight(mut fight) => {
            // At a terminal and unless the dice are typed, each hit that waits is asked and
            // the fight goes on to its end.
            let interactive = !as_json && dice.rolled.is_none() && terminal;
            loop {
                let view = fight.view();
                if *as_json {
                    super::campaign::write_json(out, view)?;
                } else {
                    write_fight_view(out, view)?;
                }
                match view.status.pending {
                    Some(p) if interactive => {
                        let l = ask_loss(&view.hero, p.body, p.hit_points)?;
                        fight.answer(l)?;
                    }
                    _ => return Ok(()),
                }
            }
        }
        ClassicFightAnswer::Abandoned(view) if *as_json => super::campaign::write_json(out, &view),
        ClassicFightAnswer::Abandoned(view) => write_fight_view(out, &view),
        ClassicFightAnswer::Status(answer) if *as_json => super::campaign::write_json(out, &answer),
        ClassicFightAnswer::Status(answer) => match &answer.fight {
            None => {
                writeln!(out, "{hero} is not in a fight.")?;
                Ok(())
            }
            Some(view) => write_fight_state(out, view, false),
        },
        ClassicFightAnswer::Odds(view) if *as_json => super::campaign::write_json(out, &view),
        ClassicFightAnswer::Odds(view) => write_fight_state(out, &view, true),
        ClassicFightAnswer::Once { view, hero_file } => {
            if let Some(text) = hero_file {
                super::campaign::write_file(Path::new(hero), text.as_bytes(), Replace::Allowed)?;
            }
            if *as_json {
                writeln!(out, "{}", serde_json::to_string(&view)?)?;
                return Ok(());
            }
            write_fight_once(out, &view)
        }
    }
}

/// A file named twice among the fighters (the second naming and the first), by where it
/// is on disk: the app refuses it for a one-shot fight (a sheet is one fighter; the book's
/// entries may come twice: two goblins are two goblins).
fn same_sheet<'a>(fighters: impl Iterator<Item = HeroSource<'a>>) -> Option<(&'a str, &'a str)> {
    let mut files: Vec<(std::path::PathBuf, &str)> = Vec::new();
    for fighter in fighters {
        if let HeroSource::File { path, .. } = fighter {
            let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.into());
            if let Some((_, first)) = files.iter().find(|(k, _)| *k == key) {
                return Some((path, first));
            }
            files.push((key, path));
        }
    }
    None
}

/// The campaign, as the app asks for it: looked at (a missing campaign is none), read (a
/// missing campaign is named) or opened for writing; never created to look or read.
fn opener(
    arg: &CampaignArg,
) -> impl FnMut(CampaignAccess) -> anyhow::Result<Option<Campaign<Box<dyn Store>>>> + '_ {
    move |access| opened(arg, access)
}

/// The campaign `arg` names as the app asks for it (see [`solum_app::on_use::open_for`]).
fn opened(
    arg: &CampaignArg,
    access: CampaignAccess,
) -> anyhow::Result<Option<Campaign<Box<dyn Store>>>> {
    let mut open = super::campaign::opener(arg)?;
    Ok(solum_app::on_use::open_for(&mut open, access).map_err(solum_app::AppError::from)?)
}

/// A refusal of a fight: a setup given for a fight under way named by its flag.
fn fight_error(e: WhoError<anyhow::Error>) -> anyhow::Error {
    match e {
        WhoError::Campaign(e) => super::flagged(e, |f: ClassicField| {
            Some(match f {
                ClassicField::Stat => "--stat",
                ClassicField::FoeStat => "--foe-stat",
                ClassicField::Cliche => "--cliche",
                ClassicField::FoeCliche => "--foe-cliche",
                ClassicField::Policy => "--policy",
                ClassicField::FoePolicy => "--foe-policy",
                ClassicField::Name
                | ClassicField::Hours
                | ClassicField::Gear
                | ClassicField::Difficulty => return None,
            })
        }),
        e => who_error(e),
    }
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
        let v = super::campaign::on_campaign(campaign, |here| here.rest_classic_hero(file, hours))?
            .map_err(|e| {
                super::flagged(e, |f: solum_app::fields::ClassicField| {
                    (f == solum_app::fields::ClassicField::Hours).then_some("--hours")
                })
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
    let text = crate::storage::read_text(file, crate::storage::MAX_FILE_BYTES)
        .map_err(|e| bad(e.to_string()))?;
    let v = rest_hero(&who, &text, hours).map_err(once_error)?;
    super::campaign::write_file(
        file,
        hero_toml(&v.hero).map_err(once_error)?.as_bytes(),
        Replace::Allowed,
    )?;
    if as_json {
        writeln!(out, "{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} rests {hours} hours: +{} hit point(s), +{} Body.",
        v.hero.name, v.rest.hit_points, v.rest.body
    )?;
    show(out, &v.hero)?;
    Ok(())
}

/// Exact odds as a percentage; f64 odds with their error bound.
fn odds_text(p: f64, exact: Option<&str>, error_bound: f64) -> String {
    match exact {
        Some(e) => percent_exact(p, e),
        None if p < 1e-6 => format!("{:.3e}% (f64, within {error_bound:.0e})", 100.0 * p),
        None => format!("{:.4}% (f64, within {error_bound:.0e})", 100.0 * p),
    }
}

fn dice_text(n: u32) -> String {
    format!("{n} {}", if n == 1 { "die" } else { "dice" })
}

fn duel(args: &ClassicDuelArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let foe = match (&args.monster, args.foe_body, args.foe_hp) {
        (Some(m), _, _) => Foe::Monster {
            hero: load(m, Kind::Monster)?,
            stat: args.foe_stat,
        },
        (None, Some(body), Some(hit_points)) => Foe::Numbers(DuelNumbers {
            body,
            hit_points,
            stat: args.foe_stat_dice,
        }),
        _ => Foe::Missing,
    };
    let ask = ClassicDuelAsk {
        me: DuelNumbers {
            body: args.body,
            hit_points: args.hp,
            stat: args.stat_dice,
        },
        cliche: args.cliche,
        policy: args.policy,
        foe,
        foe_cliche: args.foe_cliche,
        foe_policy: args.foe_policy,
        damage: (args.damage, args.foe_damage),
        simulate: args.simulate,
        seed: args.seed,
    };
    let v = classic_duel_odds(&ask).map_err(once_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&v)?)?;
        return Ok(());
    }
    let (me, foe) = (&v.me, &v.foe_side);
    writeln!(
        out,
        "B{} HP{}{} ({}) against {} (B{} HP{}, {}): win {}",
        me.body,
        me.hit_points,
        if me.cliche { " +cliché" } else { "" },
        dice_text(me.dice()),
        v.foe,
        foe.body,
        foe.hit_points,
        dice_text(foe.dice()),
        paint(
            HEAD,
            odds_text(v.p_win, v.p_win_exact.as_deref(), v.error_bound)
        )
    )?;
    if let Some(sim) = &v.simulated {
        writeln!(
            out,
            "  simulated: {} of {} duels won ({:.2}% ± {:.2}% standard error), {:.2} exchanges a duel",
            sim.wins,
            sim.fights,
            100.0 * sim.rate,
            100.0 * sim.standard_error,
            sim.exchanges as f64 / f64::from(sim.fights)
        )?;
        render::write_seed(out, v.seed)?;
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
            let v = classic_check_odds(*n, *vs, *gear);
            if *as_json {
                writeln!(out, "{}", serde_json::to_string(&v)?)?;
            } else {
                writeln!(
                    out,
                    "{} dice vs {} ({}): pass {}",
                    v.pool,
                    v.difficulty,
                    v.difficulty_name,
                    paint(HEAD, percent_exact(v.p_pass, &v.p_pass_exact))
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
        // Enter alone takes a hit point.
        match line.trim() {
            "" => return Ok(Loss::HitPoint),
            typed => match typed.parse() {
                Ok(loss) => return Ok(loss),
                Err(_) => crate::say!("  `{typed}`: h or b\n"),
            },
        }
    }
}

/// A one-shot fight: the sides and the odds, one line per exchange, the end.
fn write_fight_once(out: &mut dyn Write, v: &FightOnceView) -> anyhow::Result<()> {
    let labels: Vec<&str> = v.foes.iter().map(|(l, _)| l.as_str()).collect();
    writeln!(
        out,
        "{} {} ({}) against {}{}",
        paint(HEAD, "Fight"),
        v.hero.name,
        dice_text(v.hero_dice),
        v.foes
            .iter()
            .map(|(l, d)| format!("{l} ({})", dice_text(*d)))
            .collect::<Vec<_>>()
            .join(", "),
        v.p_win
            .map(|p| format!(
                "   win {}",
                odds_text(p, v.p_win_exact.as_deref(), v.error_bound)
            ))
            .unwrap_or_default()
    )?;
    for (i, row) in v.exchanges.iter().enumerate() {
        let f = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let foe = labels.get(row.foe_index).copied().unwrap_or("?");
        let loser = match row.winner {
            Some(Who::Hero) => foe,
            _ => v.hero.name.as_str(),
        };
        let what = match (row.winner, row.body_lost) {
            (None, _) => "tie: no damage".to_owned(),
            (_, Some(true)) => format!("{loser} loses Body"),
            _ => format!("{loser} loses a hit point"),
        };
        let versus = if labels.len() > 1 {
            format!("[round {}, {foe}] ", row.round)
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {:>2}. {versus}{} against {} — {what}   (B{} HP{} / B{} HP{})",
            i + 1,
            f(&row.exchange.first),
            f(&row.exchange.second),
            row.hero[0],
            row.hero[1],
            row.foe[0],
            row.foe[1]
        )?;
    }
    let end = if v.foe_dead {
        paint(
            GOOD,
            format!(
                "{} {}",
                labels.join(", "),
                if labels.len() > 1 { "die" } else { "dies" }
            ),
        )
    } else {
        paint(BAD, format!("{} dies", v.hero.name))
    };
    writeln!(out, "  {end}")?;
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// A fight as it stands, or (a `preview`) as it would start: the sides, what is left of
/// each, and what comes next with its odds.
fn write_fight_state(
    out: &mut dyn Write,
    v: &solum_app::classic::FightStateView,
    preview: bool,
) -> anyhow::Result<()> {
    let s = &v.status;
    let win = |when: &str| {
        v.p_win
            .map(|p| format!("   win {:.2}% ({when})", 100.0 * p))
            .unwrap_or_default()
    };
    if preview {
        writeln!(
            out,
            "{} {} against {}, before it starts{}",
            paint(HEAD, "Fight"),
            v.hero,
            v.foes.join(", "),
            win("from the start")
        )?;
    } else {
        writeln!(
            out,
            "{} {} against {} (round {}, {} call(s) so far){}",
            paint(HEAD, "Fight"),
            v.hero,
            v.foes.join(", "),
            s.round,
            v.calls,
            win("when it began")
        )?;
    }
    writeln!(
        out,
        "  {}: Body {}, hit points {}",
        v.hero, s.hero[0], s.hero[1]
    )?;
    for (name, [b, hp]) in v.foes.iter().zip(&s.foes) {
        let dead = if *b == 0 || *hp == 0 { " (dead)" } else { "" };
        writeln!(out, "  {name}: Body {b}, hit points {hp}{dead}")?;
    }
    write_fight_next(out, &v.hero, &v.foes, v.next.as_ref(), s, preview)
}

/// What the fight waits for, with the exact odds of its next exchange; a `preview` (a fight
/// not started) waits for nothing.
fn write_fight_next(
    out: &mut dyn Write,
    hero: &str,
    foes: &[String],
    next: Option<&NextExchange>,
    s: &solum_app::classic::FightStatus,
    preview: bool,
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
    if preview {
        return Ok(());
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
        write_fight_next(out, &v.hero, &v.foes, v.next.as_ref(), s, false)?;
    }
    render::write_seed(out, v.rolled.seed)?;
    Ok(())
}
