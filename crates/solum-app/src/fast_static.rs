//! Fast static combat (ruling S11) with a campaign character: the hero's pool from the sheet
//! rolls against the opposition's difficulty each round; a pass deals the hero's weapon
//! damage to the opposition, a failure deals the opposition's damage to the hero.
//!
//! A fight is kept per character as its inputs (the setup, taken from the sheet when it
//! starts) and its calls (each call's background, seed or typed faces), never as the state
//! machine's internals: every use case rebuilds [`StaticCombat`] by replaying the calls with
//! their faces. A call plays rounds until one side is at 0 or, with typed dice, until the
//! values run out at the end of a round: the fight then waits for the next call, from any
//! later process or web request. Typed values that stop inside a round are refused whole.
//! Each call journals its rounds (inputs and faces) and writes the hit points the hero lost
//! to the sheet in the same transaction; a fight can be abandoned, which is journaled too.

use serde::{Deserialize, Serialize};
use solum_dice::{DiceError, DiceSource, RecordingDice, SeededDice, TypedDice};
use solum_expanded::character::Character;
use solum_expanded::combat::{Fighter, StaticCombat};
use solum_expanded::creature::Bestiary;
use solum_expanded::fight::{StaticSpec, static_odds};
use solum_expanded::{Difficulty, Pool};
use solum_store::{CampaignStore, Sheet, WriteTx};

use crate::fight_once::{Damage, HitPoints};
use crate::journaling;
use crate::{AppError, Campaign, Dice};

/// The system the open static fights are stored under (one row per character).
pub const SYSTEM: &str = "static";
/// The schema version of the static-combat records this build writes.
pub const STATIC_RECORD_SCHEMA: i64 = 1;
/// The most calls one fight keeps (each waits for typed dice): the stored fight stays small.
pub const MAX_STATIC_CALLS: usize = 400;
/// The longest opposition name, in characters.
pub const MAX_OPPOSITION_NAME: usize = 100;
/// The highest difficulty of a static opposition.
pub const MAX_STATIC_DIFFICULTY: u32 = 12;
/// The most rounds one call plays: a seeded call that reaches it leaves the fight waiting,
/// so each journal entry stays within the store's 64 KiB.
pub const MAX_CALL_ROUNDS: usize = 100;
/// The most typed values one call takes (100 rounds of the largest pool, with chains).
pub const MAX_STATIC_TYPED: usize = 2_000;
/// The most faces a stored fight keeps over all its calls (the row stays within 64 KiB):
/// past it the fight is refused another call and can only be abandoned.
pub const MAX_STORED_FACES: usize = 8_000;

crate::bounded::bounded! {
    /// A static opposition's difficulty, 1 (automatic) to [`MAX_STATIC_DIFFICULTY`]: the
    /// rules' difficulties go higher, a static opposition does not need them.
    pub struct StaticDifficulty(u32) in 1, MAX_STATIC_DIFFICULTY;
    "a static opposition's difficulty is {min} to {max}"
}

/// The opposition of a fast static combat (S11), as a fight keeps it. Its numbers are
/// plain: a fight stored before the difficulty was held to 1 to 12 (the web took 13) still
/// reads. A request types them ([`TypedOpposition`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Opposition {
    /// What it is ("trooper squad").
    pub name: String,
    /// The difficulty the hero rolls against each round (2 to 12; 1 is automatic).
    pub difficulty: u32,
    /// Its hit points (1 to the fight limit).
    pub hit_points: u32,
    /// The damage it deals on a failed round (0 to the damage limit).
    pub damage: u32,
}

/// The opposition of a fast static combat as a request types it (`opposition`): each number
/// held to its range as the request is read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TypedOpposition {
    /// What it is ("trooper squad").
    pub name: String,
    /// The difficulty the hero rolls against each round (1 is automatic).
    pub difficulty: StaticDifficulty,
    /// Its hit points.
    pub hit_points: HitPoints,
    /// The damage it deals on a failed round.
    pub damage: Damage,
}

impl From<TypedOpposition> for Opposition {
    fn from(o: TypedOpposition) -> Self {
        Self {
            name: o.name,
            difficulty: o.difficulty.get(),
            hit_points: o.hit_points.get(),
            damage: o.damage.get(),
        }
    }
}

impl Opposition {
    /// A static opposition of the shipped bestiary by name.
    pub fn shipped(name: &str) -> Result<Self, AppError> {
        let bestiary = Bestiary::shipped();
        let foe = bestiary.static_foe(name).ok_or_else(|| {
            let known: Vec<&str> = bestiary.static_foes().map(|f| f.name.as_str()).collect();
            crate::CombatRefusal::Opposition.at(
                "foe",
                format!(
                    "`{name}` is not a static opposition (known: {})",
                    known.join(", ")
                ),
            )
        })?;
        Ok(Self {
            name: foe.name.clone(),
            difficulty: foe.difficulty,
            hit_points: foe.hit_points,
            damage: foe.damage,
        })
    }

