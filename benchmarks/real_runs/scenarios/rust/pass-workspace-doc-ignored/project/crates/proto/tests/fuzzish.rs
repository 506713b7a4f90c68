use proto::{decode, FrameError};

#[test]
fn every_single_byte_either_decodes_or_errors() {
    for b in 0..=255u8 {
        let _ = decode(&[b]);
    }
}

#[test]
fn unknown_tags_report_their_value() {
    for t in 4..=255u8 {
        assert_eq!(decode(&[t]), Err(FrameError::UnknownTag(t)));
    }
}

#[test]
#[ignore = "slow: decodes 16M frames; run nightly with --ignored"]
fn exhaustive_two_byte_frames() {
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            let _ = decode(&[a, b]);
        }
    }
}
