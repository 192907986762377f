//! The numbers this library and `fr.labri.hpccloud.starpu.internal.Native` agree on: the
//! Java class declares them as `public static final int` constants of the same names, and
//! a test (`codegen.rs`) checks that it declares every one with the same value.

use jni::sys::jint;

/// Declares the constants, and `ALL` (each with its name) for the test.
macro_rules! protocol {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $value:expr;)*) => {
        $($(#[$doc])* pub(crate) const $name: $ty = $value;)*
        #[cfg(test)]
        pub(crate) const ALL: &[(&str, i64)] = &[$((stringify!($name), $name as i64)),*];
    };
}

protocol! {
    /// Element kinds of registered buffers.
    KIND_BYTE: jint = 0;
    KIND_INT: jint = 1;
    KIND_LONG: jint = 2;
    KIND_FLOAT: jint = 3;
    KIND_DOUBLE: jint = 4;
    /// Shapes of registered buffers.
    SHAPE_VARIABLE: jint = 0;
    SHAPE_VECTOR: jint = 1;
    SHAPE_MATRIX: jint = 2;
    /// Submission flags.
    SYNC: jint = 1;
    NODETACH: jint = 2;
    TAGGED: jint = 4;
    /// How a handle is unregistered.
    UNREGISTER: jint = 0;
    UNREGISTER_NO_COHERENCY: jint = 1;
    UNREGISTER_SUBMIT: jint = 2;
    /// Filters.
    FILTER_VECTOR_BLOCK: jint = 0;
    FILTER_MATRIX_BLOCK: jint = 1;
    FILTER_MATRIX_VERTICAL_BLOCK: jint = 2;
    /// Partition plan switches.
    PLAN_PARTITION: jint = 0;
    PLAN_PARTITION_READONLY: jint = 1;
    PLAN_READWRITE_UPGRADE: jint = 2;
    PLAN_READONLY_DOWNGRADE: jint = 3;
    PLAN_UNPARTITION: jint = 4;
    PLAN_UNPARTITION_READONLY: jint = 5;
    PLAN_CLEAN: jint = 6;
    /// Codelet types (`CodeletType`'s constants).
    TYPE_SEQ: jint = 0;
    TYPE_SPMD: jint = 1;
    TYPE_FORKJOIN: jint = 2;
    /// The entries of the array `Native.layout` returns.
    LAYOUT_ADDRESS: usize = 0;
    LAYOUT_NX: usize = 1;
    LAYOUT_NY: usize = 2;
    LAYOUT_LD: usize = 3;
    /// Where a codelet has implementations (`WorkerType`'s bits: StarPU's `where`).
    WHERE_CPU: jint = 1;
    WHERE_OPENCL: jint = 2;
    WHERE_CUDA: jint = 4;
    /// The entries of the arrays `Native.openclBuffer` and `cudaBuffer` return (in elements).
    BUFFER_FIRST: usize = 0;
    BUFFER_NX: usize = 1;
    BUFFER_NY: usize = 2;
    BUFFER_LD: usize = 3;
    BUFFER_ELEMSIZE: usize = 4;
    /// Kinds of kernel arguments (`Native.openclLaunch`, `cudaLaunch`).
    ARG_BUFFER: jint = 0;
    ARG_BYTE: jint = 1;
    ARG_SHORT: jint = 2;
    ARG_INT: jint = 3;
    ARG_LONG: jint = 4;
    ARG_FLOAT: jint = 5;
    ARG_DOUBLE: jint = 6;
    ARG_LOCAL: jint = 7;
}
