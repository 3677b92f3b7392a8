//! The odds of a fight: many seeded fights of the documented tactic ([`crate::sim`]),
//! summed into a win rate with its 95% interval, the mean rounds and the hit points left.
//!
//! Bounded twice, before anything long starts: a number of fights ([`SimLimits`]), and the
//! work a seeded pilot of a few fights estimates (dice rolled and fighters considered), which
//! bounds the time. The web table takes [`SimLimits::WEB`] (20,000 fights, a tenth of the
//! command line's work: about 0.2 s of a release build on two cores); `solum sim` takes
//! [`SimLimits::COMMAND_LINE`].

use crate::sim::{Encounter, MAX_SIM_WORK, SimError, check_work, run_with};
use serde::{Deserialize, Serialize};
use solum_dice::SeededDice;
use solum_expanded::check::DrawRule;
use solum_expanded::combat::{Fighter, Mode};
use solum_expanded::creature::Bestiary;
use solum_store::CampaignStore;

use crate::combat::FoeCount;
use crate::combat::SheetResolver;
pub use crate::sim_refusal::{MAX_SIDE, SimRefusal};
use crate::{AppError, Campaign};

/// The side names of a simulated fight.
pub const HEROES: &str = "heroes";
/// The other side.
pub const FOES: &str = "foes";

/// How many fights, and how much work, one simulation may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimLimits {
    /// The most fights.
    pub max_fights: u64,
    /// The most work in steps (dice rolled and fighters considered), as estimated by a
    /// seeded pilot before the run.
    pub max_work: u64,
}

impl SimLimits {
    /// The web table's: 20,000 fights, and a tenth of the command line's work.
    pub const WEB: Self = Self {
        max_fights: 20_000,
        max_work: MAX_SIM_WORK / 10,
    };
    /// The command line's: enough for any precision a designer needs.
    pub const COMMAND_LINE: Self = Self {
        max_fights: 1_000_000_000,
        max_work: MAX_SIM_WORK,
    };
}

/// The fights run when none is asked for.
pub const DEFAULT_FIGHTS: u64 = 5_000;

/// Who acts first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Ambush {
    /// The heroes ambush: they act first.
    Heroes,
    /// The foes ambush.
    Foes,
}

/// How the fights are fought.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SimOptions {
    /// Fights to run ([`DEFAULT_FIGHTS`] when not given; the web table runs at most
    /// 20,000).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 20_000))]
    pub fights: Option<u64>,
    /// The seed (a fresh one when not given); the same seed and fights give the same figures.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Draws of opposed rolls rolled off.
    #[serde(default)]
    pub roll_off: bool,
    /// Alternative combat (S15: no initiative, the listed order).
    #[serde(default)]
    pub alternative: bool,
    /// A side that ambushes (acts first) instead of rolled initiative.
    #[serde(default)]
    pub ambush: Option<Ambush>,
}

/// What to simulate at the table: the open combat's sides as they stand, or characters of
/// the campaign against foes of the bestiaries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightOddsInput {
    /// The open combat's fighters with their hit points now (its ranges and turn are not
    /// kept: each fight starts afresh).
    #[serde(default)]
    pub current_combat: bool,
    /// Characters of the campaign, by name (at most 20).
    #[serde(default)]
    pub heroes: Vec<String>,
    /// Foes of the shipped bestiary or the campaign's, by name and count (at most 20
    /// kinds).
    #[serde(default)]
    pub foes: Vec<FoeCount>,
    /// How the fights are fought.
    #[serde(flatten)]
    pub options: SimOptions,
}

