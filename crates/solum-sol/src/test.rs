//! Rolling a test: hits, glitches, thresholds, opposed tests, Edge on the test, teamwork.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use thiserror::Error;

use crate::pool::{Pool, PoolError, PoolSpec};

/// A test the rules cannot roll.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TestError {
    /// The dice could not be rolled (typed values ran out or were wrong).
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// The pool could not be built.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// Both sides of an opposed test burnt Edge for Smackdown.
    #[error("only one side of an opposed test can burn Edge for Smackdown")]
    BothSmackdown,
    /// Try Again needs a threshold: only a failed test is tried again.
    #[error("try again needs a threshold: only a failed test is tried again")]
    NoThreshold,
}

/// The Edge used on one test (one per test, P2); effects that are not about dice (Blitz,
/// Seize the Initiative, Dead Man's Trigger, Not Dead Yet) live in [`crate::edge`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::EdgeOnTest))]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::TestSpec))]
pub struct TestSpec {
    /// Dice rolled (at least 1).
    pub dice: u32,
    /// The threshold; `None` for a roll whose hits are compared later (opposed, assist).
    pub threshold: Option<u32>,
    /// Edge used on this test.
    pub edge: Option<EdgeOnTest>,
}

/// A die rolled again by Second Chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::Reroll))]
pub struct Reroll {
    /// 0-based position.
    pub index: usize,
    /// The face before.
    pub from: u32,
    /// The face after.
    pub to: u32,
}

/// Everything a test rolled and what it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::TestOutcome))]
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
    let rolled = roll_pool(spec, dice)?;
    resolve(spec, rolled, dice)
}

/// Rolls the pool of a test and nothing more (no dice for Smackdown): the faces a player
/// sees before choosing Second Chance or Close Call. [`resolve`] finishes the test.
pub fn roll_pool(spec: &TestSpec, dice: &mut dyn DiceSource) -> Result<Vec<u32>, DiceError> {
    if spec.edge == Some(EdgeOnTest::Smackdown) {
        return Ok(Vec::new());
    }
    dice.roll_many(spec.dice.max(1) as usize, 6)
}

