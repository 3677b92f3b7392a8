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

/// Text written to a terminal with its control characters escaped: a name, a note or an
/// error message read from a file can hold any byte, and `ESC [2J` in a name must not clear
/// the screen. Newlines and tabs pass; so do colour (SGR) sequences `ESC [ digits m`, which
/// are the only escapes solum itself writes (and which anstream drops off a terminal).
/// Everything else below space, DEL and the C1 controls U+0080 to U+009F are written as
/// `\x1b` or `\u{9b}`.
///
/// The first write error is remembered, so a failed write can never end as success.
pub struct Escaped<W: std::io::Write> {
    inner: W,
    /// An escape sequence (or a UTF-8 lead byte 0xC2) not yet known to be harmless.
    pending: Vec<u8>,
    failed: Option<(std::io::ErrorKind, String)>,
}

/// An SGR sequence longer than this is not one solum writes.
const MAX_SGR: usize = 32;

impl<W: std::io::Write> Escaped<W> {
    /// Wraps a writer.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            failed: None,
        }
    }

    /// The first write error, if any: its kind and text.
    pub fn failed(&self) -> Option<&(std::io::ErrorKind, String)> {
        self.failed.as_ref()
    }

    /// Writes what is still held back (escaped) and flushes.
    pub fn finish(&mut self) -> std::io::Result<()> {
        let mut text = Vec::new();
        let pending = std::mem::take(&mut self.pending);
        for b in pending {
            escape_byte(b, &mut text);
        }
        self.put(&text)?;
        std::io::Write::flush(self)
    }

    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if let Some((kind, text)) = &self.failed {
            return Err(std::io::Error::new(*kind, text.clone()));
        }
        if bytes.is_empty() {
            return Ok(());
        }
        self.inner.write_all(bytes).inspect_err(|e| {
            self.failed = Some((e.kind(), e.to_string()));
        })
    }

    /// Adds one byte to `out`, escaping what must not reach a terminal.
    fn feed(&mut self, b: u8, out: &mut Vec<u8>) {
        match self.pending.first() {
            None => match b {
                0x1b | 0xc2 => self.pending.push(b),
                b'\n' | b'\t' => out.push(b),
                0..=0x1f | 0x7f => escape_byte(b, out),
                _ => out.push(b),
            },
            Some(0xc2) => {
                self.pending.clear();
                if (0x80..=0x9f).contains(&b) {
                    out.extend_from_slice(format!("\\u{{{b:x}}}").as_bytes());
                } else {
                    out.push(0xc2);
                    self.feed(b, out);
                }
            }
            Some(_) => {
                self.pending.push(b);
                let n = self.pending.len();
                let harmless_so_far = (n == 2 && b == b'[')
                    || (n > 2 && n < MAX_SGR && (b.is_ascii_digit() || b == b';' || b == b':'));
                if n > 2 && b == b'm' {
                    out.append(&mut self.pending);
                } else if !harmless_so_far {
                    // Not a colour: the ESC is shown, the rest is read again as text.
                    let rest = self.pending.split_off(1);
                    self.pending.clear();
                    escape_byte(0x1b, out);
                    for b in rest {
                        self.feed(b, out);
                    }
                }
            }
        }
    }
}

fn escape_byte(b: u8, out: &mut Vec<u8>) {
    match b {
        0..=0x1f | 0x7f => out.extend_from_slice(format!("\\x{b:02x}").as_bytes()),
        _ => out.push(b),
    }
}

impl<W: std::io::Write> std::io::Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut text = Vec::with_capacity(buf.len());
        for &b in buf {
            self.feed(b, &mut text);
        }
        self.put(&text)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Some((kind, text)) = &self.failed {
            return Err(std::io::Error::new(*kind, text.clone()));
        }
        self.inner.flush().inspect_err(|e| {
            self.failed = Some((e.kind(), e.to_string()));
        })
    }
}

/// `text` with its control characters escaped as [`Escaped`] writes them.
#[cfg(test)]
pub fn escape(text: &str) -> String {
    let mut w = Escaped::new(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = std::io::Write::write_all(&mut w, text.as_bytes());
    let _ = w.finish();
    String::from_utf8_lossy(&w.inner).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_colours_pass() {
        assert_eq!(escape("Nick\x1b[2J"), "Nick\\x1b[2J");
        assert_eq!(escape("a\0b\x07c\rd\x7f"), "a\\x00b\\x07c\\x0dd\\x7f");
        assert_eq!(escape("line\n\tnext"), "line\n\tnext");
        assert_eq!(escape("\x1b[1;31mred\x1b[0m"), "\x1b[1;31mred\x1b[0m");
        assert_eq!(escape("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
        assert_eq!(escape("\x1b[\x1b[2m"), "\\x1b[\x1b[2m");
        assert_eq!(escape("\x1b"), "\\x1b");
        // C1 controls (U+009B is an 8-bit CSI), while other accented text passes.
        assert_eq!(escape("x\u{9b}2Jy"), "x\\u{9b}2Jy");
        assert_eq!(escape("Ångström é ©"), "Ångström é ©");
        let long = format!("\x1b[{}m", "1;".repeat(40));
        assert!(escape(&long).starts_with("\\x1b["));
    }

    #[test]
    fn escapes_split_across_writes_are_still_seen() {
        use std::io::Write;
        let mut w = Escaped::new(Vec::new());
        w.write_all(b"a\x1b").unwrap();
        w.write_all(b"[2").unwrap();
        w.write_all(b"J\xc2").unwrap();
        w.write_all(b"\x9bb\x1b[3").unwrap();
        w.write_all(b"2m").unwrap();
        w.finish().unwrap();
        assert_eq!(w.inner, b"a\\x1b[2J\\u{9b}b\x1b[32m");
    }

    #[test]
    fn a_failed_write_is_remembered() {
        use std::io::Write;
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::StorageFull.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut w = Escaped::new(Full);
        assert!(w.write_all(b"x").is_err());
        assert!(w.flush().is_err() && w.finish().is_err());
        assert_eq!(
            w.failed().map(|f| f.0),
            Some(std::io::ErrorKind::StorageFull)
        );
    }
}
