//! Typed dice that do not fit a campaign roll, explained with the command line's flag.

use solum_app::AppError;
use solum_app::typed_dice::FieldName;

use crate::bad;

/// The flag that gives a campaign roll's faces typed by hand.
#[derive(Debug, Clone, Copy)]
struct Rolled;

impl FieldName for Rolled {
    fn name(self) -> &'static str {
        "--rolled"
    }
}

/// A use case's error: typed dice that did not fit are explained naming `--rolled` and the
/// order the roll reads them in (the app's typed value, `AppError::typed_dice`); any other
/// error stays as it is.
pub fn typed_dice_error(e: AppError, order: &str) -> anyhow::Error {
    match e.typed_dice(Rolled, order) {
        Ok(d) if d.is_bad_input() => bad(d.to_string()),
        Ok(d) => anyhow::Error::new(d),
        Err(other) => other.into(),
    }
}
