//! The table's characters of the four sibling systems (Project Sol, the original So1um,
//! Sol'una, the Solum die types) in one view, each with the member who created it: what the
//! web table lists beside the So1um Expanded sheets.

use serde::Serialize;
use solum_store::{CampaignStore, TableStore};

use crate::{AppError, Campaign};

/// A sheet of any system with who created it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Owned<T> {
    /// The sheet's own view.
    #[serde(flatten)]
    pub view: T,
    /// The member who created it (none: made at the command line).
    pub owner: Option<i64>,
}

/// The table's characters of the four sibling systems, each list by name.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiblingCharacters {
    /// Project Sol.
    pub sol: Vec<Owned<crate::sol::SolSheetView>>,
    /// The original So1um.
    pub classic: Vec<Owned<crate::classic::HeroView>>,
    /// Sol'una.
    pub soluna: Vec<Owned<crate::soluna::SolunaView>>,
    /// The Solum die types.
    pub dietype: Vec<Owned<crate::dietype::DietypeView>>,
}

impl<S: CampaignStore + TableStore> Campaign<S> {
    /// Every character of the four sibling systems at the table, each with who created it
    /// (one read of the owners per system).
    pub fn sibling_characters(&self) -> Result<SiblingCharacters, AppError> {
        Ok(SiblingCharacters {
            sol: self.owned_sols()?,
            classic: self.owned_classic_heroes()?,
            soluna: self.owned_soluna_characters()?,
            dietype: self.owned_dietype_characters()?,
        })
    }

    /// The Project Sol characters, each with who created it (`solum sol list`).
    pub fn owned_sols(&self) -> Result<Vec<Owned<crate::sol::SolSheetView>>, AppError> {
        self.owned(crate::sol::SYSTEM, self.sols()?, |v| &v.sheet.name)
    }

    /// The original So1um's heroes, each with who created it (`solum classic list`).
    pub fn owned_classic_heroes(&self) -> Result<Vec<Owned<crate::classic::HeroView>>, AppError> {
        self.owned(crate::classic::SYSTEM, self.classic_heroes()?, |v| {
            &v.hero.name
        })
    }

    /// The Sol'una characters, each with who created it (`solum soluna list`).
    pub fn owned_soluna_characters(
        &self,
    ) -> Result<Vec<Owned<crate::soluna::SolunaView>>, AppError> {
        self.owned(crate::soluna::SYSTEM, self.soluna_characters()?, |v| {
            &v.character.name
        })
    }

    /// The die-type characters, each with who created it (`solum dietype list`).
    pub fn owned_dietype_characters(
        &self,
    ) -> Result<Vec<Owned<crate::dietype::DietypeView>>, AppError> {
        self.owned(crate::dietype::SYSTEM, self.dietype_characters()?, |v| {
            &v.sheet.name
        })
    }

    fn owned<T>(
        &self,
        system: &str,
        views: Vec<T>,
        name: impl Fn(&T) -> &str,
    ) -> Result<Vec<Owned<T>>, AppError> {
        let owners: std::collections::HashMap<String, Option<i64>> =
            self.store().sheet_owners(system)?.into_iter().collect();
        Ok(views
            .into_iter()
            .map(|view| {
                let owner = owners.get(name(&view)).copied().flatten();
                Owned { view, owner }
            })
            .collect())
    }
}
