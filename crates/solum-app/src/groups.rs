//! Writes of a piped script committed in groups: one transaction (one disk sync) per
//! [`GROUP_LINES`] lines or [`GROUP_TIME`], whichever comes first, instead of one per line.
//! Each line stays all or nothing (a savepoint in the group): a refused line changes
//! nothing and the lines before it are kept. A group is durable when it commits; a process
//! killed in the middle of a group loses that group's lines, never part of a line.

use std::time::{Duration, Instant};

use solum_store::CampaignStore;

use crate::{AppError, Campaign};

/// The most lines one group holds.
pub const GROUP_LINES: usize = 256;

/// The longest a group stays open, from its first line.
pub const GROUP_TIME: Duration = Duration::from_millis(250);

/// The state of the groups of one script.
#[derive(Debug, Default)]
pub struct Groups {
    /// Lines in the open group, and when it opened; `None`: no group is open.
    open: Option<(usize, Instant)>,
    /// Groups committed so far.
    committed: usize,
}

impl Groups {
    /// No group open yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Before a line run on the campaign's own connection: opens a group when none is.
    pub fn before_line<S: CampaignStore>(
        &mut self,
        campaign: &mut Campaign<S>,
    ) -> Result<(), AppError> {
        if self.open.is_none() {
            campaign.begin_group()?;
            self.open = Some((0, Instant::now()));
        }
        Ok(())
    }

    /// After such a line: commits the group when it is full or old.
    pub fn after_line<S: CampaignStore>(
        &mut self,
        campaign: &mut Campaign<S>,
    ) -> Result<(), AppError> {
        if let Some((lines, since)) = &mut self.open {
            *lines += 1;
            if *lines >= GROUP_LINES || since.elapsed() >= GROUP_TIME {
                self.commit(campaign)?;
            }
        }
        Ok(())
    }

    /// Commits the open group now: at the end of the script, and before a line that writes
    /// through another connection (which would wait for this one's lock).
    pub fn commit<S: CampaignStore>(&mut self, campaign: &mut Campaign<S>) -> Result<(), AppError> {
        if self.open.take().is_some() {
            campaign.end_group()?;
            self.committed += 1;
        }
        Ok(())
    }

    /// Groups committed so far.
    pub fn committed(&self) -> usize {
        self.committed
    }
}
