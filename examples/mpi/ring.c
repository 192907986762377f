/* The StarPU-MPI handbook's token ring: a token starts at 0 on rank 0 and goes around
 * the ring of processes NLOOPS times, incremented by a task on each. The transfers are
 * detached and the tasks asynchronous: sequential consistency orders each receive, the
 * increment and the send; the program only waits at the end.
 *
 *   mpirun -np 4 ./ring [nloops]
 */
#include <starpu_mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void increment(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	unsigned *token = (unsigned *)STARPU_VECTOR_GET_PTR(buffers[0]);
	(*token)++;
}

static struct starpu_codelet increment_cl = {
	.cpu_funcs = {increment},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "increment",
};

int main(int argc, char **argv)
{
	int rank, size;
	unsigned nloops = argc > 1 ? (unsigned)atoi(argv[1]) : 32;
	unsigned token = 0;
	starpu_data_handle_t token_handle;

	if (starpu_mpi_init_conf(&argc, &argv, 1, MPI_COMM_WORLD, NULL) != 0)
		return 1;
	starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank);
	starpu_mpi_comm_size(MPI_COMM_WORLD, &size);
	starpu_vector_data_register(&token_handle, STARPU_MAIN_RAM, (uintptr_t)&token, 1, sizeof(token));

	unsigned last_loop = nloops - 1;
	int last_rank = size - 1;
	for (unsigned loop = 0; loop < nloops; loop++) {
		starpu_mpi_tag_t tag = (starpu_mpi_tag_t)loop * size + rank;
		if (loop == 0 && rank == 0) {
			starpu_data_acquire(token_handle, STARPU_W);
			token = 0;
			printf("Start with token value %u\n", token);
			starpu_data_release(token_handle);
		} else {
			starpu_mpi_irecv_detached(token_handle, (rank + size - 1) % size, tag, MPI_COMM_WORLD, NULL, NULL);
		}
		if (starpu_task_insert(&increment_cl, STARPU_RW, token_handle, 0) != 0)
			return 1;
		if (!(loop == last_loop && rank == last_rank))
			starpu_mpi_isend_detached(token_handle, (rank + 1) % size, tag + 1, MPI_COMM_WORLD, NULL, NULL);
	}
	starpu_mpi_wait_for_all(MPI_COMM_WORLD);
	starpu_data_unregister(token_handle);
	starpu_mpi_shutdown();

	if (rank == last_rank) {
		printf("Finished: token value %u (expected %u on rank %d)\n", token, nloops * size, rank);
		return token == nloops * (unsigned)size ? 0 : 1;
	}
	return 0;
}
