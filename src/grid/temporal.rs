//! Temporal obstacles: per cell blocked ticks, safe intervals and departures.
//!
//! A cell that no obstacle ever touches has no timeline and one safe interval,
//! [`Interval::ALWAYS`]. Touched cells keep sorted, merged blocked intervals,
//! the safe intervals between them, and the sorted list of "an obstacle leaves
//! this cell at tick t in direction d" records used for swap (edge) checks.
//! Look-ups are array indexing plus a binary search in a short sorted list;
//! nothing hashes.

use std::sync::Arc;

use super::bits::BitRows;
use super::cell::{Dir, FOREVER, Tick};
use super::interval::{self, Interval};

const NO_TIMELINE: u32 = u32::MAX;

/// Ticks between two [`TemporalMap::layers_at`] layers.
pub const NEAR_LAYER_TICKS: Tick = 32;
/// Most layers kept; the last one also covers every later tick.
const MAX_NEAR_LAYERS: usize = 256;
/// Most bytes the near and wall layers of one map take together. On maps
/// of more than about two million cells this, not [`MAX_NEAR_LAYERS`],
/// caps the layers (120 at 2048 x 2048, 31 at 4096 x 4096), so a block
/// planned far ahead cannot claim a gigabyte.
const LAYER_BUDGET_BYTES: usize = 128 << 20;

/// The most layers a `width` x `height` map keeps: [`MAX_NEAR_LAYERS`], or
/// fewer if that many near and wall layers would exceed
/// [`LAYER_BUDGET_BYTES`], and never fewer than 2.
fn max_layers(width: u32, height: u32) -> usize {
    let layer_bytes = ((width as usize).div_ceil(64) + 2) * 8 * (height as usize + 2);
    (LAYER_BUDGET_BYTES / (2 * layer_bytes)).clamp(2, MAX_NEAR_LAYERS)
}
static ALWAYS_SAFE: [Interval; 1] = [Interval::ALWAYS];

/// What a moving obstacle does after the last cell of its trajectory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObstacleEnd {
    /// It disappears after its last tick (and did not exist before its first).
    Vanish,
    /// It stays on its last cell forever.
    Park,
}

/// A departure record: an obstacle leaves the cell during `[tick, tick + 1]`
/// in direction `dir`, packed as `tick << 2 | dir` so that records sort by
/// tick, then direction, with one integer comparison. The planners' steps
/// read the departures at the opening of a safe interval from the
/// interval's entry (see `CellTimeline::entries`) and search these only
/// while some departure lies at a free tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Departure(u64);

impl Departure {
    #[inline]
    fn new(tick: Tick, dir: Dir) -> Self {
        Self((tick as u64) << 2 | dir as u64)
    }

    #[inline]
    fn tick(self) -> Tick {
        (self.0 >> 2) as Tick
    }

    #[inline]
    fn dir(self) -> Dir {
        match self.0 & 3 {
            0 => Dir::North,
            1 => Dir::East,
            2 => Dir::South,
            _ => Dir::West,
        }
    }
}

#[derive(Clone, Debug)]
struct CellTimeline {
    /// Every block, sorted by start; blocks may overlap.
    blocked: Vec<Interval>,
    /// The gaps between the blocks' union.
    safe: Vec<Interval>,
    /// Sorted; the same record may appear more than once.
    departures: Vec<Departure>,
    /// Per safe interval, the directions in which obstacles leave the cell
    /// during the tick before it opens (one bit per [`Dir`]; 0 for an
    /// interval opening at tick 0): the departures an arrival at its first
    /// tick must not swap with, without a search of `departures`.
    entries: Vec<u8>,
}

impl Default for CellTimeline {
    /// No block yet: safe for ever (a cell may get departures only, from
    /// [`NavGrid::forbid_swap`](super::NavGrid::forbid_swap)).
    fn default() -> Self {
        Self {
            blocked: Vec::new(),
            safe: vec![Interval::ALWAYS],
            departures: Vec::new(),
            entries: vec![0],
        }
    }
}

impl CellTimeline {
    /// Recomputes the safe intervals and all their entries.
    fn refresh_safe(&mut self) {
        self.refresh_safe_around(Interval::ALWAYS);
    }

    /// Recomputes the safe intervals after a block over `span` was added
    /// or taken out. Only ticks within `span` changed, so the intervals
    /// opening before `span.start` and those opening after `span.end + 1`
    /// are the same as before, entries included; only the entries of
    /// the intervals opening in between are worked out again.
    fn refresh_safe_around(&mut self, span: Interval) {
        let before = self.safe.len();
        interval::complement_of_union(&self.blocked, &mut self.safe);
        let after_span = span.end.saturating_add(1);
        let first = self.safe.partition_point(|iv| iv.start < span.start);
        let last = self.safe.partition_point(|iv| iv.start <= after_span);
        // The intervals after `last` are the old list's last ones.
        let kept_tail = self.safe.len() - last;
        let departures = &self.departures;
        let fresh = self.safe[first..last].iter().map(|iv| {
            iv.start
                .checked_sub(1)
                .map_or(0, |t| dirs_at(departures, t))
        });
        self.entries.splice(first..before - kept_tail, fresh);
    }

    /// Redoes the entry of the safe interval opening at `tick + 1`, if
    /// any, after a departure at `tick` was added or removed.
    fn refresh_entry(&mut self, tick: Tick) {
        let Some(opens) = tick.checked_add(1) else {
            return;
        };
        let k = self.safe.partition_point(|iv| iv.start < opens);
        if self.safe.get(k).is_some_and(|iv| iv.start == opens) {
            self.entries[k] = dirs_at(&self.departures, tick);
        }
    }
}

/// The directions in which the departures of `departures` (sorted by
/// tick) leave at `tick`, one bit per [`Dir`].
fn dirs_at(departures: &[Departure], tick: Tick) -> u8 {
    let from = departures.partition_point(|d| d.tick() < tick);
    departures[from..]
        .iter()
        .take_while(|d| d.tick() == tick)
        .fold(0, |dirs, d| dirs | 1 << d.dir() as u8)
}

/// Ticks per bit of a cell's activity bits.
const ACTIVITY_SPAN: Tick = 16;

