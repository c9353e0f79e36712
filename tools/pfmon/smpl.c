// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: sampling mode (smpl.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfmon.h"
#include "smpl.h"

#define SMPL_PAGES	64	/* 256 KiB: about 4,600 samples between notifications */
#define TOP_IPS		10

struct ip_count {
	uint64_t ip;
	uint64_t n;
};

static const struct pfm_dfl_smpl_hdr *hdr;
static size_t buf_size;
static struct ip_count *ips;
static size_t nips, ips_cap;
static uint64_t nsamples, notifications;

int smpl_create(void)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = SMPL_PAGES * sysconf(_SC_PAGESIZE) };

	buf_size = arg.buf_size;
	return pfm_create_context(PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
}

void smpl_pmd(struct pfarg_pmd *pd, uint64_t period)
{
	pd->reg_flags = PFM_PMDFL_SMPL;
	pd->reg_value = -period;
	pd->reg_short_reset = -period;
	pd->reg_long_reset = -period;
}

void smpl_map(int fd)
{
	void *p = mmap(NULL, buf_size, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		perror("pfmon: mmap of the sampling buffer");
		exit(1);
	}
	hdr = p;
}

static void count_ip(uint64_t ip)
{
	size_t i;

	for (i = 0; i < nips; i++) {
		if (ips[i].ip == ip) {
			ips[i].n++;
			return;
		}
	}
	if (nips == ips_cap) {
		ips_cap = ips_cap ? 2 * ips_cap : 64;
		ips = realloc(ips, ips_cap * sizeof(*ips));
		if (!ips) {
			perror("pfmon");
			exit(1);
		}
	}
	ips[nips].ip = ip;
	ips[nips++].n = 1;
}

/* Every entry records no PMD values here: one fixed size. */
static void drain(void)
{
	const struct pfm_dfl_smpl_entry *e = (const void *)(hdr + 1);
	uint64_t i, n = hdr->hdr_count;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		count_ip(e[i].ip);
	nsamples += n;
}

/* Until the command's end message: drain at each notification and resume. */
void smpl_service(int fd)
{
	union pfarg_msg msg;
	ssize_t r;

	for (;;) {
		r = read(fd, &msg, sizeof(msg));
		if (r < 0 && errno == EINTR)
			continue;
		if (r != sizeof(msg))
			return;
		if (msg.type == PFM_MSG_END)
			return;
		if (msg.type == PFM_MSG_OVFL) {
			notifications++;
			drain();
			if (pfm_start(fd, PFM_STARTFL_RESTART) && errno != EBUSY)
				return;
		}
	}
}

static int by_count(const void *a, const void *b)
{
	const struct ip_count *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

uint64_t smpl_finish(void)
{
	drain();
	return nsamples;
}

void smpl_report(uint64_t period, const char *event)
{
	size_t i;

	printf("%20" PRIu64 "  samples, one every %" PRIu64 " %s (%" PRIu64
	       " buffer-full notifications)\n", nsamples, period, event, notifications);
	qsort(ips, nips, sizeof(*ips), by_count);
	for (i = 0; i < nips && i < TOP_IPS; i++)
		printf("%20" PRIu64 "  %5.1f%%  ip %#" PRIx64 "\n", ips[i].n,
		       100.0 * ips[i].n / nsamples, ips[i].ip);
}
