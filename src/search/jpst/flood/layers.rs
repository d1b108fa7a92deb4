//! A stack of cell sets, one per tick, each kept as a box of bit words of
//! a [`Frame`](super::frame::Frame): the rows from its first to its last
//! cell, and in each of them the same run of words, from the first word
//! that holds a cell in any of its rows to the last. The flood's sets are
//! mostly a thin band a few rows deep, a word or two wide, so spreading
//! one needs no bookkeeping per row: every word of the next box is a few
//! reads of the last one at fixed offsets. Where a box is wider (a wait
//! that spreads over blocks of a city), each row also lists the words
//! that hold its cells, and the next box builds only the words next to
//! them. Cells are given by row and column of the frame.

/// One set of the stack: rows `top..top + rows`, words `left..left +
/// wide` of each, row `top + r` at `arena[at + r * pitch..]`. An empty set
/// has no rows.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Layer {
    /// The first row.
    pub top: u32,
    /// The number of rows.
    pub rows: u32,
    /// The first word of every row.
    pub left: u32,
    /// The number of words of every row.
    pub wide: u32,
    /// Words from a row to the next in the arena (at least `wide`: a box
    /// shrunk to its cells keeps the rows where they were built).
    pitch: u32,
    at: u32,
    /// Where the words holding the cells of its rows are listed in
    /// [`Layers::spans`], from its top row on ([`WHOLE`] if they are not:
    /// a box at most [`NARROW`] words wide).
    first: u32,
    /// Whether a cell lies at the first bit of the box's first word
    /// ([`LEFT_EDGE`]) or at the last bit of its last ([`RIGHT_EDGE`]), or
    /// [`EDGES_UNKNOWN`]: the next box is widened across such an edge.
    edges: u8,
}

impl Layer {
    /// One past the last row.
    #[inline]
    pub fn bottom(self) -> u32 {
        self.top + self.rows
    }

    /// The arena index of word `w` of row `row`, if the box holds it.
    #[inline]
    fn index(self, row: u32, w: u32) -> Option<usize> {
        let (r, c) = (row.wrapping_sub(self.top), w.wrapping_sub(self.left));
        (r < self.rows && c < self.wide)
            .then(|| self.at as usize + r as usize * self.pitch as usize + c as usize)
    }

    /// The arena range of row `r` of the box (counted from its top).
    #[inline]
    fn row(self, r: u32) -> std::ops::Range<usize> {
        let at = self.at as usize + r as usize * self.pitch as usize;
        at..at + self.wide as usize
    }
}

/// A set being built by [`Layers::open`]: its box, and the last set laid
/// out around it with a margin of zeros.
#[derive(Clone, Copy, Debug)]
pub(super) struct Opened {
    /// The box of the new set, its words zero in the arena.
    pub layer: Layer,
    /// Words in a row of the padded last set: the new box's plus one on
    /// each side. Its row `k` is row `layer.top + k - 1` of the frame,
    /// its word `j` word `layer.left + j - 1`.
    pub pad_wide: usize,
    /// The words of the box that can hold a cell, summed over its rows
    /// (those of each row are in [`Layers::todo`]).
    pub words: u64,
}

/// Boxes at most this many words wide are spread whole, and their rows'
/// spans not listed; wider ones only where a row's neighbours hold cells.
pub(super) const NARROW: u32 = 2;

/// The span of a row holding no cell, for taking the smallest first word
/// and the largest last.
const EMPTY: (u32, u32) = (u32::MAX, 0);

/// The [`Layer::first`] of a set whose rows' spans are not listed: any word
/// of its box may hold a cell.
const WHOLE: u32 = u32::MAX;

/// [`Layer::edges`]: a cell lies at the first bit of the box's first word.
const LEFT_EDGE: u8 = 1;

/// [`Layer::edges`]: a cell lies at the last bit of the box's last word.
const RIGHT_EDGE: u8 = 2;

/// [`Layer::edges`] not known: [`Layers::next_box`] scans the box's edge
/// words.
const EDGES_UNKNOWN: u8 = 4;

