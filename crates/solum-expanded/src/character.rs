//! Heroes: attributes, backgrounds, hit points, weapons, armor, gear, creation and
//! advancement (rulings S1, S8, S9).

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use thiserror::Error;

use crate::PoolSpec;

/// The version of the character file format written by this code.
pub const CHARACTER_SCHEMA: u32 = 1;

/// The highest an attribute can go (S9).
pub const MAX_ATTRIBUTE: u32 = 4;

/// The highest an attribute starts at (S9): Body, Mind and Charm take 3, 2 and 1, one each.
pub const MAX_STARTING_ATTRIBUTE: u32 = 3;

/// The most backgrounds, named and unnamed, one sheet holds.
pub const MAX_BACKGROUNDS: usize = 100;

/// The three attributes of So1um Expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Attribute))]
pub enum Attribute {
    /// Physical capability, combat, simple vehicles.
    Body,
    /// Intellect, perception, complex vehicles, initiative.
    Mind,
    /// Social interaction.
    Charm,
}

impl Attribute {
    /// All three, in the text's order.
    pub const ALL: [Self; 3] = [Self::Body, Self::Mind, Self::Charm];

    /// The attribute's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Body => "body",
            Self::Mind => "mind",
            Self::Charm => "charm",
        }
    }
}

impl std::str::FromStr for Attribute {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "body" => Ok(Self::Body),
            "mind" => Ok(Self::Mind),
            "charm" => Ok(Self::Charm),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "an attribute",
                "body, mind or charm",
            )),
        }
    }
}

/// Light, medium or heavy: the class of a weapon or a suit of armor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Class))]
pub enum Class {
    /// 1 damage or 1 armor hit point.
    Light,
    /// 2 damage or 2 armor hit points.
    Medium,
    /// 3 damage or 3 armor hit points.
    Heavy,
}

impl Class {
    /// Damage of a weapon, or hit points of armor, of this class.
    pub fn points(self) -> u32 {
        match self {
            Self::Light => 1,
            Self::Medium => 2,
            Self::Heavy => 3,
        }
    }

    /// The class's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Medium => "medium",
            Self::Heavy => "heavy",
        }
    }
}

impl std::str::FromStr for Class {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "light" => Ok(Self::Light),
            "medium" => Ok(Self::Medium),
            "heavy" => Ok(Self::Heavy),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a class",
                "light, medium or heavy",
            )),
        }
    }
}

/// A weapon: its class sets its damage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Weapon))]
pub struct Weapon {
    /// What it is: "dagger", "rifle".
    pub name: String,
    /// Light, medium or heavy.
    pub class: Class,
    /// A ranged weapon shoots (S5); otherwise it is used in melee.
    #[serde(default)]
    pub ranged: bool,
    /// A personal weapon made to fight vehicles, like the text's shoulder-mounted missile
    /// launcher: it harms vehicles of any size (S10, see [`crate::vehicle::scale_damage`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anti_vehicle: bool,
}

/// A weapon as a player writes it on one line: `NAME:CLASS` (melee), `NAME:CLASS:ranged`,
/// or `NAME:CLASS:ranged:anti-vehicle`.
impl std::str::FromStr for Weapon {
    type Err = solum_dice::ShorthandError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(':').collect();
        match parts.as_slice() {
            [name, class] => Ok(Self::melee(*name, class.parse()?)),
            [name, class, "ranged"] => Ok(Self::ranged(*name, class.parse()?)),
            [name, class, "ranged", "anti-vehicle"] => Ok(Self {
                anti_vehicle: true,
                ..Self::ranged(*name, class.parse()?)
            }),
            _ => Err(solum_dice::ShorthandError::Form {
                written: s.to_owned(),
                form: "NAME:CLASS, NAME:CLASS:ranged or NAME:CLASS:ranged:anti-vehicle",
            }),
        }
    }
}

impl Weapon {
    /// A melee weapon.
    pub fn melee(name: impl Into<String>, class: Class) -> Self {
        Self {
            name: name.into(),
            class,
            ranged: false,
            anti_vehicle: false,
        }
    }

    /// A ranged weapon.
    pub fn ranged(name: impl Into<String>, class: Class) -> Self {
        Self {
            name: name.into(),
            class,
            ranged: true,
            anti_vehicle: false,
        }
    }

    /// Bare hands: a light melee weapon every hero has.
    pub fn unarmed() -> Self {
        Self::melee("unarmed", Class::Light)
    }

    /// Whether a wielder with this Body is too weak for it: a heavy weapon needs Body 3.
    pub fn too_heavy_for(&self, body: u32) -> bool {
        self.class == Class::Heavy && body < 3
    }

    /// Damage dealt by a wielder with this Body: a heavy weapon deals only 2 below Body 3.
    pub fn damage(&self, body: u32) -> u32 {
        if self.too_heavy_for(body) {
            2
        } else {
            self.class.points()
        }
    }
}

