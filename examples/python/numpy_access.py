"""Handbook 4.3.3: numpy arguments registered zero-copy, access modes (access, delayed,
set_access), acquire / release / unregister, implicit dependencies."""

import numpy as np

import starpu

starpu.init()

a = np.array([1, 2, 3, 4, 5, 6])
e = np.array([0, 0, 0, 0, 0, 0, 0])


@starpu.access(a="R", b="W")
def assign(a, b):
    for i in range(min(np.size(a), np.size(b))):
        b[i] = a[i]


starpu.task_submit()(assign, a, e)
assert list(starpu.acquire(e)) == [1, 2, 3, 4, 5, 6, 0]  # waits for the task
starpu.release(e)


@starpu.access(a="RW", b="R")
def add(a, b):
    for i in range(np.size(a)):
        a[i] = a[i] + b[i]


x = np.array([1, 2, 3])
y = np.array([4, 5, 6])
starpu.acquire(x, mode="R")
fut = starpu.task_submit()(add, x, y)  # held back until x is released
assert not fut.done()
starpu.release(x)
assert list(starpu.acquire(x, mode="R")) == [5, 7, 9]
starpu.release(x)
for obj in (a, e, x, y):
    starpu.unregister(obj)
starpu.shutdown()
print("numpy_access: ok")
