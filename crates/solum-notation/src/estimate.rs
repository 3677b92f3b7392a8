//! Bounds on the size of an expression's exact odds, computed from the tree alone before
//! any work starts: the most values each step can have and the steps it can take.

use crate::ast::{BinOp, Die, Expr, ExprKind, Game};
use crate::error::NotationError;
use crate::limits::{MAX_EXPLOSIONS, MAX_SUPPORT, MAX_WORK};

/// What a subexpression can reach: its range, a bound on its distinct values, and the work
/// to compute it.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    /// Lowest value.
    pub lo: i128,
    /// Highest value.
    pub hi: i128,
    /// At most this many distinct values.
    pub support: u128,
    /// Steps to compute it, at most about this many.
    pub work: u128,
}

/// Refuses, before any work, an expression whose exact odds would pass [`MAX_SUPPORT`]
/// values or [`MAX_WORK`] steps.
pub fn check(expr: &Expr) -> Result<Bound, NotationError> {
    let b = bound(expr)?;
    if b.work > u128::from(MAX_WORK) {
        return Err(NotationError::limit(
            format!(
                "exact odds of this expression would take about {} steps: at most {MAX_WORK} \
                 (roll it instead, or make it smaller)",
                b.work
            ),
            Some(expr.span),
        ));
    }
    Ok(b)
}

fn refuse_support(expr: &Expr, support: u128) -> NotationError {
    NotationError::limit(
        format!(
            "exact odds of this term could have {support} different values: at most {MAX_SUPPORT}"
        ),
        Some(expr.span),
    )
}

fn bound(expr: &Expr) -> Result<Bound, NotationError> {
    let b = match &expr.kind {
        ExprKind::Num(n) => Bound {
            lo: i128::from(*n),
            hi: i128::from(*n),
            support: 1,
            work: 0,
        },
        ExprKind::Dice(term) => {
            let (flo, fhi) = term.die.range();
            let (flo, fhi) = (i128::from(flo), i128::from(fhi));
            let faces = u128::from(term.die.faces());
            let chain = if term.explode.is_some() {
                i128::from(MAX_EXPLOSIONS) + 1
            } else {
                1
            };
            // One die's amount.
            let (lo, hi) = if term.success.is_some() {
                (-chain, chain)
            } else {
                let lo = if flo < 0 { flo * chain } else { flo };
                (lo, fhi * chain)
            };
            let s1 = (hi - lo + 1) as u128;
            let n = u128::from(term.count);
            let die_work = faces * (chain as u128) * s1;
            let (sum_lo, sum_hi, support, work) = match term.keep {
                None => (
                    lo * n as i128,
                    hi * n as i128,
                    n * (s1 - 1) + 1,
                    n * n / 2 * s1 * s1 + s1 * s1,
                ),
                Some(k) => {
                    let (kept, _) = k.kept(term.count);
                    let kept = u128::from(kept);
                    let support = kept * (s1 - 1) + 1;
                    (
                        lo * kept as i128,
                        hi * kept as i128,
                        support,
                        s1 * (n + 1) * (n + 1) * support,
                    )
                }
            };
            let _ = Die::Fudge;
            Bound {
                lo: sum_lo,
                hi: sum_hi,
                support,
                work: die_work + work,
            }
        }
        ExprKind::Neg(e) => {
            let b = bound(e)?;
            Bound {
                lo: -b.hi,
                hi: -b.lo,
                ..b
            }
        }
        ExprKind::Label(e, _) => bound(e)?,
        ExprKind::Bin(op, a, b) => {
            let (a, b) = (bound(a)?, bound(b)?);
            let corners = match op {
                BinOp::Add => [a.lo + b.lo, a.hi + b.hi, a.lo + b.lo, a.hi + b.hi],
                BinOp::Sub => [a.lo - b.hi, a.hi - b.lo, a.lo - b.hi, a.hi - b.lo],
                BinOp::Mul => [
                    a.lo.saturating_mul(b.lo),
                    a.lo.saturating_mul(b.hi),
                    a.hi.saturating_mul(b.lo),
                    a.hi.saturating_mul(b.hi),
                ],
                // Dividing never leaves the dividend's range in size.
                BinOp::Div => [a.lo.min(-a.hi), a.hi.max(-a.lo), a.lo, a.hi],
            };
            let lo = *corners.iter().min().expect("four corners");
            let hi = *corners.iter().max().expect("four corners");
            let pairs = a.support.saturating_mul(b.support);
            let width = (hi - lo + 1).max(1) as u128;
            Bound {
                lo,
                hi,
                support: pairs.min(width),
                work: a.work.saturating_add(b.work).saturating_add(pairs),
            }
        }
        ExprKind::Call(_, args) => {
            let mut acc = bound(&args[0])?;
            for a in &args[1..] {
                let b = bound(a)?;
                let pairs = acc.support.saturating_mul(b.support);
                acc = Bound {
                    lo: acc.lo.min(b.lo),
                    hi: acc.hi.max(b.hi),
                    support: acc.support.saturating_add(b.support),
                    work: acc.work.saturating_add(b.work).saturating_add(pairs),
                };
            }
            acc
        }
        ExprKind::Game(g) => {
            let (lo, hi, support) = match *g {
                Game::Solum { vs: Some(_), .. } => (0, 1, 2),
                // 1-5, then 6 + chains of 16 levels.
                Game::Solum { .. } => (1, 6 + 6 * 16, 85),
                // The die-type tables stop below 1e-12, well within 400 values.
                Game::DieType { .. } => (1, 400, 400),
                Game::Sol { dice, .. } => (0, i128::from(dice), u128::from(dice) + 1),
                Game::Una { dice, .. } => (1, i128::from(dice), u128::from(dice)),
            };
            Bound {
                lo,
                hi,
                support,
                work: 1000 + support,
            }
        }
    };
    if b.support > u128::from(MAX_SUPPORT) {
        return Err(refuse_support(expr, b.support));
    }
    Ok(b)
}
