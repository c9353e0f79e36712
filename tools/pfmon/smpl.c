// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: sampling mode (smpl.h).
 *
 * Every sample is kept (24 bytes each) and grouped only for the report: by
 * thread, by the file mapped at its IP, and by function and line.  The
 * mappings are those of /proc/PID/maps when the process was last seen alive:
 * pfmon takes them when a process stops before exiting (ptrace), at its exec,
 * at each drain for the processes its samples show first and the last one,
 * so that the report can name code of processes long gone.
 *
 * An inherit context's buffer is shared with its inheritors (perfmon.h,
 * INHERITANCE): nobody waits for pfmon when it is full, what does not fit is
 * lost (the header counts it, the report says how many), and pfmon hands back
 * what it took (PFM_STARTFL_DRAIN) instead of emptying it by the restart.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pfmon.h"
#include "smpl.h"
#include "sym.h"

#define SMPL_PAGES	64	/* 256 KiB: about 6,500 samples between notifications */
#define TOP_N		10

struct smpl_buf {
	const struct pfm_dfl_smpl_hdr *hdr;
	size_t size;
	uint64_t taken;		/* samples drained since the buffer was emptied */
	uint64_t total;		/* samples drained before that */
	int shared;		/* an inherit context's: drained, never masked */
	uint64_t lost;		/* its hdr_overflows counted so far */
};

struct sample {
	uint64_t ip;
	uint32_t tid, pid;
};

static struct sample *samples;
static size_t nsamples, cap;
static uint64_t notifications, lost;
static FILE *out;
static uint32_t *seen;		/* processes whose mappings were taken at their first sample */
static size_t nseen;

static struct sym_maps *maps;	/* every process seen, newest first */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("pfmon");
		exit(1);
	}
	return p;
}

int smpl_open(int flags, struct smpl_buf **bp)
{
	struct pfm_dfl_smpl_arg arg = { .buf_size = SMPL_PAGES * sysconf(_SC_PAGESIZE) };
	struct smpl_buf *b;
	void *p;
	int fd, err;

	fd = pfm_create_context(flags | PFM_FL_SMPL_FMT, PFM_DFL_SMPL_NAME, &arg, sizeof(arg));
	if (fd < 0)
		return -1;
	p = mmap(NULL, arg.buf_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	b = xrealloc(NULL, sizeof(*b));
	b->hdr = p;
	b->size = arg.buf_size;
	b->taken = 0;
	b->total = 0;
	b->shared = !!(flags & PFM_FL_INHERIT);
	b->lost = 0;
	*bp = b;
	return fd;
}

void smpl_set_out(FILE *f)
{
	out = f;
}

/* A process alive while it samples: its mappings, the first time it is seen. */
static void first_seen(uint32_t pid)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i] == pid)
			return;
	seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
	seen[nseen++] = pid;
	smpl_snapshot_maps(pid);
}

/* Every entry records no PMD values here: one fixed size. */
void smpl_drain(struct smpl_buf *b)
{
	const struct pfm_dfl_smpl_entry *e = (const void *)(b->hdr + 1);
	uint64_t i, n = b->hdr->hdr_count;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (b->hdr->hdr_overflows > b->lost) {
		lost += b->hdr->hdr_overflows - b->lost;
		b->lost = b->hdr->hdr_overflows;
	}
	/* the buffer is emptied only by the restart: take what is new */
	for (i = b->taken; i < n; i++) {
		if (nsamples == cap) {
			cap = cap ? 2 * cap : 1024;
			samples = xrealloc(samples, cap * sizeof(*samples));
		}
		samples[nsamples++] = (struct sample){ e[i].ip, e[i].pid, e[i].tgid };
		if (b->shared)
			first_seen(e[i].tgid);
		if (out)
			fprintf(out, "%" PRIu64 " %u %u %u %#" PRIx64 "\n", (uint64_t)e[i].tstamp,
				e[i].cpu, e[i].tgid, e[i].pid, (uint64_t)e[i].ip);
	}
	if (n > b->taken) {
		/* a process is alive while it samples: its mappings are there */
		smpl_snapshot_maps(e[n - 1].tgid);
		b->taken = n;
	}
}

