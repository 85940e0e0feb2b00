//! The `reversi` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    reversi::cli::main()
}
