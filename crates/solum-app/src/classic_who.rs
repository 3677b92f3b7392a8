//! Who a command of the original So1um names: a hero of the campaign, else a hero file (its
//! text, which the front end read), an entry of the book or, for a check, a number of dice.
//! The app decides which and answers in one call ([`classic_check_who`],
//! [`classic_show_who`]); the front end reads the file it is given (I/O), and opens the
//! campaign when the app asks for it: a file never names a campaign hero, so a command about
//! a file opens no campaign, and a missing campaign is no campaign (never created to look a
//! name up).

use solum_store::CampaignStore;

use crate::classic::{HeroCheckView, HeroView};
use crate::classic_once::{
    ClassicCheckAsk, ClassicCheckView, ClassicOnceError, Field, Hero, Kind, Roller, Stat,
    classic_check_once, difficulty_of, hero_of, stat_of,
};
use crate::{AppError, Campaign, Dice};

/// The hero a command names, as the front end has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeroSource<'a> {
    /// A word: the campaign's hero of that name if there is one, else an entry of the book
    /// (or a check's number of dice).
    Named(&'a str),
    /// A hero file the front end read: never a campaign hero.
    File {
        /// The file as the user named it (messages name it so).
        path: &'a str,
        /// Its text.
        text: &'a str,
    },
}

impl<'a> HeroSource<'a> {
    /// The name or the file as typed.
    pub fn who(&self) -> &'a str {
        match self {
            Self::Named(name) => name,
            Self::File { path, .. } => path,
        }
    }

    /// The hero of the file or the book, held to `kind`'s rules.
    pub fn hero(&self, kind: Kind) -> Result<Hero, ClassicOnceError> {
        match self {
            Self::Named(name) => hero_of(name, None, kind),
            Self::File { path, text } => hero_of(path, Some(text), kind),
        }
    }

    /// The name a campaign hero would have: a word, not empty.
    fn campaign_name(&self) -> Option<&'a str> {
        match self {
            Self::Named(name) if !name.trim().is_empty() => Some(name),
            _ => None,
        }
    }
}

