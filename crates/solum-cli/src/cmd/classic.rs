//! `solum classic …` and `solum odds classic …`: the original So1um.

use std::io::Write;
use std::path::Path;

use serde_json::json;
use solum_classic::check::hero_pool;
use solum_classic::check::{
    difficulty_name, p_pass, parse_difficulty, random_difficulty, roll_check,
};
use solum_classic::duel::{DAMAGE, MAX_SIMULATED, Policy, Side, duel_odds, simulate_many};
use solum_classic::fight::{ClassicFight, Command, Event, FightError, Fighter, Loss, Who};
use solum_classic::hero::{Kind, Stat, create, parse_hero};
use solum_classic::oracle::{Odds, ask};
use solum_classic::{Book, Hero};

use crate::bad;
use crate::cli::{ClassicCommand, ClassicDuelArgs, ClassicOddsCommand};
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
    let path = Path::new(who);
    if who.ends_with(".toml") {
        let text = solum_play::storage::read_text(path).map_err(|e| bad(e.to_string()))?;
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
        ClassicCommand::New {
            name,
            cliches,
            output,
            force,
            dice,
            json: as_json,
        } => {
            let path = super::new_sheet_path(output.as_deref(), name, *force)?;
            let (made, seed) = with_dice(
                dice.rolled.as_deref(),
                dice.seed,
                "values go: 3d6 Body, 3d6 Mind, 3d6 Spirit, 2d6 hit points, 2d6 clichés",
                |d| create(name, cliches, d),
            )?;
            let (hero, rolls) = made.map_err(|e| bad(e.to_string()))?;
            solum_play::storage::write_atomically(&path, &toml::to_string_pretty(&hero)?)?;
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
        }
        ClassicCommand::Show { who } => show(out, &load(who, Kind::Hero)?)?,
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
        ClassicCommand::Check {
            pool: who,
            stat: named_stat,
            cliche,
            vs,
            random,
            gear,
            dice,
            json: as_json,
        } => {
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
                    Ok((d, roll_check(n, d, *gear, dd)?))
                },
            )?;
            let p = p_pass(n, d, *gear);
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
        }
        ClassicCommand::Oracle {
            question,
            advantage,
            disadvantage,
            dice,
            json: as_json,
        } => {
            let odds = if *advantage {
                Odds::Advantage
            } else if *disadvantage {
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
            if *as_json {
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
        }
        ClassicCommand::Fight {
            hero,
            foes,
            stat: hero_stat,
            foe_stat,
            cliche,
            foe_cliche,
            policy: p,
            foe_policy,
            ask,
            dice,
            json: as_json,
        } => {
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
                (policy(p, "--policy")?, policy(foe_policy, "--foe-policy")?),
                *ask || (std::io::IsTerminal::is_terminal(&std::io::stdin())
                    && dice.rolled.is_none()),
                dice,
                *as_json,
                out,
            )?;
        }
        ClassicCommand::Rest {
            file,
            hours,
            json: as_json,
        } => {
            let who = file.to_string_lossy().into_owned();
            if !who.ends_with(".toml") {
                return Err(bad(format!("{who}: rest needs a hero file (.toml)")));
            }
            let mut hero = load(&who, Kind::Hero)?;
            let rest = hero
                .rest(*hours)
                .map_err(|e| bad(format!("--hours: {e}")))?;
            solum_play::storage::write_atomically(file, &toml::to_string_pretty(&hero)?)?;
            if *as_json {
                writeln!(out, "{}", json!({"rest": rest, "hero": hero}))?;
                return Ok(());
            }
            writeln!(
                out,
                "{} rests {hours} hours: +{} hit point(s), +{} Body.",
                hero.name, rest.hit_points, rest.body
            )?;
            show(out, &hero)?;
        }
    }
    Ok(())
}

fn dice_text(n: u32) -> String {
    format!("{n} {}", if n == 1 { "die" } else { "dice" })
}

fn stat(text: &str, flag: &str) -> anyhow::Result<Stat> {
    text.parse()
        .map_err(|e: String| bad(format!("{flag}: {e}")))
}

/// The pool of `solum classic check`: a number of dice, or a hero's stat and cliché. Returns
/// the pool and, for a hero, what it rolls (for the output).
fn check_pool(
    who: &str,
    named_stat: Option<&str>,
    cliche: Option<&str>,
) -> anyhow::Result<(u32, Option<serde_json::Value>)> {
    if let Ok(n) = who.trim().parse::<i64>() {
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
        .map_err(|e: String| bad(format!("{flag}: {e}")))
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
    let p = duel_odds(me, foe).map_err(|e| bad(e.to_string()))?;
    let simulated = match args.simulate {
        None => None,
        Some(n) if !(1..=MAX_SIMULATED).contains(&n) => {
            return Err(bad(format!(
                "--simulate {n}: run 1 to {MAX_SIMULATED} duels"
            )));
        }
        Some(n) => {
            let (sim, seed) = with_dice(None, args.seed, "", |d| {
                Ok(simulate_many(me, foe, n, Some(render::to_f64(&p)), d))
            })?;
            Some((sim.map_err(|e| bad(e.to_string()))?, seed))
        }
    };
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"foe": foe_name, "me": me, "foe_side": foe, "p_win": render::to_f64(&p), "p_win_exact": render::fraction(&p),
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
        paint(HEAD, percent(&p))
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
        let Some(line) = solum_play::storage::Lines::new(stdin.lock())
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
        [one] => duel_odds(me.side, one.side).ok(),
        _ => None,
    };
    let mut fight = ClassicFight::new(me, them).map_err(|e| bad(e.to_string()))?;
    let labels: Vec<String> = foes
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if foes.iter().filter(|g| g.name == f.name).count() > 1 {
                format!("{} #{}", f.name, i + 1)
            } else {
                f.name.clone()
            }
        })
        .collect();
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
    let mut state: Vec<(u32, u32)> = std::iter::once(&hero)
        .chain(&foes)
        .map(|h| (h.body, h.hit_points))
        .collect();
    let mut lines = Vec::new();
    if hero_id.ends_with(".toml") {
        hero.set_wounds(fight.hero().side.body, fight.hero().side.hit_points);
        solum_play::storage::write_atomically(Path::new(hero_id), &toml::to_string_pretty(&hero)?)?;
    }
    let slot = |who: Who| match who {
        Who::Hero => 0,
        Who::Foe(i) => i + 1,
    };
    for event in &events {
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
            json!({"p_win": p.as_ref().map(render::to_f64), "exchanges": exchanges,
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
        p.map(|p| format!("   win {}", percent(&p)))
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
