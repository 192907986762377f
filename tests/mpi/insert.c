/* starpu_mpi_task_insert's choices and transfers. Data x0 is owned by rank 0, x1 by
 * rank 1 (the other ranks insert the same tasks and take part when asked). Each task's
 * kernel records the rank it ran on; every rank checks what it ran.
 *
 *  1. owner computes: the owner of the data written runs the task; a task writing data
 *     of two owners runs where the node selection policy says (most data: rank of the
 *     first data, here both equal, rank 0);
 *  2. STARPU_EXECUTE_ON_NODE and STARPU_EXECUTE_ON_DATA override it; data written on
 *     another process goes back to its owner;
 *  3. an application policy (STARPU_NODE_SELECTION_POLICY, then as the current one);
 *  4. STARPU_DATA_ARRAY and STARPU_DATA_MODE_ARRAY;
 *  5. starpu_mpi_task_build / starpu_mpi_task_post_build, and the pre-submit hook;
 *  6. per-node data: a task writing it runs on every process;
 *  7. starpu_mpi_task_exchange_data_before/after_execution around a task made by hand;
 *  8. the communication cache after reads and writes.
 */
#include "mpi_test.h"

static int ran_count;

/* Adds the argument to buffer 0 (RW or W), records the rank. */
static void bump(void *buffers[], void *cl_arg)
{
	int k;
	starpu_codelet_unpack_args(cl_arg, &k);
	*(int *)STARPU_VARIABLE_GET_PTR(buffers[0]) += k;
	__atomic_add_fetch(&ran_count, 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet rw_r = {.cpu_funcs = {bump}, .nbuffers = 2, .modes = {STARPU_RW, STARPU_R}, .name = "rw_r"};
static struct starpu_codelet rw_rw = {.cpu_funcs = {bump}, .nbuffers = 2, .modes = {STARPU_RW, STARPU_RW}, .name = "rw_rw"};
static struct starpu_codelet rw = {.cpu_funcs = {bump}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "rw"};

static int runs(void)
{
	starpu_task_wait_for_all();
	return __atomic_exchange_n(&ran_count, 0, __ATOMIC_SEQ_CST);
}

static int last_rank(int me, int nb_nodes, struct starpu_data_descr *descr, int nb_data)
{
	(void)me;
	(void)descr;
	(void)nb_data;
	return nb_nodes - 1;
}

static int hooked;

static void hook(struct starpu_task *task)
{
	(void)task;
	hooked++;
}

static int value_of(starpu_data_handle_t h, int *v)
{
	MUST(starpu_data_acquire(h, STARPU_R));
	int r = *v;
	starpu_data_release(h);
	return r;
}

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 1);
	int last = mt_size - 1;
	int x0 = mt_rank == 0 ? 10 : -1, x1 = mt_rank == 1 ? 20 : -1;
	starpu_data_handle_t h0, h1;
	if (mt_rank == 0)
		starpu_variable_data_register(&h0, STARPU_MAIN_RAM, (uintptr_t)&x0, sizeof(int));
	else
		starpu_variable_data_register(&h0, -1, 0, sizeof(int));
	if (mt_rank == 1)
		starpu_variable_data_register(&h1, STARPU_MAIN_RAM, (uintptr_t)&x1, sizeof(int));
	else
		starpu_variable_data_register(&h1, -1, 0, sizeof(int));
	starpu_mpi_data_register(h0, 0, 0);
	starpu_mpi_data_register(h1, 1, 1);
	int one = 1;

	/* 1. owner computes */
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_r, STARPU_RW, h0, STARPU_R, h1, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 0), "RW x0 / R x1 ran here");
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_r, STARPU_RW, h1, STARPU_R, h0, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 1), "RW x1 / R x0 ran here");
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_rw, STARPU_RW, h0, STARPU_RW, h1, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 0), "RW x0 / RW x1 ran here (two owners: the policy chose)");

	/* 2. explicit choices; x0 written on the last rank comes back to rank 0 */
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw, STARPU_RW, h0, STARPU_VALUE, &one, sizeof(one),
				    STARPU_EXECUTE_ON_NODE, last, 0));
	CHECK(runs() == (mt_rank == last), "EXECUTE_ON_NODE %d", last);
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_r, STARPU_RW, h0, STARPU_R, h1, STARPU_VALUE, &one, sizeof(one),
				    STARPU_EXECUTE_ON_DATA, h1, 0));
	CHECK(runs() == (mt_rank == 1), "EXECUTE_ON_DATA x1");
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (mt_rank == 0)
		CHECK(value_of(h0, &x0) == 14, "x0 = %d after four increments, two elsewhere", x0);

	/* 3. an application policy */
	int policy = starpu_mpi_node_selection_register_policy(last_rank);
	CHECK(policy > STARPU_MPI_NODE_SELECTION_MOST_R_DATA, "policy number %d", policy);
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_rw, STARPU_RW, h0, STARPU_RW, h1, STARPU_VALUE, &one, sizeof(one),
				    STARPU_NODE_SELECTION_POLICY, policy, 0));
	CHECK(runs() == (mt_rank == last), "the application policy chose the last rank");
	MUST(starpu_mpi_node_selection_set_current_policy(policy));
	CHECK(starpu_mpi_node_selection_get_current_policy() == policy, "current policy");
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_rw, STARPU_RW, h0, STARPU_RW, h1, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == last), "the current policy chose the last rank");
	MUST(starpu_mpi_node_selection_unregister_policy(policy));
	CHECK(starpu_mpi_node_selection_get_current_policy() == STARPU_MPI_NODE_SELECTION_MOST_R_DATA, "back to the default");

	/* 4. data arrays */
	starpu_data_handle_t arr[2] = {h1, h0};
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_r, STARPU_DATA_ARRAY, arr, 2, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 1), "DATA_ARRAY writes x1");
	struct starpu_data_descr descrs[2] = {{h0, STARPU_RW}, {h1, STARPU_R}};
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw_r, STARPU_DATA_MODE_ARRAY, descrs, 2, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 0), "DATA_MODE_ARRAY writes x0");

	/* 5. build / post_build and the hook */
	MUST(starpu_mpi_pre_submit_hook_register(hook));
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw, STARPU_RW, h1, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 1), "task with a hook");
	CHECK(hooked == (mt_rank == 1), "the hook saw %d tasks", hooked);
	MUST(starpu_mpi_pre_submit_hook_unregister());
	struct starpu_task *t = starpu_mpi_task_build(MPI_COMM_WORLD, &rw_r, STARPU_RW, h1, STARPU_R, h0, STARPU_VALUE, &one, sizeof(one), 0);
	CHECK((t != NULL) == (mt_rank == 1), "built task %p", (void *)t);
	if (t)
		MUST(starpu_task_submit(t));
	MUST(starpu_mpi_task_post_build(MPI_COMM_WORLD, &rw_r, STARPU_RW, h1, STARPU_R, h0, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == (mt_rank == 1), "built task ran");
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (mt_rank == 1)
		CHECK(value_of(h1, &x1) == 24, "x1 = %d", x1);

	/* 6. per-node data */
	int mine = 100 * mt_rank;
	starpu_data_handle_t hp;
	starpu_variable_data_register(&hp, STARPU_MAIN_RAM, (uintptr_t)&mine, sizeof(int));
	starpu_mpi_data_register(hp, 50, STARPU_MPI_PER_NODE);
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw, STARPU_RW, hp, STARPU_VALUE, &one, sizeof(one), 0));
	CHECK(runs() == 1, "a task writing per-node data runs everywhere");
	CHECK(value_of(hp, &mine) == 100 * mt_rank + 1, "per-node value %d", mine);

	/* 7. exchanges around a task made by hand (x0 written, read x1: runs on rank 0) */
	struct starpu_task *manual = starpu_task_create();
	manual->cl = &rw_r;
	manual->handles[0] = h0;
	manual->handles[1] = h1;
	int k = 5;
	starpu_codelet_pack_args(&manual->cl_arg, &manual->cl_arg_size, STARPU_VALUE, &k, sizeof(k), 0);
	manual->cl_arg_free = 1;
	struct starpu_data_descr d[2];
	struct starpu_mpi_task_exchange_params params;
	MUST(starpu_mpi_task_exchange_data_before_execution(MPI_COMM_WORLD, manual, d, &params));
	CHECK(params.xrank == 0 && params.do_execute == (mt_rank == 0), "xrank %d do_execute %d", params.xrank, params.do_execute);
	if (params.do_execute)
		MUST(starpu_task_submit(manual));
	else
		starpu_task_destroy(manual);
	MUST(starpu_mpi_task_exchange_data_after_execution(MPI_COMM_WORLD, d, 2, params));
	CHECK(runs() == (mt_rank == 0), "the task made by hand ran");

	/* 8. the cache: rank 0 received x1 above; writing x1 clears it */
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (mt_rank == 0)
		CHECK(starpu_mpi_cached_receive(h1), "x1 cached on rank 0");
	if (mt_rank == 1)
		CHECK(starpu_mpi_cached_send(h1, 0), "x1 sent to rank 0, cached on rank 1");
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &rw, STARPU_RW, h1, STARPU_VALUE, &one, sizeof(one), 0));
	runs();
	CHECK(!starpu_mpi_cached_receive(h1) && !starpu_mpi_cached_send(h1, 0), "x1 written: the caches forgot it");

	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	starpu_data_unregister(hp);
	starpu_data_unregister(h0);
	starpu_data_unregister(h1);
	if (mt_rank == 0)
		CHECK(x0 == 14 + 2 + 1 + 5, "x0 = %d at the end", x0);
	if (mt_rank == 1)
		CHECK(x1 == 25, "x1 = %d at the end", x1);
	return mt_finish();
}
