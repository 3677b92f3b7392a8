//! Heroes and monsters: creation from even dice, damage, healing, the shipped book.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, is_even};
use thiserror::Error;

/// The sample heroes, clichés and bestiary of the text.
pub const SHIPPED: &str = include_str!("../data/classic.toml");

/// A hero or monster of the original So1um.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
}

/// Which stat a check uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stat {
    /// Body.
    Body,
    /// Mind.
    Mind,
    /// Spirit.
    Spirit,
}

impl std::str::FromStr for Stat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "body" => Ok(Self::Body),
            "mind" => Ok(Self::Mind),
            "spirit" => Ok(Self::Spirit),
            other => Err(format!("`{other}` is not a stat: body, mind or spirit")),
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

    /// Takes one hit: a hit point, or a point of Body if `lose_body`. Maxima are fixed
    /// first so that healing knows where to stop.
    pub fn take_hit(&mut self, lose_body: bool) {
        self.max_body.get_or_insert(self.body);
        self.max_hit_points.get_or_insert(self.hit_points);
        if lose_body {
            self.body = self.body.saturating_sub(1);
        } else {
            self.hit_points = self.hit_points.saturating_sub(1);
        }
    }

    /// Rests `hours`: one hit point per 8 hours and one Body per day, up to the maxima. The
    /// dead do not heal. Returns (hit points, Body) healed.
    pub fn rest(&mut self, hours: u32) -> (u32, u32) {
        if self.is_dead() {
            return (0, 0);
        }
        let hp =
            (hours / 8).min(self.full_hit_points() - self.hit_points.min(self.full_hit_points()));
        let body = (hours / 24).min(self.full_body() - self.body.min(self.full_body()));
        self.hit_points += hp;
        self.body += body;
        (hp, body)
    }
}

/// The dice rolled to create a hero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// Too many clichés named for the roll.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{named} clichés named, but the 2d6 ({a}, {b}) allow {allowed}")]
pub struct ClicheError {
    /// Named.
    pub named: usize,
    /// Allowed.
    pub allowed: u32,
    /// The dice.
    pub a: u32,
    /// The dice.
    pub b: u32,
}

/// Creates a hero (C1): Body, Mind, Spirit from 3d6 each (even dice, at least 1), hit
/// points from Body + even dice of 2d6, clichés 1 + even dice of 2d6. Dice in that order.
pub fn create(
    name: &str,
    cliches: &[String],
    dice: &mut dyn DiceSource,
) -> Result<Result<(Hero, CreationRolls), ClicheError>, DiceError> {
    let rolls = CreationRolls {
        body: dice.roll_many(3, 6)?,
        mind: dice.roll_many(3, 6)?,
        spirit: dice.roll_many(3, 6)?,
        hit_points: dice.roll_many(2, 6)?,
        cliches: dice.roll_many(2, 6)?,
    };
    let stat = |f: &[u32]| evens(f).max(1);
    let allowed = 1 + evens(&rolls.cliches);
    if cliches.len() > allowed as usize {
        return Ok(Err(ClicheError {
            named: cliches.len(),
            allowed,
            a: rolls.cliches[0],
            b: rolls.cliches[1],
        }));
    }
    let body = stat(&rolls.body);
    let hero = Hero {
        name: name.to_owned(),
        body,
        mind: stat(&rolls.mind),
        spirit: stat(&rolls.spirit),
        hit_points: body + evens(&rolls.hit_points),
        cliches: cliches.to_vec(),
        max_body: None,
        max_hit_points: None,
        gear: Vec::new(),
        notes: if (cliches.len() as u32) < allowed {
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
        let err = create(
            "X",
            &["a".into(), "b".into()],
            &mut ScriptedDice::new([1; 13]),
        )
        .unwrap()
        .unwrap_err();
        assert_eq!(err.allowed, 1);
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
        h.take_hit(true);
        h.take_hit(false);
        assert_eq!((h.body, h.hit_points), (3, 3));
        assert_eq!(h.rest(16), (1, 0));
        assert_eq!(h.rest(24), (0, 1));
        assert_eq!((h.body, h.hit_points), (4, 4));
        for _ in 0..4 {
            h.take_hit(false);
        }
        assert!(h.is_dead());
        assert_eq!(h.rest(100), (0, 0));
    }
}
