"""Handbook 4.3.1-4.3.2: submitting functions, futures awaited in asyncio or waited for,
the delayed decorator, a future as another task's argument, a function given by name."""

import asyncio
from math import sqrt  # noqa: F401  (submitted by name below)

import starpu

starpu.init()


def add(a, b):
    return a + b


def sub(x, a):
    return x - a


@starpu.delayed
def add_deco(a, b):
    return a + b


@starpu.delayed(name="add", color=2, perfmodel="add_deco")
def add_opts(a, b):
    return a + b


async def main():
    assert await starpu.task_submit()(add, 1, 2) == 3
    assert await add_deco(1, 2) == 3
    assert await add_opts(1, 2) == 3
    fut1 = starpu.task_submit()(add, 1, 2)
    fut2 = starpu.task_submit()(sub, fut1, 1)  # waits for fut1's task, gets its value
    assert await fut2 == 2
    assert await starpu.task_submit()("sqrt", 4) == 2.0


asyncio.run(main())
# Without an event loop: result() waits (the GIL released meanwhile).
assert starpu.task_submit()(add, 40, 2).result() == 42
starpu.shutdown()
print("hello_futures: ok")
