/* control: starpu_pause holds the workers back (submitted tasks wait), starpu_resume lets
 * them go; starpu_execute_on_each_worker runs a function once on every worker. */
#include "test_common.h"
#include <unistd.h>

#define NTASKS 20

static int ran;
static int seen[STARPU_NMAXWORKERS];

static void count(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	__sync_fetch_and_add(&ran, 1);
}

static struct starpu_codelet count_cl = {
	.cpu_funcs = {count},
	.nbuffers = 0,
	.name = "count",
};

static void mark_worker(void *arg)
{
	int *marks = arg;
	int w = starpu_worker_get_id();
	if (w >= 0 && w < STARPU_NMAXWORKERS)
		__sync_fetch_and_add(&marks[w], 1);
}

int main(void)
{
	tc_init();
	unsigned nworkers = starpu_worker_get_count();

	starpu_pause();
	for (int i = 0; i < NTASKS; i++)
		MUST(starpu_task_insert(&count_cl, 0));
	usleep(50 * 1000);
	CHECK(__sync_fetch_and_add(&ran, 0) == 0, "%d task(s) ran while paused", ran);
	starpu_resume();
	MUST(starpu_task_wait_for_all());
	CHECK(ran == NTASKS, "%d tasks ran, expected %d", ran, NTASKS);

	starpu_execute_on_each_worker(mark_worker, seen, STARPU_CPU);
	for (unsigned w = 0; w < nworkers; w++)
		CHECK(seen[w] == 1, "worker %u ran the function %d time(s)", w, seen[w]);

	starpu_shutdown();
	return tc_finish("control");
}
