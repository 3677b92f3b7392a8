//! Files: the one bounded reader (`read_text`, and `read_stdin` for standard input read
//! whole), the one bounded line reader for streams (`Lines`) and the one safe writer
//! (`write_file`), with sheets, bestiaries, word lists and journals to import read through
//! them and handed to the app as text. The web table reads no file; only the command line
//! does, so this lives here.

use std::path::{Path, PathBuf};

use solum_app::{Bestiary, Character, TextFileError};
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
    /// Larger than the cap of what is read ([`MAX_FILE_BYTES`] for most files).
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
    /// The target may not be written: its permissions say read-only (solum never changes
    /// them).
    #[error("{path}: read-only; solum does not make it writable")]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// The target is a symbolic link: solum never writes through one (the link could have
    /// been planted to aim the write at another file).
    #[error("{path}: a symbolic link; solum does not write through one (name the file itself)")]
    Symlink {
        /// The file.
        path: PathBuf,
    },
    /// A file is already there and may not be replaced.
    #[error("{path}: already exists; choose another name (or --force to replace it)")]
    Exists {
        /// The file.
        path: PathBuf,
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
/// the app's limit on a file's text, refused before it is read.
pub const MAX_FILE_BYTES: u64 = solum_app::MAX_FILE_BYTES;

/// The longest line read one at a time from a stream (standard input).
pub const MAX_LINE_BYTES: usize = 4096;

/// The most read from one stream in all: as much as a script file may hold.
pub const MAX_STREAM_BYTES: u64 = MAX_FILE_BYTES;

/// Reads a text file, the one way the command line reads a file whole: only a regular file
/// (not a directory, FIFO or device, whose reads may never end, refused before it is
/// opened), at most `cap` bytes (a sheet, bestiary, hero, skirmish or script file
/// [`MAX_FILE_BYTES`], a word list `solum_app::ideas::MAX_LIST_BYTES`, a journal to import
/// `cmd::campaign::MAX_IMPORT_BYTES`), UTF-8, with a leading byte-order mark dropped.
pub fn read_text(path: &Path, cap: u64) -> Result<String, StorageError> {
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
    if file.metadata().map_err(io)?.len() > cap {
        return Err(StorageError::TooLarge {
            path: path.to_owned(),
            limit: cap,
        });
    }
    read_capped(path, file, cap)
}

/// What standard input is called in errors.
pub const STDIN: &str = "standard input";

/// Reads standard input whole (`journal import -`), as [`read_text`] reads a file: at most
/// `cap` bytes, UTF-8, a leading byte-order mark dropped; errors name it [`STDIN`].
pub fn read_stdin(cap: u64) -> Result<String, StorageError> {
    read_capped(Path::new(STDIN), std::io::stdin().lock(), cap)
}

/// The text of at most `cap` bytes of `input`: one byte past the cap is read, so that more
/// is refused rather than cut. `name` only names the input in errors.
fn read_capped(name: &Path, input: impl std::io::Read, cap: u64) -> Result<String, StorageError> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(input, cap.saturating_add(1)),
        &mut bytes,
    )
    .map_err(|source| StorageError::Io {
        path: name.to_owned(),
        source,
    })?;
    decode(name, bytes, cap)
}

