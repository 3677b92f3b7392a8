//! The parser: error messages with carets, print → parse round trips, and the limits
//! refused before any work.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use proptest::prelude::*;
use solum_dice::SeededDice;
use solum_notation::ast::{
    BinOp, Cmp, CmpOp, DiceTerm, Die, Explode, ExplodeKind, Expr, ExprKind, Func, Game, Keep,
    KeepKind, Reroll, SolEdge,
};
use solum_notation::{NotationError, distribution, parse, roll};

fn error(text: &str) -> String {
    parse(text).unwrap_err().render(text)
}

#[test]
fn syntax_errors_point_at_the_column() {
    let cases = [
        "4d6kh",
        "2d6 +",
        "3d",
        "(2d6 + 3",
        "2d6 ) ",
        "4d6x",
        "4d6kh3kl1",
        "d6r",
        "2d6 [fire",
        "2d6 []",
        "sol(8, edge)",
        "solum(3, vs)",
        "foo(3)",
        "dt(8)",
        "4d6 >= 5",
        "99999999d6",
        "d6 + é",
    ];
    let text: Vec<String> = cases
        .iter()
        .map(|c| format!("{c}\n{}\n", error(c)))
        .collect();
    insta::assert_snapshot!("syntax_errors", text.join("\n"));
}

#[test]
fn range_errors_point_at_the_term() {
    let cases = [
        "0d6",
        "2d0",
        "d1001",
        "1 + 1000000d1000000",
        "d1!",
        "2d6!>=1",
        "d6r<7",
        "4d6!kh3",
        "3d6kh4",
        "3d6f1",
        "solum(0)",
        "solum(3, vs 0)",
        "solum(3, gear)",
        "dt(d7)",
        "sol(0)",
        "una(1001)",
        "600d6 + 600d6",
    ];
    let text: Vec<String> = cases
        .iter()
        .map(|c| format!("{c}\n{}\n", error(c)))
        .collect();
    insta::assert_snapshot!("range_errors", text.join("\n"));
}

#[test]
fn evaluation_errors_point_at_the_operation() {
    let text = "d6 / (d6 - d6)";
    let e = parse(text).unwrap();
    let err = distribution(&e).unwrap_err();
    // The exact odds meet the zero at once; a roll only when the dice make one.
    assert_eq!(
        err.render(text),
        "division by zero\n  d6 / (d6 - d6)\n  ^^^^^^^^^^^^^^"
    );
    let err = roll(&e, &mut solum_dice::TypedDice::new([3, 2, 2])).unwrap_err();
    assert!(matches!(err, NotationError::Eval { .. }), "{err:?}");
}

/// Each limit is refused, and quickly: the check comes before the work.
#[test]
fn limits_are_refused_quickly() {
    let deep = format!("{}1{}", "(".repeat(40), ")".repeat(40));
    let long = "1+".repeat(600) + "1";
    let minus = "-".repeat(990) + "1";
    let cases: Vec<(String, &str)> = vec![
        ("1000000d1000000".into(), "a term rolls 1 to 1000 dice"),
        ("d1!".into(), "explode for ever"),
        ("d6r<7".into(), "never stop"),
        // (999/1000)^201 is about 0.82 and (9/10)^201 about 6e-10: both over 1e-12.
        ("d1000r<1000".into(), "could need more than 200 rerolls"),
        ("d10r<10".into(), "could need more than 200 rerolls"),
        (deep, "nested more than 32 deep"),
        (long, "at most 1000"),
        ("d1000 * d1000".into(), "different values"),
        ("1000d6!".into(), "different values"),
        ("200d6!".into(), "steps"),
        ("1000d1000".into(), "different values"),
        ("1000d20".into(), "steps"),
        ("100d20kh50".into(), "steps"),
        ("d6 * 1000000".into(), "numbers apart"),
        ("500d100kh250".into(), "steps"),
        ("d1000 * d1000 * d1000 * d1000".into(), "different values"),
        ("una(41)".into(), "exact odds of una go up to 40 dice"),
    ];
    for (text, needle) in &cases {
        let err = parse(text).and_then(|e| distribution(&e)).unwrap_err();
        assert!(
            err.to_string().contains(needle),
            "{text}: {err} (expected {needle})"
        );
    }
    // A reroll that stops in time is allowed, and its roll and odds agree: (16/20)^201 is
    // about 3e-20. d20r<17 keeps 17 to 20, each with a quarter of the chance.
    let e = parse("d20r<17").unwrap();
    let d = distribution(&e).unwrap();
    assert_eq!(d.outcomes().len(), 4);
    for seed in 0..200 {
        let total = roll(&e, &mut SeededDice::new(seed)).unwrap().total;
        assert!((17..=20).contains(&total), "seed {seed}: {total}");
    }
    // A long chain of minus signs parses without recursion and evaluates.
    let e = parse(&minus).unwrap();
    assert_eq!(roll(&e, &mut SeededDice::new(1)).unwrap().total, 1);
    // The largest rolls end too (how fast: the benchmarks).
    let e = parse("1000d1000!>=2").unwrap();
    let r = roll(&e, &mut SeededDice::new(5)).unwrap();
    assert_eq!(r.terms[0].dice.len(), 1000);
}

