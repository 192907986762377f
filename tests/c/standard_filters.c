/* standard_filters: every standard filter function of StarPU, checked on the children it
 * makes (where each child starts in the parent's buffer, and its shape).
 *
 * Vector: block, block_shadow, list, list_long, divide_in_2 (and, 1.4, pick_variable).
 * Matrix: block, block_shadow, vertical_block, vertical_block_shadow (1.4: pick_vector_y,
 * pick_variable). Block: block, vertical, depth and their shadows (1.4: pick_matrix_z/y,
 * pick_variable). CSR: vertical_block. BCSR: canonical_block (get_nchildren,
 * child_ops), vertical_block. 1.4 only: tensor (4 axes, shadows, pick_block_t/z/y,
 * pick_variable) and ndim (block, block_shadow, to_tensor/block/matrix/vector, pick_ndim,
 * 5d..1d picks, pick_variable). A task through a pick child checks the view is usable.
 * Builds against StarPU 1.3 too (the 1.4 filters are left out there).
 */
#include "test_common.h"

#define V14 (STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4)

static int buf[4096];
#define AT(p) ((int)(((int *)(p)) - buf)) /* element index of a pointer into buf */

static void *child(starpu_data_handle_t h, int i)
{
	return starpu_data_get_interface_on_node(starpu_data_get_sub_data(h, 1, i), STARPU_MAIN_RAM);
}

static void partition(starpu_data_handle_t h, struct starpu_data_filter *f, int n)
{
	starpu_data_partition(h, f);
	CHECK(starpu_data_get_nb_children(h) == n, "%d children, expected %d", starpu_data_get_nb_children(h), n);
}

static void vectors(void)
{
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, 10, sizeof(int));
	const int at[3] = {0, 4, 7}, nx[3] = {4, 3, 3};

	struct starpu_data_filter block = {.filter_func = starpu_vector_filter_block, .nchildren = 3};
	partition(h, &block, 3);
	for (int i = 0; i < 3; i++) {
		CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, i))) == at[i], "vector block %d at %d", i, AT(STARPU_VECTOR_GET_PTR(child(h, i))));
		CHECK(STARPU_VECTOR_GET_NX(child(h, i)) == (unsigned)nx[i], "vector block %d nx %u", i, STARPU_VECTOR_GET_NX(child(h, i)));
	}
	starpu_data_unpartition(h, STARPU_MAIN_RAM);

	/* 10 elements, shadow 1: 8 inner ones in 2 parts of 4, each seeing one more on each side */
	struct starpu_data_filter shadow = {.filter_func = starpu_vector_filter_block_shadow, .nchildren = 2, .filter_arg_ptr = (void *)(uintptr_t)1};
	partition(h, &shadow, 2);
	CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, 1))) == 4 && STARPU_VECTOR_GET_NX(child(h, 1)) == 6,
	      "shadowed part at %d, %u elements", AT(STARPU_VECTOR_GET_PTR(child(h, 1))), STARPU_VECTOR_GET_NX(child(h, 1)));
	starpu_data_unpartition(h, STARPU_MAIN_RAM);

	uint32_t lengths[3] = {2, 5, 3};
	struct starpu_data_filter list = {.filter_func = starpu_vector_filter_list, .nchildren = 3, .filter_arg_ptr = lengths};
	partition(h, &list, 3);
	CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, 2))) == 7 && STARPU_VECTOR_GET_NX(child(h, 2)) == 3, "list part 2");
	CHECK(STARPU_VECTOR_GET_NX(child(h, 1)) == 5, "list part 1 has %u", STARPU_VECTOR_GET_NX(child(h, 1)));
	starpu_data_unpartition(h, STARPU_MAIN_RAM);

	long llengths[2] = {6, 4};
	struct starpu_data_filter llist = {.filter_func = starpu_vector_filter_list_long, .nchildren = 2, .filter_arg_ptr = llengths};
	partition(h, &llist, 2);
	CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, 1))) == 6 && STARPU_VECTOR_GET_NX(child(h, 1)) == 4, "list_long part 1");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);

	struct starpu_data_filter two = {.filter_func = starpu_vector_filter_divide_in_2, .nchildren = 2, .filter_arg = 3};
	partition(h, &two, 2);
	CHECK(STARPU_VECTOR_GET_NX(child(h, 0)) == 3 && AT(STARPU_VECTOR_GET_PTR(child(h, 1))) == 3 &&
	      STARPU_VECTOR_GET_NX(child(h, 1)) == 7, "divide_in_2");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);

