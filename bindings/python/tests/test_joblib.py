"""starpu.joblib: the handbook's uses."""

import asyncio
from math import log10

import numpy as np
import pytest

import starpu

jl = pytest.importorskip("starpu.joblib")


def test_generator_of_delayed_calls(rt):
    out = jl.Parallel(n_jobs=2)(jl.delayed(log10)(10**i) for i in range(10))
    assert out == [float(i) for i in range(10)]


def test_list_of_delayed_calls(rt):
    def multi(a, b):
        return a * b

    def sub(a, b, c):
        return a - b - c, a - b

    calls = [jl.delayed(print)("hello"), jl.delayed(multi)(2, 3), jl.delayed(sub)(6, 2, 5.9)]
    assert jl.Parallel(n_jobs=2)(calls) == [None, 6, (6 - 2 - 5.9, 4)]


def multi_array(a, b):
    for i in range(len(a)):
        a[i] = a[i] * b[i]


def test_arrays_are_updated_in_place_generators_are_not(rt):
    A = np.arange(10)
    B = np.arange(10, 20, 1)
    jl.Parallel(n_jobs=2)(jl.delayed(multi_array)((i for i in A), (j for j in B)))
    assert list(A) == list(range(10))
    jl.Parallel(n_jobs=2)(jl.delayed(multi_array)(A, B))
    assert list(A) == [0, 11, 24, 39, 56, 75, 96, 119, 144, 171]
    jl.Parallel(n_jobs=2)(jl.delayed(multi_array)(b=(j for j in B), a=A))
    assert list(A) == [0, 121, 288, 507, 784, 1125, 1536, 2023, 2592, 3249]


def test_scalars_and_arrays_mixed(rt):
    def scal(a, t):
        for i in range(len(t)):
            t[i] = t[i] * a

    A = np.arange(10)
    jl.Parallel(n_jobs=2)(jl.delayed(scal)(2, A))
    assert list(A) == [2 * i for i in range(10)]
    jl.Parallel(n_jobs=2)(jl.delayed(scal)(2, (i for i in A)))
    assert list(A) == [2 * i for i in range(10)]


def test_future_mode(rt, capsys):
    async def main():
        fut = jl.Parallel(n_jobs=3, mode="future", end_msg="all done")(
            jl.delayed(log10)(10**i) for i in range(6))
        return await fut

    # As in StarPU: one result per block, each the list of its calls' results.
    assert asyncio.run(main()) == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert capsys.readouterr().out.startswith("all done")


def test_negative_n_jobs(rt):
    assert jl.Parallel(n_jobs=-1)(jl.delayed(abs)(-i) for i in range(4)) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        jl.Parallel(n_jobs=-10)(jl.delayed(abs)(1) for _ in range(2))
