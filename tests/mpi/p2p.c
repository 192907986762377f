/* Point to point on data handles, between pairs of processes (0 <-> 1, 2 <-> 3):
 *
 *  1. every standard interface goes from the even rank to the odd one and arrives
 *     whole, whatever the leading dimensions on each side (a strided matrix into a
 *     tight one, into data registered without a home buffer);
 *  2. an application-defined interface, once through its pack / peek / unpack functions
 *     and once through an MPI datatype registered for its interface;
 *  3. data sent before its receive is posted (early) and after (late);
 *  4. a synchronous send (starpu_mpi_issend) is not over before the receiver posts its
 *     receive; starpu_mpi_test says so, then starpu_mpi_wait ends it;
 *  5. receives from MPI_ANY_SOURCE on rank 0 get one message from each other rank;
 *  6. a receive that unlocks a StarPU tag;
 *  7. communication statistics count the bytes sent while they are on.
 */
#include "mpi_test.h"

/* ---- an application-defined interface: two arrays of doubles ---- */

#include "pair_interface.h"

static uint32_t pair_footprint(starpu_data_handle_t handle)
{
	return starpu_hash_crc32c_be(pair_get_size(handle), 0);
}

static int pair_pack(starpu_data_handle_t handle, unsigned node, void **ptr, starpu_ssize_t *count)
{
	struct pair_interface *p = starpu_data_get_interface_on_node(handle, node);
	*count = 2 * p->n * sizeof(double);
	if (ptr) {
		char *buf = (char *)starpu_malloc_on_node_flags(node, *count, 0);
		memcpy(buf, p->x, p->n * sizeof(double));
		memcpy(buf + p->n * sizeof(double), p->y, p->n * sizeof(double));
		*ptr = buf;
	}
	return 0;
}

static int pair_peek(starpu_data_handle_t handle, unsigned node, void *ptr, size_t count)
{
	struct pair_interface *p = starpu_data_get_interface_on_node(handle, node);
	if (count != 2 * p->n * sizeof(double))
		return -EINVAL;
	memcpy(p->x, ptr, p->n * sizeof(double));
	memcpy(p->y, (char *)ptr + p->n * sizeof(double), p->n * sizeof(double));
	return 0;
}

static int unpacked;

/* unpack_data frees the buffer it is given (StarPU's contract). */
static int pair_unpack(starpu_data_handle_t handle, unsigned node, void *ptr, size_t count)
{
	int ret = pair_peek(handle, node, ptr, count);
	starpu_free_on_node_flags(node, (uintptr_t)ptr, count, 0);
	unpacked++;
	return ret;
}

static void *pair_to_pointer(void *data_interface, unsigned node)
{
	(void)node;
	return ((struct pair_interface *)data_interface)->x;
}

/* Travels through pack_data / unpack_data. */
static struct starpu_data_interface_ops pair_ops = {
	.register_data_handle = pair_register_data_handle,
	.allocate_data_on_node = pair_allocate,
	.free_data_on_node = pair_free,
	.get_size = pair_get_size,
	.footprint = pair_footprint,
	.pack_data = pair_pack,
	.unpack_data = pair_unpack,
	.to_pointer = pair_to_pointer,
	.interfaceid = STARPU_UNKNOWN_INTERFACE_ID,
	.interface_size = sizeof(struct pair_interface),
	.name = "PAIR_PACKED",
};

/* The same layout, travelling through an MPI datatype (no pack functions at all). */
static struct starpu_data_interface_ops pair_typed_ops = {
	.register_data_handle = pair_register_data_handle,
	.allocate_data_on_node = pair_allocate,
	.free_data_on_node = pair_free,
	.get_size = pair_get_size,
	.footprint = pair_footprint,
	.to_pointer = pair_to_pointer,
	.interfaceid = STARPU_UNKNOWN_INTERFACE_ID,
	.interface_size = sizeof(struct pair_interface),
	.name = "PAIR_TYPED",
};

static int datatypes_made;

