//! The `solum` binary: a thin shell over the rules crates.

/// mimalloc rather than glibc's allocator: the web table allocates many small, short-lived
/// buffers per request (JSON in and out, rows), and under load glibc's `malloc`/`free` and
/// their consolidation took about a fifth of the server's time (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    solum_cli::main_with_args(std::env::args_os())
}
