/* starpu_sched_component.h: modular schedulers (StarPU 1.4's header of that name).
 * struct starpu_sched_component, struct starpu_sched_tree and the functions are declared
 * in starpu.h, generated from the library; this header adds StarPU's flags and macros. */
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

/* Flags of starpu_sched_component_initialize_simple_scheduler. The decision is made per
 * worker (the default), per memory node or per architecture. PERFMODEL, IMPL,
 * FIFOS_BELOW_READY and FIFOS_BELOW_EXP change nothing in this build (no component
 * predicts times); COMBINED_WORKERS and PRE_DECISION are refused with an error. */
#define STARPU_SCHED_SIMPLE_DECIDE_MASK (3 << 0)
#define STARPU_SCHED_SIMPLE_DECIDE_WORKERS (1 << 0)
#define STARPU_SCHED_SIMPLE_DECIDE_MEMNODES (2 << 0)
#define STARPU_SCHED_SIMPLE_DECIDE_ARCHS (3 << 0)
#define STARPU_SCHED_SIMPLE_PERFMODEL (1 << 2)
#define STARPU_SCHED_SIMPLE_IMPL (1 << 3)
#define STARPU_SCHED_SIMPLE_FIFO_ABOVE (1 << 4)
#define STARPU_SCHED_SIMPLE_FIFO_ABOVE_PRIO (1 << 5)
#define STARPU_SCHED_SIMPLE_FIFOS_BELOW (1 << 6)
#define STARPU_SCHED_SIMPLE_FIFOS_BELOW_PRIO (1 << 7)
#define STARPU_SCHED_SIMPLE_FIFOS_BELOW_READY (1 << 8)
#define STARPU_SCHED_SIMPLE_FIFOS_BELOW_EXP (1 << 9)
#define STARPU_SCHED_SIMPLE_WS_BELOW (1 << 10)
#define STARPU_SCHED_SIMPLE_COMBINED_WORKERS (1 << 11)
#define STARPU_SCHED_SIMPLE_PRE_DECISION (1 << 12)

#ifdef __cplusplus
}
#endif
#endif /* __STARPU_SCHED_COMPONENT_H__ */
