//! Heroes and monsters: creation from even dice, damage, healing, the shipped book.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, is_even};
use thiserror::Error;

/// The sample heroes, clichés and bestiary of the text.
pub const SHIPPED: &str = include_str!("../data/classic.toml");

/// A hero or monster of the original So1um.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Hero))]
pub struct Hero {
    /// Name.
    pub name: String,
    /// Physical prowess and health.
    pub body: u32,
    /// Mental capacity and intelligence.
    pub mind: u32,
    /// Spunk and willpower.
    pub spirit: u32,
    /// Hit points.
    pub hit_points: u32,
    /// Clichés.
    #[serde(default)]
    pub cliches: Vec<String>,
    /// Body when unhurt (defaults to `body`): Body lost in combat heals back to it.
    #[serde(default)]
    pub max_body: Option<u32>,
    /// Hit points when unhurt (defaults to `hit_points`).
    #[serde(default)]
    pub max_hit_points: Option<u32>,
    /// Gear.
    #[serde(default)]
    pub gear: Vec<String>,
    /// Notes.
    #[serde(default)]
    pub notes: String,
    /// The stat this entry fights with when none is named (C3): a monster's entry may
    /// name its own; Body when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_stat: Option<Stat>,
    /// Hours of rest already taken toward the next hit point (C2: rest adds up across
    /// calls; kept only while hit points are missing).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rest_toward_hit_point: f64,
    /// Hours of rest already taken toward the next point of Body (kept only while Body is
    /// missing).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rest_toward_body: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// Hours of rest for one hit point (C2).
pub const HOURS_PER_HIT_POINT: u32 = 8;
/// Hours of rest for one point of Body: a day (C2).
pub const HOURS_PER_BODY: u32 = 24;
/// The most hours one rest may last (a century), so that seconds fit any counter.
pub const MAX_REST_HOURS: f64 = 876_000.0;
/// The highest stat a hero can have: three even dice of 3d6 (C1).
pub const MAX_HERO_STAT: u32 = 3;
/// The most clichés a hero starts with: 1 + two even dice (C1).
pub const MAX_HERO_CLICHES: usize = 3;
/// The highest stat or hit points a monster file may give (the duel odds' limit too).
pub const MAX_MONSTER_STAT: u32 = 30;

/// A hero or monster entry that breaks a rule: the field at fault and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{field}: {problem}")]
pub struct HeroError {
    /// The field at fault, as written in the file.
    pub field: String,
    /// What is wrong.
    pub problem: String,
}

fn invalid(field: &str, problem: impl Into<String>) -> HeroError {
    HeroError {
        field: field.to_owned(),
        problem: problem.into(),
    }
}

/// A hero file that does not parse or breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SheetError {
    /// Not a hero file: the parser's message names the line and field (unknown fields
    /// are refused).
    #[error("{0}")]
    Parse(String),
    /// Parses, but breaks a rule.
    #[error(transparent)]
    Invalid(#[from] HeroError),
}

/// Which rules a file is held to: a hero's creation limits, or a monster's looser ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Stats 1 to 3 (Body 0 when dead), hit points Body + 0 to 2, at most 3 clichés.
    Hero,
    /// Stats and hit points 1 to [`MAX_MONSTER_STAT`] (the book's Squidhead has Mind 5).
    Monster,
}

/// Parses a hero (or monster) file and checks it against the rules of `kind`.
pub fn parse_hero(text: &str, kind: Kind) -> Result<Hero, SheetError> {
    let hero: Hero = toml::from_str(text)
        .map_err(|e| SheetError::Parse(e.to_string().trim_end().replace('\n', "\n  ")))?;
    hero.validate(kind)?;
    Ok(hero)
}

/// Hours as whole seconds (fractions of an hour are allowed; a second is the grain).
fn seconds(hours: f64) -> u64 {
    (hours * 3600.0).round() as u64
}