/// One object with the options' fields beside its own (they are flattened into it), no
/// other field: described whole, as `allOf` of two closed objects would admit nothing.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for FightOddsInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
        let RefOr::T(Schema::Object(mut o)) = <SimOptions as utoipa::PartialSchema>::schema()
        else {
            return RefOr::T(Schema::default());
        };
        // Each field of the type, so that a field added to it fails to compile here.
        let _every_field = |f: &FightOddsInput| {
            let FightOddsInput {
                current_combat: _,
                heroes: _,
                foes: _,
                options: _,
            } = f;
        };
        let list = |item: RefOr<Schema>, what: &str| {
            ArrayBuilder::new()
                .items(item)
                .max_items(Some(20))
                .description(Some(what))
                .build()
        };
        o.properties.insert(
            "current_combat".into(),
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .description(Some(
                    "The open combat's fighters with their hit points now.",
                ))
                .into(),
        );
        o.properties.insert(
            "heroes".into(),
            list(
                ObjectBuilder::new().schema_type(Type::String).into(),
                "Characters of the campaign, by name (at most 20).",
            )
            .into(),
        );
        o.properties.insert(
            "foes".into(),
            list(
                <FoeCount as utoipa::PartialSchema>::schema(),
                "Foes of the bestiaries, by name and count (at most 20 kinds).",
            )
            .into(),
        );
        o.description = Some(
            "What to simulate at the table: the open combat's sides as they stand, or \
             characters of the campaign against foes of the bestiaries."
                .into(),
        );
        RefOr::T(Schema::Object(o))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for FightOddsInput {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        // The options refer to the ambush by name, a foe's count to its type.
        schemas.push(("Ambush".into(), <Ambush as utoipa::PartialSchema>::schema()));
        <FoeCount as utoipa::ToSchema>::schemas(schemas);
    }
}

/// The odds of a fight, as `solum sim --json` prints them and the web table answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FightOddsView {
    /// Fights run.
    pub fights: u64,
    /// The seed: the same seed and fights give the same figures.
    pub seed: u64,
    /// Fighters on the heroes' side.
    pub heroes: usize,
    /// Fighters on the other side.
    pub foes: usize,
    /// Their names, heroes first.
    pub names: Vec<String>,
    /// Fights the heroes won.
    pub wins: u64,
    /// Fights the foes won.
    pub losses: u64,
    /// Neither (both out, or stopped after the most rounds).
    pub undecided: u64,
    /// The heroes' win rate.
    pub win_rate: f64,
    /// Its 95% Wilson interval.
    pub win_rate_95: [f64; 2],
    /// Rounds (or exchanges) per fight, on average.
    pub mean_rounds: f64,
    /// The heroes' hit points left, on average.
    pub mean_hero_hit_points_left: f64,
    /// The foes' hit points left, on average.
    pub mean_foe_hit_points_left: f64,
    /// Rounds after which a fight is stopped as undecided.
    pub max_rounds: u32,
}

