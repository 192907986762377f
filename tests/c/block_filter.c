/* block_filter: partitioning a 3-D block along each axis, and twice.
 *
 * An NX x NY x NZ block of ints, all 0, registered (ldy = NX, ldz = NX*NY).
 * Four rounds, each: partition, one task per piece that adds a per-piece
 * amount to every element of its piece (walking with its own ldy/ldz),
 * unpartition.
 *   round 1: starpu_block_filter_block          (x) into PX pieces, adds (p+1)
 *   round 2: starpu_block_filter_vertical_block (y) into PY pieces, adds 10(p+1)
 *   round 3: starpu_block_filter_depth_block    (z) into PZ pieces, adds 100(p+1)
 *   round 4: starpu_data_map_filters(h, 2, x into 2, z into PZ); piece (a, b)
 *            found with starpu_data_get_sub_data(h, 2, a, b), adds 1000(a*PZ+b+1)
 * The dimensions divide evenly, so each element's final value is known from
 * its coordinates.  The kernels also check the piece geometry they see.
 */
#include "test_common.h"

#define NX 6
#define NY 4
#define NZ 6
#define PX 3
#define PY 2
#define PZ 3

struct piece { unsigned nx, ny, nz; int add; };
static int bad_geometry, runs;

static void add_piece_cpu(void *buffers[], void *cl_arg)
{
	const struct piece *p = (const struct piece *)cl_arg;
	int *b = (int *)STARPU_BLOCK_GET_PTR(buffers[0]);
	unsigned nx = STARPU_BLOCK_GET_NX(buffers[0]);
	unsigned ny = STARPU_BLOCK_GET_NY(buffers[0]);
	unsigned nz = STARPU_BLOCK_GET_NZ(buffers[0]);
	unsigned ldy = STARPU_BLOCK_GET_LDY(buffers[0]);
	unsigned ldz = STARPU_BLOCK_GET_LDZ(buffers[0]);
	if (nx != p->nx || ny != p->ny || nz != p->nz || ldy < nx || ldz < ldy * ny)
		__atomic_store_n(&bad_geometry, 1, __ATOMIC_SEQ_CST);
	for (unsigned k = 0; k < nz; k++)
		for (unsigned j = 0; j < ny; j++)
			for (unsigned i = 0; i < nx; i++)
				b[k * ldz + j * ldy + i] += p->add;
	__atomic_add_fetch(&runs, 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet add_piece_cl = {
	.cpu_funcs = { add_piece_cpu },
	.cpu_funcs_name = { "add_piece_cpu" },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "block_piece",
};

static void submit_piece(starpu_data_handle_t sub, struct piece *p)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = &add_piece_cl;
	t->handles[0] = sub;
	t->cl_arg = p;
	t->cl_arg_size = sizeof(*p);
	MUST(starpu_task_submit(t));
}

/* Rounds 1-3: one filter. */
static void one_axis(starpu_data_handle_t h, void (*filter)(void *, void *, struct starpu_data_filter *, unsigned, unsigned),
		     unsigned parts, unsigned pnx, unsigned pny, unsigned pnz, int unit, const char *what)
{
	struct starpu_data_filter f = { .filter_func = filter, .nchildren = parts };
	struct piece pieces[8];
	starpu_data_partition(h, &f);
	CHECK(starpu_data_get_nb_children(h) == (int)parts, "%s: %d children, expected %u", what,
	      starpu_data_get_nb_children(h), parts);
	for (unsigned p = 0; p < parts; p++) {
		starpu_data_handle_t sub = starpu_data_get_sub_data(h, 1, p);
		CHECK(starpu_block_get_nx(sub) == pnx && starpu_block_get_ny(sub) == pny && starpu_block_get_nz(sub) == pnz,
		      "%s: piece %u is %ux%ux%u, expected %ux%ux%u", what, p, (unsigned)starpu_block_get_nx(sub),
		      (unsigned)starpu_block_get_ny(sub), (unsigned)starpu_block_get_nz(sub), pnx, pny, pnz);
		pieces[p].nx = pnx; pieces[p].ny = pny; pieces[p].nz = pnz;
		pieces[p].add = unit * (int)(p + 1);
		submit_piece(sub, &pieces[p]);
	}
	starpu_task_wait_for_all();  /* pieces[] lives on this stack frame */
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
}

int main(void)
{
	int *b = calloc(NX * NY * NZ, sizeof(int));

	tc_init();
	starpu_data_handle_t h;
	starpu_block_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)b, NX, NX * NY, NX, NY, NZ, sizeof(int));

	one_axis(h, starpu_block_filter_block, PX, NX / PX, NY, NZ, 1, "x (starpu_block_filter_block)");
	one_axis(h, starpu_block_filter_vertical_block, PY, NX, NY / PY, NZ, 10, "y (starpu_block_filter_vertical_block)");
	one_axis(h, starpu_block_filter_depth_block, PZ, NX, NY, NZ / PZ, 100, "z (starpu_block_filter_depth_block)");

	/* round 4: x into 2, then each x piece into PZ along z */
	struct starpu_data_filter fx = { .filter_func = starpu_block_filter_block, .nchildren = 2 };
	struct starpu_data_filter fz = { .filter_func = starpu_block_filter_depth_block, .nchildren = PZ };
	starpu_data_map_filters(h, 2, &fx, &fz);
	CHECK(starpu_data_get_nb_children(h) == 2, "map_filters: %d children, expected 2", starpu_data_get_nb_children(h));
	struct piece pieces[2 * PZ];
	for (unsigned a = 0; a < 2; a++) {
		CHECK(starpu_data_get_nb_children(starpu_data_get_sub_data(h, 1, a)) == PZ,
		      "map_filters: child %u has %d children, expected %d", a,
		      starpu_data_get_nb_children(starpu_data_get_sub_data(h, 1, a)), PZ);
		for (unsigned c = 0; c < PZ; c++) {
			struct piece *p = &pieces[a * PZ + c];
			p->nx = NX / 2; p->ny = NY; p->nz = NZ / PZ;
			p->add = 1000 * (int)(a * PZ + c + 1);
			submit_piece(starpu_data_get_sub_data(h, 2, a, c), p);
		}
	}
	starpu_task_wait_for_all();
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);
	starpu_shutdown();

	CHECK(runs == PX + PY + PZ + 2 * PZ, "%d piece tasks ran, expected %d", runs, PX + PY + PZ + 2 * PZ);
	CHECK(!bad_geometry, "a kernel saw a piece of the wrong shape");
	int bad = 0;
	for (int k = 0; k < NZ; k++)
		for (int j = 0; j < NY; j++)
			for (int i = 0; i < NX; i++) {
				int expected = (i / (NX / PX) + 1) + 10 * (j / (NY / PY) + 1) + 100 * (k / (NZ / PZ) + 1)
					+ 1000 * ((i / (NX / 2)) * PZ + k / (NZ / PZ) + 1);
				int got = b[k * NX * NY + j * NX + i];
				if (got != expected && bad++ < 5)
					CHECK(0, "element (%d,%d,%d) = %d, expected %d", i, j, k, got, expected);
			}
	CHECK(bad == 0, "%d elements wrong", bad);
	free(b);
	return tc_finish("block_filter");
}
