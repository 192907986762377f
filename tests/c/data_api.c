/* data_api: the data calls programs use around tasks: acquire with a callback (also
 * through STARPU_DATA_ACQUIRE_CB), starpu_data_cpy, starpu_data_lookup, names and user
 * data, home node -1, and asynchronous unregistration and invalidation. */
#include "test_common.h"

#define N 64

static void add_one(void *buffers[], void *arg)
{
	(void)arg;
	long *v = (long *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] += 1;
}

static struct starpu_codelet add_cl = {
	.cpu_funcs = {add_one},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "add_one",
};

static long seen_first = -1;

static void granted(void *arg)
{
	starpu_data_handle_t h = arg;
	long *v = (long *)starpu_vector_get_local_ptr(h);
	seen_first = v[0];
	starpu_data_release(h);
}

int main(void)
{
	long a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = i;
		b[i] = -1;
	}
	tc_init();
	starpu_data_handle_t ha, hb, hc;
	starpu_vector_data_register(&ha, STARPU_MAIN_RAM, (uintptr_t)a, N, sizeof(long));
	starpu_vector_data_register(&hb, STARPU_MAIN_RAM, (uintptr_t)b, N, sizeof(long));
	starpu_vector_data_register(&hc, -1, 0, N, sizeof(long));

	/* Names, user data, lookup by address. */
	starpu_data_set_name(ha, "a");
	starpu_data_set_user_data(ha, (void *)0x1234);
	CHECK(starpu_data_get_user_data(ha) == (void *)0x1234, "user data lost");
	CHECK(starpu_data_lookup(a) == ha, "lookup of a's buffer gives another handle");
	CHECK(starpu_data_lookup(&a[1]) == NULL, "lookup inside a buffer must not match");
	CHECK(starpu_data_get_size(ha) == N * sizeof(long), "size %zu", starpu_data_get_size(ha));

	/* acquire_cb: the callback runs after the task submitted before it. */
	MUST(starpu_task_insert(&add_cl, STARPU_RW, ha, 0));
	MUST(starpu_data_acquire_cb(ha, STARPU_R, granted, ha));
	MUST(starpu_task_wait_for_all());
	CHECK(seen_first == 1, "acquire_cb saw a[0]=%ld, expected 1", seen_first);

	/* The same through the macro (a GCC nested function, as in StarPU). */
	long macro_seen = -1;
	MUST(starpu_task_insert(&add_cl, STARPU_RW, ha, 0));
#ifdef STARPU_DATA_ACQUIRE_CB
	STARPU_DATA_ACQUIRE_CB(ha, STARPU_R, macro_seen = a[0]);
#else /* StarPU 1.3 as packaged by Debian lacks the macro */
	MUST(starpu_data_acquire(ha, STARPU_R));
	macro_seen = a[0];
	starpu_data_release(ha);
#endif
	MUST(starpu_task_wait_for_all());
	MUST(starpu_data_acquire(ha, STARPU_R));
	starpu_data_release(ha);
	CHECK(macro_seen == 2, "STARPU_DATA_ACQUIRE_CB saw a[0]=%ld, expected 2", macro_seen);

	/* Copies, into registered memory and into data StarPU allocates (home -1). */
	MUST(starpu_data_cpy(hb, ha, 0, NULL, NULL));
	MUST(starpu_data_cpy(hc, hb, 1, NULL, NULL));
	MUST(starpu_task_insert(&add_cl, STARPU_RW, hc, 0));
	MUST(starpu_data_acquire(hc, STARPU_R));
	long *c = (long *)starpu_vector_get_local_ptr(hc);
	CHECK(c != NULL && c[5] == 5 + 2 + 1, "c[5]=%ld, expected 8", c ? c[5] : -1);
	starpu_data_release(hc);
	CHECK(b[N - 1] == N - 1 + 2, "b[N-1]=%ld, expected %d", b[N - 1], N + 1);

	/* Asynchronous unregistration: the task submitted before it still runs on b. */
	MUST(starpu_task_insert(&add_cl, STARPU_RW, hb, 0));
	starpu_data_unregister_submit(hb);
	starpu_data_invalidate_submit(hc);
	MUST(starpu_task_wait_for_all());
	CHECK(b[0] == 0 + 2 + 1, "b[0]=%ld after unregister_submit, expected 3", b[0]);

	starpu_data_unregister(hc);
	starpu_data_unregister(ha);
	CHECK(a[3] == 3 + 2, "a[3]=%ld, expected 5", a[3]);
	starpu_shutdown();
	return tc_finish("data_api");
}
