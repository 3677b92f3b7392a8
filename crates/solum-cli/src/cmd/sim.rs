//! `solum sim`: Monte Carlo of whole encounters.

use std::io::Write;

use indicatif::{ProgressBar, ProgressStyle};
use solum_app::AppError;
use solum_app::combat::SheetResolver;
use solum_app::fight_odds::{Ambush, SimLimits, SimOptions, simulate_specs};

use crate::bad;
use crate::cli::SimArgs;
use crate::render::{DIM, HEAD, paint};
use crate::storage::{load_bestiary, load_character};

/// `--hero FILE.toml` reads the sheet through the one bounded reader, relative to the
/// working folder.
struct SheetFiles;

impl SheetResolver for SheetFiles {
    fn sheet(&self, path: &str) -> Result<solum_app::Character, String> {
        load_character(std::path::Path::new(path)).map_err(|e| e.to_string())
    }
}

pub fn run(args: &SimArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let bestiary = load_bestiary(&args.bestiary).map_err(|e| bad(e.to_string()))?;
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
    let view = simulate_specs(
        &args.hero,
        &args.foe,
        &bestiary,
        &SheetFiles,
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
