/* A distributed tiled Cholesky factorisation (A = L L^T, lower) with StarPU-MPI.
 *
 *   mpirun -np N ./cholesky [n=1024] [nb=128] [check=1]
 *
 * The T x T tiles (T = n / nb) of the lower triangle are dealt to a P x Q grid of
 * processes, 2D block-cyclic: tile (i, j) belongs to rank (i % P) * Q + (j % Q). Every
 * process inserts every task with starpu_mpi_task_insert, in the usual right-looking
 * order; each runs on the owner of the tile it writes, and StarPU-MPI moves the tiles
 * read elsewhere (once per version, thanks to its cache). The time is from the first
 * insertion until every process has finished (starpu_mpi_wait_for_all, then a barrier);
 * GFlop/s counts n^3/3 flops.
 *
 * With check=1, rank 0 then gathers every tile (starpu_mpi_get_data_on_node) and
 * compares L with LAPACK's dpotrf of the whole matrix: the program fails when the
 * largest difference, relative to the largest entry of L, exceeds 1e-10.
 */
#include <starpu_mpi.h>
#include <time.h>
#include "chol_codelets.h"

static int P, Q;

static int owner(long i, long j)
{
	return (int)((i % P) * Q + (j % Q));
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The largest relative difference between the gathered factor and LAPACK's. */
static double compare_with_lapack(double **tiles, starpu_data_handle_t *h, long n, long nb)
{
	long T = n / nb;
	double *a = malloc((size_t)n * n * sizeof(double));
	for (long j = 0; j < n; j++)
		for (long i = 0; i < n; i++)
			a[j * n + i] = spd_entry(n, i, j);
	if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (int)n, a, (int)n) != 0) {
		free(a);
		return INFINITY;
	}
	double maxdiff = 0, maxl = 0;
	for (long ti = 0; ti < T; ti++)
		for (long tj = 0; tj <= ti; tj++) {
			starpu_data_handle_t t = h[ti * T + tj];
			starpu_data_acquire(t, STARPU_R);
			const double *tile = tiles[ti * T + tj] ? tiles[ti * T + tj] : (const double *)starpu_matrix_get_local_ptr(t);
			long ld = tiles[ti * T + tj] ? nb : (long)starpu_matrix_get_local_ld(t);
			for (long c = 0; c < nb; c++)
				for (long r = 0; r < nb; r++) {
					long i = ti * nb + r, j = tj * nb + c;
					if (i < j)
						continue;
					double want = a[j * n + i], got = tile[c * ld + r];
					maxl = fmax(maxl, fabs(want));
					maxdiff = fmax(maxdiff, isnan(got) ? INFINITY : fabs(got - want));
				}
			starpu_data_release(t);
		}
	free(a);
	return maxdiff / maxl;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1024;
	long nb = argc > 2 ? atol(argv[2]) : 128;
	int check = argc > 3 ? atoi(argv[3]) : 1;
	int rank, size;
	if (nb <= 0 || n % nb) {
		fprintf(stderr, "n must be a multiple of nb\n");
		return 2;
	}
	if (starpu_mpi_init_conf(&argc, &argv, 1, MPI_COMM_WORLD, NULL) != 0)
		return 1;
	starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank);
	starpu_mpi_comm_size(MPI_COMM_WORLD, &size);
	/* The most square grid with P >= Q: tile rows are dealt first, so that the TRSMs of
	 * a panel (one tile column) are shared out. */
	for (Q = 1; (Q + 1) * (Q + 1) <= size; Q++)
		;
	while (size % Q)
		Q--;
	P = size / Q;

	long T = n / nb;
	double **tiles = calloc(T * T, sizeof(double *));
	starpu_data_handle_t *h = calloc(T * T, sizeof(*h));
	for (long ti = 0; ti < T; ti++)
		for (long tj = 0; tj <= ti; tj++) {
			starpu_data_handle_t *t = &h[ti * T + tj];
			if (owner(ti, tj) == rank) {
				double *tile = NULL;
				if (posix_memalign((void **)&tile, 64, nb * nb * sizeof(double)))
					abort();
				for (long c = 0; c < nb; c++)
					for (long r = 0; r < nb; r++)
						tile[c * nb + r] = spd_entry(n, ti * nb + r, tj * nb + c);
				tiles[ti * T + tj] = tile;
				starpu_matrix_data_register(t, STARPU_MAIN_RAM, (uintptr_t)tile, nb, nb, nb, sizeof(double));
			} else {
				starpu_matrix_data_register(t, -1, 0, nb, nb, nb, sizeof(double));
			}
			starpu_mpi_data_register(*t, ti * T + tj, owner(ti, tj));
		}
#define H(i, j) h[(i) * T + (j)]
	int hi = STARPU_MAX_PRIO, lo = STARPU_DEFAULT_PRIO;
	starpu_mpi_barrier(MPI_COMM_WORLD);
	double t0 = seconds();
	for (long k = 0; k < T; k++) {
		starpu_mpi_task_insert(MPI_COMM_WORLD, &potrf_cl, STARPU_RW, H(k, k), STARPU_PRIORITY, hi, 0);
		for (long i = k + 1; i < T; i++)
			starpu_mpi_task_insert(MPI_COMM_WORLD, &trsm_cl, STARPU_R, H(k, k), STARPU_RW, H(i, k),
					       STARPU_PRIORITY, i == k + 1 ? hi : lo, 0);
		for (long i = k + 1; i < T; i++) {
			starpu_mpi_task_insert(MPI_COMM_WORLD, &syrk_cl, STARPU_R, H(i, k), STARPU_RW, H(i, i),
					       STARPU_PRIORITY, i == k + 1 ? hi : lo, 0);
			for (long j = k + 1; j < i; j++)
				starpu_mpi_task_insert(MPI_COMM_WORLD, &gemm_cl, STARPU_R, H(i, k), STARPU_R, H(j, k),
						       STARPU_RW, H(i, j), STARPU_PRIORITY,
						       (i == k + 2 && j == k + 1) ? hi : lo, 0);
		}
	}
	starpu_mpi_wait_for_all(MPI_COMM_WORLD);
	starpu_mpi_barrier(MPI_COMM_WORLD);
	double secs = seconds() - t0;

	int status = 0;
	double err = 0;
	if (check) {
		for (long ti = 0; ti < T; ti++)
			for (long tj = 0; tj <= ti; tj++)
				starpu_mpi_get_data_on_node(MPI_COMM_WORLD, H(ti, tj), 0);
		if (rank == 0) {
			err = compare_with_lapack(tiles, h, n, nb);
			status = !(err < 1e-10);
		}
	}
#undef H
	unsigned ncpu = starpu_cpu_worker_get_count();
	for (long i = 0; i < T * T; i++)
		if (h[i])
			starpu_data_unregister(h[i]);
	starpu_mpi_shutdown();
	if (rank == 0) {
		printf("cholesky n=%ld nb=%ld ranks=%d grid=%dx%d ncpu_per_rank=%u time_s=%.4f gflops=%.2f",
		       n, nb, size, P, Q, ncpu, secs, (double)n * n * n / 3.0 / secs * 1e-9);
		if (check)
			printf(" lapack_maxrelerr=%.2e", err);
		printf("\n");
		if (status)
			fprintf(stderr, "cholesky: the factor differs from LAPACK's\n");
	}
	for (long i = 0; i < T * T; i++)
		free(tiles[i]);
	free(tiles);
	free(h);
	return status;
}
