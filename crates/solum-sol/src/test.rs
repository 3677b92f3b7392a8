//! Rolling a test: hits, glitches, thresholds, opposed tests, Edge on the test, teamwork.

use serde::Serialize;
use solum_dice::{DiceError, DiceSource};

/// The Edge used on one test (one per test, P2); effects that are not about dice (Blitz,
/// Seize the Initiative, Dead Man's Trigger, Not Dead Yet) live in [`crate::edge`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeOnTest {
    /// Spent before rolling: 3 to 6 are hits.
    PushTheLimit,
    /// Spent after rolling: reroll every die that is not a hit.
    SecondChance,
    /// Spent after rolling: a glitch has no effect, a critical glitch becomes a glitch.
    CloseCall,
    /// Burnt: the test succeeds with four net hits, no roll.
    Smackdown,
}

/// A test, ready to roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TestSpec {
    /// Dice rolled (at least 1).
    pub dice: u32,
    /// The threshold; `None` for a roll whose hits are compared later (opposed, assist).
    pub threshold: Option<u32>,
    /// Edge used on this test.
    pub edge: Option<EdgeOnTest>,
}

/// A die rolled again by Second Chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reroll {
    /// 0-based position.
    pub index: usize,
    /// The face before.
    pub from: u32,
    /// The face after.
    pub to: u32,
}

/// Everything a test rolled and what it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestOutcome {
    /// What was rolled.
    pub spec: TestSpec,
    /// The dice as rolled (empty for Smackdown).
    pub dice: Vec<u32>,
    /// Second Chance rerolls.
    pub rerolls: Vec<Reroll>,
    /// Hits after everything.
    pub hits: u32,
    /// Ones among the final dice.
    pub ones: u32,
    /// Half or more of the dice are ones (after Close Call: none).
    pub glitch: bool,
    /// A glitch with no hits (after Close Call: none).
    pub critical_glitch: bool,
    /// Hits reached the threshold (with a threshold).
    pub success: Option<bool>,
    /// Hits over the threshold (with a threshold and a success).
    pub net_hits: Option<u32>,
    /// A success with three or more net hits.
    pub critical_success: bool,
}

/// Whether a face is a hit: 5 and 6, or 3 to 6 when pushing the limit.
pub fn is_hit(face: u32, push_the_limit: bool) -> bool {
    face >= if push_the_limit { 3 } else { 5 }
}

/// A glitch: twice the ones reach the dice rolled (three of six is, three of seven is not).
pub fn is_glitch(ones: u32, dice: u32) -> bool {
    2 * ones >= dice
}

/// Rolls a test. Dice are drawn in order: the pool, then (Second Chance) one die for each die
/// that was not a hit, in the pool's order.
pub fn roll_test(spec: &TestSpec, dice: &mut dyn DiceSource) -> Result<TestOutcome, DiceError> {
    let n = spec.dice.max(1);
    if spec.edge == Some(EdgeOnTest::Smackdown) {
        let t = spec.threshold.unwrap_or(0);
        return Ok(TestOutcome {
            spec: *spec,
            dice: Vec::new(),
            rerolls: Vec::new(),
            hits: t + 4,
            ones: 0,
            glitch: false,
            critical_glitch: false,
            success: spec.threshold.map(|_| true),
            net_hits: spec.threshold.map(|_| 4),
            critical_success: spec.threshold.is_some(),
        });
    }
    let push = spec.edge == Some(EdgeOnTest::PushTheLimit);
    let rolled = dice.roll_many(n as usize, 6)?;
    let mut faces = rolled.clone();
    let mut rerolls = Vec::new();
    if spec.edge == Some(EdgeOnTest::SecondChance) {
        for (index, face) in faces.iter_mut().enumerate() {
            if !is_hit(*face, push) {
                let to = dice.roll(6)?;
                rerolls.push(Reroll {
                    index,
                    from: *face,
                    to,
                });
                *face = to;
            }
        }
    }
    let hits = faces.iter().filter(|&&f| is_hit(f, push)).count() as u32;
    let ones = faces.iter().filter(|&&f| f == 1).count() as u32;
    let mut glitch = is_glitch(ones, n);
    let mut critical_glitch = glitch && hits == 0;
    if spec.edge == Some(EdgeOnTest::CloseCall) {
        // Negates a glitch, or turns a critical glitch into a glitch.
        if critical_glitch {
            critical_glitch = false;
        } else {
            glitch = false;
        }
    }
    let success = spec.threshold.map(|t| hits >= t);
    let net_hits = spec.threshold.filter(|&t| hits >= t).map(|t| hits - t);
    Ok(TestOutcome {
        spec: *spec,
        dice: rolled,
        rerolls,
        hits,
        ones,
        glitch,
        critical_glitch,
        success,
        net_hits,
        critical_success: net_hits.is_some_and(|n| n >= 3),
    })
}

