"""Task submission, futures (plain and asyncio), decorators, errors."""

import asyncio
import math
import threading

import pytest

import starpu


def add(a, b):
    return a + b


def test_task_submit_returns_a_future(rt):
    fut = starpu.task_submit()(add, 1, 2)
    assert isinstance(fut, starpu.Future)
    assert fut.result() == 3
    assert fut.done() and fut.exception() is None


def test_futures_are_awaitable(rt):
    async def main():
        f1 = starpu.task_submit()(add, 1, 2)
        f2 = starpu.task_submit()(add, f1, 10)  # a future argument is a dependency
        return await f2, await f1

    assert asyncio.run(main()) == (13, 3)


def test_gather_of_futures(rt):
    async def main():
        return await asyncio.gather(*[starpu.task_submit()(add, i, i) for i in range(20)])

    assert asyncio.run(main()) == [2 * i for i in range(20)]


def test_chain_of_futures_in_order(rt):
    f = starpu.task_submit()(add, 0, 1)
    for _ in range(200):
        f = starpu.task_submit()(add, f, 1)
    assert f.result() == 201


def test_function_given_by_name(rt):
    assert starpu.task_submit()("math.sqrt", 16).result() == 4.0
    assert starpu.task_submit()("abs", -3).result() == 3
    with pytest.raises(ValueError):
        starpu.task_submit()("no_such_function_anywhere", 1)


def test_kwargs_reach_the_function(rt):
    def f(a, b=0, *, c=0):
        return a + 10 * b + 100 * c

    assert starpu.task_submit()(f, 1, b=2, c=3).result() == 321


def test_delayed_bare_and_with_options(rt):
    @starpu.delayed
    def twice(x):
        return 2 * x

    @starpu.delayed(name="add", priority=1, color=2)
    def plus(x, y):
        return x + y

    assert twice(21).result() == 42
    assert plus(twice(1), 3).result() == 5


def test_exception_reaches_the_future_with_its_traceback(rt):
    def boom(x):
        raise ZeroDivisionError("boom %d" % x)

    fut = starpu.task_submit()(boom, 7)
    with pytest.raises(ZeroDivisionError, match="boom 7") as info:
        fut.result()
    assert any(tb.name == "boom" for tb in info.traceback)
    assert isinstance(fut.exception(), ZeroDivisionError)
    # The runtime goes on.
    assert starpu.task_submit()(add, 1, 1).result() == 2

    async def main():
        with pytest.raises(ZeroDivisionError):
            await starpu.task_submit()(boom, 1)

    asyncio.run(main())


def test_failed_dependency_fails_the_dependent(rt):
    def boom():
        raise KeyError("k")

    f = starpu.task_submit()(add, starpu.task_submit()(boom), 1)
    with pytest.raises(KeyError):
        f.result()


def test_unknown_option_and_bad_mode():
    with pytest.raises(TypeError, match="no_such_option"):
        starpu.task_submit(no_such_option=1)
    with pytest.raises(ValueError, match="invalid access mode"):
        starpu.task_submit(modes=["RX"])


def test_use_before_init_and_after_shutdown_raises():
    assert not starpu.is_initialized()
    with pytest.raises(starpu.error) as e:
        starpu.task_submit()(add, 1, 2)
    assert e.value.code == "ENODEV"
    starpu.init(ncpus=1)
    starpu.shutdown()
    with pytest.raises(starpu.error):
        starpu.task_submit()(add, 1, 2)
    with pytest.raises(starpu.error):
        starpu.shutdown()


def test_ret_fut_false_and_synchronous(rt):
    assert starpu.task_submit(ret_fut=False)(add, 1, 2) is None
    fut = starpu.task_submit(synchronous=1)(add, 1, 2)
    assert fut.done() and fut.result() == 3


def test_result_waits_without_the_gil(rt):
    # The task needs the GIL to run its Python code while the main thread waits: it only
    # finishes if result() released it.
    gate = threading.Event()

    def wait_then(x):
        gate.wait(10)
        return x

    fut = starpu.task_submit()(wait_then, 5)
    threading.Timer(0.05, gate.set).start()
    assert fut.result(timeout=10) == 5


def test_result_timeout(rt):
    gate = threading.Event()
    fut = starpu.task_submit()(lambda: gate.wait(10))
    with pytest.raises(TimeoutError):
        fut.result(timeout=0.05)
    gate.set()
    assert fut.result() is True