/// The text of a file's bytes: at most `cap`, UTF-8, a leading byte-order mark dropped.
/// `path` only names the file in errors.
fn decode(path: &Path, mut bytes: Vec<u8>, cap: u64) -> Result<String, StorageError> {
    if bytes.len() as u64 > cap {
        return Err(StorageError::TooLarge {
            path: path.to_owned(),
            limit: cap,
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

/// A file's refusal by the app, naming the file.
fn refused(path: &Path, e: TextFileError) -> StorageError {
    match e {
        TextFileError::Parse(message) => StorageError::Parse {
            path: path.to_owned(),
            message,
        },
        TextFileError::Invalid { field, problem } => StorageError::Invalid {
            path: path.to_owned(),
            field,
            problem,
        },
    }
}

/// Parses a character sheet (TOML) and checks it against the rules.
pub fn parse_character(path: &Path, text: &str) -> Result<Character, StorageError> {
    solum_app::parse_sheet(text).map_err(|e| refused(path, e))
}

/// Reads a character sheet.
pub fn load_character(path: &Path) -> Result<Character, StorageError> {
    parse_character(path, &read_text(path, MAX_FILE_BYTES)?)
}

/// Whether [`write_file`] may replace a file already at the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// An existing file is kept and the write refused ([`StorageError::Exists`]).
    Never,
    /// An existing, writable regular file is replaced; its permissions are kept.
    Allowed,
}

/// The one way solum writes a file (sheets, exports, the story, plots). Everything that
/// could refuse is checked before a byte is written ([`check_target`]): a symbolic link at
/// the target is refused whatever it points to (never followed), as is anything but a
/// regular file (a directory, FIFO, device or socket, which is never opened, so a pipe
/// cannot hang the write) and a read-only file (never made writable, even for root); an
/// existing file is replaced only with [`Replace::Allowed`]. The bytes then go to a
/// temporary file with an unpredictable name, created exclusively beside the target (so a
/// symlink planted at a guessable name is never followed), flushed to disk, renamed over
/// the target, and the directory is flushed too: a crash leaves the old file or the new
/// one, never half of one. The rename replaces the name itself, so a link or pipe planted
/// between the check and the rename is replaced, never written through. An existing
/// file's permissions are kept.
pub fn write_file(path: &Path, bytes: &[u8], replace: Replace) -> Result<(), StorageError> {
    let io = |source| StorageError::Io {
        path: path.to_owned(),
        source,
    };
    let target = writable_target(path, replace)?;
    let (dir, name) = match (target.path.parent(), target.path.file_name()) {
        (Some(d), Some(n)) => (
            if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            },
            n.to_string_lossy().into_owned(),
        ),
        _ => {
            return Err(StorageError::NotAFile {
                path: path.to_owned(),
                kind: "a directory",
            });
        }
    };
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    if target.permissions.is_none() {
        // A new file gets what any new file gets (0666 less the umask), not 0600.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    if let Some(permissions) = target.permissions {
        // fchmod on the open file: the umask does not narrow what the old file allowed.
        tmp.as_file().set_permissions(permissions).map_err(io)?;
    }
    std::io::Write::write_all(tmp.as_file_mut(), bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    match replace {
        Replace::Allowed => tmp
            .persist(&target.path)
            .map(drop)
            .map_err(|e| io(e.error))?,
        Replace::Never => tmp.persist_noclobber(&target.path).map(drop).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                StorageError::Exists {
                    path: path.to_owned(),
                }
            } else {
                io(e.error)
            }
        })?,
    }
    // The rename is only durable once the directory is on disk too.
    sync_dir(dir).map_err(io)
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Where [`write_file`] writes, and the permissions to keep.
struct Target {
    path: PathBuf,
    permissions: Option<std::fs::Permissions>,
}

/// Checks a target as [`write_file`] will, without writing anything: a command that
/// computes before it writes (a plot) can refuse a bad target before the work.
pub fn check_target(path: &Path, replace: Replace) -> Result<(), StorageError> {
    writable_target(path, replace).map(drop)
}

/// Checks the target before anything is written.
fn writable_target(path: &Path, replace: Replace) -> Result<Target, StorageError> {
    let io = |source| StorageError::Io {
        path: path.to_owned(),
        source,
    };
    // `symlink_metadata` opens nothing and follows nothing: a FIFO cannot block here, and
    // a link is seen as a link.
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Target {
                path: path.to_owned(),
                permissions: None,
            });
        }
        Err(e) => return Err(io(e)),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(StorageError::Symlink {
            path: path.to_owned(),
        });
    }
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
    // The mode bits, not only what the system allows: root may write anything, but a file
    // its owner made read-only stays so.
    if meta.permissions().readonly() {
        return Err(StorageError::ReadOnly {
            path: path.to_owned(),
        });
    }
    if replace == Replace::Never {
        return Err(StorageError::Exists {
            path: path.to_owned(),
        });
    }
    // Write permission bits are not the whole story (another user's file): ask the system.
    // Opening for writing truncates nothing; it follows no link and does not wait on a
    // pipe swapped in since the check.
    let mut open = std::fs::OpenOptions::new();
    open.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    match open.open(path) {
        Ok(file) => {
            // What was opened must still be a regular file.
            let opened = file.metadata().map_err(io)?;
            if !opened.file_type().is_file() {
                return Err(StorageError::NotAFile {
                    path: path.to_owned(),
                    kind: "a device, pipe or socket",
                });
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err(StorageError::ReadOnly {
                path: path.to_owned(),
            });
        }
        Err(e) => return Err(io(e)),
    }
    Ok(Target {
        path: path.to_owned(),
        permissions: Some(meta.permissions()),
    })
}

