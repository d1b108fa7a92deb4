//! The flood by contours: each cell's arrivals kept as one word of ticks.
//!
//! Number each state (cell `c`, tick `t`) of a trip by how far above the
//! lower bound an arrival through it can be at best: its contour `k = t +
//! d(c) - L`, where `d` is the walking distance to the goal over the walls
//! and `L` the start tick plus the start's. Neighbours' walking distances
//! differ by exactly one (a grid's cells split into two colours, like a
//! chessboard's), so a step toward the goal keeps the contour, a wait
//! raises it by one and a step away by two: contours never fall along a
//! path, and the first contour that holds the goal gives the earliest
//! arrival.
//!
//! So each cell keeps the contours `0..64` it is reached in as the bits of
//! one word (bit `k` is tick `L - d(c) + k`), and beside them the ticks it
//! is free in the same places. Its waits fill each run of free ticks from
//! the first reached (one carry), and its moves shift the word by 0 or 2
//! into its neighbours'. The contours are worked through in order, a cell
//! at a time: a cell is looked at (its safe intervals read) only once a
//! contour it is reached in comes up, so no cell of a contour above the
//! arrival's is ever looked at, and where the arrival lies several ticks
//! above the lower bound nothing is done twice (a bounded flood that finds
//! nothing starts over, wider). The walking distances are searched only as
//! far as the contours worked through need: a cell whose neighbour lies
//! beyond them is noted, and spreads to it again once the search goes
//! further.
//!
//! Where the reached cells are dense (open ground) the row flood does more
//! per word; this one does more where they are few and far between (the
//! narrow bands of winding maps).

use crate::grid::{Cell, Dir, NavGrid, TemporalMap, Tick};

use super::distance::{GoalDistances, LEFT, Searched};

/// Contours a cell's word holds.
pub(crate) const CONTOURS: Tick = 64;

/// No lane: a cell not reached yet.
const NONE: u32 = u32::MAX;

/// A cell reached in some contour.
#[derive(Clone, Copy, Debug, Default)]
struct Lane {
    /// The cell (dense index).
    cell: u32,
    /// Its column and row.
    x: u32,
    y: u32,
    /// Its walking distance to the goal.
    steps: u32,
    /// Whether its free ticks have been read, and `reached` set from
    /// `inbox`.
    looked: bool,
    /// Whether it met a neighbour beyond the walking distances searched.
    stalled: bool,
    /// Where its cell has [`swaps`](Self::swaps): its number in
    /// [`Contours::leaving`].
    sides: u32,
    /// The highest contour its free ticks are read up to (once looked
    /// at).
    known: Tick,
    /// The contours it is reached in (once looked at).
    reached: u64,
    /// The contours of `reached` already spread to its neighbours.
    spread: u64,
    /// The contours at whose ticks it is free (once looked at).
    free: u64,
    /// The contours at whose ticks it opens as an obstacle leaves it: an
    /// arrival then must not swap places with one (see
    /// [`Contours::leaving`]).
    swaps: u64,
    /// The contours its neighbours spread to it before it was looked at.
    inbox: u64,
}

/// What a flood by contours found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// The earliest arrival, in contours above the lower bound `L`.
    At(Tick),
    /// No path arrives within the spans given.
    NotBy,
    /// The work would exceed the word limit.
    TooBig,
}

/// Reusable buffers of the flood by contours.
#[derive(Debug, Default)]
pub(super) struct Contours {
    /// Per cell of the map (dense index): its lane, or [`NONE`].
    slot: Vec<u32>,
    /// The cells reached, in the order reached.
    lanes: Vec<Lane>,
    /// Per contour: the lanes with contours to spread from there on.
    levels: Vec<Vec<u32>>,
    /// The lanes that met a neighbour beyond the walking distances.
    stalled: Vec<u32>,
    /// Per lane with [`Lane::swaps`] (by its number there), and per side
    /// (by [`Dir`]): the contours at whose ticks an obstacle leaves toward
    /// that side, so that arriving from there would swap places with it.
    leaving: Vec<[u64; 4]>,
    /// The lower bound `L`: the start tick plus the start's walking
    /// distance.
    lower: Tick,
    /// The highest contour of the walking distances searched so far: the
    /// lanes' free ticks are read up to it.
    top: Tick,
}

