//! The `nimtab` binary: argument parsing and output; the work lives in the library.

mod cli;

fn main() {
    cli::main()
}
