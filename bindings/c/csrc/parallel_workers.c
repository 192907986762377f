/* The variadic walkers of starpu_parallel_worker_init and StarPU 1.4's starpu_cluster_machine:
 * they copy the KEY, value... 0 list into an array (values read with the type each key
 * takes) and hand it to src/parallel_workers.rs, where the options are interpreted. */
#include <starpu.h>
#include <stdarg.h>

/* Same values as starpu_parallel_worker.h's STARPU_PARALLEL_WORKER_* (and STARPU_CLUSTER_*). */
#define PW_MIN_NB (1 << STARPU_MODE_SHIFT)
#define PW_MAX_NB (2 << STARPU_MODE_SHIFT)
#define PW_NB (3 << STARPU_MODE_SHIFT)
#define PW_PREFERE_MIN (4 << STARPU_MODE_SHIFT)
#define PW_KEEP_HOMOGENEOUS (5 << STARPU_MODE_SHIFT)
#define PW_POLICY_NAME (6 << STARPU_MODE_SHIFT)
#define PW_POLICY_STRUCT (7 << STARPU_MODE_SHIFT)
#define PW_CREATE_FUNC (8 << STARPU_MODE_SHIFT)
#define PW_CREATE_FUNC_ARG (9 << STARPU_MODE_SHIFT)
#define PW_TYPE (10 << STARPU_MODE_SHIFT)
#define PW_AWAKE_WORKERS (11 << STARPU_MODE_SHIFT)
#define PW_PARTITION_ONE (12 << STARPU_MODE_SHIFT)
#define PW_NEW (13 << STARPU_MODE_SHIFT)
#define PW_NCORES (14 << STARPU_MODE_SHIFT)

#define PW_MAX_OPTIONS 256

struct _starpu_pw_option {
	int key;
	int value;
	void *ptr;
};

extern void *_starpu_parallel_worker_init_with(int level, const struct _starpu_pw_option *opts, int nopts, const char *call);

static void *walk(int level, va_list *ap, const char *call)
{
	struct _starpu_pw_option opts[PW_MAX_OPTIONS];
	int n = 0;
	int key;
	while ((key = va_arg(*ap, int)) != 0) {
		struct _starpu_pw_option o = { key, 0, NULL };
		switch (key) {
		case PW_MIN_NB: case PW_MAX_NB: case PW_NB: case PW_PREFERE_MIN:
		case PW_KEEP_HOMOGENEOUS: case PW_TYPE: case PW_AWAKE_WORKERS: case PW_NCORES:
			/* int, unsigned and enums all travel as int through varargs */
			o.value = va_arg(*ap, int);
			break;
		case PW_POLICY_NAME:
			o.ptr = (void *) va_arg(*ap, const char *);
			break;
		case PW_POLICY_STRUCT: case PW_CREATE_FUNC_ARG:
			o.ptr = va_arg(*ap, void *);
			break;
		case PW_CREATE_FUNC:
			o.ptr = (void *) va_arg(*ap, void (*)(void *));
			break;
		case PW_PARTITION_ONE: case PW_NEW:
			break;
		default:
			/* The rest of the list cannot be walked: Rust reports the key. */
			opts[n++] = o;
			return _starpu_parallel_worker_init_with(level, opts, n, call);
		}
		if (n == PW_MAX_OPTIONS)
			return _starpu_parallel_worker_init_with(level, opts, -1, call);
		opts[n++] = o;
	}
	return _starpu_parallel_worker_init_with(level, opts, n, call);
}

void *_starpu_c_parallel_worker_init(int level, ...)
{
	va_list ap;
	va_start(ap, level);
	void *r = walk(level, &ap, "starpu_parallel_worker_init");
	va_end(ap);
	return r;
}

void *_starpu_c_cluster_machine(int level, ...)
{
	va_list ap;
	va_start(ap, level);
	void *r = walk(level, &ap, "starpu_cluster_machine");
	va_end(ap);
	return r;
}
