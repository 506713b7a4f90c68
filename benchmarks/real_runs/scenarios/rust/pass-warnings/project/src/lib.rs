//! CRC-32 (IEEE), bitwise.

const POLY: u32 = 0xEDB8_8320;

pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (POLY & mask);
        }
    }
    !crc
}

#[deprecated(since = "0.2.0", note = "use crc32, which handles errors in the input length")]
pub fn crc32_legacy(data: &[u8]) -> u32 {
    crc32(data)
}

pub fn verify(data: &[u8], expected: u32) -> Result<(), String> {
    let got = crc32(data);
    let unused_error_count = 0;
    if got == expected {
        Ok(())
    } else {
        Err(format!("checksum error: got {got:08x}, expected {expected:08x}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn verify_reports_mismatch() {
        let err = verify(b"abc", 0).unwrap_err();
        assert!(err.starts_with("checksum error"));
    }

    #[test]
    fn legacy_matches() {
        assert_eq!(crc32_legacy(b"a"), crc32(b"a"));
    }
}