#if V14
	struct starpu_data_filter pick = {.filter_func = starpu_vector_filter_pick_variable, .nchildren = 3,
					  .filter_arg_ptr = (void *)(uintptr_t)4,
					  .get_child_ops = starpu_vector_filter_pick_variable_child_ops};
	partition(h, &pick, 3);
	for (int i = 0; i < 3; i++)
		CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, i))) == 4 + i, "picked variable %d", i);
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
#endif
	starpu_data_unregister(h);
}

#if V14
static void add_one(void *buffers[], void *arg)
{
	(void)arg;
	int nx = STARPU_MATRIX_GET_NX(buffers[0]), ny = STARPU_MATRIX_GET_NY(buffers[0]);
	int ld = STARPU_MATRIX_GET_LD(buffers[0]);
	int *m = (int *)STARPU_MATRIX_GET_PTR(buffers[0]);
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++)
			m[y * ld + x] += 1;
}

static struct starpu_codelet add_one_cl = {.cpu_funcs = {add_one}, .nbuffers = 1, .modes = {STARPU_RW}};
#endif

static void matrices(void)
{
	/* 8 x 6, ld 10 */
	starpu_data_handle_t h;
	starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, 10, 8, 6, sizeof(int));
	struct starpu_data_filter block = {.filter_func = starpu_matrix_filter_block, .nchildren = 3};
	partition(h, &block, 3);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 2))) == 6 && STARPU_MATRIX_GET_NX(child(h, 2)) == 2 &&
	      STARPU_MATRIX_GET_NY(child(h, 2)) == 6 && STARPU_MATRIX_GET_LD(child(h, 2)) == 10, "matrix block");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter vblock = {.filter_func = starpu_matrix_filter_vertical_block, .nchildren = 4};
	partition(h, &vblock, 4);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 1))) == 20 && STARPU_MATRIX_GET_NY(child(h, 1)) == 2 &&
	      STARPU_MATRIX_GET_NY(child(h, 3)) == 1, "matrix vertical block");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter bshadow = {.filter_func = starpu_matrix_filter_block_shadow, .nchildren = 2, .filter_arg_ptr = (void *)(uintptr_t)1};
	partition(h, &bshadow, 2);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 1))) == 3 && STARPU_MATRIX_GET_NX(child(h, 1)) == 5, "matrix block shadow");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter vshadow = {.filter_func = starpu_matrix_filter_vertical_block_shadow, .nchildren = 2, .filter_arg_ptr = (void *)(uintptr_t)1};
	partition(h, &vshadow, 2);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 1))) == 20 && STARPU_MATRIX_GET_NY(child(h, 1)) == 4, "matrix vertical block shadow");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
#if V14
	struct starpu_data_filter pickv = {.filter_func = starpu_matrix_filter_pick_vector_y, .nchildren = 2,
					   .filter_arg_ptr = (void *)(uintptr_t)3,
					   .get_child_ops = starpu_matrix_filter_pick_vector_child_ops};
	partition(h, &pickv, 2);
	CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, 1))) == 40 && STARPU_VECTOR_GET_NX(child(h, 1)) == 8, "picked column");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	uint32_t pos[2] = {5, 4};
	struct starpu_data_filter pickx = {.filter_func = starpu_matrix_filter_pick_variable, .nchildren = 1,
					   .filter_arg_ptr = pos,
					   .get_child_ops = starpu_matrix_filter_pick_variable_child_ops};
	partition(h, &pickx, 1);
	CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, 0))) == 45, "picked element at %d", AT(STARPU_VARIABLE_GET_PTR(child(h, 0))));
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
#endif
	starpu_data_unregister(h);
}

