//! Power-of-two latency buckets.

use crate::Run;

pub fn buckets(run: &Run) -> Vec<(u32, usize)> {
    let mut counts = vec![0usize; 64];
    for &s in &run.samples {
        let b = 63 - s.max(1).leading_zeros();
        counts[b as usize] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .filter(|(_, c)| *c > 0)
        .map(|(b, c)| (b as u32, c))
        .collect()
}
