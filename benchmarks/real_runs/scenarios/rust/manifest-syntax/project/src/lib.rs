//! Split CSV lines (no quoting).
pub fn split(line: &str) -> Vec<&str> {
    line.split(',').map(str::trim).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn splits() {
        assert_eq!(super::split("a, b,c"), vec!["a", "b", "c"]);
    }
}
