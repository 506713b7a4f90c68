//! Rendering a run for the terminal or for a machine.

use crate::Run;

/// How a report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

pub fn render(run: &Run, format: Format) -> String {
    match format {
        Format::Text => format!(
            "{}: n={} mean={:.1}ns min={}ns max={}ns",
            run.name,
            run.samples.len(),
            run.mean(),
            run.min().unwrap_or(0),
            run.max().unwrap_or(0)
        ),
        Format::Json => crate::json::to_json(run),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_report() {
        let r = Run { name: "parse".into(), samples: vec![10, 20, 30] };
        assert_eq!(render(&r, Format::Text), "parse: n=3 mean=20.0ns min=10ns max=30ns");
    }
}
