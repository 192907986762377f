"""StarPU-MPI: one StarPU per process started by ``mpirun``, data moved between them.

Run a script with ``mpirun -np 4 python3 script.py``. Every process registers the same
data, each piece with a tag and an owner rank, and inserts the same tasks in the same
order; the owner of the data a task writes runs it (or ``execute_on_node=``), and the
data it reads are sent there first::

    import numpy as np
    import starpu, starpu.mpi as mpi

    mpi.init(ncpus=1)                       # starpu.init(ncpus=1) and MPI
    me, n = mpi.comm_rank(), mpi.comm_size()
    parts = [np.full(1, r + 1) for r in range(n)]
    total = np.zeros(1, dtype=int)
    for r, p in enumerate(parts):
        mpi.data_register(p, tag=r, rank=r)
    mpi.data_register(total, tag=n, rank=0)

    @starpu.access(t="RW", p="R")
    def add(t, p):
        t += p

    for p in parts:
        mpi.task_submit()(add, total, p)    # runs on rank 0, which owns total
    for r in range(n):                      # every process gets the result
        mpi.get_data_on_node(total, r)
    mpi.shutdown()

Point to point: ``send``/``recv`` (blocking) and ``isend_detached``/``irecv_detached``
(ordered with the tasks on the same data). Reductions: tasks accessing the data in REDUX
mode on several processes, then ``redux_data``. An exception nobody catches ends the
process at once (after its traceback), so that ``mpirun`` stops the job instead of every
process waiting for the one that failed. This module exists in builds with the
``mpi`` feature (``MATURIN_PEP517_ARGS="--features mpi" pip install ./bindings/python``).
"""

import atexit as _atexit
import os as _os
import sys as _sys

import starpu as _starpu
from starpu import _core

if not hasattr(_core, "mpi_init"):
    raise ImportError(
        "starpu.mpi: this build of starpu has no StarPU-MPI (install it with "
        "MATURIN_PEP517_ARGS=\"--features mpi\" pip install ./bindings/python, where an MPI "
        "such as libopenmpi-dev is installed)")

from ._core import (  # noqa: E402
    mpi_barrier as barrier,
    mpi_comm_rank as comm_rank,
    mpi_comm_size as comm_size,
    mpi_data_get_rank as data_get_rank,
    mpi_data_get_tag as data_get_tag,
    mpi_get_data_on_node as get_data_on_node,
    mpi_irecv_detached as irecv_detached,
    mpi_is_initialized as is_initialized,
    mpi_isend_detached as isend_detached,
    mpi_recv as recv,
    mpi_redux_data as redux_data,
    mpi_send as send,
    mpi_task_submit as task_submit,
    mpi_wait_for_all as wait_for_all,
)


def init(initialize_mpi=True, **init_options):
    """Starts StarPU (``starpu.init(**init_options)``) then StarPU-MPI over it, and MPI
    unless the application started it (``initialize_mpi=False``), as
    ``starpu_mpi_init_conf``. Each ``init`` needs its ``shutdown``."""
    _starpu.init(**init_options)
    try:
        _core.mpi_init(initialize_mpi)
    except BaseException:
        _starpu.shutdown()
        raise


def shutdown():
    """Waits for every communication and task, stops StarPU-MPI (and MPI if it started
    it), then StarPU (``starpu_mpi_shutdown``)."""
    _core.mpi_shutdown()
    _starpu.shutdown()


def data_register(obj, tag, rank):
    """Gives the data of ``obj`` (a ``starpu.Handle`` or a buffer object such as a numpy
    array, registered if it is not yet) its tag and owner rank. Every process registers
    every piece of data it may touch, with the same tag and rank."""
    _core.mpi_data_register(obj, tag, rank)


def _shutdown_at_exit():
    # Before starpu's own hook (atexit runs hooks in reverse order): the progression
    # thread must stop, and MPI finish, before the runtime goes.
    while _core.mpi_is_initialized():
        shutdown()


def _abort_on_uncaught(kind, value, tb, _previous=_sys.excepthook):
    # An uncaught exception on one process would otherwise hang every process: this one
    # in shutdown (waiting for transfers its peers will never make), the others waiting
    # for it. Ending the process without finalizing makes mpirun stop the job.
    _previous(kind, value, tb)
    if _core.mpi_is_initialized():
        _sys.stdout.flush()
        _sys.stderr.flush()
        _os._exit(1)


_atexit.register(_shutdown_at_exit)
_sys.excepthook = _abort_on_uncaught

__all__ = [
    "barrier", "comm_rank", "comm_size", "data_get_rank", "data_get_tag", "data_register",
    "get_data_on_node", "init", "irecv_detached", "is_initialized", "isend_detached", "recv",
    "redux_data", "send", "shutdown", "task_submit", "wait_for_all",
]
