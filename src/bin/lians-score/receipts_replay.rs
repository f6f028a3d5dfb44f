//! `verify-replay`: receipt conformance cases in, checker lines out. (stub)

pub fn run(_args: &[String]) -> Result<(), String> {
    Err("verify-replay is not implemented yet".into())
}
