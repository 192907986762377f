"""An exception nobody catches on rank 1, while rank 1 waits for data that never comes
and the others wait for rank 1 at a barrier: the job must end (mpirun reports the failed
process) instead of hanging. Run by test_mpi.py under mpirun -np 4."""

import numpy as np

import starpu.mpi as mpi

mpi.init(ncpus=1, silent=True)
x = np.zeros(1)
if mpi.comm_rank() == 1:
    mpi.irecv_detached(x, 0, 5)
    raise RuntimeError("uncaught on rank 1")
mpi.barrier()
mpi.shutdown()
