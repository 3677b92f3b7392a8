//! The parser (winnow). The grammar is in `docs/notation.md`; every node keeps its span.
//!
//! Limits on the text (length, nesting) are checked before parsing; the terms' ranges
//! (dice, sides, keep counts) are checked by [`crate::validate`] right after.

use winnow::ascii::{digit1, space0};
use winnow::combinator::{alt, cut_err, fail, opt, peek};
use winnow::error::{ErrMode, ModalResult, StrContext, StrContextValue};
use winnow::prelude::*;
use winnow::token::{any, literal, take_while};

use crate::ast::{
    BinOp, Cmp, CmpOp, DiceTerm, Die, Explode, ExplodeKind, Expr, ExprKind, Func, Game, Keep,
    KeepKind, Reroll, SolEdge, Span,
};
use crate::error::NotationError;
use crate::limits::{MAX_DEPTH, MAX_LABEL, MAX_LEN, MAX_NUMBER};

type Input<'a> = &'a str;

/// Parses an expression. Length and nesting are checked first; the message of an error says
/// what was expected at the place its span points to.
pub fn parse(text: &str) -> Result<Expr, NotationError> {
    if text.len() > MAX_LEN {
        return Err(NotationError::limit(
            format!(
                "the expression is {} bytes long: at most {MAX_LEN}",
                text.len()
            ),
            None,
        ));
    }
    check_depth(text)?;
    let full = text.len();
    let mut parser = |i: &mut Input<'_>| -> ModalResult<Expr> {
        let _ = space0.parse_next(i)?;
        let e = expr(full, i)?;
        let _ = space0.parse_next(i)?;
        Ok(e)
    };
    let expr = parser.parse(text).map_err(|e| {
        let offset = e.offset();
        let expected: Vec<String> = e
            .inner()
            .context()
            .filter_map(|c| match c {
                StrContext::Expected(StrContextValue::Description(d)) => Some((*d).to_owned()),
                StrContext::Expected(StrContextValue::StringLiteral(s)) => Some(format!("`{s}`")),
                StrContext::Expected(StrContextValue::CharLiteral(c)) => Some(format!("`{c}`")),
                _ => None,
            })
            .collect();
        let found = text[offset..]
            .chars()
            .next()
            .map_or("the end".to_owned(), |c| format!("`{c}`"));
        let message = if expected.is_empty() {
            if matches!(text[offset..].chars().next(), Some('>' | '<' | '=')) {
                format!(
                    "unexpected {found}: a success count is part of the dice term, with no \
                     space (4d6>=5)"
                )
            } else if offset < text.len() {
                format!(
                    "unexpected {found}: expected an operator (+ - * /), a label [..] or the end"
                )
            } else {
                "unexpected end of the expression".to_owned()
            }
        } else {
            format!("expected {}, found {found}", expected.join(" or "))
        };
        let end = text[offset..]
            .chars()
            .next()
            .map_or(offset, |c| offset + c.len_utf8());
        NotationError::syntax(message, offset, end)
    })?;
    crate::validate::validate(&expr)?;
    Ok(expr)
}

/// Refuses nesting deeper than [`MAX_DEPTH`] before any parsing, so the recursive parser
/// never goes deep.
fn check_depth(text: &str) -> Result<(), NotationError> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(NotationError::limit(
                        format!("parentheses nested more than {MAX_DEPTH} deep"),
                        Some(Span {
                            start: i,
                            end: i + 1,
                        }),
                    ));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn expected(what: &'static str) -> StrContext {
    StrContext::Expected(StrContextValue::Description(what))
}

/// A hard error at the current place: `what` was expected.
fn fail_expected<T>(i: &mut Input<'_>, what: &'static str) -> ModalResult<T> {
    cut_err(fail).context(expected(what)).parse_next(i)
}

fn pos(full: usize, i: &Input<'_>) -> usize {
    full - i.len()
}

fn span(start: usize, full: usize, i: &Input<'_>) -> Span {
    Span {
        start,
        end: pos(full, i),
    }
}

