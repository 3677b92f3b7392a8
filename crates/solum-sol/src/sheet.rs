//! A Project Sol character sheet: attributes, skills with progress, Edge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::advancement::{Progress, Skill};
use crate::edge::{Burn, Edge, EdgeError, Rules, Spend};
use crate::pool::{Pool, PoolError, build};
use crate::test::{EdgeOnTest, TestOutcome, TestSpec};

/// The physical attributes, one of which Not Dead Yet lowers.
pub const PHYSICAL: [&str; 4] = ["BOD", "AGI", "REA", "STR"];

/// Not Dead Yet cannot be burnt as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotDeadYetError {
    /// No Edge attribute left to burn.
    #[error(transparent)]
    Edge(#[from] EdgeError),
    /// The sheet has no physical attribute above 0.
    #[error("no physical attribute (BOD, AGI, REA, STR) above 0 to lower")]
    NoPhysical,
    /// Several attributes tie for highest and none was chosen.
    #[error("{} tie for the highest physical attribute at {value}: choose one of them", .tied.join(", "))]
    Tie {
        /// The tied attributes.
        tied: Vec<String>,
        /// Their value.
        value: u32,
    },
    /// The chosen attribute is not (one of) the highest.
    #[error("{chosen} is not the highest physical attribute: choose {}", .highest.join(" or "))]
    NotHighest {
        /// The attribute named.
        chosen: String,
        /// The highest ones.
        highest: Vec<String>,
    },
}

/// What Not Dead Yet did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = sol::Lowered))]
pub struct Lowered {
    /// The attribute lowered, as the sheet names it.
    pub attribute: String,
    /// Its value before.
    pub from: u32,
    /// Its value now.
    pub to: u32,
}

/// The version of the sheet format written by this code.
pub const SHEET_SCHEMA: u32 = 1;

/// The largest attribute, Edge, rank or progress a sheet may hold: a pool rolls at most
/// [`crate::pool::MAX_DICE`] dice, so a larger value is a typing mistake, not a character.
pub const MAX_SHEET_VALUE: u32 = crate::pool::MAX_DICE;

/// A sheet the rules cannot use, naming the field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SheetError {
    /// The name is empty.
    #[error("name: empty")]
    EmptyName,
    /// An attribute or skill with an empty name.
    #[error("{0}: an empty name")]
    EmptyEntry(&'static str),
    /// The same name twice (any case).
    #[error("{0}: `{1}` is listed twice")]
    Duplicate(&'static str, String),
    /// A value above [`MAX_SHEET_VALUE`].
    #[error("{field}: {value} is more than {MAX_SHEET_VALUE}")]
    TooLarge {
        /// The field, as in the file.
        field: String,
        /// The value found.
        value: u32,
    },
    /// More Edge points than the Edge attribute.
    #[error("edge.points: {points} is more than the attribute {attribute}")]
    EdgePoints {
        /// Points.
        points: u32,
        /// The attribute.
        attribute: u32,
    },
}

/// A Project Sol character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::Sheet))]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// File format version.
    pub schema: u32,
    /// Name.
    pub name: String,
    /// Edge: attribute and points now.
    pub edge: Edge,
    /// Attributes by name (AGI, LOG, REA …).
    #[serde(default)]
    pub attributes: BTreeMap<String, u32>,
    /// Skills.
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// Training sessions used this game session (one allowed).
    #[serde(default)]
    pub trained_this_session: bool,
    /// A progress point was already earned in the current encounter, in any skill: a
    /// character earns at most one per encounter in all (P3).
    #[serde(default)]
    pub progress_this_encounter: bool,
}

impl Sheet {
    /// An attribute by name, any case.
    pub fn attribute(&self, name: &str) -> Option<u32> {
        self.attributes
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }

