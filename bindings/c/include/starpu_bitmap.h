/* starpu_bitmap.h: StarPU 1.4's bitmap of workers (struct starpu_bitmap, embedded in
 * scheduling components). The struct and the functions are declared in starpu.h. */
#ifndef __STARPU_BITMAP_H__
#define __STARPU_BITMAP_H__
#include <starpu.h>
#endif
