"""Handbook 4.6: starpu.joblib.Parallel with generators, lists of delayed calls, numpy
arrays (updated in place) and scalars mixed with arrays."""

from math import log10

import numpy as np

import starpu
import starpu.joblib

starpu.init()
P, delayed = starpu.joblib.Parallel, starpu.joblib.delayed

assert P(n_jobs=2)(delayed(log10)(10**i) for i in range(10)) == [float(i) for i in range(10)]
parallel = P(n_jobs=2)
assert parallel(delayed(log10)(10**i) for i in range(10)) == [float(i) for i in range(10)]


def multi(a, b):
    return a * b


def add(a, b, c, d):
    return a + b + c + d


def sub(a, b, c):
    return a - b - c, a - b


calls = [delayed(multi)(2, 3), delayed(add)(1.2, 2.5, 3.6, 4.9), delayed(sub)(6, 2, 5.9)]
assert P(n_jobs=2)(calls) == [6, 1.2 + 2.5 + 3.6 + 4.9, (6 - 2 - 5.9, 4)]


def multi_array(a, b):
    for i in range(len(a)):
        a[i] = a[i] * b[i]


A = np.arange(10)
B = np.arange(10, 20, 1)
P(n_jobs=2)(delayed(multi_array)((i for i in A), (j for j in B)))
assert list(A) == list(range(10))  # generators: A is not modified
P(n_jobs=2)(delayed(multi_array)(A, B))
assert list(A) == [0, 11, 24, 39, 56, 75, 96, 119, 144, 171]
P(n_jobs=2)(delayed(multi_array)(b=(j for j in B), a=A))
assert list(A) == [0, 121, 288, 507, 784, 1125, 1536, 2023, 2592, 3249]


def scal(a, t):
    for i in range(len(t)):
        t[i] = t[i] * a


C = np.arange(10)
P(n_jobs=2)(delayed(scal)(2, C))
assert list(C) == [2 * i for i in range(10)]
starpu.shutdown()
print("joblib_parallel: ok")
