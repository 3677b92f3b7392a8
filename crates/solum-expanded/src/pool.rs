//! Pools and difficulties: the numbers a check is built from.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;

/// The largest pool the engine rolls. A real pool is 1 to 6 dice; a designer may explore far
/// beyond, but a million-die pool is a typing mistake, and rolling, showing and storing it
/// would cost memory for nothing.
pub const MAX_POOL: u32 = 1000;

/// The largest attribute a pool is built from (S1): the one that armor too heavy for the Body
/// and a heavy weapon, the two penalties, still bring down to [`MAX_POOL`]. Any larger builds
/// no pool, whatever the modifiers. A sheet's attributes stay far below (1 to 4, S9); this
/// bounds the numbers a designer types.
pub const MAX_POOL_ATTRIBUTE: u32 = MAX_POOL + 2;

/// The largest difficulty accepted. Above 6 only the Rule of 6 can pass; a difficulty of
/// 1000 already needs a chain of about 166 sixes.
pub const MAX_DIFFICULTY: u32 = 1000;

/// A rule was asked for something the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// A pool outside 1..=MAX_POOL.
    #[error("a pool of {0} dice is not possible: a pool has 1 to {MAX_POOL} dice")]
    Pool(u64),
    /// An attribute outside 1..=MAX_POOL_ATTRIBUTE.
    #[error(
        "an attribute of {0} is not possible: attributes start at 1 (at most {MAX_POOL_ATTRIBUTE} here)"
    )]
    Attribute(u64),
    /// A difficulty outside 1..=MAX_DIFFICULTY.
    #[error(
        "difficulty {0} is not possible: difficulties run from 1 (automatic) to {MAX_DIFFICULTY}"
    )]
    Difficulty(i64),
    /// A difficulty name that is not one of the text's names.
    #[error(
        "`{0}` is not a difficulty: give a number or one of automatic, very-easy, easy, average, tough, hard"
    )]
    DifficultyName(String),
}

/// A pool of six-sided dice, 1 to [`MAX_POOL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Pool(u32);

impl Pool {
    /// A pool of `dice` dice.
    pub fn new(dice: u64) -> Result<Self, RulesError> {
        match u32::try_from(dice) {
            Ok(d) if (1..=MAX_POOL).contains(&d) => Ok(Self(d)),
            _ => Err(RulesError::Pool(dice)),
        }
    }

    /// The number of dice.
    pub fn dice(self) -> u32 {
        self.0
    }

    /// This pool with `extra` more dice (capped at [`MAX_POOL`]).
    pub fn plus(self, extra: u32) -> Self {
        Self((self.0 + extra).min(MAX_POOL))
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How a pool is built (ruling S1): the attribute, +1 die for one applicable background,
/// −1 die for armor too heavy for the Body, −1 die for a heavy weapon wielded with Body
/// below 3; never fewer than one die (R2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct PoolSpec {
    /// The attribute rolled (Body, Mind or Charm).
    pub attribute: u32,
    /// One background applies (+1 die; never more than one).
    pub background: bool,
    /// Worn armor is too heavy for the Body (−1 die on every check).
    pub armor_too_heavy: bool,
    /// A heavy weapon wielded with Body below 3 (−1 die to attack with it).
    pub heavy_weapon_weak: bool,
}

/// A die a pool loses (S1), as the text names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Penalty {
    /// Worn armor is too heavy for the Body: −1 die on every check.
    ArmorTooHeavy,
    /// A heavy weapon wielded with Body below 3: −1 die to attack with it.
    HeavyWeaponWeak,
}

impl Penalty {
    /// Why the die is lost, as a check shows it after "−1".
    pub fn reason(self) -> &'static str {
        match self {
            Self::ArmorTooHeavy => "armor too heavy",
            Self::HeavyWeaponWeak => "heavy weapon at Body below 3",
        }
    }
}

impl PoolSpec {
    /// The dice this pool loses, in the order the text gives them.
    pub fn penalties(&self) -> impl Iterator<Item = Penalty> + use<> {
        [
            (self.armor_too_heavy, Penalty::ArmorTooHeavy),
            (self.heavy_weapon_weak, Penalty::HeavyWeaponWeak),
        ]
        .into_iter()
        .filter_map(|(applies, p)| applies.then_some(p))
    }

    /// A pool of the bare attribute.
    pub fn attribute(attribute: u32) -> Self {
        Self {
            attribute,
            ..Self::default()
        }
    }

    /// The pool these modifiers give.
    pub fn pool(&self) -> Result<Pool, RulesError> {
        if !(1..=MAX_POOL_ATTRIBUTE).contains(&self.attribute) {
            return Err(RulesError::Attribute(u64::from(self.attribute)));
        }
        let bonus = i64::from(self.background);
        let penalty = i64::from(self.armor_too_heavy) + i64::from(self.heavy_weapon_weak);
        let dice = (i64::from(self.attribute) + bonus - penalty).max(1);
        Pool::new(dice as u64)
    }
}

/// The difficulty of an unopposed check: roll it or higher on one die to pass. Read from
/// JSON it is held to its range as it is read, in the same words as [`Difficulty::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "i64")]
pub struct Difficulty(u32);

