//! Character sheets and bestiary files.

use std::path::{Path, PathBuf};

use solum_expanded::character::Character;
use solum_expanded::creature::{Bestiary, CreatureError, parse_bestiary};
use thiserror::Error;

/// A file that could not be read, parsed or written.
#[derive(Debug, Error)]
pub enum StorageError {
    /// The file system said no.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The text is not a valid file of this kind (the message names the line and field).
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// Not a regular file: reading a device or a pipe may never end.
    #[error("{path}: not a regular file ({kind})")]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// Larger than [`MAX_FILE_BYTES`].
    #[error("{path}: larger than the {limit} bytes solum reads")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap.
        limit: u64,
    },
    /// Not UTF-8 text.
    #[error("{path}: not UTF-8 text (bad byte at offset {offset})")]
    NotText {
        /// The file.
        path: PathBuf,
        /// Where the first bad byte is.
        offset: usize,
    },
    /// The file parses but breaks a rule.
    #[error("{path}: {field}: {problem}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The field at fault.
        field: String,
        /// What is wrong.
        problem: String,
    },
}

/// The largest file solum reads (sheets, bestiaries, heroes, skirmishes, combat scripts):
/// 1 MiB, a thousand times the longest sheet; more is a mistake or an attack, and is refused
/// before it is read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The longest line read one at a time from a stream (standard input).
pub const MAX_LINE_BYTES: usize = 4096;

/// The most read from one stream in all: as much as a script file may hold.
pub const MAX_STREAM_BYTES: u64 = MAX_FILE_BYTES;

/// Reads a text file for any load path: only a regular file (not a directory, FIFO or
/// device, whose reads may never end), at most [`MAX_FILE_BYTES`], UTF-8, with a leading
/// byte-order mark dropped.
pub fn read_text(path: &Path) -> Result<String, StorageError> {
    let io = |source| StorageError::Io {
        path: path.to_owned(),
        source,
    };
    // `metadata` does not open the file, so a FIFO cannot block here.
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(StorageError::NotAFile {
            path: path.to_owned(),
            kind: if kind.is_dir() {
                "a directory"
            } else {
                "a device, pipe or socket"
            },
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // The file may have been replaced or may grow: the cap holds on what is read too.
    if file.metadata().map_err(io)?.len() > MAX_FILE_BYTES {
        return Err(StorageError::TooLarge {
            path: path.to_owned(),
            limit: MAX_FILE_BYTES,
        });
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_FILE_BYTES + 1),
        &mut bytes,
    )
    .map_err(io)?;
    decode(path, bytes)
}

/// The text of a file's bytes: at most [`MAX_FILE_BYTES`], UTF-8, a leading byte-order
/// mark dropped. `path` only names the file in errors.
pub fn decode(path: &Path, mut bytes: Vec<u8>) -> Result<String, StorageError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(StorageError::TooLarge {
            path: path.to_owned(),
            limit: MAX_FILE_BYTES,
        });
    }
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| StorageError::NotText {
        path: path.to_owned(),
        offset: e.utf8_error().valid_up_to(),
    })
}

const BOM: &[u8] = "\u{feff}".as_bytes();

/// A line of a stream that could not be read.
#[derive(Debug, Error)]
pub enum LineError {
    /// The stream said no.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// No newline within [`MAX_LINE_BYTES`].
    #[error("line {line} is longer than {limit} bytes")]
    TooLong {
        /// The line's number, from 1.
        line: u64,
        /// The cap.
        limit: usize,
    },
    /// More than [`MAX_STREAM_BYTES`] in all.
    #[error("more than {limit} bytes in all")]
    TooMuch {
        /// The cap.
        limit: u64,
    },
    /// Not UTF-8.
    #[error("line {line} is not UTF-8 text")]
    NotText {
        /// The line's number, from 1.
        line: u64,
    },
}

/// Lines of a stream read one at a time (a player typing, or a piped script), each at most
/// [`MAX_LINE_BYTES`] and [`MAX_STREAM_BYTES`] in all, so that `< /dev/zero` ends with an
/// error at once instead of filling memory. A byte-order mark before the first line is
/// dropped.
pub struct Lines<R> {
    input: R,
    line: u64,
    read: u64,
}

