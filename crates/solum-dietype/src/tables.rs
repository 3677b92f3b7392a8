//! The text's printed probability tables, recomputed exactly.

use serde::Serialize;
use solum_dice::{Prob, prob_to_f64};

use crate::die::DieType;
use crate::odds::{p_at_least, skill_odds};
use crate::roll::RollSpec;

/// One printed number beside the exact value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// What the row is (a die type or a difficulty).
    pub label: String,
    /// The text's number, in percent.
    pub printed: f64,
    /// The exact probability, in percent.
    pub exact: f64,
    /// The exact probability as a fraction where it is short enough to read.
    pub fraction: Option<String>,
    /// Whether the printed number is the exact one rounded to the printed precision.
    pub right: bool,
    /// The text's printed increment over the previous table ("+16%"), if any.
    pub printed_increment: Option<f64>,
    /// The exact increment, in percentage points.
    pub exact_increment: Option<f64>,
    /// Whether the printed increment is the exact one rounded.
    pub increment_right: Option<bool>,
}

/// One printed table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Its title.
    pub title: &'static str,
    /// Its cells.
    pub cells: Vec<Cell>,
}

fn rounds_to(exact_percent: f64, printed: f64) -> bool {
    // The text prints whole percents, and 62.5 once.
    let decimals = if printed.fract() != 0.0 { 1 } else { 0 };
    let scale = 10f64.powi(decimals);
    (exact_percent * scale).round() / scale == printed
}

fn cell(label: String, exact: &Prob, printed: f64, increment: Option<(f64, f64)>) -> Cell {
    let e = 100.0 * prob_to_f64(exact);
    let text = exact.to_string();
    Cell {
        label,
        printed,
        exact: e,
        fraction: (text.len() <= 24).then_some(text),
        right: rounds_to(e, printed),
        printed_increment: increment.map(|(p, _)| p),
        exact_increment: increment.map(|(_, x)| x),
        increment_right: increment.map(|(p, x)| rounds_to(x, p)),
    }
}

/// A printed table with explosions: title, chances, the five percentages (d4 to d12), and
/// the printed increments over the table before.
type PrintedRow = (&'static str, u32, [f64; 5], Option<[f64; 5]>);

/// The printed tables of the text with the exact values beside them.
pub fn tables() -> Vec<Table> {
    let dice = DieType::ALL;
    let skill = |die: DieType, chances: u32, d: u32| {
        skill_odds(&RollSpec::new(die, i64::from(chances), i64::from(d)).expect("valid")).success
    };
    let mut out = Vec::new();
    // Without explosions: one die, at least 4.
    let plain = [25.0, 50.0, 62.5, 70.0, 75.0];
    out.push(Table {
        title: "One die against 4, without explosions",
        cells: dice
            .iter()
            .zip(plain)
            .map(|(&d, printed)| {
                let exact = Prob::new((d.sides() - 3).into(), d.sides().into());
                cell(d.to_string(), &exact, printed, None)
            })
            .collect(),
    });
    let printed: [PrintedRow; 4] = [
        (
            "One exploding die against 4",
            1,
            [20.0, 49.0, 62.0, 70.0, 75.0],
            None,
        ),
        (
            "Skilled: two chances against 4",
            2,
            [36.0, 74.0, 86.0, 91.0, 97.0],
            Some([16.0, 25.0, 24.0, 21.0, 22.0]),
        ),
        (
            "Specialised: three chances against 4",
            3,
            [49.0, 86.0, 95.0, 97.0, 98.0],
            Some([13.0, 12.0, 9.0, 6.0, 1.0]),
        ),
        (
            "The most: four chances against 4",
            4,
            [59.0, 93.0, 98.0, 99.0, 100.0],
            Some([10.0, 7.0, 3.0, 2.0, 2.0]),
        ),
    ];
    for (title, chances, values, increments) in printed {
        out.push(Table {
            title,
            cells: dice
                .iter()
                .enumerate()
                .map(|(i, &d)| {
                    let exact = if chances == 1 {
                        p_at_least(d, 4)
                    } else {
                        skill(d, chances, 4)
                    };
                    let increment = increments.map(|inc| {
                        let before = 100.0 * prob_to_f64(&skill(d, chances - 1, 4));
                        (inc[i], 100.0 * prob_to_f64(&exact) - before)
                    });
                    cell(d.to_string(), &exact, values[i], increment)
                })
                .collect(),
        });
    }
    out.push(Table {
        title: "A skilled d6 (two chances) by difficulty",
        cells: [
            (3, "easy (3)", 89.0),
            (4, "normal (4)", 74.0),
            (5, "hard (5)", 52.0),
        ]
        .into_iter()
        .map(|(d, label, printed)| cell(label.to_owned(), &skill(DieType::D6, 2, d), printed, None))
        .collect(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_printed_numbers_are_right() {
        let t = tables();
        let wrong: Vec<String> = t
            .iter()
            .flat_map(|table| {
                table
                    .cells
                    .iter()
                    .filter(|c| !c.right)
                    .map(move |c| format!("{}: {} {}", table.title, c.label, c.printed))
            })
            .collect();
        // Recomputed exactly: these printed values do not round from the exact ones.
        assert_eq!(
            wrong,
            [
                "Skilled: two chances against 4: d8 86",
                "Skilled: two chances against 4: d12 97",
                "Specialised: three chances against 4: d8 95",
            ]
        );
        // The table without explosions is exact.
        assert!(t[0].cells.iter().all(|c| c.right));
        assert!((t[0].cells[2].exact - 62.5).abs() < 1e-12);
    }
}
