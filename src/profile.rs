//! Time per `tracing` span name: a subscriber layer used by the benchmarks to break a model step
//! down by module (`backbone`, `propagation`, `discovery`, `render`, `loss`, ...).

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
}