/// How a rest went.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RestOutcome {
    /// Hit points healed.
    pub hit_points: u32,
    /// Body healed.
    pub body: u32,
    /// Hours now banked toward the next hit point.
    pub toward_hit_point: f64,
    /// Hours now banked toward the next point of Body.
    pub toward_body: f64,
}

/// Hours of rest that are not a number of hours.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("{0} hours: rest lasts 0 to {MAX_REST_HOURS} hours")]
pub struct RestError(pub f64);

/// Which stat a check uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Stat))]
pub enum Stat {
    /// Body.
    Body,
    /// Mind.
    Mind,
    /// Spirit.
    Spirit,
}

impl std::str::FromStr for Stat {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "body" => Ok(Self::Body),
            "mind" => Ok(Self::Mind),
            "spirit" => Ok(Self::Spirit),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a stat",
                "body, mind or spirit",
            )),
        }
    }
}

impl Hero {
    /// A stat's value.
    pub fn stat(&self, stat: Stat) -> u32 {
        match stat {
            Stat::Body => self.body,
            Stat::Mind => self.mind,
            Stat::Spirit => self.spirit,
        }
    }

    /// One of the hero's clichés, named in any case, or by part of its words when only one
    /// cliché holds them.
    pub fn cliche(&self, named: &str) -> Result<&str, ClicheMissing> {
        let key = named.trim().to_lowercase();
        let missing = || ClicheMissing {
            named: named.trim().to_owned(),
            hero: self.name.clone(),
            known: if self.cliches.is_empty() {
                "none".to_owned()
            } else {
                self.cliches.join(", ")
            },
        };
        if key.is_empty() {
            return Err(missing());
        }
        if let Some(c) = self.cliches.iter().find(|c| c.to_lowercase() == key) {
            return Ok(c);
        }
        let mut starts = self
            .cliches
            .iter()
            .filter(|c| c.to_lowercase().contains(&key));
        match (starts.next(), starts.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(missing()),
        }
    }

    /// The piece of gear a check uses: the one named (in any case), or, unnamed (`""`), the
    /// hero's only piece. "Useful gear allows you to reroll one die once when performing a
    /// task for which the piece of gear was intended": the hero must carry it.
    pub fn gear_piece(&self, named: &str) -> Result<&str, GearError> {
        let key = named.trim().to_lowercase();
        let hero = self.name.clone();
        if key.is_empty() {
            return match self.gear.as_slice() {
                [one] => Ok(one),
                [] => Err(GearError::NoneCarried { hero }),
                _ => Err(GearError::Which {
                    hero,
                    carried: self.gear.join(", "),
                }),
            };
        }
        self.gear
            .iter()
            .find(|g| g.trim().to_lowercase() == key)
            .map(String::as_str)
            .ok_or_else(|| GearError::NotCarried {
                named: named.trim().to_owned(),
                hero,
                carried: if self.gear.is_empty() {
                    "none".to_owned()
                } else {
                    self.gear.join(", ")
                },
            })
    }

    /// Gives the hero pieces of gear and takes others away (names compared in any case):
    /// a piece added must not be carried already, a piece removed must be carried. On an
    /// error the gear is left as it was.
    pub fn change_gear(&mut self, add: &[String], remove: &[String]) -> Result<(), GearError> {
        let before = self.gear.clone();
        let done = self.change_gear_steps(add, remove);
        if done.is_err() {
            self.gear = before;
        }
        done
    }

    fn change_gear_steps(&mut self, add: &[String], remove: &[String]) -> Result<(), GearError> {
        for r in remove {
            let found = self.gear_piece(r).map(str::to_owned);
            let found = match (r.trim().is_empty(), found) {
                (true, _) => {
                    return Err(GearError::NotCarried {
                        named: String::new(),
                        hero: self.name.clone(),
                        carried: self.gear.join(", "),
                    });
                }
                (false, f) => f?,
            };
            self.gear.retain(|g| *g != found);
        }
        for a in add {
            let name = a.trim();
            if self
                .gear
                .iter()
                .any(|g| g.trim().to_lowercase() == name.to_lowercase())
            {
                return Err(GearError::Already {
                    named: name.to_owned(),
                    hero: self.name.clone(),
                });
            }
            self.gear.push(name.to_owned());
        }
        Ok(())
    }

