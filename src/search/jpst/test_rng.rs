//! A small xorshift generator for the planner's randomised unit tests: they
//! need no crate for this.

/// Xorshift state; any non-zero seed.
pub(super) struct Rng(pub u64);

impl Rng {
    /// A number below `n`.
    pub(super) fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % u64::from(n)) as u32
    }
}
