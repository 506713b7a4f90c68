//! A hand-rolled JSON encoding of a run summary (no serde on purpose).

use crate::Run;

pub fn to_json(run: &Run) -> String {
    let escaped = run.name.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "{{\"name\":\"{}\",\"n\":{},\"mean\":{:.1},\"min\":{},\"max\":{}}}",
        escaped,
        run.samples.len(),
        run.mean(),
        run.min().unwrap_or(0),
        run.max().unwrap_or(0)
    )
}
