//! Log level counting.
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

pub mod parse;

#[derive(Debug)]
pub struct Stats {
    pub lines: usize,
    pub errors: usize,
    pub warnings: usize,
    started: u64,
}

impl Stats {
    pub fn new(lines: usize, errors: usize, warnings: usize) -> Self {
        Stats { lines, errors, warnings, started: 0 }
    }
}

pub fn count_levels(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    let mut longest = 0;
    for line in text.lines() {
        let level = parse::level(line);
        *counts.entry(level.to_string()).or_insert(0) += 1;
    }
    counts
}

fn legacy_count(text: &str) -> usize {
    text.lines().filter(|l| parse::old_level(l) == "ERROR").count()
}
