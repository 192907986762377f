/* tags: explicit dependencies between tasks through tags.
 *
 *  1. fan-in: task B (tag TB) depends on the NA tasks A_i (tags TA+i) through
 *     starpu_tag_declare_deps_array, declared and submitted BEFORE the A
 *     tasks; B checks that every A_i has run.
 *  2. chain: task k depends on task k-1 (starpu_tag_declare_deps, one tag),
 *     submitted in reverse order; the tasks log their index: 0, 1, ..., M-1.
 *  3. a tag with no task, notified by the application
 *     (starpu_tag_notify_from_apps): the task that depends on it runs only
 *     after the notification (it checks a flag the main thread sets just
 *     before notifying).
 *  starpu_tag_wait_array then waits for the last tag of each part,
 *  starpu_tag_wait for one of them again, and starpu_tag_remove drops them.
 * No task has data: only the tags order them.
 */
#include "test_common.h"

#define NA 16
#define M  32
#define TA    ((starpu_tag_t)0x1000)
#define TB    ((starpu_tag_t)0x2000)
#define TC(k) ((starpu_tag_t)0x3000 + (k))
#define TX    ((starpu_tag_t)0x4000)
#define TY    ((starpu_tag_t)0x4001)

static int a_done[NA];
static int b_runs, b_saw_missing = -1;
static int chain_log[M], chain_pos;
static volatile int released;
static int y_runs, y_ran_early;

static void a_cpu(void *buffers[], void *arg)
{
	(void)buffers;
	__atomic_store_n(&a_done[(uintptr_t)arg], 1, __ATOMIC_SEQ_CST);
}

static void b_cpu(void *buffers[], void *arg)
{
	(void)buffers; (void)arg;
	int missing = 0;
	for (int i = 0; i < NA; i++)
		if (!__atomic_load_n(&a_done[i], __ATOMIC_SEQ_CST))
			missing++;
	b_saw_missing = missing;
	b_runs++;
}

static void chain_cpu(void *buffers[], void *arg)
{
	(void)buffers;
	int pos = __atomic_fetch_add(&chain_pos, 1, __ATOMIC_SEQ_CST);
	if (pos < M)
		chain_log[pos] = (int)(uintptr_t)arg;
}

static void y_cpu(void *buffers[], void *arg)
{
	(void)buffers; (void)arg;
	if (!released)
		y_ran_early = 1;
	y_runs++;
}

static struct starpu_codelet a_cl = { .cpu_funcs = { a_cpu }, .nbuffers = 0, .name = "tag_a" };
static struct starpu_codelet b_cl = { .cpu_funcs = { b_cpu }, .nbuffers = 0, .name = "tag_b" };
static struct starpu_codelet chain_cl = { .cpu_funcs = { chain_cpu }, .nbuffers = 0, .name = "tag_chain" };
static struct starpu_codelet y_cl = { .cpu_funcs = { y_cpu }, .nbuffers = 0, .name = "tag_y" };

static void submit_tagged(struct starpu_codelet *cl, starpu_tag_t tag, void *arg)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = cl;
	t->cl_arg = arg;
	t->use_tag = 1;
	t->tag_id = tag;
	MUST(starpu_task_submit(t));
}

int main(void)
{
	tc_init();

	/* 1. fan-in */
	starpu_tag_t a_tags[NA];
	for (int i = 0; i < NA; i++)
		a_tags[i] = TA + i;
	starpu_tag_declare_deps_array(TB, NA, a_tags);
	submit_tagged(&b_cl, TB, NULL);
	for (int i = 0; i < NA; i++)
		submit_tagged(&a_cl, TA + i, (void *)(uintptr_t)i);

	/* 2. chain, submitted last task first */
	for (int k = 1; k < M; k++)
		starpu_tag_declare_deps(TC(k), 1, TC(k - 1));
	for (int k = M - 1; k >= 0; k--)
		submit_tagged(&chain_cl, TC(k), (void *)(uintptr_t)k);

	/* 3. a tag notified by the application */
	starpu_tag_declare_deps(TY, 1, TX);
	submit_tagged(&y_cl, TY, NULL);
	released = 1;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	starpu_tag_notify_from_apps(TX);

	starpu_tag_t last[3] = { TB, TC(M - 1), TY };
	MUST(starpu_tag_wait_array(3, last));
	CHECK(b_runs == 1, "B ran %d times once its tag was reached", b_runs);
	CHECK(b_saw_missing == 0, "B ran while %d of its %d A tasks had not", b_saw_missing, NA);
	CHECK(chain_pos == M, "%d chain tasks ran once the last tag was reached, expected %d", chain_pos, M);
	int order_bad = 0;
	for (int k = 0; k < M && k < chain_pos; k++)
		if (chain_log[k] != k && order_bad++ < 3)
			CHECK(0, "chain position %d ran task %d", k, chain_log[k]);
	CHECK(order_bad == 0, "chain ran out of order");
	CHECK(y_runs == 1, "task waiting for the application's tag ran %d times", y_runs);
	CHECK(!y_ran_early, "task ran before its tag was notified");

	/* waiting again for a reached tag returns at once */
	MUST(starpu_tag_wait(TB));

	starpu_task_wait_for_all();
	starpu_tag_remove(TB);
	for (int i = 0; i < NA; i++)
		starpu_tag_remove(TA + i);
	for (int k = 0; k < M; k++)
		starpu_tag_remove(TC(k));
	starpu_tag_remove(TX);
	starpu_tag_remove(TY);

	starpu_shutdown();
	return tc_finish("tags");
}
