// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: an edu NPU with a narrow DMA mask. The module is reloaded with
 * edu_dma_bits=28, QEMU's default for the card (npu-vm gives the card a
 * 64-bit mask, which accepts any address the driver uses): the engine
 * then reaches only the first 256 MiB of the guest's RAM. A FILL moves
 * its pattern from a page the driver fills: that page must be one the
 * card can reach, or mapping it fails (and the DMA API warns). Several
 * fills, with every pattern size, must complete without an error and
 * without a line in the kernel log. Then the same with 24 bits (16 MiB,
 * the narrowest the module takes): at 28 bits a page the kernel hands
 * out in this small guest is often low enough by chance, at 24 bits it
 * practically never is. The default module is reloaded at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MOD "npu_dma"
#define FILL_BYTES 8192

static void reload_default(void)
{
	if (t_module_loaded(MOD))
		t_module_unload(MOD);
	if (t_module_load(t_ko(), t_default_args()))
		fprintf(stderr, "t_edu_dma_mask: cannot reload %s\n", t_ko());
}

static void assert_log_clean(const char *mark)
{
	char *log = t_kmsg_since(mark);

	ck_assert_ptr_nonnull(log);
	ck_assert_msg(!strstr(log, "WARNING") && !strstr(log, "overflow") &&
		      !strstr(log, "DMA-API"), "kernel log after the fills:\n%s", log);
	free(log);
}

/* Module parameters of each run: the reserved memory must fit the mask. */
static const char *const mask_args[] = {
	"nr_sim=0 edu_dma_bits=28 edu_mem_mb=4",
	"nr_sim=0 edu_dma_bits=24 edu_mem_mb=1",
};

START_TEST(test_fill_with_narrow_mask)
{
	static const uint8_t sizes[] = { 1, 2, 4, 4, 4, 4, 4, 4 };
	struct npu_dma_info info;
	struct npu_raw_queue q;
	char mark[96];
	uint64_t dev;
	unsigned int i;
	int fd;

	ck_assert_int_eq(t_module_unload(MOD), 0);
	ck_assert_int_eq(t_module_load(t_ko(), mask_args[_i]), 0);
	ck_assert_msg(t_npu_wait(0, 5000), "no edu NPU after the reload");
	ck_assert_int_eq(t_kmsg_mark(mark, sizeof(mark)), 0);
	fd = npu_raw_open(0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	ck_assert_uint_eq(info.backend, NPU_DMA_BACKEND_EDU);
	ck_assert_int_eq(npu_raw_alloc(fd, FILL_BYTES, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	/* Each fill allocates its pattern page anew. */
	for (i = 0; i < sizeof(sizes); i++) {
		uint64_t value = (0x01234567u + i) & ((1ULL << 8 * sizes[i]) - 1);
		struct npu_dma_desc d = { .opcode = NPU_DMA_OP_FILL,
					  .fill_size = sizes[i], .value = value,
					  .dst = dev, .len = FILL_BYTES };
		int ret = npu_raw_run(&q, &d);

		ck_assert_msg(ret == 0, "%s: fill %u (size %u) failed: %d", mask_args[_i],
			      i, sizes[i], ret);
	}
	npu_raw_queue_destroy(&q);
	close(fd);
	assert_log_clean(mark);
}
END_TEST

static Suite *edu_mask_suite(void)
{
	Suite *s = suite_create("t_edu_dma_mask");
	TCase *tc = tcase_create("narrow");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, NULL, reload_default);
	tcase_add_loop_test(tc, test_fill_with_narrow_mask, 0,
			    sizeof(mask_args) / sizeof(mask_args[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !t_exists("%s", t_ko()))
		return T_EXIT_SKIP;
	/* NPU 0 is an edu card when the VM has any. */
	if (!t_npu0_is_edu())
		return T_EXIT_SKIP;
	return t_run_suite(edu_mask_suite());
}
