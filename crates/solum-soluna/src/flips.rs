//! Flips with optimal play, on counts of faces (ruling U1, U2).
//!
//! Positive flips: for the face `f` to grow, each die on an adjacent face costs one flip and
//! each die on the opposite face two; taking the cheap ones first is optimal, and the best
//! face wins.
//!
//! Negative flips: the target wants the smallest `m` such that every face can be brought to
//! at most `m` dice within `K` flips. The `E` dice above `m` must move to faces below `m`; a
//! move costs 1 unless the only room left is on the die's opposite face, which costs 2 (two
//! flips through any adjacent face). So the cost is `2E − M`, where `M` is the largest
//! matching of excess dice to room along non-opposite moves. On six faces Hall's condition
//! gives `M` directly: a set of two or more excess faces reaches all the room, so only single
//! faces can be short, and `M = min(E, R, min_a (E − e_a + R − r_opp(a)))`.

use serde::Serialize;

/// Counts of dice showing faces 1 to 6 (index 0 is face 1).
pub type Counts = [u32; 6];

/// The face opposite `face` on a d6.
pub fn opposite(face: u32) -> u32 {
    7 - face
}

/// Whether one flip moves a die from `from` to `to`.
pub fn adjacent(from: u32, to: u32) -> bool {
    from != to && from + to != 7
}

/// Counts of the faces.
pub fn counts(faces: &[u32]) -> Counts {
    let mut c = [0; 6];
    for &f in faces {
        c[f as usize - 1] += 1;
    }
    c
}

/// The largest group: its size, and the highest face that has it.
pub fn largest(c: &Counts) -> (u32, u32) {
    let mut best = (0, 0);
    for (i, &n) in c.iter().enumerate() {
        if n >= best.0 {
            best = (n, i as u32 + 1);
        }
    }
    best
}

/// The largest group after `flips` optimal flips: positive for the tester (grow it),
/// negative for the target (shrink it), zero for none.
pub fn largest_after(c: &Counts, flips: i32) -> u32 {
    match flips.signum() {
        1 => grow(c, flips.unsigned_abs()),
        -1 => shrink(c, flips.unsigned_abs()),
        _ => largest(c).0,
    }
}

/// The best group for face `f` with `k` flips.
fn grow_face(c: &Counts, f: usize, k: u32) -> u32 {
    let opp = 5 - f;
    let near: u32 = (0..6).filter(|&g| g != f && g != opp).map(|g| c[g]).sum();
    let cheap = near.min(k);
    let dear = c[opp].min((k - cheap) / 2);
    c[f] + cheap + dear
}

fn grow(c: &Counts, k: u32) -> u32 {
    (0..6).map(|f| grow_face(c, f, k)).max().unwrap_or(0)
}

/// Flips the target needs to bring every face to at most `m` dice (`None`: impossible).
fn cost_to_cap(c: &Counts, m: u32) -> Option<u32> {
    let excess: Counts = std::array::from_fn(|i| c[i].saturating_sub(m));
    let room: Counts = std::array::from_fn(|i| m.saturating_sub(c[i]));
    let e: u32 = excess.iter().sum();
    let r: u32 = room.iter().sum();
    if e > r {
        return None;
    }
    let mut matched = e.min(r);
    for a in 0..6 {
        if excess[a] > 0 {
            matched = matched.min(e - excess[a] + r - room[5 - a]);
        }
    }
    Some(2 * e - matched)
}

fn shrink(c: &Counts, k: u32) -> u32 {
    let top = largest(c).0;
    let n: u32 = c.iter().sum();
    let floor = n.div_ceil(6).max(1).min(top);
    (floor..=top)
        .find(|&m| cost_to_cap(c, m).is_some_and(|cost| cost <= k))
        .unwrap_or(top)
}

/// One flip of one die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = soluna::Flip))]
pub struct Flip {
    /// 0-based position of the die.
    pub die: usize,
    /// The face before.
    pub from: u32,
    /// The face after.
    pub to: u32,
}

fn flip(faces: &mut [u32], die: usize, to: u32, out: &mut Vec<Flip>) {
    debug_assert!(adjacent(faces[die], to));
    // A die may be flipped several times; each flip is one step to an adjacent face.
    out.push(Flip {
        die,
        from: faces[die],
        to,
    });
    faces[die] = to;
}

