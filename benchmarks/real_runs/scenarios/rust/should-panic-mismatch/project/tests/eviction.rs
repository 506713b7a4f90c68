use ringq::Ring;

#[test]
fn push_into_full_ring_evicts_oldest() {
    let mut r = Ring::with_capacity(2);
    assert_eq!(r.push("a"), None);
    assert_eq!(r.push("b"), None);
    assert_eq!(r.push("c"), Some("a"));
    assert_eq!(r.len(), 2);
}

#[test]
fn full_after_capacity_pushes() {
    let mut r = Ring::with_capacity(3);
    for i in 0..3 {
        assert!(!r.is_full());
        r.push(i);
    }
    assert!(r.is_full());
}

#[test]
fn eviction_keeps_order() {
    let mut r = Ring::with_capacity(3);
    for i in 0..7 {
        r.push(i);
    }
    assert_eq!((*r.get(0), *r.get(1), *r.get(2)), (4, 5, 6));
}

#[test]
fn pop_then_push_reuses_slot() {
    let mut r = Ring::with_capacity(1);
    r.push(1);
    assert_eq!(r.pop(), Some(1));
    assert_eq!(r.push(2), None);
    assert_eq!(r.pop(), Some(2));
}
