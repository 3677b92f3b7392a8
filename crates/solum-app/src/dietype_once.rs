//! Solum die types without a sheet or a campaign: `solum odds dietype` and
//! `solum roll dietype` (a die type, its steps and chances, against a difficulty or another
//! side). Nothing is journaled. The numbers a player types are domain types parsed at the
//! edge ([`DieSteps`], [`DamageModifier`]); the rule facts a front end shows (a quality's
//! name, a difficulty's name) are fields of the views.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use solum_dice::{DiceSource, prob_to_f64};

use crate::fields::input_fields;
use crate::typed_dice::TypedDiceError;
use solum_dietype::odds::{opposed_odds, skill_odds};
use solum_dietype::{
    DieTypeError, RollSpec, difficulty_name, quality_name, roll_damage, roll_opposed,
    roll_opposed_damage, roll_skill,
};

pub use solum_dietype::sheet::Weapon;
pub use solum_dietype::tables::Table;
pub use solum_dietype::{ChanceRoll, DamageRoll, DieType, OpposedRoll, SkillRoll};

use crate::bounded::bounded;
use crate::{AppError, Dice};

/// Die-type steps on a die (+1 is one type better, +1DT; −1 one worse), −8 to 8: d4 to d12
/// is four steps, and twice that leaves room for steps that cancel out; a larger number is a
/// typing mistake. The die itself is clamped to d4..d12 (D3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(into = "i64")]
pub struct DieSteps(i64);

// Read as a whole number in the type's range; what is no number is expected as one.
impl<'de> serde::Deserialize<'de> for DieSteps {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        solum_dice::deserialize_whole(d, -Self::MAX, Self::MAX, <Self as TryFrom<i64>>::try_from)
    }
}

impl DieSteps {
    /// The most steps either way.
    pub const MAX: i64 = 8;

    /// The steps, if within ±[`DieSteps::MAX`].
    pub fn new(steps: i64) -> Result<Self, RangeError> {
        if (-Self::MAX..=Self::MAX).contains(&steps) {
            Ok(Self(steps))
        } else {
            Err(RangeError::Steps(steps.to_string()))
        }
    }

    /// The number of steps.
    pub fn get(self) -> i64 {
        self.0
    }
}

impl TryFrom<i64> for DieSteps {
    type Error = RangeError;
    fn try_from(n: i64) -> Result<Self, RangeError> {
        Self::new(n)
    }
}

impl From<DieSteps> for i64 {
    fn from(s: DieSteps) -> i64 {
        s.0
    }
}

impl FromStr for DieSteps {
    type Err = RangeError;
    fn from_str(s: &str) -> Result<Self, RangeError> {
        // A number past i64 is as wrong as one past 8: the same message.
        s.trim()
            .parse::<i64>()
            .map_err(|_| RangeError::Steps(s.trim().to_owned()))
            .and_then(Self::new)
    }
}

impl fmt::Display for DieSteps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

// The OpenAPI description states the steps a request is read with.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for DieSteps {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::RefOr::T(crate::schema::integer(-Self::MAX, Self::MAX))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for DieSteps {
    fn name() -> std::borrow::Cow<'static, str> {
        "DieSteps".into()
    }
}

/// A flat damage modifier, −4 to +4 (D3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(into = "i64")]
pub struct DamageModifier(i64);

// Read as a whole number in the type's range; what is no number is expected as one.
impl<'de> serde::Deserialize<'de> for DamageModifier {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        solum_dice::deserialize_whole(d, -Self::MAX, Self::MAX, <Self as TryFrom<i64>>::try_from)
    }
}

impl DamageModifier {
    /// The largest modifier either way.
    pub const MAX: i64 = 4;

    /// The modifier, if within ±[`DamageModifier::MAX`].
    pub fn new(modifier: i64) -> Result<Self, RangeError> {
        if (-Self::MAX..=Self::MAX).contains(&modifier) {
            Ok(Self(modifier))
        } else {
            Err(RangeError::Modifier(modifier.to_string()))
        }
    }

    /// The modifier.
    pub fn get(self) -> i64 {
        self.0
    }
}

impl TryFrom<i64> for DamageModifier {
    type Error = RangeError;
    fn try_from(n: i64) -> Result<Self, RangeError> {
        Self::new(n)
    }
}

impl From<DamageModifier> for i64 {
    fn from(m: DamageModifier) -> i64 {
        m.0
    }
}