/// One flood's fixed inputs.
pub(crate) struct Trip<'a> {
    pub(crate) grid: &'a NavGrid,
    pub(crate) start: Cell,
    pub(crate) start_tick: Tick,
    pub(crate) goal: Cell,
    /// The first tick the goal counts from.
    pub(crate) goal_ready: Tick,
    /// The last tick a path may arrive at.
    pub(crate) last: Tick,
}

impl Contours {
    /// The earliest arrival of `trip` by the contours of walking distances
    /// searched within each of `spans` (ticks from the start) in turn, all
    /// at most [`CONTOURS`] - 1 contours above the lower bound; each cell
    /// looked at and each spread counts as a word.
    pub(super) fn run(
        &mut self,
        trip: &Trip,
        distances: &mut GoalDistances,
        spans: &[Tick],
        max_words: u64,
        words: &mut u64,
    ) -> Found {
        let walls = trip.grid.walls();
        let mut stage = 0;
        loop {
            let Some(&span) = spans.get(stage) else {
                return Found::NotBy;
            };
            match distances.search(walls, trip.start, trip.goal, span, max_words, words) {
                Searched::Reached => break,
                Searched::TooFar => stage += 1,
                Searched::TooBig => return Found::TooBig,
            }
        }
        let walk = distances.steps(walls.index(trip.start));
        self.reset(walls.cell_count());
        self.lower = trip.start_tick + walk;
        let goal = walls.index(trip.goal);
        // The goal's contours that count: from the tick it is ready, to the
        // last tick.
        let ready = trip.goal_ready.saturating_sub(self.lower);
        let valid = match trip.last.checked_sub(self.lower) {
            Some(last) if ready < CONTOURS && ready <= last => bits(ready, last.min(CONTOURS - 1)),
            _ => return Found::NotBy,
        };
        self.top = (spans[stage] - walk).min(CONTOURS - 1);
        // The start, at contour 0.
        let s = self.lane_of(trip.start, walls.index(trip.start), walk);
        self.look(trip.grid.obstacles(), s, 0);
        let lane = &mut self.lanes[s as usize];
        lane.reached = fill(lane.free, lane.free & 1);
        if lane.reached == 0 {
            return Found::NotBy;
        }
        self.levels[0].push(s);
        let mut level = 0;
        loop {
            while level <= self.top {
                while let Some(i) = self.levels[level as usize].pop() {
                    self.spread(trip, distances, i, words);
                    if *words > max_words {
                        return Found::TooBig;
                    }
                }
                let at = self.slot[goal];
                if at != NONE {
                    let reached = self.lanes[at as usize].reached & valid;
                    if reached != 0 && reached.trailing_zeros() <= level {
                        return Found::At(reached.trailing_zeros());
                    }
                }
                level += 1;
            }
            stage += 1;
            // Nothing can go on above the top if no cell is reached in its
            // last two contours (a wait or a step away from there would),
            // no cell waits for a wider distance search, and nothing is
            // queued.
            let edge = if self.top >= 1 {
                bits(self.top - 1, self.top)
            } else {
                1
            };
            let nothing_left = level >= CONTOURS
                || self.stalled.is_empty()
                    && self.levels[level as usize..].iter().all(Vec::is_empty)
                    && self.lanes.iter().all(|lane| lane.reached & edge == 0);
            let Some(&span) = spans.get(stage).filter(|_| !nothing_left) else {
                return Found::NotBy;
            };
            if distances.search(walls, trip.start, trip.goal, span, max_words, words)
                == Searched::TooBig
            {
                return Found::TooBig;
            }
            self.widen(trip.grid.obstacles(), (span - walk).min(CONTOURS - 1));
            // Spread again from the cells that met a neighbour without a
            // distance: it may have one now.
            let stalled = std::mem::take(&mut self.stalled);
            for &i in &stalled {
                let lane = &mut self.lanes[i as usize];
                lane.stalled = false;
                let spread = lane.spread;
                self.send(trip, distances, i, spread);
            }
            self.stalled = stalled;
            self.stalled.clear();
        }
    }

