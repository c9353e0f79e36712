// SPDX-License-Identifier: GPL-2.0
/*
 * perf_diff's tracking cases: perf record's tracking event, a DUMMY with mmap2,
 * mmap_data, comm, comm_exec, task, context_switch and sample_id_all, opened
 * on the test thread with inherit, sampling (period 1, as perf record's, which
 * a DUMMY never reaches) or only counting; its ring is compared between the
 * kernel and the shim.  As perf record's, the event is on one CPU (an inherit
 * event on every CPU cannot be mapped, which is checked first), the one the
 * test and its child are pinned to.  While it is enabled the thread forks a child that
 * exits at once, renames itself (PR_SET_NAME), maps its own program file
 * executable (perf_diff is static: no dlopen), maps it again readable only
 * then mprotect()s it executable, maps anonymous read-only memory, grows its
 * heap (brk), and sleeps a few times.
 *
 * The records other than SWITCH are compared in ring order, exactly: type,
 * misc, size, pids and tids (as "this thread" or "the child"), a mapping's
 * address (as "the address mmap() returned", or for the heap "covers the
 * break"), length, offset, prot and flags, and name.  SWITCH records are
 * counted: the thread's switches in, its blocking switches out (one each per
 * sleep at least, 's') and its preempted ones; every SWITCH's trailer names a
 * thread of the test.  The child's own switches (its copy's): at least its
 * first switch in, which comes before it first runs; how many more varies
 * natively from one run to the next (1 to 5 in all).  The thread's parent
 * spins after reaping the child, and the scheduler is made fully preemptive
 * for the while (debugfs's sched/preempt, if there): a child preempted past
 * its exit and reaped then makes its last switch into the spinning thread,
 * whose switch in is written while current is the reaped child.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diff.h"

#define TRACK_PAGES	16	/* data pages: every record fits without a wrap */
#define TRACK_SLEEPS	5
#define TRACK_RECS	24
#define TRACK_WORDS	64
#define TRACK_CPU	0
#define TRACK_BUSY_MS	20

struct track_rec {
	unsigned int type, misc, size, pid, tid, ppid, ptid;
	unsigned long long addr, len, pgoff, prot_flags;
	char name[40];
};

struct track_walk {
	pid_t me, child;
	unsigned long long map[4];	/* the addresses mmap() returned */
	unsigned long long brk0, brk1;	/* the break before and after */
	unsigned int nrecs, dropped;
	struct track_rec recs[TRACK_RECS];
	unsigned long long sw_in, sw_out, sw_preempt, sw_child_in, sw_child_out, sw_bad;
};

/* who a pid is, as both traces can tell: this thread 1, the child 2, else 3 */
static unsigned int who(const struct track_walk *tw, unsigned int pid)
{
	return pid == (unsigned int)tw->me ? 1 : pid == (unsigned int)tw->child ? 2 : 3;
}

/* which of the test's mappings addr is: 1 + its index, 99 for the heap, else 0 */
static unsigned long long which_map(const struct track_walk *tw, unsigned long long addr,
				    unsigned long long len)
{
	int i;

	for (i = 0; i < 4; i++)
		if (addr == tw->map[i])
			return 1 + i;
	if (addr <= tw->brk0 && addr + len >= tw->brk1)
		return 99;
	return 0;
}

/* a record's name, at most max bytes of it, cut to what dst holds */
static void copy_str(char *dst, size_t size, const char *src, size_t max)
{
	size_t n = strnlen(src, max < size - 1 ? max : size - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

static void track_rec(const struct perf_event_header *h, const unsigned long long *w,
		      size_t words, struct track_walk *tw)
{
	const unsigned int *u = (const unsigned int *)w;
	/* the trailer: TID (pid, tid) then TIME, the record's last two words */
	unsigned int trailer_tid = words >= 2 ? (unsigned int)(w[words - 2] >> 32) : 0;
	struct track_rec *r;

	if (h->type == PERF_RECORD_SWITCH) {
		if (trailer_tid == (unsigned int)tw->child) {
			if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
				tw->sw_child_out++;
			else
				tw->sw_child_in++;
		} else if (trailer_tid != (unsigned int)tw->me) {
			tw->sw_bad++;
		} else if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT)) {
			tw->sw_in++;
		} else if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
			tw->sw_preempt++;
		} else {
			tw->sw_out++;
		}
		return;
	}
	if (tw->nrecs == TRACK_RECS) {
		tw->dropped++;
		return;
	}
	r = &tw->recs[tw->nrecs++];
	memset(r, 0, sizeof(*r));
	r->type = h->type;
	r->misc = h->misc;
	r->size = h->size;
	switch (h->type) {
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		r->pid = who(tw, u[0]);
		r->ppid = who(tw, u[1]);
		r->tid = who(tw, u[2]);
		r->ptid = who(tw, u[3]);
		break;
	case PERF_RECORD_COMM:
		r->pid = who(tw, u[0]);
		r->tid = who(tw, u[1]);
		copy_str(r->name, sizeof(r->name), (const char *)(u + 2), 16);
		break;
	case PERF_RECORD_MMAP2:
		r->pid = who(tw, u[0]);
		r->tid = who(tw, u[1]);
		r->addr = which_map(tw, w[1], w[2]);
		r->len = r->addr == 99 ? 0 : w[2];	/* the heap's is the machine's */
		/* an anonymous mapping's offset is its address: the machine's */
		r->pgoff = w[5] ? w[3] : 0;
		r->prot_flags = w[7];
		copy_str(r->name, sizeof(r->name), (const char *)(w + 8),
			 words > 8 ? (words - 8) * 8 : 0);
		break;
	}
	r->tid |= who(tw, trailer_tid) << 8;
}

