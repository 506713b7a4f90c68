use ringq::Ring;

#[test]
fn get_oldest_first() {
    let mut r = Ring::with_capacity(4);
    r.push('x');
    r.push('y');
    assert_eq!(*r.get(0), 'x');
    assert_eq!(*r.get(1), 'y');
}

#[test]
fn get_after_wrap() {
    let mut r = Ring::with_capacity(2);
    for c in ['a', 'b', 'c'] {
        r.push(c);
    }
    assert_eq!(*r.get(0), 'b');
}

#[test]
#[should_panic(expected = "out of range")]
fn get_past_len_panics() {
    let mut r = Ring::with_capacity(4);
    r.push(1);
    r.get(1);
}