    /// Dead: Body or hit points at 0 (C2).
    pub fn is_dead(&self) -> bool {
        self.body == 0 || self.hit_points == 0
    }

    /// Body when unhurt.
    pub fn full_body(&self) -> u32 {
        self.max_body.unwrap_or(self.body)
    }

    /// Hit points when unhurt.
    pub fn full_hit_points(&self) -> u32 {
        self.max_hit_points.unwrap_or(self.hit_points)
    }

    /// Rests `hours` (C2): one hit point per 8 hours and one Body per day, up to the
    /// maxima. Hours add up across rests on the sheet until they make a whole point; what
    /// is banked toward a point is dropped once nothing of that kind is missing (rest is
    /// not stored ahead of a wound). The dead do not heal.
    pub fn rest(&mut self, hours: f64) -> Result<RestOutcome, RestError> {
        if !hours.is_finite() || !(0.0..=MAX_REST_HOURS).contains(&hours) {
            return Err(RestError(hours));
        }
        if self.is_dead() {
            return Ok(RestOutcome {
                hit_points: 0,
                body: 0,
                toward_hit_point: self.rest_toward_hit_point,
                toward_body: self.rest_toward_body,
            });
        }
        let add = seconds(hours);
        // One kind of healing: returns points healed and hours left banked.
        let heal = |banked: f64, current: u32, full: u32, per_hours: u32| -> (u32, f64) {
            let missing = full.saturating_sub(current);
            if missing == 0 {
                return (0, 0.0);
            }
            let per = u64::from(per_hours) * 3600;
            let total = seconds(banked) + add;
            let healed = (total / per).min(u64::from(missing)) as u32;
            if healed == missing {
                (healed, 0.0)
            } else {
                (healed, (total - u64::from(healed) * per) as f64 / 3600.0)
            }
        };
        let (hp, toward_hp) = heal(
            self.rest_toward_hit_point,
            self.hit_points,
            self.full_hit_points(),
            HOURS_PER_HIT_POINT,
        );
        let (body, toward_body) = heal(
            self.rest_toward_body,
            self.body,
            self.full_body(),
            HOURS_PER_BODY,
        );
        self.hit_points += hp;
        self.body += body;
        self.rest_toward_hit_point = toward_hp;
        self.rest_toward_body = toward_body;
        Ok(RestOutcome {
            hit_points: hp,
            body,
            toward_hit_point: toward_hp,
            toward_body,
        })
    }

    /// Sets Body and hit points after a fight, fixing the maxima first so that healing
    /// knows where to stop.
    pub fn set_wounds(&mut self, body: u32, hit_points: u32) {
        self.max_body.get_or_insert(self.body);
        self.max_hit_points.get_or_insert(self.hit_points);
        self.body = body;
        self.hit_points = hit_points;
    }

