/* The four StarPU codelets of the tiled Cholesky (POTRF, TRSM, SYRK, GEMM on nb x nb
 * column-major tiles, kernels from chol_common.h), each with a history-based model.
 * Shared by bench_cholesky.c and the distributed Cholesky (examples/mpi/cholesky.c). */
#ifndef CHOL_CODELETS_H
#define CHOL_CODELETS_H

#include <starpu.h>
#include "chol_common.h"

static void potrf_cpu(void *buffers[], void *arg)
{
	(void)arg;
	double *a = (double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	int nb = STARPU_MATRIX_GET_NX(buffers[0]);
	int info = k_potrf(a, nb, STARPU_MATRIX_GET_LD(buffers[0]));
	if (info != 0) {
		fprintf(stderr, "dpotrf failed: info=%d\n", info);
		abort();
	}
}

static void trsm_cpu(void *buffers[], void *arg)
{
	(void)arg;
	const double *akk = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	double *aik = (double *)STARPU_MATRIX_GET_PTR(buffers[1]);
	k_trsm(akk, STARPU_MATRIX_GET_LD(buffers[0]), aik,
	       STARPU_MATRIX_GET_NX(buffers[1]), STARPU_MATRIX_GET_NY(buffers[1]),
	       STARPU_MATRIX_GET_LD(buffers[1]));
}

static void syrk_cpu(void *buffers[], void *arg)
{
	(void)arg;
	const double *aik = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	double *aii = (double *)STARPU_MATRIX_GET_PTR(buffers[1]);
	k_syrk(aik, STARPU_MATRIX_GET_LD(buffers[0]), aii,
	       STARPU_MATRIX_GET_NX(buffers[1]), STARPU_MATRIX_GET_NY(buffers[0]),
	       STARPU_MATRIX_GET_LD(buffers[1]));
}

static void gemm_cpu(void *buffers[], void *arg)
{
	(void)arg;
	const double *aik = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	const double *ajk = (const double *)STARPU_MATRIX_GET_PTR(buffers[1]);
	double *aij = (double *)STARPU_MATRIX_GET_PTR(buffers[2]);
	k_gemm(aik, STARPU_MATRIX_GET_LD(buffers[0]), ajk, STARPU_MATRIX_GET_LD(buffers[1]),
	       aij, STARPU_MATRIX_GET_NX(buffers[2]), STARPU_MATRIX_GET_NY(buffers[2]),
	       STARPU_MATRIX_GET_NY(buffers[0]), STARPU_MATRIX_GET_LD(buffers[2]));
}

static struct starpu_perfmodel potrf_model = { .type = STARPU_HISTORY_BASED, .symbol = "anchor_chol_potrf" };
static struct starpu_perfmodel trsm_model  = { .type = STARPU_HISTORY_BASED, .symbol = "anchor_chol_trsm" };
static struct starpu_perfmodel syrk_model  = { .type = STARPU_HISTORY_BASED, .symbol = "anchor_chol_syrk" };
static struct starpu_perfmodel gemm_model  = { .type = STARPU_HISTORY_BASED, .symbol = "anchor_chol_gemm" };

static struct starpu_codelet potrf_cl = {
	.cpu_funcs = { potrf_cpu }, .nbuffers = 1, .modes = { STARPU_RW },
	.model = &potrf_model, .name = "potrf",
};
static struct starpu_codelet trsm_cl = {
	.cpu_funcs = { trsm_cpu }, .nbuffers = 2, .modes = { STARPU_R, STARPU_RW },
	.model = &trsm_model, .name = "trsm",
};
static struct starpu_codelet syrk_cl = {
	.cpu_funcs = { syrk_cpu }, .nbuffers = 2, .modes = { STARPU_R, STARPU_RW },
	.model = &syrk_model, .name = "syrk",
};
static struct starpu_codelet gemm_cl = {
	.cpu_funcs = { gemm_cpu }, .nbuffers = 3, .modes = { STARPU_R, STARPU_R, STARPU_RW },
	.model = &gemm_model, .name = "gemm",
};

#endif