    /// The path to the goal arriving in contour `k`, one cell a tick from
    /// the start tick, traced back through the lanes.
    pub(super) fn trace(&self, trip: &Trip, k: Tick) -> Option<Vec<Cell>> {
        let walls = trip.grid.walls();
        let arrival = self.lower + k;
        let mut path = vec![trip.goal; (arrival - trip.start_tick) as usize + 1];
        let (mut here, mut at) = (trip.goal, i64::from(k));
        let mut ahead: Option<Dir> = None;
        for t in (trip.start_tick..arrival).rev() {
            let steps = self.lanes[self.slot[walls.index(here)] as usize].steps;
            // Keep going straight where possible, then wait, then turn:
            // fewer turns make fewer waypoints.
            let straight = ahead.and_then(|d| here.step(d.reverse()));
            let before = straight
                .into_iter()
                .chain(std::iter::once(here))
                .chain(Dir::ALL.iter().filter_map(|&d| here.step(d)))
                .filter(|&from| walls.is_passable(from))
                .find_map(|from| {
                    let lane = self.slot[walls.index(from)];
                    let lane = self.lanes.get(lane as usize)?;
                    let k = at - 1 - i64::from(steps) + i64::from(lane.steps);
                    let held = (0..i64::from(CONTOURS)).contains(&k) && lane.reached >> k & 1 != 0;
                    (held && trip.grid.can_step(from, here, t)).then_some((from, k))
                });
            let (from, k) = before?;
            ahead = from.dir_to(here);
            path[(t - trip.start_tick) as usize] = from;
            (here, at) = (from, k);
        }
        (here == trip.start).then_some(path)
    }

    /// Forgets the last flood, for a map of `cells` cells.
    fn reset(&mut self, cells: usize) {
        if self.slot.len() != cells {
            self.slot.clear();
            self.slot.resize(cells, NONE);
        } else {
            for lane in &self.lanes {
                self.slot[lane.cell as usize] = NONE;
            }
        }
        self.lanes.clear();
        self.stalled.clear();
        self.leaving.clear();
        self.levels.resize_with(CONTOURS as usize, Vec::new);
        for level in &mut self.levels {
            level.clear();
        }
    }

    /// A new lane for cell `at` (dense index `cell`), `steps` from the
    /// goal.
    fn lane_of(&mut self, at: Cell, cell: usize, steps: u32) -> u32 {
        let i = self.lanes.len() as u32;
        self.slot[cell] = i;
        self.lanes.push(Lane {
            cell: cell as u32,
            x: at.x,
            y: at.y,
            steps,
            ..Lane::default()
        });
        i
    }

    /// Reads the free ticks of lane `i`'s cell in contours `from` to the
    /// top: none below can reach it any more (they are all worked
    /// through), and those above wait for a wider search.
    fn look(&mut self, tm: &TemporalMap, i: u32, from: Tick) {
        let lane = &mut self.lanes[i as usize];
        lane.looked = true;
        lane.known = from.saturating_sub(1);
        self.read_on(tm, i, from);
    }

    /// Reads the free ticks of lane `i`'s cell in contours `from` to the
    /// top.
    #[inline(never)]
    fn read_on(&mut self, tm: &TemporalMap, i: u32, from: Tick) {
        let lane = &mut self.lanes[i as usize];
        let base = i64::from(self.lower) - i64::from(lane.steps);
        let (free, leaving) = free_ticks(tm, lane.cell as usize, base, from, self.top);
        lane.free |= free;
        lane.known = self.top;
        if let Some(leaving) = leaving {
            if lane.swaps == 0 {
                lane.sides = self.leaving.len() as u32;
                self.leaving.push(leaving);
            } else {
                let sides = &mut self.leaving[lane.sides as usize];
                for (side, more) in sides.iter_mut().zip(leaving) {
                    *side |= more;
                }
            }
            lane.swaps |= leaving.iter().fold(0, |all, &side| all | side);
        }
    }

    /// Raises the top contour to `top`. The lanes reached in the old top's
    /// last two contours read their free ticks on, wait on, and spread
    /// those two again (a step away from the goal raises a contour by two,
    /// so some went above the old top and were dropped); the rest read on
    /// only once something reaches them above the contours they know.
    fn widen(&mut self, tm: &TemporalMap, top: Tick) {
        let old = self.top;
        if top <= old {
            return;
        }
        self.top = top;
        let edge = bits(old.saturating_sub(1), old);
        for i in 0..self.lanes.len() {
            let lane = self.lanes[i];
            if !lane.looked || lane.reached & edge == 0 {
                continue;
            }
            self.read_on(tm, i as u32, lane.known + 1);
            let lane = &mut self.lanes[i];
            lane.reached = fill(lane.free, lane.reached);
            lane.spread &= !edge;
            // Queued above the old top, where the contours go on (those
            // spread again land above it).
            self.levels[old as usize + 1].push(i as u32);
        }
    }

