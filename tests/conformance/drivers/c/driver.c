/* C driver of the shared conformance suite.
 *
 *     driver PLAN          executes a plan written by the harness
 *     driver --capabilities  prints what this driver can express
 *
 * The harness (tests/conformance/test_conformance.py) turns a scenario into a plan: one
 * operation per line, `repeat` already expanded, observations replaced by `clock`.  This
 * driver executes each operation through StarPU's public C API only and prints, on
 * stdout, the operations' canonical output lines, the events of kernels and callbacks
 * (`@ev TICK start|end|cb|report TASK ...`) and the clock (`@clock TICK`); the harness
 * renders the observations from those (protocol: tests/conformance/README.md).  The
 * same source builds against Debian's StarPU 1.3 and against ours (pkg-config
 * starpu-1.3 / starpu-1.4): it uses nothing either lacks.
 *
 * Every stdout line is formatted in memory first and written whole under the event lock,
 * so lines from worker threads never interleave.
 *
 * Exit status: 0 when the plan ran to its end (StarPU errors are output, not failures),
 * 2 for a malformed plan line (message "PLAN:LINE: scenario error: ..." on stderr).
 *
 * Layout: output and events, small tables (codelets, data handles, task records), the
 * kernels, one function per operation, the dispatch table, capabilities, the line reader.
 */
#include <starpu.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_NAME 64
#define MAX_BUFS STARPU_NMAXBUFS
#define MAX_VALUES 2
#define MAX_CODELETS 64
#define MAX_DATA 1024
#define MAX_TASKS 8192
#define MAX_GATES 16
#define MAX_TOKENS 256
#define MAX_LINE 8192

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A key starpu_task_insert() cannot know: far above every key StarPU defines (they are
 * small multiples of 1 << STARPU_MODE_SHIFT), and with none of the access-mode bits. */
#define UNKNOWN_INSERT_KEY (1000 << STARPU_MODE_SHIFT)

/* ------------------------------------------------------------------------------------ */
/* Plan errors                                                                          */

static const char *plan_path;
static int lineno;

/* A malformed plan line is the scenario author's mistake, not the runtime's: say where
 * (the harness maps PLAN:LINE back to the scenario's line), exit 2. */
static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: scenario error: ", plan_path, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static long parse_long(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end)
		die("'%s' is not an integer", s);
	return v;
}

/* "key=value" -> value when the token has that key, NULL otherwise. */
static const char *option(const char *tok, const char *key)
{
	size_t n = strlen(key);
	return strncmp(tok, key, n) == 0 && tok[n] == '=' ? tok + n + 1 : NULL;
}

/* ------------------------------------------------------------------------------------ */
/* Output and events: one clock shared by kernels and callbacks                         */

/* Order is observed with a counter, not with time: every event takes the next tick, and
 * its `@ev` line is printed under the same lock, so the harness sees the ticks in the
 * order they were taken.  The task records' `started` / `called` flags (for `await`)
 * and the gates are read and written under ev_lock too. */
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond = PTHREAD_COND_INITIALIZER;
static long ev_clock;
static int gate_open[MAX_GATES];

/* Writes one complete line (text ends with a newline) while the caller holds ev_lock,
 * and flushes it: no other line can come in between, and a crash loses nothing. */
static void put_line_locked(const char *text)
{
	fputs(text, stdout);
	fflush(stdout);
}

/* A line being built in memory, then written whole. */
struct line {
	char *text;
	size_t size;
	FILE *f;
};

static void line_begin(struct line *l)
{
	l->text = NULL;
	l->size = 0;
	l->f = open_memstream(&l->text, &l->size);
	if (!l->f) {
		perror("open_memstream");
		exit(1);
	}
}

static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(l->f, fmt, ap);
	va_end(ap);
}

/* Ends the line with its newline; l->text is then the whole line. */
static void line_finish(struct line *l)
{
	fputc('\n', l->f);
	fclose(l->f);
}

/* Ends the line and prints it under the event lock. */
static void line_end(struct line *l)
{
	line_finish(l);
	pthread_mutex_lock(&ev_lock);
	put_line_locked(l->text);
	pthread_mutex_unlock(&ev_lock);
	free(l->text);
}

/* printf for one whole output line (fmt without the newline). */
static void out(const char *fmt, ...)
{
	struct line l;
	va_list ap;
	line_begin(&l);
	va_start(ap, fmt);
	vfprintf(l.f, fmt, ap);
	va_end(ap);
	line_end(&l);
}

/* ------------------------------------------------------------------------------------ */
/* Return codes: printed as the number StarPU returned; the harness names them.          */

/* The one error line every operation prints when StarPU returned non-zero. */
static void report_ret(const char *verb, const char *subject, int ret)
{
	if (ret == 0)
		return;
	if (subject)
		out("error %s %s %d", verb, subject, ret);
	else
		out("error %s %d", verb, ret);
}

/* ------------------------------------------------------------------------------------ */
/* Tables                                                                               */

enum kind { KIND_VARIABLE, KIND_VECTOR, KIND_MATRIX };
static const char *const kind_names[] = {
	[KIND_VARIABLE] = "variable", [KIND_VECTOR] = "vector", [KIND_MATRIX] = "matrix",
};

struct data_rec {
	char name[MAX_NAME];
	starpu_data_handle_t handle;
	enum kind kind;
	size_t nx, ny;     /* as registered (children: as the filter made them) */
	int64_t *buffer;   /* the application's buffer; NULL for home=none and children */
	int registered;    /* 0 once unregistered (the buffer stays readable) */
	int parent;        /* index of the parent for a child, -1 otherwise */
	int nchildren;
};

struct kernel {
	const char *name;
	void (*func)(void *buffers[], void *cl_arg);
	int nvalues; /* how many int64 arguments it unpacks */
};

struct codelet_rec {
	char name[MAX_NAME];
	struct starpu_codelet cl;
	const struct kernel *kernel;
	int variable; /* STARPU_VARIABLE_NBUFFERS */
};

struct task_rec {
	char name[MAX_NAME];
	int id;
	struct starpu_task *task; /* built by `task`; may be freed by StarPU once done */
	int nbuffers;
	enum kind kinds[MAX_BUFS]; /* written before submission, read by the kernel */
	int delay_ms;
	int started, called; /* under ev_lock: the kernel has started, the callback has run */
};

static struct data_rec datas[MAX_DATA];
static int ndatas;
static struct codelet_rec codelets[MAX_CODELETS];
static int ncodelets;
static struct task_rec tasks[MAX_TASKS];
static int ntasks;
static int initialized;

static int find_data_index(const char *name)
{
	/* Latest first: a name may be registered again after `unregister`. */
	for (int i = ndatas - 1; i >= 0; i--)
		if (strcmp(datas[i].name, name) == 0)
			return i;
	die("unknown handle '%s'", name);
}

static struct data_rec *find_data(const char *name)
{
	return &datas[find_data_index(name)];
}

static struct codelet_rec *find_codelet(const char *name)
{
	for (int i = 0; i < ncodelets; i++)
		if (strcmp(codelets[i].name, name) == 0)
			return &codelets[i];
	die("unknown codelet '%s'", name);
}

static struct task_rec *find_task(const char *name)
{
	for (int i = 0; i < ntasks; i++)
		if (strcmp(tasks[i].name, name) == 0)
			return &tasks[i];
	die("unknown task '%s'", name);
}

static void check_name(const char *name)
{
	if (strlen(name) >= MAX_NAME)
		die("name '%s' too long", name);
}

static struct task_rec *new_task_rec(const char *name)
{
	check_name(name);
	for (int i = 0; i < ntasks; i++)
		if (strcmp(tasks[i].name, name) == 0)
			die("task name '%s' used twice", name);
	if (ntasks == MAX_TASKS)
		die("too many tasks");
	struct task_rec *r = &tasks[ntasks];
	memset(r, 0, sizeof(*r));
	strcpy(r->name, name);
	r->id = ntasks++;
	return r;
}

