//! Links the C++ runtime and zlib that ALE (built by `ale-sys`) needs.
fn main() {
    if std::env::var_os("CARGO_FEATURE_ATARI").is_some() {
        println!("cargo:rustc-link-lib=dylib=stdc++");
        println!("cargo:rustc-link-lib=dylib=z");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
