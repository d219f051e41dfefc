//! Golden CLEAR-MOT sequences from py-motmetrics' `tests/test_mot.py`, re-expressed with
//! `MotAccumulator`, plus end-to-end `evaluate` cases with hand-computed values.

use silot::env::GtObject;
use silot::eval::{evaluate, EvalSettings, EventKind, MotAccumulator};
use silot::track::TrackedObject;

const NAN: f64 = f64::NAN;
// Hypothesis ids 'a' and 'b' of the Python test.
const A: u64 = 100;
const B: u64 = 101;

#[test]
fn py_motmetrics_test_events() {
    let mut acc = MotAccumulator::new();
    acc.update(&[], &[A, B], &[]).unwrap(); // all FP
    acc.update(&[1, 2], &[], &[]).unwrap(); // all miss
    acc.update(&[1, 2], &[A, B], &[1.0, 0.5, 0.3, 1.0]).unwrap(); // match
    acc.update(&[1, 2], &[A, B], &[0.2, NAN, NAN, 0.1]).unwrap(); // switch
                                                                  // Match: a better new assignment exists, but history is preferred.
    acc.update(&[1, 2], &[A, B], &[5.0, 1.0, 1.0, 5.0]).unwrap();
    acc.update(&[], &[], &[]).unwrap(); // no data

    use EventKind::*;
    type Row = (usize, EventKind, Option<u64>, Option<u64>, Option<f64>);
    let want: Vec<Row> = vec![
        (0, FalsePositive, None, Some(A), None),
        (0, FalsePositive, None, Some(B), None),
        (1, Miss, Some(1), None, None),
        (1, Miss, Some(2), None, None),
        (2, Match, Some(1), Some(B), Some(0.5)),
        (2, Match, Some(2), Some(A), Some(0.3)),
        (3, Switch, Some(1), Some(A), Some(0.2)),
        (3, Switch, Some(2), Some(B), Some(0.1)),
        (4, Match, Some(1), Some(A), Some(5.0)),
        (4, Match, Some(2), Some(B), Some(5.0)),
    ];
    let got: Vec<_> = acc
        .events()
        .iter()
        .map(|e| (e.frame, e.kind, e.object, e.hypothesis, e.distance))
        .collect();
    assert_eq!(got, want);
    let s = acc.summary();
    assert!((s.motp - 11.1 / 6.0).abs() < 1e-12, "MOTP {}", s.motp);
    assert!(
        (s.mota - (1.0 - (2.0 + 2.0 + 2.0) / 8.0)).abs() < 1e-12,
        "MOTA {}",
        s.mota
    );
    assert_eq!(s.num_frames, 6);
}

#[test]
fn py_motmetrics_clear_mot_figure_3() {
    let mut acc = MotAccumulator::new();
    for _ in 0..4 {
        acc.update(&[1, 2, 3, 4], &[], &[]).unwrap(); // no track
    }
    for _ in 0..4 {
        acc.update(&[4], &[4], &[0.0]).unwrap(); // track single
    }
    let s = acc.summary();
    assert!((s.mota - 0.2).abs() < 1e-12, "MOTA {}", s.mota);
    assert_eq!((s.num_misses, s.num_matches, s.num_objects), (16, 4, 20));
}

fn g(id: u32, top: f32, left: f32) -> GtObject {
    GtObject {
        id,
        top,
        left,
        bottom: top + 10.0,
        right: left + 10.0,
    }
}

fn p(id: u64, top: f32, left: f32, score: f32) -> TrackedObject {
    TrackedObject {
        id,
        top,
        left,
        bottom: top + 10.0,
        right: left + 10.0,
        score,
    }
}

