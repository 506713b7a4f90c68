use geom::{total_area, Point, Rect};

#[test]
fn two_rects() {
    let a = Rect { origin: Point::new(0.0, 0.0), size: (2.0, 3.0) };
    let b = Rect { origin: Point::new(1.0, 1.0), size: (1.0, 1.0) };
    assert_eq!(total_area(&[a, b]), 7.0);
}
