//! The solo oracle of So1um Expanded (S12): a d6 answers a yes/no question, and an And or a
//! But calls for the event table, whose NPC and monster rows call for a disposition die.
//!
//! Dice are drawn in the order a player rolls them: the answer die (two with advantage or
//! disadvantage), then the event die on an And or a But, then the disposition die when the
//! event is an NPC or a monster.

use num_traits::Zero;
use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, Prob, prob};

/// The six answers, d6 1 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// 1: no, and things went really bad.
    NoAnd,
    /// 2.
    No,
    /// 3: no, but the blow is softened.
    NoBut,
    /// 4: yes, with a drawback.
    YesBut,
    /// 5.
    Yes,
    /// 6: yes, and all kinds of awesome.
    YesAnd,
}

impl Answer {
    /// Every answer, from the die's 1 to its 6.
    pub const ALL: [Answer; 6] = [
        Self::NoAnd,
        Self::No,
        Self::NoBut,
        Self::YesBut,
        Self::Yes,
        Self::YesAnd,
    ];

    /// The answer a die shows (1 to 6).
    pub fn from_die(face: u32) -> Option<Self> {
        Self::ALL.get((face as usize).checked_sub(1)?).copied()
    }

    /// As the table writes it.
    pub fn text(self) -> &'static str {
        match self {
            Self::NoAnd => "No, and",
            Self::No => "No",
            Self::NoBut => "No, but",
            Self::YesBut => "Yes, but",
            Self::Yes => "Yes",
            Self::YesAnd => "Yes, and",
        }
    }

    /// An And amplifies and a But mitigates: both call for the event table.
    pub fn has_event(self) -> bool {
        !matches!(self, Self::No | Self::Yes)
    }
}

/// Whether the odds favour the hero (best of 2d6), are slim (worst of 2d6), or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Leaning))]
pub enum Leaning {
    /// One d6.
    #[default]
    Even,
    /// An applicable background, an advantage or favourable odds: the best of 2d6.
    Advantage,
    /// A significant disadvantage or very slim odds: the worst of 2d6.
    Disadvantage,
}

impl Leaning {
    /// Dice rolled for the answer.
    pub fn dice(self) -> usize {
        match self {
            Self::Even => 1,
            Self::Advantage | Self::Disadvantage => 2,
        }
    }
}

/// How an NPC or a monster met through the event table feels about the hero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Disposition {
    /// Friendly.
    Friendly,
    /// Neutral.
    Neutral,
    /// Not friendly.
    NotFriendly,
}

impl Disposition {
    /// As the text writes it.
    pub fn text(self) -> &'static str {
        match self {
            Self::Friendly => "friendly",
            Self::Neutral => "neutral",
            Self::NotFriendly => "not friendly",
        }
    }

    /// An NPC: 1–3 friendly, 4–5 neutral, 6 not friendly.
    pub fn of_npc(face: u32) -> Self {
        match face {
            1..=3 => Self::Friendly,
            4 | 5 => Self::Neutral,
            _ => Self::NotFriendly,
        }
    }

    /// A monster: 1 friendly, 2–3 neutral, 4–6 not friendly.
    pub fn of_monster(face: u32) -> Self {
        match face {
            1 => Self::Friendly,
            2 | 3 => Self::Neutral,
            _ => Self::NotFriendly,
        }
    }
}

/// A row of the And/But event table, with the disposition where the row has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Event {
    /// 1: nothing significant happens.
    Nothing,
    /// 2: an obstacle, something to overcome.
    Obstacle,
    /// 3–4: a unique feature or situation.
    UniqueFeature,
    /// 5: an NPC.
    Npc {
        /// Rolled on a second d6.
        disposition: Disposition,
    },
    /// 6: a monster.
    Monster {
        /// Rolled on a second d6.
        disposition: Disposition,
    },
}

impl Event {
    /// One line, as a player would write it down.
    pub fn text(self) -> String {
        match self {
            Self::Nothing => "Nothing significant happens".into(),
            Self::Obstacle => "An obstacle, something to overcome".into(),
            Self::UniqueFeature => "A unique feature or situation".into(),
            Self::Npc { disposition } => format!("An NPC ({})", disposition.text()),
            Self::Monster { disposition } => format!("A monster ({})", disposition.text()),
        }
    }
}

