//! The flood: every cell the agent can stand on at each tick, 64 cells to a
//! word, until the goal is reached or an arrival bound passes.
//!
//! The cells reachable at `t + 1` are those reachable at `t` and their four
//! neighbours (shifts and ors of bit rows), minus walls and the cells
//! blocked at `t + 1`; a cell that an obstacle leaves toward the agent
//! during `[t, t + 1]` keeps its bit only if the agent can get there
//! another way (swap conflicts). This is a breadth-first search of the
//! time-expanded grid, so the first tick at which the goal is reachable
//! (and, with the `Stay` policy, free for good) is the earliest arrival.
//!
//! Only paths arriving by the bound `arrive_by` are looked for: a cell from
//! which the goal is more than `arrive_by - t` steps away on foot, over the
//! walls alone, cannot lie on one at tick `t` (moving obstacles only make
//! ways longer). Those walking distances come from a breadth-first search
//! from the goal (`distance.rs`, kept to the cells that can matter with the
//! help of a few landmarks, `landmarks.rs`); a cell too far when first
//! reached is never taken in, and one that gets too far later is dropped at
//! that tick. With a bound a few ticks above the optimum the flooded cells
//! are a thin band around the near-shortest paths, even where corridors
//! wind; its bit rows follow the map's diagonals (`frame.rs`), along which
//! the band lies on open ground, or the map's rows where those have been
//! packing the reached sets tighter (`layout.rs`). A cell enters the
//! flood's view when it is first reached: its state at that tick and all
//! its later changes (blocked, or free again with the directions obstacles
//! leave it in) are read from its safe intervals at once and the changes
//! queued by tick; where a cell is freed and the spread reaches it, a move
//! that would swap places with one of those obstacles is taken out. So the
//! work grows with the band and the activity inside it, not with the map or
//! the number of obstacles. A reached set that a tick left unchanged stays
//! so until the next queued event (nothing else changes what the spread
//! sees), so the ticks until then repeat it without a spread: an agent that
//! must wait for its goal waits for nothing.
//!
//! Before the first flood of a query whose lower bound is the quickest
//! walk itself, a depth-first search along the quickest walks looks for
//! one that meets no obstacle (`on_time.rs`): it needs the same walking
//! distances, and where it finds one, no flood runs.

mod distance;
mod frame;
mod landmarks;
mod layers;
mod layout;
mod on_time;

use crate::grid::{Cell, Dir, FOREVER, Interval, NavGrid, StaticGrid, TemporalMap, Tick};

use super::super::goal::cell_of;
use distance::{FAR, GoalDistances, Searched};
use frame::{Frame, SlantedWalls};
#[cfg(test)]
pub(super) use landmarks::find_landmarks;
pub(super) use landmarks::{LANDMARKS, bound};
use layers::{Layer, Layers, NARROW};
use layout::LayoutChoice;
use on_time::OnTime;

/// Largest map, in cells, on which the planner floods: the walking
/// distances take 2 bytes per cell, the landmarks 4, the bit fields under
/// 2.
pub(super) const MAX_CELLS: usize = 1 << 22;

/// Most ticks one flood looks ahead (its event queue holds a list per
/// tick): the plugin's default horizon.
const MAX_TICKS: u64 = 1 << 16;

/// An event that drops a cell too far from the goal to matter (the rest
/// change the cell's state). A drop keeps the cell's place in the bit
/// fields instead of its index: the number of its word times 2^7, plus the
/// number of its bit times 2, plus [`DROP`].
const DROP: u64 = 1;

/// What a change event keeps in bits 1 to 5: [`BLOCKS`], or [`FREES`]
/// plus the directions obstacles leave the cell in as it is freed (one bit
/// per [`Dir`]). The event also keeps the cell's place in the bit fields
/// (the number of its word from bit 12, of its bit from bit 6), so that
/// applying it needs no division to find that place, and its dense index
/// from bit 40 (see [`change_event`]).
const CHANGE_BITS: u64 = (1 << 5) - 1;

/// The bits of a change event that hold the number of the cell's word.
const WORD_BITS: u64 = (1 << 28) - 1;

/// The change blocks the cell.
const BLOCKS: u64 = 0;

/// The change frees the cell.
const FREES: u64 = 1;

/// The spreads of one tick in this many tell the layout's account how
/// tight it packs the flood (counting cells takes a pass over the set).
const LAYOUT_SAMPLE: Tick = 8;

/// Cells the search for a quickest walk free of obstacles may look at
/// beyond twice the walk's steps.
const ON_TIME_SLACK: u64 = 64;

/// What a flood found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Flooded {
    /// An earliest path, one cell per tick from the start tick.
    Path(Vec<Cell>),
    /// No path arrives by the bound.
    NotBy,
    /// The flood would exceed its word limit.
    TooBig,
}

/// Reusable buffers of the flood.
#[derive(Debug, Default)]
pub(super) struct Flood {
    /// The layout of the bit fields and reached sets of this flood.
    frame: Frame,
    /// The walkable cells in every frame.
    walls: SlantedWalls,
    /// Per word of the bit fields: which of its cells are seen, alive and
    /// blocked.
    cells: Vec<Word>,
    /// The reached sets, tick after tick.
    reached: Layers,
    /// The words of the set being spread that hold cells entering the
    /// view (their row and word in its box, and those cells), looked at
    /// once the spread is done.
    fresh: Vec<(u32, u32, u64)>,
    /// Per row of the set being spread, the first and last word (from its
    /// box's first) that hold a cell.
    spans: Vec<(u32, u32)>,
    /// Walking distances to the goal.
    distances: GoalDistances,
    /// The search for a quickest walk free of obstacles.
    on_time: OnTime,
    /// Events by tick, relative to the start tick: a change of a cell's
    /// state at tick `t + 1` or a cell too far to matter from tick `t + 1`
    /// on sits at `t - start`. A change is a [`change_event`]; a drop is a
    /// [`DROP`].
    queue: Vec<Vec<u64>>,
    /// The cells freed at the end of the current tick that obstacles leave
    /// as they are freed, each with the directions they leave in (one bit
    /// per [`Dir`]): a move toward the agent from there would swap places
    /// (looked at only for the cells the spread reaches).
    swaps: Vec<(u32, u8)>,
    /// Which layout floods take.
    layout: LayoutChoice,
    /// Words the sampled spreads of this flood processed, and cells they
    /// reached (see [`LAYOUT_SAMPLE`]).
    spread_words: u64,
    spread_cells: u64,
}