fn expr(full: usize, i: &mut Input<'_>) -> ModalResult<Expr> {
    let start = pos(full, i);
    let mut left = product(full, i)?;
    loop {
        let save = *i;
        let _ = space0.parse_next(i)?;
        let op = match opt(alt(('+'.value(BinOp::Add), '-'.value(BinOp::Sub)))).parse_next(i)? {
            Some(op) => op,
            None => {
                *i = save;
                return Ok(left);
            }
        };
        let _ = space0.parse_next(i)?;
        let right = product(full, i)?;
        left = Expr {
            kind: ExprKind::Bin(op, Box::new(left), Box::new(right)),
            span: span(start, full, i),
        };
    }
}

fn product(full: usize, i: &mut Input<'_>) -> ModalResult<Expr> {
    let start = pos(full, i);
    let mut left = factor(full, i)?;
    loop {
        let save = *i;
        let _ = space0.parse_next(i)?;
        let op = match opt(alt(('*'.value(BinOp::Mul), '/'.value(BinOp::Div)))).parse_next(i)? {
            Some(op) => op,
            None => {
                *i = save;
                return Ok(left);
            }
        };
        let _ = space0.parse_next(i)?;
        let right = factor(full, i)?;
        left = Expr {
            kind: ExprKind::Bin(op, Box::new(left), Box::new(right)),
            span: span(start, full, i),
        };
    }
}

/// Unary minus, read in a loop (not by recursion): `----1` cannot go deep.
fn factor(full: usize, i: &mut Input<'_>) -> ModalResult<Expr> {
    let mut starts = Vec::new();
    loop {
        let start = pos(full, i);
        if opt('-').parse_next(i)?.is_some() {
            starts.push(start);
            let _ = space0.parse_next(i)?;
        } else {
            break;
        }
    }
    let mut e = postfix(full, i)?;
    while let Some(start) = starts.pop() {
        e = Expr {
            kind: ExprKind::Neg(Box::new(e)),
            span: span(start, full, i),
        };
    }
    Ok(e)
}

fn postfix(full: usize, i: &mut Input<'_>) -> ModalResult<Expr> {
    let start = pos(full, i);
    let e = atom(full, i)?;
    let save = *i;
    let _ = space0.parse_next(i)?;
    if opt('[').parse_next(i)?.is_none() {
        *i = save;
        return Ok(e);
    }
    let label_start = *i;
    let text = take_while(0.., |c: char| c != ']' && c != '[' && !c.is_control()).parse_next(i)?;
    let _ = cut_err(']')
        .context(expected("`]` closing the label"))
        .parse_next(i)?;
    let label = text.trim();
    if label.is_empty() || label.chars().count() > MAX_LABEL {
        // Point back at the label itself.
        *i = label_start;
        return fail_expected(i, "a label of 1 to 60 characters");
    }
    Ok(Expr {
        kind: ExprKind::Label(Box::new(e), label.to_owned()),
        span: span(start, full, i),
    })
}

fn atom(full: usize, i: &mut Input<'_>) -> ModalResult<Expr> {
    let start = pos(full, i);
    if opt('(').parse_next(i)?.is_some() {
        let _ = space0.parse_next(i)?;
        let mut e = expr(full, i)?;
        let _ = space0.parse_next(i)?;
        let _ = cut_err(')')
            .context(expected("`)`"))
            .context(expected("an operator"))
            .parse_next(i)?;
        // The span of a parenthesised expression includes its parentheses.
        e.span = span(start, full, i);
        return Ok(e);
    }
    let save = *i;
    let name: &str =
        take_while(0.., |c: char| c.is_ascii_alphanumeric() || c == '%').parse_next(i)?;
    let mut after = *i;
    let _ = space0.parse_next(&mut after)?;
    if after.starts_with('(') && !name.is_empty() {
        *i = after;
        return call(full, start, save, name, i);
    }
    if matches!(name, "solum" | "so1um" | "sol" | "una")
        && after.len() < i.len()
        && after.starts_with(|c: char| c.is_ascii_digit())
    {
        *i = after;
        return bare_game(full, start, name, i);
    }
    // Not a call: read it again as dice or a number.
    *i = save;
    dice_or_number(full, start, i)
}

