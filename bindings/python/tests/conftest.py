import pytest

import starpu


@pytest.fixture
def rt():
    """A running runtime with two CPU workers, shut down after the test."""
    starpu.init(ncpus=2, silent=True)
    yield
    while starpu.is_initialized():
        starpu.shutdown()