/// Cell sets pushed one after the other.
#[derive(Debug, Default)]
pub(super) struct Layers {
    arena: Vec<u64>,
    layers: Vec<Layer>,
    /// Per row of every set (see [`Layer`]), the words from the first to
    /// the last that may hold one of its cells (in the frame's numbering;
    /// empty if none do). A row's cells lie within, but not every word
    /// within holds one.
    spans: Vec<(u32, u32)>,
    /// Per row of the set being built, counted from its box's first word,
    /// the words that can hold a cell: those a cell of the last set lies
    /// next to.
    pub todo: Vec<(u32, u32)>,
    /// The spans of the newest set's rows, as [`open`](Self::open) reads
    /// them.
    near: Vec<(u32, u32)>,
    /// The newest set padded around the box of the set being built (see
    /// [`Opened`]); lent out while it is built.
    pub pad: Vec<u64>,
}

impl Layers {
    /// Forgets every set, keeping the buffers.
    pub fn clear(&mut self) {
        self.arena.clear();
        self.layers.clear();
        self.spans.clear();
    }

    /// Pushes the set holding the cell at `row`, `col` alone.
    pub fn push_single(&mut self, row: u32, col: u32) {
        let at = self.arena.len() as u32;
        self.arena.push(1 << (col % 64));
        self.layers.push(Layer {
            top: row,
            rows: 1,
            left: col / 64,
            wide: 1,
            pitch: 1,
            at,
            first: self.spans.len() as u32,
            edges: edges(1 << (col % 64), 1 << (col % 64)),
        });
        self.spans.push((col / 64, col / 64 + 1));
    }

    /// How many sets are stacked.
    #[inline]
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// Set `k`, counted from the bottom of the stack.
    #[inline]
    pub fn get(&self, k: usize) -> Layer {
        self.layers[k]
    }

    /// The newest set.
    #[inline]
    pub fn last(&self) -> Layer {
        *self.layers.last().expect("a set was pushed")
    }

    /// The box of a set covering the cells of the newest set and their
    /// neighbours, in a frame of `rows` rows of `stride` words, of map rows
    /// or slanted ones (see `frame.rs`: either way a cell's neighbours lie
    /// in the rows above and below and its own, in its word, or in the
    /// word before where it is its word's first cell, or the word after
    /// where it is its last). At most [`NARROW`] words wide, it is built
    /// by [`spread_narrow`](Self::spread_narrow) and stacked by
    /// [`close_narrow`](Self::close_narrow); wider, [`open`](Self::open)
    /// starts it. The newest set must hold a cell.
    #[inline]
    pub fn next_box(&self, rows: u32, stride: u32) -> Layer {
        let prev = self.last();
        debug_assert!(prev.rows > 0 && prev.wide > 0, "a set with cells");
        // A word more on a side where a cell's neighbour lies across the
        // edge of the box: in slanted rows, column `c - 1` of the row above
        // and `c + 1` of the row below; in map rows, both in the same row.
        let edges = if prev.edges & EDGES_UNKNOWN == 0 {
            prev.edges
        } else {
            self.scan_edges(prev)
        };
        let (to_left, to_right) = (edges & LEFT_EDGE != 0, edges & RIGHT_EDGE != 0);
        let left = prev.left - u32::from(to_left && prev.left > 0);
        let right = (prev.left + prev.wide + u32::from(to_right)).min(stride);
        let top = prev.top.saturating_sub(1);
        let bottom = (prev.bottom() + 1).min(rows);
        Layer {
            top,
            rows: bottom - top,
            left,
            wide: right - left,
            pitch: right - left,
            at: self.arena.len() as u32,
            first: self.spans.len() as u32,
            edges: EDGES_UNKNOWN,
        }
    }

