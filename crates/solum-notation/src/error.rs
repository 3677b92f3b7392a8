//! Errors of the notation: where in the expression, and what was wrong or expected.

use solum_dice::DiceError;
use thiserror::Error;

use crate::ast::Span;

/// Why an expression cannot be read, rolled or computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// The text does not follow the grammar, or a term is out of its range; `span` points
    /// at the place.
    #[error("{message}")]
    Syntax {
        /// What was wrong, or what was expected there.
        message: String,
        /// Where.
        span: Span,
    },
    /// A limit that keeps every expression quick was passed.
    #[error("{message}")]
    Limit {
        /// Which limit, with its value.
        message: String,
        /// Where, when one term is to blame.
        span: Option<Span>,
    },
    /// A roll went wrong (division by zero, an overflow) at `span`.
    #[error("{message}")]
    Eval {
        /// What happened.
        message: String,
        /// Where.
        span: Span,
    },
    /// The dice source failed (typed dice ran out or do not fit).
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl NotationError {
    /// The place the error points at, if any.
    pub fn span(&self) -> Option<Span> {
        match self {
            Self::Syntax { span, .. } | Self::Eval { span, .. } => Some(*span),
            Self::Limit { span, .. } => *span,
            Self::Dice(_) => None,
        }
    }

    /// The message with the expression below it and a caret under the place:
    ///
    /// ```text
    /// expected a number of dice to keep after `kh`
    ///   4d6kh
    ///        ^
    /// ```
    pub fn render(&self, input: &str) -> String {
        let mut text = self.to_string();
        if let Some(span) = self.span() {
            // Columns count characters, not bytes, so the caret sits under the right one.
            let line: String = input
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            if line.chars().count() <= 200 {
                let start = input.get(..span.start).map_or(0, |s| s.chars().count());
                let width = input
                    .get(span.start..span.end.max(span.start))
                    .map_or(1, |s| s.chars().count())
                    .max(1);
                text.push_str(&format!(
                    "\n  {line}\n  {}{}",
                    " ".repeat(start),
                    "^".repeat(width)
                ));
            } else {
                text.push_str(&format!(" (at column {})", span.start + 1));
            }
        }
        text
    }

    pub(crate) fn syntax(message: impl Into<String>, start: usize, end: usize) -> Self {
        Self::Syntax {
            message: message.into(),
            span: Span { start, end },
        }
    }

    pub(crate) fn limit(message: impl Into<String>, span: Option<Span>) -> Self {
        Self::Limit {
            message: message.into(),
            span,
        }
    }

    pub(crate) fn eval(message: impl Into<String>, span: Span) -> Self {
        Self::Eval {
            message: message.into(),
            span,
        }
    }
}
