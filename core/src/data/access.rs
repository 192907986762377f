//! Access modes: how a task uses a piece of data (StarPU's `enum starpu_data_access_mode`).
//!
//! The numeric values are StarPU's, so a mode crosses every binding unchanged. The bits are
//! sealed: a mode is one of the constants below, a combination of them (`|`), or bits a face
//! was given, checked by [`AccessMode::given`]; a face never builds one from raw bits.

use crate::error::{Error, Result};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AccessMode(u32);

impl AccessMode {
    pub const NONE: AccessMode = AccessMode(0);
    pub const R: AccessMode = AccessMode(1 << 0);
    pub const W: AccessMode = AccessMode(1 << 1);
    pub const RW: AccessMode = AccessMode(Self::R.0 | Self::W.0);
    pub const SCRATCH: AccessMode = AccessMode(1 << 2);
    pub const REDUX: AccessMode = AccessMode(1 << 3);
    pub const COMMUTE: AccessMode = AccessMode(1 << 4);
    pub const SSEND: AccessMode = AccessMode(1 << 5);
    pub const LOCALITY: AccessMode = AccessMode(1 << 6);
    pub const MPI_REDUX: AccessMode = AccessMode(1 << 7);
    pub const NOPLAN: AccessMode = AccessMode(1 << 8);
    pub const UNMAP: AccessMode = AccessMode(1 << 9);
    /// Everything at or above this bit is not an access mode (task_insert keys live there).
    pub const MAX: AccessMode = AccessMode(1 << 10);

    const BASE_MASK: u32 = Self::RW.0 | Self::SCRATCH.0 | Self::REDUX.0 | Self::MPI_REDUX.0;
    const FLAG_MASK: u32 =
        Self::COMMUTE.0 | Self::SSEND.0 | Self::LOCALITY.0 | Self::NOPLAN.0 | Self::UNMAP.0;

    /// StarPU's bits of this mode (`enum starpu_data_access_mode`).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// This mode with `other`'s bits too (`|` in constant expressions).
    pub const fn union(self, other: AccessMode) -> AccessMode {
        AccessMode(self.0 | other.0)
    }

    /// This mode without `other`'s bits (a flag taken off).
    pub const fn without(self, other: AccessMode) -> AccessMode {
        AccessMode(self.0 & !other.0)
    }

    /// The mode a face was given as StarPU's bits: 0 is `NONE` ("the codelet's mode", which
    /// submission resolves, see `Codelet::check_buffer`), anything else must be a valid
    /// mode (`from_bits`).
    pub fn given(bits: u32) -> Result<AccessMode> {
        if bits == 0 {
            Ok(AccessMode::NONE)
        } else {
            AccessMode::from_bits(bits)
        }
    }

    /// Bits exactly as an application wrote them (a C codelet's `modes[i]`), carried to
    /// submission, where `Codelet::check_buffer` checks them and reports a bad mode with
    /// the buffer it belongs to. Anything else builds modes from the constants or with
    /// [`AccessMode::given`].
    pub const fn from_bits_retain(bits: u32) -> AccessMode {
        AccessMode(bits)
    }