/// The exact odds of the largest allowed sums are computed and right.
#[test]
fn big_but_allowed_odds_finish() {
    let d = distribution(&parse("300d6").unwrap()).unwrap();
    assert_eq!(d.outcomes().len(), 1501);
    assert!((d.mean() - 1050.0).abs() < 1e-6);
    // The largest the engine allows, read as front ends read them (no fraction reduced):
    // mean and spread of n dice are n times one die's (3.5 and 35/12 for a d6).
    for (text, values, mean, var) in [
        ("1000d6", 5001, 3500.0, 1000.0 * 35.0 / 12.0),
        ("100d100", 9901, 5050.0, 100.0 * 9999.0 / 12.0),
    ] {
        let o = solum_notation::odds(&parse(text).unwrap()).unwrap();
        assert_eq!(o.len(), values, "{text}");
        assert!((o.mean() - mean).abs() < 1e-6, "{text}: {}", o.mean());
        assert!((o.sd() - f64::sqrt(var)).abs() < 1e-6, "{text}: {}", o.sd());
    }
}

#[test]
fn spans_cover_the_terms() {
    let e = parse("2d6 + 3 [fire]").unwrap();
    let ExprKind::Bin(BinOp::Add, a, b) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!((a.span.start, a.span.end), (0, 3));
    assert_eq!((b.span.start, b.span.end), (6, 14));
    assert_eq!((e.span.start, e.span.end), (0, 14));
}

#[test]
fn roll20_and_foundry_spellings() {
    let same = |a: &str, b: &str| assert_eq!(parse(a).unwrap(), parse(b).unwrap(), "{a} vs {b}");
    same("4d6k3", "4d6kh3");
    same("4d6d1", "4d6dl1");
    same("d%", "1d100");
    same("d6!6", "d6!");
    same("so1um(3d6 vs 4)", "solum(3, vs 4)");
    // The So1um terms as players say them.
    same("so1um 3d6 vs 4", "solum(3, vs 4)");
    same("solum 3 vs 7 gear + 1", "solum(3, vs 7, gear) + 1");
    same("solum 2", "solum(2)");
    same("sol 8", "sol(8)");
    same("sol 8 second * 2", "sol(8, second) * 2");
    same("una 5 +2", "una(5, +2)");
    same("una 5 -1", "una(5, -1)");
    same("una 5 + 2", "una(5) + 2");
    same("2 * una 5", "2 * una(5)");
    // Multi-byte text after a bare term is an error, never a panic.
    assert!(parse("solum 3 \u{4e2d}").is_err());
    assert!(parse("sol 3 \u{4e2d}\u{4e2d}").is_err());
    same("2d6[fire]", "2d6 [fire]");
    same("3d6r1!", "3d6!r1");
}

