//! Reading a whole number held to a range from a request (any serde format), so that every
//! ranged type of the family says the same thing for what is no number at all: "a whole
//! number from MIN to MAX", the range the API description states, never its integer's.

use std::fmt::{self, Display};
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Error, Visitor};

/// Reads a whole number and makes the value with `make`, which holds it to `min..=max` and
/// says why not in the type's own words. A number past `i64` is handed to `make` as
/// `i64::MAX` (as far out of range as it is, for every type that calls this: their ranges
/// are far smaller), so it is refused in the same words as any other number out of range.
pub fn deserialize_whole<'de, D, T, E>(
    d: D,
    min: i64,
    max: i64,
    make: fn(i64) -> Result<T, E>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    E: Display,
{
    struct Whole<T, E> {
        min: i64,
        max: i64,
        make: fn(i64) -> Result<T, E>,
        value: PhantomData<T>,
    }
    impl<T, E: Display> Visitor<'_> for Whole<T, E> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a whole number from {} to {}", self.min, self.max)
        }
        fn visit_i64<X: Error>(self, n: i64) -> Result<T, X> {
            (self.make)(n).map_err(X::custom)
        }
        fn visit_u64<X: Error>(self, n: u64) -> Result<T, X> {
            self.visit_i64(i64::try_from(n).unwrap_or(i64::MAX))
        }
    }
    d.deserialize_i64(Whole {
        min,
        max,
        make,
        value: PhantomData,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1..=6, refused as "out: N".
    #[derive(Debug, PartialEq)]
    struct Six(i64);
    impl<'de> serde::Deserialize<'de> for Six {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_whole(d, 1, 6, |n| {
                if (1..=6).contains(&n) {
                    Ok(Six(n))
                } else {
                    Err(format!("out: {n}"))
                }
            })
        }
    }

    fn read(json: &str) -> Result<Six, String> {
        serde_json::from_str::<Six>(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_number_in_range_is_read_and_one_outside_is_refused_in_the_types_words() {
        assert_eq!(read("1"), Ok(Six(1)));
        assert_eq!(read("6"), Ok(Six(6)));
        assert!(read("0").unwrap_err().starts_with("out: 0"));
        assert!(read("-7").unwrap_err().starts_with("out: -7"));
        // Past i64: as far out as the type can say.
        assert!(
            read("18446744073709551615")
                .unwrap_err()
                .starts_with(&format!("out: {}", i64::MAX))
        );
    }

    #[test]
    fn what_is_no_whole_number_is_expected_as_one_in_the_range() {
        for json in ["\"two\"", "1.5", "null", "[1]", "true"] {
            let e = read(json).unwrap_err();
            assert!(
                e.contains("expected a whole number from 1 to 6"),
                "{json}: {e}"
            );
            assert!(!e.contains("i64"), "{json}: {e}");
        }
    }
}
