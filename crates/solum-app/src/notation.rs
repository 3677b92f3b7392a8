//! Dice notation rolled at the table (`solum roll EXPR --journal`, the page's roll box):
//! any expression of `solum-notation` (`4d6kh3`, `2d10 + 3 [fire]`, `solum(3, vs 7)`),
//! rolled with a seed the program chooses (or faces typed in), journaled with the expression,
//! the seed or faces and every die, and re-derived by `journal verify`.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use solum_notation::NotationError;
use solum_store::CampaignStore;

use crate::characters::bad;
use crate::journal::{Record, Rolled};
use crate::{AppError, Campaign, Dice, text};

/// The schema of the records this build writes.
pub const NOTATION_RECORD_SCHEMA: i64 = 1;

/// The longest expression taken, in characters (as `POST /api/odds`).
pub const MAX_EXPRESSION: usize = 200;

/// A roll of dice notation, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotationRecord {
    /// [`NOTATION_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The expression as typed (trimmed): what a replay parses again.
    pub expression: String,
    /// The dice: the seed or the typed faces, and every face drawn, left to right.
    pub rolled: Rolled,
    /// What the dice gave.
    #[serde(flatten)]
    pub outcome: NotationOutcome,
}

/// What a roll of an expression gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotationOutcome {
    /// The expression as the notation prints it.
    pub canonical: String,
    /// The value of the whole expression.
    pub total: i64,
    /// Each term with every die (faces, rerolls, explosions, dropped dice), as
    /// `solum roll --json` writes them.
    pub terms: serde_json::Value,
}

impl NotationRecord {
    /// True: a roll always holds dice (an expression of constants draws none, and its
    /// replay is as checked).
    pub fn has_dice(&self) -> bool {
        true
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let faces = self
            .rolled
            .faces
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "roll {} = {} (dice {})",
            self.outcome.canonical, self.outcome.total, faces
        )
    }

    /// The limits of a roll made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > NOTATION_RECORD_SCHEMA {
            return Err(AppError::BadImport(format!(
                "a notation record of schema {}, newer than this solum knows",
                self.schema
            )));
        }
        parse(&self.expression).map(drop)
    }

    /// Re-derives the roll: `None` when it matches, else what differs.
    pub(crate) fn replay(&self) -> Option<String> {
        if self.schema > NOTATION_RECORD_SCHEMA {
            return Some(format!(
                "notation record schema {} is newer than this solum knows",
                self.schema
            ));
        }
        let expr = match parse(&self.expression) {
            Ok(e) => e,
            Err(e) => return Some(format!("the expression cannot be read: {e}")),
        };
        let derived = crate::journal::derive_public(&self.rolled, |d| rule(&expr, d));
        match derived {
            Err(e) => Some(format!("its dice cannot be replayed: {e}")),
            Ok((Err(e), _)) => Some(format!("the roll cannot be made: {e}")),
            Ok((Ok(outcome), faces)) => {
                let mut found = Vec::new();
                if faces != self.rolled.faces {
                    found.push(format!(
                        "rolled.faces: recorded {:?}, the {} gives {:?}",
                        self.rolled.faces,
                        if self.rolled.typed {
                            "typed dice"
                        } else {
                            "seed"
                        },
                        faces
                    ));
                }
                if outcome != self.outcome {
                    found.push(crate::journal::differing_fields(
                        "",
                        &self.outcome,
                        &outcome,
                    ));
                }
                (!found.is_empty()).then(|| found.join("; "))
            }
        }
    }
}

/// Reads an expression: trimmed, within [`MAX_EXPRESSION`], no control characters, and
/// parsed by the notation (a mistake is shown under the expression with a caret).
fn parse(raw: &str) -> Result<solum_notation::Expr, AppError> {
    let t = text("expression", raw, MAX_EXPRESSION, false)?;
    solum_notation::parse(&t).map_err(|e| bad("expression", e.render(&t)))
}

/// The roll as a rule of the journal: a dice error (typed faces that do not fit) is the
/// journal's; any other failure of the roll (a division by zero) is the expression's.
fn rule(
    expr: &solum_notation::Expr,
    dice: &mut dyn DiceSource,
) -> Result<Result<NotationOutcome, String>, DiceError> {
    match solum_notation::roll(expr, dice) {
        Ok(rolled) => Ok(Ok(NotationOutcome {
            canonical: expr.to_string(),
            total: rolled.total,
            terms: serde_json::to_value(&rolled.terms).unwrap_or_default(),
        })),
        Err(NotationError::Dice(e)) => Err(e),
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// A roll of dice notation, for a front end to show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotationView {
    /// The journal entry.
    pub seq: i64,
    /// The expression as typed.
    pub expression: String,
    /// What the dice gave: `canonical`, `total`, `terms`.
    #[serde(flatten)]
    pub outcome: NotationOutcome,
    /// The dice.
    pub rolled: Rolled,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
    /// True when the dice were typed in.
    pub typed: bool,
}

impl<S: CampaignStore> Campaign<S> {
    /// Rolls a dice expression and journals it with its seed (or typed faces) and every
    /// die. Typed faces go each die, then its rerolls and explosions, left to right.
    pub fn roll_notation(
        &mut self,
        expression: &str,
        dice: Dice,
    ) -> Result<NotationView, AppError> {
        let expression = text("expression", expression, MAX_EXPRESSION, false)?;
        // The notation checks its limits before any die is drawn.
        let expr = parse(&expression)?;
        let (outcome, rolled) = crate::journal::roll(dice, |d| rule(&expr, d))?;
        let outcome = outcome.map_err(|e| bad("expression", e))?;
        let entry = self.append_one(Record::Notation(Box::new(NotationRecord {
            schema: NOTATION_RECORD_SCHEMA,
            expression: expression.clone(),
            rolled: rolled.clone(),
            outcome: outcome.clone(),
        })))?;
        Ok(NotationView {
            seq: entry.seq,
            expression,
            outcome,
            seed: rolled.seed,
            typed: rolled.typed,
            rolled,
        })
    }
}
