/* Data on an OpenCL device (PoCL, with STARPU_OPENCL_ON_CPUS=1 as run.sh sets): every
 * standard interface written on the device and read back in main RAM (strided layouts
 * in RAM, packed on the device), a partitioned vector whose pieces live in the parent's
 * device buffer, the data calls (allocation request, fetch, prefetch, eviction, query,
 * acquisition on the device, write-through), bus statistics, multiformat data without an
 * OpenCL conversion kept to CPU workers, and eviction under a small
 * STARPU_LIMIT_OPENCL_MEM with no data lost. Exits 78 (skipped) without a device. */
#include "test_common.h"
#include <starpu_opencl.h>

#ifndef STARPU_USE_OPENCL
/* A libstarpu built without OpenCL (no `opencl` feature): nothing to test. */
TC_SKIPPED_MAIN("libstarpu was built without OpenCL")
#else

static const char *add1_src =
	"__kernel void add1(__global float *v, unsigned offset, unsigned n)\n"
	"{\n"
	"	const size_t i = get_global_id(0);\n"
	"	if (i < n) v[offset + i] += 1.0f;\n"
	"}\n";

static struct starpu_opencl_program programs;

/* The values of buffer `b` on the device: where they start and how many (device copies
 * are packed: the runtime allocates them without padding). */