    /// An opposition typed by hand ("the opposition"): a difficulty, hit points and damage,
    /// each parsed at the front end's edge.
    pub fn typed(vs: solum_expanded::Difficulty, hit_points: HitPoints, damage: Damage) -> Self {
        Self {
            name: "the opposition".to_owned(),
            difficulty: vs.value(),
            hit_points: hit_points.get(),
            damage: damage.get(),
        }
    }

    /// The name's rule, and the numbers held to their types' ranges: what a request's
    /// [`TypedOpposition`] holds as it is read, asked again of an opposition the command
    /// line typed (its `--vs` takes every difficulty of the rules) or a journal imports.
    fn check(&self) -> Result<(), AppError> {
        crate::name("opposition", &self.name, MAX_OPPOSITION_NAME)?;
        let refused = |field: &'static str, value: u32| {
            move |e: crate::bounded::OutOfRange| {
                crate::CombatRefusal::Opposition.at(field, format!("{value}: {e}"))
            }
        };
        StaticDifficulty::new(self.difficulty).map_err(refused("difficulty", self.difficulty))?;
        HitPoints::new(self.hit_points).map_err(refused("foe hit points", self.hit_points))?;
        Damage::new(self.damage).map_err(refused("foe damage", self.damage))?;
        Ok(())
    }
}

/// What a fight starts from: the hero as the sheet gave it, and the opposition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticSetup {
    /// The character.
    pub hero: String,
    /// The weapon fought with ("unarmed" for bare hands).
    pub weapon: String,
    /// The hero's pool (Body − penalties).
    pub pool: u64,
    /// The pool when a call names one of the hero's backgrounds (S18).
    pub bg_pool: u64,
    /// The sheet's backgrounds, which a call may name.
    pub backgrounds: Vec<String>,
    /// The hero's weapon damage.
    pub damage: u32,
    /// The hero's hit points when the fight started.
    pub hit_points: u32,
    /// The opposition.
    pub opposition: Opposition,
}

/// One call's dice: what replays it exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticCall {
    /// The background named for this call's rounds (S18), as the sheet spells it.
    pub background: Option<String>,
    /// The generator's seed, when the program rolled.
    pub seed: Option<u64>,
    /// True when the faces were typed in.
    pub typed: bool,
    /// Every face the call's rounds drew, in order.
    pub faces: Vec<u32>,
}

/// Both sides' hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticState {
    /// The hero's.
    pub hit_points: u32,
    /// The opposition's.
    pub foe_hit_points: u32,
}

/// A fight in progress, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredStatic {
    setup: StaticSetup,
    calls: Vec<StaticCall>,
}

/// What happened in a fast static combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StaticChange {
    /// The fight started.
    Started {
        /// Its inputs.
        setup: StaticSetup,
    },
    /// A call played rounds.
    Rounds {
        /// The fight's inputs (a record replays on its own).
        setup: StaticSetup,
        /// Hit points before the call.
        before: StaticState,
        /// The call's dice.
        call: StaticCall,
        /// The rounds (the engine's, as JSON).
        rounds: serde_json::Value,
        /// Hit points after the call.
        after: StaticState,
        /// The sheet's hit points before and after the write (`None`: the campaign no
        /// longer has the character).
        sheet: Option<(u32, u32)>,
    },
    /// The fight was abandoned before either side was at 0.
    Abandoned {
        /// Hit points when it was left.
        state: StaticState,
    },
}

/// A journal entry about a fast static combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticRecord {
    /// [`STATIC_RECORD_SCHEMA`] when written.
    pub schema: i64,
    /// The character.
    pub hero: String,
    /// What happened.
    pub change: StaticChange,
}

impl StaticRecord {
    /// True when the record holds dice.
    pub fn has_dice(&self) -> bool {
        matches!(&self.change, StaticChange::Rounds { call, .. } if !call.faces.is_empty())
    }

    /// One line for the story.
    pub fn summary(&self) -> String {
        let h = &self.hero;
        match &self.change {
            StaticChange::Started { setup } => format!(
                "{h} fights {} (fast static combat: {} dice against {}, {} hp dealing {})",
                setup.opposition.name,
                setup.pool,
                setup.opposition.difficulty,
                setup.opposition.hit_points,
                setup.opposition.damage
            ),
            StaticChange::Rounds {
                setup, call, after, ..
            } => {
                let bg = call
                    .background
                    .as_ref()
                    .map_or(String::new(), |b| format!(" [{b}]"));
                let mut s = format!(
                    "{h}{bg} against {}: {} hp, {} {} hp",
                    setup.opposition.name,
                    after.hit_points,
                    setup.opposition.name,
                    after.foe_hit_points
                );
                if !call.faces.is_empty() {
                    let faces: Vec<String> = call.faces.iter().map(u32::to_string).collect();
                    s.push_str(&format!(" (dice {})", faces.join(" ")));
                }
                if after.foe_hit_points == 0 {
                    s.push_str(&format!(": {} is defeated", setup.opposition.name));
                } else if after.hit_points == 0 {
                    s.push_str(&format!(": {h} is defeated"));
                }
                s
            }
            StaticChange::Abandoned { state } => format!(
                "{h} leaves the fast static combat ({} hp, the opposition {} hp)",
                state.hit_points, state.foe_hit_points
            ),
        }
    }

