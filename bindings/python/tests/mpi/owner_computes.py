"""Owner-computes task insertion: rank r owns parts[r] (r + 1 everywhere) and rank 0
owns the total; every process inserts the same tasks; the additions run on rank 0 (the
owner of what they write), the parts are sent there; every process then gets the total
and checks it. Then a distributed reduction: each process contributes in REDUX mode, the
owner reduces, every process checks. Run by test_mpi.py under mpirun -np 4."""

import numpy as np

import starpu
import starpu.mpi as mpi

mpi.init(ncpus=1, silent=True)
me, n = mpi.comm_rank(), mpi.comm_size()
expected = n * (n + 1) // 2

# Each process registers every piece, each with its own tag; only the owner's copy holds
# the value (the others get theirs through StarPU-MPI).
parts = [np.full(4, r + 1 if r == me else -1, dtype=np.int64) for r in range(n)]
total = np.zeros(4, dtype=np.int64)
for r, p in enumerate(parts):
    mpi.data_register(p, tag=r, rank=r)
mpi.data_register(total, tag=n, rank=0)
assert mpi.data_get_rank(total) == 0 and mpi.data_get_tag(parts[n - 1]) == n - 1


@starpu.access(t="RW", p="R")
def add(t, p):
    t += p
    return mpi.comm_rank()


ran = [mpi.task_submit()(add, total, p) for p in parts]
if me == 0:
    assert [f.result() for f in ran] == [0] * n
else:
    assert ran == [None] * n  # the tasks ran on rank 0 only
for r in range(n):
    mpi.get_data_on_node(total, r)
assert starpu.acquire(total, mode="R").tolist() == [expected] * 4, total
starpu.release(total)

# A task placed explicitly: rank n - 1 doubles part 0 (owned by rank 0), which then goes
# back to its owner.
@starpu.access(p="RW")
def double(p):
    p *= 2


mpi.task_submit(execute_on_node=n - 1)(double, parts[0])
mpi.get_data_on_node(parts[0], 1)
if me in (0, 1):
    assert starpu.acquire(parts[0], mode="R").tolist() == [2] * 4
    starpu.release(parts[0])

# A distributed reduction: every process adds its rank + 1 to its own contribution.
acc = starpu.Handle(np.zeros(1, dtype=np.int64))


def acc_init(a):
    a[:] = 0


def acc_redux(a, b):
    a += b


acc.set_reduction_methods(acc_redux, acc_init)
mpi.data_register(acc, tag=n + 1, rank=0)


def contribute(a, k):
    a += k


for r in range(n):
    mpi.task_submit(execute_on_node=r, modes=["REDUX"])(contribute, acc, r + 1)
mpi.redux_data(acc)
for r in range(n):
    mpi.get_data_on_node(acc, r)
assert acc.acquire(mode="R").tolist() == [expected]
acc.release()

mpi.shutdown()
print("rank %d of %d: owner computes ok" % (me, n))
