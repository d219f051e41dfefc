//! Top-K selection with stable slots (reference §2.7).
//!
//! Per stream, `P = [prop.pres (K); disc.pres (H·W)]` (props first). The K largest values are
//! chosen (ties prefer the lower index, as TF's `top_k`, so props win ties); a surviving
//! propagated object keeps its slot, the chosen discovered objects fill the remaining slots in
//! ascending index order and are flagged `is_new`. Slot + `is_new` define identity: surviving
//! slots keep their id, new ones get fresh ids from the stream's counter.

use candle_core::{DType, Result, Tensor};
use rayon::prelude::*;

use super::objects::Objects;

/// Index map of one selection: `index[b*K + s]` indexes `[props; disc]` of stream `b`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotAssignment {
    /// Row-major `(B, K)` indices into the concatenated `[props; disc]` axis.
    pub index: Vec<u32>,
    /// Row-major `(B, K)`: the slot now holds a newly discovered object.
    pub is_new: Vec<bool>,
}

/// Compute the slot assignment for one stream. `pres` = `[props (k); disc]`.
///
/// Returns `(index, is_new)` of length `k`. NaN presences sort as the smallest values.
/// O(n): the K largest are found by selection (`select_nth_unstable_by` on the total order
/// "value descending, index ascending"), not by sorting all `n` candidates.
pub fn assign_slots(pres: &[f32], k: usize) -> (Vec<u32>, Vec<bool>) {
    let n = pres.len();
    let k_eff = k.min(n);
    let key = |v: f32| if v.is_nan() { f32::NEG_INFINITY } else { v };
    let mut order: Vec<u32> = (0..n as u32).collect();
    if k_eff > 0 && k_eff < n {
        order.select_nth_unstable_by(k_eff - 1, |&a, &b| {
            key(pres[b as usize])
                .total_cmp(&key(pres[a as usize]))
                .then(a.cmp(&b))
        });
    }
    let mut chosen = vec![false; n];
    for &i in &order[..k_eff] {
        chosen[i as usize] = true;
    }
    // Chosen discovered objects in ascending index order fill the freed slots in slot order.
    let mut queue = (k.min(n)..n).filter(|&i| chosen[i]);
    let mut index = Vec::with_capacity(k);
    let mut is_new = Vec::with_capacity(k);
    for s in 0..k {
        if chosen.get(s).copied().unwrap_or(false) {
            index.push(s as u32);
            is_new.push(false);
        } else if let Some(i) = queue.next() {
            index.push(i as u32);
            is_new.push(true);
        } else {
            // Fewer candidates than slots (only when H·W + K < K, impossible): keep the prop.
            index.push(s as u32);
            is_new.push(false);
        }
    }
    (index, is_new)
}

/// Select K objects from `prop` (K slots) and `disc` (H·W) per stream; assigns fresh ids to new
/// slots from `next_id` (one counter per stream, advanced in slot order).
///
/// Returns the selected set `(B, K, ...)` with `ids`/`is_new` filled.
pub fn select(prop: &Objects, disc: &Objects, next_id: &mut [u64]) -> Result<Objects> {
    let (b, k) = prop.dims()?;
    let all = prop.cat(disc)?;
    let (_, n) = all.dims()?;
    // Ranked in f32 whatever the model's dtype (an f64 model serves as a reference in tests).
    let pres: Vec<f32> = all.pres.to_dtype(DType::F32)?.flatten_all()?.to_vec1()?;
    // Streams are independent: assign them in parallel (the host part of an inference step).
    let per_stream: Vec<(Vec<u32>, Vec<bool>)> = pres
        .par_chunks(n.max(1))
        .take(b)
        .map(|p| assign_slots(p, k))
        .collect();
    let mut index = Vec::with_capacity(b * k);
    let mut is_new = Vec::with_capacity(b * k);
    for (i, f) in per_stream {
        index.extend(i);
        is_new.extend(f);
    }
    let mut sel = all.gather(&index, k)?;
    for (bi, counter) in next_id.iter_mut().enumerate().take(b) {
        let rows = bi * k..(bi + 1) * k;
        for (id, &new) in sel.ids[rows.clone()].iter_mut().zip(&is_new[rows]) {
            if new {
                *id = *counter;
                *counter += 1;
            }
        }
    }
    sel.is_new = is_new;
    Ok(sel)
}

