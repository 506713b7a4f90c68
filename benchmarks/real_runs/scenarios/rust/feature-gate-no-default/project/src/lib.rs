//! Summary statistics for benchmark runs.

#[cfg(feature = "histogram")]
pub mod histogram;
#[cfg(feature = "json")]
pub mod json;
pub mod report;

/// One benchmark's samples, in nanoseconds.
#[derive(Debug, Clone)]
pub struct Run {
    pub name: String,
    pub samples: Vec<u64>,
}

impl Run {
    pub fn mean(&self) -> f64 {
        if self.samples.is_empty() {
            return 0.0;
        }
        self.samples.iter().sum::<u64>() as f64 / self.samples.len() as f64
    }

    pub fn min(&self) -> Option<u64> {
        self.samples.iter().copied().min()
    }

    pub fn max(&self) -> Option<u64> {
        self.samples.iter().copied().max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_of_nothing_is_zero() {
        let r = Run { name: "x".into(), samples: vec![] };
        assert_eq!(r.mean(), 0.0);
    }
}