    /// Spreads the contours of lane `i` not spread yet (looking at its cell
    /// first if it has not been).
    fn spread(&mut self, trip: &Trip, distances: &GoalDistances, i: u32, words: &mut u64) {
        if !self.lanes[i as usize].looked {
            *words += 1;
            let from = self.lanes[i as usize].inbox.trailing_zeros();
            self.look(trip.grid.obstacles(), i, from);
            let lane = self.lanes[i as usize];
            let mut seeds = lane.inbox & lane.free;
            // An arrival as an obstacle leaves: only from a neighbour it
            // does not leave toward.
            let mut swaps = seeds & lane.swaps;
            while swaps != 0 {
                let k = swaps.trailing_zeros();
                if !self.enters(trip, i, k) {
                    seeds &= !(1 << k);
                }
                swaps &= swaps - 1;
            }
            self.lanes[i as usize].reached = fill(lane.free, seeds);
        }
        let lane = &mut self.lanes[i as usize];
        let pending = lane.reached & !lane.spread;
        if pending == 0 {
            return;
        }
        *words += 1;
        lane.spread |= pending;
        self.send(trip, distances, i, pending);
    }

    /// Whether lane `i`'s cell, looked at, can be entered at contour `k`
    /// from a neighbour that spread that contour to it without swapping
    /// places with an obstacle.
    fn enters(&self, trip: &Trip, i: u32, k: Tick) -> bool {
        let walls = trip.grid.walls();
        let lane = self.lanes[i as usize];
        let here = walls.cell_at(lane.cell as usize);
        Dir::ALL.iter().any(|&dir| {
            let Some(from) = here.step(dir).filter(|&c| walls.is_passable(c)) else {
                return false;
            };
            let at = self.slot[walls.index(from)];
            if at == NONE {
                return false;
            }
            let from_lane = self.lanes[at as usize];
            let sent = from_lane.spread << (1 + lane.steps - from_lane.steps);
            (sent & !self.leaving[lane.sides as usize][dir as usize]) >> k & 1 != 0
        })
    }

    /// Sends contours `bits` of lane `i` to its neighbours.
    #[inline]
    fn send(&mut self, trip: &Trip, distances: &GoalDistances, i: u32, bits: u64) {
        let walls = trip.grid.walls();
        let (w, h) = (walls.width(), walls.height());
        let lane = &self.lanes[i as usize];
        let (cell, steps, x, y) = (lane.cell as usize, lane.steps, lane.x, lane.y);
        let width = w as usize;
        // Each neighbour with the side it is entered from.
        let near = [
            (y > 0, cell.wrapping_sub(width), Dir::South),
            (y + 1 < h, cell + width, Dir::North),
            (x > 0, cell.wrapping_sub(1), Dir::East),
            (x + 1 < w, cell + 1, Dir::West),
        ];
        let distance = distances.all_steps();
        for (inside, n, from) in near {
            if !inside {
                continue;
            }
            let next = u32::from(distance[n]);
            if next >= LEFT {
                // Beyond the distances searched (or a wall): maybe later.
                if next == LEFT {
                    self.stall(i);
                }
                continue;
            }
            // Toward the goal the contour stays, away from it it rises by
            // two (a tick, and a step more to walk).
            let sent = bits << (1 + next - steps);
            if sent == 0 {
                continue;
            }
            let j = self.slot[n];
            if j == NONE {
                // Queued at its lowest contour; looked at when that comes up.
                let j = self.lanes.len() as u32;
                self.slot[n] = j;
                let (nx, ny) = match from {
                    Dir::South => (x, y - 1),
                    Dir::North => (x, y + 1),
                    Dir::East => (x - 1, y),
                    Dir::West => (x + 1, y),
                };
                self.lanes.push(Lane {
                    cell: n as u32,
                    x: nx,
                    y: ny,
                    steps: next,
                    inbox: sent,
                    ..Lane::default()
                });
                self.levels[sent.trailing_zeros() as usize].push(j);
                continue;
            }
            self.receive(trip.grid.obstacles(), j, sent, from);
        }
    }

    /// Notes that lane `i` met a neighbour beyond the walking distances.
    #[cold]
    fn stall(&mut self, i: u32) {
        let lane = &mut self.lanes[i as usize];
        if !lane.stalled {
            lane.stalled = true;
            self.stalled.push(i);
        }
    }

