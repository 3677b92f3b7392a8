//! The odds budget: what the issue found slow or too big is refused before any work; the
//! expressions of one command share one budget; the common queries of the docs stay
//! allowed. (That what is admitted stays within its estimate, counted: `budget_counted.rs`.)
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_notation::limits::{MAX_BYTES, MAX_WORK};
use solum_notation::{NotationError, Work, distribution_with, estimate, parse};

/// The estimate of `text`, when it is admitted.
fn admitted(text: &str) -> Option<estimate::Bound> {
    estimate::check(&parse(text).ok()?).ok()
}

#[test]
fn the_shapes_found_slow_are_refused_before_any_work() {
    let sixteen = vec!["dt(d12)"; 16].join(" + ");
    let sixteen_max = format!("max({})", vec!["dt(d12)"; 16].join(", "));
    for text in [
        "max(500d6,500d6)",
        "min(500d6,500d6)",
        "500d6/500d6",
        "500d6*500d6",
        "500d6*5-500d6*5",
        "max(100d100, 100d100)",
        "max(20d100, 20d100)",
        "500d6 + 500d6",
        sixteen.as_str(),
        sixteen_max.as_str(),
    ] {
        let expr = parse(text).unwrap();
        let mut work = Work::new();
        let err = distribution_with(&expr, &mut work).unwrap_err();
        assert!(
            matches!(err, NotationError::Limit { .. }),
            "{text}: {err:?}"
        );
        assert_eq!(work.spent(), 0, "{text}: refused before any work");
        let b = estimate::bound(&expr);
        assert!(
            b.as_ref().map_or(true, |b| b.work > u128::from(MAX_WORK)
                || b.bytes > u128::from(MAX_BYTES)),
            "{text}: {b:?}"
        );
    }
}

#[test]
fn one_command_has_one_budget() {
    // 1000d6 alone is allowed; two of them in one command pass the budget.
    let mut work = Work::new();
    let e = parse("1000d6").unwrap();
    distribution_with(&e, &mut work).unwrap();
    let err = distribution_with(&e, &mut work).unwrap_err().to_string();
    assert!(err.contains("in one command"), "{err}");
    // 200 copies of 100d100: refused long before the last.
    let mut work = Work::new();
    let e = parse("100d100").unwrap();
    let done = (0..200)
        .take_while(|_| distribution_with(&e, &mut work).is_ok())
        .count();
    assert!(done < 5, "{done} computed");
    assert!(work.estimated() <= u128::from(MAX_WORK));
}

#[test]
fn the_queries_of_the_docs_are_allowed() {
    for text in [
        "1000d6",
        "300d20",
        "4d6kh3",
        "10d10!",
        "100d10",
        "100d100",
        "40d6!!",
        "50d20kh25",
        "3d6",
        "2d20kh1",
        "8d10>=7f1",
        "solum(3, vs 7) + sol(8)",
        "dt(d8)",
        "una(5, +2)",
        "max(4d6, 4d6)",
        "max(100d6, 100d6)",
        "2d6 * 3 - d4",
    ] {
        assert!(admitted(text).is_some(), "{text} is refused");
    }
}

/// The bounds the estimate takes for the So1um terms hold their exact odds: values within
/// the range, no more of them, no more bits in the denominator.
#[test]
fn the_family_terms_stay_within_their_bounds() {
    let mut terms: Vec<String> = [4, 6, 8, 10, 12]
        .iter()
        .map(|d| format!("dt(d{d})"))
        .collect();
    for n in [1, 5, 30, 100, 1000] {
        terms.push(format!("solum({n})"));
        terms.push(format!("solum({n}, vs 12, gear)"));
    }
    for n in [1, 8, 40, 100] {
        terms.push(format!("sol({n})"));
        terms.push(format!("sol({n}, second)"));
        terms.push(format!("sol({n}, push)"));
    }
    for (n, f) in [(1, 0), (5, 2), (40, -20), (40, 2), (40, 40)] {
        terms.push(format!("una({n}, {f:+})"));
    }
    for text in &terms {
        let expr = parse(text).unwrap();
        let b = estimate::bound(&expr).unwrap();
        let w = solum_notation::distribution(&expr).unwrap();
        let values = w.values();
        assert!(
            i128::from(values[0]) >= b.lo,
            "{text}: {} < {}",
            values[0],
            b.lo
        );
        assert!(
            i128::from(*values.last().unwrap()) <= b.hi,
            "{text}: {values:?} > {}",
            b.hi
        );
        assert!(
            values.len() as u128 <= b.support,
            "{text}: {} values",
            values.len()
        );
        let bits = w.denominator_big().bits();
        assert!(
            u128::from(bits) <= b.bits,
            "{text}: {bits} bits, bound {}",
            b.bits
        );
    }
}
