"""Bad input gets a clear exception on the process that erred, and nobody hangs: an
unknown rank, data not registered with StarPU-MPI, a Python object (no memory to send),
calls before init. Run by test_mpi.py under mpirun -np 4."""

import numpy as np
import pytest

import starpu
import starpu.mpi as mpi

with pytest.raises(starpu.NotInitializedError, match="StarPU-MPI"):
    mpi.comm_rank()

mpi.init(ncpus=1, silent=True)
me, n = mpi.comm_rank(), mpi.comm_size()
x = np.zeros(2, dtype=np.int64)

with pytest.raises(starpu.InvalidArgumentError, match="rank"):
    mpi.data_register(x, tag=1, rank=n)
with pytest.raises(starpu.InvalidArgumentError, match="not registered with StarPU-MPI"):
    mpi.task_submit(modes=["RW"])(lambda a: None, x)
with pytest.raises(starpu.InvalidArgumentError):
    mpi.send(x, n + 3, 0)
with pytest.raises(starpu.InvalidArgumentError, match="Python object"):
    mpi.data_register(starpu.Handle([1, 2]), tag=2, rank=0)
with pytest.raises(TypeError, match="execute_on_node"):
    mpi.task_submit(bogus=1)
with pytest.raises(starpu.InvalidArgumentError, match="ret_handle"):
    mpi.task_submit(ret_handle=True)

# Still working afterwards.
mpi.data_register(x, tag=1, rank=0)
mpi.task_submit(modes=["RW"])(lambda a: a.fill(7), x)
for r in range(n):
    mpi.get_data_on_node(x, r)
assert starpu.acquire(x).tolist() == [7, 7]
starpu.release(x)
mpi.barrier()
mpi.shutdown()
print("rank %d of %d: bad input ok" % (me, n))
