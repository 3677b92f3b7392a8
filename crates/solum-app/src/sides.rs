//! The dice of a one-shot roll with two sides, each typed in by hand or rolled by one
//! generator they share (`solum check --rolled … --against-rolled …`, the original So1um's
//! duel, Project Sol's opposed test): which side's typed values failed, and whether every
//! typed value was used, are answered per side.

use std::cell::{Cell, RefCell};

use solum_dice::{DiceError, DiceSource, FacesError, SeededDice, TypedDice, parse_faces};

/// The shared generator, made on its first roll (a roll that only reads typed values
/// reports no seed).
pub(crate) struct Generator {
    seed: Option<u64>,
    dice: Option<SeededDice>,
}

impl Generator {
    /// A generator for `seed`, or a fresh seed when none was given.
    pub(crate) fn new(seed: Option<u64>) -> Self {
        Self { seed, dice: None }
    }

    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        let seed = self.seed;
        self.dice
            .get_or_insert_with(|| match seed {
                Some(s) => SeededDice::new(s),
                None => SeededDice::from_entropy(),
            })
            .roll(sides)
    }

    /// The seed, if the generator rolled anything.
    pub(crate) fn used_seed(&self) -> Option<u64> {
        self.dice.as_ref().map(SeededDice::seed)
    }
}

/// Faces typed as text (`5,3,2 2`), read for the side named `field`.
pub(crate) fn typed<F: Copy>(
    text: Option<&str>,
    field: F,
) -> Result<Option<TypedDice>, (F, FacesError)> {
    text.map(|t| parse_faces(t).map(TypedDice::new).map_err(|e| (field, e)))
        .transpose()
}

/// One side's dice: its typed values, else the shared generator. A failure of typed values
/// names its side in `blame`.
pub(crate) struct SideDice<'a, F: Copy> {
    generator: &'a RefCell<Generator>,
    own: Option<TypedDice>,
    field: F,
    blame: &'a Cell<Option<F>>,
}

impl<'a, F: Copy> SideDice<'a, F> {
    /// The side named `field`, typed (`own`) or rolled.
    pub(crate) fn new(
        generator: &'a RefCell<Generator>,
        own: Option<TypedDice>,
        field: F,
        blame: &'a Cell<Option<F>>,
    ) -> Self {
        Self {
            generator,
            own,
            field,
            blame,
        }
    }

    /// Whether a person typed these dice.
    pub(crate) fn is_typed(&self) -> bool {
        self.own.is_some()
    }

    /// `(used, given)` when typed values were left over.
    pub(crate) fn left_over(&self) -> Option<(usize, usize)> {
        self.own.as_ref().and_then(|t| t.finish().err())
    }
}

impl<F: Copy> DiceSource for SideDice<'_, F> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        match &mut self.own {
            Some(t) => t
                .roll(sides)
                .inspect_err(|_| self.blame.set(Some(self.field))),
            None => self.generator.borrow_mut().roll(sides),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_side_is_blamed_and_the_generator_is_made_only_when_used() {
        let generator = RefCell::new(Generator::new(Some(7)));
        let blame = Cell::new(None);
        let own = typed(Some("3"), 'a').unwrap();
        let mut a = SideDice::new(&generator, own, 'a', &blame);
        assert_eq!(a.roll(6), Ok(3));
        assert_eq!(generator.borrow().used_seed(), None);
        assert!(a.roll(6).is_err());
        assert_eq!(blame.get(), Some('a'));
        let mut b = SideDice::new(&generator, None, 'b', &blame);
        let face = b.roll(6).unwrap();
        assert!((1..=6).contains(&face));
        assert_eq!(generator.borrow().used_seed(), Some(7));
        assert!(!b.is_typed());
        assert_eq!(b.left_over(), None);
        let c = SideDice::new(&generator, typed(Some("1 2"), 'c').unwrap(), 'c', &blame);
        assert_eq!(c.left_over(), Some((0, 2)));
        assert_eq!(typed(Some("x"), 'd').unwrap_err().0, 'd');
    }
}
