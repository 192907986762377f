//! StarPU-MPI's envelope protocol: every transfer of a piece of data is an envelope (the
//! application's 64-bit tag, the size of the data, the MPI tag the data travels under)
//! followed by the data itself.
//!
//! The envelope is what lets the receiver match a transfer with a receive the application
//! posted (by source and 64-bit tag, which MPI tags cannot carry), allocate room for data
//! that arrives before its receive is posted, and check sizes before anything is written.
//! Envelopes travel under MPI tag 0 of the communicator's private duplicate; each data
//! message under its own tag, unique among the messages in flight between two processes.

/// Envelope flag: the sender asked for a synchronous send (`starpu_mpi_issend`): the
/// receiver takes the data only once the application posted the matching receive.
pub const SYNC: u32 = 1;

/// The MPI tag envelopes travel under.
pub const ENVELOPE_TAG: i32 = 0;

/// Data tags run from 1 to this value, then wrap.
const MAX_DATA_TAG: u32 = 1 << 30;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The application's tag (`starpu_mpi_tag_t`).
    pub tag: i64,
    /// Bytes of data that follow.
    pub size: u64,
    /// The MPI tag of the data message.
    pub data_tag: i32,
    pub flags: u32,
}

impl Envelope {
    pub const BYTES: usize = std::mem::size_of::<Envelope>();

    pub fn is_sync(&self) -> bool {
        self.flags & SYNC != 0
    }
}

/// The data tags a process uses towards one peer: consecutive values, wrapping before
/// MPI's guaranteed tag upper bound (32767 at least; Open MPI allows 2^31 - 1).
#[derive(Default)]
pub struct DataTags {
    next: u32,
}

impl DataTags {
    /// The tag for the next data message (never `ENVELOPE_TAG`).
    pub fn next(&mut self, tag_ub: u32) -> i32 {
        let limit = MAX_DATA_TAG.min(tag_ub.max(2));
        self.next = if self.next >= limit { 1 } else { self.next + 1 };
        self.next as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_tags_skip_the_envelope_tag_and_wrap() {
        let mut t = DataTags::default();
        assert_eq!(t.next(32767), 1);
        assert_eq!(t.next(32767), 2);
        let mut t = DataTags { next: 32766 };
        assert_eq!(t.next(32767), 32767);
        assert_eq!(t.next(32767), 1);
    }

    #[test]
    fn an_envelope_is_a_fixed_size_record() {
        assert_eq!(Envelope::BYTES, 24);
        let e = Envelope {
            flags: SYNC,
            ..Default::default()
        };
        assert!(e.is_sync());
    }
}
