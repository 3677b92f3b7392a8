//! Shared rendering: colours (which anstream drops under NO_COLOR or off a terminal),
//! percentages and tables.

use anstyle::{AnsiColor, Style};
use comfy_table::{CellAlignment, Table, TableComponent, presets};
use solum_app::expression::Chance;

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
pub fn percent(c: Chance) -> String {
    let x = c.p;
    if c.impossible {
        "0%".to_owned()
    } else if c.certain {
        "100%".to_owned()
    } else if x < 0.0001 {
        format!("{:.1e}%", x * 100.0)
    } else if x > 0.9999 {
        format!("{:.4}%", x * 100.0)
    } else {
        format!("{:.2}%", x * 100.0)
    }
}

/// A chance the application gives as a float, by the rules of [`percent`]: "0%" and "100%"
/// only when it is exactly so.
pub fn percent_f64(x: f64) -> String {
    if x <= 0.0 {
        "0%".to_owned()
    } else if x >= 1.0 {
        "100%".to_owned()
    } else if x < 0.0001 {
        format!("{:.1e}%", x * 100.0)
    } else if x > 0.9999 {
        format!("{:.4}%", x * 100.0)
    } else {
        format!("{:.2}%", x * 100.0)
    }
}

/// A chance the application gives as a float beside its exact fraction, by the rules of
/// [`percent`]: "0%" and "100%" only when the fraction is exactly 0 or 1.
pub fn percent_exact(x: f64, exact: &str) -> String {
    match exact {
        "0" => "0%".to_owned(),
        "1" => "100%".to_owned(),
        _ if x < 0.0001 => format!("{:.1e}%", x * 100.0),
        _ if x > 0.9999 => format!("{:.4}%", x * 100.0),
        _ => format!("{:.2}%", x * 100.0),
    }
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
/// error message read from a file, an argument or the journal can hold any character, and
/// `ESC [2J` in a name must not clear the screen, `ESC [8m` must not hide what follows, and a
/// right-to-left override must not reorder a line. Everything solum writes to a terminal
/// passes through here (standard output, standard error, clap's messages).
///
/// Newlines and tabs pass, and so do the colour (SGR) sequences solum and clap write
/// themselves, `ESC [ P m` with every parameter `P` one of [`SGR_ALLOWED`] (reset, bold,
/// dim, underline and the four colours used); anstream drops them off a terminal. Every
/// other escape sequence shows its ESC as `\x1b`. Shown as `\x..`: every other character
/// below space and a byte that is not UTF-8; shown as `\u....` (JSON's escape, so `--json`
/// output stays valid JSON and reads back as the same text): DEL, the C1 controls U+0080 to
/// U+009F, the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
/// U+2069) and the line and paragraph separators U+2028 and U+2029. (serde_json escapes
/// the characters below space itself, so JSON never meets `\x..`.)
///
/// The first write error is remembered, so a failed write can never end as success.
pub struct Escaped<W: std::io::Write> {
    inner: W,
    /// An escape sequence not yet known to be harmless.
    pending: Vec<u8>,
    /// A UTF-8 character not yet complete.
    utf8: Vec<u8>,
    failed: Option<(std::io::ErrorKind, String)>,
}

/// An SGR sequence longer than this is not one solum writes.
const MAX_SGR: usize = 32;

/// The SGR parameters that pass: reset, bold, dim, underline, their resets, red, green,
/// yellow, cyan and the default colour. Nothing that hides text (8 conceal, 7 reverse,
/// black or white text, backgrounds) or blinks.
pub const SGR_ALLOWED: [&str; 12] = [
    "", "0", "1", "2", "4", "22", "24", "31", "32", "33", "36", "39",
];

/// Characters that are shown by their code, never written: C1 controls, bidirectional
/// controls and the line and paragraph separators.
pub fn is_hidden_control(c: char) -> bool {
    matches!(c,
        '\u{80}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{2028}'
        | '\u{2029}')
}

impl<W: std::io::Write> Escaped<W> {
    /// Wraps a writer.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            utf8: Vec::new(),
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
        for b in std::mem::take(&mut self.pending) {
            escape_byte(b, &mut text);
        }
        for b in std::mem::take(&mut self.utf8) {
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
        if !self.pending.is_empty() {
            return self.feed_escape(b, out);
        }
        if !self.utf8.is_empty() {
            return self.feed_utf8(b, out);
        }
        match b {
            0x1b => self.pending.push(b),
            b'\n' | b'\t' | 0x20..=0x7e => out.push(b),
            0xc2..=0xf4 => self.utf8.push(b),
            _ => escape_byte(b, out),
        }
    }

    /// The next byte of an escape sequence: a colour passes whole, anything else shows
    /// its ESC and the rest is read again as text.
    fn feed_escape(&mut self, b: u8, out: &mut Vec<u8>) {
        self.pending.push(b);
        let n = self.pending.len();
        let harmless_so_far =
            (n == 2 && b == b'[') || (n > 2 && n < MAX_SGR && (b.is_ascii_digit() || b == b';'));
        if n > 2 && b == b'm' && sgr_allowed(&self.pending[2..n - 1]) {
            out.append(&mut self.pending);
        } else if !harmless_so_far {
            let rest = self.pending.split_off(1);
            self.pending.clear();
            escape_byte(0x1b, out);
            for b in rest {
                self.feed(b, out);
            }
        }
    }

    /// The next byte of a UTF-8 character: a complete one is written, or shown by its code
    /// when it is a hidden control; a broken one shows its bytes.
    fn feed_utf8(&mut self, b: u8, out: &mut Vec<u8>) {
        if !(0x80..=0xbf).contains(&b) {
            for held in std::mem::take(&mut self.utf8) {
                escape_byte(held, out);
            }
            return self.feed(b, out);
        }
        self.utf8.push(b);
        let want = match self.utf8[0] {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            _ => 4,
        };
        if self.utf8.len() < want {
            return;
        }
        let bytes = std::mem::take(&mut self.utf8);
        match std::str::from_utf8(&bytes)
            .ok()
            .and_then(|s| s.chars().next())
        {
            Some(c) if is_hidden_control(c) => {
                out.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
            }
            Some(_) => out.extend_from_slice(&bytes),
            None => {
                for b in bytes {
                    escape_byte(b, out);
                }
            }
        }
    }
}

/// True when every parameter of an SGR sequence (the bytes between `ESC [` and `m`) is one
/// solum writes.
fn sgr_allowed(params: &[u8]) -> bool {
    params
        .split(|&b| b == b';')
        .all(|p| SGR_ALLOWED.iter().any(|a| a.as_bytes() == p))
}

fn escape_byte(b: u8, out: &mut Vec<u8>) {
    match b {
        0x20..=0x7e | b'\n' | b'\t' => out.push(b),
        // JSON's own escape: a raw DEL is valid in a JSON string, and so is this.
        0x7f => out.extend_from_slice(b"\\u007f"),
        _ => out.extend_from_slice(format!("\\x{b:02x}").as_bytes()),
    }
}

impl<W: std::io::Write> std::io::Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut text = Vec::with_capacity(buf.len());
        let mut rest = buf;
        while !rest.is_empty() {
            // A run of plain bytes passes whole when no escape or character is pending: what
            // `feed` would do byte by byte (`solum odds 1000d6 --json` writes 7 MB of it).
            if self.pending.is_empty() && self.utf8.is_empty() {
                let plain = rest
                    .iter()
                    .position(|&b| !matches!(b, b'\n' | b'\t' | 0x20..=0x7e))
                    .unwrap_or(rest.len());
                text.extend_from_slice(&rest[..plain]);
                rest = &rest[plain..];
            }
            if let Some((&b, tail)) = rest.split_first() {
                self.feed(b, &mut text);
                rest = tail;
            }
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
        assert_eq!(escape("a\0b\x07c\rd\x7f"), "a\\x00b\\x07c\\x0dd\\u007f");
        assert_eq!(escape("line\n\tnext"), "line\n\tnext");
        assert_eq!(escape("\x1b[1;31mred\x1b[0m"), "\x1b[1;31mred\x1b[0m");
        assert_eq!(escape("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
        assert_eq!(escape("\x1b[\x1b[2m"), "\\x1b[\x1b[2m");
        assert_eq!(escape("\x1b"), "\\x1b");
        // C1 controls (U+009B is an 8-bit CSI), while other accented text passes.
        assert_eq!(escape("x\u{9b}2Jy"), "x\\u009b2Jy");
        assert_eq!(escape("Ångström é ©"), "Ångström é ©");
        let long = format!("\x1b[{}m", "1;".repeat(40));
        assert!(escape(&long).starts_with("\\x1b["));
    }

    #[test]
    fn only_solums_own_colours_pass_and_nothing_that_hides_text() {
        // Conceal, reverse, blink, black text, a background, 256 colours, colon forms.
        for seq in [
            "\x1b[8m",
            "\x1b[7m",
            "\x1b[5m",
            "\x1b[30m",
            "\x1b[1;8m",
            "\x1b[41m",
            "\x1b[38;5;16m",
            "\x1b[38:2:0:0:0m",
            "\x1b[0;8m",
        ] {
            let shown = escape(&format!("a{seq}b"));
            assert_eq!(shown, format!("a\\x1b{}b", &seq[1..]), "{seq:?}");
        }
        for seq in [
            "\x1b[m",
            "\x1b[0m",
            "\x1b[1m",
            "\x1b[2m",
            "\x1b[4m",
            "\x1b[1;4m",
        ] {
            assert_eq!(escape(&format!("a{seq}b")), format!("a{seq}b"));
        }
        for colour in [31, 32, 33, 36, 39] {
            let seq = format!("\x1b[{colour}m");
            assert_eq!(escape(&seq), seq);
        }
    }

    #[test]
    fn bidirectional_controls_and_separators_are_shown_by_their_code() {
        for (c, shown) in [
            ('\u{202e}', "\\u202e"),
            ('\u{202a}', "\\u202a"),
            ('\u{2066}', "\\u2066"),
            ('\u{2069}', "\\u2069"),
            ('\u{200e}', "\\u200e"),
            ('\u{200f}', "\\u200f"),
            ('\u{61c}', "\\u061c"),
            ('\u{2028}', "\\u2028"),
            ('\u{2029}', "\\u2029"),
            ('\u{85}', "\\u0085"),
        ] {
            assert_eq!(escape(&format!("x{c}y")), format!("x{shown}y"), "{c:?}");
        }
        // Their neighbours, and text of every script, pass.
        for text in [
            "\u{202f}",
            "\u{2065}",
            "\u{206a}",
            "\u{200d}",
            "\u{61b}",
            "עברית",
            "日本語",
            "🎲",
        ] {
            assert_eq!(escape(text), text);
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_shown_as_bytes() {
        use std::io::Write;
        let mut w = Escaped::new(Vec::new());
        // A lone 8-bit CSI, a cut character before ESC, an overlong form, a cut end.
        w.write_all(b"a\x9b2Jb\xe2\x80\x1b[2Jc\xe0\x80\xafd\xe2\x80")
            .unwrap();
        w.finish().unwrap();
        assert_eq!(
            String::from_utf8(w.inner).unwrap(),
            "a\\x9b2Jb\\xe2\\x80\\x1b[2Jc\\xe0\\x80\\xafd\\xe2\\x80"
        );
    }

    #[test]
    fn escapes_split_across_writes_are_still_seen() {
        use std::io::Write;
        let mut w = Escaped::new(Vec::new());
        w.write_all(b"a\x1b").unwrap();
        w.write_all(b"[2").unwrap();
        w.write_all(b"J\xc2").unwrap();
        w.write_all(b"\x9bb\x1b[3").unwrap();
        w.write_all(b"2m\xe2\x80").unwrap();
        w.write_all(b"\xaez").unwrap();
        w.finish().unwrap();
        assert_eq!(w.inner, b"a\\x1b[2J\\u009bb\x1b[32m\\u202ez");
    }

    #[test]
    fn plain_runs_written_whole_read_as_byte_by_byte() {
        // The fast path for runs of plain bytes must escape exactly as one byte at a time.
        use std::io::Write;
        let text: &[u8] = b"{\"1000\":\"1/6\"}\n\tNick\x1b[2J \x1b[1;31mred\x1b[0m a\x00b\x7f\xc2\x9b\xe2\x80\xae \xc3\xa9 \xff end";
        let mut whole = Escaped::new(Vec::new());
        whole.write_all(text).unwrap();
        whole.finish().unwrap();
        let mut bytes = Escaped::new(Vec::new());
        for b in text {
            bytes.write_all(std::slice::from_ref(b)).unwrap();
        }
        bytes.finish().unwrap();
        assert_eq!(whole.inner, bytes.inner);
        assert_eq!(
            String::from_utf8_lossy(&whole.inner),
            "{\"1000\":\"1/6\"}\n\tNick\\x1b[2J \x1b[1;31mred\x1b[0m a\\x00b\\u007f\\u009b\\u202e é \\xff end"
        );
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

#[cfg(test)]
mod percent_f64_tests {
    use super::percent_f64;

    /// A chance near certainty is never written as certain (static combat showed
    /// 3486779608/3486784401 as "100.0%").
    #[test]
    fn only_certainty_reads_as_100_percent() {
        assert_eq!(percent_f64(3_486_779_608.0 / 3_486_784_401.0), "99.9999%");
        assert_eq!(percent_f64(1.0), "100%");
        assert_eq!(percent_f64(0.0), "0%");
        assert_eq!(percent_f64(0.5), "50.00%");
        assert_eq!(percent_f64(5.0 / 6.0), "83.33%");
    }
}