/// The activity bits of ticks `first` to `last`: bit `b` stands for every
/// tick `t` with `t / ACTIVITY_SPAN % 64 == b`, so a cell whose obstacles
/// pass at ticks 40 and 1,064 has bit 2 set for both, and 64 spans or more
/// set every bit. A cell visited now and then has most of its bits clear,
/// and a look at one of its clear spans needs no search of its timeline.
/// (Spans of 32 ticks in 32 bits, 4 bytes a cell, were 3-5% slower on
/// den520d and lak303d.)
#[inline]
fn activity_bits(first: Tick, last: Tick) -> u64 {
    let (a, b) = (first / ACTIVITY_SPAN, last / ACTIVITY_SPAN);
    match b.saturating_sub(a) {
        n if n >= 63 => u64::MAX,
        n => ((1u64 << (n + 1)) - 1).rotate_left(a % 64),
    }
}

/// When a cell's obstacles come and go, kept together so that telling a
/// cell idle over a span ([`TemporalMap::idle_during`]) takes one read.
#[derive(Clone, Copy, Debug)]
struct Busy {
    /// At or before the first tick at which the cell is blocked or left by
    /// an obstacle ([`FOREVER`] if never).
    start: Tick,
    /// At or after one past the last such tick ([`FOREVER`] if the cell is
    /// blocked for ever; 0 if never touched).
    end: Tick,
    /// The spans of [`ACTIVITY_SPAN`] ticks in which the cell may be
    /// blocked or left by an obstacle, folded onto 64 bits (see
    /// [`activity_bits`]): set as blocks and departures are added, left set
    /// when they are taken out (still a superset), recomputed by
    /// [`TemporalMap::forget_before`].
    activity: u64,
}

impl Busy {
    /// A cell nothing ever happens at.
    const IDLE: Self = Self {
        start: FOREVER,
        end: 0,
        activity: 0,
    };
}

/// Every temporal obstacle of a `width x height` map, indexed by dense cell
/// index (`y * width + x`).
#[derive(Clone, Debug)]
pub struct TemporalMap {
    width: u32,
    height: u32,
    slot: Vec<u32>,
    /// Shared with clones until edited: a snapshot handed to a background
    /// planner copies only the pointers, and an edit after that copies only
    /// the timeline it touches.
    timelines: Vec<Arc<CellTimeline>>,
    /// Number of safe intervals per cell, beside the timelines so that
    /// counting them reads one flat array.
    interval_count: Vec<u32>,
    /// When each cell's obstacles come and go, as far as flat reads tell.
    busy: Vec<Busy>,
    /// First tick of the cell's earliest endless block ([`FOREVER`] if none):
    /// from then on the cell is a wall.
    wall_from: Vec<Tick>,
    /// An upper bound on one past the last tick at which the cell changes,
    /// counting an endless block as a change at its start only.
    change_end: Vec<Tick>,
    near_change_end: Vec<Tick>,
    /// Layer 0: cells whose `near_change_end` exceeds 0; layer `k >= 1`:
    /// cells whose `near_change_end` exceeds `layer_base + k *
    /// NEAR_LAYER_TICKS`.
    near_layers: Vec<Arc<BitRows>>,
    /// Per near layer: the cells whose `wall_from` is below the layer's
    /// threshold, so walls at all of its ticks (layer 0, threshold 0, has
    /// none), or `None` while no cell was ever set (a layer keeps its rows,
    /// possibly empty, after an unblock).
    wall_layers: Vec<Option<Arc<BitRows>>>,
    layer_base: Tick,
    /// Most layers this map keeps ([`max_layers`]).
    max_layers: usize,
    horizon: Tick,
    /// Whether some departure record may lie at a tick at which its cell
    /// is free: an edge constraint without a block
    /// ([`NavGrid::forbid_swap`](super::NavGrid::forbid_swap)), or a block
    /// taken out from under a departure. Until then a cell free at a tick
    /// is left by nobody then. Recomputed by
    /// [`forget_before`](Self::forget_before).
    loose_departures: bool,
}

impl TemporalMap {
    /// A map with no temporal obstacle.
    pub fn new(width: u32, height: u32) -> Self {
        Self::with_time_base(width, height, 0)
    }

