"""``starpu.starpupy``: the names StarPU's extension module gives, for scripts that use it
directly (``from starpu import starpupy``; ``starpupy.error``; ``starpupy.shutdown()``)."""

from ._core import (  # noqa: F401
    error,
    init,
    pause,
    resume,
    sched_get_max_priority,
    sched_get_min_priority,
    shutdown,
    task_nsubmitted,
    task_wait_for_all,
    worker_get_count_by_type,
)


def set_ncpu(ncpus):
    """Restarts the runtime with ``ncpus`` CPU workers."""
    from . import set_ncpu as _set_ncpu

    _set_ncpu(ncpus)