/// Simulates `fighters` (the heroes' side first: the first `heroes` of them), within
/// `limits`. `progress` is told the fights done, once per chunk.
pub fn simulate(
    fighters: &[Fighter],
    heroes: usize,
    options: &SimOptions,
    limits: SimLimits,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<FightOddsView, AppError> {
    let fights = options
        .fights
        .unwrap_or(DEFAULT_FIGHTS.min(limits.max_fights));
    if !(1..=limits.max_fights).contains(&fights) {
        return Err(SimRefusal::Fights {
            asked: fights,
            max: limits.max_fights,
        }
        .into());
    }
    let foes = fighters.len().saturating_sub(heroes);
    for (side, count) in [(HEROES, heroes), (FOES, foes)] {
        if count == 0 {
            return Err(SimRefusal::EmptySide(side).into());
        }
        if count > MAX_SIDE {
            return Err(SimRefusal::CrowdedSide { side, count }.into());
        }
    }
    let seed = options
        .seed
        .unwrap_or_else(|| SeededDice::from_entropy().seed());
    let mode = if options.alternative {
        Mode::Alternative
    } else {
        Mode::Standard
    };
    let (hero_side, foe_side) = (fighters[0].side.clone(), fighters[heroes].side.clone());
    let ambush = options.ambush.map(|a| match a {
        Ambush::Heroes => hero_side.clone(),
        Ambush::Foes => foe_side.clone(),
    });
    let draws = if options.roll_off {
        DrawRule::RollOff
    } else {
        DrawRule::Stand
    };
    let make = || Encounter::new(fighters, mode, ambush.as_deref()).with_draws(draws);
    let too_much = |steps_each: f64, most: u64| SimRefusal::TooMuchWork {
        asked: fights,
        steps_each,
        max_work: limits.max_work,
        most,
    };
    let estimate = check_work(fights, seed, make, |e, d| e.fight(d), Encounter::considered)
        .map_err(|e| match e {
            SimError::TooMuchWork {
                steps_each, most, ..
            } => AppError::from(too_much(
                steps_each,
                most.min(limits.max_work.saturating_div(steps_each.max(1.0) as u64)),
            )),
            // Seeded dice do not fail, and a tactic that breaks a rule is a bug of the
            // simulation's, not the request's.
            other => AppError::internal("simulation", other),
        })?;
    let most = (limits.max_work as f64 / estimate.steps_per_fight).floor() as u64;
    if fights > most {
        return Err(too_much(estimate.steps_per_fight, most).into());
    }
    let tally = run_with(fights, seed, progress, make, |e, d| e.fight(d))
        .map_err(|e| AppError::internal("simulation", e))?;
    let (lo, hi) = tally.win_interval();
    Ok(FightOddsView {
        fights: tally.fights,
        seed,
        heroes,
        foes,
        names: fighters.iter().map(|f| f.name.clone()).collect(),
        wins: tally.wins,
        losses: tally.losses,
        undecided: tally.undecided,
        win_rate: tally.win_rate(),
        win_rate_95: [lo, hi],
        mean_rounds: tally.mean_rounds(),
        mean_hero_hit_points_left: tally.mean_hit_points_left(),
        mean_foe_hit_points_left: tally.mean_foe_hit_points_left(),
        max_rounds: crate::sim::MAX_ROUNDS,
    })
}

impl<S: CampaignStore> Campaign<S> {
    /// The odds of a fight at the table, within `limits`: the open combat's sides (hit points
    /// as they stand), or characters of the campaign against foes of the shipped bestiary
    /// and the campaign's. Reads only: nothing is journaled.
    pub fn fight_odds(
        &self,
        input: &FightOddsInput,
        limits: SimLimits,
    ) -> Result<FightOddsView, AppError> {
        let (fighters, heroes) = if input.current_combat {
            if !input.heroes.is_empty() || !input.foes.is_empty() {
                return Err(SimRefusal::CombatAndChosen.into());
            }
            let all = crate::combat::open_fighters(&self.store)?.ok_or(SimRefusal::NoCombat)?;
            // The heroes' side first: the side of the first hero (or of the first fighter).
            let side = all
                .iter()
                .find(|f| f.hero)
                .or(all.first())
                .map(|f| f.side.clone())
                .unwrap_or_default();
            let (mut mine, theirs): (Vec<Fighter>, Vec<Fighter>) =
                all.into_iter().partition(|f| f.side == side);
            let heroes = mine.len();
            mine.extend(theirs);
            (mine, heroes)
        } else {
            self.chosen_fighters(input)?
        };
        simulate(&fighters, heroes, &input.options, limits, &|_| {})
    }

    /// Characters of the campaign against foes of the bestiaries.
    fn chosen_fighters(&self, input: &FightOddsInput) -> Result<(Vec<Fighter>, usize), AppError> {
        let most = crate::combat::MAX_SETUP_ENTRIES;
        if input.heroes.len() > most {
            return Err(crate::CombatRefusal::Setup.at(
                "heroes",
                format!("{} heroes; at most {most}", input.heroes.len()),
            ));
        }
        if input.foes.len() > most {
            return Err(crate::CombatRefusal::Setup.at(
                "foes",
                format!("{} kinds of foes; at most {most}", input.foes.len()),
            ));
        }
        // The whole side counted before any fighter is made: the refusal names what was asked.
        let asked = input
            .foes
            .iter()
            .fold(0usize, |n, f| n.saturating_add(f.count.get() as usize));
        if asked > MAX_SIDE {
            return Err(SimRefusal::CrowdedSide {
                side: FOES,
                count: asked,
            }
            .into());
        }
        let mut out = Vec::new();
        for name in &input.heroes {
            let name = crate::name("heroes", name, crate::characters::MAX_NAME)?;
            let sheet = self
                .store
                .sheet(crate::characters::SYSTEM, &name)?
                .ok_or_else(|| AppError::NoSuchCharacter(name.clone()))?;
            let hero = crate::combat::character_of(&sheet)?;
            if out.iter().any(|f: &Fighter| f.name == hero.name) {
                return Err(crate::CombatRefusal::Setup
                    .at("heroes", format!("{} is named twice", hero.name)));
            }
            out.push(
                Fighter::hero(&hero, HEROES, true)
                    .map_err(|e| crate::CombatRefusal::Setup.at("heroes", e.to_string()))?,
            );
        }
        let heroes = out.len();
        let shipped = Bestiary::shipped();
        for foe in &input.foes {
            let name = crate::name("foes", &foe.name, crate::creatures::MAX_CREATURE_NAME)?;
            let creature = match shipped.creature(&name) {
                Some(c) => c.clone(),
                None => crate::creatures::campaign_creature_of(&self.store, &name)?.ok_or_else(
                    || crate::CombatRefusal::Setup.at("foes", format!("{name}: no such creature")),
                )?,
            };
            let template = Fighter::creature(&creature, &name, FOES)
                .map_err(|e| crate::CombatRefusal::Setup.at("foes", e.to_string()))?;
            push_named(&mut out, &template, &name, foe.count.get());
            if out.len() - heroes > MAX_SIDE {
                return Err(SimRefusal::CrowdedSide {
                    side: FOES,
                    count: out.len() - heroes,
                }
                .into());
            }
        }
        Ok((out, heroes))
    }
}

/// Adds `count` copies of `template` named as the table names them: `key` alone, or
/// `key-1`, `key-2`, … (the name's words joined by `-`); a name already taken gets the
/// fighter's place as a suffix.
fn push_named(out: &mut Vec<Fighter>, template: &Fighter, name: &str, count: u32) {
    let key = name.split_whitespace().collect::<Vec<_>>().join("-");
    for i in 0..count {
        let label = if count == 1 {
            key.clone()
        } else {
            format!("{key}-{}", i + 1)
        };
        let label = if out.iter().any(|f: &Fighter| f.name == label) {
            format!("{label}-{}", out.len() + 1)
        } else {
            label
        };
        let mut f = template.clone();
        f.name = label;
        out.push(f);
    }
}

/// The longest fighter spec of [`simulate_specs`], in characters.
pub const MAX_SPEC: usize = 200;

/// One spec of a one-shot simulation as a fighter of `side` and a count: `SPEC[*N]`.
fn fighter_of_spec(
    spec: &str,
    side: &'static str,
    bestiary: &Bestiary,
    sheets: &dyn SheetResolver,
) -> Result<(Fighter, Option<String>, u32), AppError> {
    let field = if side == HEROES { "--hero" } else { "--foe" };
    let refuse = |problem: String| crate::CombatRefusal::Setup.at(field, problem);
    let spec = crate::text(field, spec, MAX_SPEC, false)?;
    let hero = side == HEROES;
    let (body, count) = match spec.rsplit_once('*') {
        Some((b, n)) => (
            b,
            n.parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_SIDE as u32).contains(n))
                .ok_or_else(|| refuse(format!("`{spec}`: the count after * is 1 to {MAX_SIDE}")))?,
        ),
        None => (spec.as_str(), 1),
    };
    if body.ends_with(".toml") {
        let sheet = sheets.sheet(body).map_err(refuse)?;
        let f = Fighter::hero(&sheet, side, true).map_err(|e| refuse(e.to_string()))?;
        return Ok((f, Some(sheet.name.clone()), count));
    }
    if body.contains('=') {
        let f = typed_in(body, &spec, side, hero).map_err(refuse)?;
        return Ok((f, None, count));
    }
    let creature = bestiary.creature(body).ok_or_else(|| {
        refuse(format!(
            "`{body}` is not in the bestiary, not a .toml sheet, and not pool=..,hp=.."
        ))
    })?;
    let mut f = Fighter::creature(creature, body, side).map_err(|e| refuse(e.to_string()))?;
    f.hero = hero;
    Ok((f, Some(body.to_owned()), count))
}

