"""Zero-copy data: numpy arrays and other buffers, handles, acquire/release, partitions."""

import array

import numpy as np
import pytest

import starpu


def test_numpy_arguments_are_changed_in_place_and_ordered(rt):
    @starpu.access(a="RW", b="R")
    def add_into(a, b):
        np.add(a, b, out=a)

    a = np.array([1, 2, 3])
    b = np.array([4, 5, 6])
    for _ in range(10):
        starpu.task_submit()(add_into, a, b)
    # acquire waits for the ten tasks (each RW after the previous one).
    assert list(starpu.acquire(a, mode="R")) == [41, 52, 63]
    starpu.release(a)
    starpu.unregister(a)
    starpu.unregister(b)
    assert list(a) == [41, 52, 63]


def test_task_sees_the_callers_memory(rt):
    a = np.arange(5.0)
    seen = starpu.task_submit()(lambda x: x.ctypes.data, a).result()
    assert seen == a.ctypes.data
    starpu.unregister(a)


def test_acquire_holds_tasks_back(rt):
    @starpu.access(a="RW")
    def inc(a):
        a += 1

    a = np.zeros(2, dtype=np.int64)
    held = starpu.acquire(a, mode="RW")
    fut = starpu.task_submit()(inc, a)
    held[0] = 10  # the task has not run: the application owns the data
    assert not fut.done()
    starpu.release(a)
    fut.result()
    assert list(a) == [11, 1]
    starpu.unregister(a)


def test_same_mutable_object_twice_is_refused(rt):
    a = np.array([1, 2, 3])
    h = starpu.Handle(a)
    with pytest.raises(starpu.error, match="Should not register the same mutable python object once more."):
        starpu.Handle(a)
    h.unregister()
    # Implicit registration by a task, then an explicit one: refused too (as in StarPU).
    b = np.array([1])
    starpu.task_submit()(len, b).result()
    with pytest.raises(starpu.error):
        starpu.Handle(b)
    starpu.unregister(b)
    # Immutable values may be registered any number of times.
    x1, x2 = starpu.Handle(2), starpu.Handle(2)
    assert x1.get() == x2.get() == 2


def test_value_handles_and_ret_handle(rt):
    x, y = starpu.Handle(2), starpu.Handle(3)
    res = starpu.task_submit(ret_handle=True)(lambda a, b: a + b, x, y)
    assert isinstance(res, starpu.Handle) and res.get() == 5
    res2 = starpu.task_submit(ret_handle=True)(lambda a, b: a * b, res, y)
    assert res2.get() == 15
    ret = starpu.Handle(0)
    assert starpu.task_submit(ret_param=True)(lambda a, b: a - b, ret, x, y) is None
    assert ret.get() == -1

    def boom():
        raise RuntimeError("no value")

    bad = starpu.task_submit(ret_handle=True)(boom)
    with pytest.raises(RuntimeError, match="no value"):
        bad.get()
    for h in (x, y, res, res2, ret, bad):
        h.unregister()
    with pytest.raises(starpu.error):
        x.get()  # unregistered


def test_buffer_types(rt):
    ba = bytearray(b"\x01\x02")
    arr = array.array("i", [1, 2, 3])
    mv = memoryview(bytearray(4))
    bt = bytes([7, 8])

    @starpu.access(x="RW")
    def bump(x):
        for i in range(len(x)):
            x[i] += 1

    for obj in (ba, arr, mv):
        starpu.task_submit()(bump, obj)
    assert starpu.task_submit()(lambda b: b + b"!", bt).result() == b"\x07\x08!"
    starpu.task_wait_for_all()
    assert ba == bytearray(b"\x02\x03")
    assert list(arr) == [2, 3, 4]
    assert mv.tobytes() == b"\x01\x01\x01\x01"
    with pytest.raises(starpu.error, match="read-only"):
        starpu.task_submit(modes={id(bt): "RW"})(len, bt)
    for obj in (ba, arr, mv, bt):
        starpu.unregister(obj)


def test_unregistered_object_is_an_error(rt):
    with pytest.raises(starpu.error, match="does not have registered handle"):
        starpu.release(np.zeros(1))


def test_arg_handle_false_passes_by_reference_without_registering(rt):
    a = np.zeros(3)
    starpu.task_submit(arg_handle=False)(lambda x: x.fill(1), a).result()
    assert list(a) == [1, 1, 1]
    with pytest.raises(starpu.error):
        starpu.unregister(a)


