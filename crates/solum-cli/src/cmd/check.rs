//! `solum check`: roll a So1um Expanded check (parse → `solum_app::check_once` or the
//! character use case → render).

use std::io::Write;

use solum_app::check_once::{
    CheckAsk, CheckOnceError, CheckRollView, CheckView, Field, OpposedRollView, PoolAsk, Reroll,
    Target, Verdict, roll_check_once,
};

use crate::cli::{CheckArgs, CheckPoolArgs};
use crate::render::{self, BAD, DIM, EVEN, GOOD, HEAD, paint, percent_exact};

/// The flag of a field of a one-shot check.
pub(crate) fn flag(field: Field) -> String {
    match field {
        Field::Attribute => "ATTRIBUTE".to_owned(),
        f => format!("--{}", f.name().replace('_', "-")),
    }
}

/// A refused one-shot check, its fields named as flags.
pub(crate) fn once_error(e: CheckOnceError) -> anyhow::Error {
    if e.is_bad_input() {
        crate::bad(e.describe(flag))
    } else {
        anyhow::Error::new(e)
    }
}

/// The line of an automatic check (the Expanded and the original alike): the rules' words,
/// and when --gear was given, that it changed nothing ([`solum_app::rules::GEAR_UNUSED`]).
pub(crate) fn write_automatic(out: &mut dyn Write, gear: bool) -> std::io::Result<()> {
    use solum_app::rules::{AUTOMATIC, GEAR_UNUSED};
    if gear {
        writeln!(out, "  {AUTOMATIC} (--gear {GEAR_UNUSED})")
    } else {
        writeln!(out, "  {AUTOMATIC}")
    }
}

pub fn run(args: &CheckArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.pool.character.is_some() || args.pool.sheet.is_some() {
        return from_sheet(args, None, out);
    }
    let target = match (&args.target.vs, args.target.against) {
        (Some(vs), _) => Target::Vs(*vs),
        (None, Some(pool)) => Target::Against {
            pool,
            gear: args.opposing.against_gear,
            roll_off: args.opposing.roll_off,
        },
        (None, None) => return Err(crate::bad("give --vs DIFFICULTY or --against POOL")),
    };
    let ask = CheckAsk {
        pool: pool_args(&args.pool)?,
        target,
    };
    let view = roll_check_once(
        &ask,
        args.rolled.as_deref(),
        args.against_rolled.as_deref(),
        args.seed,
    )
    .map_err(once_error)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
        return Ok(());
    }
    match &view {
        CheckView::Check(v) => write_check(out, v),
        CheckView::Opposed(v) => write_opposed(out, v),
    }
}

