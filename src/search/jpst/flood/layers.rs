//! A stack of cell sets, one per tick, stored as bit rows of a
//! [`Frame`](super::frame::Frame): each row keeps only the words from its
//! first to its last set bit, so a thin band of cells costs a few words a
//! row. Cells are given by row and column of the frame.

/// The words `lo..hi` of one row of a set, stored at `arena[at..]`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RowSpan {
    pub lo: u32,
    pub hi: u32,
    at: u32,
}

impl RowSpan {
    /// Whether the row holds no word.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.lo >= self.hi
    }
}

/// A row being built: where its words start in the arena, the number of
/// its first word kept, and how many words it keeps up to its last set
/// bit. It has started once a word is in the arena past `at`.
#[derive(Clone, Copy, Debug)]
pub(super) struct RowBuild {
    at: usize,
    lo: u32,
    kept: usize,
}

/// One set of the stack: rows `top..top + rows`, whose spans are
/// `spans[first..first + rows]`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Layer {
    pub top: u32,
    pub rows: u32,
    first: u32,
}

impl Layer {
    /// One past the last row.
    #[inline]
    pub fn bottom(self) -> u32 {
        self.top + self.rows
    }
}

/// Cell sets pushed one after the other, each built row by row.
#[derive(Debug, Default)]
pub(super) struct Layers {
    arena: Vec<u64>,
    spans: Vec<RowSpan>,
    layers: Vec<Layer>,
}

impl Layers {
    /// Forgets every set, keeping the buffers.
    pub fn clear(&mut self) {
        self.arena.clear();
        self.spans.clear();
        self.layers.clear();
    }

    /// Pushes the set holding the cell at `row`, `col` alone.
    pub fn push_single(&mut self, row: u32, col: u32) {
        let w = col / 64;
        let at = self.arena.len() as u32;
        self.arena.push(1 << (col % 64));
        self.layers.push(Layer {
            top: row,
            rows: 1,
            first: self.spans.len() as u32,
        });
        self.spans.push(RowSpan {
            lo: w,
            hi: w + 1,
            at,
        });
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

    /// The span of row `y` in `layer` (empty outside it).
    #[inline]
    pub fn span(&self, layer: Layer, y: i64) -> RowSpan {
        let row = y - i64::from(layer.top);
        if row < 0 || row >= i64::from(layer.rows) {
            return RowSpan::default();
        }
        self.spans[(layer.first as i64 + row) as usize]
    }

    /// Word `w` of a row (zero outside its span).
    #[inline]
    pub fn word(&self, span: RowSpan, w: u32) -> u64 {
        if w >= span.lo && w < span.hi {
            self.arena[(span.at + w - span.lo) as usize]
        } else {
            0
        }
    }

    /// Word `w` of row `mid` with the bits of the cells next to them on
    /// the map, in a frame's slanted rows: column `c` of row `r` neighbours
    /// columns `c - 1` and `c` of row `r - 1` (`up`) and columns `c` and
    /// `c + 1` of row `r + 1` (`down`). Rows `up`, `mid` and `down` come
    /// from the same set.
    #[inline]
    pub fn spread_word(&self, up: RowSpan, mid: RowSpan, down: RowSpan, w: u32) -> u64 {
        let u = self.word(up, w);
        let d = self.word(down, w);
        let carry_up = if w > 0 { self.word(up, w - 1) >> 63 } else { 0 };
        let carry_down = self.word(down, w + 1) << 63;
        self.word(mid, w) | u | u << 1 | carry_up | d | d >> 1 | carry_down
    }

    /// Word `w` of row `mid` with the bits of the cells next to them on
    /// the map, in map rows: column `c` of row `r` neighbours columns
    /// `c - 1` and `c + 1` of its own row and column `c` of rows `r - 1`
    /// (`up`) and `r + 1` (`down`).
    #[inline]
    pub fn spread_word_straight(&self, up: RowSpan, mid: RowSpan, down: RowSpan, w: u32) -> u64 {
        let m = self.word(mid, w);
        let carry_left = if w > 0 {
            self.word(mid, w - 1) >> 63
        } else {
            0
        };
        let carry_right = self.word(mid, w + 1) << 63;
        m | m << 1 | m >> 1 | carry_left | carry_right | self.word(up, w) | self.word(down, w)
    }

    /// How many cells `layer` holds.
    pub fn cells(&self, layer: Layer) -> u64 {
        let spans = &self.spans[layer.first as usize..(layer.first + layer.rows) as usize];
        spans
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| {
                let words = &self.arena[s.at as usize..(s.at + s.hi - s.lo) as usize];
                words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>()
            })
            .sum()
    }

