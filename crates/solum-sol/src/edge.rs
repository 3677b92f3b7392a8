//! A character's Edge: spent (temporarily) or burnt (for good), refreshed each session (P2).

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The six ways to spend a point of Edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spend {
    /// Before rolling: 3 to 6 are hits for this test.
    PushTheLimit,
    /// About to fall: a BOD + WIL (3) test; on a success, one last action.
    DeadMansTrigger,
    /// A bonus of REA + INT dice to an initiative test.
    Blitz,
    /// Top of the initiative order for one round.
    SeizeTheInitiative,
    /// Negate a glitch, or make a critical glitch a glitch.
    CloseCall,
    /// After rolling: reroll every die that is not a hit.
    SecondChance,
}

/// The two ways to burn a point of Edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Burn {
    /// Survive instead of dying; the highest physical attribute drops by 1.
    NotDeadYet,
    /// Succeed with four net hits, on any test.
    Smackdown,
}

/// The rulings a change is applied by. Journal records written before P3's one point per
/// encounter in all and P5's burn replay by the rules they were applied by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    /// P5: a burn takes an available point and lowers the attribute, refused with none
    /// available; P3: at most one progress point per character per encounter in all.
    #[default]
    Current,
    /// The rules before them: a burn lowers the attribute only, even with no point available;
    /// each skill earns at most one progress point per encounter (its own mark).
    BeforeP3P5,
}

/// Edge cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EdgeError {
    /// No points left to spend.
    #[error("no Edge left to spend ({0} of {1})")]
    NoPoints(u32, u32),
    /// Edge was already used on this test.
    #[error("one point of Edge per test: this test already used {0}")]
    AlreadyUsed(String),
    /// No attribute left to burn.
    #[error("no Edge attribute left to burn")]
    NothingToBurn,
    /// Every point of Edge is spent: a burn takes an available point (P5).
    #[error("no Edge point available to burn ({0} of {1}): a burn takes an unspent point")]
    NoPointToBurn(u32, u32),
}

/// A character's Edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::Edge))]
pub struct Edge {
    /// The attribute: points at a refresh.
    pub attribute: u32,
    /// Points available now.
    pub points: u32,
}

impl Edge {
    /// Full Edge.
    pub fn new(attribute: u32) -> Self {
        Self {
            attribute,
            points: attribute,
        }
    }

    /// Spends one point (the attribute stays).
    pub fn spend(&mut self, _use: Spend) -> Result<(), EdgeError> {
        if self.points == 0 {
            return Err(EdgeError::NoPoints(self.points, self.attribute));
        }
        self.points -= 1;
        Ok(())
    }

    /// Burns one point (P5): it takes one available (unspent) point and lowers the
    /// attribute by one for good, so Edge 3 with 2 of 3 available is 1 of 2 after a burn.
    /// With no point available nothing is burnt.
    pub fn burn(&mut self, use_: Burn) -> Result<(), EdgeError> {
        self.burn_by(Rules::Current, use_)
    }

    /// Burns one point by `rules`: [`Rules::Current`] as [`Edge::burn`];
    /// [`Rules::BeforeP3P5`] lowers the attribute only (the points drop with it only when they
    /// would exceed it), and a point may be burnt with none left to spend.
    pub fn burn_by(&mut self, rules: Rules, _use: Burn) -> Result<(), EdgeError> {
        self.can_burn_by(rules)?;
        self.attribute -= 1;
        match rules {
            Rules::Current => self.points -= 1,
            Rules::BeforeP3P5 => self.points = self.points.min(self.attribute),
        }
        Ok(())
    }

    /// Whether a point can be burnt now (P5), without burning it.
    pub fn can_burn(&self) -> Result<(), EdgeError> {
        self.can_burn_by(Rules::Current)
    }

    /// Whether a point can be burnt now by `rules`, without burning it.
    pub fn can_burn_by(&self, rules: Rules) -> Result<(), EdgeError> {
        if self.attribute == 0 {
            return Err(EdgeError::NothingToBurn);
        }
        if self.points == 0 && rules == Rules::Current {
            return Err(EdgeError::NoPointToBurn(self.points, self.attribute));
        }
        Ok(())
    }

    /// The start of a session: points back to the attribute.
    pub fn refresh(&mut self) {
        self.points = self.attribute;
    }

    /// A GM's reward: one point back, never above the attribute.
    pub fn reward(&mut self) {
        // Saturating: a point at the top of u32 stays there rather than wrapping to 0.
        self.points = self.points.saturating_add(1).min(self.attribute);
    }
}

/// Tracks the one-Edge-per-test rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestEdge {
    used: Option<String>,
}

impl TestEdge {
    /// Records an Edge use on this test, refusing a second one.
    pub fn use_once(&mut self, what: &str) -> Result<(), EdgeError> {
        if let Some(u) = &self.used {
            return Err(EdgeError::AlreadyUsed(u.clone()));
        }
        self.used = Some(what.to_owned());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spend_refresh_reward_burn() {
        let mut e = Edge::new(2);
        e.spend(Spend::PushTheLimit).unwrap();
        e.spend(Spend::SecondChance).unwrap();
        assert_eq!(e.spend(Spend::Blitz), Err(EdgeError::NoPoints(0, 2)));
        e.reward();
        assert_eq!(e.points, 1);
        e.refresh();
        assert_eq!(e.points, 2);
        e.burn(Burn::Smackdown).unwrap();
        assert_eq!((e.attribute, e.points), (1, 1));
        e.refresh();
        assert_eq!(e.points, 1, "burnt Edge does not come back");
        e.burn(Burn::NotDeadYet).unwrap();
        assert_eq!(e.burn(Burn::Smackdown), Err(EdgeError::NothingToBurn));
    }

    #[test]
    fn a_burn_takes_an_available_point_p5() {
        // P5: Edge 3 with one point spent (2 of 3) is 1 of 2 after a burn.
        let mut e = Edge::new(3);
        e.spend(Spend::Blitz).unwrap();
        e.burn(Burn::Smackdown).unwrap();
        assert_eq!((e.points, e.attribute), (1, 2));
        // With every point spent, Edge cannot be burnt, and nothing changes.
        e.spend(Spend::Blitz).unwrap();
        assert_eq!(
            e.burn(Burn::NotDeadYet),
            Err(EdgeError::NoPointToBurn(0, 2))
        );
        assert_eq!((e.points, e.attribute), (0, 2));
    }

    #[test]
    fn a_burn_by_the_rules_before_p5_costs_no_point() {
        let mut e = Edge::new(3);
        e.spend(Spend::Blitz).unwrap();
        e.burn_by(Rules::BeforeP3P5, Burn::Smackdown).unwrap();
        assert_eq!((e.points, e.attribute), (2, 2));
        e.spend(Spend::Blitz).unwrap();
        e.spend(Spend::Blitz).unwrap();
        e.burn_by(Rules::BeforeP3P5, Burn::NotDeadYet).unwrap();
        assert_eq!((e.points, e.attribute), (0, 1));
        e.burn_by(Rules::BeforeP3P5, Burn::NotDeadYet).unwrap();
        assert_eq!(
            e.burn_by(Rules::BeforeP3P5, Burn::NotDeadYet),
            Err(EdgeError::NothingToBurn)
        );
    }

    #[test]
    fn one_edge_per_test() {
        let mut t = TestEdge::default();
        t.use_once("push the limit").unwrap();
        assert!(t.use_once("close call").is_err());
    }
}
