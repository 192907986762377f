/* stress: random task graphs, checked against a sequential replay of the same program.
 *
 * Each round generates a program from a fixed seed, runs it on the runtime, and replays
 * it sequentially on plain memory (the oracle); every value must match.
 *
 * The program (all of it generated before anything is submitted):
 *  - handles: variables and small vectors of uint64_t. "shared" handles belong to the
 *    main thread; each submitting thread owns "own" handles (sequential consistency on)
 *    and "loose" handles (sequential consistency off: only tag and task dependencies
 *    order their tasks);
 *  - pre phase (main thread): tasks on the shared handles;
 *  - thread phase: T threads submit at once, each on its own handles, reading shared
 *    handles in R only (so the order between threads does not matter). A thread submits
 *      plain tasks: 1-3 handles in R, W or RW, through starpu_task_create/submit or
 *        starpu_task_insert, with a random priority, some with a tag, some with an
 *        extra tag dependency or explicit task dependency on an earlier task;
 *      chain segments: 2-6 tasks on one loose handle, ordered only by tag
 *        dependencies or explicit task dependencies, declared before submission and
 *        submitted in a shuffled order;
 *      acquires: starpu_data_acquire of an own handle in R (value checked against the
 *        replay at that point) or RW (the application updates it);
 *  - post phase (main thread, after the threads are joined): plain tasks over every
 *    thread's own handles and the shared ones, with tag and task dependencies on any
 *    earlier task;
 *  - starpu_task_wait_for_all, then every handle and every task's result is compared.
 *
 * The kernel folds the values it reads (R, RW) into `acc`, records acc for that task,
 * and updates what it writes non-commutatively (W: x = 3*acc + k + i, RW:
 * x = 3*x + acc + i), so any misordering or any read of a stale value changes a
 * result. Each task must also run exactly once.
 *
 * Hooks for COMMUTE and REDUX (--commute, --redux): those accesses add acc + i, which
 * commutes, so the replay stays exact whatever order the runtime picks among them.
 *
 * OpenCL workers in the mix (--opencl, with STARPU_OPENCL_ON_CPUS=1 for PoCL): the task
 * codelets also have an OpenCL implementation, which reads its buffers from the device,
 * applies the same function and writes back what it writes, so values go back and forth
 * between main RAM and the device as tasks alternate between the kinds. Without an
 * OpenCL device (or a library built without OpenCL) it says so and exits 78.
 *
 * usage: stress [--seed S] [--tasks N] [--threads T] [--rounds R] [--commute] [--redux]
 *        [--opencl]
 *        (N: tasks per submitting thread; STARPU_SCHED and STARPU_NCPU choose the
 *        scheduler and the workers). Exit 0 when every value matched.
 */
#include <starpu.h>
#ifdef STARPU_USE_OPENCL
#include <starpu_opencl.h>
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 3        /* handles per task */
#define VEC_MAX 8     /* elements of the largest vector */
#define SEG_MAX 6     /* tasks per chain segment */
#define MAX_DEPS 2    /* extra tag or task dependencies per task */
#define N_SHARED 3
#define N_OWN 4
#define N_LOOSE 2

/* ---- options and random numbers ---------------------------------------------------- */

static struct {
	uint64_t seed;
	int tasks, threads, rounds;
	int commute, redux, opencl;
} opt = { 1, 400, 2, 2, 0, 0, 0 };

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rnd(uint64_t *s, int n) /* 0 .. n-1 */
{
	return (int)(splitmix(s) % (uint64_t)n);
}

/* ---- handles ------------------------------------------------------------------------ */

enum hkind { H_VAR, H_VEC };
enum hclass { H_SHARED, H_OWN, H_LOOSE };

struct hdata {
	enum hkind kind;
	enum hclass cls;
	unsigned n;      /* elements (1 for a variable) */
	uint64_t *mem;   /* registered with the runtime */
	uint64_t *model; /* the replay's copy */
	starpu_data_handle_t h;
};

static struct hdata *hds;
static int nhd;

static int shared_hd(int i) { return i; }
static int own_hd(int t, int i) { return N_SHARED + t * (N_OWN + N_LOOSE) + i; }
static int loose_hd(int t, int i) { return own_hd(t, N_OWN + i); }

/* ---- the program -------------------------------------------------------------------- */

