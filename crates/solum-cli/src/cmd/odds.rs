//! `solum odds …`: exact odds without rolling (parse → `solum_app::check_once` or
//! `fight_once` → render).

use std::io::Write;

use solum_app::check_once::{CheckOddsAnswer, PoolAsk, PoolTableView, Target, check_odds_once};
use solum_app::fight_once::{
    DuelAsk, FightOddsView, FightOnceError, FighterAsk, StaticAsk, StaticFoeAsk, StaticPlayAsk,
    StaticPlayView, duel_odds_once, play_static_once, static_odds_once,
};

use super::check::once_error;
use crate::bad;
use crate::cli::{DuelArgs, OddsCheckArgs, PlayStaticArgs, StaticArgs};
use crate::render::{self, HEAD, paint, percent_exact, percent_f64};

/// A refused fight, its fields named as flags.
fn fight_error(e: FightOnceError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.describe(|f| format!("--{}", f.name().replace('_', "-"))))
    } else {
        anyhow::Error::new(e)
    }
}

pub fn check(args: &OddsCheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pool = PoolAsk {
        attribute: args.pool.attribute,
        background: args.pool.background,
        armor_too_heavy: args.pool.armor_too_heavy,
        heavy_weapon: args.pool.heavy_weapon,
        gear: args.pool.gear,
    };
    let target = match (&args.vs, args.against) {
        (Some(vs), _) => Some(Target::Vs(*vs)),
        (None, Some(against)) => Some(Target::Against {
            pool: against,
            gear: args.opposing.against_gear,
            roll_off: args.opposing.roll_off,
        }),
        (None, None) => None,
    };
    let answer =
        check_odds_once(&pool, target.as_ref(), args.opposing.roll_off).map_err(once_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&answer)?)?;
        return Ok(());
    }
    match &answer {
        CheckOddsAnswer::Check(v) => writeln!(
            out,
            "{} vs {}{}: pass {}  (exactly {})",
            render::dice_count(v.pool.dice()),
            v.difficulty,
            if v.gear { " with gear" } else { "" },
            paint(HEAD, percent_exact(v.p_pass, &v.p_pass_exact)),
            v.p_pass_exact
        )?,
        CheckOddsAnswer::Opposed(v) => writeln!(
            out,
            "{} against {}: win {}  draw {}  lose {}",
            render::dice_count(v.pool.dice()),
            render::dice_count(v.against_pool.dice()),
            paint(HEAD, percent_exact(v.chances.p_win, &v.chances.p_win_exact)),
            percent_exact(v.chances.p_draw, &v.chances.p_draw_exact),
            percent_exact(v.chances.p_lose, &v.chances.p_lose_exact)
        )?,
        CheckOddsAnswer::Table(t) => write_table(out, t)?,
    }
    Ok(())
}