static void blocks(void)
{
	/* 4 x 3 x 6, ldy 5, ldz 20 */
	memset(buf, 0, sizeof(buf));
	starpu_data_handle_t h;
	starpu_block_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, 5, 20, 4, 3, 6, sizeof(int));
	struct {
		void (*func)(void *, void *, struct starpu_data_filter *, unsigned, unsigned);
		uintptr_t shadow;
		int at1, n1; /* where child 1 of 2 starts, and its extent along the cut axis */
		int axis;
	} cuts[] = {
		{starpu_block_filter_block, 0, 2, 2, 0},
		{starpu_block_filter_block_shadow, 1, 1, 3, 0},
		{starpu_block_filter_vertical_block, 0, 10, 1, 1},
		{starpu_block_filter_vertical_block_shadow, 1, 0, 3, 1}, /* 1 inner row in 2 parts: refused below */
		{starpu_block_filter_depth_block, 0, 60, 3, 2},
		{starpu_block_filter_depth_block_shadow, 1, 40, 4, 2},
	};
	for (unsigned c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
		if (c == 3)
			continue; /* 3 - 2 = 1 row left for 2 parts: StarPU asserts */
		struct starpu_data_filter f = {.filter_func = cuts[c].func, .nchildren = 2, .filter_arg_ptr = (void *)cuts[c].shadow};
		partition(h, &f, 2);
		void *b = child(h, 1);
		unsigned extent = cuts[c].axis == 0 ? STARPU_BLOCK_GET_NX(b) : cuts[c].axis == 1 ? STARPU_BLOCK_GET_NY(b) : STARPU_BLOCK_GET_NZ(b);
		CHECK(AT(STARPU_BLOCK_GET_PTR(b)) == cuts[c].at1 && extent == (unsigned)cuts[c].n1,
		      "block cut %u: child 1 at %d, extent %u", c, AT(STARPU_BLOCK_GET_PTR(b)), extent);
		CHECK(STARPU_BLOCK_GET_LDY(b) == 5 && STARPU_BLOCK_GET_LDZ(b) == 20, "block cut %u keeps ldy, ldz", c);
		starpu_data_unpartition(h, STARPU_MAIN_RAM);
	}
#if V14
	struct starpu_data_filter pz = {.filter_func = starpu_block_filter_pick_matrix_z, .nchildren = 2,
					.filter_arg_ptr = (void *)(uintptr_t)4,
					.get_child_ops = starpu_block_filter_pick_matrix_child_ops};
	partition(h, &pz, 2);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 1))) == 100 && STARPU_MATRIX_GET_NX(child(h, 1)) == 4 &&
	      STARPU_MATRIX_GET_NY(child(h, 1)) == 3 && STARPU_MATRIX_GET_LD(child(h, 1)) == 5, "plane z = 5");
	MUST(starpu_task_insert(&add_one_cl, STARPU_RW, starpu_data_get_sub_data(h, 1, 1), 0));
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_acquire(h, STARPU_R);
	CHECK(buf[100] == 1 && buf[100 + 2 * 5 + 3] == 1 && buf[99] == 0 && buf[100 + 3] == 1 && buf[104] == 0,
	      "a task on plane z = 5 wrote exactly it");
	starpu_data_release(h);
	struct starpu_data_filter py = {.filter_func = starpu_block_filter_pick_matrix_y, .nchildren = 1,
					.filter_arg_ptr = (void *)(uintptr_t)2,
					.get_child_ops = starpu_block_filter_pick_matrix_child_ops};
	partition(h, &py, 1);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 0))) == 10 && STARPU_MATRIX_GET_NY(child(h, 0)) == 6 &&
	      STARPU_MATRIX_GET_LD(child(h, 0)) == 20, "plane y = 2");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	uint32_t pos[3] = {1, 2, 3};
	struct starpu_data_filter pv = {.filter_func = starpu_block_filter_pick_variable, .nchildren = 1,
					.filter_arg_ptr = pos,
					.get_child_ops = starpu_block_filter_pick_variable_child_ops};
	partition(h, &pv, 1);
	CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, 0))) == 1 + 10 + 60, "block element");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
#endif
	starpu_data_unregister(h);
}

