//! The import layering (issue 45, item 6): lower layers never import higher ones. Reads every
//! `src/**/*.rs` file, finds the top-level modules its code names (`crate::X`, `crate::{X, ..}`,
//! and `super::` chains that climb to the crate root), and fails on any import the table below
//! does not allow.
//!
//! What counts: library code. Comments, doc links, string literals and `#[cfg(test)]` items (unit
//! tests may use any layer for their fixtures) are left out.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and the modules its code may import, bottom to top. A module
/// not in this table fails the test (add it to its layer). `cli` (the `silot` binary's commands)
/// is the top and may import anything.
const ALLOWED: &[(&str, &[&str])] = &[
    // Foundation: no model, env or experiment knowledge.
    ("error", &[]),
    ("seed", &[]),
    ("profile", &[]),
    ("util", &["error"]),
    ("rng", &["error", "seed"]),
    // Test support (`test_device!`): sets up devices through `nn`.
    ("testing", &["nn"]),
    // Environments: no candle, no experiments, no models.
    ("env", &["error", "seed", "util"]),
    // Building blocks of the model.
    ("nn", &["error", "rng", "seed", "testing", "util"]),
    ("device", &["error", "nn"]),
    // The tracker contract, clips, metrics, the ConnComp baseline.
    ("track", &["env", "error"]),
    ("data", &["env", "error", "seed", "util"]),
    ("eval", &["env", "error", "track", "util"]),
    (
        "baseline",
        &["env", "error", "eval", "seed", "track", "util"],
    ),
    // The model: knows neither checkpoints nor the trainer.
    (
        "model",
        &[
            "env", "error", "eval", "nn", "rng", "seed", "testing", "track", "util",
        ],
    ),
    // The checkpoint format, below both its users (`trained`, `train`).
    ("checkpoint", &["env", "error", "util"]),
    // Experiment files, trained models, the evaluation protocol.
    ("config", &["baseline", "env", "error", "eval", "model"]),
    ("models", &["error"]),
    (
        "trained",
        &[
            "checkpoint",
            "env",
            "error",
            "model",
            "nn",
            "rng",
            "seed",
            "track",
            "util",
        ],
    ),
    (
        "eval_protocol",
        &[
            "baseline", "config", "data", "env", "error", "seed", "track", "util",
        ],
    ),
    // The object-centric wrapper, stream evaluation, pictures.
    (
        "wrapper",
        &[
            "checkpoint",
            "config",
            "env",
            "error",
            "model",
            "models",
            "nn",
            "rng",
            "seed",
            "track",
            "trained",
            "util",
        ],
    ),
    ("viz", &["data", "env", "error", "eval", "track", "util"]),
    (
        "streams",
        &[
            "baseline",
            "config",
            "data",
            "env",
            "error",
            "eval",
            "eval_protocol",
            "model",
            "seed",
            "track",
            "trained",
            "util",
            "wrapper",
        ],
    ),
    // The trainer; its `mota` validation scores the model as `silot eval` does (the evaluation
    // protocol's labelled clips, the trained-model tracker), and its streams check
    // (`train.val_streams`) runs the model through the wrapper as `silot observe` does.
    (
        "train",
        &[
            "checkpoint",
            "config",
            "data",
            "env",
            "error",
            "eval",
            "eval_protocol",
            "model",
            "nn",
            "rng",
            "seed",
            "streams",
            "track",
            "trained",
            "util",
            "wrapper",
        ],
    ),
    // Training recipes run end to end: above the trainer and the trained-model loaders.
    (
        "pretrain",
        &[
            "checkpoint",
            "config",
            "env",
            "error",
            "eval",
            "eval_protocol",
            "model",
            "track",
            "train",
            "trained",
            "util",
        ],
    ),
];

/// The top: may import every module.
const TOP: &[&str] = &["cli", "lib", "main"];

/// Names at the crate root that are not modules (re-exports, exported macros), and their module.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("Error", "error"),
    ("Result", "error"),
    ("test_device", "testing"),
];

