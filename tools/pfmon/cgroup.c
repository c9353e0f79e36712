// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: -G and --for-each-cgroup (pfmon.h), perf stat's: with -a or -C, events
 * that count only while a task of a cgroup (or of one below it) runs on the CPU.
 *
 * perfmon's CPU sessions count whatever runs on their CPU; the cgroup gate is
 * its perf layer's (PERF_FLAG_PID_CGROUP: a counter switched on and off at each
 * context switch).  So when a cgroup is given, every event of the run is counted
 * through pfm_perf_event_open() on each CPU, one counter per event: an event with
 * a cgroup opened on its cgroup's directory, one without on the CPU alone.  An
 * event the kernel cannot count so (a kernel whose cgroups have no perf_event
 * state, a hardware event without a PMU) is "<not supported>", as perf prints
 * it.
 *
 * Which event a cgroup goes with is perf's rule: the n-th name of -G (over every
 * -G given) with the n-th event defined before it, an empty name with none, and
 * a single name with every event; --for-each-cgroup repeats the whole event list
 * for each cgroup it names (a name with a regular expression's characters is
 * matched against every cgroup of the hierarchy, an empty one is the root).
 * Names are relative to the hierarchy perf's would be: a cgroup v1 mount with the
 * perf_event controller, else the cgroup2 mount.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/perf_event.h>
#include <mntent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pfmon.h"

#define MAX_CGROUPS	64

static struct {
	char *name;
	int fd;
} cgroups[MAX_CGROUPS];
static int ncgroups;
static int nnames;		/* -G's names so far, empty ones included */
static const char *for_each;	/* --for-each-cgroup's list */
static char mnt[4096];

/* The open counters of one CPU: one per event, -1 where not counted. */
struct cgperf {
	int fd[PFMON_MAX_EVENTS];
};

int cgroup_mode(void)
{
	return nnames || for_each;
}

const char *cgroup_name(int i)
{
	return opts.ev[i].cgroup ? cgroups[opts.ev[i].cgroup - 1].name : "";
}

/* The hierarchy's mount point, as perf finds it; exit 2 without one. */
static const char *mountpoint(void)
{
	struct mntent *m;
	FILE *f;

	if (*mnt)
		return mnt;
	f = setmntent("/proc/self/mounts", "r");
	while (f && (m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "perf_event")) {
			snprintf(mnt, sizeof(mnt), "%s", m->mnt_dir);
			break;
		}
		if (!strcmp(m->mnt_type, "cgroup2") && !*mnt)
			snprintf(mnt, sizeof(mnt), "%s", m->mnt_dir);
	}
	if (f)
		endmntent(f);
	if (!*mnt)
		options_refuse("no cgroup hierarchy is mounted (cgroup2, or cgroup with "
			       "perf_event)");
	return mnt;
}

/* The index of cgroup name, opened the first time it is named; exit 2 if it cannot be. */
static int cgroup_add(const char *name)
{
	char path[8192];
	int i;

	for (i = 0; i < ncgroups; i++)
		if (!strcmp(cgroups[i].name, name))
			return i;
	if (ncgroups == MAX_CGROUPS)
		options_refuse("more than 64 cgroups");
	snprintf(path, sizeof(path), "%s/%s", mountpoint(), name);
	cgroups[ncgroups].fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgroups[ncgroups].fd < 0) {
		fprintf(stderr, "pfmon: no access to cgroup %s: %s\n", path, strerror(errno));
		exit(2);
	}
	cgroups[ncgroups].name = strdup(name);
	if (!cgroups[ncgroups].name)
		pfmon_fail("strdup", ENOMEM, -1);
	return ncgroups++;
}

/* -G LIST: the next names go with the next events defined so far (see above). */
static void option_G(const char *list)
{
	const char *p = list, *e;
	char name[4096];
	int i;

	if (for_each)
		options_refuse("--cgroup and --for-each-cgroup cannot be used together");
	if (!opts.nev)
		options_refuse("must define events before cgroups");
	for (;;) {
		e = p + strcspn(p, ",");
		if (e > p) {
			if (nnames >= opts.nev)
				options_refuse("-G: more cgroups than events before it");
			snprintf(name, sizeof(name), "%.*s", (int)(e - p), p);
			opts.ev[nnames].cgroup = cgroup_add(name) + 1;
		}
		nnames++;
		if (!*e)
			break;
		p = e + 1;
	}
	if (nnames == 1)
		for (i = 1; i < opts.nev; i++)
			opts.ev[i].cgroup = opts.ev[0].cgroup;
}

