//! Play and storage: where the rules meet files, scripts and many cores.
//!
//! * [`storage`]: character sheets and bestiaries as human-editable TOML files, with errors
//!   that name the file, the field and the problem, and saves that never leave half a file.
//! * [`encounter`]: the line language of `solum combat` (setup, commands, typed dice per
//!   line), driving [`solum_expanded::combat::Combat`].
//! * [`describe`]: events as text, shared by the CLI and the journal.
//! * [`sim`]: seeded, parallel Monte Carlo of whole fights whose numbers do not depend on
//!   the number of threads.
//!
//! The rules crates stay pure; this crate owns the file system and threads.

pub mod describe;
pub mod encounter;
pub mod sim;
pub mod storage;
