/* Small helpers shared by the C API tests in tests/c (and, through
 * tests/mpi/mpi_test.h, the StarPU-MPI tests).
 *
 * Every test exits 0 only when every value it computed is right; each failed
 * check prints what was expected and what was found, and the test then
 * exits 1.  A runtime with no worker at all exits 77 (the usual "skipped"
 * code), which tests/c/run.sh counts as a failure.
 */
#ifndef TESTS_C_TEST_COMMON_H
#define TESTS_C_TEST_COMMON_H

#include <starpu.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tc_failures;

/* What a failure message starts with: nothing here; tests/mpi/mpi_test.h, which includes
 * this file, names the rank. */
#ifndef TC_WHO_FMT
#define TC_WHO_FMT ""
#define TC_WHO_ARGS
#endif

/* CHECK(cond, fmt, ...): record a failure (and say why) when cond is false. */
#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			tc_failures++;                                         \
			fprintf(stderr, TC_WHO_FMT "%s:%d: check failed: %s: ", \
				TC_WHO_ARGS __FILE__, __LINE__, #cond);        \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
		}                                                              \
	} while (0)

/* MUST(call): a StarPU call that has to return 0; anything else ends the test. */
#define MUST(call)                                                             \
	do {                                                                   \
		int tc_ret_ = (call);                                          \
		if (tc_ret_ != 0) {                                            \
			fprintf(stderr, TC_WHO_FMT "%s:%d: %s returned %d\n",  \
				TC_WHO_ARGS __FILE__, __LINE__, #call, tc_ret_); \
			exit(1);                                               \
		}                                                              \
	} while (0)

/* starpu_init with `ncpus` CPU workers (-1: StarPU's default), or exit 77 when there
 * is no worker at all. */
static inline void tc_init_ncpus(int ncpus)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	if (ncpus >= 0)
		conf.ncpus = ncpus;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV) {
		fprintf(stderr, "starpu_init: no worker available\n");
		exit(77);
	}
	if (ret != 0) {
		fprintf(stderr, "starpu_init returned %d\n", ret);
		exit(1);
	}
}

/* starpu_init(NULL), or exit 77 when there is no worker at all. */
static inline void tc_init(void)
{
	tc_init_ncpus(-1);
}

/* A CPU function doing nothing, for the tasks whose running alone a test observes. */
static inline void tc_noop(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

/* m = m * a + b on every element of `buf`, a matrix of ints. */
static inline void tc_matrix_affine(void *buf, int a, int b)
{
	int nx = STARPU_MATRIX_GET_NX(buf), ny = STARPU_MATRIX_GET_NY(buf);
	int ld = STARPU_MATRIX_GET_LD(buf);
	int *m = (int *)STARPU_MATRIX_GET_PTR(buf);
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++)
			m[y * ld + x] = m[y * ld + x] * a + b;
}

/* How many elements (x, y) of `buf`, a matrix of ints that is the piece at (x0, y0) of a
 * whole matrix, differ from want(x0 + x, y0 + y, k). */
static inline int tc_matrix_mismatches(void *buf, int x0, int y0, int (*want)(int x, int y, int k), int k)
{
	int nx = STARPU_MATRIX_GET_NX(buf), ny = STARPU_MATRIX_GET_NY(buf);
	int ld = STARPU_MATRIX_GET_LD(buf);
	const int *m = (const int *)STARPU_MATRIX_GET_PTR(buf);
	int bad = 0;
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++)
			bad += m[y * ld + x] != want(x0 + x, y0 + y, k);
	return bad;
}

/* starpu_init with one CPU worker and the OpenCL devices there are; without any, say so
 * and exit 78 (skipped). */
static inline void tc_init_opencl(void)
{
	tc_init_ncpus(1);
	if (starpu_opencl_worker_get_count() == 0) {
		fprintf(stderr, "skipped: no OpenCL device (install pocl-opencl-icd; PoCL needs STARPU_OPENCL_ON_CPUS=1)\n");
		starpu_shutdown();
		exit(78);
	}
}

/* The whole main() of a test of what this libstarpu was built without: skipped (78). */
#define TC_SKIPPED_MAIN(why)                                                   \
	int main(void)                                                         \
	{                                                                      \
		printf("skipped: %s\n", why);                                 \
		return 78;                                                     \
	}

/* Checks that the tasks ran in the order of priorities `want` (n of them): `got` holds
 * the priorities of the `ngot` tasks that ran, in the order they ran. */
static inline void tc_check_priorities(const char *what, const int *got, int ngot, const int *want, int n)
{
	CHECK(ngot == n, "%s: %d tasks ran, %d expected", what, ngot, n);
	for (int i = 0; i < n && i < ngot; i++)
		CHECK(got[i] == want[i], "%s: task %d had priority %d, expected %d", what, i, got[i],
		      want[i]);
}

/* End of main(): one summary line, and the exit status. */
static inline int tc_finish(const char *name)
{
	if (tc_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, tc_failures);
		return 1;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}

#endif
