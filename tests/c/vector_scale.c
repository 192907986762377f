/* vector_scale: the vector interface seen from a CPU kernel.
 *
 * A vector of floats is registered in place and scaled by a factor passed in
 * cl_arg; the kernel reads its size and element size with
 * STARPU_VECTOR_GET_NX / STARPU_VECTOR_GET_ELEMSIZE and its data with
 * STARPU_VECTOR_GET_PTR.  Then y = a*x + y with two vectors (STARPU_R and
 * STARPU_RW) through starpu_task_insert.  The codelet carries a
 * history-based performance model, as StarPU's own example does.
 */
#include "test_common.h"

#define NX 10007

static int bad_geometry;  /* set by a kernel that sees the wrong nx/elemsize */

static void scale_cpu(void *buffers[], void *cl_arg)
{
	float factor = *(float *)cl_arg;
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	float *v = (float *)STARPU_VECTOR_GET_PTR(buffers[0]);
	if (n != NX || STARPU_VECTOR_GET_ELEMSIZE(buffers[0]) != sizeof(float))
		bad_geometry = 1;
	for (unsigned i = 0; i < n; i++)
		v[i] *= factor;
}

static struct starpu_perfmodel scale_model = {
	.type = STARPU_HISTORY_BASED,
	.symbol = "tests_c_vector_scale",
};

static struct starpu_codelet scale_cl = {
	.cpu_funcs = { scale_cpu },
	.cpu_funcs_name = { "scale_cpu" },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.model = &scale_model,
	.name = "vector_scale",
};

static void axpy_cpu(void *buffers[], void *cl_arg)
{
	double a;
	starpu_codelet_unpack_args(cl_arg, &a);
	const double *x = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	double *y = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[1]);
	if (STARPU_VECTOR_GET_NX(buffers[0]) != n)
		bad_geometry = 1;
	for (unsigned i = 0; i < n; i++)
		y[i] += a * x[i];
}

static struct starpu_codelet axpy_cl = {
	.cpu_funcs = { axpy_cpu },
	.nbuffers = 2,
	.modes = { STARPU_R, STARPU_RW },
	.name = "axpy",
};

int main(void)
{
	float *v = malloc(NX * sizeof(float));
	for (unsigned i = 0; i < NX; i++)
		v[i] = (float)(i + 1);

	tc_init();

	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, NX, sizeof(float));
	CHECK(starpu_vector_get_nx(h) == NX, "starpu_vector_get_nx = %u", (unsigned)starpu_vector_get_nx(h));
	CHECK(starpu_vector_get_elemsize(h) == sizeof(float), "starpu_vector_get_elemsize = %u",
	      (unsigned)starpu_vector_get_elemsize(h));

	float factor = 2.5f;
	struct starpu_task *task = starpu_task_create();
	task->cl = &scale_cl;
	task->handles[0] = h;
	task->cl_arg = &factor;
	task->cl_arg_size = sizeof(factor);
	MUST(starpu_task_submit(task));

	/* a second scaling, submitted right away: implicit RW -> RW ordering.
	 * STARPU_CL_ARGS_NFREE hands the kernel this very buffer as cl_arg. */
	float factor2 = -0.5f;
	MUST(starpu_task_insert(&scale_cl, STARPU_RW, h, STARPU_CL_ARGS_NFREE, &factor2, sizeof(factor2), 0));
	starpu_task_wait_for_all();
	starpu_data_unregister(h);

	unsigned bad = 0;
	for (unsigned i = 0; i < NX; i++) {
		float expected = ((float)(i + 1) * 2.5f) * -0.5f;
		if (v[i] != expected) {
			if (bad++ < 5)
				CHECK(v[i] == expected, "v[%u] = %g, expected %g", i, v[i], expected);
		}
	}
	CHECK(bad == 0, "%u of %u elements wrong", bad, NX);

	/* y = a*x + y, twice */
	double *x = malloc(NX * sizeof(double)), *y = malloc(NX * sizeof(double));
	for (unsigned i = 0; i < NX; i++) {
		x[i] = (double)i;
		y[i] = 1.0;
	}
	starpu_data_handle_t hx, hy;
	starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)x, NX, sizeof(double));
	starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)y, NX, sizeof(double));
	double a = 3.0, b = -1.0;
	MUST(starpu_task_insert(&axpy_cl, STARPU_R, hx, STARPU_RW, hy, STARPU_VALUE, &a, sizeof(a), 0));
	MUST(starpu_task_insert(&axpy_cl, STARPU_R, hx, STARPU_RW, hy, STARPU_VALUE, &b, sizeof(b), 0));
	starpu_task_wait_for_all();
	starpu_data_unregister(hx);
	starpu_data_unregister(hy);
	bad = 0;
	for (unsigned i = 0; i < NX; i++) {
		double expected = 1.0 + 2.0 * i;
		if (y[i] != expected || x[i] != (double)i) {
			if (bad++ < 5)
				CHECK(0, "y[%u] = %g (expected %g), x[%u] = %g (expected %u)", i, y[i], expected, i, x[i], i);
		}
	}
	CHECK(bad == 0, "axpy: %u of %u elements wrong", bad, NX);
	CHECK(!bad_geometry, "a kernel saw a wrong nx or elemsize");

	starpu_shutdown();
	free(v); free(x); free(y);
	return tc_finish("vector_scale");
}
