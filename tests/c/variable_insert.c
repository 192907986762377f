/* variable_insert: the variable interface and starpu_task_insert.
 *
 * One 64-bit counter is registered as a variable; N tasks add i to it
 * (STARPU_RW, the increment passed with STARPU_VALUE).  Half way, the main
 * thread acquires the handle for reading and checks the partial sum, then
 * releases it.  A STARPU_W task resets a second variable, STARPU_R tasks
 * read it.  A float variable incremented by 1.0f as in StarPU's example.
 */
#include "test_common.h"

#define N 2000

static void add_cpu(void *buffers[], void *cl_arg)
{
	int64_t delta;
	starpu_codelet_unpack_args(cl_arg, &delta);
	int64_t *v = (int64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*v += delta;
}

static struct starpu_codelet add_cl = {
	.cpu_funcs = { add_cpu },
	.cpu_funcs_name = { "add_cpu" },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "variable_add",
};

static void set_cpu(void *buffers[], void *cl_arg)
{
	int value;
	starpu_codelet_unpack_args(cl_arg, &value);
	*(int *)STARPU_VARIABLE_GET_PTR(buffers[0]) = value;
}

static struct starpu_codelet set_cl = {
	.cpu_funcs = { set_cpu },
	.nbuffers = 1,
	.modes = { STARPU_W },
	.name = "variable_set",
};

static int reads_ok, reads_bad;
static void read_cpu(void *buffers[], void *cl_arg)
{
	int expected;
	starpu_codelet_unpack_args(cl_arg, &expected);
	int v = *(int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	if (v == expected && STARPU_VARIABLE_GET_ELEMSIZE(buffers[0]) == sizeof(int))
		__atomic_add_fetch(&reads_ok, 1, __ATOMIC_SEQ_CST);
	else
		__atomic_add_fetch(&reads_bad, 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet read_cl = {
	.cpu_funcs = { read_cpu },
	.nbuffers = 1,
	.modes = { STARPU_R },
	.name = "variable_read",
};

static void incf_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	float *f = (float *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*f += 1.0f;
}

int main(void)
{
	int64_t counter = 0;
	int flag = 12345;
	float f = 0.0f;

	tc_init();

	starpu_data_handle_t hc, hf, hfl;
	starpu_variable_data_register(&hc, STARPU_MAIN_RAM, (uintptr_t)&counter, sizeof(counter));
	starpu_variable_data_register(&hf, STARPU_MAIN_RAM, (uintptr_t)&flag, sizeof(flag));
	starpu_variable_data_register(&hfl, STARPU_MAIN_RAM, (uintptr_t)&f, sizeof(f));
	CHECK(starpu_variable_get_elemsize(hc) == sizeof(counter), "starpu_variable_get_elemsize = %u",
	      (unsigned)starpu_variable_get_elemsize(hc));

	for (int64_t i = 0; i < N / 2; i++)
		MUST(starpu_task_insert(&add_cl, STARPU_RW, hc, STARPU_VALUE, &i, sizeof(i), 0));

	/* acquire waits for the tasks submitted before it */
	MUST(starpu_data_acquire(hc, STARPU_R));
	int64_t half = (int64_t)(N / 2) * (N / 2 - 1) / 2;
	CHECK(counter == half, "after %d tasks the counter is %lld, expected %lld", N / 2,
	      (long long)counter, (long long)half);
	starpu_data_release(hc);

	for (int64_t i = N / 2; i < N; i++)
		MUST(starpu_task_insert(&add_cl, STARPU_RW, hc, STARPU_VALUE, &i, sizeof(i),
					STARPU_PRIORITY, (int)(i % 3), STARPU_NAME, "add", 0));

	/* W then R on another variable */
	int zero = 0, expect_zero = 0;
	MUST(starpu_task_insert(&set_cl, STARPU_W, hf, STARPU_VALUE, &zero, sizeof(zero), 0));
	for (int k = 0; k < 16; k++)
		MUST(starpu_task_insert(&read_cl, STARPU_R, hf, STARPU_VALUE, &expect_zero, sizeof(expect_zero), 0));
	int seven = 7;
	MUST(starpu_task_insert(&set_cl, STARPU_W, hf, STARPU_VALUE, &seven, sizeof(seven), 0));
	for (int k = 0; k < 16; k++)
		MUST(starpu_task_insert(&read_cl, STARPU_R, hf, STARPU_VALUE, &seven, sizeof(seven), 0));

	/* float increments with a codelet set up field by field */
	struct starpu_codelet incf_cl;
	starpu_codelet_init(&incf_cl);
	incf_cl.cpu_funcs[0] = incf_cpu;
	incf_cl.nbuffers = 1;
	incf_cl.modes[0] = STARPU_RW;
	incf_cl.name = "variable_incf";
	for (int k = 0; k < 500; k++)
		MUST(starpu_task_insert(&incf_cl, STARPU_RW, hfl, 0));

	starpu_task_wait_for_all();
	starpu_data_unregister(hc);
	starpu_data_unregister(hf);
	starpu_data_unregister(hfl);
	starpu_shutdown();

	int64_t total = (int64_t)N * (N - 1) / 2;
	CHECK(counter == total, "counter is %lld, expected %lld", (long long)counter, (long long)total);
	CHECK(flag == 7, "flag is %d, expected 7", flag);
	CHECK(reads_ok == 32 && reads_bad == 0, "%d reads saw the expected value, %d did not (expected 32, 0)",
	      reads_ok, reads_bad);
	CHECK(f == 500.0f, "float variable is %g, expected 500", f);
	return tc_finish("variable_insert");
}