/// A command about the hero it names, refused.
#[derive(Debug, thiserror::Error)]
pub enum WhoError<E> {
    /// The campaign did not open: the front end's own error, as it gave it.
    #[error("{0}")]
    Open(E),
    /// A use case of the campaign refused.
    #[error(transparent)]
    Campaign(#[from] AppError),
    /// A one-shot use case refused (a file, the book, a number of dice).
    #[error(transparent)]
    Once(#[from] ClassicOnceError),
}

/// The campaign, when `who` may be one of its heroes, the front end opens one (`open`
/// answers `None` for a missing campaign) and it holds a hero of that name.
fn campaign_of<S: CampaignStore, E>(
    who: &HeroSource<'_>,
    open: impl FnOnce() -> Result<Option<Campaign<S>>, E>,
) -> Result<Option<Campaign<S>>, WhoError<E>> {
    let Some(name) = who.campaign_name() else {
        return Ok(None);
    };
    let Some(campaign) = open().map_err(WhoError::Open)? else {
        return Ok(None);
    };
    Ok(campaign.has_classic_hero(name)?.then_some(campaign))
}

/// A hero shown: the campaign's (with its fight, if any), or one of a file or the book.
#[derive(Debug, Clone, PartialEq)]
pub enum ClassicShown {
    /// A hero of the campaign.
    Campaign(HeroView),
    /// A hero of a file or the book.
    Hero(Hero),
}

/// `classic show WHO`: the campaign's hero of that name, else the file's or the book's.
pub fn classic_show_who<S: CampaignStore, E>(
    who: HeroSource<'_>,
    open: impl FnOnce() -> Result<Option<Campaign<S>>, E>,
) -> Result<ClassicShown, WhoError<E>> {
    if let Some(campaign) = campaign_of(&who, open)? {
        return Ok(ClassicShown::Campaign(campaign.classic_hero(who.who())?));
    }
    Ok(ClassicShown::Hero(who.hero(Kind::Hero)?))
}

/// A check as typed, of whoever `who` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassicCheckWho<'a> {
    /// Who rolls: a campaign hero, a hero of a file or the book, or a number of dice.
    pub who: HeroSource<'a>,
    /// The stat rolled, as typed (Body when not given; a hero's only).
    pub stat: Option<&'a str>,
    /// The cliché that adds a die (a hero's only).
    pub cliche: Option<&'a str>,
    /// The difficulty as typed.
    pub vs: Option<&'a str>,
    /// A random difficulty (one d6) instead.
    pub random: bool,
    /// Gear rerolls a die once: a campaign hero names the piece it carries (empty: its one
    /// piece); any other roller only says so.
    pub gear: Option<&'a str>,
    /// Faces typed by hand, as typed.
    pub rolled: Option<&'a str>,
    /// The generator's seed.
    pub seed: Option<u64>,
}

/// A check rolled: a campaign hero's (journaled), or a one-shot's.
#[derive(Debug, Clone, PartialEq)]
pub enum ClassicCheckAnswer {
    /// A campaign hero's, from the sheet, journaled.
    Campaign(HeroCheckView),
    /// A hero of a file or the book, or a number of dice: nothing kept.
    Once(ClassicCheckView),
}

/// `classic check WHO`: a campaign hero's check from the sheet, journaled; else the one-shot
/// check of a number of dice (digits, signed or past any integer: still a number, refused as
/// a pool), or of a hero of a file or the book.
pub fn classic_check_who<S: CampaignStore, E>(
    ask: &ClassicCheckWho<'_>,
    open: impl FnOnce() -> Result<Option<Campaign<S>>, E>,
) -> Result<ClassicCheckAnswer, WhoError<E>> {
    let stat = |text: &str| stat_of(Field::Stat, text);
    if let Some(mut campaign) = campaign_of(&ask.who, open)? {
        let stat = ask.stat.map(stat).transpose()?.unwrap_or(Stat::Body);
        let fixed = match ask.vs {
            Some(vs) if !ask.random => Some(difficulty_of(vs)?),
            _ => None,
        };
        let dice =
            match (ask.seed, ask.rolled) {
                (_, Some(text)) => Dice::Typed(solum_dice::parse_faces(text).map_err(|e| {
                    ClassicOnceError::Rules {
                        field: Field::Rolled,
                        value: None,
                        problem: e.to_string(),
                    }
                })?),
                (Some(seed), None) => Dice::Seed(seed),
                (None, None) => Dice::Fresh,
            };
        return Ok(ClassicCheckAnswer::Campaign(campaign.check_classic_hero(
            ask.who.who(),
            stat,
            ask.cliche,
            fixed,
            ask.gear,
            dice,
        )?));
    }
    let roller = match ask.who {
        HeroSource::Named(word) if is_number(word) => Roller::Dice(word),
        who => Roller::Hero {
            hero: who.hero(Kind::Hero)?,
            stat: ask.stat.map(stat).transpose()?,
            cliche: ask.cliche,
        },
    };
    let once = ClassicCheckAsk {
        roller,
        stat_named: ask.stat.is_some(),
        cliche_named: ask.cliche.is_some(),
        vs: ask.vs,
        random: ask.random,
        gear: ask.gear.is_some(),
    };
    Ok(ClassicCheckAnswer::Once(classic_check_once(
        &once, ask.rolled, ask.seed,
    )?))
}

/// Digits, after a sign: a number of dice as typed (past `i64` still a number, just too
/// many).
fn is_number(word: &str) -> bool {
    let digits = word.trim().trim_start_matches(['-', '+']);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_store::MemoryStore;

    /// A campaign with Grok, a hero of the campaign.
    fn with_grok() -> Campaign<MemoryStore> {
        let mut c = Campaign::new(MemoryStore::new());
        c.create_classic_hero("Grok", &[], Dice::Seed(7)).unwrap();
        c
    }

    fn opened(
        c: Campaign<MemoryStore>,
    ) -> impl FnOnce() -> Result<Option<Campaign<MemoryStore>>, ()> {
        move || Ok(Some(c))
    }

    fn never() -> impl FnOnce() -> Result<Option<Campaign<MemoryStore>>, ()> {
        || panic!("the campaign was opened for a name that cannot be a campaign hero")
    }

    fn check(who: HeroSource<'_>) -> ClassicCheckWho<'_> {
        ClassicCheckWho {
            who,
            stat: None,
            cliche: None,
            vs: Some("3"),
            random: false,
            gear: None,
            rolled: None,
            seed: Some(1),
        }
    }

    #[test]
    fn a_campaign_hero_is_checked_from_the_sheet_and_journaled() {
        let answer = classic_check_who(&check(HeroSource::Named("grok")), opened(with_grok()));
        assert!(
            matches!(&answer, Ok(ClassicCheckAnswer::Campaign(v)) if v.name == "Grok"),
            "{answer:?}"
        );
    }

    #[test]
    fn a_name_the_campaign_lacks_is_the_books_and_digits_are_dice() {
        // Alessandor is a sample hero of the book, not of the campaign.
        let answer =
            classic_check_who(&check(HeroSource::Named("alessandor")), opened(with_grok()));
        assert!(
            matches!(&answer, Ok(ClassicCheckAnswer::Once(v)) if v.hero.is_some()),
            "{answer:?}"
        );
        // No campaign at all: the same.
        let none = || Ok::<_, ()>(None::<Campaign<MemoryStore>>);
        let answer = classic_check_who(&check(HeroSource::Named("3")), none);
        assert!(
            matches!(&answer, Ok(ClassicCheckAnswer::Once(v)) if v.hero.is_none() && v.check.pool == 3),
            "{answer:?}"
        );
    }

    #[test]
    fn a_file_or_an_empty_name_never_opens_the_campaign() {
        let answer = classic_check_who(
            &check(HeroSource::File {
                path: "grok.toml",
                text: "not a hero",
            }),
            never(),
        );
        assert!(
            matches!(answer, Err(WhoError::Once(ClassicOnceError::Hero { ref who, .. })) if who == "grok.toml"),
            "{answer:?}"
        );
        let answer = classic_show_who(HeroSource::Named("  "), never());
        assert!(
            matches!(answer, Err(WhoError::Once(ClassicOnceError::Hero { .. }))),
            "{answer:?}"
        );
    }

    #[test]
    fn the_front_ends_error_in_opening_is_handed_back() {
        let answer = classic_show_who(HeroSource::Named("Grok"), || {
            Err::<Option<Campaign<MemoryStore>>, _>("locked")
        });
        assert!(
            matches!(answer, Err(WhoError::Open("locked"))),
            "{answer:?}"
        );
    }
}
