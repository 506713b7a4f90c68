/// The level word of a log line ("INFO", "WARN", "ERROR"), or "?".
pub fn level(line: &str) -> &str {
    line.split_whitespace().nth(1).unwrap_or("?")
}

pub fn timestamp(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

#[allow(unused)]
pub fn is_error(line: &str) -> bool {
    level(line) == "ERROR"
}

pub fn old_level(line: &str) -> &str {
    let mut parts = line.splitn(3, ' ');
    let _ = parts.next();
    parts.next().unwrap_or("?")
}
