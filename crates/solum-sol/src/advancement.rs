//! Skills grow through progress points and training (P3).

use serde::{Deserialize, Serialize};

/// Progress points that raise a rank.
pub const POINTS_PER_RANK: u32 = 5;

/// A skill's ranks and progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::Skill))]
pub struct Skill {
    /// The skill's name.
    pub name: String,
    /// Ranks.
    pub ranks: u32,
    /// Progress points toward the next rank.
    pub progress: u32,
    /// A progress point was already earned in the current encounter.
    #[serde(default)]
    pub earned_this_encounter: bool,
}

/// What a test did for a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::Progress))]
pub struct Progress {
    /// A progress point was earned.
    pub point: bool,
    /// The rank went up.
    pub rank_up: bool,
}

impl Skill {
    /// A skill with ranks and no progress.
    pub fn new(name: &str, ranks: u32) -> Self {
        Self {
            name: name.to_owned(),
            ranks,
            progress: 0,
            earned_this_encounter: false,
        }
    }

    /// Records a test of this skill: more hits than the ranks (than 1 with no ranks) earns
    /// a progress point, one per encounter; five points raise the rank and clear the points.
    pub fn record(&mut self, hits: u32) -> Progress {
        if self.earned_this_encounter || hits <= self.ranks.max(1) {
            return Progress {
                point: false,
                rank_up: false,
            };
        }
        self.earned_this_encounter = true;
        self.progress += 1;
        let rank_up = self.progress >= POINTS_PER_RANK;
        if rank_up {
            self.ranks += 1;
            self.progress = 0;
        }
        Progress {
            point: true,
            rank_up,
        }
    }

    /// Records a rolled test of this skill. Smackdown rolls no dice and earns no point (P2).
    pub fn record_test(&mut self, test: &crate::test::TestOutcome) -> Progress {
        if test.spec.edge == Some(crate::test::EdgeOnTest::Smackdown) {
            return Progress {
                point: false,
                rank_up: false,
            };
        }
        self.record(test.hits)
    }

    /// A new encounter: a point may be earned again.
    pub fn new_encounter(&mut self) {
        self.earned_this_encounter = false;
    }

    /// The cost rating of training the next rank: the new rank × 2 (in `u64`, so that it
    /// holds for every rank a sheet can hold).
    pub fn training_cost(&self) -> u64 {
        (u64::from(self.ranks) + 1) * 2
    }

    /// Trains the next rank (one per session; the caller keeps the session count), clearing
    /// unused progress points. Returns the cost rating paid, or `None` (and changes
    /// nothing) at the highest rank a sheet can hold, `u32::MAX`.
    pub fn train(&mut self) -> Option<u64> {
        let cost = self.training_cost();
        self.ranks = self.ranks.checked_add(1)?;
        self.progress = 0;
        Some(cost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malcolms_etiquette() {
        let mut etiquette = Skill::new("Etiquette", 4);
        // Four hits are not more than 4 ranks.
        assert!(!etiquette.record(4).point);
        for encounter in 1..=5 {
            let p = etiquette.record(5);
            assert!(p.point);
            // The same encounter earns no second point.
            assert!(!etiquette.record(6).point);
            etiquette.new_encounter();
            assert_eq!(p.rank_up, encounter == 5);
        }
        assert_eq!((etiquette.ranks, etiquette.progress), (5, 0));
    }

    #[test]
    fn smackdown_earns_no_progress() {
        use crate::test::{EdgeOnTest, TestSpec, roll_test};
        let mut s = Skill::new("Sidearms", 1);
        let spec = TestSpec {
            dice: 3,
            threshold: Some(2),
            edge: Some(EdgeOnTest::Smackdown),
        };
        let t = roll_test(&spec, &mut solum_dice::ScriptedDice::new([])).unwrap();
        // Six hits would be more than 1 rank, but no dice were rolled.
        assert_eq!(t.hits, 6);
        assert!(!s.record_test(&t).point);
        assert_eq!(s.progress, 0);
        let rolled = TestSpec { edge: None, ..spec };
        let t = roll_test(&rolled, &mut solum_dice::ScriptedDice::new([5, 6, 1])).unwrap();
        assert!(s.record_test(&t).point);
    }

    #[test]
    fn no_ranks_needs_two_hits() {
        let mut s = Skill::new("Longarms", 0);
        assert!(!s.record(1).point);
        assert!(s.record(2).point);
    }

    #[test]
    fn kyra_trains_sidearms() {
        let mut sidearms = Skill::new("Sidearms", 2);
        sidearms.progress = 3;
        assert_eq!(sidearms.training_cost(), 6);
        assert_eq!(sidearms.train(), Some(6));
        assert_eq!((sidearms.ranks, sidearms.progress), (3, 0));
    }
}
