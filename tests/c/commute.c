/* commute: STARPU_RW | STARPU_COMMUTE, and arbiters.
 *
 *  1. order: task A (commuting on x) is held back by a tag not yet notified; task B,
 *     submitted after it and also commuting on x, does not wait for it: B runs (the main
 *     thread waits for it) before A, which runs once the tag is notified. A reader after
 *     both sees both contributions.
 *  2. exclusion: a writer, NCOMMUTE commuting tasks, a reader. The commuting tasks never
 *     run two at a time (each counts the tasks inside; the most must be 1), all run
 *     after the writer, and the reader sees every contribution.
 *  3. two handles taken in opposite orders by commuting tasks: no deadlock, exclusion
 *     on each handle, exact sums.
 *  4. the same with both handles assigned to one arbiter, plus tasks on one of them;
 *     the arbiter is destroyed after the data are unregistered.
 */
#include "test_common.h"
#include <unistd.h>

#define NCOMMUTE 40

static int inside, most;
static int order[4], norder;
static starpu_pthread_mutex_t lock = STARPU_PTHREAD_MUTEX_INITIALIZER;

static void enter(void)
{
	int n = __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	int m = __atomic_load_n(&most, __ATOMIC_SEQ_CST);
	while (n > m && !__atomic_compare_exchange_n(&most, &m, n, 0, __ATOMIC_SEQ_CST,
						      __ATOMIC_SEQ_CST))
		;
}

static void add_cpu(void *buffers[], void *arg)
{
	int64_t k = *(int64_t *)arg;
	unsigned n = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
	enter();
	usleep(1000);
	for (unsigned i = 0; i < n; i++)
		*(int64_t *)STARPU_VARIABLE_GET_PTR(buffers[i]) += k;
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	if (k >= 1000) { /* part 1 records its order */
		starpu_pthread_mutex_lock(&lock);
		order[norder++] = (int)(k / 1000);
		starpu_pthread_mutex_unlock(&lock);
	}
}

static struct starpu_codelet add_cl = {
	.cpu_funcs = { add_cpu },
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "add",
};

static int64_t one = 1, thousand = 1000, two_thousand = 2000;

static int insert(starpu_data_handle_t a, starpu_data_handle_t b, int mode, int64_t *k)
{
	if (b)
		return starpu_task_insert(&add_cl, mode, a, mode, b, STARPU_CL_ARGS_NFREE, k,
					  sizeof(*k), 0);
	return starpu_task_insert(&add_cl, mode, a, STARPU_CL_ARGS_NFREE, k, sizeof(*k), 0);
}

/* A task adding *k to h in RW|COMMUTE mode, not submitted yet. */
static struct starpu_task *commuting_task(starpu_data_handle_t h, int64_t *k)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = &add_cl;
	t->nbuffers = 1;
	t->handles[0] = h;
	t->modes[0] = STARPU_RW | STARPU_COMMUTE;
	t->cl_arg = k;
	t->cl_arg_size = sizeof(*k);
	return t;
}

static int64_t value(starpu_data_handle_t h)
{
	MUST(starpu_data_acquire(h, STARPU_R));
	int64_t v = *(int64_t *)starpu_data_get_local_ptr(h);
	starpu_data_release(h);
	return v;
}

int main(void)
{
	tc_init();
	const int C = STARPU_RW | STARPU_COMMUTE;
	int64_t x = 0, y = 0;
	starpu_data_handle_t hx, hy;
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	starpu_variable_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)&y, sizeof(y));

	/* 1. A = 1000 (tag 11, waits for tag 10), B = 2000. */
	starpu_tag_declare_deps((starpu_tag_t)11, 1, (starpu_tag_t)10);
	struct starpu_task *a = commuting_task(hx, &thousand);
	a->use_tag = 1;
	a->tag_id = 11;
	MUST(starpu_task_submit(a));
	struct starpu_task *b = commuting_task(hx, &two_thousand);
	b->detach = 0;
	MUST(starpu_task_submit(b));
	MUST(starpu_task_wait(b));
	CHECK(norder == 1 && order[0] == 2, "B did not run before A (norder %d)", norder);
	starpu_tag_notify_from_apps((starpu_tag_t)10);
	CHECK(value(hx) == 3000, "x = %lld after A and B", (long long)value(hx));
	CHECK(norder == 2 && order[1] == 1, "A did not run after B");

	/* 2. */
	int64_t start = 5;
	MUST(starpu_task_insert(&add_cl, STARPU_W, hx, STARPU_CL_ARGS_NFREE, &start,
				sizeof(start), 0));
	__atomic_store_n(&most, 0, __ATOMIC_SEQ_CST);
	for (int i = 0; i < NCOMMUTE; i++)
		MUST(insert(hx, NULL, C, &one));
	CHECK(value(hx) == 3005 + NCOMMUTE, "x = %lld", (long long)value(hx));
	CHECK(most == 1, "%d commuting tasks ran together", most);

	/* 3. */
	__atomic_store_n(&most, 0, __ATOMIC_SEQ_CST);
	for (int i = 0; i < NCOMMUTE; i++)
		MUST(i % 2 ? insert(hx, hy, C, &one) : insert(hy, hx, C, &one));
	starpu_task_wait_for_all();
	CHECK(value(hx) == 3005 + 2 * NCOMMUTE && value(hy) == NCOMMUTE, "x = %lld, y = %lld",
	      (long long)value(hx), (long long)value(hy));
	CHECK(most == 1, "%d tasks commuting on both handles ran together", most);
	starpu_data_unregister(hx);
	starpu_data_unregister(hy);

	/* 4. */
	starpu_arbiter_t arbiter = starpu_arbiter_create();
	x = y = 0;
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	starpu_variable_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)&y, sizeof(y));
	starpu_data_assign_arbiter(hx, arbiter);
	starpu_data_assign_arbiter(hy, arbiter);
	for (int i = 0; i < NCOMMUTE; i++) {
		MUST(i % 2 ? insert(hx, hy, C, &one) : insert(hy, hx, C, &one));
		MUST(insert(i % 3 ? hx : hy, NULL, C, &one));
	}
	starpu_task_wait_for_all();
	starpu_data_unregister(hx);
	starpu_data_unregister(hy);
	int on_x = 0;
	for (int i = 0; i < NCOMMUTE; i++)
		on_x += i % 3 != 0;
	CHECK(x == NCOMMUTE + on_x && y == NCOMMUTE + (NCOMMUTE - on_x), "x = %lld, y = %lld",
	      (long long)x, (long long)y);
	starpu_arbiter_destroy(arbiter);

	starpu_shutdown();
	return tc_finish("commute");
}
