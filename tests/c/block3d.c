/* block3d: the 3-D block interface seen from a CPU kernel.
 *
 * An NX x NY x NZ block of floats is registered in place inside a larger,
 * padded buffer (ldy > nx, ldz > ldy*ny).  The kernel reads the geometry
 * with STARPU_BLOCK_GET_NX/NY/NZ/LDY/LDZ/ELEMSIZE and multiplies every
 * element by a factor from cl_arg, walking with the leading dimensions.
 * After unregistering: every element is scaled, every padding cell is
 * untouched, and the kernel saw the registered geometry (CPU workers work
 * on the registered main-memory copy).
 */
#include "test_common.h"

#define NX 5
#define NY 4
#define NZ 3
#define LDY (NX + 2)
#define LDZ (LDY * (NY + 1))
#define PAD (-1.0f)

struct geometry { unsigned nx, ny, nz, ldy, ldz; size_t elemsize; int runs; };
static struct geometry seen;

static void scale_block_cpu(void *buffers[], void *cl_arg)
{
	float factor = *(float *)cl_arg;
	float *b = (float *)STARPU_BLOCK_GET_PTR(buffers[0]);
	unsigned nx = STARPU_BLOCK_GET_NX(buffers[0]);
	unsigned ny = STARPU_BLOCK_GET_NY(buffers[0]);
	unsigned nz = STARPU_BLOCK_GET_NZ(buffers[0]);
	unsigned ldy = STARPU_BLOCK_GET_LDY(buffers[0]);
	unsigned ldz = STARPU_BLOCK_GET_LDZ(buffers[0]);
	seen.nx = nx; seen.ny = ny; seen.nz = nz; seen.ldy = ldy; seen.ldz = ldz;
	seen.elemsize = STARPU_BLOCK_GET_ELEMSIZE(buffers[0]);
	seen.runs++;
	for (unsigned k = 0; k < nz; k++)
		for (unsigned j = 0; j < ny; j++)
			for (unsigned i = 0; i < nx; i++)
				b[k * ldz + j * ldy + i] *= factor;
}

static float value(unsigned i, unsigned j, unsigned k) { return (float)(i + 10 * j + 100 * k + 1); }

int main(void)
{
	size_t total = (size_t)LDZ * NZ;
	float *buf = malloc(total * sizeof(float));
	for (size_t p = 0; p < total; p++)
		buf[p] = PAD;
	for (unsigned k = 0; k < NZ; k++)
		for (unsigned j = 0; j < NY; j++)
			for (unsigned i = 0; i < NX; i++)
				buf[k * LDZ + j * LDY + i] = value(i, j, k);

	tc_init();

	struct starpu_codelet cl;
	starpu_codelet_init(&cl);
	cl.where = STARPU_CPU;
	cl.cpu_funcs[0] = scale_block_cpu;
	cl.cpu_funcs_name[0] = "scale_block_cpu";
	cl.nbuffers = 1;
	cl.modes[0] = STARPU_RW;
	cl.name = "block_scale";

	starpu_data_handle_t h;
	starpu_block_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, LDY, LDZ, NX, NY, NZ, sizeof(float));
	CHECK(starpu_block_get_nx(h) == NX && starpu_block_get_ny(h) == NY && starpu_block_get_nz(h) == NZ,
	      "starpu_block_get_nx/ny/nz = %u/%u/%u, expected %u/%u/%u", (unsigned)starpu_block_get_nx(h),
	      (unsigned)starpu_block_get_ny(h), (unsigned)starpu_block_get_nz(h), NX, NY, NZ);
	CHECK(starpu_block_get_elemsize(h) == sizeof(float), "starpu_block_get_elemsize = %u",
	      (unsigned)starpu_block_get_elemsize(h));

	float factor = 3.0f;
	struct starpu_task *task = starpu_task_create();
	task->cl = &cl;
	task->handles[0] = h;
	task->cl_arg = &factor;
	task->cl_arg_size = sizeof(factor);
	MUST(starpu_task_submit(task));
	starpu_task_wait_for_all();
	starpu_data_unregister(h);
	starpu_shutdown();

	CHECK(seen.runs == 1, "kernel ran %d times", seen.runs);
	CHECK(seen.nx == NX && seen.ny == NY && seen.nz == NZ,
	      "kernel saw nx/ny/nz = %u/%u/%u, expected %u/%u/%u", seen.nx, seen.ny, seen.nz, NX, NY, NZ);
	CHECK(seen.ldy == LDY && seen.ldz == LDZ, "kernel saw ldy/ldz = %u/%u, expected %u/%u",
	      seen.ldy, seen.ldz, LDY, LDZ);
	CHECK(seen.elemsize == sizeof(float), "kernel saw elemsize %u", (unsigned)seen.elemsize);

	unsigned bad = 0, pad_bad = 0;
	for (unsigned k = 0; k < NZ; k++)
		for (unsigned j = 0; j < NY + 1; j++)
			for (unsigned i = 0; i < LDY; i++) {
				float got = buf[k * LDZ + j * LDY + i];
				if (i < NX && j < NY) {
					float expected = value(i, j, k) * 3.0f;
					if (got != expected && bad++ < 5)
						CHECK(0, "element (%u,%u,%u) = %g, expected %g", i, j, k, got, expected);
				} else if (got != PAD && pad_bad++ < 5) {
					CHECK(0, "padding at (%u,%u,%u) changed to %g", i, j, k, got);
				}
			}
	CHECK(bad == 0 && pad_bad == 0, "%u wrong elements, %u changed padding cells", bad, pad_bad);
	free(buf);
	return tc_finish("block3d");
}