/* Access modes, ours; to_starpu_mode gives StarPU's. */
enum amode { A_R, A_W, A_RW, A_COMMUTE, A_REDUX };

enum opkind { OP_TASK, OP_ACQUIRE_R, OP_ACQUIRE_RW };

struct op {
	enum opkind kind;
	int id; /* slot in results[] and runs[] */
	int nbuf;
	int hd[MAXB];
	enum amode mode[MAXB];
	uint64_t k;
	int prio;
	int insert; /* submitted by starpu_task_insert (else create + submit) */
	int tagged;
	starpu_tag_t tag;
	int ntagdeps;
	starpu_tag_t tagdeps[MAX_DEPS];
	int ndeps;
	struct op *deps[MAX_DEPS]; /* explicit task dependencies (kept ops, earlier) */
	int keep;                  /* destroy = 0: another op depends on it explicitly */
	/* batch: a chain segment is created whole, then submitted in perm order */
	int blen;           /* on the batch's first op: its length; 0 on the others */
	int perm[SEG_MAX];  /* submission order within the batch */
	uint64_t expect[VEC_MAX]; /* acquires: the value the replay says is there */
	struct starpu_task *task;
};

/* One list of ops in program order: the pre phase, one per thread, the post phase. */
struct list {
	int index;
	struct op *ops;
	int nops, cap;
};

static struct list *lists;
static int nlists;
static uint64_t *results, *expected;
static int *runs;
static int nresults;

/* Lists are allocated whole before generation (new_op never reallocates), so ops may
 * point at each other. */
static struct op *new_op(struct list *l, enum opkind kind)
{
	if (l->nops == l->cap) {
		fprintf(stderr, "stress: list %d is full (%d ops)\n", l->index, l->cap);
		exit(1);
	}
	struct op *op = &l->ops[l->nops];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->id = nresults++;
	op->blen = 1;
	op->tag = ((starpu_tag_t)(l->index + 1) << 32) | (starpu_tag_t)l->nops;
	l->nops++;
	return op;
}

static enum starpu_data_access_mode to_starpu_mode(enum amode m)
{
	switch (m) {
	case A_R: return STARPU_R;
	case A_W: return STARPU_W;
	case A_RW: return STARPU_RW;
	case A_COMMUTE: return STARPU_RW | STARPU_COMMUTE;
	case A_REDUX: return STARPU_REDUX;
	}
	abort();
}

static enum amode random_mode(uint64_t *s, int read_only)
{
	if (read_only)
		return A_R;
	int n = 3 + opt.commute + opt.redux;
	int r = rnd(s, n + 1); /* RW twice as likely: it is the order-sensitive one */
	if (r >= 3 && opt.commute && !opt.redux)
		return r == 3 ? A_COMMUTE : A_RW;
	if (r >= 3 && opt.redux && !opt.commute)
		return r == 3 ? A_REDUX : A_RW;
	if (r >= 3 && opt.commute && opt.redux)
		return r == 3 ? A_COMMUTE : r == 4 ? A_REDUX : A_RW;
	return r == 0 ? A_R : r == 1 ? A_W : A_RW;
}

/* Extra dependencies on earlier ops, which the program order satisfies already: they
 * must not change any result. `from` lists may be searched (the post phase reaches
 * into every list). */
static void add_extra_deps(uint64_t *s, struct op *op, struct list *from, int nfrom)
{
	for (int d = 0; d < MAX_DEPS; d++) {
		int r = rnd(s, 8);
		if (r > 1)
			continue;
		struct list *l = &from[rnd(s, nfrom)];
		int limit = (l->ops + l->nops - 1 == op) ? l->nops - 1 : l->nops;
		if (limit <= 0)
			continue;
		/* a random earlier task; scan back for one that fits */
		for (int i = rnd(s, limit), tries = 0; i >= 0 && tries < 16; i--, tries++) {
			struct op *p = &l->ops[i];
			if (p->kind != OP_TASK)
				continue;
			if (r == 0 && p->tagged) {
				op->tagged = 1;
				op->tagdeps[op->ntagdeps++] = p->tag;
				break;
			}
			if (r == 1 && !p->insert) {
				p->keep = 1;
				op->deps[op->ndeps++] = p;
				break;
			}
		}
	}
}

