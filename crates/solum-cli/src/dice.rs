//! Choosing the dice source for a command: typed values, or a seeded generator.

use std::cell::{Cell, RefCell};

use solum_dice::{DiceError, DiceSource, SeededDice, TypedDice, parse_faces};

use crate::bad;

/// The source of one side's dice, and how to explain problems with it.
pub enum Source {
    /// Values typed in with the named flag.
    Typed { flag: &'static str, dice: TypedDice },
    /// The command's seeded generator.
    Seeded,
}

impl Source {
    /// Typed values if `text` is given, the seeded generator otherwise.
    pub fn from_flag(flag: &'static str, text: Option<&str>) -> anyhow::Result<Self> {
        Ok(match text {
            Some(text) => Self::Typed {
                flag,
                dice: TypedDice::new(parse_faces(text).map_err(|e| bad(format!("{flag}: {e}")))?),
            },
            None => Self::Seeded,
        })
    }

    /// Checks that every typed value was used.
    pub fn finish(&self, order: &str) -> anyhow::Result<()> {
        if let Self::Typed { flag, dice } = self
            && let Err((used, given)) = dice.finish()
        {
            return Err(bad(format!(
                "too many values in {flag}: {given} given, the roll used {used} ({order})"
            )));
        }
        Ok(())
    }
}

/// The generator of a command, created only if some side needs it.
pub struct Generator {
    seed: Option<u64>,
    dice: Option<SeededDice>,
}

impl Generator {
    /// A generator for `--seed`, or a fresh seed when none was given.
    pub fn new(seed: Option<u64>) -> Self {
        Self { seed, dice: None }
    }

    /// The generator, created on first use.
    pub fn dice(&mut self) -> &mut SeededDice {
        let seed = self.seed;
        self.dice.get_or_insert_with(|| match seed {
            Some(seed) => SeededDice::new(seed),
            None => SeededDice::from_entropy(),
        })
    }

    /// The seed, if the generator rolled anything.
    pub fn used_seed(&self) -> Option<u64> {
        self.dice.as_ref().map(SeededDice::seed)
    }
}

/// Turns a dice error into a message for the player: what was wrong and in which flag.
pub fn explain(err: DiceError, flag: &str, order: &str) -> anyhow::Error {
    match err {
        DiceError::Exhausted { given } => bad(format!(
            "too few values in {flag}: {given} given, the roll needs more ({order})"
        )),
        DiceError::OutOfRange {
            value,
            sides,
            position,
        } => bad(format!(
            "{flag}: value {value} (number {position}) is not a face of a d{sides}: it must be 1 to {sides}"
        )),
        other => anyhow::Error::new(other),
    }
}

/// A source that rolls one side's dice from its typed values or from the command's
/// generator. When typed values fail, it records their flag in `blame` so that the message
/// names the right one.
pub struct SideDice<'a> {
    source: &'a mut Source,
    generator: &'a RefCell<Generator>,
    blame: &'a Cell<&'static str>,
}

impl<'a> SideDice<'a> {
    /// One side's dice.
    pub fn new(
        source: &'a mut Source,
        generator: &'a RefCell<Generator>,
        blame: &'a Cell<&'static str>,
    ) -> Self {
        Self {
            source,
            generator,
            blame,
        }
    }
}

impl DiceSource for SideDice<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        match self.source {
            Source::Typed { flag, dice } => dice.roll(sides).inspect_err(|_| self.blame.set(flag)),
            Source::Seeded => self.generator.borrow_mut().dice().roll(sides),
        }
    }
}