/// The fewest flips that reach the optimum of [`largest_after`] with `flips`: the play never
/// uses more (twelve 6s against 20 negative flips need only 12 of them).
pub fn flips_needed(c: &Counts, flips: i32) -> u32 {
    let sign = flips.signum();
    let goal = largest_after(c, flips);
    // The optimum grows (or shrinks) monotonically with the flips: binary search.
    let (mut lo, mut hi) = (0, flips.unsigned_abs());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if largest_after(c, sign * mid as i32) == goal {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Plays flips on the dice, one at a time, changing `faces`: `flips` positive for the tester
/// (grow the largest group), negative for the target (shrink it). It plays exactly
/// [`flips_needed`] flips, each one that leaves the optimum of [`largest_after`] in reach of
/// one flip fewer, so the sequence is optimal and no flip is wasted.
pub fn play(faces: &mut [u32], flips: i32) -> Vec<Flip> {
    let sign = flips.signum();
    let start = counts(faces);
    let goal = largest_after(&start, flips);
    let needed = flips_needed(&start, flips);
    let mut out = Vec::with_capacity(needed as usize);
    for left in (0..needed).rev() {
        let c = counts(faces);
        let rest = sign * left as i32;
        // The first die, in the order rolled, whose flip keeps the optimum in reach of the
        // flips left. A flip of one die of a face is as good as the same flip of any other:
        // try the first die of each face only.
        let mut seen = [false; 6];
        let firsts: Vec<usize> = (0..faces.len())
            .filter(|&die| !std::mem::replace(&mut seen[faces[die] as usize - 1], true))
            .collect();
        let (die, to) = firsts
            .into_iter()
            .flat_map(|die| (1..=6u32).map(move |to| (die, to)))
            .find(|&(die, to)| {
                let from = faces[die];
                if !adjacent(from, to) {
                    return false;
                }
                let mut t = c;
                t[from as usize - 1] -= 1;
                t[to as usize - 1] += 1;
                largest_after(&t, rest) == goal
            })
            .expect("an optimal flip exists while the optimum is not reached");
        flip(faces, die, to, &mut out);
    }
    debug_assert_eq!(largest(&counts(faces)).0, goal);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap, HashSet};

    /// Brute force: every sequence of up to `k` single flips on the counts (a die moved
    /// twice is two moves), best or worst largest group reached.
    fn brute(c: &Counts, k: i32) -> u32 {
        let mut frontier: HashSet<Counts> = HashSet::from([*c]);
        let mut all: BTreeSet<Counts> = BTreeSet::from([*c]);
        for _ in 0..k.unsigned_abs() {
            let mut next = HashSet::new();
            for s in &frontier {
                for a in 0..6 {
                    if s[a] == 0 {
                        continue;
                    }
                    for b in 0..6 {
                        if adjacent(a as u32 + 1, b as u32 + 1) {
                            let mut t = *s;
                            t[a] -= 1;
                            t[b] += 1;
                            if all.insert(t) {
                                next.insert(t);
                            }
                        }
                    }
                }
            }
            frontier = next;
        }
        let sizes = all.iter().map(|s| largest(s).0);
        if k >= 0 {
            sizes.max().unwrap()
        } else {
            sizes.min().unwrap()
        }
    }

    fn all_counts(n: u32, f: usize, prefix: &mut Vec<u32>, out: &mut Vec<Counts>) {
        if f == 5 {
            prefix.push(n);
            out.push(prefix.clone().try_into().unwrap());
            prefix.pop();
            return;
        }
        for x in 0..=n {
            prefix.push(x);
            all_counts(n - x, f + 1, prefix, out);
            prefix.pop();
        }
    }

    #[test]
    fn closed_form_matches_brute_force() {
        for n in 1..=7 {
            let mut vectors = Vec::new();
            all_counts(n, 0, &mut Vec::new(), &mut vectors);
            for c in &vectors {
                for k in -4..=4 {
                    assert_eq!(largest_after(c, k), brute(c, k), "{c:?} with {k} flips");
                }
            }
        }
    }

    #[test]
    fn played_flips_reach_the_optimum() {
        for n in 1..=7 {
            let mut vectors = Vec::new();
            all_counts(n, 0, &mut Vec::new(), &mut vectors);
            for c in &vectors {
                let faces: Vec<u32> = (0..6)
                    .flat_map(|f| std::iter::repeat_n(f as u32 + 1, c[f] as usize))
                    .collect();
                for k in 1..=5u32 {
                    let mut up = faces.clone();
                    let flips = play(&mut up, k as i32);
                    assert!(flips.len() <= k as usize);
                    assert_eq!(
                        largest(&counts(&up)).0,
                        largest_after(c, k as i32),
                        "{c:?} +{k}"
                    );
                    let mut down = faces.clone();
                    let flips = play(&mut down, -(k as i32));
                    assert!(flips.len() <= k as usize, "{c:?} -{k}: {flips:?}");
                    assert!(flips.iter().all(|f| adjacent(f.from, f.to)));
                    assert_eq!(
                        largest(&counts(&down)).0,
                        largest_after(c, -(k as i32)),
                        "{c:?} -{k}"
                    );
                }
            }
        }
    }

    /// Breadth-first search over face changes: the fewest single flips from `c` to every
    /// state within `k` flips.
    fn distances(c: &Counts, k: u32) -> HashMap<Counts, u32> {
        let mut dist = HashMap::from([(*c, 0)]);
        let mut frontier = vec![*c];
        for d in 1..=k {
            let mut next = Vec::new();
            for s in &frontier {
                for a in 0..6 {
                    if s[a] == 0 {
                        continue;
                    }
                    for b in 0..6 {
                        if adjacent(a as u32 + 1, b as u32 + 1) {
                            let mut t = *s;
                            t[a] -= 1;
                            t[b] += 1;
                            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(t) {
                                e.insert(d);
                                next.push(t);
                            }
                        }
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    /// The fewest flips, found by search, that reach the best (or worst) largest group
    /// within `k` flips; and that group.
    fn fewest_by_search(c: &Counts, k: i32) -> (u32, u32) {
        let dist = distances(c, k.unsigned_abs());
        let sizes = dist.keys().map(|s| largest(s).0);
        let best = if k >= 0 {
            sizes.max().unwrap()
        } else {
            sizes.min().unwrap()
        };
        let fewest = dist
            .iter()
            .filter(|(s, _)| largest(s).0 == best)
            .map(|(_, &d)| d)
            .min()
            .unwrap();
        (fewest, best)
    }

    fn faces_of(c: &Counts) -> Vec<u32> {
        (0..6)
            .flat_map(|f| std::iter::repeat_n(f as u32 + 1, c[f] as usize))
            .collect()
    }

    #[test]
    fn shown_flips_are_the_fewest_that_reach_the_optimum() {
        for n in 1..=7 {
            let mut vectors = Vec::new();
            all_counts(n, 0, &mut Vec::new(), &mut vectors);
            for c in &vectors {
                for k in -9..=9 {
                    let (fewest, best) = fewest_by_search(c, k);
                    let mut faces = faces_of(c);
                    let flips = play(&mut faces, k);
                    assert_eq!(
                        flips.len() as u32,
                        fewest,
                        "{c:?} with {k} flips: {flips:?}"
                    );
                    assert_eq!(flips_needed(c, k), fewest, "{c:?} with {k} flips");
                    assert_eq!(largest(&counts(&faces)).0, best, "{c:?} with {k} flips");
                    // Each shown flip is one real flip of the die it names.
                    let mut replay = faces_of(c);
                    for f in &flips {
                        assert_eq!(replay[f.die], f.from);
                        assert!(adjacent(f.from, f.to));
                        replay[f.die] = f.to;
                    }
                    assert_eq!(replay, faces);
                }
            }
        }
    }

    #[test]
    fn twelve_sixes_against_twenty_negative_flips_take_twelve() {
        // Twelve 6s: at best two dice a face. The 6 keeps 2; the four adjacent faces take 2
        // each (8 flips); the 1, opposite, takes 2 dice at two flips each (4): 12 flips.
        let sixes = [0, 0, 0, 0, 0, 12];
        assert_eq!(fewest_by_search(&sixes, -20), (12, 2));
        let mut faces = vec![6; 12];
        let flips = play(&mut faces, -20);
        assert_eq!(flips.len(), 12, "{flips:?}");
        assert_eq!(largest(&counts(&faces)).0, 2);
        // With positive flips nothing can grow a group of all the dice: no flip shown.
        assert!(play(&mut [6; 12], 20).is_empty());
    }

    #[test]
    fn corona_csen_flips_the_four() {
        // 4, 2, 6, 3, 6 and one net flip: the 4 becomes a 6, the group of 6 grows to 3.
        let mut faces = vec![4, 2, 6, 3, 6];
        assert_eq!(largest(&counts(&faces)), (2, 6));
        let flips = play(&mut faces, 1);
        assert_eq!(largest(&counts(&faces)), (3, 6));
        assert_eq!(flips.len(), 1);
        assert_eq!(flips[0].to, 6);
        // The 1 is opposite 6: not adjacent.
        assert!(!adjacent(1, 6));
        assert!(adjacent(4, 6) && adjacent(2, 6) && adjacent(3, 6));
    }
}
