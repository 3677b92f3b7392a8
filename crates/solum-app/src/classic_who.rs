//! Who a command of the original So1um names: a hero of the campaign, else a hero file (its
//! text, which the front end read), an entry of the book or, for a check, a number of dice.
//! The app decides which and answers in one call ([`classic_check_who`],
//! [`classic_show_who`], [`classic_fight_who`]); the front end reads the file it is given
//! (I/O), and opens the campaign when the app asks for it: a file never names a campaign
//! hero, so a command about a file opens no campaign to look it up, and a missing campaign
//! is no campaign (never created to look a name up).

use solum_store::CampaignStore;

use crate::classic::{FightSetup, FightStateView, FightView, HeroCheckView, HeroView, StoredHero};
use crate::classic_once::{
    ClassicCheckAsk, ClassicCheckView, ClassicDifficulty, ClassicOnceError, Field, FightAsk,
    FightOnceView, Hero, Kind, Loss, Policy, Roller, Stat, classic_check_once, fight_once, hero_of,
    hero_toml,
};
use crate::{AppError, Campaign, ClassicRefusal, Dice};

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
    /// The stat rolled (Body when not given; a hero's only).
    pub stat: Option<Stat>,
    /// The cliché that adds a die (a hero's only).
    pub cliche: Option<&'a str>,
    /// The difficulty.
    pub vs: Option<ClassicDifficulty>,
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
    if let Some(mut campaign) = campaign_of(&ask.who, open)? {
        let stat = ask.stat.unwrap_or(Stat::Body);
        let fixed = match ask.vs {
            Some(vs) if !ask.random => Some(vs),
            _ => None,
        };
        let dice = dice_of(ask.rolled, ask.seed)?;
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
            stat: ask.stat,
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

/// The dice of a campaign hero's roll: faces typed by hand, else the generator (seeded, or
/// with a fresh seed).
fn dice_of(rolled: Option<&str>, seed: Option<u64>) -> Result<Dice, ClassicOnceError> {
    Ok(match (seed, rolled) {
        (_, Some(text)) => {
            Dice::Typed(
                solum_dice::parse_faces(text).map_err(|e| ClassicOnceError::Rules {
                    field: Field::Rolled,
                    value: None,
                    problem: e.to_string(),
                })?,
            )
        }
        (Some(seed), None) => Dice::Seed(seed),
        (None, None) => Dice::Fresh,
    })
}

/// What a fight command asks of the hero it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FightCall {
    /// Fight: foes named start a fight (the campaign hero's, kept in the campaign; else a
    /// one-shot fight of a hero file or the book's, fought to its end); none (or a decision)
    /// go on with the campaign hero's fight under way.
    Fight,
    /// The campaign hero's fight under way, as it stands (nothing rolled or journaled).
    Status,
    /// The campaign hero flees its fight under way (the hit that waits answered first).
    Abandon,
    /// The fight the foes named would start for the campaign hero, before its first
    /// exchange (nothing rolled or journaled).
    Odds,
}

/// What the app asks the front end's campaign for, when it asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CampaignAccess {
    /// To look a name up: a missing campaign is no campaign (`None`), never created.
    Look,
    /// To read what must be there: a missing campaign is the front end's error, which names
    /// it; never created.
    Read,
    /// To write to it: asked only once it is known to be there and to hold the hero.
    Write,
}

/// A fight as typed, of whoever `who` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassicFightWho<'a> {
    /// The hero: a campaign hero, else a hero of a file or the book.
    pub who: HeroSource<'a>,
    /// The foes, in turn order: entries of the book or files the front end read.
    pub foes: Vec<HeroSource<'a>>,
    /// What is asked.
    pub call: FightCall,
    /// The answer to the campaign hero's hit that waits (going on, or abandoning).
    pub decision: Option<Loss>,
    /// The hero's stat (a new fight's setup).
    pub stat: Option<Stat>,
    /// The foes' stat.
    pub foe_stat: Option<Stat>,
    /// A cliché helps the hero.
    pub cliche: bool,
    /// A cliché helps the foes.
    pub foe_cliche: bool,
    /// How the hero takes hits (a campaign hero without one: each hit waits for the
    /// player; a one-shot hero: survive).
    pub policy: Option<Policy>,
    /// How the foes take hits (survive when not given).
    pub foe_policy: Option<Policy>,
    /// Faces typed by hand, as typed.
    pub rolled: Option<&'a str>,
    /// The generator's seed.
    pub seed: Option<u64>,
    /// A one-shot fight asks the player at each hit the hero takes (the `decide` of
    /// [`classic_fight_who`]) instead of following the hero's policy.
    pub asks: bool,
    /// A file named twice in the fight, as the front end (which read the files) knows it:
    /// the second naming and the first. A sheet is one fighter: a one-shot fight refuses it.
    pub same_sheet: Option<(&'a str, &'a str)>,
}

