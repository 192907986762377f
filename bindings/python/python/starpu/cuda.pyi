"""Type stubs of starpu.cuda (CUDA implementations of codelets)."""

from typing import Any, Optional, Sequence, Union

from . import DeviceData

class Buffer(DeviceData):
    """A task's data on the GPU, as a CUDA implementation receives it."""
    @property
    def ptr(self) -> int: ...

Dim3 = Union[int, Sequence[int]]

class Program:
    """CUDA C source compiled by NVRTC (or PTX), loaded on each GPU on first use."""
    def __init__(self, source: str, options: Optional[Union[str, Sequence[str]]] = ...) -> None: ...
    @staticmethod
    def from_ptx(ptx: str) -> "Program": ...
    def launch(self, kernel: str, grid: Dim3, block: Dim3, *args: Any, shared_mem: int = ...) -> None: ...

def worker_get_count() -> int: ...
