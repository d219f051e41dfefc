//! End-to-end tests of the `silot` binary.

use std::process::Command;

fn silot(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_silot")).args(args).output().expect("run silot");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn envs_lists_experiments_and_atari_games() {
    let (ok, stdout, _) = silot(&["envs"]);
    assert!(ok);
    let ids: Vec<&str> = stdout.lines().collect();
    for id in ["space_invaders", "asteroids", "scattered_mnist", "scattered_shapes", "breakout", "pong"] {
        assert!(ids.contains(&id), "missing {id} in {ids:?}");
    }
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, ids, "one id per line, sorted, no duplicates");
}

#[test]
fn unknown_env_is_a_clear_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let (ok, _, stderr) = silot(&["rollout", "--env", "space_invaderz", "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("unknown env id `space_invaderz`"), "{stderr}");
    assert!(stderr.contains("space_invaders"), "lists known ids: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_toml_key_names_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, "[env]\nid = \"x\"\n[env.scattered_shapes]\nspeeed = 3\n").unwrap();
    let out = dir.path().join("o");
    let (ok, _, stderr) = silot(&["rollout", "--env", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("bad.toml") && stderr.contains("speeed"), "{stderr}");
}

#[test]
fn rollout_writes_a_readable_dataset_with_ground_truth() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shapes");
    let png = dir.path().join("strip.png");
    let (ok, stdout, stderr) = silot(&[
        "rollout", "--env", "scattered_shapes", "--clips", "3", "--seed", "5", "--out",
        out.to_str().unwrap(), "--png", png.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("wrote 3 clips"), "{stdout}");
    let ds = silot::data::Dataset::open(&out).unwrap();
    assert_eq!(ds.len(), 3);
    let clip = ds.clip(2).unwrap();
    assert_eq!(clip.frames.shape(), &[8, 96, 96, 3]);
    let gt = clip.gt.expect("synthetic clips carry ground truth");
    assert_eq!(gt.len(), 8);
    assert!(!gt[0].is_empty());
    let img = image::open(&png).unwrap();
    assert_eq!(img.height(), 96);
    assert_eq!(img.width(), 8 * 96 + 7 * 2, "8 frames with 2 px gaps");
    // Same seed, same data.
    let out2 = dir.path().join("shapes2");
    let (ok, _, _) = silot(&["rollout", "--env", "scattered_shapes", "--clips", "3", "--seed", "5", "--out", out2.to_str().unwrap()]);
    assert!(ok);
    assert_eq!(std::fs::read(out.join("frames.u8")).unwrap(), std::fs::read(out2.join("frames.u8")).unwrap());
}

#[test]
fn rollout_atari_paper_preset_is_cropped() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("si");
    let (ok, _, stderr) = silot(&["rollout", "--env", "space_invaders", "--clips", "2", "--warmup", "20", "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let ds = silot::data::Dataset::open(&out).unwrap();
    assert_eq!(ds.clip(0).unwrap().frames.shape(), &[8, 195, 160, 3]);
    assert!(ds.clip(0).unwrap().gt.is_none());
}
