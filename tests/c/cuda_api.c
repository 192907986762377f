/* StarPU's CUDA C API (starpu_cuda.h, starpu_cublas.h, starpu_cusolver.h).
 *
 * Without a CUDA device (CI): zero CUDA workers even when STARPU_NCUDA asks for one, a
 * task that only CUDA can run refused with -ENODEV at submission (its data untouched),
 * a codelet with CPU and CUDA implementations run on a CPU, the CUDA calls' answers (no
 * stream, no handles, no device properties, copies refused with -ENODEV), starpu_malloc
 * and pinning, STARPU_CUDA_REPORT_ERROR outside a task aborting as in StarPU.
 * With a CUDA device (scripts/gpu-check.sh): a CUDA implementation written in plain C
 * copies a vector into another on the device with starpu_cuda_copy_async_sync on the
 * worker's stream; the CPU reads the copy back. That path was not run where this test
 * was written (no GPU). */
#include "test_common.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#include <starpu_cusolver.h>
#define COPY_DEFAULT cudaMemcpyDefault
#else
/* A library built without CUDA's headers still has the calls (declared by starpu_cuda.h
 * only with STARPU_USE_CUDA, since they take CUDA's types): declared here with plain
 * types, the stream a pointer and the copy kind an int (cudaMemcpyDefault = 4). */
void *starpu_cuda_get_local_stream(void);
const void *starpu_cuda_get_device_properties(unsigned workerid);
int starpu_cuda_copy_async_sync(void *src_ptr, unsigned src_node, void *dst_ptr, unsigned dst_node,
				size_t ssize, void *stream, int kind);
void starpu_cuda_set_device(unsigned devid);
void starpu_cuda_report_error(const char *func, const char *file, int line, int status);
void *starpu_cublas_get_local_handle(void);
void *starpu_cusolverDn_get_local_handle(void);
#define COPY_DEFAULT 4
#endif

#define N 1000

static void add_one_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int *v = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
	for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++)
		v[i] += 1;
}

/* Never runs without a CUDA worker; on one it would add nothing (no kernel compiled
 * here), which the CPU-and-CUDA test below would notice. */