/* A plain task over `cands` (ro[i]: only R allowed on cands[i]). */
static void gen_plain(uint64_t *s, struct list *l, const int *cands, const int *ro, int ncands,
		      struct list *deps_from, int ndeps_from)
{
	struct op *op = new_op(l, OP_TASK);
	op->nbuf = 1 + rnd(s, MAXB);
	for (int b = 0; b < op->nbuf; b++) {
		int c;
		int dup;
		do { /* distinct handles */
			c = rnd(s, ncands);
			dup = 0;
			for (int j = 0; j < b; j++)
				dup |= op->hd[j] == cands[c];
		} while (dup);
		op->hd[b] = cands[c];
		op->mode[b] = random_mode(s, ro[c]);
	}
	op->k = splitmix(s);
	op->prio = rnd(s, 11) - 5;
	op->insert = rnd(s, 2);
	op->tagged = rnd(s, 3) == 0;
	add_extra_deps(s, op, deps_from, ndeps_from);
}

/* A chain segment on loose handle q of thread t; last[q] is the latest op on it. */
static void gen_segment(uint64_t *s, struct list *l, int t, int q, struct op **last)
{
	int len = 2 + rnd(s, SEG_MAX - 1);
	struct op *first = NULL;
	for (int i = 0; i < len; i++) {
		struct op *op = new_op(l, OP_TASK);
		op->nbuf = 1 + rnd(s, 2);
		op->hd[0] = loose_hd(t, q);
		op->mode[0] = rnd(s, 4) == 0 ? A_R : rnd(s, 4) == 0 ? A_W : A_RW;
		if (op->nbuf == 2) {
			op->hd[1] = shared_hd(rnd(s, N_SHARED));
			op->mode[1] = A_R;
		}
		op->k = splitmix(s);
		op->prio = rnd(s, 11) - 5;
		op->tagged = 1;
		op->keep = 1; /* the next one may name it in starpu_task_declare_deps */
		op->blen = 0;
		/* the link to the previous op on q: a tag or an explicit task dependency */
		if (last[q]) {
			if (rnd(s, 2))
				op->tagdeps[op->ntagdeps++] = last[q]->tag;
			else
				op->deps[op->ndeps++] = last[q];
		}
		last[q] = op;
		if (!first)
			first = op;
	}
	/* submitted in a shuffled order: only the dependencies order them */
	first->blen = len;
	for (int i = 0; i < len; i++)
		first->perm[i] = i;
	for (int i = len - 1; i > 0; i--) {
		int j = rnd(s, i + 1);
		int x = first->perm[i];
		first->perm[i] = first->perm[j];
		first->perm[j] = x;
	}
}

/* An acquire of one of thread t's own handles. */
static void gen_acquire(uint64_t *s, struct list *l, int t)
{
	struct op *op = new_op(l, rnd(s, 2) ? OP_ACQUIRE_R : OP_ACQUIRE_RW);
	op->nbuf = 1;
	op->hd[0] = own_hd(t, rnd(s, N_OWN));
	op->mode[0] = op->kind == OP_ACQUIRE_R ? A_R : A_RW;
	op->k = splitmix(s);
}

/* ---- the kernel, shared by the codelet and the replay -------------------------------- */

static uint64_t apply(const struct op *op, uint64_t *ptr[], const unsigned n[])
{
	uint64_t acc = op->k;
	for (int b = 0; b < op->nbuf; b++)
		if (op->mode[b] == A_R || op->mode[b] == A_RW)
			for (unsigned i = 0; i < n[b]; i++)
				acc = (acc ^ ptr[b][i]) * 0x100000001b3ULL;
	for (int b = 0; b < op->nbuf; b++)
		for (unsigned i = 0; i < n[b]; i++)
			switch (op->mode[b]) {
			case A_R: break;
			case A_W: ptr[b][i] = 3 * acc + op->k + i; break;
			case A_RW: ptr[b][i] = 3 * ptr[b][i] + acc + i; break;
			case A_COMMUTE:
			case A_REDUX: ptr[b][i] += acc + i; break;
			}
	return acc;
}

/* ---- generation and replay ---------------------------------------------------------- */

