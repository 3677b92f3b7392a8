//! [`Faces`]: the faces of one pool as rolled, kept inline when the pool is small.

use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::{Serialize, Serializer};

/// Pools up to this many dice keep their faces inline (every pool a table rolls).
const INLINE: usize = 8;

/// The faces of a pool as rolled, in order: a slice of `u32` (it dereferences to `[u32]`)
/// that allocates nothing for pools of up to 8 dice, so rolling a check costs its dice and
/// not a heap allocation. It serializes as a plain list, like a `Vec<u32>`.
#[derive(Clone)]
pub struct Faces {
    /// How many faces.
    len: u32,
    /// The faces while `len ≤ INLINE`.
    inline: [u32; INLINE],
    /// The faces past that (an empty `Vec` allocates nothing).
    heap: Vec<u32>,
}

impl Faces {
    /// `n` faces, all 0, to be filled (e.g. by [`crate::DiceSource::roll_into`]).
    #[inline]
    pub fn zeroed(n: usize) -> Self {
        let heap = if n <= INLINE { Vec::new() } else { vec![0; n] };
        Self {
            len: u32::try_from(n).expect("a pool's faces fit in memory"),
            inline: [0; INLINE],
            heap,
        }
    }

    fn is_inline(&self) -> bool {
        self.len as usize <= INLINE
    }
}

impl Default for Faces {
    fn default() -> Self {
        Self::zeroed(0)
    }
}

impl Deref for Faces {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        if self.is_inline() {
            &self.inline[..self.len as usize]
        } else {
            &self.heap
        }
    }
}

impl DerefMut for Faces {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u32] {
        if self.is_inline() {
            &mut self.inline[..self.len as usize]
        } else {
            &mut self.heap
        }
    }
}

impl From<&[u32]> for Faces {
    fn from(faces: &[u32]) -> Self {
        let mut out = Self::zeroed(faces.len());
        out.copy_from_slice(faces);
        out
    }
}

impl From<Vec<u32>> for Faces {
    fn from(faces: Vec<u32>) -> Self {
        if faces.len() <= INLINE {
            Self::from(faces.as_slice())
        } else {
            Self {
                len: u32::try_from(faces.len()).expect("a pool's faces fit in memory"),
                inline: [0; INLINE],
                heap: faces,
            }
        }
    }
}

impl From<Faces> for Vec<u32> {
    fn from(faces: Faces) -> Self {
        if faces.is_inline() {
            faces.to_vec()
        } else {
            faces.heap
        }
    }
}

impl PartialEq for Faces {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Faces {}

impl PartialEq<[u32]> for Faces {
    fn eq(&self, other: &[u32]) -> bool {
        **self == *other
    }
}

impl PartialEq<Vec<u32>> for Faces {
    fn eq(&self, other: &Vec<u32>) -> bool {
        **self == **other
    }
}

impl<const N: usize> PartialEq<[u32; N]> for Faces {
    fn eq(&self, other: &[u32; N]) -> bool {
        **self == other[..]
    }
}

impl fmt::Debug for Faces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Faces {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

// Described as serde writes it: a list of faces.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Faces {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <Vec<u32> as utoipa::PartialSchema>::schema()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Faces {
    fn name() -> std::borrow::Cow<'static, str> {
        "dice.Faces".into()
    }
}

impl<'a> IntoIterator for &'a Faces {
    type Item = &'a u32;
    type IntoIter = std::slice::Iter<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_heap_behave_as_a_vec() {
        for n in [0usize, 1, 4, 8, 9, 30] {
            let v: Vec<u32> = (1..=n as u32).collect();
            let f = Faces::from(v.clone());
            assert_eq!(f.len(), n);
            assert_eq!(f, v);
            assert_eq!(Vec::from(f.clone()), v);
            assert_eq!(format!("{f:?}"), format!("{v:?}"));
            assert_eq!(
                serde_json::to_string(&f).unwrap(),
                serde_json::to_string(&v).unwrap()
            );
        }
        let mut f = Faces::zeroed(3);
        f[1] = 5;
        assert_eq!(f, [0, 5, 0]);
        assert_ne!(Faces::from(vec![1, 2]), Faces::from(vec![1, 2, 0]));
    }
}
