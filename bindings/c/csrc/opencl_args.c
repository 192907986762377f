/* The body of starpu_opencl_set_kernel_args (exported under that name by a jump in
 * src/opencl.rs): pairs of (int size, void *value) up to a size of 0, each given to
 * clSetKernelArg through the library's OpenCL driver. Returns how many arguments were
 * set; on failure *err is the OpenCL status and the index of the failed argument is
 * returned. */
#include <stdarg.h>
#include <stddef.h>

int _starpu_opencl_set_kernel_arg(void *kernel, unsigned index, size_t size, const void *value);

int _starpu_c_opencl_set_kernel_args(int *err, void **kernel, ...)
{
	va_list ap;
	int i;
	va_start(ap, kernel);
	for (i = 0;; i++)
	{
		int size = va_arg(ap, int);
		if (size == 0)
			break;
		void *value = va_arg(ap, void *);
		int e = _starpu_opencl_set_kernel_arg(*kernel, (unsigned)i, (size_t)size, value);
		if (e != 0)
		{
			if (err)
				*err = e;
			va_end(ap);
			return i;
		}
	}
	va_end(ap);
	if (err)
		*err = 0;
	return i;
}