    /// Lane `j`, which has been reached before, is reached in contours
    /// `sent` from its neighbour on side `from`.
    #[inline]
    fn receive(&mut self, tm: &TemporalMap, j: u32, sent: u64, from: Dir) {
        let lane = &mut self.lanes[j as usize];
        if !lane.looked {
            if sent.trailing_zeros() < lane.inbox.trailing_zeros() {
                self.levels[sent.trailing_zeros() as usize].push(j);
            }
            lane.inbox |= sent;
            return;
        }
        if lane.known < self.top && sent >> lane.known >> 1 != 0 {
            // Reached above the contours it knows (the top has risen since).
            let from = lane.known + 1;
            self.read_on(tm, j, from);
        }
        let lane = &mut self.lanes[j as usize];
        let mut new = sent & lane.free & !lane.reached;
        if new == 0 {
            return;
        }
        if new & lane.swaps != 0 {
            // Not as an obstacle leaves toward `from`.
            new &= !self.leaving[lane.sides as usize][from as usize];
        }
        let waiting = lane.reached & !lane.spread;
        lane.reached = fill(lane.free, lane.reached | new);
        let pending = lane.reached & !lane.spread;
        if pending.trailing_zeros() < waiting.trailing_zeros() {
            self.levels[pending.trailing_zeros() as usize].push(j);
        }
    }
}

/// The bits `first..=last` of a word.
#[inline]
fn bits(first: Tick, last: Tick) -> u64 {
    (!0u64 >> (63 - last)) & (!0u64 << first)
}

/// The ticks of `free` reached from `seeds` (some of them) by waiting:
/// each run of free ticks from its first seed on.
#[inline]
fn fill(free: u64, seeds: u64) -> u64 {
    // The carry of adding a seed runs up the rest of its run.
    free & ((free.wrapping_add(seeds) ^ free) | seeds)
}

/// The contours `from..=to` (ticks `base + from` to `base + to`) at whose
/// ticks cell `cell` is free (none before tick 0), and if it opens at some
/// of them as an obstacle leaves it, those contours per side the obstacle
/// leaves toward (by [`Dir`]).
fn free_ticks(
    tm: &TemporalMap,
    cell: usize,
    base: i64,
    from: Tick,
    to: Tick,
) -> (u64, Option<[u64; 4]>) {
    let end = base + i64::from(to);
    if end < 0 {
        return (0, None);
    }
    let first = (base + i64::from(from)).max(0) as Tick;
    let last = end.min(i64::from(Tick::MAX - 1)) as Tick;
    let exists = bits(
        (i64::from(first) - base) as Tick,
        (i64::from(last) - base) as Tick,
    );
    if tm.idle_during(cell, first.saturating_sub(1), last) {
        return (exists, None);
    }
    let (safe, entries) = tm.safe_intervals_and_entries(cell);
    let (mut free, mut swaps) = (0, None);
    let from = safe.partition_point(|iv| iv.end < first);
    for (k, iv) in safe.iter().enumerate().skip(from) {
        if iv.start > last {
            break;
        }
        let lo = (i64::from(iv.start.max(first)) - base) as Tick;
        let hi = (i64::from(iv.end.min(last)) - base) as Tick;
        free |= bits(lo, hi);
        let leaving = entries.get(k).copied().unwrap_or(0);
        if iv.start >= first && iv.start > 0 && leaving != 0 {
            let sides: &mut [u64; 4] = swaps.get_or_insert_default();
            for dir in Dir::ALL {
                if leaving & 1 << dir as u8 != 0 {
                    sides[dir as usize] |= 1 << lo;
                }
            }
        }
    }
    (free, swaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_fill_each_run_of_free_ticks_from_its_first_seed() {
        let free = 0b1110_0111_1100u64;
        assert_eq!(fill(free, 0b0000_0000_0100), 0b0000_0111_1100);
        assert_eq!(fill(free, 0b0000_0001_0100), 0b0000_0111_1100);
        assert_eq!(fill(free, 0b0010_0001_0000), 0b1110_0111_0000);
        assert_eq!(fill(!0, 1 << 63), 1 << 63);
        assert_eq!(fill(!0 << 60, 1 << 61), 0b111 << 61);
        assert_eq!(fill(free, 0), 0);
    }

    #[test]
    fn bits_span_both_ends() {
        assert_eq!(bits(0, 63), !0);
        assert_eq!(bits(3, 3), 8);
        assert_eq!(bits(1, 2), 6);
    }
}