/// The state of the cells of one word of a flood's bit fields.
#[derive(Clone, Copy, Debug, Default)]
struct Word {
    /// Cells that entered the flood's view, and the walls (which never
    /// enter it: they start out seen).
    seen: u64,
    /// Cells seen that can still lie on a path arriving by the bound.
    alive: u64,
    /// Cells blocked at the current tick, among those seen.
    blocked: u64,
}

/// One flood's fixed inputs.
struct Bounds<'a> {
    grid: &'a NavGrid,
    start: Tick,
    arrive_by: Tick,
    goal: Cell,
}

impl Flood {
    /// Floods from `start` at tick `start_tick` toward `goal` (which counts
    /// only from tick `goal_ready` on), looking for paths arriving by tick
    /// `arrive_by`. Processes at most `max_words` row words (each cell the
    /// distance search finds counts as one); adds the words processed to
    /// `words`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &mut self,
        grid: &NavGrid,
        start: Cell,
        start_tick: Tick,
        goal: Cell,
        goal_ready: Tick,
        arrive_by: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Flooded {
        let trip = (start, start_tick, goal, goal_ready);
        self.run_within(grid, trip, arrive_by, FOREVER, max_words, words)
    }

    /// [`run`](Self::run) for the trip `(start, start_tick, goal,
    /// goal_ready)`, using only the cells whose walking distance to the goal
    /// plus Manhattan distance from the start is at most `within`. A path
    /// found is then the earliest through those cells, not always the
    /// earliest of all; one arriving at a lower bound of every arrival is.
    pub(super) fn run_within(
        &mut self,
        grid: &NavGrid,
        (start, start_tick, goal, goal_ready): (Cell, Tick, Cell, Tick),
        arrive_by: Tick,
        within: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Flooded {
        if start_tick.saturating_add(start.manhattan(goal)) > arrive_by || arrive_by == FOREVER {
            return Flooded::NotBy;
        }
        // Every tick the flood lives costs at least a word: a bound further
        // off than the limit allows (a goal free only much later, say) is
        // left to the temporal search, before anything is allocated.
        if u64::from(arrive_by - start_tick) > max_words.min(MAX_TICKS) {
            return Flooded::TooBig;
        }
        let b = Bounds {
            grid,
            start: start_tick,
            arrive_by,
            goal,
        };
        if !grid.walls().is_passable(goal) {
            return Flooded::NotBy;
        }
        self.walls.update(grid.walls());
        let straight = self.layout.next_is_straight();
        self.reset(
            Frame::for_trip(grid.width(), grid.height(), start, goal, straight),
            (arrive_by - start_tick) as usize,
        );
        match self.distances.search(
            grid.walls(),
            start,
            goal,
            (arrive_by - start_tick).min(within),
            max_words,
            words,
        ) {
            Searched::Reached => {}
            Searched::TooFar => return Flooded::NotBy,
            Searched::TooBig => return Flooded::TooBig,
        }
        self.spread_words = 0;
        self.spread_cells = 0;
        let found = self.advance(&b, start, goal_ready, max_words, words);
        self.layout
            .record(straight, self.spread_words, self.spread_cells);
        found
    }

    /// Floods from `start` at the start tick until the goal is reached
    /// (from tick `goal_ready` on), the bound passes or the words run out.
    fn advance(
        &mut self,
        b: &Bounds,
        start: Cell,
        goal_ready: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Flooded {
        let (start_tick, arrive_by, goal) = (b.start, b.arrive_by, b.goal);
        // Tick `start_tick`: the start alone.
        self.see_start(b, start);
        let (row, col) = self.frame.place(start);
        self.reached.push_single(row, col);
        if start == goal && start_tick >= goal_ready {
            return Flooded::Path(vec![start]);
        }
        let mut t = start_tick;
        while t < arrive_by {
            self.apply_events(b, t);
            let layer = self.spread(b, t + 1, words);
            self.mend_swaps(layer);
            if layer.rows == 0 {
                return Flooded::NotBy;
            }
            t += 1;
            if t >= goal_ready && self.has(layer, goal) {
                return self.trace(b, t).map_or(Flooded::NotBy, Flooded::Path);
            }
            if *words > max_words {
                return Flooded::TooBig;
            }
            // A set the spread left as it was stays so while no event
            // comes: the ticks until the next one repeat it.
            let before = self.reached.get(self.reached.len() - 2);
            if self.quiet(b, t) && self.reached.same(before, layer) {
                let has_goal = self.has(layer, goal);
                while self.quiet(b, t) {
                    self.reached.repeat_last();
                    *words += 1;
                    t += 1;
                    if has_goal && t >= goal_ready {
                        return self.trace(b, t).map_or(Flooded::NotBy, Flooded::Path);
                    }
                }
            }
        }
        Flooded::NotBy
    }

    /// A path from `start` at `start_tick` to `goal` arriving `walk` ticks
    /// later, `walk` being the steps of the quickest walk between them (or
    /// a lower bound on them), if the search for one (`on_time.rs`) finds
    /// it: a quickest walk that meets no obstacle. The goal must be free
    /// for good by the arrival, where the policy asks for it. The walking
    /// distances it finds, and the cells it looks at, count as words, as a
    /// flood's do; they serve the floods of the same trip.
    pub(super) fn on_time(
        &mut self,
        grid: &NavGrid,
        (start, start_tick, goal): (Cell, Tick, Cell),
        walk: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Option<Vec<Cell>> {
        if !grid.walls().is_passable(goal) || u64::from(walk) > max_words.min(MAX_TICKS) {
            return None;
        }
        let searched = self
            .distances
            .search(grid.walls(), start, goal, walk, max_words, words);
        if searched != Searched::Reached {
            return None;
        }
        let budget = 2 * u64::from(walk) + ON_TIME_SLACK;
        let path = self
            .on_time
            .find(grid, &self.distances, (start, start_tick), budget, words);
        debug_assert!(path.as_ref().is_none_or(|p| p.len() == walk as usize + 1));
        path
    }

    /// The landmarks of `walls` for the first pass's estimate, found near
    /// `near` once the pass has paid for them (see
    /// [`GoalDistances::landmarks_for_pass`]); the floods' distance
    /// searches use them too.
    pub(super) fn landmarks_for_pass(
        &mut self,
        walls: &StaticGrid,
        near: Cell,
    ) -> &[[u16; LANDMARKS]] {
        self.distances.landmarks_for_pass(walls, near)
    }

    /// Counts `expanded` jump points of a first pass toward the landmarks'
    /// price, and the walk it found (steps and Manhattan distance), if any,
    /// toward how much the walls mislead the Manhattan distance.
    pub(super) fn note_pass(&mut self, expanded: u64, walk: Option<(Tick, Tick)>) {
        self.distances.note_pass(expanded, walk);
    }

    /// Steps of the quickest walk from `start` to `goal` over the walls,
    /// if at most `max_span` (see [`GoalDistances::walk`]); the distances
    /// found serve the floods of the same trip.
    pub(super) fn walk(
        &mut self,
        grid: &NavGrid,
        (start, goal): (Cell, Cell),
        max_span: Tick,
        max_words: u64,
        words: &mut u64,
    ) -> Option<Tick> {
        if !grid.walls().is_passable(goal) || !grid.walls().is_passable(start) {
            return None;
        }
        let from = start.manhattan(goal).saturating_add(4).min(max_span);
        self.distances
            .walk(grid.walls(), start, goal, from, max_span, max_words, words)
    }

    fn reset(&mut self, frame: Frame, steps: usize) {
        self.frame = frame;
        let size = frame.rows() as usize * frame.stride();
        let walls = self.walls.field(frame);
        self.cells.clear();
        self.cells.extend(walls[..size].iter().map(|&w| Word {
            seen: !w,
            ..Word::default()
        }));
        self.reached.clear();
        self.swaps.clear();
        if self.queue.len() < steps {
            self.queue.resize_with(steps, Vec::new);
        }
        for events in &mut self.queue[..steps] {
            events.clear();
        }
    }

    /// The start enters the view at the start tick (where it is free, so
    /// no obstacle leaves it then): its changes from then on are queued.
    fn see_start(&mut self, b: &Bounds, start: Cell) {
        let cell = b.grid.walls().index(start);
        let at = self.locate(cell);
        self.cells[at.0].seen |= at.1;
        let last = self.keep(b, self.distances.steps(cell), at);
        if b.grid.obstacles().has_timeline(cell) {
            self.follow(b, cell, at, b.start, last);
        }
    }

    /// Takes a cell `steps` from the goal on foot (at word and bit `(i,
    /// bit)` of the bit fields), near enough to it, into the cells that
    /// can still matter, and queues its dropping when it gets too far;
    /// returns the last tick it can matter.
    #[inline]
    fn keep(&mut self, b: &Bounds, steps: u32, (i, bit): (usize, u64)) -> Tick {
        self.cells[i].alive |= bit;
        let last = b.arrive_by - steps;
        if last < b.arrive_by {
            let drop = (i as u64) << 7 | u64::from(bit.trailing_zeros()) << 1 | DROP;
            self.queue[(last - b.start) as usize].push(drop);
        }
        last
    }

    /// Cell `cell` (dense index, at word and bit `at` of the bit fields)
    /// enters the view at tick `tick` (reached from tick `tick - 1`);
    /// returns whether the agent can stand on it then (near enough to the
    /// goal, and not blocked).
    #[inline(always)]
    fn see(&mut self, b: &Bounds, cell: usize, at: (usize, u64), tick: Tick) -> bool {
        // Too far from the goal on foot to arrive by the bound, now and so
        // for ever after: never taken in.
        let steps = self.distances.steps(cell);
        if steps == FAR || steps > b.arrive_by - tick {
            return false;
        }
        let last = self.keep(b, steps, at);
        let tm = b.grid.obstacles();
        // Nothing happens there from `tick - 1` while it matters (a cell
        // blocked for good stays busy for ever), or ever (no timeline):
        // free throughout, and no departure to mind.
        if tm.idle_during(cell, tick - 1, last) {
            return true;
        }
        match self.follow(b, cell, at, tick, last) {
            (State::Blocked, _) => {
                self.cells[at.0].blocked |= at.1;
                return false;
            }
            // Blocked the tick before: an obstacle may have left it then.
            (State::Freed(_), dirs) => self.note_freed(cell, dirs),
            (State::Free, _) => {}
        }
        true
    }

    /// Queues every change of cell `cell` (dense index, at word and bit
    /// `place` of the bit fields) after `tick` that comes by `last`,
    /// reading its safe intervals and their entries once (not once per
    /// change as it comes); returns its state at `tick`, and the
    /// directions obstacles leave it in as it is freed then.
    fn follow(
        &mut self,
        b: &Bounds,
        cell: usize,
        place: (usize, u64),
        tick: Tick,
        last: Tick,
    ) -> (State, u8) {
        let tm = b.grid.obstacles();
        let (safe, entries) = tm.safe_intervals_and_entries(cell);
        let (now, mut change) = state(tm, cell, safe, tick);
        let leaving = |k: u32| entries.get(k as usize).copied().unwrap_or(0);
        while let Some((at, i)) = change.filter(|&(c, _)| c <= last) {
            let (then, next) = state_from(safe, i, at);
            let what = match then {
                State::Blocked => BLOCKS,
                State::Freed(k) => FREES + u64::from(leaving(k)),
                State::Free => FREES,
            };
            self.queue[(at - 1 - b.start) as usize].push(change_event(cell, place, what));
            change = next;
        }
        match now {
            State::Freed(k) => (now, leaving(k)),
            _ => (now, 0),
        }
    }

    /// Whether the flood can go past tick `t` and no event is queued for
    /// `t` to `t + 1`.
    #[inline]
    fn quiet(&self, b: &Bounds, t: Tick) -> bool {
        t < b.arrive_by && self.queue[(t - b.start) as usize].is_empty()
    }

    /// Notes cell `cell`, blocked at the current tick and free at the
    /// next, as one obstacles leave in directions `dirs` in between (if
    /// any): only such a cell needs a swap check (one an obstacle enters at
    /// the next tick is blocked then anyway).
    #[inline]
    fn note_freed(&mut self, cell: usize, dirs: u8) {
        if dirs != 0 {
            self.swaps.push((cell as u32, dirs));
        }
    }

    /// The events queued for tick `t` to `t + 1`: cells blocked or freed
    /// at `t + 1` (a cell freed then may have been left during `[t, t + 1]`),
    /// cells too far to matter from `t + 1` on.
    fn apply_events(&mut self, b: &Bounds, t: Tick) {
        let slot = (t - b.start) as usize;
        let mut events = std::mem::take(&mut self.queue[slot]);
        for &event in &events {
            if event & DROP != 0 {
                let (i, bit) = ((event >> 7) as usize, 1 << ((event >> 1) & 63));
                self.cells[i].alive &= !bit;
                continue;
            }
            // A change flips the blocked bit; a cell freed is noted with
            // the directions obstacles leave it in.
            let (i, bit) = ((event >> 12 & WORD_BITS) as usize, 1 << (event >> 6 & 63));
            self.cells[i].blocked ^= bit;
            let cell = (event >> 40) as usize;
            match (event >> 1) & CHANGE_BITS {
                BLOCKS => {}
                what => self.note_freed(cell, (what - FREES) as u8),
            }
        }
        // Handed back empty, to keep its capacity.
        events.clear();
        self.queue[slot] = events;
    }

    /// Builds the reached set of tick `tick` from the last one, without the
    /// swap conflicts, and returns it.
    fn spread(&mut self, b: &Bounds, tick: Tick, words: &mut u64) -> Layer {
        if self.frame.is_straight() {
            self.spread_in::<true>(b, tick, words)
        } else {
            self.spread_in::<false>(b, tick, words)
        }
    }

    /// [`spread`](Self::spread) in map rows (`STRAIGHT`) or diagonals.
    fn spread_in<const STRAIGHT: bool>(
        &mut self,
        b: &Bounds,
        tick: Tick,
        words: &mut u64,
    ) -> Layer {
        let frame = self.frame;
        let stride = frame.stride();
        // The box of every cell next to the last set's.
        let layer = self.reached.next_box(frame.rows(), stride as u32);
        let mut fresh_cells = std::mem::take(&mut self.fresh);
        fresh_cells.clear();
        // A row counts as a word as well as its words, so the word limit
        // also bounds the rows of the boxes kept.
        let (counted, layer) = if layer.wide <= NARROW {
            // Every word of the box is built; the box is trimmed to its
            // cells after the first looks (`close_narrow`).
            let counted = u64::from(layer.rows) * (1 + u64::from(layer.wide));
            *words += counted;
            self.reached.spread_narrow::<STRAIGHT>(layer);
            let out = self.reached.words_mut(layer);
            let at = (layer.top as usize * stride + layer.left as usize, stride);
            if layer.wide == 1 {
                take_states::<1>(&mut self.cells, at, out, &mut fresh_cells);
            } else {
                take_states::<2>(&mut self.cells, at, out, &mut fresh_cells);
            }
            self.first_looks(b, layer, tick, &fresh_cells);
            (counted, self.reached.close_narrow(layer))
        } else {
            let opened = self.reached.open(layer);
            let counted = u64::from(layer.rows) + opened.words;
            *words += counted;
            let layer = self.spread_wide::<STRAIGHT>(b, opened, tick, &mut fresh_cells);
            (counted, layer)
        };
        self.fresh = fresh_cells;
        // How tight the layout packs the flood, from every eighth tick.
        if tick.is_multiple_of(LAYOUT_SAMPLE) {
            self.spread_words += counted;
            self.spread_cells += self.reached.cells(layer);
        }
        layer
    }

    /// Builds and stacks a set in a box wider than [`NARROW`] words,
    /// `opened` with the last set laid out in a padded copy around it,
    /// noting its cells entering the view in `fresh_cells` (see
    /// [`spread_in`](Self::spread_in)).
    fn spread_wide<const STRAIGHT: bool>(
        &mut self,
        b: &Bounds,
        opened: layers::Opened,
        tick: Tick,
        fresh_cells: &mut Vec<(u32, u32, u64)>,
    ) -> Layer {
        let (layer, pw) = (opened.layer, opened.pad_wide);
        let stride = self.frame.stride();
        let pad = std::mem::take(&mut self.reached.pad);
        let todo = std::mem::take(&mut self.reached.todo);
        let mut spans = std::mem::take(&mut self.spans);
        // The rows and words of the box that hold cells, from its top row
        // and first word.
        let (mut top, mut bottom, mut lo, mut hi) = (u32::MAX, 0, u32::MAX, 0);
        {
            let cells = &mut self.cells[..];
            let wide = layer.wide as usize;
            // Pad rows `r`, `r + 1` and `r + 2` hold the last set's rows
            // above, at and below the box's row `r`; the box's word `c` is
            // word `c + 1` of each, between words `c` and `c + 2`.
            let out = self.reached.words_mut(layer);
            // Only the words of a row that a cell of the last set lies next
            // to are built (the rest stay zero); `spans` gets, for each
            // row, the first and last that hold a cell.
            spans.clear();
            let mut i = layer.top as usize * stride + layer.left as usize;
            let rows = out.chunks_exact_mut(wide).zip(&todo);
            for (r, (built, &(from, to))) in (0..layer.rows).zip(rows) {
                let (from, to) = (from as usize, to as usize);
                let (mut first, mut last) = (u32::MAX, 0);
                let three = &pad[r as usize * pw..(r as usize + 3) * pw];
                let (up, rest) = three.split_at(pw);
                let (mid, down) = rest.split_at(pw);
                let here = &mut cells[i..i + wide];
                i += stride;
                for c in from..to {
                    let (u, m, d) = (&up[c..c + 3], &mid[c..c + 3], &down[c..c + 3]);
                    let near = layers::near::<STRAIGHT>(u, m, d);
                    let (word, fresh) = state_word(near, &mut here[c]);
                    built[c] = word;
                    let c = c as u32;
                    if fresh != 0 {
                        fresh_cells.push((r, c, fresh));
                    }
                    if word != 0 {
                        (first, last) = (first.min(c), c + 1);
                    }
                }
                if first < last {
                    (top, bottom) = (top.min(r), r + 1);
                    (lo, hi) = (lo.min(first), hi.max(last));
                    spans.push((first, last));
                } else {
                    spans.push((0, 0));
                }
            }
        }
        self.reached.pad = pad;
        self.reached.todo = todo;
        // A word emptied by the first looks may have been at the edge of
        // the box.
        let emptied = self.first_looks(b, layer, tick, fresh_cells);
        let (rows, words_kept) = if emptied {
            self.reached.shrink(layer, top..bottom, lo..hi)
        } else {
            (top..bottom, lo..hi)
        };
        let layer = self.reached.close(layer, rows, words_kept, &spans);
        self.spans = spans;
        layer
    }

    /// The first looks at the cells of `layer`, being built, that enter the
    /// view at `tick` (`fresh_cells`: their rows and words in its box), after
    /// the spread's loop (which they would slow: with a call in it, the loop
    /// keeps its pointers in memory, not in registers). A cell too far from
    /// the goal to matter, or blocked, leaves the set again; returns
    /// whether a word was emptied so.
    fn first_looks(
        &mut self,
        b: &Bounds,
        layer: Layer,
        tick: Tick,
        fresh_cells: &[(u32, u32, u64)],
    ) -> bool {
        let (frame, stride) = (self.frame, self.frame.stride());
        let mut emptied = false;
        for &(r, c, mut fresh) in fresh_cells {
            let k = r * layer.wide + c;
            let (row, w) = (layer.top + r, layer.left + c);
            let i = row as usize * stride + w as usize;
            while fresh != 0 {
                let bit = fresh & fresh.wrapping_neg();
                let col = w * 64 + bit.trailing_zeros();
                let cell = b.grid.walls().index(frame.cell(row, col));
                if !self.see(b, cell, (i, bit), tick) {
                    let word = &mut self.reached.words_mut(layer)[k as usize];
                    *word &= !bit;
                    emptied |= *word == 0;
                }
                fresh &= fresh - 1;
            }
        }
        emptied
    }

    /// Takes out of the newest layer every cell that only a
    /// move swapping places with an obstacle reaches. A cell noted twice is
    /// looked at twice, to the same effect.
    fn mend_swaps(&mut self, layer: Layer) {
        if self.swaps.is_empty() {
            return;
        }
        let swaps = std::mem::take(&mut self.swaps);
        let before = self.reached.get(self.reached.len() - 2);
        for &(cell, dirs) in &swaps {
            let here = cell_of(cell as usize, self.frame.width() as usize);
            if !self.has(layer, here) {
                continue;
            }
            // An obstacle leaving toward `dir` forbids the move from the
            // neighbour there; waiting or any other neighbour will do.
            let reachable = self.has(before, here)
                || Dir::ALL.iter().any(|&dir| {
                    dirs & (1 << dir as u8) == 0
                        && here.step(dir).is_some_and(|from| self.has(before, from))
                });
            if !reachable {
                let (row, col) = self.frame.place(here);
                self.reached.remove(layer, row, col);
            }
        }
        self.swaps = swaps;
        self.swaps.clear();
    }

    /// An earliest path to the goal, reached at `arrival`, traced back
    /// through the layers.
    fn trace(&self, b: &Bounds, arrival: Tick) -> Option<Vec<Cell>> {
        let mut path = vec![b.goal; (arrival - b.start) as usize + 1];
        let mut here = b.goal;
        let mut ahead: Option<Dir> = None;
        let (tm, walls) = (b.grid.obstacles(), b.grid.walls());
        for t in (b.start..arrival).rev() {
            let layer = self.reached.get((t - b.start) as usize);
            // Every cell of a set is free at its tick, so a step between
            // cells of consecutive sets is a move only a swap with an
            // obstacle leaving `here` can forbid, and none leaves a cell
            // nothing happens at then.
            let idle = tm.idle_during(walls.index(here), t, t + 1);
            let came = |from: Cell| {
                self.has(layer, from) && (idle || from == here || b.grid.can_step(from, here, t))
            };
            // Keep going straight where possible, then wait, then turn:
            // fewer turns make fewer waypoints. `ahead` is the direction
            // of the move into `here`, none after a wait.
            let straight = ahead.and_then(|d| here.step(d.reverse()));
            let from = if let Some(from) = straight.filter(|&from| came(from)) {
                from
            } else if came(here) {
                ahead = None;
                here
            } else {
                let (from, dir) = Dir::ALL
                    .iter()
                    .find_map(|&d| here.step(d).filter(|&from| came(from)).map(|f| (f, d)))?;
                ahead = Some(dir.reverse());
                from
            };
            path[(t - b.start) as usize] = from;
            here = from;
        }
        Some(path)
    }

    /// The word of cell `cell` (dense index) in the bit fields, and its bit.
    #[inline]
    fn locate(&self, cell: usize) -> (usize, u64) {
        let (row, col) = self.frame.place(cell_of(cell, self.frame.width() as usize));
        self.frame.word_of(row, col)
    }

    /// Whether `cell` is in `layer` (never if off the map).
    #[inline]
    fn has(&self, layer: Layer, cell: Cell) -> bool {
        if !self.frame.contains(cell) {
            return false;
        }
        let (row, col) = self.frame.place(cell);
        self.reached.has(layer, row, col)
    }
}

/// The event of a change of cell `cell` (dense index, at word and bit
/// `(i, bit)` of the bit fields) that does `what` (see [`CHANGE_BITS`]).
#[inline]
fn change_event(cell: usize, (i, bit): (usize, u64), what: u64) -> u64 {
    // A map of at most `MAX_CELLS` cells has fewer than 2^24 cells, and
    // its frames fewer than 2^24 words.
    debug_assert!(cell < 1 << 24 && (i as u64) <= WORD_BITS && what <= CHANGE_BITS);
    (cell as u64) << 40 | (i as u64) << 12 | u64::from(bit.trailing_zeros()) << 6 | what << 1
}

/// Takes out of every word of a box `W` words wide, in `out` row after
/// row, the cells neither alive and unblocked nor entering the view, as
/// the states of its words in `cells` (row `r`'s first at `i + r *
/// stride`) say, noting the words with cells entering the view in
/// `fresh_cells`. Fixed widths let the compiler keep the loop's state in
/// registers.
#[inline(always)]
fn take_states<const W: usize>(
    cells: &mut [Word],
    (mut i, stride): (usize, usize),
    out: &mut [u64],
    fresh_cells: &mut Vec<(u32, u32, u64)>,
) {
    for (r, built) in out.chunks_exact_mut(W).enumerate() {
        let here = &mut cells[i..i + W];
        for c in 0..W {
            let (word, fresh) = state_word(built[c], &mut here[c]);
            if fresh != 0 {
                fresh_cells.push((r as u32, c as u32, fresh));
            }
            built[c] = word;
        }
        i += stride;
    }
}

/// The cells of `near` (those of the last set and their neighbours) that
/// the set being built holds, as the state of its word `here` says: those
/// alive and unblocked, and those entering the view, counted as reached
/// until they are looked at; and those.
#[inline(always)]
fn state_word(near: u64, here: &mut Word) -> (u64, u64) {
    // Walls count as seen, and are never alive.
    let fresh = near & !here.seen;
    here.seen |= fresh;
    (near & ((here.alive & !here.blocked) | fresh), fresh)
}

/// A cell's state at a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Blocked,
    /// Free, and blocked the tick before: the first tick of safe interval
    /// number `.0`.
    Freed(u32),
    Free,
}

/// A cell's state at a tick, and the first later tick at which it is
/// blocked or free again, if any, with the number of its first safe
/// interval not over by then.
type Seen = (State, Option<(Tick, usize)>);

/// The state at `tick` and the next change of cell `cell`, whose safe
/// intervals are `safe`: one search of them.
fn state(tm: &TemporalMap, cell: usize, safe: &[Interval], tick: Tick) -> Seen {
    // Nothing happens there from `tick - 1` on: free for good.
    if tm.busy_end(cell) < tick {
        return (State::Free, None);
    }
    // The first safe interval not over by `tick`.
    state_from(safe, safe.partition_point(|iv| iv.end < tick), tick)
}

/// The state at `tick` and the next change of a cell whose safe intervals
/// are `safe`, the first of them not over by `tick` being number `i`.
fn state_from(safe: &[Interval], i: usize, tick: Tick) -> Seen {
    match safe.get(i) {
        // Free until it ends (never, for the last one), and then the next
        // one is the first not over.
        Some(iv) if iv.start <= tick => {
            let state = if iv.start == tick && tick > 0 {
                State::Freed(i as u32)
            } else {
                State::Free
            };
            (state, iv.end.checked_add(1).map(|c| (c, i + 1)))
        }
        // Blocked until it starts, or for ever.
        next => (State::Blocked, next.map(|iv| (iv.start, i))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::*;
    use crate::grid::{ObstacleEnd, StaticGrid};

    /// A random walk of `len` ticks over free cells, from a random cell.
    fn walk(grid: &NavGrid, rng: &mut Rng, len: usize) -> Vec<Cell> {
        let (w, h) = (grid.width(), grid.height());
        let mut at = Cell::new(rng.below(w), rng.below(h));
        let mut cells = vec![at];
        for _ in 1..len {
            let dir = Dir::ALL[rng.below(5).min(4) as usize % 4];
            if rng.below(5) > 0
                && let Some(next) = at.step(dir)
                && next.x < w
                && next.y < h
                && grid.walls().is_passable(next)
            {
                at = next;
            }
            cells.push(at);
        }
        cells
    }

    /// The earliest arrival by brute force over (cell, tick) states.
    fn earliest(
        grid: &NavGrid,
        start: Cell,
        t0: Tick,
        goal: Cell,
        ready: Tick,
        by: Tick,
    ) -> Option<Tick> {
        let mut now = vec![start];
        for t in t0..=by {
            if t >= ready && now.contains(&goal) {
                return Some(t);
            }
            let mut next: Vec<Cell> = Vec::new();
            for &c in &now {
                let moves = std::iter::once(c).chain(Dir::ALL.iter().filter_map(|&d| c.step(d)));
                for to in moves {
                    if to.x < grid.width()
                        && to.y < grid.height()
                        && grid.can_step(c, to, t)
                        && !next.contains(&to)
                    {
                        next.push(to);
                    }
                }
            }
            now = next;
        }
        None
    }

    #[test]
    fn a_flood_too_far_or_too_big_gives_up_before_it_allocates_much() {
        let grid = NavGrid::new(StaticGrid::open(64, 64).unwrap());
        let (start, goal) = (Cell::new(0, 0), Cell::new(63, 63));
        let mut flood = Flood::default();
        let mut words = 0;
        // A goal free only in a million ticks: left to the temporal search.
        let far = flood.run(
            &grid,
            start,
            0,
            goal,
            1 << 20,
            1 << 20,
            u64::MAX,
            &mut words,
        );
        assert_eq!(far, Flooded::TooBig);
        assert_eq!(words, 0);
        assert!(flood.queue.len() <= 1);
        // A word limit stops a flood that would reach the goal.
        let capped = flood.run(&grid, start, 0, goal, 0, 130, 200, &mut words);
        assert_eq!(capped, Flooded::TooBig);
        let mut words = 0;
        let Flooded::Path(path) = flood.run(&grid, start, 0, goal, 0, 130, u64::MAX, &mut words)
        else {
            panic!("an open map has a path");
        };
        assert_eq!(path.len(), 127);
        // A bound below the Manhattan distance: nothing to look for.
        assert_eq!(
            flood.run(&grid, start, 0, goal, 0, 100, u64::MAX, &mut words),
            Flooded::NotBy
        );
    }

    #[test]
    fn quiet_ticks_repeat_the_reached_set_instead_of_spreading_it() {
        // The goal counts only from tick 300: the flood fills the open map
        // by tick 62 and then waits. Nothing happens until cells start to
        // get too far from the goal at tick 238, and those ticks each cost
        // a word, not a spread of every row.
        let grid = NavGrid::new(StaticGrid::open(32, 32).unwrap());
        let (start, goal) = (Cell::new(0, 0), Cell::new(31, 31));
        let mut flood = Flood::default();
        let mut words = 0;
        let Flooded::Path(path) = flood.run(&grid, start, 0, goal, 300, 300, u64::MAX, &mut words)
        else {
            panic!("an open map has a path");
        };
        assert_eq!(path.len(), 301);
        assert_eq!((path[0], path[300]), (start, goal));
        for pair in path.windows(2) {
            assert!(pair[0].manhattan(pair[1]) <= 1);
        }
        // Spread at every tick, the 63 diagonal rows would cost over
        // 30,000 words.
        assert!(words < 20_000, "{words} words");
    }

    #[test]
    fn the_flood_arrives_when_brute_force_does_in_either_layout() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut flood = Flood::default();
        for case in 0..3000 {
            let w = 1 + rng.below(if case % 3 == 0 { 70 } else { 9 });
            let h = 1 + rng.below(9);
            let walls = rng.below(40);
            let mut bits = vec![false; (w * h) as usize];
            for b in &mut bits {
                *b = rng.below(100) >= walls;
            }
            let walls = StaticGrid::from_fn(w, h, |c| bits[(c.y * w + c.x) as usize]).unwrap();
            let mut grid = NavGrid::new(walls);
            for _ in 0..rng.below(6) {
                let len = 2 + rng.below(20) as usize;
                let cells = walk(&grid, &mut rng, len);
                if !cells.iter().all(|&c| grid.walls().is_passable(c)) {
                    continue;
                }
                let end = if rng.below(2) == 0 {
                    ObstacleEnd::Park
                } else {
                    ObstacleEnd::Vanish
                };
                let t0 = rng.below(4);
                let _ = grid.add_obstacle(t0, &cells, end);
            }
            let start = Cell::new(rng.below(w), rng.below(h));
            let goal = Cell::new(rng.below(w), rng.below(h));
            let t0 = rng.below(5);
            if !grid.is_free(start, t0) {
                continue;
            }
            let ready = if rng.below(2) == 0 {
                0
            } else {
                grid.free_forever_from(goal).unwrap_or(FOREVER)
            };
            let by = t0 + start.manhattan(goal) + rng.below(12);
            let want = earliest(&grid, start, t0, goal, ready, by);
            flood.layout = LayoutChoice::fixed(case % 2 == 1);
            // Half the floods have landmarks to prune their distance search.
            if case % 4 >= 2 {
                flood.distances.find_landmarks_now(grid.walls());
            }
            let mut words = 0;
            let got = flood.run(&grid, start, t0, goal, ready, by, u64::MAX, &mut words);
            match (&got, want) {
                (Flooded::Path(path), Some(t)) => {
                    assert_eq!(
                        path.len() as Tick,
                        t - t0 + 1,
                        "case {case}: {w}x{h} {start:?}@{t0} -> {goal:?} by {by}"
                    );
                    for (k, pair) in path.windows(2).enumerate() {
                        assert!(
                            grid.can_step(pair[0], pair[1], t0 + k as Tick),
                            "case {case}: step {k}"
                        );
                    }
                }
                (Flooded::NotBy, None) => {}
                _ => panic!(
                    "case {case}: {w}x{h} {start:?}@{t0} -> {goal:?} ready {ready} by {by}: flood {got:?}, brute force {want:?}"
                ),
            }
            // Kept to the cells near the quickest walks, a flood finds a
            // valid path, and none earlier than the earliest; when it finds
            // none, it is because the earliest leaves those cells.
            let within = start.manhattan(goal) + rng.below(6);
            let trip = (start, t0, goal, ready);
            let near = flood.run_within(&grid, trip, by, within, u64::MAX, &mut words);
            match (near, want) {
                (Flooded::Path(path), Some(t)) => {
                    assert!(path.len() as Tick > t - t0, "case {case}: too early");
                    assert_eq!(path[path.len() - 1], goal, "case {case}");
                    for (k, pair) in path.windows(2).enumerate() {
                        assert!(
                            grid.can_step(pair[0], pair[1], t0 + k as Tick),
                            "case {case}: banded step {k}"
                        );
                    }
                }
                (Flooded::NotBy, _) => {}
                (near, want) => panic!("case {case}: banded flood {near:?}, brute force {want:?}"),
            }
        }
    }

    /// Maps whose shorter side is over 64 cells, so that a row of the
    /// flood's frame takes more than one word: the flood arrives when SIPP
    /// does, along a valid path, in map rows as along the diagonals.
    #[test]
    fn floods_of_rows_wider_than_a_word_arrive_when_sipp_does() {
        use crate::search::{GoalPolicy, Planner, Query, Sipp};
        let mut rng = Rng(0x51_7cc1_b727_220a);
        let mut flood = Flood::default();
        let mut sipp = Sipp::default();
        let mut found = 0;
        for case in 0..60 {
            let (w, h) = (65 + rng.below(140), 65 + rng.below(140));
            let walls = StaticGrid::from_fn(w, h, |_| rng.below(100) >= 20).unwrap();
            let mut grid = NavGrid::new(walls);
            for _ in 0..30 {
                let len = 10 + rng.below(80) as usize;
                let cells = walk(&grid, &mut rng, len);
                if cells.iter().all(|&c| grid.walls().is_passable(c)) {
                    let _ = grid.add_obstacle(rng.below(20), &cells, ObstacleEnd::Vanish);
                }
            }
            let start = Cell::new(rng.below(w), rng.below(h));
            let goal = Cell::new(rng.below(w), rng.below(h));
            if !grid.is_free(start, 0) || !grid.walls().is_passable(goal) {
                continue;
            }
            let query = Query::new(start, goal).with_policy(GoalPolicy::Arrive);
            let Ok(plan) = sipp.plan(&grid, &query) else {
                continue;
            };
            let arrival = plan.arrival();
            // Now and then a bound far above the arrival, which keeps most
            // cells reached: sets wider than two words a row.
            let by = arrival + if case % 3 == 0 { 100 } else { rng.below(8) };
            flood.layout = LayoutChoice::fixed(case % 2 == 1);
            if case % 4 >= 2 {
                flood.distances.find_landmarks_now(grid.walls());
            }
            let mut words = 0;
            let got = flood.run(&grid, start, 0, goal, 0, by, u64::MAX, &mut words);
            let Flooded::Path(path) = got else {
                panic!("case {case}: {w}x{h} {start:?} -> {goal:?} by {by}: {got:?}");
            };
            assert_eq!(path.len() as Tick, arrival + 1, "case {case}");
            for (k, pair) in path.windows(2).enumerate() {
                assert!(
                    grid.can_step(pair[0], pair[1], k as Tick),
                    "case {case}: step {k}"
                );
            }
            // One tick short of the arrival there is none.
            if arrival > start.manhattan(goal) {
                let got = flood.run(&grid, start, 0, goal, 0, arrival - 1, u64::MAX, &mut words);
                assert_eq!(got, Flooded::NotBy, "case {case}");
            }
            found += 1;
        }
        assert!(found > 20, "only {found} paths checked");
    }

    #[test]
    fn a_quickest_walk_free_of_obstacles_is_found_whenever_one_exists() {
        use crate::search::heuristic::{UNREACHABLE, bfs_from};
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut flood = Flood::default();
        let (mut found, mut none) = (0, 0);
        for case in 0..3000 {
            let (w, h) = (1 + rng.below(24), 1 + rng.below(12));
            let density = rng.below(35);
            let walls = StaticGrid::from_fn(w, h, |_| rng.below(100) >= density).unwrap();
            let mut grid = NavGrid::new(walls);
            for _ in 0..rng.below(8) {
                let len = 2 + rng.below(30) as usize;
                let cells = walk(&grid, &mut rng, len);
                if cells.iter().all(|&c| grid.walls().is_passable(c)) {
                    let end = [ObstacleEnd::Park, ObstacleEnd::Vanish][rng.below(2) as usize];
                    let _ = grid.add_obstacle(rng.below(4), &cells, end);
                }
            }
            let start = Cell::new(rng.below(w), rng.below(h));
            let goal = Cell::new(rng.below(w), rng.below(h));
            let t0 = rng.below(5);
            let steps = bfs_from(grid.walls(), goal)[grid.walls().index(start)];
            if !grid.is_free(start, t0) || !grid.walls().is_passable(goal) || steps == UNREACHABLE {
                continue;
            }
            // Every path arriving after `steps` ticks is a quickest walk.
            let want = earliest(&grid, start, t0, goal, 0, t0 + steps) == Some(t0 + steps);
            // Half the searches have landmarks to prune their distances.
            if case % 2 == 1 {
                flood.distances.find_landmarks_now(grid.walls());
            }
            let mut words = 0;
            let trip = (start, t0, goal);
            let got = flood.on_time(&grid, trip, steps, u64::MAX, &mut words);
            if let Some(path) = &got {
                assert_eq!(path.len() as Tick, steps + 1, "case {case}");
                assert_eq!(
                    (path[0], path[path.len() - 1]),
                    (start, goal),
                    "case {case}"
                );
                for (k, pair) in path.windows(2).enumerate() {
                    assert!(
                        grid.can_step(pair[0], pair[1], t0 + k as Tick),
                        "case {case}: step {k}"
                    );
                }
            }
            // Without its budget of cells, the search misses no such path.
            let distances = &flood.distances;
            let unlimited = flood
                .on_time
                .find(&grid, distances, (start, t0), u64::MAX, &mut words);
            assert_eq!(
                unlimited.is_some(),
                want,
                "case {case}: {w}x{h} {start:?}@{t0} -> {goal:?} in {steps}"
            );
            assert!(got.is_none() || want, "case {case}");
            if want {
                found += 1;
            } else {
                none += 1;
            }
        }
        assert!(found > 500 && none > 100, "{found} found, {none} without");
    }
}
