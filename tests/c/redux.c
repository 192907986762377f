/* redux: STARPU_REDUX with starpu_data_set_reduction_methods.
 *
 *  1. a dot product of two int64 vectors by NTASKS tasks, each adding the products of
 *     one slice into `dot` in REDUX mode (on 2 workers, slices of different lengths so
 *     both workers contribute in practice). Reading `dot` (starpu_data_acquire R) gives
 *     the initial value plus the exact sum; the init codelet ran once on each worker
 *     that contributed and on no other.
 *  2. REDUX again after that read, then a task reading `dot` (it must see the reduced
 *     value), then REDUX a third time, folded by unregistration: the application's
 *     variable holds the whole sum.
 *  3. starpu_data_set_reduction_methods_with_args (1.4): each codelet gets its own
 *     argument (here counters of their calls); the sum is still exact.
 *  4. REDUX on data without reduction methods: -EINVAL at submission, data unchanged.
 */
#include "test_common.h"
#include <unistd.h>

#define N 1200
#define NTASKS 48

static int64_t xs[N], ys[N];
static int init_calls[STARPU_NMAXWORKERS];
static int contributed[STARPU_NMAXWORKERS];

static void init_cpu(void *buffers[], void *arg)
{
	if (arg)
		__atomic_add_fetch((int *)arg, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&init_calls[starpu_worker_get_id()], 1, __ATOMIC_SEQ_CST);
	*(int64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]) = 0;
}

static void redux_cpu(void *buffers[], void *arg)
{
	if (arg)
		__atomic_add_fetch((int *)arg, 1, __ATOMIC_SEQ_CST);
	int64_t *dst = (int64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	int64_t *src = (int64_t *)STARPU_VARIABLE_GET_PTR(buffers[1]);
	*dst += *src;
}

static struct starpu_codelet init_cl = {
	.cpu_funcs = { init_cpu }, .nbuffers = 1, .modes = { STARPU_W }, .name = "init",
};
static struct starpu_codelet redux_cl = {
	.cpu_funcs = { redux_cpu }, .nbuffers = 2, .modes = { STARPU_RW, STARPU_R }, .name = "redux",
};

static void partial_cpu(void *buffers[], void *arg)
{
	int first, count;
	starpu_codelet_unpack_args(arg, &first, &count);
	const int64_t *x = (const int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	const int64_t *y = (const int64_t *)STARPU_VECTOR_GET_PTR(buffers[1]);
	int64_t *dot = (int64_t *)STARPU_VARIABLE_GET_PTR(buffers[2]);
	for (int i = first; i < first + count; i++)
		*dot += x[i] * y[i];
	contributed[starpu_worker_get_id()] = 1;
	usleep(count * 20); /* long enough for the other worker to take tasks too */
}

static struct starpu_codelet partial_cl = {
	.cpu_funcs = { partial_cpu },
	.nbuffers = 3,
	.modes = { STARPU_R, STARPU_R, STARPU_REDUX },
	.name = "partial",
};

static int64_t seen;
static void observe_cpu(void *buffers[], void *arg)
{
	(void)arg;
	seen = *(int64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]);
}
static struct starpu_codelet observe_cl = {
	.cpu_funcs = { observe_cpu }, .nbuffers = 1, .modes = { STARPU_R }, .name = "observe",
};

static void submit_dot(starpu_data_handle_t hx, starpu_data_handle_t hy, starpu_data_handle_t hd)
{
	int first = 0;
	for (int t = 0; t < NTASKS; t++) {
		int count = N / NTASKS + (t % 3) - 1;
		if (t == NTASKS - 1)
			count = N - first;
		MUST(starpu_task_insert(&partial_cl, STARPU_R, hx, STARPU_R, hy, STARPU_REDUX, hd,
					STARPU_VALUE, &first, sizeof(first), STARPU_VALUE, &count,
					sizeof(count), 0));
		first += count;
	}
}

int main(void)
{
	tc_init_ncpus(2);

	int64_t expected = 0;
	for (int i = 0; i < N; i++) {
		xs[i] = i % 17 - 5;
		ys[i] = 3 * (i % 11) + 1;
		expected += xs[i] * ys[i];
	}
	int64_t dot = 1000;
	starpu_data_handle_t hx, hy, hd;
	starpu_vector_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)xs, N, sizeof(int64_t));
	starpu_vector_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)ys, N, sizeof(int64_t));
	starpu_variable_data_register(&hd, STARPU_MAIN_RAM, (uintptr_t)&dot, sizeof(dot));
	starpu_data_set_reduction_methods(hd, &redux_cl, &init_cl);

	/* 1. */
	submit_dot(hx, hy, hd);
	MUST(starpu_data_acquire(hd, STARPU_R));
	CHECK(dot == 1000 + expected, "dot = %lld, expected %lld", (long long)dot,
	      (long long)(1000 + expected));
	starpu_data_release(hd);
	int ncontrib = 0;
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		CHECK(init_calls[w] == contributed[w],
		      "worker %u: init ran %d time(s), contributed %d", w, init_calls[w], contributed[w]);
		ncontrib += contributed[w];
	}
	CHECK(ncontrib >= 1, "no worker contributed");

	/* 2. */
	submit_dot(hx, hy, hd);
	MUST(starpu_task_insert(&observe_cl, STARPU_R, hd, 0));
	submit_dot(hx, hy, hd);
	starpu_data_unregister(hd);
	CHECK(seen == 1000 + 2 * expected, "a reader between groups saw %lld", (long long)seen);
	CHECK(dot == 1000 + 3 * expected, "after unregister: %lld, expected %lld", (long long)dot,
	      (long long)(1000 + 3 * expected));

	/* 3. */
#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
	int64_t again = 0;
	int redux_calls = 0, init_calls_arg = 0;
	starpu_variable_data_register(&hd, STARPU_MAIN_RAM, (uintptr_t)&again, sizeof(again));
	starpu_data_set_reduction_methods_with_args(hd, &redux_cl, &redux_calls, &init_cl,
						    &init_calls_arg);
	submit_dot(hx, hy, hd);
	starpu_data_unregister(hd);
	CHECK(again == expected, "again = %lld, expected %lld", (long long)again,
	      (long long)expected);
	/* One fold per contribution, one initialisation per contributing worker. */
	CHECK(redux_calls >= 1 && redux_calls == init_calls_arg,
	      "reduction codelet called %d time(s), init %d", redux_calls, init_calls_arg);
#endif

	/* 4. */
	int64_t plain = 5;
	starpu_data_handle_t hp;
	starpu_variable_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)&plain, sizeof(plain));
	int first = 0, count = 1;
	int ret = starpu_task_insert(&partial_cl, STARPU_R, hx, STARPU_R, hy, STARPU_REDUX, hp,
				 STARPU_VALUE, &first, sizeof(first), STARPU_VALUE, &count,
				 sizeof(count), 0);
	CHECK(ret == -EINVAL, "REDUX without reduction methods returned %d", ret);
	starpu_task_wait_for_all();
	starpu_data_unregister(hp);
	CHECK(plain == 5, "plain = %lld", (long long)plain);

	starpu_data_unregister(hx);
	starpu_data_unregister(hy);
	starpu_shutdown();
	return tc_finish("redux");
}
