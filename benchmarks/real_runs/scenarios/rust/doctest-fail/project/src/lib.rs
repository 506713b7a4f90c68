//! A tiny semantic-version type.
//!
//! ```
//! use verlite::Version;
//! let v: Version = "1.2.3".parse().unwrap();
//! assert_eq!(v.to_string(), "1.2.3");
//! ```

use std::fmt;
use std::str::FromStr;

/// A `MAJOR.MINOR.PATCH` version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
}

/// Why a version string did not parse.
#[derive(Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not three dot-separated parts.
    Shape(String),
    /// A part is not a number.
    Number(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Shape(s) => write!(f, "error: expected MAJOR.MINOR.PATCH, got {s:?}"),
            ParseError::Number(s) => write!(f, "error: not a number: {s:?}"),
        }
    }
}

impl std::error::Error for ParseError {}

impl FromStr for Version {
    type Err = ParseError;

    /// Parses `MAJOR.MINOR.PATCH`.
    ///
    /// ```
    /// use verlite::{ParseError, Version};
    /// assert!(matches!("1.2".parse::<Version>(), Err(ParseError::Shape(_))));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.trim().split('.').collect();
        if parts.len() != 3 {
            return Err(ParseError::Shape(s.to_string()));
        }
        let num = |p: &str| p.parse::<u64>().map_err(|_| ParseError::Number(p.to_string()));
        Ok(Version { major: num(parts[0])?, minor: num(parts[1])?, patch: num(parts[2])? })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl Version {
    /// The next major version.
    ///
    /// ```
    /// use verlite::Version;
    /// let v: Version = "1.4.2".parse().unwrap();
    /// assert_eq!(v.bump_major().to_string(), "2.0.0");
    /// ```
    pub fn bump_major(self) -> Version {
        Version { major: self.major + 1, minor: 0, patch: 0 }
    }

    /// The next minor version: the patch number starts again at zero.
    ///
    /// ```
    /// use verlite::Version;
    /// let v: Version = "1.2.7".parse().unwrap();
    /// assert_eq!(v.bump_minor().to_string(), "1.3.0");
    /// ```
    pub fn bump_minor(self) -> Version {
        Version { minor: self.minor + 1, ..self }
    }

    /// The next patch version.
    ///
    /// ```
    /// use verlite::Version;
    /// let v: Version = "0.9.9".parse().unwrap();
    /// assert_eq!(v.bump_patch().to_string(), "0.9.10");
    /// ```
    pub fn bump_patch(self) -> Version {
        Version { patch: self.patch + 1, ..self }
    }

    /// Whether `other` can replace `self` without breaking callers (same major, not older).
    ///
    /// ```
    /// use verlite::Version;
    /// let a: Version = "1.2.0".parse().unwrap();
    /// let b: Version = "1.5.1".parse().unwrap();
    /// assert!(a.compatible_with(&b));
    /// ```
    pub fn compatible_with(&self, other: &Version) -> bool {
        self.major == other.major && other >= self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_three_parts() {
        assert_eq!("3.1.4".parse::<Version>().unwrap(), Version { major: 3, minor: 1, patch: 4 });
    }

    #[test]
    fn rejects_two_parts() {
        assert!(matches!("3.1".parse::<Version>(), Err(ParseError::Shape(_))));
    }

    #[test]
    fn rejects_letters() {
        let err = "3.x.1".parse::<Version>().unwrap_err();
        assert_eq!(err.to_string(), "error: not a number: \"x\"");
    }

    #[test]
    fn orders_by_major_first() {
        let a: Version = "2.0.0".parse().unwrap();
        let b: Version = "1.99.99".parse().unwrap();
        assert!(a > b);
    }

    #[test]
    fn bump_major_resets() {
        let v: Version = "1.2.3".parse().unwrap();
        assert_eq!(v.bump_major(), Version { major: 2, minor: 0, patch: 0 });
    }
}
