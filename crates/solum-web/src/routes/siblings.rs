//! The sibling systems: Project Sol tests, the original's checks, Sol'una tests and die-type
//! rolls from the table's characters, through their own use cases in `solum-app`. Here: the
//! table's sheets of all four, and the roll every system's route shares.

use axum::extract::State;
use serde::Deserialize;
use solum_app::tables::{self};
use solum_app::{AppError, Campaign, Dice};
use solum_store::{Member, Store};

use crate::{
    ApiError, AppState, Auth, DiceEnvelope, Json, NoQuery, change, roll_scope, split, with_campaign,
};

#[utoipa::path(get, path = "/api/systems/characters", tag = "siblings", responses((status = 200, description = "Done", body = solum_app::siblings::SiblingCharacters)))]
pub(crate) async fn sibling_characters(
    State(state): State<AppState>,
    auth: Auth,
    _no_query: NoQuery,
) -> Result<Json<solum_app::siblings::SiblingCharacters>, ApiError> {
    let scope = tables::scope_of(&auth.member);
    with_campaign(&state, scope, |c| c.sibling_characters())
        .await
        .map(Json)
}

/// A roll's dice and secrecy, beside the system's own request.
pub(crate) struct SiblingRoll<T> {
    request: T,
    secret: bool,
    typed: Option<Vec<u32>>,
}

/// Described as `T`'s object with `secret` and `typed` beside its fields.
impl<T: utoipa::ToSchema> utoipa::__dev::ComposeSchema for SiblingRoll<T> {
    fn compose(
        _: Vec<utoipa::openapi::RefOr<utoipa::openapi::Schema>>,
    ) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        crate::openapi::with_envelope::<T>(true, true)
    }
}

impl<T: utoipa::ToSchema> utoipa::ToSchema for SiblingRoll<T> {
    fn name() -> std::borrow::Cow<'static, str> {
        format!("{}Roll", T::name()).into()
    }

    // `T`'s fields refer to its types by name (a `bounded!` number).
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        T::schemas(schemas);
    }
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for SiblingRoll<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (request, env): (_, DiceEnvelope) = split(d, &["secret", "typed"])?;
        Ok(Self {
            request,
            secret: env.secret,
            typed: env.typed,
        })
    }
}

/// A roll from one of the table's characters of a sibling system, in its turn: secret for a
/// game master only, a player's own character only, typed dice for a game master alone at
/// the table; then `roll` (the system's use case) with the character's name, the request and
/// the dice.
pub(crate) async fn sibling_roll<T, V>(
    state: &AppState,
    member: Member,
    system: &'static str,
    name: String,
    req: SiblingRoll<T>,
    roll: impl FnOnce(&mut Campaign<Box<dyn Store>>, &str, T, Dice) -> Result<V, AppError>
    + Send
    + 'static,
) -> Result<Json<V>, ApiError>
where
    T: Send + 'static,
    V: Send + 'static,
{
    let scope = roll_scope(&member, req.secret)?;
    change(state, scope, move |c| {
        c.as_roller_of(&member, system, &name, |c| {
            let dice = tables::live_dice(c.store(), &member, req.typed)?;
            roll(c, &name, req.request, dice)
        })
    })
    .await
    .map(Json)
}