/// Armor: adds hit points; too heavy armor costs a die on every check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Armor))]
pub struct Armor {
    /// What it is: "leather jacket".
    pub name: String,
    /// Light, medium or heavy.
    pub class: Class,
}

/// Armor as a player writes it on one line: `NAME:CLASS` (`leather:light`).
impl std::str::FromStr for Armor {
    type Err = solum_dice::ShorthandError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, class) = s
            .rsplit_once(':')
            .ok_or_else(|| solum_dice::ShorthandError::Form {
                written: s.to_owned(),
                form: "NAME:CLASS",
            })?;
        Ok(Self {
            name: name.to_owned(),
            class: class.parse()?,
        })
    }
}

impl Armor {
    /// The Body needed to wear it without a penalty: medium 2, heavy 3.
    pub fn required_body(&self) -> u32 {
        match self.class {
            Class::Light => 1,
            Class::Medium => 2,
            Class::Heavy => 3,
        }
    }

    /// Whether it is too heavy for this Body.
    pub fn too_heavy_for(&self, body: u32) -> bool {
        body < self.required_body()
    }
}

/// What a piece of non-combat gear does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::GearEffect))]
pub enum GearEffect {
    /// Makes something possible that is not possible without it.
    Enables,
    /// Rerolls one die once on a check it is meant for.
    Reroll,
}

impl GearEffect {
    /// What the piece does on a check, as a sheet says it.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Enables => "enables",
            Self::Reroll => "reroll one die once",
        }
    }
}

impl std::str::FromStr for GearEffect {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "enables" => Ok(Self::Enables),
            "reroll" => Ok(Self::Reroll),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a gear effect",
                "reroll or enables",
            )),
        }
    }
}

/// Gear as a player writes it on one line: `NAME:reroll` or `NAME:enables`.
impl std::str::FromStr for Gear {
    type Err = solum_dice::ShorthandError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, effect) =
            s.rsplit_once(':')
                .ok_or_else(|| solum_dice::ShorthandError::Form {
                    written: s.to_owned(),
                    form: "NAME:reroll or NAME:enables",
                })?;
        Ok(Self {
            name: name.to_owned(),
            effect: effect.parse()?,
        })
    }
}

/// A piece of non-combat gear.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Gear))]
pub struct Gear {
    /// What it is: "thieves' tools".
    pub name: String,
    /// Enables, or rerolls one die.
    pub effect: GearEffect,
}

/// A hero of So1um Expanded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = expanded::Character))]
pub struct Character {
    /// File format version ([`CHARACTER_SCHEMA`]).
    pub schema: u32,
    /// The hero's name.
    pub name: String,
    /// Body, 1 to 4.
    pub body: u32,
    /// Mind, 1 to 4.
    pub mind: u32,
    /// Charm, 1 to 4.
    pub charm: u32,
    /// Backgrounds, free text; at most one helps a check.
    #[serde(default)]
    pub backgrounds: Vec<String>,
    /// Backgrounds won at creation that the player has not named yet.
    #[serde(default)]
    pub unnamed_backgrounds: u32,
    /// Hit points now (0 is out).
    pub hit_points: u32,
    /// Weapons carried.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Armor worn.
    #[serde(default)]
    pub armor: Option<Armor>,
    /// Non-combat gear.
    #[serde(default)]
    pub gear: Vec<Gear>,
    /// Money, in whatever the setting counts.
    #[serde(default)]
    pub money: u32,
    /// Free notes.
    #[serde(default)]
    pub notes: String,
    /// Advancement points granted and not yet spent (S17): each buys one attempt.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub advancement_points: u32,
    /// Minutes of rest banked toward the next hit point (S16: rest adds up across rests;
    /// always below [`REST_MINUTES_PER_HIT_POINT`], dropped once nothing is missing).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rest_minutes: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Minutes of rest that heal one hit point (S8, S16).
pub const REST_MINUTES_PER_HIT_POINT: u32 = 30;

/// The most unspent advancement points one sheet holds.
pub const MAX_ADVANCEMENT_POINTS: u32 = 100;

/// A character that breaks the rules: the field and the problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{field}: {problem}")]
pub struct CharacterError {
    /// The field at fault, as named in the character file.
    pub field: String,
    /// What is wrong with it.
    pub problem: String,
}

fn invalid(field: impl Into<String>, problem: impl Into<String>) -> CharacterError {
    CharacterError {
        field: field.into(),
        problem: problem.into(),
    }
}

impl Character {
    /// The value of an attribute.
    pub fn attribute(&self, attribute: Attribute) -> u32 {
        match attribute {
            Attribute::Body => self.body,
            Attribute::Mind => self.mind,
            Attribute::Charm => self.charm,
        }
    }

