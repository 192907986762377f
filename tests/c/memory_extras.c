/* starpu_stdlib.h / starpu_data.h extras: the application's allocation hooks
 * (starpu_malloc_set_hooks), starpu_data_evict_from_node's refusals with main RAM as the
 * only node, and the fetch levels of enum starpu_is_prefetch. */
#include "test_common.h"
#include <stdlib.h>

static int nmalloc, nfree;
static void *last_ptr;
static size_t last_dim;
static int last_flags;
static unsigned last_node;
static int fail_next;

static int my_malloc(unsigned node, void **a, size_t dim, int flags)
{
	if (fail_next)
	{
		fail_next = 0;
		return -ENOMEM;
	}
	nmalloc++;
	last_node = node;
	last_dim = dim;
	last_flags = flags;
	*a = malloc(dim ? dim : 1);
	last_ptr = *a;
	return *a ? 0 : -ENOMEM;
}

static int my_free(unsigned node, void *a, size_t dim, int flags)
{
	nfree++;
	last_node = node;
	last_ptr = a;
	last_dim = dim;
	last_flags = flags;
	free(a);
	return 0;
}

static void hooks(void)
{
	starpu_malloc_set_hooks(my_malloc, my_free);
	void *p = NULL;
	MUST(starpu_malloc_flags(&p, 100, STARPU_MALLOC_PINNED));
	CHECK(nmalloc == 1 && p == last_ptr && last_dim == 100 && last_flags == STARPU_MALLOC_PINNED &&
		      last_node == STARPU_MAIN_RAM,
	      "malloc hook: %d calls, dim %zu, flags %d", nmalloc, last_dim, last_flags);
	MUST(starpu_free_flags(p, 100, STARPU_MALLOC_PINNED));
	CHECK(nfree == 1 && last_ptr == p && last_dim == 100, "free hook: %d calls, dim %zu", nfree, last_dim);

	uintptr_t q = starpu_malloc_on_node(STARPU_MAIN_RAM, 64);
	CHECK(q != 0 && nmalloc == 2 && last_dim == 64, "malloc_on_node through the hook");
	starpu_free_on_node(STARPU_MAIN_RAM, q, 64);
	CHECK(nfree == 2 && last_ptr == (void *)q, "free_on_node through the hook");

	fail_next = 1;
	CHECK(starpu_malloc(&p, 10) == -ENOMEM, "a failing hook is not -ENOMEM");

	starpu_malloc_set_hooks(NULL, NULL);
	MUST(starpu_malloc(&p, 32));
	CHECK(nmalloc == 2, "hook called after it was unset");
	starpu_free_noflag(p, 32);
	CHECK(nfree == 2, "free hook called after it was unset");
}

static void touch(void *buffers[], void *arg)
{
	(void)arg;
	*(int *)STARPU_VARIABLE_GET_PTR(buffers[0]) = 5;
}

static struct starpu_codelet touch_cl = {.cpu_funcs = {touch}, .nbuffers = 1, .modes = {STARPU_W}};

static void evict(void)
{
	int x = 1;
	starpu_data_handle_t user;
	starpu_variable_data_register(&user, STARPU_MAIN_RAM, (uintptr_t)&x, sizeof(x));
	CHECK(starpu_data_evict_from_node(user, STARPU_MAIN_RAM) == -1, "the application's buffer was evicted");
	CHECK(starpu_data_evict_from_node(user, 7) == -EINVAL, "node 7 accepted");
	starpu_data_unregister(user);

	starpu_data_handle_t own;
	starpu_variable_data_register(&own, -1, 0, sizeof(int));
	CHECK(starpu_data_evict_from_node(own, STARPU_MAIN_RAM) == -1, "nothing allocated, yet evicted");
	MUST(starpu_task_insert(&touch_cl, STARPU_W, own, 0));
	starpu_task_wait_for_all();
	CHECK(starpu_data_test_if_allocated_on_node(own, STARPU_MAIN_RAM), "not allocated after a W task");
	/* main RAM holds the only copy of the value: it stays */
	CHECK(starpu_data_evict_from_node(own, STARPU_MAIN_RAM) == -1, "the only copy was evicted");
	CHECK(starpu_data_test_if_allocated_on_node(own, STARPU_MAIN_RAM), "freed by a refused eviction");
	MUST(starpu_data_acquire(own, STARPU_R));
	CHECK(*(int *)starpu_variable_get_local_ptr(own) == 5, "value lost");
	starpu_data_release(own);
	starpu_data_invalidate(own);
	CHECK(!starpu_data_test_if_allocated_on_node(own, STARPU_MAIN_RAM), "allocated after invalidate");
	CHECK(starpu_data_evict_from_node(own, STARPU_MAIN_RAM) == -1, "evicted twice");
	starpu_data_unregister(own);
}

static void fetch_levels(void)
{
	enum starpu_is_prefetch levels[] = {STARPU_FETCH, STARPU_TASK_PREFETCH, STARPU_PREFETCH, STARPU_IDLEFETCH};
	for (int i = 0; i < 4; i++)
		CHECK((int)levels[i] == i, "fetch level %d is %d", i, (int)levels[i]);
	CHECK(STARPU_NFETCH == 4, "STARPU_NFETCH %d", (int)STARPU_NFETCH);
}

int main(void)
{
	tc_init_ncpus(1);
	hooks();
	evict();
	fetch_levels();
	starpu_shutdown();
	return tc_finish("memory_extras");
}
