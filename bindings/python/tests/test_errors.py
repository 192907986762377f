"""Errors: one exception class per kind of the core's errors, and the very exception a
task raised coming back from every wait."""

import asyncio
import errno
import re
import threading
from pathlib import Path

import pytest

import starpu

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "python" / "starpu"
README = HERE.parent / "README.md"

# The builtin each kind also derives from (what a Python program would catch).
BUILTIN = {
    "InvalidArgumentError": ValueError,
    "NoDeviceError": RuntimeError,
    "DeadlockError": RuntimeError,
    "NotInitializedError": RuntimeError,
    "UnsupportedError": NotImplementedError,
    "OutOfMemoryError": MemoryError,
    "NotFoundError": LookupError,
    "TaskFailedError": RuntimeError,
    "TimeoutError": TimeoutError,
}


def kind_classes():
    return starpu._error_classes


def test_one_class_per_kind_under_starpu_error():
    classes = kind_classes()
    assert set(classes) == set(BUILTIN)
    assert starpu.error is starpu.StarPUError
    for name, cls in classes.items():
        assert getattr(starpu, name) is cls
        assert issubclass(cls, starpu.StarPUError) and issubclass(cls, BUILTIN[name])
        assert cls.__module__ == "starpu"
        assert name == cls.kind + "Error"
        # errno and its name agree with the platform's table.
        assert errno.errorcode[cls.errno] == cls.code or cls.code == "EDEADLK"
        assert getattr(errno, cls.code) == cls.errno
        assert cls.__doc__


def test_stubs_and_readme_list_every_class():
    stubs = (PACKAGE / "__init__.pyi").read_text()
    stubbed = set(re.findall(r"^class (\w+Error)\(StarPUError", stubs, re.M))
    assert stubbed == set(kind_classes())
    # The README's error table: one row per class, with its builtin and errno name.
    rows = re.findall(r"^\| `starpu\.(\w+)` \| `(\w+)` \| `(\w+)` \|", README.read_text(), re.M)
    table = {name: (base, code) for name, base, code in rows}
    assert set(table) == set(kind_classes())
    for name, cls in kind_classes().items():
        assert table[name] == (BUILTIN[name].__name__, cls.code), name


def test_errors_of_each_kind_come_from_the_runtime(rt):
    import numpy as np

    # InvalidArgument: a task mode the codelet does not declare.
    cl = starpu.Codelet(lambda a: None, modes=["RW"])
    x = np.zeros(2)
    with pytest.raises(starpu.InvalidArgumentError) as e:
        starpu.task_submit(modes=["R"])(cl, x)
    assert isinstance(e.value, ValueError)
    assert (e.value.errno, e.value.code, e.value.kind) == (errno.EINVAL, "EINVAL",
                                                            "InvalidArgument")
    # Deadlock: waiting from inside a task.
    def inner():
        try:
            starpu.task_wait_for_all()
        except starpu.DeadlockError as e:
            return type(e).__name__, e.errno
    assert starpu.task_submit()(inner).result() == ("DeadlockError", errno.EDEADLK)
    # Timeout: a result that does not come in time.
    gate = threading.Event()
    fut = starpu.task_submit()(gate.wait, 10)
    with pytest.raises(starpu.TimeoutError) as e:
        fut.result(timeout=0.01)
    assert isinstance(e.value, TimeoutError) and e.value.errno == errno.ETIMEDOUT
    gate.set()
    assert fut.result() is True
    starpu.unregister(x)


def test_not_initialized():
    assert not starpu.is_initialized()
    with pytest.raises(starpu.NotInitializedError) as e:
        starpu.task_submit()(abs, 1)
    assert e.value.errno == errno.ENODEV and isinstance(e.value, RuntimeError)


class Boom(Exception):
    pass


def test_the_very_exception_comes_back_from_every_wait(rt):
    raised = []

    def boom(tag):
        e = Boom(tag)
        raised.append(e)
        raise e

    fut = starpu.task_submit(name="exploding")(boom, "a")
    with pytest.raises(Boom) as info:
        fut.result()
    assert info.value is raised[0]
    assert fut.exception() is raised[0]
    # The task's name travels with it.
    assert info.value.starpu_task == "exploding"
    assert any("exploding" in n for n in info.value.__notes__)
    # The same object, from asyncio.
    async def main():
        with pytest.raises(Boom) as info:
            await starpu.task_submit()(boom, "b")
        return info.value

    assert asyncio.run(main()) is raised[1]
    # And from task_wait_for_all: the first failure since the last call.
    with pytest.raises(Boom):
        starpu.task_wait_for_all()  # reports a and b (a first)
    starpu.task_submit(ret_fut=False)(boom, "c")
    with pytest.raises(Boom) as info:
        starpu.task_wait_for_all()
    assert info.value is raised[2]
    assert info.value.starpu_task == "test_the_very_exception_comes_back_from_every_wait.<locals>.boom"
    starpu.task_wait_for_all()  # reported once


def test_a_failed_dependency_passes_its_exception_on(rt):
    def boom():
        raise Boom("first")

    first = starpu.task_submit(name="first")(boom)
    second = starpu.task_submit(name="second")(lambda v: v, first)
    with pytest.raises(Boom) as info:
        second.result()
    assert info.value is first.exception()
    assert info.value.starpu_task == "first"
    with pytest.raises(Boom):
        starpu.task_wait_for_all()