/* x and y, relative to x (the buffer address to_pointer gives). */
static int pair_datatype(starpu_data_handle_t handle, MPI_Datatype *type)
{
	struct pair_interface *p = starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM);
	int lengths[2] = {(int)p->n, (int)p->n};
	MPI_Aint base, y;
	MPI_Get_address(p->x, &base);
	MPI_Get_address(p->y, &y);
	MPI_Aint displacements[2] = {0, y - base};
	MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
	MPI_Type_create_struct(2, lengths, displacements, types, type);
	MPI_Type_commit(type);
	datatypes_made++;
	return 0;
}

static void pair_datatype_free(MPI_Datatype *type)
{
	MPI_Type_free(type);
}

static void pair_register(starpu_data_handle_t *h, struct starpu_data_interface_ops *ops, double *x, double *y, uint32_t n)
{
	struct pair_interface p = {.x = x, .y = y, .n = n};
	starpu_data_register(h, x ? STARPU_MAIN_RAM : -1, &p, ops);
}

/* ---- helpers ---- */

static int peer(void)
{
	return mt_rank ^ 1;
}

static int sender(void)
{
	return mt_rank % 2 == 0;
}

/* Sends h to the peer (sender side) or receives into it (receiver side). */
static void exchange(starpu_data_handle_t h, starpu_mpi_tag_t tag)
{
	if (sender()) {
		MUST(starpu_mpi_send(h, peer(), tag, MPI_COMM_WORLD));
	} else {
		MPI_Status st;
		MUST(starpu_mpi_recv(h, peer(), tag, MPI_COMM_WORLD, &st));
		CHECK(st.MPI_SOURCE == peer(), "source %d", st.MPI_SOURCE);
	}
}

/* ---- 1. standard interfaces ---- */

