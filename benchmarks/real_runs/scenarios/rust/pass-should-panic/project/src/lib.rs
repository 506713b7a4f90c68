//! 2x2 integer matrices.

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct M2(pub [[i64; 2]; 2]);

impl M2 {
    pub fn det(&self) -> i64 {
        let [[a, b], [c, d]] = self.0;
        a * d - b * c
    }

    /// The inverse of a unimodular matrix; panics when det is not +-1.
    pub fn inverse(&self) -> M2 {
        let det = self.det();
        assert!(det == 1 || det == -1, "matrix is not invertible over the integers: det = {det}");
        let [[a, b], [c, d]] = self.0;
        M2([[d * det, -b * det], [-c * det, a * det]])
    }

    pub fn row(&self, i: usize) -> [i64; 2] {
        self.0[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_unimodular() {
        let m = M2([[2, 1], [1, 1]]);
        assert_eq!(m.inverse(), M2([[1, -1], [-1, 2]]));
    }

    #[test]
    #[should_panic(expected = "not invertible")]
    fn singular_panics() {
        M2([[2, 4], [1, 2]]).inverse();
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn row_out_of_range_panics() {
        M2([[1, 0], [0, 1]]).row(2);
    }

    #[test]
    #[ignore = "slow exhaustive search, run nightly"]
    fn exhaustive() {
        for a in -50..50 {
            for b in -50..50 {
                let _ = M2([[a, b], [0, 1]]).det();
            }
        }
    }
}
