"""The README's programs run as written (each in a fresh interpreter: it starts and stops
the runtime itself; the StarPU-MPI one under mpirun, see test_mpi)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import starpu

README = Path(__file__).resolve().parents[1] / "README.md"


def section(title):
    """The first Python block under `## title`."""
    text = README.read_text()
    return re.search(r"## %s\n.*?```python\n(.*?)```" % re.escape(title), text,
                     re.S).group(1)


def run_section(title, env=None):
    """Runs the first Python block under `## title` and asserts that it succeeds."""
    program = section(title)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr


def test_readme_program_runs():
    run_section("A first program")


def test_readme_opencl_program_runs(monkeypatch):
    env = dict(os.environ, STARPU_OPENCL_ON_CPUS="1")
    monkeypatch.setenv("STARPU_OPENCL_ON_CPUS", "1")
    starpu.init(ncpus=1, silent=True)
    try:
        if starpu.opencl.worker_get_count() == 0:
            pytest.skip("no OpenCL device (install pocl-opencl-icd)")
    finally:
        starpu.shutdown()
    run_section("OpenCL", env)


def test_readme_mpi_program_runs(tmp_path):
    from test_mpi import mpirun

    (tmp_path / "sum.py").write_text(section("StarPU-MPI"))
    mpirun([str(tmp_path / "sum.py")])
