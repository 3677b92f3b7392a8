//! The idea generator of solo play: words drawn from a list, each by one die as large as the
//! list, to be read together as a prompt when the oracle's answer needs filling in.
//!
//! The genre lists are written for solum and built into the program; a player may bring a
//! list of their own from a file (the front end reads it, at most [`MAX_LIST_BYTES`], and
//! hands its text to [`parse_list`]), whose words are then journaled with the draw so that a
//! replay never needs the file again.

use solum_dice::{DiceError, DiceSource};

use crate::AppError;

/// The most words a list may hold (also the largest die solum rolls).
pub const MAX_WORDS: usize = solum_dice::MAX_SIDES as usize;
/// The longest word or phrase of a list, in characters.
pub const MAX_WORD: usize = 60;
/// The largest list file a front end reads, in bytes (the command line's `--list`): the app
/// takes the list's text ([`parse_list`]) and reads no file.
pub const MAX_LIST_BYTES: u64 = 64 * 1024;
/// The most words one draw takes.
pub const MAX_COUNT: u32 = 20;

crate::bounded::bounded! {
    /// How many words one draw takes, 1 to [`MAX_COUNT`].
    pub struct IdeaCount(u32) in 1, MAX_COUNT;
    "an idea draws {min} to {max} words"
}

/// The built-in genres: name and list text.
const GENRES: [(&str, &str); 5] = [
    ("fantasy", include_str!("../data/ideas/fantasy.txt")),
    (
        "science-fiction",
        include_str!("../data/ideas/science-fiction.txt"),
    ),
    ("cyberpunk", include_str!("../data/ideas/cyberpunk.txt")),
    ("modern", include_str!("../data/ideas/modern.txt")),
    ("horror", include_str!("../data/ideas/horror.txt")),
];

/// The names of the built-in genres.
pub fn genres() -> Vec<&'static str> {
    GENRES.iter().map(|(name, _)| *name).collect()
}

/// The built-in genres of idea words: what `solum idea --genres --json` prints and
/// `GET /api/idea/genres` answers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GenresAnswer {
    /// The genres' names ([`genres`]), in the program's order.
    pub genres: Vec<&'static str>,
}

impl GenresAnswer {
    /// Every built-in genre.
    pub fn all() -> Self {
        Self { genres: genres() }
    }
}

/// Other names of `science-fiction` a request may give.
pub const SCIENCE_FICTION_ALIASES: [&str; 4] = ["sf", "scifi", "sci-fi", "science fiction"];

/// A genre as requests name it: trimmed, in any ASCII case, or an alias.
fn find_genre(name: &str) -> Result<(&'static str, &'static str), AppError> {
    let wanted = match name.trim().to_ascii_lowercase().as_str() {
        a if SCIENCE_FICTION_ALIASES.contains(&a) => "science-fiction".to_string(),
        other => other.to_string(),
    };
    GENRES
        .iter()
        .find(|(n, _)| *n == wanted)
        .copied()
        .ok_or_else(|| AppError::UnknownGenre {
            name: name.to_string(),
            known: genres().join(", "),
        })
}

/// The words of a built-in genre (`sf` and `scifi` also name science fiction).
pub fn genre_words(name: &str) -> Result<Vec<String>, AppError> {
    parse_list(find_genre(name)?.1)
}

/// The canonical name of a genre (`sf` → `science-fiction`).
pub fn genre_name(name: &str) -> Result<&'static str, AppError> {
    Ok(find_genre(name)?.0)
}

/// Reads a list: one word or phrase a line, blank lines and lines starting with `#` skipped,
/// at least one word and at most [`MAX_WORDS`], each at most [`MAX_WORD`] characters without
/// control characters.
pub fn parse_list(text: &str) -> Result<Vec<String>, AppError> {
    let mut words = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let word = line.trim();
        if word.is_empty() || word.starts_with('#') {
            continue;
        }
        let bad = |reason: String| AppError::BadWordList {
            line: i + 1,
            reason,
        };
        if let Some(problem) = crate::text_problem(word, false) {
            return Err(bad(format!("it {problem}")));
        }
        let len = word.chars().count();
        if len > MAX_WORD {
            return Err(bad(format!(
                "{len} characters; a word or phrase has at most {MAX_WORD}"
            )));
        }
        if words.len() == MAX_WORDS {
            return Err(bad(format!("more than {MAX_WORDS} words")));
        }
        words.push(word.to_string());
    }
    if words.is_empty() {
        return Err(AppError::BadWordList {
            line: 0,
            reason: "the list holds no words".into(),
        });
    }
    Ok(words)
}