    /// A map with no temporal obstacle whose queries will start at `base` or
    /// later: its fast-skip layers start there, and it forgets every tick
    /// before `base` (see [`forget_before`](Self::forget_before)).
    pub fn with_time_base(width: u32, height: u32, base: Tick) -> Self {
        let cells = width as usize * height as usize;
        Self {
            width,
            height,
            slot: vec![NO_TIMELINE; cells],
            timelines: Vec::new(),
            interval_count: vec![1; cells],
            busy: vec![Busy::IDLE; cells],
            wall_from: vec![FOREVER; cells],
            change_end: vec![0; cells],
            near_change_end: vec![0; cells],
            near_layers: vec![Arc::new(BitRows::new(width, height))],
            wall_layers: vec![None],
            layer_base: base,
            max_layers: max_layers(width, height),
            horizon: 0,
            loose_departures: false,
        }
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn timeline_mut(&mut self, cell: usize) -> &mut CellTimeline {
        if self.slot[cell] == NO_TIMELINE {
            self.slot[cell] = self.timelines.len() as u32;
            self.timelines.push(Arc::default());
        }
        Arc::make_mut(&mut self.timelines[self.slot[cell] as usize])
    }

    #[inline]
    fn timeline(&self, cell: usize) -> Option<&CellTimeline> {
        let slot = self.slot[cell];
        (slot != NO_TIMELINE).then(|| &*self.timelines[slot as usize])
    }

    /// Blocks cell `cell` (dense index) during `span` (inclusive). Blocks may
    /// overlap; each can be taken out again with [`unblock`](Self::unblock).
    pub fn block(&mut self, cell: usize, span: Interval) {
        debug_assert!(span.start <= span.end);
        let Some(span) = self.clip(span) else {
            return;
        };
        let tl = self.timeline_mut(cell);
        let at = tl
            .blocked
            .partition_point(|iv| (iv.start, iv.end) <= (span.start, span.end));
        tl.blocked.insert(at, span);
        tl.refresh_safe_around(span);
        let count = tl.safe.len() as u32;
        self.interval_count[cell] = count;
        self.note_activity(cell, span.start, span.end);
        if span.end == FOREVER {
            self.horizon = self.horizon.max(span.start);
            self.mark_busy(cell, FOREVER, span.start.saturating_add(1));
            if span.start < self.wall_from[cell] {
                self.wall_from[cell] = span.start;
                self.refresh_wall_bits(cell);
            }
        } else {
            self.horizon = self.horizon.max(span.end + 1);
            self.mark_busy(cell, span.end + 1, span.end + 1);
        }
    }

    /// Takes out one block of exactly `span` added by [`block`](Self::block)
    /// (other blocks of the cell, even overlapping ones, stay; a span partly
    /// forgotten by [`forget_before`](Self::forget_before) is matched by
    /// what is left of it). The fast-path bounds (busy and change ends,
    /// near-temporal layers, horizon) stay where they were: still correct,
    /// only less sharp, until [`forget_before`](Self::forget_before)
    /// recomputes them. The park tick and wall layers are exact, not
    /// bounds, so a cell that is no longer blocked for ever stops being a
    /// wall at once.
    pub fn unblock(&mut self, cell: usize, span: Interval) {
        let Some(span) = self.clip(span) else {
            return;
        };
        if self.slot[cell] == NO_TIMELINE {
            return;
        }
        let slot = self.slot[cell] as usize;
        // Look before editing, so a shared timeline is copied only if needed.
        if let Some(at) = self.timelines[slot]
            .blocked
            .iter()
            .position(|iv| *iv == span)
        {
            let tl = Arc::make_mut(&mut self.timelines[slot]);
            tl.blocked.remove(at);
            tl.refresh_safe_around(span);
            let from = tl.departures.partition_point(|d| d.tick() < span.start);
            let freed = tl.departures[from..]
                .iter()
                .take_while(|d| d.tick() <= span.end)
                .any(|d| interval::find(&tl.safe, d.tick()).is_some());
            self.loose_departures |= freed;
            let count = tl.safe.len() as u32;
            let wall_from = endless_start(&tl.blocked);
            self.interval_count[cell] = count;
            if wall_from != self.wall_from[cell] {
                // The cell may be free again: it must not stay a wall.
                self.wall_from[cell] = wall_from;
                self.refresh_wall_bits(cell);
            }
        }
    }

    /// Removes a departure record added by
    /// [`add_departure`](Self::add_departure).
    pub fn remove_departure(&mut self, cell: usize, tick: Tick, dir: Dir) {
        if tick < self.layer_base || self.slot[cell] == NO_TIMELINE {
            return;
        }
        let slot = self.slot[cell] as usize;
        if let Ok(at) = self.timelines[slot]
            .departures
            .binary_search(&Departure::new(tick, dir))
        {
            let tl = Arc::make_mut(&mut self.timelines[slot]);
            tl.departures.remove(at);
            tl.refresh_entry(tick);
        }
    }

    /// Records that an obstacle leaves cell `cell` (dense index) in direction
    /// `dir` during `[tick, tick + 1]`; an agent may not make the opposite move
    /// between the same two cells at the same time.
    pub fn add_departure(&mut self, cell: usize, tick: Tick, dir: Dir) {
        if tick < self.layer_base {
            return;
        }
        let tl = self.timeline_mut(cell);
        let rec = Departure::new(tick, dir);
        let at = tl.departures.partition_point(|d| *d <= rec);
        tl.departures.insert(at, rec);
        tl.refresh_entry(tick);
        let loose = interval::find(&tl.safe, tick).is_some();
        self.loose_departures |= loose;
        self.note_activity(cell, tick, tick);
        self.horizon = self.horizon.max(tick.saturating_add(1));
        self.mark_busy(cell, tick.saturating_add(1), tick.saturating_add(1));
    }

    /// The part of `span` not forgotten, if any.
    #[inline]
    fn clip(&self, span: Interval) -> Option<Interval> {
        (span.end >= self.layer_base)
            .then(|| Interval::new(span.start.max(self.layer_base), span.end))
    }

    /// Forgets every tick before `now`: blocks are cut to start at `now` at
    /// the earliest (and dropped if they end before), departures before
    /// `now` are dropped, cells left without activity lose their timeline,
    /// and the fast-skip data (busy and change ends, park ticks, near and
    /// wall layers, horizon) are recomputed from what is left, with the
    /// layers starting at `now`.
    /// Queries must start at `now` or later afterwards. Removing an obstacle
    /// or block added before still works: the forgotten part of its span is
    /// ignored. Costs one pass over the touched cells and one over the map,
    /// instead of re-adding every obstacle.
    pub fn forget_before(&mut self, now: Tick) {
        if now <= self.layer_base {
            return;
        }
        self.layer_base = now;
        let cells = self.slot.len();
        let old = std::mem::take(&mut self.timelines);
        let mut old: Vec<Option<Arc<CellTimeline>>> = old.into_iter().map(Some).collect();
        self.busy.fill(Busy::IDLE);
        self.change_end.fill(0);
        self.wall_from.fill(FOREVER);
        self.horizon = 0;
        self.loose_departures = false;
        for cell in 0..cells {
            let slot = self.slot[cell];
            if slot == NO_TIMELINE {
                continue;
            }
            let mut tl = old[slot as usize].take().expect("one slot per cell");
            let stale = tl.blocked.first().is_some_and(|iv| iv.start < now)
                || tl.departures.first().is_some_and(|d| d.tick() < now);
            if stale {
                let t = Arc::make_mut(&mut tl);
                t.blocked.retain(|iv| iv.end >= now);
                for iv in &mut t.blocked {
                    iv.start = iv.start.max(now);
                }
                t.blocked.sort_unstable_by_key(|iv| (iv.start, iv.end));
                let gone = t.departures.partition_point(|d| d.tick() < now);
                t.departures.drain(..gone);
                t.refresh_safe();
            }
            self.interval_count[cell] = tl.safe.len() as u32;
            if tl.blocked.is_empty() && tl.departures.is_empty() {
                self.slot[cell] = NO_TIMELINE;
                continue;
            }
            let (mut end, mut change) = (0, 0);
            for iv in &tl.blocked {
                if iv.end == FOREVER {
                    end = FOREVER;
                    change = change.max(iv.start.saturating_add(1));
                    self.horizon = self.horizon.max(iv.start);
                } else {
                    end = end.max(iv.end + 1);
                    change = change.max(iv.end + 1);
                    self.horizon = self.horizon.max(iv.end + 1);
                }
            }
            if let Some(last) = tl.departures.last() {
                end = end.max(last.tick().saturating_add(1));
                change = change.max(last.tick().saturating_add(1));
                self.horizon = self.horizon.max(last.tick().saturating_add(1));
            }
            self.busy[cell] = Busy { end, ..Busy::IDLE };
            for iv in &tl.blocked {
                self.note_activity(cell, iv.start, iv.end);
            }
            for d in &tl.departures {
                self.note_activity(cell, d.tick(), d.tick());
            }
            self.change_end[cell] = change;
            self.wall_from[cell] = endless_start(&tl.blocked);
            self.loose_departures |= tl
                .departures
                .iter()
                .any(|d| interval::find(&tl.safe, d.tick()).is_some());
            self.slot[cell] = self.timelines.len() as u32;
            self.timelines.push(tl);
        }
        self.rebuild_near();
    }

    /// Recomputes `near_change_end`, the near layers and the wall layers from
    /// `change_end` and `wall_from`.
    fn rebuild_near(&mut self) {
        let (w, h) = (self.width as usize, self.height as usize);
        // 3x3 maximum: along rows, then along columns.
        let mut across = vec![0; w * h];
        for y in 0..h {
            let row = &self.change_end[y * w..(y + 1) * w];
            for x in 0..w {
                let lo = x.saturating_sub(1);
                let hi = (x + 1).min(w - 1);
                across[y * w + x] = row[lo..=hi].iter().copied().max().unwrap_or(0);
            }
        }
        for y in 0..h {
            let lo = y.saturating_sub(1);
            let hi = (y + 1).min(h - 1);
            for x in 0..w {
                self.near_change_end[y * w + x] =
                    (lo..=hi).map(|r| across[r * w + x]).max().unwrap_or(0);
            }
        }
        let last_finite = self
            .near_change_end
            .iter()
            .copied()
            .filter(|e| *e != FOREVER)
            .max()
            .unwrap_or(0);
        let count = (self.layer_of(last_finite) + 2).min(self.max_layers);
        // One pass over the map, setting each cell's bits in the layers it
        // belongs to: a prefix of the near layers (thresholds below its
        // near change end) and a suffix of the wall layers (thresholds above
        // its park tick). Quiet cells cost one compare each.
        let thresholds: Vec<Tick> = (0..count).map(|k| self.layer_threshold(k)).collect();
        let mut near = vec![BitRows::new(self.width, self.height); count];
        let mut walls: Vec<Option<BitRows>> = vec![None; count];
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                let (cx, cy) = (x as u32, y as u32);
                let end = self.near_change_end[i];
                for (layer, threshold) in near.iter_mut().zip(&thresholds) {
                    if *threshold >= end {
                        break;
                    }
                    layer.set(cx, cy, true);
                }
                let from = self.wall_from[i];
                for k in (0..count).rev() {
                    if from >= thresholds[k] {
                        break;
                    }
                    walls[k]
                        .get_or_insert_with(|| BitRows::new(self.width, self.height))
                        .set(cx, cy, true);
                }
            }
        }
        self.near_layers = near.into_iter().map(Arc::new).collect();
        self.wall_layers = walls.into_iter().map(|l| l.map(Arc::new)).collect();
    }

    /// Builds the next near layer and its wall layer from the per-cell ends.
    fn push_layer(&mut self) {
        let threshold = self.layer_threshold(self.near_layers.len());
        let (w, h) = (self.width as usize, self.height as usize);
        let mut near = BitRows::new(self.width, self.height);
        let mut walls = BitRows::new(self.width, self.height);
        let mut any_wall = false;
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if self.near_change_end[i] > threshold {
                    near.set(x as u32, y as u32, true);
                }
                if self.wall_from[i] < threshold {
                    walls.set(x as u32, y as u32, true);
                    any_wall = true;
                }
            }
        }
        self.near_layers.push(Arc::new(near));
        self.wall_layers.push(any_wall.then(|| Arc::new(walls)));
    }

    /// Brings the cell's bit in every wall layer in line with its `wall_from`.
    fn refresh_wall_bits(&mut self, cell: usize) {
        let w = self.width as usize;
        let (x, y) = ((cell % w) as u32, (cell / w) as u32);
        for k in 0..self.wall_layers.len() {
            let wall = self.wall_from[cell] < self.layer_threshold(k);
            let layer = &mut self.wall_layers[k];
            match layer {
                Some(bits) if bits.get(x, y) != wall => Arc::make_mut(bits).set(x, y, wall),
                None if wall => {
                    let mut bits = BitRows::new(self.width, self.height);
                    bits.set(x, y, true);
                    *layer = Some(Arc::new(bits));
                }
                _ => {}
            }
        }
    }

    /// Notes a block or departure of cell `cell` from tick `first` to
    /// `last` in its first busy tick and its activity bits.
    fn note_activity(&mut self, cell: usize, first: Tick, last: Tick) {
        let busy = &mut self.busy[cell];
        busy.start = busy.start.min(first);
        busy.activity |= activity_bits(first, last);
    }

    fn mark_busy(&mut self, cell: usize, end: Tick, change: Tick) {
        self.busy[cell].end = self.busy[cell].end.max(end);
        if change <= self.change_end[cell] {
            return;
        }
        self.change_end[cell] = change;
        if change != FOREVER {
            self.grow_layers(change);
        }
        let w = self.width as usize;
        let (x, y) = ((cell % w) as i64, (cell / w) as i64);
        for ny in (y - 1).max(0)..=(y + 1).min(self.height as i64 - 1) {
            for nx in (x - 1).max(0)..=(x + 1).min(self.width as i64 - 1) {
                let n = ny as usize * w + nx as usize;
                let old = self.near_change_end[n];
                if old < change {
                    self.near_change_end[n] = change;
                    for layer in self.layer_of(old)..self.near_layers.len() {
                        if self.layer_threshold(layer) >= change {
                            break;
                        }
                        Arc::make_mut(&mut self.near_layers[layer]).set(nx as u32, ny as u32, true);
                    }
                }
            }
        }
    }

    /// Adds layers so that every finite `end` seen so far has one above it.
    fn grow_layers(&mut self, end: Tick) {
        // One layer past `end`'s own, so that the last layer sees every
        // finite change as over.
        let wanted = (self.layer_of(end) + 2).min(self.max_layers);
        while self.near_layers.len() < wanted {
            self.push_layer();
        }
    }

    /// The layer of `tick`: `tick / NEAR_LAYER_TICKS`, capped.
    #[inline]
    fn layer_of(&self, tick: Tick) -> usize {
        let above = tick.saturating_sub(self.layer_base) / NEAR_LAYER_TICKS;
        (above as usize).min(self.max_layers - 1)
    }

    #[inline]
    fn layer_threshold(&self, layer: usize) -> Tick {
        if layer == 0 {
            0
        } else {
            self.layer_base
                .saturating_add(layer as Tick * NEAR_LAYER_TICKS)
        }
    }

    /// True if some obstacle ever touches the cell.
    #[inline]
    pub fn has_timeline(&self, cell: usize) -> bool {
        self.slot[cell] != NO_TIMELINE
    }

    /// The sorted, disjoint safe intervals of the cell. Empty if the cell is
    /// blocked for ever from tick 0.
    #[inline]
    pub fn safe_intervals(&self, cell: usize) -> &[Interval] {
        match self.timeline(cell) {
            Some(tl) => &tl.safe,
            None => &ALWAYS_SAFE,
        }
    }

    /// The cell's blocks, sorted by start (they may overlap).
    pub fn blocked_intervals(&self, cell: usize) -> &[Interval] {
        self.timeline(cell).map_or(&[], |tl| &tl.blocked)
    }

    /// Number of safe intervals of the cell (the length of
    /// [`safe_intervals`](Self::safe_intervals)), from one flat array.
    #[inline]
    pub fn interval_count(&self, cell: usize) -> usize {
        if self.quiet() {
            return 1;
        }
        self.interval_count[cell] as usize
    }

    /// Index of the safe interval of the cell that contains `tick`, or `None`
    /// if the cell is blocked then.
    #[inline]
    pub fn interval_at(&self, cell: usize, tick: Tick) -> Option<usize> {
        if self.busy_end(cell) <= tick {
            // Past its last activity a cell is in its last safe interval:
            // one flat read, no timeline. (A cell blocked for ever from
            // tick 0 has none; only `tick == FOREVER` gets here for it.)
            return self.interval_count(cell).checked_sub(1);
        }
        if self.busy_start(cell) > tick {
            // Before its first activity, in its first: one more flat read.
            return Some(0);
        }
        match self.timeline(cell) {
            Some(tl) => interval::find(&tl.safe, tick),
            None => Some(0),
        }
    }

    /// The last tick of safe interval `interval` of the cell, which an agent
    /// standing there at `tick` is in: how long it may stay. A cell whose
    /// activity is over by `tick` answers [`FOREVER`] from one flat read.
    #[inline]
    pub fn safe_until(&self, cell: usize, interval: usize, tick: Tick) -> Tick {
        if self.busy_end(cell) <= tick {
            return FOREVER;
        }
        self.safe_intervals(cell)[interval].end
    }

    /// True if no obstacle occupies the cell at `tick`.
    #[inline]
    pub fn is_free(&self, cell: usize, tick: Tick) -> bool {
        self.interval_at(cell, tick).is_some()
    }

    /// Whether every departure record lies at a tick at which its cell is
    /// blocked, so that no obstacle leaves a cell at a tick at which it is
    /// free: a move into a safe interval after its first tick swaps with
    /// nobody.
    #[inline]
    pub(crate) fn departures_blocked(&self) -> bool {
        !self.loose_departures
    }

    /// True if an obstacle leaves the cell in direction `dir` during
    /// `[tick, tick + 1]`.
    #[inline(always)]
    pub fn departs(&self, cell: usize, tick: Tick, dir: Dir) -> bool {
        // The flat bounds alone (not the activity bits), as `is_free` reads
        // them: the time-expanded A* reference and `validate_path` check
        // paths through these two.
        if self.busy_end(cell) <= tick || self.busy_start(cell) > tick {
            return false;
        }
        self.timeline(cell).is_some_and(|tl| {
            tl.departures
                .binary_search(&Departure::new(tick, dir))
                .is_ok()
        })
    }

    /// True if an agent can arrive in the cell at `tick` from its neighbour
    /// in direction `from` (see [`entry_sides`](Self::entry_sides)).
    #[inline]
    pub fn can_enter(&self, cell: usize, tick: Tick, from: Dir) -> bool {
        self.entry_sides(cell, tick) & 1 << from as u8 != 0
    }

    /// The sides from which an agent can arrive in the cell at `tick`, one
    /// bit per [`Dir`] of the neighbour it comes from: none if the cell is
    /// blocked then, else all but those toward which an obstacle leaves it
    /// during `[tick - 1, tick]` (a move from there would swap places with
    /// it). Where every departure lies at a tick at which its cell is
    /// blocked ([`departures_blocked`](Self::departures_blocked)), only an
    /// arrival at the first tick of a safe interval can meet one, and that
    /// interval's entry lists who leaves then: one search of the timeline
    /// answers both, instead of one for the safe intervals and one for the
    /// departures.
    #[inline]
    pub fn entry_sides(&self, cell: usize, tick: Tick) -> u8 {
        const ALL: u8 = (1 << Dir::ALL.len()) - 1;
        let before = tick.saturating_sub(1);
        if self.idle_during(cell, before, tick) {
            return ALL;
        }
        if !self.departures_blocked() {
            if !self.is_free(cell, tick) {
                return 0;
            }
            return ALL & !self.departure_dirs(cell, before);
        }
        let Some(tl) = self.timeline(cell) else {
            return ALL;
        };
        match interval::find(&tl.safe, tick) {
            Some(k) if tl.safe[k].start == tick => ALL & !tl.entries[k],
            Some(_) => ALL,
            None => 0,
        }
    }

    /// The directions in which obstacles leave the cell during `[tick, tick
    /// + 1]`, one bit per [`Dir`] (`1 << dir as u8`); 0 if none do.
    pub fn departure_dirs(&self, cell: usize, tick: Tick) -> u8 {
        let Some(tl) = self.timeline(cell) else {
            return 0;
        };
        dirs_at(&tl.departures, tick)
    }

    /// The cell's safe intervals and, for each, the directions in which
    /// obstacles leave the cell during the tick before it opens (one bit
    /// per [`Dir`], as [`departure_dirs`](Self::departure_dirs) gives
    /// them): one look-up for both.
    #[inline]
    pub(crate) fn safe_intervals_and_entries(&self, cell: usize) -> (&[Interval], &[u8]) {
        match self.timeline(cell) {
            Some(tl) => (&tl.safe, &tl.entries),
            None => (&ALWAYS_SAFE, &[0]),
        }
    }

    /// One past the last tick at which the cell is blocked or left by an
    /// obstacle ([`FOREVER`] if it is blocked for ever; 0 if never touched).
    #[inline]
    pub fn busy_end(&self, cell: usize) -> Tick {
        if self.quiet() {
            return 0;
        }
        self.busy[cell].end
    }

    /// At or before the first tick at which the cell is blocked or left by
    /// an obstacle ([`FOREVER`] if never): before it nothing happens there.
    /// Taking a block out leaves it where it was (still a bound) until
    /// [`forget_before`](Self::forget_before) recomputes it.
    #[inline]
    pub fn busy_start(&self, cell: usize) -> Tick {
        if self.quiet() {
            return FOREVER;
        }
        self.busy[cell].start
    }

    /// True if the flat per-cell data show that nothing happens at the
    /// cell from tick `first` to tick `last`: no block and no departure
    /// then. It reads the first and last ticks of the cell's activity and
    /// then the spans of [`ACTIVITY_SPAN`] ticks it may be active in, not
    /// its timeline. False means "cannot tell from them", not "busy".
    #[inline]
    pub fn idle_during(&self, cell: usize, first: Tick, last: Tick) -> bool {
        if self.quiet() {
            return true;
        }
        let busy = self.busy[cell];
        busy.end <= first || busy.start > last || busy.activity & activity_bits(first, last) == 0
    }

    /// The start of the cell's earliest endless block (an obstacle parked
    /// there, or a block with no end), [`FOREVER`] if none: from then on it
    /// is as good as a wall. A finite block just before may close the cell
    /// for good a little earlier; scans then see it as a wall only from
    /// this tick, which costs speed, never a path.
    #[inline]
    pub fn wall_from(&self, cell: usize) -> Tick {
        if self.quiet() {
            return FOREVER;
        }
        self.wall_from[cell]
    }

    /// From this tick on nothing changes around the cell: the cell and its
    /// eight neighbours each stay free, stay blocked for ever, or are walls.
    /// A cell blocked for ever from tick `t` counts as changing at `t` only,
    /// so an obstacle parked for good stops mattering once it has parked.
    #[inline]
    pub fn near_change_end(&self, cell: usize) -> Tick {
        if self.quiet() {
            return 0;
        }
        self.near_change_end[cell]
    }

    /// The fast-skip bit rows for scans leaving at `tick`: the cells whose
    /// 3x3 neighbourhood may still change at `tick` or later (a superset of
    /// those with [`near_change_end`](Self::near_change_end) `> tick`,
    /// coarse in time: [`NEAR_LAYER_TICKS`]), and the cells blocked for ever
    /// since before `tick` (`None` if the layer never held one). Around
    /// every cell outside the first set, the second set holds exactly the
    /// neighbours that are blocked for ever by `tick`.
    #[inline]
    pub fn layers_at(&self, tick: Tick) -> (&BitRows, Option<&BitRows>) {
        // Every scan asks: the layer count alone caps the index here.
        let above = tick.saturating_sub(self.layer_base) / NEAR_LAYER_TICKS;
        let layer = (above as usize).min(self.near_layers.len() - 1);
        (&self.near_layers[layer], self.wall_layers[layer].as_deref())
    }

    /// From this tick on nothing changes any more: every cell stays as it is
    /// (free, or blocked for ever) and no obstacle moves.
    pub fn horizon(&self) -> Tick {
        self.horizon
    }

    /// Number of cells that some obstacle touches.
    pub fn touched_cells(&self) -> usize {
        self.timelines.len()
    }

    /// True while no cell has a timeline (since the map was made, or since
    /// it was last moved on): every per-cell bound holds its default, so
    /// the look-ups answer without reading them. A map without moving
    /// obstacles then keeps its flat per-cell arrays out of the
    /// processor's caches.
    #[inline]
    fn quiet(&self) -> bool {
        self.timelines.is_empty()
    }
}

