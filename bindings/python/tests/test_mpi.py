"""starpu.mpi under a real MPI: each program of tests/mpi runs under
`mpirun --oversubscribe -np 4` and every rank must say it is done. Skipped, saying why,
in builds without the `mpi` feature or without mpirun."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NP = 4
PROGRAMS = Path(__file__).resolve().parent / "mpi"


def mpi_available():
    try:
        import starpu.mpi  # noqa: F401
    except ImportError as e:
        return str(e)
    if shutil.which("mpirun") is None:
        return "mpirun is not installed (openmpi-bin)"
    return None


def mpirun(args, timeout=120, ok=True):
    """Runs `python3 args...` on NP processes; returns the output of all ranks (`ok`: it
    must succeed, else fail)."""
    why = mpi_available()
    if why:
        pytest.skip(why)
    # Open MPI refuses to start as root unless told; CI runs as root.
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               STARPU_SILENT="1")
    done = subprocess.run(["mpirun", "--oversubscribe", "-np", str(NP), sys.executable]
                          + args, capture_output=True, text=True, timeout=timeout, env=env)
    assert (done.returncode == 0) == ok, done.stdout + done.stderr
    return done.stdout + ("" if ok else done.stderr)


@pytest.mark.parametrize("program,says", [("ring.py", "ring ok"),
                                          ("owner_computes.py", "owner computes ok"),
                                          ("bad_input.py", "bad input ok")])
def test_program_under_mpirun(program, says):
    out = mpirun([str(PROGRAMS / program)])
    # Searched in the whole output, not line by line: mpirun forwards each rank's output
    # as it comes, and two ranks' lines were seen run together on one line.
    said = re.findall(r"rank (\d+) of (\d+): " + re.escape(says), out)
    assert sorted(said) == [(str(r), str(NP)) for r in range(NP)], out


def test_an_uncaught_exception_ends_the_job_instead_of_hanging():
    out = mpirun([str(PROGRAMS / "uncaught.py")], timeout=60, ok=False)
    assert "RuntimeError: uncaught on rank 1" in out