/// Two clips in one accumulator, hand-computed:
/// clip 0: GT 0 tracked by hyp 7 for 2 frames, then by hyp 8 (switch) — 3 GT, 1 switch;
/// clip 1: GT 0 seen twice, frame 0 missed (prediction score below threshold), frame 1 matched
///         with a 2-px shift (IoU 80/120), plus one far false positive.
#[test]
fn evaluate_two_clips_hand_computed() {
    let gt = vec![
        vec![vec![g(0, 0.0, 0.0)]; 3],
        vec![vec![g(0, 0.0, 0.0)], vec![g(0, 0.0, 0.0)]],
    ];
    let pred = vec![
        vec![
            vec![p(7, 0.0, 0.0, 1.0)],
            vec![p(7, 0.0, 0.0, 1.0)],
            vec![p(8, 0.0, 0.0, 1.0)],
        ],
        vec![
            vec![p(1, 0.0, 0.0, 0.3)],
            vec![p(1, 0.0, 2.0, 0.9), p(2, 50.0, 50.0, 0.9)],
        ],
    ];
    let r = evaluate(&pred, &gt, &EvalSettings::default()).unwrap();
    // GT 5; errors: 1 switch + 1 miss + 1 FP.
    assert!((r.mota - (1.0 - 3.0 / 5.0)).abs() < 1e-12);
    // Matches: 3 exact (d 0) + 1 with IoU 80/120 (d 1/3).
    assert!((r.motp - (1.0 / 3.0) / 4.0).abs() < 1e-6, "motp {}", r.motp);
    // IDTP: clip 0 best pair (0,7) = 2 frames; clip 1 (0,1) = 1 allowed frame (frame 0 has no
    // hypothesis above threshold). Predictions above threshold: 3 + 2 = 5. IDF1 = 6 / 10.
    assert!((r.idf1 - 0.6).abs() < 1e-12, "idf1 {}", r.idf1);
    assert_eq!((r.clips, r.frames, r.num_gt, r.num_pred), (2, 5, 5, 5));
    // Count error: clip1 frame0 predicts 0 (score .3) vs 1; frame1 predicts 2 vs 1 -> 2 / 5.
    assert!((r.count_abs_error - 0.4).abs() < 1e-12);
}

/// Random multi-clip cases scored by py-motmetrics 1.4.0 itself
/// (`tests/eval_motmetrics_fixture.py` generates `tests/eval_motmetrics_fixture.json`).
#[test]
fn matches_py_motmetrics_on_random_cases() {
    let text = include_str!("eval_motmetrics_fixture.json");
    let fixture: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() > 40);
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    let boxes = |v: &serde_json::Value| -> Vec<(u64, [f32; 4])> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let b = b.as_array().unwrap();
                let e = |k: usize| f(&b[k]) as f32;
                (b[0].as_u64().unwrap(), [e(1), e(2), e(3), e(4)])
            })
            .collect()
    };
    for (n, case) in cases.iter().enumerate() {
        let mut gt = Vec::new();
        let mut pred = Vec::new();
        for clip in case["clips"].as_array().unwrap() {
            let frames = clip.as_array().unwrap();
            gt.push(
                frames
                    .iter()
                    .map(|fr| {
                        boxes(&fr["gt"])
                            .into_iter()
                            .map(|(id, b)| GtObject {
                                id: id as u32,
                                top: b[0],
                                left: b[1],
                                bottom: b[2],
                                right: b[3],
                            })
                            .collect()
                    })
                    .collect::<Vec<Vec<GtObject>>>(),
            );
            pred.push(
                frames
                    .iter()
                    .map(|fr| {
                        boxes(&fr["hyp"])
                            .into_iter()
                            .map(|(id, b)| TrackedObject {
                                id,
                                top: b[0],
                                left: b[1],
                                bottom: b[2],
                                right: b[3],
                                score: 1.0,
                            })
                            .collect()
                    })
                    .collect::<Vec<Vec<TrackedObject>>>(),
            );
        }
        // Replay through the accumulator to compare event counts too.
        let mut acc = MotAccumulator::totals_only();
        for (gc, pc) in gt.iter().zip(&pred) {
            acc.start_sequence();
            for (g, p) in gc.iter().zip(pc) {
                let o: Vec<(u64, silot::eval::BBox)> =
                    g.iter().map(|x| (u64::from(x.id), x.into())).collect();
                let h: Vec<(u64, silot::eval::BBox)> = p.iter().map(|x| (x.id, x.into())).collect();
                acc.update_boxes(&o, &h, 0.5).unwrap();
            }
        }
        let s = acc.summary();
        let want = &case["expected"];
        let count = |k: &str| f(&want[k]) as usize;
        assert_eq!(
            (
                s.num_matches,
                s.num_switches,
                s.num_misses,
                s.num_false_positives
            ),
            (
                count("num_matches"),
                count("num_switches"),
                count("num_misses"),
                count("num_false_positives")
            ),
            "case {n}: event counts differ"
        );
        let r = evaluate(&pred, &gt, &EvalSettings::default()).unwrap();
        for (k, got) in [("mota", r.mota), ("idf1", r.idf1), ("motp", r.motp)] {
            if want[k].is_null() {
                assert!(got.is_nan(), "case {n}: {k} should be undefined, got {got}");
            } else {
                assert!(
                    (got - f(&want[k])).abs() < 1e-9,
                    "case {n}: {k} {got} vs {}",
                    want[k]
                );
            }
        }
    }
}