int cgroup_option(int opt, const char *arg)
{
	switch (opt) {
	case 'G':
		option_G(arg);
		return 1;
	case OPT_FOR_EACH_CGROUP:
		if (nnames)
			options_refuse("--cgroup and --for-each-cgroup cannot be used together");
		for_each = arg;
		return 1;
	}
	return 0;
}

/* --for-each-cgroup: the cgroups a pattern matches, in the hierarchy's walk order */
static regex_t walk_re;
static size_t walk_prefix;

static int walk_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *name = path + walk_prefix;

	(void)sb;
	(void)ftw;
	if (type != FTW_D)
		return 0;
	if (name[0] == '/' && name[1])
		name++;
	if (!regexec(&walk_re, name, 0, NULL, 0))
		cgroup_add(*name ? name : "/");
	return 0;
}

static void expand_pattern(const char *pat)
{
	if (regcomp(&walk_re, pat, REG_NOSUB)) {
		fprintf(stderr, "pfmon: --for-each-cgroup: bad pattern '%s'\n", pat);
		exit(2);
	}
	walk_prefix = strlen(mountpoint());
	if (nftw(mnt, walk_one, 20, FTW_PHYS) < 0)
		pfmon_fail("nftw", errno, -1);
	regfree(&walk_re);
}

/* The event list once for each cgroup of --for-each-cgroup, in its order. */
static void expand(void)
{
	struct pfmon_event *orig;
	const char *p = for_each, *e;
	int pattern = strpbrk(for_each, "{}[]()|*+?^$") != NULL;
	int n = opts.nev, groups = 0, c, i;
	char name[4096];

	for (;;) {
		e = p + strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)(e - p), p);
		if (pattern && *name)
			expand_pattern(name);
		else
			cgroup_add(*name ? name : "/");
		if (!*e)
			break;
		p = e + 1;
	}
	if (!ncgroups) {
		fprintf(stderr, "pfmon: no cgroup matched: %s\n", for_each);
		exit(2);
	}
	if ((long)n * ncgroups > PFMON_MAX_EVENTS)
		options_refuse("--for-each-cgroup: more than " PFMON_MAX_EVENTS_STR " events in all");
	orig = malloc(n * sizeof(*orig));
	if (!orig)
		pfmon_fail("malloc", ENOMEM, -1);
	memcpy(orig, opts.ev, n * sizeof(*orig));
	for (i = 0; i < n; i++)
		groups = orig[i].group > groups ? orig[i].group : groups;
	for (c = 0; c < ncgroups; c++) {
		for (i = 0; i < n; i++) {
			opts.ev[c * n + i] = orig[i];
			opts.ev[c * n + i].cgroup = c + 1;
			opts.ev[c * n + i].group = orig[i].group + c * groups;
		}
	}
	opts.nev = n * ncgroups;
	free(orig);
}

/* After the options: perf's refusals, then --for-each-cgroup's events. */
void cgroup_check(void)
{
	if (!cgroup_mode())
		return;
	if (!opts.ncpus)
		options_refuse("both cgroup and no-aggregation modes only available in "
			       "system-wide mode");
	if (opts.smpl_period || opts.smpl_freq)
		options_refuse("-G, --for-each-cgroup: counting only, not with -P or -F");
	if (for_each)
		expand();
}

