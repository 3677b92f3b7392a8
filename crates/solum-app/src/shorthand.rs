//! The one-line shorthand a player types for an entry of a sheet's list, `NAME=VALUE`
//! (`body=3`, `Athletics=2`, `Sword=d8+1`), read once here for every front end: the command
//! line parses its flags into these types (clap's `value_parser`), so no front end splits
//! text by hand. The rules crates read their own parts the same way (`dagger:light` is a
//! `Weapon`, `d8+1` a die-type weapon).

use std::error::Error;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

pub use solum_dice::ShorthandError;

/// `KEY=VALUE`: the key and the value each read as their type does (a name, an attribute; a
/// number, a die type, a weapon).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair<K, V> {
    /// What is named.
    pub key: K,
    /// Its value.
    pub value: V,
}

impl<K, V> Pair<K, V> {
    /// The pair as a tuple, as the use cases' requests take it.
    pub fn into_tuple(self) -> (K, V) {
        (self.key, self.value)
    }
}

/// Pairs as the tuples the use cases' requests take.
pub fn tuples<K: Clone, V: Clone>(pairs: &[Pair<K, V>]) -> Vec<(K, V)> {
    pairs.iter().cloned().map(Pair::into_tuple).collect()
}

/// What is wrong with a part that did not read, in words (a number's parse error says "invalid
/// digit found in string", which names no part of the game).
fn problem<E: Error + 'static>(e: &E) -> String {
    match (e as &dyn Error)
        .downcast_ref::<ParseIntError>()
        .map(ParseIntError::kind)
    {
        Some(IntErrorKind::PosOverflow) => "too large a number".to_owned(),
        Some(_) => "not a whole number".to_owned(),
        None => e.to_string(),
    }
}

impl<K, V> FromStr for Pair<K, V>
where
    K: FromStr,
    K::Err: Error + 'static,
    V: FromStr,
    V::Err: Error + 'static,
{
    type Err = ShorthandError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (key, value) = s
            .rsplit_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .filter(|(k, v)| !k.is_empty() && !v.is_empty())
            .ok_or_else(|| ShorthandError::Form {
                written: s.to_owned(),
                form: "NAME=VALUE",
            })?;
        Ok(Self {
            key: key.parse().map_err(|e| ShorthandError::Part {
                written: s.trim().to_owned(),
                problem: problem(&e),
            })?,
            value: value.parse().map_err(|e| ShorthandError::Part {
                written: value.to_owned(),
                problem: problem(&e),
            })?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_expanded::character::Attribute;

    #[test]
    fn a_pair_reads_its_key_and_value_as_their_types() {
        let p: Pair<Attribute, u32> = "Body = 3".parse().unwrap();
        assert_eq!(p.into_tuple(), (Attribute::Body, 3));
        let p: Pair<String, u32> = "Athletics=2".parse().unwrap();
        assert_eq!(p.into_tuple(), ("Athletics".to_owned(), 2));
    }

    #[test]
    fn a_pair_that_does_not_read_says_which_part() {
        let form = "body".parse::<Pair<Attribute, u32>>().unwrap_err();
        assert_eq!(form.to_string(), "`body`: write NAME=VALUE");
        let empty = "=3".parse::<Pair<String, u32>>().unwrap_err();
        assert!(matches!(empty, ShorthandError::Form { .. }), "{empty}");
        let word = "bdy=3".parse::<Pair<Attribute, u32>>().unwrap_err();
        assert!(
            word.to_string().contains("`bdy` is not an attribute"),
            "{word}"
        );
        let number = "Athletics=two".parse::<Pair<String, u32>>().unwrap_err();
        assert_eq!(number.to_string(), "`two`: not a whole number");
        let large = "Athletics=4294967296"
            .parse::<Pair<String, u32>>()
            .unwrap_err();
        assert_eq!(large.to_string(), "`4294967296`: too large a number");
    }
}
