//! `scripts/fast_backprop/first_gradient.py`, the rewrite of candle-core's
//! `Tensor::backward` (the first gradient stored, not added to zeros): which call sites it
//! converts and which it must leave, on a sample and on the pinned candle-core's own source.

use std::path::{Path, PathBuf};
use std::process::Command;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/fast_backprop/first_gradient.py")
}

/// Runs the script on `file`; returns (success, stdout + stderr).
fn rewrite(file: &Path) -> (bool, String) {
    let out = Command::new("python3")
        .arg(script())
        .arg(file)
        .output()
        .expect("run python3");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The shapes of call site found in candle-core 0.11.1's backprop.rs, 32 convertible ones
/// (the script refuses a file with fewer than 30), then the ones it must keep.
fn sample() -> String {
    let mut arms = String::new();
    for i in 0..30 {
        arms += &format!(
            "            Op::A{i}(arg) => {{\n                let sum_grad = grads.or_insert(arg)?;\n                *sum_grad = sum_grad.add(&grad)?;\n            }}\n"
        );
    }
    arms += "            Op::Sub(lhs, rhs) => {
                let rhs_sum_grad = grads.or_insert(rhs)?;
                *rhs_sum_grad = rhs_sum_grad.sub(&grad)?;
            }
            Op::Reduce(arg) => {
                let sum_grad = grads.or_insert(arg)?;
                let g = grad.exp()?;
                *sum_grad = sum_grad.add(&g.broadcast_as(sum_grad.dims())?)?
            }
            Op::Overwrite(arg) => {
                let sum_grad = grads.or_insert(arg)?;
                *sum_grad = conv_sum;
            }
            Op::IndexAdd(arg) => {
                let sum_grad = grads.or_insert(arg)?;
                *sum_grad = sum_grad.index_add(&ids, &grad, 0)?;
            }
            Op::SelfUse(arg) => {
                let sum_grad = grads.or_insert(arg)?;
                *sum_grad = sum_grad.add(&sum_grad.exp()?)?;
            }
";
    format!(
        "use std::collections::{{hash_map::Entry, HashMap}};
fn backward() {{
        match op {{
{arms}        }}
}}
impl GradStore {{
    fn or_insert(&mut self, tensor: &Tensor) -> Result<&mut Tensor> {{
        todo!()
    }}
}}
"
    )
}

#[test]
fn first_gradient_converts_accumulations_and_keeps_sites_that_need_the_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backprop.rs");
    std::fs::write(&file, sample()).unwrap();
    let (ok, out) = rewrite(&file);
    assert!(ok, "{out}");
    assert!(out.contains("32 gradient accumulations"), "{out}");
    assert!(out.contains("3 or_insert call sites kept"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("grads.accumulate(arg, &grad)?;").count(), 30);
    assert!(text.contains("grads.accumulate_neg(rhs, &grad)?;"));
    // The reduction's broadcast target is the argument's shape; no trailing `;` added.
    assert!(text.contains("grads.accumulate(arg, &g.broadcast_as(arg.dims())?)?\n"));
    assert!(text.contains("*sum_grad = conv_sum;"));
    assert!(text.contains("sum_grad.index_add(&ids, &grad, 0)"));
    assert!(text.contains("*sum_grad = sum_grad.add(&sum_grad.exp()?)?;"));
    assert_eq!(text.matches("grads.or_insert(").count(), 3);
    assert!(text.contains("fn accumulate(&mut self") && text.contains("fn accumulate_neg("));

    let (ok, out) = rewrite(&file);
    assert!(ok && out.contains("already patched"), "{out}");
}

#[test]
fn first_gradient_refuses_a_file_it_does_not_recognise() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backprop.rs");
    let other = "fn backward() { let s = grads.or_insert(a)?; *s = s.add(&g)?; }\n";
    std::fs::write(&file, other).unwrap();
    let (ok, out) = rewrite(&file);
    assert!(!ok && out.contains("nothing changed"), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), other);
}

/// The pinned candle-core's backprop.rs (Cargo.lock's version) as cargo unpacked it for this
/// build in its registry (`$CARGO_HOME`, default `~/.cargo`); found without the network.
fn pinned_backprop_rs() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
    let after = lock
        .split("name = \"candle-core\"\n")
        .nth(1)
        .expect("candle-core in Cargo.lock");
    let version = after.lines().next().unwrap();
    let version = version.trim_start_matches("version = ").trim_matches('"');
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    std::fs::read_dir(home.join("registry/src"))
        .expect("cargo's registry")
        .map(|e| {
            e.unwrap()
                .path()
                .join(format!("candle-core-{version}/src/backprop.rs"))
        })
        .find(|p| p.exists())
        .expect("candle-core's source in cargo's registry")
}

#[test]
fn first_gradient_converts_the_pinned_candle_core() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backprop.rs");
    std::fs::copy(pinned_backprop_rs(), &file).unwrap();
    let (ok, out) = rewrite(&file);
    assert!(ok, "{out}");
    // candle-core 0.11.1: 70 `or_insert` call sites; five are kept (the two pooling
    // backward passes that overwrite, scatter_add, index_add, and to_device, whose gradient
    // expression reads the zeros' device). A new candle version must be looked at again.
    assert!(
        out.contains("65 gradient accumulations") && out.contains("5 or_insert call sites kept"),
        "{out}"
    );
}

/// `scripts/cuda/pack.sh` in a scratch tree whose artifact list names `exe` as the CLI.
fn pack(root: &Path, exe: &Path, suffix: &str) -> std::process::Output {
    std::fs::write(
        root.join("build/cuda-artifacts.txt"),
        format!("bin silot {}\n", exe.display()),
    )
    .unwrap();
    Command::new("bash")
        .arg(root.join("scripts/cuda/pack.sh"))
        .env("PACK_SUFFIX", suffix)
        .output()
        .expect("run pack.sh")
}

#[test]
fn pack_suffix_ships_a_second_build_beside_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("scripts/cuda")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("scripts/cuda/pack.sh"),
        root.join("scripts/cuda/pack.sh"),
    )
    .unwrap();
    // Any executable will do; a small one keeps strip and xz quick.
    let small = Path::new("/bin/true");
    let exe = if small.exists() {
        small
    } else {
        Path::new(env!("CARGO_BIN_EXE_silot"))
    };
    for suffix in ["", "_fast"] {
        let out = pack(root, exe, suffix);
        assert!(out.status.success(), "{out:?}");
    }
    let mut names: Vec<String> = std::fs::read_dir(root.join("ship"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["run.sh", "silot.xz", "silot_fast.xz"]);
    // Packing the default build again replaces every executable, the suffixed ones too.
    assert!(pack(root, exe, "").status.success());
    assert!(!root.join("ship/silot_fast.xz").exists());
}
