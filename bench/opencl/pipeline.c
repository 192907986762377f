/* A CPU + OpenCL pipeline: NB independent blocks of SIZE floats; for each, a CPU task
 * fills it (W), an OpenCL task computes on it (RW: ITER multiply-adds per element, on the
 * device), a CPU task checks it (R). Each block goes to the device and back; with the
 * dmda policy and prefetching (STARPU_PREFETCH=1, StarPU's default) a block's transfer
 * starts when its OpenCL task is placed, while the device works on the previous one;
 * without (STARPU_PREFETCH=0) it starts when the task runs. Prints the time of the whole
 * pipeline and whether every value was right.
 *
 *     pipeline NB SIZE ITER   ->   blocks=NB size=SIZE ms=... ok=1 */
#include "common.h"
#include <math.h>

static const char *src =
	"__kernel void work(__global float *v, unsigned offset, unsigned n, unsigned iter)\n"
	"{\n"
	"	const size_t i = get_global_id(0);\n"
	"	if (i >= n) return;\n"
	"	float x = v[offset + i];\n"
	"	for (unsigned k = 0; k < iter; k++)\n"
	"		x = x * 0.999f + 0.001f;\n"
	"	v[offset + i] = x;\n"
	"}\n";

static struct starpu_opencl_program programs;
static unsigned iter;
static int bad;

static void fill(void *buffers[], void *arg)
{
	(void)arg;
	float *v = (float *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] = 1.0f;
}

static void work(void *buffers[], void *arg)
{
	(void)arg;
	cl_mem v = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buffers[0]);
	unsigned offset = STARPU_VECTOR_GET_OFFSET(buffers[0]) / sizeof(float);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	cl_kernel k;
	cl_command_queue q;
	int devid = starpu_worker_get_devid(starpu_worker_get_id());
	if (starpu_opencl_load_kernel(&k, &q, &programs, "work", devid) != CL_SUCCESS)
		abort();
	clSetKernelArg(k, 0, sizeof(v), &v);
	clSetKernelArg(k, 1, sizeof(offset), &offset);
	clSetKernelArg(k, 2, sizeof(n), &n);
	clSetKernelArg(k, 3, sizeof(iter), &iter);
	size_t global = n;
	clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
	clFinish(q);
	starpu_opencl_release_kernel(k);
}

static void check(void *buffers[], void *arg)
{
	(void)arg;
	float *v = (float *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		if (fabsf(v[i] - 1.0f) > 1e-3f)
			__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
}

static struct starpu_codelet fill_cl = {.cpu_funcs = {fill}, .nbuffers = 1, .modes = {STARPU_W}, .name = "fill"};
static struct starpu_codelet work_cl = {.opencl_funcs = {work}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "work"};
static struct starpu_codelet check_cl = {.cpu_funcs = {check}, .nbuffers = 1, .modes = {STARPU_R}, .name = "check"};

int main(int argc, char **argv)
{
	int nb = argc > 1 ? atoi(argv[1]) : 32;
	unsigned size = argc > 2 ? (unsigned)atoi(argv[2]) : 1 << 20;
	iter = argc > 3 ? (unsigned)atoi(argv[3]) : 50;
	start();
	if (starpu_opencl_load_opencl_from_string(src, &programs, NULL) != 0)
		return 1;
	float *data;
	starpu_malloc((void **)&data, (size_t)nb * size * sizeof(float));
	starpu_data_handle_t *h = malloc(nb * sizeof(*h));
	for (int b = 0; b < nb; b++)
		starpu_vector_data_register(&h[b], STARPU_MAIN_RAM, (uintptr_t)(data + (size_t)b * size), size,
					    sizeof(float));
	double t0 = now_us();
	for (int b = 0; b < nb; b++) {
		starpu_task_insert(&fill_cl, STARPU_W, h[b], 0);
		starpu_task_insert(&work_cl, STARPU_RW, h[b], 0);
		starpu_task_insert(&check_cl, STARPU_R, h[b], 0);
	}
	starpu_task_wait_for_all();
	double t1 = now_us();
	for (int b = 0; b < nb; b++)
		starpu_data_unregister(h[b]);
	printf("blocks=%d size=%u ms=%.1f ok=%d\n", nb, size, (t1 - t0) / 1000.0, bad == 0);
	starpu_opencl_unload_opencl(&programs);
	starpu_free(data);
	free(h);
	starpu_shutdown();
	return bad != 0;
}