    fn attribute_mut(&mut self, attribute: Attribute) -> &mut u32 {
        match attribute {
            Attribute::Body => &mut self.body,
            Attribute::Mind => &mut self.mind,
            Attribute::Charm => &mut self.charm,
        }
    }

    /// Hit points when unhurt: Body + Mind + armor (S8).
    pub fn max_hit_points(&self) -> u32 {
        // Saturating: a sheet being edited may hold an attribute not yet validated.
        self.body
            .saturating_add(self.mind)
            .saturating_add(self.armor.as_ref().map_or(0, |a| a.class.points()))
    }

    /// True at 0 hit points: out, cannot act.
    pub fn is_out(&self) -> bool {
        self.hit_points == 0
    }

    /// The pool for a check of `attribute`, with or without a background, attacking with
    /// `weapon` if any (S1).
    pub fn pool(
        &self,
        attribute: Attribute,
        background: bool,
        weapon: Option<&Weapon>,
    ) -> PoolSpec {
        PoolSpec {
            attribute: self.attribute(attribute),
            background: background && !self.backgrounds.is_empty(),
            armor_too_heavy: self
                .armor
                .as_ref()
                .is_some_and(|a| a.too_heavy_for(self.body)),
            heavy_weapon_weak: weapon.is_some_and(|w| w.too_heavy_for(self.body)),
        }
    }

    /// The weapon used in melee: the best melee weapon carried, or bare hands.
    pub fn melee_weapon(&self) -> Weapon {
        self.weapons
            .iter()
            .filter(|w| !w.ranged)
            .max_by_key(|w| w.damage(self.body))
            .cloned()
            .unwrap_or_else(Weapon::unarmed)
    }

    /// The best ranged weapon carried, if any.
    pub fn ranged_weapon(&self) -> Option<Weapon> {
        self.weapons
            .iter()
            .filter(|w| w.ranged)
            .max_by_key(|w| w.damage(self.body))
            .cloned()
    }

    /// Checks every rule a stored character must keep.
    pub fn validate(&self) -> Result<(), CharacterError> {
        if self.schema != CHARACTER_SCHEMA {
            return Err(invalid(
                "schema",
                format!(
                    "version {} is not known (this solum reads version {CHARACTER_SCHEMA})",
                    self.schema
                ),
            ));
        }
        if self.name.trim().is_empty() {
            return Err(invalid("name", "a character needs a name"));
        }
        for attribute in Attribute::ALL {
            let value = self.attribute(attribute);
            if !(1..=MAX_ATTRIBUTE).contains(&value) {
                return Err(invalid(
                    attribute.name(),
                    format!("{value} is outside 1 to {MAX_ATTRIBUTE}"),
                ));
            }
        }
        if self.hit_points > self.max_hit_points() {
            return Err(invalid(
                "hit_points",
                format!(
                    "{} is more than the maximum of {} (body + mind + armor)",
                    self.hit_points,
                    self.max_hit_points()
                ),
            ));
        }
        for (i, b) in self.backgrounds.iter().enumerate() {
            if b.trim().is_empty() {
                return Err(invalid(
                    format!("backgrounds[{i}]"),
                    "a background needs words",
                ));
            }
        }
        // Creation gives at most 3 backgrounds and each advancement one more: a sheet with
        // more than MAX_BACKGROUNDS is a typing mistake, and rendering it would not end.
        let total = self
            .backgrounds
            .len()
            .saturating_add(self.unnamed_backgrounds as usize);
        if total > MAX_BACKGROUNDS {
            return Err(invalid(
                "unnamed_backgrounds",
                format!(
                    "{} named and {} unnamed backgrounds are more than the {MAX_BACKGROUNDS} a sheet may hold",
                    self.backgrounds.len(),
                    self.unnamed_backgrounds
                ),
            ));
        }
        if self.advancement_points > MAX_ADVANCEMENT_POINTS {
            return Err(invalid(
                "advancement_points",
                format!(
                    "{} is more than the {MAX_ADVANCEMENT_POINTS} unspent points a sheet may hold",
                    self.advancement_points
                ),
            ));
        }
        if self.rest_minutes >= REST_MINUTES_PER_HIT_POINT {
            return Err(invalid(
                "rest_minutes",
                format!(
                    "{} minutes banked; a whole half hour ({REST_MINUTES_PER_HIT_POINT}) would have healed",
                    self.rest_minutes
                ),
            ));
        }
        Ok(())
    }

    /// Why a rest healed nothing when the hero is out (S16): said beside the hero's name.
    pub const OUT_DOES_NOT_REST: &str = "is out (0 hit points): being incapacitated is not resting";

