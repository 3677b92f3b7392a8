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

fn read(path: &Path) -> Result<String, StorageError> {
    std::fs::read_to_string(path).map_err(|source| StorageError::Io {
        path: path.to_owned(),
        source,
    })
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
    parse_character(path, &read(path)?)
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
        let file = parse_bestiary(&read(path)?).map_err(|e| StorageError::Parse {
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
}
