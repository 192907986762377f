/* ---- end of generated part ---- */

/* ==== Utilities (starpu_util.h) ==== */
#define STARPU_UNLIKELY(expr) (__builtin_expect(!!(expr), 0))
#define STARPU_LIKELY(expr) (__builtin_expect(!!(expr), 1))
#define STARPU_ATTRIBUTE_UNUSED __attribute__((unused))
#define STARPU_ATTRIBUTE_NORETURN __attribute__((noreturn))
#define STARPU_ATTRIBUTE_INTERNAL __attribute__((visibility("internal")))
#define STARPU_ATTRIBUTE_MALLOC __attribute__((malloc))
#define STARPU_ATTRIBUTE_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#define STARPU_ATTRIBUTE_PURE __attribute__((pure))
#define STARPU_ATTRIBUTE_ALIGNED(size) __attribute__((aligned(size)))
#define STARPU_ATTRIBUTE_FORMAT(type, string, first) __attribute__((format(type, string, first)))
#define STARPU_DEPRECATED __attribute__((__deprecated__))
#define STARPU_WARN_UNUSED_RESULT __attribute__((__warn_unused_result__))
#define STARPU_INLINE static inline
#define STARPU_POISON_PTR ((void *)0xdeadbeef)

#define STARPU_MIN(a, b) ((a) < (b) ? (a) : (b))
#define STARPU_MAX(a, b) ((a) < (b) ? (b) : (a))

#define STARPU_ABORT()                                                              \
	do {                                                                        \
		fprintf(stderr, "[starpu][abort][%s()@%s:%d]\n", __func__, __FILE__, __LINE__); \
		abort();                                                            \
	} while (0)
