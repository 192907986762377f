/* A token goes around the ring of processes, incremented by a task on each: blocking
 * send/recv for the first laps, then detached isend/irecv with callbacks, so that the
 * task graph orders each increment between the receive and the send. */
#include "mpi_test.h"

#define LAPS 12

static void increment(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	int *token = (int *)STARPU_VARIABLE_GET_PTR(buffers[0]);
	(*token)++;
}

static struct starpu_codelet increment_cl = {
	.cpu_funcs = {increment},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "increment",
};

static int received, sent;

static void count(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 1);
	int token = 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&token, sizeof(token));
	int prev = (mt_rank + mt_size - 1) % mt_size, next = (mt_rank + 1) % mt_size;
	for (int lap = 0; lap < LAPS; lap++) {
		/* The token's n-th hop travels under tag n << 32, far beyond what an MPI tag
		 * holds: StarPU-MPI's tags are 64-bit. */
		starpu_mpi_tag_t hop = (starpu_mpi_tag_t)lap * mt_size + mt_rank;
		starpu_mpi_tag_t from_prev = hop << 32, tag = (hop + 1) << 32;
		int blocking = lap < LAPS / 2;
		if (lap > 0 || mt_rank > 0) {
			if (blocking) {
				MPI_Status st;
				MUST(starpu_mpi_recv(h, prev, from_prev, MPI_COMM_WORLD, &st));
				CHECK(st.MPI_SOURCE == prev, "status source %d, expected %d", st.MPI_SOURCE, prev);
			} else {
				MUST(starpu_mpi_irecv_detached(h, prev, from_prev, MPI_COMM_WORLD, count, &received));
			}
		}
		MUST(starpu_task_insert(&increment_cl, STARPU_RW, h, 0));
		if (lap < LAPS - 1 || mt_rank < mt_size - 1) {
			if (blocking)
				MUST(starpu_mpi_send(h, next, tag, MPI_COMM_WORLD));
			else
				MUST(starpu_mpi_isend_detached(h, next, tag, MPI_COMM_WORLD, count, &sent));
		}
	}
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	starpu_data_unregister(h);
	int laps_async = LAPS - LAPS / 2;
	CHECK(received == laps_async, "%d detached receives ended, expected %d", received, laps_async);
	int sends = mt_rank == mt_size - 1 ? laps_async - 1 : laps_async;
	CHECK(sent == sends, "%d detached sends ended, expected %d", sent, sends);
	if (mt_rank == mt_size - 1)
		CHECK(token == LAPS * mt_size, "token %d, expected %d", token, LAPS * mt_size);
	printf("[rank %d] token %d\n", mt_rank, token);
	return mt_finish();
}
