//! The original So1um without a campaign: `solum classic check` for a number of dice or a
//! hero of a file or the book, `solum odds classic check` and `solum odds classic duel`.
//! Nothing is journaled. A hero file's text is read by the front end and parsed here; the
//! rules' facts a front end shows (a difficulty's name) are fields of the views.

use std::cell::{Cell, RefCell};

use serde::Serialize;

use crate::fields::input_fields;
use solum_classic::check::{
    CheckError, MAX_POOL, difficulty_name, hero_pool, p_pass, parse_difficulty, random_difficulty,
    roll_check,
};
use solum_classic::duel::{
    DAMAGE, DuelError, MAX_DUEL_STAT, check_simulation, duel_chance, simulate_many,
};
use solum_classic::fight::{ClassicFight, Command, FightError};
use solum_classic::hero::create;
use solum_classic::oracle::ask;
use solum_dice::{DiceError, prob_to_f64};

pub use solum_classic::check::Check;
pub use solum_classic::duel::{Exchange, Policy, Side, Simulated};
pub use solum_classic::fight::{Decision, Event, Fighter, Loss, NextExchange, Who};
pub use solum_classic::hero::{CreationRolls, Kind, RestOutcome, Stat};
pub use solum_classic::oracle::{Consultation, Odds};
pub use solum_classic::{Book, Hero};

use crate::bounded::{OutOfRange, bounded};
use crate::sides::{Generator, SideDice, typed};

bounded! {
    /// A check's dice typed as a number (the stat, +1 for a cliché), 1 to [`MAX_POOL`].
    pub struct ClassicPool(u32) in 1, MAX_POOL;
    "a pool has {min} to {max} dice"
}

bounded! {
    /// A duel's Body, hit points or other stat typed as a number, 1 to [`MAX_DUEL_STAT`]
    /// (the duel's odds run over every state of both sides).
    pub struct DuelStat(u32) in 1, MAX_DUEL_STAT;
    "a duel's Body, hit points and stat are {min} to {max}"
}

bounded! {
    /// Damage per won exchange: the original So1um deals [`DAMAGE`], always (a duel takes
    /// it only for the style of the Expanded duel's flags).
    pub struct ClassicDamage(u32) in DAMAGE, DAMAGE;
    "the original So1um deals {min} hit point per won exchange: damage is {max}"
}

/// A difficulty of the original So1um: 1 (automatic) to 6 (hard). A player types a number
/// or one of the text's names, read by the rules' `parse_difficulty`; a request gives the
/// number (serde through `i64`, held to the same range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(into = "i64")]
pub struct ClassicDifficulty(u32);

// Read as a whole number in the type's range; what is no number is expected as one.
impl<'de> serde::Deserialize<'de> for ClassicDifficulty {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        solum_dice::deserialize_whole(
            d,
            i64::from(Self::MIN),
            i64::from(Self::MAX),
            <Self as TryFrom<i64>>::try_from,
        )
    }
}

impl ClassicDifficulty {
    /// The least difficulty (automatic).
    pub const MIN: u32 = 1;
    /// The greatest (hard).
    pub const MAX: u32 = 6;

    /// The difficulty, if within [`Self::MIN`]`..=`[`Self::MAX`].
    pub fn new(n: u32) -> Result<Self, OutOfRange> {
        Self::try_from(i64::from(n))
    }

    /// The difficulty, 1 to 6.
    pub fn get(self) -> u32 {
        self.0
    }
}

impl std::str::FromStr for ClassicDifficulty {
    type Err = CheckError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_difficulty(s).map(Self)
    }
}

impl TryFrom<i64> for ClassicDifficulty {
    type Error = OutOfRange;
    fn try_from(n: i64) -> Result<Self, OutOfRange> {
        // The rules read the number; a request names none, so its words name none either.
        parse_difficulty(&n.to_string()).map(Self).map_err(|_| {
            OutOfRange::new(format!(
                "the original So1um's difficulties run from {} (automatic) to {} (hard)",
                Self::MIN,
                Self::MAX
            ))
        })
    }
}

