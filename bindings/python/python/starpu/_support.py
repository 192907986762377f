"""Helpers the extension module calls back (kept in Python where Python does it best)."""

import asyncio
import inspect


def running_loop():
    """The running asyncio event loop (``await`` on a starpu.Future needs one)."""
    return asyncio.get_running_loop()


def wake(afut):
    """Completes the asyncio future an ``await`` waits on (in the loop's thread)."""
    if not afut.done():
        afut.set_result(None)


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
