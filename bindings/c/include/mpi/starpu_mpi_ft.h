/* starpu-rs: StarPU-MPI's fault-tolerance (checkpoint) API, as StarPU 1.4 declares it
 * when built without it (STARPU_USE_MPI_FT undefined, the default): the template type,
 * and calls that do nothing and return 0. Programs written with checkpoints build and run
 * without taking any. */
#ifndef __STARPU_MPI_FT_H__
#define __STARPU_MPI_FT_H__

#include <starpu.h>

#ifdef __cplusplus
extern "C" {
#endif

struct _starpu_mpi_checkpoint_template;
typedef struct _starpu_mpi_checkpoint_template *starpu_mpi_checkpoint_template_t;

static inline int starpu_mpi_checkpoint_template_register(starpu_mpi_checkpoint_template_t *cp_template STARPU_ATTRIBUTE_UNUSED, int cp_id STARPU_ATTRIBUTE_UNUSED, int cp_domain STARPU_ATTRIBUTE_UNUSED, ...)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_template_create(starpu_mpi_checkpoint_template_t *cp_template STARPU_ATTRIBUTE_UNUSED, int cp_id STARPU_ATTRIBUTE_UNUSED, int cp_domain STARPU_ATTRIBUTE_UNUSED)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_template_add_entry(starpu_mpi_checkpoint_template_t *cp_template STARPU_ATTRIBUTE_UNUSED, ...)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_template_freeze(starpu_mpi_checkpoint_template_t *cp_template STARPU_ATTRIBUTE_UNUSED)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_template_submit(starpu_mpi_checkpoint_template_t cp_template STARPU_ATTRIBUTE_UNUSED, int prio STARPU_ATTRIBUTE_UNUSED)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_template_print(starpu_mpi_checkpoint_template_t cp_template STARPU_ATTRIBUTE_UNUSED)
{
	return 0;
}

static inline int starpu_mpi_ft_turn_on(void)
{
	return 0;
}

static inline int starpu_mpi_ft_turn_off(void)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_init(void)
{
	return 0;
}

static inline int starpu_mpi_checkpoint_shutdown(void)
{
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* __STARPU_MPI_FT_H__ */
