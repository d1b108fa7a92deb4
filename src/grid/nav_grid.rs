//! The planning world: static walls plus temporal obstacles.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::cell::{Cell, Dir, FOREVER, Tick};
use super::error::GridError;
use super::interval::Interval;
use super::static_grid::StaticGrid;
use super::temporal::{ObstacleEnd, TemporalMap};

/// The blocks (cell, ticks) and departures (cell, tick, direction) of one
/// obstacle's trajectory.
#[derive(Default)]
struct Footprint {
    stays: Vec<(usize, Interval)>,
    moves: Vec<(usize, Tick, Dir)>,
}

/// The inclusive ticks of a block `from <= t < to` (`to = None`: for ever).
fn block_span(from: Tick, to: Option<Tick>) -> Result<Interval, GridError> {
    let end = match to {
        None => FOREVER,
        Some(to) if to <= from => return Err(GridError::EmptySpan { from, to }),
        Some(to) if to == FOREVER => return Err(GridError::TickOverflow),
        Some(to) => to - 1,
    };
    Ok(Interval::new(from, end))
}

/// Everything a planner needs to know about the world: which cells are walls
/// and when other things occupy cells or move between them.
///
/// Both parts sit behind [`Arc`]s, so cloning a `NavGrid` is cheap and a clone
/// handed to a background task shares the data until one side edits it
/// (copy-on-write).
#[derive(Clone, Debug)]
pub struct NavGrid {
    walls: Arc<StaticGrid>,
    obstacles: Arc<TemporalMap>,
    max_blocks_per_cell: usize,
    stamp: u64,
}

/// Source of [`NavGrid::stamp`]s, unique within the process.
static NEXT_STAMP: AtomicU64 = AtomicU64::new(1);

fn new_stamp() -> u64 {
    NEXT_STAMP.fetch_add(1, Ordering::Relaxed)
}

/// Default of [`NavGrid::max_blocks_per_cell`].
pub const DEFAULT_MAX_BLOCKS_PER_CELL: usize = 1 << 16;

impl NavGrid {
    /// A world with the given walls and no temporal obstacle.
    pub fn new(walls: StaticGrid) -> Self {
        let obstacles = TemporalMap::new(walls.width(), walls.height());
        Self {
            walls: Arc::new(walls),
            obstacles: Arc::new(obstacles),
            max_blocks_per_cell: DEFAULT_MAX_BLOCKS_PER_CELL,
            stamp: new_stamp(),
        }
    }

    /// Names the grid's current contents: a new grid gets a stamp no other
    /// grid had, every edit gives it a new one (an edit refused with an error
    /// may keep it: it changed nothing), and a clone keeps its original's
    /// until either is edited.
    /// Equal stamps therefore mean equal contents, which lets a game (or the
    /// plugin) tell that nothing changed since it took a snapshot.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// The static walls.
    #[inline]
    pub fn walls(&self) -> &StaticGrid {
        &self.walls
    }

    /// The temporal obstacles.
    #[inline]
    pub fn obstacles(&self) -> &TemporalMap {
        &self.obstacles
    }

    /// Mutable access to the walls (copies them if a clone shares them).
    pub fn walls_mut(&mut self) -> &mut StaticGrid {
        self.stamp = new_stamp();
        Arc::make_mut(&mut self.walls)
    }

    /// Mutable access to the temporal obstacles (copies them if a clone
    /// shares them).
    pub fn obstacles_mut(&mut self) -> &mut TemporalMap {
        self.stamp = new_stamp();
        Arc::make_mut(&mut self.obstacles)
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.walls.width()
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.walls.height()
    }

    fn index_of(&self, cell: Cell) -> Result<usize, GridError> {
        if self.walls.contains(cell) {
            Ok(self.walls.index(cell))
        } else {
            Err(GridError::OutOfBounds(cell))
        }
    }

    /// The most blocks (block spans, and obstacles' stays) one cell may hold
    /// at a time (default [`DEFAULT_MAX_BLOCKS_PER_CELL`]). Adding more
    /// fails with [`GridError::TooManyBlocks`]; it bounds the memory and the
    /// time of an edit whatever the input.
    pub fn max_blocks_per_cell(&self) -> usize {
        self.max_blocks_per_cell
    }

    /// Sets [`max_blocks_per_cell`](Self::max_blocks_per_cell) (at least 1).
    pub fn set_max_blocks_per_cell(&mut self, limit: usize) {
        self.stamp = new_stamp();
        self.max_blocks_per_cell = limit.max(1);
    }

    /// Fails if adding `extra` blocks to dense cell `index` would pass the
    /// per-cell limit.
    fn room_for(&self, index: usize, extra: usize) -> Result<(), GridError> {
        let held = self.obstacles.blocked_intervals(index).len();
        if held + extra > self.max_blocks_per_cell {
            return Err(GridError::TooManyBlocks {
                cell: self.walls.cell_at(index),
                limit: self.max_blocks_per_cell,
            });
        }
        Ok(())
    }

    /// Blocks `cell` for the ticks `from <= t < to`; `to = None` blocks it for
    /// ever from `from` on.
    pub fn add_block(&mut self, cell: Cell, from: Tick, to: Option<Tick>) -> Result<(), GridError> {
        let index = self.index_of(cell)?;
        let span = block_span(from, to)?;
        self.room_for(index, 1)?;
        self.obstacles_mut().block(index, span);
        Ok(())
    }

    /// Frees `cell` for the ticks `from <= t < to` (`to = None`: for ever),
    /// undoing [`add_block`](Self::add_block) with the same arguments.
    pub fn remove_block(
        &mut self,
        cell: Cell,
        from: Tick,
        to: Option<Tick>,
    ) -> Result<(), GridError> {
        let index = self.index_of(cell)?;
        let span = block_span(from, to)?;
        self.obstacles_mut().unblock(index, span);
        Ok(())
    }

