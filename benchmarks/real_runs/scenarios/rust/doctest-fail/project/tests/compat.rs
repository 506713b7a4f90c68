use verlite::Version;

fn v(s: &str) -> Version {
    s.parse().unwrap()
}

#[test]
fn same_major_newer_minor_is_compatible() {
    assert!(v("1.2.0").compatible_with(&v("1.3.0")));
}

#[test]
fn older_is_not_compatible() {
    assert!(!v("1.2.0").compatible_with(&v("1.1.9")));
}

#[test]
fn other_major_is_not_compatible() {
    assert!(!v("1.2.0").compatible_with(&v("2.0.0")));
}

#[test]
fn round_trips_display() {
    for s in ["0.0.1", "10.20.30", "1.0.0"] {
        assert_eq!(v(s).to_string(), s);
    }
}