#define STARPU_ABORT_MSG(msg, ...)                                                  \
	do {                                                                        \
		fprintf(stderr, "[starpu][abort][%s()@%s:%d] " msg "\n", __func__, __FILE__, __LINE__, ##__VA_ARGS__); \
		abort();                                                            \
	} while (0)
#define STARPU_ASSERT(x) assert(x)
#define STARPU_ASSERT_MSG(x, msg, ...)                                              \
	do {                                                                        \
		if (STARPU_UNLIKELY(!(x))) {                                        \
			fprintf(stderr, "\n[starpu][%s][assert failure] " msg "\n\n", __func__, ##__VA_ARGS__); \
			assert(x);                                                  \
		}                                                                   \
	} while (0)
#define STARPU_ASSERT_ACCESSIBLE(ptr) ((void)(ptr))

/* Braces, not do/while, like StarPU: callers may omit the final semicolon. */
#define STARPU_CHECK_RETURN_VALUE(err, message, ...)                               \
	{                                                                           \
		if (STARPU_UNLIKELY((err) != 0)) {                                  \
			fprintf(stderr, "[starpu] Unexpected value: <%d:%s> returned for <" message ">\n", \
				(int)(err), strerror(-(err)), ##__VA_ARGS__);       \
			STARPU_ABORT();                                             \
		}                                                                   \
	}
#define STARPU_CHECK_RETURN_VALUE_IS(err, value, message, ...)                     \
	{                                                                           \
		if (STARPU_UNLIKELY((err) != (value))) {                            \
			fprintf(stderr, "[starpu] Unexpected value: <%d:%s> returned for <" message ">\n", \
				(int)(err), strerror(-(err)), ##__VA_ARGS__);       \
			STARPU_ABORT();                                             \
		}                                                                   \
	}

#define STARPU_ATOMIC_ADD(ptr, value) (__sync_fetch_and_add((ptr), (value)) + (value))
#define STARPU_ATOMIC_ADDL(ptr, value) STARPU_ATOMIC_ADD(ptr, value)
#define STARPU_ATOMIC_OR(ptr, value) (__sync_fetch_and_or((ptr), (value)))
#define STARPU_ATOMIC_ORL(ptr, value) STARPU_ATOMIC_OR(ptr, value)
#define STARPU_BOOL_COMPARE_AND_SWAP(ptr, old, value) (__sync_bool_compare_and_swap((ptr), (old), (value)))
#define STARPU_VAL_COMPARE_AND_SWAP(ptr, old, value) (__sync_val_compare_and_swap((ptr), (old), (value)))
#define STARPU_SYNCHRONIZE() __sync_synchronize()
#define STARPU_RMB() __sync_synchronize()
#define STARPU_WMB() __sync_synchronize()

/* ==== Random numbers (starpu_rand.h) ==== */
typedef int starpu_drand48_data;
#define starpu_seed(seed) srand48(seed)
#define starpu_srand48(seed) srand48(seed)
#define starpu_drand48() drand48()
#define starpu_lrand48() lrand48()
#define starpu_erand48(xsubi) erand48(xsubi)
#define starpu_srand48_r(seed, buffer) srand48(seed)
#define starpu_erand48_r(xsubi, buffer, result) do { (void)(buffer); *(result) = erand48(xsubi); } while (0)

/* ==== Threads (starpu_thread.h, starpu_thread_util.h): plain pthreads ==== */
typedef pthread_t starpu_pthread_t;
typedef pthread_attr_t starpu_pthread_attr_t;
typedef pthread_mutex_t starpu_pthread_mutex_t;
typedef pthread_mutexattr_t starpu_pthread_mutexattr_t;
typedef pthread_cond_t starpu_pthread_cond_t;
typedef pthread_condattr_t starpu_pthread_condattr_t;
typedef pthread_key_t starpu_pthread_key_t;
typedef pthread_rwlock_t starpu_pthread_rwlock_t;
typedef pthread_barrier_t starpu_pthread_barrier_t;
typedef pthread_spinlock_t starpu_pthread_spinlock_t;
#define starpu_pthread_create pthread_create
#define starpu_pthread_join pthread_join
#define starpu_pthread_exit pthread_exit
#define starpu_pthread_self pthread_self
#define starpu_pthread_mutex_init pthread_mutex_init
#define starpu_pthread_mutex_destroy pthread_mutex_destroy
#define starpu_pthread_mutex_lock pthread_mutex_lock
#define starpu_pthread_mutex_unlock pthread_mutex_unlock
#define starpu_pthread_mutex_trylock pthread_mutex_trylock
#define starpu_pthread_cond_init pthread_cond_init
#define starpu_pthread_cond_destroy pthread_cond_destroy
#define starpu_pthread_cond_signal pthread_cond_signal
#define starpu_pthread_cond_broadcast pthread_cond_broadcast
#define starpu_pthread_cond_wait pthread_cond_wait
#define starpu_pthread_key_create pthread_key_create
#define starpu_pthread_key_delete pthread_key_delete
#define starpu_pthread_setspecific pthread_setspecific
#define starpu_pthread_getspecific pthread_getspecific
#define starpu_pthread_barrier_init pthread_barrier_init
#define starpu_pthread_barrier_wait pthread_barrier_wait
#define starpu_pthread_barrier_destroy pthread_barrier_destroy
#define STARPU_PTHREAD_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define STARPU_PTHREAD_COND_INITIALIZER PTHREAD_COND_INITIALIZER

#define _STARPU_PTHREAD_CHECK(call, what)                                           \
	do {                                                                        \
		int _starpu_p_ret = (call);                                         \
		if (STARPU_UNLIKELY(_starpu_p_ret != 0)) {                          \
			fprintf(stderr, "[starpu] %s:%d %s: %s\n", __FILE__, __LINE__, what, strerror(_starpu_p_ret)); \
			STARPU_ABORT();                                             \
		}                                                                   \
	} while (0)
#define STARPU_PTHREAD_CREATE(thread, attr, routine, arg) _STARPU_PTHREAD_CHECK(pthread_create(thread, attr, routine, arg), "pthread_create")
#define STARPU_PTHREAD_CREATE_ON(name, thread, attr, routine, arg, where) STARPU_PTHREAD_CREATE(thread, attr, routine, arg)
#define STARPU_PTHREAD_JOIN(thread, retval) _STARPU_PTHREAD_CHECK(pthread_join(thread, retval), "pthread_join")
#define STARPU_PTHREAD_MUTEX_INIT(mutex, attr) _STARPU_PTHREAD_CHECK(pthread_mutex_init(mutex, attr), "pthread_mutex_init")
#define STARPU_PTHREAD_MUTEX_DESTROY(mutex) _STARPU_PTHREAD_CHECK(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
#define STARPU_PTHREAD_MUTEX_LOCK(mutex) _STARPU_PTHREAD_CHECK(pthread_mutex_lock(mutex), "pthread_mutex_lock")
#define STARPU_PTHREAD_MUTEX_UNLOCK(mutex) _STARPU_PTHREAD_CHECK(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
#define STARPU_PTHREAD_COND_INIT(cond, attr) _STARPU_PTHREAD_CHECK(pthread_cond_init(cond, attr), "pthread_cond_init")
#define STARPU_PTHREAD_COND_DESTROY(cond) _STARPU_PTHREAD_CHECK(pthread_cond_destroy(cond), "pthread_cond_destroy")
#define STARPU_PTHREAD_COND_SIGNAL(cond) _STARPU_PTHREAD_CHECK(pthread_cond_signal(cond), "pthread_cond_signal")
#define STARPU_PTHREAD_COND_BROADCAST(cond) _STARPU_PTHREAD_CHECK(pthread_cond_broadcast(cond), "pthread_cond_broadcast")
#define STARPU_PTHREAD_COND_WAIT(cond, mutex) _STARPU_PTHREAD_CHECK(pthread_cond_wait(cond, mutex), "pthread_cond_wait")
#define STARPU_PTHREAD_KEY_CREATE(key, destr) _STARPU_PTHREAD_CHECK(pthread_key_create(key, destr), "pthread_key_create")
#define STARPU_PTHREAD_KEY_DELETE(key) _STARPU_PTHREAD_CHECK(pthread_key_delete(key), "pthread_key_delete")
#define STARPU_PTHREAD_SETSPECIFIC(key, ptr) _STARPU_PTHREAD_CHECK(pthread_setspecific(key, ptr), "pthread_setspecific")
#define STARPU_PTHREAD_GETSPECIFIC(key) pthread_getspecific(key)
#define STARPU_PTHREAD_BARRIER_INIT(barrier, attr, count) _STARPU_PTHREAD_CHECK(pthread_barrier_init(barrier, attr, count), "pthread_barrier_init")
#define STARPU_PTHREAD_BARRIER_DESTROY(barrier) _STARPU_PTHREAD_CHECK(pthread_barrier_destroy(barrier), "pthread_barrier_destroy")
#define STARPU_PTHREAD_BARRIER_WAIT(barrier) do { int _r = pthread_barrier_wait(barrier); if (_r != 0 && _r != PTHREAD_BARRIER_SERIAL_THREAD) STARPU_ABORT(); } while (0)

/* ==== Priorities (starpu_sched_ctx.h) ==== */
#define STARPU_MIN_PRIO (starpu_sched_get_min_priority())
#define STARPU_MAX_PRIO (starpu_sched_get_max_priority())
/* Options follow the name as KEY, value pairs ending with 0 (STARPU_SCHED_CTX_*). */
unsigned starpu_sched_ctx_create(int *workerids_ctx, int nworkers_ctx, const char *sched_ctx_name, ...);

/* ==== Data interfaces: accessors on the description a kernel receives ==== */
#define STARPU_VARIABLE_GET_PTR(interface) (((struct starpu_variable_interface *)(interface))->ptr)
#define STARPU_VARIABLE_GET_ELEMSIZE(interface) (((struct starpu_variable_interface *)(interface))->elemsize)
#define STARPU_VARIABLE_GET_DEV_HANDLE(interface) (((struct starpu_variable_interface *)(interface))->dev_handle)
#define STARPU_VARIABLE_GET_OFFSET(interface) (((struct starpu_variable_interface *)(interface))->offset)

#define STARPU_MULTIFORMAT_GET_CPU_PTR(interface) (((struct starpu_multiformat_interface *)(interface))->cpu_ptr)
#define STARPU_MULTIFORMAT_GET_CUDA_PTR(interface) (((struct starpu_multiformat_interface *)(interface))->cuda_ptr)
#define STARPU_MULTIFORMAT_GET_OPENCL_PTR(interface) (((struct starpu_multiformat_interface *)(interface))->opencl_ptr)
#define STARPU_MULTIFORMAT_GET_NX(interface) (((struct starpu_multiformat_interface *)(interface))->nx)
#define STARPU_VECTOR_GET_PTR(interface) (((struct starpu_vector_interface *)(interface))->ptr)
#define STARPU_VECTOR_GET_DEV_HANDLE(interface) (((struct starpu_vector_interface *)(interface))->dev_handle)
#define STARPU_VECTOR_GET_OFFSET(interface) (((struct starpu_vector_interface *)(interface))->offset)
#define STARPU_VECTOR_GET_NX(interface) (((struct starpu_vector_interface *)(interface))->nx)
#define STARPU_VECTOR_GET_ELEMSIZE(interface) (((struct starpu_vector_interface *)(interface))->elemsize)
#define STARPU_VECTOR_GET_ALLOCSIZE(interface) (((struct starpu_vector_interface *)(interface))->allocsize)
#define STARPU_VECTOR_GET_SLICE_BASE(interface) (((struct starpu_vector_interface *)(interface))->slice_base)

#define STARPU_MATRIX_GET_PTR(interface) (((struct starpu_matrix_interface *)(interface))->ptr)
#define STARPU_MATRIX_GET_DEV_HANDLE(interface) (((struct starpu_matrix_interface *)(interface))->dev_handle)
#define STARPU_MATRIX_GET_OFFSET(interface) (((struct starpu_matrix_interface *)(interface))->offset)
#define STARPU_MATRIX_GET_NX(interface) (((struct starpu_matrix_interface *)(interface))->nx)
#define STARPU_MATRIX_GET_NY(interface) (((struct starpu_matrix_interface *)(interface))->ny)
#define STARPU_MATRIX_GET_LD(interface) (((struct starpu_matrix_interface *)(interface))->ld)
#define STARPU_MATRIX_GET_ELEMSIZE(interface) (((struct starpu_matrix_interface *)(interface))->elemsize)
#define STARPU_MATRIX_GET_ALLOCSIZE(interface) (((struct starpu_matrix_interface *)(interface))->allocsize)

#define STARPU_BLOCK_GET_PTR(interface) (((struct starpu_block_interface *)(interface))->ptr)
#define STARPU_BLOCK_GET_DEV_HANDLE(interface) (((struct starpu_block_interface *)(interface))->dev_handle)
#define STARPU_BLOCK_GET_OFFSET(interface) (((struct starpu_block_interface *)(interface))->offset)
#define STARPU_BLOCK_GET_NX(interface) (((struct starpu_block_interface *)(interface))->nx)
#define STARPU_BLOCK_GET_NY(interface) (((struct starpu_block_interface *)(interface))->ny)
#define STARPU_BLOCK_GET_NZ(interface) (((struct starpu_block_interface *)(interface))->nz)
#define STARPU_BLOCK_GET_LDY(interface) (((struct starpu_block_interface *)(interface))->ldy)
#define STARPU_BLOCK_GET_LDZ(interface) (((struct starpu_block_interface *)(interface))->ldz)
#define STARPU_BLOCK_GET_ELEMSIZE(interface) (((struct starpu_block_interface *)(interface))->elemsize)

#define STARPU_TENSOR_GET_PTR(interface) (((struct starpu_tensor_interface *)(interface))->ptr)
#define STARPU_TENSOR_GET_DEV_HANDLE(interface) (((struct starpu_tensor_interface *)(interface))->dev_handle)
#define STARPU_TENSOR_GET_OFFSET(interface) (((struct starpu_tensor_interface *)(interface))->offset)
#define STARPU_TENSOR_GET_NX(interface) (((struct starpu_tensor_interface *)(interface))->nx)
#define STARPU_TENSOR_GET_NY(interface) (((struct starpu_tensor_interface *)(interface))->ny)
#define STARPU_TENSOR_GET_NZ(interface) (((struct starpu_tensor_interface *)(interface))->nz)
#define STARPU_TENSOR_GET_NT(interface) (((struct starpu_tensor_interface *)(interface))->nt)
#define STARPU_TENSOR_GET_LDY(interface) (((struct starpu_tensor_interface *)(interface))->ldy)
#define STARPU_TENSOR_GET_LDZ(interface) (((struct starpu_tensor_interface *)(interface))->ldz)
#define STARPU_TENSOR_GET_LDT(interface) (((struct starpu_tensor_interface *)(interface))->ldt)
#define STARPU_TENSOR_GET_ELEMSIZE(interface) (((struct starpu_tensor_interface *)(interface))->elemsize)

#define STARPU_NDIM_GET_PTR(interface) (((struct starpu_ndim_interface *)(interface))->ptr)
#define STARPU_NDIM_GET_DEV_HANDLE(interface) (((struct starpu_ndim_interface *)(interface))->dev_handle)
#define STARPU_NDIM_GET_OFFSET(interface) (((struct starpu_ndim_interface *)(interface))->offset)
#define STARPU_NDIM_GET_NN(interface) (((struct starpu_ndim_interface *)(interface))->nn)
#define STARPU_NDIM_GET_LDN(interface) (((struct starpu_ndim_interface *)(interface))->ldn)
#define STARPU_NDIM_GET_NDIM(interface) (((struct starpu_ndim_interface *)(interface))->ndim)
#define STARPU_NDIM_GET_ELEMSIZE(interface) (((struct starpu_ndim_interface *)(interface))->elemsize)

#define STARPU_CSR_GET_NNZ(interface) (((struct starpu_csr_interface *)(interface))->nnz)
#define STARPU_CSR_GET_NROW(interface) (((struct starpu_csr_interface *)(interface))->nrow)
#define STARPU_CSR_GET_NZVAL(interface) (((struct starpu_csr_interface *)(interface))->nzval)
#define STARPU_CSR_GET_NZVAL_DEV_HANDLE(interface) (((struct starpu_csr_interface *)(interface))->nzval)
#define STARPU_CSR_GET_COLIND(interface) (((struct starpu_csr_interface *)(interface))->colind)
#define STARPU_CSR_GET_COLIND_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_csr_interface *)(interface))->colind)
#define STARPU_CSR_GET_ROWPTR(interface) (((struct starpu_csr_interface *)(interface))->rowptr)
#define STARPU_CSR_GET_ROWPTR_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_csr_interface *)(interface))->rowptr)
#define STARPU_CSR_GET_OFFSET 0
#define STARPU_CSR_GET_FIRSTENTRY(interface) (((struct starpu_csr_interface *)(interface))->firstentry)
#define STARPU_CSR_GET_ELEMSIZE(interface) (((struct starpu_csr_interface *)(interface))->elemsize)

#define STARPU_BCSR_GET_NNZ(interface) (((struct starpu_bcsr_interface *)(interface))->nnz)
#define STARPU_BCSR_GET_NROW(interface) (((struct starpu_bcsr_interface *)(interface))->nrow)
#define STARPU_BCSR_GET_NZVAL(interface) (((struct starpu_bcsr_interface *)(interface))->nzval)
#define STARPU_BCSR_GET_NZVAL_DEV_HANDLE(interface) (((struct starpu_bcsr_interface *)(interface))->nzval)
#define STARPU_BCSR_GET_COLIND(interface) (((struct starpu_bcsr_interface *)(interface))->colind)
#define STARPU_BCSR_GET_COLIND_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_bcsr_interface *)(interface))->colind)
#define STARPU_BCSR_GET_ROWPTR(interface) (((struct starpu_bcsr_interface *)(interface))->rowptr)
#define STARPU_BCSR_GET_ROWPTR_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_bcsr_interface *)(interface))->rowptr)
#define STARPU_BCSR_GET_OFFSET 0
#define STARPU_BCSR_GET_FIRSTENTRY(interface) (((struct starpu_bcsr_interface *)(interface))->firstentry)
#define STARPU_BCSR_GET_R(interface) (((struct starpu_bcsr_interface *)(interface))->r)
#define STARPU_BCSR_GET_C(interface) (((struct starpu_bcsr_interface *)(interface))->c)
#define STARPU_BCSR_GET_ELEMSIZE(interface) (((struct starpu_bcsr_interface *)(interface))->elemsize)

#define STARPU_COO_GET_COLUMNS(interface) (((struct starpu_coo_interface *)(interface))->columns)
#define STARPU_COO_GET_COLUMNS_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_coo_interface *)(interface))->columns)
#define STARPU_COO_GET_ROWS(interface) (((struct starpu_coo_interface *)(interface))->rows)
#define STARPU_COO_GET_ROWS_DEV_HANDLE(interface) ((uintptr_t)((struct starpu_coo_interface *)(interface))->rows)
#define STARPU_COO_GET_VALUES(interface) (((struct starpu_coo_interface *)(interface))->values)
#define STARPU_COO_GET_VALUES_DEV_HANDLE(interface) (((struct starpu_coo_interface *)(interface))->values)
#define STARPU_COO_GET_OFFSET 0
#define STARPU_COO_GET_NX(interface) (((struct starpu_coo_interface *)(interface))->nx)
#define STARPU_COO_GET_NY(interface) (((struct starpu_coo_interface *)(interface))->ny)
#define STARPU_COO_GET_NVALUES(interface) (((struct starpu_coo_interface *)(interface))->n_values)
#define STARPU_COO_GET_ELEMSIZE(interface) (((struct starpu_coo_interface *)(interface))->elemsize)

/* Getters of the built-in interfaces (bindings/c/src/interfaces.rs defines them through a
 * macro, which cbindgen does not expand). */
size_t starpu_variable_get_elemsize(starpu_data_handle_t handle);
uintptr_t starpu_variable_get_local_ptr(starpu_data_handle_t handle);
uint32_t starpu_vector_get_nx(starpu_data_handle_t handle);
size_t starpu_vector_get_elemsize(starpu_data_handle_t handle);
size_t starpu_vector_get_allocsize(starpu_data_handle_t handle);
uintptr_t starpu_vector_get_local_ptr(starpu_data_handle_t handle);
uint32_t starpu_matrix_get_nx(starpu_data_handle_t handle);
uint32_t starpu_matrix_get_ny(starpu_data_handle_t handle);
uint32_t starpu_matrix_get_local_ld(starpu_data_handle_t handle);
uintptr_t starpu_matrix_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_matrix_get_elemsize(starpu_data_handle_t handle);
size_t starpu_matrix_get_allocsize(starpu_data_handle_t handle);
uint32_t starpu_block_get_nx(starpu_data_handle_t handle);
uint32_t starpu_block_get_ny(starpu_data_handle_t handle);
uint32_t starpu_block_get_nz(starpu_data_handle_t handle);
uint32_t starpu_block_get_local_ldy(starpu_data_handle_t handle);
uint32_t starpu_block_get_local_ldz(starpu_data_handle_t handle);
uintptr_t starpu_block_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_block_get_elemsize(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_nx(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_ny(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_nz(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_nt(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_local_ldy(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_local_ldz(starpu_data_handle_t handle);
uint32_t starpu_tensor_get_local_ldt(starpu_data_handle_t handle);
uintptr_t starpu_tensor_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_tensor_get_elemsize(starpu_data_handle_t handle);
uint32_t *starpu_ndim_get_nn(starpu_data_handle_t handle);
uint32_t *starpu_ndim_get_local_ldn(starpu_data_handle_t handle);
size_t starpu_ndim_get_ndim(starpu_data_handle_t handle);
uintptr_t starpu_ndim_get_local_ptr(starpu_data_handle_t handle);
size_t starpu_ndim_get_elemsize(starpu_data_handle_t handle);
uint32_t starpu_csr_get_nnz(starpu_data_handle_t handle);
uint32_t starpu_csr_get_nrow(starpu_data_handle_t handle);
uint32_t starpu_csr_get_firstentry(starpu_data_handle_t handle);
uintptr_t starpu_csr_get_local_nzval(starpu_data_handle_t handle);
uint32_t *starpu_csr_get_local_colind(starpu_data_handle_t handle);
uint32_t *starpu_csr_get_local_rowptr(starpu_data_handle_t handle);
size_t starpu_csr_get_elemsize(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_nnz(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_nrow(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_firstentry(starpu_data_handle_t handle);
uintptr_t starpu_bcsr_get_local_nzval(starpu_data_handle_t handle);
uint32_t *starpu_bcsr_get_local_colind(starpu_data_handle_t handle);
uint32_t *starpu_bcsr_get_local_rowptr(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_r(starpu_data_handle_t handle);
uint32_t starpu_bcsr_get_c(starpu_data_handle_t handle);
size_t starpu_bcsr_get_elemsize(starpu_data_handle_t handle);

/* Buffers of a registered dense data on one node (bindings/c/src/interfaces.rs defines them
 * through a macro, which cbindgen does not expand). */
void starpu_variable_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset);
void starpu_vector_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset);
void starpu_matrix_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset, uint32_t ld);
void starpu_block_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset, uint32_t ldy, uint32_t ldz);
void starpu_tensor_ptr_register(starpu_data_handle_t handle, unsigned node, uintptr_t ptr, uintptr_t dev_handle, size_t offset, uint32_t ldy, uint32_t ldz, uint32_t ldt);

/* Typed reads of a performance counter sample (bindings/c/src/perf_counters.rs defines them
 * through a macro, which cbindgen does not expand). */
int32_t starpu_perf_counter_sample_get_int32_value(struct starpu_perf_counter_sample *sample, int counter_id);
int64_t starpu_perf_counter_sample_get_int64_value(struct starpu_perf_counter_sample *sample, int counter_id);
float starpu_perf_counter_sample_get_float_value(struct starpu_perf_counter_sample *sample, int counter_id);
double starpu_perf_counter_sample_get_double_value(struct starpu_perf_counter_sample *sample, int counter_id);

/* ==== Tasks: buffers and modes, whether inline or in the dyn_ arrays ==== */
#define STARPU_TASK_GET_NBUFFERS(task) \
	((unsigned)((task)->cl->nbuffers == STARPU_VARIABLE_NBUFFERS ? ((task)->nbuffers) : ((task)->cl->nbuffers)))
#define STARPU_TASK_GET_HANDLE(task, i) (((task)->dyn_handles) ? (task)->dyn_handles[i] : (task)->handles[i])
#define STARPU_TASK_GET_HANDLES(task) (((task)->dyn_handles) ? (task)->dyn_handles : (task)->handles)
#define STARPU_TASK_SET_HANDLE(task, handle, i)                                    \
	do {                                                                        \
		if ((task)->dyn_handles) (task)->dyn_handles[i] = handle;           \
		else (task)->handles[i] = handle;                                   \
	} while (0)
#define STARPU_CODELET_GET_MODE(codelet, i) (((codelet)->dyn_modes) ? (codelet)->dyn_modes[i] : (codelet)->modes[i])
#define STARPU_CODELET_SET_MODE(codelet, mode, i)                                  \
	do {                                                                        \
		if ((codelet)->dyn_modes) (codelet)->dyn_modes[i] = mode;           \
		else (codelet)->modes[i] = mode;                                    \
	} while (0)
#define STARPU_TASK_GET_MODE(task, i)                                              \
	((((task)->cl->nbuffers == STARPU_VARIABLE_NBUFFERS) || ((task)->dyn_modes && !(task)->cl->dyn_modes)) \
	 ? (((task)->dyn_modes) ? (task)->dyn_modes[i] : (task)->modes[i])        \
	 : STARPU_CODELET_GET_MODE((task)->cl, i))
#define STARPU_TASK_SET_MODE(task, mode, i)                                        \
	do {                                                                        \
		if ((task)->dyn_modes) (task)->dyn_modes[i] = mode;                 \
		else (task)->modes[i] = mode;                                       \
	} while (0)
#define STARPU_CODELET_GET_NODE(codelet, i) (((codelet)->dyn_nodes) ? (codelet)->dyn_nodes[i] : (codelet)->nodes[i])

/* starpu_task_submit may also be called through this macro in StarPU 1.4 programs. */
#define starpu_task_submit_nodeps(task) starpu_task_submit(task)

/* ==== Variadic entry points (C walkers of the argument lists) ==== */
int starpu_task_insert(struct starpu_codelet *cl, ...);
int starpu_insert_task(struct starpu_codelet *cl, ...);
struct starpu_task *starpu_task_build(struct starpu_codelet *cl, ...);
int starpu_task_set(struct starpu_task *task, struct starpu_codelet *cl, ...);
void starpu_codelet_pack_args(void **arg_buffer, size_t *arg_buffer_size, ...);
void starpu_codelet_unpack_args(void *cl_arg, ...);
starpu_data_handle_t starpu_data_get_sub_data(starpu_data_handle_t root_data, unsigned depth, ...);
void starpu_data_map_filters(starpu_data_handle_t root_data, unsigned nfilters, ...);
void starpu_tag_declare_deps(starpu_tag_t id, unsigned ndeps, ...);
void starpu_task_declare_deps(struct starpu_task *task, unsigned ndeps, ...);
void starpu_task_declare_end_deps(struct starpu_task *task, unsigned ndeps, ...);
void starpu_data_set_coordinates(starpu_data_handle_t handle, unsigned dimensions, ...);
typedef double (*starpu_perfmodel_per_arch_cost_function)(struct starpu_task *task, struct starpu_perfmodel_arch *arch, unsigned nimpl);
typedef size_t (*starpu_perfmodel_per_arch_size_base)(struct starpu_task *task, struct starpu_perfmodel_arch *arch, unsigned nimpl);
int starpu_perfmodel_set_per_devices_cost_function(struct starpu_perfmodel *model, int impl, starpu_perfmodel_per_arch_cost_function func, ...);
struct starpu_perfmodel_per_arch *starpu_perfmodel_get_model_per_devices(struct starpu_perfmodel *model, int impl, ...);

/* ==== Standard filter functions (starpu_data_filters.h) ==== */
/* bindings/c/src/filters/standard.rs defines them through macros, which cbindgen does not
 * expand. Each fills child `id` of `nparts` from the interface description `father`. */
void starpu_vector_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* `n` contiguous, nearly equal parts. */
void starpu_vector_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts overlapping by `(uintptr_t) filter_arg_ptr` elements on each side. */
void starpu_vector_filter_list_long(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts of the `long` lengths `filter_arg_ptr` points to. */
void starpu_vector_filter_list(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts of the `uint32_t` lengths `filter_arg_ptr` points to. */
void starpu_vector_filter_divide_in_2(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the first `filter_arg` elements, then the rest. */
void starpu_vector_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* variables from element `(size_t) filter_arg_ptr`. */
void starpu_matrix_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x. */
void starpu_matrix_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_matrix_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y. */
void starpu_matrix_filter_vertical_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_matrix_filter_pick_vector_y(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* vectors (columns) from y = `(size_t) filter_arg_ptr`. */
void starpu_matrix_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the (x, y) `filter_arg_ptr` points to. */
void starpu_block_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x. */
void starpu_block_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_block_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y. */
void starpu_block_filter_vertical_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_block_filter_depth_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z. */
void starpu_block_filter_depth_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_block_filter_pick_matrix_z(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* x-y planes from z = `(size_t) filter_arg_ptr`. */
void starpu_block_filter_pick_matrix_y(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* x-z planes from y = `(size_t) filter_arg_ptr`. */
void starpu_block_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the (x, y, z) `filter_arg_ptr` points to. */
void starpu_tensor_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x. */
void starpu_tensor_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along x with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y. */
void starpu_tensor_filter_vertical_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along y with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_depth_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z. */
void starpu_tensor_filter_depth_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along z with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_time_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along t. */
void starpu_tensor_filter_time_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along t with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_block_t(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from t = `(size_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_block_z(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from z = `(size_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_block_y(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from y = `(size_t) filter_arg_ptr`. */
void starpu_tensor_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the (x, y, z, t) `filter_arg_ptr` points to. */
void starpu_ndim_filter_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along dimension `filter_arg`. */
void starpu_ndim_filter_block_shadow(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* parts along dimension `filter_arg` with a shadow of `(uintptr_t) filter_arg_ptr`. */
void starpu_ndim_filter_to_tensor(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 4-dimension array cut along `filter_arg` into tensors. */
void starpu_ndim_filter_to_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 3-dimension array cut along `filter_arg` into blocks. */
void starpu_ndim_filter_to_matrix(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 2-dimension array cut along `filter_arg` into matrices. */
void starpu_ndim_filter_to_vector(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 1-dimension array cut into vectors. */
void starpu_ndim_filter_to_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* a 0-dimension array as a variable. */
void starpu_ndim_filter_pick_ndim(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* (n-1)-dimension arrays from index `(size_t) filter_arg_ptr` of dimension `filter_arg`. */
void starpu_ndim_filter_5d_pick_tensor(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* tensors from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 5-dimension array. */
void starpu_ndim_filter_4d_pick_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* blocks from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 4-dimension array. */
void starpu_ndim_filter_3d_pick_matrix(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* matrices from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 3-dimension array. */
void starpu_ndim_filter_2d_pick_vector(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* vectors from index `(size_t) filter_arg_ptr` of dimension `filter_arg` of a 2-dimension array. */
void starpu_ndim_filter_1d_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* variables from element `(size_t) filter_arg_ptr` of a 1-dimension array. */
void starpu_ndim_filter_pick_variable(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* the element at the position (one coordinate per dimension) `filter_arg_ptr` points to. */
void starpu_csr_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* bands of consecutive rows. */
void starpu_bcsr_filter_vertical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* bands of consecutive block rows. */
void starpu_bcsr_filter_canonical_block(void *father, void *child, struct starpu_data_filter *f, unsigned id, unsigned nparts); /* one dense matrix per stored block. */
/* The interface ops of the children of pick filters. */
struct starpu_data_interface_ops *starpu_vector_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_matrix_filter_pick_vector_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_vector_ops */
struct starpu_data_interface_ops *starpu_matrix_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_block_filter_pick_matrix_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */
struct starpu_data_interface_ops *starpu_block_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_tensor_filter_pick_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_block_ops */
struct starpu_data_interface_ops *starpu_tensor_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_tensor_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_tensor_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_block_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_matrix_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_vector_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_vector_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_pick_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_tensor_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_tensor_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_block_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_matrix_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_vector_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_vector_ops */
struct starpu_data_interface_ops *starpu_ndim_filter_to_variable_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_variable_ops */
struct starpu_data_interface_ops *starpu_bcsr_filter_canonical_block_child_ops(struct starpu_data_filter *f, unsigned child); /* starpu_interface_matrix_ops */

/* Acquires `handle`, runs `code` once granted (from any thread), then releases it.
 * Uses a GCC nested function, as StarPU does. */
#define STARPU_DATA_ACQUIRE_CB(handle, mode, code)                                 \
	do {                                                                        \
		void callback(void *arg)                                            \
		{                                                                   \
			(void)arg;                                                  \
			code;                                                       \
			starpu_data_release(handle);                                \
		}                                                                   \
		starpu_data_acquire_cb(handle, mode, callback, NULL);               \
	} while (0)

/* ==== Task lists (starpu_task_list.h) ==== */
static inline void starpu_task_list_init(struct starpu_task_list *list)
{
	list->head = NULL;
	list->tail = NULL;
}
static inline int starpu_task_list_empty(struct starpu_task_list *list)
{
	return list->head == NULL;
}
static inline void starpu_task_list_push_front(struct starpu_task_list *list, struct starpu_task *task)
{
	task->prev = NULL;
	task->next = list->head;
	if (list->head)
		list->head->prev = task;
	else
		list->tail = task;
	list->head = task;
}
static inline void starpu_task_list_push_back(struct starpu_task_list *list, struct starpu_task *task)
{
	task->next = NULL;
	task->prev = list->tail;
	if (list->tail)
		list->tail->next = task;
	else
		list->head = task;
	list->tail = task;
}
static inline struct starpu_task *starpu_task_list_front(const struct starpu_task_list *list)
{
	return list->head;
}
static inline struct starpu_task *starpu_task_list_back(const struct starpu_task_list *list)
{
	return list->tail;
}
static inline void starpu_task_list_erase(struct starpu_task_list *list, struct starpu_task *task)
{
	if (task->prev)
		task->prev->next = task->next;
	else
		list->head = task->next;
	if (task->next)
		task->next->prev = task->prev;
	else
		list->tail = task->prev;
	task->prev = task->next = NULL;
}
static inline struct starpu_task *starpu_task_list_pop_front(struct starpu_task_list *list)
{
	struct starpu_task *task = list->head;
	if (task)
		starpu_task_list_erase(list, task);
	return task;
}
static inline struct starpu_task *starpu_task_list_pop_back(struct starpu_task_list *list)
{
	struct starpu_task *task = list->tail;
	if (task)
		starpu_task_list_erase(list, task);
	return task;
}
static inline struct starpu_task *starpu_task_list_begin(const struct starpu_task_list *list)
{
	return list->head;
}
static inline struct starpu_task *starpu_task_list_end(const struct starpu_task_list *list)
{
	(void)list;
	return NULL;
}
static inline struct starpu_task *starpu_task_list_next(const struct starpu_task *task)
{
	return task->next;
}
static inline int starpu_task_list_ismember(const struct starpu_task_list *list, const struct starpu_task *look)
{
	const struct starpu_task *t;
	for (t = list->head; t; t = t->next)
		if (t == look)
			return 1;
	return 0;
}

/* ==== Environment helpers (starpu_helper.h) ==== */
static inline int starpu_getenv_number(const char *str)
{
	char *v = starpu_getenv(str);
	return v ? atoi(v) : -1;
}
static inline int starpu_getenv_number_default(const char *str, int defval)
{
	char *v = starpu_getenv(str);
	return v ? atoi(v) : defval;
}
static inline float starpu_getenv_float_default(const char *str, float defval)
{
	char *v = starpu_getenv(str);
	return v ? (float)atof(v) : defval;
}
static inline int starpu_get_env_number(const char *str)
{
	return starpu_getenv_number(str);
}
static inline int starpu_get_env_number_default(const char *str, int defval)
{
	return starpu_getenv_number_default(str, defval);
}

/* ==== Timespec arithmetic (starpu_profiling.h) ==== */
#define STARPU_NS_PER_S 1000000000
static inline void starpu_timespec_clear(struct timespec *tsp)
{
	tsp->tv_sec = 0;
	tsp->tv_nsec = 0;
}
/* result = a + b */
static inline void starpu_timespec_add(struct timespec *a, struct timespec *b, struct timespec *result)
{
	result->tv_sec = a->tv_sec + b->tv_sec;
	result->tv_nsec = a->tv_nsec + b->tv_nsec;
	if (result->tv_nsec >= STARPU_NS_PER_S) {
		result->tv_sec++;
		result->tv_nsec -= STARPU_NS_PER_S;
	}
}
/* result += a */
static inline void starpu_timespec_accumulate(struct timespec *result, struct timespec *a)
{
	starpu_timespec_add(result, a, result);
}
/* result = a - b */
static inline void starpu_timespec_sub(const struct timespec *a, const struct timespec *b, struct timespec *result)
{
	result->tv_sec = a->tv_sec - b->tv_sec;
	result->tv_nsec = a->tv_nsec - b->tv_nsec;
	if (result->tv_nsec < 0) {
		result->tv_sec--;
		result->tv_nsec += STARPU_NS_PER_S;
	}
}
#define starpu_timespec_cmp(a, b, CMP) \
	(((a)->tv_sec == (b)->tv_sec) ? ((a)->tv_nsec CMP (b)->tv_nsec) : ((a)->tv_sec CMP (b)->tv_sec))

#ifdef __cplusplus
}
#endif

/* Parallel workers, as StarPU's starpu.h declares them. */
#include <starpu_parallel_worker.h>
/* The OpenCL API, when built with it (starpu_config.h). */
#include <starpu_opencl.h>
/* The CUDA API, when built with it (starpu_config.h). */
#include <starpu_cuda.h>

#endif /* __STARPU_H__ */