/// Finishes a test whose pool was rolled: the Edge in `spec` (perhaps chosen after seeing
/// `rolled`) takes effect, Second Chance drawing one die for each die that was not a hit.
pub fn resolve(
    spec: &TestSpec,
    rolled: Vec<u32>,
    dice: &mut dyn DiceSource,
) -> Result<TestOutcome, DiceError> {
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
    let success = spec.threshold.map(|t| hits >= t);
    let glitch = is_glitch(ones, n);
    // A critical glitch only on a failed test (P1): a threshold of 0 cannot fail.
    let critical_glitch = glitch && hits == 0 && success != Some(true);
    let (glitch, critical_glitch) = close_call(spec.edge, glitch, critical_glitch);
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

/// Rolls a test whose Second Chance or Close Call the player chooses after seeing the dice:
/// `choose` sees the test as rolled, without Edge. The choice takes effect (and its point is
/// spent) only where it can change something: Second Chance when a die is not a hit, Close
/// Call on a glitch; otherwise the test stands as rolled. A test that already uses Edge
/// (`spec.edge`) offers no choice: one Edge per test.
pub fn roll_test_then(
    spec: &TestSpec,
    dice: &mut dyn DiceSource,
    choose: &mut dyn FnMut(&TestOutcome) -> Option<EdgeOnTest>,
) -> Result<TestOutcome, DiceError> {
    if spec.edge.is_some() {
        return roll_test(spec, dice);
    }
    let seen = roll_pool(spec, dice)?;
    let plain = resolve(spec, seen.clone(), dice)?;
    let choice = choose(&plain);
    let helps = match choice {
        Some(EdgeOnTest::SecondChance) => plain.hits < plain.dice.len() as u32,
        Some(EdgeOnTest::CloseCall) => plain.glitch,
        _ => false,
    };
    if !helps {
        return Ok(plain);
    }
    let chosen = TestSpec {
        edge: choice,
        ..*spec
    };
    resolve(&chosen, seen, dice)
}

/// Close Call negates a glitch, or turns a critical glitch into a glitch.
fn close_call(edge: Option<EdgeOnTest>, glitch: bool, critical: bool) -> (bool, bool) {
    if edge != Some(EdgeOnTest::CloseCall) {
        (glitch, critical)
    } else if critical {
        (true, false)
    } else {
        (false, false)
    }
}

/// An opposed test: the attacker (or instigator) succeeds when its hits reach the
/// defender's (P1).
pub fn attacker_succeeds(attacker_hits: u32, defender_hits: u32) -> bool {
    attacker_hits >= defender_hits
}

/// An opposed test (P1): both sides roll, the attacker succeeds when its hits reach the
/// defender's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = sol::OpposedOutcome))]
pub struct OpposedOutcome {
    /// The attacker's (or instigator's) test; `success` is whether it succeeded.
    pub attacker: TestOutcome,
    /// The defender's test; `success` is whether it held.
    pub defender: TestOutcome,
    /// The attacker succeeded.
    pub success: bool,
    /// The winner's net hits: its hits over the loser's (4 for Smackdown).
    pub net_hits: u32,
    /// The winner has three or more net hits.
    pub critical_success: bool,
}

/// Rolls an opposed test. Each side's `threshold` is ignored; its Edge applies to its own
/// dice. The attacker's dice (pool, then Second Chance) are drawn from `attacker_dice`, the
/// defender's from `defender_dice`. Smackdown makes its side roll nothing and win with four
/// net hits over the other's hits; only one side may burn it. A critical glitch needs a
/// failed test: only the losing side can have one.
pub fn roll_opposed(
    attacker: &TestSpec,
    defender: &TestSpec,
    attacker_dice: &mut dyn DiceSource,
    defender_dice: &mut dyn DiceSource,
) -> Result<OpposedOutcome, TestError> {
    let smackdown = |s: &TestSpec| s.edge == Some(EdgeOnTest::Smackdown);
    if smackdown(attacker) && smackdown(defender) {
        return Err(TestError::BothSmackdown);
    }
    let open = |s: &TestSpec| TestSpec {
        threshold: None,
        ..*s
    };
    let mut a = roll_test(&open(attacker), attacker_dice)?;
    let mut d = roll_test(&open(defender), defender_dice)?;
    if smackdown(attacker) {
        a.hits = d.hits + 4;
    }
    if smackdown(defender) {
        d.hits = a.hits + 4;
    }
    let success = attacker_succeeds(a.hits, d.hits);
    let net_hits = a.hits.abs_diff(d.hits);
    for (side, won) in [(&mut a, success), (&mut d, !success)] {
        side.success = Some(won);
        side.net_hits = won.then_some(net_hits);
        side.critical_success = won && net_hits >= 3;
        let n = side.spec.dice.max(1);
        let glitch = !side.dice.is_empty() && is_glitch(side.ones, n);
        side.glitch = glitch;
        side.critical_glitch = glitch && side.hits == 0 && !won;
        (side.glitch, side.critical_glitch) =
            close_call(side.spec.edge, side.glitch, side.critical_glitch);
    }
    Ok(OpposedOutcome {
        attacker: a,
        defender: d,
        success,
        net_hits,
        critical_success: net_hits >= 3,
    })
}

/// An assist that was rolled: the assistant's own test, and the receiver's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assisted {
    /// The assistant's test; its hits are the bonus dice offered.
    pub assistant: TestOutcome,
    /// The receiver's pool, the assistant's hits counted with its other bonuses and capped
    /// by its ranks.
    pub pool: Pool,
    /// The receiver's test.
    pub test: TestOutcome,
}

/// An assist (Teamwork): the assistant makes its own test (`assistant`, its threshold
/// ignored), then the receiver rolls with the assistant's hits as bonus dice, capped with its
/// other bonuses by its ranks. Dice: the assistant's test, then the receiver's (whose Edge
/// may be chosen after its dice are seen, see [`roll_test_then`]).
pub fn roll_assisted(
    assistant: &TestSpec,
    receiver: &PoolSpec,
    threshold: Option<u32>,
    edge: Option<EdgeOnTest>,
    dice: &mut dyn DiceSource,
    choose: &mut dyn FnMut(&TestOutcome) -> Option<EdgeOnTest>,
) -> Result<Assisted, TestError> {
    let helper = roll_test(
        &TestSpec {
            threshold: None,
            ..*assistant
        },
        dice,
    )?;
    let mut with_help = receiver.clone();
    with_help.modifiers.push(assist_bonus(&helper));
    let pool = with_help.build()?;
    let test = roll_test_then(
        &TestSpec {
            dice: pool.dice,
            threshold,
            edge,
        },
        dice,
        choose,
    )?;
    Ok(Assisted {
        assistant: helper,
        pool,
        test,
    })
}

