//! Which bit layout a flood uses: rows along the map's diagonals or map
//! rows, learnt from the floods themselves.
//!
//! Along the diagonals, the thin fronts a flood keeps on open ground are a
//! few densely filled rows. But where the agent may wait a while (a bound
//! well above the quickest walk, rooms to step aside into), the reached
//! sets are blobs, and a blob crosses twice as many diagonals as map rows,
//! each a word or more. So each layout keeps a running account of the words
//! its spreads processed per cell they reached, and a flood takes the
//! layout with the lower one; one flood in [`PROBE_EVERY`] takes the other,
//! so a change of regime is noticed. Counts, not clock time, decide, so the
//! choice is the same from run to run.

/// One flood in this many tries the layout that is not preferred.
const PROBE_EVERY: u32 = 16;

/// Weight of the newest flood in a running account.
const WEIGHT: f64 = 1.0 / 8.0;

/// Running accounts of both layouts and the choice they give.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LayoutChoice {
    floods: u32,
    /// Diagonal rows, then map rows: running words and cells reached, or
    /// `None` before the layout's first flood.
    accounts: [Option<(f64, f64)>; 2],
    /// A layout every flood takes, for tests of each.
    #[cfg(test)]
    fixed: Option<bool>,
}

impl LayoutChoice {
    /// Whether the next flood should lay its bits out in map rows.
    pub fn next_is_straight(&mut self) -> bool {
        #[cfg(test)]
        if let Some(straight) = self.fixed {
            return straight;
        }
        self.floods = self.floods.wrapping_add(1);
        match self.accounts {
            // Each layout is tried once before any is preferred.
            [None, _] => false,
            [_, None] => true,
            [Some((wd, cd)), Some((ws, cs))] => {
                // Words per cell, compared without dividing.
                let straight_better = ws * cd < wd * cs;
                straight_better != self.floods.is_multiple_of(PROBE_EVERY)
            }
        }
    }

    /// A choice that always gives map rows (`straight`) or diagonals.
    #[cfg(test)]
    pub fn fixed(straight: bool) -> Self {
        Self {
            fixed: Some(straight),
            ..Self::default()
        }
    }

    /// Notes a flood in map rows (`straight`) or diagonals whose spreads
    /// processed `words` words and reached `cells` cells, summed over its
    /// ticks.
    pub fn record(&mut self, straight: bool, words: u64, cells: u64) {
        let (w, c) = (words as f64, cells as f64);
        let account = &mut self.accounts[usize::from(straight)];
        *account = Some(match *account {
            None => (w, c),
            Some((aw, ac)) => (aw + (w - aw) * WEIGHT, ac + (c - ac) * WEIGHT),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_layout_is_tried_then_the_tighter_one_wins_with_probes() {
        let mut choice = LayoutChoice::default();
        assert!(!choice.next_is_straight());
        choice.record(false, 200, 100);
        assert!(choice.next_is_straight());
        choice.record(true, 100, 100);
        // Map rows pack these floods twice as tight: they win, except on
        // every 16th flood.
        let picks: Vec<bool> = (0..32).map(|_| choice.next_is_straight()).collect();
        assert_eq!(picks.iter().filter(|&&s| !s).count(), 2);
        // Floods in map rows that turn out loose tip the choice back.
        for _ in 0..16 {
            choice.record(true, 400, 100);
        }
        let picks: Vec<bool> = (0..32).map(|_| choice.next_is_straight()).collect();
        assert_eq!(picks.iter().filter(|&&s| s).count(), 2);
    }
}
