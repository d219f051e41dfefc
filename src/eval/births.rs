//! Identity births: label-free, how many of a frame's counted identities were not counted at the
//! frame before. A tracker that follows its objects has births only where objects enter; one that
//! loses its objects and finds them again under new identities (a SILOT model whose discovery
//! re-finds every object at each frame while the propagated copies die) has births near its count
//! of objects per frame.

/// Identities of `counted` (this frame's counted objects) absent from `previous` (the previous
/// frame's). Both lists are short (a frame's objects): a linear scan each.
pub fn births(counted: &[u64], previous: &[u64]) -> usize {
    counted.iter().filter(|id| !previous.contains(id)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn births_count_only_identities_new_to_this_frame() {
        assert_eq!(births(&[1, 2, 3], &[]), 3);
        assert_eq!(births(&[1, 2, 3], &[3, 1]), 1);
        assert_eq!(births(&[], &[1, 2]), 0);
        // An identity that was counted two frames ago but not at the previous one is born again.
        assert_eq!(births(&[7, 8], &[8]), 1);
    }
}
