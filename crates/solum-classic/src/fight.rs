//! The one state machine of a fight in the original So1um (C2, C3): `solum classic fight`,
//! the duel simulation and the tests of the exact duel odds all drive it.
//!
//! A hero fights one or several opponents. "Resolve combat just like contests with each
//! opponent making a single attack": on its turn, each living opponent makes one attack,
//! an exchange in which the hero and that opponent each roll the dice of their applicable
//! stat (one more for a cliché). The high roll takes one hit point from the other, a tie
//! does nothing. The one hit may give up a point of Body instead: that choice is a pending
//! [`Decision`] the fight waits for ([`Command::Take`]) unless the fighter follows a fixed
//! [`Policy`]. When every opponent has had its turn, a new round begins.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource};
use thiserror::Error;

use crate::duel::{
    Exchange, ExchangeOdds, MAX_DUEL_STAT, Policy, Side, duel_chance, exchange_odds, roll_exchange,
};
use crate::hero::{Hero, Stat};

/// One fighter: a name, the [`Side`] (Body, hit points, applicable stat, cliché, policy),
/// and whether its player is asked how it takes each hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fighter {
    /// Name.
    pub name: String,
    /// Body, hit points and the dice it rolls.
    pub side: Side,
    /// The player chooses at each hit (a pending decision) instead of the policy.
    pub asks: bool,
}

impl Fighter {
    /// A fighter from a hero or monster entry (C3): the stat named, else the entry's own
    /// `combat_stat`, else Body.
    pub fn from_hero(
        hero: &Hero,
        stat: Option<Stat>,
        cliche: bool,
        policy: Policy,
        asks: bool,
    ) -> Self {
        let stat = stat.or(hero.combat_stat).unwrap_or(Stat::Body);
        Self {
            name: hero.name.clone(),
            side: Side {
                body: hero.body,
                hit_points: hero.hit_points,
                cliche,
                policy,
                stat: (stat != Stat::Body).then(|| hero.stat(stat)),
            },
            asks,
        }
    }

    /// Dead: Body or hit points at 0.
    pub fn is_dead(&self) -> bool {
        self.side.body == 0 || self.side.hit_points == 0
    }
}

/// Who is meant: the hero, or an opponent by its place in the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Who))]
pub enum Who {
    /// The hero.
    Hero,
    /// The opponent at this index.
    Foe(usize),
}

/// What a hit costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Loss))]
pub enum Loss {
    /// A hit point.
    HitPoint,
    /// A point of Body (C2: "you may reduce the Body score instead of HP").
    Body,
}

/// How a player says a hit is taken: `body` (or `b`), or `hp` (`h`, `hit-point`,
/// `hit-points`, `hit point`), any case.
impl std::str::FromStr for Loss {
    type Err = solum_dice::UnknownWord;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "body" | "b" => Ok(Self::Body),
            "hp" | "h" | "hit-point" | "hit-points" | "hit point" => Ok(Self::HitPoint),
            other => Err(solum_dice::UnknownWord::new(
                other,
                "a way to take a hit",
                "body or hp",
            )),
        }
    }
}

/// A choice the fight waits for: how `who` takes the hit just won against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Decision))]
pub struct Decision {
    /// Who was hit.
    pub who: Who,
    /// Its Body now.
    pub body: u32,
    /// Its hit points now.
    pub hit_points: u32,
}

/// What a player (or a driver) tells the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// The next opponent makes its attack: both sides roll.
    Exchange,
    /// The answer to the pending decision.
    Take(Loss),
    /// The hero breaks off and flees: the fight ends where it stands, nobody takes further
    /// damage, the foes live on. Refused while a hit waits for its answer (the blow has
    /// landed: answer it first).
    Abandon,
}

/// What happened, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::Event))]
pub enum Event {
    /// An opponent's attack: the hero's dice, then the opponent's; who won (none on a tie).
    Exchange {
        /// The round, from 1.
        round: u32,
        /// The opponent attacking.
        foe: usize,
        /// The dice.
        roll: Exchange,
        /// The winner, none on a tie.
        winner: Option<Who>,
    },
    /// The fight waits for this choice.
    Decide(Decision),
    /// A hit taken.
    Hit {
        /// Who.
        who: Who,
        /// What it cost.
        loss: Loss,
        /// Body left.
        body: u32,
        /// Hit points left.
        hit_points: u32,
    },
    /// Body or hit points reached 0.
    Death {
        /// Who.
        who: Who,
    },
    /// The fight is over.
    End {
        /// The hero lives and every opponent is dead.
        hero_won: bool,
    },
    /// The hero fled: the fight ended before anyone died.
    Abandoned,
}

