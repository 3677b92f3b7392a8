//! Rolling: one exploding die, a skill roll of several chances, opposed rolls, damage.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};

use crate::die::{DieType, DieTypeError};

/// One exploding die (D1): every face rolled, in order, and the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::ChanceRoll))]
pub struct ChanceRoll {
    /// Every face rolled: maxima became two new dice.
    pub faces: Vec<u32>,
    /// The sum of the faces that are not the maximum.
    pub result: u32,
}

/// Rolls one exploding die: a maximum is not counted and becomes two new dice of the same
/// type, recursively. Faces are drawn in the order they are rolled.
pub fn explode(die: DieType, dice: &mut dyn DiceSource) -> Result<ChanceRoll, DiceError> {
    let max = die.sides();
    let mut faces = Vec::new();
    let mut result = 0;
    let mut pending = 1u32;
    while pending > 0 {
        let face = dice.roll(max)?;
        faces.push(face);
        pending -= 1;
        if face == max {
            pending += 2;
        } else {
            result += face;
        }
    }
    Ok(ChanceRoll { faces, result })
}

/// A skill roll, ready to roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::RollSpec))]
pub struct RollSpec {
    /// The die type (after any ±DT steps).
    pub die: DieType,
    /// Chances: 1 unskilled, 2 skilled, 3 specialised, 4 the most.
    pub chances: u32,
    /// The difficulty, 2 to 12.
    pub difficulty: u32,
}

impl RollSpec {
    /// Checks the chances and the difficulty.
    pub fn new(die: DieType, chances: i64, difficulty: i64) -> Result<Self, DieTypeError> {
        if !(1..=4).contains(&chances) {
            return Err(DieTypeError::Chances(chances));
        }
        if !(2..=12).contains(&difficulty) {
            return Err(DieTypeError::Difficulty(difficulty));
        }
        Ok(Self {
            die,
            chances: chances as u32,
            difficulty: difficulty as u32,
        })
    }
}

/// A skill roll against a difficulty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::SkillRoll))]
pub struct SkillRoll {
    /// What was rolled.
    pub spec: RollSpec,
    /// Each chance.
    pub chances: Vec<ChanceRoll>,
    /// Chances that reached the difficulty (D2).
    pub quality: u32,
}

impl SkillRoll {
    /// At least one chance reached the difficulty.
    pub fn success(&self) -> bool {
        self.quality > 0
    }
}

/// Rolls each chance in turn.
pub fn roll_skill(spec: &RollSpec, dice: &mut dyn DiceSource) -> Result<SkillRoll, DiceError> {
    let chances = (0..spec.chances)
        .map(|_| explode(spec.die, dice))
        .collect::<Result<Vec<_>, _>>()?;
    let quality = chances
        .iter()
        .filter(|c| c.result >= spec.difficulty)
        .count() as u32;
    Ok(SkillRoll {
        spec: *spec,
        chances,
        quality,
    })
}

/// An opposed roll (D2): the higher best result wins; equal bests draw; the winner's
/// quality is the number of its chances that beat the loser's best.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::OpposedRoll))]
pub struct OpposedRoll {
    /// The first side's chances.
    pub first: Vec<ChanceRoll>,
    /// The second side's chances.
    pub second: Vec<ChanceRoll>,
    /// 1 if the first side wins, -1 if the second does, 0 for a draw.
    #[cfg_attr(feature = "openapi", schema(minimum = -1, maximum = 1))]
    pub winner: i8,
    /// The winner's quality (0 on a draw).
    pub quality: u32,
}

/// One side of an opposed roll: its die type after its own ±DT steps (clamped to d4..d12,
/// D3) and its chances (1 to 4). Each side steps on its own: armour that weakens the other
/// side's weapon is a −1DT on that side only.
pub fn opposed_side(
    die: DieType,
    steps: i64,
    chances: i64,
) -> Result<(DieType, u32), DieTypeError> {
    if !(1..=4).contains(&chances) {
        return Err(DieTypeError::Chances(chances));
    }
    Ok((die.step(steps), chances as u32))
}