impl ClassicFightWho<'_> {
    /// The setup given, as the fields a fight under way refuses (it keeps the setup it began
    /// with): the first one given, if any.
    fn setup_given(&self) -> Option<&'static str> {
        [
            ("stat", self.stat.is_some()),
            ("foe_stat", self.foe_stat.is_some()),
            ("cliche", self.cliche),
            ("foe_cliche", self.foe_cliche),
            ("policy", self.policy.is_some()),
            ("foe_policy", self.foe_policy.is_some()),
        ]
        .into_iter()
        .find_map(|(field, given)| given.then_some(field))
    }

    /// Each side's stat and policy (the foes' survive when not given).
    fn options(&self) -> Options {
        Options {
            stat: self.stat,
            foe_stat: self.foe_stat,
            policy: self.policy,
            foe_policy: self.foe_policy.unwrap_or_default(),
        }
    }

    /// The foes, held to a monster's rules.
    fn foe_heroes(&self) -> Result<Vec<Hero>, ClassicOnceError> {
        self.foes.iter().map(|f| f.hero(Kind::Monster)).collect()
    }

    /// The fight a campaign hero would start.
    fn setup(&self) -> Result<FightSetup, ClassicOnceError> {
        let o = self.options();
        Ok(FightSetup {
            foes: self.foe_heroes()?.into_iter().map(StoredHero).collect(),
            stat: o.stat,
            foe_stat: o.foe_stat,
            cliche: self.cliche,
            foe_cliche: self.foe_cliche,
            policy: o.policy,
            foe_policy: o.foe_policy,
        })
    }
}

/// Each side's stat and policy.
struct Options {
    stat: Option<Stat>,
    foe_stat: Option<Stat>,
    policy: Option<Policy>,
    foe_policy: Policy,
}

/// A campaign hero's fight after a call that started it or went on with it (journaled): the
/// call's view, and the campaign to answer the hit that waits with.
pub struct CampaignFight<S> {
    view: FightView,
    campaign: Campaign<S>,
}

impl<S> std::fmt::Debug for CampaignFight<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CampaignFight")
            .field("view", &self.view)
            .finish_non_exhaustive()
    }
}

impl<S: CampaignStore> CampaignFight<S> {
    /// The last call's view.
    pub fn view(&self) -> &FightView {
        &self.view
    }

    /// Answers the hit that waits with the player's `loss` and goes on with fresh dice: one
    /// more call of the fight, journaled; its view.
    pub fn answer(&mut self, loss: Loss) -> Result<&FightView, AppError> {
        self.view =
            self.campaign
                .continue_classic_fight(&self.view.hero, Some(loss), Dice::Fresh)?;
        Ok(&self.view)
    }
}

/// A fight command answered.
#[derive(Debug)]
pub enum ClassicFightAnswer<S> {
    /// The campaign hero's fight, started or gone on with (journaled).
    Fight(Box<CampaignFight<S>>),
    /// The campaign hero's fight, abandoned (journaled).
    Abandoned(Box<FightView>),
    /// The campaign hero's fight under way (`fight` is `None` when the hero is in none).
    Status(Box<crate::classic::ClassicFightStatus>),
    /// The fight the foes named would start for the campaign hero.
    Odds(Box<FightStateView>),
    /// A one-shot fight of a hero of a file or the book, fought to its end (nothing kept in
    /// the campaign).
    Once {
        /// The fight.
        view: Box<FightOnceView>,
        /// For a hero of a file: the file's new text, with the wounds of the fight, for the
        /// front end to write back.
        hero_file: Option<String>,
    },
}

