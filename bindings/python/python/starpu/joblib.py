"""``starpu.joblib``: joblib's ``Parallel`` / ``delayed`` on StarPU tasks, as StarPU's
Python module provides them.

``Parallel(n_jobs=N)(iterable)`` cuts the work into N blocks, one task each:
- an iterable of ``delayed(f)(*args)`` calls (a generator or a list): each block is a
  task calling its functions in order;
- one ``delayed(f)(*args)`` call whose arguments are generators, numpy arrays or
  scalars: generators are cut into N lists, numpy arrays into N sub-arrays (a partition:
  the tasks work on the array itself, which is updated in place), scalars are given to
  every block.
The result is the list of all the calls' results, in order (``mode="normal"``), or with
``mode="future"`` an asyncio future of the list of each block's result (``await`` it; as
in StarPU, a block's result is the list of its calls' results).
"""

import asyncio
import functools
import inspect
import types

import starpu

try:
    import numpy as _np
except ImportError:  # numpy is optional
    _np = None


def cpu_count():
    """The number of CPU workers of the runtime."""
    return starpu.worker_get_count_by_type(starpu.STARPU_CPU_WORKER)


def effective_n_jobs(n_jobs=-1):
    return cpu_count()


def partition(ls, n_block):
    """Cuts list ``ls`` into ``n_block`` consecutive sub-lists (the first ones one element
    longer when it does not divide), or one per element when it is shorter."""
    if len(ls) < n_block:
        return [ls[i : i + 1] for i in range(len(ls))]
    q, r = divmod(len(ls), n_block)
    out, start = [], 0
    for i in range(n_block):
        end = start + q + (1 if i < r else 0)
        out.append(ls[start:end])
        start = end
    return out


def delayed(function):
    """``delayed(f)(*args, **kwargs)`` records a call, as joblib's ``delayed``."""

    @functools.wraps(function)
    def delayed_function(*args, **kwargs):
        return function, args, kwargs

    return delayed_function


def _blocks(n_jobs):
    if n_jobs is None:
        return 1
    if n_jobs < 0:
        if n_jobs < -cpu_count() - 1:
            raise ValueError("n_jobs=%d is out of range: there are %d CPU workers" % (n_jobs, cpu_count()))
        return max(cpu_count() + 1 + n_jobs, 1)
    return max(n_jobs, 1)


def _run_list(calls):
    return [f(*args, **kwargs) for f, args, kwargs in calls]


class Parallel:
    """``Parallel(n_jobs=1, mode="normal", **task_options)(iterable)``: runs the calls of
    ``iterable`` as StarPU tasks (see the module's documentation). Task options
    (``name``, ``priority``, ``perfmodel``, ...) apply to every block's task."""

    def __init__(self, mode="normal", perfmodel=None, end_msg=None, name=None, synchronous=0,
                 priority=0, color=None, flops=None, ret_handle=False, ret_fut=True,
                 arg_handle=True, modes=None, n_jobs=None, backend=None, verbose=0,
                 timeout=None, pre_dispatch="2 * n_jobs", batch_size="auto", temp_folder=None,
                 max_nbytes="1M", mmap_mode="r", prefer=None, require=None):
        if mode not in ("normal", "future"):
            raise ValueError("mode must be 'normal' or 'future', not %r" % (mode,))
        self.mode = mode
        self.end_msg = end_msg
        self.n_jobs = n_jobs
        self.options = dict(name=name, synchronous=synchronous, priority=priority,
                            color=color, flops=flops, perfmodel=perfmodel)

    def _submit(self, func, args, sizebase):
        return starpu.task_submit(sizebase=sizebase, **self.options)(func, *args)

    def _futures(self, iterable):
        n_block = _blocks(self.n_jobs)
        if isinstance(iterable, tuple) and len(iterable) == 3 and callable(iterable[0]):
            return self._split_call(iterable, n_block)
        calls = list(iterable)
        for c in calls:
            if not (isinstance(c, tuple) and len(c) == 3 and callable(c[0])):
                raise TypeError("Parallel expects delayed(f)(...) calls, not %r" % (c,))
        return [self._submit(_run_list, (block,), len(block)) for block in partition(calls, n_block)], None

    def _split_call(self, call, n_block):
        f, args, kwargs = call
        params = inspect.getfullargspec(f).args
        args = list(args) + [kwargs[p] for p in params if p in kwargs]
        pieces, lengths, arrays = [], set(), []
        for a in args:
            if _np is not None and isinstance(a, _np.ndarray):
                existing = starpu._core._handle_of(a)
                handle = existing if existing is not None else starpu.Handle(a)
                parts = handle.partition(n_block, 0)
                arrays.append((handle, parts, existing is None))
                pieces.append(parts)
                lengths.add(len(a))
            elif isinstance(a, types.GeneratorType):
                items = list(a)
                pieces.append(partition(items, n_block))
                lengths.add(len(items))
            else:
                pieces.append(None)
        if len(lengths) > 1:
            raise ValueError("all arrays and generators must have the same length")
        nblocks = min((len(p) for p in pieces if p is not None), default=1)
        futures = []
        for i in range(nblocks):
            block_args = [a if p is None else p[i] for a, p in zip(args, pieces)]
            sizes = [len(p[i]) if isinstance(p[i], list) else p[i].obj.shape[0]
                     for p in pieces if p is not None]
            futures.append(self._submit(f, block_args, sizes[0] if sizes else 0))
        return futures, arrays

    def __call__(self, iterable):
        futures, arrays = self._futures(iterable)
        # As StarPU's module does: the arrays' partitions are forgotten at once (each part
        # is gathered back once its task is done) and the arrays registered here
        # unregistered.
        for handle, parts, ours in arrays or ():
            handle.unpartition(parts, len(parts))
            if ours:
                handle.unregister()
        if self.mode == "future":
            gathered = asyncio.gather(*futures)
            if self.end_msg is not None:
                gathered.add_done_callback(functools.partial(print, self.end_msg))
            return gathered
        return _concat([f.result() for f in futures])


def _concat(results):
    if all(r is None for r in results):
        return None
    out = []
    for r in results:
        if isinstance(r, list):
            out.extend(r)
        elif r is not None:
            out.append(r)
    return out
