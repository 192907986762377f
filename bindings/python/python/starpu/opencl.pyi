"""Type stubs of starpu.opencl (OpenCL implementations of codelets)."""

from typing import Any, Optional, Sequence, Union

from . import DeviceData

class Buffer(DeviceData):
    """A task's data on the OpenCL device, as an OpenCL implementation receives it."""
    @property
    def first(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def mem(self) -> int: ...

class Local:
    """A `__local` kernel argument of `nbytes` per work group."""
    nbytes: int
    def __init__(self, nbytes: int) -> None: ...

Size = Union[int, Sequence[int]]

class Program:
    """OpenCL C source, built for each device on first use."""
    def __init__(self, source: str, options: str = ...) -> None: ...
    def launch(self, kernel: str, global_size: Size, *args: Any, local_size: Optional[Size] = ...) -> None: ...

def worker_get_count() -> int: ...
