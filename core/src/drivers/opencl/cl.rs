//! The few OpenCL constants the driver uses (values of the Khronos headers, part of the
//! OpenCL ABI).
#![allow(dead_code)]

pub const CL_SUCCESS: i32 = 0;
pub const CL_COMPLETE: i32 = 0;
pub const CL_TRUE: u32 = 1;
pub const CL_FALSE: u32 = 0;

pub const CL_DEVICE_TYPE_CPU: u64 = 1 << 1;
pub const CL_DEVICE_TYPE_GPU: u64 = 1 << 2;
pub const CL_DEVICE_TYPE_ACCELERATOR: u64 = 1 << 3;
pub const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;

pub const CL_PLATFORM_NAME: u32 = 0x0902;
pub const CL_DEVICE_TYPE: u32 = 0x1000;
pub const CL_DEVICE_VENDOR_ID: u32 = 0x1001;
pub const CL_DEVICE_GLOBAL_MEM_SIZE: u32 = 0x101F;
pub const CL_DEVICE_NAME: u32 = 0x102B;

pub const CL_QUEUE_PROPERTIES: u64 = 0x1093;
pub const CL_QUEUE_PROFILING_ENABLE: u64 = 1 << 1;

pub const CL_MEM_READ_WRITE: u64 = 1 << 0;

pub const CL_EVENT_COMMAND_EXECUTION_STATUS: u32 = 0x11D3;
pub const CL_PROFILING_COMMAND_START: u32 = 0x1282;
pub const CL_PROFILING_COMMAND_END: u32 = 0x1283;

pub const CL_PROGRAM_BINARY_SIZES: u32 = 0x1165;
pub const CL_PROGRAM_BINARIES: u32 = 0x1166;
pub const CL_PROGRAM_BUILD_STATUS: u32 = 0x1181;
pub const CL_PROGRAM_BUILD_LOG: u32 = 0x1183;
pub const CL_BUILD_SUCCESS: i32 = 0;

pub const CL_INVALID_VALUE: i32 = -30;
pub const CL_INVALID_PROGRAM: i32 = -44;
pub const CL_INVALID_KERNEL_NAME: i32 = -46;
pub const CL_BUILD_PROGRAM_FAILURE: i32 = -11;
pub const CL_MEM_OBJECT_ALLOCATION_FAILURE: i32 = -4;
pub const CL_OUT_OF_RESOURCES: i32 = -5;
pub const CL_OUT_OF_HOST_MEMORY: i32 = -6;
