/* The copy helpers data interfaces are written with: starpu_interface_copy2d, copy3d and
 * copy4d between two main-memory buffers (no async_data: done before returning).
 *
 * Checks:
 *   1. copy4d of a packed 4 x 3 x 2 x 2-byte array into a layout with gaps (rows 6
 *      bytes apart, planes 20, cubes 44): every byte lands where its coordinates say,
 *      the gaps stay untouched.
 *   2. copy3d from an offset (the second cube) into a fresh destination.
 *   3. Blocks that would overlap (a leading dimension smaller than the block) are
 *      refused with -EINVAL and the destination is left as it was.
 */
#include "test_common.h"

#define NX 4
#define NY 3
#define NZ 2
#define NT 2
#define LDY 6
#define LDZ 20
#define LDT 44

static unsigned char src[NX * NY * NZ * NT];
static unsigned char dst[LDT * NT];

static void check_cube(int t_src, int t_dst)
{
	for (int z = 0; z < NZ; z++)
		for (int y = 0; y < NY; y++)
			for (int x = 0; x < NX; x++) {
				int s = x + NX * y + NX * NY * z + NX * NY * NZ * t_src;
				int d = x + LDY * y + LDZ * z + LDT * t_dst;
				CHECK(dst[d] == src[s], "(%d,%d,%d,%d): %d, expected %d", x, y, z, t_src,
				      dst[d], src[s]);
			}
}

int main(void)
{
	tc_init_ncpus(1);
	for (unsigned i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i + 1);

	/* 1 */
	int ret = starpu_interface_copy4d((uintptr_t)src, 0, STARPU_MAIN_RAM, (uintptr_t)dst, 0,
					  STARPU_MAIN_RAM, NX, NY, NX, LDY, NZ, NX * NY, LDZ, NT,
					  NX * NY * NZ, LDT, NULL);
	CHECK(ret == 0, "copy4d returned %d", ret);
	check_cube(0, 0);
	check_cube(1, 1);
	CHECK(dst[NX] == 0 && dst[LDY - 1] == 0, "a row gap was written: %d %d", dst[NX], dst[LDY - 1]);
	CHECK(dst[LDY * NY] == 0 && dst[LDT - 1] == 0, "a plane or cube gap was written");

	/* 2 */
	memset(dst, 0, sizeof(dst));
	ret = starpu_interface_copy3d((uintptr_t)src, NX * NY * NZ, STARPU_MAIN_RAM, (uintptr_t)dst, 0,
				      STARPU_MAIN_RAM, NX, NY, NX, LDY, NZ, NX * NY, LDZ, NULL);
	CHECK(ret == 0, "copy3d returned %d", ret);
	check_cube(1, 0);
	CHECK(dst[LDT] == 0, "copy3d wrote past its cube");

	/* 3 */
	memset(dst, 0, sizeof(dst));
	ret = starpu_interface_copy2d((uintptr_t)src, 0, STARPU_MAIN_RAM, (uintptr_t)dst, 0,
				      STARPU_MAIN_RAM, NX, NY, NX, NX - 1, NULL);
	CHECK(ret == -EINVAL, "overlapping blocks: copy2d returned %d, expected -EINVAL", ret);
	int untouched = 1;
	for (unsigned i = 0; i < sizeof(dst); i++)
		untouched &= dst[i] == 0;
	CHECK(untouched, "a refused copy wrote into the destination");
#ifdef STARPU_RS
	const char *why = starpu_rs_last_error();
	CHECK(why && strstr(why, "starpu_interface_copy2d") && strstr(why, "overlap"),
	      "the last error names the call and the cause: %s", why ? why : "(null)");
#endif

	starpu_shutdown();
	return tc_finish("interface_copy");
}