/// An opposed test: the attacker (or instigator) succeeds when its hits reach the
/// defender's (P1).
pub fn attacker_succeeds(attacker_hits: u32, defender_hits: u32) -> bool {
    attacker_hits >= defender_hits
}

/// What a group action gave (P-teamwork): the best hits count for the group, and the leader
/// takes an unresisted Level 1 wound for each participant who rolled no hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupAction {
    /// Position of the best test.
    pub best: usize,
    /// Its hits: the group's result.
    pub hits: u32,
    /// Level 1 wounds the leader takes.
    pub leader_wounds: u32,
}

/// Combines the tests of a group action (the leader's included).
pub fn group_action(tests: &[TestOutcome]) -> Option<GroupAction> {
    let best = (0..tests.len()).max_by_key(|&i| (tests[i].hits, std::cmp::Reverse(i)))?;
    Some(GroupAction {
        best,
        hits: tests[best].hits,
        leader_wounds: tests.iter().filter(|t| t.hits == 0).count() as u32,
    })
}

/// Bonus dice an assist gives: the assistant's hits (the receiver's ranks then cap all of
/// its bonuses together, see [`crate::pool::build`]).
pub fn assist_bonus(assistant: &TestOutcome) -> i64 {
    i64::from(assistant.hits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use solum_dice::ScriptedDice;

    fn roll(
        n: u32,
        threshold: Option<u32>,
        edge: Option<EdgeOnTest>,
        faces: &[u32],
    ) -> TestOutcome {
        let mut d = ScriptedDice::new(faces);
        let out = roll_test(
            &TestSpec {
                dice: n,
                threshold,
                edge,
            },
            &mut d,
        )
        .unwrap();
        assert!(d.is_exhausted());
        out
    }

    #[test]
    fn three_ones_of_six_glitch_three_of_seven_do_not() {
        assert!(is_glitch(3, 6));
        assert!(!is_glitch(3, 7));
        let t = roll(6, Some(1), None, &[1, 1, 1, 5, 2, 3]);
        assert!(t.glitch && !t.critical_glitch && t.success == Some(true));
        let t = roll(7, Some(1), None, &[1, 1, 1, 5, 2, 3, 4]);
        assert!(!t.glitch);
        let t = roll(4, Some(1), None, &[1, 1, 2, 3]);
        assert!(t.glitch && t.critical_glitch && t.success == Some(false));
    }

    #[test]
    fn thresholds_net_hits_and_critical_success() {
        let t = roll(6, Some(2), None, &[5, 6, 6, 5, 5, 1]);
        assert_eq!((t.hits, t.net_hits, t.critical_success), (5, Some(3), true));
        let t = roll(3, Some(2), None, &[5, 4, 4]);
        assert_eq!((t.success, t.net_hits), (Some(false), None));
    }

    #[test]
    fn push_the_limit_counts_threes() {
        let t = roll(4, Some(3), Some(EdgeOnTest::PushTheLimit), &[3, 4, 2, 6]);
        assert_eq!(t.hits, 3);
    }

    #[test]
    fn second_chance_rerolls_the_misses() {
        let t = roll(
            4,
            Some(2),
            Some(EdgeOnTest::SecondChance),
            &[5, 1, 2, 6, 5, 1],
        );
        // The 1 and 2 were rerolled to 5 and 1.
        assert_eq!(t.rerolls.len(), 2);
        assert_eq!((t.hits, t.ones), (3, 1));
    }

    #[test]
    fn close_call_and_smackdown() {
        let t = roll(4, Some(1), Some(EdgeOnTest::CloseCall), &[1, 1, 2, 3]);
        assert!(
            t.glitch && !t.critical_glitch,
            "a critical glitch becomes a glitch"
        );
        let t = roll(4, Some(1), Some(EdgeOnTest::CloseCall), &[1, 1, 5, 3]);
        assert!(!t.glitch, "a glitch is negated");
        let t = roll(2, Some(5), Some(EdgeOnTest::Smackdown), &[]);
        assert_eq!((t.success, t.net_hits, t.hits), (Some(true), Some(4), 9));
    }

    #[test]
    fn opposed_ties_go_to_the_attacker() {
        assert!(attacker_succeeds(2, 2));
        assert!(!attacker_succeeds(1, 2));
    }

    #[test]
    fn group_action_wounds_the_leader() {
        let tests = [
            roll(3, None, None, &[5, 5, 1]),
            roll(3, None, None, &[1, 2, 3]),
            roll(2, None, None, &[4, 4]),
            roll(4, None, None, &[6, 5, 5, 2]),
        ];
        let g = group_action(&tests).unwrap();
        assert_eq!((g.best, g.hits, g.leader_wounds), (3, 3, 2));
        assert_eq!(assist_bonus(&tests[0]), 2);
    }
}
