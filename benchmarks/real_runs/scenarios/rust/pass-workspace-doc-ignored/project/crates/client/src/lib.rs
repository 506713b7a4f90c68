//! A client that retries on error replies.

use proto::{decode, Frame};

/// How often to retry an `ErrorReply` with a 5xx code.
pub struct RetryPolicy {
    pub attempts: u32,
}

/// Sends through `transport` until a non-error reply arrives or attempts run out.
pub fn request<F: FnMut(u32) -> Vec<u8>>(policy: &RetryPolicy, mut transport: F) -> Result<Frame, String> {
    let mut last = String::new();
    for attempt in 1..=policy.attempts {
        match decode(&transport(attempt)) {
            Ok(Frame::ErrorReply { code, message }) if code >= 500 => {
                eprintln!("attempt {attempt}: server error {code}: {message}; retrying");
                last = format!("server error {code}: {message}");
            }
            Ok(frame) => return Ok(frame),
            Err(e) => return Err(e.to_string()),
        }
    }
    Err(format!("gave up after {} attempts: {last}", policy.attempts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn busy() -> Vec<u8> {
        vec![3, 0x01, 0xf7, b'u', b'n', b'a', b'v', b'a', b'i', b'l']
    }

    #[test]
    fn retries_then_succeeds() {
        let got = request(&RetryPolicy { attempts: 3 }, |n| if n < 3 { busy() } else { vec![2, b'o', b'k'] });
        assert_eq!(got, Ok(Frame::Status("ok".into())));
    }

    #[test]
    fn gives_up_with_last_error() {
        let got = request(&RetryPolicy { attempts: 2 }, |_| busy());
        assert_eq!(got, Err("gave up after 2 attempts: server error 503: unavail".into()));
    }

    #[test]
    #[ignore]
    fn against_live_server() {
        unimplemented!("needs STATUS_SERVER_URL");
    }
}