/// One attempt of a test tried again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The pool, with the try-again penalty of this attempt.
    pub pool: Pool,
    /// The test.
    pub test: TestOutcome,
}

/// Try Again: rolls the test, and while it fails tries it again with a further penalty of 2
/// dice (combined with the other modifiers) until it succeeds or the pool would drop to 0.
/// `pool.retry` is the first attempt's number (0 for a first try). Dice: each attempt's pool
/// in turn.
pub fn try_again(
    pool: &PoolSpec,
    threshold: Option<u32>,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Attempt>, TestError> {
    let threshold = threshold.ok_or(TestError::NoThreshold)?;
    let mut attempts: Vec<Attempt> = Vec::new();
    let mut spec = pool.clone();
    loop {
        let built = match spec.build() {
            Ok(p) => p,
            // The first attempt's refusal is an error; a later one ends the tries.
            Err(PoolError::NoMoreTries { .. }) if !attempts.is_empty() => break,
            Err(e) => return Err(e.into()),
        };
        let test = roll_test(
            &TestSpec {
                dice: built.dice,
                threshold: Some(threshold),
                edge: None,
            },
            dice,
        )?;
        let success = test.success == Some(true);
        attempts.push(Attempt { pool: built, test });
        if success {
            break;
        }
        spec.retry += 1;
    }
    Ok(attempts)
}

/// What a group action gave (P-teamwork): the best hits count for the group, and the leader
/// takes an unresisted Level 1 wound for each participant who rolled no hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupAction {
    /// Position of the best test.
    pub best: usize,
    /// Its hits: the group's result.
    pub hits: u32,
    /// Level 1 wounds the leader takes.
    pub leader_wounds: u32,
}

