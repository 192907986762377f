/* starpu_sched_component.h: modular schedulers (StarPU 1.4's header of that name).
 * struct starpu_sched_component, struct starpu_sched_tree and the functions are declared
 * in starpu.h, generated from the library, with the STARPU_SCHED_SIMPLE_* flags; this
 * header adds the component properties. */
#ifndef __STARPU_SCHED_COMPONENT_H__
#define __STARPU_SCHED_COMPONENT_H__
#include <starpu.h>
#include <starpu_bitmap.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of starpu_sched_component::properties. */
enum starpu_sched_component_properties
{
	STARPU_SCHED_COMPONENT_HOMOGENEOUS = (1 << 0),
	STARPU_SCHED_COMPONENT_SINGLE_MEMORY_NODE = (1 << 1)
};

#define STARPU_SCHED_COMPONENT_IS_HOMOGENEOUS(component) ((component)->properties & STARPU_SCHED_COMPONENT_HOMOGENEOUS)
#define STARPU_SCHED_COMPONENT_IS_SINGLE_MEMORY_NODE(component) ((component)->properties & STARPU_SCHED_COMPONENT_SINGLE_MEMORY_NODE)

#ifdef __cplusplus
}
#endif
#endif /* __STARPU_SCHED_COMPONENT_H__ */
