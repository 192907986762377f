/* starpu_cusolver.h: the CUDA worker's cuSOLVER handles (StarPU 1.4), implemented by
 * starpu-rs. starpu_cusolver_init / shutdown are in starpu.h; the rest needs CUDA's
 * types and is declared only when the library was built with CUDA's headers present
 * (starpu_config.h defines STARPU_USE_CUDA), as in StarPU. The sparse and refactorization
 * handles are not provided: their getters return NULL with a message. */
#ifndef __STARPU_CUSOLVER_H__
#define __STARPU_CUSOLVER_H__

#include <starpu.h>

#ifdef STARPU_USE_CUDA
#include <cusolverDn.h>
#include <cusolverSp.h>
#include <cusolverRf.h>

#ifndef __starpu_func__
#define __starpu_func__ __func__
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The calling CUDA worker's dense handle, on its stream (NULL outside a CUDA worker). */
cusolverDnHandle_t starpu_cusolverDn_get_local_handle(void);
cusolverSpHandle_t starpu_cusolverSp_get_local_handle(void);
cusolverRfHandle_t starpu_cusolverRf_get_local_handle(void);

void starpu_cusolver_report_error(const char *func, const char *file, int line, cusolverStatus_t status);
#define STARPU_CUSOLVER_REPORT_ERROR(status) starpu_cusolver_report_error(__starpu_func__, __FILE__, __LINE__, status)

#ifdef __cplusplus
}
#endif

#endif /* STARPU_USE_CUDA */
#endif /* __STARPU_CUSOLVER_H__ */
