//! Benchmarks of the CPU custom ops (glimpse sampler, sprite renderer) against their
//! composed-ops references, forward + backward, at the paper's sizes:
//! MNIST (B=16, K=16, 48×48, 14×14), Atari training (B=16, K=36, 72×72, 21×21) and Atari
//! inference (195×160, K=128, forward only; the dense reference at B=1 only, for memory); and
//! the fused discovery relation attention of inference against its composed pair grid.

use std::hint::black_box;

use candle_core::{DType, Device, Tensor, Var};
use criterion::{BenchmarkId, Criterion};
use silot::nn::relation_attention::{relation_attention, relation_attention_reference, DenseLayer};
use silot::nn::render::{render_sprites, render_sprites_reference, RenderMode};
use silot::nn::sampler::{extract_glimpses, extract_glimpses_reference};
use silot::rng::SeededRng;

/// Problem size.
#[derive(Clone, Copy)]
struct Size {
    name: &'static str,
    b: usize,
    k: usize,
    h: usize,
    w: usize,
    s: usize,
}

const MNIST: Size = Size {
    name: "mnist_b16_k16_48x48_s14",
    b: 16,
    k: 16,
    h: 48,
    w: 48,
    s: 14,
};
const ATARI: Size = Size {
    name: "atari_b16_k36_72x72_s21",
    b: 16,
    k: 36,
    h: 72,
    w: 72,
    s: 21,
};
const INFER8: Size = Size {
    name: "infer_b8_k128_195x160_s21",
    b: 8,
    k: 128,
    h: 195,
    w: 160,
    s: 21,
};
const INFER1: Size = Size {
    name: "infer_b1_k128_195x160_s21",
    b: 1,
    k: 128,
    h: 195,
    w: 160,
    s: 21,
};

struct Inputs {
    images: Var,
    centre_boxes: Var,
    colour: Var,
    alpha: Var,
    importance: Var,
    corner_boxes: Var,
    background: Var,
}

fn inputs(sz: Size) -> Inputs {
    let dev = Device::Cpu;
    let mut rng = SeededRng::new(0);
    let (b, k, s) = (sz.b, sz.k, sz.s);
    let var = |t: Tensor| Var::from_tensor(&t).expect("var");
    // Objects of about one sprite size (14 or 21 px), anywhere in the frame.
    let size_h = (s as f32 / sz.h as f32).min(1.0);
    let size_w = (s as f32 / sz.w as f32).min(1.0);
    let mut boxes = |centre: bool| {
        let mut v = Vec::with_capacity(b * k * 4);
        for _ in 0..b * k {
            let (hh, ww) = (
                size_h * (0.7 + 0.6 * rng.uniform_f32()),
                size_w * (0.7 + 0.6 * rng.uniform_f32()),
            );
            let (y, x) = (
                rng.uniform_f32() * (1.0 - hh),
                rng.uniform_f32() * (1.0 - ww),
            );
            if centre {
                v.extend_from_slice(&[y + hh / 2.0, x + ww / 2.0, hh, ww]);
            } else {
                v.extend_from_slice(&[y, x, hh, ww]);
            }
        }
        Tensor::from_vec(v, (b, k, 4), &dev).expect("boxes")
    };
    let centre_boxes = var(boxes(true));
    let corner_boxes = var(boxes(false));
    let mut u = |shape: &[usize]| rng.uniform(shape, 0.0, 1.0, &dev).expect("uniform");
    Inputs {
        images: var(u(&[b, 3, sz.h, sz.w])),
        centre_boxes,
        colour: var(u(&[b, k, 3, s, s])),
        alpha: var(u(&[b, k, 1, s, s])),
        importance: var(u(&[b, k, 1, s, s]).affine(4.0, 0.01).expect("affine")),
        corner_boxes,
        background: var(Tensor::zeros((b, 3, sz.h, sz.w), DType::F32, &dev).expect("zeros")),
    }
}

type Sampler = fn(&Tensor, &Tensor, (usize, usize)) -> candle_core::Result<Tensor>;
type Renderer = fn(
    &Tensor,
    &Tensor,
    &Tensor,
    &Tensor,
    (usize, usize),
    &Tensor,
    RenderMode,
) -> candle_core::Result<Tensor>;

fn sample(x: &Inputs, sz: Size, f: Sampler, backward: bool) {
    let g = f(
        x.images.as_tensor(),
        x.centre_boxes.as_tensor(),
        (sz.s, sz.s),
    )
    .expect("glimpses");
    if backward {
        black_box(g.sum_all().expect("sum").backward().expect("backward"));
    } else {
        black_box(g);
    }
}

fn render(x: &Inputs, sz: Size, f: Renderer, backward: bool) {
    let out = f(
        x.colour.as_tensor(),
        x.alpha.as_tensor(),
        x.importance.as_tensor(),
        x.corner_boxes.as_tensor(),
        (sz.h, sz.w),
        x.background.as_tensor(),
        RenderMode::Code,
    )
    .expect("render");
    if backward {
        black_box(out.sum_all().expect("sum").backward().expect("backward"));
    } else {
        black_box(out);
    }
}

