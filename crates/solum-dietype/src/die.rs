//! Die types, their steps, difficulties and quality names.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A die type: d4 to d12.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum DieType {
    /// Four sides, the worst.
    D4,
    /// Six sides, the usual.
    D6,
    /// Eight sides.
    D8,
    /// Ten sides.
    D10,
    /// Twelve sides, the best.
    D12,
}

/// Described as serde writes it (`into = "String"`): its name, one of `d4` to `d12`.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for DieType {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        // Every variant, so that one added fails to compile here until it is listed.
        let every = |d: DieType| match d {
            Self::D4 | Self::D6 | Self::D8 | Self::D10 | Self::D12 => d,
        };
        let names = [Self::D4, Self::D6, Self::D8, Self::D10, Self::D12].map(every);
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(names.map(String::from)))
            .description(Some("A die type, d4 (the worst) to d12 (the best)"))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for DieType {
    fn name() -> std::borrow::Cow<'static, str> {
        "dietype.DieType".into()
    }
}

/// Bad input for die-type rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DieTypeError {
    /// Not d4, d6, d8, d10 or d12.
    #[error("`{0}` is not a die type: d4, d6, d8, d10 or d12")]
    DieType(String),
    /// Chances outside 1..=4.
    #[error("{0} chances: a roll has 1 to 4 chances (skill)")]
    Chances(i64),
    /// Difficulty outside 2..=12.
    #[error("difficulty {0}: difficulties run from 2 (trivial) to 12 (divine)")]
    Difficulty(i64),
    /// Flat modifier outside −4..=+4.
    #[error("modifier {0}: modifiers run from -4 to +4")]
    Modifier(i64),
}

impl DieType {
    /// All die types, worst first.
    pub const ALL: [Self; 5] = [Self::D4, Self::D6, Self::D8, Self::D10, Self::D12];

    /// Sides.
    pub fn sides(self) -> u32 {
        match self {
            Self::D4 => 4,
            Self::D6 => 6,
            Self::D8 => 8,
            Self::D10 => 10,
            Self::D12 => 12,
        }
    }

    fn index(self) -> usize {
        Self::ALL.iter().position(|&d| d == self).expect("listed")
    }

    /// The die `steps` types up (+1DT) or down (−1DT), clamped to d4..d12 (D3).
    pub fn step(self, steps: i64) -> Self {
        // Saturating: a step at the integer edge clamps like any other, never wraps.
        let i = (self.index() as i64).saturating_add(steps).clamp(0, 4);
        Self::ALL[i as usize]
    }
}

impl fmt::Display for DieType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

impl From<DieType> for String {
    fn from(d: DieType) -> Self {
        d.to_string()
    }
}

impl TryFrom<String> for DieType {
    type Error = DieTypeError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl FromStr for DieType {
    type Err = DieTypeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let n = t.strip_prefix('d').unwrap_or(&t);
        match n {
            "4" => Ok(Self::D4),
            "6" => Ok(Self::D6),
            "8" => Ok(Self::D8),
            "10" => Ok(Self::D10),
            "12" => Ok(Self::D12),
            _ => Err(DieTypeError::DieType(s.trim().to_owned())),
        }
    }
}

/// The text's name for a difficulty, where it gives one.
pub fn difficulty_name(difficulty: u32) -> &'static str {
    match difficulty {
        2 => "trivial",
        3 => "easy",
        4 => "normal",
        5 => "hard",
        12 => "divine",
        _ => "",
    }
}

/// The name of a quality: 1 success, 2 extraordinary, 3 heroic, 4 legendary.
pub fn quality_name(quality: u32) -> &'static str {
    match quality {
        0 => "failure",
        1 => "success",
        2 => "extraordinary",
        3 => "heroic",
        _ => "legendary",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_clamp() {
        assert_eq!(DieType::D6.step(1), DieType::D8);
        assert_eq!(DieType::D6.step(-1), DieType::D4);
        assert_eq!(DieType::D4.step(-3), DieType::D4);
        assert_eq!(DieType::D10.step(5), DieType::D12);
        assert_eq!(DieType::D6.step(i64::MAX), DieType::D12);
        assert_eq!(DieType::D6.step(i64::MIN), DieType::D4);
        assert_eq!("D8".parse::<DieType>(), Ok(DieType::D8));
        assert_eq!("12".parse::<DieType>(), Ok(DieType::D12));
        assert!("d7".parse::<DieType>().is_err());
    }

    proptest::proptest! {
        /// Any step, to the integer edges: a die of the list, never wrapping, and more steps
        /// never give a worse die.
        #[test]
        fn steps_clamp_at_every_integer(steps in proptest::prelude::any::<i64>(), i in 0usize..5) {
            let d = DieType::ALL[i];
            let stepped = d.step(steps);
            let expected = (i as i128 + i128::from(steps)).clamp(0, 4) as usize;
            proptest::prop_assert_eq!(stepped, DieType::ALL[expected]);
            proptest::prop_assert!(d.step(steps.saturating_add(1)).sides() >= stepped.sides());
        }
    }
}
