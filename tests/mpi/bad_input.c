/* Misuse gets a clear error on the process that erred, and the others go on: every case
 * is followed by a ring over all processes that must still work, and nothing hangs.
 *
 *  0. a call before StarPU-MPI is started;
 *  1. an unknown rank (destination, source, owner, executing rank);
 *  2. a tag clash: a second piece of data registered with a tag already taken;
 *  3. mismatched sizes: 10 ints sent, 5 expected (blocking and detached receives);
 *  4. a handle not registered with StarPU-MPI given to starpu_mpi_task_insert;
 *  5. a blocking call from a communication callback;
 *  6. waiting for a NULL request.
 */
#include "mpi_test.h"
#include "stderr_capture.h"

static struct tc_capture cap;

/* Checks that what was printed since `begin` contains `what`. */
#define SAID(what)                                                                         \
	do {                                                                               \
		tc_capture_read(&cap);                                                     \
		CHECK(strstr(cap.text, what) != NULL, "stderr lacks \"%s\"; it has: %s", what, \
		      cap.text);                                                           \
	} while (0)

static int ring_value;

/* A token around every process: proves that none is stuck. */
static void ring(int round)
{
	starpu_data_handle_t h;
	int token = 0;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&token, sizeof(token));
	starpu_mpi_tag_t tag = 1000 + round;
	int prev = (mt_rank + mt_size - 1) % mt_size, next = (mt_rank + 1) % mt_size;
	if (mt_rank > 0)
		MUST(starpu_mpi_recv(h, prev, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	MUST(starpu_data_acquire(h, STARPU_RW));
	token++;
	starpu_data_release(h);
	if (mt_rank < mt_size - 1)
		MUST(starpu_mpi_send(h, next, tag, MPI_COMM_WORLD));
	starpu_data_unregister(h);
	if (mt_rank == mt_size - 1)
		CHECK(token == mt_size, "round %d: token %d", round, token);
	ring_value = token;
}

static int deadlock_ret = 1;
static starpu_data_handle_t cb_handle;

static void blocking_in_callback(void *arg)
{
	(void)arg;
	deadlock_ret = starpu_mpi_send(cb_handle, 1, 77, MPI_COMM_WORLD);
}

static void increment(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	(*(int *)STARPU_VARIABLE_GET_PTR(buffers[0]))++;
}

static struct starpu_codelet inc_cl = {.cpu_funcs = {increment}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "inc"};

int main(int argc, char **argv)
{
	int x = 0;

	/* 0. before the start */
	tc_capture_begin(&cap);
	CHECK(starpu_mpi_barrier(MPI_COMM_WORLD) < 0, "a barrier before the start");
	SAID("not initialised");
	tc_capture_end(&cap);

	mt_init(&argc, &argv, 1);
	starpu_data_handle_t hx;
	starpu_variable_data_register(&hx, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));

	/* 1. unknown ranks, on rank 0 only */
	if (mt_rank == 0) {
		tc_capture_begin(&cap);
		CHECK(starpu_mpi_isend_detached(hx, 99, 1, MPI_COMM_WORLD, NULL, NULL) == -EINVAL, "send to rank 99");
		SAID("destination rank 99 does not exist");
		starpu_mpi_req req = NULL;
		CHECK(starpu_mpi_irecv(hx, &req, -7, 1, MPI_COMM_WORLD) == -EINVAL, "receive from rank -7");
		SAID("source rank -7 does not exist");
		CHECK(req == NULL, "no request made");
		starpu_mpi_data_register(hx, 5, 42);
		SAID("owner rank 42 does not exist");
		CHECK(starpu_mpi_data_get_rank(hx) == -1, "the bad owner was not kept");
		tc_capture_end(&cap);
	}
	ring(1);

	/* 2. a tag clash, on rank 1 */
	if (mt_rank == 1) {
		starpu_data_handle_t a, b;
		int va = 0, vb = 0;
		starpu_variable_data_register(&a, STARPU_MAIN_RAM, (uintptr_t)&va, sizeof(va));
		starpu_variable_data_register(&b, STARPU_MAIN_RAM, (uintptr_t)&vb, sizeof(vb));
		starpu_mpi_data_register(a, 7, 1);
		tc_capture_begin(&cap);
		starpu_mpi_data_register(b, 7, 1);
		SAID("tag 7 is already the tag of data");
		tc_capture_end(&cap);
		CHECK(starpu_mpi_data_get_tag(b) == -1, "the clashing tag was not given to the second data");
		CHECK(starpu_mpi_data_get_tag(a) == 7, "the first data keeps its tag");
		starpu_data_unregister(a);
		/* Once the first is gone, its tag is free again. */
		starpu_mpi_data_register(b, 7, 1);
		CHECK(starpu_mpi_data_get_tag(b) == 7, "the freed tag is given");
		starpu_data_unregister(b);
	}
	ring(2);

	/* 3. mismatched sizes: rank 2 sends 10 ints, rank 3 expects 5 */
	if (mt_size >= 4 && mt_rank >= 2) {
		int ten[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, five[5] = {0};
		starpu_data_handle_t h10, h5;
		starpu_vector_data_register(&h10, STARPU_MAIN_RAM, (uintptr_t)ten, 10, sizeof(int));
		starpu_vector_data_register(&h5, STARPU_MAIN_RAM, (uintptr_t)five, 5, sizeof(int));
		if (mt_rank == 2) {
			MUST(starpu_mpi_send(h10, 3, 9, MPI_COMM_WORLD));
			MUST(starpu_mpi_isend_detached(h10, 3, 10, MPI_COMM_WORLD, NULL, NULL));
		} else {
			tc_capture_begin(&cap);
			CHECK(starpu_mpi_recv(h5, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == -EINVAL, "mismatched receive");
			SAID("takes 20 bytes, 40 bytes arrived");
			MUST(starpu_mpi_irecv_detached(h5, 2, 10, MPI_COMM_WORLD, NULL, NULL));
			MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
			SAID("receive from rank 2 (tag 10)");
			tc_capture_end(&cap);
			for (int i = 0; i < 5; i++)
				CHECK(five[i] == 0, "nothing written on a mismatch: five[%d] = %d", i, five[i]);
		}
		MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
		starpu_data_unregister(h10);
		starpu_data_unregister(h5);
	}
	ring(3);

	/* 4. data not registered with StarPU-MPI, and a bad executing rank, everywhere */
	tc_capture_begin(&cap);
	CHECK(starpu_mpi_task_insert(MPI_COMM_WORLD, &inc_cl, STARPU_RW, hx, 0) == -EINVAL, "task on unregistered data");
	SAID("is not registered with StarPU-MPI");
	starpu_mpi_data_register(hx, 500 + mt_rank, mt_rank);
	CHECK(starpu_mpi_task_insert(MPI_COMM_WORLD, &inc_cl, STARPU_RW, hx, STARPU_EXECUTE_ON_NODE, 99, 0) == -EINVAL,
	      "task on rank 99");
	SAID("executing rank 99 does not exist");
	tc_capture_end(&cap);
	MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &inc_cl, STARPU_RW, hx, 0));
	ring(4);

	/* 5. a blocking call from a callback: rank 0 sends to rank 1 */
	if (mt_rank <= 1) {
		cb_handle = hx;
		if (mt_rank == 0)
			MUST(starpu_mpi_isend_detached(hx, 1, 77, MPI_COMM_WORLD, blocking_in_callback, NULL));
		else
			MUST(starpu_mpi_recv(hx, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
		if (mt_rank == 0)
			CHECK(deadlock_ret == -EDEADLK, "a blocking send from a callback returned %d", deadlock_ret);
	}
	ring(5);

	/* 6. waiting for nothing */
	tc_capture_begin(&cap);
	starpu_mpi_req none = NULL;
	CHECK(starpu_mpi_wait(&none, MPI_STATUS_IGNORE) == -EINVAL, "wait for a NULL request");
	SAID("the request is NULL");
	tc_capture_end(&cap);

	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	starpu_data_unregister(hx);
	CHECK(x == 1 || mt_rank == 1, "x = %d", x);
	return mt_finish();
}