fn cmp() -> impl Strategy<Value = Cmp> {
    (
        prop_oneof![
            Just(CmpOp::Eq),
            Just(CmpOp::Gt),
            Just(CmpOp::Ge),
            Just(CmpOp::Lt),
            Just(CmpOp::Le)
        ],
        -3i64..30,
    )
        .prop_map(|(op, value)| Cmp { op, value })
}

fn dice_term() -> impl Strategy<Value = DiceTerm> {
    (
        1u32..20,
        prop_oneof![(1u32..=100).prop_map(Die::Sides), Just(Die::Fudge)],
        proptest::option::of((any::<bool>(), cmp()).prop_map(|(once, when)| Reroll { once, when })),
        proptest::option::of(
            (
                prop_oneof![
                    Just(ExplodeKind::Explode),
                    Just(ExplodeKind::Compound),
                    Just(ExplodeKind::Penetrate)
                ],
                proptest::option::of(cmp()),
            )
                .prop_map(|(kind, when)| Explode { kind, when }),
        ),
        proptest::option::of(
            (
                prop_oneof![
                    Just(KeepKind::KeepHighest),
                    Just(KeepKind::KeepLowest),
                    Just(KeepKind::DropHighest),
                    Just(KeepKind::DropLowest)
                ],
                0u32..20,
            )
                .prop_map(|(kind, n)| Keep { kind, n }),
        ),
        proptest::option::of(cmp()),
        proptest::option::of(cmp()),
    )
        .prop_map(
            |(count, die, reroll, mut explode, keep, success, failure)| {
                // The parser writes an explosion at the highest face as none: one tree per
                // meaning.
                if let Some(e) = &mut explode
                    && e.when
                        == Some(Cmp {
                            op: CmpOp::Eq,
                            value: die.range().1,
                        })
                {
                    e.when = None;
                }
                DiceTerm {
                    count,
                    die,
                    reroll,
                    explode,
                    keep,
                    success,
                    failure: if success.is_some() { failure } else { None },
                }
            },
        )
}

fn game() -> impl Strategy<Value = Game> {
    prop_oneof![
        (1u32..10, proptest::option::of(1u32..12), any::<bool>()).prop_map(|(dice, vs, gear)| {
            Game::Solum {
                dice,
                vs,
                gear: gear && vs.is_some(),
            }
        }),
        prop_oneof![Just(4u32), Just(6), Just(8), Just(10), Just(12)]
            .prop_map(|sides| Game::DieType { sides }),
        (
            1u32..10,
            proptest::option::of(prop_oneof![Just(SolEdge::Push), Just(SolEdge::Second)])
        )
            .prop_map(|(dice, edge)| Game::Sol { dice, edge }),
        (1u32..10, -5i32..5).prop_map(|(dice, flips)| Game::Una { dice, flips }),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0i64..1000).prop_map(|n| Expr::new(ExprKind::Num(n))),
        dice_term().prop_map(|d| Expr::new(ExprKind::Dice(d))),
        game().prop_map(|g| Expr::new(ExprKind::Game(g))),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                prop_oneof![
                    Just(BinOp::Add),
                    Just(BinOp::Sub),
                    Just(BinOp::Mul),
                    Just(BinOp::Div)
                ],
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| Expr::new(ExprKind::Bin(
                    op,
                    Box::new(a),
                    Box::new(b)
                ))),
            inner
                .clone()
                .prop_map(|e| Expr::new(ExprKind::Neg(Box::new(e)))),
            (inner.clone(), "[a-z][a-z ]{0,8}[a-z]")
                .prop_map(|(e, l)| Expr::new(ExprKind::Label(Box::new(e), l))),
            (
                prop_oneof![Just(Func::Min), Just(Func::Max)],
                proptest::collection::vec(inner, 1..4)
            )
                .prop_map(|(f, args)| Expr::new(ExprKind::Call(f, args))),
        ]
    })
}