/// A command the fight cannot take.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FightError {
    /// The dice failed (typed values ran out or were wrong).
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// A decision is pending: answer it first.
    #[error("a hit waits for its answer: a hit point or Body")]
    Pending,
    /// Nothing to answer.
    #[error("no hit waits for an answer")]
    NoDecision,
    /// The fight is over.
    #[error("the fight is over")]
    Over,
    /// No opponent was given.
    #[error("a fight needs at least one opponent")]
    NoFoes,
    /// A fighter is dead before the fight.
    #[error("{0} is dead: the dead do not fight")]
    Dead(String),
    /// More opponents than a fight takes.
    #[error("{0} opponents: a fight takes 1 to {MAX_FOES}")]
    TooManyFoes(usize),
    /// A fighter's number past its limit.
    #[error("{0}: {1} {2} is more than {MAX_DUEL_STAT}")]
    Range(String, &'static str, u32),
}

/// The most opponents one fight takes.
pub const MAX_FOES: usize = 100;

/// A fight of a hero against one or several opponents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassicFight {
    hero: Fighter,
    foes: Vec<Fighter>,
    /// The opponent whose turn it is.
    turn: usize,
    round: u32,
    pending: Option<Decision>,
    /// The hero fled ([`Command::Abandon`]).
    abandoned: bool,
}

/// The exact chances of the next exchange, and of the fight from where it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = classic::NextExchange))]
pub struct NextExchange {
    /// The opponent whose attack comes next.
    pub foe: usize,
    /// The hero's dice and that opponent's.
    #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
    pub dice: [u32; 2],
    /// The hero wins it, it ties, the opponent wins it.
    pub odds: ExchangeOdds,
    /// The hero's chance to win the fight from here: a duel (one opponent left) only.
    pub p_win_fight: Option<f64>,
}

impl ClassicFight {
    /// A fight; everyone must be alive, and there must be an opponent.
    pub fn new(hero: Fighter, foes: Vec<Fighter>) -> Result<Self, FightError> {
        if foes.is_empty() {
            return Err(FightError::NoFoes);
        }
        if foes.len() > MAX_FOES {
            return Err(FightError::TooManyFoes(foes.len()));
        }
        // The duel's limits hold in a fight too: no pool past them is rolled.
        for f in std::iter::once(&hero).chain(&foes) {
            for (what, v) in [
                ("body", f.side.body),
                ("hit points", f.side.hit_points),
                ("stat", f.side.stat.unwrap_or(0)),
            ] {
                if v > MAX_DUEL_STAT {
                    return Err(FightError::Range(f.name.clone(), what, v));
                }
            }
        }
        if let Some(dead) = std::iter::once(&hero).chain(&foes).find(|f| f.is_dead()) {
            return Err(FightError::Dead(dead.name.clone()));
        }
        Ok(Self {
            hero,
            foes,
            turn: 0,
            round: 1,
            pending: None,
            abandoned: false,
        })
    }

    /// The hero.
    pub fn hero(&self) -> &Fighter {
        &self.hero
    }

    /// The opponents, in turn order.
    pub fn foes(&self) -> &[Fighter] {
        &self.foes
    }

    /// A fighter.
    pub fn fighter(&self, who: Who) -> &Fighter {
        match who {
            Who::Hero => &self.hero,
            Who::Foe(i) => &self.foes[i],
        }
    }

    fn fighter_mut(&mut self, who: Who) -> &mut Fighter {
        match who {
            Who::Hero => &mut self.hero,
            Who::Foe(i) => &mut self.foes[i],
        }
    }

    /// The decision the fight waits for, if any.
    pub fn pending(&self) -> Option<Decision> {
        self.pending
    }

    /// The opponent whose attack comes next.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The current round, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Over: the hero is dead, or every opponent is, or the hero fled.
    pub fn is_over(&self) -> bool {
        self.abandoned || self.hero.is_dead() || self.foes.iter().all(Fighter::is_dead)
    }

    /// The hero fled ([`Command::Abandon`]).
    pub fn is_abandoned(&self) -> bool {
        self.abandoned
    }

