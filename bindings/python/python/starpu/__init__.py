"""StarPU's Python interface, on starpu-rs.

``import starpu`` gives what StarPU's own Python module (starpupy) offers: ``init`` and
``shutdown``, ``task_submit(**options)(func, *args)`` returning a future that can be
awaited in asyncio or waited for with ``result()``, the ``delayed``, ``access`` and
``set_access`` decorators, zero-copy data handles for numpy arrays and other buffer
objects (``Handle``, ``HandleNumpy``, ``acquire``/``release``/``unregister``),
partitioning, performance-model symbols and ``starpu.joblib``. Beyond StarPU's module:
``Codelet`` (declared data arguments, parallel SPMD codelets), ``Task`` (describe now,
submit later, explicit and end dependencies), tags, partition plans and their switches,
REDUX (Python or native reduction methods) and SCRATCH accesses, scheduling contexts
(``SchedCtx``), transactions, one exception class per kind of error, native kernels
(C functions run without the GIL), OpenCL and CUDA implementations of codelets
(``starpu.opencl``, ``starpu.cuda``) and, in builds with MPI, StarPU-MPI
(``import starpu.mpi``).

Python functions run on the runtime's CPU workers and hold the GIL only while Python code
runs, so numpy work that releases the GIL runs in parallel.
"""

import atexit as _atexit
import functools as _functools
import inspect as _inspect

from . import _core
from ._core import (
    Codelet,
    DeviceData,
    StarPUError,
    Future,
    Handle,
    NativeKernel,
    SchedCtx,
    Task,
    Transaction,
    acquire,
    combined_worker_get_rank,
    combined_worker_get_size,
    cpu_worker_get_count,
    error,
    init,
    is_initialized,
    native_kernel,
    opencl_worker_get_count,
    cuda_worker_get_count,
    pause,
    release,
    resume,
    sched_get_max_priority,
    sched_get_min_priority,
    shutdown,
    tag_declare_deps,
    tag_notify_from_apps,
    tag_remove,
    tag_wait,
    task_nsubmitted,
    task_submit,
    task_wait_for_all,
    unregister,
    unregister_submit,
    worker_get_count,
    worker_get_count_by_type,
    worker_get_id,
)

# One exception class per kind of runtime error, made by the extension from the core's
# list (``InvalidArgumentError``, ``DeadlockError``, ...), all subclasses of StarPUError
# (StarPU's name for it: ``error``) and of the builtin that fits (``ValueError``...).
_error_classes = {
    c.__name__: c
    for c in vars(_core).values()
    if isinstance(c, type) and issubclass(c, StarPUError) and c is not StarPUError
}
globals().update(_error_classes)

# Worker types, as StarPU numbers them (for worker_get_count_by_type).
STARPU_CPU_WORKER = 0
STARPU_CUDA_WORKER = 1
STARPU_OPENCL_WORKER = 2
STARPU_MAX_FPGA_WORKER = 4
STARPU_MPI_MS_WORKER = 5
STARPU_MPI_SC_WORKER = 5
STARPU_TCPIP_MS_WORKER = 6
STARPU_TCPIP_SC_WORKER = 6
STARPU_HIP_WORKER = 7
STARPU_NARCH = 8
STARPU_ANY_WORKER = 255


class HandleNumpy(Handle):
    """``HandleNumpy(shape, dtype=numpy.float64)``: a handle on a new, zero-filled numpy
    array of that shape, meant to be written by tasks (which must give its access mode,
    W or RW). ``acquire()`` returns the array."""

    def __new__(cls, shape, dtype=None, retval=False):
        import numpy as np

        array = np.zeros(shape, dtype=np.float64 if dtype is None else dtype)
        return super().__new__(cls, array, retval, _needs_mode=True)


class Handle_token:
    """Placeholder StarPU's module puts in argument lists for handles (kept for scripts
    that refer to it)."""


def access(**modes):
    """Decorator giving the access mode of parameters: ``@starpu.access(a="RW", b="R")``.
    Modes: "R" (default), "W", "RW", optionally with "|COMMUTE"."""

    def decorate(func):
        func.starpu_access = modes
        return func

    return decorate


def set_access(func, **modes):
    """``starpu.set_access(func, a="R", b="W")``: the same as ``@starpu.access`` on an
    existing function; returns it."""
    func.starpu_access = modes
    return func


def delayed(f=None, **kwargs):
    """Decorator making a function submit a task when called, returning its future:
    ``@starpu.delayed`` or ``@starpu.delayed(name="add", priority=1, a="RW")``. Keyword
    names that are parameters of the function are access modes; the others are
    ``task_submit`` options."""
    if f is None:
        return _functools.partial(delayed, **kwargs)
    try:
        params = set(_inspect.getfullargspec(f).args)
    except TypeError:
        params = set()
    modes = {k: v for k, v in kwargs.items() if k in params}
    options = {k: v for k, v in kwargs.items() if k not in params}
    if modes:
        f.starpu_access = modes
    submitter = task_submit(**options)

    @_functools.wraps(f)
    def submit(*args, **kw):
        return submitter(f, *args, **kw)

    return submit


class Perfmodel:
    """A performance model named by ``symbol`` (the ``perfmodel=`` task option takes the
    symbol itself)."""

    def __init__(self, symbol):
        self.symbol = symbol

    def get_struct(self):
        return self.symbol


def perfmodel_plot(perfmodel, view=False, path=None):
    """Writes a plot of the timings recorded for performance model ``perfmodel`` (a
    symbol) to ``path`` (default ``starpu_<symbol>.svg`` in the current directory), and
    returns the path. ``view=True`` also opens it with the desktop's viewer."""
    from ._plot import plot

    return plot(perfmodel, view=view, path=path)


def set_ncpu(ncpus):
    """Restarts the runtime with ``ncpus`` CPU workers (StarPU's ``starpupy.set_ncpu``):
    waits for every task, shuts down (unregistering all data) and initializes again."""
    task_wait_for_all()
    while is_initialized():
        shutdown()
    init(ncpus=ncpus)


# The workers must be stopped before the interpreter finalizes: a worker thread calling
# into Python while it goes away would crash the process.
_atexit.register(_core._shutdown_at_exit)

from . import cuda  # noqa: E402
from . import opencl  # noqa: E402
from . import starpupy  # noqa: E402  (StarPU's name for the extension module)

__all__ = [
    "Codelet",
    "DeviceData",
    "Future",
    "Handle",
    "HandleNumpy",
    "NativeKernel",
    "Perfmodel",
    "SchedCtx",
    "StarPUError",
    "Task",
    "Transaction",
    "access",
    "acquire",
    "combined_worker_get_rank",
    "combined_worker_get_size",
    "cpu_worker_get_count",
    "cuda",
    "cuda_worker_get_count",
    "delayed",
    "error",
    "init",
    "is_initialized",
    "native_kernel",
    "opencl",
    "opencl_worker_get_count",
    "pause",
    "perfmodel_plot",
    "release",
    "resume",
    "sched_get_max_priority",
    "sched_get_min_priority",
    "set_access",
    "set_ncpu",
    "shutdown",
    "starpupy",
    "tag_declare_deps",
    "tag_notify_from_apps",
    "tag_remove",
    "tag_wait",
    "task_nsubmitted",
    "task_submit",
    "task_wait_for_all",
    "unregister",
    "unregister_submit",
    "worker_get_count",
    "worker_get_count_by_type",
    "worker_get_id",
]