    /// Starts `layer`, a [`next_box`](Self::next_box) wider than
    /// [`NARROW`] words: its words are zero, to be written through
    /// [`words_mut`](Self::words_mut), and [`close`](Self::close) stacks
    /// it. Lays the newest set out in [`pad`](Self::pad), with a margin of
    /// zeros, for the spread to read.
    pub fn open(&mut self, layer: Layer) -> Opened {
        let prev = self.last();
        let (top, left) = (layer.top, layer.left);
        let size = layer.rows as usize * layer.wide as usize;
        let pitch = prev.pitch as usize;
        // The newest set, its row `r` at pad row `r - top + 1` and its word
        // `w` at pad word `w - left + 1` (only the words that may hold its
        // cells are copied: the rest are zero).
        let pad_wide = layer.wide as usize + 2;
        let mut pad = std::mem::take(&mut self.pad);
        pad.clear();
        pad.resize((layer.rows as usize + 2) * pad_wide, 0);
        let at = (prev.top - top + 1) as usize * pad_wide + (prev.left - left) as usize + 1;
        if prev.first == WHOLE && prev.wide == 1 {
            // A word a row: one loop down the rows.
            for r in 0..prev.rows as usize {
                pad[at + r * pad_wide] = self.arena[prev.at as usize + r * pitch];
            }
        } else {
            for r in 0..prev.rows {
                // The words of the row that may hold cells, counted from
                // the box's first.
                let (lo, hi) = if prev.first == WHOLE {
                    (0, prev.wide)
                } else {
                    let (lo, hi) = self.spans[(prev.first + r) as usize];
                    (lo.saturating_sub(prev.left), hi.saturating_sub(prev.left))
                };
                if lo < hi {
                    let k = at + r as usize * pad_wide;
                    let row = &self.arena[prev.row(r)][lo as usize..hi as usize];
                    pad[k + lo as usize..k + hi as usize].copy_from_slice(row);
                }
            }
        }
        // The words of each new row next to a cell of the last set: those
        // of the rows above, at and below that hold cells, and the word on
        // either side where a cell at the edge of one has a neighbour
        // across (a slight excess: any of the three rows may tell).
        let mut todo = std::mem::take(&mut self.todo);
        todo.clear();
        let words = if prev.first == WHOLE {
            todo.resize(layer.rows as usize, (0, layer.wide));
            u64::from(layer.rows) * u64::from(layer.wide)
        } else {
            // The last set's rows, from two before its first to two after
            // its last, their words counted from the new box's first.
            let mut near = std::mem::take(&mut self.near);
            near.clear();
            near.extend([EMPTY; 2]);
            let spans = &self.spans[prev.first as usize..(prev.first + prev.rows) as usize];
            near.extend(spans.iter().map(|&(lo, hi)| {
                if lo < hi {
                    (lo - left, hi - left)
                } else {
                    EMPTY
                }
            }));
            near.extend([EMPTY; 2]);
            let skip = 1 - (prev.top - top) as usize;
            let mut words = 0;
            for (r, three) in near
                .windows(3)
                .skip(skip)
                .take(layer.rows as usize)
                .enumerate()
            {
                let lo = three[0].0.min(three[1].0).min(three[2].0);
                let hi = three[0].1.max(three[1].1).max(three[2].1);
                if lo >= hi {
                    todo.push((0, 0));
                    continue;
                }
                let column = |c: u32| {
                    let k = r * pad_wide + c as usize + 1;
                    pad[k] | pad[k + pad_wide] | pad[k + 2 * pad_wide]
                };
                let lo = lo - u32::from(lo > 0 && column(lo) & 1 != 0);
                let hi = hi + u32::from(hi < layer.wide && column(hi - 1) >> 63 != 0);
                words += u64::from(hi - lo);
                todo.push((lo, hi));
            }
            self.near = near;
            words
        };
        self.todo = todo;
        self.pad = pad;
        self.arena.resize(self.arena.len() + size, 0);
        Opened {
            layer,
            pad_wide,
            words,
        }
    }

    /// The words of the box of `layer` as [`open`](Self::open) made it,
    /// row after row.
    #[inline]
    pub fn words_mut(&mut self, layer: Layer) -> &mut [u64] {
        let size = layer.rows as usize * layer.wide as usize;
        &mut self.arena[layer.at as usize..layer.at as usize + size]
    }

    /// Stacks `layer`, built since [`open`](Self::open), its box shrunk to
    /// rows `rows` and words `words` of it (counted from its top row and
    /// first word), which must hold all its cells; no rows if it has none.
    /// `spans` gives, for each row of the box as built, the words from the
    /// first to the last that may hold a cell (counted likewise). Returns
    /// it as stacked.
    pub fn close(
        &mut self,
        layer: Layer,
        rows: std::ops::Range<u32>,
        words: std::ops::Range<u32>,
        spans: &[(u32, u32)],
    ) -> Layer {
        let first = self.spans.len() as u32;
        // Kept within the box as shrunk, where `open` reads them.
        let (lo, hi) = (words.start, words.end);
        let left = layer.left;
        self.spans.extend(spans.iter().map(|&(l, h)| {
            let l = l.max(lo);
            (l + left, h.min(hi).max(l) + left)
        }));
        if rows.is_empty() || words.is_empty() {
            return self.stack_empty(layer, first);
        }
        let tight = Layer {
            top: layer.top + rows.start,
            rows: rows.end - rows.start,
            left: layer.left + words.start,
            wide: words.end - words.start,
            pitch: layer.pitch,
            at: layer.at + rows.start * layer.pitch + words.start,
            first: first + rows.start,
            edges: EDGES_UNKNOWN,
        };
        self.layers.push(tight);
        tight
    }

