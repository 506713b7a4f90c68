use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

fn rust_type(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "u8" => "u8",
        "u16" => "u16",
        "u32" => "u32",
        "u64" => "u64",
        "i32" => "i32",
        "i64" => "i64",
        "bool" => "bool",
        "string" => "String",
        "bytes" => "Vec<u8>",
        _ => return None,
    })
}

fn main() {
    let schema = "schema/messages.def";
    println!("cargo:rerun-if-changed={schema}");
    let text = fs::read_to_string(schema).expect("schema/messages.def is readable");
    let mut out = String::new();
    let mut open = false;
    for (no, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("message ") {
            if open {
                out.push_str("}\n\n");
            }
            writeln!(out, "#[derive(Debug, Clone, Default, PartialEq)]\npub struct {name} {{").unwrap();
            open = true;
            continue;
        }
        let (field, ty) = line.split_once(':').unwrap_or_else(|| {
            panic!("{schema}:{}: expected `field: type`, got {line:?}", no + 1)
        });
        let (field, ty) = (field.trim(), ty.trim());
        let Some(rt) = rust_type(ty) else {
            panic!("{schema}:{}: unknown field type `{ty}` for field `{field}`", no + 1);
        };
        writeln!(out, "    pub {field}: {rt},").unwrap();
    }
    if open {
        out.push_str("}\n");
    }
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("messages.rs");
    fs::write(dest, out).unwrap();
}
