use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=SNAPPY_LIB_DIR");
    println!("cargo:rerun-if-env-changed=SNAPPY_STATIC");
    match env::var("SNAPPY_LIB_DIR") {
        Ok(dir) => println!("cargo:rustc-link-search=native={dir}"),
        Err(_) => println!(
            "cargo:warning=SNAPPY_LIB_DIR is not set; looking for libsnappy on the default linker path"
        ),
    }
    let kind = if env::var_os("SNAPPY_STATIC").is_some() { "static" } else { "dylib" };
    println!("cargo:rustc-link-lib={kind}=snappy");
}
