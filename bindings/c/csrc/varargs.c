/* The C-variadic entry points of StarPU's API.
 *
 * Stable Rust cannot define C-variadic functions, so these walkers read the argument
 * lists and hand them to Rust as plain arrays. Each walker knows only how many arguments
 * of which C type follow each key: what the keys mean is decided once, in Rust
 * (src/insert.rs), for C and (later) Fortran alike. The public names are exported from
 * Rust as tail jumps to the functions here (src/varargs.rs). */
#include <starpu.h>
#include <stdarg.h>

#define INLINE_ARGS 32

int _starpu_insert_collect(va_list *ap, struct _starpu_insert_arg *inline_args, struct _starpu_insert_arg **args, int *nargs);

/* Reads one key's arguments into `arg`; returns 0, or -EINVAL for a key it does not know
 * (the rest of the list cannot be walked then). */
static int read_one(int key, va_list *ap, struct _starpu_insert_arg *arg)
{
	arg->key = key;
	arg->a.u = 0;
	arg->b.u = 0;
	if (key > 0 && key < STARPU_VALUE) {
		/* An access mode, possibly with COMMUTE/LOCALITY/... bits: a data handle. */
		arg->a.p = va_arg(*ap, starpu_data_handle_t);
		return 0;
	}
	switch (key) {
	case STARPU_VALUE:
	case STARPU_CL_ARGS:
	case STARPU_CL_ARGS_NFREE:
		arg->a.p = va_arg(*ap, void *);
		arg->b.u = va_arg(*ap, size_t);
		return 0;
	case STARPU_CALLBACK_WITH_ARG:
	case STARPU_CALLBACK_WITH_ARG_NFREE:
		arg->a.p = (void *)va_arg(*ap, void (*)(void *));
		arg->b.p = va_arg(*ap, void *);
		return 0;
	case STARPU_CALLBACK:
	case STARPU_PROLOGUE_CALLBACK:
	case STARPU_PROLOGUE_CALLBACK_POP:
	case STARPU_EPILOGUE_CALLBACK:
	case STARPU_SOON_CALLBACK:
		arg->a.p = (void *)va_arg(*ap, void (*)(void *));
		return 0;
	case STARPU_RECURSIVE_TASK_FUNC:
		arg->a.p = (void *)va_arg(*ap, int (*)(struct starpu_task *, void *));
		return 0;
	case STARPU_RECURSIVE_TASK_GEN_DAG_FUNC:
		arg->a.p = (void *)va_arg(*ap, void (*)(struct starpu_task *, void *));
		return 0;
	case STARPU_CALLBACK_ARG:
	case STARPU_CALLBACK_ARG_NFREE:
	case STARPU_PROLOGUE_CALLBACK_ARG:
	case STARPU_PROLOGUE_CALLBACK_ARG_NFREE:
	case STARPU_PROLOGUE_CALLBACK_POP_ARG:
	case STARPU_PROLOGUE_CALLBACK_POP_ARG_NFREE:
	case STARPU_EPILOGUE_CALLBACK_ARG:
	case STARPU_SOON_CALLBACK_ARG:
	case STARPU_SOON_CALLBACK_ARG_NFREE:
	case STARPU_EXECUTE_ON_DATA:
	case STARPU_NAME:
	case STARPU_HANDLES_SEQUENTIAL_CONSISTENCY:
	case STARPU_TASK_PROFILING_INFO:
	case STARPU_TASK_SCHED_DATA:
	case STARPU_TASK_FILE:
	case STARPU_TRANSACTION:
	case STARPU_RECURSIVE_TASK_FUNC_ARG:
	case STARPU_RECURSIVE_TASK_GEN_DAG_FUNC_ARG:
	case STARPU_RECURSIVE_TASK_PARENT:
		arg->a.p = va_arg(*ap, void *);
		return 0;
	case STARPU_PRIORITY:
	case STARPU_EXECUTE_ON_NODE:
	case STARPU_HYPERVISOR_TAG:
	case STARPU_EXECUTE_ON_WORKER:
	case STARPU_NODE_SELECTION_POLICY:
	case STARPU_TASK_COLOR:
	case STARPU_TASK_SYNCHRONOUS:
	case STARPU_TASK_END_DEP:
	case STARPU_TASK_LINE:
		arg->a.i = va_arg(*ap, int);
		return 0;
	case STARPU_SCHED_CTX:
	case STARPU_WORKER_ORDER:
	case STARPU_POSSIBLY_PARALLEL:
	case STARPU_SEQUENTIAL_CONSISTENCY:
	case STARPU_TASK_NO_SUBMITORDER:
		arg->a.u = va_arg(*ap, unsigned);
		return 0;
	case STARPU_EXECUTE_WHERE:
		arg->a.u = va_arg(*ap, unsigned long long);
		return 0;
	case STARPU_TAG:
	case STARPU_TAG_ONLY:
		arg->a.u = va_arg(*ap, starpu_tag_t);
		return 0;
	case STARPU_FLOPS:
		arg->a.d = va_arg(*ap, double);
		return 0;
	case STARPU_DATA_ARRAY:
		arg->a.p = va_arg(*ap, starpu_data_handle_t *);
		arg->b.i = va_arg(*ap, int);
		return 0;
	case STARPU_DATA_MODE_ARRAY:
		arg->a.p = va_arg(*ap, struct starpu_data_descr *);
		arg->b.i = va_arg(*ap, int);
		return 0;
	case STARPU_TASK_DEPS_ARRAY:
	case STARPU_TASK_END_DEPS_ARRAY:
		arg->b.u = va_arg(*ap, unsigned);
		arg->a.p = va_arg(*ap, struct starpu_task **);
		return 0;
	case STARPU_TASK_WORKERIDS:
		arg->b.u = va_arg(*ap, unsigned);
		arg->a.p = va_arg(*ap, uint32_t *);
		return 0;
	default:
		return -EINVAL;
	}
}

