//! Every file the command line writes goes through the one safe writer: a symbolic link at
//! the target is refused (never followed), a FIFO is refused without being opened (so the
//! command cannot hang on it), a read-only file is refused and stays as it was. Each run is
//! under a memory limit, a CPU limit and a wall-clock timeout: a hang is a failure.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use crate::common;

use std::path::{Path, PathBuf};

use common::bounded;

/// A folder with a victim file, a link to it, a FIFO and a read-only file, each named with
/// `ext`.
struct Traps {
    dir: tempfile::TempDir,
}

const PRECIOUS: &str = "precious, not solum's";

impl Traps {
    fn new(ext: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("victim.txt"), PRECIOUS).unwrap();
        std::os::unix::fs::symlink("victim.txt", dir.path().join(format!("link.{ext}"))).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join(format!("pipe.{ext}")))
            .status()
            .unwrap();
        assert!(made.success());
        let ro = dir.path().join(format!("ro.{ext}"));
        std::fs::write(&ro, PRECIOUS).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
        Self { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn campaign(&self) -> PathBuf {
        self.path().join("c.solum")
    }

    /// Nothing was written through the link or into the read-only file; the link and the
    /// pipe are still what they were.
    fn untouched(&self, ext: &str) {
        let p = self.path();
        assert_eq!(
            std::fs::read_to_string(p.join("victim.txt")).unwrap(),
            PRECIOUS
        );
        assert_eq!(
            std::fs::read_to_string(p.join(format!("ro.{ext}"))).unwrap(),
            PRECIOUS
        );
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let ro = std::fs::metadata(p.join(format!("ro.{ext}"))).unwrap();
        assert_eq!(ro.permissions().mode() & 0o7777, 0o444);
        let link = std::fs::symlink_metadata(p.join(format!("link.{ext}"))).unwrap();
        assert!(link.file_type().is_symlink());
        let pipe = std::fs::symlink_metadata(p.join(format!("pipe.{ext}"))).unwrap();
        assert!(pipe.file_type().is_fifo());
        // No temporary file is left behind.
        for entry in std::fs::read_dir(p).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(!name.ends_with(".tmp"), "{name} left behind");
        }
    }

    /// Runs `args` with each trap as the target (`{}` in `args`), expecting a refusal
    /// (exit 2) that names the file and says why.
    fn refused(&self, ext: &str, args: &[&str]) {
        for (trap, why) in [
            ("link", "symbolic link"),
            ("pipe", "not a regular file"),
            ("ro", "read-only"),
        ] {
            let target = format!("{trap}.{ext}");
            let args: Vec<&str> = args
                .iter()
                .map(|a| if *a == "{}" { target.as_str() } else { a })
                .collect();
            let run = bounded(self.path(), &args);
            run.bad_input(&target);
            assert!(
                run.stderr.contains(why),
                "{args:?}: expected {why:?} in {}",
                run.stderr
            );
        }
        self.untouched(ext);
    }
}

#[test]
fn odds_plots_refuse_links_pipes_and_read_only_files() {
    for ext in ["png", "svg"] {
        let traps = Traps::new(ext);
        traps.refused(ext, &["odds", "2d6", "--plot", "{}"]);
        traps.refused(ext, &["odds", "2d6", "--plot", "{}", "--force"]);
        // A new file is written, and an existing one replaced only with --force.
        let file = format!("plot.{ext}");
        bounded(traps.path(), &["odds", "2d6", "--plot", &file]).ok();
        let first = std::fs::read(traps.path().join(&file)).unwrap();
        assert!(first.len() > 1000);
        bounded(traps.path(), &["odds", "2d6", "--plot", &file]).bad_input("already exists");
        bounded(traps.path(), &["odds", "3d6", "--plot", &file, "--force"]).ok();
        assert_ne!(std::fs::read(traps.path().join(&file)).unwrap(), first);
        traps.untouched(ext);
    }
}

#[test]
fn a_png_plot_is_a_whole_png_file() {
    let dir = tempfile::tempdir().unwrap();
    bounded(dir.path(), &["odds", "2d6", "--plot", "p.png"]).ok();
    let bytes = std::fs::read(dir.path().join("p.png")).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // The header's width and height (big-endian, after "IHDR"), and the end chunk.
    assert_eq!(&bytes[12..16], b"IHDR");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 960);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 600);
    assert_eq!(&bytes[bytes.len() - 8..bytes.len() - 4], b"IEND");
}

#[test]
fn char_export_force_refuses_links_pipes_and_read_only_files() {
    let traps = Traps::new("toml");
    let c = traps.campaign();
    let c = c.to_str().unwrap();
    bounded(
        traps.path(),
        &[
            "char",
            "new",
            "Nick",
            "--body",
            "3",
            "--mind",
            "2",
            "--charm",
            "1",
            "-b",
            "Acrobat Thief",
            "--weapon",
            "dagger",
            "--seed",
            "1",
            "--campaign",
            c,
        ],
    )
    .ok();
    traps.refused(
        "toml",
        &[
            "char",
            "export",
            "Nick",
            "--out",
            "{}",
            "--force",
            "--campaign",
            c,
        ],
    );
    bounded(
        traps.path(),
        &[
            "char",
            "export",
            "Nick",
            "--out",
            "nick.toml",
            "--campaign",
            c,
        ],
    )
    .ok();
    assert!(
        std::fs::read_to_string(traps.path().join("nick.toml"))
            .unwrap()
            .contains("Nick")
    );
}

#[test]
fn sol_export_force_refuses_links_pipes_and_read_only_files() {
    let traps = Traps::new("toml");
    let c = traps.campaign();
    let c = c.to_str().unwrap();
    bounded(
        traps.path(),
        &["sol", "new", "Kyra", "--edge", "2", "--campaign", c],
    )
    .ok();
    traps.refused(
        "toml",
        &[
            "sol",
            "export",
            "Kyra",
            "-o",
            "{}",
            "--force",
            "--campaign",
            c,
        ],
    );
    bounded(
        traps.path(),
        &["sol", "export", "Kyra", "-o", "kyra.toml", "--campaign", c],
    )
    .ok();
    assert!(
        std::fs::read_to_string(traps.path().join("kyra.toml"))
            .unwrap()
            .contains("Kyra")
    );
}

#[test]
fn classic_new_force_refuses_links_pipes_and_read_only_files() {
    let traps = Traps::new("toml");
    traps.refused(
        "toml",
        &[
            "classic", "new", "Nim", "-o", "{}", "--force", "--seed", "1",
        ],
    );
    bounded(
        traps.path(),
        &["classic", "new", "Nim", "-o", "nim.toml", "--seed", "1"],
    )
    .ok();
    assert!(
        std::fs::read_to_string(traps.path().join("nim.toml"))
            .unwrap()
            .contains("Nim")
    );
}