impl<R: std::io::BufRead> Lines<R> {
    /// Lines of `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            line: 0,
            read: 0,
        }
    }

    /// The next line with its newline, or `None` at the end of the stream.
    pub fn next_line(&mut self) -> Result<Option<String>, LineError> {
        self.line += 1;
        let mut bytes = Vec::new();
        loop {
            let available = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if available.is_empty() {
                break;
            }
            let (take, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let room = MAX_LINE_BYTES + 1 - bytes.len();
            bytes.extend_from_slice(&available[..take.min(room)]);
            self.input.consume(take.min(room));
            self.read += take.min(room) as u64;
            if self.read > MAX_STREAM_BYTES {
                return Err(LineError::TooMuch {
                    limit: MAX_STREAM_BYTES,
                });
            }
            let newline = usize::from(bytes.last() == Some(&b'\n'));
            if bytes.len() - newline > MAX_LINE_BYTES {
                return Err(LineError::TooLong {
                    line: self.line,
                    limit: MAX_LINE_BYTES,
                });
            }
            if done {
                break;
            }
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        if self.line == 1 && bytes.starts_with(BOM) {
            bytes.drain(..BOM.len());
        }
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| LineError::NotText { line: self.line })
    }
}

/// Parses a character sheet (TOML) and checks it against the rules.
pub fn parse_character(path: &Path, text: &str) -> Result<Character, StorageError> {
    let hero: Character = toml::from_str(text).map_err(|e| StorageError::Parse {
        path: path.to_owned(),
        message: e.to_string().trim_end().replace('\n', "\n  "),
    })?;
    hero.validate().map_err(|e| StorageError::Invalid {
        path: path.to_owned(),
        field: e.field,
        problem: e.problem,
    })?;
    Ok(hero)
}

/// Reads a character sheet.
pub fn load_character(path: &Path) -> Result<Character, StorageError> {
    parse_character(path, &read_text(path)?)
}