/// The layers the issue requires below the trainer, the wrapper, streams and the CLI.
const LOWER: &[&str] = &["env", "nn", "model", "eval", "baseline", "data"];
const HIGHER: &[&str] = &["train", "wrapper", "streams", "cli", "trained", "config"];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The source with comments, string and char literals blanked out (same length and lines).
fn code_only(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                        depth += 1;
                        j += 2;
                    } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if (i == 0 || !ident(b[i - 1]))
                && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) =>
            {
                // Raw string r"..." / r#"..."#.
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let start = i + 2 + hashes;
                let end = b[start..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(b.len(), |p| start + p + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{..}'), or a lifetime ('a).
                let j = if b.get(i + 1) == Some(&b'\\') {
                    b.get(i + 3..)
                        .and_then(|r| r.iter().position(|&c| c == b'\''))
                        .map(|p| i + 3 + p)
                } else {
                    let ch_len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + ch_len) == Some(&b'\'')).then_some(i + 1 + ch_len)
                };
                match j {
                    Some(j) => {
                        blank(&mut out, i, j + 1);
                        i = j + 1;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// Blank out every item under `#[cfg(test)]` (a `mod tests { .. }`, a function, a `use`).
fn without_test_items(code: &mut [u8]) {
    let pat = b"#[cfg(test)]";
    let mut i = 0;
    while let Some(p) = code[i..].windows(pat.len()).position(|w| w == pat) {
        let start = i + p;
        let mut j = start + pat.len();
        let mut depth = 0usize;
        while j < code.len() {
            match code[j] {
                b'{' => depth += 1,
                // A `}` at depth 0 closes the enclosing block: the item ended before it.
                b'}' if depth == 0 => break,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let end = j.min(code.len());
        for c in &mut code[start..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        i = end;
    }
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn skip_ws(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn ident_at(code: &[u8], i: usize) -> Option<String> {
    let i = skip_ws(code, i);
    let n = code[i..].iter().take_while(|&&c| is_ident(c)).count();
    (n > 0).then(|| String::from_utf8_lossy(&code[i..i + n]).into_owned())
}

/// The first path segment of each top-level item of the use-group opening at `code[i] == '{'`.
fn group_heads(code: &[u8], i: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut item_start = i + 1;
    let mut j = i;
    while j < code.len() {
        match code[j] {
            b'{' => depth += 1,
            b'}' | b',' if depth == 1 => {
                heads.extend(ident_at(code, item_start));
                item_start = j + 1;
                if code[j] == b'}' {
                    break;
                }
            }
            b'}' => depth -= 1,
            _ => {}
        }
        j += 1;
    }
    heads
}

/// The names right after `prefix::` (or in `prefix::{..}`) wherever `prefix` stands alone.
fn names_after(code: &[u8], prefix: &[u8]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = code[i..].windows(prefix.len()).position(|w| w == prefix) {
        let at = i + p;
        i = at + prefix.len();
        if at > 0 && is_ident(code[at - 1]) {
            continue;
        }
        let j = skip_ws(code, i);
        if code.get(j) == Some(&b'{') {
            out.extend(group_heads(code, j).into_iter().map(|h| (at, h)));
        } else if let Some(name) = ident_at(code, j) {
            out.push((at, name));
        }
    }
    out
}

/// The module path of a file: `src/env/atari/mod.rs` → `[env, atari]`, `src/seed.rs` → `[seed]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// Every `(line, top-level module)` the code of `rel` names outside its own top-level module.
fn imports(rel: &Path, src: &str) -> Vec<(usize, String)> {
    let mut code = code_only(src);
    without_test_items(&mut code);
    let path = module_path(rel);
    let line_of = |at: usize| code[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    let root_name = |name: &str| {
        ROOT_ITEMS
            .iter()
            .find(|(item, _)| *item == name)
            .map_or(name.to_string(), |(_, m)| m.to_string())
    };
    let mut found = Vec::new();
    for (at, name) in names_after(&code, b"crate::") {
        found.push((line_of(at), root_name(&name)));
    }
    // `super::` chains: k supers from module path P reach the crate root when k >= |P|.
    let mut i = 0;
    let pat = b"super::";
    while let Some(p) = code[i..].windows(pat.len()).position(|w| w == pat) {
        let at = i + p;
        if at > 0 && (is_ident(code[at - 1]) || code[at - 1] == b':') {
            i = at + pat.len();
            continue;
        }
        let mut k = 0;
        let mut j = at;
        while code[j..].starts_with(pat) {
            k += 1;
            j = skip_ws(&code, j + pat.len());
        }
        i = j;
        if k < path.len() {
            continue;
        }
        let names = if code.get(j) == Some(&b'{') {
            group_heads(&code, j)
        } else {
            ident_at(&code, j).into_iter().collect()
        };
        found.extend(names.into_iter().map(|n| (line_of(at), root_name(&n))));
    }
    let own = path.first().cloned().unwrap_or_default();
    found.retain(|(_, m)| *m != own && m != "self" && m != "super");
    found
}

#[test]
fn lower_layers_never_import_higher_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rs_files(&root, &mut files);
    assert!(
        files.len() > 50,
        "found only {} files under src/",
        files.len()
    );
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap();
        let top = module_path(rel).first().cloned().unwrap_or_default();
        seen.insert(top.clone());
        if TOP.contains(&top.as_str()) {
            continue;
        }
        let Some((_, allowed)) = ALLOWED.iter().find(|(m, _)| *m == top) else {
            problems.push(format!(
                "src/{}: module `{top}` is not in the layers table (tests/layers.rs)",
                rel.display()
            ));
            continue;
        };
        let src = std::fs::read_to_string(file).unwrap();
        for (line, m) in imports(rel, &src) {
            if !allowed.contains(&m.as_str()) {
                problems.push(format!(
                    "src/{}:{line}: `{top}` imports `{m}`, which is not below it",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "layering violations:\n{}",
        problems.join("\n")
    );
    // The table names no module that is gone.
    for (m, _) in ALLOWED {
        assert!(
            seen.contains(*m),
            "tests/layers.rs names `{m}`, not in src/"
        );
    }
}

/// The issue's rule, on the table itself: the lower layers may not import the trainer, the
/// wrapper, streams, the CLI, trained-model loading or experiment configs.
#[test]
fn the_table_keeps_lower_layers_below() {
    for (m, allowed) in ALLOWED {
        if LOWER.contains(m) {
            for h in HIGHER {
                assert!(!allowed.contains(h), "`{m}` may not import `{h}`");
            }
        }
    }
    // And the table is acyclic: every allowed import is listed earlier (lower).
    for (i, (m, allowed)) in ALLOWED.iter().enumerate() {
        for a in *allowed {
            let pos = ALLOWED.iter().position(|(n, _)| n == a);
            let lower = pos.is_some_and(|p| p < i) || (*m == "testing" && *a == "nn");
            assert!(
                lower,
                "`{m}` may import `{a}`, which is not listed below it"
            );
        }
    }
}

/// The scanner itself: it sees paths in code, groups and `super::` chains, and skips comments,
/// strings and test modules.
#[test]
fn scanner_finds_imports_and_skips_the_rest() {
    let src = r##"
use crate::env::Frame;
use crate::{model::Silot, train as t};
use super::super::wrapper::X;
// use crate::cli::Y;
/// [`crate::streams`]
const S: &str = "crate::viz";
const R: &str = r#"crate::viz"#;
fn f<'a>(c: char) -> char { let _ = crate::Result::<()>::Ok(()); 'x' }
#[cfg(test)]
mod tests { use crate::cli::Z; }
"##;
    let got: BTreeSet<String> = imports(Path::new("env/atari/mod.rs"), src)
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    let want: BTreeSet<String> = ["model", "train", "wrapper", "error"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(got, want);
    // From `env/registry.rs`, one `super` is `env` (the same layer), two the crate root.
    let got = imports(Path::new("env/registry.rs"), "use super::spec::EnvSpec;");
    assert!(got.is_empty(), "{got:?}");
    let got = imports(Path::new("env/registry.rs"), "use super::super::cli::A;");
    assert_eq!(got, vec![(1, "cli".to_string())]);
}
