//! The `solum` binary: a thin shell over the rules crates.

fn main() -> std::process::ExitCode {
    solum_cli::main_with_args(std::env::args_os())
}
