/* Execution traces from C: STARPU_FXT_TRACE=1 and STARPU_GENERATE_TRACE=1 (set by the
 * program before starpu_init) write the raw trace and its views at shutdown into
 * STARPU_FXT_PREFIX; user events, strings and iterations reach them; recording pauses
 * with starpu_fxt_stop_profiling; starpu_fxt_generate_trace (what starpu_fxt_tool runs)
 * writes the views again from the raw file, into another folder. */
#include "test_common.h"
#include <sys/stat.h>
#include <unistd.h>

static void scal(void *buffers[], void *arg)
{
	(void)arg;
	double *v = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] *= 2.0;
}

static struct starpu_codelet cl = {
	.cpu_funcs = {scal},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "scal",
	.color = 0x00ff00,
};

/* The whole file `path` (NUL-terminated, malloc'ed), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc(n + 1);
	size_t got = fread(s, 1, n, f);
	s[got] = 0;
	fclose(f);
	return s;
}

static int count(const char *text, const char *what)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

int main(void)
{
	char dir[] = "/tmp/starpu-fxt-trace-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("STARPU_FXT_TRACE", "1", 1);
	setenv("STARPU_GENERATE_TRACE", "1", 1);
	setenv("STARPU_FXT_PREFIX", dir, 1);
	setenv("STARPU_FXT_SUFFIX", "prof", 1);
	CHECK(starpu_fxt_is_enabled() == 1, "STARPU_FXT_TRACE=1 is not seen");
	tc_init_ncpus(2);
	int nworkers = (int)starpu_worker_get_count(); /* STARPU_NCPU may override 2 */

	double v[64];
	for (int i = 0; i < 64; i++)
		v[i] = 1.0;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 64, sizeof(double));
	starpu_iteration_push(7);
	for (int i = 0; i < 4; i++)
		MUST(starpu_task_insert(&cl, STARPU_RW, h, STARPU_NAME, i == 0 ? "first" : NULL, 0));
	starpu_iteration_pop();
	starpu_fxt_trace_user_event(1234);
	starpu_fxt_trace_user_event_string("phase two");
	starpu_task_wait_for_all();
	/* Paused: this task is not recorded. */
	starpu_fxt_stop_profiling();
	MUST(starpu_task_insert(&cl, STARPU_RW, h, STARPU_NAME, "unseen", 0));
	starpu_task_wait_for_all();
	starpu_fxt_start_profiling();
	MUST(starpu_task_insert(&cl, STARPU_RW, h, STARPU_NAME, "last", 0));
	starpu_data_unregister(h);
	CHECK(v[0] == 64.0, "v[0] = %g, expected 64", v[0]);
	starpu_shutdown();

	char path[512];
	snprintf(path, sizeof(path), "%s/prof_0", dir);
	struct stat st;
	CHECK(stat(path, &st) == 0, "no raw trace file %s", path);
	snprintf(path, sizeof(path), "%s/paje.trace", dir);
	char *paje = slurp(path);
	CHECK(paje != NULL, "no %s", path);
	if (paje) {
		CHECK(count(paje, "\n21\t") == 5, "%d task states in paje.trace, expected 5",
		      count(paje, "\n21\t"));
		CHECK(strstr(paje, "\"1234\"") != NULL, "user event 1234 missing");
		CHECK(strstr(paje, "\"phase two\"") != NULL, "user string missing");
		CHECK(strstr(paje, "\"0.000000 1.000000 0.000000\"") != NULL,
		      "the codelet colour 0x00ff00 is not the tasks' Paje colour");
		free(paje);
	}
	snprintf(path, sizeof(path), "%s/tasks.rec", dir);
	char *tasks = slurp(path);
	CHECK(tasks != NULL, "no %s", path);
	if (tasks) {
		CHECK(count(tasks, "JobId: ") == 5, "%d tasks in tasks.rec, expected 5",
		      count(tasks, "JobId: "));
		CHECK(strstr(tasks, "Name: first") && strstr(tasks, "Name: last"), "names missing");
		CHECK(strstr(tasks, "Name: unseen") == NULL, "a task run while paused was recorded");
		CHECK(count(tasks, "Iteration: 7") == 4, "iteration 7 not on the 4 first tasks");
		CHECK(count(tasks, "DependsOn: ") == 4, "the RW chain has 4 edges");
		free(tasks);
	}
	snprintf(path, sizeof(path), "%s/dag.dot", dir);
	char *dag = slurp(path);
	CHECK(dag && strstr(dag, "fillcolor=\"#00ff00\""), "dag.dot lacks the codelet colour");
	free(dag);

	/* starpu_fxt_tool's way: options, then generate from the raw file. */
	struct starpu_fxt_options o;
	starpu_fxt_options_init(&o);
	CHECK(o.out_paje_path && strcmp(o.out_paje_path, "paje.trace") == 0, "default paje path");
	char raw[256], out[256];
	snprintf(raw, sizeof(raw), "%s/prof_0", dir);
	snprintf(out, sizeof(out), "%s/again", dir);
	o.filenames[0] = raw;
	o.ninputfiles = 1;
	o.dir = out;
	free(o.dag_path);
	o.dag_path = NULL; /* not written */
	starpu_fxt_generate_trace(&o);
	CHECK(o.nworkers == nworkers, "nworkers %d, expected %d", o.nworkers, nworkers);
	CHECK(strcmp(o.worker_names[0], "CPU 0") == 0, "worker name '%s'", o.worker_names[0]);
	snprintf(path, sizeof(path), "%s/paje.trace", out);
	CHECK(stat(path, &st) == 0, "no %s", path);
	snprintf(path, sizeof(path), "%s/dag.dot", out);
	CHECK(stat(path, &st) != 0, "%s written although its path was NULL", path);
	o.dir = NULL;
	starpu_fxt_options_shutdown(&o);

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return tc_finish("fxt_trace");
}