impl FromStr for DamageModifier {
    type Err = RangeError;
    fn from_str(s: &str) -> Result<Self, RangeError> {
        s.trim()
            .parse::<i64>()
            .map_err(|_| RangeError::Modifier(s.trim().to_owned()))
            .and_then(Self::new)
    }
}

impl fmt::Display for DamageModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

bounded! {
    /// A side's chances (D1): 1 unskilled, 2 skilled, 3 specialised, 4 the most.
    pub struct Chances(u32) in 1, 4;
    "a roll has {min} to {max} chances"
}

bounded! {
    /// A difficulty, 2 (trivial) to 12 (divine).
    pub struct Difficulty(u32) in 2, 12;
    "difficulties run from {min} (trivial) to {max} (divine)"
}

/// A number typed outside its range (the text as typed, which may not fit an `i64`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// Die-type steps.
    #[error("die-type steps are -8 to 8 (d4 to d12 is four), not {0}")]
    Steps(String),
    /// A damage modifier.
    #[error("modifiers run from -4 to +4, not {0}")]
    Modifier(String),
}

input_fields! {
    /// An input of a one-shot die-type roll, for errors a front end names as its own flag (the
    /// chances and the difficulty are refused by their types, [`Chances`] and [`Difficulty`]).
    Field {
        /// The die type.
        Die = "die",
        /// The other side's die type.
        Against = "against",
        /// The damage die.
        Damage = "damage",
        /// Faces typed in by hand.
        Typed = "typed",
    }
}

/// The order typed faces are read in, for messages.
pub const TYPED_ORDER: &str = "values go: each chance's die, a maximum followed by its two new dice, then the other side's, then damage dice";

/// Why a one-shot die-type roll or its odds was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DietypeOnceError {
    /// Not a die type (the rules' own words).
    #[error("{problem}")]
    Rules {
        /// The field at fault.
        field: Field,
        /// What the rules say.
        problem: String,
    },
    /// Typed faces that do not fit the roll, or the system's randomness failed.
    #[error(transparent)]
    Typed(#[from] TypedDiceError<Field>),
}

impl DietypeOnceError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Rules { field, .. } => Some(*field),
            Self::Typed(e) => e.field(),
        }
    }

    /// A stable code for the API (`dietype-rules`, `dice-too-few`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Rules { .. } => "dietype-rules",
            Self::Typed(e) => e.code(),
        }
    }

    /// True when the input is at fault, false for a failure of the system's randomness.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::Typed(e) => e.is_bad_input(),
            Self::Rules { .. } => true,
        }
    }

    /// The message with the fields named by `name` (the command line passes its flags).
    /// The rules' own words name no field and are left as they are.
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        let text = self.to_string();
        match (self, self.field()) {
            (Self::Rules { .. }, _) | (_, None) => text,
            (_, Some(field)) => text.replacen(field.name(), &name(field), 1),
        }
    }

    fn from_app(e: AppError) -> Self {
        Self::Typed(e.into_typed_dice(Field::Typed, TYPED_ORDER))
    }
}

fn rules(field: Field) -> impl Fn(DieTypeError) -> DietypeOnceError {
    move |e| DietypeOnceError::Rules {
        field,
        problem: e.to_string(),
    }
}

/// One side of a roll as typed: a die type, its steps and chances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideAsk<'a> {
    /// The die type as typed (`d6`, `6`).
    pub die: &'a str,
    /// Its steps.
    pub step: DieSteps,
    /// Its chances.
    pub chances: Chances,
}

/// A one-shot roll as typed: the first side, and a difficulty or another side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DietypeAsk<'a> {
    /// The side rolling.
    pub side: SideAsk<'a>,
    /// The difficulty, when no side opposes.
    pub vs: Difficulty,
    /// The other side of an opposed roll (D2).
    pub against: Option<SideAsk<'a>>,
}

/// Damage to roll on a success (an opposed win): one die per point of quality.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageAsk<'a> {
    /// The damage die as typed.
    pub die: &'a str,
    /// Its steps (armour: −1).
    pub step: DieSteps,
    /// The flat modifier.
    pub modifier: DamageModifier,
}

/// What an ask is, read: a difficulty (the spec) or two opposed sides.
enum Read {
    Skill(RollSpec),
    Opposed((DieType, u32), (DieType, u32)),
}

fn die_of(text: &str, field: Field) -> Result<DieType, DietypeOnceError> {
    text.parse::<DieType>().map_err(rules(field))
}