int smpl_restart(int fd, struct smpl_buf *b)
{
	uint64_t taken;

	notifications++;
	smpl_drain(b);
	/* the restart empties the buffer, or hands back what was taken: count on from its start */
	taken = b->taken;
	b->total += b->taken;
	b->taken = 0;
	if (b->shared)
		return pfm_start(fd, PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, (unsigned long)taken);
	if (pfm_start(fd, PFM_STARTFL_RESTART) && errno != EBUSY)
		return -1;
	return 0;
}

uint64_t smpl_count(const struct smpl_buf *b)
{
	return b->total + b->taken;
}

void smpl_close(struct smpl_buf *b)
{
	munmap((void *)b->hdr, b->size);
	free(b);
}

void smpl_snapshot_maps(int pid)
{
	maps = sym_maps_read(maps, pid);
}

/* counts of one key, sorted for the report */
struct tally {
	uint64_t key;
	const char *name;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : (x->key > y->key) - (x->key < y->key);
}

/* Tallies samples by key; name keys by their string when names are given. */
static size_t tally(struct tally **tp, uint64_t (*key)(const struct sample *, const char **))
{
	struct tally *t = NULL;
	size_t nt = 0, i, j;
	const char *name;
	uint64_t k;

	for (i = 0; i < nsamples; i++) {
		name = NULL;
		k = key(&samples[i], &name);
		for (j = 0; j < nt; j++)
			if (name ? t[j].name && !strcmp(t[j].name, name) : t[j].key == k)
				break;
		if (j == nt) {
			t = xrealloc(t, ++nt * sizeof(*t));
			t[j] = (struct tally){ k, name, 0 };
		}
		t[j].n++;
	}
	qsort(t, nt, sizeof(*t), by_count);
	*tp = t;
	return nt;
}

static uint64_t key_tid(const struct sample *s, const char **name)
{
	(void)name;
	return (uint64_t)s->pid << 32 | s->tid;
}

static uint64_t key_dso(const struct sample *s, const char **name)
{
	*name = sym_dso(maps, s->pid, s->ip);
	return 0;
}

static uint64_t key_ip(const struct sample *s, const char **name)
{
	(void)name;
	return s->ip;
}

static uint64_t ip_pid(uint64_t ip)
{
	size_t i;

	for (i = 0; i < nsamples; i++)
		if (samples[i].ip == ip)
			return samples[i].pid;
	return 0;
}

void smpl_report(FILE *f, uint64_t period, const char *event, uint64_t live_ns)
{
	struct tally *t;
	char where[512];
	size_t n, i;

	if (period)
		fprintf(f, "%20zu  samples, one every %" PRIu64 " %s (%" PRIu64
			" buffer-full notifications)\n", nsamples, period, event, notifications);
	else
		fprintf(f, "%20zu  samples of %s (%" PRIu64 " buffer-full notifications)\n",
			nsamples, event, notifications);
	if (lost)
		fprintf(f, "%20" PRIu64 "  samples lost: the buffer was full\n", lost);
	if (!period)
		freq_report(f, nsamples, live_ns);
	if (!nsamples)
		return;
	n = tally(&t, key_tid);
	fprintf(f, "\n  by thread:\n");
	for (i = 0; i < n && i < TOP_N; i++)
		fprintf(f, "%20" PRIu64 "  %5.1f%%  tid %u (pid %u)\n", t[i].n,
			100.0 * t[i].n / nsamples, (unsigned int)t[i].key,
			(unsigned int)(t[i].key >> 32));
	free(t);
	n = tally(&t, key_dso);
	fprintf(f, "\n  by file:\n");
	for (i = 0; i < n && i < TOP_N; i++)
		fprintf(f, "%20" PRIu64 "  %5.1f%%  %s\n", t[i].n,
			100.0 * t[i].n / nsamples, t[i].name ? t[i].name : "[unknown]");
	free(t);
	n = tally(&t, key_ip);
	fprintf(f, "\n  by instruction:\n");
	for (i = 0; i < n && i < TOP_N; i++) {
		sym_describe(maps, ip_pid(t[i].key), t[i].key, where, sizeof(where));
		fprintf(f, "%20" PRIu64 "  %5.1f%%  ip %#" PRIx64 "  %s\n", t[i].n,
			100.0 * t[i].n / nsamples, t[i].key, where);
	}
	free(t);
}
