//! The yes/no oracle and the two event tables of the original So1um (C1).

use serde::Serialize;
use solum_dice::{DiceError, DiceSource};

/// The oracle's answers, d6 1 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// 1: things went really bad.
    NoAnd,
    /// 2.
    No,
    /// 3: softens the blow.
    NoBut,
    /// 4: success with a drawback.
    YesBut,
    /// 5.
    Yes,
    /// 6: all kinds of awesome.
    YesAnd,
}

impl Answer {
    /// The answer a die shows.
    pub fn from_die(face: u32) -> Self {
        match face {
            1 => Self::NoAnd,
            2 => Self::No,
            3 => Self::NoBut,
            4 => Self::YesBut,
            5 => Self::Yes,
            _ => Self::YesAnd,
        }
    }

    /// As the text writes it.
    pub fn text(self) -> &'static str {
        match self {
            Self::NoAnd => "No, and…",
            Self::No => "No",
            Self::NoBut => "No, but…",
            Self::YesBut => "Yes, but…",
            Self::Yes => "Yes",
            Self::YesAnd => "Yes, and…",
        }
    }
}

/// Advantage (best of 2d6), disadvantage (worst of 2d6), or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Odds {
    /// One d6.
    #[default]
    Even,
    /// An applicable cliché or an advantage: best of 2d6.
    Advantage,
    /// A significant disadvantage: worst of 2d6.
    Disadvantage,
}

/// The table for "Yes, but…" and "No, and…".
pub const TROUBLE: [&str; 6] = [
    "Nothing significant happens",
    "An obstacle",
    "A unique feature or situation",
    "A unique feature or situation",
    "Unfriendly NPC",
    "Unfriendly Monster",
];

/// The table for "Yes, and…" and "No, but…".
pub const HELP: [&str; 6] = [
    "Nothing significant happens",
    "Something that aids the player",
    "A unique feature or situation",
    "A unique feature or situation",
    "Friendly NPC",
    "Friendly NPC (or friendly monster, if you like)",
];

/// An oracle consultation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Consultation {
    /// The dice for the answer (one, or two with advantage or disadvantage).
    pub dice: Vec<u32>,
    /// The answer.
    pub answer: Answer,
    /// On an And or a But: the event die and what it means.
    pub event: Option<(u32, &'static str)>,
}

/// Asks the oracle. Dice: the answer die (two with advantage or disadvantage), then the
/// event die on an And or a But.
pub fn ask(odds: Odds, dice: &mut dyn DiceSource) -> Result<Consultation, DiceError> {
    let faces = match odds {
        Odds::Even => vec![dice.roll(6)?],
        _ => dice.roll_many(2, 6)?,
    };
    let face = match odds {
        Odds::Disadvantage => faces.iter().copied().min(),
        _ => faces.iter().copied().max(),
    }
    .expect("a die");
    let answer = Answer::from_die(face);
    let table = match answer {
        Answer::YesBut | Answer::NoAnd => Some(&TROUBLE),
        Answer::YesAnd | Answer::NoBut => Some(&HELP),
        Answer::Yes | Answer::No => None,
    };
    let event = match table {
        Some(t) => {
            let d = dice.roll(6)?;
            Some((d, t[d as usize - 1]))
        }
        None => None,
    };
    Ok(Consultation {
        dice: faces,
        answer,
        event,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    #[test]
    fn answers_and_tables() {
        let c = ask(Odds::Even, &mut ScriptedDice::new([5])).unwrap();
        assert_eq!((c.answer, c.event), (Answer::Yes, None));
        let c = ask(Odds::Even, &mut ScriptedDice::new([4, 5])).unwrap();
        assert_eq!(c.event, Some((5, "Unfriendly NPC")));
        let c = ask(Odds::Advantage, &mut ScriptedDice::new([1, 6, 2])).unwrap();
        assert_eq!(c.answer, Answer::YesAnd);
        assert_eq!(c.event, Some((2, "Something that aids the player")));
        let c = ask(Odds::Disadvantage, &mut ScriptedDice::new([1, 6, 6])).unwrap();
        assert_eq!(
            (c.answer, c.event),
            (Answer::NoAnd, Some((6, "Unfriendly Monster")))
        );
    }
}