fn read(ask: &DietypeAsk<'_>) -> Result<Read, DietypeOnceError> {
    let die = die_of(ask.side.die, Field::Die)?.step(ask.side.step.get());
    // The chances and the difficulty are in the rules' ranges by their types.
    let chances = ask.side.chances.get();
    match &ask.against {
        None => Ok(Read::Skill(RollSpec {
            die,
            chances,
            difficulty: ask.vs.get(),
        })),
        Some(other) => {
            // Each side steps on its own (D3), as `opposed_side` does.
            let against = die_of(other.die, Field::Against)?.step(other.step.get());
            Ok(Read::Opposed(
                (die, chances),
                (against, other.chances.get()),
            ))
        }
    }
}

/// The names of the qualities `0..=top` (0 is failure).
fn quality_names(top: u32) -> BTreeMap<u32, &'static str> {
    (0..=top).map(|q| (q, quality_name(q))).collect()
}

/// The exact odds of a roll against a difficulty.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillOddsView {
    /// The die rolled, after its steps.
    pub die: DieType,
    /// Its chances.
    pub chances: u32,
    /// The difficulty.
    pub difficulty: u32,
    /// The difficulty's name in the text (`normal`).
    pub difficulty_name: &'static str,
    /// At least one chance reaches the difficulty.
    pub p_success: f64,
    /// The same, exactly, as a fraction.
    pub p_success_exact: String,
    /// One chance reaches it.
    pub p_per_chance: f64,
    /// By quality (chances reaching it; 0 is failure), its chance.
    pub quality: BTreeMap<u32, f64>,
    /// Each quality's name in the text.
    pub quality_names: BTreeMap<u32, &'static str>,
}

/// The odds of an opposed roll (D2), in f64 within `error_bound`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpposedOddsView {
    /// The first side's die, after its steps.
    pub die: DieType,
    /// Its chances.
    pub chances: u32,
    /// The other side's die, after its steps.
    pub against: DieType,
    /// Its chances.
    pub against_chances: u32,
    /// The first side wins.
    pub p_win: f64,
    /// A draw.
    pub p_draw: f64,
    /// The other side wins.
    pub p_lose: f64,
    /// The first side wins with each quality.
    pub win_quality: BTreeMap<u32, f64>,
    /// The other side wins with each quality.
    pub lose_quality: BTreeMap<u32, f64>,
    /// Each quality's name in the text.
    pub quality_names: BTreeMap<u32, &'static str>,
    /// A bound on the error of the truncated explosions and rounding.
    pub error_bound: f64,
}

/// The odds of a one-shot roll: against a difficulty (exact) or opposed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DietypeOddsView {
    /// Against a difficulty.
    Skill(SkillOddsView),
    /// Opposed.
    Opposed(OpposedOddsView),
}

/// The odds of a roll as typed.
pub fn dietype_odds(ask: &DietypeAsk<'_>) -> Result<DietypeOddsView, DietypeOnceError> {
    Ok(match read(ask)? {
        Read::Skill(spec) => {
            let o = skill_odds(&spec);
            let top = spec.chances;
            SkillOddsView {
                die: spec.die,
                chances: spec.chances,
                difficulty: spec.difficulty,
                difficulty_name: difficulty_name(spec.difficulty),
                p_success: prob_to_f64(&o.success),
                p_success_exact: o.success.to_string(),
                p_per_chance: prob_to_f64(&o.per_chance),
                quality: (0u32..).zip(o.quality.iter().map(prob_to_f64)).collect(),
                quality_names: quality_names(top),
            }
            .into()
        }
        Read::Opposed(a, b) => {
            let o = opposed_odds(a, b);
            // Index 0 of the quality lists is unused (a win has quality 1 or more).
            let by_quality = |v: &[f64]| -> BTreeMap<u32, f64> {
                (0u32..).zip(v.iter().copied()).skip(1).collect()
            };
            let top = o.win_quality.len().max(o.lose_quality.len()) as u32;
            OpposedOddsView {
                die: a.0,
                chances: a.1,
                against: b.0,
                against_chances: b.1,
                p_win: o.win,
                p_draw: o.draw,
                p_lose: o.lose,
                win_quality: by_quality(&o.win_quality),
                lose_quality: by_quality(&o.lose_quality),
                quality_names: quality_names(top),
                error_bound: o.error_bound,
            }
            .into()
        }
    })
}