static void values_of(void *b, cl_mem *mem, unsigned *offset, unsigned *n)
{
	switch (*(int *)b) {
	case STARPU_VECTOR_INTERFACE_ID:
		*mem = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(b);
		*offset = STARPU_VECTOR_GET_OFFSET(b) / sizeof(float);
		*n = STARPU_VECTOR_GET_NX(b);
		break;
	case STARPU_VARIABLE_INTERFACE_ID:
		*mem = (cl_mem)STARPU_VARIABLE_GET_DEV_HANDLE(b);
		*offset = STARPU_VARIABLE_GET_OFFSET(b) / sizeof(float);
		*n = 1;
		break;
	case STARPU_MATRIX_INTERFACE_ID:
		*mem = (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(b);
		*offset = STARPU_MATRIX_GET_OFFSET(b) / sizeof(float);
		*n = STARPU_MATRIX_GET_NX(b) * STARPU_MATRIX_GET_NY(b);
		break;
	case STARPU_BLOCK_INTERFACE_ID:
		*mem = (cl_mem)STARPU_BLOCK_GET_DEV_HANDLE(b);
		*offset = STARPU_BLOCK_GET_OFFSET(b) / sizeof(float);
		*n = STARPU_BLOCK_GET_NX(b) * STARPU_BLOCK_GET_NY(b) * STARPU_BLOCK_GET_NZ(b);
		break;
	case STARPU_TENSOR_INTERFACE_ID:
		*mem = (cl_mem)STARPU_TENSOR_GET_DEV_HANDLE(b);
		*offset = STARPU_TENSOR_GET_OFFSET(b) / sizeof(float);
		*n = STARPU_TENSOR_GET_NX(b) * STARPU_TENSOR_GET_NY(b) * STARPU_TENSOR_GET_NZ(b) *
		     STARPU_TENSOR_GET_NT(b);
		break;
	case STARPU_NDIM_INTERFACE_ID:
		*mem = (cl_mem)STARPU_NDIM_GET_DEV_HANDLE(b);
		*offset = STARPU_NDIM_GET_OFFSET(b) / sizeof(float);
		*n = 1;
		for (size_t d = 0; d < STARPU_NDIM_GET_NDIM(b); d++)
			*n *= STARPU_NDIM_GET_NN(b)[d];
		break;
	case STARPU_CSR_INTERFACE_ID:
		*mem = (cl_mem)STARPU_CSR_GET_NZVAL_DEV_HANDLE(b);
		*offset = 0;
		*n = STARPU_CSR_GET_NNZ(b);
		break;
	case STARPU_BCSR_INTERFACE_ID:
		*mem = (cl_mem)STARPU_BCSR_GET_NZVAL_DEV_HANDLE(b);
		*offset = 0;
		*n = STARPU_BCSR_GET_NNZ(b) * STARPU_BCSR_GET_R(b) * STARPU_BCSR_GET_C(b);
		break;
	case STARPU_COO_INTERFACE_ID:
		*mem = (cl_mem)STARPU_COO_GET_VALUES_DEV_HANDLE(b);
		*offset = 0;
		*n = STARPU_COO_GET_NVALUES(b);
		break;
	default:
		*mem = NULL;
		*n = 0;
	}
}

/* Adds 1 to every value of buffer 0, on the device. */
static void add1_opencl(void *buffers[], void *arg)
{
	(void)arg;
	cl_mem mem;
	unsigned offset, n;
	values_of(buffers[0], &mem, &offset, &n);
	int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
	cl_kernel kernel;
	cl_command_queue queue;
	cl_int err = starpu_opencl_load_kernel(&kernel, &queue, &programs, "add1", devid);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	err = clSetKernelArg(kernel, 0, sizeof(mem), &mem);
	err |= clSetKernelArg(kernel, 1, sizeof(offset), &offset);
	err |= clSetKernelArg(kernel, 2, sizeof(n), &n);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	size_t global = n;
	err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	clFinish(queue);
	starpu_opencl_release_kernel(kernel);
}

static struct starpu_codelet add1_cl = {
	.opencl_funcs = {add1_opencl},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "add1_opencl",
};

/* After an OpenCL task wrote `h`, only the device holds its value. */
static void check_on_device_only(starpu_data_handle_t h, unsigned dev, const char *what)
{
	int alloc, valid, req;
	starpu_data_query_status(h, STARPU_MAIN_RAM, &alloc, &valid, &req);
	CHECK(!valid, "%s: main RAM still valid after a write on the device", what);
	starpu_data_query_status(h, dev, &alloc, &valid, &req);
	CHECK(alloc && valid, "%s: device copy allocated %d valid %d", what, alloc, valid);
}

/* Runs add1 on `h` on the device, then checks where its value is. */
static void add1_on_device(starpu_data_handle_t h, unsigned dev, const char *what)
{
	MUST(starpu_task_insert(&add1_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();
	check_on_device_only(h, dev, what);
}

/* f[i] == base + i for the `n` elements `stride` apart, -7 in between. */
static int count_bad(const float *f, int n, int row, int ld, float base)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		int at = (i / row) * ld + i % row;
		bad += f[at] != base + i;
	}
	for (int i = 0; i < (n / row) * ld; i++)
		if (i % ld >= row)
			bad += f[i] != -7.0f;
	return bad;
}

static void interfaces(unsigned dev)
{
	/* Vector. */
	float vec[100];
	for (int i = 0; i < 100; i++)
		vec[i] = i;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)vec, 100, sizeof(float));
	add1_on_device(h, dev, "vector");
	starpu_data_unregister(h);
	CHECK(count_bad(vec, 100, 100, 100, 1.0f) == 0, "vector came back wrong (vec[7] = %f)", vec[7]);

	/* Variable. */
	float x = 41.0f;
	starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	add1_on_device(h, dev, "variable");
	starpu_data_unregister(h);
	CHECK(x == 42.0f, "variable came back as %f", x);

	/* Matrix 5 x 3 with ld 8 (padding -7, untouched). */
	float mat[3 * 8];
	for (int i = 0; i < 3 * 8; i++)
		mat[i] = i % 8 < 5 ? (i / 8) * 5 + i % 8 : -7.0f;
	starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)mat, 8, 5, 3, sizeof(float));
	add1_on_device(h, dev, "matrix");
	starpu_data_unregister(h);
	CHECK(count_bad(mat, 15, 5, 8, 1.0f) == 0, "matrix came back wrong (%f %f %f)", mat[0], mat[8],
	      mat[5]);

	/* Block 4 x 3 x 2, ldy 5, ldz 16: rows of 4 in lines of 5, planes 16 apart. */
	float blk[32];
	for (int i = 0; i < 32; i++)
		blk[i] = -7.0f;
	for (int z = 0, k = 0; z < 2; z++)
		for (int y = 0; y < 3; y++)
			for (int xx = 0; xx < 4; xx++)
				blk[z * 16 + y * 5 + xx] = k++;
	starpu_block_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)blk, 5, 16, 4, 3, 2, sizeof(float));
	add1_on_device(h, dev, "block");
	starpu_data_unregister(h);
	int bad = 0;
	for (int z = 0, k = 0; z < 2; z++)
		for (int y = 0; y < 3; y++)
			for (int xx = 0; xx < 4; xx++)
				bad += blk[z * 16 + y * 5 + xx] != 1.0f + k++;
	bad += blk[4] != -7.0f || blk[15] != -7.0f || blk[31] != -7.0f;
	CHECK(bad == 0, "block came back with %d wrong values", bad);

	/* Tensor 2 x 2 x 2 x 2, packed but for ldt 10. */
	float ten[20];
	for (int i = 0; i < 20; i++)
		ten[i] = i % 10 < 8 ? (i / 10) * 8 + i % 10 : -7.0f;
	starpu_tensor_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)ten, 2, 4, 10, 2, 2, 2, 2, sizeof(float));
	add1_on_device(h, dev, "tensor");
	starpu_data_unregister(h);
	CHECK(count_bad(ten, 16, 8, 10, 1.0f) == 0, "tensor came back wrong");

	/* Ndim: 3 x 2 with lines of 4 (an ndim matrix). */
	float nd[8];
	for (int i = 0; i < 8; i++)
		nd[i] = i % 4 < 3 ? (i / 4) * 3 + i % 4 : -7.0f;
	unsigned nn[2] = {3, 2}, ldn[2] = {1, 4};
	starpu_ndim_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)nd, ldn, nn, 2, sizeof(float));
	add1_on_device(h, dev, "ndim");
	starpu_data_unregister(h);
	CHECK(count_bad(nd, 6, 3, 4, 1.0f) == 0, "ndim came back wrong");

	/* CSR: 3 x 3 with 4 values; the index arrays go to the device and back too. */
	float nzval[4] = {0, 1, 2, 3};
	uint32_t colind[4] = {0, 2, 1, 2}, rowptr[4] = {0, 2, 3, 4};
	starpu_csr_data_register(&h, STARPU_MAIN_RAM, 4, 3, (uintptr_t)nzval, colind, rowptr, 0, sizeof(float));
	add1_on_device(h, dev, "csr");
	starpu_data_unregister(h);
	CHECK(count_bad(nzval, 4, 4, 4, 1.0f) == 0 && colind[1] == 2 && rowptr[3] == 4, "csr came back wrong");

	/* COO: 3 values. */
	float values[3] = {0, 1, 2};
	uint32_t cols[3] = {0, 1, 2}, rows[3] = {2, 1, 0};
	starpu_coo_data_register(&h, STARPU_MAIN_RAM, 3, 3, 3, cols, rows, (uintptr_t)values, sizeof(float));
	add1_on_device(h, dev, "coo");
	starpu_data_unregister(h);
	CHECK(count_bad(values, 3, 3, 3, 1.0f) == 0 && rows[0] == 2, "coo came back wrong");

	/* BCSR: 2 blocks of 2 x 2. */
	float bval[8] = {0, 1, 2, 3, 4, 5, 6, 7};
	uint32_t bcol[2] = {0, 1}, brow[3] = {0, 1, 2};
	starpu_bcsr_data_register(&h, STARPU_MAIN_RAM, 2, 2, (uintptr_t)bval, bcol, brow, 0, 2, 2, sizeof(float));
	add1_on_device(h, dev, "bcsr");
	starpu_data_unregister(h);
	CHECK(count_bad(bval, 8, 8, 8, 1.0f) == 0 && brow[2] == 2, "bcsr came back wrong");
}