    /// The limits of a record made at the table, for an imported journal.
    pub(crate) fn check(&self) -> Result<(), AppError> {
        if self.schema > STATIC_RECORD_SCHEMA {
            return Err(crate::ImportProblem::SchemaNewer {
                what: "a static-combat record's",
                found: self.schema,
                known: STATIC_RECORD_SCHEMA,
            }
            .into());
        }
        match &self.change {
            StaticChange::Started { setup } | StaticChange::Rounds { setup, .. } => {
                setup.opposition.check()
            }
            StaticChange::Abandoned { .. } => Ok(()),
        }
    }

    /// Re-derives the rounds of a call from its seed or typed faces: `None` when they match.
    pub fn replay(&self) -> Option<crate::Divergence> {
        use crate::Divergence;
        let StaticChange::Rounds {
            setup,
            before,
            call,
            rounds,
            after,
            ..
        } = &self.change
        else {
            return None;
        };
        let mut fight = match combat_of(setup, *before, call.background.is_some()) {
            Ok(f) => f,
            Err(e) => return Some(Divergence::refused(e)),
        };
        let played = match call.seed {
            Some(seed) if !call.typed => play(&mut fight, &mut SeededDice::new(seed)),
            _ => play(&mut fight, &mut TypedDice::new(call.faces.clone())),
        };
        let (again, faces, _) = match played {
            Ok(p) => p,
            Err(e) => return Some(Divergence::of_error(&e)),
        };
        if faces != call.faces {
            return Some(Divergence::Faces {
                recorded: call.faces.clone(),
                derived: faces,
                typed: call.typed,
            });
        }
        Divergence::fields("rounds", rounds, &again)
            .or_else(|| Divergence::fields("after", after, &state_of(&fight)))
    }
}

fn state_of(fight: &StaticCombat) -> StaticState {
    StaticState {
        hit_points: fight.hit_points,
        foe_hit_points: fight.foe_hit_points,
    }
}

fn combat_of(
    setup: &StaticSetup,
    state: StaticState,
    background: bool,
) -> Result<StaticCombat, AppError> {
    let dice = if background {
        setup.bg_pool
    } else {
        setup.pool
    };
    Ok(StaticCombat {
        pool: Pool::new(dice)
            .map_err(|e| crate::CombatRefusal::Opposition.at("pool", e.to_string()))?,
        difficulty: Difficulty::new(i64::from(setup.opposition.difficulty))
            .map_err(|e| crate::CombatRefusal::Opposition.at("difficulty", e.to_string()))?,
        hit_points: state.hit_points,
        damage: setup.damage,
        foe_hit_points: state.foe_hit_points,
        foe_damage: setup.opposition.damage,
    })
}

/// Plays rounds until one side is at 0, [`MAX_CALL_ROUNDS`], or the dice run out at the
/// end of a round. Returns the rounds as JSON, the faces of the complete rounds, and whether
/// the dice ran out inside a round (typed values that do not finish it).
fn play(
    fight: &mut StaticCombat,
    dice: &mut dyn DiceSource,
) -> Result<(serde_json::Value, Vec<u32>, bool), AppError> {
    let mut recording = RecordingDice::new(dice);
    let mut rounds = Vec::new();
    let mut used = 0;
    let mut partial = false;
    while !fight.is_over() && rounds.len() < MAX_CALL_ROUNDS {
        match fight.round(&mut recording) {
            Ok(r) => {
                rounds.push(r);
                used = recording.faces().len();
            }
            Err(solum_expanded::combat::CombatError::Dice(DiceError::Exhausted { .. })) => {
                partial = recording.faces().len() > used;
                break;
            }
            Err(e) => return Err(crate::CombatRefusal::Dice.at("dice", e.to_string())),
        }
    }
    let faces = recording.faces()[..used].iter().map(|&(_, f)| f).collect();
    let json = serde_json::to_value(&rounds)
        .map_err(|e| crate::AppError::internal("rounds", e.to_string()))?;
    Ok((json, faces, partial))
}

/// The chance of winning from here, for no background and for each of the hero's.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticOdds {
    /// The background named (S18), or none.
    pub background: Option<String>,
    /// The chance the hero takes the opposition to 0 first; `None` when the fight cannot end.
    pub p_win: Option<f64>,
    /// The same as an exact fraction ("227/378"), when it is exact.
    pub p_win_exact: Option<String>,
}

/// A character's fast static combat, or none (`{"fight": null}`): what
/// `solum static --char NAME --status --json` prints and
/// `GET /api/characters/{name}/static` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticStatus {
    /// Where it stands.
    pub fight: Option<StaticView>,
}

