use slugify::slugify;

#[test]
fn punctuation_at_the_end() {
    assert_eq!(slugify("Release notes: v2.0!"), "release-notes-v2-0");
}

#[test]
fn leading_space() {
    assert_eq!(slugify("  Rust  "), "rust");
}

#[test]
fn unicode_dropped() {
    assert_eq!(slugify("Café au lait"), "caf-au-lait");
}