/// Rolls an opposed roll: the first side's chances, then the second's.
pub fn roll_opposed(
    first: (DieType, u32),
    second: (DieType, u32),
    dice: &mut dyn DiceSource,
) -> Result<OpposedRoll, DiceError> {
    let a = (0..first.1)
        .map(|_| explode(first.0, dice))
        .collect::<Result<Vec<_>, _>>()?;
    let b = (0..second.1)
        .map(|_| explode(second.0, dice))
        .collect::<Result<Vec<_>, _>>()?;
    let best = |v: &[ChanceRoll]| v.iter().map(|c| c.result).max().unwrap_or(0);
    let (ba, bb) = (best(&a), best(&b));
    let (winner, quality) = match ba.cmp(&bb) {
        std::cmp::Ordering::Greater => (1, a.iter().filter(|c| c.result > bb).count() as u32),
        std::cmp::Ordering::Less => (-1, b.iter().filter(|c| c.result > ba).count() as u32),
        std::cmp::Ordering::Equal => (0, 0),
    };
    Ok(OpposedRoll {
        first: a,
        second: b,
        winner,
        quality,
    })
}

/// Damage: one die of the weapon's type per point of quality, plus a flat modifier (−4 to
/// +4, D3), never below 0. Damage dice do not explode: the text explodes skill rolls only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = dietype::DamageRoll))]
pub struct DamageRoll {
    /// The damage dice.
    pub faces: Vec<u32>,
    /// The flat modifier.
    pub modifier: i32,
    /// The damage.
    pub total: u32,
}

/// Rolls damage for a success of `quality`. A ±DT step on the damage (armour: −1DT) is
/// taken on `die` first, with [`DieType::step`], which clamps to d4..d12 (D3).
pub fn roll_damage(
    die: DieType,
    quality: u32,
    modifier: i64,
    dice: &mut dyn DiceSource,
) -> Result<Result<DamageRoll, DieTypeError>, DiceError> {
    if !(-4..=4).contains(&modifier) {
        return Ok(Err(DieTypeError::Modifier(modifier)));
    }
    let faces = dice.roll_many(quality as usize, die.sides())?;
    let sum: i64 = faces.iter().map(|&f| i64::from(f)).sum::<i64>() + modifier;
    Ok(Ok(DamageRoll {
        faces,
        modifier: modifier as i32,
        total: sum.max(0) as u32,
    }))
}

