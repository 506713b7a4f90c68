//! 2D geometry helpers.
pub mod shape;

pub use shape::{Point, Rect};

/// Total area of the given rectangles.
pub fn total_area(rects: &[Rect]) -> f64 {
    rects.iter().map(|r| r.area()).sum()
}

/// Bounding box of the given points.
pub fn bounds(points: &[Point]) -> Option<Rect> {
    let first = points.first()?;
    let (mut lo, mut hi) = (*first, *first);
    for p in points {
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y), 0.0);
    }
    Some(Rect { origin: lo, size: (hi.x - lo.x, hi.y - lo.y) })
}

pub fn describe(r: &Rect) -> String {
    format!("rect at {} with area {}", r.origin, r.area())
}

pub fn widest(rects: &[Rect]) -> Option<&Rect> {
    rects.iter().max_by(|a, b| a.width.partial_cmp(&b.width).unwrap())
}

pub fn scale_all(rects: &mut [Rect], k: f64) {
    for r in rects.iter_mut() {
        r.scale(k);
    }
}
