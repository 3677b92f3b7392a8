//! `solum odds …`: exact odds without rolling.

use std::io::Write;

use serde_json::json;
use solum_expanded::check::{CheckSpec, DrawRule, OpposedSpec, Side};
use solum_expanded::odds::{opposed_odds, p_pass, result_distribution};
use solum_expanded::{Difficulty, Pool};

use super::{difficulty, opposing_pool, pool_of};
use crate::bad;
use crate::cli::{DuelArgs, OddsCheckArgs, PlayStaticArgs, StaticArgs};
use crate::render::{self, HEAD, paint, percent};

pub fn check(args: &OddsCheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pool = pool_of(&args.pool)?;
    let gear = args.pool.gear;
    if let Some(vs) = &args.vs {
        let spec = CheckSpec::new(pool, difficulty(vs)?).with_gear(gear);
        let p = p_pass(&spec);
        if args.json {
            let value = json!({
                "pool": pool,
                "difficulty": spec.difficulty,
                "difficulty_name": spec.difficulty.name(),
                "gear": gear,
                "p_pass": render::to_f64(&p),
                "p_pass_exact": render::fraction(&p),
            });
            writeln!(out, "{value}")?;
        } else {
            writeln!(
                out,
                "{} vs {}{}: pass {}  (exactly {})",
                render::dice_count(pool.dice()),
                spec.difficulty,
                if gear { " with gear" } else { "" },
                paint(HEAD, percent(&p)),
                render::fraction(&p)
            )?;
        }
        return Ok(());
    }
    let draws = draw_rule(args.opposing.roll_off);
    let opposed = |against: Pool| {
        opposed_odds(&OpposedSpec {
            first: Side { pool, gear },
            second: Side {
                pool: against,
                gear: args.opposing.against_gear,
            },
            draws,
        })
    };
    if let Some(against) = args.against {
        let against = opposing_pool(against)?;
        let odds = opposed(against);
        if args.json {
            let value = json!({
                "pool": pool,
                "against_pool": against,
                "gear": gear,
                "against_gear": args.opposing.against_gear,
                "draws": draws,
                "p_win": render::to_f64(&odds.win),
                "p_draw": render::to_f64(&odds.draw),
                "p_lose": render::to_f64(&odds.lose),
                "p_win_exact": render::fraction(&odds.win),
                "p_draw_exact": render::fraction(&odds.draw),
                "p_lose_exact": render::fraction(&odds.lose),
            });
            writeln!(out, "{value}")?;
        } else {
            writeln!(
                out,
                "{} against {}: win {}  draw {}  lose {}",
                render::dice_count(pool.dice()),
                render::dice_count(against.dice()),
                paint(HEAD, percent(&odds.win)),
                percent(&odds.draw),
                percent(&odds.lose)
            )?;
        }
        return Ok(());
    }

    // The designer's table: difficulties 2-12, then opposed pools 1-6.
    let dist = result_distribution(pool);
    let rows: Vec<_> = (2..=12)
        .map(|d| {
            let difficulty = Difficulty::new(d).expect("2-12 are difficulties");
            let spec = CheckSpec::new(pool, difficulty);
            (difficulty, p_pass(&spec), p_pass(&spec.with_gear(true)))
        })
        .collect();
    let against: Vec<_> = (1..=6)
        .map(|n| {
            let other = Pool::new(n).expect("1-6 are pools");
            (other, opposed(other))
        })
        .collect();
    if args.json {
        let value = json!({
            "pool": pool,
            "gear": gear,
            "mean_result": dist.mean(),
            "sd_result": dist.std_dev(),
            "difficulties": rows.iter().map(|(d, p, g)| json!({
                "difficulty": d,
                "name": d.name(),
                "p_pass": render::to_f64(if gear { g } else { p }),
                "p_pass_exact": render::fraction(if gear { g } else { p }),
                "p_pass_without_gear": render::to_f64(p),
                "p_pass_with_gear": render::to_f64(g),
            })).collect::<Vec<_>>(),
            "opposed": against.iter().map(|(n, o)| json!({
                "against_pool": n,
                "p_win": render::to_f64(&o.win),
                "p_draw": render::to_f64(&o.draw),
                "p_lose": render::to_f64(&o.lose),
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{}   result: mean {:.3}, sd {:.3}",
        paint(
            HEAD,
            format!(
                "Pool of {}{}",
                render::dice_count(pool.dice()),
                if gear { " with gear" } else { "" }
            )
        ),
        dist.mean(),
        dist.std_dev()
    )?;
    let mut table = render::table(
        &["difficulty", "name", "pass", "pass with gear"],
        &[0, 2, 3],
    );
    for (d, p, g) in &rows {
        table.add_row(vec![
            d.value().to_string(),
            d.name().to_owned(),
            percent(p),
            percent(g),
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "Above 6 only the Rule of 6 can pass.\n")?;
    let mut table = render::table(&["against", "win", "draw", "lose"], &[1, 2, 3]);
    for (n, o) in &against {
        table.add_row(vec![
            render::dice_count(n.dice()),
            percent(&o.win),
            percent(&o.draw),
            percent(&o.lose),
        ]);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

/// Hit points or damage as typed, checked against `lo..=hi`; the message repeats the flag
/// and the value.
fn count_in(value: i64, flag: &str, lo: i64, hi: i64) -> anyhow::Result<u32> {
    if (lo..=hi).contains(&value) {
        Ok(u32::try_from(value).expect("within 0..=u32::MAX"))
    } else {
        Err(bad(format!("{flag} {value}: must be {lo} to {hi}")))
    }
}

fn hit_points(value: i64, flag: &str) -> anyhow::Result<u32> {
    count_in(
        value,
        flag,
        1,
        i64::from(solum_expanded::fight::MAX_FIGHT_HP),
    )
}

fn damage(value: i64, flag: &str) -> anyhow::Result<u32> {
    count_in(value, flag, 0, i64::from(solum_expanded::fight::MAX_DAMAGE))
}

/// `--roll-off` as the rule for draws (S3, S14).
fn draw_rule(roll_off: bool) -> DrawRule {
    if roll_off {
        DrawRule::RollOff
    } else {
        DrawRule::Stand
    }
}

fn fight_pool(value: i64, flag: &str) -> anyhow::Result<Pool> {
    super::flag_pool(flag, value)
}

fn write_fight(
    out: &mut dyn Write,
    json: bool,
    odds: Result<solum_expanded::fight::FightOdds, solum_expanded::fight::FightError>,
    title: String,
    exchange: &str,
) -> anyhow::Result<()> {
    let odds = odds.map_err(|e| bad(e.to_string()))?;
    if json {
        let value = json!({
            "p_win": render::to_f64(&odds.win),
            "p_lose": render::to_f64(&odds.lose),
            "p_win_exact": odds.is_exact().then(|| render::fraction(&odds.win)),
            "error_bound": odds.error_bound,
            "p_exchange": render::to_f64(&odds.p_exchange),
            "wins_needed": odds.wins_needed,
            "losses_to_fall": odds.losses_to_fall,
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(out, "{title}")?;
        writeln!(
            out,
            "  {exchange} {}; {} needed before {} lost",
            percent(&odds.p_exchange),
            odds.wins_needed,
            odds.losses_to_fall
        )?;
        writeln!(
            out,
            "  win {}  lose {}",
            paint(HEAD, percent(&odds.win)),
            percent(&odds.lose)
        )?;
        if !odds.is_exact() {
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
    }
    Ok(())
}

pub fn duel(args: &DuelArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    use solum_expanded::fight::{DuelSpec, Duelist, duel_odds};
    let spec = DuelSpec {
        first: Duelist {
            pool: fight_pool(args.pool, "--pool")?,
            hit_points: hit_points(args.hp, "--hp")?,
            damage: damage(args.damage, "--damage")?,
        },
        second: Duelist {
            pool: fight_pool(args.foe_pool, "--foe-pool")?,
            hit_points: hit_points(args.foe_hp, "--foe-hp")?,
            damage: damage(args.foe_damage, "--foe-damage")?,
        },
        draws: draw_rule(args.roll_off),
    };
    let title = format!(
        "Duel: {} with {} hp dealing {} against {} with {} hp dealing {}{}",
        render::dice_count(spec.first.pool.dice()),
        spec.first.hit_points,
        spec.first.damage,
        render::dice_count(spec.second.pool.dice()),
        spec.second.hit_points,
        spec.second.damage,
        if args.roll_off {
            ", draws rolled off"
        } else {
            ""
        }
    );
    let odds = duel_odds(&spec);
    let simulated = match (args.simulate, &odds) {
        (Some(n), Ok(exact)) => {
            if !(1..=1_000_000_000).contains(&n) {
                return Err(bad(format!("--simulate {n}: 1 to 1000000000 fights")));
            }
            let seed = args
                .seed
                .unwrap_or_else(|| solum_dice::SeededDice::from_entropy().seed());
            solum_app::sim::check_work(
                n,
                seed,
                || (),
                |(), d| Ok(solum_expanded::fight::simulate_duel(&spec, d)?),
                |()| 0,
            )
            .map_err(|e| {
                if e.is_too_much() {
                    bad(format!("--simulate {e}"))
                } else {
                    e.into()
                }
            })?;
            let started = std::time::Instant::now();
            let tally = solum_app::sim::run(n, seed, &|_| {}, |d| {
                Ok(solum_expanded::fight::simulate_duel(&spec, d)?)
            })?;
            let z = (tally.win_rate() - render::to_f64(&exact.win))
                / tally.standard_error().max(1e-300);
            Some((tally, seed, z, started.elapsed().as_secs_f64()))
        }
        _ => None,
    };
    if args.json
        && let (Ok(o), Some((t, seed, z, _))) = (&odds, &simulated)
    {
        let value = json!({
            "p_win": render::to_f64(&o.win),
            "p_lose": render::to_f64(&o.lose),
            "p_win_exact": o.is_exact().then(|| render::fraction(&o.win)),
            "error_bound": o.error_bound,
            "roll_off": args.roll_off,
            "simulated": {"fights": t.fights, "win_rate": t.win_rate(), "standard_error": t.standard_error(),
                          "z": z, "mean_exchanges": t.mean_rounds(), "seed": seed},
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    write_fight(
        out,
        args.json,
        odds,
        title,
        if args.roll_off {
            "an exchange (draws rolled off) is won with"
        } else {
            "an exchange (draws repeat) is won with"
        },
    )?;
    if let Some((t, seed, z, secs)) = simulated {
        writeln!(
            out,
            "  simulated: win {:.3}% over {} duels ({z:+.2} standard errors from exact), {:.2} exchanges on average",
            100.0 * t.win_rate(),
            t.fights,
            t.mean_rounds()
        )?;
        writeln!(
            out,
            "  {}",
            paint(
                render::DIM,
                format!(
                    "seed {seed}; {:.0} duels/s",
                    t.fights as f64 / secs.max(1e-9)
                )
            )
        )?;
    }
    Ok(())
}

pub fn fast_static(args: &StaticArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    use solum_expanded::fight::{StaticSpec, static_odds};
    let spec = StaticSpec {
        pool: fight_pool(args.pool, "--pool")?,
        difficulty: difficulty(&args.vs)?,
        hit_points: hit_points(args.hp, "--hp")?,
        damage: damage(args.damage, "--damage")?,
        foe_hit_points: hit_points(args.foe_hp, "--foe-hp")?,
        foe_damage: damage(args.foe_damage, "--foe-damage")?,
    };
    let title = format!(
        "Fast static combat: {} against {}, {} hp dealing {}; the opposition {} hp dealing {}",
        render::dice_count(spec.pool.dice()),
        spec.difficulty,
        spec.hit_points,
        spec.damage,
        spec.foe_hit_points,
        spec.foe_damage
    );
    write_fight(
        out,
        args.json,
        static_odds(&spec),
        title,
        "a round is won with",
    )
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
    use solum_expanded::combat::StaticCombat;
    use solum_expanded::fight::{StaticSpec, static_odds};
    let (name, difficulty, foe_hp, foe_damage) = match &args.foe {
        Some(name) => {
            let bestiary =
                crate::storage::load_bestiary(&args.bestiary).map_err(|e| bad(e.to_string()))?;
            let foe = bestiary.static_foe(name).ok_or_else(|| {
                let known: Vec<&str> = bestiary.static_foes().map(|f| f.name.as_str()).collect();
                bad(format!(
                    "--foe `{name}` is not a static opposition (known: {})",
                    known.join(", ")
                ))
            })?;
            (
                foe.name.clone(),
                Difficulty::new(i64::from(foe.difficulty)).map_err(|e| bad(e.to_string()))?,
                foe.hit_points,
                foe.damage,
            )
        }
        None => (
            "the opposition".to_owned(),
            difficulty(args.vs.as_deref().expect("clap requires --vs"))?,
            hit_points(args.foe_hp.expect("clap requires --foe-hp"), "--foe-hp")?,
            damage(
                args.foe_damage.expect("clap requires --foe-damage"),
                "--foe-damage",
            )?,
        ),
    };
    let spec = StaticSpec {
        pool: fight_pool(args.pool.expect("clap requires --pool"), "--pool")?,
        difficulty,
        hit_points: hit_points(args.hp.expect("clap requires --hp"), "--hp")?,
        damage: damage(args.damage.expect("clap requires --damage"), "--damage")?,
        foe_hit_points: foe_hp,
        foe_damage,
    };
    let odds = static_odds(&spec).map_err(|e| bad(e.to_string()))?;
    let mut fight = StaticCombat {
        pool: spec.pool,
        difficulty: spec.difficulty,
        hit_points: spec.hit_points,
        damage: spec.damage,
        foe_hit_points: spec.foe_hit_points,
        foe_damage: spec.foe_damage,
    };
    let order = "values go: each round's pool, then its Rule-of-6 chain (only above difficulty 6)";
    let generator = std::cell::RefCell::new(crate::dice::Generator::new(args.dice.seed));
    let blame = std::cell::Cell::new("--rolled");
    let mut source = crate::dice::Source::from_flag("--rolled", args.dice.rolled.as_deref())?;
    let play = fight
        .play_out(&mut crate::dice::SideDice::new(
            &mut source,
            &generator,
            &blame,
        ))
        .map_err(|e| crate::dice::explain(e, blame.get(), order))?;
    let rounds = play.rounds;
    // Values left over: say which rule ended the rolling, not only that there were too many.
    let mut why = vec![format!("the fight is over after round {}", rounds.len())];
    if spec.difficulty.is_automatic() {
        why.push("difficulty 1 is automatic: no round rolls dice".to_owned());
    } else if rounds
        .iter()
        .any(|r| r.check.roll.as_ref().is_some_and(|p| p.chain_not_needed))
    {
        why.push(format!(
            "a 6 already reaches {}, so no Rule-of-6 chain die is rolled",
            spec.difficulty.value()
        ));
    }
    source.finish(&super::check::order_with_reasons(&why, order))?;
    let seed = generator.borrow().used_seed();
    let won = fight.foe_hit_points == 0;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"p_win": render::to_f64(&odds.win), "rounds": rounds, "won": won,
                   "stopped": play.stopped, "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{} against {name} ({}, {} hp, {} damage): win {}",
        paint(HEAD, "Fast static combat"),
        spec.difficulty,
        spec.foe_hit_points,
        spec.foe_damage,
        paint(HEAD, percent(&odds.win))
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
        if play.stopped {
            paint(
                render::BAD,
                format!(
                    "stopped after {} rounds, both stand: one side deals no damage and the other almost never gets its round",
                    rounds.len()
                ),
            )
        } else if won {
            paint(render::GOOD, format!("{name} is defeated"))
        } else {
            paint(render::BAD, "the hero is defeated")
        }
    )?;
    render::write_seed(out, seed)?;
    Ok(())
}

/// `solum static --char NAME …`: fast static combat with a campaign character (S11), kept
/// in the campaign: started with the opposition, resumed with `--char` alone, abandoned
/// with `--abandon`.
pub(crate) fn static_from_sheet(
    args: &PlayStaticArgs,
    name: &str,
    campaign: Option<&mut solum_app::Campaign<Box<dyn solum_store::Store>>>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    use solum_app::fast_static::{Opposition, StaticRequest};
    let mut opened;
    let campaign = match campaign {
        Some(c) => c,
        None => {
            opened = super::campaign::open(&args.campaign)?;
            &mut opened
        }
    };
    let view = if args.abandon {
        campaign.abandon_static(name)?
    } else {
        let start = match (&args.foe, &args.vs) {
            (Some(foe), _) => Some(Opposition::shipped(foe)?),
            (None, Some(vs)) => Some(Opposition {
                name: "the opposition".to_owned(),
                difficulty: difficulty(vs)?.value(),
                hit_points: hit_points(
                    args.foe_hp
                        .ok_or_else(|| bad("--vs needs --foe-hp and --foe-damage"))?,
                    "--foe-hp",
                )?,
                damage: damage(
                    args.foe_damage
                        .ok_or_else(|| bad("--vs needs --foe-hp and --foe-damage"))?,
                    "--foe-damage",
                )?,
            }),
            (None, None) => None,
        };
        let request = StaticRequest {
            hero: name.to_owned(),
            start,
            weapon: args.weapon.clone(),
            background: args.background.clone(),
        };
        let dice = super::campaign::dice(args.dice.seed, args.dice.rolled.as_deref())?;
        campaign.static_fight(&request, dice)?
    };
    if args.json {
        writeln!(out, "{}", serde_json::to_value(&view)?)?;
        return Ok(());
    }
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