/// One consultation of the oracle, every die kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OracleOutcome {
    /// How the answer was rolled.
    pub leaning: Leaning,
    /// The answer dice as rolled (one, or two with advantage or disadvantage).
    pub dice: Vec<u32>,
    /// The die that counts: the only one, the best or the worst.
    pub die: u32,
    /// The answer.
    pub answer: Answer,
    /// The event die, on an And or a But.
    pub event_die: Option<u32>,
    /// The disposition die, when the event is an NPC or a monster.
    pub disposition_die: Option<u32>,
    /// The event, on an And or a But.
    pub event: Option<Event>,
}

/// Asks the oracle a yes/no question.
pub fn ask(leaning: Leaning, dice: &mut dyn DiceSource) -> Result<OracleOutcome, DiceError> {
    let faces = dice.roll_many(leaning.dice(), 6)?;
    let die = match leaning {
        Leaning::Disadvantage => faces.iter().copied().min(),
        Leaning::Even | Leaning::Advantage => faces.iter().copied().max(),
    }
    .ok_or(DiceError::Exhausted { given: 0 })?;
    let answer = Answer::from_die(die).ok_or(DiceError::OutOfRange {
        value: die,
        sides: 6,
        position: 1,
    })?;
    let (mut event_die, mut disposition_die, mut event) = (None, None, None);
    if answer.has_event() {
        let row = dice.roll(6)?;
        event_die = Some(row);
        event = Some(match row {
            1 => Event::Nothing,
            2 => Event::Obstacle,
            3 | 4 => Event::UniqueFeature,
            5 => {
                let d = dice.roll(6)?;
                disposition_die = Some(d);
                Event::Npc {
                    disposition: Disposition::of_npc(d),
                }
            }
            _ => {
                let d = dice.roll(6)?;
                disposition_die = Some(d);
                Event::Monster {
                    disposition: Disposition::of_monster(d),
                }
            }
        });
    }
    Ok(OracleOutcome {
        leaning,
        dice: faces,
        die,
        answer,
        event_die,
        disposition_die,
        event,
    })
}

