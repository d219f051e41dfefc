//! ConnComp labeller and baseline tracker on frames with known components.

use proptest::prelude::*;
use silot::baseline::{label_atari_clip, ConnCompConfig, ConnCompTracker};
use silot::env::Frame;
use silot::track::Tracker;

fn paint(f: &mut Frame, top: usize, left: usize, h: usize, w: usize, c: [u8; 3]) {
    for y in top..top + h {
        for x in left..left + w {
            for k in 0..3 {
                f[[y, x, k]] = c[k];
            }
        }
    }
}

#[test]
fn atari_labeller_known_frame() {
    // 195x160 like cropped Space Invaders: a row of 3 invaders, a bullet, a 2-part "shield" with
    // a one-pixel gap (merged by the dilation), and a score digit touching another colour.
    let mut f = Frame::zeros((195, 160, 3));
    let inv = [134, 134, 29];
    for i in 0..3 {
        paint(&mut f, 30, 20 + 16 * i, 8, 8, inv);
    }
    paint(&mut f, 100, 80, 4, 1, [142, 142, 142]); // bullet
    let shield = [181, 83, 40];
    paint(&mut f, 150, 40, 8, 3, shield);
    paint(&mut f, 150, 44, 8, 3, shield); // 1-px gap at column 43
    paint(&mut f, 0, 0, 7, 6, [50, 132, 50]); // digit
    paint(&mut f, 0, 6, 7, 6, [200, 72, 72]); // adjacent, other colour: separate
    let labels = label_atari_clip(&[f]).unwrap();
    let objs = &labels[0];
    assert_eq!(objs.len(), 3 + 1 + 1 + 2);
    let shield_obj = objs.iter().find(|o| o.colour == shield).unwrap();
    // Dilated extent rows 150..=158, cols 40..=47 -> [149, 158] x [39, 47].
    assert_eq!(
        (
            shield_obj.top,
            shield_obj.bottom,
            shield_obj.left,
            shield_obj.right
        ),
        (149.0, 158.0, 39.0, 47.0)
    );
    // Ids of frame 0 are 0..n-1 in colour-major order.
    let ids: Vec<u64> = objs.iter().map(|o| o.id).collect();
    assert_eq!(ids, (0..7).collect::<Vec<u64>>());
    // Colours sorted lexicographically.
    let cols: Vec<[u8; 3]> = objs.iter().map(|o| o.colour).collect();
    let mut sorted = cols.clone();
    sorted.sort();
    assert_eq!(cols, sorted);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// n non-touching squares (on a 12-px lattice, sizes <= 9) give n objects in both
    /// labellers, and the synthetic tracker keeps every identity when the squares shift by 1 px.
    #[test]
    fn finds_n_separate_objects(cells in proptest::collection::btree_set((0usize..6, 0usize..6), 1..12),
                                size in 2usize..9, shift in 0usize..2) {
        let frames: Vec<Frame> = (0..2).map(|t| {
            let mut f = Frame::zeros((80, 80, 3));
            for &(r, c) in &cells {
                paint(&mut f, 2 + 12 * r + t * shift, 2 + 12 * c, size, size, [255, 255, 255]);
            }
            f
        }).collect();
        let n = cells.len();
        let atari = label_atari_clip(&frames).unwrap();
        prop_assert_eq!(atari[0].len(), n);
        let mut tr = ConnCompTracker::new(ConnCompConfig::default()).unwrap();
        let out = tr.track_clip(&frames).unwrap();
        prop_assert_eq!(out[0].len(), n);
        prop_assert_eq!(out[1].len(), n);
        let ids0: Vec<u64> = out[0].iter().map(|o| o.id).collect();
        let ids1: Vec<u64> = out[1].iter().map(|o| o.id).collect();
        prop_assert_eq!(ids0, ids1);
        let a0: Vec<u64> = atari[0].iter().map(|o| o.id).collect();
        let a1: Vec<u64> = atari[1].iter().map(|o| o.id).collect();
        prop_assert_eq!(a0, a1);
    }
}

