/* starpu_perfmodel.h extras: per-device cost functions of a STARPU_PER_ARCH model
 * (starpu_perfmodel_set_per_devices_cost_function, and the per-arch records programs fill
 * in: starpu_perfmodel_get_model_per_devices / _per_arch) and a learned model in XML
 * (starpu_perfmodel_dump_xml). */
#include "test_common.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void work(void *buffers[], void *arg)
{
	(void)arg;
	int *x = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	*x += 1;
}

static double cost_impl0(struct starpu_task *t, struct starpu_perfmodel_arch *a, unsigned nimpl)
{
	(void)t;
	return a->ndevices == 1 && a->devices[0].type == STARPU_CPU_WORKER ? 42.0 + nimpl : -1.0;
}

static double cost_impl1(struct starpu_task *t, struct starpu_perfmodel_arch *a, unsigned nimpl)
{
	(void)t;
	(void)a;
	return 100.0 + nimpl;
}

static struct starpu_perfmodel per_arch = {.type = STARPU_PER_ARCH, .symbol = "model_extras_per_arch"};
static struct starpu_codelet per_arch_cl = {
	.cpu_funcs = {work, work}, .nbuffers = 1, .modes = {STARPU_RW}, .model = &per_arch};

static struct starpu_perfmodel history = {.type = STARPU_HISTORY_BASED, .symbol = "model_extras_xml"};
static struct starpu_codelet history_cl = {
	.cpu_funcs = {work}, .nbuffers = 1, .modes = {STARPU_RW}, .model = &history};

static void per_devices(starpu_data_handle_t h)
{
	MUST(starpu_perfmodel_set_per_devices_cost_function(&per_arch, 0, cost_impl0, STARPU_CPU_WORKER, 0, 1, -1));
	MUST(starpu_perfmodel_set_per_devices_cost_function(&per_arch, 1, cost_impl1, STARPU_CPU_WORKER, 0, 1, -1));
	CHECK(starpu_perfmodel_set_per_devices_cost_function(&per_arch, 0, cost_impl0, 99, 0, 1, -1) == -EINVAL,
	      "an unknown device type was accepted");
	CHECK(starpu_perfmodel_set_per_devices_cost_function(&per_arch, 0, cost_impl0, -1) == -EINVAL,
	      "no device was accepted");

	struct starpu_task *task = starpu_task_create();
	task->cl = &per_arch_cl;
	task->handles[0] = h;
	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(0, STARPU_NMAX_SCHED_CTXS);
	double l0 = starpu_task_expected_length(task, arch, 0);
	double l1 = starpu_task_expected_length(task, arch, 1);
	CHECK(l0 == 42.0, "implementation 0: %f", l0);
	CHECK(l1 == 101.0, "implementation 1: %f", l1);
	/* replacing the function of implementation 1 */
	MUST(starpu_perfmodel_set_per_devices_cost_function(&per_arch, 1, cost_impl0, STARPU_CPU_WORKER, 0, 1, -1));
	l1 = starpu_task_expected_length(task, arch, 1);
	CHECK(l1 == 43.0, "implementation 1 after replacing: %f", l1);
	task->destroy = 0;
	starpu_task_destroy(task);
}

static struct starpu_perfmodel records = {.type = STARPU_PER_ARCH, .symbol = "model_extras_records"};
static struct starpu_codelet records_cl = {
	.cpu_funcs = {work, work}, .nbuffers = 1, .modes = {STARPU_RW}, .model = &records};