/* A vector fetched to the device, then cut in 4: the pieces are views of the parent's
 * device buffer; each gets 1 added i + 1 times there, then the whole comes home. */
static void partitioned(unsigned dev)
{
	float v[1000];
	for (int i = 0; i < 1000; i++)
		v[i] = i;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 1000, sizeof(float));
	MUST(starpu_data_fetch_on_node(h, dev, 0));
	struct starpu_data_filter f = {.filter_func = starpu_vector_filter_block, .nchildren = 4};
	starpu_data_partition(h, &f);
	void *parent = starpu_data_get_interface_on_node(h, dev);
	for (int c = 0; c < 4; c++) {
		starpu_data_handle_t child = starpu_data_get_sub_data(h, 1, c);
		void *ci = starpu_data_get_interface_on_node(child, dev);
		CHECK(STARPU_VECTOR_GET_DEV_HANDLE(ci) == STARPU_VECTOR_GET_DEV_HANDLE(parent),
		      "child %d has a buffer of its own on the device", c);
		CHECK(STARPU_VECTOR_GET_OFFSET(ci) == c * 250 * sizeof(float), "child %d at offset %zu", c,
		      (size_t)STARPU_VECTOR_GET_OFFSET(ci));
		for (int r = 0; r <= c; r++)
			MUST(starpu_task_insert(&add1_cl, STARPU_RW, child, 0));
	}
	starpu_data_unpartition(h, STARPU_MAIN_RAM);
	starpu_data_unregister(h);
	int bad = 0;
	for (int i = 0; i < 1000; i++)
		bad += v[i] != i + 1 + i / 250;
	CHECK(bad == 0, "%d wrong values after the partitioned work (v[999] = %f)", bad, v[999]);
}

