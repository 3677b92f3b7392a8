//! Invites on PostgreSQL when two servers act at once: a replacement of a table's game
//! master invites (what each `solum serve` does as it starts) revokes every other unused one
//! in the same transaction, so servers started together leave one working link, not two.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use std::sync::{Arc, Barrier};

use solum_store::{OtherInvites, TableStore};
use solum_store_postgres::PostgresStore;
use solum_testpg::TestPostgres;

#[test]
fn replacements_at_once_leave_one_unused_game_master_invite() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    let url = server.database("invites").unwrap_or_else(|e| panic!("{e}"));
    drop(PostgresStore::open(&url).unwrap());
    let at = "2026-12-03T00:00:00Z".parse().unwrap();
    let expires = "2026-12-03T00:15:00Z".parse().unwrap();
    const ROUNDS: usize = 30;
    let barrier = Arc::new(Barrier::new(2));
    let servers: Vec<_> = (0..2)
        .map(|n| {
            let (url, barrier) = (url.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut store = PostgresStore::open(&url).unwrap();
                for round in 0..ROUNDS {
                    barrier.wait();
                    store
                        .add_invite(
                            0,
                            true,
                            &format!("{n}-{round}"),
                            at,
                            expires,
                            OtherInvites::Revoked,
                        )
                        .unwrap();
                    barrier.wait();
                    // Both replacements of this round are committed: one invite is open.
                    if n == 0 {
                        let open = store
                            .invites(0)
                            .unwrap()
                            .into_iter()
                            .filter(|i| i.gm && i.used_by.is_none() && !i.revoked)
                            .count();
                        assert_eq!(open, 1, "round {round}: {open} game master invites open");
                    }
                    barrier.wait();
                }
            })
        })
        .collect();
    for s in servers {
        s.join().unwrap();
    }
}