impl From<ClassicDifficulty> for i64 {
    fn from(d: ClassicDifficulty) -> i64 {
        i64::from(d.0)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ClassicDifficulty {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::RefOr::T(crate::schema::integer(
            i64::from(Self::MIN),
            i64::from(Self::MAX),
        ))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ClassicDifficulty {
    fn name() -> std::borrow::Cow<'static, str> {
        "ClassicDifficulty".into()
    }
}

input_fields! {
    /// An input of a one-shot classic check or duel, for errors a front end names as its flag.
    Field {
        /// The pool: a number of dice or a hero.
        Pool = "pool",
        /// The stat rolled.
        Stat = "stat",
        /// The cliché that adds a die.
        Cliche = "cliche",
        /// The difficulty.
        Vs = "vs",
        /// Faces typed by hand.
        Rolled = "rolled",
        /// The first side's Body.
        Body = "body",
        /// Its hit points.
        Hp = "hp",
        /// Its stat's dice, when not Body.
        StatDice = "stat_dice",
        /// How it takes hits.
        Policy = "policy",
        /// The foe's Body.
        FoeBody = "foe_body",
        /// Its hit points.
        FoeHp = "foe_hp",
        /// Its stat's dice.
        FoeStatDice = "foe_stat_dice",
        /// The foe's stat, by name.
        FoeStat = "foe_stat",
        /// How the foe takes hits.
        FoePolicy = "foe_policy",
        /// Damage per won exchange.
        Damage = "damage",
        /// Duels to simulate.
        Simulate = "simulate",
        /// Hours of rest.
        Hours = "hours",
    }
}

/// The order typed values are read in for a check.
pub const CHECK_ORDER: &str =
    "values go: the difficulty die (with --random), the pool, then the gear reroll";

/// Why a one-shot classic check or duel was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClassicOnceError {
    /// A pool outside 1 to [`MAX_POOL`] dice (as typed: it may not fit a number).
    #[error("{dice} dice: {problem}")]
    Pool {
        /// The dice as typed.
        dice: String,
        /// The range, in [`ClassicPool`]'s words.
        problem: OutOfRange,
    },
    /// A stat or cliché named for a number of dice.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    NotAHero {
        /// The dice given.
        dice: i64,
    },
    /// An input the rules refuse, in their words; `value` as typed where the message shows it.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    Rules {
        /// The field at fault.
        field: Field,
        /// The value as typed, when shown.
        value: Option<String>,
        /// What the rules say.
        problem: String,
    },
    /// A hero (a file or a book entry) the rules refuse.
    #[error("{who}: {problem}")]
    Hero {
        /// The hero as named.
        who: String,
        /// What is wrong.
        problem: String,
    },
    /// The rules' own words, which name what they refuse (a duel or a simulation too big).
    #[error("{problem}")]
    Refused {
        /// The field at fault.
        field: Field,
        /// What the rules say.
        problem: String,
    },
    /// The fight waits for a decision the front end did not give.
    #[error("the fight waits for {name}'s decision: lose a hit point or Body")]
    Undecided {
        /// The hero hit.
        name: String,
    },
    /// A name that is no hero file and no entry of the book.
    #[error("`{who}` is neither a .toml hero file nor in the book (see `solum classic bestiary`)")]
    NotInBook {
        /// The name given.
        who: String,
    },
    /// Neither a monster nor the foe's Body and hit points.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    NoFoe,
    /// Typed values ran out.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    TooFewDice {
        /// Values typed.
        given: usize,
        /// The order values are read in.
        order: &'static str,
    },
    /// A typed value that is no face of the die.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    NotAFace {
        /// The value.
        value: u32,
        /// Its place, from 1.
        position: usize,
        /// The die.
        sides: u32,
    },
    /// More values typed than the roll used.
    #[error("{}", self.describe(|f| f.name().to_owned()))]
    TooManyDice {
        /// Values typed.
        given: usize,
        /// Values used.
        used: usize,
        /// The order values are read in.
        order: &'static str,
    },
    /// The system's randomness or the simulation failed.
    #[error("the dice could not be rolled: {0}")]
    Source(String),
}

impl ClassicOnceError {
    /// The field at fault, where one is.
    pub fn field(&self) -> Option<Field> {
        match self {
            Self::Pool { .. } | Self::Hero { .. } | Self::NotInBook { .. } => Some(Field::Pool),
            Self::NotAHero { .. } => Some(Field::Stat),
            Self::Rules { field, .. } | Self::Refused { field, .. } => Some(*field),
            Self::NoFoe => Some(Field::FoeBody),
            Self::Undecided { .. } => None,
            Self::TooFewDice { .. } | Self::NotAFace { .. } | Self::TooManyDice { .. } => {
                Some(Field::Rolled)
            }
            Self::Source(_) => None,
        }
    }

    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Pool { .. } => "classic-pool",
            Self::NotAHero { .. } => "classic-not-a-hero",
            Self::Rules { .. } => "classic-rules",
            Self::Refused { .. } => "classic-too-large",
            Self::Hero { .. } => "classic-hero",
            Self::NotInBook { .. } => "classic-not-in-book",
            Self::NoFoe => "classic-no-foe",
            Self::Undecided { .. } => "classic-undecided",
            Self::TooFewDice { .. } => "dice-too-few",
            Self::NotAFace { .. } => "dice-not-a-face",
            Self::TooManyDice { .. } => "dice-too-many",
            Self::Source(_) => "dice-source",
        }
    }

    /// True when the input is at fault.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, Self::Source(_))
    }

    /// The message with the fields named by `name` (the command line passes its flags).
    pub fn describe(&self, name: impl Fn(Field) -> String) -> String {
        match self {
            Self::NotAHero { dice } => format!(
                "{} and {} need a hero (a .toml file or a name from the book), not {dice} dice",
                name(Field::Stat),
                name(Field::Cliche)
            ),
            Self::Rules {
                field,
                value,
                problem,
            } => match value {
                Some(v) => format!("{} {v}: {problem}", name(*field)),
                None => format!("{}: {problem}", name(*field)),
            },
            Self::NoFoe => format!(
                "name a monster, or give {} and {}",
                name(Field::FoeBody),
                name(Field::FoeHp)
            ),
            Self::TooFewDice { given, order } => format!(
                "too few values in {}: {given} given, the roll needs more ({order})",
                name(Field::Rolled)
            ),
            Self::NotAFace {
                value,
                position,
                sides,
            } => format!(
                "{}: value {value} (number {position}) is not a face of a d{sides}: it must be 1 to {sides}",
                name(Field::Rolled)
            ),
            Self::TooManyDice { given, used, order } => format!(
                "too many values in {}: {given} given, the roll used {used} ({order})",
                name(Field::Rolled)
            ),
            other => other.to_string(),
        }
    }
}

fn rules(field: Field, problem: impl ToString) -> ClassicOnceError {
    ClassicOnceError::Rules {
        field,
        value: None,
        problem: problem.to_string(),
    }
}