    /// Every mode and flag name with its bits, for faces that generate their constants
    /// (Java's `AccessMode`, Fortran's `FSTARPU_*`) from the core's list.
    pub const NAMED: [(&'static str, AccessMode); 11] = [
        ("R", Self::R),
        ("W", Self::W),
        ("RW", Self::RW),
        ("SCRATCH", Self::SCRATCH),
        ("REDUX", Self::REDUX),
        ("COMMUTE", Self::COMMUTE),
        ("SSEND", Self::SSEND),
        ("LOCALITY", Self::LOCALITY),
        ("MPI_REDUX", Self::MPI_REDUX),
        ("NOPLAN", Self::NOPLAN),
        ("UNMAP", Self::UNMAP),
    ];

    /// The mode StarPU's names (`NAMED`) joined by `|` spell, as faces without C's
    /// constants write modes (`"RW|COMMUTE"`), checked as `from_bits` checks bits.
    pub fn parse(text: &str) -> Result<AccessMode> {
        let mut bits = 0;
        for part in text.split('|') {
            let Some((_, m)) = Self::NAMED.iter().find(|(name, _)| *name == part) else {
                let names: Vec<&str> = Self::NAMED.iter().map(|(n, _)| *n).collect();
                return Err(Error::invalid(format!(
                    "invalid access mode {text:?}: {part:?} is not one of {}",
                    names.join(", ")
                )));
            };
            bits |= m.bits();
        }
        Self::from_bits(bits)
            .map_err(|e| Error::invalid(format!("invalid access mode {text:?}: {}", e.message)))
    }

    /// Checks that `bits` is one base mode (R, W, RW, SCRATCH, REDUX) plus optional flags.
    pub fn from_bits(bits: u32) -> Result<AccessMode> {
        // One base mode (R=1, W=2, RW=3, SCRATCH=4, REDUX=8, MPI_REDUX=128) and flags.
        let valid_base = matches!(bits & Self::BASE_MASK, 1 | 2 | 3 | 4 | 8 | 128);
        if !valid_base || bits & !(Self::BASE_MASK | Self::FLAG_MASK) != 0 {
            return Err(Error::invalid(format!(
                "invalid access mode {bits:#x} (expected STARPU_R, STARPU_W, STARPU_RW, \
                 STARPU_SCRATCH or STARPU_REDUX, optionally with STARPU_COMMUTE)"
            )));
        }
        Ok(AccessMode(bits))
    }

    /// The mode without its flag bits (COMMUTE, LOCALITY, ...).
    pub fn base(self) -> AccessMode {
        AccessMode(self.0 & Self::BASE_MASK)
    }

    pub fn contains(self, other: AccessMode) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn reads(self) -> bool {
        self.0 & Self::R.0 != 0
    }

    /// Whether the access changes the data others see (W, RW, REDUX; not SCRATCH).
    pub fn writes(self) -> bool {
        self.0 & (Self::W.0 | Self::REDUX.0 | Self::MPI_REDUX.0) != 0
    }

    pub fn is_scratch(self) -> bool {
        self.base() == Self::SCRATCH
    }

    /// A reduction contribution (`STARPU_REDUX`).
    pub fn is_redux(self) -> bool {
        self.base() == Self::REDUX
    }

    pub fn is_commute(self) -> bool {
        self.0 & Self::COMMUTE.0 != 0
    }
}

impl std::ops::BitOr for AccessMode {
    type Output = AccessMode;
    fn bitor(self, rhs: AccessMode) -> AccessMode {
        AccessMode(self.0 | rhs.0)
    }
}

impl fmt::Debug for AccessMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = match self.base() {
            Self::R => "R",
            Self::W => "W",
            Self::RW => "RW",
            Self::SCRATCH => "SCRATCH",
            Self::REDUX => "REDUX",
            Self::MPI_REDUX => "MPI_REDUX",
            Self::NONE => "NONE",
            _ => "?",
        };
        f.write_str(base)?;
        if self.is_commute() {
            f.write_str("|COMMUTE")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_modes_and_flags() {
        assert_eq!(AccessMode::from_bits(3).unwrap(), AccessMode::RW);
        let m = AccessMode::from_bits(AccessMode::RW.0 | AccessMode::COMMUTE.0).unwrap();
        assert!(m.is_commute() && m.reads() && m.writes());
        assert!(AccessMode::SCRATCH.is_scratch() && !AccessMode::SCRATCH.writes());
        assert_eq!(format!("{m:?}"), "RW|COMMUTE");
    }

    #[test]
    fn given_bits_are_checked_and_zero_means_the_codelet_mode() {
        assert_eq!(AccessMode::given(0).unwrap(), AccessMode::NONE);
        assert_eq!(AccessMode::given(3).unwrap(), AccessMode::RW);
        assert!(AccessMode::given(1 << 17).is_err());
        assert_eq!(AccessMode::RW.union(AccessMode::COMMUTE).bits(), 3 | 16);
        let names: Vec<_> = AccessMode::NAMED.iter().map(|(n, _)| *n).collect();
        assert!(names.contains(&"COMMUTE") && names.contains(&"REDUX"));
    }

    #[test]
    fn modes_parse_from_their_names() {
        assert_eq!(AccessMode::parse("RW").unwrap(), AccessMode::RW);
        let rc = AccessMode::parse("R|COMMUTE").unwrap();
        assert_eq!(rc, AccessMode::R.union(AccessMode::COMMUTE));
        let e = AccessMode::parse("RX").unwrap_err();
        assert!(
            e.message.contains("\"RX\" is not one of R, W, RW"),
            "{}",
            e.message
        );
        // Names that are known but do not make a mode (a flag alone) are refused too.
        let e = AccessMode::parse("COMMUTE").unwrap_err();
        assert!(
            e.message.starts_with("invalid access mode \"COMMUTE\""),
            "{}",
            e.message
        );
    }

    #[test]
    fn invalid_modes_are_rejected() {
        assert!(AccessMode::from_bits(0).is_err());
        assert!(AccessMode::from_bits(AccessMode::COMMUTE.0).is_err());
        assert!(AccessMode::from_bits(AccessMode::R.0 | AccessMode::SCRATCH.0).is_err());
        assert!(AccessMode::from_bits(1 << 17).is_err());
    }
}