/// A check against a difficulty: the odds, the dice and the verdict.
fn write_check(out: &mut dyn Write, v: &CheckRollView) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} {} vs {}   chance to pass {}",
        paint(HEAD, "Check"),
        render::dice_count(v.pool.dice()),
        v.difficulty,
        paint(HEAD, percent_exact(v.p_pass, &v.p_pass_exact))
    )?;
    if v.automatic {
        write_automatic(out, v.gear)?;
    } else {
        let faces = PoolFaces {
            dice: &v.dice,
            reroll: v.reroll,
            final_dice: &v.final_dice,
            chain: &v.chain,
            chain_not_needed: v.chain_not_needed,
            result: v.result,
            typed: v.typed,
        };
        write_pool_roll(out, "Dice", &faces)?;
    }
    let verdict = if v.passed {
        paint(GOOD, "PASSED")
    } else {
        paint(BAD, "FAILED")
    };
    if v.automatic {
        writeln!(out, "  {verdict}")?;
    } else {
        writeln!(out, "  {:<10} {}  {verdict}", "Result", v.result)?;
    }
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// An opposed check: both sides' dice, any roll-off and the verdict.
fn write_opposed(out: &mut dyn Write, v: &OpposedRollView) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} {} against {}   win {}  draw {}  lose {}",
        paint(HEAD, "Opposed"),
        render::dice_count(v.pool.dice()),
        render::dice_count(v.against_pool.dice()),
        paint(HEAD, percent_exact(v.p_win, &v.p_win_exact)),
        percent_exact(v.p_draw, &v.p_draw_exact),
        percent_exact(v.p_lose, &v.p_lose_exact),
    )?;
    let sides = [
        (
            "You",
            PoolFaces {
                dice: &v.dice,
                reroll: v.reroll,
                final_dice: &v.final_dice,
                chain: &v.chain,
                chain_not_needed: v.chain_not_needed,
                result: v.result,
                typed: v.typed,
            },
        ),
        (
            "Against",
            PoolFaces {
                dice: &v.against_dice,
                reroll: v.against_reroll,
                final_dice: &v.against_final_dice,
                chain: &v.against_chain,
                chain_not_needed: v.against_chain_not_needed,
                result: v.against_result,
                typed: v.against_typed,
            },
        ),
    ];
    for (label, side) in &sides {
        write_pool_roll(out, label, side)?;
        writeln!(
            out,
            "  {:<10} {}",
            "",
            paint(DIM, format!("result {}", side.result))
        )?;
    }
    if !v.roll_off.is_empty() {
        let pairs: Vec<String> = v.roll_off.iter().map(|(a, b)| format!("{a}:{b}")).collect();
        writeln!(out, "  {:<10} {}", "Roll-off", pairs.join("  "))?;
    }
    let shown = match v.outcome {
        Verdict::Win => paint(GOOD, "WIN"),
        Verdict::Draw => paint(EVEN, "DRAW (nothing happens)"),
        Verdict::Lose => paint(BAD, "LOSE"),
    };
    writeln!(
        out,
        "  {:<10} {} vs {}  {shown}",
        "Result", v.result, v.against_result
    )?;
    render::write_seed(out, v.seed)?;
    Ok(())
}

/// One pool's dice as a view gives them.
struct PoolFaces<'a> {
    dice: &'a [u32],
    reroll: Option<Reroll>,
    final_dice: &'a [u32],
    chain: &'a [u32],
    chain_not_needed: bool,
    result: u32,
    typed: bool,
}

