//! `solum check`: roll a So1um Expanded check.

use std::cell::{Cell, RefCell};
use std::io::Write;

use serde_json::json;
use solum_expanded::Pool;
use solum_expanded::check::{
    CheckSpec, DrawRule, OpposedSpec, PoolRoll, Side, Verdict, roll_check, roll_opposed,
};
use solum_expanded::odds::{opposed_odds, p_pass};

use super::{difficulty, opposing_pool, pool_of};
use crate::cli::{CheckArgs, CheckPoolArgs, PoolArgs};
use crate::dice::{Generator, SideDice, Source, explain};
use crate::render::{self, BAD, DIM, EVEN, GOOD, HEAD, paint, percent};

/// How typed values are consumed, for error messages.
fn order(pool: solum_expanded::Pool, opposed: bool) -> String {
    format!(
        "values go: the {} of the pool, then the gear reroll if it is used, then one per die of the Rule-of-6 chain (only above 6, or when both sides show a 6){}",
        render::dice_count(pool.dice()),
        if opposed { ", then roll-off dice" } else { "" }
    )
}

/// Said after "automatic: no roll needed" when --gear was given: nothing is rolled, so
/// the gear reroll has nothing to change (the Expanded and the original check alike).
pub(crate) fn gear_unused(gear: bool) -> &'static str {
    if gear {
        " (--gear unused: nothing is rolled)"
    } else {
        ""
    }
}

/// Why a roll used fewer typed values than were given, in the rules' terms: a rule that
/// left a die unrolled, not just "too many values".
fn unused_reasons(roll: Option<&PoolRoll>, gear: bool, difficulty: Option<u32>) -> Vec<String> {
    let mut why = Vec::new();
    match roll {
        None => why.push("difficulty 1 is automatic: nothing is rolled".to_owned()),
        Some(roll) => {
            if gear && roll.reroll.is_none() {
                why.push(
                    "the gear reroll is used only when it can change the outcome, and it could not"
                        .to_owned(),
                );
            }
            if roll.chain_not_needed {
                why.push(match difficulty {
                    Some(d) => format!(
                        "a 6 already reaches {d}, so no Rule-of-6 chain die is rolled (only above 6)"
                    ),
                    None => "only one side shows a 6, so no Rule-of-6 chain die is rolled (only when both do)".to_owned(),
                });
            }
        }
    }
    why
}

/// The reasons for one side of an opposed roll, roll-offs included.
pub(crate) fn opposed_unused_reasons(
    outcome: &solum_expanded::check::OpposedOutcome,
    first: bool,
) -> Vec<String> {
    let (roll, gear) = if first {
        (&outcome.first, outcome.spec.first.gear)
    } else {
        (&outcome.second, outcome.spec.second.gear)
    };
    let mut why = unused_reasons(Some(roll), gear, None);
    match (outcome.spec.draws, outcome.verdict) {
        (DrawRule::RollOff, _) if outcome.roll_off.is_empty() => {
            why.push("the results differ, so there is no roll-off".to_owned());
        }
        (DrawRule::Stand, Verdict::Draw) => {
            why.push("the draw stands: no roll-off without --roll-off".to_owned());
        }
        _ => {}
    }
    why
}

/// The order of typed values, after the rules' reasons for any die not rolled.
pub(crate) fn order_with_reasons(reasons: &[String], order: &str) -> String {
    if reasons.is_empty() {
        order.to_owned()
    } else {
        format!("{}; {order}", reasons.join("; "))
    }
}