/// Describes a whole number from `min` to `max` named `name`: what serde writes for a
/// checked number of this crate ([`Pool`], [`Difficulty`]), which only its constructor
/// builds.
#[cfg(feature = "openapi")]
macro_rules! whole_schema {
    ($t:ty, $name:literal, $min:expr, $max:expr) => {
        impl utoipa::PartialSchema for $t {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::Integer)
                    .minimum(Some($min))
                    .maximum(Some($max))
                    .into()
            }
        }

        impl utoipa::ToSchema for $t {
            fn name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }
        }
    };
}
#[cfg(feature = "openapi")]
whole_schema!(Pool, "expanded.Pool", 1, MAX_POOL);
#[cfg(feature = "openapi")]
whole_schema!(Difficulty, "expanded.Difficulty", 1, MAX_DIFFICULTY);

// Read as a whole number in the type's range; what is no number is expected as one.
impl<'de> serde::Deserialize<'de> for Difficulty {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        solum_dice::deserialize_whole(
            d,
            1,
            i64::from(MAX_DIFFICULTY),
            <Self as TryFrom<i64>>::try_from,
        )
    }
}

impl From<Difficulty> for i64 {
    fn from(d: Difficulty) -> i64 {
        i64::from(d.0)
    }
}

impl TryFrom<i64> for Difficulty {
    type Error = RulesError;
    fn try_from(value: i64) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl Difficulty {
    /// Automatic: no roll is needed.
    pub const AUTOMATIC: Self = Self(1);
    /// Very easy.
    pub const VERY_EASY: Self = Self(2);
    /// Easy.
    pub const EASY: Self = Self(3);
    /// Average.
    pub const AVERAGE: Self = Self(4);
    /// Tough.
    pub const TOUGH: Self = Self(5);
    /// Hard.
    pub const HARD: Self = Self(6);

    /// A difficulty from 1 to [`MAX_DIFFICULTY`].
    pub fn new(value: i64) -> Result<Self, RulesError> {
        match u32::try_from(value) {
            Ok(v) if (1..=MAX_DIFFICULTY).contains(&v) => Ok(Self(v)),
            _ => Err(RulesError::Difficulty(value)),
        }
    }

    /// The number to reach.
    pub fn value(self) -> u32 {
        self.0
    }

    /// The text's name for this difficulty; above 6 there is none, only the Rule of 6 passes.
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "automatic",
            2 => "very easy",
            3 => "easy",
            4 => "average",
            5 => "tough",
            6 => "hard",
            _ => "beyond hard",
        }
    }

    /// True for difficulty 1, which passes without a roll.
    pub fn is_automatic(self) -> bool {
        self.0 == 1
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

impl FromStr for Difficulty {
    type Err = RulesError;

    /// A number, or one of the text's names (`very-easy`, `very easy` and `very_easy` alike).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        if let Ok(n) = trimmed.parse::<i64>() {
            return Self::new(n);
        }
        let key = trimmed.to_ascii_lowercase().replace(['-', '_'], " ");
        let value = match key.as_str() {
            "automatic" => 1,
            "very easy" => 2,
            "easy" => 3,
            "average" => 4,
            "tough" => 5,
            "hard" => 6,
            _ => return Err(RulesError::DifficultyName(trimmed.to_owned())),
        };
        Self::new(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_spec_applies_modifiers_with_minimum_one() {
        let spec = PoolSpec {
            attribute: 3,
            background: true,
            ..PoolSpec::default()
        };
        assert_eq!(spec.pool().unwrap().dice(), 4);
        let weak = PoolSpec {
            attribute: 1,
            background: false,
            armor_too_heavy: true,
            heavy_weapon_weak: true,
        };
        assert_eq!(weak.pool().unwrap().dice(), 1);
        // Medium armor with Body 1 and a heavy weapon, plus a background: 1 + 1 - 2 = 0 → 1.
        let both = PoolSpec {
            background: true,
            ..weak
        };
        assert_eq!(both.pool().unwrap().dice(), 1);
        assert!(PoolSpec::attribute(0).pool().is_err());
    }

    #[test]
    fn the_largest_attribute_builds_the_largest_pool_only_with_both_penalties() {
        let spec = |attribute, armor_too_heavy, heavy_weapon_weak| PoolSpec {
            attribute,
            background: false,
            armor_too_heavy,
            heavy_weapon_weak,
        };
        // S1: 1002 − 1 (armor) − 1 (heavy weapon) = 1000 dice; 1001 − 1 = 1000.
        assert_eq!(spec(1002, true, true).pool().unwrap().dice(), 1000);
        assert_eq!(spec(1001, true, false).pool().unwrap().dice(), 1000);
        // Without one of its penalties the same attribute builds too many dice.
        assert_eq!(spec(1002, true, false).pool(), Err(RulesError::Pool(1001)));
        // One more builds no pool whatever the modifiers.
        assert_eq!(
            spec(1003, true, true).pool(),
            Err(RulesError::Attribute(1003))
        );
        assert_eq!(MAX_POOL_ATTRIBUTE, 1002);
    }

    #[test]
    fn pool_limits() {
        assert!(Pool::new(0).is_err());
        assert!(Pool::new(u64::from(MAX_POOL) + 1).is_err());
        assert!(Pool::new(100_000_000_000).is_err());
        assert_eq!(Pool::new(1000).unwrap().dice(), 1000);
    }

    #[test]
    fn difficulty_names() {
        assert_eq!("tough".parse::<Difficulty>().unwrap(), Difficulty::TOUGH);
        assert_eq!(
            "Very-Easy".parse::<Difficulty>().unwrap(),
            Difficulty::VERY_EASY
        );
        assert_eq!("7".parse::<Difficulty>().unwrap().value(), 7);
        assert!("-3".parse::<Difficulty>().is_err());
        assert!("0".parse::<Difficulty>().is_err());
        assert!("impossible".parse::<Difficulty>().is_err());
        assert_eq!(Difficulty::HARD.name(), "hard");
    }
}
