"""CUDA implementations of codelets.

A codelet gets a CUDA implementation with ``starpu.Codelet(f, modes, cuda=g)`` (``f``
may be None: the codelet then runs on CUDA workers only). ``g`` runs on a CUDA worker
with the task's arguments, each data argument as a ``Buffer`` (the data's copy on the
GPU), and launches kernels of a ``Program`` (CUDA C compiled by NVRTC, or PTX) on the
worker's stream::

    program = starpu.cuda.Program('''
        extern "C" __global__ void scale(float *v, unsigned n, float k) {
            unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) v[i] *= k;
        }''')

    def scale_cuda(v, k):
        program.launch("scale", (v.size + 255) // 256, 256, v, numpy.uint32(v.size),
                       numpy.float32(k))

A ``Buffer`` is the kernel's pointer to the data's first element (``ptr``, also for
CUDA libraries called from ``g``); ``shape``, ``strides`` (in elements), ``dtype`` and
``size`` describe it as the numpy array. Scalars are given typed: numpy scalars
(``numpy.int32``, ``numpy.float32``...) or raw ``bytes``. The task ends when its kernels
are done; a source NVRTC does not compile, or a launch or kernel CUDA refuses, raises
``starpu.TaskFailedError`` (NVRTC's log in the message) and fails the task. The data
stays on the GPU until something needs it elsewhere: ``starpu.acquire`` (or
``Handle.acquire``, ``unregister``) brings the result back to the numpy array.

CUDA workers come from the NVIDIA GPUs found at ``starpu.init`` (``ncuda=`` caps their
number; ``STARPU_NCUDA`` too). Without a GPU or its driver there are none, and tasks of
CUDA-only codelets are refused with ``starpu.NoDeviceError``.
"""

from ._core import cuda_worker_get_count
from ._core import CudaBuffer as Buffer
from ._core import CudaProgram as Program


def worker_get_count():
    """The number of CUDA workers (``starpu_cuda_worker_get_count``)."""
    return cuda_worker_get_count()


__all__ = ["Buffer", "Program", "worker_get_count"]
