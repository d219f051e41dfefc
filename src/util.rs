//! Small shared helpers: atomic file writes, output-path checks, the allocator's settings.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Write `bytes` to `path` atomically: a temp file in the same folder, fsync, then rename, so a
/// crash never leaves a half-written file and an existing file is replaced only when complete.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    // Errors name `path`, the file the caller asked for, not the temp file.
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// Whether `path` is a directory with at least one entry (`false` if it does not exist).
pub fn is_non_empty_dir(path: &Path) -> Result<bool> {
    match std::fs::read_dir(path) {
        Ok(mut entries) => Ok(entries.next().is_some()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => Ok(true),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Checks, before any work, that an output file can be written at `path`: its folder exists
/// or can be made, and a file can be created there (a probe, removed again); `path` itself must
/// not be a directory. Errors name `path` and the flag that gave it.
pub fn check_output_file(path: &Path, flag: &str) -> Result<()> {
    if path.is_dir() {
        return Err(Error::Invalid(format!(
            "{flag} `{}` is a directory; give a file path",
            path.display()
        )));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    check_writable_dir(dir, path, flag)
}

/// Checks, before any work, that the output directory `path` can be made (or written into):
/// its nearest existing ancestor is a writable directory. Errors name `path` and `flag`.
pub fn check_output_dir(path: &Path, flag: &str) -> Result<()> {
    if path.exists() && !path.is_dir() {
        return Err(Error::Invalid(format!(
            "{flag} `{}` is a file, not a directory",
            path.display()
        )));
    }
    let mut dir = path;
    while !dir.exists() {
        match dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(p) => dir = p,
            None => {
                dir = Path::new(".");
                break;
            }
        }
    }
    check_writable_dir(dir, path, flag)
}

/// A probe file in the existing directory `dir` (created if missing) for the output `path`.
fn check_writable_dir(dir: &Path, path: &Path, flag: &str) -> Result<()> {
    let cannot = |e: std::io::Error| {
        Error::Invalid(format!(
            "{flag} `{}` cannot be written: {e}",
            path.display()
        ))
    };
    if !dir.is_dir() {
        if dir.exists() {
            return Err(Error::Invalid(format!(
                "{flag} `{}` cannot be written: `{}` is not a directory",
                path.display(),
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(cannot)?;
    }
    let probe = dir.join(format!(".silot-write-probe{}", std::process::id()));
    std::fs::File::create(&probe).map_err(cannot)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A progress bar drawn only when stderr is a terminal.
pub fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len);
    let style = indicatif::ProgressStyle::with_template(
        "{msg} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    pb.set_style(style.progress_chars("=> "));
    pb.set_message(what.to_string());
    pb
}

/// Keep freed memory in the process (glibc): tensors up to 32 MiB come from the heap instead of
/// a fresh `mmap` each (whose pages the kernel zeroes on every first touch), and up to 1 GiB of
/// freed heap stays mapped. A CPU training step allocates and frees the same large buffers
/// every step: 7 % less time per Scattered MNIST step (`cargo bench --bench bench_main --
/// cpu_train_step_mnist`, with the same settings through `GLIBC_TUNABLES`); inference steps
/// unchanged. The `silot` binary calls it first thing; a no-op on other platforms, and not
/// called by the library on its own (a host program such as Python keeps its own settings).
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes malloc's tunables, under glibc's arena lock (safe from any
    // thread); the `silot` binary calls it before starting any.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.txt");
        super::write_atomic(&p, b"one").unwrap();
        super::write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }

    #[test]
    fn output_checks_name_the_path_and_flag() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.txt");
        std::fs::write(&file, "x").unwrap();
        super::check_output_file(&dir.path().join("new/out.json"), "--json").unwrap();
        super::check_output_dir(&dir.path().join("a/b"), "--out").unwrap();
        let err = super::check_output_file(dir.path(), "--json").unwrap_err();
        assert!(err.to_string().contains("is a directory"), "{err}");
        let under_file = file.join("out.json");
        let err = super::check_output_file(&under_file, "--json").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("--json `") && msg.contains("f.txt/out.json"),
            "{msg}"
        );
        let err = super::check_output_dir(&file, "--out").unwrap_err();
        assert!(err.to_string().contains("is a file"), "{err}");
        assert!(!super::is_non_empty_dir(&dir.path().join("none")).unwrap());
        assert!(super::is_non_empty_dir(dir.path()).unwrap());
        // No probe files are left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
