use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The SIMD path is optional: say why it is off, but never fail the build for it.
    if env::var("FASTCRC_SIMD").is_err() {
        println!("cargo:warning=SIMD probe skipped (FASTCRC_SIMD unset): error-free scalar fallback in use");
    }
}