static void init_handles(uint64_t *s)
{
	nhd = N_SHARED + opt.threads * (N_OWN + N_LOOSE);
	hds = calloc(nhd, sizeof(*hds));
	for (int i = 0; i < nhd; i++) {
		struct hdata *d = &hds[i];
		int in_thread = i >= N_SHARED;
		int j = in_thread ? (i - N_SHARED) % (N_OWN + N_LOOSE) : i;
		d->cls = !in_thread ? H_SHARED : j < N_OWN ? H_OWN : H_LOOSE;
		d->kind = j % 2 ? H_VEC : H_VAR;
		d->n = d->kind == H_VAR ? 1 : 2 + rnd(s, VEC_MAX - 1);
		d->mem = calloc(d->n, sizeof(uint64_t));
		d->model = calloc(d->n, sizeof(uint64_t));
		for (unsigned e = 0; e < d->n; e++)
			d->mem[e] = d->model[e] = splitmix(s);
	}
}

static void generate(uint64_t seed)
{
	uint64_t s = seed;
	init_handles(&s);
	nlists = opt.threads + 2; /* pre, threads..., post */
	lists = calloc(nlists, sizeof(*lists));
	int pre_n = 8, post_n = opt.tasks / 4 + 1;
	for (int i = 0; i < nlists; i++) {
		struct list *l = &lists[i];
		l->index = i;
		l->cap = (i == 0 ? pre_n : i == nlists - 1 ? post_n : opt.tasks) + SEG_MAX;
		l->ops = calloc(l->cap, sizeof(*l->ops));
	}
	nresults = 0;

	/* pre phase: any access to the shared handles */
	int cands[N_SHARED + 64 * N_OWN], ro[N_SHARED + 64 * N_OWN];
	for (int i = 0; i < N_SHARED; i++)
		cands[i] = shared_hd(i), ro[i] = 0;
	uint64_t ls = seed ^ 0x5eed;
	while (lists[0].nops < pre_n)
		gen_plain(&ls, &lists[0], cands, ro, N_SHARED, &lists[0], 1);

	/* thread phase: own handles in any mode, shared ones read only, loose ones in chains */
	for (int t = 0; t < opt.threads; t++) {
		struct list *l = &lists[1 + t];
		struct op *last[N_LOOSE] = { 0 };
		int n = 0;
		for (int i = 0; i < N_SHARED; i++)
			cands[n] = shared_hd(i), ro[n++] = 1;
		for (int i = 0; i < N_OWN; i++)
			cands[n] = own_hd(t, i), ro[n++] = 0;
		ls = splitmix(&s) ^ (uint64_t)t;
		while (l->nops < opt.tasks) {
			int r = rnd(&ls, 20);
			if (r < 3)
				gen_segment(&ls, l, t, rnd(&ls, N_LOOSE), last);
			else if (r < 4)
				gen_acquire(&ls, l, t);
			else
				gen_plain(&ls, l, cands, ro, n, l, 1);
		}
	}

	/* post phase: every thread's own handles and the shared ones, deps on anything */
	int n = 0;
	for (int i = 0; i < N_SHARED; i++)
		cands[n] = shared_hd(i), ro[n++] = 0;
	for (int t = 0; t < opt.threads && t < 64; t++)
		for (int i = 0; i < N_OWN; i++)
			cands[n] = own_hd(t, i), ro[n++] = 0;
	ls = splitmix(&s);
	while (lists[nlists - 1].nops < post_n)
		gen_plain(&ls, &lists[nlists - 1], cands, ro, n, lists, nlists);

	results = calloc(nresults, sizeof(*results));
	expected = calloc(nresults, sizeof(*expected));
	runs = calloc(nresults, sizeof(*runs));
}

/* The oracle: every op in program order, on the model copies. */
static void replay(void)
{
	for (int li = 0; li < nlists; li++)
		for (int i = 0; i < lists[li].nops; i++) {
			struct op *op = &lists[li].ops[i];
			struct hdata *d = &hds[op->hd[0]];
			if (op->kind == OP_TASK) {
				uint64_t *ptr[MAXB];
				unsigned n[MAXB];
				for (int b = 0; b < op->nbuf; b++) {
					ptr[b] = hds[op->hd[b]].model;
					n[b] = hds[op->hd[b]].n;
				}
				expected[op->id] = apply(op, ptr, n);
			} else {
				memcpy(op->expect, d->model, d->n * sizeof(uint64_t));
				if (op->kind == OP_ACQUIRE_RW)
					for (unsigned e = 0; e < d->n; e++)
						d->model[e] = 5 * d->model[e] + op->k + e;
			}
		}
}

