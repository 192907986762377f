/* History-based performance models across two runs, as StarPU users rely on them:
 * a first run calibrates a model (STARPU_CALIBRATE=1) and saves it at shutdown in
 * $STARPU_HOME/.starpu/sampling/codelets/45/<symbol>.<hostname>; a second run reads
 * the file back and predicts the task's length without measuring again.
 *
 * The program sets STARPU_HOME to a fresh directory of its own and STARPU_HOSTNAME,
 * so the file's path is known and no earlier run interferes.
 */
#include "test_common.h"
#include <math.h>
#include <unistd.h>

#define N 4096
#define SYMBOL "tc_perfmodel_scal"

static void scal(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	float *v = (float *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] = v[i] * 1.0001f + 1.0f;
}

static struct starpu_perfmodel model = {
	.type = STARPU_HISTORY_BASED,
	.symbol = SYMBOL,
};

static struct starpu_codelet cl = {
	.cpu_funcs = {scal},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.model = &model,
};

static void nothing(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
}

/* StarPU's model for codelets that do nothing: 1 ns anywhere. */
static struct starpu_codelet nop_cl = {
	.cpu_funcs = {nothing},
	.nbuffers = 0,
	.model = &starpu_perfmodel_nop,
};

static float vec[N];

/* Tasks only asked about, never submitted: initialized in place and cleaned (StarPU
 * refuses to destroy a created task that was never submitted). */
static void make_task(struct starpu_task *t, struct starpu_codelet *codelet, starpu_data_handle_t h)
{
	starpu_task_init(t);
	t->cl = codelet;
	t->handles[0] = h;
}

int main(void)
{
	char home[] = "/tmp/starpu-perfmodel-XXXXXX";
	if (!mkdtemp(home)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("STARPU_HOME", home, 1);
	setenv("STARPU_HOSTNAME", "tchost", 1);
	unsetenv("STARPU_PERF_MODEL_DIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/.starpu/sampling/codelets/45/%s.tchost", home, SYMBOL);

	/* Run 1: calibrate. */
	setenv("STARPU_CALIBRATE", "1", 1);
	if (starpu_init(NULL) == -ENODEV)
		return 77;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)vec, N, sizeof(float));
	struct starpu_task probe;
	make_task(&probe, &cl, h);
	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(0, 0);
	CHECK(arch != NULL, "worker 0 has no perf archtype");
	/* CPU workers only: one architecture combination, the workers' own. */
	CHECK(starpu_perfmodel_get_narch_combs() == 1, "expected 1 arch combination, got %d",
	      starpu_perfmodel_get_narch_combs());
	CHECK(starpu_perfmodel_arch_comb_fetch(0) == arch, "combination 0 is not worker 0's arch");
	CHECK(arch->ndevices == 1 && arch->devices[0].type == STARPU_CPU_WORKER,
	      "worker 0's arch is not one CPU device");
	CHECK(starpu_perfmodel_arch_comb_fetch(1) == NULL, "combination 1 should not exist");
	starpu_reset_scheduler();
	uint32_t footprint = starpu_task_footprint(&model, &probe, arch, 0);
	starpu_task_clean(&probe);
	for (int i = 0; i < 30; i++)
		MUST(starpu_task_insert(&cl, STARPU_RW, h, 0));
	MUST(starpu_task_wait_for_all());
	starpu_data_unregister(h);
	starpu_shutdown();

	/* The model file exists, with the task's footprint in it. */
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "no model file at %s", path);
	if (f) {
		char line[512], hex[16];
		int version = 0, found = 0;
		snprintf(hex, sizeof(hex), "%08x", footprint);
		while (fgets(line, sizeof(line), f)) {
			if (line[0] == '#')
				continue;
			if (!version)
				version = atoi(line);
			if (!strncmp(line, hex, 8))
				found = 1;
		}
		fclose(f);
		CHECK(version == 45, "model file version %d", version);
		CHECK(found, "footprint %s not in %s", hex, path);
	}

	/* Run 2: not calibrating; the model comes from the file. */
	unsetenv("STARPU_CALIBRATE");
	if (starpu_init(NULL) == -ENODEV)
		return 77;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)vec, N, sizeof(float));
	struct starpu_task task;
	struct starpu_task *t = &task;
	make_task(t, &cl, h);
	arch = starpu_worker_get_perf_archtype(0, 0);
	double expected = starpu_task_expected_length(t, arch, 0);
	CHECK(expected > 0 && !isnan(expected), "expected length %f after calibration", expected);
	CHECK(starpu_task_footprint(&model, t, arch, 0) == footprint, "footprint changed");
	double mean = starpu_perfmodel_history_based_expected_perf(&model, arch, footprint);
	CHECK(mean == expected, "history mean %f, expected length %f", mean, expected);
	CHECK(starpu_task_expected_data_transfer_time(STARPU_MAIN_RAM, t) == 0.0,
	      "transfer time on one memory node");
	/* An uncalibrated footprint (another size) has no prediction. */
	float other[16];
	starpu_data_handle_t h2;
	starpu_vector_data_register(&h2, STARPU_MAIN_RAM, (uintptr_t)other, 16, sizeof(float));
	starpu_task_clean(t);
	/* (a fresh task: StarPU caches a task's footprint once computed) */
	make_task(t, &cl, h2);
	double unknown = starpu_task_expected_length(t, arch, 0);
	CHECK(isnan(unknown), "uncalibrated size predicted: %f", unknown);
	starpu_task_clean(t);
	struct starpu_task nop;
	make_task(&nop, &nop_cl, NULL);
	double nop_len = starpu_task_expected_length(&nop, arch, 0);
	CHECK(nop_len > 0.0000009 && nop_len < 0.0000011, "nop model predicts %g us", nop_len);
	starpu_task_clean(&nop);

	/* A tool's view: load the model by symbol. */
	struct starpu_perfmodel loaded;
	memset(&loaded, 0, sizeof(loaded));
	CHECK(starpu_perfmodel_load_symbol(SYMBOL, &loaded) == 0, "load_symbol failed");
	CHECK(loaded.type == STARPU_HISTORY_BASED, "loaded type %d", (int)loaded.type);
	CHECK(starpu_perfmodel_history_based_expected_perf(&loaded, arch, footprint) == mean,
	      "loaded model disagrees");
	starpu_perfmodel_unload_model(&loaded);
	CHECK(starpu_perfmodel_load_symbol("tc_no_such_model", &loaded) == 1,
	      "missing model loaded");

	starpu_data_unregister(h);
	starpu_data_unregister(h2);
	starpu_shutdown();
	unlink(path);
	return tc_failures ? 1 : 0;
}
