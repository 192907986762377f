/* Native kernels for the Python face's tests and benchmark: StarPU's CPU kernel
 * signature, interfaces read with starpu.h's macros, values unpacked from cl_arg. */
#include <starpu.h>
#include <stdint.h>
#include <string.h>

int PyGILState_Check(void); /* from the Python interpreter running the test */

/* The next packed value (STARPU_VALUE's format: int count, then size_t size + bytes). */
static const char *next_arg(const char *p, void *out, size_t size)
{
	size_t len;
	memcpy(&len, p, sizeof(len));
	memcpy(out, p + sizeof(len), len < size ? len : size);
	return p + sizeof(len) + len;
}

/* x[i] = x[i] * factor (double vector, RW), factor a double value. */
void scal_kernel(void *buffers[], void *cl_arg)
{
	double factor;
	next_arg((const char *)cl_arg + sizeof(int), &factor, sizeof(factor));
	double *x = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		x[i] *= factor;
}

/* Records whether the calling thread holds the GIL into an int64 vector, and the
 * matrix shape it sees: out = {gil, nx, ny, ld}. */
void probe_kernel(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	int64_t *out = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	out[0] = PyGILState_Check();
	out[1] = STARPU_MATRIX_GET_NX(buffers[1]);
	out[2] = STARPU_MATRIX_GET_NY(buffers[1]);
	out[3] = STARPU_MATRIX_GET_LD(buffers[1]);
}

/* y = sum over `reps` passes of sqrt-free arithmetic on x: a compute-bound kernel for
 * the benchmark (double vectors x (R) and y (W), int64 reps). */
void work_kernel(void *buffers[], void *cl_arg)
{
	int64_t reps;
	next_arg((const char *)cl_arg + sizeof(int), &reps, sizeof(reps));
	const double *x = (const double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	double *y = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++) {
		double v = x[i];
		for (int64_t r = 0; r < reps; r++)
			v = v * 0.999999 + 0.5;
		y[i] = v;
	}
}

/* Reduction methods of a double vector: init sets it to 0, redux adds buffer 1 into
 * buffer 0. */
void zero_kernel(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	double *x = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		x[i] = 0;
}

void sum_kernel(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	double *a = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	const double *b = (const double *)STARPU_VECTOR_GET_PTR(buffers[1]);
	unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
	for (unsigned i = 0; i < n; i++)
		a[i] += b[i];
}