    /// Stacks `layer`, built since it was opened, as a set with no cells
    /// (its words given back to the arena), its rows' spans listed from
    /// `first` (or [`WHOLE`]); returns it as stacked.
    fn stack_empty(&mut self, layer: Layer, first: u32) -> Layer {
        self.arena.truncate(layer.at as usize);
        let empty = Layer {
            top: layer.top,
            at: layer.at,
            first,
            edges: EDGES_UNKNOWN,
            ..Layer::default()
        };
        self.layers.push(empty);
        empty
    }

    /// Rows `rows` and words `words` of the box of `layer`, built since
    /// [`open`](Self::open) (counted from its top row and first word),
    /// shrunk while a row or a word at their edge holds no cell, for
    /// [`close`](Self::close).
    pub fn shrink(
        &self,
        layer: Layer,
        mut rows: std::ops::Range<u32>,
        mut words: std::ops::Range<u32>,
    ) -> (std::ops::Range<u32>, std::ops::Range<u32>) {
        let word = |r: u32, c: u32| self.arena[layer.row(r).start + c as usize];
        let row_empty =
            |r: u32, words: &std::ops::Range<u32>| words.clone().all(|c| word(r, c) == 0);
        while !rows.is_empty() && row_empty(rows.start, &words) {
            rows.start += 1;
        }
        while !rows.is_empty() && row_empty(rows.end - 1, &words) {
            rows.end -= 1;
        }
        let column_empty =
            |c: u32, rows: &std::ops::Range<u32>| rows.clone().all(|r| word(r, c) == 0);
        while !rows.is_empty() && !words.is_empty() && column_empty(words.start, &rows) {
            words.start += 1;
        }
        while !rows.is_empty() && !words.is_empty() && column_empty(words.end - 1, &rows) {
            words.end -= 1;
        }
        (rows, words)
    }

    /// Writes `layer`, a [`next_box`](Self::next_box) at most [`NARROW`]
    /// words wide, after the newest set: its cells and their neighbours in
    /// slanted rows or, if `STRAIGHT`, map rows (see [`near`]). Reads the
    /// set's words where they are, with no padded copy: its rows are a
    /// word or two.
    #[inline]
    pub fn spread_narrow<const STRAIGHT: bool>(&mut self, layer: Layer) {
        debug_assert!(layer.wide <= NARROW && layer.pitch == layer.wide);
        debug_assert!(layer.at as usize == self.arena.len());
        let prev = self.last();
        let size = layer.rows as usize * layer.wide as usize;
        self.arena.resize(self.arena.len() + size, 0);
        let (before, out) = self.arena.split_at_mut(layer.at as usize);
        let from = Rows {
            words: &before[prev.at as usize..],
            pitch: prev.pitch as usize,
            rows: prev.rows as usize,
            lead: (prev.top - layer.top) as usize,
        };
        // The box holds the set's box: the set's first word is the box's
        // first, or its second if the box grew a word to the left (then the
        // set is a word wide and the box two).
        match (layer.wide, prev.wide, prev.left > layer.left) {
            (1, _, _) => from.spread::<STRAIGHT, 1, 1, 1>(out),
            (_, 1, false) => from.spread::<STRAIGHT, 2, 1, 1>(out),
            (_, 1, true) => from.spread::<STRAIGHT, 2, 1, 2>(out),
            _ => from.spread::<STRAIGHT, 2, 2, 1>(out),
        }
    }