/// A hero of a file (its text, read by the front end) or of the book (`text` `None`), held
/// to the rules of `kind`. `who` names it in messages.
pub fn hero_of(who: &str, text: Option<&str>, kind: Kind) -> Result<Hero, ClassicOnceError> {
    let hero_error = |problem: String| ClassicOnceError::Hero {
        who: who.to_owned(),
        problem,
    };
    if who.trim().is_empty() {
        return Err(ClassicOnceError::Hero {
            who: "an empty name".to_owned(),
            problem:
                "name a hero file (.toml) or an entry of the book (see `solum classic bestiary`)"
                    .to_owned(),
        });
    }
    match text {
        Some(text) => {
            solum_classic::hero::parse_hero(text, kind).map_err(|e| hero_error(e.to_string()))
        }
        None => Book::shipped()
            .find(who)
            .cloned()
            .ok_or_else(|| ClassicOnceError::NotInBook {
                who: who.to_owned(),
            }),
    }
}

/// A stat by name (body, mind, spirit).
pub fn stat_of(field: Field, text: &str) -> Result<Stat, ClassicOnceError> {
    text.parse()
        .map_err(|e: solum_dice::UnknownWord| rules(field, e))
}

/// A policy by name (how a side takes hits).
pub fn policy_of(field: Field, text: &str) -> Result<Policy, ClassicOnceError> {
    text.parse()
        .map_err(|e: solum_dice::UnknownWord| rules(field, e))
}

/// A difficulty as typed: 1 to 6 or a name.
pub fn difficulty_of(text: &str) -> Result<u32, ClassicOnceError> {
    parse_difficulty(text).map_err(|e| ClassicOnceError::Rules {
        field: Field::Vs,
        value: Some(text.to_owned()),
        problem: e.to_string(),
    })
}

/// Who rolls a check.
#[derive(Debug, Clone, PartialEq)]
pub enum Roller<'a> {
    /// A number of dice, as typed (it may not fit a number).
    Dice(&'a str),
    /// A hero of a file or the book, its stat (Body when `None`) and cliché.
    Hero {
        /// The hero.
        hero: Hero,
        /// The stat rolled.
        stat: Option<Stat>,
        /// The cliché that adds a die.
        cliche: Option<&'a str>,
    },
}

/// A one-shot check as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicCheckAsk<'a> {
    /// Who rolls.
    pub roller: Roller<'a>,
    /// A stat named beside a number of dice (refused: it needs a hero).
    pub stat_named: bool,
    /// A cliché named beside a number of dice (refused likewise).
    pub cliche_named: bool,
    /// The difficulty.
    pub vs: Option<ClassicDifficulty>,
    /// A random difficulty (one d6) instead.
    pub random: bool,
    /// Gear rerolls the lowest die once.
    pub gear: bool,
}

/// The hero of a check, what it rolls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckHero {
    /// The hero's name.
    pub name: String,
    /// The stat rolled (`Body`).
    pub stat: &'static str,
    /// Its value.
    pub stat_value: u32,
    /// The cliché that added a die.
    pub cliche: Option<String>,
}

/// A one-shot classic check, rolled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassicCheckView {
    /// The dice and the result.
    pub check: Check,
    /// The difficulty's name in the text.
    pub difficulty_name: &'static str,
    /// The chance to pass before the roll.
    pub p_pass: f64,
    /// Exactly.
    pub p_pass_exact: String,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
    /// The hero who rolled, if one did.
    pub hero: Option<CheckHero>,
}

fn stat_name(s: Stat) -> &'static str {
    match s {
        Stat::Body => "Body",
        Stat::Mind => "Mind",
        Stat::Spirit => "Spirit",
    }
}

fn check_pool(ask: &ClassicCheckAsk<'_>) -> Result<(u32, Option<CheckHero>), ClassicOnceError> {
    match &ask.roller {
        Roller::Dice(text) => {
            let text = text.trim();
            // A stat or cliché beside a number is refused first: the number is fine, the
            // ask is not.
            if let (true, Ok(dice)) = (ask.stat_named || ask.cliche_named, text.parse::<i64>()) {
                return Err(ClassicOnceError::NotAHero { dice });
            }
            let pool = text
                .parse::<ClassicPool>()
                .map_err(|problem| ClassicOnceError::Pool {
                    dice: text.to_owned(),
                    problem,
                })?;
            Ok((pool.get(), None))
        }
        Roller::Hero { hero, stat, cliche } => {
            let s = stat.unwrap_or(Stat::Body);
            let n = hero_pool(hero, s, *cliche).map_err(|e| match e {
                CheckError::Cliche(_) => rules(Field::Cliche, e),
                _ => ClassicOnceError::Hero {
                    who: hero.name.clone(),
                    problem: e.to_string(),
                },
            })?;
            Ok((
                n,
                Some(CheckHero {
                    name: hero.name.clone(),
                    stat: stat_name(s),
                    stat_value: hero.stat(s),
                    cliche: cliche.and_then(|c| hero.cliche(c).ok()).map(str::to_owned),
                }),
            ))
        }
    }
}