fn int(i: &mut Input<'_>) -> ModalResult<i64> {
    let digits: &str = digit1.parse_next(i)?;
    match digits.parse::<i64>() {
        Ok(n) if n <= MAX_NUMBER => Ok(n),
        _ => {
            // Point at the number itself.
            *i = digits;
            fail_expected(i, "a number up to 1000000")
        }
    }
}

fn signed_int(i: &mut Input<'_>) -> ModalResult<i64> {
    let sign = opt(alt(('-', '+'))).parse_next(i)?;
    let n = cut_err(int).parse_next(i)?;
    Ok(if sign == Some('-') { -n } else { n })
}

fn count_u32(i: &mut Input<'_>) -> ModalResult<u32> {
    int.map(|n| n as u32).parse_next(i)
}

fn cmp_op(i: &mut Input<'_>) -> ModalResult<CmpOp> {
    alt((
        ">=".value(CmpOp::Ge),
        "<=".value(CmpOp::Le),
        '>'.value(CmpOp::Gt),
        '<'.value(CmpOp::Lt),
        '='.value(CmpOp::Eq),
    ))
    .parse_next(i)
}

/// A comparison point: an operator and a number (`>=5`, `=-1`), or a bare number without
/// a sign (`=`), so that `3d6!+2` explodes on the highest face and adds 2.
fn cmp(i: &mut Input<'_>) -> ModalResult<Cmp> {
    match opt(cmp_op).parse_next(i)? {
        Some(op) => {
            let value = cut_err(signed_int)
                .context(expected("a number after the comparison"))
                .parse_next(i)?;
            Ok(Cmp { op, value })
        }
        None => {
            let value = int
                .context(expected(
                    "a comparison point such as 1, >5, >=5, <3, <=2 or =6",
                ))
                .parse_next(i)?;
            Ok(Cmp {
                op: CmpOp::Eq,
                value,
            })
        }
    }
}

/// A comparison point that must be there.
fn cmp_required(i: &mut Input<'_>) -> ModalResult<Cmp> {
    cut_err(cmp).parse_next(i)
}

fn dice_or_number(full: usize, start: usize, i: &mut Input<'_>) -> ModalResult<Expr> {
    let count = opt(int).parse_next(i)?;
    if opt('d').parse_next(i)?.is_none() {
        return match count {
            Some(n) => Ok(Expr {
                kind: ExprKind::Num(n),
                span: span(start, full, i),
            }),
            None => fail_expected(
                i,
                "a number, dice (2d6, d%, 4dF), `(`, `-` or a function (min, max, solum, dt, sol, una)",
            ),
        };
    }
    let die = alt((
        '%'.value(Die::Sides(100)),
        'F'.value(Die::Fudge),
        int.map(|n| Die::Sides(n as u32)),
    ))
    .context(expected("the sides of the die after `d`: a number, % or F"))
    .parse_next(i);
    let die = match die {
        Ok(d) => d,
        Err(ErrMode::Backtrack(e)) => return Err(ErrMode::Cut(e)),
        Err(e) => return Err(e),
    };
    let mut term = DiceTerm::plain(count.unwrap_or(1) as u32, die);
    modifiers(&mut term, i)?;
    // `!6` on a d6 is `!`: one tree for one meaning, so printing and parsing agree.
    if let Some(e) = &mut term.explode
        && e.when
            == Some(Cmp {
                op: CmpOp::Eq,
                value: term.die.range().1,
            })
    {
        e.when = None;
    }
    Ok(Expr {
        kind: ExprKind::Dice(term),
        span: span(start, full, i),
    })
}

/// Sets a modifier that may appear once; a second one is an error pointing at it.
fn once<'a, T>(
    slot: &mut Option<T>,
    value: T,
    before: Input<'a>,
    i: &mut Input<'a>,
    what: &'static str,
) -> ModalResult<()> {
    if slot.is_some() {
        *i = before;
        return fail_expected(i, what);
    }
    *slot = Some(value);
    Ok(())
}