def test_blocking_calls_from_a_task_are_refused(rt):
    def inner():
        try:
            starpu.task_wait_for_all()
        except starpu.error as e:
            return e.code
        return "OK"

    assert starpu.task_submit()(inner).result() == "EDEADLK"


def test_done_callbacks(rt):
    seen = []
    fut = starpu.task_submit()(add, 2, 3)
    fut.add_done_callback(lambda f: seen.append(f.result()))
    fut.result()
    starpu.task_wait_for_all()
    assert seen == [5]


def test_priorities_and_counts(rt):
    assert starpu.sched_get_min_priority() <= 0 <= starpu.sched_get_max_priority()
    assert starpu.worker_get_count() == 2
    assert starpu.cpu_worker_get_count() == 2
    assert starpu.worker_get_count_by_type(starpu.STARPU_CPU_WORKER) == 2
    assert starpu.worker_get_count_by_type(starpu.STARPU_CUDA_WORKER) == 0
    with pytest.raises(starpu.error):
        starpu.worker_get_count_by_type(42)


def test_pause_and_resume(rt):
    starpu.pause()
    fut = starpu.task_submit()(add, 1, 1)
    assert not fut.done()
    assert starpu.task_nsubmitted() >= 1
    starpu.resume()
    assert fut.result() == 2


def test_tasks_objects_with_explicit_dependencies(rt):
    order = []
    a = starpu.Task(order.append, "a", detach=False)
    b = starpu.Task(order.append, "b", detach=False)
    b.declare_deps(a)
    b.submit()
    a.submit()
    b.wait()
    assert order == ["a", "b"]
    detached = starpu.Task(add, 1, 2)
    detached.submit()
    with pytest.raises(starpu.error) as e:
        detached.wait()
    assert e.value.code == "EINVAL"


def test_tags(rt):
    order = []
    starpu.tag_declare_deps(2, 1)
    t2 = starpu.Task(order.append, 2, tag=2)
    t2.submit()
    t1 = starpu.Task(order.append, 1, tag=1)
    t1.submit()
    starpu.tag_wait(2)
    assert order == [1, 2]


def test_codelet_modes_are_checked(rt):
    import numpy as np

    def inc(a):
        a += 1

    cl = starpu.Codelet(inc, modes=["RW"])
    x = np.zeros(3, dtype=np.int64)
    starpu.task_submit()(cl, x).result()
    with pytest.raises(starpu.error) as e:
        starpu.task_submit(modes=["R"])(cl, x)
    assert e.value.code == "EINVAL"
    starpu.unregister(x)
    assert list(x) == [1, 1, 1]


def test_many_tiny_tasks(rt):
    futs = [starpu.task_submit()(add, i, 1) for i in range(5000)]
    assert [f.result() for f in futs] == [i + 1 for i in range(5000)]


def test_perfmodel_option_records_and_plots(rt, tmp_path):
    for n in (10, 100, 1000):
        starpu.task_submit(perfmodel="sum_model", sizebase=n)(sum, range(n)).result()
    path = starpu.perfmodel_plot("sum_model", path=str(tmp_path / "m.svg"))
    text = open(path).read()
    assert text.startswith("<svg") and text.count("<circle") == 3
    with pytest.raises(ValueError):
        starpu.perfmodel_plot("never_used")


def test_math_log10_parallel(rt):
    futs = [starpu.task_submit()(math.log10, 10**i) for i in range(10)]
    assert [f.result() for f in futs] == [float(i) for i in range(10)]


def test_perfmodel_is_learned_by_the_core_under_dmda(tmp_path, monkeypatch):
    # dmda asks the model for predictions: finding it uncalibrated, the runtime measures
    # the tasks, keyed by their sizebase, and saves the model at shutdown.
    monkeypatch.setenv("STARPU_HOME", str(tmp_path))
    monkeypatch.setenv("STARPU_HOSTNAME", "pytest")
    starpu.init(ncpus=2, silent=True, sched_policy_name="dmda")
    try:
        for _ in range(12):
            starpu.task_submit(perfmodel="core_learned", sizebase=64)(sum, range(64)).result()
        history = starpu._core._perfmodel_history("core_learned")
        assert [h[1] for h in history] == [64]
        assert 1 <= history[0][4] <= 11  # the first run is not counted, outliers neither
        path = starpu.perfmodel_plot("core_learned", path=str(tmp_path / "m.svg"))
        assert open(path).read().count('fill="darkorange"') == 1
    finally:
        while starpu.is_initialized():
            starpu.shutdown()
    assert (tmp_path / ".starpu/sampling/codelets/45/core_learned.pytest").exists()