/// The exact chance of each answer, in the order of [`Answer::ALL`].
///
/// One d6 gives 1/6 each. The best of two shows `k` with `(2k − 1)/36`, the worst of two with
/// `(13 − 2k)/36`.
pub fn answer_odds(leaning: Leaning) -> [Prob; 6] {
    let mut odds: [Prob; 6] = std::array::from_fn(|_| Prob::zero());
    for (i, p) in odds.iter_mut().enumerate() {
        let k = i as i64 + 1;
        *p = match leaning {
            Leaning::Even => prob(1, 6),
            Leaning::Advantage => prob(2 * k - 1, 36),
            Leaning::Disadvantage => prob(13 - 2 * k, 36),
        };
    }
    odds
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{Prob, ScriptedDice, SeededDice, enumerate};

    #[test]
    fn the_table_as_written() {
        let texts: Vec<_> = (1..=6)
            .map(|f| Answer::from_die(f).unwrap().text())
            .collect();
        assert_eq!(
            texts,
            ["No, and", "No", "No, but", "Yes, but", "Yes", "Yes, and"]
        );
        assert_eq!(Answer::from_die(0), None);
        assert_eq!(Answer::from_die(7), None);
    }

    #[test]
    fn plain_answers_roll_one_die_and_no_event() {
        let o = ask(Leaning::Even, &mut ScriptedDice::new([5])).unwrap();
        assert_eq!((o.answer, o.event, o.die), (Answer::Yes, None, 5));
        let o = ask(Leaning::Even, &mut ScriptedDice::new([2])).unwrap();
        assert_eq!((o.answer, o.event), (Answer::No, None));
    }

    #[test]
    fn advantage_keeps_the_best_and_disadvantage_the_worst() {
        let o = ask(Leaning::Advantage, &mut ScriptedDice::new([2, 5])).unwrap();
        assert_eq!(
            (o.dice.as_slice(), o.die, o.answer),
            (&[2, 5][..], 5, Answer::Yes)
        );
        let o = ask(Leaning::Disadvantage, &mut ScriptedDice::new([2, 5])).unwrap();
        assert_eq!((o.die, o.answer), (2, Answer::No));
    }

    #[test]
    fn events_and_dispositions_follow_the_table() {
        // Yes, but → event 2: an obstacle, no disposition die.
        let o = ask(Leaning::Even, &mut ScriptedDice::new([4, 2])).unwrap();
        assert_eq!(o.event, Some(Event::Obstacle));
        assert_eq!(o.disposition_die, None);
        // No, and → event 5: an NPC; 3 is friendly, 4 neutral, 6 not friendly.
        for (d, want) in [
            (3, Disposition::Friendly),
            (4, Disposition::Neutral),
            (6, Disposition::NotFriendly),
        ] {
            let o = ask(Leaning::Even, &mut ScriptedDice::new([1, 5, d])).unwrap();
            assert_eq!(o.event, Some(Event::Npc { disposition: want }));
        }
        // Yes, and → event 6: a monster; 1 friendly, 3 neutral, 4 not friendly.
        for (d, want) in [
            (1, Disposition::Friendly),
            (3, Disposition::Neutral),
            (4, Disposition::NotFriendly),
        ] {
            let o = ask(Leaning::Even, &mut ScriptedDice::new([6, 6, d])).unwrap();
            assert_eq!(o.event, Some(Event::Monster { disposition: want }));
        }
        // No, but → 3 and 4 are both a unique feature.
        let o = ask(Leaning::Even, &mut ScriptedDice::new([3, 4])).unwrap();
        assert_eq!(o.event, Some(Event::UniqueFeature));
    }

    /// The closed form against every path of the real roll function.
    #[test]
    fn answer_odds_match_enumeration() {
        for leaning in [Leaning::Even, Leaning::Advantage, Leaning::Disadvantage] {
            let e = enumerate(8, |d| ask(leaning, d).map(|o| o.answer)).unwrap();
            assert!(e.truncated.is_zero());
            let odds = answer_odds(leaning);
            let total: Prob = odds.iter().sum();
            assert_eq!(total, solum_dice::prob(1, 1));
            for (answer, p) in Answer::ALL.iter().zip(&odds) {
                assert_eq!(e.p(|a| a == answer), *p, "{leaning:?} {answer:?}");
            }
        }
    }

    /// Reference values counted by hand: best of two shows 6 in 11 of 36 throws, worst of two
    /// shows 1 in 11 of 36.
    #[test]
    fn answer_odds_reference_values() {
        assert_eq!(answer_odds(Leaning::Advantage)[5], solum_dice::prob(11, 36));
        assert_eq!(answer_odds(Leaning::Advantage)[0], solum_dice::prob(1, 36));
        assert_eq!(
            answer_odds(Leaning::Disadvantage)[0],
            solum_dice::prob(11, 36)
        );
        assert_eq!(
            answer_odds(Leaning::Disadvantage)[5],
            solum_dice::prob(1, 36)
        );
    }

    /// Seeded simulation within four standard errors of the exact odds.
    #[test]
    fn answer_odds_match_simulation() {
        let n = 60_000_u32;
        for leaning in [Leaning::Even, Leaning::Advantage, Leaning::Disadvantage] {
            let mut dice = SeededDice::new(2026);
            let mut counts = [0_u32; 6];
            for _ in 0..n {
                let o = ask(leaning, &mut dice).unwrap();
                counts[o.die as usize - 1] += 1;
            }
            for (i, p) in answer_odds(leaning).iter().enumerate() {
                let p = solum_dice::prob_to_f64(p);
                let se = (p * (1.0 - p) / f64::from(n)).sqrt();
                let seen = f64::from(counts[i]) / f64::from(n);
                assert!((seen - p).abs() < 4.0 * se, "{leaning:?} face {}", i + 1);
            }
        }
    }
}