/// Masked presence `(B, N, 1)` helper: multiply presence by a per-stream keep mask `(B)`.
pub fn mask_pres(pres: &Tensor, keep: &Tensor) -> Result<Tensor> {
    let b = keep.dim(0)?;
    pres.broadcast_mul(&keep.reshape((b, 1, 1))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_case() {
        // K = 3 props, 4 disc. Values: props [0.9, 0.1, 0.5], disc [0.8, 0.0, 0.95, 0.2].
        let (idx, new) = assign_slots(&[0.9, 0.1, 0.5, 0.8, 0.0, 0.95, 0.2], 3);
        // top-3: 0.95 (5), 0.9 (0), 0.8 (3): prop 0 stays, slots 1, 2 ← disc 3, 5.
        assert_eq!(idx, vec![0, 3, 5]);
        assert_eq!(new, vec![false, true, true]);
    }

    #[test]
    fn props_win_ties() {
        let (idx, new) = assign_slots(&[0.0, 0.0, 0.0, 0.0, 0.0], 2);
        assert_eq!(idx, vec![0, 1]);
        assert_eq!(new, vec![false, false]);
    }

    /// The sorting form of [`assign_slots`] (before the O(n) selection), as a reference.
    fn assign_slots_by_sort(pres: &[f32], k: usize) -> (Vec<u32>, Vec<bool>) {
        let n = pres.len();
        let key = |v: f32| if v.is_nan() { f32::NEG_INFINITY } else { v };
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| key(pres[b]).total_cmp(&key(pres[a])));
        let mut chosen: Vec<usize> = order[..k.min(n)].to_vec();
        chosen.sort_unstable();
        let mut queue = chosen.iter().copied().filter(|&i| i >= k);
        let (mut index, mut is_new) = (Vec::new(), Vec::new());
        for s in 0..k {
            if chosen.contains(&s) {
                index.push(s as u32);
                is_new.push(false);
            } else if let Some(i) = queue.next() {
                index.push(i as u32);
                is_new.push(true);
            } else {
                index.push(s as u32);
                is_new.push(false);
            }
        }
        (index, is_new)
    }

    proptest! {
        #[test]
        fn selection_equals_sorting(k in 1usize..8, nd in 0usize..12,
                                    vals in proptest::collection::vec(0u8..6, 20),
                                    nan_at in proptest::option::of(0usize..20)) {
            let n = k + nd;
            let mut pres: Vec<f32> = (0..n).map(|i| vals[i % vals.len()] as f32 / 5.0).collect();
            if let Some(j) = nan_at { if j < n { pres[j] = f32::NAN; } }
            prop_assert_eq!(assign_slots(&pres, k), assign_slots_by_sort(&pres, k));
        }

        #[test]
        fn invariants(k in 1usize..6, nd in 1usize..10, vals in proptest::collection::vec(0u8..5, 16)) {
            let n = k + nd;
            let pres: Vec<f32> = (0..n).map(|i| vals[i % vals.len()] as f32 / 4.0).collect();
            let (idx, new) = assign_slots(&pres, k);
            prop_assert_eq!(idx.len(), k);
            // Selected values are the K largest (multiset).
            let mut sel: Vec<f32> = idx.iter().map(|&i| pres[i as usize]).collect();
            let mut all = pres.clone();
            sel.sort_by(|a, b| b.total_cmp(a));
            all.sort_by(|a, b| b.total_cmp(a));
            prop_assert_eq!(&sel[..], &all[..k]);
            // No duplicates.
            let mut u = idx.clone(); u.sort(); u.dedup();
            prop_assert_eq!(u.len(), k);
            // Survivors keep slots; is_new iff from discovery; new ones ascending.
            let mut last_new = None;
            for s in 0..k {
                let i = idx[s] as usize;
                if new[s] {
                    prop_assert!(i >= k);
                    if let Some(l) = last_new { prop_assert!(i > l); }
                    last_new = Some(i);
                } else {
                    prop_assert_eq!(i, s);
                }
            }
            // Ties: a prop not chosen must be strictly below every chosen disc value... or tie
            // broken toward props: a dropped prop never ties with a chosen disc object.
            for s in 0..k {
                if new[s] {
                    prop_assert!(pres[idx[s] as usize] > pres[s]);
                }
            }
        }
    }
}

#[cfg(test)]
mod select_tests {
    use super::*;
    use candle_core::{Device, Tensor};

    #[test]
    fn select_gathers_values_and_assigns_fresh_ids() {
        let dev = Device::Cpu;
        let mut prop = Objects::null(2, 2, 3, 2, &dev).unwrap();
        prop.ids = vec![7, 8, 3, 4];
        prop.pres = Tensor::new(&[[[0.9f32], [0.1]], [[0.2], [0.3]]], &dev).unwrap();
        let mut disc = Objects::null(2, 3, 3, 2, &dev).unwrap();
        disc.pres = Tensor::new(&[[[0.5f32], [0.0], [0.2]], [[0.8], [0.9], [0.1]]], &dev).unwrap();
        disc.what = Tensor::arange(0f32, 18., &dev)
            .unwrap()
            .reshape((2, 3, 3))
            .unwrap();
        let mut next = vec![9, 5];
        let sel = select(&prop, &disc, &mut next).unwrap();
        // Stream 0: top-2 = prop 0 (0.9), disc 0 (0.5) → slot 1 new. Stream 1: disc 1, disc 0.
        assert_eq!(sel.is_new, vec![false, true, true, true]);
        assert_eq!(sel.ids, vec![7, 9, 5, 6]);
        assert_eq!(next, vec![10, 7]);
        let p: Vec<f32> = sel.pres.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(p, vec![0.9, 0.5, 0.8, 0.9]);
        let w: Vec<f32> = sel.what.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(&w[3..6], &[0.0, 1.0, 2.0]);
        assert_eq!(&w[6..], &[9.0, 10.0, 11.0, 12.0, 13.0, 14.0]);
    }
}