/// Parsing without the range checks: the printer must round-trip any tree, valid or not.
fn parse_loose(text: &str) -> Result<Expr, NotationError> {
    match parse(text) {
        Err(NotationError::Syntax { .. }) | Err(NotationError::Limit { .. }) => {
            // A range error still parsed; compare by printing again.
            Err(parse(text).unwrap_err())
        }
        other => other,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// print → parse gives the same expression (for trees whose ranges are valid; others
    /// must fail with a range error, never a syntax error about the printer's output).
    #[test]
    fn printed_expressions_parse_back(e in expr()) {
        let text = e.to_string();
        match parse_loose(&text) {
            Ok(back) => prop_assert_eq!(back, e, "printed as {}", text),
            Err(err) => {
                let message = err.to_string();
                prop_assert!(
                    !message.starts_with("expected") && !message.starts_with("unexpected"),
                    "the printer wrote {} which does not parse: {}", text, message
                );
            }
        }
    }

    /// Nothing typed makes the parser panic, and an error always points inside the text.
    #[test]
    fn any_text_parses_or_errs(text in "[0-9dDkhlrofFp!<>=+*/() %,\\[\\]a-z\u{e9}\u{4e2d}-]{0,40}") {
        if let Err(e) = parse(&text)
            && let Some(span) = e.span()
        {
            prop_assert!(span.start <= text.len());
            let _ = e.render(&text);
        }
    }
}

/// Modifiers that contradict the dice they modify (issue 19): a keep that keeps nothing, a
/// reroll, explosion or count that no face can match. Each is refused at its dice term,
/// saying what is wrong; the faces come from the dice (a d6 is 1 to 6, a dF −1 to 1).
#[test]
fn contradictions_are_refused_at_their_term() {
    let cases = [
        ("1d6kh0", 0, 6, "keeps none of the 1 dice"),
        ("1 + 3d6kl0", 4, 10, "keeps none of the 3 dice"),
        ("3d6dh3", 0, 6, "keeps none of the 3 dice"),
        ("3d6d3", 0, 5, "keeps none of the 3 dice"),
        ("d6r>6", 0, 5, "never rerolls"),
        ("d6ro>6", 0, 6, "never rerolls"),
        ("2 * d6r<1", 4, 9, "never rerolls"),
        ("4dFr>1", 0, 6, "never rerolls"),
        ("3d6!>6", 0, 6, "explosion never happens"),
        ("3d6>6", 0, 5, "success count `>6` never counts"),
        ("3d6!>=6>6", 0, 9, "success count `>6` never counts"),
        ("8d10>=7f0", 0, 9, "failure count `f=0` never counts"),
    ];
    for (text, start, end, words) in cases {
        let e = parse(text).unwrap_err();
        let span = e.span().unwrap_or_else(|| panic!("{text}: no span"));
        assert_eq!((span.start, span.end), (start, end), "{text}: {e}");
        assert!(e.to_string().contains(words), "{text}: {e}");
    }
    // Their sound neighbours still parse: keeping every die, a reroll or explosion on a
    // face that exists, a compounding die whose total can pass its faces.
    for text in [
        "3d6kh3",
        "3d6dl0",
        "d6r6",
        "d6ro<2",
        "3d6!>5",
        "3d6!!>=6>6",
        "8d10>=7f1",
    ] {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// A range refused in a part of the expression names that part's own range and underlines
/// exactly it: `1d6*1000000` is 1000000 to 6000000 (by hand: 1·10^6 to 6·10^6, 5000001
/// numbers), refused before the next `*1000000` is reached.
#[test]
fn a_refused_range_is_the_underlined_parts_own() {
    let text = "1d6*1000000*1000000*1000000";
    let e = distribution(&parse(text).unwrap()).unwrap_err();
    let span = e.span().expect("a span");
    assert_eq!(&text[span.start..span.end], "1d6*1000000", "{e}");
    let message = e.to_string();
    assert!(
        message.contains("the underlined part spread from 1000000 to 6000000, 5000001 numbers"),
        "{message}"
    );
    // The whole expression, refused as a whole, is underlined whole.
    let text = "1d6*1000000";
    let e = distribution(&parse(text).unwrap()).unwrap_err();
    let span = e.span().expect("a span");
    assert_eq!((span.start, span.end), (0, text.len()), "{e}");
}