/// The Atari labeller scored against its own labels is perfect on every metric, and the
/// synthetic tracker on a clip with a merge (two squares touching) loses exactly what it should.
#[test]
fn evaluate_tracker_end_to_end() {
    use silot::baseline::{atari_ground_truth, AtariLabellerTracker};
    use silot::eval::{evaluate_tracker, EvalSettings};
    let clip: Vec<Frame> = (0..4)
        .map(|t| {
            let mut f = Frame::zeros((60, 60, 3));
            paint(&mut f, 5 + 3 * t, 5, 6, 6, [200, 100, 0]);
            paint(&mut f, 40, 40 - 2 * t, 5, 5, [0, 100, 200]);
            f
        })
        .collect();
    let gt = vec![atari_ground_truth(&clip).unwrap()];
    let clips = vec![clip.clone()];
    let r = evaluate_tracker(
        &mut AtariLabellerTracker::default(),
        &clips,
        &gt,
        &EvalSettings::default(),
    )
    .unwrap();
    assert_eq!(
        (r.mota, r.idf1, r.ap, r.count_abs_error),
        (1.0, 1.0, 1.0, 0.0)
    );
    assert_eq!(r.tracker, "conncomp_atari");

    // Synthetic: two white squares that touch in frame 1 (one merged component).
    let frames: Vec<Frame> = [4usize, 0, 4]
        .iter()
        .map(|&gap| {
            let mut f = Frame::zeros((40, 40, 3));
            paint(&mut f, 10, 5, 5, 5, [255; 3]);
            paint(&mut f, 10, 10 + gap, 5, 5, [255; 3]);
            f
        })
        .collect();
    let sq = |id: u32, left: usize| silot::env::GtObject {
        id,
        top: 9.5,
        left: left as f32 - 0.5,
        bottom: 14.5,
        right: left as f32 + 4.5,
    };
    let gt = vec![vec![
        vec![sq(0, 5), sq(1, 14)],
        vec![sq(0, 5), sq(1, 10)],
        vec![sq(0, 5), sq(1, 14)],
    ]];
    let mut tr = ConnCompTracker::new(ConnCompConfig::default()).unwrap();
    let r = evaluate_tracker(&mut tr, &[frames], &gt, &EvalSettings::default()).unwrap();
    // Hand-computed. Tracker ids: frame 0 A=0, B=1; frame 1 the merged box M (centre 2.5 px
    // from A's, 6.5 from B's) keeps id 0; frame 2 A=0, B gets a fresh id 2.
    // MOT: M has IoU 0.5 with both GT (allowed): GT 0 keeps its match, GT 1 is missed; in
    // frame 2 GT 1 (last matched to id 1) matches id 2: a switch. MOTA = 1 - (1 + 1) / 6.
    assert_eq!((r.num_gt, r.num_pred), (6, 5));
    assert!((r.mota - 2.0 / 3.0).abs() < 1e-12, "mota {}", r.mota);
    assert!((r.motp - 0.5 / 5.0).abs() < 1e-12, "motp {}", r.motp);
    // IDTP = (GT0, id0) 3 frames + (GT1, id1 or id2) 1 frame = 4; IDF1 = 8 / 11.
    assert!((r.idf1 - 8.0 / 11.0).abs() < 1e-12, "idf1 {}", r.idf1);
    assert!((r.count_abs_error - 1.0 / 3.0).abs() < 1e-12);
    // AP: thresholds 0.1-0.4 accept M (IoU 0.5): 5 TP of 6 GT at precision 1 -> 9/11.
    // 0.5-0.9 reject it: TP TP FP TP TP -> 4 levels at 1, 3 at 0.8 (f32) -> (4 + 2.4) / 11.
    let high = (4.0 + 3.0 * f64::from(0.8f32)) / 11.0;
    let want = (4.0 * 9.0 / 11.0 + 5.0 * high) / 9.0;
    assert!((r.ap - want).abs() < 1e-12, "ap {} vs {want}", r.ap);
}