    /// Rests for `minutes` (S16): the minutes add to those banked on the sheet, each whole
    /// half hour heals 1 hit point (armor points included) up to the maximum, and what is
    /// left of a half hour stays banked for the next rest. Once nothing is missing the bank
    /// is dropped (rest toward nothing). An incapacitated hero (0 hit points) does not rest:
    /// nothing changes. Returns the points healed.
    pub fn rest_minutes(&mut self, minutes: u32) -> u32 {
        if self.is_out() {
            return 0;
        }
        let total = u64::from(self.rest_minutes) + u64::from(minutes);
        let half_hours = total / u64::from(REST_MINUTES_PER_HIT_POINT);
        let missing = self.max_hit_points().saturating_sub(self.hit_points);
        let healed = half_hours.min(u64::from(missing)) as u32;
        self.hit_points += healed;
        self.rest_minutes = if self.hit_points >= self.max_hit_points() {
            0
        } else {
            (total % u64::from(REST_MINUTES_PER_HIT_POINT)) as u32
        };
        healed
    }

    /// Rests for `half_hours` half hours: 1 hit point each, armor points included, up to the
    /// maximum. An incapacitated hero (0 hit points) does not rest. Returns the points healed.
    pub fn rest(&mut self, half_hours: u32) -> u32 {
        if self.is_out() {
            return 0;
        }
        // Saturating: a sheet being edited may hold more hit points than its maximum.
        let healed = half_hours.min(self.max_hit_points().saturating_sub(self.hit_points));
        self.hit_points += healed;
        healed
    }

    /// Sets an attribute. A change of Body or Mind moves the maximum hit points (S8), and
    /// the hit points move with it: a raise adds the new points, a fall takes them away
    /// (never below 0), and they never end above the maximum.
    pub fn set_attribute(&mut self, attribute: Attribute, value: u32) {
        let was_max = self.max_hit_points();
        *self.attribute_mut(attribute) = value;
        self.follow_max_hit_points(was_max);
    }

    /// Puts on, changes or takes off armor; its points come and go with it, as with
    /// [`Character::set_attribute`].
    pub fn set_armor(&mut self, armor: Option<Armor>) {
        let was_max = self.max_hit_points();
        self.armor = armor;
        self.follow_max_hit_points(was_max);
    }

    /// Moves the hit points by the change of the maximum since `was_max`, within 0..=max.
    fn follow_max_hit_points(&mut self, was_max: u32) {
        let max = self.max_hit_points();
        self.hit_points = if max >= was_max {
            self.hit_points.saturating_add(max - was_max)
        } else {
            self.hit_points.saturating_sub(was_max - max)
        }
        .min(max);
    }

    /// Heals up to `amount` hit points, never above the maximum (any amount, even
    /// `u32::MAX`, heals fully). Returns the hit points gained.
    pub fn heal(&mut self, amount: u32) -> u32 {
        let healed = amount.min(self.max_hit_points().saturating_sub(self.hit_points));
        self.hit_points += healed;
        healed
    }

    /// Takes damage; hit points never go below 0. Returns the damage actually taken.
    pub fn take_damage(&mut self, damage: u32) -> u32 {
        let taken = damage.min(self.hit_points);
        self.hit_points -= taken;
        taken
    }
}

/// What a player chose at creation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreationChoices {
    /// The hero's name.
    pub name: String,
    /// Body, Mind, Charm: 3, 2 and 1 in some order.
    pub body: u32,
    /// See `body`.
    pub mind: u32,
    /// See `body`.
    pub charm: u32,
    /// Background names: the first is the one every hero starts with; any more fill the
    /// extra backgrounds the 2d6 roll grants, in order.
    pub backgrounds: Vec<String>,
    /// The starting light weapon.
    pub weapon: Weapon,
    /// The light armor to take if the d6 allows it.
    pub armor_name: String,
}

/// The most backgrounds a hero starts with (S9): one, and one for each even die of 2d6.
pub const MAX_CREATION_BACKGROUNDS: usize = 3;

/// The dice rolled at creation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreationRolls {
    /// The 2d6 for extra backgrounds: one per even die.
    pub backgrounds_dice: [u32; 2],
    /// The d6 for light armor: even gives armor.
    pub armor_die: u32,
}

impl CreationRolls {
    /// Backgrounds allowed: 1 + the even dice of 2d6.
    pub fn backgrounds_allowed(&self) -> u32 {
        1 + self
            .backgrounds_dice
            .iter()
            .filter(|&&d| solum_dice::is_even(d))
            .count() as u32
    }

    /// Whether the hero starts with light armor.
    pub fn has_armor(&self) -> bool {
        solum_dice::is_even(self.armor_die)
    }
}