    /// Stacks `layer`, a box at most [`NARROW`] words wide built by
    /// [`spread_narrow`](Self::spread_narrow), shrunk to the rows and words
    /// that hold its cells (no rows if none do), noting whether any lies at
    /// its edges for the next box; returns it as stacked.
    #[inline]
    pub fn close_narrow(&mut self, layer: Layer) -> Layer {
        debug_assert!(layer.wide <= NARROW && layer.pitch == layer.wide);
        let wide = layer.wide as usize;
        let words = &self.arena[layer.at as usize..][..layer.rows as usize * wide];
        let (top, bottom, columns) = if wide == 1 {
            holding::<1>(words)
        } else {
            holding::<2>(words)
        };
        if top == u32::MAX {
            return self.stack_empty(layer, WHOLE);
        }
        let lo = u32::from(wide == 2 && columns[0] == 0);
        let hi = layer.wide - u32::from(wide == 2 && columns[1] == 0);
        let (first_word, last_word) = (columns[lo as usize], columns[hi as usize - 1]);
        let tight = Layer {
            top: layer.top + top,
            rows: bottom - top,
            left: layer.left + lo,
            wide: hi - lo,
            pitch: layer.pitch,
            at: layer.at + top * layer.pitch + lo,
            first: WHOLE,
            edges: edges(first_word, last_word),
        };
        self.layers.push(tight);
        tight
    }

    /// Whether a cell of `layer` lies at the first bit of its box's first
    /// word ([`LEFT_EDGE`]) or the last bit of its last ([`RIGHT_EDGE`]).
    fn scan_edges(&self, layer: Layer) -> u8 {
        let (mut to_left, mut to_right) = (0, 0);
        let (pitch, last) = (layer.pitch as usize, layer.wide as usize - 1);
        for r in 0..layer.rows as usize {
            let k = layer.at as usize + r * pitch;
            to_left |= self.arena[k];
            to_right |= self.arena[k + last];
        }
        edges(to_left, to_right)
    }

    /// How many cells `layer` holds.
    pub fn cells(&self, layer: Layer) -> u64 {
        let mut cells = 0;
        for r in 0..layer.rows {
            for &w in &self.arena[layer.row(r)] {
                cells += w.count_ones();
            }
        }
        u64::from(cells)
    }

    /// Whether the cell at `row`, `col` is in `layer`.
    pub fn has(&self, layer: Layer, row: u32, col: u32) -> bool {
        layer
            .index(row, col / 64)
            .is_some_and(|i| self.arena[i] >> (col % 64) & 1 != 0)
    }

    /// Takes the cell at `row`, `col` out of `layer`, the newest set.
    pub fn remove(&mut self, layer: Layer, row: u32, col: u32) {
        if let Some(i) = layer.index(row, col / 64) {
            self.arena[i] &= !(1 << (col % 64));
            // Its edges are looked at again when the next box opens.
            if let Some(newest) = self.layers.last_mut() {
                newest.edges |= EDGES_UNKNOWN;
            }
        }
    }

    /// Whether sets `a` and `b` hold the same cells (both boxes shrunk to
    /// their cells, as [`close`](Self::close) leaves them).
    pub fn same(&self, a: Layer, b: Layer) -> bool {
        (a.top, a.rows, a.left, a.wide) == (b.top, b.rows, b.left, b.wide)
            && (0..a.rows).all(|r| self.arena[a.row(r)] == self.arena[b.row(r)])
    }

    /// Pushes the newest set again, for the next tick.
    pub fn repeat_last(&mut self) {
        let last = self.last();
        self.layers.push(last);
    }
}

/// The first and last rows of `words`, rows of `W` words, that hold a cell
/// (`u32::MAX` and 0 if none do), and each word's cells over those rows.
#[inline(always)]
fn holding<const W: usize>(words: &[u64]) -> (u32, u32, [u64; 2]) {
    let holds = |row: &[u64]| row.iter().any(|&w| w != 0);
    let Some(top) = words.chunks_exact(W).position(holds) else {
        return (u32::MAX, 0, [0; 2]);
    };
    let bottom = words.chunks_exact(W).rposition(holds).unwrap_or(top) + 1;
    let mut columns = [0; 2];
    for row in words[top * W..bottom * W].chunks_exact(W) {
        for (column, &w) in columns.iter_mut().zip(row) {
            *column |= w;
        }
    }
    (top as u32, bottom as u32, columns)
}

/// The [`Layer::edges`] of a box whose first words, over all its rows, hold
/// the cells of `first` and whose last hold those of `last`.
#[inline]
fn edges(first: u64, last: u64) -> u8 {
    u8::from(first & 1 != 0) * LEFT_EDGE + u8::from(last >> 63 != 0) * RIGHT_EDGE
}

/// The rows of a set being spread into a narrow box: row `r` at
/// `words[r * pitch..]`, the box's row `r + lead`.
struct Rows<'a> {
    words: &'a [u64],
    pitch: usize,
    rows: usize,
    lead: usize,
}

