"""The handbook's token ring in Python: each process receives the token from the previous
one, increments it in a task, and passes it on, LOOPS times around the ring; the last
process checks the count. Then the same ring with detached transfers, ordered with the
tasks by the data. Run by test_mpi.py under mpirun -np 4."""

import numpy as np

import starpu
import starpu.mpi as mpi

LOOPS = 5

mpi.init(ncpus=1, silent=True)
me, n = mpi.comm_rank(), mpi.comm_size()


@starpu.access(t="RW")
def increment(t):
    t += 1


# Blocking send / recv.
token = np.zeros(1, dtype=np.int64)
for lap in range(LOOPS):
    if lap > 0 or me > 0:
        mpi.recv(token, (me - 1) % n, lap)
    starpu.task_submit()(increment, token)
    if lap < LOOPS - 1 or me < n - 1:
        mpi.send(token, (me + 1) % n, lap + (me == n - 1))
starpu.task_wait_for_all()
if me == n - 1:
    assert token[0] == LOOPS * n, token

# Detached transfers: nothing waits until the end.
token2 = np.zeros(1, dtype=np.int64)
for lap in range(LOOPS):
    tag = lap * n + me
    if lap > 0 or me > 0:
        mpi.irecv_detached(token2, (me - 1) % n, tag)
    starpu.task_submit()(increment, token2)
    if lap < LOOPS - 1 or me < n - 1:
        mpi.isend_detached(token2, (me + 1) % n, tag + 1)
mpi.wait_for_all()
value = int(starpu.acquire(token2, mode="R")[0])
starpu.release(token2)
if me == n - 1:
    assert value == LOOPS * n, value
mpi.shutdown()
print("rank %d of %d: ring ok" % (me, n))