    /// The highest physical attributes present on the sheet (several on a tie), as the
    /// sheet names them, and their value.
    pub fn highest_physical(&self) -> (Vec<String>, u32) {
        let physical: Vec<(&String, u32)> = self
            .attributes
            .iter()
            .filter(|(k, _)| PHYSICAL.iter().any(|p| p.eq_ignore_ascii_case(k)))
            .map(|(k, v)| (k, *v))
            .collect();
        let top = physical.iter().map(|(_, v)| *v).max().unwrap_or(0);
        let names = physical
            .iter()
            .filter(|(_, v)| *v == top)
            .map(|(k, _)| (*k).clone())
            .collect();
        (names, top)
    }

    /// Not Dead Yet (P2): burns a point of Edge and lowers the highest physical attribute
    /// (BOD, AGI, REA, STR) by 1; on a tie the player names which (`choice`, any case).
    /// Nothing changes when it fails.
    pub fn not_dead_yet(&mut self, choice: Option<&str>) -> Result<Lowered, NotDeadYetError> {
        self.not_dead_yet_by(Rules::Current, choice)
    }

    /// [`Sheet::not_dead_yet`] by `rules` (see [`Edge::burn_by`]).
    pub fn not_dead_yet_by(
        &mut self,
        rules: Rules,
        choice: Option<&str>,
    ) -> Result<Lowered, NotDeadYetError> {
        self.edge.can_burn_by(rules)?;
        let (highest, value) = self.highest_physical();
        if value == 0 {
            return Err(NotDeadYetError::NoPhysical);
        }
        let name = match choice {
            Some(c) => highest
                .iter()
                .find(|h| h.eq_ignore_ascii_case(c))
                .cloned()
                .ok_or_else(|| NotDeadYetError::NotHighest {
                    chosen: c.to_owned(),
                    highest: highest.clone(),
                })?,
            None if highest.len() == 1 => highest[0].clone(),
            None => {
                return Err(NotDeadYetError::Tie {
                    tied: highest,
                    value,
                });
            }
        };
        self.edge.burn_by(rules, Burn::NotDeadYet)?;
        let v = self.attributes.get_mut(&name).expect("found above");
        *v -= 1;
        Ok(Lowered {
            attribute: name,
            from: value,
            to: value - 1,
        })
    }

    /// Checks what a file may hold: a name, no empty or duplicate attribute or skill names
    /// (any case: `LOG` and `log` are one attribute), every value at most
    /// [`MAX_SHEET_VALUE`], Edge points at most the attribute. Every later sum of sheet values
    /// then stays far from the integer edges.
    pub fn check(&self) -> Result<(), SheetError> {
        if self.name.trim().is_empty() {
            return Err(SheetError::EmptyName);
        }
        let big = |field: String, value: u32| {
            if value > MAX_SHEET_VALUE {
                Err(SheetError::TooLarge { field, value })
            } else {
                Ok(())
            }
        };
        big("edge.attribute".into(), self.edge.attribute)?;
        if self.edge.points > self.edge.attribute {
            return Err(SheetError::EdgePoints {
                points: self.edge.points,
                attribute: self.edge.attribute,
            });
        }
        let mut seen = std::collections::BTreeSet::new();
        for (k, &v) in &self.attributes {
            if k.trim().is_empty() {
                return Err(SheetError::EmptyEntry("attributes"));
            }
            if !seen.insert(k.trim().to_ascii_lowercase()) {
                return Err(SheetError::Duplicate("attributes", k.clone()));
            }
            big(format!("attributes.{k}"), v)?;
        }
        seen.clear();
        for sk in &self.skills {
            if sk.name.trim().is_empty() {
                return Err(SheetError::EmptyEntry("skills"));
            }
            if !seen.insert(sk.name.trim().to_ascii_lowercase()) {
                return Err(SheetError::Duplicate("skills", sk.name.clone()));
            }
            big(format!("skills `{}` ranks", sk.name), sk.ranks)?;
            big(format!("skills `{}` progress", sk.name), sk.progress)?;
        }
        Ok(())
    }

