/* OpenCL implementations of the C driver's kernels (included by driver.c after its CPU
 * kernels): the same effect on int64 elements, computed by one OpenCL kernel on the
 * device copies of the buffers (walked by their ld and offset, so the pieces of a
 * partitioned matrix work), with the `start` and `end` events printed around it on the
 * worker's thread. `clfail` is the failing one: its program does not build, which it
 * reports with STARPU_OPENCL_REPORT_ERROR (the task fails; StarPU 1.3 aborts).
 *
 * Built only when the library has OpenCL (starpu_config.h defines STARPU_USE_OPENCL). */
#ifdef STARPU_USE_OPENCL
#include <starpu_opencl.h>

static const char *cl_source =
	"enum { SET, ADD, SCALE, AFFINE, AXPY, COPY };\n"
	"__kernel void apply(int op, __global long *b0, unsigned off0, unsigned nx0, unsigned ld0,\n"
	"                    __global const long *b1, unsigned off1, unsigned nx1, unsigned ld1,\n"
	"                    long k0, long k1, unsigned n)\n"
	"{\n"
	"	const size_t i = get_global_id(0);\n"
	"	if (i >= n) return;\n"
	"	__global long *x = b0 + off0 + (i / nx0) * ld0 + i % nx0;\n"
	"	const long y = b1[off1 + (i / nx1) * ld1 + i % nx1];\n"
	"	switch (op) {\n"
	"	case SET: *x = k0; break;\n"
	"	case ADD: *x += k0; break;\n"
	"	case SCALE: *x *= k0; break;\n"
	"	case AFFINE: *x = *x * k0 + k1; break;\n"
	"	case AXPY: *x += k0 * y; break;\n"
	"	case COPY: *x = y; break;\n"
	"	}\n"
	"}\n";

enum cl_op { CL_SET, CL_ADD, CL_SCALE, CL_AFFINE, CL_AXPY, CL_COPY };

static struct starpu_opencl_program cl_programs;
static int cl_loaded;

/* Builds the kernels once OpenCL workers exist (after init). */
static void cl_load(void)
{
	if (!cl_loaded && starpu_opencl_worker_get_count() > 0 &&
	    starpu_opencl_load_opencl_from_string(cl_source, &cl_programs, NULL) == 0)
		cl_loaded = 1;
}

static void cl_unload(void)
{
	if (cl_loaded)
		starpu_opencl_unload_opencl(&cl_programs);
	cl_loaded = 0;
}

/* A buffer on the device: its cl_mem, and offset, row length, ld in elements. */
struct dview {
	cl_mem mem;
	unsigned off, nx, ld, n;
};

static struct dview dview_of(void *iface, enum kind kind)
{
	struct dview d = {0};
	switch (kind) {
	case KIND_VARIABLE:
		d.mem = (cl_mem)STARPU_VARIABLE_GET_DEV_HANDLE(iface);
		d.off = STARPU_VARIABLE_GET_OFFSET(iface) / sizeof(int64_t);
		d.nx = d.ld = d.n = 1;
		break;
	case KIND_VECTOR:
		d.mem = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(iface);
		d.off = STARPU_VECTOR_GET_OFFSET(iface) / sizeof(int64_t);
		d.nx = d.ld = d.n = STARPU_VECTOR_GET_NX(iface);
		break;
	case KIND_MATRIX:
		d.mem = (cl_mem)STARPU_MATRIX_GET_DEV_HANDLE(iface);
		d.off = STARPU_MATRIX_GET_OFFSET(iface) / sizeof(int64_t);
		d.nx = STARPU_MATRIX_GET_NX(iface);
		d.ld = STARPU_MATRIX_GET_LD(iface);
		d.n = d.nx * STARPU_MATRIX_GET_NY(iface);
		break;
	}
	return d;
}

