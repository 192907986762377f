"""Handbook 4.4: Handle for Python values and buffers, ret_handle, HandleNumpy, and
partitioning a numpy array along an axis."""

import numpy as np

import starpu
from starpu import Handle, HandleNumpy

starpu.init()

x, y = Handle(2), Handle(3)
res = starpu.task_submit(ret_handle=True)(lambda a, b: a + b, x, y)
assert res.get() == 5

a = np.array([1, 2, 3])
b = np.array([2, 4, 6])
a_h, b_h = Handle(a), Handle(b)


@starpu.access(a="RW", b="R")
def add(a, b):
    for i in range(np.size(a)):
        a[i] = a[i] + b[i]


starpu.task_submit(ret_handle=True)(add, a_h, b_h)
assert list(a_h.acquire(mode="R")) == [3, 6, 9]
a_h.release()
try:
    Handle(a)
except starpu.error as err:
    assert str(err) == "Should not register the same mutable python object once more."
else:
    raise AssertionError("registering a twice must fail")


@starpu.access(b="W")
def assign(a, b):
    for i in range(min(np.size(a, 0), np.size(b, 0))):
        for j in range(min(np.size(a, 1), np.size(b, 1))):
            b[i][j] = a[i][j]


m = np.array([[1, 2, 3], [4, 5, 6]])
m_h = Handle(m)
e_h = HandleNumpy((5, 10), m.dtype)
starpu.task_submit(ret_handle=True)(assign, m_h, e_h)
got = e_h.acquire()
assert got[:2, :3].tolist() == m.tolist() and got[2:].sum() == 0 and got[:, 3:].sum() == 0
e_h.release()

# Partition: a 20 x 10 array in 3 column blocks of 3, 2 and 5 columns.
arr = np.arange(200).reshape(20, 10)
arr_h = Handle(arr)
parts = arr_h.partition(3, 1, [3, 2, 5])
assert arr_h.get_partition_size(parts) == [60, 40, 100]


@starpu.access(a="RW", b="R")
def add_np(a, b):
    np.add(a, b, out=a)


for p in parts:
    starpu.task_submit(ret_handle=True)(add_np, p, p)
out = arr_h.acquire(mode="RW")
assert (out == np.arange(200).reshape(20, 10) * 2).all()
arr_h.release()
arr_h.unpartition(parts, 3)
for h in (x, y, res, a_h, b_h, m_h, e_h, arr_h):
    h.unregister()
starpu.shutdown()
print("handles_partition: ok")