pub fn run(args: &CheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.pool.character.is_some() || args.pool.sheet.is_some() {
        return from_sheet(args, None, out);
    }
    let pool_args = pool_args(&args.pool)?;
    // A seed beside typed dice is ignored unless it rolls the other side of an opposed check.
    if let (Some(_), Some(seed)) = (&args.rolled, args.seed)
        && (args.target.against.is_none() || args.against_rolled.is_some())
    {
        return Err(crate::bad(format!(
            "--seed {seed}: every die is typed with --rolled{}, so a seed would roll nothing",
            if args.against_rolled.is_some() {
                " and --against-rolled"
            } else {
                ""
            }
        )));
    }
    let pool = pool_of(&pool_args)?;
    match (&args.target.vs, args.target.against) {
        (Some(vs), _) => check_vs(args, pool, pool_args.gear, vs, out)?,
        (None, Some(against)) => check_against(args, pool, pool_args.gear, against, out)?,
        (None, None) => unreachable!("clap requires --vs or --against"),
    }
    Ok(())
}

/// A check against a difficulty (`--vs`): the odds, the dice and the verdict.
fn check_vs(
    args: &CheckArgs,
    pool: Pool,
    gear: bool,
    vs: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let generator = RefCell::new(Generator::new(args.seed));
    let blame = Cell::new("--rolled");
    let mut first = Source::from_flag("--rolled", args.rolled.as_deref())?;
    let spec = CheckSpec::new(pool, difficulty(vs)?).with_gear(gear);
    let p = p_pass(&spec);
    let outcome = roll_check(&spec, &mut SideDice::new(&mut first, &generator, &blame))
        .map_err(|e| explain(e, blame.get(), &order(pool, false)))?;
    first.finish(&order_with_reasons(
        &unused_reasons(
            outcome.roll.as_ref(),
            spec.gear,
            Some(spec.difficulty.value()),
        ),
        &order(pool, false),
    ))?;
    let seed = generator.borrow().used_seed();
    if args.json {
        let roll = outcome.roll.as_ref();
        let value = json!({
            "kind": "check",
            "pool": spec.pool,
            "difficulty": spec.difficulty,
            "difficulty_name": spec.difficulty.name(),
            "gear": spec.gear,
            "automatic": roll.is_none(),
            "typed": first.is_typed(),
            "dice": roll.map(|r| r.dice.clone()).unwrap_or_default(),
            "reroll": roll.and_then(|r| r.reroll),
            "final_dice": roll.map(PoolRoll::final_dice).unwrap_or_default(),
            "chain": roll.map(|r| r.chain.clone()).unwrap_or_default(),
            "chain_not_needed": roll.is_some_and(|r| r.chain_not_needed),
            "result": outcome.result,
            "passed": outcome.passed,
            "p_pass": render::to_f64(&p),
            "p_pass_exact": render::fraction(&p),
            "seed": seed,
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {} vs {}   chance to pass {}",
        paint(HEAD, "Check"),
        render::dice_count(spec.pool.dice()),
        spec.difficulty,
        paint(HEAD, percent(&p))
    )?;
    match &outcome.roll {
        None => writeln!(out, "  automatic: no roll needed{}", gear_unused(spec.gear))?,
        Some(roll) => write_pool_roll(out, "Dice", roll, &first)?,
    }
    let verdict = if outcome.passed {
        paint(GOOD, "PASSED")
    } else {
        paint(BAD, "FAILED")
    };
    if outcome.roll.is_some() {
        writeln!(out, "  {:<10} {}  {verdict}", "Result", outcome.result)?;
    } else {
        writeln!(out, "  {verdict}")?;
    }
    render::write_seed(out, seed)?;
    Ok(())
}

/// An opposed check (`--against`): both sides' dice, any roll-off and the verdict.
fn check_against(
    args: &CheckArgs,
    pool: Pool,
    gear: bool,
    against: i64,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let generator = RefCell::new(Generator::new(args.seed));
    let blame = Cell::new("--rolled");
    let mut first = Source::from_flag("--rolled", args.rolled.as_deref())?;
    let second_pool = opposing_pool(against)?;
    let spec = OpposedSpec {
        first: Side { pool, gear },
        second: Side {
            pool: second_pool,
            gear: args.opposing.against_gear,
        },
        draws: if args.opposing.roll_off {
            DrawRule::RollOff
        } else {
            DrawRule::Stand
        },
    };
    let odds = opposed_odds(&spec);
    let mut second = Source::from_flag("--against-rolled", args.against_rolled.as_deref())?;
    let outcome = {
        let mut a = SideDice::new(&mut first, &generator, &blame);
        let mut b = SideDice::new(&mut second, &generator, &blame);
        roll_opposed(&spec, &mut a, &mut b)
    };
    let outcome = outcome.map_err(|e| {
        explain(
            e,
            blame.get(),
            &order(
                if blame.get() == "--rolled" {
                    pool
                } else {
                    second_pool
                },
                true,
            ),
        )
    })?;
    first.finish(&order_with_reasons(
        &opposed_unused_reasons(&outcome, true),
        &order(pool, true),
    ))?;
    second.finish(&order_with_reasons(
        &opposed_unused_reasons(&outcome, false),
        &order(second_pool, true),
    ))?;
    let seed = generator.borrow().used_seed();
    let verdict = match outcome.verdict {
        Verdict::Win => "win",
        Verdict::Draw => "draw",
        Verdict::Lose => "lose",
    };
    if args.json {
        let value = json!({
            "kind": "opposed",
            "pool": spec.first.pool,
            "against_pool": spec.second.pool,
            "gear": spec.first.gear,
            "against_gear": spec.second.gear,
            "draws": spec.draws,
            "dice": outcome.first.dice,
            "reroll": outcome.first.reroll,
            "final_dice": outcome.first.final_dice(),
            "chain": outcome.first.chain,
            "chain_not_needed": outcome.first.chain_not_needed,
            "result": outcome.first.result,
            "typed": first.is_typed(),
            "against_dice": outcome.second.dice,
            "against_reroll": outcome.second.reroll,
            "against_final_dice": outcome.second.final_dice(),
            "against_chain": outcome.second.chain,
            "against_chain_not_needed": outcome.second.chain_not_needed,
            "against_result": outcome.second.result,
            "against_typed": second.is_typed(),
            "roll_off": outcome.roll_off,
            "outcome": verdict,
            "p_win": render::to_f64(&odds.win),
            "p_draw": render::to_f64(&odds.draw),
            "p_lose": render::to_f64(&odds.lose),
            "p_win_exact": render::fraction(&odds.win),
            "p_draw_exact": render::fraction(&odds.draw),
            "p_lose_exact": render::fraction(&odds.lose),
            "seed": seed,
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} {} against {}   win {}  draw {}  lose {}",
        paint(HEAD, "Opposed"),
        render::dice_count(spec.first.pool.dice()),
        render::dice_count(spec.second.pool.dice()),
        paint(HEAD, percent(&odds.win)),
        percent(&odds.draw),
        percent(&odds.lose),
    )?;
    write_pool_roll(out, "You", &outcome.first, &first)?;
    writeln!(
        out,
        "  {:<10} {}",
        "",
        paint(DIM, format!("result {}", outcome.first.result))
    )?;
    write_pool_roll(out, "Against", &outcome.second, &second)?;
    writeln!(
        out,
        "  {:<10} {}",
        "",
        paint(DIM, format!("result {}", outcome.second.result))
    )?;
    if !outcome.roll_off.is_empty() {
        let pairs: Vec<String> = outcome
            .roll_off
            .iter()
            .map(|(a, b)| format!("{a}:{b}"))
            .collect();
        writeln!(out, "  {:<10} {}", "Roll-off", pairs.join("  "))?;
    }
    let shown = match outcome.verdict {
        Verdict::Win => paint(GOOD, "WIN"),
        Verdict::Draw => paint(EVEN, "DRAW (nothing happens)"),
        Verdict::Lose => paint(BAD, "LOSE"),
    };
    writeln!(
        out,
        "  {:<10} {} vs {}  {shown}",
        "Result", outcome.first.result, outcome.second.result
    )?;
    render::write_seed(out, seed)?;
    Ok(())
}

/// The dice of one pool, the gear reroll and the Rule-of-6 chain.
/// `source` says where the dice came from: typed dice are always marked as typed (R3).
fn write_pool_roll(
    out: &mut dyn Write,
    label: &str,
    roll: &PoolRoll,
    source: &Source,
) -> std::io::Result<()> {
    writeln!(
        out,
        "  {label:<10} {}   {}",
        render::faces(&roll.dice),
        paint(DIM, source.provenance())
    )?;
    if let Some(r) = roll.reroll {
        writeln!(
            out,
            "  {:<10} rerolled a {} → {}   now {}",
            "Gear",
            r.from,
            r.to,
            render::faces(&roll.final_dice())
        )?;
    }
    if !roll.chain.is_empty() {
        let links: Vec<String> = roll.chain.iter().map(|f| format!("+{f}")).collect();
        writeln!(
            out,
            "  {:<10} 6 {} = {}",
            "Rule of 6",
            links.join(" "),
            roll.result
        )?;
    } else if roll.chain_not_needed {
        writeln!(
            out,
            "  {:<10} {}",
            "Rule of 6",
            paint(DIM, "not rolled: a 6 already decides")
        )?;
    }
    Ok(())
}

/// The pool of a check made from numbers; the flags that name something of a sheet are
/// refused here, naming the flag.
fn pool_args(p: &CheckPoolArgs) -> anyhow::Result<PoolArgs> {
    if let Some(attr) = &p.attr {
        return Err(crate::bad(format!(
            "--attr {attr}: with --char or --sheet only; a pool's attribute is the number ATTRIBUTE"
        )));
    }
    if let Some(w) = &p.weapon {
        return Err(crate::bad(format!(
            "--weapon {w}: with --char or --sheet only (a pool takes --heavy-weapon)"
        )));
    }
    for (flag, value) in [("--background", &p.background), ("--gear", &p.gear)] {
        if let Some(v) = value
            && !v.is_empty()
        {
            return Err(crate::bad(format!(
                "{flag} {v}: a name is given only with --char or --sheet; for a pool, {flag} takes no value"
            )));
        }
    }
    Ok(PoolArgs {
        attribute: p
            .attribute
            .ok_or_else(|| crate::bad("give ATTRIBUTE, --char NAME or --sheet FILE"))?,
        background: p.background.is_some(),
        armor_too_heavy: p.armor_too_heavy,
        heavy_weapon: p.heavy_weapon,
        gear: p.gear.is_some(),
    })
}

/// A name given to a flag that names something of the sheet; the flag alone is refused.
fn sheet_name(flag: &str, value: &Option<String>, example: &str) -> anyhow::Result<Option<String>> {
    match value {
        Some(v) if v.trim().is_empty() => Err(crate::bad(format!(
            "{flag}: name the sheet's one, e.g. {flag} \"{example}\""
        ))),
        v => Ok(v.clone()),
    }
}

/// `solum check --char NAME` (journaled in the campaign) or `--sheet FILE` (read only): the
/// pool, penalties and gear come from the sheet, through the application.
/// `campaign`: the one `solum play` has open; `None` opens the one the arguments name.
pub(crate) fn from_sheet(
    args: &CheckArgs,
    campaign: Option<&mut solum_app::Campaign<Box<dyn solum_store::Store>>>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    use solum_app::characters::Against;
    let p = &args.pool;
    let attribute: solum_expanded::character::Attribute = p
        .attr
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(|e: solum_dice::UnknownWord| crate::bad(format!("--attr: {e}")))?;
    if let (Some(_), Some(seed)) = (&args.rolled, args.seed) {
        return Err(crate::bad(format!(
            "--seed {seed}: every die is typed with --rolled, so a seed would roll nothing"
        )));
    }
    let against = match (&args.target.vs, args.target.against) {
        (Some(vs), _) => Against::Difficulty(difficulty(vs)?.value()),
        (None, Some(n)) => Against::Opposed {
            dice: opposing_pool(n)?.dice(),
            gear: args.opposing.against_gear,
        },
        (None, None) => unreachable!("clap requires --vs or --against"),
    };
    let check = solum_app::CharacterCheck {
        attribute,
        background: sheet_name("--background", &p.background, "Acrobat Thief")?,
        weapon: p.weapon.clone(),
        gear: sheet_name("--gear", &p.gear, "thieves' tools")?,
        gear_die: match p.gear_die.as_deref().map(|g| g.trim().to_ascii_lowercase()) {
            None => solum_app::characters::GearDie::Best,
            Some(g) if g == "best" => solum_app::characters::GearDie::Best,
            Some(g) if g == "none" => solum_app::characters::GearDie::Skip,
            Some(g) => solum_app::characters::GearDie::Die(g.parse().map_err(|_| {
                crate::bad(format!(
                    "--gear-die {g}: write best, none, or the position of the rerolled die from 1"
                ))
            })?),
        },
        against,
        roll_off: args.opposing.roll_off,
    };
    let order = match against {
        Against::Difficulty(_) => {
            "values go: the pool, then the gear reroll if it is used, then one per die of the Rule-of-6 chain (only above 6)"
        }
        Against::Opposed { .. } => {
            "values go: every die of both sides in the order the roll draws them: your pool, then the opposition's, then gear rerolls and Rule-of-6 chain dice when they can matter, then roll-off pairs (yours, theirs) while a draw is rolled off"
        }
    };
    let dice = super::campaign::dice(args.seed, args.rolled.as_deref())?;
    let shown = match (&p.character, &p.sheet) {
        (Some(name), _) => {
            let mut opened;
            let campaign = match campaign {
                Some(c) => c,
                None => {
                    opened = super::campaign::open(&args.campaign)?;
                    &mut opened
                }
            };
            let view = campaign
                .check_from_character(name, &check, dice)
                .map_err(|e| sheet_error(e, order))?;
            if args.json {
                return super::campaign::write_json(out, &view);
            }
            (
                view.name,
                view.inputs,
                view.odds,
                view.rolled,
                view.result,
                Some(view.seq),
            )
        }
        (None, Some(file)) => {
            let hero =
                crate::storage::load_character(file).map_err(|e| crate::bad(e.to_string()))?;
            let view = solum_app::characters::check_from_sheet(&hero, &check, dice)
                .map_err(|e| sheet_error(e, order))?;
            if args.json {
                return super::campaign::write_json(out, &view);
            }
            (
                view.name,
                view.inputs,
                view.odds,
                view.rolled,
                view.result,
                None,
            )
        }
        (None, None) => unreachable!("only called with --char or --sheet"),
    };
    let (name, inputs, odds, rolled, result, seq) = shown;
    write_sheet_check(out, &name, &inputs, &odds, &rolled, &result)?;
    if rolled.typed {
        writeln!(out, "  {}", paint(DIM, "dice typed in"))?;
    }
    render::write_seed(out, rolled.seed)?;
    if let Some(seq) = seq {
        writeln!(out, "  {}", paint(DIM, format!("journal entry {seq}")))?;
    }
    Ok(())
}

/// An application error of a check from a sheet, with its flag named.
fn sheet_error(e: solum_app::AppError, order: &str) -> anyhow::Error {
    use solum_app::AppError;
    match e {
        AppError::Character { field, problem } => {
            let flag = match field.as_str() {
                "background" => "--background",
                "weapon" => "--weapon",
                "gear" => "--gear",
                "gear_die" => "--gear-die",
                "roll_off" => "--roll-off",
                "difficulty" => "--vs",
                "opposition" => "--against",
                other => return crate::bad(format!("{other}: {problem}")),
            };
            crate::bad(format!("{flag}: {problem}"))
        }
        e => super::character::typed_dice_error(e, order),
    }
}

fn write_sheet_check(
    out: &mut dyn Write,
    name: &str,
    inputs: &solum_app::characters::CheckInputs,
    odds: &solum_app::characters::CheckOdds,
    rolled: &solum_app::Rolled,
    result: &solum_app::characters::CheckResult,
) -> anyhow::Result<()> {
    use solum_app::characters::{Against, PoolFaces};
    let c = &inputs.check;
    let pass = odds
        .pass_exact
        .parse::<solum_dice::Prob>()
        .map(|p| percent(&p))
        .unwrap_or_else(|_| render::percent_f64(odds.pass));
    let mut built = format!("{} {}", c.attribute.name(), inputs.attribute_value);
    if let Some(b) = &c.background {
        built.push_str(&format!(", +1 {b}"));
    }
    if inputs.armor_too_heavy {
        built.push_str(", −1 armor too heavy");
    }
    if inputs.heavy_weapon_weak {
        built.push_str(", −1 heavy weapon at Body below 3");
    }
    let pool = render::dice_count(inputs.pool);
    match c.against {
        Against::Difficulty(d) => writeln!(
            out,
            "{} {name}: {built} → {pool} vs {d}   chance to pass {}",
            paint(HEAD, "Check"),
            paint(HEAD, pass)
        )?,
        Against::Opposed { dice, gear } => writeln!(
            out,
            "{} {name}: {built} → {pool} against {}{}   win {}  draw {}  lose {}",
            paint(HEAD, "Opposed"),
            render::dice_count(dice),
            if gear { " with gear" } else { "" },
            paint(HEAD, pass),
            render::percent_f64(odds.draw.unwrap_or(0.0)),
            render::percent_f64(odds.lose.unwrap_or(0.0)),
        )?,
    }
    if let Some(g) = &c.gear {
        writeln!(
            out,
            "  {:<10} {g}{}",
            "Gear",
            if inputs.gear_reroll {
                " (reroll one die once)"
            } else {
                " (enables, no reroll)"
            }
        )?;
    }
    let provenance = if rolled.typed {
        "typed"
    } else {
        "from the seed"
    };
    let side = |out: &mut dyn Write, label: &str, f: &PoolFaces| -> std::io::Result<()> {
        writeln!(
            out,
            "  {label:<10} {}   {}",
            render::faces(&f.dice),
            paint(DIM, provenance)
        )?;
        if let Some([at, from, to]) = f.reroll {
            writeln!(
                out,
                "  {:<10} die {} rerolled: a {from} → {to}",
                "Reroll",
                at + 1
            )?;
        }
        if !f.chain.is_empty() {
            let links: Vec<String> = f.chain.iter().map(|x| format!("+{x}")).collect();
            writeln!(
                out,
                "  {:<10} 6 {} = {}",
                "Rule of 6",
                links.join(" "),
                f.result
            )?;
        }
        Ok(())
    };
    match (&result.own, &result.opposition) {
        (None, _) => writeln!(out, "  automatic: no roll needed")?,
        (Some(own), None) => side(out, "Dice", own)?,
        (Some(own), Some(other)) => {
            side(out, "You", own)?;
            side(out, "Against", other)?;
        }
    }
    if !result.roll_off.is_empty() {
        let pairs: Vec<String> = result
            .roll_off
            .iter()
            .map(|[a, b]| format!("{a} vs {b}"))
            .collect();
        writeln!(out, "  {:<10} {}", "Roll-off", pairs.join(", "))?;
    }
    let verdict = match result.verdict.as_deref() {
        Some("win") => paint(GOOD, "WIN"),
        Some("draw") => paint(EVEN, "DRAW (nothing happens)"),
        Some(_) => paint(BAD, "LOSE"),
        None if result.passed => paint(GOOD, "PASSED"),
        None => paint(BAD, "FAILED"),
    };
    match (&result.own, &result.opposition) {
        (Some(own), Some(other)) => writeln!(
            out,
            "  {:<10} {} vs {}  {verdict}",
            "Result", own.result, other.result
        )?,
        (Some(own), None) => writeln!(out, "  {:<10} {}  {verdict}", "Result", own.result)?,
        (None, _) => writeln!(out, "  {verdict}")?,
    }
    Ok(())
}