/* Decodes a 0-terminated list into `*args` (inline storage first, the heap beyond).
 * Shared with StarPU-MPI's walker (csrc/mpi_varargs.c). */
int _starpu_insert_collect(va_list *ap, struct _starpu_insert_arg *inline_args, struct _starpu_insert_arg **args, int *nargs)
{
	int cap = INLINE_ARGS, n = 0, key;
	*args = inline_args;
	while ((key = va_arg(*ap, int)) != 0) {
		if (n == cap) {
			struct _starpu_insert_arg *bigger = malloc(2 * cap * sizeof(*bigger));
			if (!bigger)
				return -ENOMEM;
			memcpy(bigger, *args, n * sizeof(*bigger));
			if (*args != inline_args)
				free(*args);
			*args = bigger;
			cap *= 2;
		}
		if (read_one(key, ap, &(*args)[n]) != 0)
			return _starpu_insert_unknown_key(key);
		n++;
	}
	*nargs = n;
	return 0;
}

static int insert_common(int action, struct starpu_task *task, struct starpu_codelet *cl, va_list *ap,
			 struct starpu_task **out)
{
	struct _starpu_insert_arg inline_args[INLINE_ARGS], *args;
	int n = 0;
	int ret = _starpu_insert_collect(ap, inline_args, &args, &n);
	if (ret == 0)
		ret = _starpu_task_insert_args(action, task, cl, args, n, out);
	if (args != inline_args)
		free(args);
	return ret;
}

int _starpu_c_task_insert(struct starpu_codelet *cl, ...)
{
	va_list ap;
	va_start(ap, cl);
	int ret = insert_common(_STARPU_INSERT_SUBMIT, NULL, cl, &ap, NULL);
	va_end(ap);
	return ret;
}

int _starpu_c_insert_task(struct starpu_codelet *cl, ...)
{
	va_list ap;
	va_start(ap, cl);
	int ret = insert_common(_STARPU_INSERT_SUBMIT, NULL, cl, &ap, NULL);
	va_end(ap);
	return ret;
}

struct starpu_task *_starpu_c_task_build(struct starpu_codelet *cl, ...)
{
	struct starpu_task *task = NULL;
	va_list ap;
	va_start(ap, cl);
	int ret = insert_common(_STARPU_INSERT_BUILD, NULL, cl, &ap, &task);
	va_end(ap);
	return ret == 0 ? task : NULL;
}

int _starpu_c_task_set(struct starpu_task *task, struct starpu_codelet *cl, ...)
{
	va_list ap;
	va_start(ap, cl);
	int ret = insert_common(_STARPU_INSERT_SET, task, cl, &ap, NULL);
	va_end(ap);
	return ret;
}

void _starpu_c_codelet_pack_args(void **arg_buffer, size_t *arg_buffer_size, ...)
{
	struct starpu_codelet_pack_arg_data state;
	va_list ap;
	int key;
	starpu_codelet_pack_arg_init(&state);
	va_start(ap, arg_buffer_size);
	while ((key = va_arg(ap, int)) != 0) {
		if (key != STARPU_VALUE) {
			_starpu_insert_unknown_key(key);
			break;
		}
		void *ptr = va_arg(ap, void *);
		size_t size = va_arg(ap, size_t);
		starpu_codelet_pack_arg(&state, ptr, size);
	}
	va_end(ap);
	starpu_codelet_pack_arg_fini(&state, arg_buffer, arg_buffer_size);
}