/* ------------------------------------------------------------------------------------ */
/* Element views: kernels and printing walk every interface the same way                */

struct view {
	int64_t *ptr;
	size_t nx, ny, ld;
};

static size_t view_count(const struct view *v)
{
	return v->nx * v->ny;
}

static int64_t *view_at(const struct view *v, size_t i)
{
	return &v->ptr[(i / v->nx) * v->ld + i % v->nx];
}

/* A buffer as a kernel receives it (the interface structure of the local replica). */
static struct view view_of_interface(void *iface, enum kind kind)
{
	struct view v = {0};
	switch (kind) {
	case KIND_VARIABLE:
		v.ptr = (int64_t *)STARPU_VARIABLE_GET_PTR(iface);
		v.nx = v.ny = v.ld = 1;
		break;
	case KIND_VECTOR:
		v.ptr = (int64_t *)STARPU_VECTOR_GET_PTR(iface);
		v.nx = v.ld = STARPU_VECTOR_GET_NX(iface);
		v.ny = 1;
		break;
	case KIND_MATRIX:
		v.ptr = (int64_t *)STARPU_MATRIX_GET_PTR(iface);
		v.nx = STARPU_MATRIX_GET_NX(iface);
		v.ny = STARPU_MATRIX_GET_NY(iface);
		v.ld = STARPU_MATRIX_GET_LD(iface);
		break;
	}
	return v;
}

/* The main-memory replica of a handle the application holds (acquired). */
static struct view view_of_handle(const struct data_rec *d)
{
	struct view v = {0};
	switch (d->kind) {
	case KIND_VARIABLE:
		v.ptr = (int64_t *)starpu_variable_get_local_ptr(d->handle);
		v.nx = v.ny = v.ld = 1;
		break;
	case KIND_VECTOR:
		v.ptr = (int64_t *)starpu_vector_get_local_ptr(d->handle);
		v.nx = v.ld = starpu_vector_get_nx(d->handle);
		v.ny = 1;
		break;
	case KIND_MATRIX:
		v.ptr = (int64_t *)starpu_matrix_get_local_ptr(d->handle);
		v.nx = starpu_matrix_get_nx(d->handle);
		v.ny = starpu_matrix_get_ny(d->handle);
		v.ld = starpu_matrix_get_local_ld(d->handle);
		break;
	}
	return v;
}

/* The application's own buffer, as registered. */
static struct view view_of_buffer(const struct data_rec *d)
{
	struct view v = {d->buffer, d->nx, d->ny, d->nx};
	return v;
}

/* "PREFIX NAME = 1 2 3", rows of a matrix separated by " |". */
static void print_view(const char *prefix, const char *name, const struct view *v, int matrix)
{
	struct line l;
	line_begin(&l);
	line_add(&l, "%s %s =", prefix, name);
	for (size_t i = 0; i < view_count(v); i++) {
		if (matrix && i > 0 && i % v->nx == 0)
			line_add(&l, " |");
		line_add(&l, " %" PRId64, *view_at(v, i));
	}
	line_end(&l);
}

/* ------------------------------------------------------------------------------------ */
/* Kernels                                                                              */

/* One event of task r: takes the next tick and prints `@ev TICK KIND TASK[ TEXT]`, both
 * under ev_lock, and wakes `await`. */
static void event(struct task_rec *r, const char *kind, const char *text)
{
	struct line l;
	pthread_mutex_lock(&ev_lock);
	long tick = ++ev_clock;
	if (strcmp(kind, "start") == 0)
		r->started = 1;
	else if (strcmp(kind, "cb") == 0)
		r->called = 1;
	line_begin(&l);
	line_add(&l, "@ev %ld %s %s", tick, kind, r->name);
	if (text)
		line_add(&l, " %s", text);
	line_finish(&l);
	put_line_locked(l.text);
	free(l.text);
	pthread_cond_broadcast(&ev_cond);
	pthread_mutex_unlock(&ev_lock);
}

/* Every task carries, packed with STARPU_VALUE, its record id and delay, then the
 * kernel's own int64 arguments.  Unpacking them is part of what is tested. */
