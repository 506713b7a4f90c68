//! Frame encoding for the status protocol.
//!
//! Frames are decoded by [`decode`]; bad input is reported as a [`FrameError`].
//! See also [`Frame::ErrorReply`] and the retry policy in [`RetryPolicy`].

use std::fmt;

/// A decoded frame.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    Ping(u32),
    Status(String),
    ErrorReply { code: u16, message: String },
}

/// Why bytes did not decode into a frame.
#[derive(Debug, PartialEq, Eq)]
pub enum FrameError {
    Empty,
    UnknownTag(u8),
    Truncated { wanted: usize, got: usize },
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Empty => write!(f, "error: empty frame"),
            FrameError::UnknownTag(t) => write!(f, "error: unknown tag 0x{t:02x}"),
            FrameError::Truncated { wanted, got } => {
                write!(f, "error: truncated frame, wanted {wanted} bytes, got {got}")
            }
        }
    }
}

/// Decodes one frame.
///
/// ```
/// assert_eq!(proto::decode(&[1, 0, 0, 0, 7]), Ok(proto::Frame::Ping(7)));
/// ```
///
/// An unknown tag is an error, not a panic:
///
/// ```
/// let err = proto::decode(&[9]).unwrap_err();
/// assert_eq!(err.to_string(), "error: unknown tag 0x09");
/// ```
///
/// ```should_panic
/// // decoding never invents a frame from nothing
/// proto::decode(&[]).unwrap();
/// ```
pub fn decode(bytes: &[u8]) -> Result<Frame, FrameError> {
    let (&tag, rest) = bytes.split_first().ok_or(FrameError::Empty)?;
    match tag {
        1 => {
            let b: [u8; 4] = rest
                .get(..4)
                .ok_or(FrameError::Truncated { wanted: 4, got: rest.len() })?
                .try_into()
                .unwrap();
            Ok(Frame::Ping(u32::from_be_bytes(b)))
        }
        2 => Ok(Frame::Status(String::from_utf8_lossy(rest).into_owned())),
        3 => {
            if rest.len() < 2 {
                return Err(FrameError::Truncated { wanted: 2, got: rest.len() });
            }
            let code = u16::from_be_bytes([rest[0], rest[1]]);
            Ok(Frame::ErrorReply { code, message: String::from_utf8_lossy(&rest[2..]).into() })
        }
        t => Err(FrameError::UnknownTag(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_error_reply() {
        let f = decode(&[3, 0x01, 0xf4, b'b', b'u', b's', b'y']).unwrap();
        assert_eq!(f, Frame::ErrorReply { code: 500, message: "busy".into() });
    }

    #[test]
    fn empty_is_error() {
        assert_eq!(decode(&[]), Err(FrameError::Empty));
    }

    #[test]
    fn truncated_ping_is_error() {
        assert_eq!(decode(&[1, 0]), Err(FrameError::Truncated { wanted: 4, got: 1 }));
    }

    #[test]
    #[should_panic(expected = "called `Result::unwrap()` on an `Err` value")]
    fn unwrap_of_unknown_tag_panics() {
        decode(&[0xff]).unwrap();
    }
}
