//! Cells, ticks and the four move directions.

/// A discrete time step. Every action (a move or a wait) takes one tick.
pub type Tick = u32;

/// The tick that never comes: an interval ending at `FOREVER` never ends.
///
/// Obstacles and blocks must end strictly before it; the readers reject
/// ticks that would reach it.
pub const FOREVER: Tick = Tick::MAX;

/// A grid cell: `x` is the column, `y` the row, `(0, 0)` the top-left cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, counted from the left edge.
    pub x: u32,
    /// Row, counted from the top edge.
    pub y: u32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u32, y: u32) -> Self {
        Self { x, y }
    }

    /// Manhattan distance in cells (the number of moves on an empty grid).
    pub fn manhattan(self, other: Cell) -> u32 {
        self.x.abs_diff(other.x) + self.y.abs_diff(other.y)
    }

    /// The direction of a single move from `self` to `other`, if they are
    /// 4-adjacent.
    pub fn dir_to(self, other: Cell) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| self.step(*d) == Some(other))
    }

    /// The neighbour in direction `dir`, or `None` when it would leave the
    /// first quadrant (the map's size is not checked here).
    pub fn step(self, dir: Dir) -> Option<Cell> {
        let (dx, dy) = dir.delta();
        Some(Cell {
            x: self.x.checked_add_signed(dx)?,
            y: self.y.checked_add_signed(dy)?,
        })
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// One of the four moves on a 4-connected grid. North is toward row 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// Toward smaller `y` (up on screen).
    North = 0,
    /// Toward larger `x`.
    East = 1,
    /// Toward larger `y`.
    South = 2,
    /// Toward smaller `x`.
    West = 3,
}

impl Dir {
    /// All four directions, vertical ones first.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// The cell offset `(dx, dy)` of one move.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    /// The direction that undoes this one.
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// True for North and South.
    pub const fn is_vertical(self) -> bool {
        matches!(self, Dir::North | Dir::South)
    }

    /// This direction as a one-bit member of a [`DirSet`].
    pub const fn bit(self) -> DirSet {
        DirSet(1 << self as u8)
    }
}

/// A set of directions, stored as four bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DirSet(pub u8);

impl DirSet {
    /// No direction.
    pub const EMPTY: DirSet = DirSet(0);
    /// All four directions.
    pub const ALL: DirSet = DirSet(0b1111);
    /// East and West.
    pub const HORIZONTAL: DirSet = DirSet((1 << Dir::East as u8) | (1 << Dir::West as u8));

    /// True if `dir` is in the set.
    pub const fn contains(self, dir: Dir) -> bool {
        self.0 & (1 << dir as u8) != 0
    }

    /// The union of two sets.
    pub const fn union(self, other: DirSet) -> DirSet {
        DirSet(self.0 | other.0)
    }

    /// The directions of `self` missing from `other`.
    pub const fn minus(self, other: DirSet) -> DirSet {
        DirSet(self.0 & !other.0)
    }

    /// True if the set has no direction.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if every direction of `self` is in `other`.
    pub const fn is_subset(self, other: DirSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The members, vertical ones first.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}

impl From<Dir> for DirSet {
    fn from(dir: Dir) -> Self {
        dir.bit()
    }
}
