/* starpu_cuda.h: StarPU's CUDA API (StarPU 1.4), implemented by starpu-rs.
 *
 * Declared only when the library was built with CUDA's headers present (starpu_config.h
 * defines STARPU_USE_CUDA), as in StarPU: the declarations need CUDA's types, and a
 * program with #ifdef STARPU_USE_CUDA sections includes CUDA's headers. The functions are
 * in every build of the library, answering "no CUDA device" without one.
 * One difference: STARPU_CUDA_REPORT_ERROR (and STARPU_CUBLAS_REPORT_ERROR) inside a
 * task's kernel fails that task (starpu_task_wait / starpu_task_wait_for_all report it)
 * instead of aborting the process; elsewhere it aborts, as StarPU does.
 * The GPU path was written on machines without a GPU: scripts/gpu-check.sh checks it. */
#ifndef __STARPU_CUDA_H__
#define __STARPU_CUDA_H__

#include <starpu.h>

#ifdef STARPU_USE_CUDA
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>

#ifndef __starpu_func__
#define __starpu_func__ __func__
#endif

#ifdef __cplusplus
extern "C" {
#endif

void starpu_cublas_report_error(const char *func, const char *file, int line, int status);
#define STARPU_CUBLAS_REPORT_ERROR(status) starpu_cublas_report_error(__starpu_func__, __FILE__, __LINE__, status)

void starpu_cuda_report_error(const char *func, const char *file, int line, cudaError_t status);
#define STARPU_CUDA_REPORT_ERROR(status) starpu_cuda_report_error(__starpu_func__, __FILE__, __LINE__, status)

/* The calling CUDA worker's stream (NULL outside a CUDA worker). */
cudaStream_t starpu_cuda_get_local_stream(void);

/* The properties of CUDA worker workerid's device (NULL for another worker). */
const struct cudaDeviceProp *starpu_cuda_get_device_properties(unsigned workerid);

/* -EAGAIN once queued on stream (not NULL), 0 once copied, a negative errno otherwise. */
int starpu_cuda_copy_async_sync(void *src_ptr, unsigned src_node, void *dst_ptr, unsigned dst_node, size_t ssize, cudaStream_t stream, enum cudaMemcpyKind kind);
int starpu_cuda_copy2d_async_sync(void *src_ptr, unsigned src_node, void *dst_ptr, unsigned dst_node,
				  size_t blocksize, size_t numblocks, size_t ld_src, size_t ld_dst,
				  cudaStream_t stream, enum cudaMemcpyKind kind);
int starpu_cuda_copy3d_async_sync(void *src_ptr, unsigned src_node, void *dst_ptr, unsigned dst_node,
				  size_t blocksize,
				  size_t numblocks_1, size_t ld1_src, size_t ld1_dst,
				  size_t numblocks_2, size_t ld2_src, size_t ld2_dst,
				  cudaStream_t stream, enum cudaMemcpyKind kind);

void starpu_cuda_set_device(unsigned devid);

#ifdef __cplusplus
}
#endif

#endif /* STARPU_USE_CUDA */
#endif /* __STARPU_CUDA_H__ */
