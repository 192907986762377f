/* scratch: STARPU_SCRATCH buffers are per worker, allocated once and reused.
 *
 * Tasks pinned to a worker (execute_on_a_specific_worker) use a vector in SCRATCH
 * mode next to an output variable. Each task copies what it finds in its scratch
 * buffer to its output, then leaves a worker-specific mark there. As in StarPU, the
 * buffer is not reset between tasks: the second task on a worker finds the first one's
 * mark, and a task on another worker (when there are two) does not. The registered data
 * is never touched.
 */
#include "test_common.h"

#define NX 16

static void scratch_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int64_t *s = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	int64_t *out = (int64_t *)STARPU_VARIABLE_GET_PTR(buffers[1]);
	CHECK(STARPU_VECTOR_GET_NX(buffers[0]) == NX, "scratch has %u elements",
	      STARPU_VECTOR_GET_NX(buffers[0]));
	*out = s[NX - 1];
	for (int i = 0; i < NX; i++)
		s[i] = 100 + starpu_worker_get_id();
}

static struct starpu_codelet scratch_cl = {
	.cpu_funcs = { scratch_cpu },
	.nbuffers = 2,
	.modes = { STARPU_SCRATCH, STARPU_W },
	.name = "scratch",
};

static int64_t run_on(starpu_data_handle_t hs, unsigned worker)
{
	int64_t out = -1;
	starpu_data_handle_t ho;
	starpu_variable_data_register(&ho, STARPU_MAIN_RAM, (uintptr_t)&out, sizeof(out));
	struct starpu_task *t = starpu_task_create();
	t->cl = &scratch_cl;
	t->handles[0] = hs;
	t->handles[1] = ho;
	t->execute_on_a_specific_worker = 1;
	t->workerid = worker;
	t->synchronous = 1;
	MUST(starpu_task_submit(t));
	starpu_data_unregister(ho);
	return out;
}

int main(void)
{
	tc_init_ncpus(2);
	int64_t data[NX];
	for (int i = 0; i < NX; i++)
		data[i] = 7;
	starpu_data_handle_t hs;
	starpu_vector_data_register(&hs, STARPU_MAIN_RAM, (uintptr_t)data, NX, sizeof(int64_t));

	run_on(hs, 0);
	int64_t again0 = run_on(hs, 0);
	CHECK(again0 == 100, "second task on worker 0 found %lld, expected its mark 100",
	      (long long)again0);
	if (starpu_worker_get_count() >= 2) { /* STARPU_NCPU=1 leaves one worker */
		int64_t first1 = run_on(hs, 1);
		CHECK(first1 != 100, "worker 1 found worker 0's mark: the buffer is shared");
		int64_t again1 = run_on(hs, 1);
		CHECK(again1 == 101, "second task on worker 1 found %lld, expected 101",
		      (long long)again1);
	}
	CHECK(run_on(hs, 0) == 100, "worker 0's buffer changed");

	starpu_data_unregister(hs);
	for (int i = 0; i < NX; i++)
		CHECK(data[i] == 7, "data[%d] = %lld: SCRATCH wrote the data", i, (long long)data[i]);
	starpu_shutdown();
	return tc_finish("scratch");
}
