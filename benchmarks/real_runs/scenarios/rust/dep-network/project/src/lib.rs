//! Events serialized as JSON lines.
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct Event {
    pub id: u64,
    pub kind: String,
}

pub fn to_line(e: &Event) -> String {
    serde_json::to_string(e).expect("an Event always serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let e = Event { id: 1, kind: "start".into() };
        let back: Event = serde_json::from_str(&to_line(&e)).unwrap();
        assert_eq!(back, e);
    }
}