static void add_one_cuda(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

/* dst = src on the device, queued on the worker's stream. */
static void copy_cuda(void *buffers[], void *arg)
{
	(void)arg;
	size_t size = STARPU_VECTOR_GET_NX(buffers[0]) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
	unsigned node = starpu_worker_get_memory_node(starpu_worker_get_id_check());
	int ret = starpu_cuda_copy_async_sync((void *)STARPU_VECTOR_GET_PTR(buffers[0]), node,
					      (void *)STARPU_VECTOR_GET_PTR(buffers[1]), node, size,
					      starpu_cuda_get_local_stream(), COPY_DEFAULT);
	if (ret != -EAGAIN && ret != 0)
		fprintf(stderr, "starpu_cuda_copy_async_sync returned %d\n", ret);
}

static struct starpu_codelet cuda_only = {
	.cuda_funcs = {add_one_cuda},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "cuda_only",
};

static struct starpu_codelet cpu_and_cuda = {
	.cpu_funcs = {add_one_cpu},
	.cuda_funcs = {add_one_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "cpu_and_cuda",
};

static struct starpu_codelet copy_cl = {
	.cuda_funcs = {copy_cuda},
	.nbuffers = 2,
	.modes = {STARPU_R, STARPU_W},
	.name = "copy_cuda",
};

/* What a machine without a CUDA device answers. */
static void without_device(void)
{
	int v[N];
	for (int i = 0; i < N; i++)
		v[i] = i;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, N, sizeof(int));

	struct starpu_task *t = starpu_task_create();
	t->cl = &cuda_only;
	t->handles[0] = h;
	int ret = starpu_task_submit(t);
	CHECK(ret == -ENODEV, "a CUDA-only task is refused with -ENODEV, got %d", ret);
	if (ret != 0)
		starpu_task_destroy(t);
	ret = starpu_task_insert(&cuda_only, STARPU_RW, h, 0);
	CHECK(ret == -ENODEV, "starpu_task_insert of a CUDA-only task: -ENODEV, got %d", ret);

	/* where = STARPU_CUDA leaves out the CPU implementation. */
	struct starpu_codelet cuda_where = cpu_and_cuda;
	cuda_where.where = STARPU_CUDA;
	ret = starpu_task_insert(&cuda_where, STARPU_RW, h, 0);
	CHECK(ret == -ENODEV, "where = STARPU_CUDA: -ENODEV, got %d", ret);

	MUST(starpu_task_insert(&cpu_and_cuda, STARPU_RW, h, 0));
	MUST(starpu_task_wait_for_all());
	starpu_data_unregister(h);
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += v[i] != i + 1;
	CHECK(bad == 0, "only the CPU task ran, once: %d wrong values", bad);

	CHECK(starpu_cuda_get_local_stream() == NULL, "no stream outside a CUDA worker");
	CHECK(starpu_cuda_get_device_properties(0) == NULL, "worker 0 is no CUDA worker");
	CHECK(starpu_cublas_get_local_handle() == NULL, "no cuBLAS handle outside a CUDA worker");
	CHECK(starpu_cusolverDn_get_local_handle() == NULL, "no cuSOLVER handle outside a CUDA worker");
	int a[4] = {1, 2, 3, 4}, b[4] = {0};
	ret = starpu_cuda_copy_async_sync(a, STARPU_MAIN_RAM, b, STARPU_MAIN_RAM, sizeof(a), NULL, COPY_DEFAULT);
	CHECK(ret == -ENODEV, "a CUDA copy without a device: -ENODEV, got %d", ret);
	CHECK(b[0] == 0 && b[3] == 0, "the refused copy wrote nothing");
	starpu_cuda_set_device(0); /* reports "no CUDA device", returns */
	/* No CUDA worker: nothing to prepare or release, and no crash. */
	starpu_cublas_init();
	starpu_cusolver_init();
	starpu_cublas_shutdown();
	starpu_cusolver_shutdown();
}

/* A CUDA implementation in plain C on the device: dst = src there, read back here. */
static void with_device(void)
{
	int src[N], dst[N];
	for (int i = 0; i < N; i++) {
		src[i] = 3 * i;
		dst[i] = -1;
	}
	starpu_data_handle_t hs, hd;
	starpu_vector_data_register(&hs, STARPU_MAIN_RAM, (uintptr_t)src, N, sizeof(int));
	starpu_vector_data_register(&hd, STARPU_MAIN_RAM, (uintptr_t)dst, N, sizeof(int));
	MUST(starpu_task_insert(&copy_cl, STARPU_R, hs, STARPU_W, hd, 0));
	MUST(starpu_task_wait_for_all());
	starpu_data_unregister(hs);
	starpu_data_unregister(hd);
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += dst[i] != 3 * i;
	CHECK(bad == 0, "the copy made on the device reached main memory: %d wrong values", bad);
	int w = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
	CHECK(starpu_cuda_get_device_properties(w) != NULL, "CUDA worker %d has device properties", w);
}

static void count_call(void *arg)
{
	__atomic_fetch_add((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/* starpu_execute_on_each_worker runs on the workers of the kinds asked for, and only
 * those (starpu_cublas_init relies on it for the CUDA workers). */
static void execute_on_kinds(void)
{
	int on_cuda = 0, on_cpu = 0, on_opencl = 0, on_both = 0;
	starpu_execute_on_each_worker(count_call, &on_cuda, STARPU_CUDA);
	starpu_execute_on_each_worker(count_call, &on_cpu, STARPU_CPU);
	starpu_execute_on_each_worker(count_call, &on_opencl, STARPU_OPENCL);
	starpu_execute_on_each_worker(count_call, &on_both, STARPU_CPU | STARPU_CUDA);
	int ncuda = starpu_worker_get_count_by_type(STARPU_CUDA_WORKER);
	int ncpu = starpu_worker_get_count_by_type(STARPU_CPU_WORKER);
	int nopencl = starpu_worker_get_count_by_type(STARPU_OPENCL_WORKER);
	CHECK(on_cuda == ncuda, "ran on %d workers for STARPU_CUDA, %d CUDA workers", on_cuda, ncuda);
	CHECK(on_cpu == ncpu, "ran on %d workers for STARPU_CPU, %d CPU workers", on_cpu, ncpu);
	CHECK(on_opencl == nopencl, "ran on %d workers for STARPU_OPENCL, %d OpenCL workers", on_opencl,
	      nopencl);
	CHECK(on_both == ncpu + ncuda, "ran on %d workers for both kinds", on_both);
}

/* STARPU_CUDA_REPORT_ERROR outside a task aborts the process, as in StarPU. */
static void report_outside_task_aborts(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 2);
		starpu_cuda_report_error("main", __FILE__, __LINE__, 2);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	      "starpu_cuda_report_error outside a task aborts (status %#x)", status);
}

int main(void)
{
	/* Asking for a CUDA worker where there is no device still starts the runtime. An
	 * OpenCL worker beside, where there is a device (PoCL counts), for the kinds of
	 * starpu_execute_on_each_worker. */
	setenv("STARPU_NCUDA", "1", 1);
	setenv("STARPU_OPENCL_ON_CPUS", "1", 1);
	tc_init_ncpus(2);
	unsigned ncuda = starpu_cuda_worker_get_count();
	CHECK((int)ncuda == starpu_worker_get_count_by_type(STARPU_CUDA_WORKER),
	      "starpu_cuda_worker_get_count agrees with the workers (%u)", ncuda);

	void *p = NULL;
	MUST(starpu_malloc(&p, 1 << 20));
	memset(p, 7, 1 << 20);
	MUST(starpu_free_noflag(p, 1 << 20));
	MUST(starpu_malloc_flags(&p, 4096, STARPU_MALLOC_PINNED));
	MUST(starpu_free_flags(p, 4096, STARPU_MALLOC_PINNED));
	/* Small buffers side by side, each pinned where CUDA workers run (CUDA pins whole
	 * pages: two buffers in one page could not both be). */
	void *small[4];
	for (int i = 0; i < 4; i++)
		MUST(starpu_malloc(&small[i], 100));
	for (int i = 0; i < 4; i++)
		MUST(starpu_free_noflag(small[i], 100));
	static char buf[8192];
	MUST(starpu_memory_pin(buf, sizeof(buf)));
	MUST(starpu_memory_unpin(buf, sizeof(buf)));

	execute_on_kinds();
	if (ncuda == 0)
		without_device();
	else
		with_device();
	starpu_shutdown();
	report_outside_task_aborts();
	printf("%u CUDA worker(s): %s\n", ncuda, tc_failures ? "FAILED" : "ok");
	return tc_failures ? 1 : 0;
}