fn modifiers(term: &mut DiceTerm, i: &mut Input<'_>) -> ModalResult<()> {
    loop {
        let before = *i;
        let Some(c) = opt(peek(any)).parse_next(i)? else {
            return Ok(());
        };
        match c {
            'r' => {
                let once_only = alt(("ro".value(true), "r".value(false))).parse_next(i)?;
                let when = cmp_required(i)?;
                let value = Reroll {
                    once: once_only,
                    when,
                };
                once(
                    &mut term.reroll,
                    value,
                    before,
                    i,
                    "one reroll (`r`, `ro`) per dice term",
                )?;
            }
            '!' => {
                let kind = alt((
                    "!!".value(ExplodeKind::Compound),
                    "!p".value(ExplodeKind::Penetrate),
                    "!".value(ExplodeKind::Explode),
                ))
                .parse_next(i)?;
                let when = opt(cmp).parse_next(i)?;
                once(
                    &mut term.explode,
                    Explode { kind, when },
                    before,
                    i,
                    "one explosion (`!`, `!!`, `!p`) per dice term",
                )?;
            }
            'k' | 'd' => {
                let kind = alt((
                    "kh".value(KeepKind::KeepHighest),
                    "kl".value(KeepKind::KeepLowest),
                    "dh".value(KeepKind::DropHighest),
                    "dl".value(KeepKind::DropLowest),
                    "k".value(KeepKind::KeepHighest),
                    "d".value(KeepKind::DropLowest),
                ))
                .parse_next(i)?;
                let n = cut_err(count_u32)
                    .context(expected("how many dice to keep or drop"))
                    .parse_next(i)?;
                once(
                    &mut term.keep,
                    Keep { kind, n },
                    before,
                    i,
                    "one keep or drop (`kh`, `kl`, `dh`, `dl`) per dice term",
                )?;
            }
            '>' | '<' | '=' => {
                let op = cmp_op(i)?;
                let value = cut_err(signed_int)
                    .context(expected("the number a success must reach"))
                    .parse_next(i)?;
                once(
                    &mut term.success,
                    Cmp { op, value },
                    before,
                    i,
                    "one success count (`>=5`) per dice term",
                )?;
            }
            'f' => {
                let _ = 'f'.parse_next(i)?;
                let when = cmp_required(i)?;
                once(
                    &mut term.failure,
                    when,
                    before,
                    i,
                    "one failure count (`f1`) per dice term",
                )?;
            }
            c if c.is_ascii_alphanumeric() => {
                return fail_expected(
                    i,
                    "a dice modifier: r, ro, !, !!, !p, kh, kl, dh, dl, >=N, fN",
                );
            }
            _ => return Ok(()),
        }
    }
}

fn comma(i: &mut Input<'_>) -> ModalResult<bool> {
    let save = *i;
    let _ = space0.parse_next(i)?;
    if opt(',').parse_next(i)?.is_some() {
        let _ = space0.parse_next(i)?;
        Ok(true)
    } else {
        *i = save;
        Ok(false)
    }
}

fn close(i: &mut Input<'_>) -> ModalResult<()> {
    let _ = space0.parse_next(i)?;
    let _ = cut_err(')').context(expected("`)` or `,`")).parse_next(i)?;
    Ok(())
}

/// A pool of six-sided dice: `3` or `3d6`.
fn pool(i: &mut Input<'_>) -> ModalResult<u32> {
    let n = cut_err(count_u32)
        .context(expected("the number of dice in the pool"))
        .parse_next(i)?;
    let _ = opt("d6").parse_next(i)?;
    Ok(n)
}

