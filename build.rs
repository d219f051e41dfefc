//! Links the C++ runtime that ALE (built by `vendor/ale-sys`) needs, and with the `cuda`
//! feature compiles the sampler/renderer CUDA kernels (`src/nn/kernels.cu`) to PTX with `nvcc`
//! (the driver JIT-compiles the PTX for the GPU at first use).
use std::path::PathBuf;
use std::process::Command;

fn main() {
    if std::env::var_os("CARGO_FEATURE_ATARI").is_some() {
        // ALE's own zlib is compiled into it (vendor/ale-sys), so no system zlib is needed.
        println!("cargo:rustc-link-lib=dylib=stdc++");
    }
    if std::env::var_os("CARGO_FEATURE_CUDA").is_some() {
        compile_kernels();
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// `nvcc --ptx` for `CUDA_COMPUTE_CAP` (default 75: the oldest architecture CUDA 13 supports,
/// whose PTX the driver JIT-compiles for any newer GPU). `--fmad=false` keeps the kernels'
/// double arithmetic in the host code's order, so CPU and GPU agree to rounding.
fn compile_kernels() {
    println!("cargo:rerun-if-changed=src/nn/kernels.cu");
    println!("cargo:rerun-if-env-changed=CUDA_COMPUTE_CAP");
    println!("cargo:rerun-if-env-changed=NVCC");
    let cap = std::env::var("CUDA_COMPUTE_CAP")
        .ok()
        .map(|c| c.trim().trim_end_matches('a').to_string())
        .filter(|c| !c.is_empty() && c.chars().all(|ch| ch.is_ascii_digit()))
        .unwrap_or_else(|| "75".into());
    let nvcc = std::env::var("NVCC").unwrap_or_else(|_| "nvcc".into());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("silot_kernels.ptx");
    let status = Command::new(&nvcc)
        .args(["--ptx", "-O3", "--fmad=false", "-std=c++17"])
        .arg(format!("-arch=compute_{cap}"))
        .arg("-o")
        .arg(&out)
        .arg("src/nn/kernels.cu")
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("nvcc failed ({s}) compiling src/nn/kernels.cu"),
        Err(e) => panic!(
            "feature `cuda`: cannot run `{nvcc}` ({e}); put the CUDA toolkit's bin/ on PATH \
             (or set NVCC), e.g. `source $PREFIX/env.sh` after scripts/cuda/toolkit.sh"
        ),
    }
}
