//! The line language of `solum combat`: any bytes, read the way a script on standard input
//! is (bounded lines, byte-order mark, UTF-8), then each line parsed. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solum_cli::storage::Lines;
use solum_expanded::line::parse_line;

fuzz_target!(|data: &[u8]| {
    let mut lines = Lines::new(data);
    while let Ok(Some(line)) = lines.next_line() {
        let _ = parse_line(&line);
    }
});
