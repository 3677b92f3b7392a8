//! Checks the ranges of every term right after parsing, before anything is rolled or
//! computed: dice, sides, keep counts, rerolls and explosions that could never stop, the
//! So1um terms' own ranges.

use crate::ast::{Cmp, DiceTerm, Die, ExplodeKind, Expr, ExprKind, Game};
use crate::error::NotationError;
use crate::limits::{MAX_DICE, MAX_REROLL_FAILURE, MAX_REROLLS, MAX_SIDES};

/// Checks every term of `expr` and the dice of the whole expression.
pub fn validate(expr: &Expr) -> Result<(), NotationError> {
    let mut dice = 0u64;
    walk(expr, &mut dice)?;
    if dice > u64::from(MAX_DICE) {
        return Err(NotationError::limit(
            format!("the expression rolls {dice} dice: at most {MAX_DICE} in one expression"),
            Some(expr.span),
        ));
    }
    Ok(())
}

fn walk(expr: &Expr, dice: &mut u64) -> Result<(), NotationError> {
    let bad = |message: String| NotationError::syntax(message, expr.span.start, expr.span.end);
    match &expr.kind {
        ExprKind::Num(_) => {}
        ExprKind::Dice(term) => {
            check_dice(term).map_err(bad)?;
            *dice += u64::from(term.count);
        }
        ExprKind::Neg(e) | ExprKind::Label(e, _) => walk(e, dice)?,
        ExprKind::Bin(_, a, b) => {
            walk(a, dice)?;
            walk(b, dice)?;
        }
        ExprKind::Call(_, args) => {
            for a in args {
                walk(a, dice)?;
            }
        }
        ExprKind::Game(game) => {
            *dice += u64::from(check_game(game).map_err(bad)?);
        }
    }
    Ok(())
}

fn faces_matching(die: Die, cmp: Cmp) -> u32 {
    (1..=die.faces())
        .filter(|&f| cmp.matches(die.value(f)))
        .count() as u32
}

/// The explosion point of a term: its comparison, or the highest face.
pub(crate) fn explodes_on(term: &DiceTerm, value: i64) -> bool {
    match term.explode {
        None => false,
        Some(e) => match e.when {
            Some(c) => c.matches(value),
            None => value == term.die.range().1,
        },
    }
}

fn check_dice(term: &DiceTerm) -> Result<(), String> {
    if term.count == 0 || term.count > MAX_DICE {
        return Err(format!(
            "{} dice: a term rolls 1 to {MAX_DICE} dice",
            term.count
        ));
    }
    if let Die::Sides(n) = term.die
        && (n == 0 || n > MAX_SIDES)
    {
        return Err(format!(
            "a d{n} cannot be rolled: dice have 1 to {MAX_SIDES} sides"
        ));
    }
    let die = term.die;
    let name = match die {
        Die::Sides(n) => format!("d{n}"),
        Die::Fudge => "dF".to_owned(),
    };
    if let Some(r) = term.reroll
        && faces_matching(die, r.when) == 0
    {
        return Err(format!(
            "`r{}{}` never rerolls: no face of a {name} ({} to {}) matches",
            if r.once { "o" } else { "" },
            r.when,
            die.range().0,
            die.range().1
        ));
    }
    if let Some(r) = term.reroll
        && !r.once
        && faces_matching(die, r.when) == die.faces()
    {
        return Err(format!(
            "`r{}` rerolls every face of a {name}: it would never stop (use `ro` to reroll once)",
            r.when
        ));
    }
    if let Some(r) = term.reroll
        && !r.once
    {
        // A roll must stop where its odds say it stops: refuse what could exhaust the reroll
        // limit with a chance that is not negligible (e.g. `d1000r<1000`).
        let matching = faces_matching(die, r.when);
        let share = f64::from(matching) / f64::from(die.faces());
        if share.powf(f64::from(MAX_REROLLS + 1)) > MAX_REROLL_FAILURE {
            return Err(format!(
                "`r{}` rerolls {matching} of a {name}'s {} faces: a die could need more than \
                 {MAX_REROLLS} rerolls (a chance over 1 in 10^12); reroll fewer faces",
                r.when,
                die.faces()
            ));
        }
    }
    if let Some(e) = term.explode {
        let exploding = (1..=die.faces())
            .filter(|&f| explodes_on(term, die.value(f)))
            .count() as u32;
        if exploding == 0 {
            return Err(format!(
                "the explosion never happens: no face of a {name} ({} to {}) matches",
                die.range().0,
                die.range().1
            ));
        }
        if exploding == die.faces() {
            return Err(format!(
                "a {name} that explodes on every face would explode for ever"
            ));
        }
        if e.kind == ExplodeKind::Explode && term.keep.is_some() {
            return Err(
                "keep or drop with `!`, whose explosions are dice of their own, is not \
                 supported: use `!!` (compounding), where a die and its explosions are one die"
                    .to_owned(),
            );
        }
    }
    if let Some(k) = term.keep
        && k.n > term.count
    {
        return Err(format!(
            "cannot keep or drop {} of {} dice",
            k.n, term.count
        ));
    }
    if let Some(k) = term.keep
        && k.kept(term.count).0 == 0
    {
        return Err(format!(
            "keeps none of the {} dice: the result would always be 0",
            term.count
        ));
    }
    // A die's value is one of its faces unless explosions add into it (`!!`, `!p`).
    let one_face = term.explode.is_none_or(|e| e.kind == ExplodeKind::Explode);
    for (what, prefix, cmp) in [
        ("success", "", term.success),
        ("failure", "f", term.failure),
    ] {
        if let Some(c) = cmp
            && one_face
            && faces_matching(die, c) == 0
        {
            return Err(format!(
                "the {what} count `{prefix}{c}` never counts: no face of a {name} ({} to {}) matches",
                die.range().0,
                die.range().1
            ));
        }
    }
    if term.failure.is_some() && term.success.is_none() {
        return Err(
            "a failure count (`f`) takes away from successes: add a success count such as >=5"
                .to_owned(),
        );
    }
    Ok(())
}

/// Checks a So1um term's ranges and returns its dice.
fn check_game(game: &Game) -> Result<u32, String> {
    match *game {
        Game::Solum { dice, vs, gear } => {
            solum_expanded::Pool::new(u64::from(dice)).map_err(|e| e.to_string())?;
            if let Some(vs) = vs {
                solum_expanded::Difficulty::new(i64::from(vs)).map_err(|e| e.to_string())?;
            } else if gear {
                return Err(
                    "`gear` helps against a difficulty: write solum(N, vs D, gear)".to_owned(),
                );
            }
            Ok(dice)
        }
        Game::DieType { sides } => {
            if ![4, 6, 8, 10, 12].contains(&sides) {
                return Err(format!(
                    "d{sides} is not a die type: d4, d6, d8, d10 or d12"
                ));
            }
            Ok(1)
        }
        Game::Sol { dice, .. } => {
            if dice == 0 || dice > solum_sol::pool::MAX_DICE {
                return Err(format!(
                    "{dice} dice: a Sol test rolls 1 to {} dice",
                    solum_sol::pool::MAX_DICE
                ));
            }
            Ok(dice)
        }
        Game::Una { dice, flips } => {
            let (pos, neg) = if flips >= 0 {
                (i64::from(flips), 0)
            } else {
                (0, -i64::from(flips))
            };
            solum_soluna::TestSpec::new(i64::from(dice), pos, neg).map_err(|e| e.to_string())?;
            Ok(dice)
        }
    }
}
