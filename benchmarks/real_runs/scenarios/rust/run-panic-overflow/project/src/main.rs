use std::env;
use std::fs;
use std::process::ExitCode;

/// A djb2-style rolling hash over the bytes of each line.
fn line_hash(line: &str) -> u32 {
    let mut h: u32 = 5381;
    for b in line.bytes() {
        h = h * 33 + b as u32;
    }
    h
}

fn main() -> ExitCode {
    let Some(path) = env::args().nth(1) else {
        eprintln!("usage: hashsum FILE");
        return ExitCode::from(2);
    };
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hashsum: {path}: {e}");
            return ExitCode::from(1);
        }
    };
    println!("hashing {} lines from {}", text.lines().count(), path);
    for (i, line) in text.lines().enumerate() {
        println!("{:>4} {:08x}  {}", i + 1, line_hash(line), line);
    }
    ExitCode::SUCCESS
}
