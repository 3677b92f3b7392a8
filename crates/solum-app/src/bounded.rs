//! Numbers a player types, each held to its range by its type: parsed once at the edge (a
//! command line's `FromStr`, a request's `Deserialize`), so a use case that takes one never
//! checks it again. The types themselves live beside the asks that take them.

use std::fmt;

/// A number outside its range, or no number at all: the rule's words, which state the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfRange(String);

impl OutOfRange {
    // Only the `bounded!` types make one: their words are the one place a range is said.
    pub(crate) fn new(words: String) -> Self {
        Self(words)
    }
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OutOfRange {}

/// A newtype over an integer held to `MIN..=MAX`: private field, `new`, `get`, `FromStr`,
/// `Display`, serde as a whole number with the same check, and (feature `openapi`) a schema of
/// an integer from `MIN` to `MAX`, so the description states the range the server holds it
/// to. `$words` is a format string with `{min}` and `{max}`: what the user reads for a value
/// out of range or not a number.
macro_rules! bounded {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($repr:ty) in $min:expr, $max:expr; $words:literal
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        #[serde(into = "i64")]
        $vis struct $name($repr);

        // Read as a whole number: a negative one or one past the type (past i64 too) is
        // refused in the type's words, what is no whole number (`"two"`, `1.5`) as expected
        // "a whole number from MIN to MAX", the range the description states.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                solum_dice::deserialize_whole(
                    d,
                    i64::from($name::MIN),
                    i64::from($name::MAX),
                    <$name as TryFrom<i64>>::try_from,
                )
            }
        }

        impl $name {
            /// The least value.
            pub const MIN: $repr = $min;
            /// The greatest value.
            pub const MAX: $repr = $max;

            /// The value, if within [`Self::MIN`]`..=`[`Self::MAX`].
            pub fn new(n: $repr) -> Result<Self, $crate::bounded::OutOfRange> {
                if (Self::MIN..=Self::MAX).contains(&n) {
                    Ok(Self(n))
                } else {
                    Err(Self::refused())
                }
            }

            /// The number.
            pub fn get(self) -> $repr {
                self.0
            }

            fn refused() -> $crate::bounded::OutOfRange {
                $crate::bounded::OutOfRange::new(format!(
                    $words,
                    min = Self::MIN,
                    max = Self::MAX
                ))
            }
        }

        impl TryFrom<i64> for $name {
            type Error = $crate::bounded::OutOfRange;
            fn try_from(n: i64) -> Result<Self, Self::Error> {
                <$repr>::try_from(n)
                    .map_err(|_| Self::refused())
                    .and_then(Self::new)
            }
        }

        impl From<$name> for i64 {
            fn from(n: $name) -> i64 {
                i64::from(n.0)
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::bounded::OutOfRange;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                // A number past i64 is as far out of range as one past MAX: the same words.
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| Self::refused())
                    .and_then(Self::try_from)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        // The OpenAPI description states the range the type holds, not its integer's.
        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::RefOr::T($crate::schema::integer(
                    i64::from(Self::MIN),
                    i64::from(Self::MAX),
                ))
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
        }
    };
}

pub(crate) use bounded;

/// Unit tests of a `bounded!` type: both bounds taken, one past each refused in its words,
/// non-numbers refused in the same words, and every value round-trips through its text
/// and through JSON.
#[cfg(test)]
macro_rules! bounded_tests {
    ($test:ident, $name:ty, $words:expr) => {
        mod $test {
            #![allow(clippy::unwrap_used)]
            use super::*;
            use proptest::prelude::*;

            #[test]
            fn bounds_are_inclusive_and_one_past_is_refused() {
                let (min, max) = (i64::from(<$name>::MIN), i64::from(<$name>::MAX));
                assert_eq!(<$name>::try_from(min).unwrap().get(), <$name>::MIN);
                assert_eq!(<$name>::try_from(max).unwrap().get(), <$name>::MAX);
                assert_eq!(i64::from(min.to_string().parse::<$name>().unwrap()), min);
                assert_eq!(i64::from(max.to_string().parse::<$name>().unwrap()), max);
                for past in [min - 1, max + 1] {
                    let e = past.to_string().parse::<$name>().unwrap_err();
                    assert_eq!(e.to_string(), $words);
                    assert_eq!(<$name>::try_from(past).unwrap_err().to_string(), $words);
                    let json = serde_json::from_str::<$name>(&past.to_string()).unwrap_err();
                    assert!(json.to_string().contains($words), "{json}");
                }
            }

            #[test]
            fn non_numbers_are_refused_in_the_same_words() {
                for text in ["", "x", "1.5", "3d6", "99999999999999999999", "--1"] {
                    let e = text.parse::<$name>().unwrap_err();
                    assert_eq!(e.to_string(), $words, "{text:?}");
                }
                // In JSON, what is no whole number expects the range; a whole number past
                // i64 is out of range like any other.
                let whole = format!(
                    "expected a whole number from {} to {}",
                    <$name>::MIN,
                    <$name>::MAX
                );
                for json in ["\"x\"", "1.5", "99999999999999999999", "true", "[1]"] {
                    let e = serde_json::from_str::<$name>(json).unwrap_err().to_string();
                    assert!(e.contains(&whole), "{json}: {e}");
                }
                let e = serde_json::from_str::<$name>("18446744073709551615").unwrap_err();
                assert!(e.to_string().contains($words), "{e}");
            }

            proptest! {
                #[test]
                fn every_value_round_trips(n in i64::from(<$name>::MIN)..=i64::from(<$name>::MAX)) {
                    let v = <$name>::try_from(n).unwrap();
                    prop_assert_eq!(v.to_string().parse::<$name>().unwrap(), v);
                    prop_assert_eq!(i64::from(v), n);
                    let json = serde_json::to_string(&v).unwrap();
                    prop_assert_eq!(serde_json::from_str::<$name>(&json).unwrap(), v);
                }
            }
        }
    };
}

#[cfg(test)]
pub(crate) use bounded_tests;
