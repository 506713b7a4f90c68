//! URL slugs from titles.

/// Lowercase, ASCII alphanumerics kept, runs of anything else become one '-'.
pub fn slugify(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut dash = false;
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
            dash = false;
        } else if !dash {
            out.push('-');
            dash = true;
        }
    }
    out.trim_start_matches('-').to_string()
}

/// Truncate a slug to at most `n` bytes without ending on '-'.
pub fn truncate(slug: &str, n: usize) -> &str {
    let s = &slug[..slug.len().min(n)];
    s.trim_end_matches('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple() {
        assert_eq!(slugify("Hello World"), "hello-world");
    }

    #[test]
    fn collapses_runs() {
        assert_eq!(slugify("a  --  b"), "a-b");
    }

    #[test]
    fn truncates() {
        assert_eq!(truncate("hello-world", 6), "hello");
    }
}
