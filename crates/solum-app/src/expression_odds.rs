//! The exact odds of a dice expression (the notation of `solum odds EXPR`), nothing rolled,
//! nothing kept: what `POST /api/odds` answers.

use serde::Serialize;
use thiserror::Error;

use crate::notation::MAX_EXPRESSION;

/// The most values an odds answer lists: past it, the likeliest ones and a summary.
pub const MAX_ODDS_VALUES: usize = 2_000;

/// One value of an expression's exact distribution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsPoint {
    /// The value.
    pub value: i64,
    /// Its chance, as a float.
    pub p: f64,
    /// Its chance, exact (a reduced fraction).
    pub exact: String,
}

/// The exact distribution of a dice expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsView {
    /// The expression as the notation reads it back.
    pub expression: String,
    /// Every value with its chance, by value; past [`MAX_ODDS_VALUES`] values only that
    /// many, the likeliest (`truncated`).
    pub outcomes: Vec<OddsPoint>,
    /// How many different values the expression can take.
    pub values: usize,
    /// True when `outcomes` leaves values out.
    pub truncated: bool,
    /// The chance of the values shown.
    pub shown: f64,
    /// The mean.
    pub mean: f64,
    /// The standard deviation.
    pub sd: f64,
    /// The mass an explosion's truncation leaves out.
    pub neglected: f64,
}

/// Why the odds of an expression were not computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExpressionRefusal {
    /// Empty, or longer than [`MAX_EXPRESSION`] characters.
    #[error("expression: between 1 and {MAX_EXPRESSION} characters, like 3d6 or 4d6kh3")]
    Length,
    /// The notation refuses it (a syntax error or a limit), with its report.
    #[error("expression: {0}")]
    Notation(String),
}

impl ExpressionRefusal {
    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Length => "expression-length",
            Self::Notation(_) => "expression-invalid",
        }
    }
}

/// The notation's estimate of the work `text` takes, in steps, when it parses and its bound
/// is within the limits (`None`: it will be refused as fast when computed).
pub fn estimated_work(text: &str) -> Option<u128> {
    solum_notation::parse(text)
        .ok()
        .and_then(|e| solum_notation::estimate::check(&e).ok())
        .map(|b| b.work)
}

/// The exact odds of `text`, listing at most [`MAX_ODDS_VALUES`] values (the likeliest).
pub fn expression_odds(text: &str) -> Result<OddsView, ExpressionRefusal> {
    if text.trim().is_empty() || text.chars().count() > MAX_EXPRESSION {
        return Err(ExpressionRefusal::Length);
    }
    let refused = |e: solum_notation::NotationError| ExpressionRefusal::Notation(e.render(text));
    let expr = solum_notation::parse(text).map_err(refused)?;
    let d = solum_notation::distribution(&expr).map_err(refused)?;
    let all = d.outcomes();
    let values = all.len();
    let mut shown: Vec<_> = all
        .iter()
        .map(|(value, p)| (*value, p, solum_dice::prob_to_f64(p)))
        .collect();
    if values > MAX_ODDS_VALUES {
        // The likeliest values, then back in order of value.
        shown.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
        shown.truncate(MAX_ODDS_VALUES);
        shown.sort_by_key(|o| o.0);
    }
    Ok(OddsView {
        expression: expr.to_string(),
        values,
        truncated: values > shown.len(),
        shown: shown.iter().map(|o| o.2).sum(),
        outcomes: shown
            .into_iter()
            .map(|(value, p, f)| OddsPoint {
                value,
                p: f,
                exact: p.to_string(),
            })
            .collect(),
        mean: d.mean(),
        sd: d.std_dev(),
        neglected: solum_dice::prob_to_f64(&d.neglected()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_d6_is_the_triangle_of_thirty_sixths() {
        let v = expression_odds("2d6").unwrap();
        assert_eq!(v.values, 11);
        assert!(!v.truncated);
        // 7 comes up 6 ways in 36.
        let seven = v.outcomes.iter().find(|o| o.value == 7).unwrap();
        assert_eq!(seven.exact, "1/6");
        assert!((v.mean - 7.0).abs() < 1e-12);
    }

    #[test]
    fn empty_long_and_bad_expressions_are_refused_with_their_codes() {
        assert_eq!(
            expression_odds(" ").unwrap_err().code(),
            "expression-length"
        );
        let long = "1".repeat(MAX_EXPRESSION + 1);
        assert_eq!(
            expression_odds(&long).unwrap_err().code(),
            "expression-length"
        );
        assert_eq!(
            expression_odds("3d").unwrap_err().code(),
            "expression-invalid"
        );
        assert_eq!(estimated_work("3d"), None);
    }
}