/* The data calls and bus statistics. */
static void data_calls(unsigned dev)
{
	float v[256];
	for (int i = 0; i < 256; i++)
		v[i] = i;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 256, sizeof(float));
	int alloc, valid, loading, req;

	MUST(starpu_data_request_allocation(h, dev));
	starpu_data_query_status2(h, dev, &alloc, &valid, &loading, &req);
	CHECK(alloc && !valid, "after an allocation request: allocated %d valid %d", alloc, valid);

	MUST(starpu_data_prefetch_on_node(h, dev, 0));
	starpu_data_query_status(h, dev, &alloc, &valid, &req);
	CHECK(valid, "a synchronous prefetch left the device copy invalid");
	CHECK(starpu_data_is_on_node(h, STARPU_MAIN_RAM) == 1, "main RAM lost its copy on a read");

	CHECK(starpu_data_evict_from_node(h, dev) == 0, "the device copy could not be evicted");
	CHECK(starpu_data_test_if_allocated_on_node(h, dev) == 0, "evicted, yet allocated");
	CHECK(starpu_data_evict_from_node(h, STARPU_MAIN_RAM) == -1, "the home copy (the only one) was evicted");

	MUST(starpu_data_fetch_on_node(h, dev, 1));
	starpu_task_wait_for_all();
	CHECK(starpu_data_is_on_node(h, dev) == 1, "an asynchronous fetch brought nothing");

	/* Acquired on the device: its description there is the device buffer. */
	MUST(starpu_data_acquire_on_node(h, dev, STARPU_R));
	void *d = starpu_data_get_interface_on_node(h, dev);
	CHECK(STARPU_VECTOR_GET_DEV_HANDLE(d) != 0 && STARPU_VECTOR_GET_PTR(d) == 0,
	      "device description: dev_handle %p ptr %p", (void *)STARPU_VECTOR_GET_DEV_HANDLE(d),
	      (void *)STARPU_VECTOR_GET_PTR(d));
	CHECK(starpu_data_handle_to_pointer(h, dev) == NULL, "a CPU pointer to device memory");
	starpu_data_release_on_node(h, dev);

	/* Written through to main RAM: RAM holds the value after the device task, with no
	 * acquisition asking for it. */
	starpu_data_set_wt_mask(h, 1 << STARPU_MAIN_RAM);
	MUST(starpu_task_insert(&add1_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();
	CHECK(starpu_data_is_on_node(h, STARPU_MAIN_RAM) == 1, "not written through to main RAM");
	starpu_data_set_wt_mask(h, 0);
	starpu_data_wont_use(h);
	starpu_memchunk_tidy(dev);

	starpu_data_unregister(h);
	CHECK(v[0] == 1.0f && v[255] == 256.0f, "values after write-through: %f %f", v[0], v[255]);

	/* Every transfer above went over the buses between main RAM and the device. */
	CHECK(starpu_bus_get_count() == 2, "%d buses", starpu_bus_get_count());
	int to = starpu_bus_get_id(STARPU_MAIN_RAM, dev), from = starpu_bus_get_id(dev, STARPU_MAIN_RAM);
	CHECK(to >= 0 && from >= 0 && starpu_bus_get_src(to) == STARPU_MAIN_RAM &&
		      starpu_bus_get_dst(to) == (int)dev,
	      "bus ids %d %d", to, from);
	struct starpu_profiling_bus_info info;
	MUST(starpu_bus_get_profiling_info(to, &info));
	CHECK(info.transferred_bytes >= 256 * 4 && info.transfer_count >= 1, "to the device: %lld bytes, %d transfers",
	      info.transferred_bytes, info.transfer_count);
	MUST(starpu_bus_get_profiling_info(from, &info));
	CHECK(info.transferred_bytes >= 256 * 4, "from the device: %lld bytes", info.transferred_bytes);
}

/* 12 vectors of 256 KiB through a device limited to 1 MiB: most must leave (their only
 * valid copy written back first) for others to come; none loses a value. */
static void eviction(unsigned dev)
{
	enum { N = 12, NX = 64 * 1024 };
	static float data[N][NX];
	starpu_data_handle_t h[N];
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < NX; j++)
			data[i][j] = i * 1000 + j % 1000;
		starpu_vector_data_register(&h[i], STARPU_MAIN_RAM, (uintptr_t)data[i], NX, sizeof(float));
	}
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < N; i++)
			MUST(starpu_task_insert(&add1_cl, STARPU_RW, h[i], 0));
	starpu_task_wait_for_all();
	int on_device = 0;
	for (int i = 0; i < N; i++)
		on_device += starpu_data_is_on_node(h[i], dev);
	CHECK(on_device < N, "all %d vectors (3 MiB) fit in 1 MiB of device memory", on_device);
	int bad = 0;
	for (int i = 0; i < N; i++) {
		starpu_data_unregister(h[i]);
		for (int j = 0; j < NX; j++)
			bad += data[i][j] != i * 1000 + j % 1000 + 2;
	}
	CHECK(bad == 0, "%d values lost or wrong after eviction", bad);
}