/// Damage of the first side's weapon after an opposed roll: in combat the winner's quality
/// is its dice of damage, so it is rolled on a win of the first side, with that quality
/// (chances beating the loser's best, D2); a draw or a loss rolls nothing (`None`).
pub fn roll_opposed_damage(
    roll: &OpposedRoll,
    die: DieType,
    modifier: i64,
    dice: &mut dyn DiceSource,
) -> Result<Result<Option<DamageRoll>, DieTypeError>, DiceError> {
    if !(-4..=4).contains(&modifier) {
        return Ok(Err(DieTypeError::Modifier(modifier)));
    }
    if roll.winner != 1 {
        return Ok(Ok(None));
    }
    Ok(roll_damage(die, roll.quality, modifier, dice)?.map(Some))
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    #[test]
    fn a_maximum_becomes_two_dice() {
        // The text's example: a d4 shows 4, rerolled as 1 and 2: the result is 3.
        let r = explode(DieType::D4, &mut ScriptedDice::new([4, 1, 2])).unwrap();
        assert_eq!((r.faces, r.result), (vec![4, 1, 2], 3));
        // Recursively: 4 → 4, 3 → (4 → 1, 1), 3.
        let r = explode(DieType::D4, &mut ScriptedDice::new([4, 4, 3, 1, 1])).unwrap();
        assert_eq!(r.result, 5);
        let r = explode(DieType::D6, &mut ScriptedDice::new([5])).unwrap();
        assert_eq!(r.result, 5);
    }

    #[test]
    fn quality_counts_chances() {
        let spec = RollSpec::new(DieType::D6, 3, 4).unwrap();
        let r = roll_skill(&spec, &mut ScriptedDice::new([5, 2, 6, 3, 1])).unwrap();
        // 5, 2, and 6 → 3 + 1 = 4: two chances reach 4.
        assert_eq!(r.quality, 2);
        assert!(RollSpec::new(DieType::D6, 5, 4).is_err());
        assert!(RollSpec::new(DieType::D6, 1, 13).is_err());
        assert!(RollSpec::new(DieType::D6, 1, 1).is_err());
    }

    #[test]
    fn opposed_quality_against_the_losers_best() {
        // d8 with 3 chances: 7, 5, 2; d6 with 1: 4. The first wins; 7 and 5 beat 4.
        let r = roll_opposed(
            (DieType::D8, 3),
            (DieType::D6, 1),
            &mut ScriptedDice::new([7, 5, 2, 4]),
        )
        .unwrap();
        assert_eq!((r.winner, r.quality), (1, 2));
        let r = roll_opposed(
            (DieType::D8, 1),
            (DieType::D6, 1),
            &mut ScriptedDice::new([4, 4]),
        )
        .unwrap();
        assert_eq!((r.winner, r.quality), (0, 0));
    }

    #[test]
    fn the_other_side_steps_on_its_own() {
        // -1DT: "one die type lower than normal, so from D6 to D4"; never below d4, above d12.
        assert_eq!(opposed_side(DieType::D8, -1, 2), Ok((DieType::D6, 2)));
        assert_eq!(opposed_side(DieType::D6, -1, 1), Ok((DieType::D4, 1)));
        assert_eq!(opposed_side(DieType::D4, -1, 1), Ok((DieType::D4, 1)));
        assert_eq!(opposed_side(DieType::D10, 3, 1), Ok((DieType::D12, 1)));
        assert_eq!(
            opposed_side(DieType::D6, 0, 5),
            Err(DieTypeError::Chances(5))
        );
        // The stepped side rolls the lower die: a 7 typed for a d8 at -1DT is no face of it.
        let second = opposed_side(DieType::D8, -1, 1).unwrap();
        let err = roll_opposed(
            (DieType::D8, 1),
            second,
            &mut solum_dice::TypedDice::new([3, 7]),
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                DiceError::OutOfRange {
                    value: 7,
                    sides: 6,
                    ..
                }
            ),
            "{err:?}"
        );
        // ... and a 6 on it explodes (the d6's maximum), where a d8's 6 would not.
        let r = roll_opposed(
            (DieType::D8, 1),
            second,
            &mut ScriptedDice::new([3, 6, 1, 2]),
        )
        .unwrap();
        assert_eq!((r.second[0].result, r.winner), (3, 0));
    }

    #[test]
    fn armour_steps_the_damage_die_down() {
        // A d8 weapon against armour (-1DT) rolls a d6: each of 1..6 once in six, no 7 or 8.
        let die = DieType::D8.step(-1);
        let e = solum_dice::enumerate(1, |d| -> Result<u32, DiceError> {
            Ok(roll_damage(die, 1, 0, d)?.expect("modifier in range").total)
        })
        .unwrap();
        assert_eq!(e.outcomes.len(), 6);
        for k in 1..=6 {
            assert_eq!(e.p(|&t| t == k), solum_dice::prob(1, 6), "damage {k}");
        }
        // A d4 weapon stays a d4 (D3): a 4 is a face of it, and damage dice do not explode.
        let d = roll_damage(DieType::D4.step(-1), 2, 0, &mut ScriptedDice::new([4, 4]))
            .unwrap()
            .unwrap();
        assert_eq!((d.faces, d.total), (vec![4, 4], 8));
    }

    #[test]
    fn an_opposed_win_rolls_its_quality_in_damage() {
        // d8 ×3 against d6 ×1: 7, 5, 2 against 4 is a win of quality 2: two damage dice.
        let mut dice = ScriptedDice::new([7, 5, 2, 4, 3, 6]);
        let r = roll_opposed((DieType::D8, 3), (DieType::D6, 1), &mut dice).unwrap();
        let d = roll_opposed_damage(&r, DieType::D8.step(-1), 1, &mut dice)
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!((d.faces, d.total), (vec![3, 6], 10));
        assert!(dice.is_exhausted());
        // A loss or a draw rolls no damage die at all.
        for script in [[2, 5], [4, 4]] {
            let mut dice = ScriptedDice::new(script);
            let r = roll_opposed((DieType::D8, 1), (DieType::D6, 1), &mut dice).unwrap();
            let none = roll_opposed_damage(&r, DieType::D8, 0, &mut dice).unwrap();
            assert_eq!(none, Ok(None));
        }
        let r = roll_opposed(
            (DieType::D8, 1),
            (DieType::D6, 1),
            &mut ScriptedDice::new([5, 4]),
        )
        .unwrap();
        assert_eq!(
            roll_opposed_damage(&r, DieType::D8, -5, &mut ScriptedDice::new([])),
            Ok(Err(DieTypeError::Modifier(-5)))
        );
    }

    #[test]
    fn damage_by_quality_with_modifier() {
        let d = roll_damage(DieType::D6, 2, 1, &mut ScriptedDice::new([3, 4]))
            .unwrap()
            .unwrap();
        assert_eq!(d.total, 8);
        let d = roll_damage(DieType::D4, 1, -4, &mut ScriptedDice::new([2]))
            .unwrap()
            .unwrap();
        assert_eq!(d.total, 0);
        assert!(
            roll_damage(DieType::D4, 1, 5, &mut ScriptedDice::new([]))
                .unwrap()
                .is_err()
        );
    }
}