/* Runs `apply` with `op` on buffer 0 (and 1 for the binary ops) on the device. */
static void run_on_device(void *buffers[], void *cl_arg, enum cl_op op, int nvalues, int binary)
{
	int64_t v[MAX_VALUES] = {0};
	struct task_rec *r = kernel_begin(cl_arg, nvalues, v);
	if (!r)
		return;
	struct dview b0 = dview_of(buffers[0], r->kinds[0]);
	struct dview b1 = binary ? dview_of(buffers[1], r->kinds[1]) : b0;
	if (binary && b0.n != b1.n) {
		set_report(r, "shape", -EINVAL);
		kernel_end(r);
		return;
	}
	cl_kernel kernel;
	cl_command_queue queue;
	int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
	cl_int err = starpu_opencl_load_kernel(&kernel, &queue, &cl_programs, "apply", devid);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	int iop = op;
	cl_long k0 = v[0], k1 = v[1];
	int nargs = starpu_opencl_set_kernel_args(&err, &kernel, sizeof(iop), &iop, sizeof(b0.mem), &b0.mem,
						  sizeof(b0.off), &b0.off, sizeof(b0.nx), &b0.nx, sizeof(b0.ld),
						  &b0.ld, sizeof(b1.mem), &b1.mem, sizeof(b1.off), &b1.off,
						  sizeof(b1.nx), &b1.nx, sizeof(b1.ld), &b1.ld, sizeof(k0), &k0,
						  sizeof(k1), &k1, sizeof(b0.n), &b0.n, 0);
	if (nargs != 12)
		STARPU_OPENCL_REPORT_ERROR(err);
	size_t global = b0.n;
	err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	clFinish(queue);
	starpu_opencl_release_kernel(kernel);
	kernel_end(r);
}

static void kcl_noop(void *b[], void *a)
{
	(void)b;
	struct task_rec *r = kernel_begin(a, 0, NULL);
	if (r)
		kernel_end(r);
}
static void kcl_set(void *b[], void *a) { run_on_device(b, a, CL_SET, 1, 0); }
static void kcl_add(void *b[], void *a) { run_on_device(b, a, CL_ADD, 1, 0); }
static void kcl_scale(void *b[], void *a) { run_on_device(b, a, CL_SCALE, 1, 0); }
static void kcl_affine(void *b[], void *a) { run_on_device(b, a, CL_AFFINE, 2, 0); }
static void kcl_axpy(void *b[], void *a) { run_on_device(b, a, CL_AXPY, 1, 1); }
static void kcl_copy(void *b[], void *a) { run_on_device(b, a, CL_COPY, 0, 1); }

/* A program that does not build: the kernel reports it and its task fails. */
static void kcl_fail(void *b[], void *a)
{
	(void)b;
	struct task_rec *r = kernel_begin(a, 0, NULL);
	if (!r)
		return;
	struct starpu_opencl_program broken;
	int ret = starpu_opencl_load_opencl_from_string("__kernel void f( {", &broken, NULL);
	kernel_end(r);
	if (ret != 0)
		STARPU_OPENCL_REPORT_ERROR(CL_BUILD_PROGRAM_FAILURE);
}

/* The OpenCL implementation of kernel `name`, NULL if it has none. */
static starpu_opencl_func_t opencl_version(const char *name)
{
	static const struct {
		const char *name;
		starpu_opencl_func_t f;
	} table[] = {
		{"noop", kcl_noop}, {"set", kcl_set},   {"add", kcl_add},       {"scale", kcl_scale},
		{"affine", kcl_affine}, {"axpy", kcl_axpy}, {"copy", kcl_copy}, {"clfail", kcl_fail},
	};
	for (size_t i = 0; i < COUNT(table); i++)
		if (strcmp(table[i].name, name) == 0)
			return table[i].f;
	return NULL;
}
#define HAVE_OPENCL_KERNELS 1
#else
static void cl_load(void) {}
static void cl_unload(void) {}
#endif