/// The shipped bestiary plus the given files, later entries replacing earlier ones.
pub fn load_bestiary(files: &[PathBuf]) -> Result<Bestiary, StorageError> {
    let texts = files
        .iter()
        .map(|path| read_text(path, MAX_FILE_BYTES))
        .collect::<Result<Vec<_>, _>>()?;
    solum_app::creatures::bestiary_with(texts.iter().map(String::as_str))
        .map_err(|(i, e)| refused(&files[i], e))
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
        let text = toml::to_string_pretty(&hero).unwrap();
        write_file(&path, text.as_bytes(), Replace::Allowed).unwrap();
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
        let err = read_text(dir.path(), MAX_FILE_BYTES).unwrap_err();
        assert!(matches!(err, StorageError::NotAFile { .. }), "{err}");
        #[cfg(unix)]
        {
            let err = read_text(Path::new("/dev/zero"), MAX_FILE_BYTES).unwrap_err();
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
        assert_eq!(
            read_text(&at_cap, MAX_FILE_BYTES).unwrap().len(),
            MAX_FILE_BYTES as usize
        );
        let err = decode(Path::new("x"), vec![b'a', 0xff], MAX_FILE_BYTES).unwrap_err();
        assert_eq!(err.to_string(), "x: not UTF-8 text (bad byte at offset 1)");
        let err = read_text(&dir.path().join("missing.txt"), MAX_FILE_BYTES).unwrap_err();
        assert!(matches!(err, StorageError::Io { .. }), "{err}");
    }

    #[test]
    fn each_reader_has_its_own_cap() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list.txt");
        std::fs::write(&list, "w\n".repeat(50)).unwrap();
        assert_eq!(read_text(&list, 100).unwrap().len(), 100);
        let err = read_text(&list, 99).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{}: larger than the 99 bytes solum reads", list.display())
        );
        // A stream has no size to ask first: one byte past the cap is read, and refused.
        let stream = "x".repeat(11);
        let err = read_capped(Path::new(STDIN), stream.as_bytes(), 10).unwrap_err();
        assert_eq!(
            err.to_string(),
            "standard input: larger than the 10 bytes solum reads"
        );
        assert_eq!(
            read_capped(Path::new(STDIN), &b"\xef\xbb\xbfxy"[..], 5).unwrap(),
            "xy"
        );
        let err = read_capped(Path::new(STDIN), &[b'a', 0xff][..], 10).unwrap_err();
        assert_eq!(
            err.to_string(),
            "standard input: not UTF-8 text (bad byte at offset 1)"
        );
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

    /// The files of a folder, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_safe_write_replaces_a_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nick.toml");
        write_file(&path, b"one", Replace::Allowed).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_file(&path, b"two", Replace::Allowed).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(names(dir.path()), ["nick.toml"]);
        // A new file only: an existing one is kept.
        let err = write_file(&path, b"three", Replace::Never).unwrap_err();
        assert!(matches!(err, StorageError::Exists { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let fresh = dir.path().join("fresh.md");
        write_file(&fresh, b"new", Replace::Never).unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"new");
        assert_eq!(names(dir.path()), ["fresh.md", "nick.toml"]);
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let err = write_file(&sub, b"x", Replace::Allowed).unwrap_err();
        assert!(
            matches!(
                err,
                StorageError::NotAFile {
                    kind: "a directory",
                    ..
                }
            ),
            "{err}"
        );
        assert!(sub.is_dir());
        assert_eq!(names(dir.path()), ["sub"]);
    }

    #[cfg(unix)]
    #[test]
    fn fifos_devices_and_symlinks_to_them_are_refused_before_anything_is_written() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let err = write_file(&fifo, b"x", Replace::Allowed).unwrap_err();
        assert!(matches!(err, StorageError::NotAFile { .. }), "{err}");
        // A device: refused by its kind, before its folder's permissions matter.
        let err = write_file(Path::new("/dev/null"), b"x", Replace::Allowed).unwrap_err();
        assert!(
            matches!(
                err,
                StorageError::NotAFile {
                    kind: "a device, pipe or socket",
                    ..
                }
            ),
            "{err}"
        );
        // A link is refused as a link, whatever it points to (a pipe, a folder, nothing).
        let to_fifo = dir.path().join("to-pipe");
        symlink(&fifo, &to_fifo).unwrap();
        let err = write_file(&to_fifo, b"x", Replace::Allowed).unwrap_err();
        assert!(matches!(err, StorageError::Symlink { .. }), "{err}");
        let to_dir = dir.path().join("to-dir");
        symlink(dir.path(), &to_dir).unwrap();
        let err = write_file(&to_dir, b"x", Replace::Allowed).unwrap_err();
        assert!(matches!(err, StorageError::Symlink { .. }), "{err}");
        let dangling = dir.path().join("dangling");
        symlink(dir.path().join("nowhere"), &dangling).unwrap();
        let err = write_file(&dangling, b"x", Replace::Allowed).unwrap_err();
        assert!(matches!(err, StorageError::Symlink { .. }), "{err}");
        let err = write_file(&dangling, b"x", Replace::Never).unwrap_err();
        assert!(matches!(err, StorageError::Symlink { .. }), "{err}");
        // Nothing was written: the links are still links, no file appeared.
        assert!(
            std::fs::symlink_metadata(&to_fifo)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(names(dir.path()), ["dangling", "pipe", "to-dir", "to-pipe"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_at_the_target_is_refused_and_its_file_untouched() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.toml");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.toml");
        symlink(&real, &link).unwrap();
        for replace in [Replace::Allowed, Replace::Never] {
            let err = write_file(&link, b"new", replace).unwrap_err();
            assert!(matches!(err, StorageError::Symlink { .. }), "{err}");
            assert!(err.to_string().contains("link.toml"), "{err}");
            assert!(check_target(&link, replace).is_err());
        }
        assert_eq!(std::fs::read(&real).unwrap(), b"old");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(names(dir.path()), ["link.toml", "real.toml"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_target_is_refused_and_stays_read_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locked.toml");
        std::fs::write(&path, "kept").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let err = write_file(&path, b"lost", Replace::Allowed).unwrap_err();
        assert!(matches!(err, StorageError::ReadOnly { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"kept");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o444);
        assert_eq!(names(dir.path()), ["locked.toml"]);
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_files_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // 0o666 would be narrowed by a usual umask (022) if the mode were set at creation.
        for mode in [0o600, 0o640, 0o666, 0o604] {
            let path = dir.path().join(format!("m{mode:o}.toml"));
            std::fs::write(&path, "old").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            write_file(&path, b"new", Replace::Allowed).unwrap();
            let got = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
            assert_eq!(got, mode, "{}", path.display());
            assert_eq!(std::fs::read(&path).unwrap(), b"new");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_usual_permissions_not_the_temporary_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // The umask as a plain file shows it: 0666 less the umask.
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").unwrap();
        let usual = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o7777;
        let path = dir.path().join("new.toml");
        write_file(&path, b"x", Replace::Never).unwrap();
        let got = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(got, usual);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_planted_at_a_guessable_temporary_name_is_not_followed() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let path = dir.path().join("nick.toml");
        // The names an attacker can guess: the old scheme (`.NAME.PID.tmp`), and the
        // prefix and suffix of the new one with every short random part.
        let pid = std::process::id();
        symlink(&victim, dir.path().join(format!(".nick.toml.{pid}.tmp"))).unwrap();
        symlink(&victim, dir.path().join(".nick.toml..tmp")).unwrap();
        for c in ["a", "b", "0", "1"] {
            symlink(&victim, dir.path().join(format!(".nick.toml.{c}.tmp"))).unwrap();
        }
        write_file(&path, b"sheet", Replace::Allowed).unwrap();
        write_file(&path, b"sheet again", Replace::Allowed).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read(&path).unwrap(), b"sheet again");
        // The planted links are untouched, and no temporary file is left.
        assert_eq!(names(dir.path()).len(), 1 + 6 + 1);
    }
}