/* Copies packed arguments into the given pointers, in order, stopping at the last argument
 * or at a NULL pointer (StarPU 1.3 programs omit the terminator, 1.4 ones add it). */
void _starpu_c_codelet_unpack_args(void *cl_arg, ...)
{
	struct starpu_codelet_pack_arg_data state;
	va_list ap;
	starpu_codelet_unpack_arg_init(&state, cl_arg, (size_t)-1);
	/* Each unpack consumes one of state.nargs: count from the initial value. */
	int nargs = state.nargs;
	va_start(ap, cl_arg);
	for (int i = 0; i < nargs; i++) {
		void *ptr = va_arg(ap, void *);
		if (!ptr)
			break;
		_starpu_codelet_unpack_arg_any(&state, ptr);
	}
	va_end(ap);
	starpu_codelet_unpack_arg_fini(&state);
}

starpu_data_handle_t _starpu_c_data_vget_sub_data(starpu_data_handle_t root, unsigned depth, va_list pa)
{
	unsigned path[64];
	if (depth > 64)
		return _starpu_data_get_sub_data_path(root, depth, NULL);
	for (unsigned i = 0; i < depth; i++)
		path[i] = va_arg(pa, unsigned);
	return _starpu_data_get_sub_data_path(root, depth, path);
}

starpu_data_handle_t _starpu_c_data_get_sub_data(starpu_data_handle_t root, unsigned depth, ...)
{
	va_list ap;
	va_start(ap, depth);
	starpu_data_handle_t h = _starpu_c_data_vget_sub_data(root, depth, ap);
	va_end(ap);
	return h;
}

void _starpu_c_data_vmap_filters(starpu_data_handle_t root, unsigned nfilters, va_list pa)
{
	struct starpu_data_filter *inline_filters[16];
	struct starpu_data_filter **filters = nfilters <= 16 ? inline_filters : malloc(nfilters * sizeof(*filters));
	if (!filters)
		return;
	for (unsigned i = 0; i < nfilters; i++)
		filters[i] = va_arg(pa, struct starpu_data_filter *);
	starpu_data_map_filters_parray(root, (int)nfilters, filters);
	if (filters != inline_filters)
		free(filters);
}

void _starpu_c_data_map_filters(starpu_data_handle_t root, unsigned nfilters, ...)
{
	va_list ap;
	va_start(ap, nfilters);
	_starpu_c_data_vmap_filters(root, nfilters, ap);
	va_end(ap);
}

void _starpu_c_tag_declare_deps(starpu_tag_t id, unsigned ndeps, ...)
{
	starpu_tag_t inline_tags[16];
	starpu_tag_t *tags = ndeps <= 16 ? inline_tags : malloc(ndeps * sizeof(*tags));
	va_list ap;
	if (!tags)
		return;
	va_start(ap, ndeps);
	for (unsigned i = 0; i < ndeps; i++)
		tags[i] = va_arg(ap, starpu_tag_t);
	va_end(ap);
	starpu_tag_declare_deps_array(id, ndeps, tags);
	if (tags != inline_tags)
		free(tags);
}

/* Collects `ndeps` task pointers and hands them to `declare`. */
static void declare_tasks(struct starpu_task *task, unsigned ndeps, va_list *ap,
			  void (*declare)(struct starpu_task *, unsigned, struct starpu_task **))
{
	struct starpu_task *inline_deps[16];
	struct starpu_task **deps = ndeps <= 16 ? inline_deps : malloc(ndeps * sizeof(*deps));
	if (!deps)
		return;
	for (unsigned i = 0; i < ndeps; i++)
		deps[i] = va_arg(*ap, struct starpu_task *);
	declare(task, ndeps, deps);
	if (deps != inline_deps)
		free(deps);
}

void _starpu_c_task_declare_deps(struct starpu_task *task, unsigned ndeps, ...)
{
	va_list ap;
	va_start(ap, ndeps);
	declare_tasks(task, ndeps, &ap, starpu_task_declare_deps_array);
	va_end(ap);
}

void _starpu_c_task_declare_end_deps(struct starpu_task *task, unsigned ndeps, ...)
{
	va_list ap;
	va_start(ap, ndeps);
	declare_tasks(task, ndeps, &ap, starpu_task_declare_end_deps_array);
	va_end(ap);
}

void _starpu_c_data_set_coordinates(starpu_data_handle_t handle, unsigned dimensions, ...)
{
	int dims[16];
	va_list ap;
	if (dimensions > 16)
		dimensions = 16;
	va_start(ap, dimensions);
	for (unsigned i = 0; i < dimensions; i++)
		dims[i] = va_arg(ap, int);
	va_end(ap);
	starpu_data_set_coordinates_array(handle, dimensions, dims);
}