/// Writes a character sheet. The text goes to a temporary file beside it that then replaces
/// the old one, so a crash never leaves half a sheet.
pub fn save_character(path: &Path, hero: &Character) -> Result<(), StorageError> {
    hero.validate().map_err(|e| StorageError::Invalid {
        path: path.to_owned(),
        field: e.field,
        problem: e.problem,
    })?;
    let text = toml::to_string_pretty(hero).map_err(|e| StorageError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    write_atomically(path, &text)
}

/// Writes `text` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), StorageError> {
    let io = |source| StorageError::Io {
        path: path.to_owned(),
        source,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// The shipped bestiary plus the given files, later entries replacing earlier ones.
pub fn load_bestiary(files: &[PathBuf]) -> Result<Bestiary, StorageError> {
    let mut bestiary = Bestiary::shipped();
    for path in files {
        let file = parse_bestiary(&read_text(path)?).map_err(|e| StorageError::Parse {
            path: path.clone(),
            message: e.to_string().trim_end().replace('\n', "\n  "),
        })?;
        bestiary.add(file).map_err(
            |CreatureError {
                 entry,
                 field,
                 problem,
             }| StorageError::Invalid {
                path: path.clone(),
                field: format!("{entry}.{field}"),
                problem,
            },
        )?;
    }
    Ok(bestiary)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NICK: &str = r#"
schema = 1
name = "Nick"
body = 3
mind = 2
charm = 1
backgrounds = ["Acrobat Thief"]
hit_points = 5
weapons = [{ name = "dagger", class = "light" }]
"#;

    #[test]
    fn round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nick.toml");
        let hero = parse_character(&path, NICK).unwrap();
        save_character(&path, &hero).unwrap();
        assert_eq!(load_character(&path).unwrap(), hero);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn errors_name_file_field_and_problem() {
        let path = Path::new("nick.toml");
        let err = parse_character(path, &NICK.replace("body = 3", "bdy = 3")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("nick.toml:") && text.contains("bdy"),
            "{text}"
        );
        let err = parse_character(path, &NICK.replace("body = 3", "body = 7")).unwrap_err();
        assert_eq!(err.to_string(), "nick.toml: body: 7 is outside 1 to 4");
        let err = parse_character(path, &NICK.replace("body = 3", "body = \"three\"")).unwrap_err();
        assert!(err.to_string().contains("body"), "{err}");
        let err = parse_character(path, &NICK.replace("schema = 1", "schema = 9")).unwrap_err();
        assert!(err.to_string().contains("schema: version 9"), "{err}");
        let err = load_character(Path::new("no/such/file.toml")).unwrap_err();
        assert!(err.to_string().starts_with("no/such/file.toml:"), "{err}");
    }

    #[test]
    fn bestiary_files_extend_and_override() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.toml");
        std::fs::write(
            &path,
            "[[creature]]\nname = \"Orc\"\npool = 3\nhit_points = 4\ndamage = 2\n\n[[creature]]\nname = \"kobold\"\npool = 1\nhit_points = 1\ndamage = 1\n",
        )
        .unwrap();
        let b = load_bestiary(std::slice::from_ref(&path)).unwrap();
        assert_eq!(b.creature("orc").unwrap().pool, 3);
        assert!(b.creature("kobold").is_some());
        std::fs::write(
            &path,
            "[[creature]]\nname = \"x\"\npool = 0\nhit_points = 1\ndamage = 1\n",
        )
        .unwrap();
        let err = load_bestiary(&[path]).unwrap_err().to_string();
        assert!(err.contains("x.pool"), "{err}");
    }

    #[test]
    fn only_regular_files_under_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_text(dir.path()).unwrap_err();
        assert!(matches!(err, StorageError::NotAFile { .. }), "{err}");
        #[cfg(unix)]
        {
            let err = read_text(Path::new("/dev/zero")).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
        let big = dir.path().join("big.toml");
        let comment = "# a comment line of a sheet far too long to be a sheet\n";
        let n = MAX_FILE_BYTES as usize / comment.len() + 1;
        std::fs::write(&big, comment.repeat(n)).unwrap();
        let err = load_character(&big).unwrap_err();
        assert!(matches!(err, StorageError::TooLarge { .. }), "{err}");
        // Exactly at the cap is still read.
        let at_cap = dir.path().join("cap.toml");
        std::fs::write(&at_cap, "#".repeat(MAX_FILE_BYTES as usize)).unwrap();
        assert_eq!(read_text(&at_cap).unwrap().len(), MAX_FILE_BYTES as usize);
        let err = decode(Path::new("x"), vec![b'a', 0xff]).unwrap_err();
        assert_eq!(err.to_string(), "x: not UTF-8 text (bad byte at offset 1)");
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nick.toml");
        std::fs::write(&path, format!("\u{feff}{NICK}")).unwrap();
        assert_eq!(load_character(&path).unwrap().name, "Nick");
        let mut lines = Lines::new("\u{feff}start\n\u{feff}x\n".as_bytes());
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("start\n"));
        // Only at the very start.
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("\u{feff}x\n"));
        assert_eq!(lines.next_line().unwrap(), None);
    }

    #[test]
    fn stream_lines_are_bounded() {
        let text = format!("a\r\nb\n{}\nc", "x".repeat(MAX_LINE_BYTES));
        let mut lines = Lines::new(text.as_bytes());
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("a\r\n"));
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("b\n"));
        // A line of exactly the cap is read, without a newline at the end too.
        assert_eq!(
            lines.next_line().unwrap().unwrap().len(),
            MAX_LINE_BYTES + 1
        );
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("c"));
        assert_eq!(lines.next_line().unwrap(), None);

        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let err = Lines::new(zeros).next_line().unwrap_err();
        assert_eq!(err.to_string(), "line 1 is longer than 4096 bytes");

        let many = std::io::BufReader::new(std::io::Read::take(
            std::io::repeat(b'\n'),
            MAX_STREAM_BYTES + 10,
        ));
        let mut lines = Lines::new(many);
        let mut count = 0u64;
        let err = loop {
            match lines.next_line() {
                Ok(Some(_)) => count += 1,
                Ok(None) => panic!("the cap was not enforced"),
                Err(e) => break e,
            }
        };
        assert_eq!(count, MAX_STREAM_BYTES);
        assert!(matches!(err, LineError::TooMuch { .. }), "{err}");

        let err = Lines::new(&b"ok\n\xff\n"[..])
            .next_line()
            .and_then(|_| Lines::new(&b"\xff\n"[..]).next_line());
        assert!(matches!(err, Err(LineError::NotText { line: 1 })));
    }
}
