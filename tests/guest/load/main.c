// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_load SECONDS [WARMUP_SECONDS [SEED]]: perfmon under sustained load, nothing
 * lost (load.h; README.md beside it says what is checked).
 *
 * A warm-up round of the load first (WARMUP_SECONDS, default a sixth of SECONDS
 * and at least 3), then the slab snapshot, then SECONDS of load, then the slab
 * snapshot again.  Both rounds check every count.  Exit status 0 when no check
 * failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "load.h"

struct load load;
struct load_stats stats;

#define MAX_RATE	"/sys/kernel/perfmon/perf_max_sample_rate"

static struct slot slots[LOAD_SLOTS];
static unsigned int seed;

static void *(*slot_fn(int i))(void *)
{
	if (i < LOAD_CTX_SLOTS)
		return ctx_worker;
	i -= LOAD_CTX_SLOTS;
	if (i < LOAD_SMPL_SLOTS)
		return smpl_worker;
	i -= LOAD_SMPL_SLOTS;
	return i < LOAD_INH_SLOTS ? inh_worker : pinh_worker;
}

/* The index in its kind, and its CPU: a quarter of the ctx workers on CPU 0 and a third of the samplers on CPU 1 (cpu_wide.c's lower bounds). */
static void slot_init(struct slot *s, int i)
{
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	if (i < LOAD_CTX_SLOTS) {
		s->index = i;
		if (i % 4 == 0)
			s->cpu = 0;
	} else if (i < LOAD_CTX_SLOTS + LOAD_SMPL_SLOTS) {
		s->index = i - LOAD_CTX_SLOTS;
		if (s->index % 3 == 0 && load.ncpus > 1)
			s->cpu = 1;
	} else if (i < LOAD_CTX_SLOTS + LOAD_SMPL_SLOTS + LOAD_INH_SLOTS) {
		s->index = i - LOAD_CTX_SLOTS - LOAD_SMPL_SLOTS;
	} else {
		s->index = i - LOAD_CTX_SLOTS - LOAD_SMPL_SLOTS - LOAD_INH_SLOTS;
	}
}

#define STACK_SIZE	(256 * 1024)

/*
 * A sampler's page faults are exact only if a fork of another thread leaves its
 * pages alone: a fork write-protects every private page the process has, and the
 * sampler's next write to its stack in a window would fault.  Its stack (with its
 * TLS, which glibc puts in a stack it is given) is not copied at fork.
 */
static int own_stack(struct slot *s, pthread_attr_t *attr)
{
	s->stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (s->stack == MAP_FAILED || madvise(s->stack, STACK_SIZE, MADV_DONTFORK)) {
		load_fail("a sampler's stack: %s", strerror(errno));
		return -1;
	}
	return pthread_attr_setstack(attr, s->stack, STACK_SIZE);
}

static void slot_start(int i)
{
	struct slot *s = &slots[i];
	pthread_attr_t attr;
	int err;

	s->done = 0;
	s->seed = rand_r(&seed);
	s->stack = NULL;
	load_thread_attr(&attr);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	if (slot_fn(i) == smpl_worker && own_stack(s, &attr)) {
		pthread_attr_destroy(&attr);
		s->running = 0;
		return;
	}
	err = pthread_create(&s->thread, &attr, slot_fn(i), s);
	pthread_attr_destroy(&attr);
	if (err) {
		load_fail("pthread_create: %s", strerror(err));
		s->running = 0;
		return;
	}
	s->running = 1;
	STAT_ADD(threads, 1);
}

static void slot_join(int i)
{
	if (slots[i].running)
		pthread_join(slots[i].thread, NULL);
	slots[i].running = 0;
	if (slots[i].stack && slots[i].stack != MAP_FAILED)
		munmap(slots[i].stack, STACK_SIZE);
	slots[i].stack = NULL;
}

static void summary(const char *name, double secs)
{
	load_note("%s: %.0f s, %llu threads, %llu rounds, %llu processes forked",
		  name, secs, (unsigned long long)stats.threads,
		  (unsigned long long)stats.rounds, (unsigned long long)stats.processes);
	load_note("%s: contexts: %llu system calls exact, %llu set runs; pages: %llu reads, %llu set changes seen",
		  name, (unsigned long long)stats.ctx_syscalls,
		  (unsigned long long)stats.set_runs, (unsigned long long)stats.page_reads,
		  (unsigned long long)stats.page_switches);
	load_note("%s: samplers: %llu faults, %llu samples + %llu lost; inherit: %llu system calls, shim inherit: %llu getppid",
		  name, (unsigned long long)stats.smpl_faults,
		  (unsigned long long)stats.samples, (unsigned long long)stats.lost,
		  (unsigned long long)stats.inh_syscalls, (unsigned long long)stats.pinh_hits);
}

