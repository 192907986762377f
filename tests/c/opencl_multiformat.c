/* Multiformat data across main RAM and an OpenCL device (PoCL, with
 * STARPU_OPENCL_ON_CPUS=1 as run.sh sets): points {x, y} as an array of structures in the
 * CPU format, a structure of arrays (all x, then all y) in the OpenCL format. Before a
 * task on the OpenCL worker, cpu_to_opencl_cl runs there (an OpenCL kernel reading
 * cpu_ptr, writing opencl_ptr); before the CPU format is read again in main RAM (a CPU
 * task, an acquisition, an unregistration), opencl_to_cpu_cl's CPU function runs on the
 * OpenCL format brought back, as in StarPU. Values are checked in RAM after each step,
 * and the conversions counted. Exits 78 (skipped) without a device. */
#include "test_common.h"
#include <starpu_opencl.h>

#ifndef STARPU_USE_OPENCL
/* A libstarpu built without OpenCL (no `opencl` feature): nothing to test. */
TC_SKIPPED_MAIN("libstarpu was built without OpenCL")
#else

enum { N = 100 };
struct point {
	float x, y;
};

static const char *src =
	"__kernel void aos_to_soa(__global const float *aos, __global float *soa, unsigned n)\n"
	"{\n"
	"	const size_t i = get_global_id(0);\n"
	"	if (i < n) { soa[i] = aos[2 * i]; soa[n + i] = aos[2 * i + 1]; }\n"
	"}\n"
	"__kernel void scale(__global float *soa, unsigned n)\n"
	"{\n"
	"	const size_t i = get_global_id(0);\n"
	"	if (i < n) { soa[i] *= 2.0f; soa[n + i] += 1.0f; }\n"
	"}\n";

static struct starpu_opencl_program programs;
static int to_opencl_runs, to_cpu_runs, scale_runs;

/* Runs kernel `name` on (args...) over n items on this worker's device. */
static void launch(const char *name, cl_mem a, cl_mem b, unsigned n)
{
	cl_kernel kernel;
	cl_command_queue queue;
	int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
	cl_int err = starpu_opencl_load_kernel(&kernel, &queue, &programs, name, devid);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	unsigned arg = 0;
	err = clSetKernelArg(kernel, arg++, sizeof(a), &a);
	if (b)
		err |= clSetKernelArg(kernel, arg++, sizeof(b), &b);
	err |= clSetKernelArg(kernel, arg, sizeof(n), &n);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	size_t global = n;
	err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	starpu_opencl_release_kernel(kernel);
}

static void cpu_to_opencl(void *buffers[], void *arg)
{
	(void)arg;
	launch("aos_to_soa", (cl_mem)STARPU_MULTIFORMAT_GET_CPU_PTR(buffers[0]),
	       (cl_mem)STARPU_MULTIFORMAT_GET_OPENCL_PTR(buffers[0]), STARPU_MULTIFORMAT_GET_NX(buffers[0]));
	__atomic_fetch_add(&to_opencl_runs, 1, __ATOMIC_SEQ_CST);
}

static void opencl_to_cpu(void *buffers[], void *arg)
{
	(void)arg;
	const float *soa = STARPU_MULTIFORMAT_GET_OPENCL_PTR(buffers[0]);
	struct point *aos = STARPU_MULTIFORMAT_GET_CPU_PTR(buffers[0]);
	unsigned n = STARPU_MULTIFORMAT_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++) {
		aos[i].x = soa[i];
		aos[i].y = soa[n + i];
	}
	__atomic_fetch_add(&to_cpu_runs, 1, __ATOMIC_SEQ_CST);
}

static void scale_opencl(void *buffers[], void *arg)
{
	(void)arg;
	launch("scale", (cl_mem)STARPU_MULTIFORMAT_GET_OPENCL_PTR(buffers[0]), NULL,
	       STARPU_MULTIFORMAT_GET_NX(buffers[0]));
	__atomic_fetch_add(&scale_runs, 1, __ATOMIC_SEQ_CST);
}

static void add1_cpu(void *buffers[], void *arg)
{
	(void)arg;
	struct point *aos = STARPU_MULTIFORMAT_GET_CPU_PTR(buffers[0]);
	for (unsigned i = 0; i < STARPU_MULTIFORMAT_GET_NX(buffers[0]); i++)
		aos[i].x += 1.0f;
}

static struct starpu_codelet to_opencl_cl = {
	.opencl_funcs = {cpu_to_opencl},
	.opencl_flags = {STARPU_OPENCL_ASYNC},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "cpu_to_opencl",
};
static struct starpu_codelet to_cpu_cl = {
	.cpu_funcs = {opencl_to_cpu},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "opencl_to_cpu",
};
static struct starpu_multiformat_data_interface_ops ops = {
	.cpu_elemsize = sizeof(struct point),
	.opencl_elemsize = 2 * sizeof(float),
	.cpu_to_opencl_cl = &to_opencl_cl,
	.opencl_to_cpu_cl = &to_cpu_cl,
};
static struct starpu_codelet scale_cl = {
	.opencl_funcs = {scale_opencl},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "scale_soa",
};
static struct starpu_codelet add1_cl = {
	.cpu_funcs = {add1_cpu},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "add1_aos",
};