/// Why creation failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CreationError {
    /// The choices break a rule.
    #[error(transparent)]
    Rules(#[from] CharacterError),
    /// The dice could not be rolled.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// Creates a hero by the rules (S9): checks the 3/2/1 spread and the light weapon, rolls 2d6
/// for backgrounds, then 1d6 for light armor, and works out the hit points.
pub fn create(
    choices: &CreationChoices,
    dice: &mut dyn DiceSource,
) -> Result<(Character, CreationRolls), CreationError> {
    let mut spread = [choices.body, choices.mind, choices.charm];
    spread.sort_unstable();
    if spread != [1, 2, 3] {
        return Err(invalid(
            "attributes",
            format!(
                "body {}, mind {}, charm {}: assign 3, 2 and 1, one each",
                choices.body, choices.mind, choices.charm
            ),
        )
        .into());
    }
    if choices.weapon.class != Class::Light {
        return Err(invalid("weapon", "heroes start with one light weapon").into());
    }
    if choices.backgrounds.is_empty() {
        return Err(invalid("backgrounds", "every hero starts with one background").into());
    }
    // Refused before any die: a refusal after the roll would let a player send the same
    // choices again until the dice suit.
    if choices.backgrounds.len() > MAX_CREATION_BACKGROUNDS {
        return Err(invalid(
            "backgrounds",
            format!(
                "{} named; a hero starts with at most {MAX_CREATION_BACKGROUNDS} (one, and one more for each even die of 2d6)",
                choices.backgrounds.len()
            ),
        )
        .into());
    }
    // The sheet as it would be with every background named and the armor: checked before
    // any die too, so nothing the dice decide can be refused after them.
    let mut hero = Character {
        schema: CHARACTER_SCHEMA,
        name: choices.name.clone(),
        body: choices.body,
        mind: choices.mind,
        charm: choices.charm,
        backgrounds: choices.backgrounds.clone(),
        unnamed_backgrounds: 0,
        hit_points: 0,
        weapons: vec![choices.weapon.clone()],
        armor: Some(Armor {
            name: choices.armor_name.clone(),
            class: Class::Light,
        }),
        gear: Vec::new(),
        money: 0,
        notes: String::new(),
        advancement_points: 0,
        rest_minutes: 0,
    };
    hero.hit_points = hero.max_hit_points();
    hero.validate()?;
    let rolls = CreationRolls {
        backgrounds_dice: [dice.roll(6)?, dice.roll(6)?],
        armor_die: dice.roll(6)?,
    };
    let allowed = rolls.backgrounds_allowed() as usize;
    // Named beyond what the dice allow: the first ones named are taken, the rest are not,
    // and the sheet's notes say which.
    let taken = choices.backgrounds.len().min(allowed);
    if taken < choices.backgrounds.len() {
        hero.notes = format!(
            "Not taken at creation (the 2d6 {} and {} allow {allowed}): {}.",
            rolls.backgrounds_dice[0],
            rolls.backgrounds_dice[1],
            choices.backgrounds[taken..].join(", ")
        );
    }
    hero.backgrounds.truncate(taken);
    hero.unnamed_backgrounds = (allowed - taken) as u32;
    if !rolls.has_armor() {
        hero.armor = None;
    }
    hero.hit_points = hero.max_hit_points();
    hero.validate()?;
    Ok((hero, rolls))
}

/// What an advancement roll gave (S9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Advancement {
    /// The dice rolled.
    pub dice: Vec<u32>,
    /// Whether the hero advanced.
    pub success: bool,
    /// What was tried, in words.
    pub what: String,
}

/// Advancement A: try for a new background: it is gained on an even d6.
pub fn advance_background(
    hero: &mut Character,
    background: &str,
    dice: &mut dyn DiceSource,
) -> Result<Advancement, CreationError> {
    if background.trim().is_empty() {
        return Err(invalid("background", "a background needs words").into());
    }
    let die = dice.roll(6)?;
    let success = solum_dice::is_even(die);
    if success {
        hero.backgrounds.push(background.trim().to_owned());
    }
    Ok(Advancement {
        dice: vec![die],
        success,
        what: format!("new background \"{}\"", background.trim()),
    })
}

/// What an advancement point is spent on (S9, S17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdvanceGoal {
    /// A: a new background the player names, gained on an even d6.
    Background(String),
    /// B: an attribute one higher, when as many dice as its value all show even.
    Attribute(Attribute),
}

