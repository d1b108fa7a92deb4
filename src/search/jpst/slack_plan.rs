//! Which narrow floods a query tries, from how late recent queries arrived.
//!
//! A flood bounded `k` ticks above the lower bound finds the earliest
//! arrival if it comes within those `k` ticks, and costs about as much when
//! it fails as when it holds. Where most queries arrive within a few ticks
//! of the bound (den520d: nineteen in twenty within 4), the narrowest
//! flood pays; where they arrive tens of ticks late (units boxed in on a
//! small crowded map, long corridors), every narrow flood before the one
//! that holds is work thrown away. So each query tries a bound only if,
//! among the recent queries that arrived later than the bounds it has
//! already tried, at least a set share arrived within it.

/// Queries remembered.
const KEPT: usize = 64;

/// Queries to remember before any bound is skipped.
const MIN_KEPT: usize = 16;

/// The share of the later queries a bound must have caught to be tried.
/// Sequential runs of den520d, ost003d, lak303d, brc202d, room-64-64-8 and
/// maze-128-128-1 with 0.1, 0.2, 0.3 and 0.5 did best overall with 0.2.
const SHARE: f32 = 0.2;

/// How late the recent queries that got past the first pass arrived, in
/// ticks after their lower bound.
#[derive(Debug)]
pub(super) struct RecentArrivals {
    late: [u32; KEPT],
    len: usize,
    next: usize,
}

impl Default for RecentArrivals {
    fn default() -> Self {
        Self {
            late: [0; KEPT],
            len: 0,
            next: 0,
        }
    }
}

impl RecentArrivals {
    /// Records a query that arrived `late` ticks after its lower bound.
    pub(super) fn record(&mut self, late: u32) {
        self.late[self.next] = late;
        self.next = (self.next + 1) % KEPT;
        self.len = (self.len + 1).min(KEPT);
    }

    /// True if a flood `slack` ticks above the lower bound is worth trying
    /// after floods up to `tried` ticks failed: at least a fifth of the
    /// recent queries that arrived later than `tried` arrived within
    /// `slack`, or too few are known to tell.
    pub(super) fn worth(&self, tried: u32, slack: u32) -> bool {
        if self.len < MIN_KEPT {
            return true;
        }
        let later = self.late[..self.len].iter().filter(|&&l| l > tried);
        let (mut past, mut within) = (0u32, 0u32);
        for &l in later {
            past += 1;
            within += u32::from(l <= slack);
        }
        past == 0 || within as f32 >= SHARE * past as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_that_few_recent_queries_arrive_within_are_skipped() {
        let mut recent = RecentArrivals::default();
        assert!(recent.worth(0, 4), "nothing known yet");
        // Most arrive 20-59 ticks late, one in sixteen within 4.
        for k in 0..KEPT as u32 {
            recent.record(if k % 16 == 0 { 2 } else { 20 + k % 40 });
        }
        assert!(!recent.worth(0, 4));
        assert!(!recent.worth(0, 16));
        assert!(recent.worth(0, 32));
        // Of those later than 32, under a fifth arrive within 36.
        assert!(!recent.worth(32, 36));
        // Past 59 nothing is known: try.
        assert!(recent.worth(60, 64));
        // Where most arrive on time, the narrowest bound pays.
        for _ in 0..KEPT {
            recent.record(1);
        }
        assert!(recent.worth(0, 4));
    }
}
