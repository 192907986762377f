/* Modular schedulers in C, written as StarPU's examples/scheduler/dummy_modular_sched.c
 * does: an application component (push_task / pull_task / can_push / can_pull over its own
 * list) as the decision of starpu_sched_component_initialize_simple_scheduler, under a
 * struct starpu_sched_policy made of the starpu_sched_tree_* functions. Then a tree built
 * by hand (application component -> prio component -> worker component), and the named
 * policy modular-prio. Checks the tree's shape, that every task went through the
 * application's functions, ran once, and ran in the order the components give. */
#include "test_common.h"
#include <starpu_sched_component.h>
#include <pthread.h>

#define NTASKS 300

struct dummy_data {
	struct starpu_task_list list;
	pthread_mutex_t mutex;
};

static int npush, npull_given, ndeinit, nran;
static pthread_mutex_t counters = PTHREAD_MUTEX_INITIALIZER;

static void add(int *c, int n)
{
	pthread_mutex_lock(&counters);
	*c += n;
	pthread_mutex_unlock(&counters);
}

static void dummy_deinit_data(struct starpu_sched_component *component)
{
	struct dummy_data *d = component->data;
	CHECK(starpu_task_list_empty(&d->list), "tasks left in the component");
	pthread_mutex_destroy(&d->mutex);
	free(d);
	add(&ndeinit, 1);
}

static int dummy_push_task(struct starpu_sched_component *component, struct starpu_task *task)
{
	struct dummy_data *d = component->data;
	pthread_mutex_lock(&d->mutex);
	starpu_task_list_push_front(&d->list, task);
	starpu_push_task_end(task);
	pthread_mutex_unlock(&d->mutex);
	add(&npush, 1);
	/* Tell below that they can pull. */
	component->can_pull(component);
	return 0;
}

static struct starpu_task *dummy_pull_task(struct starpu_sched_component *component,
					   struct starpu_sched_component *to)
{
	(void)to;
	struct dummy_data *d = component->data;
	struct starpu_task *task = NULL;
	pthread_mutex_lock(&d->mutex);
	if (!starpu_task_list_empty(&d->list))
		task = starpu_task_list_pop_back(&d->list);
	pthread_mutex_unlock(&d->mutex);
	if (task)
		add(&npull_given, 1);
	return task;
}

static int dummy_can_push(struct starpu_sched_component *component, struct starpu_sched_component *to)
{
	struct dummy_data *d = component->data;
	int didwork = 0;
	struct starpu_task *task = starpu_sched_component_pump_to(component, to, &didwork);
	if (task) {
		pthread_mutex_lock(&d->mutex);
		starpu_task_list_push_back(&d->list, task);
		pthread_mutex_unlock(&d->mutex);
	}
	return didwork || starpu_sched_component_can_push(component, to);
}

static int dummy_can_pull(struct starpu_sched_component *component)
{
	return starpu_sched_component_can_pull(component);
}

static struct starpu_sched_component *dummy_create(struct starpu_sched_tree *tree, void *arg)
{
	(void)arg;
	struct starpu_sched_component *c = starpu_sched_component_create(tree, "dummy");
	struct dummy_data *d = malloc(sizeof(*d));
	pthread_mutex_init(&d->mutex, NULL);
	starpu_task_list_init(&d->list);
	c->data = d;
	c->push_task = dummy_push_task;
	c->pull_task = dummy_pull_task;
	c->can_push = dummy_can_push;
	c->can_pull = dummy_can_pull;
	c->deinit_data = dummy_deinit_data;
	return c;
}

static void init_dummy_sched(unsigned ctx)
{
	starpu_sched_component_initialize_simple_scheduler(
		(starpu_sched_component_create_t)dummy_create, NULL,
		STARPU_SCHED_SIMPLE_DECIDE_WORKERS | STARPU_SCHED_SIMPLE_FIFOS_BELOW |
			STARPU_SCHED_SIMPLE_FIFOS_BELOW_PRIO,
		ctx);
}

static void deinit_sched(unsigned ctx)
{
	struct starpu_sched_tree *t = starpu_sched_ctx_get_policy_data(ctx);
	starpu_sched_tree_destroy(t);
}

static struct starpu_sched_policy dummy_policy = {
	.init_sched = init_dummy_sched,
	.deinit_sched = deinit_sched,
	.add_workers = starpu_sched_tree_add_workers,
	.remove_workers = starpu_sched_tree_remove_workers,
	.push_task = starpu_sched_tree_push_task,
	.pop_task = starpu_sched_tree_pop_task,
	.pre_exec_hook = starpu_sched_component_worker_pre_exec_hook,
	.post_exec_hook = starpu_sched_component_worker_post_exec_hook,
	.policy_name = "dummy",
	.policy_description = "dummy modular scheduling strategy",
};

static int order[64];
static int norder;

static void work(void *buffers[], void *arg)
{
	(void)buffers;
	pthread_mutex_lock(&counters);
	nran++;
	if (arg && norder < 64)
		order[norder++] = (int)(intptr_t)arg - 1000;
	pthread_mutex_unlock(&counters);
}

static struct starpu_codelet cl = {
	.cpu_funcs = {work},
	.nbuffers = 0,
	.name = "work",
};

