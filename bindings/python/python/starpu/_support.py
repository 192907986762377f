"""Helpers the extension module calls back (kept in Python where Python does it best)."""

import ctypes
import inspect


def array_at(address, nbytes, shape, strides, dtype):
    """A numpy array over ``nbytes`` of memory at ``address`` the runtime owns (a SCRATCH
    buffer, a REDUX contribution): valid while the task that gets it runs."""
    import numpy

    memory = (ctypes.c_char * max(nbytes, 1)).from_address(address)
    return numpy.ndarray(shape, dtype=dtype, buffer=memory, strides=strides)


def access_modes(func, args, kwargs):
    """``{id(argument): mode}`` from ``func.starpu_access`` (``@starpu.access``): the
    annotation names parameters; this finds the arguments given for them."""
    access = getattr(func, "starpu_access", None) or {}
    modes = {}
    try:
        params = inspect.getfullargspec(func).args
    except TypeError:
        params = []
    for i, name in enumerate(params):
        if name in access and i < len(args):
            modes[id(args[i])] = access[name]
    for name, value in (kwargs or {}).items():
        if name in access:
            modes[id(value)] = access[name]
    unknown = set(access) - set(params) - set(kwargs or {})
    if unknown and params:
        raise ValueError(
            "starpu.access: %s has no parameter named %s"
            % (getattr(func, "__name__", func), ", ".join(sorted(unknown)))
        )
    return modes