static void phase(const char *name, int secs)
{
	double t0 = load_now(), last_poll = t0, now;
	int i, failed = load_failures() > 0;

	memset(&stats, 0, sizeof(stats));
	load.stop = 0;
	if (poller_start(&pages_reader) || poller_start(&consumer)) {
		load_fail("%s: reader threads: %s", name, strerror(errno));
		return;
	}
	cpu_wide_start();
	for (i = 0; i < LOAD_SLOTS; i++) {
		slot_init(&slots[i], i);
		slot_start(i);
	}
	load_note("%s: %d threads started in %.1f s", name, LOAD_SLOTS, load_now() - t0);
	while ((now = load_now()) < t0 + secs) {
		for (i = 0; i < LOAD_SLOTS; i++)
			if (slots[i].running && slots[i].done) {
				slot_join(i);
				slot_start(i);
			}
		if (now - last_poll >= 1) {
			cpu_wide_poll();
			last_poll = now;
		}
		if (!failed && load_failures()) {
			failed = 1;
			load_note("%s: first failure at %.0f s", name, now - t0);
		}
		load_msleep(20);
	}
	load.stop = 1;
	for (i = 0; i < LOAD_SLOTS; i++)
		slot_join(i);
	load_note("%s: the last rounds ended %.1f s after the stop", name, load_now() - now);
	cpu_wide_stop();
	poller_stop(&consumer);
	poller_stop(&pages_reader);
	summary(name, load_now() - t0);
	if (!stats.set_runs)
		load_fail("%s: no event set ever ran", name);
	if (!stats.page_switches)
		load_fail("%s: the page reader never saw a set change", name);
}

static long tracepoint_id(const char *ev)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256];
	unsigned int i;
	long id;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/syscalls/%s/id", roots[i], ev);
		id = load_read_long(path);
		if (id > 0)
			return id;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct leak_snap *base, *before, *after;
	int secs, warm;
	char buf[32];
	long rate;

	if (argc < 2 || argc > 4 || (secs = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: pfm_load SECONDS [WARMUP_SECONDS [SEED]]\n");
		return 2;
	}
	warm = argc > 2 ? atoi(argv[2]) : (secs / 6 > 3 ? secs / 6 : 3);
	seed = argc > 3 ? strtoul(argv[3], NULL, 0) : (unsigned int)time(NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	load.ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	load.scale = getenv("PFM_LOAD_SCALE") ? atoi(getenv("PFM_LOAD_SCALE")) : 1;
	if (load.scale < 1)
		load.scale = 1;
	load.tp_getppid = tracepoint_id("sys_enter_getppid");
	if (load.tp_getppid < 0) {
		load_fail("no tracefs id for syscalls:sys_enter_getppid");
		return 1;
	}
	load_note("%d monitored threads, %d CPUs, warm-up %d s, load %d s, seed %u, rounds 1/%u",
		  LOAD_SLOTS, load.ncpus, warm, secs, seed, load.scale);

	load_main_first();
	/*
	 * No throttling: an overflow past perf_max_sample_rate / HZ samples in a tick
	 * is neither sampled nor lost (a THROTTLE record says so), and the samplers
	 * fault faster than that; every overflow must be a sample or a LOST.
	 */
	rate = load_read_long(MAX_RATE);
	if (rate < 0 || load_write(MAX_RATE, "2147483647"))
		load_fail("%s: cannot raise it", MAX_RATE);
	base = leak_snapshot();
	phase("warm-up", warm);
	leak_quiesce(base);
	before = leak_snapshot();
	phase("load", secs);
	leak_quiesce(base);
	after = leak_settle(before, leak_snapshot());
	leak_compare(before, after);
	snprintf(buf, sizeof(buf), "%ld", rate);
	if (rate > 0)
		load_write(MAX_RATE, buf);

	if (load_failures()) {
		load_note("FAILED: %ld checks", load_failures());
		return 1;
	}
	load_note("PASS");
	return 0;
}
