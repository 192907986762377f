/* StarPU's OpenCL API on a real device (PoCL: run with STARPU_OPENCL_ON_CPUS=1, as
 * run.sh does): devices, contexts and queues, programs from strings, files (with an
 * #include found beside the file) and binaries, kernels with their arguments, copies
 * between RAM and the device, codelets with only an OpenCL implementation (synchronous
 * and STARPU_OPENCL_ASYNC), a failed kernel reported as a task error. Without an OpenCL
 * device it says so and exits 78 (skipped). */
#include "test_common.h"
#include <starpu_opencl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef STARPU_USE_OPENCL
/* A libstarpu built without OpenCL (no `opencl` feature): nothing to test. */
TC_SKIPPED_MAIN("libstarpu was built without OpenCL")
#else

static const char *scale_src =
	"#include \"factor.h\"\n"
	"__kernel void scale(__global float *v, unsigned offset, unsigned n, float k)\n"
	"{\n"
	"	const size_t i = get_global_id(0);\n"
	"	if (i < n) v[offset + i] *= k * FACTOR;\n"
	"}\n";

static struct starpu_opencl_program programs;

/* v *= k: the kernel of `programs`, launched on the worker's queue. */
static void scale_opencl(void *buffers[], void *arg)
{
	float k;
	starpu_codelet_unpack_args(arg, &k);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	unsigned offset = STARPU_VECTOR_GET_OFFSET(buffers[0]) / sizeof(float);
	cl_mem v = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buffers[0]);
	int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
	cl_kernel kernel;
	cl_command_queue queue, current;
	cl_int err = starpu_opencl_load_kernel(&kernel, &queue, &programs, "scale", devid);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	starpu_opencl_get_current_queue(&current);
	if (current != queue)
		STARPU_OPENCL_REPORT_ERROR(CL_INVALID_COMMAND_QUEUE);
	int nargs = starpu_opencl_set_kernel_args(&err, &kernel, sizeof(v), &v, sizeof(offset), &offset,
						  sizeof(n), &n, sizeof(k), &k, 0);
	if (nargs != 4)
		STARPU_OPENCL_REPORT_ERROR(err);
	size_t global = n;
	cl_event event;
	err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, &event);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
	/* STARPU_OPENCL_ASYNC: no clFinish, the worker waits for the queue. */
	clWaitForEvents(1, &event);
	starpu_opencl_collect_stats(event);
	clReleaseEvent(event);
	starpu_opencl_release_kernel(kernel);
}

/* Asks for a kernel the program does not have: the task fails, the process goes on. */
static void missing_kernel_opencl(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	cl_kernel kernel;
	cl_command_queue queue;
	int devid = starpu_worker_get_devid(starpu_worker_get_id_check());
	cl_int err = starpu_opencl_load_kernel(&kernel, &queue, &programs, "no_such_kernel", devid);
	if (err != CL_SUCCESS)
		STARPU_OPENCL_REPORT_ERROR(err);
}

static struct starpu_codelet scale_cl = {
	.opencl_funcs = {scale_opencl},
	.opencl_flags = {STARPU_OPENCL_ASYNC},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "scale_opencl",
};

static struct starpu_codelet broken_cl = {
	.opencl_funcs = {missing_kernel_opencl},
	.nbuffers = 1,
	.modes = {STARPU_RW},
	.name = "broken_opencl",
};