/// Where a fast static combat stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticView {
    /// The journal entries this call made.
    pub seqs: Vec<i64>,
    /// The fight's inputs.
    pub setup: StaticSetup,
    /// Hit points now.
    pub state: StaticState,
    /// The rounds this call played (the engine's, as JSON).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<solum_expanded::combat::StaticRound>))]
    pub rounds: serde_json::Value,
    /// The call's dice.
    pub call: Option<StaticCall>,
    /// The sheet's hit points after this call.
    pub sheet_hit_points: Option<u32>,
    /// "waiting" (typed dice ran out, or the call played [`MAX_CALL_ROUNDS`]: call again),
    /// "won", "lost", "abandoned".
    pub outcome: &'static str,
    /// The exact odds of winning from here, per choice of background.
    pub odds: Vec<StaticOdds>,
}

fn odds_of(setup: &StaticSetup, state: StaticState) -> Vec<StaticOdds> {
    if state.hit_points == 0 || state.foe_hit_points == 0 {
        return Vec::new();
    }
    std::iter::once(None)
        .chain(setup.backgrounds.iter().cloned().map(Some))
        .map(|background| {
            let odds = combat_of(setup, state, background.is_some())
                .ok()
                .filter(|_| state.hit_points > 0 && state.foe_hit_points > 0)
                .and_then(|f| {
                    static_odds(&StaticSpec {
                        pool: f.pool,
                        difficulty: f.difficulty,
                        hit_points: f.hit_points,
                        damage: f.damage,
                        foe_hit_points: f.foe_hit_points,
                        foe_damage: f.foe_damage,
                    })
                    .ok()
                });
            StaticOdds {
                background,
                p_win: odds.as_ref().map(|o| solum_dice::prob_to_f64(&o.win)),
                p_win_exact: odds
                    .as_ref()
                    .filter(|o| o.error_bound == 0.0)
                    .map(|o| o.win.to_string()),
            }
        })
        .collect()
}

fn read_open(tx_sheet: Option<Sheet>) -> Result<Option<StoredStatic>, AppError> {
    match tx_sheet {
        None => Ok(None),
        Some(s) => {
            let row: Option<StoredStatic> = serde_json::from_value(s.body).map_err(|e| {
                crate::CombatRefusal::Stored.bare(format!("the stored fight cannot be read: {e}"))
            })?;
            Ok(row)
        }
    }
}

fn write_open(
    tx: &mut dyn WriteTx,
    hero: &str,
    fight: Option<&StoredStatic>,
) -> Result<(), AppError> {
    let sheet = Sheet {
        system: SYSTEM.into(),
        name: hero.to_owned(),
        schema: STATIC_RECORD_SCHEMA,
        version: 0,
        body: serde_json::to_value(fight)
            .map_err(|e| crate::AppError::internal("static combat", e.to_string()))?,
    };
    // The fight belongs to whoever plays the hero, whoever started it.
    if tx.sheet(SYSTEM, hero)?.is_some() {
        tx.share_owner(SYSTEM, hero, crate::characters::SYSTEM)?;
        tx.update_sheet(SYSTEM, hero, &sheet)?;
    } else {
        tx.insert_sheet(&sheet)?;
    }
    tx.share_owner(SYSTEM, hero, crate::characters::SYSTEM)?;
    Ok(())
}

/// Replays a stored fight's calls: its state now.
fn rebuild(stored: &StoredStatic) -> Result<StaticState, AppError> {
    let mut state = StaticState {
        hit_points: stored.setup.hit_points,
        foe_hit_points: stored.setup.opposition.hit_points,
    };
    for (i, call) in stored.calls.iter().enumerate() {
        let mut fight = combat_of(&stored.setup, state, call.background.is_some())?;
        let (_, faces, _) = play(&mut fight, &mut TypedDice::new(call.faces.clone()))?;
        if faces != call.faces {
            return Err(crate::CombatRefusal::Stored.bare(format!(
                "the stored fight does not replay at call {}",
                i + 1
            )));
        }
        state = state_of(&fight);
    }
    Ok(state)
}

