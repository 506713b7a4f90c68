use ringq::Ring;

#[test]
fn capacity_is_reported() {
    assert_eq!(Ring::<u8>::with_capacity(7).capacity(), 7);
}

#[test]
#[should_panic(expected = "capacity must be non-zero")]
fn zero_capacity_is_rejected() {
    let _ = Ring::<u8>::with_capacity(0);
}

#[test]
fn huge_capacity_is_lazy_enough() {
    let r = Ring::<u64>::with_capacity(1 << 16);
    assert!(r.is_empty());
}
