//! How the app's answer types are named in the web's OpenAPI description (feature
//! `openapi`, which solum-web turns on): each view is an object named after its type. The
//! request types the app owns derive their schemas where they are declared.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

/// Describes each type as a JSON object titled and named after it.
macro_rules! views {
    ($($t:path),* $(,)?) => {$(
        impl utoipa::PartialSchema for $t {
            fn schema() -> RefOr<Schema> {
                object(short(stringify!($t)), "as `--json` prints it too")
            }
        }
        impl utoipa::ToSchema for $t {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(short(stringify!($t)))
            }
        }
    )*};
}

/// `journal::JournalEntry` → `JournalEntry`.
fn short(path: &'static str) -> &'static str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

fn object(name: &str, what: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .title(Some(name))
        .description(Some(format!("solum-app's `{name}`, {what}")))
        .into()
}

views!(
    crate::journal::JournalEntry,
    crate::tables::Joined,
    crate::tables::InviteView,
    crate::tables::OwnedCharacter,
    crate::tables::Invite,
    crate::tables::Reentry,
    crate::tables::MemberView,
    crate::expression::ExpressionOdds,
    crate::fight_odds::FightOddsView,
    crate::vehicles::JournaledVehicleRoll,
    crate::vehicles::VehicleListView,
    crate::vehicles::VehicleOddsView,
    crate::IdeaView,
    crate::OracleView,
    crate::VerifyReport,
    crate::characters::ChangeView,
    crate::characters::CharacterView,
    crate::characters::CheckOdds,
    crate::characters::CheckView,
    crate::classic::FightView,
    crate::classic::HeroChangeView,
    crate::classic::HeroCheckView,
    crate::combat::CombatEndView,
    crate::combat::CombatLineView,
    crate::combat::CombatStartView,
    crate::creatures::BestiaryView,
    crate::dietype::DietypeChangeView,
    crate::dietype::DietypeRollView,
    crate::fast_static::StaticView,
    crate::notation::NotationView,
    crate::sol::SolChangeView,
    crate::sol::SolTestView,
    crate::soluna::PlayView,
    crate::soluna::SolunaChangeView,
    crate::soluna::SolunaTestView,
    crate::soluna::SkirmishState,
    crate::soluna::SolunaView,
    crate::classic::FightStateView,
    crate::classic::BookView,
    crate::classic::HeroView,
    crate::sol::SolSheetView,
    crate::dietype::DietypeView,
    crate::combat::CombatStatus,
);
