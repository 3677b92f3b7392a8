//! `solum sim`: Monte Carlo of whole encounters.

use std::io::Write;
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use solum_app::AppError;
use solum_app::fight_odds::{Ambush, SimLimits, SimOptions, simulate};
use solum_expanded::Pool;
use solum_expanded::combat::Fighter;
use solum_expanded::creature::Bestiary;
use solum_play::storage::{load_bestiary, load_character};

use crate::bad;
use crate::cli::SimArgs;
use crate::render::{DIM, HEAD, paint};

/// The most fighters a side may have.
const MAX_SIDE: usize = solum_app::fight_odds::MAX_SIDE;

/// Parses `SPEC[*N]`: a sheet file, a bestiary name, or `pool=..,hp=..,damage=..`.
fn fighters(
    spec: &str,
    side: &str,
    hero: bool,
    bestiary: &Bestiary,
    out: &mut Vec<Fighter>,
) -> anyhow::Result<()> {
    let (body, count) = match spec.rsplit_once('*') {
        Some((b, n)) => (
            b,
            n.parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_SIDE).contains(n))
                .ok_or_else(|| bad(format!("`{spec}`: the count after * is 1 to {MAX_SIDE}")))?,
        ),
        None => (spec, 1),
    };
    let template = if body.ends_with(".toml") {
        let hero_sheet = load_character(Path::new(body)).map_err(|e| bad(e.to_string()))?;
        Fighter::hero(&hero_sheet, side, true).map_err(|e| bad(e.to_string()))?
    } else if body.contains('=') {
        let mut pool = None;
        let mut hp = None;
        let mut damage = 1;
        let mut ranged = None;
        let mut mind = 1;
        for kv in body.split(',') {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| bad(format!("`{kv}` in `{spec}`: write key=value")))?;
            let n: u32 = v
                .trim()
                .parse()
                .map_err(|_| bad(format!("`{kv}` in `{spec}`: `{v}` is not a number")))?;
            let max_damage = solum_expanded::fight::MAX_DAMAGE;
            let damage_in = |n: u32| {
                (n <= max_damage)
                    .then_some(n)
                    .ok_or_else(|| bad(format!("`{kv}` in `{spec}`: damage is 0 to {max_damage}")))
            };
            match k.trim() {
                "pool" => pool = Some(n),
                "hp" => hp = Some(n),
                "damage" => damage = damage_in(n)?,
                "ranged" => ranged = Some(damage_in(n)?),
                "mind" if (1..=solum_expanded::MAX_POOL).contains(&n) => mind = n,
                "mind" => {
                    return Err(bad(format!(
                        "`{kv}` in `{spec}`: mind is 1 to {}",
                        solum_expanded::MAX_POOL
                    )));
                }
                other => {
                    return Err(bad(format!(
                        "`{other}` in `{spec}`: keys are pool, hp, damage, ranged, mind"
                    )));
                }
            }
        }
        let pool = Pool::new(u64::from(
            pool.ok_or_else(|| bad(format!("`{spec}`: pool= is missing")))?,
        ))
        .map_err(|e| bad(format!("`{spec}`: {e}")))?;
        let hp = hp
            .filter(|h| (1..=10_000).contains(h))
            .ok_or_else(|| bad(format!("`{spec}`: hp= 1 to 10000 is needed")))?;
        let mut f = Fighter::plain("", side, hero, pool, damage, ranged, hp);
        f.mind = mind;
        f
    } else {
        let creature = bestiary.creature(body).ok_or_else(|| {
            bad(format!(
                "`{body}` is not in the bestiary, not a .toml sheet, and not pool=..,hp=.."
            ))
        })?;
        let mut f = Fighter::creature(creature, body, side).map_err(|e| bad(e.to_string()))?;
        f.hero = hero;
        f
    };
    for i in 0..count {
        let mut f = template.clone();
        f.name = format!("{side}-{}", out.len() + i + 1);
        out.push(f);
    }
    if out.len() > MAX_SIDE {
        return Err(bad(format!("at most {MAX_SIDE} fighters a side")));
    }
    Ok(())
}

pub fn run(args: &SimArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let bestiary = load_bestiary(&args.bestiary).map_err(|e| bad(e.to_string()))?;
    let mut all = Vec::new();
    for spec in &args.hero {
        fighters(spec, "heroes", true, &bestiary, &mut all)?;
    }
    let hero_count = all.len();
    let mut foes = Vec::new();
    for spec in &args.foe {
        fighters(spec, "foes", false, &bestiary, &mut foes)?;
    }
    all.extend(foes);
    let options = SimOptions {
        fights: Some(args.fights),
        seed: args.seed,
        roll_off: args.roll_off,
        alternative: args.alternative,
        ambush: if args.ambush {
            Some(Ambush::Heroes)
        } else if args.ambushed {
            Some(Ambush::Foes)
        } else {
            None
        },
    };
    let bar = ProgressBar::new(args.fights);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} fights  {per_sec}  eta {eta}")
            .expect("a valid template"),
    );
    let started = std::time::Instant::now();
    // The app refuses past the fights and the work (a seeded pilot estimates it) before
    // anything long starts.
    let view = simulate(
        &all,
        hero_count,
        &options,
        SimLimits::COMMAND_LINE,
        &|done| bar.set_position(done),
    )
    .map_err(|e| match e {
        AppError::Simulation(s) => bad(format!("--{s}")),
        other => anyhow::Error::new(other),
    })?;
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    let [lo, hi] = view.win_rate_95;
    writeln!(
        out,
        "{} {} heroes against {} foes, {} fights",
        paint(HEAD, "Simulation"),
        view.heroes,
        view.foes,
        view.fights
    )?;
    writeln!(
        out,
        "  heroes win {:.2}%  (95% interval {:.2}% to {:.2}%)",
        100.0 * view.win_rate,
        100.0 * lo,
        100.0 * hi
    )?;
    writeln!(
        out,
        "  foes win   {:.2}%",
        100.0 * view.losses as f64 / view.fights as f64
    )?;
    if view.undecided > 0 {
        writeln!(
            out,
            "  undecided  {} (stopped after {} rounds)",
            view.undecided, view.max_rounds
        )?;
    }
    writeln!(out, "  rounds     {:.2} on average", view.mean_rounds)?;
    writeln!(
        out,
        "  hit points left: heroes {:.2}, foes {:.2} on average",
        view.mean_hero_hit_points_left, view.mean_foe_hit_points_left
    )?;
    let seed = view.seed;
    writeln!(
        out,
        "  {}",
        paint(
            DIM,
            format!(
                "seed {seed} (replay with --seed {seed}); {:.0} fights/s",
                view.fights as f64 / elapsed.max(1e-9)
            )
        )
    )?;
    Ok(())
}
