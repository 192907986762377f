/* The multiformat interface: an array of structures registered with
 * starpu_multiformat_data_register, scaled by tasks that read it through
 * STARPU_MULTIFORMAT_GET_CPU_PTR / _GET_NX. This build runs on CPUs only: tasks see the
 * CPU format and the conversion codelets (given here) must never run. Bad ops are
 * refused with a NULL handle, not a crash.
 */
#include "test_common.h"

#define NX 100

struct point {
	float x, y;
};

static struct point points[NX];
static int conversions;

static void scal(void *buffers[], void *cl_arg)
{
	float factor;
	starpu_codelet_unpack_args(cl_arg, &factor);
	struct point *p = STARPU_MULTIFORMAT_GET_CPU_PTR(buffers[0]);
	unsigned n = STARPU_MULTIFORMAT_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++) {
		p[i].x *= factor;
		p[i].y += 1.0f;
	}
}

static void convert(void *buffers[], void *cl_arg)
{
	(void)buffers;
	(void)cl_arg;
	__atomic_fetch_add(&conversions, 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet to_cuda = {.cpu_funcs = {convert}, .nbuffers = 1, .modes = {STARPU_RW}};
static struct starpu_codelet from_cuda = {.cpu_funcs = {convert}, .nbuffers = 1, .modes = {STARPU_RW}};

static struct starpu_multiformat_data_interface_ops format_ops = {
	.cpu_elemsize = sizeof(struct point),
	.cuda_elemsize = 2 * sizeof(float),
	.cpu_to_cuda_cl = &to_cuda,
	.cuda_to_cpu_cl = &from_cuda,
};

static struct starpu_codelet scal_cl = {
	.cpu_funcs = {scal},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "multiformat_scal",
};

int main(void)
{
	tc_init_ncpus(-1);
	for (int i = 0; i < NX; i++)
		points[i] = (struct point){(float)i, 0.0f};

	starpu_data_handle_t h;
	starpu_multiformat_data_register(&h, STARPU_MAIN_RAM, points, NX, &format_ops);
	CHECK(h != NULL, "registered");
	CHECK(starpu_data_get_interface_id(h) == STARPU_MULTIFORMAT_INTERFACE_ID, "id %d",
	      (int)starpu_data_get_interface_id(h));
	CHECK(starpu_data_get_size(h) == NX * sizeof(struct point), "size %zu",
	      starpu_data_get_size(h));

	float two = 2.0f, three = 3.0f;
	MUST(starpu_task_insert(&scal_cl, STARPU_RW, h, STARPU_VALUE, &two, sizeof(two), 0));
	MUST(starpu_task_insert(&scal_cl, STARPU_RW, h, STARPU_VALUE, &three, sizeof(three), 0));
	starpu_task_wait_for_all();

	/* The interface the application sees on main memory is the CPU format. */
	struct starpu_multiformat_interface *mi = starpu_data_get_interface_on_node(h, STARPU_MAIN_RAM);
	CHECK(mi != NULL && mi->nx == NX && mi->ops == &format_ops, "interface on node 0");
	starpu_data_unregister(h);
	for (int i = 0; i < NX; i++)
		CHECK(points[i].x == 6.0f * i && points[i].y == 2.0f, "point %d = (%f, %f)", i,
		      points[i].x, points[i].y);
	CHECK(conversions == 0, "%d conversions ran on a CPU-only build", conversions);

	/* An ops table without a CPU element size cannot describe the data. */
	struct starpu_multiformat_data_interface_ops bad = {.cuda_elemsize = 8};
	starpu_data_handle_t hb = (starpu_data_handle_t)1;
	starpu_multiformat_data_register(&hb, STARPU_MAIN_RAM, points, NX, &bad);
	CHECK(hb == NULL, "bad ops refused");
	starpu_data_handle_t hn = (starpu_data_handle_t)1;
	starpu_multiformat_data_register(&hn, STARPU_MAIN_RAM, points, NX, NULL);
	CHECK(hn == NULL, "NULL ops refused");

	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