    /// Whether the cell at `row`, `col` is in `layer`.
    pub fn has(&self, layer: Layer, row: u32, col: u32) -> bool {
        let span = self.span(layer, i64::from(row));
        self.word(span, col / 64) >> (col % 64) & 1 != 0
    }

    /// Takes the cell at `row`, `col` out of `layer`.
    pub fn remove(&mut self, layer: Layer, row: u32, col: u32) {
        let span = self.span(layer, i64::from(row));
        let w = col / 64;
        if w >= span.lo && w < span.hi {
            self.arena[(span.at + w - span.lo) as usize] &= !(1 << (col % 64));
        }
    }

    /// Whether sets `a` and `b` hold the same cells (both built tight, as
    /// [`finish`](Self::finish) leaves them).
    pub fn same(&self, a: Layer, b: Layer) -> bool {
        if a.top != b.top || a.rows != b.rows {
            return false;
        }
        (0..a.rows as usize).all(|r| {
            let (x, y) = (
                self.spans[a.first as usize + r],
                self.spans[b.first as usize + r],
            );
            x.lo == y.lo
                && x.hi == y.hi
                && (x.is_empty()
                    || self.arena[x.at as usize..(x.at + x.hi - x.lo) as usize]
                        == self.arena[y.at as usize..(y.at + y.hi - y.lo) as usize])
        })
    }

    /// Pushes the newest set again, for the next tick.
    pub fn repeat_last(&mut self) {
        let last = self.last();
        self.layers.push(last);
    }

    /// Starts a new set whose first row is `top`.
    pub fn begin(&self, top: u32) -> Layer {
        Layer {
            top,
            rows: 0,
            first: self.spans.len() as u32,
        }
    }

    /// Starts the next row of the set being built.
    #[inline]
    pub fn start_row(&self) -> RowBuild {
        RowBuild {
            at: self.arena.len(),
            lo: 0,
            kept: 0,
        }
    }

    /// Appends word `w` of the row being built (words come in order);
    /// zero words before its first set bit are not kept.
    #[inline]
    pub fn push_word(&mut self, row: &mut RowBuild, w: u32, word: u64) {
        if self.arena.len() == row.at {
            if word == 0 {
                return;
            }
            row.lo = w;
        }
        self.arena.push(word);
        if word != 0 {
            row.kept = self.arena.len() - row.at;
        }
    }

    /// Ends a row of the set being built (see [`begin`](Self::begin)),
    /// kept tight: the zero words after its last set bit go too.
    #[inline]
    pub fn end_row(&mut self, layer: &mut Layer, row: RowBuild) {
        self.arena.truncate(row.at + row.kept);
        self.spans.push(RowSpan {
            lo: row.lo,
            hi: row.lo + row.kept as u32,
            at: row.at as u32,
        });
        layer.rows += 1;
    }

    /// Ends the set being built: empty rows at both ends go. Returns it as
    /// stacked.
    pub fn finish(&mut self, mut layer: Layer) -> Layer {
        while layer.rows > 0 && self.spans[layer.first as usize].is_empty() {
            layer.first += 1;
            layer.top += 1;
            layer.rows -= 1;
        }
        while layer.rows > 0 && self.spans[(layer.first + layer.rows - 1) as usize].is_empty() {
            layer.rows -= 1;
        }
        self.layers.push(layer);
        layer
    }
}