/// The refusal of a fight under way, or its status, for a hero the campaign does not have.
fn not_campaign_hero(who: &HeroSource<'_>) -> AppError {
    ClassicRefusal::NotCampaignHero.bare(format!(
        "`{}` is not a hero of the campaign: only a campaign hero's fight goes on (or is \
         abandoned) without foes; name the foes to fight",
        who.who()
    ))
}

/// The campaign read, when it holds the hero `who` names: only a campaign hero has a fight
/// under way. A missing campaign is the front end's error, named as such before the hero is
/// looked for.
fn fighter_of<S: CampaignStore, E>(
    who: &HeroSource<'_>,
    open: &mut impl FnMut(CampaignAccess) -> Result<Option<Campaign<S>>, E>,
) -> Result<Campaign<S>, WhoError<E>> {
    let campaign = open(CampaignAccess::Read).map_err(WhoError::Open)?;
    match (campaign, who.campaign_name()) {
        (Some(c), Some(name)) if c.has_classic_hero(name)? => Ok(c),
        _ => Err(not_campaign_hero(who).into()),
    }
}

/// The campaign opened for writing (it is known to hold the hero `who` names).
fn written<S: CampaignStore, E>(
    who: &HeroSource<'_>,
    open: &mut impl FnMut(CampaignAccess) -> Result<Option<Campaign<S>>, E>,
) -> Result<Campaign<S>, WhoError<E>> {
    open(CampaignAccess::Write)
        .map_err(WhoError::Open)?
        .ok_or_else(|| not_campaign_hero(who).into())
}

/// `classic fight HERO …`: the campaign hero's fight (kept in the campaign: started, gone on
/// with, abandoned, shown, its odds before it starts) when HERO names a campaign hero, else
/// a one-shot fight of a hero of a file or the book against the foes named, fought to its
/// end (`decide` answers each hit a hero that `asks` takes: the player's word, `None` when
/// it cannot be had).
///
/// Going on, abandoning and the status are a campaign hero's only: the campaign is read
/// (`Read`) and a hero it lacks is refused ([`ClassicRefusal::NotCampaignHero`]); a fight
/// under way keeps the setup it began with ([`ClassicRefusal::Foes`], the field given). The
/// odds read the campaign. Foes named look the hero up (`Look`: a missing campaign, or a
/// file, is no campaign hero) and fight one-shot when the campaign lacks it. What writes
/// opens the campaign for writing (`Write`) once it is known to hold the hero.
pub fn classic_fight_who<S: CampaignStore, E>(
    ask: &ClassicFightWho<'_>,
    mut open: impl FnMut(CampaignAccess) -> Result<Option<Campaign<S>>, E>,
    decide: &mut dyn FnMut(&str, u32, u32) -> Option<Loss>,
) -> Result<ClassicFightAnswer<S>, WhoError<E>> {
    let who = &ask.who;
    match ask.call {
        FightCall::Odds => {
            let setup = ask.setup()?;
            let campaign = open(CampaignAccess::Read)
                .map_err(WhoError::Open)?
                .ok_or_else(|| AppError::NoSuchCharacter(who.who().trim().to_owned()))?;
            Ok(ClassicFightAnswer::Odds(Box::new(
                campaign.preview_classic_setup(who.who(), setup)?,
            )))
        }
        FightCall::Status => {
            let campaign = fighter_of(who, &mut open)?;
            Ok(ClassicFightAnswer::Status(Box::new(
                campaign.classic_fight_answer(who.who())?,
            )))
        }
        FightCall::Abandon => {
            fighter_of(who, &mut open)?;
            let view = written(who, &mut open)?.abandon_classic_fight(who.who(), ask.decision)?;
            Ok(ClassicFightAnswer::Abandoned(Box::new(view)))
        }
        FightCall::Fight if ask.foes.is_empty() || ask.decision.is_some() => {
            fighter_of(who, &mut open)?;
            if let Some(field) = ask.setup_given() {
                return Err(ClassicRefusal::Foes
                    .at(field, "a fight under way keeps the setup it began with")
                    .into());
            }
            let dice = dice_of(ask.rolled, ask.seed)?;
            let mut campaign = written(who, &mut open)?;
            let view = campaign.continue_classic_fight(who.who(), ask.decision, dice)?;
            Ok(ClassicFightAnswer::Fight(Box::new(CampaignFight {
                view,
                campaign,
            })))
        }
        FightCall::Fight => {
            if campaign_of(who, || open(CampaignAccess::Look))?.is_some() {
                let setup = ask.setup()?;
                let dice = dice_of(ask.rolled, ask.seed)?;
                let mut campaign = written(who, &mut open)?;
                let view = campaign.start_classic_fight(who.who(), &setup, dice)?;
                return Ok(ClassicFightAnswer::Fight(Box::new(CampaignFight {
                    view,
                    campaign,
                })));
            }
            fight_of_once(ask, decide)
        }
    }
}