impl Rows<'_> {
    /// Writes each row of a box `W` words wide into `out`: the cells of the
    /// set's rows above, at and below it and their neighbours. The set is
    /// `P` words wide, its first word at word `AT - 1` of the box.
    #[inline(always)]
    fn spread<const STRAIGHT: bool, const W: usize, const P: usize, const AT: usize>(
        &self,
        out: &mut [u64],
    ) {
        // Row `r` of the set, at words one before the box's first to one
        // after its last (zero outside the set).
        let row = |r: usize| {
            let mut w = [0; 4];
            if r < self.rows {
                let k = r * self.pitch;
                w[AT..AT + P].copy_from_slice(&self.words[k..k + P]);
            }
            w
        };
        // The set's rows above and at the box's first row (box row `r` is
        // the set's row `r - lead`).
        let mut up = row(0usize.wrapping_sub(self.lead + 1));
        let mut mid = row(0usize.wrapping_sub(self.lead));
        for (r, built) in out.chunks_exact_mut(W).enumerate() {
            let down = row((r + 1).wrapping_sub(self.lead));
            for (c, word) in built.iter_mut().enumerate() {
                *word = near::<STRAIGHT>(&up[c..c + 3], &mid[c..c + 3], &down[c..c + 3]);
            }
            (up, mid) = (mid, down);
        }
    }
}