    /// A skill by name, any case.
    pub fn skill_mut(&mut self, name: &str) -> Option<&mut Skill> {
        self.skills
            .iter_mut()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// A skill's ranks (0 if the sheet does not list it).
    pub fn ranks(&self, name: &str) -> u32 {
        self.skills
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map_or(0, |s| s.ranks)
    }
}

/// The threshold of Dead Man's Trigger's BOD + WIL test.
pub const DEAD_MANS_TRIGGER_THRESHOLD: u32 = 3;

/// A use of a sheet the rules refuse; nothing changes when it is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SheetRuleError {
    /// Edge cannot be spent or burnt.
    #[error(transparent)]
    Edge(#[from] EdgeError),
    /// A use needs an attribute the sheet does not list: a missing one is not a 0.
    #[error("no attribute `{0}`")]
    NoAttribute(String),
    /// Training twice in one game session.
    #[error("one training session per game session: already trained this session")]
    AlreadyTrained,
    /// The skill is at the highest rank a sheet holds.
    #[error("{skill}: already at the highest rank, {MAX_SHEET_VALUE}")]
    TopRank {
        /// The skill.
        skill: String,
    },
}

/// What a training session did (P3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = sol::Trained))]
pub struct Trained {
    /// The skill, as the sheet names it.
    pub skill: String,
    /// Its new ranks.
    pub ranks: u32,
    /// The cost rating paid: the new rank × 2.
    pub cost: u64,
}

impl Sheet {
    /// An attribute a use needs, by name (any case); a missing one is an error, not a 0.
    pub fn needed(&self, name: &str) -> Result<u32, SheetRuleError> {
        self.attribute(name)
            .ok_or_else(|| SheetRuleError::NoAttribute(name.to_owned()))
    }

    /// The start of a play session: Edge refreshes to the attribute, training is allowed
    /// again, and a new encounter begins.
    pub fn new_session(&mut self) {
        self.edge.refresh();
        self.trained_this_session = false;
        self.new_encounter();
    }

    /// A new encounter: the character may earn a progress point again.
    pub fn new_encounter(&mut self) {
        self.progress_this_encounter = false;
        self.skills.iter_mut().for_each(Skill::new_encounter);
    }

    /// The Edge declared before a test's dice: Smackdown burns a point, Push the Limit,
    /// Second Chance and Close Call spend one. With none left, refused before any die.
    pub fn use_edge_before(&mut self, edge: Option<EdgeOnTest>) -> Result<(), SheetRuleError> {
        self.use_edge_before_by(Rules::Current, edge)
    }

    /// [`Sheet::use_edge_before`] by `rules` (see [`Edge::burn_by`]).
    pub fn use_edge_before_by(
        &mut self,
        rules: Rules,
        edge: Option<EdgeOnTest>,
    ) -> Result<(), SheetRuleError> {
        match edge {
            Some(EdgeOnTest::Smackdown) => self.edge.burn_by(rules, Burn::Smackdown),
            Some(EdgeOnTest::PushTheLimit) => self.edge.spend(Spend::PushTheLimit),
            Some(EdgeOnTest::SecondChance) => self.edge.spend(Spend::SecondChance),
            Some(EdgeOnTest::CloseCall) => self.edge.spend(Spend::CloseCall),
            None => Ok(()),
        }
        .map_err(Into::into)
    }

    /// The Edge chosen after the dice: a point is spent only when the test used it (a
    /// Second Chance with a die to reroll, a Close Call on a glitch, see
    /// [`crate::test::roll_test_then`]).
    pub fn use_edge_after(&mut self, test: &TestOutcome) -> Result<(), SheetRuleError> {
        match test.spec.edge {
            Some(EdgeOnTest::SecondChance) => self.edge.spend(Spend::SecondChance),
            Some(EdgeOnTest::CloseCall) => self.edge.spend(Spend::CloseCall),
            _ => Ok(()),
        }
        .map_err(Into::into)
    }

    /// Records a test of `skill` (P3): more hits than max(ranks, 1) earns a point, at most
    /// one per encounter for the character in all, whatever the skill. A skill the sheet does
    /// not list joins it when it earns its first point.
    pub fn record_test(&mut self, skill: &str, test: &TestOutcome) -> Progress {
        self.record_test_by(Rules::Current, skill, test)
    }

