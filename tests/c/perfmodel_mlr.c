/* Multiple-regression and per-worker performance models.
 *
 * STARPU_MULTIPLE_REGRESSION_BASED: a model with parameters (M, N) and the terms M*N and
 * N^2 is fed synthetic measurements with starpu_perfmodel_update_history, following
 * t = 3 + 0.25 M N + 2 N^2; starpu_task_expected_length must then predict that law for
 * parameters never measured (a least-squares fit, exact on exact data). Before it has
 * more measurements than coefficients, it predicts nothing (NaN).
 *
 * STARPU_PER_WORKER: the model's worker_cost_function is asked for each worker: under a
 * model-based policy (dmda) a cost function that makes worker 0 a thousand times
 * cheaper sends every task there.
 */
#include "test_common.h"
#include <math.h>

struct params {
	double m, n;
};

static void mlr_parameters(struct starpu_task *task, double *values)
{
	const struct params *p = task->cl_arg;
	values[0] = p->m;
	values[1] = p->n;
}

static const char *names[] = {"M", "N"};
static unsigned mn[] = {1, 1};
static unsigned n2[] = {0, 2};
static unsigned *combinations[] = {mn, n2};

static struct starpu_perfmodel mlr_model = {
	.type = STARPU_MULTIPLE_REGRESSION_BASED,
	.symbol = "tc_perfmodel_mlr",
	.parameters = mlr_parameters,
	.nparameters = 2,
	.parameters_names = names,
	.combinations = combinations,
	.ncombinations = 2,
};

static void nothing(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
}

static struct starpu_codelet mlr_cl = {
	.cpu_funcs = {nothing},
	.nbuffers = 0,
	.model = &mlr_model,
};

static double law(double m, double n)
{
	return 3.0 + 0.25 * m * n + 2.0 * n * n;
}

static int ran_on[64];

static void record_worker(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
	int w = starpu_worker_get_id();
	if (w >= 0 && w < 64)
		__atomic_fetch_add(&ran_on[w], 1, __ATOMIC_SEQ_CST);
}

static double worker_cost(struct starpu_task *task, unsigned workerid, unsigned nimpl)
{
	(void)task;
	(void)nimpl;
	return workerid == 0 ? 1.0 : 1000.0;
}

static struct starpu_perfmodel per_worker_model = {
	.type = STARPU_PER_WORKER,
	.worker_cost_function = worker_cost,
};

static struct starpu_codelet per_worker_cl = {
	.cpu_funcs = {record_worker},
	.nbuffers = 0,
	.model = &per_worker_model,
};

int main(void)
{
	/* A fresh home: no model file from an earlier run. */
	char home[] = "/tmp/tc_perfmodel_mlr.XXXXXX";
	CHECK(mkdtemp(home) != NULL, "mkdtemp");
	setenv("STARPU_HOME", home, 1);
	setenv("STARPU_SCHED", "dmda", 1);
	tc_init_ncpus(2);

	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(0, 0);
	struct params probe = {100.0, 7.0};
	struct starpu_task t;
	starpu_task_init(&t);
	t.cl = &mlr_cl;
	t.cl_arg = &probe;
	CHECK(isnan(starpu_task_expected_length(&t, arch, 0)), "uncalibrated model predicts NaN");

	const double ms[] = {2, 8, 32}, ns[] = {1, 5, 20};
	int fed = 0;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			struct params p = {ms[i], ns[j]};
			struct starpu_task s;
			starpu_task_init(&s);
			s.cl = &mlr_cl;
			s.cl_arg = &p;
			starpu_perfmodel_update_history(&mlr_model, &s, arch, 0, 0, law(p.m, p.n));
			starpu_task_clean(&s);
			fed++;
			double predicted = starpu_task_expected_length(&t, arch, 0);
			/* Three coefficients: a fit needs at least four measurements. */
			if (fed <= 3)
				CHECK(isnan(predicted), "after %d samples: %f", fed, predicted);
			else
				CHECK(fabs(predicted - law(100.0, 7.0)) < 1e-6,
				      "after %d samples: predicted %f, law %f", fed, predicted,
				      law(100.0, 7.0));
		}
	/* Another implementation learned nothing. */
	CHECK(isnan(starpu_task_expected_length(&t, arch, 1)), "implementation 1 has no fit");
	starpu_task_clean(&t);

	/* Per-worker costs: every task goes to worker 0 (1 us there, 1000 us on worker 1),
	 * queued while paused so that placement alone decides. */
	starpu_pause();
	for (int i = 0; i < 20; i++)
		MUST(starpu_task_insert(&per_worker_cl, 0));
	starpu_resume();
	starpu_task_wait_for_all();
	CHECK(ran_on[0] == 20 && ran_on[1] == 0, "worker 0 ran %d, worker 1 ran %d", ran_on[0],
	      ran_on[1]);

	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