impl From<SkillOddsView> for DietypeOddsView {
    fn from(v: SkillOddsView) -> Self {
        Self::Skill(v)
    }
}

impl From<OpposedOddsView> for DietypeOddsView {
    fn from(v: OpposedOddsView) -> Self {
        Self::Opposed(v)
    }
}

/// The text's printed probability tables, each printed number beside the exact one.
pub fn dietype_tables() -> Vec<Table> {
    solum_dietype::tables::tables()
}

/// A roll against a difficulty, with its damage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillRollView {
    /// The die rolled, after its steps.
    pub die: DieType,
    /// Its chances.
    pub chances: u32,
    /// The difficulty.
    pub difficulty: u32,
    /// Every chance's dice and result.
    pub roll: SkillRoll,
    /// At least one chance reached the difficulty.
    pub success: bool,
    /// The chances that reached it.
    pub quality: u32,
    /// The quality's name in the text.
    pub quality_name: &'static str,
    /// The chance of success before the roll, exact to the nearest `f64`.
    pub p_success: f64,
    /// The damage die, after its steps.
    pub damage_die: Option<DieType>,
    /// The damage, on a success.
    pub damage: Option<DamageRoll>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
}

/// An opposed roll, with the first side's damage on a win.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = DietypeOpposedRollView))]
pub struct OpposedRollView {
    /// The first side's die, after its steps.
    pub die: DieType,
    /// Its chances.
    pub chances: u32,
    /// The other side's die, after its steps.
    pub against: DieType,
    /// Its chances.
    pub against_chances: u32,
    /// Both sides' chances, the winner (1, −1, 0 for a draw) and the quality.
    pub roll: OpposedRoll,
    /// The winner's quality's name in the text.
    pub quality_name: &'static str,
    /// The damage die, after its steps.
    pub damage_die: Option<DieType>,
    /// The damage, on a win of the first side.
    pub damage: Option<DamageRoll>,
    /// The generator's seed (none for typed dice).
    pub seed: Option<u64>,
}

/// A one-shot roll: against a difficulty or opposed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum DietypeRollView {
    /// Against a difficulty.
    Skill(SkillRollView),
    /// Opposed.
    Opposed(OpposedRollView),
}