/* the records up to data_head, copied out whole (the ring never wraps here) */
static void track_walk(struct perf_event_mmap_page *pg, struct track_walk *tw)
{
	unsigned long long head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	const char *data = (const char *)pg + pg->data_offset;
	unsigned long long pos, w[TRACK_WORDS];
	struct perf_event_header h;
	size_t n;

	for (pos = 0; pos + sizeof(h) <= head && pos < pg->data_size; pos += h.size) {
		memcpy(&h, data + pos, sizeof(h));
		if (!h.size)
			break;
		n = h.size - sizeof(h) < sizeof(w) ? h.size - sizeof(h) : sizeof(w);
		memcpy(w, data + pos + sizeof(h), n);
		track_rec(&h, w, n / sizeof(w[0]), tw);
	}
}

#define PREEMPT_KNOB	"/sys/kernel/debug/sched/preempt"

/*
 * The scheduler's preemption model as "full" (a preemptible kernel, as the
 * debug kernel is) where debugfs offers it, so that the child can be switched
 * out past its exit as there; its mode before into old ("" if none).
 */
static void preempt_full(char *old, size_t size)
{
	char *open_mark, *close_mark;
	ssize_t n;
	int fd;

	old[0] = 0;
	fd = open(PREEMPT_KNOB, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, old, size - 1);
	old[n > 0 ? n : 0] = 0;
	close(fd);
	/* "none voluntary (full)": the mode in parentheses */
	open_mark = strchr(old, '(');
	close_mark = open_mark ? strchr(open_mark, ')') : NULL;
	if (close_mark) {
		*close_mark = 0;
		memmove(old, open_mark + 1, strlen(open_mark + 1) + 1);
	} else {
		old[0] = 0;
	}
	if (!old[0])
		return;
	fd = open(PREEMPT_KNOB, O_WRONLY);
	if (fd < 0 || write(fd, "full", 4) != 4)
		old[0] = 0;
	if (fd >= 0)
		close(fd);
}

static void preempt_restore(const char *old)
{
	int fd;

	if (!old[0])
		return;
	fd = open(PREEMPT_KNOB, O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, old, strlen(old)) != (ssize_t)strlen(old))
		fprintf(stderr, "perf_diff: %s not set back to %s\n", PREEMPT_KNOB, old);
	close(fd);
}

