//! Unit conversions.
pub mod length;

pub fn c_to_f(c: f64) -> f64 {
    c * 9.0 / 5.0 + 32.0
}

pub fn f_to_c(f: f64) -> f64 { (f - 32.0) * 5.0 / 9.0 }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let f = c_to_f(100.0);
        assert!((f_to_c(f) - 100.0).abs() < 1e-9);
    }
}