/* ---- running it --------------------------------------------------------------------- */

static int errors; /* atomic */

#define FAIL(...)                                                              \
	do {                                                                   \
		if (__atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED) < 20)     \
			fprintf(stderr, "stress: " __VA_ARGS__);               \
	} while (0)

static void run_kernel(void *buffers[], const struct op *op)
{
	uint64_t *ptr[MAXB];
	unsigned n[MAXB];
	for (int b = 0; b < op->nbuf; b++) {
		const struct hdata *d = &hds[op->hd[b]];
		if (d->kind == H_VAR) {
			ptr[b] = (uint64_t *)STARPU_VARIABLE_GET_PTR(buffers[b]);
			n[b] = 1;
		} else {
			ptr[b] = (uint64_t *)STARPU_VECTOR_GET_PTR(buffers[b]);
			n[b] = STARPU_VECTOR_GET_NX(buffers[b]);
			if (n[b] != d->n) {
				FAIL("task %d buffer %d: vector of %u elements, registered with %u\n",
				     op->id, b, n[b], d->n);
				return;
			}
		}
	}
	results[op->id] = apply(op, ptr, n);
	__atomic_fetch_add(&runs[op->id], 1, __ATOMIC_RELAXED);
}

/* cl_arg is the op itself (create path) or a packed pointer to it (insert path). */
static void kernel_raw(void *buffers[], void *cl_arg)
{
	run_kernel(buffers, cl_arg);
}

static void kernel_packed(void *buffers[], void *cl_arg)
{
	struct op *op;
	starpu_codelet_unpack_args(cl_arg, &op);
	run_kernel(buffers, op);
}

#ifdef STARPU_USE_OPENCL
/* The kernel on an OpenCL worker: the buffers come from the device into host copies,
 * the same function runs on them, what it wrote goes back to the device. */
static void run_kernel_opencl(void *buffers[], const struct op *op)
{
	uint64_t copy[MAXB][VEC_MAX];
	void *host[MAXB];
	cl_mem mem[MAXB];
	size_t off[MAXB], bytes[MAXB];
	cl_command_queue q;
	starpu_opencl_get_current_queue(&q);
	for (int b = 0; b < op->nbuf; b++) {
		if (hds[op->hd[b]].kind == H_VAR) {
			mem[b] = (cl_mem)STARPU_VARIABLE_GET_DEV_HANDLE(buffers[b]);
			off[b] = STARPU_VARIABLE_GET_OFFSET(buffers[b]);
			bytes[b] = sizeof(uint64_t);
		} else {
			mem[b] = (cl_mem)STARPU_VECTOR_GET_DEV_HANDLE(buffers[b]);
			off[b] = STARPU_VECTOR_GET_OFFSET(buffers[b]);
			bytes[b] = STARPU_VECTOR_GET_NX(buffers[b]) * sizeof(uint64_t);
		}
		cl_int err = clEnqueueReadBuffer(q, mem[b], CL_TRUE, off[b], bytes[b], copy[b], 0, NULL, NULL);
		if (err != CL_SUCCESS)
			STARPU_OPENCL_REPORT_ERROR(err);
		host[b] = copy[b];
	}
	/* Host views shaped like the buffers, for run_kernel. */
	struct starpu_variable_interface var_views[MAXB];
	struct starpu_vector_interface vec_views[MAXB];
	void *view_ptrs[MAXB];
	for (int b = 0; b < op->nbuf; b++) {
		if (hds[op->hd[b]].kind == H_VAR) {
			var_views[b] = *(struct starpu_variable_interface *)buffers[b];
			var_views[b].ptr = (uintptr_t)host[b];
			view_ptrs[b] = &var_views[b];
		} else {
			vec_views[b] = *(struct starpu_vector_interface *)buffers[b];
			vec_views[b].ptr = (uintptr_t)host[b];
			view_ptrs[b] = &vec_views[b];
		}
	}
	run_kernel(view_ptrs, op);
	for (int b = 0; b < op->nbuf; b++) {
		if (op->mode[b] == A_R)
			continue;
		cl_int err = clEnqueueWriteBuffer(q, mem[b], CL_TRUE, off[b], bytes[b], copy[b], 0, NULL, NULL);
		if (err != CL_SUCCESS)
			STARPU_OPENCL_REPORT_ERROR(err);
	}
}

