//! The store's conformance suite (`solum_store::conformance`) on PostgreSQL: each guarantee on
//! a fresh database of the test server.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use solum_store::Store;
use solum_store_postgres::PostgresStore;
use solum_testpg::TestPostgres;

#[test]
fn postgres_keeps_every_guarantee_of_a_store() {
    let server = TestPostgres::shared().unwrap_or_else(|e| panic!("{e}"));
    solum_store::conformance::run_all(&|| {
        let url = server
            .database("conformance")
            .unwrap_or_else(|e| panic!("{e}"));
        Box::new(PostgresStore::open(&url).unwrap_or_else(|e| panic!("{e}"))) as Box<dyn Store>
    });
}
