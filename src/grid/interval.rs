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

/// The complement of the union of `blocked` (sorted by start, possibly
/// overlapping or touching) within `0..=FOREVER`, written into `safe`.
pub(crate) fn complement_of_union(blocked: &[Interval], safe: &mut Vec<Interval>) {
    safe.clear();
    let mut next_free: Option<Tick> = Some(0);
    for iv in blocked {
        let Some(from) = next_free else {
            break;
        };
        if iv.start > from {
            safe.push(Interval::new(from, iv.start - 1));
        }
        if iv.end == FOREVER {
            next_free = None;
        } else if iv.end + 1 > from {
            next_free = Some(iv.end + 1);
        }
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
    fn complements_the_union_and_finds() {
        let mut s = Vec::new();
        let overlapping = [
            Interval::new(0, 1),
            Interval::new(5, 9),
            Interval::new(6, 7),
            Interval::new(8, 12),
            Interval::new(20, FOREVER),
            Interval::new(30, FOREVER),
        ];
        complement_of_union(&overlapping, &mut s);
        assert_eq!(s, vec![Interval::new(2, 4), Interval::new(13, 19)]);
        assert_eq!(find(&s, 3), Some(0));
        assert_eq!(find(&s, 12), None);
        assert_eq!(find(&s, 19), Some(1));
        assert_eq!(find(&s, 25), None);
        complement_of_union(&[], &mut s);
        assert_eq!(s, vec![Interval::ALWAYS]);
    }
}
