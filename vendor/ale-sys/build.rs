//! Compiles ALE 0.6.0 (`ale/`) into the static library `ale_c_static` with the `cc` crate: the
//! sources, include directories, defines and flags of the `ale-c-lib-static` target of ALE's
//! CMakeLists.txt (USE_SDL, USE_RLGLUE off; the UNIX os_dependent files). C files (the bundled
//! zlib, TinyMT) are compiled as C, the rest as C++11.
use std::path::PathBuf;

/// ALE's `MODULES`: every `*.c`, `*.cpp`, `*.cxx` directly inside these folders of `ale/src`.
const MODULES: &[&str] = &[
    "common",
    "controllers",
    "emucore",
    "emucore/m6502/src",
    "emucore/m6502/src/bspf/src",
    "environment",
    "games",
    "games/supported",
    "external",
    "external/TinyMT",
    "external/zlib",
];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let src = root.join("ale").join("src");
    let (mut c_files, mut cpp_files) = (Vec::new(), Vec::new());
    for module in MODULES {
        let dir = src.join(module);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("dir entry").path())
            .collect();
        entries.sort();
        for path in entries {
            match path.extension().and_then(|e| e.to_str()) {
                Some("c") => c_files.push(path),
                Some("cpp") | Some("cxx") => cpp_files.push(path),
                _ => {}
            }
        }
    }
    if cfg!(windows) {
        for f in ["SettingsWin32.cxx", "OSystemWin32.cxx", "FSNodeWin32.cxx"] {
            cpp_files.push(src.join("os_dependent").join(f));
        }
    } else {
        for f in ["SettingsUNIX.cxx", "OSystemUNIX.cxx", "FSNodePOSIX.cxx"] {
            cpp_files.push(src.join("os_dependent").join(f));
        }
    }
    cpp_files.push(src.join("ale_interface.cpp"));
    cpp_files.push(root.join("ale").join("ale_py").join("ale_c_wrapper.cpp"));

    let includes: Vec<PathBuf> = std::iter::once(src.clone())
        .chain(
            [
                "common",
                "controllers",
                "emucore",
                "emucore/m6502/src",
                "emucore/m6502/src/bspf/src",
                "environment",
                "games",
                "games/supported",
                "os_dependent",
                "external",
                "external/TinyMT",
                "external/zlib",
            ]
            .iter()
            .map(|m| src.join(m)),
        )
        .collect();
    let base = |cpp: bool| {
        let mut b = cc::Build::new();
        b.cpp(cpp)
            .includes(&includes)
            .define("HAVE_INTTYPES", None)
            .warnings(false)
            .opt_level(3);
        if cfg!(windows) {
            b.define("WIN32", "1");
        }
        b
    };
    // C++ first, then C: the C++ objects use the bundled zlib, and static libraries are linked
    // in the order they are emitted.
    base(true)
        .files(&cpp_files)
        .flag_if_supported("-std=c++11")
        .flag_if_supported("-fomit-frame-pointer")
        .define("__STDC_CONSTANT_MACROS", None)
        .compile("ale_c_static");
    base(false).files(&c_files).compile("ale_zlib_tinymt");

    println!("cargo:rerun-if-changed=ale");
    println!("cargo:rerun-if-changed=build.rs");
}
