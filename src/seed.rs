//! Seed mixing: every rule that derives a seed from another lives here, so that one user seed
//! gives independent, reproducible streams everywhere (envs, wrappers, the trainer, the encoder,
//! rollouts). All are built on SplitMix64 ([`mix64`], [`GOLDEN`]); `kernels.cu` has the same
//! finaliser for the GPU's counter streams ([`crate::rng`]).
//!
//! The values of these functions are part of the results: changing one changes every seeded
//! clip, env and training run. The tests pin them.

/// SplitMix64's increment, `2^64 / φ`.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijective mix of 64 bits (`mix64(0) = 0`).
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of stream `stream` of `seed`: `mix64(seed ^ stream·GOLDEN)`. Used by the trainer
/// (noise, data and validation streams) and the object-centric encoder (one stream per step).
pub const fn mix_seed(seed: u64, stream: u64) -> u64 {
    mix64(seed ^ stream.wrapping_mul(GOLDEN))
}

/// The seed of an env component (a wrapper's RNG, Atari's sticky actions) from the user's
/// `seed` and the component's `salt`: the first SplitMix64 output from the state
/// `seed ^ salt·GOLDEN`, i.e. `mix64((seed ^ salt·GOLDEN) + GOLDEN)`.
pub const fn sub_seed(seed: u64, salt: u64) -> u64 {
    mix64((seed ^ salt.wrapping_mul(GOLDEN)).wrapping_add(GOLDEN))
}

/// The seed of clip `i` of a rollout seeded with `seed` (`silot rollout`, the evaluation
/// clips, `silot label`): `seed·1_000_003 + i`, distinct for every `(seed, i)` with
/// `i < 1_000_003`.
pub const fn clip_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(i as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values the four rules had before they were gathered here (SplitMix copies in the
    /// trainer, the env wrappers and `rng`, and the rollout's clip rule): they must not change.
    #[test]
    fn seeds_keep_their_values() {
        assert_eq!(mix64(0), 0);
        assert_eq!(mix64(1), 0x5692_161d_100b_05e5);
        assert_eq!(mix64(12345), 0xf36c_f116_4265_dd51);
        assert_eq!(mix64(u64::MAX), 0xb4d0_55fc_f2cb_bd7b);

        assert_eq!(mix_seed(0, 0), 0);
        assert_eq!(mix_seed(1, 2), 0xbeeb_8da1_658e_ec67);
        assert_eq!(mix_seed(42, 1 << 40), 0x1b1e_55fc_d398_a2b9);
        assert_eq!(mix_seed(7, 3), 0xe831_3fe1_d735_0611);
        assert_eq!(mix_seed(u64::MAX, 5), 0x4d02_a792_5ca1_f8ea);

        assert_eq!(sub_seed(0, 0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(sub_seed(1, 2), 0xf893_a2ee_fb32_555e);
        assert_eq!(sub_seed(42, 1 << 40), 0x83d3_8e0e_dbd4_3334);
        assert_eq!(sub_seed(7, 3), 0x28ce_b6e1_edda_d0c2);
        assert_eq!(sub_seed(u64::MAX, 5), 0x13e7_2363_2ca2_39f9);

        assert_eq!(clip_seed(0, 0), 0);
        assert_eq!(clip_seed(1, 5), 1_000_008);
        assert_eq!(clip_seed(u64::MAX, 3), 0xffff_ffff_fff0_bdc0);
    }

    #[test]
    fn sub_seed_separates_salts_and_seeds() {
        assert_ne!(sub_seed(1, 1), sub_seed(1, 2));
        assert_ne!(sub_seed(1, 1), sub_seed(2, 1));
        assert_ne!(mix_seed(1, 1), mix_seed(1, 2));
        assert_ne!(mix_seed(1, 1), mix_seed(2, 1));
    }
}