def test_handle_numpy_needs_a_mode(rt):
    e = starpu.HandleNumpy((2, 3), np.int32)

    def fill(b):
        b[...] = 7

    with pytest.raises(starpu.error, match="access mode"):
        starpu.task_submit()(fill, e)
    starpu.task_submit()(starpu.set_access(fill, b="W"), e)
    got = e.acquire("R")
    assert got.shape == (2, 3) and got.dtype == np.int32 and (got == 7).all()
    e.release()
    e.unregister()


@starpu.access(a="RW")
def double(a):
    a *= 2


def test_partition_along_each_axis(rt):
    for dim, chunks, sizes in ((0, [3, 2, 5], [30, 20, 50]), (1, [3, 2, 5], [30, 20, 50])):
        arr = np.arange(100).reshape(10, 10)
        h = starpu.Handle(arr)
        parts = h.partition(3, dim, chunks)
        assert h.get_partition_size(parts) == sizes
        assert h.nplans == 1 and not h.partitioned
        for p in parts:
            starpu.task_submit()(double, p)
        got = h.acquire("R")  # gathers the parts once their tasks are done
        assert (got == np.arange(100).reshape(10, 10) * 2).all()
        h.release()
        # A plan leaves the array usable: the runtime gathers and cuts as tasks need.
        starpu.task_submit()(double, h)
        starpu.task_submit()(double, parts[0])
        h.unpartition(parts, 3)
        assert h.nplans == 0
        h.unregister()
        expected = np.arange(100).reshape(10, 10) * 4
        if dim == 0:
            expected[:3] *= 2
        else:
            expected[:, :3] *= 2
        assert (arr == expected).all()
    with pytest.raises(starpu.InvalidArgumentError):
        starpu.Handle(np.zeros((4, 4))).partition(2, 0, [1, 1])
    with pytest.raises(ValueError):
        starpu.Handle(np.zeros((4, 4))).partition(2, 2)


def test_synchronous_partition_holds_the_array(rt):
    arr = np.arange(12).reshape(3, 4)
    h = starpu.Handle(arr)
    parts = h.partition(2, 1, synchronous=True)  # two column blocks
    assert h.partitioned and h.nplans == 0
    assert [p.obj.shape for p in parts] == [(3, 2), (3, 2)]
    with pytest.raises(starpu.InvalidArgumentError, match="partitioned"):
        starpu.task_submit()(double, h)
    starpu.task_submit()(double, parts[1])
    h.unpartition()
    assert not h.partitioned
    h.unregister()
    assert arr.tolist() == [[0, 1, 4, 6], [4, 5, 12, 14], [8, 9, 20, 22]]


def test_plan_switches_are_ordered_with_the_tasks(rt):
    arr = np.arange(8)
    h = starpu.Handle(arr)
    halves = h.partition(2)
    quarters = h.partition(4)
    assert h.nplans == 2
    h.partition_submit(halves)
    starpu.task_submit()(double, halves[1])
    h.unpartition_submit(halves)
    h.partition_readonly_submit(quarters)
    h.partition_readonly_submit(halves)
    assert h.acquire("R").tolist() == [0, 1, 2, 3, 8, 10, 12, 14]  # readable meanwhile
    h.release()
    h.unpartition_submit(quarters)
    h.partition_readwrite_upgrade_submit(halves)
    starpu.task_submit()(double, halves[0])
    h.partition_readonly_downgrade_submit(halves)
    h.unpartition_readonly_submit(halves)
    h.unpartition_submit(halves)
    starpu.task_submit()(double, h)
    h.partition_clean(halves)
    h.unpartition(quarters, 4)
    assert h.nplans == 0
    h.unregister()
    assert arr.tolist() == [0, 4, 8, 12, 16, 20, 24, 28]
    # A switch that does not apply is refused and changes nothing.
    g = starpu.Handle(np.zeros(4))
    plan = g.partition(2)
    with pytest.raises(starpu.InvalidArgumentError):
        g.partition_readwrite_upgrade_submit(plan)
    g.unpartition(plan)
    g.unregister()


def test_strided_arrays_still_work_for_python_tasks(rt):
    base = np.arange(20)
    view = base[::2]
    starpu.task_submit(modes={id(view): "RW"})(lambda v: v.__imul__(10), view).result()
    starpu.unregister(view)
    assert list(base[:4]) == [0, 1, 20, 3]


def test_unregister_submit(rt):
    a = np.zeros(1000)
    starpu.task_submit(modes={id(a): "RW"})(lambda x: x.fill(3), a)
    starpu.unregister_submit(a)
    starpu.task_wait_for_all()
    assert (a == 3).all()


def test_shutdown_unregisters_what_is_left():
    starpu.init(ncpus=1)
    a = np.zeros(3)
    starpu.task_submit(modes={id(a): "RW"})(lambda x: x.fill(2), a)
    starpu.shutdown()
    assert list(a) == [2, 2, 2]
