/* Ping-pong between ranks 0 and 1: one-way latency and bandwidth of raw MPI
 * (MPI_Send / MPI_Recv) and of StarPU-MPI on a vector handle (starpu_mpi_isend /
 * starpu_mpi_irecv, then starpu_mpi_wait), in the same run, for sizes from 8 B to 16 MiB.
 *
 *   mpirun -np 2 ./pingpong            (built against starpumpi-1.4, or Debian's 1.3)
 *
 * MPI is started here (MPI_THREAD_SERIALIZED) and measured before StarPU-MPI starts, so
 * that no two threads call MPI at once. For each size, a few round trips calibrate a
 * batch of about 0.1 s (rank 0 decides, and tells rank 1), then 5 batches run; one line
 * per size and implementation: size, one-way latency (half the round trip, median of
 * the batches), bandwidth.
 */
#include <starpu_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 5

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int rank;

/* One round trip of `size` bytes, raw MPI. */
static void raw_trip(char *buf, size_t size)
{
	if (rank == 0) {
		MPI_Send(buf, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
		MPI_Recv(buf, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(buf, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(buf, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
	}
}

static starpu_data_handle_t handle;
static starpu_mpi_tag_t next_tag;

/* One round trip of the handle through StarPU-MPI. */
static void starpu_trip(void)
{
	starpu_mpi_req req;
	starpu_mpi_tag_t tag = next_tag++;
	if (rank == 0) {
		starpu_mpi_isend(handle, &req, 1, tag, MPI_COMM_WORLD);
		starpu_mpi_wait(&req, MPI_STATUS_IGNORE);
		starpu_mpi_irecv(handle, &req, 1, tag, MPI_COMM_WORLD);
		starpu_mpi_wait(&req, MPI_STATUS_IGNORE);
	} else {
		starpu_mpi_irecv(handle, &req, 0, tag, MPI_COMM_WORLD);
		starpu_mpi_wait(&req, MPI_STATUS_IGNORE);
		starpu_mpi_isend(handle, &req, 0, tag, MPI_COMM_WORLD);
		starpu_mpi_wait(&req, MPI_STATUS_IGNORE);
	}
}

/* Rank 0's value of `n`, on both ranks (raw MPI, or StarPU-MPI once it runs). */
static int agree(int n, int use_starpu)
{
	if (!use_starpu) {
		MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
		return n;
	}
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&n, sizeof(n));
	if (rank == 0)
		starpu_mpi_send(h, 1, ((starpu_mpi_tag_t)1 << 40) + next_tag, MPI_COMM_WORLD);
	else
		starpu_mpi_recv(h, 0, ((starpu_mpi_tag_t)1 << 40) + next_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	starpu_data_unregister(h);
	return n;
}

static void trip(int use_starpu, char *buf, size_t size)
{
	if (use_starpu)
		starpu_trip();
	else
		raw_trip(buf, size);
}

/* Median one-way time over BATCHES batches of round trips of about 0.1 s each. */
static double measure(int use_starpu, char *buf, size_t size, int (*sync)(void))
{
	double t[BATCHES], t0 = now();
	for (int w = 0; w < 5; w++)
		trip(use_starpu, buf, size);
	double per_trip = (now() - t0) / 5;
	int n = per_trip > 0 ? (int)(0.1 / per_trip) : 20000;
	n = agree(n < 5 ? 5 : n > 20000 ? 20000 : n, use_starpu);
	for (int b = 0; b < BATCHES; b++) {
		sync();
		t0 = now();
		for (int i = 0; i < n; i++)
			trip(use_starpu, buf, size);
		t[b] = (now() - t0) / n / 2;
	}
	qsort(t, BATCHES, sizeof(double), cmp);
	return t[BATCHES / 2];
}

static int raw_barrier(void)
{
	return MPI_Barrier(MPI_COMM_WORLD);
}

static int starpu_barrier(void)
{
	return starpu_mpi_barrier(MPI_COMM_WORLD);
}

static void report(const char *impl, size_t size, double t)
{
	if (rank == 0)
		printf("%-12s size=%9zu latency_us=%9.2f bandwidth_MBps=%9.1f\n", impl, size, t * 1e6, size / t / 1e6);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = {8, 1024, 65536, 1 << 20, 16 << 20};
	int nsizes = sizeof(sizes) / sizeof(sizes[0]), provided, size;
	const char *impl = argc > 1 ? argv[1] : "starpu-mpi";
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "run with 2 processes\n");
		MPI_Finalize();
		return 1;
	}
	char *buf = calloc(sizes[nsizes - 1], 1);
	double raw[8];
	for (int s = 0; s < nsizes; s++)
		raw[s] = measure(0, buf, sizes[s], raw_barrier);

	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.ncpus = 1;
	if (starpu_mpi_init_conf(&argc, &argv, 0, MPI_COMM_WORLD, &conf) != 0)
		return 1;
	for (int s = 0; s < nsizes; s++) {
		starpu_vector_data_register(&handle, STARPU_MAIN_RAM, (uintptr_t)buf, sizes[s], 1);
		double t = measure(1, buf, sizes[s], starpu_barrier);
		starpu_data_unregister(handle);
		report("raw-mpi", sizes[s], raw[s]);
		report(impl, sizes[s], t);
	}
	starpu_mpi_shutdown();
	free(buf);
	MPI_Finalize();
	return 0;
}
