//! Element types of registered data, so that a kernel's typed view can check it reads the
//! data as the type it was registered with.

/// The element type recorded when data is registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ElemKind {
    /// Not known (data registered from C or as raw bytes): views check the size only.
    #[default]
    Unknown,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Isize,
    Usize,
}

/// A plain element type that data may be made of and kernels may view it as.
///
/// # Safety
/// Every bit pattern of `size_of::<Self>()` bytes must be a valid value (the runtime
/// allocates zeroed buffers, and other languages write these buffers).
pub unsafe trait Element: Copy + Send + Sync + 'static {
    const KIND: ElemKind;
}

macro_rules! elements {
    ($($t:ty => $k:ident),* $(,)?) => {
        $(
            // SAFETY: a primitive number: every bit pattern is a value.
            unsafe impl Element for $t {
                const KIND: ElemKind = ElemKind::$k;
            }
        )*
    };
}

elements!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32,
    u64 => U64, f32 => F32, f64 => F64, isize => Isize, usize => Usize);

impl ElemKind {
    /// Whether data recorded as `self` may be viewed as `T`.
    pub fn accepts<T: Element>(self) -> bool {
        self == ElemKind::Unknown || self == T::KIND
    }
}