/// Rolls a check as typed: typed faces (`rolled`, text) or the generator with `seed`.
pub fn classic_check_once(
    ask: &ClassicCheckAsk<'_>,
    rolled: Option<&str>,
    seed: Option<u64>,
) -> Result<ClassicCheckView, ClassicOnceError> {
    let (n, hero) = check_pool(ask)?;
    let fixed = ask.vs.map(ClassicDifficulty::get);
    let ((d, check), seed) = with_dice(rolled, seed, CHECK_ORDER, |dice| {
        let d = match fixed {
            Some(d) if !ask.random => d,
            _ => random_difficulty(dice)?,
        };
        Ok((d, roll_check(n, d, ask.gear, dice)?))
    })?;
    let p = p_pass(n, d, ask.gear);
    Ok(ClassicCheckView {
        check,
        difficulty_name: difficulty_name(d),
        p_pass: prob_to_f64(&p),
        p_pass_exact: p.to_string(),
        seed,
        hero,
    })
}

/// Runs `rule` with typed faces (`rolled`, text; every value must be used) or the
/// generator with `seed`; returns the result and the seed used, if any.
fn with_dice<T>(
    rolled: Option<&str>,
    seed: Option<u64>,
    order: &'static str,
    rule: impl FnOnce(&mut dyn solum_dice::DiceSource) -> Result<T, DiceError>,
) -> Result<(T, Option<u64>), ClassicOnceError> {
    let own = typed(rolled, Field::Rolled).map_err(|(f, e)| rules(f, e))?;
    let generator = RefCell::new(Generator::new(seed));
    let blame = Cell::new(None);
    let mut dice = SideDice::new(&generator, own, Field::Rolled, &blame);
    let value = rule(&mut dice).map_err(|e| match (e, blame.get()) {
        (DiceError::Exhausted { given }, Some(_)) => ClassicOnceError::TooFewDice { given, order },
        (
            DiceError::OutOfRange {
                value,
                sides,
                position,
            },
            Some(_),
        ) => ClassicOnceError::NotAFace {
            value,
            position,
            sides,
        },
        (other, _) => ClassicOnceError::Source(other.to_string()),
    })?;
    if let Some((used, given)) = dice.left_over() {
        return Err(ClassicOnceError::TooManyDice { given, used, order });
    }
    let seed = generator.borrow().used_seed();
    Ok((value, seed))
}

/// The original's yes/no oracle, asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OracleView {
    /// The question as asked (kept in the output).
    pub question: String,
    /// The dice, the answer and any event.
    pub consultation: Consultation,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
}

/// Asks the original's oracle (not journaled): the answer die (two with advantage or
/// disadvantage), then the event die on an And or a But.
pub fn classic_oracle(
    question: &str,
    odds: Odds,
    rolled: Option<&str>,
    seed: Option<u64>,
) -> Result<OracleView, ClassicOnceError> {
    let (consultation, seed) = with_dice(
        rolled,
        seed,
        "values go: the answer die (two with advantage or disadvantage), then the event die",
        |d| ask(odds, d),
    )?;
    Ok(OracleView {
        question: question.to_owned(),
        consultation,
        seed,
    })
}

/// Refuses a hero's name or clichés before any die is rolled or file written.
pub fn check_hero_names(name: &str, cliches: &[String]) -> Result<(), ClassicOnceError> {
    solum_classic::hero::check_names(name, cliches).map_err(|e| {
        if e.field == "name" {
            ClassicOnceError::Hero {
                who: format!("the name `{name}`"),
                problem: e.problem,
            }
        } else {
            ClassicOnceError::Rules {
                field: Field::Cliche,
                value: Some(format!("({})", e.field)),
                problem: e.problem,
            }
        }
    })
}

/// A hero rolled by the rules, for a file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NewHeroView {
    /// The hero.
    pub hero: Hero,
    /// Every die of its creation.
    pub rolls: CreationRolls,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
}

/// Rolls a hero by the rules (3d6 each stat, 2d6 hit points and clichés), for a file the
/// front end writes ([`hero_toml`]).
pub fn new_hero(
    name: &str,
    cliches: &[String],
    rolled: Option<&str>,
    seed: Option<u64>,
) -> Result<NewHeroView, ClassicOnceError> {
    let (made, seed) = with_dice(
        rolled,
        seed,
        "values go: 3d6 Body, 3d6 Mind, 3d6 Spirit, 2d6 hit points, 2d6 clichés",
        |d| create(name, cliches, d),
    )?;
    let (hero, rolls) = made.map_err(|e| ClassicOnceError::Refused {
        field: Field::Cliche,
        problem: e.to_string(),
    })?;
    Ok(NewHeroView { hero, rolls, seed })
}

/// A hero as the text of a hero file (TOML).
pub fn hero_toml(hero: &Hero) -> Result<String, ClassicOnceError> {
    toml::to_string_pretty(hero).map_err(|e| ClassicOnceError::Source(e.to_string()))
}

/// A hero of a file after a rest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RestView {
    /// What the rest healed and banked.
    pub rest: RestOutcome,
    /// The hero after it.
    pub hero: Hero,
}

/// A hero file's hero (its text) rests `hours`: the change of a load–change–save whose
/// load and save are the front end's ([`hero_toml`] gives the new text).
pub fn rest_hero(who: &str, text: &str, hours: f64) -> Result<RestView, ClassicOnceError> {
    let mut hero = hero_of(who, Some(text), Kind::Hero)?;
    let rest = hero.rest(hours).map_err(|e| ClassicOnceError::Rules {
        field: Field::Hours,
        value: None,
        problem: e.to_string(),
    })?;
    Ok(RestView { rest, hero })
}

/// The chance to pass a classic check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassicCheckOddsView {
    /// The dice.
    pub pool: u32,
    /// The difficulty.
    pub difficulty: u32,
    /// Its name in the text.
    pub difficulty_name: &'static str,
    /// Gear applied.
    pub gear: bool,
    /// The chance to pass.
    pub p_pass: f64,
    /// Exactly.
    pub p_pass_exact: String,
}

