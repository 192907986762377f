/* vector_filter: partitioning a vector with starpu_vector_filter_block.
 *
 * NX ints (v[i] = i) cut into PARTS pieces that do not all have the same
 * size; one task per piece, submitted together, multiplies its piece by
 * (piece index + 2) and records the size and first value it sees.  Checks:
 * the pieces have sizes differing by at most one, tile the vector in order,
 * the kernels saw exactly their piece, and after starpu_data_unpartition the
 * whole vector is coherent again (a task on the whole handle adds 1), then
 * partitioned again into a different number of pieces.
 */
#include "test_common.h"

#define NX    23
#define PARTS 4
#define PARTS2 3

struct piece_report { int nx; int first; int runs; };
static struct piece_report report[PARTS];

struct piece_arg { int index; int factor; };

static void piece_cpu(void *buffers[], void *cl_arg)
{
	struct piece_arg *a = (struct piece_arg *)cl_arg;
	int n = (int)STARPU_VECTOR_GET_NX(buffers[0]);
	int *v = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
	report[a->index].nx = n;
	report[a->index].first = v[0];
	report[a->index].runs++;
	for (int i = 0; i < n; i++)
		v[i] *= a->factor;
}

static struct starpu_codelet piece_cl = {
	.cpu_funcs = { piece_cpu },
	.cpu_funcs_name = { "piece_cpu" },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "vector_piece",
};

static void add_cpu(void *buffers[], void *cl_arg)
{
	int d;
	starpu_codelet_unpack_args(cl_arg, &d);
	int n = (int)STARPU_VECTOR_GET_NX(buffers[0]);
	int *v = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
	for (int i = 0; i < n; i++)
		v[i] += d;
}

static struct starpu_codelet add_cl = {
	.cpu_funcs = { add_cpu },
	.nbuffers = 1,
	.modes = { STARPU_RW },
	.name = "vector_add",
};

int main(void)
{
	int v[NX];
	int expected[NX];
	for (int i = 0; i < NX; i++)
		v[i] = i;

	tc_init();
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, NX, sizeof(v[0]));

	struct starpu_data_filter f = {
		.filter_func = starpu_vector_filter_block,
		.nchildren = PARTS,
	};
	starpu_data_partition(h, &f);
	CHECK(starpu_data_get_nb_children(h) == PARTS, "%d children, expected %d", starpu_data_get_nb_children(h), PARTS);

	int sizes[PARTS], offset[PARTS], total = 0;
	struct piece_arg args[PARTS];
	for (int p = 0; p < PARTS; p++) {
		starpu_data_handle_t sub = starpu_data_get_sub_data(h, 1, p);
		sizes[p] = (int)starpu_vector_get_nx(sub);
		offset[p] = total;
		total += sizes[p];
		args[p].index = p;
		args[p].factor = p + 2;
		struct starpu_task *t = starpu_task_create();
		t->cl = &piece_cl;
		t->handles[0] = sub;
		t->cl_arg = &args[p];
		t->cl_arg_size = sizeof(args[p]);
		MUST(starpu_task_submit(t));
	}
	starpu_task_wait_for_all();
	starpu_data_unpartition(h, STARPU_MAIN_RAM);

	CHECK(total == NX, "pieces hold %d elements in all, expected %d", total, NX);
	for (int p = 0; p < PARTS; p++) {
		CHECK(sizes[p] == NX / PARTS || sizes[p] == NX / PARTS + 1, "piece %d has %d elements", p, sizes[p]);
		CHECK(report[p].runs == 1, "kernel of piece %d ran %d times", p, report[p].runs);
		CHECK(report[p].nx == sizes[p], "kernel of piece %d saw %d elements, the handle says %d", p,
		      report[p].nx, sizes[p]);
		CHECK(report[p].first == offset[p], "piece %d starts at element %d, expected %d", p,
		      report[p].first, offset[p]);
		for (int i = offset[p]; i < offset[p] + sizes[p] && i < NX; i++)
			expected[i] = i * (p + 2);
	}

	/* the whole handle again */
	int one = 1;
	MUST(starpu_task_insert(&add_cl, STARPU_RW, h, STARPU_VALUE, &one, sizeof(one), 0));
	for (int i = 0; i < NX; i++)
		expected[i] += 1;

	/* and a second, different partitioning (once the task above is done:
	 * partitioning is not ordered with tasks on the whole handle) */
	starpu_task_wait_for_all();
	struct starpu_data_filter f2 = {
		.filter_func = starpu_vector_filter_block,
		.nchildren = PARTS2,
	};
	starpu_data_partition(h, &f2);
	CHECK(starpu_data_get_nb_children(h) == PARTS2, "%d children, expected %d", starpu_data_get_nb_children(h), PARTS2);
	int total2 = 0;
	for (int p = 0; p < PARTS2; p++) {
		starpu_data_handle_t sub = starpu_data_get_sub_data(h, 1, p);
		int n = (int)starpu_vector_get_nx(sub);
		int d = 100 * (p + 1);
		MUST(starpu_task_insert(&add_cl, STARPU_RW, sub, STARPU_VALUE, &d, sizeof(d), 0));
		for (int i = total2; i < total2 + n && i < NX; i++)
			expected[i] += d;
		total2 += n;
	}
	CHECK(total2 == NX, "second partitioning holds %d elements, expected %d", total2, NX);
	starpu_task_wait_for_all();
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);
	starpu_shutdown();

	int bad = 0;
	for (int i = 0; i < NX; i++)
		if (v[i] != expected[i] && bad++ < 5)
			CHECK(0, "v[%d] = %d, expected %d", i, v[i], expected[i]);
	CHECK(bad == 0, "%d elements wrong", bad);
	return tc_finish("vector_filter");
}
