/* custom_interface: a data interface defined by the application, as StarPU's
 * examples/interface does: a "pair" of two double arrays (x and y) of n elements, with
 * its own struct starpu_data_interface_ops (register_data_handle filling every node's
 * description up to STARPU_MAXNODES, allocate / free, an any_to_any copy written with
 * starpu_interface_copy, get_size, a footprint with starpu_hash_crc32c_be, describe).
 *
 *  1. Registered on main memory: tasks read and write it through their own macros; the
 *     application's arrays hold the result; get_size and the footprint come from the ops.
 *  2. Registered with home node -1 (the runtime allocates it with the ops), split in two
 *     by an application filter, each half written by a task, gathered, copied with
 *     starpu_data_cpy into a third pair, and read back.
 *  3. A filter whose children are plain vectors (get_child_ops): the x and y arrays of a
 *     pair as two vector handles.
 */
#include "test_common.h"
#include "pair_interface.h"

static int pair_copy(void *src_interface, unsigned src_node, void *dst_interface, unsigned dst_node, void *async_data)
{
	struct pair_interface *s = src_interface, *d = dst_interface;
	int ret = 0;
	if (starpu_interface_copy((uintptr_t)s->x, 0, src_node, (uintptr_t)d->x, 0, dst_node, s->n * sizeof(double), async_data))
		ret = -EAGAIN;
	if (starpu_interface_copy((uintptr_t)s->y, 0, src_node, (uintptr_t)d->y, 0, dst_node, s->n * sizeof(double), async_data))
		ret = -EAGAIN;
	return ret;
}

static uint32_t pair_footprint(starpu_data_handle_t handle)
{
	struct pair_interface *p = starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM);
	return starpu_hash_crc32c_be(p->n, 0);
}

static starpu_ssize_t pair_describe(void *data_interface, char *buf, size_t size)
{
	return snprintf(buf, size, "pair%u", PAIR_N(data_interface));
}

static struct starpu_data_copy_methods pair_copy_methods = {.any_to_any = pair_copy};

static struct starpu_data_interface_ops pair_ops = {
	.register_data_handle = pair_register_data_handle,
	.allocate_data_on_node = pair_allocate,
	.free_data_on_node = pair_free,
	.copy_methods = &pair_copy_methods,
	.get_size = pair_get_size,
	.footprint = pair_footprint,
	.describe = pair_describe,
	.interfaceid = STARPU_UNKNOWN_INTERFACE_ID,
	.interface_size = sizeof(struct pair_interface),
	.name = "PAIR_INTERFACE",
};

static void pair_register(starpu_data_handle_t *h, int home, double *x, double *y, uint32_t n)
{
	struct pair_interface p = {.x = x, .y = y, .n = n};
	starpu_data_register(h, home, &p, &pair_ops);
}

/* x[i] += k, y[i] -= k */
static void shift(void *buffers[], void *arg)
{
	long k = (long)(uintptr_t)arg;
	for (uint32_t i = 0; i < PAIR_N(buffers[0]); i++) {
		PAIR_X(buffers[0])[i] += k;
		PAIR_Y(buffers[0])[i] -= k;
	}
}

static struct starpu_codelet shift_cl = {.cpu_funcs = {shift}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "shift"};

static void set_index(void *buffers[], void *arg)
{
	(void)arg;
	for (uint32_t i = 0; i < PAIR_N(buffers[0]); i++) {
		PAIR_X(buffers[0])[i] = i;
		PAIR_Y(buffers[0])[i] = 10 * i;
	}
}

static struct starpu_codelet set_cl = {.cpu_funcs = {set_index}, .nbuffers = 1, .modes = {STARPU_W}, .name = "set"};

static double got_x[8], got_y[8];

static void read_back(void *buffers[], void *arg)
{
	(void)arg;
	for (uint32_t i = 0; i < PAIR_N(buffers[0]) && i < 8; i++) {
		got_x[i] = PAIR_X(buffers[0])[i];
		got_y[i] = PAIR_Y(buffers[0])[i];
	}
}

static struct starpu_codelet read_cl = {.cpu_funcs = {read_back}, .nbuffers = 1, .modes = {STARPU_R}, .name = "read"};

/* Child i of n: a contiguous slice of both arrays. */
static void pair_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts)
{
	(void)f;
	struct pair_interface *p = father, *c = child;
	uint32_t chunk = p->n / nparts, first = id * chunk;
	c->n = id == nparts - 1 ? p->n - first : chunk;
	c->x = p->x ? p->x + first : NULL;
	c->y = p->y ? p->y + first : NULL;
}