/// The setup of a new fight: the hero's pool, weapon and hit points from the sheet.
fn setup_of(
    hero: &Character,
    weapon: Option<&str>,
    opposition: Opposition,
) -> Result<StaticSetup, AppError> {
    let rules =
        |e: solum_expanded::RulesError| crate::CombatRefusal::Sheet.at("sheet", e.to_string());
    let mut f = Fighter::hero(hero, "heroes", false).map_err(rules)?;
    if let Some(w) = weapon
        && !f.hold(w)
    {
        let names: Vec<&str> = hero.weapons.iter().map(|w| w.name.as_str()).collect();
        return Err(crate::CombatRefusal::Weapon.at(
            "weapon",
            format!(
                "{} carries no weapon called `{w}` (carried: {})",
                hero.name,
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            ),
        ));
    }
    // The weapon in hand with its own pool and damage: fast static combat has no ranges, so
    // a ranged weapon fires as the text's trooper example does.
    let (pool, bg_pool, damage, name) = match f.held_weapon() {
        Some(w) => (w.pool, w.bg_pool, w.damage, w.name.clone()),
        None => (
            f.unarmed_pool,
            f.unarmed_bg_pool,
            solum_expanded::combat::IMPROVISED_DAMAGE,
            "unarmed".to_owned(),
        ),
    };
    Ok(StaticSetup {
        hero: hero.name.clone(),
        weapon: name,
        pool: u64::from(pool.dice()),
        bg_pool: u64::from(bg_pool.dice()),
        backgrounds: std::mem::take(&mut f.backgrounds),
        damage,
        hit_points: hero.hit_points,
        opposition,
    })
}

/// What a call to [`Campaign::static_fight`] asks.
#[derive(Debug, Clone, Default)]
pub struct StaticRequest {
    /// The character.
    pub hero: String,
    /// A new fight against this opposition (none may be open for the hero); `None` goes on
    /// with the open one.
    pub start: Option<Opposition>,
    /// The weapon to fight with (a new fight only; default the one that serves best, S13).
    pub weapon: Option<String>,
    /// A background of the sheet named for this call's rounds (S18).
    pub background: Option<String>,
}

/// What a table asks of a character's fast static combat (`POST
/// /api/characters/{name}/static`): to start a fight, its opposition by a name of the
/// shipped bestiary (`foe`) or by its numbers (`opposition`), not both; neither goes on with
/// the open fight. [`StaticAsk::request`] makes the [`StaticRequest`] of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StaticAsk {
    /// A static opposition of the shipped bestiary, to start a fight.
    #[serde(default)]
    pub foe: Option<String>,
    /// Or the opposition's numbers, to start a fight.
    #[serde(default)]
    pub opposition: Option<TypedOpposition>,
    /// The sheet's weapon to fight with (when it starts).
    #[serde(default)]
    pub weapon: Option<String>,
    /// A background of the sheet named for this call's rounds (S18).
    #[serde(default)]
    pub background: Option<String>,
}

impl StaticAsk {
    /// The request for the character `hero`: the opposition named (`foe`, looked up in the
    /// shipped bestiary) or given (`opposition`); both at once are refused
    /// (`static-opposition`, naming `foe`).
    pub fn request(&self, hero: &str) -> Result<StaticRequest, AppError> {
        let start = match (&self.foe, &self.opposition) {
            (Some(_), Some(_)) => {
                return Err(crate::CombatRefusal::Opposition
                    .at("foe", "give `foe` or `opposition`, not both"));
            }
            (Some(foe), None) => Some(Opposition::shipped(foe)?),
            (None, given) => given.clone().map(Opposition::from),
        };
        Ok(StaticRequest {
            hero: hero.to_owned(),
            start,
            weapon: self.weapon.clone(),
            background: self.background.clone(),
        })
    }
}

impl<S: CampaignStore> Campaign<S> {
    /// [`Campaign::static_fight`] for the character `hero` as a table asks it
    /// ([`StaticAsk::request`]).
    pub fn static_fight_asked(
        &mut self,
        hero: &str,
        ask: &StaticAsk,
        dice: Dice,
    ) -> Result<StaticView, AppError> {
        let request = ask.request(hero)?;
        self.static_fight(&request, dice)
    }

