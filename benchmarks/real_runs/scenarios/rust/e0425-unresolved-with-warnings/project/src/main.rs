use std::fs;

use logscan::{count_levels, Stats};

fn summary(stats: &Stats) -> String {
    let ratio = stats.errors as f64 / stats.lines.max(1) as f64 * 100.0;
    format!(
        "{} lines, {} errors, {} warnings ({:.1}%)",
        stats.lines, stats.errors, stats.warnings, ratio_pct
    )
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "app.log".into());
    let text = fs::read_to_string(&path).unwrap_or_default();
    let counts = count_levels(&text);
    let stats = Stats::new(
        text.lines().count(),
        *counts.get("ERROR").unwrap_or(&0),
        *counts.get("WARN").unwrap_or(&0),
    );
    println!("{}", summary(&stats));
}