/// The designer's table: difficulties 2-12, then opposed pools 1-6.
fn write_table(out: &mut dyn Write, t: &PoolTableView) -> anyhow::Result<()> {
    writeln!(
        out,
        "{}   result: mean {:.3}, sd {:.3}",
        paint(
            HEAD,
            format!(
                "Pool of {}{}",
                render::dice_count(t.pool.dice()),
                if t.gear { " with gear" } else { "" }
            )
        ),
        t.mean_result,
        t.sd_result
    )?;
    let mut table = render::table(
        &["difficulty", "name", "pass", "pass with gear"],
        &[0, 2, 3],
    );
    for r in &t.difficulties {
        table.add_row(vec![
            r.difficulty.value().to_string(),
            r.name.to_owned(),
            percent_exact(r.p_pass_without_gear, &r.p_pass_without_gear_exact),
            percent_exact(r.p_pass_with_gear, &r.p_pass_with_gear_exact),
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "{}\n", solum_app::rules::ABOVE_SIX)?;
    let mut table = render::table(&["against", "win", "draw", "lose"], &[1, 2, 3]);
    for r in &t.opposed {
        let o = &r.chances;
        table.add_row(vec![
            render::dice_count(r.against_pool.dice()),
            percent_exact(o.p_win, &o.p_win_exact),
            percent_exact(o.p_draw, &o.p_draw_exact),
            percent_exact(o.p_lose, &o.p_lose_exact),
        ]);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

/// A fight's chance as text: exact where the view gives the fraction.
fn shown(x: f64, exact: Option<&String>) -> String {
    exact.map_or_else(|| percent_f64(x), |e| percent_exact(x, e))
}

fn write_fight(
    out: &mut dyn Write,
    odds: &FightOddsView,
    title: String,
    exchange: &str,
) -> anyhow::Result<()> {
    writeln!(out, "{title}")?;
    writeln!(
        out,
        "  {exchange} {}; {} needed before {} lost",
        percent_exact(odds.p_exchange, &odds.p_exchange_exact),
        odds.wins_needed,
        odds.losses_to_fall
    )?;
    writeln!(
        out,
        "  win {}  lose {}",
        paint(HEAD, shown(odds.p_win, odds.p_win_exact.as_ref())),
        shown(odds.p_lose, odds.p_lose_exact.as_ref())
    )?;
    if odds.error_bound != 0.0 {
        writeln!(
            out,
            "  {}",
            paint(
                render::DIM,
                format!(
                    "summed in f64 (exact fractions too large): within {:.0e} of the exact chance",
                    odds.error_bound
                )
            )
        )?;
    }
    Ok(())
}

pub fn duel(args: &DuelArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ask = DuelAsk {
        first: FighterAsk {
            pool: args.pool,
            hp: args.hp,
            damage: args.damage,
        },
        second: FighterAsk {
            pool: args.foe_pool,
            hp: args.foe_hp,
            damage: args.foe_damage,
        },
        roll_off: args.roll_off,
        simulate: args.simulate,
        seed: args.seed,
    };
    // The clock is the shell's: the rate of simulated duels is shown, never computed inside.
    let started = std::time::Instant::now();
    let view = duel_odds_once(&ask).map_err(fight_error)?;
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    let (a, b) = (&view.first, &view.second);
    let title = format!(
        "Duel: {} with {} hp dealing {} against {} with {} hp dealing {}{}",
        render::dice_count(a.pool.dice()),
        a.hit_points,
        a.damage,
        render::dice_count(b.pool.dice()),
        b.hit_points,
        b.damage,
        if view.roll_off {
            ", draws rolled off"
        } else {
            ""
        }
    );
    write_fight(
        out,
        &view.odds,
        title,
        if view.roll_off {
            "an exchange (draws rolled off) is won with"
        } else {
            "an exchange (draws repeat) is won with"
        },
    )?;
    if let Some(t) = &view.simulated {
        writeln!(
            out,
            "  simulated: win {:.3}% over {} duels ({:+.2} standard errors from exact), {:.2} exchanges on average",
            100.0 * t.win_rate,
            t.fights,
            t.z,
            t.mean_exchanges
        )?;
        writeln!(
            out,
            "  {}",
            paint(
                render::DIM,
                format!(
                    "seed {}; {:.0} duels/s",
                    t.seed,
                    t.fights as f64 / secs.max(1e-9)
                )
            )
        )?;
    }
    Ok(())
}

pub fn fast_static(args: &StaticArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let ask = StaticAsk {
        hero: FighterAsk {
            pool: args.pool,
            hp: args.hp,
            damage: args.damage,
        },
        vs: args.vs,
        foe_hp: args.foe_hp,
        foe_damage: args.foe_damage,
    };
    let view = static_odds_once(&ask).map_err(fight_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    let spec = &view.spec;
    let title = format!(
        "Fast static combat: {} against {}, {} hp dealing {}; the opposition {} hp dealing {}",
        render::dice_count(spec.pool.dice()),
        spec.difficulty,
        spec.hit_points,
        spec.damage,
        spec.foe_hit_points,
        spec.foe_damage
    );
    write_fight(out, &view.odds, title, "a round is won with")
}

pub fn play_static(args: &PlayStaticArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if let (Some(_), Some(seed)) = (&args.dice.rolled, args.dice.seed) {
        return Err(bad(format!(
            "--seed {seed} cannot be used with --rolled: typed dice roll nothing from a seed"
        )));
    }
    if let Some(name) = &args.character {
        return static_from_sheet(args, name, None, out);
    }
    let bestiary = crate::storage::load_bestiary(&args.bestiary).map_err(|e| bad(e.to_string()))?;
    let foe = match &args.foe {
        Some(name) => StaticFoeAsk::Named(name),
        None => StaticFoeAsk::Typed {
            vs: args.vs.expect("clap requires --vs"),
            hp: args.foe_hp.expect("clap requires --foe-hp"),
            damage: args.foe_damage.expect("clap requires --foe-damage"),
        },
    };
    let ask = StaticPlayAsk {
        hero: FighterAsk {
            pool: args.pool.expect("clap requires --pool"),
            hp: args.hp.expect("clap requires --hp"),
            damage: args.damage.expect("clap requires --damage"),
        },
        foe,
        bestiary: &bestiary,
        rolled: args.dice.rolled.as_deref(),
        seed: args.dice.seed,
    };
    let view = play_static_once(&ask).map_err(fight_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    write_static_play(out, &view)
}

/// A one-shot fast static combat in text: the odds, each round, how it ended.
fn write_static_play(out: &mut dyn Write, view: &StaticPlayView) -> anyhow::Result<()> {
    let (name, spec, rounds) = (&view.foe, &view.spec, &view.rounds);
    writeln!(
        out,
        "{} against {name} ({}, {} hp, {} damage): win {}",
        paint(HEAD, "Fast static combat"),
        spec.difficulty,
        spec.foe_hit_points,
        spec.foe_damage,
        paint(HEAD, shown(view.p_win, view.p_win_exact.as_ref()))
    )?;
    for (i, r) in rounds.iter().enumerate() {
        writeln!(
            out,
            "  round {:>2}: {}   you {} hp, {name} {} hp",
            i + 1,
            solum_app::describe::check(&r.check),
            r.hit_points,
            r.foe_hit_points
        )?;
    }
    writeln!(
        out,
        "  {}",
        if view.stopped {
            paint(
                render::BAD,
                format!(
                    "stopped after {} rounds, both stand: one side deals no damage and the other almost never gets its round",
                    rounds.len()
                ),
            )
        } else if view.won {
            paint(render::GOOD, format!("{name} is defeated"))
        } else {
            paint(render::BAD, "the hero is defeated")
        }
    )?;
    render::write_seed(out, view.seed)?;
    Ok(())
}

/// `solum static --char NAME …`: fast static combat with a campaign character (S11), kept
/// in the campaign: started with the opposition, resumed with `--char` alone, abandoned
/// with `--abandon`.
pub(crate) fn static_from_sheet(
    args: &PlayStaticArgs,
    name: &str,
    campaign: Option<&mut super::campaign::Here>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    use solum_app::fast_static::{Opposition, StaticRequest};
    if args.status {
        let answer = match campaign {
            Some(c) => c.static_answer(name)?,
            None => super::campaign::on_campaign(&args.campaign, |here| here.static_answer(name))??,
        };
        if args.json {
            return super::campaign::write_json(out, &answer);
        }
        return match &answer.fight {
            Some(view) => write_static_view(out, view),
            None => {
                writeln!(out, "{} is in no fast static combat.", name.trim())?;
                Ok(())
            }
        };
    }
    // What is asked, checked before the campaign is opened.
    let fight = if args.abandon {
        None
    } else {
        let start = match (&args.foe, &args.vs) {
            (Some(foe), _) => Some(Opposition::shipped(foe)?),
            (None, Some(vs)) => {
                let needs = || bad("--vs needs --foe-hp and --foe-damage");
                let hp = args.foe_hp.ok_or_else(needs)?;
                let damage = args.foe_damage.ok_or_else(needs)?;
                Some(Opposition::typed(*vs, hp, damage))
            }
            (None, None) => None,
        };
        let request = StaticRequest {
            hero: name.to_owned(),
            start,
            weapon: args.weapon.clone(),
            background: args.background.clone(),
        };
        let dice = super::campaign::dice(args.dice.seed, args.dice.rolled.as_deref())?;
        Some((request, dice))
    };
    let act = |c: &mut super::campaign::Here| match fight {
        None => c.abandon_static(name),
        Some((request, dice)) => c.static_fight(&request, dice),
    };
    let view = match campaign {
        Some(c) => act(c)?,
        None => super::campaign::on_campaign(&args.campaign, act)??,
    };
    if args.json {
        writeln!(out, "{}", serde_json::to_value(&view)?)?;
        return Ok(());
    }
    write_static_view(out, &view)
}

/// A fast static combat as it stands: its setup, this call's rounds, the state, the odds of
/// winning from here.
fn write_static_view(
    out: &mut dyn Write,
    view: &solum_app::fast_static::StaticView,
) -> anyhow::Result<()> {
    let setup = &view.setup;
    let o = &setup.opposition;
    writeln!(
        out,
        "{} {} ({} dice, {} {} damage) against {} ({}, {} hp, {} damage)",
        paint(HEAD, "Fast static combat:"),
        setup.hero,
        setup.pool,
        setup.weapon,
        setup.damage,
        o.name,
        o.difficulty,
        o.hit_points,
        o.damage
    )?;
    let bg = view
        .call
        .as_ref()
        .and_then(|c| c.background.as_ref())
        .map_or(String::new(), |b| format!(" [{b}]"));
    for (i, r) in view.rounds.as_array().into_iter().flatten().enumerate() {
        let passed = r["check"]["passed"].as_bool().unwrap_or(false);
        let dice: Vec<String> = r["check"]["roll"]["dice"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| d.to_string())
            .collect();
        writeln!(
            out,
            "  round {:>2}{bg}: {} against {}: {}   {} {} hp, {} {} hp",
            i + 1,
            dice.join(" "),
            o.difficulty,
            if passed { "pass" } else { "fail" },
            setup.hero,
            r["hit_points"],
            o.name,
            r["foe_hit_points"]
        )?;
    }
    let state = format!(
        "{} {} hp, {} {} hp",
        setup.hero, view.state.hit_points, o.name, view.state.foe_hit_points
    );
    let line = match view.outcome {
        "won" => paint(render::GOOD, format!("{} is defeated ({state})", o.name)),
        "lost" => paint(render::BAD, format!("{} is defeated ({state})", setup.hero)),
        "abandoned" => format!("{} leaves the fight ({state}); journaled", setup.hero),
        _ => format!(
            "the fight waits ({state}): `solum static --char {}` goes on (typed dice with --rolled; a call plays at most 100 rounds)",
            setup.hero
        ),
    };
    writeln!(out, "  {line}")?;
    for odds in &view.odds {
        let p = odds
            .p_win
            .map_or("cannot end".to_owned(), render::percent_f64);
        let exact = odds
            .p_win_exact
            .as_ref()
            .map_or(String::new(), |e| format!(" ({e})"));
        match &odds.background {
            None => writeln!(out, "  win from here: {p}{exact}")?,
            Some(b) => writeln!(out, "  win from here with --background \"{b}\": {p}{exact}")?,
        }
    }
    if let Some(hp) = view.sheet_hit_points.filter(|_| view.call.is_some()) {
        writeln!(out, "  {}'s sheet: {hp} hit points", setup.hero)?;
    }
    if let Some(seed) = view.call.as_ref().and_then(|c| c.seed) {
        render::write_seed(out, Some(seed))?;
    }
    Ok(())
}