    /// Plays fast static combat (S11) for a campaign character: starts a fight when
    /// `request.start` names the opposition, then plays rounds until one side is at 0 or
    /// typed dice run out at the end of a round (the fight then waits). Journals the start
    /// and the rounds and writes the hit points lost to the sheet, in one transaction.
    pub fn static_fight(
        &mut self,
        request: &StaticRequest,
        dice: Dice,
    ) -> Result<StaticView, AppError> {
        if let Some(o) = &request.start {
            o.check()?;
        }
        let (seed, typed) = call_dice(&dice)?;
        let at = self.now();
        crate::transact(&mut self.store, &self.by, |tx| {
            let sheet = tx
                .sheet(crate::characters::SYSTEM, &request.hero)?
                .ok_or_else(|| AppError::NoSuchCharacter(request.hero.trim().to_owned()))?;
            let hero = crate::combat::character_of(&sheet)?;
            let mut records = Vec::new();
            let open = read_open(tx.sheet(SYSTEM, &hero.name)?)?;
            let mut stored = fight_to_play(&hero, open, request, &mut records)?;
            let background = chosen_background(&stored, &hero, request)?;
            let before = rebuild(&stored)?;
            let mut fight = combat_of(&stored.setup, before, background.is_some())?;
            let (rounds, faces) = play_call(&mut fight, seed, typed.as_deref())?;
            let after = state_of(&fight);
            let call = StaticCall {
                background,
                seed: if typed.is_some() { None } else { seed },
                typed: typed.is_some(),
                faces,
            };
            let lost = before.hit_points.saturating_sub(after.hit_points);
            let mut sheet_hp = None;
            let played = faces_rounds(&rounds) > 0;
            if played {
                let mut h = hero.clone();
                let was = h.hit_points;
                h.take_damage(lost);
                sheet_hp = Some((was, h.hit_points));
                if lost > 0 {
                    tx.update_sheet(
                        crate::characters::SYSTEM,
                        &sheet.name,
                        &Sheet {
                            body: serde_json::to_value(&h)
                                .map_err(|e| AppError::internal("sheet", e))?,
                            ..sheet.clone()
                        },
                    )?;
                }
                records.push(StaticRecord {
                    schema: STATIC_RECORD_SCHEMA,
                    hero: hero.name.clone(),
                    change: StaticChange::Rounds {
                        setup: stored.setup.clone(),
                        before,
                        call: call.clone(),
                        rounds: rounds.clone(),
                        after,
                        sheet: sheet_hp,
                    },
                });
                stored.calls.push(call.clone());
            }
            let over = after.hit_points == 0 || after.foe_hit_points == 0;
            let stored_faces: usize = stored.calls.iter().map(|c| c.faces.len()).sum();
            if !over && stored_faces > MAX_STORED_FACES {
                return Err(crate::CombatRefusal::StaticState.bare(
                    format!(
                        "the fight would keep {stored_faces} faces, more than {MAX_STORED_FACES}: abandon it (both sides barely hurt each other)"
                    ),
                ));
            }
            if over {
                write_open(tx, &hero.name, None)?;
            } else {
                write_open(tx, &hero.name, Some(&stored))?;
            }
            let entries: Vec<_> = records
                .iter()
                .map(|r| journaling::new_entry(&at, r))
                .collect::<Result<_, _>>()?;
            let seqs = if entries.is_empty() {
                Vec::new()
            } else {
                tx.append(&entries)?.into_iter().map(|e| e.seq).collect()
            };
            Ok(StaticView {
                seqs,
                odds: odds_of(&stored.setup, after),
                setup: stored.setup.clone(),
                state: after,
                rounds,
                call: played.then_some(call),
                sheet_hit_points: sheet_hp.map(|(_, a)| a).or(Some(hero.hit_points)),
                outcome: if after.foe_hit_points == 0 {
                    "won"
                } else if after.hit_points == 0 {
                    "lost"
                } else {
                    "waiting"
                },
            })
        })
    }

    /// Where a character's fast static combat stands, as the front ends answer it
    /// (`{"fight": null}` when none is open).
    pub fn static_answer(&self, hero: &str) -> Result<StaticStatus, AppError> {
        Ok(StaticStatus {
            fight: self.static_status(hero)?,
        })
    }

    /// Where a character's fast static combat stands (`None` when none is open); a name no
    /// character of the campaign has is refused, not answered "no fight".
    pub fn static_status(&self, hero: &str) -> Result<Option<StaticView>, AppError> {
        let sheet = self
            .store
            .sheet(crate::characters::SYSTEM, hero)?
            .ok_or_else(|| AppError::NoSuchCharacter(hero.trim().to_owned()))?;
        let Some(stored) = read_open(self.store.sheet(SYSTEM, &sheet.name)?)? else {
            return Ok(None);
        };
        let state = rebuild(&stored)?;
        Ok(Some(StaticView {
            seqs: Vec::new(),
            odds: odds_of(&stored.setup, state),
            setup: stored.setup,
            state,
            rounds: serde_json::Value::Array(Vec::new()),
            call: None,
            sheet_hit_points: None,
            outcome: "waiting",
        }))
    }

    /// Abandons a character's open fast static combat: journaled; the sheet keeps what the
    /// rounds played cost.
    pub fn abandon_static(&mut self, hero: &str) -> Result<StaticView, AppError> {
        let at = self.now();
        crate::transact(&mut self.store, &self.by, |tx| {
            let stored = read_open(tx.sheet(SYSTEM, hero)?)?.ok_or_else(|| {
                crate::CombatRefusal::StaticState
                    .bare(format!("{hero} is in no fast static combat"))
            })?;
            let state = rebuild(&stored)?;
            write_open(tx, &stored.setup.hero, None)?;
            let record = StaticRecord {
                schema: STATIC_RECORD_SCHEMA,
                hero: stored.setup.hero.clone(),
                change: StaticChange::Abandoned { state },
            };
            let seq = journaling::append(tx, &at, &record)?;
            Ok(StaticView {
                seqs: vec![seq],
                odds: Vec::new(),
                setup: stored.setup.clone(),
                state,
                rounds: serde_json::Value::Array(Vec::new()),
                call: None,
                sheet_hit_points: None,
                outcome: "abandoned",
            })
        })
    }
}

