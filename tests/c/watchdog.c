/* The watchdog (STARPU_WATCHDOG_TIMEOUT): when no task ends for the timeout while tasks are
 * pending, the runtime prints which tasks wait and on what.  Here a task waits for data
 * the application acquired and does not release, and another for a tag nobody notifies.
 * stderr goes to a file while they wait; the test reads it until the report is there
 * (the watchdog's own timeout is the only delay), then lets the tasks go and checks the
 * report's lines. */
#include "test_common.h"
#include "stderr_capture.h"

static struct starpu_codelet reader_cl = {
	.cpu_funcs = {tc_noop},
	.nbuffers = 1,
	.modes = {STARPU_R},
	.name = "reader",
};

int main(void)
{
	setenv("STARPU_WATCHDOG_TIMEOUT", "100000", 1); /* 0.1 s, in microseconds */
	unsetenv("STARPU_WATCHDOG_CRASH");
	tc_init();

	int x = 42;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof x);
	starpu_data_set_name(h, "x");
	MUST(starpu_data_acquire(h, STARPU_RW));

	struct tc_capture capture;
	tc_capture_begin(&capture);
	const char *report = capture.text;

	MUST(starpu_task_insert(&reader_cl, STARPU_R, h, STARPU_NAME, "reader", 0));
	starpu_tag_t one = 1;
	starpu_tag_declare_deps_array(2, 1, &one);
	struct starpu_task *tagged = starpu_task_create();
	tagged->name = "tagged";
	tagged->use_tag = 1;
	tagged->tag_id = 2;
	MUST(starpu_task_submit(tagged));

	/* Wait for the report: both waiting tasks named, and the end of the report. */
	for (;;) {
		tc_capture_read(&capture);
		if (strstr(report, "waits for tag 1") && strstr(report, "task 'reader'"))
			break;
		usleep(10000);
	}

	starpu_data_release(h);
	starpu_tag_notify_from_apps(1);
	MUST(starpu_task_wait_for_all());
	starpu_data_unregister(h);
	starpu_shutdown();

	tc_capture_end(&capture);

	CHECK(strstr(report, "[starpu] watchdog: no task finished for") != NULL,
	      "no watchdog header in the report");
	CHECK(strstr(report, "while 2 tasks are pending") != NULL, "the pending count is wrong");
	CHECK(strstr(report, "the acquisition of data 'x' in mode RW") != NULL &&
		      strstr(report, "is granted and not released by the application") != NULL,
	      "the held acquisition is not reported");
	CHECK(strstr(report, "task 'reader' (id") != NULL &&
		      strstr(report, "on data 'x' (mode R after RW)") != NULL,
	      "the reader's wait on x is not reported");
	CHECK(strstr(report, "task 'tagged' (id") != NULL && strstr(report, "tag 2)") != NULL &&
		      strstr(report, "waits for tag 1, not done") != NULL,
	      "the tag wait is not reported");
	return tc_failures ? 1 : 0;
}