/// The exact chance to pass a check of `pool` dice against `vs`.
pub fn classic_check_odds(
    pool: ClassicPool,
    vs: ClassicDifficulty,
    gear: bool,
) -> ClassicCheckOddsView {
    let (n, d) = (pool.get(), vs.get());
    let p = p_pass(n, d, gear);
    ClassicCheckOddsView {
        pool: n,
        difficulty: d,
        difficulty_name: difficulty_name(d),
        gear,
        p_pass: prob_to_f64(&p),
        p_pass_exact: p.to_string(),
    }
}

/// A side of a duel given as numbers: Body and hit points, with the stat's dice when not
/// Body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DuelNumbers {
    /// Body.
    pub body: DuelStat,
    /// Hit points.
    pub hit_points: DuelStat,
    /// The stat's dice, when not Body.
    pub stat: Option<DuelStat>,
}

impl DuelNumbers {
    /// The rules' side of these numbers.
    fn side(self, cliche: bool, policy: Policy) -> Side {
        Side {
            body: self.body.get(),
            hit_points: self.hit_points.get(),
            cliche,
            policy,
            stat: self.stat.map(DuelStat::get),
        }
    }
}

/// The foe of a duel: a monster of a file or the book, or numbers.
#[derive(Debug, Clone, PartialEq)]
pub enum Foe {
    /// A monster, its stat and whether a cliché applies.
    Monster {
        /// The monster.
        hero: Hero,
        /// The stat it fights with (its entry's own, else Body, when `None`).
        stat: Option<Stat>,
    },
    /// Numbers.
    Numbers(DuelNumbers),
    /// Nothing named.
    Missing,
}

/// A duel as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicDuelAsk {
    /// The first side's numbers.
    pub me: DuelNumbers,
    /// A cliché of the first side applies.
    pub cliche: bool,
    /// How the first side takes hits.
    pub policy: Policy,
    /// The foe.
    pub foe: Foe,
    /// A cliché of the foe applies.
    pub foe_cliche: bool,
    /// How the foe takes hits.
    pub foe_policy: Policy,
    /// Damage per won exchange of each side (the original deals 1: the type says so).
    pub damage: (ClassicDamage, ClassicDamage),
    /// Duels to simulate beside the odds.
    pub simulate: Option<u32>,
    /// The simulation's seed.
    pub seed: Option<u64>,
}

/// The odds of a classic duel, with a simulation if asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassicDuelView {
    /// The foe's name.
    pub foe: String,
    /// The first side.
    pub me: Side,
    /// The foe's side.
    pub foe_side: Side,
    /// The first side wins.
    pub p_win: f64,
    /// Exactly, when the duel is small enough.
    pub p_win_exact: Option<String>,
    /// 0 when exact; else a bound on the error of `p_win`.
    pub error_bound: f64,
    /// The simulation, if asked for.
    pub simulated: Option<Simulated>,
    /// The simulation's seed.
    pub seed: Option<u64>,
}

/// The flag a duel's number came from: a monster's numbers are the monster's.
fn range_field(what: &str, monster: bool) -> Option<Field> {
    Some(match what {
        w if monster && w.starts_with("foe") => return None,
        "body" => Field::Body,
        "hit points" => Field::Hp,
        "stat" => Field::StatDice,
        "foe body" => Field::FoeBody,
        "foe hit points" => Field::FoeHp,
        _ => Field::FoeStatDice,
    })
}

/// The exact (or f64, within a stated bound) odds of a duel, and a seeded simulation.
pub fn classic_duel_odds(ask: &ClassicDuelAsk) -> Result<ClassicDuelView, ClassicOnceError> {
    let foe_policy = ask.foe_policy;
    let me = ask.me.side(ask.cliche, ask.policy);
    let (foe_name, foe, monster) = match &ask.foe {
        Foe::Monster { hero, stat } => {
            let f = Fighter::from_hero(hero, *stat, ask.foe_cliche, foe_policy, false);
            (hero.name.clone(), f.side, Some(hero.name.clone()))
        }
        Foe::Numbers(numbers) => (
            "the foe".to_owned(),
            numbers.side(ask.foe_cliche, foe_policy),
            None,
        ),
        Foe::Missing => return Err(ClassicOnceError::NoFoe),
    };
    let odds = duel_chance(me, foe).map_err(|e| match &e {
        DuelError::Range(what, _) => match (range_field(what, monster.is_some()), &monster) {
            (Some(field), _) => rules(field, &e),
            (None, m) => ClassicOnceError::Hero {
                who: m.clone().unwrap_or_default(),
                problem: e.to_string(),
            },
        },
        _ => ClassicOnceError::Refused {
            field: Field::Simulate,
            problem: format!("{e}; past it use --simulate N"),
        },
    })?;
    let (simulated, seed) = match ask.simulate {
        None => (None, None),
        Some(n) => {
            check_simulation(me, foe, n).map_err(|e| ClassicOnceError::Refused {
                field: Field::Simulate,
                problem: e.to_string(),
            })?;
            let generator = RefCell::new(Generator::new(ask.seed));
            let blame = Cell::new(None);
            let mut dice = SideDice::new(&generator, None, Field::Rolled, &blame);
            let sim = simulate_many(me, foe, n, Some(odds.p), &mut dice)
                .map_err(|e| ClassicOnceError::Source(e.to_string()))?;
            let seed = generator.borrow().used_seed();
            (Some(sim), seed)
        }
    };
    Ok(ClassicDuelView {
        foe: foe_name,
        me,
        foe_side: foe,
        p_win: odds.p,
        p_win_exact: odds.exact.as_ref().map(ToString::to_string),
        error_bound: odds.error_bound,
        simulated,
        seed,
    })
}

