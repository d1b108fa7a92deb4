//! Padded bit rows: one bit per cell, `u64` words, zero padding around the map.
//!
//! Every row has one zero word on the left and at least one on the right, and
//! there is one zero row above and below the map. Scans therefore never read
//! out of bounds, and the padding reads as "blocked" / "nothing here".

/// A `width` x `height` field of bits stored as padded `u64` rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitRows {
    width: u32,
    height: u32,
    stride: usize,
    words: Vec<u64>,
}

/// Offset of cell `x = 0` inside a row, in bits (the left padding word).
const LEFT_PAD_BITS: usize = 64;

impl BitRows {
    /// An all-zero field.
    pub fn new(width: u32, height: u32) -> Self {
        let inner = (width as usize).div_ceil(64);
        let stride = inner + 2;
        let words = vec![0; stride * (height as usize + 2)];
        Self {
            width,
            height,
            stride,
            words,
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

    #[inline]
    fn locate(&self, x: u32, y: u32) -> (usize, u32) {
        debug_assert!(
            x < self.width && y < self.height,
            "bit ({x},{y}) off the field"
        );
        let bit = LEFT_PAD_BITS + x as usize;
        ((y as usize + 1) * self.stride + bit / 64, (bit % 64) as u32)
    }

    /// The bit of cell `(x, y)`, which must lie on the field.
    #[inline]
    pub fn get(&self, x: u32, y: u32) -> bool {
        let (w, b) = self.locate(x, y);
        self.words[w] >> b & 1 != 0
    }

    /// The bit of cell `(x, y)`, which may lie one cell off the field on
    /// any side (the padding, zero).
    #[inline]
    pub fn get_padded(&self, x: i64, y: i64) -> bool {
        debug_assert!(
            (-1..=i64::from(self.width)).contains(&x) && (-1..=i64::from(self.height)).contains(&y),
            "bit ({x},{y}) off the padding"
        );
        let bit = (LEFT_PAD_BITS as i64 + x) as usize;
        self.words[(y + 1) as usize * self.stride + bit / 64] >> (bit % 64) & 1 != 0
    }

    /// Sets the bit of cell `(x, y)`, which must lie on the field.
    #[inline]
    pub fn set(&mut self, x: u32, y: u32, value: bool) {
        let (w, b) = self.locate(x, y);
        if value {
            self.words[w] |= 1 << b;
        } else {
            self.words[w] &= !(1 << b);
        }
    }

    /// 64 bits of padded row `row` (0 = the padding row above the map, so map
    /// row `y` is `y + 1`) starting at padded bit position `pos`
    /// (`x + 64` for map column `x`): bit `k` is position `pos + k`.
    #[inline]
    fn window_at(&self, row: usize, pos: usize) -> u64 {
        let base = row * self.stride + pos / 64;
        let shift = pos % 64;
        let lo = self.words[base];
        if shift == 0 {
            lo
        } else {
            let hi = self.words[base + 1];
            (lo >> shift) | (hi << (64 - shift))
        }
    }

    /// Bits of cells `x, x+1, ..., x+63` in map row `y` (which may be -1 or
    /// `height`, the padding rows): bit `k` is cell `x + k`. Cells past the
    /// right edge read as zero.
    #[inline]
    pub fn window_right(&self, x: u32, y: i64) -> u64 {
        debug_assert!(x <= self.width && (-1..=self.height as i64).contains(&y));
        self.window_at((y + 1) as usize, LEFT_PAD_BITS + x as usize)
    }

    /// Bits of cells `x, x-1, ..., x-63` in map row `y` (which may be -1 or
    /// `height`): bit `63 - k` is cell `x - k`. Cells left of the map read as
    /// zero.
    #[inline]
    pub fn window_left(&self, x: u32, y: i64) -> u64 {
        debug_assert!(x < self.width && (-1..=self.height as i64).contains(&y));
        self.window_at((y + 1) as usize, LEFT_PAD_BITS + x as usize - 63)
    }

    /// Map row `y` 64 cells at a time, left to right: the first cell's
    /// `x`, the bits of the cells from there (bit `k` is cell `x + k`, zero
    /// past the right edge) and how many of those 64 are on the map.
    #[inline]
    pub fn row_words(&self, y: u32) -> impl Iterator<Item = (u32, u64, u32)> + '_ {
        (0..self.width).step_by(64).map(move |x| {
            (
                x,
                self.window_right(x, i64::from(y)),
                (self.width - x).min(64),
            )
        })
    }

    /// Map row `y` as one mark a cell, into `out` (its first `width`
    /// entries): `clear` for a cell whose bit is clear, `clear + 1` for one
    /// whose bit is set, 64 cells at a time.
    #[inline]
    pub fn mark_row(&self, y: u32, clear: u16, out: &mut [u16]) {
        for (x, bits, cells) in self.row_words(y) {
            let marks = &mut out[x as usize..][..cells as usize];
            for (k, mark) in marks.iter_mut().enumerate() {
                *mark = clear + (bits >> k & 1) as u16;
            }
        }
    }

    /// Number of set bits on the whole field.
    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_marked_a_cell_at_a_time() {
        for width in [1u32, 63, 64, 65, 130] {
            let mut bits = BitRows::new(width, 2);
            for x in (0..width).step_by(3) {
                bits.set(x, 1, true);
            }
            let mut marks = vec![0u16; width as usize + 1];
            bits.mark_row(1, 7, &mut marks);
            for x in 0..width {
                assert_eq!(marks[x as usize], 7 + u16::from(x % 3 == 0), "{width}: {x}");
            }
            assert_eq!(marks[width as usize], 0, "{width}: past the row");
        }
    }

    #[test]
    fn windows_read_cells_and_padding() {
        for width in [1u32, 2, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129] {
            let mut bits = BitRows::new(width, 3);
            for x in (0..width).step_by(3) {
                bits.set(x, 1, true);
            }
            for x in 0..width {
                let right = bits.window_right(x, 1);
                let left = bits.window_left(x, 1);
                for k in 0..64u32 {
                    let expect_r = x + k < width && (x + k) % 3 == 0;
                    assert_eq!(right >> k & 1 != 0, expect_r, "w{width} x{x} k{k}");
                    let expect_l = k <= x && (x - k) % 3 == 0;
                    assert_eq!(left >> (63 - k) & 1 != 0, expect_l, "w{width} x{x} k{k}");
                }
                assert_eq!(bits.window_right(x, -1), 0);
                assert_eq!(bits.window_left(x, 3), 0);
            }
        }
    }
}
