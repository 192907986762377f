/* redux_scratch: starpu_data_set_reduction_scratch gives the reduction codelet a third
 * buffer, in SCRATCH mode, shaped like the data registered for it.
 *
 * Eight REDUX tasks each fold one block of values (block b holds 10 b + i) into a
 * vector with an element-wise maximum. The reduction codelet copies both operands into
 * its scratch buffer (twice the vector's length) and takes the maximum from there: the
 * result is the last block's values only if the scratch buffer was there, the right
 * size, and private to the worker running the fold.
 */
#include "test_common.h"

#define NX 8
#define NBLOCKS 8

static int scratch_seen_bad;

static void init_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int64_t *u = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++)
		u[i] = -1;
}

static void red_cpu(void *buffers[], void *arg)
{
	(void)arg;
	unsigned nx = STARPU_VECTOR_GET_NX(buffers[0]);
	int64_t *u = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	int64_t *v = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[1]);
	int64_t *s = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[2]);
	if (STARPU_VECTOR_GET_NX(buffers[2]) != 2 * nx || s == u || s == v)
		__atomic_store_n(&scratch_seen_bad, 1, __ATOMIC_SEQ_CST);
	memcpy(s, u, nx * sizeof(*s));
	memcpy(s + nx, v, nx * sizeof(*s));
	for (unsigned i = 0; i < nx; i++)
		u[i] = s[i] > s[nx + i] ? s[i] : s[nx + i];
}

static void work_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int64_t *u = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	const int64_t *v = (const int64_t *)STARPU_VECTOR_GET_PTR(buffers[1]);
	for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++)
		if (v[i] > u[i])
			u[i] = v[i];
}

static struct starpu_codelet init_cl = {
	.cpu_funcs = { init_cpu }, .nbuffers = 1, .modes = { STARPU_W }, .name = "max_init",
};
static struct starpu_codelet red_cl = {
	.cpu_funcs = { red_cpu },
	.nbuffers = 3,
	.modes = { STARPU_RW | STARPU_COMMUTE, STARPU_R, STARPU_SCRATCH },
	.name = "max_red",
};
static struct starpu_codelet work_cl = {
	.cpu_funcs = { work_cpu }, .nbuffers = 2, .modes = { STARPU_REDUX, STARPU_R }, .name = "max_work",
};

int main(void)
{
	tc_init_ncpus(-1);
	int64_t u[NX], v[NBLOCKS][NX];
	for (int i = 0; i < NX; i++)
		u[i] = 0;
	starpu_data_handle_t hu, hv[NBLOCKS], hs;
	starpu_vector_data_register(&hu, STARPU_MAIN_RAM, (uintptr_t)u, NX, sizeof(int64_t));
	for (int b = 0; b < NBLOCKS; b++) {
		for (int i = 0; i < NX; i++)
			v[b][i] = 10 * b + i;
		starpu_vector_data_register(&hv[b], STARPU_MAIN_RAM, (uintptr_t)v[b], NX, sizeof(int64_t));
	}
	starpu_vector_data_register(&hs, -1, 0, 2 * NX, sizeof(int64_t));
	starpu_data_set_reduction_methods(hu, &red_cl, &init_cl);
	starpu_data_set_reduction_scratch(hu, hs);
	for (int b = 0; b < NBLOCKS; b++)
		MUST(starpu_task_insert(&work_cl, STARPU_REDUX, hu, STARPU_R, hv[b], 0));
	starpu_task_wait_for_all();
	for (int b = 0; b < NBLOCKS; b++)
		starpu_data_unregister(hv[b]);
	starpu_data_unregister(hu);
	starpu_data_unregister(hs);
	starpu_shutdown();

	CHECK(!scratch_seen_bad, "the reduction codelet's third buffer is not a private scratch of 2*NX elements");
	for (int i = 0; i < NX; i++)
		CHECK(u[i] == 10 * (NBLOCKS - 1) + i, "u[%d] = %ld, expected %d", i, (long)u[i],
		      10 * (NBLOCKS - 1) + i);
	return tc_failures ? 1 : 0;
}
