/* The "pair" data interface the C and MPI tests define as an application would (as
 * StarPU's examples/interface does): two arrays of doubles, x and y, of n elements. Here
 * are its description and the operations both tests give it; each builds its own
 * struct starpu_data_interface_ops from them (copies, footprint, packing...).
 * Included after test_common.h (or tests/mpi/mpi_test.h). */
#ifndef TESTS_C_PAIR_INTERFACE_H
#define TESTS_C_PAIR_INTERFACE_H

struct pair_interface {
	double *x;
	double *y;
	uint32_t n;
};

#define PAIR_X(i) (((struct pair_interface *)(i))->x)
#define PAIR_Y(i) (((struct pair_interface *)(i))->y)
#define PAIR_N(i) (((struct pair_interface *)(i))->n)

/* Every node's description: the arrays on the home node, none elsewhere yet. */
static inline void pair_register_data_handle(starpu_data_handle_t handle, int home_node, void *data_interface)
{
	struct pair_interface *p = data_interface;
	for (unsigned node = 0; node < STARPU_MAXNODES; node++) {
		struct pair_interface *local = starpu_data_get_interface_on_node(handle, node);
		local->n = p->n;
		local->x = (int)node == home_node ? p->x : NULL;
		local->y = (int)node == home_node ? p->y : NULL;
	}
}

static inline starpu_ssize_t pair_allocate(void *data_interface, unsigned node)
{
	struct pair_interface *p = data_interface;
	size_t size = p->n * sizeof(double);
	p->x = (double *)starpu_malloc_on_node(node, size);
	p->y = (double *)starpu_malloc_on_node(node, size);
	if (!p->x || !p->y)
		return -ENOMEM;
	return 2 * size;
}

static inline void pair_free(void *data_interface, unsigned node)
{
	struct pair_interface *p = data_interface;
	starpu_free_on_node(node, (uintptr_t)p->x, p->n * sizeof(double));
	starpu_free_on_node(node, (uintptr_t)p->y, p->n * sizeof(double));
}

static inline size_t pair_get_size(starpu_data_handle_t handle)
{
	struct pair_interface *p = starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM);
	return 2 * p->n * sizeof(double);
}

#endif