static void standard_interfaces(void)
{
	int s = sender();

	double v = s ? 2.5 : 0;
	starpu_data_handle_t hv;
	starpu_variable_data_register(&hv, STARPU_MAIN_RAM, (uintptr_t)&v, sizeof(v));
	exchange(hv, 1);
	starpu_data_unregister(hv);
	CHECK(v == 2.5, "variable %g", v);

	int vec[100];
	for (int i = 0; i < 100; i++)
		vec[i] = s ? i * 3 : -1;
	starpu_data_handle_t hvec;
	starpu_vector_data_register(&hvec, STARPU_MAIN_RAM, (uintptr_t)vec, 100, sizeof(int));
	exchange(hvec, 2);
	starpu_data_unregister(hvec);
	for (int i = 0; i < 100; i++)
		CHECK(vec[i] == i * 3, "vector[%d] = %d", i, vec[i]);

	/* 5 x 3 matrix, ld 8 on the sender: the gaps stay where they are. */
	float m[8 * 3];
	for (int i = 0; i < 24; i++)
		m[i] = -1;
	starpu_data_handle_t hm;
	if (s) {
		for (int j = 0; j < 3; j++)
			for (int i = 0; i < 5; i++)
				m[j * 8 + i] = 10 * j + i;
		starpu_matrix_data_register(&hm, STARPU_MAIN_RAM, (uintptr_t)m, 8, 5, 3, sizeof(float));
	} else {
		starpu_matrix_data_register(&hm, STARPU_MAIN_RAM, (uintptr_t)m, 5, 5, 3, sizeof(float));
	}
	exchange(hm, 3);
	starpu_data_unregister(hm);
	if (!s)
		for (int j = 0; j < 3; j++)
			for (int i = 0; i < 5; i++)
				CHECK(m[j * 5 + i] == 10 * j + i, "matrix(%d,%d) = %g", i, j, m[j * 5 + i]);

	/* The same matrix into data without a home buffer (allocated on arrival). */
	starpu_data_handle_t hlazy;
	if (s)
		starpu_matrix_data_register(&hlazy, STARPU_MAIN_RAM, (uintptr_t)m, 8, 5, 3, sizeof(float));
	else
		starpu_matrix_data_register(&hlazy, -1, 0, 5, 5, 3, sizeof(float));
	exchange(hlazy, 4);
	if (!s) {
		MUST(starpu_data_acquire(hlazy, STARPU_R));
		float *got = (float *)starpu_matrix_get_local_ptr(hlazy);
		unsigned ld = starpu_matrix_get_local_ld(hlazy);
		CHECK(got && got[2 * ld + 4] == 24, "lazily allocated matrix(4,2) = %g", got ? got[2 * ld + 4] : -1);
		starpu_data_release(hlazy);
	}
	starpu_data_unregister(hlazy);

	/* 3 x 4 x 2 block with ldy 4, ldz 20 on the sender, tight on the receiver. */
	short b[40];
	for (int i = 0; i < 40; i++)
		b[i] = -1;
	starpu_data_handle_t hb;
	if (s) {
		for (int z = 0; z < 2; z++)
			for (int y = 0; y < 4; y++)
				for (int x = 0; x < 3; x++)
					b[z * 20 + y * 4 + x] = 100 * z + 10 * y + x;
		starpu_block_data_register(&hb, STARPU_MAIN_RAM, (uintptr_t)b, 4, 20, 3, 4, 2, sizeof(short));
	} else {
		starpu_block_data_register(&hb, STARPU_MAIN_RAM, (uintptr_t)b, 3, 12, 3, 4, 2, sizeof(short));
	}
	exchange(hb, 5);
	starpu_data_unregister(hb);
	if (!s)
		for (int z = 0; z < 2; z++)
			for (int y = 0; y < 4; y++)
				for (int x = 0; x < 3; x++)
					CHECK(b[z * 12 + y * 3 + x] == 100 * z + 10 * y + x, "block(%d,%d,%d) = %d", x, y, z, b[z * 12 + y * 3 + x]);

	double t[16];
	for (int i = 0; i < 16; i++)
		t[i] = s ? i + 0.5 : 0;
	starpu_data_handle_t ht;
	starpu_tensor_data_register(&ht, STARPU_MAIN_RAM, (uintptr_t)t, 2, 4, 8, 2, 2, 2, 2, sizeof(double));
	exchange(ht, 6);
	starpu_data_unregister(ht);
	for (int i = 0; i < 16; i++)
		CHECK(t[i] == i + 0.5, "tensor[%d] = %g", i, t[i]);

	int nd[24];
	for (int i = 0; i < 24; i++)
		nd[i] = s ? 7 * i : 0;
	unsigned nn[3] = {2, 3, 4}, ldn[3] = {1, 2, 6};
	starpu_data_handle_t hnd;
	starpu_ndim_data_register(&hnd, STARPU_MAIN_RAM, (uintptr_t)nd, ldn, nn, 3, sizeof(int));
	exchange(hnd, 7);
	starpu_data_unregister(hnd);
	for (int i = 0; i < 24; i++)
		CHECK(nd[i] == 7 * i, "ndim[%d] = %d", i, nd[i]);

	/* CSR: 3 rows, 4 non-zeros. */
	double nz[4] = {1, 2, 3, 4};
	uint32_t col[4] = {0, 2, 1, 2}, row[4] = {0, 2, 3, 4};
	if (!s) {
		memset(nz, 0, sizeof nz);
		memset(col, 0, sizeof col);
		memset(row, 0, sizeof row);
	}
	starpu_data_handle_t hcsr;
	starpu_csr_data_register(&hcsr, STARPU_MAIN_RAM, 4, 3, (uintptr_t)nz, col, row, 0, sizeof(double));
	exchange(hcsr, 8);
	starpu_data_unregister(hcsr);
	CHECK(nz[3] == 4 && col[1] == 2 && row[3] == 4, "csr: nzval[3] %g colind[1] %u rowptr[3] %u", nz[3], col[1], row[3]);

	/* BCSR: 2 x 2 blocks, 2 of them. */
	float bz[8];
	uint32_t bcol[2] = {1, 0}, brow[3] = {0, 1, 2};
	for (int i = 0; i < 8; i++)
		bz[i] = s ? i * 1.5f : 0;
	if (!s) {
		bcol[0] = bcol[1] = 9;
		brow[1] = brow[2] = 9;
	}
	starpu_data_handle_t hbcsr;
	starpu_bcsr_data_register(&hbcsr, STARPU_MAIN_RAM, 2, 2, (uintptr_t)bz, bcol, brow, 0, 2, 2, sizeof(float));
	exchange(hbcsr, 9);
	starpu_data_unregister(hbcsr);
	CHECK(bz[7] == 10.5f && bcol[0] == 1 && brow[2] == 2, "bcsr: nzval[7] %g colind[0] %u rowptr[2] %u", bz[7], bcol[0], brow[2]);

	uint32_t cc[3] = {0, 1, 2}, cr[3] = {2, 1, 0};
	int cv[3] = {5, 6, 7};
	if (!s) {
		memset(cc, 0, sizeof cc);
		memset(cr, 0, sizeof cr);
		memset(cv, 0, sizeof cv);
	}
	starpu_data_handle_t hcoo;
	starpu_coo_data_register(&hcoo, STARPU_MAIN_RAM, 3, 3, 3, cc, cr, (uintptr_t)cv, sizeof(int));
	exchange(hcoo, 10);
	starpu_data_unregister(hcoo);
	CHECK(cc[2] == 2 && cr[0] == 2 && cv[1] == 6, "coo: columns[2] %u rows[0] %u values[1] %d", cc[2], cr[0], cv[1]);

	starpu_data_handle_t hvoid;
	starpu_void_data_register(&hvoid);
	exchange(hvoid, 11);
	starpu_data_unregister(hvoid);
}