    /// The exact odds of the exchange that comes next; `None` when the fight is over or a
    /// hit waits for its answer.
    pub fn next_exchange(&self) -> Option<NextExchange> {
        if self.is_over() || self.pending.is_some() {
            return None;
        }
        let foe = &self.foes[self.turn];
        let dice = [self.hero.side.dice(), foe.side.dice()];
        let alive: Vec<&Fighter> = self.foes.iter().filter(|f| !f.is_dead()).collect();
        let p_win_fight = match alive.as_slice() {
            [one] => duel_chance(self.hero.side, one.side).ok().map(|o| o.p),
            _ => None,
        };
        Some(NextExchange {
            foe: self.turn,
            dice,
            odds: exchange_odds(dice[0], dice[1]),
            p_win_fight,
        })
    }

    /// The hero won: alive, with every opponent dead.
    pub fn hero_won(&self) -> bool {
        !self.hero.is_dead() && self.foes.iter().all(Fighter::is_dead)
    }

    /// Applies a command. All dice of an exchange are rolled (the hero's, then the
    /// opponent's) before anything changes, so a dice error leaves the fight as it was.
    pub fn apply(
        &mut self,
        command: Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, FightError> {
        if self.is_over() {
            return Err(FightError::Over);
        }
        let mut events = Vec::new();
        match command {
            Command::Exchange => {
                if self.pending.is_some() {
                    return Err(FightError::Pending);
                }
                let foe = self.turn;
                let roll = roll_exchange(self.hero.side.dice(), self.foes[foe].side.dice(), dice)?;
                let winner = match roll.winner {
                    1 => Some(Who::Hero),
                    -1 => Some(Who::Foe(foe)),
                    _ => None,
                };
                events.push(Event::Exchange {
                    round: self.round,
                    foe,
                    roll,
                    winner,
                });
                match winner {
                    Some(Who::Hero) => self.hit(Who::Foe(foe), &mut events),
                    Some(Who::Foe(_)) => self.hit(Who::Hero, &mut events),
                    None => self.next_turn(&mut events),
                }
            }
            Command::Take(loss) => {
                let decision = self.pending.take().ok_or(FightError::NoDecision)?;
                self.take(decision.who, loss, &mut events);
            }
            Command::Abandon => {
                if self.pending.is_some() {
                    return Err(FightError::Pending);
                }
                self.abandoned = true;
                events.push(Event::Abandoned);
            }
        }
        Ok(events)
    }

    /// A won exchange against `who`: asked, or settled by its policy.
    fn hit(&mut self, who: Who, events: &mut Vec<Event>) {
        let f = self.fighter(who);
        let (body, hit_points) = (f.side.body, f.side.hit_points);
        if f.asks {
            let decision = Decision {
                who,
                body,
                hit_points,
            };
            self.pending = Some(decision);
            events.push(Event::Decide(decision));
            return;
        }
        let loss = if f.side.policy.loses_body(body, hit_points) {
            Loss::Body
        } else {
            Loss::HitPoint
        };
        self.take(who, loss, events);
    }

    fn take(&mut self, who: Who, loss: Loss, events: &mut Vec<Event>) {
        let f = self.fighter_mut(who);
        match loss {
            Loss::Body => f.side.body = f.side.body.saturating_sub(1),
            Loss::HitPoint => f.side.hit_points = f.side.hit_points.saturating_sub(1),
        }
        let (body, hit_points, dead) = (f.side.body, f.side.hit_points, f.is_dead());
        events.push(Event::Hit {
            who,
            loss,
            body,
            hit_points,
        });
        if dead {
            events.push(Event::Death { who });
        }
        self.next_turn(events);
    }

    /// The next living opponent attacks; past the last, a new round.
    fn next_turn(&mut self, events: &mut Vec<Event>) {
        if self.is_over() {
            events.push(Event::End {
                hero_won: self.hero_won(),
            });
            return;
        }
        loop {
            self.turn += 1;
            if self.turn == self.foes.len() {
                self.turn = 0;
                self.round += 1;
            }
            if !self.foes[self.turn].is_dead() {
                break;
            }
        }
    }

    /// Runs the fight to its end with every fighter following its policy (no one asks).
    /// Returns whether the hero won and the exchanges rolled.
    pub fn run(&mut self, dice: &mut dyn DiceSource) -> Result<(bool, u32), FightError> {
        let mut exchanges = 0;
        while !self.is_over() {
            match self.pending {
                Some(d) => {
                    let f = &self.fighter(d.who).side;
                    let loss = if f.policy.loses_body(f.body, f.hit_points) {
                        Loss::Body
                    } else {
                        Loss::HitPoint
                    };
                    self.apply(Command::Take(loss), dice)?;
                }
                None => {
                    exchanges += 1;
                    self.apply(Command::Exchange, dice)?;
                }
            }
        }
        Ok((self.hero_won(), exchanges))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way of saying how a hit is taken reads (any case); another word lists the two.
    #[test]
    fn a_loss_reads_the_words_a_player_types() {
        for word in ["body", "B", " Body "] {
            assert_eq!(word.parse::<Loss>(), Ok(Loss::Body), "{word:?}");
        }
        for word in ["hp", "H", "hit-point", "hit-points", "hit point"] {
            assert_eq!(word.parse::<Loss>(), Ok(Loss::HitPoint), "{word:?}");
        }
        assert_eq!(
            "maybe".parse::<Loss>().unwrap_err().to_string(),
            "`maybe` is not a way to take a hit: body or hp"
        );
    }
    use crate::Book;
    use crate::duel::{duel_odds, simulate};
    use num_traits::{One, Zero};
    use solum_dice::{Prob, ScriptedDice, SeededDice, TypedDice, enumerate, prob, prob_to_f64};

    fn book(name: &str) -> Hero {
        Book::shipped().find(name).unwrap().clone()
    }

    fn side(body: u32, hit_points: u32, policy: Policy, stat: Option<u32>) -> Side {
        Side {
            body,
            hit_points,
            cliche: false,
            policy,
            stat,
        }
    }

    fn auto(name: &str, side: Side) -> Fighter {
        Fighter {
            name: name.to_owned(),
            side,
            asks: false,
        }
    }

    #[test]
    fn the_high_roll_takes_a_hit_point() {
        // Alessandor (Body 2) against a goblin (Body 1): his 3 and 5 against its 4.
        let al = Fighter::from_hero(&book("alessandor"), None, false, Policy::HitPoints, false);
        let gob = Fighter::from_hero(&book("goblin"), None, false, Policy::HitPoints, false);
        let mut fight = ClassicFight::new(al, vec![gob]).unwrap();
        // A tie first: 4 4 against 4, no damage.
        let e = fight
            .apply(Command::Exchange, &mut ScriptedDice::new([4, 4, 4]))
            .unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(
            (
                fight.hero().side.hit_points,
                fight.foes()[0].side.hit_points
            ),
            (2, 1)
        );
        assert_eq!(fight.round(), 2);
        let e = fight
            .apply(Command::Exchange, &mut ScriptedDice::new([3, 5, 4]))
            .unwrap();
        assert!(matches!(
            e[0],
            Event::Exchange {
                winner: Some(Who::Hero),
                ..
            }
        ));
        assert!(e.contains(&Event::Death { who: Who::Foe(0) }));
        assert_eq!(e.last(), Some(&Event::End { hero_won: true }));
        assert!(fight.hero_won());
        assert_eq!(
            fight.apply(Command::Exchange, &mut ScriptedDice::new([])),
            Err(FightError::Over)
        );
    }

    #[test]
    fn the_applicable_stat_is_rolled() {
        // C3: Byran (Body 1, Mind 3) casts a spell: three dice, then four with a cliché.
        let byran = book("byran");
        let f = Fighter::from_hero(&byran, Some(Stat::Mind), false, Policy::Body, false);
        assert_eq!(f.side.dice(), 3);
        let f = Fighter::from_hero(&byran, Some(Stat::Mind), true, Policy::Body, false);
        assert_eq!(f.side.dice(), 4);
        assert_eq!(
            Fighter::from_hero(&byran, None, false, Policy::Body, false)
                .side
                .dice(),
            1
        );
        // A monster entry may name its own stat: a squidhead fights with Mind 5.
        let mut squid = book("squidhead");
        squid.combat_stat = Some(Stat::Mind);
        assert_eq!(
            Fighter::from_hero(&squid, None, false, Policy::Body, false)
                .side
                .dice(),
            5
        );
        assert_eq!(
            Fighter::from_hero(&squid, Some(Stat::Spirit), false, Policy::Body, false)
                .side
                .dice(),
            4
        );
        // Body lost shrinks a Body fighter's dice, not a Mind fighter's.
        let hero = auto("mage", side(2, 3, Policy::Body, Some(3)));
        let brute = auto("brute", side(2, 3, Policy::Body, None));
        let mut fight = ClassicFight::new(hero, vec![brute]).unwrap();
        // Mage 6 5 4 against the brute's 1 1: the brute gives up Body (2 → 1).
        fight
            .apply(Command::Exchange, &mut ScriptedDice::new([6, 5, 4, 1, 1]))
            .unwrap();
        assert_eq!(fight.foes()[0].side.dice(), 1);
        // Brute 6 against 1 1 1: the mage gives up Body, still three dice.
        fight
            .apply(Command::Exchange, &mut ScriptedDice::new([1, 1, 1, 6]))
            .unwrap();
        assert_eq!((fight.hero().side.body, fight.hero().side.dice()), (1, 3));
    }

    #[test]
    fn each_opponent_makes_a_single_attack_on_its_turn() {
        // Grok (Body 3, 4 hit points) against two goblins and a zombie.
        let grok = auto("Grok", side(3, 4, Policy::HitPoints, None));
        let foes = ["g1", "g2", "z"]
            .map(|n| auto(n, side(1, 1, Policy::HitPoints, None)))
            .to_vec();
        let mut fight = ClassicFight::new(grok, foes).unwrap();
        let mut seen = Vec::new();
        // Round 1: g1 wins (1 1 1 vs 2), g2 ties (5 1 1 vs 5), z loses (6 1 1 vs 2).
        // Round 2: g1 then g2 again; z is dead and has no turn.
        let script = [1, 1, 1, 2, 5, 1, 1, 5, 6, 1, 1, 2, 1, 1, 1, 3, 6, 6, 6, 1];
        let mut dice = ScriptedDice::new(script);
        for _ in 0..5 {
            for e in fight.apply(Command::Exchange, &mut dice).unwrap() {
                if let Event::Exchange { round, foe, .. } = e {
                    seen.push((round, foe));
                }
            }
        }
        assert_eq!(seen, [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]);
        assert_eq!(fight.hero().side.hit_points, 2);
        assert!(fight.foes()[2].is_dead() && fight.foes()[1].is_dead());
        assert_eq!((fight.turn(), fight.round()), (0, 3));
        assert!(dice.is_exhausted());
    }

    #[test]
    fn the_body_choice_is_a_pending_decision() {
        let hero = Fighter {
            name: "Al".into(),
            side: side(2, 1, Policy::HitPoints, None),
            asks: true,
        };
        let zombie = auto("Zombie", side(1, 1, Policy::HitPoints, None));
        let mut fight = ClassicFight::new(hero, vec![zombie]).unwrap();
        let e = fight
            .apply(Command::Exchange, &mut ScriptedDice::new([1, 2, 3]))
            .unwrap();
        let d = Decision {
            who: Who::Hero,
            body: 2,
            hit_points: 1,
        };
        assert_eq!(e.last(), Some(&Event::Decide(d)));
        assert_eq!(fight.pending(), Some(d));
        assert_eq!(
            fight.apply(Command::Exchange, &mut ScriptedDice::new([])),
            Err(FightError::Pending)
        );
        let e = fight
            .apply(Command::Take(Loss::Body), &mut ScriptedDice::new([]))
            .unwrap();
        assert!(matches!(
            e[0],
            Event::Hit {
                loss: Loss::Body,
                body: 1,
                hit_points: 1,
                ..
            }
        ));
        assert_eq!(
            fight.apply(Command::Take(Loss::Body), &mut ScriptedDice::new([])),
            Err(FightError::NoDecision)
        );
        // One die now: 5 against 1.
        fight
            .apply(Command::Exchange, &mut ScriptedDice::new([5, 1]))
            .unwrap();
        assert!(fight.hero_won());
    }

    #[test]
    fn bad_dice_change_nothing() {
        let mut fight = ClassicFight::new(
            auto("a", side(2, 2, Policy::Survive, None)),
            vec![auto("b", side(2, 2, Policy::Survive, None))],
        )
        .unwrap();
        let before = fight.clone();
        let err = fight.apply(Command::Exchange, &mut TypedDice::new([6, 6, 1]));
        assert!(matches!(err, Err(FightError::Dice(_))));
        assert_eq!(fight, before);
        assert!(ClassicFight::new(before.hero().clone(), vec![]).is_err());
        let huge = auto("h", side(u32::MAX, 2, Policy::Survive, None));
        assert_eq!(
            ClassicFight::new(huge, vec![before.hero().clone()]),
            Err(FightError::Range("h".into(), "body", u32::MAX))
        );
        let mind = auto("m", side(2, 2, Policy::Survive, Some(31)));
        assert_eq!(
            ClassicFight::new(before.hero().clone(), vec![mind]),
            Err(FightError::Range("m".into(), "stat", 31))
        );
        let crowd = vec![before.hero().clone(); MAX_FOES + 1];
        assert_eq!(
            ClassicFight::new(before.hero().clone(), crowd),
            Err(FightError::TooManyFoes(MAX_FOES + 1))
        );
        let crowd = vec![before.hero().clone(); MAX_FOES];
        assert!(ClassicFight::new(before.hero().clone(), crowd).is_ok());
        let dead = auto("d", side(0, 2, Policy::Survive, None));
        assert_eq!(
            ClassicFight::new(dead, vec![before.hero().clone()]),
            Err(FightError::Dead("d".into()))
        );
    }

    #[test]
    fn the_hero_may_flee_and_nobody_is_hurt_further() {
        // Al (Body 2, 4 hit points) against a troll (Body 4, 4 hit points): 6 6 against
        // 1 2 3 4, the troll loses a hit point; then Al flees.
        let al = auto("Al", side(2, 4, Policy::Survive, None));
        let troll = auto("Troll", side(4, 4, Policy::Survive, None));
        let mut fight = ClassicFight::new(al, vec![troll]).unwrap();
        fight
            .apply(
                Command::Exchange,
                &mut ScriptedDice::new([6, 6, 1, 2, 3, 4]),
            )
            .unwrap();
        let e = fight
            .apply(Command::Abandon, &mut ScriptedDice::new([]))
            .unwrap();
        assert_eq!(e, [Event::Abandoned]);
        assert!(fight.is_over() && fight.is_abandoned() && !fight.hero_won());
        assert_eq!(
            (
                fight.hero().side.hit_points,
                fight.foes()[0].side.hit_points
            ),
            (4, 3)
        );
        assert_eq!(fight.next_exchange(), None);
        assert_eq!(
            fight.apply(
                Command::Exchange,
                &mut ScriptedDice::new([6, 6, 1, 1, 1, 1])
            ),
            Err(FightError::Over)
        );
        // A hit that waits for its answer is answered before anyone flees.
        let hero = Fighter {
            asks: true,
            ..auto("Al", side(2, 4, Policy::Survive, None))
        };
        let mut fight =
            ClassicFight::new(hero, vec![auto("Z", side(1, 1, Policy::Survive, None))]).unwrap();
        fight
            .apply(Command::Exchange, &mut ScriptedDice::new([1, 1, 6]))
            .unwrap();
        assert_eq!(
            fight.apply(Command::Abandon, &mut ScriptedDice::new([])),
            Err(FightError::Pending)
        );
    }

    #[test]
    fn the_next_exchange_has_exact_odds() {
        // Two dice against one: the best of two beats one die in 125 of 216 rolls, ties in
        // 36 (best v, 2v-1 ways, times the one matching face, summed), loses in 55.
        let al = auto("Al", side(2, 4, Policy::Survive, None));
        let gob = auto("Gob", side(1, 1, Policy::Survive, None));
        let fight = ClassicFight::new(al, vec![gob.clone(), gob]).unwrap();
        let next = fight.next_exchange().unwrap();
        assert_eq!((next.foe, next.dice), (0, [2, 1]));
        assert_eq!(
            next.odds.exact,
            ["125/216", "1/6", "55/216"].map(String::from)
        );
        assert!((next.odds.win - 125.0 / 216.0).abs() < 1e-15);
        // Two foes alive: no single duel's chance.
        assert_eq!(next.p_win_fight, None);
        // One die against one: 15/36 each way, 1/6 a tie.
        let one = ClassicFight::new(
            auto("a", side(1, 1, Policy::Survive, None)),
            vec![auto("b", side(1, 1, Policy::Survive, None))],
        )
        .unwrap();
        let n = one.next_exchange().unwrap();
        assert_eq!(n.odds.exact, ["5/12", "1/6", "5/12"].map(String::from));
        // One hit point each: whoever wins the first exchange that is not a tie wins.
        assert_eq!(n.p_win_fight, Some(0.5));
    }

    /// Both sides' Body and hit points in a fight not yet over.
    type State = (u32, u32, u32, u32);

    /// The state machine's duel, fought to the end.
    fn fought(a: Side, b: Side, dice: &mut dyn DiceSource) -> Result<bool, FightError> {
        ClassicFight::new(auto("a", a), vec![auto("b", b)])?
            .run(dice)
            .map(|(won, _)| won)
    }

    #[test]
    fn duel_odds_match_enumeration_of_the_fight_tiny() {
        // One hit point each and no Body to give: after a run of ties the fight is where it
        // began, so p = P(won within the depth) / (1 - P(cut off)), exactly.
        for (a, b, reference, depth) in [
            (
                side(1, 1, Policy::HitPoints, None),
                side(1, 1, Policy::HitPoints, None),
                Some(prob(1, 2)),
                10,
            ),
            // By hand: 1 die beats the best of 2 with 55/216, loses with 125/216.
            (
                side(1, 1, Policy::HitPoints, None),
                side(2, 1, Policy::HitPoints, None),
                Some(prob(11, 36)),
                9,
            ),
            // A spell with Mind 3 against Body 1.
            (
                side(1, 1, Policy::Body, Some(3)),
                side(1, 1, Policy::Body, None),
                None,
                8,
            ),
        ] {
            let e = enumerate(depth, |d| fought(a, b, d)).unwrap();
            let p = e.p(|&w| w) / (Prob::one() - e.truncated.clone());
            assert_eq!(p, duel_odds(a, b).unwrap(), "{a:?} {b:?}");
            if let Some(r) = reference {
                assert_eq!(p, r);
            }
        }
    }

    #[test]
    fn duel_odds_match_enumeration_of_the_fight_step_by_step() {
        // Any duel: enumerate the fight's first exchanges exactly, then finish each
        // unfinished state with the closed form. Equal to the closed form at the start only
        // if every transition of the chain is the fight's.
        for (a, b) in [
            (
                side(2, 1, Policy::Survive, None),
                side(1, 2, Policy::HitPoints, None),
            ),
            (
                side(2, 2, Policy::Body, None),
                side(2, 2, Policy::Survive, None),
            ),
            (
                side(2, 2, Policy::Body, Some(1)),
                side(1, 2, Policy::Survive, Some(2)),
            ),
        ] {
            let steps = 2;
            let e = enumerate(64, |d| -> Result<Result<bool, State>, FightError> {
                let mut fight = ClassicFight::new(auto("a", a), vec![auto("b", b)])?;
                for _ in 0..steps {
                    if fight.is_over() {
                        break;
                    }
                    fight.apply(Command::Exchange, d)?;
                }
                let (x, y) = (fight.hero().side, fight.foes()[0].side);
                Ok(if fight.is_over() {
                    Ok(fight.hero_won())
                } else {
                    Err((x.body, x.hit_points, y.body, y.hit_points))
                })
            })
            .unwrap();
            assert!(e.truncated.is_zero());
            let mut p = Prob::zero();
            for (outcome, q) in &e.outcomes {
                p += match outcome {
                    Ok(true) => q.clone(),
                    Ok(false) => Prob::zero(),
                    Err((ab, ah, bb, bh)) => {
                        let a2 = Side {
                            body: *ab,
                            hit_points: *ah,
                            ..a
                        };
                        let b2 = Side {
                            body: *bb,
                            hit_points: *bh,
                            ..b
                        };
                        q * duel_odds(a2, b2).unwrap()
                    }
                };
            }
            assert_eq!(p, duel_odds(a, b).unwrap(), "{a:?} {b:?}");
        }
    }

    #[test]
    fn duel_odds_match_seeded_simulation_of_the_fight() {
        let n = 40_000u32;
        let mut dice = SeededDice::new(2026);
        for (a, b) in [
            (
                side(2, 3, Policy::Survive, None),
                side(4, 4, Policy::Body, None),
            ),
            (
                side(1, 3, Policy::Body, Some(3)),
                side(4, 4, Policy::Survive, None),
            ),
        ] {
            let exact = prob_to_f64(&duel_odds(a, b).unwrap());
            let wins = (0..n)
                .filter(|_| simulate(a, b, &mut dice).unwrap().won)
                .count();
            let seen = wins as f64 / f64::from(n);
            let se = (exact * (1.0 - exact) / f64::from(n)).sqrt();
            assert!((seen - exact).abs() < 4.0 * se, "{seen} vs {exact}");
        }
    }
}