/* As StarPU's cholesky_models.c does: get the record, then set its cost function. */
static void per_arch_records(starpu_data_handle_t h)
{
	struct starpu_perfmodel_per_arch *r0 =
		starpu_perfmodel_get_model_per_devices(&records, 0, STARPU_CPU_WORKER, 0, 1, -1);
	CHECK(r0 != NULL, "no record for implementation 0");
	if (!r0)
		return;
	CHECK(r0->cost_function == NULL, "a new record has a cost function");
	r0->cost_function = cost_impl1;
	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(0, STARPU_NMAX_SCHED_CTXS);
	CHECK(starpu_perfmodel_get_model_per_arch(&records, arch, 0) == r0,
	      "the same architecture and implementation gave another record");
	struct starpu_perfmodel_per_arch *r1 = starpu_perfmodel_get_model_per_arch(&records, arch, 1);
	CHECK(r1 != NULL && r1 != r0, "implementation 1 has no record of its own");
	CHECK(starpu_perfmodel_get_model_per_devices(&records, 0, 99, 0, 1, -1) == NULL,
	      "an unknown device type gave a record");

	struct starpu_task *task = starpu_task_create();
	task->cl = &records_cl;
	task->handles[0] = h;
	double l0 = starpu_task_expected_length(task, arch, 0);
	double l1 = starpu_task_expected_length(task, arch, 1);
	CHECK(l0 == 100.0, "implementation 0, from its record: %f", l0);
	CHECK(isnan(l1), "implementation 1, whose record has no function: %f", l1);
	task->destroy = 0;
	starpu_task_destroy(task);
}

static void dump_xml(starpu_data_handle_t h)
{
	for (int i = 0; i < 5; i++)
		MUST(starpu_task_insert(&history_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();

	/* The samples the tasks gave depend on the machine (a wild one is left out): the
	 * entry checked is the one explicit measurements of 25 us make for another piece of
	 * data: five, the first of which is dropped, as a first run's is (cold caches). */
	int y = 0;
	starpu_data_handle_t other;
	starpu_vector_data_register(&other, STARPU_MAIN_RAM, (uintptr_t)&y, 1, sizeof(y));
	struct starpu_task *probe = starpu_task_create();
	probe->cl = &history_cl;
	probe->handles[0] = other;
	struct starpu_perfmodel_arch *cpu = starpu_worker_get_perf_archtype(0, 0);
	for (int i = 0; i < 5; i++)
		starpu_perfmodel_update_history(&history, probe, cpu, 0, 0, 25.0);
	uint32_t fp = starpu_task_footprint(&history, probe, NULL, 0);
	probe->destroy = 0;
	starpu_task_destroy(probe);
	starpu_data_unregister(other);

	FILE *f = tmpfile();
	if (!f)
		return;
	starpu_perfmodel_dump_xml(f, &history);
	long n = ftell(f);
	rewind(f);
	char *text = calloc(1, n + 1);
	if (fread(text, 1, n, f) != (size_t)n)
		CHECK(0, "short read");
	fclose(f);

	char entry[256];
	snprintf(entry, sizeof(entry),
		 "<entry footprint=\"%08x\" size=\"%u\" flops=\"0.000000e+00\" mean=\"2.500000e+01\" "
		 "deviation=\"0.000000e+00\" sum=\"1.000000e+02\" sum2=\"2.500000e+03\" nsample=\"4\"/>",
		 fp, (unsigned)sizeof(int));
	const char *expected[] = {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
				  "<!-- symbol model_extras_xml -->",
				  "<perfmodel version=\"45\">",
				  "  <combination>\n    <device type=\"CPU\" id=\"0\" ncores=\"1\"/>",
				  "    <implementation id=\"0\">\n      <!-- cpu0_impl0 (Comb0) -->",
				  entry,

				  "    </implementation>\n  </combination>\n</perfmodel>\n"};
	for (unsigned i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		CHECK(strstr(text, expected[i]) != NULL, "XML lacks <%s>:\n%s", expected[i], text);
	free(text);
}

int main(void)
{
	char dir[] = "/tmp/model_extras_XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	setenv("STARPU_PERF_MODEL_DIR", dir, 1);
	setenv("STARPU_CALIBRATE", "1", 1);
	setenv("STARPU_SCHED", "eager", 1);
	tc_init_ncpus(1);
	int x = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	per_devices(h);
	per_arch_records(h);
	dump_xml(h);
	starpu_data_unregister(h);
	starpu_shutdown();
	CHECK(x == 5, "x = %d", x);
	return tc_finish("model_extras");
}