/* ---- 2. application-defined interfaces ---- */

static void custom_interfaces(void)
{
	double x[6], y[6];
	for (int i = 0; i < 6; i++) {
		x[i] = sender() ? i : 0;
		y[i] = sender() ? -i : 0;
	}
	starpu_data_handle_t h;
	pair_register(&h, &pair_ops, x, y, 6);
	exchange(h, 20);
	starpu_data_unregister(h);
	for (int i = 0; i < 6; i++)
		CHECK(x[i] == i && y[i] == -i, "packed pair[%d] = (%g, %g)", i, x[i], y[i]);
	if (!sender())
		CHECK(unpacked == 1, "unpack_data ran %d times", unpacked);

	/* Through an MPI datatype, into data allocated on arrival. */
	starpu_data_register_ops(&pair_typed_ops);
	MUST(starpu_mpi_interface_datatype_register(pair_typed_ops.interfaceid, pair_datatype, pair_datatype_free));
	double tx[5] = {1, 2, 3, 4, 5}, ty[5] = {-1, -2, -3, -4, -5};
	starpu_data_handle_t ht;
	pair_register(&ht, &pair_typed_ops, sender() ? tx : NULL, sender() ? ty : NULL, 5);
	exchange(ht, 21);
	if (!sender()) {
		MUST(starpu_data_acquire(ht, STARPU_R));
		struct pair_interface *p = starpu_data_get_interface_on_node(ht, STARPU_MAIN_RAM);
		for (int i = 0; i < 5; i++)
			CHECK(p->x[i] == i + 1 && p->y[i] == -(i + 1), "typed pair[%d] = (%g, %g)", i, p->x[i], p->y[i]);
		starpu_data_release(ht);
	}
	starpu_data_unregister(ht);
	CHECK(datatypes_made >= 1, "the MPI datatype function ran %d times", datatypes_made);
}

/* ---- 3. early and late data ---- */

static void early_and_late(void)
{
	long early = sender() ? 111 : 0, late = sender() ? 222 : 0;
	starpu_data_handle_t he, hl;
	starpu_variable_data_register(&he, STARPU_MAIN_RAM, (uintptr_t)&early, sizeof(early));
	starpu_variable_data_register(&hl, STARPU_MAIN_RAM, (uintptr_t)&late, sizeof(late));
	starpu_mpi_req req;
	if (sender()) {
		/* Early: sent before the receiver posts (it waits for the barrier first). */
		MUST(starpu_mpi_isend(he, &req, peer(), 30, MPI_COMM_WORLD));
		MUST(starpu_mpi_wait(&req, MPI_STATUS_IGNORE));
		CHECK(req == NULL, "the request is cleared by the wait");
		MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
		/* Late: the receiver posted before the barrier. */
		MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
		MUST(starpu_mpi_send(hl, peer(), 31, MPI_COMM_WORLD));
	} else {
		MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
		MUST(starpu_mpi_irecv(he, &req, peer(), 30, MPI_COMM_WORLD));
		MUST(starpu_mpi_wait(&req, MPI_STATUS_IGNORE));
		starpu_mpi_req late_req;
		MUST(starpu_mpi_irecv(hl, &late_req, peer(), 31, MPI_COMM_WORLD));
		MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
		int flag = 0;
		while (!flag)
			MUST(starpu_mpi_test(&late_req, &flag, MPI_STATUS_IGNORE));
	}
	starpu_data_unregister(he);
	starpu_data_unregister(hl);
	CHECK(early == 111 && late == 222, "early %ld, late %ld", early, late);
}

