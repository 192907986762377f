#!/usr/bin/env python3
"""Python driver of the shared conformance suite.

    driver.py PLAN            executes a plan written by the harness
    driver.py --capabilities  prints what this driver can express

Each operation goes through the public `starpu` Python module only (codelets are
`starpu.Codelet`s of Python functions working on numpy arrays, and with `impl=opencl` of
OpenCL functions launching one OpenCL kernel on the device copies (`starpu.opencl`);
tasks are submitted with `starpu.task_submit` or described with `starpu.Task`). Kernels and callbacks print events
(`@ev TICK start|end|cb|report TASK ...`) on one clock; `clock` prints `@clock TICK`; the
other operations print their canonical lines. Protocol: tests/conformance/README.md.

Exit status: 0 when the plan ran to its end, 2 for a malformed plan line.
"""

import os
import sys
import threading
import time

import numpy as np

import starpu

# --------------------------------------------------------------------------------------
# Output and events: one lock, one counter, one condition.

ev_cond = threading.Condition()
ev_clock = 0
started = set()
called = set()
gates = set()


def emit(line):
    """Prints one whole line (the caller holds ev_cond, or no event can race it)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def event(kind, task, text=""):
    global ev_clock
    with ev_cond:
        ev_clock += 1
        if kind == "start":
            started.add(task)
        elif kind == "cb":
            called.add(task)
        emit("@ev %d %s %s%s" % (ev_clock, kind, task, " " + text if text else ""))
        ev_cond.notify_all()


def output(line):
    with ev_cond:
        emit(line)


# --------------------------------------------------------------------------------------
# Errors.

plan_path = "?"
lineno = 0


class ScenarioError(Exception):
    pass


def code_of(exc):
    """The return code a C program would get: the negative errno the exception carries."""
    return str(-exc.errno)


def attempt(verb, subject, fn):
    """Runs one StarPU operation; prints `error VERB [SUBJECT] CODE` when it fails."""
    try:
        return fn()
    except starpu.StarPUError as e:
        output("error %s%s %s" % (verb, " " + subject if subject else "", code_of(e)))
        return None


# --------------------------------------------------------------------------------------
# Kernels: called with the task's data (numpy arrays), then its record, then its values.


class Record:
    """What a kernel needs to know about its task (carried as an ordinary argument)."""

    def __init__(self, name, delay, ref):
        self.name, self.delay, self.ref = name, delay, ref


def split(args):
    for i, a in enumerate(args):
        if isinstance(a, Record):
            return list(args[:i]), a, list(args[i + 1:])
    raise RuntimeError("a kernel got no task record")


def k_noop(bufs, vals, rec):
    pass


def k_set(bufs, vals, rec):
    bufs[0][...] = vals[0]


def k_add(bufs, vals, rec):
    np.add(bufs[0], vals[0], out=bufs[0])


def k_scale(bufs, vals, rec):
    np.multiply(bufs[0], vals[0], out=bufs[0])


def k_affine(bufs, vals, rec):
    bufs[0][...] = bufs[0] * vals[0] + vals[1]


def k_axpy(bufs, vals, rec):
    bufs[0].flat[:] = bufs[0].ravel() + vals[0] * bufs[1].ravel()


def k_copy(bufs, vals, rec):
    bufs[0].flat[:] = bufs[1].ravel()


def k_sum(bufs, vals, rec):
    bufs[0][...] = sum(int(b.sum()) for b in bufs[1:])


def k_try_acquire(bufs, vals, rec):
    try:
        rec.ref.acquire("R")
        rec.ref.release()
        code = "0"
    except starpu.StarPUError as e:
        code = code_of(e)
    event("report", rec.name, "acquire " + code)


def k_try_wait_all(bufs, vals, rec):
    try:
        starpu.task_wait_for_all()
        code = "0"
    except starpu.StarPUError as e:
        code = code_of(e)
    event("report", rec.name, "wait_all " + code)


def k_gate(bufs, vals, rec):
    with ev_cond:
        ev_cond.wait_for(lambda: vals[0] in gates)


def k_worker(bufs, vals, rec):
    event("report", rec.name, "worker %d" % starpu.worker_get_id())


def k_spmd(bufs, vals, rec):
    size, rank = starpu.combined_worker_get_size(), starpu.combined_worker_get_rank()
    v = bufs[0]
    base, rest = divmod(len(v), size)
    first = rank * base + min(rank, rest)
    v[first:first + base + (rank < rest)] = 10 * size + rank


def k_clfail(bufs, vals, rec):
    pass  # its OpenCL implementation is the one that fails


KERNELS = {
    "noop": k_noop, "set": k_set, "add": k_add, "scale": k_scale, "affine": k_affine,
    "axpy": k_axpy, "copy": k_copy, "sum": k_sum, "try_acquire": k_try_acquire,
    "try_wait_all": k_try_wait_all, "gate": k_gate, "worker": k_worker, "spmd": k_spmd,
    "clfail": k_clfail,
}

# OpenCL implementations: one kernel applies the operation to the device copy of b0
# (reading b1 for the binary ones), walking a matrix by its row stride from `first`.
CL_SOURCE = """
enum { SET, ADD, SCALE, AFFINE, AXPY, COPY };
__kernel void apply(int op, __global long *b0, unsigned off0, unsigned nx0, unsigned ld0,
                    __global const long *b1, unsigned off1, unsigned nx1, unsigned ld1,
                    long k0, long k1, unsigned n)
{
    const size_t i = get_global_id(0);
    if (i >= n) return;
    __global long *x = b0 + off0 + (i / nx0) * ld0 + i % nx0;
    const long y = b1[off1 + (i / nx1) * ld1 + i % nx1];
    switch (op) {
    case SET: *x = k0; break;
    case ADD: *x += k0; break;
    case SCALE: *x *= k0; break;
    case AFFINE: *x = *x * k0 + k1; break;
    case AXPY: *x += k0 * y; break;
    case COPY: *x = y; break;
    }
}
"""
cl_program = None


def device_view(b):
    """(offset, row length, row stride, count) of a device buffer, in elements."""
    nx = b.shape[-1] if b.ndim else 1
    ld = b.strides[0] if b.ndim == 2 else nx
    return [np.uint32(b.first), np.uint32(nx), np.uint32(ld)], b.size


def cl_apply(op, nvalues, binary):
    def run(bufs, vals, rec):
        global cl_program
        if cl_program is None:
            cl_program = starpu.opencl.Program(CL_SOURCE)
        b0 = bufs[0]
        b1 = bufs[1] if binary else b0
        v0, n = device_view(b0)
        v1, n1 = device_view(b1)
        if n1 != n:
            raise ValueError("buffers of different sizes")
        k = [np.int64(v) for v in (vals[:nvalues] + [0, 0])[:2]]
        cl_program.launch("apply", n, np.int32(op), b0, *v0, b1, *v1, *k, np.uint32(n))

    return run


def cl_fail(bufs, vals, rec):
    starpu.opencl.Program("__kernel void f( {").launch("f", 1)


OPENCL_KERNELS = {
    "noop": k_noop, "set": cl_apply(0, 1, False), "add": cl_apply(1, 1, False),
    "scale": cl_apply(2, 1, False), "affine": cl_apply(3, 2, False),
    "axpy": cl_apply(4, 1, True), "copy": cl_apply(5, 0, True), "clfail": cl_fail,
}


def make_kernel(fn):
    def kernel(*args):
        bufs, rec, vals = split(args)
        # A parallel task's ranks all run the kernel: rank 0 speaks for the task.
        speaks = starpu.combined_worker_get_rank() == 0
        if speaks:
            event("start", rec.name)
        if rec.delay:
            time.sleep(rec.delay / 1000)
        try:
            fn(bufs, vals, rec)
        finally:
            if speaks:
                event("end", rec.name)

    return kernel


# The reduction methods of `redux_methods`: a sum.
def redux_init(a):
    a[...] = 0


def redux_sum(a, b):
    a += b


# --------------------------------------------------------------------------------------
# Tables.

codelets = {}
data = {}  # name -> Handle
buffers = {}  # name -> the numpy array registered (for `buffer`)
held = {}  # name -> the object an `acquire` returned
children = {}  # parent name -> list of child handles
plans = {}  # plan name -> (parent name, child handles)
ctxs = {"global": starpu.SchedCtx.GLOBAL}  # name -> starpu.SchedCtx
transactions = {}  # name -> starpu.Transaction
tasks = {}  # name -> starpu.Task
kept = []  # futures, so that nothing is collected early


def handle(name):
    if name == "null":
        return None
    if name not in data:
        raise ScenarioError("unknown data %r" % name)
    return data[name]


def to_int(s):
    try:
        return int(s)
    except ValueError:
        raise ScenarioError("%r is not an integer" % s) from None


def show(arr):
    a = np.asarray(arr)
    if a.ndim == 2:
        return " | ".join(" ".join(str(int(v)) for v in row) for row in a)
    return " ".join(str(int(v)) for v in a.ravel())


# --------------------------------------------------------------------------------------
# Operations.


def op_init(args):
    opts = dict(a.split("=", 1) for a in args)
    unknown = set(opts) - {"ncpus", "sched", "opencl", "limit_opencl_mem"}
    if unknown:
        raise ScenarioError("unknown init option %r" % sorted(unknown)[0])
    nopencl = to_int(opts.get("opencl", "0"))  # PoCL also needs STARPU_OPENCL_ON_CPUS=1
    if "limit_opencl_mem" in opts:
        os.environ["STARPU_LIMIT_OPENCL_MEM"] = str(to_int(opts["limit_opencl_mem"]))
    done = attempt("init", None, lambda: starpu.init(ncpus=to_int(opts.get("ncpus", "-1")),
                                                    sched_policy_name=opts.get("sched"),
                                                    nopencl=nopencl) or True)
    if done and starpu.opencl.worker_get_count() < nopencl:
        print("%d OpenCL worker(s) asked for, %d found: no OpenCL device (PoCL needs "
              "STARPU_OPENCL_ON_CPUS=1)" % (nopencl, starpu.opencl.worker_get_count()),
              file=sys.stderr)
        starpu.shutdown()
        sys.exit(77)


def op_shutdown(args):
    attempt("shutdown", None, starpu.shutdown)


def op_data(args):
    name, kind, rest = args[0], args[1], args[2:]
    home_none = "home=none" in rest
    rest = [r for r in rest if r != "home=none"]
    if kind == "variable":
        shape, values = (), rest
    elif kind == "vector":
        shape, values = (to_int(rest[0]),), rest[1:]
    elif kind == "matrix":
        shape, values = (to_int(rest[1]), to_int(rest[0])), rest[2:]
    else:
        raise ScenarioError("unknown data kind %r" % kind)
    if home_none:
        h = attempt("data", name, lambda: starpu.HandleNumpy(shape, np.int64))
        buffers.pop(name, None)
    else:
        arr = np.zeros(shape, dtype=np.int64)
        if values:
            arr[...] = np.array([to_int(v) for v in values], dtype=np.int64).reshape(shape)
        h = attempt("data", name, lambda: starpu.Handle(arr))
        buffers[name] = arr
    if h is not None:
        data[name] = h


def op_read(args):
    h = handle(args[0])

    def read():
        v = h.acquire("R")
        text = show(v)
        h.release()
        output("read %s = %s" % (args[0], text))

    attempt("read", args[0], read)


def op_acquire(args):
    h = handle(args[0])
    v = attempt("acquire", args[0], lambda: h.acquire(args[1]))
    if v is not None:
        held[args[0]] = v


def op_show(args):
    output("show %s = %s" % (args[0], show(held[args[0]])))


def op_store(args):
    arr = held[args[0]]
    arr[...] = np.array([to_int(v) for v in args[1:]], dtype=np.int64).reshape(arr.shape)


def op_release(args):
    attempt("release", args[0], handle(args[0]).release)
    held.pop(args[0], None)


def op_buffer(args):
    output("buffer %s = %s" % (args[0], show(buffers[args[0]])))


# The partition filters: (numpy axis of an array of shape (ny, nx), kind they apply to).
FILTERS = {"vector_block": 0, "matrix_block": 1, "matrix_vertical_block": 0}


def op_partition(args):
    name, filt, n = args[0], args[1], to_int(args[2])
    h = handle(name)
    kids = attempt("partition", name, lambda: h.partition(n, axis_of(filt), synchronous=True))
    if kids is not None:
        children[name] = kids
        for i, k in enumerate(kids):
            data["%s.%d" % (name, i)] = k


def op_unpartition(args):
    name = args[0]
    if attempt("unpartition", name, lambda: handle(name).unpartition() or True):
        forget_children(name)


def axis_of(filt):
    if filt not in FILTERS:
        raise ScenarioError("unknown filter %r" % filt)
    return FILTERS[filt]


def forget_children(name):
    for i in range(len(children.pop(name, []))):
        data.pop("%s.%d" % (name, i), None)


def op_partition_plan(args):
    name, filt, n, plan = args[0], args[1], to_int(args[2]), args[3]
    h = handle(name)
    kids = attempt("partition_plan", name, lambda: h.partition(n, axis_of(filt)))
    if kids is not None:
        plans[plan] = (name, kids)
        for i, k in enumerate(kids):
            data["%s.%d" % (plan, i)] = k


def the_plan(parent, plan):
    if plans.get(plan, (None,))[0] != parent:
        raise ScenarioError("no plan %r of %r" % (plan, parent))
    return plans[plan][1]


def plan_switch(method):
    """The operation calling Handle.METHOD(children of plan P) on `H P`. StarPU's calls
    return void: a refused switch is only said on stderr."""

    def op(args):
        kids = the_plan(args[0], args[1])
        try:
            getattr(handle(args[0]), method)(kids)
        except starpu.StarPUError as e:
            print("%s: %s" % (method, e), file=sys.stderr)
        if method == "partition_clean":  # the children go with the plan
            for i in range(len(plans.pop(args[1])[1])):
                data.pop("%s.%d" % (args[1], i), None)

    return op


def op_nplans(args):
    output("nplans %s = %d" % (args[0], handle(args[0]).nplans))


PLAN_SWITCHES = ["partition_submit", "partition_readonly_submit",
                 "partition_readwrite_upgrade_submit", "partition_readonly_downgrade_submit",
                 "unpartition_submit", "unpartition_readonly_submit", "partition_clean"]


def op_redux_methods(args):
    attempt("redux_methods", args[0],
            lambda: handle(args[0]).set_reduction_methods(redux_sum, redux_init))


# --------------------------------------------------------------------------------------
# Scheduling contexts and transactions.


def the_ctx(name):
    if name not in ctxs:
        raise ScenarioError("unknown context %r" % name)
    return ctxs[name]


def op_ctx(args):
    name, workers, policy = args[0], [], "eager"
    for a in args[1:]:
        if a.startswith("policy="):
            policy = a[7:]
        else:
            workers.append(to_int(a))
    ctx = attempt("ctx", name, lambda: starpu.SchedCtx(workers, name, policy=policy))
    if ctx is not None:
        ctxs[name] = ctx


def op_ctx_remove(args):
    attempt("ctx_remove", args[0],
            lambda: the_ctx(args[0]).remove_workers([to_int(a) for a in args[1:]]))


def op_ctx_inheritor(args):
    attempt("ctx_inheritor", args[0], lambda: the_ctx(args[0]).set_inheritor(the_ctx(args[1])))


def op_ctx_delete(args):
    attempt("ctx_delete", args[0], the_ctx(args[0]).delete)


def epoch_runs(word):
    if word not in ("yes", "no"):
        raise ScenarioError("expected yes or no, not %r" % word)
    return word == "yes"


def the_trs(name):
    if name not in transactions:
        raise ScenarioError("unknown transaction %r" % name)
    return transactions[name]


def op_trs_open(args):
    start = epoch_runs(args[1])
    trs = attempt("trs_open", args[0], lambda: starpu.Transaction(start))
    if trs is not None:
        transactions[args[0]] = trs


def op_trs_next(args):
    start = epoch_runs(args[1])
    attempt("trs_next", args[0], lambda: the_trs(args[0]).next_epoch(start))


def op_trs_close(args):
    attempt("trs_close", args[0], transactions.pop(args[0]).close)


def op_unregister(args):
    attempt("unregister", args[0], handle(args[0]).unregister)


def op_unregister_no_coherency(args):
    attempt("unregister_no_coherency", args[0], handle(args[0]).unregister_no_coherency)


def op_invalidate(args):
    attempt("invalidate", args[0], handle(args[0]).invalidate)


def op_seqcons(args):
    handle(args[0]).set_sequential_consistency(bool(to_int(args[1])))


def op_codelet(args):
    name, kernel, modes = args[0], args[1], args[2:]
    if kernel not in KERNELS:
        raise ScenarioError("unknown kernel %r" % kernel)
    # impl=cpu (the default), impl=opencl, impl=cpu+opencl: the implementations.
    impls = "cpu"
    if modes and modes[-1].startswith("impl="):
        impls, modes = modes[-1][5:], modes[:-1]
    if modes == ["*"]:
        modes = None
    cpu = make_kernel(KERNELS[kernel]) if "cpu" in impls.split("+") else None
    opencl = None
    if "opencl" in impls.split("+"):
        if kernel not in OPENCL_KERNELS:
            raise ScenarioError("kernel %r has no OpenCL implementation" % kernel)
        opencl = make_kernel(OPENCL_KERNELS[kernel])
    kind = "spmd" if kernel == "spmd" else "seq"
    codelets[name] = starpu.Codelet(cpu, modes=modes, name=name, type=kind, opencl=opencl)


class TaskLine:
    """What the options of an insert/task line give."""

    def __init__(self, name):
        self.opts, self.values, self.delay, self.ref, self.callback = {"name": name}, [], 0, None, False


# The options of insert/task lines: name -> (lines it may appear on, how it applies).
OPTIONS = {
    "value": ("insert task", lambda t, v: t.values.append(to_int(v))),
    "ref": ("insert task", lambda t, v: setattr(t, "ref", handle(v))),
    "delay": ("insert task", lambda t, v: setattr(t, "delay", to_int(v))),
    "prio": ("insert task", lambda t, v: t.opts.update(priority=to_int(v))),
    "callback": ("insert task", lambda t, v: setattr(t, "callback", True)),
    "sync": ("insert task", lambda t, v: t.opts.update(synchronous=1)),
    "tag": ("task", lambda t, v: t.opts.update(tag=to_int(v))),
    "nodetach": ("task", lambda t, v: t.opts.update(detach=False)),
    "ctx": ("insert task", lambda t, v: t.opts.update(sched_ctx=the_ctx(v))),
    "trs": ("insert task", lambda t, v: t.opts.update(transaction=the_trs(v))),
}


def task_parts(args, verb):
    """(codelet, call arguments, task options) of an insert/task line."""
    name, cl = args[0], args[1]
    if cl not in codelets:
        raise ScenarioError("unknown codelet %r" % cl)
    handles, modes, line = [], [], TaskLine(name)
    for tok in args[2:]:
        if ":" in tok and "=" not in tok:
            mode, h = tok.rsplit(":", 1)
            modes.append(mode)
            handles.append(handle(h))
            continue
        key, _, value = tok.partition("=")
        if key not in OPTIONS or verb not in OPTIONS[key][0].split():
            raise ScenarioError("unknown task option %r" % tok)
        OPTIONS[key][1](line, value)
    if line.callback:
        line.opts["callback"] = lambda: event("cb", name)
    line.opts["modes"] = modes
    call = handles + [Record(name, line.delay, line.ref)] + line.values
    return codelets[cl], call, line.opts


def op_insert(args):
    cl, call, opts = task_parts(args, "insert")
    fut = attempt("insert", args[0], lambda: starpu.task_submit(**opts)(cl, *call))
    if fut is not None:
        kept.append(fut)


def op_task(args):
    cl, call, opts = task_parts(args, "task")
    tasks[args[0]] = starpu.Task(cl, *call, **opts)


def the_task(name):
    if name not in tasks:
        raise ScenarioError("unknown task %r" % name)
    return tasks[name]


def op_deps(args):
    attempt("deps", args[0], lambda: the_task(args[0]).declare_deps(*[the_task(t) for t in args[1:]]))


def op_submit(args):
    attempt("submit", args[0], the_task(args[0]).submit)


def op_wait(args):
    attempt("wait", args[0], the_task(args[0]).wait)


def op_wait_all(args):
    attempt("wait_all", None, starpu.task_wait_for_all)


def op_tag_deps(args):
    attempt("tag_deps", args[0], lambda: starpu.tag_declare_deps(*[to_int(a) for a in args]))


def op_tag_notify(args):
    attempt("tag_notify", args[0], lambda: starpu.tag_notify_from_apps(to_int(args[0])))


def op_tag_wait(args):
    attempt("tag_wait", args[0], lambda: starpu.tag_wait(*[to_int(a) for a in args]))


def op_open(args):
    with ev_cond:
        gates.add(to_int(args[0]))
        ev_cond.notify_all()


def op_await(args):
    e = args[0]
    with ev_cond:
        if e.startswith("cb:"):
            ev_cond.wait_for(lambda: e[3:] in called)
        else:
            ev_cond.wait_for(lambda: e in started)


def op_clock(args):
    with ev_cond:
        emit("@clock %d" % ev_clock)


OPERATIONS = {
    "init": op_init, "shutdown": op_shutdown, "data": op_data, "read": op_read,
    "acquire": op_acquire, "show": op_show, "store": op_store, "release": op_release,
    "buffer": op_buffer, "partition": op_partition, "unpartition": op_unpartition,
    "unregister": op_unregister, "unregister_no_coherency": op_unregister_no_coherency,
    "invalidate": op_invalidate, "seqcons": op_seqcons, "codelet": op_codelet,
    "insert": op_insert, "task": op_task, "deps": op_deps, "submit": op_submit,
    "wait": op_wait, "wait_all": op_wait_all, "tag_deps": op_tag_deps,
    "tag_notify": op_tag_notify, "tag_wait": op_tag_wait, "open": op_open,
    "await": op_await, "clock": op_clock, "partition_plan": op_partition_plan,
    "nplans": op_nplans,
    "redux_methods": op_redux_methods, "ctx": op_ctx, "ctx_remove": op_ctx_remove,
    "ctx_inheritor": op_ctx_inheritor, "ctx_delete": op_ctx_delete, "trs_open": op_trs_open,
    "trs_next": op_trs_next, "trs_close": op_trs_close,
}
OPERATIONS.update({m: plan_switch(m) for m in PLAN_SWITCHES})

# Not `option badkey`: an unknown task_insert key is a C variadic mistake; a Python call
# with an unknown keyword is a TypeError before anything reaches the runtime.
CAPABILITIES = (
    ["op " + v for v in OPERATIONS]
    + ["kernel " + k for k in KERNELS]
    + ["option " + o for o in OPTIONS]
    + ["filter " + f for f in FILTERS]
    + ["kind variable", "kind vector", "kind matrix", "home none", "nbuffers variable",
       "handle null", "device opencl", "impl opencl"]
    + ["mode " + m for m in ("R", "W", "RW", "RW|COMMUTE", "REDUX", "SCRATCH")]
)


def main():
    global plan_path, lineno
    if sys.argv[1:] == ["--capabilities"]:
        print("\n".join(CAPABILITIES))
        return 0
    if len(sys.argv) != 2:
        print("usage: driver.py PLAN | --capabilities", file=sys.stderr)
        return 2
    plan_path = sys.argv[1]
    with open(plan_path) as f:
        lines = f.read().splitlines()
    for lineno, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens:
            continue
        op = OPERATIONS.get(tokens[0])
        try:
            if op is None:
                raise ScenarioError("unknown operation %r" % tokens[0])
            op(tokens[1:])
        except (ScenarioError, IndexError, KeyError) as e:
            print("%s:%d: scenario error: %s" % (plan_path, lineno, e), file=sys.stderr)
            return 2
    if starpu.is_initialized():
        starpu.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