/* What the thread does while the event is enabled; nothing recorded meanwhile. */
static void track_work(struct track_walk *tw)
{
	long psz = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/exe", O_RDONLY);
	void *p;

	tw->child = fork();
	if (!tw->child)
		_exit(0);
	waitpid(tw->child, NULL, 0);
	/*
	 * Busy, not blocked: a child preempted between its exit_notify() and its
	 * last switch (a preemptible kernel), then reaped, makes that switch
	 * into this thread while it runs
	 */
	busy_ms(TRACK_BUSY_MS);
	prctl(PR_SET_NAME, "pfm-track");
	if (fd >= 0) {
		p = mmap(NULL, 2 * psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		tw->map[0] = p == MAP_FAILED ? 0 : (unsigned long)p;
		p = mmap(NULL, psz, PROT_READ, MAP_PRIVATE, fd, psz);
		tw->map[1] = p == MAP_FAILED ? 0 : (unsigned long)p;
		if (p != MAP_FAILED)
			mprotect(p, psz, PROT_READ | PROT_EXEC);
		close(fd);
	}
	p = mmap(NULL, 3 * psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tw->map[2] = p == MAP_FAILED ? 0 : (unsigned long)p;
	tw->brk0 = (unsigned long)sbrk(0);
	sbrk(4 * psz);
	tw->brk1 = (unsigned long)sbrk(0);
	work_sleep(TRACK_SLEEPS);
	if (tw->map[0])
		munmap((void *)tw->map[0], 2 * psz);
	if (tw->map[1])
		munmap((void *)tw->map[1], psz);
	if (tw->map[2])
		munmap((void *)tw->map[2], 3 * psz);
	sbrk(-4 * psz);
}

static void track_case(const struct backend *be, struct trace *t, int sampling)
{
	struct track_walk tw = { .me = getpid() };
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	struct perf_event_attr a;
	size_t len = (1 + TRACK_PAGES) * psz;
	unsigned int i;
	char mode[64];
	int fd;

	attr_sw(&a, PERF_COUNT_SW_DUMMY);
	a.sample_period = sampling;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.inherit = 1;
	a.mmap = 1;
	a.mmap2 = 1;
	a.mmap_data = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;
	a.context_switch = 1;
	/* perf_mmap(): no ring for an inherit event on every CPU */
	fd = be->open(&a, 0, -1, -1, 0);
	obs_call(t, fd, 0, "open dummy, %s, tracking, cpu -1", sampling ? "period 1" : "counting");
	if (fd >= 0) {
		pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		obs_call(t, pg == MAP_FAILED ? -1 : 0, 1, "mmap 1+%d pages", TRACK_PAGES);
		if (pg != MAP_FAILED)
			munmap(pg, len);
		close(fd);
	}
	/* as perf record: an event per CPU, here the one CPU the test and its child run on */
	pin(TRACK_CPU);
	fd = be->open(&a, 0, TRACK_CPU, -1, 0);
	obs_call(t, fd, 0, "open dummy, %s, tracking, cpu %d", sampling ? "period 1" : "counting",
		 TRACK_CPU);
	if (fd < 0)
		goto out_pin;
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	obs_call(t, pg == MAP_FAILED ? -1 : 0, 1, "mmap 1+%d pages", TRACK_PAGES);
	if (pg == MAP_FAILED)
		goto out;
	preempt_full(mode, sizeof(mode));
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 1, "ENABLE");
	track_work(&tw);
	obs_call(t, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 1, "DISABLE");
	preempt_restore(mode);
	prctl(PR_SET_NAME, "perf_diff");
	track_walk(pg, &tw);
	obs_call(t, 0, 1, "records");
	/*
	 * Not compared: preemptions (the debug kernel's preemptible scheduler
	 * reads 0 and 3 in two native runs) and the child's number of switches
	 * beyond its first in.  None names a third thread (or none: tid 0).
	 */
	obs_vals(t, (unsigned long long[]){ tw.nrecs, tw.dropped, tw.sw_in, tw.sw_out,
					    tw.sw_preempt, tw.sw_child_in >= 1, tw.sw_child_in,
					    tw.sw_child_out, tw.sw_bad },
		 9, "eessxexxe");
	for (i = 0; i < tw.nrecs; i++) {
		const struct track_rec *r = &tw.recs[i];

		obs_call(t, 0, 1, "record %u: type %u %s", i, r->type, r->name);
		obs_vals(t, (unsigned long long[]){ r->misc, r->size, r->pid, r->tid, r->ppid,
						    r->ptid, r->addr, r->len, r->pgoff,
						    r->prot_flags }, 10, "eeeeeeeeee");
	}
	munmap(pg, len);
out:
	close(fd);
out_pin:
	pin(-1);
}

/* the child's work: this very program again, which exits at once (a usage error) */
static void exec_again(long unused)
{
	(void)unused;
	if (!freopen("/dev/null", "w", stderr))
		_exit(4);
	execl("/proc/self/exe", "perf_diff", (char *)NULL);
	_exit(5);
}

/*
 * perf record -p on a thread that execs: a DUMMY with mmap2, mmap_data and
 * comm, enabled before the exec, on a forked child that execs this program.
 * What the new image maps as it loads (its segments, bss and break, the vDSO's
 * two special mappings, the stack) comes as each mapping is made, with the
 * lengths it had then; addresses are the exec's own (randomized), not
 * compared.
 */
void case_track_exec(const struct backend *be, struct trace *t)
{
	struct child c = { .no_lock = 1 };
	struct track_walk tw = { 0 };
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	struct perf_event_attr a;
	size_t len = (1 + TRACK_PAGES) * psz;
	unsigned int i;
	int fd;

	if (child_start(&c, exec_again, 0))
		return;
	tw.me = c.pid;
	attr_sw(&a, PERF_COUNT_SW_DUMMY);
	a.disabled = 0;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.mmap2 = 1;
	a.mmap_data = 1;
	a.comm = 1;
	a.comm_exec = 1;
	fd = be->open(&a, c.pid, -1, -1, 0);
	obs_call(t, fd, 0, "open dummy on the child, enabled, mmap2, mmap_data, comm");
	pg = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	obs_call(t, pg == MAP_FAILED ? -1 : 0, 1, "mmap 1+%d pages", TRACK_PAGES);
	child_go(&c);
	waitpid(c.pid, NULL, 0);
	if (pg != MAP_FAILED) {
		track_walk(pg, &tw);
		munmap(pg, len);
	}
	if (fd >= 0)
		close(fd);
	obs_call(t, 0, 1, "records");
	obs_vals(t, (unsigned long long[]){ tw.nrecs, tw.dropped }, 2, "ee");
	for (i = 0; i < tw.nrecs; i++) {
		const struct track_rec *r = &tw.recs[i];

		obs_call(t, 0, 1, "record %u: type %u %s", i, r->type, r->name);
		obs_vals(t, (unsigned long long[]){ r->misc, r->size, r->pid, r->tid, r->len,
						    r->pgoff, r->prot_flags }, 7, "eeeeeee");
	}
}

/* the tracking DUMMY sampling (perf record's), and the same only counting */
void case_track_sampling(const struct backend *be, struct trace *t)
{
	track_case(be, t, 1);
}

void case_track_counting(const struct backend *be, struct trace *t)
{
	track_case(be, t, 0);
}
