/* starpu_cublas_v2.h: the CUDA worker's cuBLAS handle (StarPU 1.4), implemented by
 * starpu-rs. Declared only when the library was built with CUDA's headers present
 * (starpu_config.h defines STARPU_USE_CUDA), as in StarPU. */
#ifndef __STARPU_CUBLAS_V2_H__
#define __STARPU_CUBLAS_V2_H__

#include <starpu.h>

#ifdef STARPU_USE_CUDA
#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The calling CUDA worker's handle, on its stream (NULL outside a CUDA worker). */
cublasHandle_t starpu_cublas_get_local_handle(void);

#ifdef __cplusplus
}
#endif

#endif /* STARPU_USE_CUDA */
#endif /* __STARPU_CUBLAS_V2_H__ */