/// Draws `count` words from `words`, each by one die with as many faces as the list has
/// words: a face of k gives the k-th word. The dice are independent, so a word may come up
/// twice.
pub fn draw(
    words: &[String],
    count: u32,
    dice: &mut dyn DiceSource,
) -> Result<Vec<String>, DiceError> {
    let sides = u32::try_from(words.len()).unwrap_or(u32::MAX);
    (0..count)
        .map(|_| {
            let face = dice.roll(sides)?;
            Ok(words[face as usize - 1].clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::{ScriptedDice, TypedDice};

    crate::bounded::bounded_tests!(idea_count, IdeaCount, "an idea draws 1 to 20 words");

    #[test]
    fn every_genre_has_at_least_a_hundred_distinct_words() {
        assert_eq!(genres().len(), 5);
        for g in genres() {
            let words = genre_words(g).unwrap();
            let mut distinct = words.clone();
            distinct.sort();
            distinct.dedup();
            assert!(words.len() >= 100, "{g}: {} words", words.len());
            assert_eq!(distinct.len(), words.len(), "{g} repeats a word");
        }
    }

    #[test]
    fn a_face_of_k_gives_the_kth_word() {
        let words: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let drawn = draw(&words, 4, &mut ScriptedDice::new([3, 1, 1, 2])).unwrap();
        assert_eq!(drawn, ["c", "a", "a", "b"]);
        // A typed face larger than the list is refused, not wrapped.
        assert!(draw(&words, 1, &mut TypedDice::new([4])).is_err());
    }

    #[test]
    fn every_ordered_pair_of_words_is_equally_likely() {
        // Reference: two independent d3 → each ordered pair 1/9, the same word twice 1/3.
        let words: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let e = solum_dice::enumerate(2, |d| draw(&words, 2, d)).unwrap();
        assert_eq!(e.outcomes.len(), 9);
        for p in e.outcomes.values() {
            assert_eq!(*p, solum_dice::prob(1, 9));
        }
        assert_eq!(e.p(|w| w[0] == w[1]), solum_dice::prob(1, 3));
    }

    #[test]
    fn seeded_draws_are_uniform_over_a_genre_within_four_standard_errors() {
        let words = genre_words("fantasy").unwrap();
        let k = words.len();
        let n = 118_000;
        let mut dice = solum_dice::SeededDice::new(11);
        let drawn = draw(&words, n, &mut dice).unwrap();
        let p = 1.0 / k as f64;
        let se = (n as f64 * p * (1.0 - p)).sqrt();
        for w in &words {
            let count = drawn.iter().filter(|d| *d == w).count() as f64;
            assert!(
                (count - n as f64 * p).abs() < 4.0 * se,
                "{w}: {count} of {n}"
            );
        }
    }

    #[test]
    fn lists_skip_comments_and_blank_lines_and_are_bounded() {
        assert_eq!(
            parse_list("# c\n\n  red door \nowl\n").unwrap(),
            ["red door", "owl"]
        );
        assert!(parse_list("# only a comment\n").is_err());
        assert!(parse_list(&"w\n".repeat(MAX_WORDS)).is_ok());
        assert!(parse_list(&"w\n".repeat(MAX_WORDS + 1)).is_err());
        assert!(parse_list(&"x".repeat(MAX_WORD + 1)).is_err());
        assert!(parse_list("a\u{7}b").is_err());
    }

    #[test]
    fn genre_aliases() {
        assert_eq!(genre_name("SF").unwrap(), "science-fiction");
        assert_eq!(genre_name("horror").unwrap(), "horror");
        assert!(matches!(
            genre_name("western"),
            Err(AppError::UnknownGenre { .. })
        ));
    }
}