/// A fighter typed in as `pool=3,hp=5[,damage=2][,ranged=1][,mind=2]`.
fn typed_in(body: &str, spec: &str, side: &str, hero: bool) -> Result<Fighter, String> {
    use solum_expanded::fight::MAX_DAMAGE;
    let (mut pool, mut hp, mut damage, mut ranged, mut mind) = (None, None, 1, None, 1);
    for kv in body.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("`{kv}` in `{spec}`: write key=value"))?;
        let n: u32 = v
            .trim()
            .parse()
            .map_err(|_| format!("`{kv}` in `{spec}`: `{v}` is not a number"))?;
        let damage_in = |n: u32| {
            (n <= MAX_DAMAGE)
                .then_some(n)
                .ok_or_else(|| format!("`{kv}` in `{spec}`: damage is 0 to {MAX_DAMAGE}"))
        };
        match k.trim() {
            "pool" => pool = Some(n),
            "hp" => hp = Some(n),
            "damage" => damage = damage_in(n)?,
            "ranged" => ranged = Some(damage_in(n)?),
            "mind" if (1..=solum_expanded::MAX_POOL).contains(&n) => mind = n,
            "mind" => {
                return Err(format!(
                    "`{kv}` in `{spec}`: mind is 1 to {}",
                    solum_expanded::MAX_POOL
                ));
            }
            other => {
                return Err(format!(
                    "`{other}` in `{spec}`: keys are pool, hp, damage, ranged, mind"
                ));
            }
        }
    }
    let pool = solum_expanded::Pool::new(u64::from(
        pool.ok_or_else(|| format!("`{spec}`: pool= is missing"))?,
    ))
    .map_err(|e| format!("`{spec}`: {e}"))?;
    let hp = hp
        .filter(|h| (1..=10_000).contains(h))
        .ok_or_else(|| format!("`{spec}`: hp= 1 to 10000 is needed"))?;
    let mut f = Fighter::plain("", side, hero, pool, damage, ranged, hp);
    f.mind = mind;
    Ok(f)
}