/// Inputs of the discovery relation attention at MNIST's inference sizes: 16 streams, K = 16
/// objects, Q query cells (16 on 12-px cells, 64 on 6-px), the shipped MLP (64 features + the
/// offset → 64 → 64 → 64), std 0.1 of the anchor, positions in anchor units over the frame.
struct Relation {
    proj: Tensor,
    pos: Tensor,
    cells: Tensor,
    w_d: Tensor,
    layers: Vec<(Tensor, Tensor)>,
}

fn relation_inputs(q: usize) -> Relation {
    let dev = Device::Cpu;
    let mut rng = SeededRng::new(5);
    let mut randn =
        |shape: &[usize], scale: f64| rng.normal(shape, &dev).unwrap().affine(scale, 0.0).unwrap();
    let (b, k, h) = (16, 16, 64);
    let side = (q as f64).sqrt() as usize;
    let cells: Vec<f32> = (0..q)
        .flat_map(|i| {
            [
                ((i / side) as f32 + 0.5) / side as f32,
                ((i % side) as f32 + 0.5) / side as f32,
            ]
        })
        .collect();
    let cells = Tensor::from_vec(cells, (1, q, 2), &dev)
        .unwrap()
        .repeat((b, 1, 1))
        .unwrap();
    Relation {
        proj: randn(&[b, k, h], 1.0),
        pos: (randn(&[b, k, 2], 0.3) + 0.5).unwrap(),
        cells,
        w_d: randn(&[h, 2], 1.0),
        layers: (0..2)
            .map(|_| (randn(&[h, h], 0.125), randn(&[h], 0.1)))
            .collect(),
    }
}

/// The composed version: the `(B, Q, K, 64)` pair grid through the MLP, weighted and summed.
fn relation_composed(x: &Relation) -> Tensor {
    let layers: Vec<DenseLayer> = x.layers.iter().map(|(w, b)| (w, b)).collect();
    relation_attention_reference(&x.proj, &x.pos, &x.cells, &x.w_d, &layers, 0.1).unwrap()
}

fn relation_fused(x: &Relation) -> Tensor {
    let layers: Vec<DenseLayer> = x.layers.iter().map(|(w, b)| (w, b)).collect();
    relation_attention(&x.proj, &x.pos, &x.cells, &x.w_d, &layers, 0.1).unwrap()
}

/// Registers the nn benchmarks.
pub fn bench_nn(c: &mut Criterion) {
    let mut g = c.benchmark_group("nn_relation_attention");
    g.sample_size(20);
    for (name, q) in [
        ("mnist_b16_k16_q16_12px", 16),
        ("mnist_b16_k16_q64_6px", 64),
    ] {
        let x = relation_inputs(q);
        g.bench_with_input(BenchmarkId::new("fused_fwd", name), &x, |bch, x| {
            bch.iter(|| black_box(relation_fused(x)))
        });
        g.bench_with_input(BenchmarkId::new("composed_fwd", name), &x, |bch, x| {
            bch.iter(|| black_box(relation_composed(x)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("nn_sampler");
    g.sample_size(10);
    for sz in [MNIST, ATARI] {
        let x = inputs(sz);
        g.bench_with_input(
            BenchmarkId::new("custom_fwd_bwd", sz.name),
            &sz,
            |bch, &sz| bch.iter(|| sample(&x, sz, extract_glimpses, true)),
        );
        g.bench_with_input(
            BenchmarkId::new("reference_fwd_bwd", sz.name),
            &sz,
            |bch, &sz| bch.iter(|| sample(&x, sz, extract_glimpses_reference, true)),
        );
    }
    for sz in [INFER8, INFER1] {
        let x = inputs(sz);
        g.bench_with_input(BenchmarkId::new("custom_fwd", sz.name), &sz, |bch, &sz| {
            bch.iter(|| sample(&x, sz, extract_glimpses, false))
        });
        g.bench_with_input(
            BenchmarkId::new("reference_fwd", sz.name),
            &sz,
            |bch, &sz| bch.iter(|| sample(&x, sz, extract_glimpses_reference, false)),
        );
    }
    g.finish();
    let mut g = c.benchmark_group("nn_render");
    g.sample_size(10);
    for sz in [MNIST, ATARI] {
        let x = inputs(sz);
        g.bench_with_input(
            BenchmarkId::new("custom_fwd_bwd", sz.name),
            &sz,
            |bch, &sz| bch.iter(|| render(&x, sz, render_sprites, true)),
        );
        g.bench_with_input(
            BenchmarkId::new("reference_fwd_bwd", sz.name),
            &sz,
            |bch, &sz| bch.iter(|| render(&x, sz, render_sprites_reference, true)),
        );
    }
    let x = inputs(INFER8);
    g.bench_with_input(
        BenchmarkId::new("custom_fwd", INFER8.name),
        &INFER8,
        |bch, &sz| bch.iter(|| render(&x, sz, render_sprites, false)),
    );
    let x = inputs(INFER1);
    g.bench_with_input(
        BenchmarkId::new("custom_fwd", INFER1.name),
        &INFER1,
        |bch, &sz| bch.iter(|| render(&x, sz, render_sprites, false)),
    );
    g.bench_with_input(
        BenchmarkId::new("reference_fwd", INFER1.name),
        &INFER1,
        |bch, &sz| bch.iter(|| render(&x, sz, render_sprites_reference, false)),
    );
    g.finish();
}