fn call<'a>(
    full: usize,
    start: usize,
    at_name: Input<'a>,
    name: &str,
    i: &mut Input<'a>,
) -> ModalResult<Expr> {
    let _ = '('.parse_next(i)?;
    let _ = space0.parse_next(i)?;
    let kind = match name {
        "min" | "max" => {
            let func = if name == "min" { Func::Min } else { Func::Max };
            let mut args = vec![expr(full, i)?];
            while comma(i)? {
                args.push(expr(full, i)?);
            }
            close(i)?;
            ExprKind::Call(func, args)
        }
        "solum" | "so1um" => {
            let dice = pool(i)?;
            let mut vs = None;
            let mut gear = false;
            loop {
                let had_comma = comma(i)?;
                let save = *i;
                let _ = space0.parse_next(i)?;
                if vs.is_none() && opt(literal("vs")).parse_next(i)?.is_some() {
                    let _ = space0.parse_next(i)?;
                    vs = Some(
                        cut_err(count_u32)
                            .context(expected("a difficulty after `vs`"))
                            .parse_next(i)?,
                    );
                } else if !gear && opt(literal("gear")).parse_next(i)?.is_some() {
                    gear = true;
                } else if had_comma {
                    return fail_expected(i, "`vs N` or `gear`");
                } else {
                    *i = save;
                    break;
                }
            }
            close(i)?;
            ExprKind::Game(Game::Solum { dice, vs, gear })
        }
        "dt" => {
            let _ = cut_err('d')
                .context(expected("a die type: d4, d6, d8, d10 or d12"))
                .parse_next(i)?;
            let sides = cut_err(count_u32)
                .context(expected("a die type: d4, d6, d8, d10 or d12"))
                .parse_next(i)?;
            close(i)?;
            ExprKind::Game(Game::DieType { sides })
        }
        "sol" => {
            let dice = pool(i)?;
            let edge = if comma(i)? {
                Some(
                    cut_err(alt((
                        "push".value(SolEdge::Push),
                        "second".value(SolEdge::Second),
                    )))
                    .context(expected("an Edge: push or second"))
                    .parse_next(i)?,
                )
            } else {
                None
            };
            close(i)?;
            ExprKind::Game(Game::Sol { dice, edge })
        }
        "una" => {
            let dice = pool(i)?;
            let flips = if comma(i)? {
                cut_err(signed_int)
                    .context(expected("net flips such as +2 or -1"))
                    .parse_next(i)?
            } else {
                0
            };
            close(i)?;
            ExprKind::Game(Game::Una {
                dice,
                flips: flips as i32,
            })
        }
        _ => {
            // Point at the name.
            *i = at_name;
            return fail_expected(i, "a function: min, max, solum (so1um), dt, sol or una");
        }
    };
    Ok(Expr {
        kind,
        span: span(start, full, i),
    })
}

/// The So1um terms written as players say them, without parentheses: `so1um 3d6 vs 4`,
/// `solum 3 vs 7 gear`, `sol 8`, `sol 8 push`, `una 5 +2` (the sign touching the number:
/// `una 5 + 2` adds 2). They parse to the same terms as the call forms.
fn bare_game(full: usize, start: usize, name: &str, i: &mut Input<'_>) -> ModalResult<Expr> {
    let dice = pool(i)?;
    // A word after spaces, or nothing (the input is left where it was).
    fn word<'a>(i: &mut Input<'a>, w: &'static str) -> ModalResult<bool> {
        let save = *i;
        let _ = space0.parse_next(i)?;
        let rest: &str = i;
        // `starts_with` first, so the slice below is on a character boundary.
        if rest.starts_with(w)
            && rest[w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_ascii_alphanumeric())
        {
            *i = &rest[w.len()..];
            Ok(true)
        } else {
            *i = save;
            Ok(false)
        }
    }
    let game = match name {
        "solum" | "so1um" => {
            let vs = if word(i, "vs")? {
                let _ = space0.parse_next(i)?;
                Some(
                    cut_err(count_u32)
                        .context(expected("a difficulty after `vs`"))
                        .parse_next(i)?,
                )
            } else {
                None
            };
            let gear = word(i, "gear")?;
            Game::Solum { dice, vs, gear }
        }
        "sol" => {
            let edge = if word(i, "push")? {
                Some(SolEdge::Push)
            } else if word(i, "second")? {
                Some(SolEdge::Second)
            } else {
                None
            };
            Game::Sol { dice, edge }
        }
        _ => {
            let save = *i;
            let _ = space0.parse_next(i)?;
            let rest: &str = i;
            let mut chars = rest.chars();
            let signed = matches!(chars.next(), Some('+' | '-'))
                && chars.next().is_some_and(|c| c.is_ascii_digit());
            let flips = if signed {
                signed_int(i)?
            } else {
                *i = save;
                0
            };
            Game::Una {
                dice,
                flips: flips as i32,
            }
        }
    };
    Ok(Expr {
        kind: ExprKind::Game(game),
        span: span(start, full, i),
    })
}