/// A fight as typed: the hero (of a file or the book) against foes, each side's stat,
/// cliché and policy.
#[derive(Debug, Clone, PartialEq)]
pub struct FightAsk {
    /// The hero.
    pub hero: Hero,
    /// The foes.
    pub foes: Vec<Hero>,
    /// The stat the hero fights with (its own combat stat, else Body, when `None`).
    pub stat: Option<Stat>,
    /// The stat the foes fight with.
    pub foe_stat: Option<Stat>,
    /// A cliché of the hero applies.
    pub cliche: bool,
    /// A cliché of the foes applies.
    pub foe_cliche: bool,
    /// How the hero takes hits.
    pub policy: Policy,
    /// How the foes take hits.
    pub foe_policy: Policy,
    /// The hero's hits wait for the player's decision (`decide`) instead of the policy.
    pub asks: bool,
}

/// One exchange as shown: its round, the foe, the dice, the winner (none on a tie),
/// whether the hit cost Body, and where the hero and that foe stand after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExchangeRow {
    /// The round, from 1.
    pub round: u32,
    /// The foe attacking.
    pub foe_index: usize,
    /// The dice.
    pub exchange: Exchange,
    /// The winner, none on a tie.
    #[serde(skip)]
    pub winner: Option<Who>,
    /// The hit cost Body (none without a hit).
    pub body_lost: Option<bool>,
    /// The hero's Body and hit points after it.
    pub hero: [u32; 2],
    /// The foe's.
    pub foe: [u32; 2],
}

/// A one-shot fight, fought to its end.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FightOnceView {
    /// The exact (or f64) chance the hero wins, for a duel.
    pub p_win: Option<f64>,
    /// `p_win` exactly, when the duel is small enough.
    #[serde(skip)]
    pub p_win_exact: Option<String>,
    /// The bound on the error of `p_win`.
    #[serde(skip)]
    pub error_bound: f64,
    /// Each exchange.
    pub exchanges: Vec<ExchangeRow>,
    /// Every event.
    pub events: Vec<Event>,
    /// The hero died.
    pub hero_dead: bool,
    /// The hero won: every foe died.
    pub foe_dead: bool,
    /// Each foe died.
    pub foes_dead: Vec<bool>,
    /// The generator's seed, if it rolled.
    pub seed: Option<u64>,
    /// The hero after the fight (its wounds kept, for its file).
    #[serde(skip)]
    pub hero: Hero,
    /// The hero's dice as the fight started.
    #[serde(skip)]
    pub hero_dice: u32,
    /// The foes as the fight names them (`goblin #2` when a name comes twice), with their
    /// dice as the fight started.
    #[serde(skip)]
    pub foes: Vec<(String, u32)>,
}

/// The foes as the fight names them: a name that comes twice gets its place (`goblin #2`).
fn foe_labels(foes: &[Hero]) -> Vec<String> {
    foes.iter()
        .enumerate()
        .map(|(i, f)| {
            if foes.iter().filter(|g| g.name == f.name).count() > 1 {
                format!("{} #{}", f.name, i + 1)
            } else {
                f.name.clone()
            }
        })
        .collect()
}

/// One row per exchange of `events`, from where every fighter stood before the fight
/// (`state`, the hero first).
fn exchange_rows(events: &[Event], mut state: Vec<(u32, u32)>) -> Vec<ExchangeRow> {
    let mut rows: Vec<ExchangeRow> = Vec::new();
    let slot = |who: Who| match who {
        Who::Hero => 0,
        Who::Foe(i) => i + 1,
    };
    let at = |state: &[(u32, u32)], i: usize| state.get(i).map_or([0, 0], |&(b, h)| [b, h]);
    for event in events {
        match event {
            Event::Exchange {
                round,
                foe,
                roll,
                winner,
            } => rows.push(ExchangeRow {
                round: *round,
                foe_index: *foe,
                exchange: roll.clone(),
                winner: *winner,
                body_lost: None,
                hero: at(&state, 0),
                foe: at(&state, foe + 1),
            }),
            Event::Hit {
                who,
                loss,
                body,
                hit_points,
            } => {
                if let Some(s) = state.get_mut(slot(*who)) {
                    *s = (*body, *hit_points);
                }
                if let Some(last) = rows.last_mut() {
                    last.body_lost = Some(*loss == Loss::Body);
                    last.hero = at(&state, 0);
                    last.foe = at(&state, last.foe_index + 1);
                }
            }
            _ => {}
        }
    }
    rows
}