/// A one-shot simulation (`solum sim`): the heroes' and the foes' specs, each `SPEC[*N]`
/// where SPEC is a sheet file (`….toml`, found through `sheets`), typed-in stats
/// (`pool=3,hp=5[,damage=2][,ranged=1][,mind=2]`) or a creature of `bestiary`. Fighters are
/// named as the table's simulation names them (a sheet's character, `orc` or `orc-1`, `orc-2`
/// …; typed-in ones by their side and place, `heroes-1`, `foes-2` …), so the same fight answers the same view here
/// and at the table. At most [`MAX_SIDE`] fighters a side, counted before any is made.
#[allow(clippy::too_many_arguments)]
pub fn simulate_specs(
    heroes: &[String],
    foes: &[String],
    bestiary: &Bestiary,
    sheets: &dyn SheetResolver,
    options: &SimOptions,
    limits: SimLimits,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<FightOddsView, AppError> {
    let mut all = Vec::new();
    let mut hero_count = 0;
    for (specs, side) in [(heroes, HEROES), (foes, FOES)] {
        if specs.len() > MAX_SIDE {
            return Err(SimRefusal::CrowdedSide {
                side,
                count: specs.len(),
            }
            .into());
        }
        let mut fighters = Vec::new();
        let mut asked = 0usize;
        for spec in specs {
            let (template, name, count) = fighter_of_spec(spec, side, bestiary, sheets)?;
            asked = asked.saturating_add(count as usize);
            if asked > MAX_SIDE {
                return Err(SimRefusal::CrowdedSide { side, count: asked }.into());
            }
            match name {
                Some(name) => push_named(&mut fighters, &template, &name, count),
                // Typed-in fighters have no name of their own: the side's, numbered.
                None => {
                    for _ in 0..count {
                        let mut f = template.clone();
                        f.name = format!("{side}-{}", fighters.len() + 1);
                        fighters.push(f);
                    }
                }
            }
        }
        if side == HEROES {
            hero_count = fighters.len();
        }
        all.extend(fighters);
    }
    simulate(&all, hero_count, options, limits, progress)
}
