/* lifecycle: starting and stopping the runtime many times, and what shutdown does with
 * data the application forgot to release. Our behaviour (StarPU leaks a little per
 * cycle, and its shutdown with acquired data is not specified).
 *
 *  1. 1500 init / task / shutdown cycles: resident memory grows by less than 1 MB over
 *     cycles 300-900 or over cycles 900-1500 (each cycle used to leak ~4 KB: 2.4 MB in
 *     both). A leak grows in both halves; the allocator taking one more segment (a 2 MB
 *     step, seen once in a few runs) shows in one only.
 *  2. Between cycles the program calls setenv while workers start (MPI_Init and many
 *     programs do): workers must not read the environment.
 *  3. A burst: 200,000 tasks submitted while the workers are paused, then run. Once
 *     starpu_task_wait_for_all has returned, the memory the burst took is given back
 *     (resident memory within a quarter of the burst's peak growth).
 *  4. starpu_data_acquire then starpu_shutdown: shutdown returns (and says the data is
 *     still acquired); an unregister refused because of the acquisition changes nothing.
 *
 * Under a checker (STARPU_TEST_CHECKER set by scripts/valgrind.sh and tsan.sh) resident
 * memory is the checker's too, so the memory checks are skipped and the cycles fewer: the
 * checker itself looks for leaks and races there.
 */
#include "test_common.h"

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static struct starpu_codelet noop_cl = {
	.cpu_funcs = {tc_noop},
	.nbuffers = 0,
	.name = "noop",
};

int main(void)
{
	long at300 = 0, at900 = 0;
	char name[32];
	int checker = getenv("STARPU_TEST_CHECKER") != NULL;
	int cycles = checker ? 310 : 1500;
	for (int cycle = 0; cycle < cycles; cycle++) {
		tc_init();
		for (int i = 0; i < 20; i++) {
			snprintf(name, sizeof name, "STARPU_TEST_VAR_%d", i);
			setenv(name, "value that changes the environment block", 1);
		}
		MUST(starpu_task_insert(&noop_cl, 0));
		MUST(starpu_task_wait_for_all());
		starpu_shutdown();
		if (cycle == 299)
			at300 = rss_kb();
		if (cycle == 899)
			at900 = rss_kb();
	}
	long end = rss_kb();
	long first = at900 - at300, second = end - at900;
	CHECK(checker || first < 1024 || second < 1024,
	      "resident memory grew by %ld kB over cycles 300-900 and %ld kB over 900-1500", first, second);

	tc_init();
	long before = rss_kb();
	starpu_pause();
	for (int i = 0; i < (checker ? 20000 : 200000); i++)
		MUST(starpu_task_insert(&noop_cl, 0));
	long peak = rss_kb();
	starpu_resume();
	MUST(starpu_task_wait_for_all());
	long after = rss_kb();
	CHECK(checker || after - before < (peak - before) / 4,
	      "after a burst: %ld kB before, %ld kB at the peak, %ld kB once done", before, peak, after);

	long x = 1;
	starpu_data_handle_t hx;
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	MUST(starpu_data_acquire(hx, STARPU_R));
	starpu_data_unregister(hx); /* refused: acquired */
	CHECK(starpu_data_get_size(hx) == sizeof(long), "the handle must still be registered");
	starpu_shutdown(); /* must return */
	return tc_finish("lifecycle");
}