/// The cells of a word and their neighbours, from the words `u`, `m` and
/// `d` of the set's rows above, at and below it (the word in the middle of
/// each, and those on each side), in map rows (`STRAIGHT`) or slanted ones
/// (see `frame.rs`).
#[inline(always)]
pub(super) fn near<const STRAIGHT: bool>(u: &[u64], m: &[u64], d: &[u64]) -> u64 {
    if STRAIGHT {
        m[1] | m[1] << 1 | m[1] >> 1 | m[0] >> 63 | m[2] << 63 | u[1] | d[1]
    } else {
        m[1] | u[1] | u[1] << 1 | u[0] >> 63 | d[1] | d[1] >> 1 | d[2] << 63
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::test_rng::Rng;
    use super::*;

    /// The cells next to `(row, col)` (itself included) in a frame of
    /// `rows` rows of `stride` words: slanted rows, or map rows if
    /// `straight` (see `frame.rs`).
    fn near(row: u32, col: u32, rows: u32, stride: u32, straight: bool) -> Vec<(u32, u32)> {
        let (r, c) = (i64::from(row), i64::from(col));
        let around = if straight {
            [(r, c), (r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)]
        } else {
            [
                (r, c),
                (r - 1, c - 1),
                (r - 1, c),
                (r + 1, c),
                (r + 1, c + 1),
            ]
        };
        around
            .into_iter()
            .filter(|&(r, c)| r >= 0 && r < i64::from(rows) && c >= 0 && c < i64::from(stride) * 64)
            .map(|(r, c)| (r as u32, c as u32))
            .collect()
    }

    #[test]
    fn an_opened_box_holds_every_neighbour_and_is_spread_from_the_last_set() {
        let mut rng = Rng(0x0dd_b1a5_e5ee_d5ee);
        let mut layers = Layers::default();
        for case in 0..500 {
            let (rows, stride) = (1 + rng.below(12), 1 + rng.below(4));
            let straight = rng.below(2) == 0;
            // A set of a few cells, built as the spread builds one: opened
            // from a single cell, its words written, then closed.
            layers.clear();
            let cells: Vec<(u32, u32)> = (0..1 + rng.below(6))
                .map(|_| (rng.below(rows), rng.below(stride * 64)))
                .collect();
            let (r0, c0) = cells[0];
            layers.push_single(r0, c0);
            let whole = Layer {
                top: 0,
                rows,
                left: 0,
                wide: stride,
                pitch: stride,
                at: layers.arena.len() as u32,
                first: 0,
                edges: EDGES_UNKNOWN,
            };
            layers
                .arena
                .resize(layers.arena.len() + (rows * stride) as usize, 0);
            for &(r, c) in &cells {
                layers.words_mut(whole)[(r * stride + c / 64) as usize] |= 1 << (c % 64);
            }
            let (kept_rows, kept_words) = layers.shrink(whole, 0..rows, 0..stride);
            // Wide boxes list their rows' spans; narrow ones are closed
            // whole, as the narrow spread closes them.
            let spans: Vec<_> = (0..rows).map(|_| (0, stride)).collect();
            let set = if rng.below(2) == 0 && stride <= NARROW {
                layers.close_narrow(whole)
            } else {
                layers.close(whole, kept_rows, kept_words, &spans)
            };
            for &(r, c) in &cells {
                assert!(layers.has(set, r, c), "case {case}: ({r}, {c}) lost");
            }
            assert_eq!(layers.cells(set) as usize, {
                let mut unique = cells.clone();
                unique.sort_unstable();
                unique.dedup();
                unique.len()
            });
            let b = layers.next_box(rows, stride);
            if b.wide <= NARROW {
                // A narrow box is spread straight from the set: it must
                // hold the cells and their neighbours, and nothing else.
                if straight {
                    layers.spread_narrow::<true>(b);
                } else {
                    layers.spread_narrow::<false>(b);
                }
                let mut want: Vec<_> = cells
                    .iter()
                    .flat_map(|&(r, c)| near(r, c, rows, stride, straight))
                    .collect();
                want.sort_unstable();
                want.dedup();
                let mut got = Vec::new();
                for (k, &w) in layers.words_mut(b).iter().enumerate() {
                    let (r, word) = (b.top + k as u32 / b.wide, b.left + k as u32 % b.wide);
                    got.extend(
                        (0..64)
                            .filter(|i| w >> i & 1 != 0)
                            .map(|i| (r, word * 64 + i)),
                    );
                }
                assert_eq!(got, want, "case {case}: {b:?}");
                continue;
            }
            let pw = layers.open(b).pad_wide;
            for &(r, c) in &cells {
                // Every neighbour is inside the box.
                for (nr, nc) in near(r, c, rows, stride, straight) {
                    assert!(
                        b.top <= nr
                            && nr < b.bottom()
                            && b.left <= nc / 64
                            && nc / 64 < b.left + b.wide,
                        "case {case}: ({nr}, {nc}) outside {b:?}"
                    );
                }
                // Wide boxes build only the words of their `todo`, which
                // must take in every neighbour.
                if b.wide > NARROW {
                    for (nr, nc) in near(r, c, rows, stride, straight) {
                        let (from, to) = layers.todo[(nr - b.top) as usize];
                        let w = nc / 64 - b.left;
                        assert!(from <= w && w < to, "case {case}: ({nr}, {nc}) not to do");
                    }
                }
                // The pad holds the cell where `Opened` says.
                let k = (r + 1 - b.top) as usize * pw + (c / 64 + 1 - b.left) as usize;
                assert!(layers.pad[k] >> (c % 64) & 1 != 0, "case {case}");
            }
            let padded: u32 = layers.pad.iter().map(|w| w.count_ones()).sum();
            assert_eq!(u64::from(padded), layers.cells(set), "case {case}");
        }
    }

    #[test]
    fn a_narrow_box_closes_to_what_shrink_keeps_and_knows_its_edges() {
        let mut rng = Rng(0x7a1e_5eed_0b0c_5e75);
        let mut layers = Layers::default();
        for case in 0..2000 {
            let (rows, wide) = (1 + rng.below(10), 1 + rng.below(NARROW));
            layers.clear();
            let narrow = Layer {
                top: rng.below(5),
                rows,
                left: rng.below(3),
                wide,
                pitch: wide,
                at: 0,
                first: WHOLE,
                edges: EDGES_UNKNOWN,
            };
            // Up to a few set words, often none, anywhere in the box, their
            // bits often at a word's edge.
            layers.arena.resize((rows * wide) as usize, 0);
            for _ in 0..rng.below(4) {
                let k = rng.below(rows * wide) as usize;
                let bit = [0, 63, rng.below(64)][rng.below(3) as usize];
                layers.arena[k] |= 1 << bit;
            }
            let (kept_rows, kept_words) = layers.shrink(narrow, 0..rows, 0..wide);
            let closed = layers.close_narrow(narrow);
            if kept_rows.is_empty() {
                assert_eq!(closed.rows, 0, "case {case}: {closed:?}");
                continue;
            }
            let want = (
                narrow.top + kept_rows.start,
                kept_rows.len() as u32,
                narrow.left + kept_words.start,
                kept_words.len() as u32,
            );
            let got = (closed.top, closed.rows, closed.left, closed.wide);
            assert_eq!(got, want, "case {case}");
            assert_eq!(closed.edges, layers.scan_edges(closed), "case {case}");
        }
    }
}