/// Fights a one-shot fight to its end: each foe attacks in turn, the hero's dice then that
/// foe's, typed (`rolled`) or from the generator with `seed`. A hit on a hero that `asks`
/// waits for `decide` (its name, Body and hit points); `None` leaves the fight undecided.
pub fn fight_once(
    ask: &FightAsk,
    rolled: Option<&str>,
    seed: Option<u64>,
    decide: &mut dyn FnMut(&str, u32, u32) -> Option<Loss>,
) -> Result<FightOnceView, ClassicOnceError> {
    let me = Fighter::from_hero(&ask.hero, ask.stat, ask.cliche, ask.policy, ask.asks);
    let them: Vec<Fighter> = ask
        .foes
        .iter()
        .map(|f| Fighter::from_hero(f, ask.foe_stat, ask.foe_cliche, ask.foe_policy, false))
        .collect();
    // The exact odds of a duel (too big a duel has none).
    let odds = match them.as_slice() {
        [one] => duel_chance(me.side, one.side).ok(),
        _ => None,
    };
    let mut fight = ClassicFight::new(me, them).map_err(|e| ClassicOnceError::Refused {
        field: Field::Pool,
        problem: e.to_string(),
    })?;
    // The header shows each side's dice as the fight starts (wounds lower them).
    let hero_dice = fight.hero().side.dice();
    let foe_dice: Vec<u32> = fight.foes().iter().map(|f| f.side.dice()).collect();
    let mut events = Vec::new();
    let name = ask.hero.name.clone();
    let (driven, seed) = with_dice(
        rolled,
        seed,
        "values go: each foe's attack in turn, the hero's dice then that foe's",
        |d| {
            while !fight.is_over() {
                let command = match fight.pending() {
                    Some(decision) => match decide(&name, decision.body, decision.hit_points) {
                        Some(loss) => Command::Take(loss),
                        None => return Ok(Err(ClassicOnceError::Undecided { name })),
                    },
                    None => Command::Exchange,
                };
                match fight.apply(command, d) {
                    Ok(e) => events.extend(e),
                    Err(FightError::Dice(e)) => return Err(e),
                    Err(e) => {
                        return Ok(Err(ClassicOnceError::Refused {
                            field: Field::Pool,
                            problem: e.to_string(),
                        }));
                    }
                }
            }
            Ok(Ok(()))
        },
    )?;
    driven?;
    let before: Vec<(u32, u32)> = std::iter::once(&ask.hero)
        .chain(&ask.foes)
        .map(|h| (h.body, h.hit_points))
        .collect();
    let mut hero = ask.hero.clone();
    hero.set_wounds(fight.hero().side.body, fight.hero().side.hit_points);
    Ok(FightOnceView {
        p_win: odds.as_ref().map(|o| o.p),
        p_win_exact: odds
            .as_ref()
            .and_then(|o| o.exact.as_ref())
            .map(ToString::to_string),
        error_bound: odds.as_ref().map_or(0.0, |o| o.error_bound),
        exchanges: exchange_rows(&events, before),
        events,
        hero_dead: fight.hero().is_dead(),
        foe_dead: fight.hero_won(),
        foes_dead: fight.foes().iter().map(Fighter::is_dead).collect(),
        seed,
        hero,
        hero_dice,
        foes: foe_labels(&ask.foes).into_iter().zip(foe_dice).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice_check<'a>(dice: &'a str, vs: &'a str) -> ClassicCheckAsk<'a> {
        ClassicCheckAsk {
            roller: Roller::Dice(dice),
            stat_named: false,
            cliche_named: false,
            vs: Some(vs.parse().unwrap()),
            random: false,
            gear: false,
        }
    }

    #[test]
    fn the_highest_die_meets_the_difficulty() {
        let v = classic_check_once(&dice_check("2", "4"), Some("4,1"), None).unwrap();
        assert!(v.check.passed);
        assert_eq!(v.difficulty_name, "average");
        // Two dice reach 4 unless both show 1 to 3: 1 − (1/2)² = 3/4.
        assert_eq!(v.p_pass_exact, "3/4");
        let e = classic_check_once(&dice_check("2", "4"), Some("4,1,2"), None).unwrap_err();
        assert_eq!(e.code(), "dice-too-many");
        let e = classic_check_once(&dice_check("0", "4"), None, None).unwrap_err();
        assert_eq!(e.to_string(), "0 dice: a pool has 1 to 1000 dice");
        // The dice as typed, in ClassicPool's words, whatever the text.
        for typed in ["1001", "-1", "99999999999999999999", "x"] {
            let e = classic_check_once(&dice_check(typed, "4"), None, None).unwrap_err();
            assert_eq!(e.code(), "classic-pool");
            assert_eq!(e.field(), Some(Field::Pool));
            assert_eq!(
                e.to_string(),
                format!("{typed} dice: a pool has 1 to 1000 dice")
            );
        }
    }

    crate::bounded::bounded_tests!(classic_pool, ClassicPool, "a pool has 1 to 1000 dice");
    crate::bounded::bounded_tests!(
        duel_stat,
        DuelStat,
        "a duel's Body, hit points and stat are 1 to 30"
    );
    crate::bounded::bounded_tests!(
        classic_damage,
        ClassicDamage,
        "the original So1um deals 1 hit point per won exchange: damage is 1"
    );

    /// A difficulty reads a number from 1 to 6 or one of the text's names; anything else
    /// is refused in the rules' words.
    #[test]
    fn a_classic_difficulty_reads_numbers_and_names() {
        for (text, d) in [("1", 1), (" 6 ", 6), ("Tricky", 5), ("automatic", 1)] {
            assert_eq!(
                text.parse::<ClassicDifficulty>().unwrap().get(),
                d,
                "{text:?}"
            );
        }
        for text in ["0", "7", "-1", "hopeless", "99999999999999999999"] {
            let e = text.parse::<ClassicDifficulty>().unwrap_err().to_string();
            assert!(e.starts_with(&format!("difficulty `{text}`: ")), "{e}");
        }
    }

    /// A request gives the number: 1 to 6 read, written back as the number; anything else
    /// refused in words that name the range (and no name, which JSON does not take).
    #[test]
    fn a_classic_difficulty_reads_from_json_as_a_number_of_1_to_6() {
        for d in 1..=6 {
            let v: ClassicDifficulty = serde_json::from_str(&d.to_string()).unwrap();
            assert_eq!(
                (v.get(), serde_json::to_string(&v).unwrap()),
                (d, d.to_string())
            );
            assert_eq!(ClassicDifficulty::new(d).unwrap(), v);
        }
        let words = "the original So1um's difficulties run from 1 (automatic) to 6 (hard)";
        for json in ["0", "7", "-1", "4294967297"] {
            let e = serde_json::from_str::<ClassicDifficulty>(json).unwrap_err();
            assert!(e.to_string().contains(words), "{json}: {e}");
        }
        assert!(serde_json::from_str::<ClassicDifficulty>("\"hard\"").is_err());
        assert_eq!(ClassicDifficulty::new(7).unwrap_err().to_string(), words);
    }

    #[test]
    fn check_odds_take_a_pool_of_1_to_1000() {
        // One die reaches 4 on 4, 5 or 6: 1/2; a thousand dice all miss it with (1/2)^1000.
        let average: ClassicDifficulty = "average".parse().unwrap();
        assert_eq!(average.get(), 4);
        let one = classic_check_odds(ClassicPool::new(1).unwrap(), average, false);
        assert_eq!((one.pool, one.p_pass_exact.as_str()), (1, "1/2"));
        let most = classic_check_odds(ClassicPool::new(1000).unwrap(), average, false);
        assert_eq!(most.pool, 1000);
        let half = solum_dice::prob(1, 2);
        let miss = (0..1000).fold(solum_dice::prob(1, 1), |p, _| p * &half);
        assert_eq!(
            most.p_pass_exact,
            (solum_dice::prob(1, 1) - miss).to_string()
        );
    }

    #[test]
    fn a_book_hero_rolls_its_stat_and_a_stat_needs_a_hero() {
        let hero = hero_of("goblin", None, Kind::Monster).unwrap();
        let ask = ClassicCheckAsk {
            roller: Roller::Hero {
                hero: hero.clone(),
                stat: None,
                cliche: None,
            },
            ..dice_check("", "1")
        };
        let v = classic_check_once(&ask, None, Some(1)).unwrap();
        assert_eq!(v.check.pool, hero.body);
        // Difficulty 1 is automatic: nothing is rolled, so no seed is used.
        assert_eq!(v.seed, None);
        let ask = ClassicCheckAsk {
            stat_named: true,
            ..dice_check("2", "3")
        };
        let e = classic_check_once(&ask, None, None).unwrap_err();
        assert!(
            e.describe(|f| format!("--{}", f.name()))
                .contains("need a hero"),
            "{e}"
        );
        assert!(hero_of("no such thing", None, Kind::Hero).is_err());
    }

    #[test]
    fn a_fight_with_typed_dice_ends_as_the_dice_say() {
        // Two heroes of Body 1 and 1 hit point: one exchange, the higher die wins.
        let one = |name: &str| {
            let mut h = hero_of("goblin", None, Kind::Monster).unwrap();
            h.name = name.to_owned();
            h.body = 1;
            h.hit_points = 1;
            h
        };
        let ask = FightAsk {
            hero: one("Ada"),
            foes: vec![one("Gob")],
            stat: None,
            foe_stat: None,
            cliche: false,
            foe_cliche: false,
            policy: Policy::default(),
            foe_policy: Policy::default(),
            asks: false,
        };
        let v = fight_once(&ask, Some("5,2"), None, &mut |_, _, _| None).unwrap();
        assert!(v.foe_dead && !v.hero_dead);
        assert_eq!(v.exchanges.len(), 1);
        assert_eq!(v.exchanges[0].foe, [1, 0]);
        // The header's dice are the sides' as the fight started, not after the wounds: Gob
        // of Body 2 takes its hits in Body, and rolls 2 dice, then 1.
        let mut gob = one("Gob");
        gob.body = 2;
        let ask = FightAsk {
            foes: vec![gob],
            foe_policy: Policy::Body,
            ..ask.clone()
        };
        let won = fight_once(&ask, Some("5,2,2,5,2"), None, &mut |_, _, _| None).unwrap();
        assert!(won.foe_dead, "{:?}", won.exchanges);
        assert_eq!(won.hero_dice, 1);
        assert_eq!(won.foes, [("Gob".to_owned(), 2)]);
        assert_eq!(v.p_win_exact.as_deref(), Some("1/2"));
        let e = fight_once(&ask, Some("5"), None, &mut |_, _, _| None).unwrap_err();
        assert_eq!(e.code(), "dice-too-few");
    }

    #[test]
    fn an_even_duel_is_won_half_the_time() {
        let one = DuelNumbers {
            body: DuelStat::new(1).unwrap(),
            hit_points: DuelStat::new(1).unwrap(),
            stat: None,
        };
        let damage = ClassicDamage::new(DAMAGE).unwrap();
        let v = classic_duel_odds(&ClassicDuelAsk {
            me: one,
            cliche: false,
            policy: Policy::default(),
            foe: Foe::Numbers(one),
            foe_cliche: false,
            foe_policy: Policy::default(),
            damage: (damage, damage),
            simulate: Some(1000),
            seed: Some(3),
        })
        .unwrap();
        assert_eq!(v.p_win_exact.as_deref(), Some("1/2"));
        assert_eq!(v.seed, Some(3));
        assert_eq!(v.simulated.unwrap().fights, 1000);
    }
}
