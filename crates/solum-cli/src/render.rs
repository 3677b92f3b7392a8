//! Shared rendering: colours (which anstream drops under NO_COLOR or off a terminal),
//! percentages and tables.

use anstyle::{AnsiColor, Style};
use comfy_table::{CellAlignment, Table, TableComponent, presets};
use solum_dice::{Prob, prob_to_f64};

pub const GOOD: Style = AnsiColor::Green.on_default().bold();
pub const BAD: Style = AnsiColor::Red.on_default().bold();
pub const EVEN: Style = AnsiColor::Yellow.on_default().bold();
pub const SIX: Style = AnsiColor::Cyan.on_default().bold();
pub const DIM: Style = Style::new().dimmed();
pub const HEAD: Style = Style::new().bold();

/// `error:` in red.
pub fn error_label() -> String {
    format!("{BAD}error{BAD:#}")
}

/// Text in a style.
pub fn paint(style: Style, text: impl std::fmt::Display) -> String {
    format!("{style}{text}{style:#}")
}

/// A probability as a percentage a player can read: two decimals, or scientific notation
/// for the very unlikely, and never "0.00%" or "100.00%" for what is merely close.
pub fn percent(p: &Prob) -> String {
    let x = prob_to_f64(p);
    if x == 0.0 && p == &Prob::from_integer(0.into()) {
        "0%".to_owned()
    } else if p == &Prob::from_integer(1.into()) {
        "100%".to_owned()
    } else if x < 0.0001 {
        format!("{:.1e}%", x * 100.0)
    } else if x > 0.9999 {
        format!("{:.4}%", x * 100.0)
    } else {
        format!("{:.2}%", x * 100.0)
    }
}

/// A probability as the nearest `f64`, for JSON.
pub fn to_f64(p: &Prob) -> f64 {
    prob_to_f64(p)
}

/// An exact probability as a fraction string, for JSON.
pub fn fraction(p: &Prob) -> String {
    p.to_string()
}

/// Faces as `5 3 2 2`, sixes highlighted.
pub fn faces(dice: &[u32]) -> String {
    dice.iter()
        .map(|&f| if f == 6 { paint(SIX, f) } else { f.to_string() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A table with a header rule and no row rules; the columns named in `numeric` are
/// right-aligned.
pub fn table(header: &[&str], numeric: &[usize]) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::UTF8_HORIZONTAL_ONLY);
    table.remove_style(TableComponent::HorizontalLines);
    table.remove_style(TableComponent::MiddleIntersections);
    table.remove_style(TableComponent::LeftBorderIntersections);
    table.remove_style(TableComponent::RightBorderIntersections);
    table.set_header(header.to_vec());
    for &i in numeric {
        if let Some(col) = table.column_mut(i) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    table
}

/// "1 die" or "4 dice".
pub fn dice_count(n: u32) -> String {
    if n == 1 {
        "1 die".to_owned()
    } else {
        format!("{n} dice")
    }
}

/// The line that lets a roll be replayed: `seed S (replay with --seed S)`, when a seed was
/// used.
pub fn write_seed(out: &mut dyn std::io::Write, seed: Option<u64>) -> std::io::Result<()> {
    match seed {
        Some(seed) => writeln!(
            out,
            "  {}",
            paint(DIM, format!("seed {seed} (replay with --seed {seed})"))
        ),
        None => Ok(()),
    }
}

/// Text typed by a user, made safe to print on a terminal: control characters (an escape
/// sequence in a name could clear the screen) are shown as `\u{..}` escapes.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}