/* Counts the points that are not {x(i), y(i)}. */
static int bad_points(const struct point *p, float xm, float xa, float ya)
{
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += p[i].x != xm * i + xa || p[i].y != 100.0f + i + ya;
	return bad;
}

#define EXPECT_RUNS(opencl, cpu, what)                                                          \
	CHECK(to_opencl_runs == (opencl) && to_cpu_runs == (cpu),                               \
	      "%s: %d conversions to OpenCL (expected %d), %d to CPU (expected %d)", what,      \
	      to_opencl_runs, opencl, to_cpu_runs, cpu)

static void steps(void)
{
	static struct point pts[N];
	for (int i = 0; i < N; i++)
		pts[i] = (struct point){(float)i, 100.0f + i};
	starpu_data_handle_t h;
	starpu_multiformat_data_register(&h, STARPU_MAIN_RAM, pts, N, &ops);
	CHECK(h != NULL, "registration failed");

	/* On the device: converted there, scaled in the OpenCL format. */
	MUST(starpu_task_insert(&scale_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();
	EXPECT_RUNS(1, 0, "after the OpenCL task");
	CHECK(scale_runs == 1, "the OpenCL task ran %d times", scale_runs);

	/* Read in RAM: converted back. */
	MUST(starpu_data_acquire(h, STARPU_R));
	CHECK(bad_points(pts, 2, 0, 1) == 0, "after acquire: pts[3] = {%f, %f}", pts[3].x, pts[3].y);
	starpu_data_release(h);
	EXPECT_RUNS(1, 1, "after the acquisition");

	/* A CPU task on the CPU format: no conversion. */
	MUST(starpu_task_insert(&add1_cl, STARPU_RW, h, 0));
	MUST(starpu_data_acquire(h, STARPU_R));
	CHECK(bad_points(pts, 2, 1, 1) == 0, "after the CPU task: pts[3] = {%f, %f}", pts[3].x, pts[3].y);
	starpu_data_release(h);
	EXPECT_RUNS(1, 1, "after the CPU task");

	/* Device, then CPU without the application in between: both conversions run. */
	MUST(starpu_task_insert(&scale_cl, STARPU_RW, h, 0));
	MUST(starpu_task_insert(&add1_cl, STARPU_RW, h, 0));
	starpu_task_wait_for_all();
	EXPECT_RUNS(2, 2, "after OpenCL then CPU");
	MUST(starpu_data_acquire(h, STARPU_R));
	CHECK(bad_points(pts, 4, 3, 2) == 0, "after OpenCL then CPU: pts[3] = {%f, %f}", pts[3].x,
	      pts[3].y);
	starpu_data_release(h);

	/* Left on the device in the OpenCL format: the unregistration converts it back. */
	MUST(starpu_task_insert(&scale_cl, STARPU_RW, h, 0));
	starpu_data_unregister(h);
	EXPECT_RUNS(3, 3, "after the unregistration");
	CHECK(bad_points(pts, 8, 6, 3) == 0, "after unregistration: pts[3] = {%f, %f}", pts[3].x,
	      pts[3].y);
}

/* Without a way to the device (a cpu_to_opencl_cl that runs there) or back (an
 * opencl_to_cpu_cl that runs on a CPU), an OpenCL-only task on multiformat data is
 * refused, and the data is left as it was. */
static void refused(void)
{
	static struct starpu_multiformat_data_interface_ops no_way_there = {
		.cpu_elemsize = sizeof(struct point),
		.opencl_elemsize = 2 * sizeof(float),
		.cpu_to_opencl_cl = &to_cpu_cl,
		.opencl_to_cpu_cl = &to_cpu_cl,
	};
	static struct starpu_multiformat_data_interface_ops no_way_back = {
		.cpu_elemsize = sizeof(struct point),
		.opencl_elemsize = 2 * sizeof(float),
		.cpu_to_opencl_cl = &to_opencl_cl,
		.opencl_to_cpu_cl = NULL,
	};
	struct starpu_multiformat_data_interface_ops *ops_of[] = {&no_way_there, &no_way_back};
	for (int k = 0; k < 2; k++) {
		static struct point pts[N];
		pts[7] = (struct point){7.0f, 8.0f};
		starpu_data_handle_t h;
		starpu_multiformat_data_register(&h, STARPU_MAIN_RAM, pts, N, ops_of[k]);
		int ret = starpu_task_insert(&scale_cl, STARPU_RW, h, 0);
		CHECK(ret == -ENODEV, "case %d: an OpenCL task on multiformat data: %d, not -ENODEV", k,
		      ret);
		starpu_data_unregister(h);
		CHECK(pts[7].x == 7.0f && pts[7].y == 8.0f, "case %d: pts[7] = {%f, %f}", k, pts[7].x,
		      pts[7].y);
	}
}

int main(void)
{
	tc_init_opencl();
	MUST(starpu_opencl_load_opencl_from_string(src, &programs, NULL));
	steps();
	refused();
	MUST(starpu_opencl_unload_opencl(&programs));
	starpu_shutdown();
	return tc_failures ? 1 : 0;
}
#endif /* STARPU_USE_OPENCL */