    /// Adds a moving obstacle that is on `cells[k]` at tick `t0 + k`.
    /// Consecutive cells must be equal (a wait) or 4-adjacent. Checks the
    /// whole trajectory before changing anything.
    pub fn add_obstacle(
        &mut self,
        t0: Tick,
        cells: &[Cell],
        end: ObstacleEnd,
    ) -> Result<(), GridError> {
        let footprint = self.footprint(t0, cells, end)?;
        let mut stays: Vec<usize> = footprint.stays.iter().map(|(c, _)| *c).collect();
        stays.sort_unstable();
        for run in stays.chunk_by(|a, b| a == b) {
            self.room_for(run[0], run.len())?;
        }
        let map = self.obstacles_mut();
        for (cell, span) in footprint.stays {
            map.block(cell, span);
        }
        for (cell, tick, dir) in footprint.moves {
            map.add_departure(cell, tick, dir);
        }
        Ok(())
    }

    /// Removes an obstacle added with [`add_obstacle`](Self::add_obstacle)
    /// with the same arguments: its cells are free again at its ticks (unless
    /// something else blocks them) and its moves no longer forbid swaps. Use
    /// it when a planned unit changes its mind.
    pub fn remove_obstacle(
        &mut self,
        t0: Tick,
        cells: &[Cell],
        end: ObstacleEnd,
    ) -> Result<(), GridError> {
        let footprint = self.footprint(t0, cells, end)?;
        let map = self.obstacles_mut();
        // Departures first: a block taken out from under a departure would
        // mark the map as having departures at free ticks.
        for (cell, tick, dir) in footprint.moves {
            map.remove_departure(cell, tick, dir);
        }
        for (cell, span) in footprint.stays {
            map.unblock(cell, span);
        }
        Ok(())
    }

    /// What an obstacle on `cells[k]` at tick `t0 + k` writes into the
    /// temporal map: a block per stay on a cell, a departure per move.
    /// Checks the whole trajectory.
    fn footprint(
        &self,
        t0: Tick,
        cells: &[Cell],
        end: ObstacleEnd,
    ) -> Result<Footprint, GridError> {
        let Some(last) = cells.len().checked_sub(1) else {
            return Err(GridError::EmptyTrajectory);
        };
        u32::try_from(last)
            .ok()
            .and_then(|l| t0.checked_add(l))
            .filter(|t| *t < FOREVER)
            .ok_or(GridError::TickOverflow)?;
        let mut footprint = Footprint::default();
        let mut run_start = t0;
        for (k, &cell) in cells.iter().enumerate() {
            let index = self.index_of(cell)?;
            let tick = t0 + k as Tick;
            match cells.get(k + 1) {
                Some(next) if *next == cell => continue,
                Some(next) => {
                    let dir = cell
                        .dir_to(*next)
                        .ok_or(GridError::NotAdjacent { step: k + 1 })?;
                    footprint
                        .stays
                        .push((index, Interval::new(run_start, tick)));
                    footprint.moves.push((index, tick, dir));
                    run_start = tick + 1;
                }
                None => {
                    let to = if end == ObstacleEnd::Park {
                        FOREVER
                    } else {
                        tick
                    };
                    footprint.stays.push((index, Interval::new(run_start, to)));
                }
            }
        }
        Ok(footprint)
    }

    /// True if `cell` is on the map, not a wall, and free at `tick`.
    pub fn is_free(&self, cell: Cell, tick: Tick) -> bool {
        self.walls.is_passable(cell) && self.obstacles.is_free(self.walls.index(cell), tick)
    }

    /// True if moving `from -> to` during `[tick, tick + 1]` swaps places with
    /// an obstacle moving `to -> from`.
    pub fn is_swap(&self, from: Cell, to: Cell, tick: Tick) -> bool {
        match to.dir_to(from) {
            Some(back) if self.walls.contains(to) => {
                self.obstacles.departs(self.walls.index(to), tick, back)
            }
            _ => false,
        }
    }

    /// True if the move (or wait, when `from == to`) `from -> to` during
    /// `[tick, tick + 1]` is allowed: `to` is free at `tick + 1`, the cells are
    /// equal or adjacent, and no obstacle swaps with the agent.
    pub fn can_step(&self, from: Cell, to: Cell, tick: Tick) -> bool {
        let Some(next) = tick.checked_add(1) else {
            return false;
        };
        if from == to {
            return self.is_free(to, next);
        }
        match to.dir_to(from) {
            Some(back) if self.walls.is_passable(to) => {
                self.obstacles.can_enter(self.walls.index(to), next, back)
            }
            _ => false,
        }
    }

    /// The first tick from which `cell` stays free for ever, or `None` if it
    /// is a wall or blocked for ever at some point.
    pub fn free_forever_from(&self, cell: Cell) -> Option<Tick> {
        if !self.walls.is_passable(cell) {
            return None;
        }
        let last = *self
            .obstacles
            .safe_intervals(self.walls.index(cell))
            .last()?;
        last.is_endless().then_some(last.start)
    }

    /// Forbids the move from `cell`'s neighbour in direction `dir` into
    /// `cell` during `[tick, tick + 1]`, as if an obstacle left `cell` in
    /// direction `dir` then (an edge constraint without a vertex block).
    pub fn forbid_swap(&mut self, cell: Cell, tick: Tick, dir: Dir) -> Result<(), GridError> {
        let index = self.index_of(cell)?;
        self.obstacles_mut().add_departure(index, tick, dir);
        Ok(())
    }
}