static void sparse(void)
{
	/* 4 rows: [a b . .] [. c . .] [. . . .] [d . e f] */
	int nzval[6] = {1, 2, 3, 4, 5, 6};
	uint32_t colind[6] = {0, 1, 1, 0, 2, 3}, rowptr[5] = {0, 2, 3, 3, 6};
	starpu_data_handle_t h;
	starpu_csr_data_register(&h, STARPU_MAIN_RAM, 6, 4, (uintptr_t)nzval, colind, rowptr, 0, sizeof(int));
	struct starpu_data_filter f = {.filter_func = starpu_csr_filter_vertical_block, .nchildren = 2};
	partition(h, &f, 2);
	void *c = child(h, 1);
	CHECK(STARPU_CSR_GET_NROW(c) == 2 && STARPU_CSR_GET_NNZ(c) == 3 && STARPU_CSR_GET_FIRSTENTRY(c) == 3 &&
	      (int *)STARPU_CSR_GET_NZVAL(c) == nzval + 3 && STARPU_CSR_GET_ROWPTR(c) == rowptr + 2,
	      "csr band: nrow %u nnz %u firstentry %u", STARPU_CSR_GET_NROW(c), STARPU_CSR_GET_NNZ(c), STARPU_CSR_GET_FIRSTENTRY(c));
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	/* 2 block rows of 2 x 2 blocks: row 0 has 2 blocks, row 1 one */
	int bval[12];
	uint32_t bcol[3] = {0, 1, 1}, brow[3] = {0, 2, 3};
	starpu_bcsr_data_register(&h, STARPU_MAIN_RAM, 3, 2, (uintptr_t)bval, bcol, brow, 0, 2, 2, sizeof(int));
	struct starpu_data_filter canon = {.filter_func = starpu_bcsr_filter_canonical_block,
					   .get_nchildren = starpu_bcsr_filter_canonical_block_get_nchildren,
					   .get_child_ops = starpu_bcsr_filter_canonical_block_child_ops};
	partition(h, &canon, 3);
	c = child(h, 2);
	CHECK((int *)STARPU_MATRIX_GET_PTR(c) == bval + 8 && STARPU_MATRIX_GET_NX(c) == 2 && STARPU_MATRIX_GET_NY(c) == 2 &&
	      STARPU_MATRIX_GET_LD(c) == 2, "bcsr block 2");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter vb = {.filter_func = starpu_bcsr_filter_vertical_block, .nchildren = 2};
	partition(h, &vb, 2);
	c = child(h, 1);
	CHECK(STARPU_BCSR_GET_NROW(c) == 1 && STARPU_BCSR_GET_NNZ(c) == 1 && (int *)STARPU_BCSR_GET_NZVAL(c) == bval + 8,
	      "bcsr band: nrow %u nnz %u", STARPU_BCSR_GET_NROW(c), STARPU_BCSR_GET_NNZ(c));
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);
}

#if V14
static void tensors(void)
{
	/* 2 x 3 x 4 x 5, packed: ldy 2, ldz 6, ldt 24 */
	starpu_data_handle_t h;
	starpu_tensor_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, 2, 6, 24, 2, 3, 4, 5, sizeof(int));
	void (*cut[4])(void *, void *, struct starpu_data_filter *, unsigned, unsigned) = {
		starpu_tensor_filter_block, starpu_tensor_filter_vertical_block,
		starpu_tensor_filter_depth_block, starpu_tensor_filter_time_block};
	void (*shadow[4])(void *, void *, struct starpu_data_filter *, unsigned, unsigned) = {
		starpu_tensor_filter_block_shadow, starpu_tensor_filter_vertical_block_shadow,
		starpu_tensor_filter_depth_block_shadow, starpu_tensor_filter_time_block_shadow};
	const int stride[4] = {1, 2, 6, 24}, dims[4] = {2, 3, 4, 5};
	for (int a = 0; a < 4; a++) {
		struct starpu_data_filter f = {.filter_func = cut[a], .nchildren = 2};
		partition(h, &f, 2);
		void *t = child(h, 1);
		unsigned ext[4] = {STARPU_TENSOR_GET_NX(t), STARPU_TENSOR_GET_NY(t), STARPU_TENSOR_GET_NZ(t), STARPU_TENSOR_GET_NT(t)};
		int first = (dims[a] + 1) / 2;
		CHECK(AT(STARPU_TENSOR_GET_PTR(t)) == first * stride[a] && ext[a] == (unsigned)(dims[a] - first),
		      "tensor cut %d: at %d, extent %u", a, AT(STARPU_TENSOR_GET_PTR(t)), ext[a]);
		starpu_data_unpartition(h, STARPU_MAIN_RAM);
		if (dims[a] < 4)
			continue;
		struct starpu_data_filter s = {.filter_func = shadow[a], .nchildren = 2, .filter_arg_ptr = (void *)(uintptr_t)1};
		partition(h, &s, 2);
		t = child(h, 1);
		unsigned ext2[4] = {STARPU_TENSOR_GET_NX(t), STARPU_TENSOR_GET_NY(t), STARPU_TENSOR_GET_NZ(t), STARPU_TENSOR_GET_NT(t)};
		int inner = dims[a] - 2;
		CHECK(ext2[a] == (unsigned)(inner / 2 + 2), "tensor shadow cut %d: extent %u", a, ext2[a]);
		starpu_data_unpartition(h, STARPU_MAIN_RAM);
	}
	void (*pick[3])(void *, void *, struct starpu_data_filter *, unsigned, unsigned) = {
		starpu_tensor_filter_pick_block_y, starpu_tensor_filter_pick_block_z, starpu_tensor_filter_pick_block_t};
	for (int a = 1; a < 4; a++) {
		struct starpu_data_filter f = {.filter_func = pick[a - 1], .nchildren = 2, .filter_arg_ptr = (void *)(uintptr_t)1,
					       .get_child_ops = starpu_tensor_filter_pick_block_child_ops};
		partition(h, &f, 2);
		void *b = child(h, 1);
		CHECK(AT(STARPU_BLOCK_GET_PTR(b)) == 2 * stride[a] && STARPU_BLOCK_GET_NX(b) == 2,
		      "tensor pick along %d at %d", a, AT(STARPU_BLOCK_GET_PTR(b)));
		starpu_data_unpartition(h, STARPU_MAIN_RAM);
	}
	uint32_t pos[4] = {1, 2, 3, 4};
	struct starpu_data_filter pv = {.filter_func = starpu_tensor_filter_pick_variable, .nchildren = 1, .filter_arg_ptr = pos,
					.get_child_ops = starpu_tensor_filter_pick_variable_child_ops};
	partition(h, &pv, 1);
	CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, 0))) == 1 + 4 + 18 + 96, "tensor element");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);
}

