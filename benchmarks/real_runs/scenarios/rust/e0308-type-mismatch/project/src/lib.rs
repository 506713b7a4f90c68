//! Invoice totals.

pub struct Line {
    pub qty: u32,
    pub unit_cents: u64,
}

pub fn line_total(line: &Line) -> u64 {
    line.qty as u64 * line.unit_cents
}

/// Total of all lines in cents.
pub fn total_cents(lines: &[Line]) -> u64 {
    let sum: u64 = lines.iter().map(line_total).sum();
    format!("{}", sum)
}

/// Total formatted as dollars.
pub fn total_display(lines: &[Line]) -> String {
    let c = total_cents(lines);
    format!("${}.{:02}", c / 100, c % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_lines() {
        let lines = [Line { qty: 2, unit_cents: 150 }, Line { qty: 1, unit_cents: 99 }];
        assert_eq!(total_cents(&lines), 399);
    }
}