/// Rolls as typed: each chance's die (a maximum followed by its two new dice), then the other
/// side's, then damage dice ([`TYPED_ORDER`]).
pub fn roll_dietype(
    ask: &DietypeAsk<'_>,
    damage: Option<&DamageAsk<'_>>,
    dice: Dice,
) -> Result<DietypeRollView, DietypeOnceError> {
    let read = read(ask)?;
    let damage_die = damage
        .map(|d| die_of(d.die, Field::Damage).map(|die| die.step(d.step.get())))
        .transpose()?;
    let modifier = damage.map_or(0, |d| d.modifier.get());
    // The modifier is a checked DamageModifier: the rules' own check cannot refuse it, and
    // would be named as the damage's if it did.
    match read {
        Read::Skill(spec) => {
            let p = prob_to_f64(&skill_odds(&spec).success);
            let ((r, damage), rolled) = crate::journaling::roll(dice, |d: &mut dyn DiceSource| {
                let r = roll_skill(&spec, d)?;
                let damage = match damage_die {
                    Some(dd) if r.quality > 0 => Some(roll_damage(dd, r.quality, modifier, d)?),
                    _ => None,
                };
                Ok((r, damage))
            })
            .map_err(DietypeOnceError::from_app)?;
            let damage = damage
                .map(|r| r.map_err(rules(Field::Damage)))
                .transpose()?;
            Ok(DietypeRollView::Skill(SkillRollView {
                die: spec.die,
                chances: spec.chances,
                difficulty: spec.difficulty,
                success: r.success(),
                quality: r.quality,
                quality_name: quality_name(r.quality),
                roll: r,
                p_success: p,
                damage_die,
                damage,
                seed: rolled.seed,
            }))
        }
        Read::Opposed(a, b) => {
            let ((r, damage), rolled) = crate::journaling::roll(dice, |d: &mut dyn DiceSource| {
                let r = roll_opposed(a, b, d)?;
                let damage = match damage_die {
                    Some(dd) => Some(roll_opposed_damage(&r, dd, modifier, d)?),
                    None => None,
                };
                Ok((r, damage))
            })
            .map_err(DietypeOnceError::from_app)?;
            let damage = damage
                .map(|r| r.map_err(rules(Field::Damage)))
                .transpose()?
                .flatten();
            Ok(DietypeRollView::Opposed(OpposedRollView {
                die: a.0,
                chances: a.1,
                against: b.0,
                against_chances: b.1,
                quality_name: quality_name(r.quality),
                roll: r,
                damage_die,
                damage,
                seed: rolled.seed,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(die: &str, chances: u32) -> SideAsk<'_> {
        SideAsk {
            die,
            step: DieSteps::default(),
            chances: Chances::new(chances).unwrap(),
        }
    }

    fn vs(d: u32) -> Difficulty {
        Difficulty::new(d).unwrap()
    }

    crate::bounded::bounded_tests!(chances, Chances, "a roll has 1 to 4 chances");
    crate::bounded::bounded_tests!(
        difficulty,
        Difficulty,
        "difficulties run from 2 (trivial) to 12 (divine)"
    );

    #[test]
    fn steps_and_modifiers_are_bounded_where_they_are_read() {
        assert_eq!("8".parse::<DieSteps>().unwrap().get(), 8);
        assert_eq!(" -8".parse::<DieSteps>().unwrap().get(), -8);
        let e = "9223372036854775808".parse::<DieSteps>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "die-type steps are -8 to 8 (d4 to d12 is four), not 9223372036854775808"
        );
        assert!("9".parse::<DieSteps>().is_err());
        assert!("5".parse::<DamageModifier>().is_err());
        assert_eq!("-4".parse::<DamageModifier>().unwrap().get(), -4);
        assert!(serde_json::from_str::<DieSteps>("12").is_err());
    }

    #[test]
    fn two_chances_are_two_independent_tries() {
        let ask = DietypeAsk {
            side: side("d6", 2),
            vs: vs(4),
            against: None,
        };
        let DietypeOddsView::Skill(v) = dietype_odds(&ask).unwrap() else {
            panic!("a skill roll")
        };
        // Each chance passes alone with p: the quality is binomial over the two.
        let p = v.p_per_chance;
        assert!((v.p_success - (1.0 - (1.0 - p) * (1.0 - p))).abs() < 1e-12);
        assert!((v.quality[&2] - p * p).abs() < 1e-12);
        assert!((v.quality[&1] - 2.0 * p * (1.0 - p)).abs() < 1e-12);
        assert_eq!(v.difficulty_name, "normal");
        assert_eq!(v.quality_names[&0], "failure");
        assert_eq!(v.quality_names[&2], "extraordinary");
    }

    #[test]
    fn refusals_name_their_field() {
        let ask = DietypeAsk {
            side: side("d7", 1),
            vs: vs(4),
            against: None,
        };
        assert_eq!(dietype_odds(&ask).unwrap_err().field(), Some(Field::Die));
        let ask = DietypeAsk {
            side: side("d6", 1),
            vs: vs(4),
            against: Some(side("d9", 4)),
        };
        let e = dietype_odds(&ask).unwrap_err();
        assert_eq!(e.code(), "dietype-rules");
        assert_eq!(e.field(), Some(Field::Against));
    }

    #[test]
    fn typed_faces_roll_in_the_texts_order() {
        // d6 against 4: a 5 passes with quality 1; its damage, one d8 stepped down to d6: 3.
        let ask = DietypeAsk {
            side: side("d6", 1),
            vs: vs(4),
            against: None,
        };
        let damage = DamageAsk {
            die: "d8",
            step: DieSteps::new(-1).unwrap(),
            modifier: DamageModifier::new(1).unwrap(),
        };
        let DietypeRollView::Skill(v) =
            roll_dietype(&ask, Some(&damage), Dice::Typed(vec![5, 3])).unwrap()
        else {
            panic!("a skill roll")
        };
        assert!(v.success);
        assert_eq!(v.damage_die, Some(DieType::D6));
        assert_eq!(v.damage.unwrap().total, 4);
        assert_eq!(v.seed, None);
        let e = roll_dietype(&ask, Some(&damage), Dice::Typed(vec![5, 7])).unwrap_err();
        assert_eq!(e.code(), "dice-not-a-face");
        let e = roll_dietype(&ask, None, Dice::Typed(vec![5, 3])).unwrap_err();
        assert_eq!(
            e,
            DietypeOnceError::Typed(TypedDiceError::TooMany {
                field: Field::Typed,
                given: 2,
                used: 1,
                why: Vec::new(),
                order: TYPED_ORDER.to_owned()
            })
        );
    }
}