/* Child 0: the x array as a vector; child 1: the y array. */
static void pair_canonical(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts)
{
	(void)f, (void)nparts;
	struct pair_interface *p = father;
	struct starpu_vector_interface *v = child;
	double *a = id == 0 ? p->x : p->y;
	v->id = STARPU_VECTOR_INTERFACE_ID;
	v->ptr = v->dev_handle = (uintptr_t)a;
	v->offset = 0;
	v->nx = p->n;
	v->elemsize = sizeof(double);
	v->allocsize = p->n * sizeof(double);
}

static struct starpu_data_interface_ops *canonical_child_ops(struct starpu_data_filter *f, unsigned id)
{
	(void)f, (void)id;
	return &starpu_interface_vector_ops;
}

int main(void)
{
	tc_init();

	/* 1 */
	double x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8};
	starpu_data_handle_t h1;
	pair_register(&h1, STARPU_MAIN_RAM, x, y, 4);
	CHECK(pair_ops.interfaceid >= STARPU_MAX_INTERFACE_ID, "the ops got no id: %d", pair_ops.interfaceid);
	CHECK(starpu_data_get_interface_id(h1) == pair_ops.interfaceid, "interface id %d", starpu_data_get_interface_id(h1));
	CHECK(starpu_data_get_size(h1) == 8 * sizeof(double), "size %zu", starpu_data_get_size(h1));
	MUST(starpu_task_insert(&shift_cl, STARPU_RW, h1, STARPU_CL_ARGS_NFREE, (void *)(uintptr_t)3, (size_t)0, 0));
	MUST(starpu_task_insert(&shift_cl, STARPU_RW, h1, STARPU_CL_ARGS_NFREE, (void *)(uintptr_t)2, (size_t)0, 0));
	starpu_data_unregister(h1);
	CHECK(x[0] == 6 && x[3] == 9 && y[0] == 0 && y[3] == 3, "x = %g..%g, y = %g..%g", x[0], x[3], y[0], y[3]);

	/* 2 */
	starpu_data_handle_t h2, h3;
	pair_register(&h2, -1, NULL, NULL, 6);
	MUST(starpu_task_insert(&set_cl, STARPU_W, h2, 0));
	struct starpu_data_filter halves = {.filter_func = pair_block, .nchildren = 2};
	starpu_data_partition(h2, &halves);
	MUST(starpu_task_insert(&shift_cl, STARPU_RW, starpu_data_get_sub_data(h2, 1, 0), STARPU_CL_ARGS_NFREE, (void *)(uintptr_t)100, (size_t)0, 0));
	MUST(starpu_task_insert(&shift_cl, STARPU_RW, starpu_data_get_sub_data(h2, 1, 1), STARPU_CL_ARGS_NFREE, (void *)(uintptr_t)1, (size_t)0, 0));
	starpu_data_unpartition(h2, STARPU_MAIN_RAM);
	starpu_data_register_same(&h3, h2);
	MUST(starpu_data_cpy(h3, h2, 0, NULL, NULL));
	MUST(starpu_task_insert(&read_cl, STARPU_R, h3, 0));
	MUST(starpu_task_wait_for_all());
	double ex[6] = {100, 101, 102, 4, 5, 6}, ey[6] = {-100, -90, -80, 29, 39, 49};
	for (int i = 0; i < 6; i++)
		CHECK(got_x[i] == ex[i] && got_y[i] == ey[i], "element %d: (%g, %g), expected (%g, %g)", i, got_x[i], got_y[i], ex[i], ey[i]);

	/* 3 */
	struct starpu_data_filter canon = {.filter_func = pair_canonical, .nchildren = 2, .get_child_ops = canonical_child_ops};
	starpu_data_partition(h3, &canon);
	starpu_data_handle_t vy = starpu_data_get_sub_data(h3, 1, 1);
	CHECK(starpu_data_get_interface_id(vy) == STARPU_VECTOR_INTERFACE_ID, "child is not a vector");
	MUST(starpu_data_acquire(vy, STARPU_R));
	double *yy = (double *)starpu_vector_get_local_ptr(vy);
	CHECK(starpu_vector_get_nx(vy) == 6 && yy[5] == 49, "y as a vector: nx=%u, y[5]=%g", starpu_vector_get_nx(vy), yy[5]);
	starpu_data_release(vy);
	starpu_data_unpartition(h3, STARPU_MAIN_RAM);

	starpu_data_unregister(h2);
	starpu_data_unregister(h3);
	starpu_shutdown();
	return tc_finish("custom_interface");
}