static struct task_rec *kernel_begin(void *cl_arg, int nvalues, int64_t *values)
{
	int id = -1, delay = 0;
	/* A task that should have been refused but ran anyway has no arguments: do not
	 * crash, the missing error line already makes the scenario fail. */
	if (!cl_arg)
		return NULL;
	switch (nvalues) {
	case 0:
		starpu_codelet_unpack_args(cl_arg, &id, &delay);
		break;
	case 1:
		starpu_codelet_unpack_args(cl_arg, &id, &delay, &values[0]);
		break;
	default:
		starpu_codelet_unpack_args(cl_arg, &id, &delay, &values[0], &values[1]);
		break;
	}
	if (id < 0 || id >= MAX_TASKS)
		return NULL;
	struct task_rec *r = &tasks[id];
	event(r, "start", NULL);
	if (delay > 0) {
		struct timespec ts = {delay / 1000, (delay % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	return r;
}

static void kernel_end(struct task_rec *r)
{
	event(r, "end", NULL);
}

/* What the kernel records for `report T`: "WHAT CODE". */
static void set_report(struct task_rec *r, const char *what, int ret)
{
	char text[64];
	snprintf(text, sizeof(text), "%s %d", what, ret);
	event(r, "report", text);
}

static struct view buffer_view(void *buffers[], struct task_rec *r, int i)
{
	return view_of_interface(buffers[i], r->kinds[i]);
}

static void k_noop(void *buffers[], void *cl_arg)
{
	(void)buffers;
	struct task_rec *r = kernel_begin(cl_arg, 0, NULL);
	if (r)
		kernel_end(r);
}

/* b0 = f(b0) element-wise, for set / add / scale / affine. */
enum unary { OP_SET, OP_ADD, OP_SCALE, OP_AFFINE };

static void unary_kernel(void *buffers[], void *cl_arg, enum unary op, int nvalues)
{
	int64_t v[MAX_VALUES] = {0};
	struct task_rec *r = kernel_begin(cl_arg, nvalues, v);
	if (!r)
		return;
	struct view b0 = buffer_view(buffers, r, 0);
	for (size_t i = 0; i < view_count(&b0); i++) {
		int64_t *x = view_at(&b0, i);
		switch (op) {
		case OP_SET: *x = v[0]; break;
		case OP_ADD: *x += v[0]; break;
		case OP_SCALE: *x *= v[0]; break;
		case OP_AFFINE: *x = *x * v[0] + v[1]; break;
		}
	}
	kernel_end(r);
}

static void k_set(void *b[], void *a) { unary_kernel(b, a, OP_SET, 1); }
static void k_add(void *b[], void *a) { unary_kernel(b, a, OP_ADD, 1); }
static void k_scale(void *b[], void *a) { unary_kernel(b, a, OP_SCALE, 1); }
static void k_affine(void *b[], void *a) { unary_kernel(b, a, OP_AFFINE, 2); }

/* b0[i] = K * b1[i] + (axpy ? b0[i] : 0) */
static void binary_kernel(void *buffers[], void *cl_arg, int axpy)
{
	int64_t v[MAX_VALUES] = {0};
	struct task_rec *r = kernel_begin(cl_arg, axpy ? 1 : 0, v);
	if (!r)
		return;
	struct view b0 = buffer_view(buffers, r, 0), b1 = buffer_view(buffers, r, 1);
	if (view_count(&b0) != view_count(&b1)) {
		set_report(r, "shape", -EINVAL);
	} else {
		for (size_t i = 0; i < view_count(&b0); i++) {
			if (axpy)
				*view_at(&b0, i) += v[0] * *view_at(&b1, i);
			else
				*view_at(&b0, i) = *view_at(&b1, i);
		}
	}
	kernel_end(r);
}

static void k_axpy(void *b[], void *a) { binary_kernel(b, a, 1); }
static void k_copy(void *b[], void *a) { binary_kernel(b, a, 0); }

/* Every element of b0 = the sum of every element of b1..bn-1 (n from the task, so this
 * works for STARPU_VARIABLE_NBUFFERS codelets). */
static void k_sum(void *buffers[], void *cl_arg)
{
	struct task_rec *r = kernel_begin(cl_arg, 0, NULL);
	if (!r)
		return;
	int64_t total = 0;
	for (int b = 1; b < r->nbuffers; b++) {
		struct view v = buffer_view(buffers, r, b);
		for (size_t i = 0; i < view_count(&v); i++)
			total += *view_at(&v, i);
	}
	struct view b0 = buffer_view(buffers, r, 0);
	for (size_t i = 0; i < view_count(&b0); i++)
		*view_at(&b0, i) = total;
	kernel_end(r);
}

/* A blocking call from inside a task must be refused (StarPU: -EDEADLK), not hang. */
static void k_try_acquire(void *buffers[], void *cl_arg)
{
	(void)buffers;
	int64_t v[MAX_VALUES] = {0};
	struct task_rec *r = kernel_begin(cl_arg, 1, v);
	if (!r)
		return;
	if (v[0] < 0 || v[0] >= MAX_DATA) {
		kernel_end(r);
		return;
	}
	starpu_data_handle_t h = datas[v[0]].handle;
	int ret = starpu_data_acquire(h, STARPU_R);
	if (ret == 0)
		starpu_data_release(h);
	set_report(r, "acquire", ret);
	kernel_end(r);
}

static void k_try_wait_all(void *buffers[], void *cl_arg)
{
	(void)buffers;
	struct task_rec *r = kernel_begin(cl_arg, 0, NULL);
	if (!r)
		return;
	set_report(r, "wait_all", starpu_task_wait_for_all());
	kernel_end(r);
}

/* Holds its worker until the scenario opens the gate: a busy worker without timing. */
static void k_gate(void *buffers[], void *cl_arg)
{
	(void)buffers;
	int64_t v[MAX_VALUES] = {0};
	struct task_rec *r = kernel_begin(cl_arg, 1, v);
	if (!r)
		return;
	int g = (int)v[0];
	pthread_mutex_lock(&ev_lock);
	while (g >= 0 && g < MAX_GATES && !gate_open[g])
		pthread_cond_wait(&ev_cond, &ev_lock);
	pthread_mutex_unlock(&ev_lock);
	kernel_end(r);
}

/* Records the worker it runs on ("worker N"): where a context placed the task. */
static void k_worker(void *buffers[], void *cl_arg)
{
	(void)buffers;
	struct task_rec *r = kernel_begin(cl_arg, 0, NULL);
	if (!r)
		return;
	char text[32];
	snprintf(text, sizeof(text), "worker %d", starpu_worker_get_id());
	event(r, "report", text);
	kernel_end(r);
}

/* An SPMD codelet: rank r of a team of s sets every element of its block of vector b0
 * to 10 s + r (b0 cut in s contiguous blocks, the first n mod s ones one longer). Only
 * rank 0 prints the task's events (they are the task's, not each rank's). */
static void k_spmd(void *buffers[], void *cl_arg)
{
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	struct task_rec *r = NULL;
	if (rank == 0) {
		r = kernel_begin(cl_arg, 0, NULL);
		if (!r)
			return;
	}
	int64_t *v = (int64_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	size_t n = STARPU_VECTOR_GET_NX(buffers[0]);
	size_t base = n / size, extra = n % size;
	size_t first = rank * base + ((size_t)rank < extra ? (size_t)rank : extra);
	size_t len = base + ((size_t)rank < extra);
	for (size_t i = first; i < first + len; i++)
		v[i] = 10 * size + rank;
	if (r)
		kernel_end(r);
}

/* OpenCL implementations (impl=opencl codelets), when the library has OpenCL. */
#include "opencl_kernels.h"

static const struct kernel kernels[] = {
	{"noop", k_noop, 0},
	/* On the CPU it does nothing; its OpenCL implementation fails (opencl_kernels.h). */
	{"clfail", k_noop, 0},
	{"set", k_set, 1},
	{"add", k_add, 1},
	{"scale", k_scale, 1},
	{"affine", k_affine, 2},
	{"axpy", k_axpy, 1},
	{"copy", k_copy, 0},
	{"sum", k_sum, 0},
	{"try_acquire", k_try_acquire, 1},
	{"try_wait_all", k_try_wait_all, 0},
	{"gate", k_gate, 1},
	{"worker", k_worker, 0},
	{"spmd", k_spmd, 0},
};

static void record_callback(void *arg)
{
	event(arg, "cb", NULL);
}

/* ------------------------------------------------------------------------------------ */
/* Operations: runtime                                                                  */

static void op_init(int argc, char **argv)
{
	static char sched[MAX_NAME]; /* starpu_conf keeps the pointer */
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	/* Accelerators would change where tasks run; the suite is about semantics. */
	conf.ncuda = 0;
	conf.nopencl = 0;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if ((v = option(argv[i], "ncpus")))
			conf.ncpus = (int)parse_long(v);
		else if ((v = option(argv[i], "opencl")))
			conf.nopencl = (int)parse_long(v); /* PoCL also needs STARPU_OPENCL_ON_CPUS=1 */
		else if ((v = option(argv[i], "limit_opencl_mem")))
			setenv("STARPU_LIMIT_OPENCL_MEM", v, 1); /* MiB, read by starpu_init */
		else if ((v = option(argv[i], "sched"))) {
			check_name(v);
			strcpy(sched, v);
			conf.sched_policy_name = sched;
		} else
			die("init: unknown argument '%s'", argv[i]);
	}
	int ret = starpu_init(&conf);
	report_ret("init", NULL, ret);
	if (ret == 0)
		initialized = 1;
	if (ret == 0 && conf.nopencl > 0 && starpu_opencl_worker_get_count() < (unsigned)conf.nopencl) {
		fprintf(stderr, "%d OpenCL worker(s) asked for, %u found: no OpenCL device (PoCL needs STARPU_OPENCL_ON_CPUS=1)\n",
			conf.nopencl, starpu_opencl_worker_get_count());
		starpu_shutdown();
		exit(77);
	}
	if (ret == 0)
		cl_load();
}

/* Scheduling contexts by name; "global" is context 0. */
#define MAX_CTXS 16
static struct {
	char name[MAX_NAME];
	unsigned id;
} ctxs[MAX_CTXS];
static int nctxs;

#ifdef STARPU_TRANSACTION
/* Transactions by name (StarPU 1.4). */
#define MAX_TRS 8
static struct {
	char name[MAX_NAME];
	struct starpu_transaction *trs;
} trss[MAX_TRS];
#endif
static int ntrss;

static void op_shutdown(int argc, char **argv)
{
	(void)argc, (void)argv;
	cl_unload();
	starpu_shutdown();
	initialized = 0;
	nctxs = 0;
	ntrss = 0;
}

/* ------------------------------------------------------------------------------------ */
/* Operations: data                                                                     */

/* The access modes scenarios may name (also listed by --capabilities). */
static const struct {
	const char *name;
	enum starpu_data_access_mode mode;
} access_modes[] = {
	{"R", STARPU_R},
	{"W", STARPU_W},
	{"RW", STARPU_RW},
	{"RW|COMMUTE", STARPU_RW | STARPU_COMMUTE},
	{"REDUX", STARPU_REDUX},
	{"SCRATCH", STARPU_SCRATCH},
};

static enum starpu_data_access_mode parse_mode(const char *s)
{
	for (size_t i = 0; i < COUNT(access_modes); i++)
		if (strcmp(s, access_modes[i].name) == 0)
			return access_modes[i].mode;
	die("unknown access mode '%s'", s);
}

/* data H variable [V] | data H vector N [V...] | data H matrix NX NY [V...] [home=none] */
static void op_data(int argc, char **argv)
{
	if (argc < 3)
		die("data: expected a name and a kind");
	check_name(argv[1]);
	for (int i = 0; i < ndatas; i++)
		if (datas[i].registered && strcmp(datas[i].name, argv[1]) == 0)
			die("handle '%s' registered twice", argv[1]);
	if (ndatas == MAX_DATA)
		die("too many handles");
	struct data_rec *d = &datas[ndatas];
	memset(d, 0, sizeof(*d));
	strcpy(d->name, argv[1]);
	d->parent = -1;

	int arg = 3;
	if (strcmp(argv[2], kind_names[KIND_VARIABLE]) == 0) {
		d->kind = KIND_VARIABLE;
		d->nx = d->ny = 1;
	} else if (strcmp(argv[2], kind_names[KIND_VECTOR]) == 0 && argc >= 4) {
		d->kind = KIND_VECTOR;
		d->nx = (size_t)parse_long(argv[3]);
		d->ny = 1;
		arg = 4;
	} else if (strcmp(argv[2], kind_names[KIND_MATRIX]) == 0 && argc >= 5) {
		d->kind = KIND_MATRIX;
		d->nx = (size_t)parse_long(argv[3]);
		d->ny = (size_t)parse_long(argv[4]);
		arg = 5;
	} else
		die("data: bad kind or missing sizes");

	int home_none = 0;
	if (argc > arg && strcmp(argv[argc - 1], "home=none") == 0) {
		home_none = 1;
		argc--;
	}
	size_t n = d->nx * d->ny, nvalues = (size_t)(argc - arg);
	if (nvalues != 0 && nvalues != n)
		die("data %s: %zu values for %zu elements", d->name, nvalues, n);
	if (home_none && nvalues)
		die("data %s: home=none takes no values", d->name);

	int home = STARPU_MAIN_RAM;
	uintptr_t ptr = 0;
	if (!home_none) {
		d->buffer = calloc(n, sizeof(int64_t));
		for (size_t i = 0; i < nvalues; i++)
			d->buffer[i] = parse_long(argv[arg + i]);
		ptr = (uintptr_t)d->buffer;
	} else {
		home = -1;
	}
	switch (d->kind) {
	case KIND_VARIABLE:
		starpu_variable_data_register(&d->handle, home, ptr, sizeof(int64_t));
		break;
	case KIND_VECTOR:
		starpu_vector_data_register(&d->handle, home, ptr, (uint32_t)d->nx, sizeof(int64_t));
		break;
	case KIND_MATRIX:
		starpu_matrix_data_register(&d->handle, home, ptr, (uint32_t)d->nx,
					    (uint32_t)d->nx, (uint32_t)d->ny, sizeof(int64_t));
		break;
	}
	d->registered = 1;
	ndatas++;
}

static struct data_rec *registered_data(const char *name)
{
	struct data_rec *d = find_data(name);
	if (!d->registered)
		die("handle '%s' is not registered", name);
	return d;
}

static void op_read(int argc, char **argv)
{
	if (argc != 2)
		die("read: expected one handle");
	struct data_rec *d = registered_data(argv[1]);
	int ret = starpu_data_acquire(d->handle, STARPU_R);
	report_ret("read", d->name, ret);
	if (ret != 0)
		return;
	struct view v = view_of_handle(d);
	print_view("read", d->name, &v, d->kind == KIND_MATRIX);
	starpu_data_release(d->handle);
}

static void op_acquire(int argc, char **argv)
{
	if (argc != 3)
		die("acquire: expected a handle and a mode");
	struct data_rec *d = registered_data(argv[1]);
	report_ret("acquire", d->name, starpu_data_acquire(d->handle, parse_mode(argv[2])));
}

static void op_show(int argc, char **argv)
{
	if (argc != 2)
		die("show: expected one handle");
	struct data_rec *d = registered_data(argv[1]);
	struct view v = view_of_handle(d);
	print_view("show", d->name, &v, d->kind == KIND_MATRIX);
}

static void op_store(int argc, char **argv)
{
	if (argc < 2)
		die("store: expected a handle and values");
	struct data_rec *d = registered_data(argv[1]);
	struct view v = view_of_handle(d);
	if ((size_t)(argc - 2) != view_count(&v))
		die("store %s: %d values for %zu elements", d->name, argc - 2, view_count(&v));
	for (size_t i = 0; i < view_count(&v); i++)
		*view_at(&v, i) = parse_long(argv[2 + i]);
}

static void op_release(int argc, char **argv)
{
	if (argc != 2)
		die("release: expected one handle");
	starpu_data_release(registered_data(argv[1])->handle);
}

static void op_buffer(int argc, char **argv)
{
	if (argc != 2)
		die("buffer: expected one handle");
	struct data_rec *d = find_data(argv[1]);
	if (!d->buffer)
		die("handle '%s' has no application buffer", d->name);
	struct view v = view_of_buffer(d);
	print_view("buffer", d->name, &v, d->kind == KIND_MATRIX);
}

/* The filters `partition` knows (also listed by --capabilities); a child has the kind
 * of its parent. */
static const struct {
	const char *name;
	enum kind kind;
	void (*func)(void *father, void *child, struct starpu_data_filter *f, unsigned id,
		     unsigned nparts);
} filters[] = {
	{"vector_block", KIND_VECTOR, starpu_vector_filter_block},
	{"matrix_block", KIND_MATRIX, starpu_matrix_filter_block},
	{"matrix_vertical_block", KIND_MATRIX, starpu_matrix_filter_vertical_block},
};

/* The filter FILTER (a name in `filters`) with N children, for handle d. */
static struct starpu_data_filter make_filter(const struct data_rec *d, const char *filter,
					     const char *n)
{
	struct starpu_data_filter f;
	memset(&f, 0, sizeof(f));
	f.nchildren = (unsigned)parse_long(n);
	for (size_t i = 0; i < COUNT(filters); i++)
		if (strcmp(filter, filters[i].name) == 0 && d->kind == filters[i].kind)
			f.filter_func = filters[i].func;
	if (!f.filter_func)
		die("filter '%s' does not apply to '%s'", filter, d->name);
	if (ndatas + (int)f.nchildren > MAX_DATA)
		die("too many handles");
	return f;
}

static void op_partition(int argc, char **argv)
{
	if (argc != 4)
		die("partition: expected a handle, a filter and a count");
	int parent = find_data_index(argv[1]);
	struct data_rec *d = &datas[parent];
	if (!d->registered)
		die("handle '%s' is not registered", d->name);
	struct starpu_data_filter f = make_filter(d, argv[2], argv[3]);
	starpu_data_partition(d->handle, &f);
	d->nchildren = (int)f.nchildren;
	for (unsigned i = 0; i < f.nchildren; i++) {
		struct data_rec *c = &datas[ndatas++];
		memset(c, 0, sizeof(*c));
		if (snprintf(c->name, MAX_NAME, "%s.%u", d->name, i) >= MAX_NAME)
			die("child name too long");
		c->handle = starpu_data_get_sub_data(datas[parent].handle, 1, i);
		c->kind = d->kind;
		c->registered = 1;
		c->parent = parent;
	}
}

static void op_unpartition(int argc, char **argv)
{
	if (argc != 2)
		die("unpartition: expected one handle");
	int parent = find_data_index(argv[1]);
	if (!datas[parent].nchildren)
		die("handle '%s' is not partitioned", argv[1]);
	starpu_data_unpartition(datas[parent].handle, STARPU_MAIN_RAM);
	/* The children are gone with the partition: forget their names. */
	for (int i = 0; i < ndatas; i++)
		if (datas[i].parent == parent) {
			datas[i].registered = 0;
			datas[i].name[0] = '\0';
		}
	datas[parent].nchildren = 0;
}

/* Partition plans (asynchronous partitioning): `partition_plan H FILTER N P` makes plan
 * P of H, whose children are named P.0 ... P.N-1; the switches name H and P. */
#define MAX_PLANS 64
#define MAX_PLAN_CHILDREN 64

struct plan_rec {
	char name[MAX_NAME];
	int parent;
	unsigned n;
	starpu_data_handle_t children[MAX_PLAN_CHILDREN];
	int first_child; /* index of P.0 in datas */
};

static struct plan_rec plans[MAX_PLANS];
static int nplans;

static struct plan_rec *find_plan(const char *name)
{
	for (int i = nplans - 1; i >= 0; i--)
		if (strcmp(plans[i].name, name) == 0)
			return &plans[i];
	die("unknown plan '%s'", name);
}

static void op_partition_plan(int argc, char **argv)
{
	if (argc != 5)
		die("partition_plan: expected a handle, a filter, a count and a plan name");
	int parent = find_data_index(argv[1]);
	struct data_rec *d = &datas[parent];
	if (!d->registered)
		die("handle '%s' is not registered", d->name);
	struct starpu_data_filter f = make_filter(d, argv[2], argv[3]);
	if (nplans == MAX_PLANS || f.nchildren > MAX_PLAN_CHILDREN)
		die("too many plans or children");
	struct plan_rec *p = &plans[nplans++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, MAX_NAME, "%s", argv[4]);
	p->parent = parent;
	p->n = f.nchildren;
	p->first_child = ndatas;
	starpu_data_partition_plan(d->handle, &f, p->children);
	for (unsigned i = 0; i < p->n; i++) {
		struct data_rec *c = &datas[ndatas++];
		memset(c, 0, sizeof(*c));
		if (snprintf(c->name, MAX_NAME, "%s.%u", p->name, i) >= MAX_NAME)
			die("child name too long");
		c->handle = p->children[i];
		c->kind = d->kind;
		c->registered = 1;
		c->parent = -1; /* not a child of a synchronous partitioning */
	}
}

static void op_plan_switch(int argc, char **argv)
{
	if (argc != 3)
		die("%s: expected a handle and a plan", argv[0]);
	starpu_data_handle_t h = registered_data(argv[1])->handle;
	struct plan_rec *p = find_plan(argv[2]);
	const char *v = argv[0];
	if (strcmp(v, "partition_submit") == 0)
		starpu_data_partition_submit(h, p->n, p->children);
	else if (strcmp(v, "partition_readonly_submit") == 0)
		starpu_data_partition_readonly_submit(h, p->n, p->children);
	else if (strcmp(v, "partition_readwrite_upgrade_submit") == 0)
		starpu_data_partition_readwrite_upgrade_submit(h, p->n, p->children);
	else if (strcmp(v, "unpartition_submit") == 0)
		starpu_data_unpartition_submit(h, p->n, p->children, STARPU_MAIN_RAM);
	else if (strcmp(v, "unpartition_readonly_submit") == 0)
		starpu_data_unpartition_readonly_submit(h, p->n, p->children, STARPU_MAIN_RAM);
	else if (strcmp(v, "partition_readonly_downgrade_submit") == 0) {
#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
		starpu_data_partition_readonly_downgrade_submit(h, p->n, p->children);
#endif
	} else if (strcmp(v, "partition_clean") == 0) {
		starpu_data_partition_clean(h, p->n, p->children);
		/* The children go with the plan: forget their names. */
		for (unsigned i = 0; i < p->n; i++) {
			datas[p->first_child + i].registered = 0;
			datas[p->first_child + i].name[0] = '\0';
		}
		p->name[0] = '\0';
	}
}

#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
static void op_nplans(int argc, char **argv)
{
	if (argc != 2)
		die("nplans: expected one handle");
	printf("nplans %s = %d\n", argv[1],
	       starpu_data_partition_get_nplans(registered_data(argv[1])->handle));
}
#endif

static void op_unregister(int argc, char **argv)
{
	if (argc != 2)
		die("%s: expected one handle", argv[0]);
	struct data_rec *d = registered_data(argv[1]);
	if (strcmp(argv[0], "unregister") == 0)
		starpu_data_unregister(d->handle);
	else
		starpu_data_unregister_no_coherency(d->handle);
	d->registered = 0;
}

static void op_invalidate(int argc, char **argv)
{
	if (argc != 2)
		die("invalidate: expected one handle");
	starpu_data_invalidate(registered_data(argv[1])->handle);
}

/* The reduction methods of `redux_methods`: a sum. They run outside any scenario task
 * (no event), on whatever interface the data has: every built-in interface description
 * starts with its interface id. */
static struct view view_of_any(void *iface)
{
	switch (*(enum starpu_data_interface_id *)iface) {
	case STARPU_VARIABLE_INTERFACE_ID: return view_of_interface(iface, KIND_VARIABLE);
	case STARPU_VECTOR_INTERFACE_ID: return view_of_interface(iface, KIND_VECTOR);
	default: return view_of_interface(iface, KIND_MATRIX);
	}
}

static void redux_zero(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	struct view v = view_of_any(buffers[0]);
	for (size_t i = 0; i < view_count(&v); i++)
		*view_at(&v, i) = 0;
}

static void redux_sum(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	struct view dst = view_of_any(buffers[0]), src = view_of_any(buffers[1]);
	for (size_t i = 0; i < view_count(&dst); i++)
		*view_at(&dst, i) += *view_at(&src, i);
}

static struct starpu_codelet redux_zero_cl = {
	.cpu_funcs = {redux_zero}, .nbuffers = 1, .modes = {STARPU_W}, .name = "redux_zero",
};
static struct starpu_codelet redux_sum_cl = {
	.cpu_funcs = {redux_sum}, .nbuffers = 2, .modes = {STARPU_RW, STARPU_R},
	.name = "redux_sum",
};

/* redux_methods H: starpu_data_set_reduction_methods with a sum (init 0, b0 += b1). */
static void op_redux_methods(int argc, char **argv)
{
	if (argc != 2)
		die("redux_methods: expected a handle");
	starpu_data_set_reduction_methods(registered_data(argv[1])->handle, &redux_sum_cl,
					  &redux_zero_cl);
}

static void op_seqcons(int argc, char **argv)
{
	if (argc != 3)
		die("seqcons: expected a handle and 0 or 1");
	starpu_data_set_sequential_consistency_flag(registered_data(argv[1])->handle,
						    (unsigned)parse_long(argv[2]));
}

/* ------------------------------------------------------------------------------------ */
/* Operations: codelets and tasks                                                       */

static void op_codelet(int argc, char **argv)
{
	if (argc < 3)
		die("codelet: expected a name and a kernel");
	check_name(argv[1]);
	if (ncodelets == MAX_CODELETS)
		die("too many codelets");
	const struct kernel *k = NULL;
	for (size_t i = 0; i < COUNT(kernels); i++)
		if (strcmp(kernels[i].name, argv[2]) == 0)
			k = &kernels[i];
	if (!k)
		die("unknown kernel '%s'", argv[2]);
	/* The table never moves: tasks keep pointers to these codelets. */
	struct codelet_rec *c = &codelets[ncodelets++];
	memset(c, 0, sizeof(*c));
	strcpy(c->name, argv[1]);
	c->kernel = k;
	c->cl.cpu_funcs[0] = k->func;
	c->cl.name = c->name;
	/* impl=cpu (the default), impl=opencl, impl=cpu+opencl: the implementations. */
	if (argc > 3 && option(argv[argc - 1], "impl")) {
		const char *impl = option(argv[--argc], "impl");
		if (!strstr(impl, "cpu"))
			c->cl.cpu_funcs[0] = NULL;
		if (strstr(impl, "opencl")) {
#ifdef HAVE_OPENCL_KERNELS
			c->cl.opencl_funcs[0] = opencl_version(k->name);
#endif
			if (!c->cl.opencl_funcs[0])
				die("kernel '%s' has no OpenCL implementation in this build", k->name);
		}
	}
	if (k->func == k_spmd) {
		c->cl.type = STARPU_SPMD;
		c->cl.max_parallelism = INT_MAX;
	}
	if (argc == 4 && strcmp(argv[3], "*") == 0) {
		c->variable = 1;
		c->cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
	} else {
		if (argc - 3 > MAX_BUFS)
			die("codelet: at most %d buffers", MAX_BUFS);
		c->cl.nbuffers = argc - 3;
		for (int i = 3; i < argc; i++)
			c->cl.modes[i - 3] = parse_mode(argv[i]);
	}
}

/* What an `insert` or `task` line asks for. */
struct task_spec {
	struct codelet_rec *codelet;
	int nbuffers;
	enum starpu_data_access_mode modes[MAX_BUFS];
	starpu_data_handle_t handles[MAX_BUFS];
	int nvalues;
	int64_t values[MAX_VALUES];
	int prio, callback, sync, nodetach, badkey, use_tag;
	starpu_tag_t tag;
	unsigned ctx; /* STARPU_NMAX_SCHED_CTXS: none named */
	void *trs;    /* trs=X: the transaction (NULL: none) */
};

static unsigned find_ctx(const char *name)
{
	if (strcmp(name, "global") == 0)
		return 0;
	for (int i = 0; i < nctxs; i++)
		if (strcmp(ctxs[i].name, name) == 0)
			return ctxs[i].id;
	die("unknown context '%s'", name);
}

static int parse_workers(int argc, char **argv, int from, int *ids)
{
	int n = 0;
	for (int i = from; i < argc && n < STARPU_NMAXWORKERS; i++)
		if (!strchr(argv[i], '='))
			ids[n++] = (int)parse_long(argv[i]);
	return n;
}

/* ctx NAME W... [policy=P]: starpu_sched_ctx_create over workers W... */
static void op_ctx(int argc, char **argv)
{
	if (argc < 2)
		die("ctx: expected a name");
	check_name(argv[1]);
	if (nctxs == MAX_CTXS)
		die("too many contexts");
	const char *policy = "eager";
	for (int i = 2; i < argc; i++) {
		const char *v = option(argv[i], "policy");
		if (v)
			policy = v;
		else if (strchr(argv[i], '='))
			die("ctx: unknown option '%s'", argv[i]);
	}
	int ids[STARPU_NMAXWORKERS];
	int n = parse_workers(argc, argv, 2, ids);
	unsigned id = starpu_sched_ctx_create(ids, n, argv[1], STARPU_SCHED_CTX_POLICY_NAME, policy, 0);
	if (id >= STARPU_NMAX_SCHED_CTXS) {
		report_ret("ctx", argv[1], -EINVAL);
		return;
	}
	strcpy(ctxs[nctxs].name, argv[1]);
	ctxs[nctxs++].id = id;
}

/* ctx_remove NAME W...: starpu_sched_ctx_remove_workers. */
static void op_ctx_remove(int argc, char **argv)
{
	if (argc < 3)
		die("ctx_remove: expected a context and workers");
	int ids[STARPU_NMAXWORKERS];
	int n = parse_workers(argc, argv, 2, ids);
	starpu_sched_ctx_remove_workers(ids, n, find_ctx(argv[1]));
}

/* ctx_inheritor NAME HEIR: starpu_sched_ctx_set_inheritor. */
static void op_ctx_inheritor(int argc, char **argv)
{
	if (argc != 3)
		die("ctx_inheritor: expected a context and its heir");
	starpu_sched_ctx_set_inheritor(find_ctx(argv[1]), find_ctx(argv[2]));
}

/* ctx_delete NAME: starpu_sched_ctx_delete; the name keeps its (now unused) id. */
static void op_ctx_delete(int argc, char **argv)
{
	if (argc != 2)
		die("ctx_delete: expected a context");
	starpu_sched_ctx_delete(find_ctx(argv[1]));
}

#ifdef STARPU_TRANSACTION
static void *find_trs(const char *name)
{
	for (int i = 0; i < ntrss; i++)
		if (strcmp(trss[i].name, name) == 0)
			return trss[i].trs;
	die("unknown transaction '%s'", name);
}

/* The start function: the epoch's argument says whether it runs (yes: 1, no: 0). */
static int trs_start(void *buffer, void *arg)
{
	(void)buffer;
	return (int)(intptr_t)arg;
}

static void *parse_yes_no(const char *verb, const char *tok)
{
	if (strcmp(tok, "yes") == 0)
		return (void *)(intptr_t)1;
	if (strcmp(tok, "no") == 0)
		return (void *)(intptr_t)0;
	die("%s: expected yes or no, got '%s'", verb, tok);
}

/* trs_open X yes|no: starpu_transaction_open; the first epoch runs or not. */
static void op_trs_open(int argc, char **argv)
{
	if (argc != 3)
		die("trs_open: expected a name and yes|no");
	check_name(argv[1]);
	if (ntrss == MAX_TRS)
		die("too many transactions");
	struct starpu_transaction *t = starpu_transaction_open(trs_start, parse_yes_no("trs_open", argv[2]));
	if (!t) {
		report_ret("trs_open", argv[1], -ENODEV);
		return;
	}
	strcpy(trss[ntrss].name, argv[1]);
	trss[ntrss++].trs = t;
}

/* trs_next X yes|no: starpu_transaction_next_epoch. */
static void op_trs_next(int argc, char **argv)
{
	if (argc != 3)
		die("trs_next: expected a transaction and yes|no");
	starpu_transaction_next_epoch(find_trs(argv[1]), parse_yes_no("trs_next", argv[2]));
}

/* trs_close X: starpu_transaction_close; the name is gone. */
static void op_trs_close(int argc, char **argv)
{
	if (argc != 2)
		die("trs_close: expected a transaction");
	starpu_transaction_close(find_trs(argv[1]));
	for (int i = 0; i < ntrss; i++)
		if (strcmp(trss[i].name, argv[1]) == 0)
			trss[i] = trss[--ntrss];
}
#endif

/* The task options parse_task knows (listed by --capabilities). */
static const char *const task_options[] = {
	"value", "ref", "delay", "prio", "callback", "sync", "tag", "nodetach", "badkey", "ctx",
#ifdef STARPU_TRANSACTION
	"trs",
#endif
};

/* insert|task T C BUF... OPTS...; fills the record's buffer kinds and delay too. */
static void parse_task(int argc, char **argv, int is_insert, struct task_rec *r,
		       struct task_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->ctx = STARPU_NMAX_SCHED_CTXS;
	s->codelet = find_codelet(argv[2]);
	for (int i = 3; i < argc; i++) {
		const char *tok = argv[i], *v, *colon = strchr(tok, ':');
		if (colon && !strchr(tok, '=')) {
			if (s->nbuffers == MAX_BUFS)
				die("at most %d buffers", MAX_BUFS);
			char mode[MAX_NAME];
			snprintf(mode, sizeof(mode), "%.*s", (int)(colon - tok), tok);
			s->modes[s->nbuffers] = parse_mode(mode);
			if (strcmp(colon + 1, "null") == 0) {
				s->handles[s->nbuffers] = NULL;
				r->kinds[s->nbuffers] = KIND_VARIABLE;
			} else {
				struct data_rec *d = registered_data(colon + 1);
				s->handles[s->nbuffers] = d->handle;
				r->kinds[s->nbuffers] = d->kind;
			}
			s->nbuffers++;
		} else if ((v = option(tok, "value")) || (v = option(tok, "ref"))) {
			if (s->nvalues == MAX_VALUES)
				die("at most %d values", MAX_VALUES);
			s->values[s->nvalues++] = option(tok, "ref") ? find_data_index(v)
								     : parse_long(v);
		} else if ((v = option(tok, "delay")))
			r->delay_ms = (int)parse_long(v);
		else if ((v = option(tok, "prio")))
			s->prio = (int)parse_long(v);
		else if ((v = option(tok, "ctx")))
			s->ctx = find_ctx(v);
#ifdef STARPU_TRANSACTION
		else if ((v = option(tok, "trs")))
			s->trs = find_trs(v);
#endif
		else if (strcmp(tok, "callback") == 0)
			s->callback = 1;
		else if (strcmp(tok, "sync") == 0)
			s->sync = 1;
		else if ((v = option(tok, "tag")) && !is_insert) {
			s->use_tag = 1;
			s->tag = (starpu_tag_t)parse_long(v);
		} else if (strcmp(tok, "nodetach") == 0 && !is_insert)
			s->nodetach = 1;
		else if (strcmp(tok, "badkey") == 0 && is_insert)
			s->badkey = 1;
		else
			die("%s: unknown option '%s'", argv[0], tok);
	}
	if (s->nvalues != s->codelet->kernel->nvalues)
		die("kernel %s takes %d values, %d given", s->codelet->kernel->name,
		    s->codelet->kernel->nvalues, s->nvalues);
	if (s->badkey && (s->nbuffers > 1 || s->nvalues))
		die("badkey: at most one buffer and no values");
	r->nbuffers = s->nbuffers;
}

/* starpu_task_insert is variadic, so each shape of argument list needs its own call.
 * Every call passes the same tail (record id and delay for the kernel, priority,
 * callback, synchronous flag, name; NULL callback and 0 are StarPU's defaults), then
 * the kernel's values; BUFS is the list of "mode, handle," pairs.  The callback
 * argument is the driver's record: _NFREE, or StarPU would free() it. */
#define INSERT_TAIL                                                                  \
	STARPU_VALUE, &r->id, sizeof(r->id), STARPU_VALUE, &r->delay_ms,             \
		sizeof(r->delay_ms), STARPU_PRIORITY, s->prio,                       \
		STARPU_CALLBACK_WITH_ARG_NFREE, callback, (void *)r,                 \
		STARPU_TASK_SYNCHRONOUS, s->sync, STARPU_NAME, r->name, STARPU_SCHED_CTX, s->ctx \
		INSERT_TRS
#ifdef STARPU_TRANSACTION
#define INSERT_TRS , STARPU_TRANSACTION, s->trs
#else
#define INSERT_TRS
#endif
#define INSERT(BUFS)                                                                 \
	do {                                                                         \
		switch (s->nvalues) {                                                \
		case 0:                                                              \
			ret = starpu_task_insert(cl, BUFS INSERT_TAIL, 0);           \
			break;                                                       \
		case 1:                                                              \
			ret = starpu_task_insert(cl, BUFS INSERT_TAIL, STARPU_VALUE, \
						 &s->values[0], sizeof(int64_t), 0); \
			break;                                                       \
		default:                                                             \
			ret = starpu_task_insert(cl, BUFS INSERT_TAIL, STARPU_VALUE, \
						 &s->values[0], sizeof(int64_t),     \
						 STARPU_VALUE, &s->values[1],        \
						 sizeof(int64_t), 0);                \
			break;                                                       \
		}                                                                    \
	} while (0)
#define B(i) (int)s->modes[i], s->handles[i],

static int do_insert(struct task_rec *r, struct task_spec *s)
{
	struct starpu_codelet *cl = &s->codelet->cl;
	void (*callback)(void *) = s->callback ? record_callback : NULL;
	int ret = 0;
	if (s->badkey) {
		/* Bad input: the runtime must refuse the key it does not know. */
		if (s->nbuffers == 0)
			return starpu_task_insert(cl, STARPU_NAME, r->name, UNKNOWN_INSERT_KEY, 0, 0);
		return starpu_task_insert(cl, B(0) STARPU_NAME, r->name, UNKNOWN_INSERT_KEY, 0, 0);
	}
	switch (s->nbuffers) {
	case 0: INSERT(); break;
	case 1: INSERT(B(0)); break;
	case 2: INSERT(B(0) B(1)); break;
	case 3: INSERT(B(0) B(1) B(2)); break;
	case 4: INSERT(B(0) B(1) B(2) B(3)); break;
	case 5: INSERT(B(0) B(1) B(2) B(3) B(4)); break;
	case 6: INSERT(B(0) B(1) B(2) B(3) B(4) B(5)); break;
	case 7: INSERT(B(0) B(1) B(2) B(3) B(4) B(5) B(6)); break;
	default: INSERT(B(0) B(1) B(2) B(3) B(4) B(5) B(6) B(7)); break;
	}
	return ret;
}

static void op_insert(int argc, char **argv)
{
	if (argc < 3)
		die("insert: expected a task name and a codelet");
	struct task_rec *r = new_task_rec(argv[1]);
	struct task_spec s;
	parse_task(argc, argv, 1, r, &s);
	report_ret("insert", r->name, do_insert(r, &s));
}

/* task T C BUF... OPTS: starpu_task_create and its fields; `submit T` submits it. */
static void op_task(int argc, char **argv)
{
	if (argc < 3)
		die("task: expected a task name and a codelet");
	struct task_rec *r = new_task_rec(argv[1]);
	struct task_spec s;
	parse_task(argc, argv, 0, r, &s);
	struct codelet_rec *c = s.codelet;
	if (!c->variable) {
		if (s.nbuffers != c->cl.nbuffers)
			die("task %s: codelet %s has %d buffers", r->name, c->name, c->cl.nbuffers);
		for (int i = 0; i < s.nbuffers; i++)
			if (s.modes[i] != c->cl.modes[i])
				die("task %s: buffer %d mode differs from the codelet's", r->name, i);
	}

	struct starpu_task *t = starpu_task_create();
	t->cl = &c->cl;
	t->name = r->name;
	for (int i = 0; i < s.nbuffers; i++) {
		t->handles[i] = s.handles[i];
		if (c->variable)
			t->modes[i] = s.modes[i];
	}
	if (c->variable)
		t->nbuffers = s.nbuffers;
	/* Same argument block as starpu_task_insert builds, so kernels unpack one way. */
	switch (s.nvalues) {
	case 0:
		starpu_codelet_pack_args(&t->cl_arg, &t->cl_arg_size, STARPU_VALUE, &r->id,
					 sizeof(r->id), STARPU_VALUE, &r->delay_ms,
					 sizeof(r->delay_ms), 0);
		break;
	case 1:
		starpu_codelet_pack_args(&t->cl_arg, &t->cl_arg_size, STARPU_VALUE, &r->id,
					 sizeof(r->id), STARPU_VALUE, &r->delay_ms,
					 sizeof(r->delay_ms), STARPU_VALUE, &s.values[0],
					 sizeof(int64_t), 0);
		break;
	default:
		starpu_codelet_pack_args(&t->cl_arg, &t->cl_arg_size, STARPU_VALUE, &r->id,
					 sizeof(r->id), STARPU_VALUE, &r->delay_ms,
					 sizeof(r->delay_ms), STARPU_VALUE, &s.values[0],
					 sizeof(int64_t), STARPU_VALUE, &s.values[1],
					 sizeof(int64_t), 0);
		break;
	}
	t->cl_arg_free = 1;
	t->priority = s.prio;
	t->sched_ctx = s.ctx;
#ifdef STARPU_TRANSACTION
	t->transaction = s.trs;
#endif
	if (s.callback) {
		t->callback_func = record_callback;
		t->callback_arg = r;
	}
	t->synchronous = s.sync;
	if (s.use_tag) {
		t->use_tag = 1;
		t->tag_id = s.tag;
	}
	if (s.nodetach)
		t->detach = 0;
	r->task = t;
}

static struct starpu_task *task_of(const char *name)
{
	struct task_rec *r = find_task(name);
	if (!r->task)
		die("task '%s' was not built with `task`, or is already freed", name);
	return r->task;
}

static void op_deps(int argc, char **argv)
{
	if (argc < 3)
		die("deps: expected a task and its dependencies");
	struct starpu_task *deps[MAX_TOKENS];
	for (int i = 2; i < argc; i++)
		deps[i - 2] = task_of(argv[i]);
	starpu_task_declare_deps_array(task_of(argv[1]), (unsigned)(argc - 2), deps);
}

static void op_submit(int argc, char **argv)
{
	if (argc != 2)
		die("submit: expected one task");
	struct task_rec *r = find_task(argv[1]);
	/* The pointer is kept even for a detached task: `wait` on it is a bad-input case
	 * the scenario may exercise while the task is still held back. */
	report_ret("submit", r->name, starpu_task_submit(task_of(argv[1])));
}

static void op_wait(int argc, char **argv)
{
	if (argc != 2)
		die("wait: expected one task");
	struct task_rec *r = find_task(argv[1]);
	int ret = starpu_task_wait(task_of(argv[1]));
	report_ret("wait", r->name, ret);
	if (ret == 0)
		r->task = NULL; /* destroyed by starpu_task_wait (destroy = 1) */
}

static void op_wait_all(int argc, char **argv)
{
	(void)argc, (void)argv;
	report_ret("wait_all", NULL, starpu_task_wait_for_all());
}

static void parse_tags(int argc, char **argv, int from, starpu_tag_t *tags)
{
	for (int i = from; i < argc; i++)
		tags[i - from] = (starpu_tag_t)parse_long(argv[i]);
}

static void op_tag_deps(int argc, char **argv)
{
	if (argc < 3)
		die("tag_deps: expected a tag and its dependencies");
	starpu_tag_t deps[MAX_TOKENS];
	parse_tags(argc, argv, 2, deps);
	starpu_tag_declare_deps_array((starpu_tag_t)parse_long(argv[1]), (unsigned)(argc - 2),
				      deps);
}

static void op_tag_notify(int argc, char **argv)
{
	if (argc != 2)
		die("tag_notify: expected one tag");
	starpu_tag_notify_from_apps((starpu_tag_t)parse_long(argv[1]));
}

static void op_tag_wait(int argc, char **argv)
{
	if (argc < 2)
		die("tag_wait: expected tags");
	starpu_tag_t tags[MAX_TOKENS];
	parse_tags(argc, argv, 1, tags);
	int ret = argc == 2 ? starpu_tag_wait(tags[0])
			    : starpu_tag_wait_array((unsigned)(argc - 1), tags);
	report_ret("tag_wait", argv[1], ret);
}

/* ------------------------------------------------------------------------------------ */
/* Operations: the clock and helpers                                                   */

/* clock: the clock's current value, for the harness to render an observation at. */
static void op_clock(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		die("clock takes no argument");
	char text[48];
	pthread_mutex_lock(&ev_lock);
	snprintf(text, sizeof(text), "@clock %ld\n", ev_clock);
	put_line_locked(text);
	pthread_mutex_unlock(&ev_lock);
}

static void op_open(int argc, char **argv)
{
	if (argc != 2)
		die("open: expected one gate");
	long g = parse_long(argv[1]);
	if (g < 0 || g >= MAX_GATES)
		die("gates are 0..%d", MAX_GATES - 1);
	pthread_mutex_lock(&ev_lock);
	gate_open[g] = 1;
	pthread_cond_broadcast(&ev_cond);
	pthread_mutex_unlock(&ev_lock);
}

static void op_await(int argc, char **argv)
{
	if (argc != 2)
		die("await: expected one event");
	int callback = strncmp(argv[1], "cb:", 3) == 0;
	struct task_rec *r = find_task(callback ? argv[1] + 3 : argv[1]);
	pthread_mutex_lock(&ev_lock);
	while (!(callback ? r->called : r->started))
		pthread_cond_wait(&ev_cond, &ev_lock);
	pthread_mutex_unlock(&ev_lock);
}

/* ------------------------------------------------------------------------------------ */
/* Dispatch                                                                             */

static const struct {
	const char *verb;
	void (*run)(int argc, char **argv);
} operations[] = {
	{"init", op_init},
	{"shutdown", op_shutdown},
	{"data", op_data},
	{"read", op_read},
	{"acquire", op_acquire},
	{"show", op_show},
	{"store", op_store},
	{"release", op_release},
	{"buffer", op_buffer},
	{"partition", op_partition},
	{"unpartition", op_unpartition},
	{"partition_plan", op_partition_plan},
	{"partition_submit", op_plan_switch},
	{"partition_readonly_submit", op_plan_switch},
	{"partition_readwrite_upgrade_submit", op_plan_switch},
	{"unpartition_submit", op_plan_switch},
	{"unpartition_readonly_submit", op_plan_switch},
	{"partition_clean", op_plan_switch},
#if STARPU_MAJOR_VERSION > 1 || STARPU_MINOR_VERSION >= 4
	/* StarPU 1.4 only: a 1.3 build does not list them, so these scenarios are skipped. */
	{"partition_readonly_downgrade_submit", op_plan_switch},
	{"nplans", op_nplans},
#endif
	{"unregister", op_unregister},
	{"unregister_no_coherency", op_unregister},
	{"invalidate", op_invalidate},
	{"seqcons", op_seqcons},
	{"redux_methods", op_redux_methods},
	{"codelet", op_codelet},
	{"insert", op_insert},
	{"task", op_task},
	{"deps", op_deps},
	{"submit", op_submit},
	{"wait", op_wait},
	{"wait_all", op_wait_all},
	{"tag_deps", op_tag_deps},
	{"tag_notify", op_tag_notify},
	{"tag_wait", op_tag_wait},
	{"ctx", op_ctx},
	{"ctx_remove", op_ctx_remove},
	{"ctx_inheritor", op_ctx_inheritor},
	{"ctx_delete", op_ctx_delete},
#ifdef STARPU_TRANSACTION
	{"trs_open", op_trs_open},
	{"trs_next", op_trs_next},
	{"trs_close", op_trs_close},
#endif
	{"clock", op_clock},
	{"open", op_open},
	{"await", op_await},
};

static void run_operation(int argc, char **argv)
{
	for (size_t i = 0; i < COUNT(operations); i++)
		if (strcmp(operations[i].verb, argv[0]) == 0) {
			operations[i].run(argc, argv);
			return;
		}
	die("unknown operation '%s'", argv[0]);
}

/* ------------------------------------------------------------------------------------ */
/* Capabilities and the plan reader                                                     */

/* What this driver can express, from the tables it executes with. */
static void print_capabilities(void)
{
	for (size_t i = 0; i < COUNT(operations); i++)
		printf("op %s\n", operations[i].verb);
	for (size_t i = 0; i < COUNT(kernels); i++)
		printf("kernel %s\n", kernels[i].name);
	for (size_t i = 0; i < COUNT(task_options); i++)
		printf("option %s\n", task_options[i]);
	for (size_t i = 0; i < COUNT(filters); i++)
		printf("filter %s\n", filters[i].name);
	for (size_t i = 0; i < COUNT(kind_names); i++)
		printf("kind %s\n", kind_names[i]);
	for (size_t i = 0; i < COUNT(access_modes); i++)
		printf("mode %s\n", access_modes[i].name);
	printf("home none\n");        /* data ... home=none: home node -1 */
	printf("nbuffers variable\n"); /* codelet C K *: STARPU_VARIABLE_NBUFFERS */
	printf("handle null\n");      /* MODE:null: a NULL handle */
#ifdef HAVE_OPENCL_KERNELS
	printf("device opencl\n"); /* init opencl=K: OpenCL workers */
	printf("impl opencl\n");   /* codelet ... impl=opencl: OpenCL implementations */
#endif
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s PLAN | --capabilities\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "--capabilities") == 0) {
		print_capabilities();
		return 0;
	}
	plan_path = argv[1];
	FILE *f = fopen(plan_path, "r");
	if (!f) {
		perror(plan_path);
		return 2;
	}
	/* Line-buffered even into a pipe: if the runtime crashes, the harness still sees
	 * every line printed before. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* One operation per line; the harness writes nothing else into a plan. */
	static char line[MAX_LINE];
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		char *tokens[MAX_TOKENS];
		int ntok = 0;
		for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
			if (ntok == MAX_TOKENS)
				die("too many tokens");
			tokens[ntok++] = tok;
		}
		if (ntok)
			run_operation(ntok, tokens);
	}
	fclose(f);
	if (initialized)
		starpu_shutdown();
	return 0;
}
