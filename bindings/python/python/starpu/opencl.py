"""OpenCL implementations of codelets.

A codelet gets an OpenCL implementation with ``starpu.Codelet(f, modes, opencl=g)``
(``f`` may be None: the codelet then runs on OpenCL workers only). ``g`` runs on an
OpenCL worker with the task's arguments, each data argument as a ``Buffer`` (the
data's copy on the device), and launches kernels of a ``Program``::

    program = starpu.opencl.Program('''
        __kernel void scale(__global float *v, unsigned first, unsigned n, float k) {
            const size_t i = get_global_id(0);
            if (i < n) v[first + i] *= k;
        }''')

    def scale_cl(v, k):
        program.launch("scale", v.size, v, numpy.uint32(v.first), numpy.uint32(v.size),
                       numpy.float32(k))

Scalars are given typed: numpy scalars (``numpy.int32``, ``numpy.float32``...) or raw
``bytes``; ``Local(nbytes)`` is a ``__local`` argument. A program that does not build, or
a launch OpenCL refuses, raises ``starpu.TaskFailedError`` (the compiler's log in the
message) in ``g``, and so fails the task. The data stays on the device until something
needs it elsewhere: ``starpu.acquire`` (or ``Handle.acquire``, ``unregister``) brings the
result back to the numpy array.

OpenCL workers come from the OpenCL devices found at ``starpu.init`` (``nopencl=``
caps their number); a CPU OpenCL device such as PoCL counts only with
``STARPU_OPENCL_ON_CPUS=1``, as in StarPU.
"""

from ._core import Buffer, Local, Program, opencl_worker_get_count


def worker_get_count():
    """The number of OpenCL workers (``starpu_opencl_worker_get_count``)."""
    return opencl_worker_get_count()


__all__ = ["Buffer", "Local", "Program", "worker_get_count"]