static void ndims(void)
{
	/* 2 x 3 x 4 x 5 x 2, packed */
	unsigned nn[5] = {2, 3, 4, 5, 2}, ldn[5] = {1, 2, 6, 24, 120};
	starpu_data_handle_t h;
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, ldn, nn, 5, sizeof(int));
	struct starpu_data_filter blk = {.filter_func = starpu_ndim_filter_block, .nchildren = 2, .filter_arg = 2};
	partition(h, &blk, 2);
	CHECK(AT(STARPU_NDIM_GET_PTR(child(h, 1))) == 12 && STARPU_NDIM_GET_NN(child(h, 1))[2] == 2 &&
	      STARPU_NDIM_GET_NDIM(child(h, 1)) == 5, "ndim block along z");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter sh = {.filter_func = starpu_ndim_filter_block_shadow, .nchildren = 2, .filter_arg = 3, .filter_arg_ptr = (void *)(uintptr_t)1};
	partition(h, &sh, 2);
	/* 5 - 2 inner elements along t: parts of 2 and 1, the second from t = 2 */
	CHECK(AT(STARPU_NDIM_GET_PTR(child(h, 1))) == 48 && STARPU_NDIM_GET_NN(child(h, 1))[3] == 3, "ndim block shadow");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter p4 = {.filter_func = starpu_ndim_filter_pick_ndim, .nchildren = 2, .filter_arg = 4, .filter_arg_ptr = (void *)0};
	partition(h, &p4, 2);
	CHECK(AT(STARPU_NDIM_GET_PTR(child(h, 1))) == 120 && STARPU_NDIM_GET_NDIM(child(h, 1)) == 4, "pick a 4-dim array");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter pt = {.filter_func = starpu_ndim_filter_5d_pick_tensor, .nchildren = 1, .filter_arg = 4,
					.filter_arg_ptr = (void *)(uintptr_t)1, .get_child_ops = starpu_ndim_filter_pick_tensor_child_ops};
	partition(h, &pt, 1);
	CHECK(AT(STARPU_TENSOR_GET_PTR(child(h, 0))) == 120 && STARPU_TENSOR_GET_NT(child(h, 0)) == 5 &&
	      STARPU_TENSOR_GET_LDT(child(h, 0)) == 24, "pick a tensor");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	uint32_t pos[5] = {1, 1, 1, 1, 1};
	struct starpu_data_filter pv = {.filter_func = starpu_ndim_filter_pick_variable, .nchildren = 1, .filter_arg_ptr = pos,
					.get_child_ops = starpu_ndim_filter_pick_variable_child_ops};
	partition(h, &pv, 1);
	CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, 0))) == 1 + 2 + 6 + 24 + 120, "ndim element");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	/* Lower ranks, each cut along its last dimension. */
	unsigned n4[4] = {2, 3, 4, 4}, l4[4] = {1, 2, 6, 24};
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, l4, n4, 4, sizeof(int));
	struct starpu_data_filter tt = {.filter_func = starpu_ndim_filter_to_tensor, .nchildren = 2, .filter_arg = 3,
					.get_child_ops = starpu_ndim_filter_to_tensor_child_ops};
	partition(h, &tt, 2);
	CHECK(AT(STARPU_TENSOR_GET_PTR(child(h, 1))) == 48 && STARPU_TENSOR_GET_NT(child(h, 1)) == 2, "to tensor");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter pb = {.filter_func = starpu_ndim_filter_4d_pick_block, .nchildren = 1, .filter_arg = 3,
					.filter_arg_ptr = (void *)(uintptr_t)3, .get_child_ops = starpu_ndim_filter_pick_block_child_ops};
	partition(h, &pb, 1);
	CHECK(AT(STARPU_BLOCK_GET_PTR(child(h, 0))) == 72 && STARPU_BLOCK_GET_NZ(child(h, 0)) == 4, "pick a block");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	unsigned n3[3] = {2, 3, 4}, l3[3] = {1, 2, 6};
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, l3, n3, 3, sizeof(int));
	struct starpu_data_filter tb = {.filter_func = starpu_ndim_filter_to_block, .nchildren = 4, .filter_arg = 2,
					.get_child_ops = starpu_ndim_filter_to_block_child_ops};
	partition(h, &tb, 4);
	CHECK(AT(STARPU_BLOCK_GET_PTR(child(h, 3))) == 18 && STARPU_BLOCK_GET_NZ(child(h, 3)) == 1, "to block");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter pm = {.filter_func = starpu_ndim_filter_3d_pick_matrix, .nchildren = 2, .filter_arg = 2,
					.filter_arg_ptr = (void *)(uintptr_t)2, .get_child_ops = starpu_ndim_filter_pick_matrix_child_ops};
	partition(h, &pm, 2);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 1))) == 18 && STARPU_MATRIX_GET_LD(child(h, 1)) == 2, "pick a matrix");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	unsigned n2[2] = {3, 4}, l2[2] = {1, 3};
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, l2, n2, 2, sizeof(int));
	struct starpu_data_filter tm = {.filter_func = starpu_ndim_filter_to_matrix, .nchildren = 2, .filter_arg = 1,
					.get_child_ops = starpu_ndim_filter_to_matrix_child_ops};
	partition(h, &tm, 2);
	CHECK(AT(STARPU_MATRIX_GET_PTR(child(h, 1))) == 6 && STARPU_MATRIX_GET_NY(child(h, 1)) == 2, "to matrix");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter pvec = {.filter_func = starpu_ndim_filter_2d_pick_vector, .nchildren = 4, .filter_arg = 1,
					  .filter_arg_ptr = (void *)0, .get_child_ops = starpu_ndim_filter_pick_vector_child_ops};
	partition(h, &pvec, 4);
	CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, 3))) == 9 && STARPU_VECTOR_GET_NX(child(h, 3)) == 3, "pick a vector");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	unsigned n1[1] = {6}, l1[1] = {1};
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, l1, n1, 1, sizeof(int));
	struct starpu_data_filter tv = {.filter_func = starpu_ndim_filter_to_vector, .nchildren = 3,
					.get_child_ops = starpu_ndim_filter_to_vector_child_ops};
	partition(h, &tv, 3);
	CHECK(AT(STARPU_VECTOR_GET_PTR(child(h, 2))) == 4 && STARPU_VECTOR_GET_NX(child(h, 2)) == 2, "to vector");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	struct starpu_data_filter p1 = {.filter_func = starpu_ndim_filter_1d_pick_variable, .nchildren = 2,
					.filter_arg_ptr = (void *)(uintptr_t)3, .get_child_ops = starpu_ndim_filter_pick_variable_child_ops};
	partition(h, &p1, 2);
	CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, 1))) == 4, "pick element 4");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);

	unsigned n0[1] = {0}, l0[1] = {1};
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, l0, n0, 0, sizeof(int));
	struct starpu_data_filter tx = {.filter_func = starpu_ndim_filter_to_variable, .nchildren = 1,
					.get_child_ops = starpu_ndim_filter_to_variable_child_ops};
	partition(h, &tx, 1);
	CHECK(AT(STARPU_VARIABLE_GET_PTR(child(h, 0))) == 0, "0-dim array as a variable");
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);
}
#endif

int main(void)
{
	tc_init();
	vectors();
	matrices();
	blocks();
	sparse();
#if V14
	tensors();
	ndims();
#endif
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