/* starpu_sched_ctx_create(workerids, nworkers, name, KEY, value..., 0): reads the options
 * (their meaning and checks are in src/sched_ctx.rs). */
unsigned _starpu_c_sched_ctx_create(int *workerids, int nworkers, const char *name, ...)
{
	struct _starpu_sched_ctx_options o;
	memset(&o, 0, sizeof(o));
	va_list ap;
	va_start(ap, name);
	int key;
	while ((key = va_arg(ap, int)) != 0) {
		switch (key) {
		case STARPU_SCHED_CTX_POLICY_NAME:
			o.policy_name = va_arg(ap, const char *);
			break;
		case STARPU_SCHED_CTX_POLICY_STRUCT:
			o.policy = va_arg(ap, struct starpu_sched_policy *);
			break;
		case STARPU_SCHED_CTX_POLICY_MIN_PRIO:
			o.min_prio = va_arg(ap, int);
			o.min_prio_set = 1;
			break;
		case STARPU_SCHED_CTX_POLICY_MAX_PRIO:
			o.max_prio = va_arg(ap, int);
			o.max_prio_set = 1;
			break;
		case STARPU_SCHED_CTX_HIERARCHY_LEVEL:
			o.hierarchy_level = va_arg(ap, unsigned);
			break;
		case STARPU_SCHED_CTX_NESTED:
			o.nested = va_arg(ap, unsigned);
			break;
		case STARPU_SCHED_CTX_AWAKE_WORKERS:
			o.awake_workers = 1; /* no value follows */
			break;
		case STARPU_SCHED_CTX_POLICY_INIT:
			o.init_sched = va_arg(ap, void (*)(unsigned));
			break;
		case STARPU_SCHED_CTX_USER_DATA:
			o.user_data = va_arg(ap, void *);
			break;
		case STARPU_SCHED_CTX_SUB_CTXS:
			o.sub_ctxs = va_arg(ap, int *);
			o.nsub_ctxs = va_arg(ap, int);
			break;
		case STARPU_SCHED_CTX_CUDA_NSMS:
			o.nsms = va_arg(ap, int);
			break;
		default:
			/* The rest of the list cannot be walked: stop here, Rust reports it. */
			o.bad_key = key;
			va_end(ap);
			return _starpu_sched_ctx_create_with(workerids, nworkers, name, &o);
		}
	}
	va_end(ap);
	return _starpu_sched_ctx_create_with(workerids, nworkers, name, &o);
}

/* starpu_perfmodel_get_model_per_devices(model, impl, TYPE, DEVID, NCORES..., -1) and
 * starpu_perfmodel_set_per_devices_cost_function(model, impl, func, TYPE, DEVID, NCORES...,
 * -1): read the device triplets (the rules are in src/perfmodel_per_arch.rs; call 0 gets
 * the record, call 1 sets its function). */
struct starpu_perfmodel_per_arch *_starpu_c_perfmodel_per_devices(int call, struct starpu_perfmodel *model, int impl,
								  starpu_perfmodel_per_arch_cost_function func, int ndevices,
								  const int *types, const int *devids, const int *ncores);

struct devices
{
	int n;
	int types[STARPU_NMAXWORKERS], devids[STARPU_NMAXWORKERS], ncores[STARPU_NMAXWORKERS];
};

/* Reads (type, id, cores) triplets up to -1; more than STARPU_NMAXWORKERS gives none
 * (refused as "no device"). */
static void read_devices(va_list *ap, struct devices *d)
{
	d->n = 0;
	for (;;)
	{
		int type = va_arg(*ap, int);
		if (type == -1)
			break;
		if (d->n == STARPU_NMAXWORKERS)
		{
			d->n = 0;
			break;
		}
		d->types[d->n] = type;
		d->devids[d->n] = va_arg(*ap, int);
		d->ncores[d->n] = va_arg(*ap, int);
		d->n++;
	}
}

struct starpu_perfmodel_per_arch *_starpu_c_perfmodel_get_model_per_devices(struct starpu_perfmodel *model, int impl, ...)
{
	struct devices d;
	va_list ap;
	va_start(ap, impl);
	read_devices(&ap, &d);
	va_end(ap);
	return _starpu_c_perfmodel_per_devices(0, model, impl, NULL, d.n, d.types, d.devids, d.ncores);
}

int _starpu_c_perfmodel_set_per_devices_cost_function(struct starpu_perfmodel *model, int impl,
						       starpu_perfmodel_per_arch_cost_function func, ...)
{
	struct devices d;
	va_list ap;
	va_start(ap, func);
	read_devices(&ap, &d);
	va_end(ap);
	return _starpu_c_perfmodel_per_devices(1, model, impl, func, d.n, d.types, d.devids, d.ncores) ? 0 : -EINVAL;
}
