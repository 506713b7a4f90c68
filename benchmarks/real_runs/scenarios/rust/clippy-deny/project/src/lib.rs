//! Vote tallies.
use std::collections::HashMap;

pub struct Tally {
    votes: HashMap<String, u32>,
}

impl Tally {
    pub fn new() -> Self {
        Tally {
            votes: HashMap::new(),
        }
    }

    pub fn vote(&mut self, name: &str) {
        let count = self.votes.entry(name.to_string()).or_insert(0);
        *count = *count + 1;
    }

    pub fn len(&self) -> usize {
        self.votes.len()
    }

    /// Names sorted by votes, most first.
    pub fn ranking(&self) -> Vec<(&String, &u32)> {
        let mut all: Vec<_> = self.votes.iter().collect();
        all.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        return all;
    }

    pub fn winner(&self) -> Option<&String> {
        if self.ranking().len() == 0 {
            return None;
        }
        Some(self.ranking()[0].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks() {
        let mut t = Tally::new();
        for n in ["b", "a", "b"] {
            t.vote(n);
        }
        assert_eq!(t.winner().map(String::as_str), Some("b"));
    }
}