static void kernel_raw_opencl(void *buffers[], void *cl_arg)
{
	run_kernel_opencl(buffers, cl_arg);
}

static void kernel_packed_opencl(void *buffers[], void *cl_arg)
{
	struct op *op;
	starpu_codelet_unpack_args(cl_arg, &op);
	run_kernel_opencl(buffers, op);
}
#endif

static struct starpu_codelet cl_raw = {
	.cpu_funcs = { kernel_raw },
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "stress",
};
static struct starpu_codelet cl_packed = {
	.cpu_funcs = { kernel_packed },
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "stress_insert",
};

/* REDUX hooks: a contribution starts from 0, contributions add up. */
static void redux_init(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	uint64_t *p = (uint64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++)
		p[i] = 0;
}

static void redux_add(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	uint64_t *dst = (uint64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	const uint64_t *src = (const uint64_t *)STARPU_VECTOR_GET_PTR(buffers[1]);
	for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); i++)
		dst[i] += src[i];
}

static void redux_init_var(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	*(uint64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]) = 0;
}

static void redux_add_var(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	*(uint64_t *)STARPU_VARIABLE_GET_PTR(buffers[0]) +=
		*(uint64_t *)STARPU_VARIABLE_GET_PTR(buffers[1]);
}

static struct starpu_codelet redux_init_cl[2] = {
	{ .cpu_funcs = { redux_init_var }, .nbuffers = 1, .modes = { STARPU_W }, .name = "redux_init" },
	{ .cpu_funcs = { redux_init }, .nbuffers = 1, .modes = { STARPU_W }, .name = "redux_init" },
};
static struct starpu_codelet redux_add_cl[2] = {
	{ .cpu_funcs = { redux_add_var }, .nbuffers = 2, .modes = { STARPU_RW, STARPU_R }, .name = "redux_add" },
	{ .cpu_funcs = { redux_add }, .nbuffers = 2, .modes = { STARPU_RW, STARPU_R }, .name = "redux_add" },
};

static void register_handles(void)
{
	for (int i = 0; i < nhd; i++) {
		struct hdata *d = &hds[i];
		if (d->kind == H_VAR)
			starpu_variable_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)d->mem,
						      sizeof(uint64_t));
		else
			starpu_vector_data_register(&d->h, STARPU_MAIN_RAM, (uintptr_t)d->mem, d->n,
						    sizeof(uint64_t));
		if (d->cls == H_LOOSE)
			starpu_data_set_sequential_consistency_flag(d->h, 0);
		if (opt.redux)
			starpu_data_set_reduction_methods(d->h, &redux_add_cl[d->kind],
							  &redux_init_cl[d->kind]);
	}
}

/* Creates op's task (create path) and declares its dependencies. */
static void prepare(struct op *op)
{
	if (op->ntagdeps == 1 && rnd(&(uint64_t){ op->k }, 2))
		starpu_tag_declare_deps(op->tag, 1, op->tagdeps[0]);
	else if (op->ntagdeps)
		starpu_tag_declare_deps_array(op->tag, op->ntagdeps, op->tagdeps);
	if (op->insert)
		return;
	struct starpu_task *t = starpu_task_create();
	t->cl = &cl_raw;
	t->cl_arg = op;
	t->nbuffers = op->nbuf;
	for (int b = 0; b < op->nbuf; b++) {
		t->handles[b] = hds[op->hd[b]].h;
		t->modes[b] = to_starpu_mode(op->mode[b]);
	}
	t->priority = op->prio;
	t->use_tag = op->tagged;
	t->tag_id = op->tag;
	t->destroy = !op->keep;
	op->task = t;
	struct starpu_task *deps[MAX_DEPS];
	for (int d = 0; d < op->ndeps; d++)
		deps[d] = op->deps[d]->task;
	if (op->ndeps == 1 && op->k % 3 == 0)
		starpu_task_declare_deps(t, 1, deps[0]);
	else if (op->ndeps)
		starpu_task_declare_deps_array(t, op->ndeps, deps);
}

