//! The numbers this library and `fr.labri.hpccloud.starpu.internal.Native` agree on: the
//! Java class declares them as `public static final int` constants of the same names, and
//! a test (`codegen.rs`) checks that it declares every one with the same value.

use jni::sys::jint;

/// Element kinds of registered buffers.
pub(crate) const KIND_BYTE: jint = 0;
pub(crate) const KIND_INT: jint = 1;
pub(crate) const KIND_LONG: jint = 2;
pub(crate) const KIND_FLOAT: jint = 3;
pub(crate) const KIND_DOUBLE: jint = 4;
/// Shapes of registered buffers.
pub(crate) const SHAPE_VARIABLE: jint = 0;
pub(crate) const SHAPE_VECTOR: jint = 1;
pub(crate) const SHAPE_MATRIX: jint = 2;
/// Submission flags.
pub(crate) const SYNC: jint = 1;
pub(crate) const NODETACH: jint = 2;
pub(crate) const TAGGED: jint = 4;
/// How a handle is unregistered.
pub(crate) const UNREGISTER: jint = 0;
pub(crate) const UNREGISTER_NO_COHERENCY: jint = 1;
pub(crate) const UNREGISTER_SUBMIT: jint = 2;
/// Filters.
pub(crate) const FILTER_VECTOR_BLOCK: jint = 0;
pub(crate) const FILTER_MATRIX_BLOCK: jint = 1;
pub(crate) const FILTER_MATRIX_VERTICAL_BLOCK: jint = 2;
/// Partition plan switches.
pub(crate) const PLAN_PARTITION: jint = 0;
pub(crate) const PLAN_PARTITION_READONLY: jint = 1;
pub(crate) const PLAN_READWRITE_UPGRADE: jint = 2;
pub(crate) const PLAN_READONLY_DOWNGRADE: jint = 3;
pub(crate) const PLAN_UNPARTITION: jint = 4;
pub(crate) const PLAN_UNPARTITION_READONLY: jint = 5;
pub(crate) const PLAN_CLEAN: jint = 6;
/// Codelet types (`CodeletType`'s constants).
pub(crate) const TYPE_SEQ: jint = 0;
pub(crate) const TYPE_SPMD: jint = 1;
pub(crate) const TYPE_FORKJOIN: jint = 2;
/// The entries of the array `Native.layout` returns.
pub(crate) const LAYOUT_ADDRESS: usize = 0;
pub(crate) const LAYOUT_NX: usize = 1;
pub(crate) const LAYOUT_NY: usize = 2;
pub(crate) const LAYOUT_LD: usize = 3;

/// Every constant with its name, for the test.
#[cfg(test)]
pub(crate) const ALL: &[(&str, i64)] = &[
    ("KIND_BYTE", KIND_BYTE as i64),
    ("KIND_INT", KIND_INT as i64),
    ("KIND_LONG", KIND_LONG as i64),
    ("KIND_FLOAT", KIND_FLOAT as i64),
    ("KIND_DOUBLE", KIND_DOUBLE as i64),
    ("SHAPE_VARIABLE", SHAPE_VARIABLE as i64),
    ("SHAPE_VECTOR", SHAPE_VECTOR as i64),
    ("SHAPE_MATRIX", SHAPE_MATRIX as i64),
    ("SYNC", SYNC as i64),
    ("NODETACH", NODETACH as i64),
    ("TAGGED", TAGGED as i64),
    ("UNREGISTER", UNREGISTER as i64),
    ("UNREGISTER_NO_COHERENCY", UNREGISTER_NO_COHERENCY as i64),
    ("UNREGISTER_SUBMIT", UNREGISTER_SUBMIT as i64),
    ("FILTER_VECTOR_BLOCK", FILTER_VECTOR_BLOCK as i64),
    ("FILTER_MATRIX_BLOCK", FILTER_MATRIX_BLOCK as i64),
    (
        "FILTER_MATRIX_VERTICAL_BLOCK",
        FILTER_MATRIX_VERTICAL_BLOCK as i64,
    ),
    ("PLAN_PARTITION", PLAN_PARTITION as i64),
    ("PLAN_PARTITION_READONLY", PLAN_PARTITION_READONLY as i64),
    ("PLAN_READWRITE_UPGRADE", PLAN_READWRITE_UPGRADE as i64),
    ("PLAN_READONLY_DOWNGRADE", PLAN_READONLY_DOWNGRADE as i64),
    ("PLAN_UNPARTITION", PLAN_UNPARTITION as i64),
    (
        "PLAN_UNPARTITION_READONLY",
        PLAN_UNPARTITION_READONLY as i64,
    ),
    ("PLAN_CLEAN", PLAN_CLEAN as i64),
    ("TYPE_SEQ", TYPE_SEQ as i64),
    ("TYPE_SPMD", TYPE_SPMD as i64),
    ("TYPE_FORKJOIN", TYPE_FORKJOIN as i64),
    ("LAYOUT_ADDRESS", LAYOUT_ADDRESS as i64),
    ("LAYOUT_NX", LAYOUT_NX as i64),
    ("LAYOUT_NY", LAYOUT_NY as i64),
    ("LAYOUT_LD", LAYOUT_LD as i64),
];