/// Why an advancement attempt was refused (before any die) or could not be rolled.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AdvanceError {
    /// The attempt breaks a rule: no point, an attribute at 4, a background already held.
    #[error(transparent)]
    Rules(#[from] CharacterError),
    /// The dice could not be rolled.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// Grants one advancement point (S17: at the end of an adventure, by the GM or the solo
/// player). Refused past [`MAX_ADVANCEMENT_POINTS`] unspent points.
pub fn grant_advancement_point(hero: &mut Character) -> Result<(), CharacterError> {
    if hero.advancement_points >= MAX_ADVANCEMENT_POINTS {
        return Err(invalid(
            "advancement_points",
            format!(
                "{} already holds {} unspent points, the most a sheet may hold",
                hero.name, hero.advancement_points
            ),
        ));
    }
    hero.advancement_points += 1;
    Ok(())
}

/// One advancement attempt (S17), the whole rule: it needs an unspent point (none: refused,
/// nothing rolled), checks the goal before any die (an attribute at 4, a background already
/// held), rolls (A: 1d6, B: one die per point of the attribute), and spends the point
/// whether the attempt succeeds or fails. Nothing changes when it is refused.
pub fn attempt_advancement(
    hero: &mut Character,
    goal: &AdvanceGoal,
    dice: &mut dyn DiceSource,
) -> Result<Advancement, AdvanceError> {
    if hero.advancement_points == 0 {
        return Err(invalid(
            "advancement_points",
            format!(
                "{} has no advancement point to spend: the GM (or the solo player) grants one at the end of an adventure",
                hero.name
            ),
        )
        .into());
    }
    match goal {
        AdvanceGoal::Background(b) => {
            if hero
                .backgrounds
                .iter()
                .any(|x| x.eq_ignore_ascii_case(b.trim()))
            {
                return Err(invalid(
                    "background",
                    format!("{} already has the background `{}`", hero.name, b.trim()),
                )
                .into());
            }
        }
        AdvanceGoal::Attribute(a) => {
            let value = hero.attribute(*a);
            if value >= MAX_ATTRIBUTE {
                return Err(invalid(
                    a.name(),
                    format!("already {value}: no attribute goes above {MAX_ATTRIBUTE}"),
                )
                .into());
            }
        }
    }
    let mut after = hero.clone();
    let done = match goal {
        AdvanceGoal::Background(b) => advance_background(&mut after, b, dice),
        AdvanceGoal::Attribute(a) => advance_attribute(&mut after, *a, dice),
    }
    .map_err(|e| match e {
        CreationError::Rules(r) => AdvanceError::Rules(r),
        CreationError::Dice(d) => AdvanceError::Dice(d),
    })?;
    after.advancement_points -= 1;
    *hero = after;
    Ok(done)
}

/// Advancement B: roll as many dice as the attribute; all even raises it by 1 (never above
/// 4, and an attribute at 4 cannot be tried).
pub fn advance_attribute(
    hero: &mut Character,
    attribute: Attribute,
    dice: &mut dyn DiceSource,
) -> Result<Advancement, CreationError> {
    let value = hero.attribute(attribute);
    if value >= MAX_ATTRIBUTE {
        return Err(invalid(
            attribute.name(),
            format!("already {value}: no attribute goes above {MAX_ATTRIBUTE}"),
        )
        .into());
    }
    let rolled = dice.roll_many(value as usize, 6)?;
    let success = rolled.iter().all(|&d| solum_dice::is_even(d));
    if success {
        // A higher Body or Mind raises the maximum; the new point is there to use.
        hero.set_attribute(attribute, value + 1);
    }
    Ok(Advancement {
        dice: rolled,
        success,
        what: format!("raise {} from {value}", attribute.name()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    fn choices() -> CreationChoices {
        CreationChoices {
            name: "Nick".into(),
            body: 3,
            mind: 2,
            charm: 1,
            backgrounds: vec!["Acrobat Thief".into()],
            weapon: Weapon::melee("dagger", Class::Light),
            armor_name: "leather jacket".into(),
        }
    }

    #[test]
    fn creation_by_the_rules() {
        // 2d6: 4 and 5 (one even: one more background), d6: 2 (light armor).
        let (hero, rolls) = create(&choices(), &mut ScriptedDice::new([4, 5, 2])).unwrap();
        assert_eq!(rolls.backgrounds_allowed(), 2);
        assert_eq!(hero.unnamed_backgrounds, 1);
        assert_eq!(hero.armor.as_ref().unwrap().class, Class::Light);
        assert_eq!(hero.max_hit_points(), 3 + 2 + 1);
        assert_eq!(hero.hit_points, 6);
        // Odd armor die: no armor.
        let (hero, _) = create(&choices(), &mut ScriptedDice::new([1, 3, 5])).unwrap();
        assert!(hero.armor.is_none());
        assert_eq!(hero.hit_points, 5);
    }

    #[test]
    fn body_2_mind_1_has_3_hit_points() {
        let mut c = choices();
        (c.body, c.mind, c.charm) = (2, 1, 3);
        let (hero, _) = create(&c, &mut ScriptedDice::new([1, 1, 1])).unwrap();
        assert_eq!(hero.hit_points, 3);
    }

    #[test]
    fn impossible_spreads_are_refused() {
        let mut c = choices();
        (c.body, c.mind, c.charm) = (3, 3, 1);
        let err = create(&c, &mut ScriptedDice::new([])).unwrap_err();
        assert!(err.to_string().contains("assign 3, 2 and 1"), "{err}");
        let mut c = choices();
        c.weapon.class = Class::Heavy;
        assert!(create(&c, &mut ScriptedDice::new([])).is_err());
        // Four named: refused before any die (the script is empty).
        let mut c = choices();
        c.backgrounds = vec!["a".into(), "b".into(), "c".into(), "d".into()];
        let err = create(&c, &mut ScriptedDice::new([])).unwrap_err();
        assert!(err.to_string().contains("at most 3"), "{err}");
    }

    #[test]
    fn backgrounds_named_beyond_the_roll_are_not_taken_and_noted() {
        // S9: 1 + the even dice of 2d6. 1 and 3: no even die, one background.
        let mut c = choices();
        c.backgrounds = vec!["Acrobat Thief".into(), "Sailor".into(), "Pilot".into()];
        let (hero, _) = create(&c, &mut ScriptedDice::new([1, 3, 1])).unwrap();
        assert_eq!(hero.backgrounds, ["Acrobat Thief"]);
        assert_eq!(hero.unnamed_backgrounds, 0);
        assert_eq!(
            hero.notes,
            "Not taken at creation (the 2d6 1 and 3 allow 1): Sailor, Pilot."
        );
        // 2 and 3: one even die, two backgrounds; the third named is not taken.
        let (hero, _) = create(&c, &mut ScriptedDice::new([2, 3, 1])).unwrap();
        assert_eq!(hero.backgrounds, ["Acrobat Thief", "Sailor"]);
        assert!(hero.notes.ends_with("allow 2): Pilot."), "{}", hero.notes);
        // 2 and 4: three allowed, all taken, no note.
        let (hero, _) = create(&c, &mut ScriptedDice::new([2, 4, 1])).unwrap();
        assert_eq!(hero.backgrounds.len(), 3);
        assert!(hero.notes.is_empty());
    }

    #[test]
    fn heavy_weapon_with_body_2() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 1]))
            .unwrap()
            .0;
        hero.body = 2;
        let axe = Weapon::melee("great axe", Class::Heavy);
        assert_eq!(axe.damage(2), 2);
        assert_eq!(axe.damage(3), 3);
        let pool = hero.pool(Attribute::Body, true, Some(&axe)).pool().unwrap();
        // Body 2 + background - heavy weapon = 2.
        assert_eq!(pool.dice(), 2);
    }

    #[test]
    fn medium_armor_with_body_1() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 1]))
            .unwrap()
            .0;
        hero.body = 1;
        hero.armor = Some(Armor {
            name: "chainmail".into(),
            class: Class::Medium,
        });
        // Every check loses a die: Mind 2 + background - 1 = 2.
        assert_eq!(
            hero.pool(Attribute::Mind, true, None)
                .pool()
                .unwrap()
                .dice(),
            2
        );
        // Body 1 - 1 = 0, at least 1.
        assert_eq!(
            hero.pool(Attribute::Body, false, None)
                .pool()
                .unwrap()
                .dice(),
            1
        );
        assert_eq!(hero.max_hit_points(), 1 + 2 + 2);
    }

    #[test]
    fn resting_heals_by_the_half_hour() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 2]))
            .unwrap()
            .0;
        hero.take_damage(4);
        assert_eq!(hero.hit_points, 2);
        assert_eq!(hero.rest(3), 3);
        assert_eq!(hero.rest(10), 1);
        assert_eq!(hero.hit_points, hero.max_hit_points());
        hero.take_damage(100);
        assert_eq!(hero.hit_points, 0);
        assert_eq!(hero.rest(4), 0, "being out does not count as resting");
    }

    #[test]
    fn advancement() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 1]))
            .unwrap()
            .0;
        let a =
            advance_background(&mut hero, "Tower Climber", &mut ScriptedDice::new([3])).unwrap();
        assert!(!a.success);
        let a =
            advance_background(&mut hero, "Tower Climber", &mut ScriptedDice::new([6])).unwrap();
        assert!(a.success);
        assert_eq!(hero.backgrounds.len(), 2);
        // Mind 2: two dice, all even raises it.
        let b =
            advance_attribute(&mut hero, Attribute::Mind, &mut ScriptedDice::new([2, 5])).unwrap();
        assert!(!b.success);
        let b =
            advance_attribute(&mut hero, Attribute::Mind, &mut ScriptedDice::new([2, 4])).unwrap();
        assert!(b.success);
        assert_eq!(hero.mind, 3);
        assert_eq!(hero.hit_points, hero.max_hit_points());
        hero.body = 4;
        assert!(advance_attribute(&mut hero, Attribute::Body, &mut ScriptedDice::new([])).is_err());
    }

    /// S17: no point, no attempt (nothing rolled); an attempt spends its point whether it
    /// fails or succeeds, so a failure cannot be retried at once.
    #[test]
    fn advancement_points_buy_one_attempt_each() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 1]))
            .unwrap()
            .0;
        assert_eq!(hero.advancement_points, 0);
        let mind = AdvanceGoal::Attribute(Attribute::Mind);
        // No point: refused before any die (an empty script would fail on a roll).
        let e = attempt_advancement(&mut hero, &mind, &mut ScriptedDice::new([])).unwrap_err();
        assert!(
            matches!(&e, AdvanceError::Rules(c) if c.field == "advancement_points"),
            "{e}"
        );
        grant_advancement_point(&mut hero).unwrap();
        assert_eq!(hero.advancement_points, 1);
        // Mind 2: two dice, 2 and 5 are not all even: a failure, and the point is gone.
        let a = attempt_advancement(&mut hero, &mind, &mut ScriptedDice::new([2, 5])).unwrap();
        assert!(!a.success);
        assert_eq!((hero.mind, hero.advancement_points), (2, 0));
        // Retrying at once is refused.
        assert!(attempt_advancement(&mut hero, &mind, &mut ScriptedDice::new([])).is_err());
        // At the next point: 4 and 6 are all even: Mind 3, max hit points 3 + 3 = 6.
        grant_advancement_point(&mut hero).unwrap();
        let a = attempt_advancement(&mut hero, &mind, &mut ScriptedDice::new([4, 6])).unwrap();
        assert!(a.success);
        assert_eq!((hero.mind, hero.advancement_points), (3, 0));
        assert_eq!((hero.hit_points, hero.max_hit_points()), (6, 6));
        // A: a background on an even d6; a background already held is refused, point kept.
        grant_advancement_point(&mut hero).unwrap();
        let known = AdvanceGoal::Background("acrobat thief".into());
        assert!(attempt_advancement(&mut hero, &known, &mut ScriptedDice::new([])).is_err());
        assert_eq!(hero.advancement_points, 1);
        let new = AdvanceGoal::Background("Tower Climber".into());
        let a = attempt_advancement(&mut hero, &new, &mut ScriptedDice::new([2])).unwrap();
        assert!(a.success);
        assert_eq!(hero.backgrounds, ["Acrobat Thief", "Tower Climber"]);
        assert_eq!(hero.advancement_points, 0);
        // An attribute at 4 is refused before any die, and the point stays.
        grant_advancement_point(&mut hero).unwrap();
        hero.body = 4;
        let body = AdvanceGoal::Attribute(Attribute::Body);
        assert!(attempt_advancement(&mut hero, &body, &mut ScriptedDice::new([])).is_err());
        assert_eq!(hero.advancement_points, 1);
        // Bounded: at most MAX_ADVANCEMENT_POINTS unspent.
        hero.advancement_points = MAX_ADVANCEMENT_POINTS;
        assert!(grant_advancement_point(&mut hero).is_err());
        assert!(hero.validate().is_ok());
        hero.advancement_points = MAX_ADVANCEMENT_POINTS + 1;
        assert_eq!(hero.validate().unwrap_err().field, "advancement_points");
    }

    /// S16: rest adds up across rests; two quarter hours make the half hour that heals 1.
    #[test]
    fn quarter_hour_rests_add_up() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 2]))
            .unwrap()
            .0;
        // Body 3 + Mind 2 + light armor 1 = 6.
        hero.take_damage(3);
        assert_eq!(hero.rest_minutes(15), 0);
        assert_eq!((hero.hit_points, hero.rest_minutes), (3, 15));
        assert_eq!(hero.rest_minutes(15), 1);
        assert_eq!((hero.hit_points, hero.rest_minutes), (4, 0));
        // 50 minutes: one half hour heals, 20 minutes stay banked; 40 more: 60 = 2 points,
        // but only 1 is missing after the first: full, and the bank is dropped.
        assert_eq!(hero.rest_minutes(50), 1);
        assert_eq!((hero.hit_points, hero.rest_minutes), (5, 20));
        assert_eq!(hero.rest_minutes(40), 1);
        assert_eq!((hero.hit_points, hero.rest_minutes), (6, 0));
        // Out: no rest, nothing banked.
        hero.take_damage(6);
        assert_eq!(hero.rest_minutes(45), 0);
        assert_eq!((hero.hit_points, hero.rest_minutes), (0, 0));
        hero.rest_minutes = 30;
        assert_eq!(hero.validate().unwrap_err().field, "rest_minutes");
    }

    #[test]
    fn validation_names_the_field() {
        let mut hero = create(&choices(), &mut ScriptedDice::new([1, 1, 1]))
            .unwrap()
            .0;
        hero.body = 5;
        assert_eq!(hero.validate().unwrap_err().field, "body");
        hero.body = 3;
        hero.hit_points = 99;
        assert_eq!(hero.validate().unwrap_err().field, "hit_points");
    }
}
