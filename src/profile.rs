//! Per-`tracing`-span measurements used by the benchmarks to break a model step down by module
//! (`backbone`, `propagation`, `discovery`, `render`, `loss`, `backward`, ...): wall time
//! ([`SpanTimes`]) and the number of tensors created ([`TensorCensus`]). On a GPU a training step
//! is bound by per-tensor host work (an allocation and usually a kernel launch per tensor, and in
//! the backward pass a zero-fill and an add per graph edge), so the tensor count is the cost
//! measure that can be read on any machine.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tracing::span::{Attributes, Id};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

/// Accumulated wall time and entry count per span name; clone it into a subscriber with
/// `tracing_subscriber::registry().with(times.clone())` and read it with [`SpanTimes::sorted`].
#[derive(Clone, Default)]
pub struct SpanTimes(Arc<Mutex<HashMap<&'static str, (Duration, u64)>>>);

struct Started(Instant);

impl SpanTimes {
    /// `(span name, total time, entries)`, largest total first.
    pub fn sorted(&self) -> Vec<(&'static str, Duration, u64)> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows: Vec<_> = map.iter().map(|(k, (d, n))| (*k, *d, *n)).collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1));
        rows
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for SpanTimes {
    fn on_new_span(&self, _attrs: &Attributes<'_>, _id: &Id, _ctx: Context<'_, S>) {}

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().replace(Started(Instant::now()));
        }
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(Started(t0)) = span.extensions_mut().remove::<Started>() {
                let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
                let entry = map.entry(span.metadata().name()).or_default();
                entry.0 += t0.elapsed();
                entry.1 += 1;
            }
        }
    }
}

/// Tensors created so far in this process: candle numbers every tensor (views included) from
/// one global counter; this reads it by creating one scalar on the CPU.
pub fn tensors_created() -> usize {
    let probe = candle_core::Tensor::zeros((), candle_core::DType::U8, &candle_core::Device::Cpu);
    // `TensorId` is opaque; its Debug form is `TensorId(n)`.
    probe
        .map(|t| {
            let s = format!("{:?}", t.id());
            s.trim_start_matches("TensorId(")
                .trim_end_matches(')')
                .parse()
                .unwrap_or(0)
        })
        .unwrap_or(0)
}

/// Tensors created inside each span name (inclusive of nested spans, the layer's own probes
/// excluded) and entry counts; use like [`SpanTimes`].
#[derive(Clone, Default)]
pub struct TensorCensus {
    counts: Arc<Mutex<HashMap<&'static str, (usize, u64)>>>,
    probes: Arc<std::sync::atomic::AtomicUsize>,
}

struct EnteredAt {
    tensors: usize,
    probes: usize,
}

impl TensorCensus {
    fn probe(&self) -> (usize, usize) {
        let n = tensors_created();
        let p = self
            .probes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (n, p)
    }

    /// `(span name, tensors created, entries)`, most tensors first.
    pub fn sorted(&self) -> Vec<(&'static str, usize, u64)> {
        let map = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows: Vec<_> = map.iter().map(|(k, (c, n))| (*k, *c, *n)).collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1));
        rows
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for TensorCensus {
    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            let (tensors, probes) = self.probe();
            span.extensions_mut().replace(EnteredAt { tensors, probes });
        }
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(at) = span.extensions_mut().remove::<EnteredAt>() {
                let (tensors, probes) = self.probe();
                // Every probe in between (this span's and nested spans') created one tensor.
                let made = tensors.saturating_sub(at.tensors + (probes - at.probes));
                let mut map = self.counts.lock().unwrap_or_else(|e| e.into_inner());
                let entry = map.entry(span.metadata().name()).or_default();
                entry.0 += made;
                entry.1 += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::prelude::*;

    #[test]
    fn counts_and_times_nested_spans() {
        let times = SpanTimes::default();
        let sub = tracing_subscriber::registry().with(times.clone());
        tracing::subscriber::with_default(sub, || {
            for _ in 0..3 {
                let _outer = tracing::info_span!("outer").entered();
                let _inner = tracing::info_span!("inner").entered();
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let rows = times.sorted();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].0, "outer", "outer encloses inner, so it is largest");
        assert!(rows.iter().all(|r| r.2 == 3));
        assert!(rows[1].1 >= Duration::from_millis(6));
    }

    #[test]
    fn census_counts_tensors_per_span_without_its_probes() {
        use candle_core::{Device, Tensor};
        // The tensor counter is process-wide: tests on other threads can add to a measurement
        // (never subtract), so one exact match in a few attempts is required.
        let attempt = || {
            let census = TensorCensus::default();
            let sub = tracing_subscriber::registry().with(census.clone());
            tracing::subscriber::with_default(sub, || -> candle_core::Result<()> {
                let _outer = tracing::info_span!("outer").entered();
                let x = Tensor::ones(4, candle_core::DType::F32, &Device::Cpu)?; // 1
                for _ in 0..2 {
                    let _inner = tracing::info_span!("inner").entered();
                    let _y = x.affine(2.0, 1.0)?.exp()?; // 2 per entry
                }
                Ok(())
            })
            .unwrap();
            census.sorted()
        };
        let want = vec![("outer", 5, 1), ("inner", 4, 2)];
        let got: Vec<_> = (0..20).map(|_| attempt()).collect();
        assert!(got.contains(&want), "{got:?}");
    }
}