    /// [`Sheet::record_test`] by `rules`: by [`Rules::BeforeP3P5`] each skill earns at most
    /// one point per encounter (its own mark), and the character-wide mark is left alone.
    pub fn record_test_by(&mut self, rules: Rules, skill: &str, test: &TestOutcome) -> Progress {
        if rules == Rules::BeforeP3P5 {
            return self.record_skill(skill, test);
        }
        // A sheet written before the flag existed keeps the mark on the skill that earned.
        if self.progress_this_encounter || self.skills.iter().any(|s| s.earned_this_encounter) {
            return Progress {
                point: false,
                rank_up: false,
            };
        }
        let p = self.record_skill(skill, test);
        self.progress_this_encounter = p.point;
        p
    }

    fn record_skill(&mut self, skill: &str, test: &TestOutcome) -> Progress {
        match self.skill_mut(skill) {
            Some(sk) => sk.record_test(test),
            None => {
                let mut sk = Skill::new(skill.trim(), 0);
                let p = sk.record_test(test);
                if p.point {
                    self.skills.push(sk);
                }
                p
            }
        }
    }

    /// Trains the next rank of `skill` (P3): one training per game session, cost rating the
    /// new rank × 2, unused progress cleared. A skill not yet listed is trained from 0.
    pub fn train(&mut self, skill: &str) -> Result<Trained, SheetRuleError> {
        if self.trained_this_session {
            return Err(SheetRuleError::AlreadyTrained);
        }
        let mut after = self.clone();
        if after.skill_mut(skill).is_none() {
            after.skills.push(Skill::new(skill.trim(), 0));
        }
        let sk = after.skill_mut(skill).expect("listed above");
        if sk.ranks >= MAX_SHEET_VALUE {
            return Err(SheetRuleError::TopRank {
                skill: sk.name.clone(),
            });
        }
        let cost = sk.train().expect("below the top rank");
        let trained = Trained {
            skill: sk.name.clone(),
            ranks: sk.ranks,
            cost,
        };
        after.trained_this_session = true;
        *self = after;
        Ok(trained)
    }

    /// Blitz: spends a point of Edge for REA + INT bonus dice to an initiative test.
    pub fn blitz(&mut self) -> Result<u32, SheetRuleError> {
        let bonus = self.needed("REA")? + self.needed("INT")?;
        self.edge.spend(Spend::Blitz)?;
        Ok(bonus)
    }

    /// Seize the Initiative: spends a point of Edge to act first for one round.
    pub fn seize_the_initiative(&mut self) -> Result<(), SheetRuleError> {
        Ok(self.edge.spend(Spend::SeizeTheInitiative)?)
    }

    /// Dead Man's Trigger: spends a point of Edge; the test to roll is BOD + WIL against
    /// [`DEAD_MANS_TRIGGER_THRESHOLD`] (at least one die, R2).
    pub fn dead_mans_trigger(&mut self) -> Result<TestSpec, SheetRuleError> {
        let dice = (self.needed("BOD")? + self.needed("WIL")?).max(1);
        self.edge.spend(Spend::DeadMansTrigger)?;
        Ok(TestSpec {
            dice,
            threshold: Some(DEAD_MANS_TRIGGER_THRESHOLD),
            edge: None,
        })
    }

