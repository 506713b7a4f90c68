//! Retry an operation with a log line per failed attempt.
use std::fmt::Display;

pub fn log(level: &str, msg: impl Display) {
    println!("[{level:<5}] retry-client: {msg}");
}

/// Run `op` up to `attempts` times; each failure is logged at ERROR, the last one returned.
pub fn with_retries<T, E: Display>(
    attempts: u32,
    mut op: impl FnMut(u32) -> Result<T, E>,
) -> Result<T, E> {
    let mut n = 1;
    loop {
        match op(n) {
            Ok(v) => {
                log("INFO", format_args!("attempt {n} succeeded"));
                return Ok(v);
            }
            Err(e) if n < attempts => {
                log("ERROR", format_args!("attempt {n}/{attempts} failed: {e}; retrying"));
                n += 1;
            }
            Err(e) => {
                log("ERROR", format_args!("attempt {n}/{attempts} failed: {e}; giving up"));
                return Err(e);
            }
        }
    }
}