static void submit(struct op *op)
{
	int ret;
	if (!op->insert) {
		struct starpu_task *t = op->task;
		if (!op->keep)
			op->task = NULL; /* freed by the runtime once it has run */
		ret = starpu_task_submit(t);
		if (ret != 0)
			FAIL("task %d: starpu_task_submit returned %d\n", op->id, ret);
		return;
	}
	struct starpu_task *deps[MAX_DEPS];
	for (int d = 0; d < op->ndeps; d++)
		deps[d] = op->deps[d]->task;
	/* one handle: the plain mode/handle pair; more: STARPU_DATA_MODE_ARRAY */
	struct starpu_data_descr descr[MAXB];
	for (int b = 0; b < op->nbuf; b++) {
		descr[b].handle = hds[op->hd[b]].h;
		descr[b].mode = to_starpu_mode(op->mode[b]);
	}
	if (op->nbuf == 1 && op->tagged)
		ret = starpu_task_insert(&cl_packed, STARPU_VALUE, &op, sizeof(op), descr[0].mode,
					 descr[0].handle, STARPU_PRIORITY, op->prio, STARPU_TAG, op->tag,
					 STARPU_TASK_DEPS_ARRAY, op->ndeps, deps, 0);
	else if (op->nbuf == 1)
		ret = starpu_task_insert(&cl_packed, STARPU_VALUE, &op, sizeof(op), descr[0].mode,
					 descr[0].handle, STARPU_PRIORITY, op->prio,
					 STARPU_TASK_DEPS_ARRAY, op->ndeps, deps, 0);
	else if (op->tagged)
		ret = starpu_task_insert(&cl_packed, STARPU_VALUE, &op, sizeof(op),
					 STARPU_DATA_MODE_ARRAY, descr, op->nbuf, STARPU_PRIORITY,
					 op->prio, STARPU_TAG, op->tag, STARPU_TASK_DEPS_ARRAY,
					 op->ndeps, deps, 0);
	else
		ret = starpu_task_insert(&cl_packed, STARPU_VALUE, &op, sizeof(op),
					 STARPU_DATA_MODE_ARRAY, descr, op->nbuf, STARPU_PRIORITY,
					 op->prio, STARPU_TASK_DEPS_ARRAY, op->ndeps, deps, 0);
	if (ret != 0)
		FAIL("task %d: starpu_task_insert returned %d\n", op->id, ret);
}

static void acquire(struct op *op)
{
	struct hdata *d = &hds[op->hd[0]];
	int ret = starpu_data_acquire(d->h, op->kind == OP_ACQUIRE_R ? STARPU_R : STARPU_RW);
	if (ret != 0) {
		FAIL("acquire %d: starpu_data_acquire returned %d\n", op->id, ret);
		return;
	}
	for (unsigned e = 0; e < d->n; e++)
		if (d->mem[e] != op->expect[e])
			FAIL("acquire %d (handle %d[%u]): found %#" PRIx64 ", expected %#" PRIx64 "\n",
			     op->id, op->hd[0], e, d->mem[e], op->expect[e]);
	if (op->kind == OP_ACQUIRE_RW)
		for (unsigned e = 0; e < d->n; e++)
			d->mem[e] = 5 * d->mem[e] + op->k + e;
	starpu_data_release(d->h);
}

/* Submits a list in program order; a batch (chain segment) is created whole, its
 * dependencies declared, then submitted in its shuffled order. */
static void *run_list(void *arg)
{
	struct list *l = arg;
	for (int i = 0; i < l->nops;) {
		struct op *op = &l->ops[i];
		if (op->kind != OP_TASK) {
			acquire(op);
			i++;
			continue;
		}
		int len = op->blen;
		for (int j = 0; j < len; j++)
			prepare(&l->ops[i + j]);
		for (int j = 0; j < len; j++)
			submit(&l->ops[i + op->perm[j]]);
		i += len;
	}
	return NULL;
}

static void check_results(void)
{
	for (int i = 0; i < nhd; i++) {
		struct hdata *d = &hds[i];
		int ret = starpu_data_acquire(d->h, STARPU_R);
		if (ret != 0) {
			FAIL("final acquire of handle %d returned %d\n", i, ret);
			continue;
		}
		for (unsigned e = 0; e < d->n; e++)
			if (d->mem[e] != d->model[e])
				FAIL("handle %d[%u] (%s): found %#" PRIx64 ", expected %#" PRIx64 "\n", i, e,
				     d->cls == H_SHARED ? "shared" : d->cls == H_OWN ? "own" : "loose",
				     d->mem[e], d->model[e]);
		starpu_data_release(d->h);
	}
	for (int li = 0; li < nlists; li++)
		for (int i = 0; i < lists[li].nops; i++) {
			struct op *op = &lists[li].ops[i];
			if (op->kind != OP_TASK)
				continue;
			int n = __atomic_load_n(&runs[op->id], __ATOMIC_RELAXED);
			if (n != 1)
				FAIL("task %d (list %d, op %d) ran %d times\n", op->id, li, i, n);
			else if (results[op->id] != expected[op->id])
				FAIL("task %d (list %d, op %d) read %#" PRIx64 ", expected %#" PRIx64 "\n",
				     op->id, li, i, results[op->id], expected[op->id]);
		}
}

