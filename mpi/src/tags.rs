//! Ranges of data tags booked by the application (`starpu_mpi_tags_allocate` / `_free`):
//! every process books the same ranges in the same order, so they get the same values.

use crate::context::Mpi;
use starpu_core::{Error, Result};
use std::sync::Mutex;

/// Booked ranges `[min, max)`, sorted.
#[derive(Default)]
pub(crate) struct TagRanges(Mutex<Vec<(i64, i64)>>);

/// The largest tag value + 1 ranges are taken below (StarPU uses MPI's tag upper bound).
pub const TAGS_UB: i64 = i32::MAX as i64;

impl TagRanges {
    fn allocate(&self, n: i64, ub: i64) -> Result<i64> {
        if n <= 0 {
            return Err(Error::invalid(format!("cannot book {n} tags")));
        }
        let mut ranges = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut min = 0;
        let mut at = 0;
        for (i, &(lo, hi)) in ranges.iter().enumerate() {
            if lo - min >= n {
                break;
            }
            min = hi;
            at = i + 1;
        }
        if ub - min < n {
            return Err(Error::invalid(format!("no room left for {n} more tags")));
        }
        ranges.insert(at, (min, min + n));
        Ok(min)
    }

    fn free(&self, min: i64) -> Result<()> {
        let mut ranges = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let i = ranges
            .iter()
            .position(|r| r.0 == min)
            .ok_or_else(|| Error::invalid(format!("no tag range starts at {min}")))?;
        ranges.remove(i);
        Ok(())
    }
}

impl Mpi {
    /// Books `n` consecutive tags; returns the first.
    pub fn tags_allocate(&self, n: i64) -> Result<i64> {
        self.tag_ranges.allocate(n, TAGS_UB)
    }

    /// Gives back the range `tags_allocate` returned `min` for.
    pub fn tags_free(&self, min: i64) -> Result<()> {
        self.tag_ranges.free(min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_fill_the_first_gap_that_fits() {
        let t = TagRanges::default();
        assert_eq!(t.allocate(10, 100).unwrap(), 0);
        assert_eq!(t.allocate(5, 100).unwrap(), 10);
        assert_eq!(t.allocate(20, 100).unwrap(), 15);
        t.free(10).unwrap();
        assert_eq!(
            t.allocate(6, 100).unwrap(),
            35,
            "the freed gap is too small"
        );
        assert_eq!(t.allocate(5, 100).unwrap(), 10);
        assert!(t.allocate(100, 100).is_err());
        assert!(t.free(7).is_err());
        assert!(t.allocate(0, 100).is_err());
    }
}
