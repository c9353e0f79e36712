// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: race windows held open on demand (race.h), for the debug kernel's
 * tests.  Each point's delay is 0 (off) until a test writes one; a delay is
 * capped at a second so that a forgotten setting slows the tests, never hangs
 * them.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>

#include "race.h"

#define PFM_RACE_MAX_US	1000000

static u32 pfm_race_us[PFM_RACE_NR];

static const char *const pfm_race_names[PFM_RACE_NR] = {
	[PFM_RACE_ATTACH_MAPPED] = "race_attach_mapped_us",
	[PFM_RACE_ATTACH_LOADED] = "race_attach_loaded_us",
	[PFM_RACE_CALL_FD] = "race_call_fd_us",
};

void pfm_race_window(enum pfm_race_point point)
{
	u32 us = min_t(u32, READ_ONCE(pfm_race_us[point]), PFM_RACE_MAX_US);

	might_sleep();
	if (us)
		usleep_range(us, us + us / 8 + 1);
}

void pfm_race_init(struct dentry *dir)
{
	unsigned int i;

	for (i = 0; i < PFM_RACE_NR; i++)
		debugfs_create_u32(pfm_race_names[i], 0600, dir, &pfm_race_us[i]);
}