/// A one-shot fight of a hero of a file or the book, fought to its end; a hero of a file
/// keeps its wounds (the file's new text).
fn fight_of_once<S, E>(
    ask: &ClassicFightWho<'_>,
    decide: &mut dyn FnMut(&str, u32, u32) -> Option<Loss>,
) -> Result<ClassicFightAnswer<S>, WhoError<E>> {
    let o = ask.options();
    if let Some((again, first)) = ask.same_sheet {
        return Err(ClassicOnceError::Hero {
            who: again.to_owned(),
            problem: format!("the same sheet as {first}; a sheet is one fighter"),
        }
        .into());
    }
    let fight = FightAsk {
        hero: ask.who.hero(Kind::Hero)?,
        foes: ask.foe_heroes()?,
        stat: o.stat,
        foe_stat: o.foe_stat,
        cliche: ask.cliche,
        foe_cliche: ask.foe_cliche,
        policy: o.policy.unwrap_or_default(),
        foe_policy: o.foe_policy,
        asks: ask.asks,
    };
    let view = fight_once(&fight, ask.rolled, ask.seed, decide)?;
    let hero_file = match ask.who {
        HeroSource::File { .. } => Some(hero_toml(&view.hero)?),
        HeroSource::Named(_) => None,
    };
    Ok(ClassicFightAnswer::Once {
        view: Box::new(view),
        hero_file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_store::MemoryStore;
    use std::cell::RefCell;

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
            vs: Some("3".parse().unwrap()),
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

    /// Ada (Body 2: two dice) in the campaign, and what each opening asked for.
    fn with_ada() -> (MemoryStore, RefCell<Vec<CampaignAccess>>) {
        let mut c = Campaign::new(MemoryStore::new());
        c.import_classic_hero("name = \"Ada\"\nbody = 2\nmind = 1\nspirit = 3\nhit_points = 3\n")
            .unwrap();
        (c.into_store(), RefCell::new(Vec::new()))
    }

    /// The campaign over `store`, whatever is asked; each access written down.
    fn campaign<'a>(
        store: &'a MemoryStore,
        asked: &'a RefCell<Vec<CampaignAccess>>,
    ) -> impl FnMut(CampaignAccess) -> Result<Option<Campaign<MemoryStore>>, &'static str> + 'a
    {
        move |access| {
            asked.borrow_mut().push(access);
            Ok(Some(Campaign::new(store.clone())))
        }
    }

    /// No campaign: none to look at, named missing to read, never opened to write.
    fn missing<'a>(
        asked: &'a RefCell<Vec<CampaignAccess>>,
    ) -> impl FnMut(CampaignAccess) -> Result<Option<Campaign<MemoryStore>>, &'static str> + 'a
    {
        move |access| {
            asked.borrow_mut().push(access);
            match access {
                CampaignAccess::Look => Ok(None),
                CampaignAccess::Read => Err("no campaign here"),
                CampaignAccess::Write => panic!("a missing campaign opened to write"),
            }
        }
    }

    const RAT: HeroSource<'static> = HeroSource::File {
        path: "rat.toml",
        text: "name = \"Rat\"\nbody = 1\nmind = 1\nspirit = 1\nhit_points = 2\n",
    };

    fn fight<'a>(
        who: HeroSource<'a>,
        foes: &[HeroSource<'a>],
        call: FightCall,
    ) -> ClassicFightWho<'a> {
        ClassicFightWho {
            who,
            foes: foes.to_vec(),
            call,
            decision: None,
            stat: None,
            foe_stat: None,
            cliche: false,
            foe_cliche: false,
            policy: None,
            foe_policy: None,
            rolled: None,
            seed: Some(1),
            asks: false,
            same_sheet: None,
        }
    }

    fn no_answer(_: &str, _: u32, _: u32) -> Option<Loss> {
        panic!("the player was asked")
    }

    fn refused(
        answer: &Result<ClassicFightAnswer<MemoryStore>, WhoError<&str>>,
    ) -> Option<(&'static str, String)> {
        match answer {
            Err(WhoError::Campaign(e)) => Some((e.code(), e.to_string())),
            _ => None,
        }
    }

    #[test]
    fn a_campaign_heros_fight_is_kept_in_the_campaign() {
        let (store, asked) = with_ada();
        // Ada 1 2 against the rat's 5: Ada is hit and the fight waits for the answer.
        let mut start = fight(HeroSource::Named("ada"), &[RAT], FightCall::Fight);
        start.rolled = Some("1,2,5");
        let answer = classic_fight_who(&start, campaign(&store, &asked), &mut no_answer);
        let Ok(ClassicFightAnswer::Fight(started)) = &answer else {
            panic!("{answer:?}");
        };
        assert_eq!(started.view().hero, "Ada");
        assert!(started.view().status.pending.is_some());
        // Looked up, then opened to write.
        assert_eq!(
            *asked.borrow(),
            [CampaignAccess::Look, CampaignAccess::Write]
        );
        let answer = classic_fight_who(
            &fight(HeroSource::Named("Ada"), &[], FightCall::Status),
            campaign(&store, &asked),
            &mut no_answer,
        );
        assert!(
            matches!(&answer, Ok(ClassicFightAnswer::Status(a)) if a.fight.as_ref().is_some_and(|v| v.foes == ["Rat"])),
            "{answer:?}"
        );
        // A fight under way keeps its setup: the field given is named.
        let mut on = fight(HeroSource::Named("Ada"), &[], FightCall::Fight);
        on.decision = Some(Loss::Body);
        on.foe_policy = Some(Policy::Body);
        let answer = classic_fight_who(&on, campaign(&store, &asked), &mut no_answer);
        assert_eq!(
            refused(&answer),
            Some((
                "classic-foes",
                "foe_policy: a fight under way keeps the setup it began with".into()
            ))
        );
        // Its odds before another start: refused, it is in a fight.
        let answer = classic_fight_who(
            &fight(HeroSource::Named("Ada"), &[RAT], FightCall::Odds),
            campaign(&store, &asked),
            &mut no_answer,
        );
        assert_eq!(refused(&answer).map(|r| r.0), Some("classic-in-fight"));
        let mut flee = fight(HeroSource::Named("Ada"), &[], FightCall::Abandon);
        flee.decision = Some(Loss::HitPoint);
        asked.borrow_mut().clear();
        let answer = classic_fight_who(&flee, campaign(&store, &asked), &mut no_answer);
        assert!(
            matches!(&answer, Ok(ClassicFightAnswer::Abandoned(v)) if v.status.abandoned),
            "{answer:?}"
        );
        // Read (it must hold the hero), then opened to write.
        assert_eq!(
            *asked.borrow(),
            [CampaignAccess::Read, CampaignAccess::Write]
        );
        let answer = classic_fight_who(
            &fight(HeroSource::Named("Ada"), &[RAT], FightCall::Odds),
            campaign(&store, &asked),
            &mut no_answer,
        );
        assert!(
            matches!(&answer, Ok(ClassicFightAnswer::Odds(v)) if v.calls == 0),
            "{answer:?}"
        );
    }

    #[test]
    fn a_campaign_fight_goes_on_at_the_players_answer() {
        let (store, asked) = with_ada();
        let mut start = fight(HeroSource::Named("Ada"), &[RAT], FightCall::Fight);
        start.rolled = Some("1,2,5");
        let Ok(ClassicFightAnswer::Fight(mut f)) =
            classic_fight_who(&start, campaign(&store, &asked), &mut no_answer)
        else {
            panic!("not started");
        };
        let seq = f.view().seq;
        let next = f.answer(Loss::HitPoint).unwrap();
        assert!(next.seq > seq);
    }

    #[test]
    fn a_book_name_or_a_file_fights_one_shot() {
        // Alessandor is a sample hero of the book, not of the campaign: looked up, then a
        // one-shot fight; nothing written to the campaign.
        let (store, asked) = with_ada();
        let answer = classic_fight_who(
            &fight(
                HeroSource::Named("alessandor"),
                &[HeroSource::Named("goblin")],
                FightCall::Fight,
            ),
            campaign(&store, &asked),
            &mut no_answer,
        );
        assert!(
            matches!(
                &answer,
                Ok(ClassicFightAnswer::Once {
                    hero_file: None,
                    ..
                })
            ),
            "{answer:?}"
        );
        assert_eq!(*asked.borrow(), [CampaignAccess::Look]);
        // A hero file is never the campaign's: not even looked up; its new text comes back.
        let ada = HeroSource::File {
            path: "ada.toml",
            text: "name = \"Ada\"\nbody = 2\nmind = 1\nspirit = 3\nhit_points = 3\n",
        };
        let answer = classic_fight_who(
            &fight(ada, &[RAT], FightCall::Fight),
            never_fight(),
            &mut no_answer,
        );
        assert!(
            matches!(&answer, Ok(ClassicFightAnswer::Once { hero_file: Some(t), .. }) if t.contains("Ada")),
            "{answer:?}"
        );
        // The player answers each hit of a hero that asks.
        let mut asking = fight(
            HeroSource::Named("alessandor"),
            &[HeroSource::Named("troll")],
            FightCall::Fight,
        );
        asking.asks = true;
        let mut hits = 0;
        let answer = classic_fight_who(&asking, missing(&asked), &mut |_, _, _| {
            hits += 1;
            Some(Loss::HitPoint)
        });
        assert!(
            matches!(answer, Ok(ClassicFightAnswer::Once { .. })),
            "{answer:?}"
        );
        assert!(hits > 0);
    }

    fn never_fight()
    -> impl FnMut(CampaignAccess) -> Result<Option<Campaign<MemoryStore>>, &'static str> {
        |access| panic!("the campaign was opened ({access:?}) for a hero that cannot be its")
    }

    #[test]
    fn a_missing_campaign_is_looked_at_not_opened_for_a_one_shot_fight() {
        let asked = RefCell::new(Vec::new());
        let answer = classic_fight_who(
            &fight(
                HeroSource::Named("alessandor"),
                &[HeroSource::Named("goblin")],
                FightCall::Fight,
            ),
            missing(&asked),
            &mut no_answer,
        );
        assert!(
            matches!(answer, Ok(ClassicFightAnswer::Once { .. })),
            "{answer:?}"
        );
        assert_eq!(*asked.borrow(), [CampaignAccess::Look]);
        // A sheet is one fighter, in a one-shot fight.
        let mut twice = fight(
            HeroSource::Named("alessandor"),
            &[RAT, RAT],
            FightCall::Fight,
        );
        twice.same_sheet = Some(("./rat.toml", "rat.toml"));
        let answer = classic_fight_who(&twice, missing(&asked), &mut no_answer);
        assert!(
            matches!(&answer, Err(WhoError::Once(e)) if e.to_string() == "./rat.toml: the same sheet as rat.toml; a sheet is one fighter"),
            "{answer:?}"
        );
    }

    #[test]
    fn only_a_campaign_heros_fight_goes_on_is_abandoned_or_shown() {
        let (store, asked) = with_ada();
        for call in [FightCall::Fight, FightCall::Status, FightCall::Abandon] {
            for who in [HeroSource::Named("goblin"), RAT, HeroSource::Named(" ")] {
                asked.borrow_mut().clear();
                let answer = classic_fight_who(
                    &fight(who, &[], call),
                    campaign(&store, &asked),
                    &mut no_answer,
                );
                assert_eq!(
                    refused(&answer),
                    Some((
                        "classic-not-campaign-hero",
                        format!(
                            "`{}` is not a hero of the campaign: only a campaign hero's fight goes on (or is abandoned) without foes; name the foes to fight",
                            who.who()
                        )
                    )),
                    "{call:?}"
                );
                // Read, never opened to write.
                assert_eq!(*asked.borrow(), [CampaignAccess::Read], "{call:?}");
            }
            // No campaign: named as such, nothing created.
            asked.borrow_mut().clear();
            let answer = classic_fight_who(
                &fight(HeroSource::Named("Ada"), &[], call),
                missing(&asked),
                &mut no_answer,
            );
            assert!(
                matches!(answer, Err(WhoError::Open("no campaign here"))),
                "{answer:?}"
            );
            assert_eq!(*asked.borrow(), [CampaignAccess::Read], "{call:?}");
        }
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
