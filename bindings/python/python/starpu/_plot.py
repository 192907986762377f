"""``starpu.perfmodel_plot``: an SVG picture of a performance model's timings (no plotting
library needed): every task run as a point (data size, microseconds), the mean per size as
a line, and the runtime's learned model (its history entries: mean per footprint, the
values dm/dmda schedule with and the model file keeps) as squares, both axes logarithmic
as in StarPU's ``starpu_perfmodel_plot``."""

import math
import os
import subprocess
import sys

from . import _core


def _scale(lo, hi, a, b):
    lo, hi = math.log10(lo), math.log10(hi)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    return lambda v: a + (math.log10(v) - lo) / (hi - lo) * (b - a), (lo, hi)


def plot(symbol, view=False, path=None):
    samples = _core._perfmodel_samples(symbol)
    learned = [(size, mean) for _, size, mean, _, n in _core._perfmodel_history(symbol) or [] if n]
    if samples is None and not learned:
        raise ValueError("no performance model named %r (give perfmodel=%r to tasks)" % (symbol, symbol))
    samples = samples or []
    if not samples and not learned:
        raise ValueError("performance model %r has no measurement yet" % symbol)
    path = path or "starpu_%s.svg" % symbol
    width, height, margin = 640, 420, 60
    sizes = [max(s, 1) for s, _ in samples]
    times = [max(t, 1e-3) for _, t in samples]
    learned = [(max(s, 1), max(t, 1e-3)) for s, t in learned]
    all_sizes = sizes + [s for s, _ in learned]
    all_times = times + [t for _, t in learned]
    sx, (x0, x1) = _scale(min(all_sizes), max(all_sizes), margin, width - 20)
    sy, (y0, y1) = _scale(min(all_times), max(all_times), height - margin, 20)
    means = {}
    for s, t in zip(sizes, times):
        means.setdefault(s, []).append(t)
    line = " ".join(
        "%.1f,%.1f" % (sx(s), sy(sum(ts) / len(ts))) for s, ts in sorted(means.items())
    )
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">' % (width, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="%d" y="16" font-size="14">Model for codelet %s (%d runs)</text>'
        % (margin, symbol, len(samples)),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
        % (margin, height - margin, width - 20, height - margin),
        '<line x1="%d" y1="20" x2="%d" y2="%d" stroke="black"/>' % (margin, margin, height - margin),
        '<text x="%d" y="%d" font-size="12">data size (bytes or sizebase), log scale: %.3g .. %.3g</text>'
        % (margin, height - 20, 10 ** x0, 10 ** x1),
        '<text x="4" y="%d" font-size="12" transform="rotate(-90 12,%d)">time (us), log: %.3g .. %.3g</text>'
        % (height // 2 + 80, height // 2, 10 ** y0, 10 ** y1),
    ]
    out += [
        '<circle cx="%.1f" cy="%.1f" r="2.5" fill="steelblue"/>' % (sx(s), sy(t))
        for s, t in zip(sizes, times)
    ]
    if line:
        out.append('<polyline points="%s" fill="none" stroke="firebrick" stroke-width="2"/>' % line)
    out += [
        '<rect x="%.1f" y="%.1f" width="7" height="7" fill="darkorange"/>' % (sx(s) - 3.5, sy(t) - 3.5)
        for s, t in learned
    ]
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    if view:
        opener = "open" if sys.platform == "darwin" else "xdg-open"
        try:
            subprocess.Popen([opener, os.path.abspath(path)])
        except OSError:
            pass
    return path
