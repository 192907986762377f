/* starpu_perf_monitoring.h: part of StarPU's API. This implementation declares the whole API in starpu.h,
 * which this header includes, so programs may include either. */
#ifndef __STARPU_PERF_MONITORING_H__
#define __STARPU_PERF_MONITORING_H__
#include <starpu.h>
#endif