/* perf's names for perfmon's software events, where perf has them */
static const struct {
	const char *name;
	int type;
	uint64_t config;
} perf_events[] = {
	{ "task-clock",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "context-switches",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "alignment-faults",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "cycles",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "branches",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

/*
 * Event i as perf_event_open() takes it; 0 when it has no such form (a
 * hardware event by libpfm4's name: perfmon's perf layer takes perf's generic
 * ones and raw codes, not libpfm4's encodings).
 */
static int attr_of(int i, struct perf_event_attr *a)
{
	const struct pfmon_event *e = &opts.ev[i];
	uint64_t lv = e->soft ? e->sw_levels : opts.levels;
	char base[64], *mod;
	unsigned int k;
	long id;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	evnames_perf_name(e->name, base, sizeof(base));
	mod = strchr(base, ':');
	if (mod) {
		*mod++ = '\0';
		if (!e->soft)
			lv = (strchr(mod, 'u') ? PFM_SW_PMC_USR : 0) |
			     (strchr(mod, 'k') ? PFM_SW_PMC_OS : 0);
	}
	a->exclude_user = !(lv & PFM_SW_PMC_USR);
	a->exclude_kernel = !(lv & PFM_SW_PMC_OS);
	a->exclude_hv = 1;
	/*
	 * The tracepoint's hits are at kernel level (its registers are the
	 * kernel's): all of them are the system calls made from user level, which
	 * are what pfmon's event counts at USR.
	 */
	/* a trace event's :u is its user-level hits, :k every hit (perf's) */
	if (e->tp) {
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = e->tp_id;
		a->exclude_user = 0;
		return 1;
	}
	if (e->soft && e->sw == PFM_SW_EV_SYSCALLS) {
		a->type = PERF_TYPE_TRACEPOINT;
		/* pfmon's own system call event is perf's raw_syscalls:sys_enter */
		id = tp_id_of("raw_syscalls", "sys_enter");
		a->config = id;
		a->exclude_user = a->exclude_kernel = 0;
		return (lv & PFM_SW_PMC_USR) && id >= 0;
	}
	for (k = 0; k < sizeof(perf_events) / sizeof(perf_events[0]); k++) {
		if (!strcmp(base, perf_events[k].name)) {
			a->type = perf_events[k].type;
			a->config = perf_events[k].config;
			return 1;
		}
	}
	return 0;
}

struct cgperf *cgperf_open(int cpu)
{
	struct cgperf *p = malloc(sizeof(*p));
	struct perf_event_attr a;
	int i, cg;

	if (!p)
		pfmon_fail("malloc", ENOMEM, -1);
	for (i = 0; i < opts.nev; i++) {
		p->fd[i] = -1;
		if (opts.ev[i].unsupported || !attr_of(i, &a)) {
			opts.ev[i].unsupported = 1;
			continue;
		}
		cg = opts.ev[i].cgroup;
		p->fd[i] = pfm_perf_event_open(&a, cg ? cgroups[cg - 1].fd : -1, cpu, -1,
					       PERF_FLAG_FD_CLOEXEC |
					       (cg ? PERF_FLAG_PID_CGROUP : 0));
		/* --filter's, as perf sets it on each CPU's event */
		if (p->fd[i] >= 0 && opts.ev[i].filter &&
		    ioctl(p->fd[i], PERF_EVENT_IOC_SET_FILTER, opts.ev[i].filter))
			evopts_filter_refused(&opts.ev[i]);
		if (p->fd[i] >= 0)
			continue;
		/* what perf shows as not supported; anything else ends the run */
		if (errno != ENOENT && errno != EOPNOTSUPP && errno != EINVAL &&
		    errno != ENODEV)
			pfmon_fail("pfm_perf_event_open", errno, cpu);
		opts.ev[i].unsupported = 1;
	}
	return p;
}

int cgperf_read(const struct cgperf *p, struct pfmon_count *one)
{
	uint64_t v[3];
	int i;

	for (i = 0; i < opts.nev; i++) {
		if (p->fd[i] < 0)
			continue;
		if (read(p->fd[i], v, sizeof(v)) != sizeof(v))
			return -1;
		one[i].raw = v[0];
		one[i].enabled = v[1];
		one[i].running = v[2];
	}
	return 0;
}

/* every event, but those --control switched off alone */
void cgperf_enable(const struct cgperf *p, int on)
{
	int i;

	for (i = 0; i < opts.nev; i++)
		cgperf_enable_event(p, i, on && !control_event_off(i));
}

void cgperf_enable_event(const struct cgperf *p, int ev, int on)
{
	if (p->fd[ev] >= 0)
		ioctl(p->fd[ev], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

void cgperf_close(struct cgperf *p)
{
	int i;

	for (i = 0; i < opts.nev; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	free(p);
}
