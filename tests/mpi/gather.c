/* Gathers and scatters: 4 blocks per process, block i owned by rank i % size.
 *
 *  1. starpu_mpi_gather_detached brings every block to rank 0, whose callback runs once
 *     all arrived (and each owner's once its blocks left); rank 0 then sees every value;
 *  2. rank 0 changes every block and starpu_mpi_scatter_detached sends each back to its
 *     owner, which sees the change;
 *  3. starpu_mpi_get_data_on_node brings one block to rank size-1, and
 *     starpu_mpi_get_data_on_all_nodes_detached another everywhere;
 *  4. starpu_mpi_data_migrate makes rank 1 the owner of block 0.
 */
#include "mpi_test.h"
#include <unistd.h>

#define PER_RANK 4
#define N 16

static int root_done, owner_done;

static void mark(void *flag)
{
	__atomic_store_n((int *)flag, 1, __ATOMIC_SEQ_CST);
}

static void wait_flag(int *flag)
{
	for (int i = 0; i < 10000 && !__atomic_load_n(flag, __ATOMIC_SEQ_CST); i++)
		usleep(1000);
}

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 1);
	int nblocks = PER_RANK * mt_size;
	long *data = calloc((size_t)nblocks * N, sizeof(long));
	starpu_data_handle_t *h = calloc(nblocks, sizeof(*h));
	for (int b = 0; b < nblocks; b++) {
		int owner = b % mt_size;
		if (owner == mt_rank) {
			for (int i = 0; i < N; i++)
				data[b * N + i] = 1000L * b + i;
		}
		/* Every process has room for every block (rank 0 gathers them all). */
		starpu_vector_data_register(&h[b], STARPU_MAIN_RAM, (uintptr_t)&data[b * N], N, sizeof(long));
		starpu_mpi_data_register(h[b], 100 + b, owner);
		CHECK(starpu_mpi_data_get_rank(h[b]) == owner, "block %d owner %d", b, starpu_mpi_data_get_rank(h[b]));
		CHECK(starpu_mpi_data_get_tag(h[b]) == 100 + b, "block %d tag %ld", b, (long)starpu_mpi_data_get_tag(h[b]));
	}

	/* 1. gather at rank 0 */
	MUST(starpu_mpi_gather_detached(h, nblocks, 0, MPI_COMM_WORLD, mark, &owner_done, mark, &root_done));
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (mt_rank == 0) {
		CHECK(root_done, "the root's gather callback did not run");
		for (int b = 0; b < nblocks; b++)
			for (int i = 0; i < N; i++)
				CHECK(data[b * N + i] == 1000L * b + i, "gathered block %d[%d] = %ld", b, i, data[b * N + i]);
	} else {
		CHECK(owner_done, "an owner's gather callback did not run");
	}

	/* 2. rank 0 changes every block, scatters them back */
	root_done = owner_done = 0;
	if (mt_rank == 0)
		for (int i = 0; i < nblocks * N; i++)
			data[i] = -data[i];
	MUST(starpu_mpi_scatter_detached(h, nblocks, 0, MPI_COMM_WORLD, mark, &root_done, mark, &owner_done));
	wait_flag(mt_rank == 0 ? &root_done : &owner_done);
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	CHECK(mt_rank == 0 ? root_done : owner_done, "the scatter callback did not run");
	for (int b = mt_rank; b < nblocks; b += mt_size) {
		MUST(starpu_data_acquire(h[b], STARPU_R));
		for (int i = 0; i < N; i++)
			CHECK(data[b * N + i] == -(1000L * b + i), "scattered block %d[%d] = %ld", b, i, data[b * N + i]);
		starpu_data_release(h[b]);
	}

	/* 3. one block to the last rank, another everywhere */
	int last = mt_size - 1, b1 = 1, b2 = 2;
	MUST(starpu_mpi_get_data_on_node(MPI_COMM_WORLD, h[b1], last));
	starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, h[b2]);
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (mt_rank == last)
		CHECK(data[b1 * N + 3] == -(1000L * b1 + 3), "block %d on the last rank: %ld", b1, data[b1 * N + 3]);
	CHECK(data[b2 * N + 5] == -(1000L * b2 + 5), "block %d everywhere: %ld", b2, data[b2 * N + 5]);
	if (mt_rank != b1 % mt_size && mt_rank == last)
		CHECK(starpu_mpi_cached_receive(h[b1]), "the block received is in the cache");

	/* 4. block 0 moves to rank 1 */
	starpu_mpi_data_migrate(MPI_COMM_WORLD, h[0], 1);
	CHECK(starpu_mpi_data_get_rank(h[0]) == 1, "block 0 owner after migration: %d", starpu_mpi_data_get_rank(h[0]));
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (mt_rank == 1)
		CHECK(data[7] == -7, "migrated block 0[7] = %ld", data[7]);

	for (int b = 0; b < nblocks; b++)
		starpu_data_unregister(h[b]);
	free(h);
	free(data);
	return mt_finish();
}
