"""What the core offers beyond StarPU's Python module, in Python's idiom: dependencies
(explicit, end, tags), waits, acquisitions, REDUX, SCRATCH, COMMUTE, scheduling contexts,
transactions and parallel (SPMD) codelets. Every test checks computed values."""

import threading

import numpy as np
import pytest

import starpu


def test_explicit_dependencies_with_after(rt):
    order = []
    gate = threading.Event()
    first = starpu.task_submit()(lambda: (gate.wait(10), order.append("first")))
    second = starpu.task_submit(after=[first])(order.append, "second")
    gate.set()
    second.result()
    assert order == ["first", "second"]
    with pytest.raises(TypeError):
        starpu.task_submit(after=[42])


def test_end_dependencies(rt):
    # A task's end waits for another task's end, and for explicit releases.
    gate = threading.Event()
    slow = starpu.Task(gate.wait, 10)
    quick = starpu.Task(abs, -1, detach=False)
    quick.declare_end_deps(slow)
    quick.end_dep_add(1)
    quick.submit()
    slow.submit()
    with pytest.raises(starpu.TimeoutError):
        quick.wait(timeout=0.05)  # ran, but slow has not ended
    gate.set()
    with pytest.raises(starpu.TimeoutError):
        quick.wait(timeout=0.05)  # one release still missing
    assert not quick.terminated
    quick.end_dep_release()
    quick.wait()
    assert quick.future.result() == 1


def test_tag_dependencies_and_waits(rt):
    order = []
    starpu.tag_declare_deps(12, 10, 11)
    starpu.Task(order.append, "c", tag=12).submit()
    starpu.Task(order.append, "a", tag=10).submit()
    starpu.tag_notify_from_apps(11)
    starpu.tag_wait(12)
    assert order == ["a", "c"]


def test_acquire_release_orders_with_tasks(rt):
    x = np.zeros(4, dtype=np.int64)
    h = starpu.Handle(x)
    got = h.acquire("RW")
    fut = starpu.task_submit(modes=["RW"])(lambda a: a.__iadd__(1), h)
    got[:] = 10  # the task waits for the release
    assert not fut.done()
    h.release()
    fut.result()
    assert h.acquire("R").tolist() == [11] * 4
    h.release()
    h.unregister()


def test_redux_with_python_methods(rt):
    total = np.zeros((2, 3))
    h = starpu.Handle(total)
    calls = {"init": 0}

    def init(a):
        calls["init"] += 1
        assert a.shape == (2, 3) and a.dtype == np.float64
        a[...] = 0

    def redux(a, b):
        a += b

    h.set_reduction_methods(redux, init)

    def contribute(acc, k):
        acc += k

    for k in range(1, 21):
        starpu.task_submit(modes=["REDUX"])(contribute, h, k)
    # Reading the data folds the contributions: each worker's, then into the data.
    assert (h.acquire("R") == 210).all()
    h.release()
    assert 1 <= calls["init"] <= 2  # one contribution per worker that ran some
    starpu.task_submit(modes=["REDUX"])(contribute, h, 1000)
    h.unregister()
    assert (total == 1210).all()


def test_redux_needs_methods(rt):
    h = starpu.Handle(np.zeros(2))
    with pytest.raises(starpu.InvalidArgumentError):
        starpu.task_submit(modes=["REDUX"])(lambda a: None, h)
    with pytest.raises(starpu.InvalidArgumentError):
        starpu.Handle(42).set_reduction_methods(lambda a, b: None, lambda a: None)
    h.unregister()


def test_scratch_buffers_are_numpy_arrays_of_the_worker(rt):
    template = np.full(5, 7, dtype=np.int32)
    scratch = starpu.Handle(template)
    out = np.zeros(5, dtype=np.int32)

    @starpu.access(work="SCRATCH", dst="W")
    def use(work, dst):
        assert work.dtype == np.int32 and work.shape == (5,)
        work[:] = np.arange(5)  # a working area, not the data
        dst[:] = work * 2

    starpu.task_submit()(use, scratch, out).result()
    starpu.unregister(out)
    scratch.unregister()
    assert out.tolist() == [0, 2, 4, 6, 8]
    assert template.tolist() == [7] * 5  # never touched


def test_commute_accesses_all_happen(rt):
    x = np.zeros(1, dtype=np.int64)
    h = starpu.Handle(x)

    @starpu.access(a="RW|COMMUTE")
    def inc(a, k):
        a += k

    for k in range(1, 11):
        starpu.task_submit()(inc, h, k)
    h.unregister()
    assert x[0] == 55


def test_scheduling_contexts(rt):
    solo = starpu.SchedCtx([1], "solo", policy="eager")
    assert solo.workers == [1] and solo.name == "solo" and solo.id > 0
    where = [starpu.task_submit(sched_ctx=solo)(starpu.worker_get_id).result()
             for _ in range(4)]
    assert where == [1, 1, 1, 1]
    assert starpu.worker_get_id() == -1  # not a worker
    solo.delete()
    with pytest.raises(starpu.InvalidArgumentError):
        starpu.task_submit(sched_ctx=solo)(abs, 1)
    with pytest.raises(starpu.InvalidArgumentError):
        starpu.SchedCtx([99], "nowhere")
    assert starpu.SchedCtx.GLOBAL.id == 0


def test_transactions_cancel_epochs(rt):
    x = np.zeros(1, dtype=np.int64)
    h = starpu.Handle(x)

    def add(a, k):
        a += k

    trs = starpu.Transaction(True)
    starpu.task_submit(modes=["RW"], transaction=trs)(add, h, 1)
    asked = []
    trs.next_epoch(lambda: asked.append("epoch 2") or False)  # cancelled
    starpu.task_submit(modes=["RW"], transaction=trs)(add, h, 10)
    trs.next_epoch()
    starpu.task_submit(modes=["RW"], transaction=trs)(add, h, 100)
    trs.close()
    starpu.task_wait_for_all()
    h.unregister()
    assert x[0] == 101 and asked == ["epoch 2"]
    with pytest.raises(starpu.InvalidArgumentError):
        trs.close()


def test_spmd_codelet_ranks():
    starpu.init(ncpus=2, silent=True, sched_policy_name="peager")
    try:
        v = np.zeros(6, dtype=np.int64)

        def fill(a):
            size, rank = starpu.combined_worker_get_size(), starpu.combined_worker_get_rank()
            part = len(a) // size
            a[rank * part:(rank + 1) * part] = 10 * size + rank

        cl = starpu.Codelet(fill, modes=["W"], type="spmd")
        starpu.task_submit()(cl, v).result()
        starpu.unregister(v)
        assert v.tolist() == [20, 20, 20, 21, 21, 21]
        with pytest.raises(starpu.InvalidArgumentError):
            starpu.Codelet(fill, type="bulk")
    finally:
        while starpu.is_initialized():
            starpu.shutdown()