/// The seed of a call, or its typed faces (at most [`MAX_STATIC_TYPED`]).
fn call_dice(dice: &Dice) -> Result<(Option<u64>, Option<Vec<u32>>), AppError> {
    Ok(match dice {
        Dice::Typed(faces) if faces.len() > MAX_STATIC_TYPED => {
            return Err(crate::CombatRefusal::Dice.at(
                "rolled",
                format!(
                    "{} values: at most {MAX_STATIC_TYPED} in one call",
                    faces.len()
                ),
            ));
        }
        Dice::Typed(f) => (None, Some(f.clone())),
        Dice::Seed(s) => (Some(*s), None),
        Dice::Fresh => (Some(SeededDice::from_entropy().seed()), None),
    })
}

/// The fight a call plays: the one open (the opposition is not named again), or a new one
/// against the opposition named, whose start is journaled first.
fn fight_to_play(
    hero: &Character,
    open: Option<StoredStatic>,
    request: &StaticRequest,
    records: &mut Vec<StaticRecord>,
) -> Result<StoredStatic, AppError> {
    let stored = match (open, &request.start) {
        (Some(_), Some(_)) => {
            return Err(crate::CombatRefusal::StaticState.bare(format!(
                "{} is already in a fast static combat: go on without naming the opposition, or abandon it",
                hero.name
            )));
        }
        (None, None) => {
            return Err(crate::CombatRefusal::StaticState.bare(format!(
                "{} is in no fast static combat: name the opposition (a foe of the bestiary, or its difficulty, hit points and damage)",
                hero.name
            )));
        }
        (Some(_), None) if request.weapon.is_some() => {
            return Err(crate::CombatRefusal::Weapon
                .at("weapon", "the weapon is chosen when the fight starts"));
        }
        (Some(s), None) => s,
        (None, Some(o)) => {
            if hero.is_out() {
                return Err(crate::CombatRefusal::Out.at(
                    "name",
                    format!("{} is out (0 hit points) and cannot fight", hero.name),
                ));
            }
            let setup = setup_of(hero, request.weapon.as_deref(), o.clone())?;
            records.push(StaticRecord {
                schema: STATIC_RECORD_SCHEMA,
                hero: hero.name.clone(),
                change: StaticChange::Started {
                    setup: setup.clone(),
                },
            });
            StoredStatic {
                setup,
                calls: Vec::new(),
            }
        }
    };
    if stored.calls.len() >= MAX_STATIC_CALLS {
        return Err(crate::CombatRefusal::StaticState.bare(format!(
            "the fight has {MAX_STATIC_CALLS} calls, the most one keeps: abandon it"
        )));
    }
    Ok(stored)
}

/// The background the call uses, as the sheet spells it (none when not asked).
fn chosen_background(
    stored: &StoredStatic,
    hero: &Character,
    request: &StaticRequest,
) -> Result<Option<String>, AppError> {
    let Some(b) = &request.background else {
        return Ok(None);
    };
    let backgrounds = &stored.setup.backgrounds;
    backgrounds
        .iter()
        .find(|x| x.eq_ignore_ascii_case(b.trim()))
        .cloned()
        .map(Some)
        .ok_or_else(|| {
            crate::CombatRefusal::Background.at(
                "background",
                format!(
                    "`{b}` is not a background of {} (backgrounds: {})",
                    hero.name,
                    if backgrounds.is_empty() {
                        "none".to_owned()
                    } else {
                        backgrounds.join(", ")
                    }
                ),
            )
        })
}

/// Plays a call's rounds from its seed or its typed faces; typed faces must end with a
/// round, and every one must be used. Returns the rounds and the faces they drew.
fn play_call(
    fight: &mut StaticCombat,
    seed: Option<u64>,
    typed: Option<&[u32]>,
) -> Result<(serde_json::Value, Vec<u32>), AppError> {
    let Some(f) = typed else {
        let seed = seed.expect("a seed without typed dice");
        let (rounds, faces, _) = play(fight, &mut SeededDice::new(seed))?;
        return Ok((rounds, faces));
    };
    let given = f.len();
    let (rounds, faces, partial) = play(fight, &mut TypedDice::new(f.to_vec()))?;
    if partial {
        return Err(AppError::DiceShort {
            given,
            why: format!(
                "the values after round {} stop inside a round: each round rolls the pool ({} dice), then a Rule-of-6 chain only above difficulty 6; give the whole round",
                faces_rounds(&rounds),
                fight.pool.dice()
            ),
        });
    }
    if faces.len() < given {
        return Err(crate::CombatRefusal::Dice.at(
            "rolled",
            format!(
                "{given} values given, the call used {}: the fight is over, or the call played its {MAX_CALL_ROUNDS} rounds",
                faces.len()
            ),
        ));
    }
    Ok((rounds, faces))
}

