/* A distributed reduction: every process owns blocks of a vector; the dot product of
 * the vector with itself accumulates in one variable owned by rank 0, through tasks in
 * STARPU_REDUX mode run where the blocks are (STARPU_EXECUTE_ON_DATA), then
 * starpu_mpi_redux_data at rank 0. Three rounds: flat, then a binary tree, then the
 * reduction made by a task reading the result (no explicit call). Each round checks the
 * total, which also counts the variable's initial value. */
#include "mpi_test.h"

#define BLOCKS_PER_RANK 6
#define N 50

static void dot(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	const long *x = (const long *)STARPU_VECTOR_GET_PTR(buffers[0]);
	long *acc = (long *)STARPU_VARIABLE_GET_PTR(buffers[1]);
	for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++)
		*acc += x[i] * x[i];
}

static void zero(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	*(long *)STARPU_VARIABLE_GET_PTR(buffers[0]) = 0;
}

static void add(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	*(long *)STARPU_VARIABLE_GET_PTR(buffers[0]) += *(long *)STARPU_VARIABLE_GET_PTR(buffers[1]);
}

static long seen;

static void read_result(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	seen = *(long *)STARPU_VARIABLE_GET_PTR(buffers[0]);
}

static struct starpu_codelet dot_cl = {.cpu_funcs = {dot}, .nbuffers = 2, .modes = {STARPU_R, STARPU_REDUX}, .name = "dot"};
static struct starpu_codelet zero_cl = {.cpu_funcs = {zero}, .nbuffers = 1, .modes = {STARPU_W}, .name = "zero"};
static struct starpu_codelet add_cl = {.cpu_funcs = {add}, .nbuffers = 2, .modes = {STARPU_RW | STARPU_COMMUTE, STARPU_R}, .name = "add"};
static struct starpu_codelet read_cl = {.cpu_funcs = {read_result}, .nbuffers = 1, .modes = {STARPU_R}, .name = "read"};

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 2);
	int nblocks = BLOCKS_PER_RANK * mt_size;
	long *x = calloc((size_t)nblocks * N, sizeof(long));
	starpu_data_handle_t *h = calloc(nblocks, sizeof(*h));
	long per_round = 0;
	for (int b = 0; b < nblocks; b++) {
		int owner = b % mt_size;
		for (int i = 0; i < N; i++) {
			long v = b * N + i + 1;
			per_round += v * v;
			if (owner == mt_rank)
				x[b * N + i] = v;
		}
		if (owner == mt_rank)
			starpu_vector_data_register(&h[b], STARPU_MAIN_RAM, (uintptr_t)&x[b * N], N, sizeof(long));
		else
			starpu_vector_data_register(&h[b], -1, 0, N, sizeof(long));
		starpu_mpi_data_register(h[b], b, owner);
	}
	long result = 7;
	starpu_data_handle_t acc;
	if (mt_rank == 0)
		starpu_variable_data_register(&acc, STARPU_MAIN_RAM, (uintptr_t)&result, sizeof(result));
	else
		starpu_variable_data_register(&acc, -1, 0, sizeof(long));
	starpu_mpi_data_register(acc, nblocks, 0);
	starpu_data_set_reduction_methods(acc, &add_cl, &zero_cl);

	for (int round = 0; round < 3; round++) {
		for (int b = 0; b < nblocks; b++)
			MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &dot_cl, STARPU_R, h[b], STARPU_REDUX, acc,
						    STARPU_EXECUTE_ON_DATA, h[b], 0));
		if (round == 0)
			MUST(starpu_mpi_redux_data(MPI_COMM_WORLD, acc));
		else if (round == 1)
			MUST(starpu_mpi_redux_data_tree(MPI_COMM_WORLD, acc, 2));
		/* Round 2: reading the result makes the pending reduction first. */
		MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &read_cl, STARPU_R, acc, 0));
		MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
		if (mt_rank == 0) {
			long want = 7 + (round + 1) * per_round;
			CHECK(seen == want, "round %d: result %ld, expected %ld", round, seen, want);
		}
	}
	starpu_data_unregister(acc);
	for (int b = 0; b < nblocks; b++)
		starpu_data_unregister(h[b]);
	if (mt_rank == 0)
		printf("dot product after 3 rounds: %ld\n", result);
	free(h);
	free(x);
	return mt_finish();
}