/* ---- 4. synchronous sends ---- */

static void synchronous_send(void)
{
	int value = sender() ? 77 : 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof(value));
	if (sender()) {
		starpu_mpi_req req;
		MUST(starpu_mpi_issend(h, &req, peer(), 40, MPI_COMM_WORLD));
		/* The receiver posts only after the barrier below: the send cannot be over. */
		int flag = -1;
		MUST(starpu_mpi_test(&req, &flag, MPI_STATUS_IGNORE));
		CHECK(flag == 0, "a synchronous send ended before its receive was posted");
		MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
		if (flag == 0)
			MUST(starpu_mpi_wait(&req, MPI_STATUS_IGNORE));
	} else {
		MUST(starpu_mpi_barrier(MPI_COMM_WORLD));
		MUST(starpu_mpi_recv(h, peer(), 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	starpu_data_unregister(h);
	CHECK(value == 77, "value %d", value);
}

/* ---- 5. any source ---- */

static void any_source(void)
{
	int value = mt_rank * 1000;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof(value));
	if (mt_rank == 0) {
		int seen = 0;
		for (int i = 1; i < mt_size; i++) {
			MPI_Status st;
			MUST(starpu_mpi_recv(h, MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &st));
			MUST(starpu_data_acquire(h, STARPU_R));
			CHECK(value == st.MPI_SOURCE * 1000, "value %d from rank %d", value, st.MPI_SOURCE);
			starpu_data_release(h);
			seen |= 1 << st.MPI_SOURCE;
		}
		CHECK(seen == ((1 << mt_size) - 2), "sources seen: %#x", seen);
	} else {
		MUST(starpu_mpi_send(h, 0, 50, MPI_COMM_WORLD));
	}
	starpu_data_unregister(h);
}

/* ---- 6. tags ---- */

static void unlock_tag(void)
{
	int value = sender() ? 5 : 0;
	starpu_data_handle_t h;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof(value));
	starpu_tag_t tag = 4242;
	if (sender())
		MUST(starpu_mpi_isend_detached_unlock_tag(h, peer(), 60, MPI_COMM_WORLD, tag));
	else
		MUST(starpu_mpi_irecv_detached_unlock_tag(h, peer(), 60, MPI_COMM_WORLD, tag));
	MUST(starpu_tag_wait(tag));
	starpu_data_unregister(h);
	CHECK(value == 5, "value %d after the tag", value);
}

/* ---- 7. statistics ---- */

static void statistics(void)
{
	int v[100] = {0};
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 100, sizeof(int));
	starpu_mpi_comm_stats_enable();
	exchange(h, 70);
	starpu_mpi_comm_stats_disable();
	exchange(h, 71);
	starpu_data_unregister(h);
	size_t *stats = calloc(mt_size, sizeof(size_t));
	starpu_mpi_comm_stats_retrieve(stats);
	for (int r = 0; r < mt_size; r++) {
		size_t want = sender() && r == peer() ? sizeof(v) : 0;
		CHECK(stats[r] == want, "bytes sent to rank %d: %zu, expected %zu", r, stats[r], want);
	}
	free(stats);
}

int main(int argc, char **argv)
{
	mt_init(&argc, &argv, 1);
	if (mt_size % 2) {
		fprintf(stderr, "needs an even number of processes\n");
		return 1;
	}
	standard_interfaces();
	custom_interfaces();
	early_and_late();
	synchronous_send();
	any_source();
	unlock_tag();
	statistics();
	return mt_finish();
}