/* Writes `text` into dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	tc_init_opencl();
	/* Devices, workers and memory nodes. */
	int w = starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0);
	CHECK(w >= 0, "OpenCL worker 0 is %d", w);
	CHECK(starpu_worker_get_devid(w) == 0, "devid %d", starpu_worker_get_devid(w));
	unsigned node = starpu_worker_get_memory_node(w);
	CHECK(node != STARPU_MAIN_RAM, "the OpenCL worker computes in node %u", node);
	CHECK(starpu_node_get_kind(node) == STARPU_OPENCL_RAM, "kind %d", starpu_node_get_kind(node));
	CHECK(starpu_memory_nodes_get_count() == 1 + starpu_opencl_worker_get_count(), "%u nodes",
	      starpu_memory_nodes_get_count());
	cl_context ctx;
	cl_device_id dev;
	cl_command_queue queue;
	starpu_opencl_get_context(0, &ctx);
	starpu_opencl_get_device(0, &dev);
	starpu_opencl_get_queue(0, &queue);
	CHECK(ctx && dev && queue, "context %p device %p queue %p", (void *)ctx, (void *)dev, (void *)queue);
	starpu_opencl_get_current_queue(&queue);
	CHECK(queue == NULL, "no current queue outside an OpenCL worker");
	CHECK(strcmp(starpu_opencl_error_string(CL_INVALID_VALUE), "Invalid value") == 0, "%s",
	      starpu_opencl_error_string(CL_INVALID_VALUE));

	/* A program that does not build is an error, not a crash. */
	CHECK(starpu_opencl_load_opencl_from_string("__kernel void f( {", &programs, NULL) != 0,
	      "a broken program loads");

	/* From a file found under STARPU_OPENCL_PROGRAM_DIR, its header beside it. */
	char dir[] = "/tmp/starpu-opencl-api-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	write_file(dir, "scale.cl", scale_src);
	write_file(dir, "factor.h", "#define FACTOR 1.0f\n");
	setenv("STARPU_OPENCL_PROGRAM_DIR", dir, 1);
	char *located = NULL, *located_dir = NULL, *source = NULL;
	starpu_opencl_load_program_source_malloc("scale.cl", &located, &located_dir, &source);
	CHECK(located && strstr(located, "scale.cl"), "located %s", located ? located : "(null)");
	CHECK(source && strstr(source, "FACTOR"), "source read");
	free(located);
	free(located_dir);
	free(source);
	MUST(starpu_opencl_load_opencl_from_file("scale.cl", &programs, NULL));

	/* An OpenCL-only codelet, twice on one vector, then read on the CPU. */
	float v[1000];
	for (int i = 0; i < 1000; i++)
		v[i] = i;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, 1000, sizeof(float));
	float k = 2.0f;
	for (int r = 0; r < 2; r++)
		MUST(starpu_task_insert(&scale_cl, STARPU_RW, h, STARPU_VALUE, &k, sizeof(k), 0));
	MUST(starpu_data_acquire(h, STARPU_R));
	int bad = 0;
	for (int i = 0; i < 1000; i++)
		bad += v[i] != 4.0f * i;
	CHECK(bad == 0, "%d wrong elements after two scalings (v[3] = %f)", bad, v[3]);
	starpu_data_release(h);

	/* A kernel that reports an OpenCL error fails its task. */
	struct starpu_task *t = starpu_task_create();
	t->cl = &broken_cl;
	t->handles[0] = h;
	t->detach = 0;
	MUST(starpu_task_submit(t));
	CHECK(starpu_task_wait(t) != 0, "the failed kernel's task reports success");
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	MUST(starpu_opencl_unload_opencl(&programs));

	/* Compiled to a binary under STARPU_HOME, then loaded from it. */
	MUST(starpu_opencl_compile_opencl_from_file("scale.cl", NULL));
	MUST(starpu_opencl_load_binary_opencl("scale.cl", &programs));
	CHECK(programs.programs[0] != NULL, "no program from the binary");
	MUST(starpu_opencl_unload_opencl(&programs));

	/* Copies by hand between RAM and a buffer of the device. */
	cl_mem buf;
	CHECK(starpu_opencl_allocate_memory(0, &buf, 64 * sizeof(int), CL_MEM_READ_WRITE) == CL_SUCCESS,
	      "allocate_memory");
	int in[64], out[64];
	for (int i = 0; i < 64; i++) {
		in[i] = 3 * i;
		out[i] = -1;
	}
	int ret = 1;
	CHECK(starpu_opencl_copy_ram_to_opencl(in, STARPU_MAIN_RAM, buf, node, sizeof(in), 0, NULL, &ret) ==
		      CL_SUCCESS && ret == 0,
	      "synchronous copy to the device (ret %d)", ret);
	cl_event ev;
	CHECK(starpu_opencl_copy_opencl_to_ram(buf, node, out, STARPU_MAIN_RAM, 32 * sizeof(int),
					       32 * sizeof(int), &ev, &ret) == CL_SUCCESS && ret == -EAGAIN,
	      "asynchronous copy back (ret %d)", ret);
	clWaitForEvents(1, &ev);
	clReleaseEvent(ev);
	CHECK(out[0] == 96 && out[31] == 189 && out[32] == -1, "copied back %d %d %d", out[0], out[31], out[32]);
	CHECK(starpu_opencl_copy_async_sync((uintptr_t)buf, 0, node, (uintptr_t)out, 0, STARPU_MAIN_RAM,
					    sizeof(out), NULL) == 0,
	      "copy_async_sync");
	CHECK(out[63] == 189 && out[32] == 96, "copy_async_sync brought %d %d", out[63], out[32]);
	clReleaseMemObject(buf);

	starpu_shutdown();
	unlink(strcat(strcpy((char[600]){0}, dir), "/scale.cl"));
	unlink(strcat(strcpy((char[600]){0}, dir), "/factor.h"));
	rmdir(dir);
	return tc_failures ? 1 : 0;
}
#endif /* STARPU_USE_OPENCL */
