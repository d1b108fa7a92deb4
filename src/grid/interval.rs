//! Inclusive tick intervals and the blocked/safe interval lists of one cell.

use super::cell::{FOREVER, Tick};

/// The ticks `start..=end`; `end == FOREVER` means the interval never ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    /// First tick in the interval.
    pub start: Tick,
    /// Last tick in the interval (inclusive), or [`FOREVER`].
    pub end: Tick,
}

impl Interval {
    /// The interval `start..=end`.
    pub const fn new(start: Tick, end: Tick) -> Self {
        Self { start, end }
    }

    /// The whole time line, `0..=FOREVER`.
    pub const ALWAYS: Interval = Interval::new(0, FOREVER);

    /// True if `tick` lies in the interval.
    pub const fn contains(self, tick: Tick) -> bool {
        self.start <= tick && tick <= self.end
    }

    /// True if the interval never ends.
    pub const fn is_endless(self) -> bool {
        self.end == FOREVER
    }
}

/// Inserts `new` into a sorted list of disjoint, non-touching intervals,
/// merging it with every interval it overlaps or touches.
pub(crate) fn insert_merged(list: &mut Vec<Interval>, new: Interval) {
    let mut merged = new;
    // First interval that could touch `new`: its end + 1 >= new.start.
    let first = list.partition_point(|iv| iv.end.saturating_add(1) < new.start);
    let mut last = first;
    while last < list.len() && list[last].start <= merged.end.saturating_add(1) {
        merged.start = merged.start.min(list[last].start);
        merged.end = merged.end.max(list[last].end);
        last += 1;
    }
    list.splice(first..last, [merged]);
}

/// The complement of sorted, disjoint, non-touching `blocked` intervals within
/// `0..=FOREVER`, written into `safe`.
pub(crate) fn complement(blocked: &[Interval], safe: &mut Vec<Interval>) {
    safe.clear();
    let mut next_free: Option<Tick> = Some(0);
    for iv in blocked {
        if let Some(from) = next_free
            && iv.start > from
        {
            safe.push(Interval::new(from, iv.start - 1));
        }
        next_free = if iv.end == FOREVER {
            None
        } else {
            Some(iv.end + 1)
        };
    }
    if let Some(from) = next_free {
        safe.push(Interval::new(from, FOREVER));
    }
}

/// Index of the interval of sorted, disjoint `list` that contains `tick`.
#[inline]
pub(crate) fn find(list: &[Interval], tick: Tick) -> Option<usize> {
    let i = list.partition_point(|iv| iv.end < tick);
    (i < list.len() && list[i].start <= tick).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_and_complements() {
        let mut b = Vec::new();
        insert_merged(&mut b, Interval::new(5, 7));
        insert_merged(&mut b, Interval::new(10, 12));
        insert_merged(&mut b, Interval::new(8, 8));
        assert_eq!(b, vec![Interval::new(5, 8), Interval::new(10, 12)]);
        insert_merged(&mut b, Interval::new(9, 9));
        assert_eq!(b, vec![Interval::new(5, 12)]);
        insert_merged(&mut b, Interval::new(20, FOREVER));
        insert_merged(&mut b, Interval::new(0, 1));
        let mut s = Vec::new();
        complement(&b, &mut s);
        assert_eq!(s, vec![Interval::new(2, 4), Interval::new(13, 19)]);
        assert_eq!(find(&s, 3), Some(0));
        assert_eq!(find(&s, 12), None);
        assert_eq!(find(&s, 19), Some(1));
        assert_eq!(find(&s, 25), None);
        complement(&[], &mut s);
        assert_eq!(s, vec![Interval::ALWAYS]);
    }
}