    /// Checks the entry against the rules of `kind` (C1, C2): the first fault, naming its
    /// field.
    pub fn validate(&self, kind: Kind) -> Result<(), HeroError> {
        if self.name.trim().is_empty() {
            return Err(invalid("name", "an entry needs a name"));
        }
        let top = match kind {
            Kind::Hero => MAX_HERO_STAT,
            Kind::Monster => MAX_MONSTER_STAT,
        };
        let why = match kind {
            Kind::Hero => "a stat is the even dice of 3d6, at least 1",
            Kind::Monster => "a monster's stat",
        };
        let body_field = if self.max_body.is_some() {
            "max_body"
        } else {
            "body"
        };
        for (field, value) in [
            (body_field, self.full_body()),
            ("mind", self.mind),
            ("spirit", self.spirit),
        ] {
            if !(1..=top).contains(&value) {
                return Err(invalid(
                    field,
                    format!("{value} is outside 1 to {top} ({why})"),
                ));
            }
        }
        if self.body > self.full_body() {
            return Err(invalid(
                "body",
                format!(
                    "{} is more than max_body {} (Body heals back to it, never above)",
                    self.body,
                    self.full_body()
                ),
            ));
        }
        let full_hp = self.full_hit_points();
        let (low, high) = match kind {
            // Hit points are Body plus the even dice of 2d6.
            Kind::Hero => (self.full_body(), self.full_body() + 2),
            Kind::Monster => (1, MAX_MONSTER_STAT),
        };
        if !(low..=high).contains(&full_hp) {
            let field = if self.max_hit_points.is_some() {
                "max_hit_points"
            } else {
                "hit_points"
            };
            return Err(invalid(
                field,
                format!(
                    "{full_hp} is outside {low} to {high}{}",
                    if kind == Kind::Hero {
                        " (Body plus the even dice of 2d6)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        if self.hit_points > full_hp {
            return Err(invalid(
                "hit_points",
                format!("{} is more than max_hit_points {full_hp}", self.hit_points),
            ));
        }
        if kind == Kind::Hero && self.cliches.len() > MAX_HERO_CLICHES {
            return Err(invalid(
                "cliches",
                format!(
                    "{} clichés: a hero has 1 plus the even dice of 2d6, at most {MAX_HERO_CLICHES}",
                    self.cliches.len()
                ),
            ));
        }
        check_names(&self.name, &self.cliches)?;
        for (field, value, limit) in [
            (
                "rest_toward_hit_point",
                self.rest_toward_hit_point,
                HOURS_PER_HIT_POINT,
            ),
            ("rest_toward_body", self.rest_toward_body, HOURS_PER_BODY),
        ] {
            if !value.is_finite() || !(0.0..f64::from(limit)).contains(&value) {
                return Err(invalid(
                    field,
                    format!("{value} hours: banked rest runs from 0 to under {limit} hours"),
                ));
            }
        }
        Ok(())
    }
}

/// Gear a hero does not carry, or carries already.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GearError {
    /// Named, not carried.
    #[error("{hero} does not carry `{named}` (carries: {carried})")]
    NotCarried {
        /// As named.
        named: String,
        /// The hero's name.
        hero: String,
        /// The hero's gear, listed.
        carried: String,
    },
    /// Unnamed, and the hero carries none.
    #[error("{hero} carries no gear: give the hero gear first")]
    NoneCarried {
        /// The hero's name.
        hero: String,
    },
    /// Unnamed, and the hero carries several pieces.
    #[error("{hero} carries several pieces of gear ({carried}): name the one that serves")]
    Which {
        /// The hero's name.
        hero: String,
        /// The hero's gear, listed.
        carried: String,
    },
    /// Added twice.
    #[error("{hero} already carries `{named}`")]
    Already {
        /// As named.
        named: String,
        /// The hero's name.
        hero: String,
    },
}

/// A cliché the hero does not have.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{hero} has no cliché `{named}` (theirs: {known})")]
pub struct ClicheMissing {
    /// As named.
    pub named: String,
    /// The hero's name.
    pub hero: String,
    /// The hero's clichés, listed.
    pub known: String,
}

/// The dice rolled to create a hero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::CreationRolls))]
pub struct CreationRolls {
    /// 3d6 for Body.
    pub body: Vec<u32>,
    /// 3d6 for Mind.
    pub mind: Vec<u32>,
    /// 3d6 for Spirit.
    pub spirit: Vec<u32>,
    /// 2d6 for hit points.
    pub hit_points: Vec<u32>,
    /// 2d6 for clichés.
    pub cliches: Vec<u32>,
}

fn evens(faces: &[u32]) -> u32 {
    faces.iter().filter(|&&f| is_even(f)).count() as u32
}

/// The most clichés a hero starts with (C1): one, and one for each even die of 2d6.
pub const MAX_CREATION_CLICHES: usize = 3;

/// A hero that cannot be created.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CreationError {
    /// An empty name, an empty or repeated cliché, or more clichés than 2d6 can allow.
    #[error(transparent)]
    Invalid(#[from] HeroError),
}

/// Refuses an empty name and empty or repeated clichés (in any case), before any die.
pub fn check_names(name: &str, cliches: &[String]) -> Result<(), HeroError> {
    if name.trim().is_empty() {
        return Err(invalid("name", "an entry needs a name"));
    }
    for (i, c) in cliches.iter().enumerate() {
        if c.trim().is_empty() {
            return Err(invalid(&format!("cliches[{i}]"), "a cliché needs words"));
        }
        let key = c.trim().to_lowercase();
        if let Some(j) = cliches[..i]
            .iter()
            .position(|d| d.trim().to_lowercase() == key)
        {
            return Err(invalid(
                &format!("cliches[{i}]"),
                format!("`{}` repeats cliches[{j}]: each cliché once", c.trim()),
            ));
        }
    }
    Ok(())
}

/// Creates a hero (C1): Body, Mind, Spirit from 3d6 each (even dice, at least 1), hit
/// points from Body + even dice of 2d6, clichés 1 + even dice of 2d6. Dice in that order;
/// a bad name or cliché, or more clichés than 2d6 can ever allow, is refused before any die
/// is rolled (a refusal after the dice would let a player ask again until they suit). Named
/// beyond what the roll allows, the first ones named are taken and the notes name the rest.
pub fn create(
    name: &str,
    cliches: &[String],
    dice: &mut dyn DiceSource,
) -> Result<Result<(Hero, CreationRolls), CreationError>, DiceError> {
    if let Err(e) = check_names(name, cliches) {
        return Ok(Err(e.into()));
    }
    if cliches.len() > MAX_CREATION_CLICHES {
        return Ok(Err(invalid(
            "cliches",
            format!(
                "{} named; a hero starts with at most {MAX_CREATION_CLICHES} (one, and one more for each even die of 2d6)",
                cliches.len()
            ),
        )
        .into()));
    }
    let rolls = CreationRolls {
        body: dice.roll_many(3, 6)?,
        mind: dice.roll_many(3, 6)?,
        spirit: dice.roll_many(3, 6)?,
        hit_points: dice.roll_many(2, 6)?,
        cliches: dice.roll_many(2, 6)?,
    };
    let stat = |f: &[u32]| evens(f).max(1);
    let allowed = 1 + evens(&rolls.cliches);
    let taken = cliches.len().min(allowed as usize);
    let body = stat(&rolls.body);
    let hero = Hero {
        name: name.to_owned(),
        body,
        mind: stat(&rolls.mind),
        spirit: stat(&rolls.spirit),
        hit_points: body + evens(&rolls.hit_points),
        cliches: cliches[..taken].to_vec(),
        max_body: None,
        max_hit_points: None,
        gear: Vec::new(),
        combat_stat: None,
        rest_toward_hit_point: 0.0,
        rest_toward_body: 0.0,
        notes: if taken < cliches.len() {
            format!(
                "Not taken at creation (the 2d6 {} and {} allow {allowed}): {}.",
                rolls.cliches[0],
                rolls.cliches[1],
                cliches[taken..].join(", ")
            )
        } else if (cliches.len() as u32) < allowed {
            format!(
                "{} more cliché(s) to choose",
                allowed - cliches.len() as u32
            )
        } else {
            String::new()
        },
    };
    Ok(Ok((hero, rolls)))
}

/// The shipped book: example clichés, sample heroes, the bestiary.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Book {
    /// Example clichés.
    #[serde(default)]
    pub cliches: Vec<String>,
    /// Sample heroes.
    #[serde(default)]
    pub hero: Vec<Hero>,
    /// Monsters.
    #[serde(default)]
    pub monster: Vec<Hero>,
}

impl Book {
    /// The book shipped with solum.
    pub fn shipped() -> Self {
        toml::from_str(SHIPPED).expect("the shipped book parses")
    }

    /// A monster or sample hero by name (any case; `-` reads as a space).
    pub fn find(&self, name: &str) -> Option<&Hero> {
        let key = name.trim().to_lowercase().replace('-', " ");
        self.monster.iter().chain(&self.hero).find(|h| {
            h.name.to_lowercase() == key || h.name.to_lowercase().starts_with(&format!("{key} "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    #[test]
    fn creation_counts_even_dice() {
        // Body 2,4,5 (2 even); Mind 1,3,5 (none: 1); Spirit 6,6,6 (3); HP 2,3 (+1); clichés 4,4 (+2).
        let (hero, _) = create(
            "Nim",
            &["Sticky fingers".to_owned()],
            &mut ScriptedDice::new([2, 4, 5, 1, 3, 5, 6, 6, 6, 2, 3, 4, 4]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (hero.body, hero.mind, hero.spirit, hero.hit_points),
            (2, 1, 3, 3)
        );
        assert!(hero.notes.contains("2 more"));
        // Two named, 2d6 1 and 1 allow one: the first is taken, the notes name the other.
        let (hero, _) = create(
            "X",
            &["a".into(), "b".into()],
            &mut ScriptedDice::new([1; 13]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(hero.cliches, ["a"]);
        assert_eq!(
            hero.notes,
            "Not taken at creation (the 2d6 1 and 1 allow 1): b."
        );
        // Four named: more than 2d6 can allow, refused before any die.
        let four: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let err = create("X", &four, &mut ScriptedDice::new([]))
            .unwrap()
            .unwrap_err();
        assert!(err.to_string().contains("at most 3"), "{err}");
        // Names are checked before any die: the script is empty.
        for (name, cliches, field) in [
            (" ", vec![], "name"),
            ("Nim", vec!["Thief".to_owned(), "".to_owned()], "cliches[1]"),
            (
                "Nim",
                vec!["Thief".to_owned(), " thief ".to_owned()],
                "cliches[1]",
            ),
        ] {
            let err = create(name, &cliches, &mut ScriptedDice::new([]))
                .unwrap()
                .unwrap_err();
            assert!(
                matches!(&err, CreationError::Invalid(e) if e.field == field),
                "{err}"
            );
        }
    }

    #[test]
    fn gear_is_given_taken_and_named_from_the_sheet() {
        let mut h = Book::shipped().find("alessandor").unwrap().clone();
        h.gear.clear();
        assert!(matches!(
            h.gear_piece(""),
            Err(GearError::NoneCarried { .. })
        ));
        h.change_gear(&["Rope".into(), "Lockpicks".into()], &[])
            .unwrap();
        assert_eq!(h.gear, ["Rope", "Lockpicks"]);
        assert_eq!(h.gear_piece("lockpicks"), Ok("Lockpicks"));
        assert!(matches!(h.gear_piece(""), Err(GearError::Which { .. })));
        assert!(matches!(
            h.gear_piece("sword"),
            Err(GearError::NotCarried { .. })
        ));
        assert!(matches!(
            h.change_gear(&["rope".into()], &[]),
            Err(GearError::Already { .. })
        ));
        h.change_gear(&[], &["ROPE".into()]).unwrap();
        assert_eq!(h.gear_piece(""), Ok("Lockpicks"));
        assert!(h.change_gear(&[], &["rope".into()]).is_err());
    }

    #[test]
    fn the_book() {
        let book = Book::shipped();
        let troll = book.find("troll").unwrap();
        assert_eq!(
            (troll.body, troll.mind, troll.spirit, troll.hit_points),
            (4, 1, 2, 4)
        );
        assert_eq!(book.monster.len(), 6);
        assert_eq!(book.hero.len(), 2);
        assert_eq!(book.find("alessandor").unwrap().body, 2);
        assert_eq!(book.cliches.len(), 7);
    }

    #[test]
    fn damage_death_and_healing() {
        let mut h = Book::shipped().find("Troll").unwrap().clone();
        // A fight cost it a Body and a hit point.
        h.set_wounds(3, 3);
        assert_eq!((h.full_body(), h.full_hit_points()), (4, 4));
        let r = h.rest(16.0).unwrap();
        assert_eq!((r.hit_points, r.body), (1, 0));
        let r = h.rest(8.0).unwrap();
        // 24 hours in all make the day that heals Body.
        assert_eq!((r.hit_points, r.body), (0, 1));
        assert_eq!((h.body, h.hit_points), (4, 4));
        h.set_wounds(4, 0);
        assert!(h.is_dead());
        let r = h.rest(100.0).unwrap();
        assert_eq!((r.hit_points, r.body), (0, 0));
    }

    fn hurt_troll() -> Hero {
        let mut h = Book::shipped().find("Troll").unwrap().clone();
        h.set_wounds(2, 1);
        h
    }

    #[test]
    fn rest_adds_up_across_calls() {
        // C2: 8 hours make a hit point and 24 a point of Body, whatever the split.
        let mut h = hurt_troll();
        let r = h.rest(5.5).unwrap();
        assert_eq!((r.hit_points, r.body), (0, 0));
        assert_eq!((r.toward_hit_point, r.toward_body), (5.5, 5.5));
        let r = h.rest(2.5).unwrap();
        assert_eq!((r.hit_points, r.body, r.toward_hit_point), (1, 0, 0.0));
        assert_eq!(h.hit_points, 2);
        // Many small rests: 16 times 1.25 hours = 20 hours.
        for _ in 0..16 {
            h.rest(1.25).unwrap();
        }
        // 28 hours in all: 3 hit points (the 3rd makes 4, full: nothing banked), 1 Body.
        assert_eq!((h.hit_points, h.body), (4, 3));
        assert_eq!(h.rest_toward_hit_point, 0.0);
        assert_eq!(h.rest_toward_body, 4.0);
        // Fractions of an hour: 20 minutes three times make an hour.
        for _ in 0..3 {
            h.rest(1.0 / 3.0).unwrap();
        }
        assert_eq!(h.rest_toward_body, 5.0);
        // Rest is not banked ahead of a wound.
        h.rest(19.0).unwrap();
        assert_eq!((h.body, h.rest_toward_body), (4, 0.0));
        h.rest(7.0).unwrap();
        assert_eq!(h.rest_toward_hit_point, 0.0);
        assert!(h.rest(-1.0).is_err() && h.rest(f64::NAN).is_err());
    }

    #[test]
    fn rest_banked_is_saved_on_the_sheet() {
        let mut h = hurt_troll();
        h.rest(3.25).unwrap();
        let text = toml::to_string_pretty(&h).unwrap();
        assert!(text.contains("rest_toward_hit_point = 3.25"), "{text}");
        let mut back = parse_hero(&text, Kind::Monster).unwrap();
        back.rest(4.75).unwrap();
        assert_eq!(back.hit_points, 2);
    }

    fn grok() -> String {
        "name = \"Grok\"\nbody = 3\nmind = 1\nspirit = 1\nhit_points = 5\n".to_owned()
    }

    #[test]
    fn hero_files_are_held_to_the_rules() {
        assert!(parse_hero(&grok(), Kind::Hero).is_ok());
        let fault = |text: &str| match parse_hero(text, Kind::Hero) {
            Err(SheetError::Invalid(e)) => (e.field, e.problem),
            other => panic!("{other:?}"),
        };
        // Four even dice of 3d6 cannot be.
        assert_eq!(fault(&grok().replace("mind = 1", "mind = 4")).0, "mind");
        assert_eq!(
            fault(&grok().replace("spirit = 1", "spirit = 0")).0,
            "spirit"
        );
        // Hit points are Body plus 0 to 2.
        let (field, problem) = fault(&grok().replace("hit_points = 5", "hit_points = 6"));
        assert_eq!(field, "hit_points");
        assert!(problem.contains("3 to 5"), "{problem}");
        assert_eq!(
            fault(&grok().replace("hit_points = 5", "hit_points = 2")).0,
            "hit_points"
        );
        assert_eq!(fault(&format!("{}max_body = 2\n", grok())).0, "body");
        assert_eq!(
            fault(&format!(
                "{}cliches = [\"a\", \"b\", \"c\", \"d\"]\n",
                grok()
            ))
            .0,
            "cliches"
        );
        assert_eq!(
            fault(&format!("{}cliches = [\" \"]\n", grok())).0,
            "cliches[0]"
        );
        assert_eq!(
            fault(&format!("{}rest_toward_hit_point = 8.0\n", grok())).0,
            "rest_toward_hit_point"
        );
        assert_eq!(fault(&grok().replace("Grok", " ")).0, "name");
        // A wounded hero keeps the maxima; Body 0 is death, not a fault.
        let dead = "name = \"A\"\nbody = 0\nmax_body = 2\nmind = 1\nspirit = 1\nhit_points = 3\n";
        assert!(parse_hero(dead, Kind::Hero).unwrap().is_dead());
        // Unknown fields are refused by name.
        match parse_hero(&format!("{}bdoy = 2\n", grok()), Kind::Hero) {
            Err(SheetError::Parse(m)) => assert!(m.contains("bdoy"), "{m}"),
            other => panic!("{other:?}"),
        }
        // Monsters go beyond heroes: the book's Squidhead has Mind 5 and 6 hit points.
        for m in &Book::shipped().monster {
            m.validate(Kind::Monster).unwrap();
        }
        assert!(
            Book::shipped()
                .find("squidhead")
                .unwrap()
                .validate(Kind::Hero)
                .is_err()
        );
        for h in &Book::shipped().hero {
            h.validate(Kind::Hero).unwrap();
        }
    }

    #[test]
    fn clichés_by_name() {
        let al = Book::shipped().find("alessandor").unwrap().clone();
        assert_eq!(
            al.cliche("master of the duel").unwrap(),
            "Master of the Duel"
        );
        assert_eq!(al.cliche("cleric").unwrap(), "Cleric of Pastorin");
        assert_eq!(al.cliche("duel").unwrap(), "Master of the Duel");
        // "of" is in both: not one cliché.
        assert!(al.cliche("of").is_err());
        let e = al.cliche("Sticky fingers").unwrap_err();
        assert!(e.to_string().contains("Master of the Duel"));
        assert!(al.cliche("").is_err());
    }

    proptest::proptest! {
        #[test]
        fn rest_at_the_integer_edges_never_overflows(
            hours in proptest::prop_oneof![
                proptest::num::f64::ANY,
                0.0..=MAX_REST_HOURS,
                proptest::prelude::Just(MAX_REST_HOURS),
            ],
            hp in proptest::prop_oneof![0u32..=4, (u32::MAX - 2)..=u32::MAX],
            full_hp in proptest::prop_oneof![0u32..=4, (u32::MAX - 2)..=u32::MAX],
            body in proptest::prop_oneof![0u32..=4, (u32::MAX - 2)..=u32::MAX],
            full_body in proptest::prop_oneof![0u32..=4, (u32::MAX - 2)..=u32::MAX],
        ) {
            let mut hero = Book::shipped().find("alessandor").unwrap().clone();
            hero.hit_points = hp;
            hero.max_hit_points = Some(full_hp);
            hero.body = body;
            hero.max_body = Some(full_body);
            match hero.rest(hours) {
                Ok(r) => {
                    proptest::prop_assert!((0.0..=MAX_REST_HOURS).contains(&hours));
                    // Healing stops at the maxima, whatever the numbers.
                    proptest::prop_assert_eq!(hero.hit_points, hp + r.hit_points);
                    proptest::prop_assert!(hero.hit_points <= full_hp.max(hp));
                    proptest::prop_assert!(hero.body <= full_body.max(body));
                    // A whole rest of the limit never heals more than it can.
                    proptest::prop_assert!(u64::from(r.hit_points) <= (MAX_REST_HOURS / 8.0) as u64);
                }
                Err(RestError(h)) => proptest::prop_assert!(
                    h.is_nan() || !(0.0..=MAX_REST_HOURS).contains(&h)
                ),
            }
        }
    }
}