fn faces_rounds(rounds: &serde_json::Value) -> usize {
    rounds.as_array().map_or(0, Vec::len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> StaticSetup {
        StaticSetup {
            hero: "Nick".into(),
            weapon: "dagger".into(),
            pool: 3,
            bg_pool: 4,
            backgrounds: vec!["Acrobat Thief".into()],
            damage: 1,
            hit_points: 5,
            opposition: Opposition {
                name: "trooper squad".into(),
                difficulty: 4,
                hit_points: 5,
                damage: 2,
            },
        }
    }

    /// A call's record re-derives from its typed faces alone, and a changed face or hit point
    /// is named. Typed 1, 2, 3 (fail: Nick 5 − 2 = 3) then 4, 4, 4 (pass: the squad 5 − 1 = 4),
    /// then 4 alone, which stops inside the third round: two rounds, the 4 not used.
    #[test]
    fn a_call_re_derives_from_its_faces_and_a_change_is_named() {
        let before = StaticState {
            hit_points: 5,
            foe_hit_points: 5,
        };
        let mut fight = combat_of(&setup(), before, false).unwrap();
        let (rounds, faces, partial) =
            play(&mut fight, &mut TypedDice::new(vec![1, 2, 3, 4, 4, 4, 4])).unwrap();
        assert!(partial, "the last value stops inside a round");
        assert_eq!(faces, vec![1, 2, 3, 4, 4, 4]);
        let after = state_of(&fight);
        assert_eq!(
            after,
            StaticState {
                hit_points: 3,
                foe_hit_points: 4
            }
        );
        let record = |faces: Vec<u32>, after: StaticState| StaticRecord {
            schema: STATIC_RECORD_SCHEMA,
            hero: "Nick".into(),
            change: StaticChange::Rounds {
                setup: setup(),
                before,
                call: StaticCall {
                    background: None,
                    seed: None,
                    typed: true,
                    faces,
                },
                rounds: rounds.clone(),
                after,
                sheet: Some((5, 3)),
            },
        };
        assert_eq!(record(faces.clone(), after).replay(), None);
        assert!(record(vec![1, 2, 3, 4, 4, 5], after).replay().is_some());
        let wrong = StaticState {
            hit_points: 4,
            ..after
        };
        assert!(record(faces, wrong).replay().is_some());
        // From 3 against 4 hit points: 7203/8192 without the background (3 dice, p = 7/8:
        // p⁴(1 + 4q)), 253125/262144 with it (4 dice, p = 15/16).
        let odds = odds_of(&setup(), after);
        assert_eq!(odds[0].p_win_exact.as_deref(), Some("7203/8192"));
        assert_eq!(odds[1].background.as_deref(), Some("Acrobat Thief"));
        assert_eq!(odds[1].p_win_exact.as_deref(), Some("253125/262144"));
    }
}

#[cfg(test)]
mod opposition_bounds {
    use super::*;

    fn foe(difficulty: u32) -> Opposition {
        Opposition {
            name: "x".into(),
            difficulty,
            hit_points: 1,
            damage: 1,
        }
    }

    /// The documented 1–12 is what is enforced (the web took 13 before).
    #[test]
    fn a_static_oppositions_difficulty_is_1_to_12() {
        assert!(foe(1).check().is_ok());
        assert!(foe(12).check().is_ok());
        assert!(foe(0).check().is_err());
        let e = foe(13).check().unwrap_err().to_string();
        assert_eq!(
            e,
            "difficulty: 13: a static opposition's difficulty is 1 to 12"
        );
    }

    crate::bounded::bounded_tests!(
        static_difficulty,
        StaticDifficulty,
        "a static opposition's difficulty is 1 to 12"
    );

    /// A request's opposition is read with its numbers' types; a fight stored before the
    /// difficulty was held to 12 still reads as the [`Opposition`] it keeps.
    #[test]
    fn a_requests_opposition_is_typed_and_a_stored_one_reads_as_it_was() {
        let typed: TypedOpposition = serde_json::from_str(
            r#"{"name": "guards", "difficulty": 4, "hit_points": 3, "damage": 1}"#,
        )
        .unwrap();
        let kept = Opposition::from(typed);
        assert_eq!(
            serde_json::to_value(&kept).unwrap(),
            serde_json::json!({"name": "guards", "difficulty": 4, "hit_points": 3, "damage": 1})
        );
        for (json, words) in [
            (
                r#"{"name": "g", "difficulty": 13, "hit_points": 3, "damage": 1}"#,
                "a static opposition's difficulty is 1 to 12",
            ),
            (
                r#"{"name": "g", "difficulty": 4, "hit_points": 0, "damage": 1}"#,
                "hit points are 1 to 10000",
            ),
            (
                r#"{"name": "g", "difficulty": 4, "hit_points": 3, "damage": -1}"#,
                "damage is 0 to 1000000",
            ),
        ] {
            let e = serde_json::from_str::<TypedOpposition>(json).unwrap_err();
            assert!(e.to_string().contains(words), "{e}");
        }
        let old: Opposition = serde_json::from_str(
            r#"{"name": "guards", "difficulty": 13, "hit_points": 3, "damage": 1}"#,
        )
        .unwrap();
        assert_eq!(old.difficulty, 13);
    }
}
