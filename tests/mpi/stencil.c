/* An owner-computes stencil: a 1D array cut in blocks dealt round-robin to the
 * processes, smoothed for several steps by tasks inserted alike on every process with
 * starpu_mpi_task_insert. The task updating a block reads its neighbours (sent by their
 * owners as needed) and writes the block's next version, so it runs on the block's
 * owner. Every process computes the same steps sequentially and checks the blocks it
 * owns. Run twice: with the communication cache, then without. */
#include "mpi_test.h"

#define BLOCKS_PER_RANK 5
#define M 8
#define STEPS 6

/* next[i] = (left + 2 * cur[i] + right) / 4, the block's edges taken from its neighbours
 * (the array's ends are fixed at 0). */
static void smooth(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	const double *l = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	const double *c = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]);
	const double *r = (const double *)STARPU_VECTOR_GET_PTR(buffers[2]);
	double *next = (double *)STARPU_VECTOR_GET_PTR(buffers[3]);
	int first, last;
	starpu_codelet_unpack_args(cl_arg, &first, &last);
	for (int i = 0; i < M; i++) {
		double left = i > 0 ? c[i - 1] : (first ? 0 : l[M - 1]);
		double right = i < M - 1 ? c[i + 1] : (last ? 0 : r[0]);
		next[i] = (left + 2 * c[i] + right) / 4;
	}
}

static struct starpu_codelet smooth_cl = {
	.cpu_funcs = {smooth},
	.nbuffers = 4,
	.modes = {STARPU_R, STARPU_R, STARPU_R, STARPU_W},
	.name = "smooth",
};

static void reference(double *a, int n, int steps)
{
	double *b = malloc(n * sizeof(double));
	for (int s = 0; s < steps; s++) {
		for (int i = 0; i < n; i++)
			b[i] = ((i > 0 ? a[i - 1] : 0) + 2 * a[i] + (i < n - 1 ? a[i + 1] : 0)) / 4;
		memcpy(a, b, n * sizeof(double));
	}
	free(b);
}

static void run(int cache)
{
	MUST(starpu_mpi_cache_set(cache));
	CHECK(starpu_mpi_cache_is_enabled() == cache, "cache state %d", starpu_mpi_cache_is_enabled());
	int nb = BLOCKS_PER_RANK * mt_size, n = nb * M;
	double *v[2], *want = malloc(n * sizeof(double));
	v[0] = calloc(n, sizeof(double));
	v[1] = calloc(n, sizeof(double));
	for (int i = 0; i < n; i++)
		want[i] = (i * 37) % 11;
	starpu_data_handle_t h[2][nb];
	for (int b = 0; b < nb; b++) {
		int owner = b % mt_size;
		for (int k = 0; k < 2; k++) {
			if (owner == mt_rank) {
				if (k == 0)
					memcpy(&v[0][b * M], &want[b * M], M * sizeof(double));
				starpu_vector_data_register(&h[k][b], STARPU_MAIN_RAM, (uintptr_t)&v[k][b * M], M, sizeof(double));
			} else {
				starpu_vector_data_register(&h[k][b], -1, 0, M, sizeof(double));
			}
			starpu_mpi_data_register(h[k][b], k * nb + b, owner);
		}
	}
	for (int s = 0; s < STEPS; s++) {
		int cur = s % 2, nxt = 1 - cur;
		for (int b = 0; b < nb; b++) {
			int first = b == 0, last = b == nb - 1;
			MUST(starpu_mpi_task_insert(MPI_COMM_WORLD, &smooth_cl,
						    STARPU_R, h[cur][first ? b : b - 1],
						    STARPU_R, h[cur][b],
						    STARPU_R, h[cur][last ? b : b + 1],
						    STARPU_W, h[nxt][b],
						    STARPU_VALUE, &first, sizeof(first),
						    STARPU_VALUE, &last, sizeof(last),
						    0));
		}
	}
	MUST(starpu_mpi_wait_for_all(MPI_COMM_WORLD));
	if (cache && mt_size > 1) {
		/* A neighbour's block read by the last step is still cached here. */
		int b = mt_rank, left = b - 1 >= 0 ? b - 1 : b + 1;
		CHECK(starpu_mpi_cached_receive(h[(STEPS - 1) % 2][left]), "block %d is not in the receive cache", left);
		starpu_mpi_cache_flush_all_data(MPI_COMM_WORLD);
		CHECK(!starpu_mpi_cached_receive(h[(STEPS - 1) % 2][left]), "block %d still cached after the flush", left);
	}
	reference(want, n, STEPS);
	int fin = STEPS % 2;
	for (int b = mt_rank; b < nb; b += mt_size) {
		MUST(starpu_data_acquire(h[fin][b], STARPU_R));
		for (int i = 0; i < M; i++) {
			double got = v[fin][b * M + i], w = want[b * M + i];
			CHECK(got > w - 1e-12 && got < w + 1e-12, "cache %d: block %d[%d] = %g, expected %g", cache, b, i, got, w);
		}
		starpu_data_release(h[fin][b]);
	}
	for (int b = 0; b < nb; b++)
		for (int k = 0; k < 2; k++)
			starpu_data_unregister(h[k][b]);
	free(v[0]);
	free(v[1]);
	free(want);
}

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 2);
	run(1);
	run(0);
	return mt_finish();
}
