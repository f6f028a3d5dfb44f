//! `replay`: scoring vectors in, checker lines out. (stub)

pub fn run(_args: &[String]) -> Result<(), String> {
    Err("replay is not implemented yet".into())
}
