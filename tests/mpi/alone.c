/* StarPU-MPI in one process (run.sh runs this one under `mpirun -np 1`): its progression
 * thread sleeps while nothing is in flight, since no other process can send anything,
 * and must still wake for the messages this process sends itself, before and after idle
 * spells and across a barrier. */
#include "mpi_test.h"
#include <unistd.h>

/* `value` sent by this process to itself under `tag`; what arrived. */
static int self_roundtrip(int value, starpu_mpi_tag_t tag)
{
	int x = value, y = -1;
	starpu_data_handle_t hx, hy;
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	starpu_variable_data_register(&hy, STARPU_MAIN_RAM, (uintptr_t)&y, sizeof(y));
	MUST(starpu_mpi_isend_detached(hx, 0, tag, MPI_COMM_WORLD, NULL, NULL));
	MUST(starpu_mpi_recv(hy, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	starpu_data_unregister(hx);
	starpu_data_unregister(hy);
	return y;
}

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 1);
	CHECK(mt_size == 1, "%d processes, run this test alone", mt_size);
	int got = self_roundtrip(7, 1);
	CHECK(got == 7, "got %d", got);
	usleep(300 * 1000);
	got = self_roundtrip(11, 2);
	CHECK(got == 11, "got %d after an idle spell", got);
	usleep(300 * 1000);
	MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
	got = self_roundtrip(13, 3);
	CHECK(got == 13, "got %d after a barrier", got);
	return mt_finish();
}
