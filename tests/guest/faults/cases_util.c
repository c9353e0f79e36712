// SPDX-License-Identifier: GPL-2.0
/*
 * What the scenarios set up with: non-asserting (they run in the sweep's child),
 * 0 or a value, -1 with errno.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "faults.h"

int fe_ctx(int flags)
{
	return pfm_create_context(flags);
}

int fe_write_pmc(int fd, unsigned int num, uint64_t value)
{
	struct pfarg_pmc pc;

	pmc_init(&pc, num, value);
	return pfm_write_pmcs(fd, &pc, sizeof(pc));
}

int fe_write_pmd(int fd, unsigned int num, uint64_t value)
{
	struct pfarg_pmd pd;

	pmd_init(&pd, num, value);
	return pfm_write_pmds(fd, &pd, sizeof(pd));
}

void fe_pmds_state(int fd, unsigned int set, int n, char *buf, size_t len)
{
	struct pfarg_pmd pd;
	size_t pos = 0;
	int i;

	for (i = 0; i < n && pos < len; i++) {
		pmd_init(&pd, SW_PMD(i), 0);
		pd.reg_set = set;
		if (pfm_read_pmds(fd, &pd, sizeof(pd)))
			pos += snprintf(buf + pos, len - pos, "pmd%d:%s ", i, strerror(errno));
		else
			pos += snprintf(buf + pos, len - pos, "pmd%d:%llu ", i,
					(unsigned long long)pd.reg_value);
	}
}

void fe_attr(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->exclude_hv = 1;
}

/* A kid (util.h) that waits for orders: a thread of another process to load on. */
int fe_kid(struct fenv *e)
{
	return kid_start(&e->kid);
}