/// The most participants in a group action, the leader included: a group is a handful of
/// characters; more is a typing mistake, refused rather than rolled and printed.
pub const MAX_GROUP: usize = 100;

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
    fn a_critical_glitch_only_on_a_failed_test() {
        // Threshold 0 cannot fail: half ones and no hits is only a glitch.
        let t = roll(4, Some(0), None, &[1, 1, 2, 3]);
        assert_eq!(t.success, Some(true));
        assert!(t.glitch && !t.critical_glitch);
        // The same dice against 1 fail: a critical glitch.
        let t = roll(4, Some(1), None, &[1, 1, 2, 3]);
        assert!(t.critical_glitch);
        // Close Call on the threshold-0 glitch negates it.
        let t = roll(4, Some(0), Some(EdgeOnTest::CloseCall), &[1, 1, 2, 3]);
        assert!(!t.glitch && !t.critical_glitch);
    }

    #[test]
    fn edge_chosen_after_the_dice_are_seen() {
        let spec = TestSpec {
            dice: 4,
            threshold: Some(2),
            edge: None,
        };
        let mut d = ScriptedDice::new([5, 1, 2, 6, 5, 1]);
        let seen = roll_pool(&spec, &mut d).unwrap();
        assert_eq!(seen, [5, 1, 2, 6]);
        // Two hits of two: the player still takes a Second Chance on the 1 and the 2.
        let chosen = TestSpec {
            edge: Some(EdgeOnTest::SecondChance),
            ..spec
        };
        let t = resolve(&chosen, seen, &mut d).unwrap();
        assert!(d.is_exhausted());
        assert_eq!((t.hits, t.net_hits, t.rerolls.len()), (3, Some(1), 2));
        assert_eq!(t, roll(4, Some(2), chosen.edge, &[5, 1, 2, 6, 5, 1]));
        // The same through roll_test_then: the choice sees 2 hits and no Edge.
        let mut d = ScriptedDice::new([5, 1, 2, 6, 5, 1]);
        let then = roll_test_then(&spec, &mut d, &mut |seen| {
            assert_eq!((seen.hits, seen.spec.edge), (2, None));
            Some(EdgeOnTest::SecondChance)
        })
        .unwrap();
        assert!(d.is_exhausted());
        assert_eq!(then, t);
    }

    #[test]
    fn an_edge_chosen_after_is_spent_only_where_it_helps() {
        let spec = TestSpec {
            dice: 3,
            threshold: Some(1),
            edge: None,
        };
        let pick = |e| move |_: &TestOutcome| Some(e);
        // Every die a hit: nothing to reroll, no die drawn, no Edge on the test.
        let mut d = ScriptedDice::new([5, 6, 6]);
        let t = roll_test_then(&spec, &mut d, &mut pick(EdgeOnTest::SecondChance)).unwrap();
        assert!(d.is_exhausted());
        assert_eq!((t.spec.edge, t.hits), (None, 3));
        // No glitch: Close Call is not used.
        let mut d = ScriptedDice::new([1, 2, 3]);
        let t = roll_test_then(&spec, &mut d, &mut pick(EdgeOnTest::CloseCall)).unwrap();
        assert_eq!(t.spec.edge, None);
        // A critical glitch: Close Call makes it a glitch.
        let mut d = ScriptedDice::new([1, 1, 3]);
        let t = roll_test_then(&spec, &mut d, &mut pick(EdgeOnTest::CloseCall)).unwrap();
        assert_eq!(t.spec.edge, Some(EdgeOnTest::CloseCall));
        assert!(t.glitch && !t.critical_glitch);
        // A test that already pushed the limit offers no choice.
        let pushed = TestSpec {
            edge: Some(EdgeOnTest::PushTheLimit),
            ..spec
        };
        let mut d = ScriptedDice::new([1, 1, 2]);
        let t = roll_test_then(&pushed, &mut d, &mut |_| panic!("no choice")).unwrap();
        assert!(t.critical_glitch);
    }

    fn opposed(
        a: (u32, Option<EdgeOnTest>, &[u32]),
        d: (u32, Option<EdgeOnTest>, &[u32]),
    ) -> OpposedOutcome {
        let spec = |(dice, edge, _): (u32, Option<EdgeOnTest>, &[u32])| TestSpec {
            dice,
            threshold: None,
            edge,
        };
        let (mut da, mut dd) = (ScriptedDice::new(a.2), ScriptedDice::new(d.2));
        let o = roll_opposed(&spec(a), &spec(d), &mut da, &mut dd).unwrap();
        assert!(da.is_exhausted() && dd.is_exhausted());
        o
    }

    #[test]
    fn opposed_tests_net_hits_and_criticals() {
        // Sidearms + AGI vs REA + INT: 2 hits against 1.
        let o = opposed((3, None, &[5, 6, 1]), (2, None, &[5, 2]));
        assert!(o.success && o.net_hits == 1 && !o.critical_success);
        assert_eq!(o.defender.success, Some(false));
        // Ties go to the attacker, even at 0 hits: the attacker's glitch is then not
        // critical, the defender's is (it failed).
        let o = opposed((2, None, &[1, 2]), (2, None, &[1, 3]));
        assert!(o.success && o.net_hits == 0);
        assert!(o.attacker.glitch && !o.attacker.critical_glitch);
        assert!(o.defender.critical_glitch);
        // The attacker with no hits fails against one: a critical glitch.
        let o = opposed((3, None, &[1, 1, 2]), (1, None, &[5]));
        assert!(!o.success && o.attacker.critical_glitch);
        // Four hits against one: three net hits, a critical success.
        let o = opposed((4, None, &[5, 5, 5, 6]), (1, None, &[6]));
        assert!(o.success && o.net_hits == 3 && o.critical_success);
        assert!(o.attacker.critical_success && !o.defender.critical_success);
        // The defender wins by 3: its critical success.
        let o = opposed((1, None, &[2]), (3, None, &[5, 6, 5]));
        assert!(!o.success && o.defender.critical_success && o.net_hits == 3);
    }

    #[test]
    fn opposed_edge_on_either_side() {
        // The defender pushes the limit: 3 and 4 are hits, 3 hits beat the attacker's 2.
        let o = opposed(
            (3, None, &[5, 6, 2]),
            (3, Some(EdgeOnTest::PushTheLimit), &[3, 4, 5]),
        );
        assert!(!o.success && o.net_hits == 1);
        // The attacker's Second Chance rerolls its misses, after its own pool.
        let o = opposed(
            (2, Some(EdgeOnTest::SecondChance), &[1, 2, 5, 6]),
            (2, None, &[5, 6]),
        );
        assert!(o.success && o.attacker.hits == 2);
        // The attacker's Close Call turns its critical glitch into a glitch.
        let o = opposed((2, Some(EdgeOnTest::CloseCall), &[1, 1]), (1, None, &[5]));
        assert!(o.attacker.glitch && !o.attacker.critical_glitch);
        // Smackdown: no dice for that side, four net hits over the other's.
        let o = opposed((2, Some(EdgeOnTest::Smackdown), &[]), (3, None, &[5, 5, 1]));
        assert!(o.success && o.net_hits == 4 && o.critical_success);
        assert_eq!(o.attacker.hits, 6);
        let o = opposed((3, None, &[6, 6, 6]), (1, Some(EdgeOnTest::Smackdown), &[]));
        assert!(!o.success && o.defender.net_hits == Some(4));
        let s = TestSpec {
            dice: 1,
            threshold: None,
            edge: Some(EdgeOnTest::Smackdown),
        };
        let mut d = ScriptedDice::new([]);
        let mut e = ScriptedDice::new([]);
        assert_eq!(
            roll_opposed(&s, &s, &mut d, &mut e),
            Err(TestError::BothSmackdown)
        );
    }

    #[test]
    fn an_assistant_rolls_its_own_test() {
        let assistant = TestSpec {
            dice: 4,
            threshold: None,
            edge: None,
        };
        let receiver = PoolSpec {
            attribute: 3,
            ranks: 2,
            modifiers: vec![],
            untrained_penalty: false,
            retry: 0,
        };
        // Three hits offered, capped by the receiver's 2 ranks: 3 + 2 + 2 = 7 dice.
        let mut d = ScriptedDice::new([5, 6, 5, 1, 5, 5, 1, 2, 3, 4, 4]);
        let a = roll_assisted(&assistant, &receiver, Some(2), None, &mut d, &mut |_| None).unwrap();
        assert!(d.is_exhausted());
        assert_eq!((a.assistant.hits, a.pool.applied, a.pool.dice), (3, 2, 7));
        assert_eq!((a.test.hits, a.test.success), (2, Some(true)));
        // At 0 ranks the assistant's hits give no dice at all (P4).
        let defaulting = PoolSpec {
            ranks: 0,
            ..receiver
        };
        let mut d = ScriptedDice::new([5, 6, 1, 1, 5, 2, 2]);
        let a = roll_assisted(&assistant, &defaulting, Some(1), None, &mut d, &mut |_| {
            None
        })
        .unwrap();
        assert!(d.is_exhausted());
        assert_eq!((a.assistant.hits, a.pool.dice), (2, 3));
    }

    #[test]
    fn try_again_until_success_or_no_dice() {
        let pool = PoolSpec {
            attribute: 3,
            ranks: 2,
            ..PoolSpec::default()
        };
        // 5 dice fail (one hit of 2), 3 dice succeed: two attempts.
        let mut d = ScriptedDice::new([1, 2, 3, 4, 5, 5, 6, 1]);
        let tries = try_again(&pool, Some(2), &mut d).unwrap();
        assert!(d.is_exhausted());
        let pools: Vec<u32> = tries.iter().map(|t| t.pool.dice).collect();
        assert_eq!(pools, [5, 3]);
        assert_eq!(tries[1].test.success, Some(true));
        // Never a success: 5, 3 and 1 dice, then the pool would drop below 1.
        let mut d = ScriptedDice::new([1, 2, 3, 4, 2, 2, 2, 2, 4]);
        let tries = try_again(&pool, Some(1), &mut d).unwrap();
        assert!(d.is_exhausted());
        assert_eq!(tries.len(), 3);
        assert!(tries.iter().all(|t| t.test.success == Some(false)));
        // A retry number past the last try is refused; no threshold, no retry.
        let late = PoolSpec {
            retry: 3,
            ..pool.clone()
        };
        assert!(matches!(
            try_again(&late, Some(1), &mut ScriptedDice::new([])),
            Err(TestError::Pool(PoolError::NoMoreTries { .. }))
        ));
        assert_eq!(
            try_again(&pool, None, &mut ScriptedDice::new([])),
            Err(TestError::NoThreshold)
        );
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
