//! `solum classic …` and `solum odds classic …`: the original So1um.

use std::io::Write;
use std::path::Path;

use serde_json::json;
use solum_classic::check::{
    difficulty_name, p_pass, parse_difficulty, random_difficulty, roll_check,
};
use solum_classic::duel::{Policy, Side, duel_odds};
use solum_classic::hero::create;
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

fn load(who: &str) -> anyhow::Result<Hero> {
    let path = Path::new(who);
    if who.ends_with(".toml") {
        let text = solum_play::storage::read_text(path).map_err(|e| bad(e.to_string()))?;
        return toml::from_str(&text)
            .map_err(|e| bad(format!("{who}: {}", e.to_string().trim_end())));
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
        ClassicCommand::Show { who } => show(out, &load(who)?)?,
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
            pool: n,
            vs,
            random,
            gear,
            dice,
            json: as_json,
        } => {
            let n = pool(*n)?;
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
                    json!({"check": check, "difficulty_name": difficulty_name(d), "p_pass": render::to_f64(&p), "seed": seed})
                )?;
                return Ok(());
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
            foe,
            cliche,
            foe_cliche,
            policy: p,
            foe_policy,
            ask,
            dice,
            json: as_json,
        } => {
            fight(
                (hero, foe),
                (*cliche, *foe_cliche),
                (policy(p, "--policy")?, policy(foe_policy, "--foe-policy")?),
                *ask || (std::io::IsTerminal::is_terminal(&std::io::stdin())
                    && dice.rolled.is_none()),
                dice,
                *as_json,
                out,
            )?;
        }
        ClassicCommand::Rest { file, hours } => {
            let who = file.to_string_lossy().into_owned();
            let mut hero = load(&who)?;
            let (hp, body) = hero.rest(*hours);
            solum_play::storage::write_atomically(file, &toml::to_string_pretty(&hero)?)?;
            writeln!(
                out,
                "{} rests {hours} hours: +{hp} hit point(s), +{body} Body.",
                hero.name
            )?;
            show(out, &hero)?;
        }
    }
    Ok(())
}

fn policy(text: &str, flag: &str) -> anyhow::Result<Policy> {
    text.parse()
        .map_err(|e: String| bad(format!("{flag}: {e}")))
}

fn duel(args: &ClassicDuelArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.damage != 1 || args.foe_damage != 1 {
        return Err(bad(
            "the original So1um deals 1 hit point per won exchange: --damage and --foe-damage are 1",
        ));
    }
    let (foe_name, foe_body, foe_hp) = match (&args.monster, args.foe_body, args.foe_hp) {
        (Some(m), _, _) => {
            let h = load(m)?;
            (h.name.clone(), h.body, h.hit_points)
        }
        (None, Some(b), Some(h)) => ("the foe".to_owned(), b, h),
        _ => return Err(bad("name a --monster, or give --foe-body and --foe-hp")),
    };
    let me = Side {
        body: args.body,
        hit_points: args.hp,
        cliche: args.cliche,
        policy: policy(&args.policy, "--policy")?,
    };
    let foe = Side {
        body: foe_body,
        hit_points: foe_hp,
        cliche: args.foe_cliche,
        policy: policy(&args.foe_policy, "--foe-policy")?,
    };
    let p = duel_odds(me, foe).map_err(|e| bad(e.to_string()))?;
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"foe": foe_name, "p_win": render::to_f64(&p), "p_win_exact": render::fraction(&p)})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "B{} HP{}{} against {foe_name} (B{foe_body} HP{foe_hp}): win {}",
        me.body,
        me.hit_points,
        if me.cliche { " +cliché" } else { "" },
        paint(HEAD, percent(&p))
    )?;
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