static void free_round(void)
{
	for (int i = 0; i < nhd; i++) {
		free(hds[i].mem);
		free(hds[i].model);
	}
	free(hds);
	for (int i = 0; i < nlists; i++)
		free(lists[i].ops);
	free(lists);
	free(results);
	free(expected);
	free(runs);
}

static int round_run(uint64_t seed)
{
	generate(seed);
	replay();

	int ret = starpu_init(NULL);
	if (ret == -ENODEV) {
		fprintf(stderr, "stress: no worker\n");
		exit(77);
	}
	if (ret != 0) {
		fprintf(stderr, "stress: starpu_init returned %d\n", ret);
		exit(1);
	}
	if (opt.opencl) {
#ifdef STARPU_USE_OPENCL
		cl_raw.opencl_funcs[0] = kernel_raw_opencl;
		cl_packed.opencl_funcs[0] = kernel_packed_opencl;
#endif
		if (starpu_opencl_worker_get_count() == 0) {
			fprintf(stderr, "stress: skipped: no OpenCL worker (no device, or STARPU_OPENCL_ON_CPUS unset for PoCL)\n");
			exit(78);
		}
	}
	register_handles();

	run_list(&lists[0]);
	pthread_t *th = calloc(opt.threads, sizeof(*th));
	for (int t = 0; t < opt.threads; t++)
		if (pthread_create(&th[t], NULL, run_list, &lists[1 + t]) != 0) {
			perror("pthread_create");
			exit(1);
		}
	for (int t = 0; t < opt.threads; t++)
		pthread_join(th[t], NULL);
	free(th);
	run_list(&lists[nlists - 1]);

	ret = starpu_task_wait_for_all();
	if (ret != 0)
		FAIL("starpu_task_wait_for_all returned %d\n", ret);
	for (int li = 0; li < nlists; li++)
		for (int i = 0; i < lists[li].nops; i++)
			if (lists[li].ops[i].keep && lists[li].ops[i].task)
				starpu_task_destroy(lists[li].ops[i].task);
	check_results();
	for (int i = 0; i < nhd; i++)
		starpu_data_unregister(hds[i].h);

	int ntasks = 0, nworkers = (int)starpu_worker_get_count();
	for (int li = 0; li < nlists; li++)
		ntasks += lists[li].nops;
	starpu_shutdown();
	free_round();
	printf("stress: seed %" PRIu64 ": %d ops over %d handles, %d submitting threads, %d workers\n",
	       seed, ntasks, nhd, opt.threads, nworkers);
	return errors;
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--seed S] [--tasks N] [--threads T] [--rounds R] [--commute] [--redux] [--opencl]\n",
		argv0);
	exit(2);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--commute"))
			opt.commute = 1;
		else if (!strcmp(a, "--opencl"))
			opt.opencl = 1;
		else if (!strcmp(a, "--redux"))
			opt.redux = 1;
		else if (i + 1 < argc && !strcmp(a, "--seed"))
			opt.seed = strtoull(argv[++i], NULL, 0);
		else if (i + 1 < argc && !strcmp(a, "--tasks"))
			opt.tasks = atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(a, "--threads"))
			opt.threads = atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(a, "--rounds"))
			opt.rounds = atoi(argv[++i]);
		else
			usage(argv[0]);
	}
	if (opt.tasks < 1 || opt.threads < 1 || opt.threads > 64 || opt.rounds < 1)
		usage(argv[0]);

	for (int r = 0; r < opt.rounds && !errors; r++)
		round_run(opt.seed + (uint64_t)r);
	if (errors) {
		fprintf(stderr, "stress: %d mismatch(es) or error(s)\n", errors);
		return 1;
	}
	printf("stress: all checks passed\n");
	return 0;
}
