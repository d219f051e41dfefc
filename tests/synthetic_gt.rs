//! Ground truth of the synthetic videos: boxes, ids, motion, placement.

use std::collections::HashSet;

use silot::env::synthetic::motion::PixelBox;
use silot::env::synthetic::{
    MnistDigits, ScatteredMnist, ScatteredMnistConfig, ScatteredShapes, ScatteredShapesConfig,
    SceneObject, SceneSampler, Split, VideoEnv,
};
use silot::env::{Env, Frame, GtObject, ResetOptions};

/// Play a whole episode: the frames, their GT and the objects' state at every frame.
fn play<S: SceneSampler>(
    env: &mut VideoEnv<S>,
    seed: u64,
) -> Vec<(Frame, Vec<GtObject>, Vec<SceneObject>)> {
    let (obs, info) = env.reset(Some(seed), &ResetOptions::default()).unwrap();
    let mut out = vec![(obs, info.objects.unwrap(), env.objects().to_vec())];
    loop {
        let s = env.step(0).unwrap();
        out.push((s.obs, s.info.objects.unwrap(), env.objects().to_vec()));
        if s.truncated {
            return out;
        }
    }
}

/// Box of the non-zero pixels of `frame`, in the GT convention and clipped like the GT.
fn drawn_box(frame: &Frame) -> Option<(f32, f32, f32, f32)> {
    let (h, w, _) = frame.dim();
    let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
    for r in 0..h {
        for c in 0..w {
            if (0..3).any(|k| frame[[r, c, k]] > 0) {
                (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
            }
        }
    }
    let clip = |v: f32, hi: usize| v.clamp(0.0, hi as f32);
    (r0 != usize::MAX).then(|| {
        (
            clip(r0 as f32 - 0.5, h),
            clip(c0 as f32 - 0.5, w),
            clip(r1 as f32 + 0.5, h),
            clip(c1 as f32 + 0.5, w),
        )
    })
}

#[test]
fn gt_box_is_tight_around_the_drawn_pixels() {
    // One object per video: the non-zero pixels are exactly that object's.
    let mut m = ScatteredMnist::new(
        ScatteredMnistConfig {
            min_objects: 1,
            max_objects: 1,
            ..Default::default()
        },
        Split::Train,
    )
    .unwrap();
    let cfg = ScatteredShapesConfig {
        min_objects: 1,
        max_objects: 1,
        size_jitter: false,
        ..Default::default()
    };
    let mut s = ScatteredShapes::new(cfg).unwrap();
    let mut sj = ScatteredShapes::new(ScatteredShapesConfig {
        min_objects: 1,
        max_objects: 1,
        ..Default::default()
    })
    .unwrap();
    for seed in 0..40 {
        for (frame, gt, _) in play(&mut m, seed).into_iter().chain(play(&mut s, seed)) {
            let g = gt[0];
            assert_eq!(
                drawn_box(&frame),
                Some((g.top, g.left, g.bottom, g.right)),
                "seed {seed}"
            );
        }
        // Resized (jittered) shapes: the GT comes from the 14x14 patch's extent, scaled; the
        // drawn sprite is rasterised at its own size, so they agree to within a pixel.
        for (frame, gt, _) in play(&mut sj, seed) {
            let (t, l, b, r) = drawn_box(&frame).unwrap();
            let g = gt[0];
            for (x, y) in [(t, g.top), (l, g.left), (b, g.bottom), (r, g.right)] {
                assert!(
                    (x - y).abs() <= 1.0,
                    "seed {seed}: drawn {:?} vs gt {g:?}",
                    (t, l, b, r)
                );
            }
        }
    }
}

#[test]
fn boxes_inside_the_frame_and_ids_stable() {
    let mut env = ScatteredShapes::new(ScatteredShapesConfig {
        min_objects: 25,
        max_objects: 30,
        ..Default::default()
    })
    .unwrap();
    for seed in 0..5 {
        let video = play(&mut env, seed);
        assert_eq!(video.len(), 8);
        let ids0: Vec<u32> = video[0].1.iter().map(|g| g.id).collect();
        assert_eq!(
            ids0,
            (0..ids0.len() as u32).collect::<Vec<_>>(),
            "ids = object index"
        );
        for (_, gt, objects) in &video {
            assert_eq!(
                gt.iter().map(|g| g.id).collect::<Vec<_>>(),
                ids0,
                "objects never leave"
            );
            assert_eq!(gt.len(), objects.len());
            for g in gt {
                assert!(
                    0.0 <= g.top && g.top < g.bottom && g.bottom <= 96.0,
                    "{g:?}"
                );
                assert!(
                    0.0 <= g.left && g.left < g.right && g.right <= 96.0,
                    "{g:?}"
                );
            }
            for o in objects {
                assert!(
                    o.body.draw_top() + o.body.height <= 96
                        && o.body.draw_left() + o.body.width <= 96
                );
            }
        }
    }
}

/// Position after a move of `v` in `[0, range]` with at most one reflection.
fn one_bounce(p: f64, v: f64, range: f64) -> f64 {
    let x = p + v;
    if x < 0.0 {
        -x
    } else if x > range {
        2.0 * range - x
    } else {
        x
    }
}

#[test]
fn bouncing_conserves_speed_and_reflects_exactly() {
    let mut m = ScatteredMnist::new(
        ScatteredMnistConfig {
            max_objects: 12,
            episode_length: 60,
            ..Default::default()
        },
        Split::Train,
    )
    .unwrap();
    let mut s = ScatteredShapes::new(ScatteredShapesConfig {
        max_objects: 30,
        episode_length: 60,
        ..Default::default()
    })
    .unwrap();
    let mut bounces = 0;
    for (video, speed, size) in [(play(&mut m, 7), 2.0, 48.0), (play(&mut s, 7), 5.0, 96.0)] {
        for pair in video.windows(2) {
            for (a, b) in pair[0].2.iter().zip(&pair[1].2) {
                let (a, b) = (a.body, b.body);
                assert!((b.speed() - speed).abs() < 1e-9);
                assert_eq!((a.height, a.width), (b.height, b.width));
                let (ry, rx) = (size - a.height as f64, size - a.width as f64);
                assert!((b.top - one_bounce(a.top, a.vy, ry)).abs() < 1e-9);
                assert!((b.left - one_bounce(a.left, a.vx, rx)).abs() < 1e-9);
                // The velocity component flips exactly when a wall was hit.
                let hit_y = a.top + a.vy < 0.0 || a.top + a.vy > ry;
                assert_eq!(b.vy, if hit_y { -a.vy } else { a.vy });
                bounces += hit_y as usize;
            }
        }
    }
    assert!(bounces > 10, "long videos bounce: {bounces}");
}

#[test]
fn placement_overlap_constraint_holds() {
    let mut m = ScatteredMnist::new(
        ScatteredMnistConfig {
            min_objects: 12,
            max_objects: 12,
            ..Default::default()
        },
        Split::Train,
    )
    .unwrap();
    let mut s = ScatteredShapes::new(ScatteredShapesConfig {
        min_objects: 35,
        max_objects: 35,
        ..Default::default()
    })
    .unwrap();
    for seed in 0..10 {
        m.reset(Some(seed), &ResetOptions::default()).unwrap();
        let a: Vec<PixelBox> = boxes(m.objects());
        s.reset(Some(seed), &ResetOptions::default()).unwrap();
        let b: Vec<PixelBox> = boxes(s.objects());
        for set in [a, b] {
            for (i, x) in set.iter().enumerate() {
                let total: usize = set[..i].iter().map(|y| x.overlap_area(y)).sum();
                assert!(total <= 98, "seed {seed}: object {i} overlaps {total} px");
            }
        }
    }
}

fn boxes(objects: &[SceneObject]) -> Vec<PixelBox> {
    objects
        .iter()
        .map(|o| {
            assert_eq!(
                o.body.top.fract(),
                0.0,
                "frame 0 is at the integer placement"
            );
            PixelBox {
                top: o.body.top as usize,
                left: o.body.left as usize,
                height: o.body.height,
                width: o.body.width,
            }
        })
        .collect()
}

#[test]
fn size_jitter_varies_sizes_around_fourteen() {
    let mut s = ScatteredShapes::new(ScatteredShapesConfig {
        min_objects: 10,
        max_objects: 10,
        ..Default::default()
    })
    .unwrap();
    let mut sizes = Vec::new();
    for seed in 0..30 {
        s.reset(Some(seed), &ResetOptions::default()).unwrap();
        sizes.extend(
            s.objects()
                .iter()
                .flat_map(|o| [o.body.height, o.body.width]),
        );
    }
    let mean = sizes.iter().sum::<usize>() as f64 / sizes.len() as f64;
    // ceil(N(14, 1.4)) has mean ~14.5.
    assert!((mean - 14.5).abs() < 0.3, "mean size {mean}");
    assert!(sizes.iter().all(|&x| x >= 7) && sizes.iter().any(|&x| x != 14));
    let mut fixed = ScatteredShapes::new(ScatteredShapesConfig {
        size_jitter: false,
        ..Default::default()
    })
    .unwrap();
    fixed.reset(Some(0), &ResetOptions::default()).unwrap();
    assert!(fixed
        .objects()
        .iter()
        .all(|o| (o.body.height, o.body.width) == (14, 14)));
}

#[test]
fn digits_come_from_the_requested_split() {
    let digits = MnistDigits::embedded().unwrap();
    let set = |split| -> HashSet<Vec<u8>> {
        digits
            .split_indices(split)
            .into_iter()
            .map(|i| digits.image(i).to_vec())
            .collect()
    };
    let (train, test) = (set(Split::Train), set(Split::Test));
    let mut env = ScatteredMnist::new(
        ScatteredMnistConfig {
            min_objects: 6,
            ..Default::default()
        },
        Split::Test,
    )
    .unwrap();
    for seed in 0..10 {
        env.reset(Some(seed), &ResetOptions::default()).unwrap();
        for o in env.objects() {
            let img: Vec<u8> = o
                .sprite
                .alpha
                .iter()
                .map(|&a| (a * 255.0).round() as u8)
                .collect();
            assert!(test.contains(&img));
            assert!(!train.contains(&img));
        }
    }
}