/// Asks whether the hero gives up Body for this hit.
fn ask_body(name: &str, body: u32, hit_points: u32) -> anyhow::Result<bool> {
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
            "h" | "hp" | "hit point" | "" => return Ok(false),
            "b" | "body" => return Ok(true),
            other => crate::say!("  `{other}`: h or b\n"),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn fight(
    (hero_id, foe_id): (&String, &String),
    (cliche, foe_cliche): (bool, bool),
    (my_policy, foe_policy): (Policy, Policy),
    ask: bool,
    dice: &crate::cli::DiceArgs,
    as_json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    use solum_classic::duel::roll_exchange;
    let mut hero = load(hero_id)?;
    let mut foe = load(foe_id)?;
    if hero.is_dead() || foe.is_dead() {
        return Err(bad("the dead do not fight"));
    }
    let p = duel_odds(
        Side {
            body: hero.body.min(30),
            hit_points: hero.hit_points.min(30),
            cliche,
            policy: my_policy,
        },
        Side {
            body: foe.body.min(30),
            hit_points: foe.hit_points.min(30),
            cliche: foe_cliche,
            policy: foe_policy,
        },
    )
    .ok();
    let mut log = Vec::new();
    let (_, seed) = with_dice(
        dice.rolled.as_deref(),
        dice.seed,
        "values go: each exchange, the hero's dice then the foe's",
        |d| {
            while !hero.is_dead() && !foe.is_dead() && log.len() < 10_000 {
                let e = roll_exchange(
                    hero.body + u32::from(cliche),
                    foe.body + u32::from(foe_cliche),
                    d,
                )?;
                let body_lost = match e.winner {
                    1 => {
                        let b = foe_policy.loses_body(foe.body, foe.hit_points);
                        foe.take_hit(b);
                        Some(b)
                    }
                    -1 => {
                        let b = if ask {
                            ask_body(&hero.name, hero.body, hero.hit_points).unwrap_or(false)
                        } else {
                            my_policy.loses_body(hero.body, hero.hit_points)
                        };
                        hero.take_hit(b);
                        Some(b)
                    }
                    _ => None,
                };
                log.push((
                    e,
                    body_lost,
                    hero.body,
                    hero.hit_points,
                    foe.body,
                    foe.hit_points,
                ));
            }
            Ok(())
        },
    )?;
    if hero_id.ends_with(".toml") {
        solum_play::storage::write_atomically(Path::new(hero_id), &toml::to_string_pretty(&hero)?)?;
    }
    if as_json {
        let exchanges: Vec<_> = log
            .iter()
            .map(|(e, b, hb, hh, fb, fh)| json!({"exchange": e, "body_lost": b, "hero": [hb, hh], "foe": [fb, fh]}))
            .collect();
        writeln!(
            out,
            "{}",
            json!({"p_win": p.as_ref().map(render::to_f64), "exchanges": exchanges, "hero_dead": hero.is_dead(), "foe_dead": foe.is_dead(), "seed": seed})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {} against {}{}",
        paint(HEAD, "Fight"),
        hero.name,
        foe.name,
        p.map(|p| format!("   win {}", percent(&p)))
            .unwrap_or_default()
    )?;
    for (i, (e, b, hb, hh, fb, fh)) in log.iter().enumerate() {
        let f = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let what = match (e.winner, b) {
            (1, Some(true)) => format!("{} loses Body", foe.name),
            (1, _) => format!("{} loses a hit point", foe.name),
            (-1, Some(true)) => format!("{} loses Body", hero.name),
            (-1, _) => format!("{} loses a hit point", hero.name),
            _ => "tie: no damage".to_owned(),
        };
        writeln!(
            out,
            "  {:>2}. {} against {} — {what}   (B{hb} HP{hh} / B{fb} HP{fh})",
            i + 1,
            f(&e.first),
            f(&e.second)
        )?;
    }
    let end = if foe.is_dead() {
        paint(GOOD, format!("{} dies", foe.name))
    } else {
        paint(BAD, format!("{} dies", hero.name))
    };
    writeln!(out, "  {end}")?;
    render::write_seed(out, seed)?;
    Ok(())
}
