/* The C-variadic entry points of StarPU-MPI (starpu_mpi_task_insert and friends).
 *
 * As in varargs.c, the list is read into argument records by the same walker as
 * starpu_task_insert's; what the MPI keys mean, where the task runs and which data move
 * is decided in Rust (src/mpi/insert.rs). The public names are exported from Rust as
 * tail jumps to the functions here. */
#include <starpu.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdlib.h>

#define INLINE_ARGS 32

int _starpu_insert_collect(va_list *ap, struct _starpu_insert_arg *inline_args, struct _starpu_insert_arg **args, int *nargs);
int _starpu_mpi_task_insert_args(int action, MPI_Comm comm, struct starpu_codelet *cl,
				 const struct _starpu_insert_arg *args, int nargs, struct starpu_task **out);

enum { MPI_INSERT = 0, MPI_BUILD = 1, MPI_POST_BUILD = 2 };

static int mpi_common(int action, MPI_Comm comm, struct starpu_codelet *cl, va_list *ap, struct starpu_task **out)
{
	struct _starpu_insert_arg inline_args[INLINE_ARGS], *args;
	int n = 0;
	int ret = _starpu_insert_collect(ap, inline_args, &args, &n);
	if (ret == 0)
		ret = _starpu_mpi_task_insert_args(action, comm, cl, args, n, out);
	if (args != inline_args)
		free(args);
	return ret;
}

/* starpu_mpi_task_insert, and its other name starpu_mpi_insert_task. */
int _starpu_mpi_c_task_insert(MPI_Comm comm, struct starpu_codelet *cl, ...)
{
	va_list ap;
	va_start(ap, cl);
	int ret = mpi_common(MPI_INSERT, comm, cl, &ap, NULL);
	va_end(ap);
	return ret;
}

struct starpu_task *_starpu_mpi_c_task_build_v(MPI_Comm comm, struct starpu_codelet *cl, va_list ap)
{
	struct starpu_task *task = NULL;
	va_list copy;
	va_copy(copy, ap);
	int ret = mpi_common(MPI_BUILD, comm, cl, &copy, &task);
	va_end(copy);
	return ret == 0 ? task : NULL;
}

struct starpu_task *_starpu_mpi_c_task_build(MPI_Comm comm, struct starpu_codelet *cl, ...)
{
	va_list ap;
	va_start(ap, cl);
	struct starpu_task *task = _starpu_mpi_c_task_build_v(comm, cl, ap);
	va_end(ap);
	return task;
}

int _starpu_mpi_c_task_post_build_v(MPI_Comm comm, struct starpu_codelet *cl, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int ret = mpi_common(MPI_POST_BUILD, comm, cl, &copy, NULL);
	va_end(copy);
	return ret;
}

int _starpu_mpi_c_task_post_build(MPI_Comm comm, struct starpu_codelet *cl, ...)
{
	va_list ap;
	va_start(ap, cl);
	int ret = _starpu_mpi_c_task_post_build_v(comm, cl, ap);
	va_end(ap);
	return ret;
}