static void submit_prios(const int *prios, int n)
{
	norder = 0;
	starpu_pause();
	for (int i = 0; i < n; i++) {
		struct starpu_task *t = starpu_task_create();
		t->cl = &cl;
		t->cl_arg = (void *)(intptr_t)(prios[i] + 1000);
		t->priority = prios[i];
		MUST(starpu_task_submit(t));
	}
	starpu_resume();
	MUST(starpu_task_wait_for_all());
}

/* 1. The simple scheduler around the application's component. */
static void simple_scheduler(void)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 2;
	conf.sched_policy = &dummy_policy;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV)
		exit(77);
	MUST(ret);
	unsigned nworkers = starpu_worker_get_count();

	struct starpu_sched_tree *t = starpu_sched_ctx_get_policy_data(0);
	CHECK(t != NULL && t == starpu_sched_tree_get(0), "the tree is the context's policy data");
	struct starpu_sched_component *root = t->root;
	CHECK(root && strcmp(root->name, "dummy") == 0, "root %s", root ? root->name : "NULL");
	CHECK(root->nchildren == nworkers, "root has %u children, %u workers", root->nchildren,
	      nworkers);
	CHECK(starpu_bitmap_cardinal(&root->workers_in_ctx) == (int)nworkers, "root workers %d",
	      starpu_bitmap_cardinal(&root->workers_in_ctx));
	for (unsigned i = 0; i < root->nchildren; i++) {
		struct starpu_sched_component *q = root->children[i];
		CHECK(starpu_sched_component_is_prio(q), "child %u is a prio queue", i);
		CHECK(q->nparents == 1 && q->parents[0] == root, "child %u's parent", i);
		CHECK(q->nchildren == 1 && starpu_sched_component_is_worker(q->children[0]),
		      "child %u has one worker below", i);
		int w = starpu_sched_component_worker_get_workerid(q->children[0]);
		CHECK(w == (int)i, "queue %u is above worker %d", i, w);
		CHECK(starpu_bitmap_get(&q->workers_in_ctx, w) &&
			      starpu_bitmap_cardinal(&q->workers_in_ctx) == 1,
		      "queue %u's workers", i);
		CHECK(q->children[0] == starpu_sched_component_worker_get(0, w), "worker component");
	}

	for (int i = 0; i < NTASKS; i++) {
		struct starpu_task *task = starpu_task_create();
		task->cl = &cl;
		MUST(starpu_task_submit(task));
	}
	MUST(starpu_task_wait_for_all());
	CHECK(nran == NTASKS, "%d tasks ran", nran);
	CHECK(npush == NTASKS, "the component's push_task got %d tasks", npush);
	CHECK(npull_given == NTASKS, "the component's pull_task gave %d tasks", npull_given);
	starpu_shutdown();
	CHECK(ndeinit == 1, "deinit_data called %d times", ndeinit);
}

/* A component forwarding every task to its only child. */
static int forward_push(struct starpu_sched_component *c, struct starpu_task *task)
{
	add(&npush, 1);
	return starpu_sched_component_push_task(c, c->children[0], task);
}

static void init_manual(unsigned ctx)
{
	struct starpu_sched_tree *t = starpu_sched_tree_create(ctx);
	struct starpu_sched_component *fwd = starpu_sched_component_create(t, "forward");
	fwd->push_task = forward_push;
	struct starpu_sched_component *prio = starpu_sched_component_prio_create(t, NULL);
	starpu_sched_component_connect(fwd, prio);
	starpu_sched_component_connect(prio, starpu_sched_component_worker_get(ctx, 0));
	t->root = fwd;
	starpu_sched_tree_update_workers(t);
	starpu_sched_ctx_set_policy_data(ctx, t);
}

static struct starpu_sched_policy manual_policy = {
	.init_sched = init_manual,
	.deinit_sched = deinit_sched,
	.add_workers = starpu_sched_tree_add_workers,
	.remove_workers = starpu_sched_tree_remove_workers,
	.push_task = starpu_sched_tree_push_task,
	.pop_task = starpu_sched_tree_pop_task,
	.policy_name = "manual",
};

/* 2. A tree built by hand: priorities decide the order. */
static void manual_tree(void)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 1;
	conf.sched_policy = &manual_policy;
	MUST(starpu_init(&conf));
	npush = 0;
	const int prios[6] = {1, 5, 3, 5, 2, 9};
	const int want[6] = {9, 5, 5, 3, 2, 1};
	submit_prios(prios, 6);
	tc_check_priorities("hand-built tree", order, norder, want, 6);
	CHECK(npush == 6, "forward_push got %d tasks", npush);
	starpu_shutdown();
}

/* 3. The named policy modular-prio. */
static void named_policy(void)
{
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 1;
	conf.sched_policy_name = "modular-prio";
	MUST(starpu_init(&conf));
	const int prios[5] = {2, 8, -1, 8, 0};
	const int want[5] = {8, 8, 2, 0, -1};
	submit_prios(prios, 5);
	tc_check_priorities("modular-prio", order, norder, want, 5);
	starpu_shutdown();
}

int main(void)
{
	unsetenv("STARPU_SCHED");
	unsetenv("STARPU_NCPU");
	unsetenv("STARPU_NCPUS");
	simple_scheduler();
	manual_tree();
	named_policy();
	return tc_finish("sched_component");
}
