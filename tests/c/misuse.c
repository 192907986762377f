/* misuse: what a C program gets for mistakes StarPU answers with an abort, a crash or a
 * hang (our library: an error, nothing lost). Our behaviour only: StarPU aborts on most.
 *
 *  1. starpu_task_destroy twice: the second call is reported and ignored.
 *  2. starpu_task_destroy on a task still running: the release waits for the task's end;
 *     the kernel still reads its (freed-with-the-task) argument and writes its data.
 *  3. a tag that depends on itself, and a two-tag cycle: refused when declared, so the
 *     task carrying the tag runs instead of waiting forever.
 *  4. STARPU_VALUE with a NULL pointer and a non-zero size: -EINVAL, no task.
 *  5. starpu_task_wait on a detached task that has already ended: -EINVAL, no crash.
 *  6. (this project's extension) the cause of the last error is readable:
 *     starpu_rs_last_error / _code / _kind, and starpu_rs_clear_last_error.
 *  7. explicit task dependencies that would close a cycle: the declaration that closes it
 *     is refused (Deadlock, readable as the last error), so both tasks still run.
 * Errors are printed on stderr; the test checks return codes and values.
 */
#include "test_common.h"
#include <unistd.h>

static void add_arg(void *buffers[], void *arg)
{
	long *x = (long *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	usleep(20000);
	*x += *(long *)arg;
}

static struct starpu_codelet add_cl = {
	.cpu_funcs = {add_arg},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "add_arg",
};

static struct starpu_codelet noop_cl = {
	.cpu_funcs = {tc_noop},
	.nbuffers = 0,
	.name = "noop",
};

int main(void)
{
	long x = 0;
	starpu_data_handle_t hx;
	tc_init();
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));

	/* 1 */
	struct starpu_task *t = starpu_task_create();
	t->cl = &noop_cl;
	t->detach = 0;
	t->destroy = 0;
	MUST(starpu_task_submit(t));
	MUST(starpu_task_wait(t));
	starpu_task_destroy(t);
	starpu_task_destroy(t); /* reported, ignored */

	/* 2 */
	long *arg = malloc(sizeof(long));
	*arg = 5;
	t = starpu_task_create();
	t->cl = &add_cl;
	t->handles[0] = hx;
	t->cl_arg = arg;
	t->cl_arg_size = sizeof(long);
	t->cl_arg_free = 1;
	t->detach = 0;
	MUST(starpu_task_submit(t));
	starpu_task_destroy(t); /* while it runs: deferred */
	MUST(starpu_task_wait_for_all());
	MUST(starpu_data_acquire(hx, STARPU_R));
	CHECK(x == 5, "x = %ld, expected 5: the destroyed task still ran with its argument", x);
	starpu_data_release(hx);

	/* 3 */
	starpu_tag_declare_deps((starpu_tag_t)7, 1, (starpu_tag_t)7);
	starpu_tag_declare_deps((starpu_tag_t)8, 1, (starpu_tag_t)9);
	starpu_tag_declare_deps((starpu_tag_t)9, 1, (starpu_tag_t)8); /* refused: a cycle */
	t = starpu_task_create();
	t->cl = &noop_cl;
	t->use_tag = 1;
	t->tag_id = 7;
	MUST(starpu_task_submit(t));
	MUST(starpu_tag_wait((starpu_tag_t)7)); /* would hang if 7 waited for itself */
	t = starpu_task_create();
	t->cl = &noop_cl;
	t->use_tag = 1;
	t->tag_id = 9;
	MUST(starpu_task_submit(t));
	starpu_tag_notify_from_apps((starpu_tag_t)9);
	MUST(starpu_tag_wait((starpu_tag_t)9));

	/* 4 */
	int ret = starpu_task_insert(&add_cl, STARPU_RW, hx, STARPU_VALUE, NULL, sizeof(long), 0);
	CHECK(ret == -EINVAL, "STARPU_VALUE NULL, 8 returned %d, expected -EINVAL", ret);

	/* 5 */
	t = starpu_task_create();
	t->cl = &noop_cl;
	MUST(starpu_task_submit(t));
	MUST(starpu_task_wait_for_all());
	ret = starpu_task_wait(t);
	CHECK(ret == -EINVAL, "waiting for an ended detached task returned %d, expected -EINVAL", ret);

#ifdef STARPU_RS
	/* 6 */
	starpu_rs_clear_last_error();
	CHECK(starpu_rs_last_error() == NULL, "a cleared last error is %s", starpu_rs_last_error());
	ret = starpu_task_insert(&add_cl, STARPU_R, hx, 0);
	CHECK(ret == -EINVAL, "STARPU_R on a RW codelet returned %d, expected -EINVAL", ret);
	const char *why = starpu_rs_last_error();
	CHECK(why && strstr(why, "starpu_task_insert") && strstr(why, "mode"),
	      "the last error names the call and the cause: %s", why ? why : "(null)");
	CHECK(starpu_rs_last_error_code() == -EINVAL, "last error code %d", starpu_rs_last_error_code());
	CHECK(starpu_rs_last_error_kind() && !strcmp(starpu_rs_last_error_kind(), "InvalidArgument"),
	      "last error kind %s", starpu_rs_last_error_kind() ? starpu_rs_last_error_kind() : "(null)");

	/* 7 */
	struct starpu_task *ta = starpu_task_create(), *tb = starpu_task_create();
	ta->cl = tb->cl = &noop_cl;
	ta->detach = tb->detach = 0;
	starpu_task_declare_deps(tb, 1, ta);
	starpu_rs_clear_last_error();
	starpu_task_declare_deps(ta, 1, tb); /* refused: tb waits for ta */
	CHECK(starpu_rs_last_error_code() == -EDEADLK, "closing a cycle: last error %d",
	      starpu_rs_last_error_code());
	MUST(starpu_task_submit(tb));
	MUST(starpu_task_submit(ta));
	MUST(starpu_task_wait(ta));
	MUST(starpu_task_wait(tb));
	starpu_task_destroy(ta);
	starpu_task_destroy(tb);
#endif

	MUST(starpu_task_wait_for_all());
	starpu_data_unregister(hx);
	starpu_shutdown();
	return tc_finish("misuse");
}
