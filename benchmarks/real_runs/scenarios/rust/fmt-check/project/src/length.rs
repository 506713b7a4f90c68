#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unit {
    Meter,
    Foot,
    Inch,
}

pub fn to_meters(value: f64, unit: Unit) -> f64 {
    match unit {
        Unit::Meter => value,
        Unit::Foot => value * 0.3048,
        Unit::Inch => value * 0.0254,
    }
}

pub fn convert(value: f64, from: Unit, to: Unit) -> f64 {
    let m = to_meters(value,from);
    match to { Unit::Meter => m, Unit::Foot => m / 0.3048, Unit::Inch => m / 0.0254 }
}
