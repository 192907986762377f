// cxx_compile: <starpu.h> used from C++.
//
// Proves the header compiles as C++ (extern "C" linkage, no C-only syntax in
// what a C++ translation unit sees) and that a program can set a codelet up
// field by field, without C99 designated initializers, then run tasks on a
// std::vector through starpu_task_submit and starpu_task_insert.
#include <starpu.h>

#include <cstdint>
#include <cstdio>
#include <vector>

static void times_two(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	int *v = reinterpret_cast<int *>(STARPU_VECTOR_GET_PTR(buffers[0]));
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] *= 2;
}

static void add_value(void *buffers[], void *cl_arg)
{
	int d;
	starpu_codelet_unpack_args(cl_arg, &d);
	int *v = reinterpret_cast<int *>(STARPU_VECTOR_GET_PTR(buffers[0]));
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		v[i] += d;
}

int main()
{
	int ret = starpu_init(nullptr);
	if (ret == -ENODEV)
		return 77;
	if (ret != 0) {
		std::fprintf(stderr, "starpu_init returned %d\n", ret);
		return 1;
	}

	struct starpu_codelet twice;
	starpu_codelet_init(&twice);
	twice.cpu_funcs[0] = times_two;
	twice.cpu_funcs_name[0] = "times_two";
	twice.nbuffers = 1;
	twice.modes[0] = STARPU_RW;
	twice.name = "cxx_twice";

	struct starpu_codelet add;
	starpu_codelet_init(&add);
	add.where = STARPU_CPU;
	add.cpu_funcs[0] = add_value;
	add.nbuffers = 1;
	add.modes[0] = STARPU_RW;
	add.name = "cxx_add";

	std::vector<int> v(1000);
	for (size_t i = 0; i < v.size(); i++)
		v[i] = static_cast<int>(i);

	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(v.data()),
				    static_cast<uint32_t>(v.size()), sizeof(int));

	struct starpu_task *task = starpu_task_create();
	task->cl = &twice;
	task->handles[0] = h;
	ret = starpu_task_submit(task);
	if (ret != 0) {
		std::fprintf(stderr, "starpu_task_submit returned %d\n", ret);
		return 1;
	}
	int d = 5;
	ret = starpu_task_insert(&add, STARPU_RW, h, STARPU_VALUE, &d, sizeof(d), 0);
	if (ret != 0) {
		std::fprintf(stderr, "starpu_task_insert returned %d\n", ret);
		return 1;
	}
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	starpu_shutdown();

	int bad = 0;
	for (size_t i = 0; i < v.size(); i++)
		if (v[i] != static_cast<int>(2 * i + 5)) {
			if (bad++ < 5)
				std::fprintf(stderr, "v[%zu] = %d, expected %d\n", i, v[i], static_cast<int>(2 * i + 5));
		}
	if (bad) {
		std::fprintf(stderr, "cxx_compile: %d elements wrong\n", bad);
		return 1;
	}
	std::printf("cxx_compile: all checks passed\n");
	return 0;
}