/* Multiformat data whose cpu_to_opencl_cl has no OpenCL implementation stays on CPU
 * workers: an OpenCL worker never gets such a task (one with only an OpenCL
 * implementation is refused at submission), and the data is never converted
 * (opencl_multiformat.c converts). */
static int mf_cpu_runs, mf_opencl_runs, mf_conversions;

static void mf_scal_cpu(void *buffers[], void *arg)
{
	(void)arg;
	float *p = STARPU_MULTIFORMAT_GET_CPU_PTR(buffers[0]);
	unsigned n = STARPU_MULTIFORMAT_GET_NX(buffers[0]);
	for (unsigned i = 0; i < 2 * n; i++)
		p[i] *= 2.0f;
	__atomic_fetch_add(&mf_cpu_runs, 1, __ATOMIC_SEQ_CST);
}

static void mf_scal_opencl(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	__atomic_fetch_add(&mf_opencl_runs, 1, __ATOMIC_SEQ_CST);
}

static void mf_convert(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	__atomic_fetch_add(&mf_conversions, 1, __ATOMIC_SEQ_CST);
}

static struct starpu_codelet mf_to_opencl = {.cpu_funcs = {mf_convert}, .nbuffers = 1, .modes = {STARPU_RW}};
static struct starpu_codelet mf_from_opencl = {.cpu_funcs = {mf_convert}, .nbuffers = 1, .modes = {STARPU_RW}};
static struct starpu_multiformat_data_interface_ops mf_ops = {
	.cpu_elemsize = 2 * sizeof(float),
	.opencl_elemsize = 2 * sizeof(float),
	.cpu_to_opencl_cl = &mf_to_opencl,
	.opencl_to_cpu_cl = &mf_from_opencl,
};
static struct starpu_codelet mf_both_cl = {
	.cpu_funcs = {mf_scal_cpu},
	.opencl_funcs = {mf_scal_opencl},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "mf_both",
};
static struct starpu_codelet mf_opencl_cl = {
	.opencl_funcs = {mf_scal_opencl},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "mf_opencl_only",
};

static void multiformat(void)
{
	enum { N = 64, TASKS = 20 };
	static float pts[2 * N];
	for (int i = 0; i < 2 * N; i++)
		pts[i] = 1.0f;
	starpu_data_handle_t h;
	starpu_multiformat_data_register(&h, STARPU_MAIN_RAM, pts, N, &mf_ops);
	for (int t = 0; t < TASKS; t++)
		MUST(starpu_task_insert(&mf_both_cl, STARPU_RW, h, 0));
	int ret = starpu_task_insert(&mf_opencl_cl, STARPU_RW, h, 0);
	CHECK(ret == -ENODEV, "an OpenCL-only task on multiformat data: %d, not -ENODEV", ret);
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	CHECK(mf_cpu_runs == TASKS && mf_opencl_runs == 0, "multiformat tasks: %d on CPUs, %d on OpenCL",
	      mf_cpu_runs, mf_opencl_runs);
	CHECK(mf_conversions == 0, "%d conversions", mf_conversions);
	CHECK(pts[0] == (float)(1 << TASKS) && pts[2 * N - 1] == (float)(1 << TASKS), "values %f %f",
	      pts[0], pts[2 * N - 1]);
}

static unsigned start(void)
{
	tc_init_opencl();
	MUST(starpu_opencl_load_opencl_from_string(add1_src, &programs, NULL));
	return starpu_worker_get_memory_node(starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0));
}

static void stop(void)
{
	MUST(starpu_opencl_unload_opencl(&programs));
	starpu_shutdown();
}

int main(void)
{
	unsigned dev = start();
	interfaces(dev);
	partitioned(dev);
	data_calls(dev);
	multiformat();
	stop();

	setenv("STARPU_LIMIT_OPENCL_MEM", "1", 1);
	dev = start();
	eviction(dev);
	stop();
	return tc_failures ? 1 : 0;
}
#endif /* STARPU_USE_OPENCL */
