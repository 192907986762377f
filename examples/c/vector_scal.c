/* vector_scal: multiplies a vector by a factor, the factor passed by value with
 * starpu_task_insert, the vector cut in blocks that tasks scale in parallel. */
#include <starpu.h>
#include <math.h>

#define N 100000
#define NBLOCKS 8

static void scal_cpu(void *buffers[], void *cl_arg)
{
	float factor;
	starpu_codelet_unpack_args(cl_arg, &factor);
	float *v = (float *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] *= factor;
}

static struct starpu_perfmodel scal_model = {
	.type = STARPU_HISTORY_BASED,
	.symbol = "example_vector_scal",
};

static struct starpu_codelet scal_cl = {
	.cpu_funcs = {scal_cpu},
	.cpu_funcs_name = {"scal_cpu"},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.model = &scal_model,
	.name = "vector_scal",
};

int main(void)
{
	float *v;
	int ret = starpu_init(NULL);
	if (ret == -ENODEV)
		return 77;
	STARPU_CHECK_RETURN_VALUE(ret, "starpu_init");
	starpu_malloc((void **)&v, N * sizeof(float));
	for (unsigned i = 0; i < N; i++)
		v[i] = (float)i;

	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, N, sizeof(float));
	struct starpu_data_filter blocks = {
		.filter_func = starpu_vector_filter_block,
		.nchildren = NBLOCKS,
	};
	starpu_data_partition(h, &blocks);

	float factor = 3.0f;
	for (int b = 0; b < NBLOCKS; b++) {
		ret = starpu_task_insert(&scal_cl, STARPU_RW, starpu_data_get_sub_data(h, 1, b),
					 STARPU_VALUE, &factor, sizeof(factor), 0);
		STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
	}
	starpu_task_wait_for_all();
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	int bad = 0;
	for (unsigned i = 0; i < N; i++)
		if (fabsf(v[i] - 3.0f * (float)i) > 1e-3f * (float)i)
			bad++;
	printf("scaled %d floats by %.1f in %d tasks: %s\n", N, factor, NBLOCKS, bad ? "WRONG" : "correct");
	starpu_free_noflag(v, N * sizeof(float));
	starpu_shutdown();
	return bad != 0;
}