/// The start of the earliest endless block, [`FOREVER`] if none.
fn endless_start(blocked: &[Interval]) -> Tick {
    blocked
        .iter()
        .filter(|iv| iv.end == FOREVER)
        .map(|iv| iv.start)
        .min()
        .unwrap_or(FOREVER)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scans rely on `layers_at(t)` flagging every cell whose neighbourhood
    /// changes after `t`, and, around every other cell, marking exactly the
    /// neighbours blocked for ever by `t`, whatever the time base, also after
    /// endless blocks are taken out again.
    #[test]
    fn layers_flag_changes_and_mark_walls_at_every_tick() {
        for base in [0, 50, 1000] {
            let (w, h) = (40u32, 6u32);
            let mut map = TemporalMap::with_time_base(w, h, base);
            let mut seed = 7u64 + base as u64;
            for _ in 0..60 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                let cell = (seed >> 33) as usize % (w * h) as usize;
                let start = (seed >> 13) as Tick % 1400;
                let end = if seed.is_multiple_of(7) {
                    FOREVER
                } else {
                    start + (seed % 40) as Tick
                };
                map.block(cell, Interval::new(start, end));
                if seed.is_multiple_of(21) {
                    map.unblock(cell, Interval::new(start, end));
                }
            }
            for t in (0..1500).step_by(7) {
                let (near, walls) = map.layers_at(t);
                for cell in 0..(w * h) as usize {
                    let (x, y) = ((cell % w as usize) as u32, (cell / w as usize) as u32);
                    if map.near_change_end(cell) > t {
                        assert!(near.get(x, y), "base {base} tick {t} cell {cell}");
                    }
                    if near.get(x, y) {
                        continue;
                    }
                    for ny in y.saturating_sub(1)..(y + 2).min(h) {
                        for nx in x.saturating_sub(1)..(x + 2).min(w) {
                            let n = (ny * w + nx) as usize;
                            let wall = walls.is_some_and(|b| b.get(nx, ny));
                            let endless = (t..t + 3000).step_by(97).all(|u| !map.is_free(n, u));
                            assert_eq!(wall, endless, "base {base} tick {t} cell {n}");
                            assert_eq!(wall, map.wall_from(n) <= t);
                        }
                    }
                }
            }
        }
    }

    /// A cell that only ever gets departures (an edge constraint) stays free.
    #[test]
    fn departures_alone_do_not_block_a_cell() {
        let mut map = TemporalMap::new(3, 1);
        map.add_departure(1, 5, Dir::East);
        assert!(map.departs(1, 5, Dir::East));
        // Two obstacles leaving the same way count once; others by tick.
        map.add_departure(1, 5, Dir::West);
        map.add_departure(1, 5, Dir::East);
        map.add_departure(1, 6, Dir::North);
        let both = 1 << Dir::East as u8 | 1 << Dir::West as u8;
        assert_eq!(map.departure_dirs(1, 5), both);
        assert_eq!(map.departure_dirs(1, 6), 1 << Dir::North as u8);
        assert_eq!(map.departure_dirs(1, 4), 0);
        assert_eq!(map.departure_dirs(0, 5), 0);
        for t in 0..10 {
            assert!(map.is_free(1, t), "tick {t}");
        }
        assert_eq!(map.safe_intervals(1), &[Interval::ALWAYS]);
    }

    /// Moving obstacles leave their cells only at ticks at which those are
    /// blocked, which spares the planners most swap checks. An edge
    /// constraint without a block, or a block taken out from under a
    /// departure, is noticed, and forgetting the past looks again.
    #[test]
    fn departures_at_free_ticks_are_noticed() {
        let mut map = TemporalMap::new(3, 1);
        map.block(1, Interval::new(2, 4));
        map.add_departure(1, 4, Dir::East);
        assert!(map.departures_blocked());
        // The obstacle taken out, departures first.
        map.remove_departure(1, 4, Dir::East);
        map.unblock(1, Interval::new(2, 4));
        assert!(map.departures_blocked());
        // A block taken out from under its departure.
        map.block(1, Interval::new(2, 4));
        map.add_departure(1, 4, Dir::East);
        map.unblock(1, Interval::new(2, 4));
        assert!(!map.departures_blocked());
        // The departure at a free tick is still there, then forgotten.
        map.forget_before(3);
        assert!(!map.departures_blocked());
        map.forget_before(5);
        assert!(map.departures_blocked());
        // An edge constraint alone.
        map.add_departure(0, 7, Dir::East);
        assert!(!map.departures_blocked());
    }

    #[test]
    fn safe_until_ends_the_interval_an_agent_stands_in() {
        let mut map = TemporalMap::new(3, 1);
        map.block(1, Interval::new(5, 7));
        map.block(2, Interval::new(4, FOREVER));
        assert_eq!(map.safe_until(0, 0, 3), FOREVER);
        assert_eq!(map.safe_until(1, 0, 2), 4);
        assert_eq!(map.safe_until(1, 1, 8), FOREVER);
        assert_eq!(map.safe_until(1, 1, 100), FOREVER);
        assert_eq!(map.safe_until(2, 0, 1), 3);
    }

    /// Layers are capped by memory on big maps, and a far block still
    /// flags its neighbourhood in the last layer.
    #[test]
    fn layers_stay_within_their_memory_budget() {
        assert_eq!(max_layers(1, 1), MAX_NEAR_LAYERS);
        assert_eq!(max_layers(1024, 1024), MAX_NEAR_LAYERS);
        assert_eq!(max_layers(2048, 2048), 120);
        assert_eq!(max_layers(4096, 4096), 31);
        assert_eq!(max_layers(u16::MAX as u32, u16::MAX as u32), 2);
        // A block for ever from far in the future grows the layers only up
        // to the cap, and scans still see it.
        let mut map = TemporalMap::new(40, 3);
        map.max_layers = 5;
        map.block(41, Interval::new(100_000, FOREVER));
        assert_eq!(map.near_layers.len(), 5);
        assert_eq!(map.wall_layers.len(), 5);
        assert!(map.layers_at(200_000).0.get(1, 1));
        assert_eq!(map.wall_from(41), 100_000);
    }

    /// Checks that every safe interval's entry lists the departures of the
    /// tick before it opens.
    fn assert_entries_match(map: &TemporalMap) {
        for cell in 0..(map.width() * map.height()) as usize {
            let (safe, entries) = map.safe_intervals_and_entries(cell);
            assert_eq!(safe, map.safe_intervals(cell));
            assert_eq!(safe.len(), entries.len(), "cell {cell}");
            for (k, iv) in safe.iter().enumerate() {
                let expected = iv
                    .start
                    .checked_sub(1)
                    .map_or(0, |t| map.departure_dirs(cell, t));
                assert_eq!(entries[k], expected, "cell {cell} interval {iv:?}");
            }
        }
    }

    /// A repeatable stream of pseudo-random numbers from `seed`.
    fn random_numbers(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        }
    }

    /// Blocks piled up on a few cells, overlapping and touching, with
    /// departures among them: every entry stays right after each block or
    /// departure added and after each one taken out again.
    #[test]
    fn entries_follow_every_block_and_departure() {
        let dirs = [Dir::North, Dir::East, Dir::South, Dir::West];
        let mut next = random_numbers(5);
        let mut map = TemporalMap::new(3, 2);
        let mut added = Vec::new();
        for _ in 0..300 {
            let cell = next() as usize % 6;
            let start = next() as Tick % 120;
            if next().is_multiple_of(3) {
                let dir = dirs[next() as usize % 4];
                map.add_departure(cell, start, dir);
                added.push((cell, Err((start, dir))));
            } else {
                let end = match next() % 12 {
                    0 => FOREVER,
                    _ => start + next() as Tick % 9,
                };
                map.block(cell, Interval::new(start, end));
                added.push((cell, Ok(Interval::new(start, end))));
            }
            assert_entries_match(&map);
        }
        while !added.is_empty() {
            let (cell, what) = added.swap_remove(next() as usize % added.len());
            match what {
                Ok(span) => map.unblock(cell, span),
                Err((tick, dir)) => map.remove_departure(cell, tick, dir),
            }
            assert_entries_match(&map);
        }
        for cell in 0..6 {
            assert_eq!(map.safe_intervals(cell), [Interval::ALWAYS]);
        }
    }

    /// An arrival by a move is allowed exactly where the cell is free and no
    /// obstacle leaves it toward the mover the tick before, both where
    /// every departure lies at a blocked tick (read from the entries) and
    /// where some do not (read from the departures).
    #[test]
    fn entering_means_free_and_no_swap() {
        let dirs = [Dir::North, Dir::East, Dir::South, Dir::West];
        for loose in [false, true] {
            let mut next = random_numbers(11 + u64::from(loose));
            let mut map = TemporalMap::new(3, 2);
            for _ in 0..200 {
                let cell = next() as usize % 6;
                let start = next() as Tick % 100;
                let end = start + next() as Tick % 6;
                if !loose || next().is_multiple_of(2) {
                    map.block(cell, Interval::new(start, end));
                }
                if next().is_multiple_of(2) {
                    map.add_departure(cell, end, dirs[next() as usize % 4]);
                }
            }
            assert_eq!(map.departures_blocked(), !loose);
            // A move arrives at tick 1 at the earliest.
            for cell in 0..6 {
                for tick in 1..120 {
                    for dir in dirs {
                        let want = map.is_free(cell, tick) && !map.departs(cell, tick - 1, dir);
                        assert_eq!(
                            map.can_enter(cell, tick, dir),
                            want,
                            "cell {cell} tick {tick} {dir:?} loose {loose}"
                        );
                    }
                }
            }
        }
    }

    /// A cell said to be idle over a span of ticks is free and left by
    /// nobody at every one of them, as blocks and departures come and go
    /// (a block taken out leaves its bits set: still true) and as the past
    /// is forgotten; and its activity bits find the spans far from any
    /// block, also a thousand ticks on.
    #[test]
    fn idle_cells_are_free_and_left_by_nobody() {
        let dirs = [Dir::North, Dir::East, Dir::South, Dir::West];
        let mut next = random_numbers(23);
        let mut map = TemporalMap::new(4, 2);
        let mut added = Vec::new();
        let check = |map: &TemporalMap, from: Tick| {
            for cell in 0..8 {
                for first in (from..2300).step_by(7) {
                    for len in [0, 1, 5, 40, 700] {
                        let last = first + len;
                        if map.idle_during(cell, first, last) {
                            for t in first..=last {
                                assert!(map.is_free(cell, t), "cell {cell} tick {t}");
                                assert_eq!(map.departure_dirs(cell, t), 0, "cell {cell} tick {t}");
                            }
                        }
                    }
                }
            }
        };
        for round in 0..60 {
            let cell = next() as usize % 8;
            let start = next() as Tick % 2200;
            if next().is_multiple_of(3) {
                map.add_departure(cell, start, dirs[next() as usize % 4]);
            } else {
                let end = start + next() as Tick % 20;
                map.block(cell, Interval::new(start, end));
                added.push((cell, Interval::new(start, end)));
            }
            if round % 10 == 9 {
                let (cell, span) = added.swap_remove(next() as usize % added.len());
                map.unblock(cell, span);
            }
            check(&map, 0);
        }
        map.forget_before(500);
        check(&map, 500);
        // One block at ticks 40-41 and one at 1,064: the spans between are idle.
        let mut sparse = TemporalMap::new(2, 1);
        sparse.block(0, Interval::new(40, 41));
        sparse.block(0, Interval::new(1064, 1064));
        assert!(sparse.idle_during(0, 64, 1000));
        assert!(!sparse.idle_during(0, 1060, 1070));
        assert!(sparse.idle_during(0, 1100, 1500));
    }

    /// Forgetting the past in place leaves exactly the map built afresh from
    /// the same obstacles with its time base at the same tick, and
    /// obstacles added before can still be taken out. Every safe
    /// interval's entry stays right throughout.
    #[test]
    fn forgetting_the_past_matches_a_fresh_map() {
        let (w, h) = (70u32, 9u32);
        let dirs = [Dir::North, Dir::East, Dir::South, Dir::West];
        let mut next = random_numbers(11);
        let mut blocks = Vec::new();
        let mut departures = Vec::new();
        for _ in 0..400 {
            let cell = next() as usize % (w * h) as usize;
            let start = next() as Tick % 600;
            let end = if next().is_multiple_of(9) {
                FOREVER
            } else {
                start + next() as Tick % 50
            };
            blocks.push((cell, Interval::new(start, end)));
            departures.push((cell, next() as Tick % 650, dirs[next() as usize % 4]));
        }
        for now in [1, 100, 333, 700] {
            let mut kept = TemporalMap::new(w, h);
            for &(c, span) in &blocks {
                kept.block(c, span);
            }
            for &(c, t, d) in &departures {
                kept.add_departure(c, t, d);
            }
            assert_entries_match(&kept);
            // Blocks and departures interleaved, departures first.
            let mut mixed = TemporalMap::new(w, h);
            for (&(c, span), &(dc, t, d)) in blocks.iter().zip(&departures) {
                mixed.add_departure(dc, t, d);
                mixed.block(c, span);
            }
            assert_entries_match(&mixed);
            let snapshot = kept.clone();
            kept.forget_before(now);
            let mut fresh = TemporalMap::with_time_base(w, h, now);
            for &(c, span) in &blocks {
                fresh.block(c, span);
            }
            for &(c, t, d) in &departures {
                fresh.add_departure(c, t, d);
            }
            assert_eq!(kept.touched_cells(), fresh.touched_cells(), "now {now}");
            assert_eq!(kept.horizon(), fresh.horizon(), "now {now}");
            assert_eq!(kept.departures_blocked(), fresh.departures_blocked());
            assert_entries_match(&kept);
            assert_entries_match(&fresh);
            for cell in 0..(w * h) as usize {
                assert_eq!(
                    kept.safe_intervals(cell),
                    fresh.safe_intervals(cell),
                    "now {now} cell {cell} {:?} {:?}",
                    kept.blocked_intervals(cell),
                    fresh.blocked_intervals(cell)
                );
                assert_eq!(kept.blocked_intervals(cell), fresh.blocked_intervals(cell));
                assert_eq!(kept.interval_count(cell), fresh.safe_intervals(cell).len());
                assert_eq!(kept.busy_end(cell), fresh.busy_end(cell), "cell {cell}");
                assert_eq!(kept.busy_start(cell), fresh.busy_start(cell), "cell {cell}");
                assert_eq!(kept.near_change_end(cell), fresh.near_change_end(cell));
                assert_eq!(kept.wall_from(cell), fresh.wall_from(cell));
                for t in now..now + 700 {
                    for d in dirs {
                        assert_eq!(kept.departs(cell, t, d), fresh.departs(cell, t, d));
                    }
                }
            }
            for t in (now..now + 700).step_by(5) {
                assert_eq!(kept.layers_at(t), fresh.layers_at(t), "tick {t}");
            }
            // A clone taken before still remembers the past.
            let remembered: usize = (0..(w * h) as usize)
                .map(|c| snapshot.blocked_intervals(c).len())
                .sum();
            assert_eq!(remembered, blocks.len());
            // Everything added before comes out again: half the departures
            // first, then the blocks, then the rest.
            let (early, late) = departures.split_at(departures.len() / 2);
            for &(c, t, d) in early {
                kept.remove_departure(c, t, d);
            }
            assert_entries_match(&kept);
            for &(c, span) in &blocks {
                kept.unblock(c, span);
            }
            assert_entries_match(&kept);
            for &(c, t, d) in late {
                kept.remove_departure(c, t, d);
            }
            assert_entries_match(&kept);
            for cell in 0..(w * h) as usize {
                assert!(
                    kept.blocked_intervals(cell).is_empty(),
                    "now {now} cell {cell}"
                );
                for t in now..now + 700 {
                    assert!(kept.is_free(cell, t));
                }
            }
        }
    }
}