    /// The pool this sheet rolls when it assists a test of `attribute` + `skill`: the same
    /// attribute + its own ranks, no modifier.
    pub fn assist_pool(
        &self,
        attribute: &str,
        skill: &str,
        untrained_penalty: bool,
    ) -> Result<Result<Pool, PoolError>, SheetRuleError> {
        let attr = self.needed(attribute)?;
        Ok(build(
            i64::from(attr),
            i64::from(self.ranks(skill)),
            &[],
            untrained_penalty,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(attrs: &[(&str, u32)], edge: u32) -> Sheet {
        Sheet {
            schema: SHEET_SCHEMA,
            name: "Cole".into(),
            edge: Edge::new(edge),
            attributes: attrs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
            skills: Vec::new(),
            trained_this_session: false,
            progress_this_encounter: false,
        }
    }

    #[test]
    fn a_sheet_with_empty_duplicate_or_huge_values_is_refused() {
        let good = sheet(&[("BOD", 3), ("LOG", 1000)], 2);
        assert_eq!(good.check(), Ok(()));
        let mut s = good.clone();
        s.name = "  ".into();
        assert_eq!(s.check(), Err(SheetError::EmptyName));
        let s = sheet(&[("LOG", 3), ("log", 4)], 2);
        assert!(matches!(
            s.check(),
            Err(SheetError::Duplicate("attributes", _))
        ));
        let s = sheet(&[("", 3)], 2);
        assert_eq!(s.check(), Err(SheetError::EmptyEntry("attributes")));
        let s = sheet(&[("BOD", 1001)], 2);
        let e = s.check().unwrap_err();
        assert_eq!(e.to_string(), "attributes.BOD: 1001 is more than 1000");
        let s = sheet(&[("BOD", 3)], u32::MAX);
        assert!(matches!(s.check(), Err(SheetError::TooLarge { .. })));
        let mut s = good.clone();
        s.edge.points = 3;
        assert_eq!(
            s.check(),
            Err(SheetError::EdgePoints {
                points: 3,
                attribute: 2
            })
        );
        let mut s = good.clone();
        s.skills = vec![Skill::new("Etiquette", 2), Skill::new("etiquette ", 1)];
        assert!(matches!(s.check(), Err(SheetError::Duplicate("skills", _))));
        s.skills = vec![Skill::new(" ", 2)];
        assert_eq!(s.check(), Err(SheetError::EmptyEntry("skills")));
        s.skills = vec![Skill::new("Etiquette", u32::MAX)];
        assert!(s.check().unwrap_err().to_string().contains("ranks"));
    }

    #[test]
    fn not_dead_yet_lowers_the_highest_physical_attribute() {
        // LOG 6 is higher but mental: AGI 5 is the highest physical attribute.
        let mut s = sheet(&[("BOD", 3), ("AGI", 5), ("REA", 4), ("LOG", 6)], 2);
        let l = s.not_dead_yet(None).unwrap();
        assert_eq!((l.attribute.as_str(), l.from, l.to), ("AGI", 5, 4));
        assert_eq!(s.attribute("AGI"), Some(4));
        assert_eq!((s.edge.attribute, s.edge.points), (1, 1));
        // Naming another than the highest is refused, and changes nothing.
        let before = s.clone();
        // Now AGI 4 and REA 4 tie.
        assert!(matches!(
            s.not_dead_yet(Some("BOD")),
            Err(NotDeadYetError::NotHighest { .. })
        ));
        assert_eq!(s, before);
    }

    #[test]
    fn a_tie_is_the_players_choice() {
        let mut s = sheet(&[("bod", 4), ("STR", 4), ("AGI", 2)], 1);
        let err = s.not_dead_yet(None).unwrap_err();
        assert_eq!(
            err,
            NotDeadYetError::Tie {
                tied: vec!["STR".into(), "bod".into()],
                value: 4
            }
        );
        assert!(err.to_string().contains("STR, bod tie"));
        assert_eq!(s.edge.attribute, 1, "nothing burnt on an error");
        let l = s.not_dead_yet(Some("BOD")).unwrap();
        assert_eq!((l.attribute.as_str(), l.to), ("bod", 3));
        // No Edge left to burn: refused before anything changes.
        assert_eq!(
            s.not_dead_yet(Some("STR")),
            Err(NotDeadYetError::Edge(EdgeError::NothingToBurn))
        );
        assert_eq!(s.attribute("STR"), Some(4));
        // No physical attribute at all.
        assert_eq!(
            sheet(&[("LOG", 3)], 1).not_dead_yet(None),
            Err(NotDeadYetError::NoPhysical)
        );
    }

    #[test]
    fn kyra_trains_once_per_session() {
        // Kyra trains Sidearms from rank 2 to rank 3: cost rating 6, progress cleared.
        let mut s = sheet(&[("AGI", 3)], 2);
        s.skills.push(Skill::new("Sidearms", 2));
        s.skills[0].progress = 3;
        let t = s.train("sidearms").unwrap();
        assert_eq!((t.skill.as_str(), t.ranks, t.cost), ("Sidearms", 3, 6));
        assert_eq!(s.skills[0].progress, 0);
        // Training sessions are limited to one per game session: refused, nothing changes.
        let before = s.clone();
        assert_eq!(s.train("Sidearms"), Err(SheetRuleError::AlreadyTrained));
        assert_eq!(s.train("Etiquette"), Err(SheetRuleError::AlreadyTrained));
        assert_eq!(s, before);
        s.new_session();
        // A skill not yet listed is trained from 0 to 1: cost rating 1 × 2.
        let t = s.train("Etiquette").unwrap();
        assert_eq!((t.ranks, t.cost), (1, 2));
        // At the top rank a sheet holds: refused, and the session's training is not used.
        let mut top = sheet(&[], 1);
        top.skills.push(Skill::new("Hacking", MAX_SHEET_VALUE));
        assert!(matches!(
            top.train("Hacking"),
            Err(SheetRuleError::TopRank { .. })
        ));
        assert!(!top.trained_this_session);
    }

    #[test]
    fn one_progress_point_per_encounter_in_all_p3() {
        use crate::test::{TestSpec, roll_test};
        let mut s = sheet(&[("AGI", 3), ("LOG", 3)], 1);
        s.skills.push(Skill::new("Sidearms", 1));
        s.skills.push(Skill::new("Hacking", 1));
        let spec = TestSpec {
            dice: 4,
            threshold: Some(1),
            edge: None,
        };
        // 5 5 6 1: three hits, more than 1 rank: a point in Sidearms.
        let t = roll_test(&spec, &mut solum_dice::ScriptedDice::new([5, 5, 6, 1])).unwrap();
        assert!(s.record_test("Sidearms", &t).point);
        // The same encounter: three hits in Hacking earn nothing (one point in all).
        assert!(!s.record_test("Hacking", &t).point);
        assert_eq!((s.skills[0].progress, s.skills[1].progress), (1, 0));
        // A sheet of an older solum (no sheet-wide mark, the skill's own): still one point.
        let mut old = s.clone();
        old.progress_this_encounter = false;
        assert!(!old.record_test("Hacking", &t).point);
        // A new encounter: Hacking earns its point.
        s.new_encounter();
        assert!(s.record_test("Hacking", &t).point);
        assert_eq!(s.skills[1].progress, 1);
    }

    #[test]
    fn five_points_raise_the_rank_and_clear_them_p3() {
        use crate::test::{TestSpec, roll_test};
        let mut s = sheet(&[("AGI", 3)], 1);
        s.skills.push(Skill::new("Sidearms", 1));
        s.skills[0].progress = 4;
        let spec = TestSpec {
            dice: 2,
            threshold: None,
            edge: None,
        };
        let t = roll_test(&spec, &mut solum_dice::ScriptedDice::new([5, 6])).unwrap();
        let p = s.record_test("Sidearms", &t);
        assert!(p.point && p.rank_up);
        assert_eq!((s.skills[0].ranks, s.skills[0].progress), (2, 0));
    }

    #[test]
    fn a_session_refreshes_edge_and_starts_an_encounter() {
        let mut s = sheet(&[("BOD", 3)], 3);
        s.edge.points = 0;
        s.trained_this_session = true;
        s.skills.push(Skill::new("Etiquette", 4));
        assert!(s.skills[0].record(5).point);
        s.new_encounter();
        assert!(!s.skills[0].earned_this_encounter);
        assert!(s.skills[0].record(5).point);
        s.new_session();
        assert_eq!((s.edge.points, s.edge.attribute), (3, 3));
        assert!(!s.trained_this_session && !s.skills[0].earned_this_encounter);
        // Burnt Edge does not come back at a session.
        s.edge.burn(Burn::Smackdown).unwrap();
        s.new_session();
        assert_eq!((s.edge.points, s.edge.attribute), (2, 2));
    }

    #[test]
    fn blitz_and_dead_mans_trigger_need_their_attributes() {
        // Blitz: REA 4 + INT 3 = 7 bonus dice, one point spent.
        let mut s = sheet(&[("REA", 4), ("int", 3), ("BOD", 2), ("WIL", 0)], 2);
        assert_eq!(s.blitz(), Ok(7));
        assert_eq!(s.edge.points, 1);
        // Dead Man's Trigger: BOD 2 + WIL 0 against 3.
        let spec = s.dead_mans_trigger().unwrap();
        assert_eq!((spec.dice, spec.threshold), (2, Some(3)));
        assert_eq!(s.edge.points, 0);
        // No point left: refused.
        assert_eq!(
            s.seize_the_initiative(),
            Err(SheetRuleError::Edge(EdgeError::NoPoints(0, 2)))
        );
        // A missing attribute is no 0: refused before any point is spent.
        let mut s = sheet(&[("REA", 4), ("BOD", 0), ("WIL", 0)], 1);
        assert_eq!(s.blitz(), Err(SheetRuleError::NoAttribute("INT".into())));
        assert_eq!(s.edge.points, 1);
        // BOD 0 + WIL 0 still rolls one die (R2).
        assert_eq!(s.dead_mans_trigger().unwrap().dice, 1);
    }

    #[test]
    fn edge_before_and_after_the_dice() {
        use crate::test::{EdgeOnTest, TestSpec, roll_test, roll_test_then};
        use solum_dice::ScriptedDice;
        let mut s = sheet(&[("AGI", 2)], 1);
        s.use_edge_before(Some(EdgeOnTest::Smackdown)).unwrap();
        assert_eq!((s.edge.attribute, s.edge.points), (0, 0));
        assert!(s.use_edge_before(Some(EdgeOnTest::PushTheLimit)).is_err());
        // Close Call chosen after 5, 6, 6: no glitch, so no point is spent.
        let mut s = sheet(&[("AGI", 2)], 1);
        let spec = TestSpec {
            dice: 3,
            threshold: Some(1),
            edge: None,
        };
        let mut close_call = |_: &TestOutcome| Some(EdgeOnTest::CloseCall);
        let t = roll_test_then(&spec, &mut ScriptedDice::new([5, 6, 6]), &mut close_call).unwrap();
        s.use_edge_after(&t).unwrap();
        assert_eq!(s.edge.points, 1);
        // After 1, 1, 3 (a critical glitch), Close Call is used and spent.
        let t = roll_test_then(&spec, &mut ScriptedDice::new([1, 1, 3]), &mut close_call).unwrap();
        s.use_edge_after(&t).unwrap();
        assert_eq!(s.edge.points, 0);
        assert!(t.glitch && !t.critical_glitch);
        // A progress point in a skill not on the sheet adds it; no point, no entry.
        let one_hit = roll_test(&spec, &mut ScriptedDice::new([5, 1, 2])).unwrap();
        assert!(!s.record_test("Sidearms", &one_hit).point);
        assert!(s.skills.is_empty());
        let two_hits = roll_test(&spec, &mut ScriptedDice::new([5, 6, 2])).unwrap();
        assert!(s.record_test("Sidearms", &two_hits).point);
        assert_eq!(s.skills[0].progress, 1);
        // Once per encounter.
        assert!(!s.record_test("sidearms", &two_hits).point);
    }

    #[test]
    fn the_assistant_rolls_its_attribute_and_its_own_ranks() {
        let mut kyra = sheet(&[("LOG", 1)], 1);
        kyra.skills.push(Skill::new("Hacking", 1));
        assert_eq!(
            kyra.assist_pool("log", "Hacking", false)
                .unwrap()
                .unwrap()
                .dice,
            2
        );
        // Defaulting with an untrained penalty: 1 - 3, still one die.
        assert_eq!(
            kyra.assist_pool("LOG", "Electronics", true)
                .unwrap()
                .unwrap()
                .dice,
            1
        );
        assert_eq!(
            kyra.assist_pool("CHA", "Hacking", false),
            Err(SheetRuleError::NoAttribute("CHA".into()))
        );
    }
}