/// The dice of one pool, the gear reroll and the Rule-of-6 chain; typed dice are always
/// marked as typed (R3).
fn write_pool_roll(out: &mut dyn Write, label: &str, roll: &PoolFaces<'_>) -> std::io::Result<()> {
    let provenance = if roll.typed { "typed" } else { "from the seed" };
    writeln!(
        out,
        "  {label:<10} {}   {}",
        render::faces(roll.dice),
        paint(DIM, provenance)
    )?;
    if let Some(r) = roll.reroll {
        writeln!(
            out,
            "  {:<10} rerolled a {} → {}   now {}",
            "Gear",
            r.from,
            r.to,
            render::faces(roll.final_dice)
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
fn pool_args(p: &CheckPoolArgs) -> anyhow::Result<PoolAsk> {
    if let Some(attr) = &p.attr {
        return Err(crate::bad(format!(
            "--attr {}: with --char or --sheet only; a pool's attribute is the number ATTRIBUTE",
            attr.name()
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
    Ok(PoolAsk {
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
    campaign: Option<&mut super::campaign::Here>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    use solum_app::characters::Against;
    let p = &args.pool;
    // clap requires --attr beside --char and --sheet.
    let attribute = p
        .attr
        .ok_or_else(|| crate::bad("--attr: name the attribute rolled: body, mind or charm"))?;
    if let (Some(_), Some(seed)) = (&args.rolled, args.seed) {
        return Err(crate::bad(format!(
            "--seed {seed}: every die is typed with --rolled, so a seed would roll nothing"
        )));
    }
    let against = match (&args.target.vs, args.target.against) {
        (Some(vs), _) => Against::Difficulty(*vs),
        (None, Some(n)) => Against::Opposed {
            dice: n,
            gear: args.opposing.against_gear,
        },
        (None, None) => return Err(crate::bad("give --vs DIFFICULTY or --against POOL")),
    };
    let check = solum_app::CharacterCheck {
        attribute,
        background: sheet_name("--background", &p.background, "Acrobat Thief")?,
        weapon: p.weapon.clone(),
        gear: sheet_name("--gear", &p.gear, "thieves' tools")?,
        gear_die: p.gear_die.unwrap_or_default(),
        against,
        roll_off: args.opposing.roll_off,
    };
    let order = against.typed_order();
    if let (true, Some(name)) = (args.odds, &p.character) {
        let odds = match campaign {
            Some(c) => c.check_odds(name, &check),
            None => {
                super::campaign::on_campaign(&args.campaign, |here| here.check_odds(name, &check))?
            }
        }
        .map_err(|e| sheet_error(e, order))?;
        if args.json {
            return super::campaign::write_json(out, &odds);
        }
        return write_check_odds(out, name, &odds);
    }
    let dice = super::campaign::dice(args.seed, args.rolled.as_deref())?;
    let shown = match (&p.character, &p.sheet) {
        (Some(name), _) => {
            let view = match campaign {
                Some(c) => c.check_from_character(name, &check, dice),
                None => super::campaign::on_campaign(&args.campaign, |here| {
                    here.check_from_character(name, &check, dice)
                })?,
            }
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

/// The odds of a check from a sheet, nothing rolled.
fn write_check_odds(
    out: &mut dyn Write,
    name: &str,
    odds: &solum_app::characters::CheckOdds,
) -> anyhow::Result<()> {
    let pass = percent_exact(odds.pass, &odds.pass_exact);
    match (odds.draw, odds.lose) {
        (Some(draw), Some(lose)) => writeln!(
            out,
            "{} {}   win {pass}   draw {}   lose {}",
            paint(HEAD, "Odds"),
            name.trim(),
            render::percent_f64(draw),
            render::percent_f64(lose)
        )?,
        _ => writeln!(out, "{} {}   pass {pass}", paint(HEAD, "Odds"), name.trim())?,
    }
    Ok(())
}

/// An application error of a check from a sheet, with its flag named.
fn sheet_error(e: solum_app::AppError, order: &str) -> anyhow::Error {
    use solum_app::fields::ExpandedField as F;
    use solum_app::typed_dice::FieldName;
    if let Some((field, problem)) = e.refused_field::<F>() {
        let flag = match field {
            F::Background => "--background",
            F::Weapon => "--weapon",
            F::Gear => "--gear",
            F::GearDie => "--gear-die",
            F::RollOff => "--roll-off",
            F::Difficulty => "--vs",
            F::Opposition => "--against",
            other => other.name(),
        };
        return crate::bad(format!("{flag}: {problem}"));
    }
    if let Some((field, problem)) = e.refusal() {
        return crate::bad(format!("{field}: {problem}"));
    }
    crate::dice::typed_dice_error(e, order)
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
    use solum_app::rules::GearEffect;
    let c = &inputs.check;
    let pass = percent_exact(odds.pass, &odds.pass_exact);
    let mut built = format!("{} {}", c.attribute.name(), inputs.attribute_value);
    if let Some(b) = &c.background {
        built.push_str(&format!(", +1 {b}"));
    }
    for penalty in inputs.penalties() {
        built.push_str(&format!(", −1 {}", penalty.reason()));
    }
    let pool = render::dice_count(inputs.pool);
    match c.against {
        Against::Difficulty(d) => writeln!(
            out,
            "{} {name}: {built} → {pool} vs {}   chance to pass {}",
            paint(HEAD, "Check"),
            d.value(),
            paint(HEAD, pass)
        )?,
        Against::Opposed { dice, gear } => writeln!(
            out,
            "{} {name}: {built} → {pool} against {}{}   win {}  draw {}  lose {}",
            paint(HEAD, "Opposed"),
            render::dice_count(dice.get()),
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
                format!(" ({})", GearEffect::Reroll.describe())
            } else {
                format!(" ({}, no reroll)", GearEffect::Enables.describe())
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
        (None, _) => writeln!(out, "  {}", solum_app::rules::AUTOMATIC)?,
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
