/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_diff: one sequence of perf_event calls, made through two backends, observed
 * and compared observation by observation (diff.c has the harness, diff_cases.c
 * the cases).
 */
#ifndef _PERF_DIFF_H
#define _PERF_DIFF_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>

/* How perf_event_open is reached: the kernel's system call, or perfmon's shim. */
struct backend {
	const char *name;
	int (*open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
};

/*
 * How two observed values must agree, one letter per value:
 *   e  exactly (a count the workload fixes, a size, a flag)
 *   c  within 5 % (clocks: task-clock, cpu-clock, time_enabled/running)
 *   r  a clock of another run: within a factor of 2.  Under TCG a loaded host
 *      stretches what a child does around a fixed spin (its start and exit) by
 *      tens of milliseconds from one run to the next; the clocks' accuracy is
 *      checked on one run of both backends (diff_together.c) and each case
 *      checks exactly that a clock covers the spin it saw
 *   f  the page faults of a forked child's fresh pages: within 8.  Natively, 64
 *      fresh pages read 64 in most runs and 69 to 71 in some (1 run in 4 or 5 on
 *      a loaded host, in one boot, with or without perfmon loaded); the faults
 *      of the test's own thread are exact ('e')
 *   s  a scheduler count: 0 stays 0, else within a factor of 3 (the workload fixes
 *      its sleeps, the machine its preemptions)
 *   p  a share in percent: within 10 points (what part of a time another is)
 *   x  not compared (event ids, whose values are the kernel's choice)
 */
#define OBS_MAX_VALS	40

struct obs {
	char what[96];			/* what was done, the same in both traces */
	long ret;			/* the call's result, -1 on error */
	int err;			/* its errno when ret < 0 */
	int ret_exact;			/* compare ret itself (read sizes), not only >= 0 */
	int n;				/* values observed after the call */
	unsigned long long v[OBS_MAX_VALS];
	char kind[OBS_MAX_VALS + 1];	/* one letter per value, as above */
};

#define TRACE_MAX	320

struct trace {
	int n;
	struct obs o[TRACE_MAX];
};

/* Record a call: its result and errno; exact: ret must be equal, not only >= 0. */
void obs_call(struct trace *t, long ret, int exact, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Record values seen after the last call (kinds: one letter per value). */
void obs_vals(struct trace *t, const unsigned long long *v, int n, const char *kinds);
void obs_val(struct trace *t, unsigned long long v, char kind);

/* A forked child that waits for child_go(), runs work(arg), and exits. */
struct child {
	pid_t pid;
	int go;				/* write end of its start pipe */
	int no_lock;			/* in: no mlockall(), whose undoing at exit
					 * would weigh on the child's clocks */
};
int child_start(struct child *c, void (*work)(long), long arg);
void child_go(struct child *c);
int child_wait(struct child *c);	/* its exit status, -1 if it did not exit 0 */

/* workloads, in a child or in-line */
void work_touch(long pages);		/* exactly `pages` fresh page faults */
void work_spin(long ms);		/* ms of CPU time */
void work_sleep(long n);		/* n sleeps of 1 ms: n context switches */
void work_fork_touch(long pages);	/* a child of its own touches `pages` */
void work_none(long unused);
long long thread_ns(void);		/* the calling thread's CPU time */

/* the attr every case starts from: counting, disabled, software, size VER7 */
void attr_sw(struct perf_event_attr *a, unsigned long long config);

/* diff_cases.c: an open, an ioctl and a read, recorded (a read's size exactly) */
int do_open(const struct backend *be, struct trace *t, struct perf_event_attr *a,
	    pid_t pid, int cpu, int group_fd, unsigned long flags, const char *what);
long do_ioctl(struct trace *t, int fd, unsigned long cmd, unsigned long arg, const char *what);
long do_read(struct trace *t, int fd, unsigned long long *buf, size_t size, const char *what);

struct diff_case {
	const char *name;
	void (*run)(const struct backend *be, struct trace *t);
};

extern const struct diff_case diff_cases[];
/*
 * Cases that measure shares of a thread's time, or count its context switches,
 * which the host's preemptions of the guest's CPUs move at random on a loaded
 * machine: a difference is looked at again, once, with both backends run anew.
 * NULL-terminated.
 */
extern const char *const diff_clock_cases[];

/* diff_ring.c: an event's ring, mapped and walked record by record */
struct dring {
	struct perf_event_mmap_page *pg;
	size_t len;
};

#define REC_WORDS	64	/* the words of a record a walk copies out */

/* A ring of 1 + pages pages on fd, recorded; 0 if mapped. */
int dring_map(struct trace *t, struct dring *r, int fd, int pages);
/* fn on each record up to data_head, copied out (up to REC_WORDS words after the header) */
void dring_walk(const struct dring *r,
		void (*fn)(const struct perf_event_header *h,
			   const unsigned long long *w, void *arg), void *arg);
/* n fresh private pages, out of huge pages; NULL if none */
volatile char *fresh(long n);
/* a write to pages from .. from + n - 1 of p: one fault each the first time */
void touch(volatile char *p, long from, long n);

/* diff_sample.c: perf's ring of a sampling event, record by record */
void case_sample_ring(const struct backend *be, struct trace *t);
void case_sample_group(const struct backend *be, struct trace *t);
void case_throttle_sw(const struct backend *be, struct trace *t);
void case_refresh(const struct backend *be, struct trace *t);
void case_ioc_period(const struct backend *be, struct trace *t);
void case_set_output(const struct backend *be, struct trace *t);
void case_fork_record(const struct backend *be, struct trace *t);
void case_exec_record(const struct backend *be, struct trace *t);
void case_clock_sample(const struct backend *be, struct trace *t);

/* diff_memlock.c: a ring's locked memory as nobody */
void case_ring_memlock(const struct backend *be, struct trace *t);

/* diff_nobody.c: opens as nobody at a perf_event_paranoid level */
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
/* a /proc/sys knob at path set to val, its old value into old if not NULL; 0 if set */
int knob(const char *path, const char *val, char *old, size_t len);
/*
 * be's open of a on pid (0: the child itself) and cpu, by a child as nobody with
 * perf_event_paranoid at level ("2\n"): 0 if it opened, its errno, or -1 if the
 * child could not be made nobody or report
 */
int open_as_nobody(const struct backend *be, struct perf_event_attr *a, int pid, int cpu,
		   const char *level);

/* diff_cpu.c: events on one CPU (pid -1), the test pinned there */
void pin(int cpu);			/* the calling thread on cpu, or anywhere for -1 */
void busy_ms(long ms);			/* ms of wall-clock time spent spinning */
void case_cpu_events(const struct backend *be, struct trace *t);
void case_clock_switches(const struct backend *be, struct trace *t);

/* diff_prctl.c: PR_TASK_PERF_EVENTS_ENABLE / _DISABLE, by the events' owner */
void case_prctl(const struct backend *be, struct trace *t);
void case_prctl_inherit(const struct backend *be, struct trace *t);

/* diff_sample_tail.c: the sample fields after RAW, and their refusals */
void case_sample_tail(const struct backend *be, struct trace *t);
void case_sample_tail_bad(const struct backend *be, struct trace *t);

/* diff_backward.c: attr.write_backward's ring, PAUSE_OUTPUT on it */
void case_backward_ring(const struct backend *be, struct trace *t);
void case_backward_wrap(const struct backend *be, struct trace *t);

/* diff_cpu_sample.c: sampling events on one CPU, and where a sample was taken */
void case_cpu_sample(const struct backend *be, struct trace *t);
void case_cpu_clock_sample(const struct backend *be, struct trace *t);
void case_cpu_switches(const struct backend *be, struct trace *t);
void case_thread_on_cpu(const struct backend *be, struct trace *t);
void case_kernel_fault_ip(const struct backend *be, struct trace *t);

/* diff_cgroup.c: events of a cgroup on one CPU (perf stat -G) */
void case_cgroup(const struct backend *be, struct trace *t);
/* dir, a cgroup made under cgroup v2's root (/sys/fs/cgroup): its fd, -1 if none */
int cg_dir_open(const char *dir);
int cg_enter(const char *dir, pid_t pid);	/* pid into cgroup dir; 0 if moved */

/* diff_times.c: times of events switched at context switches (a CPU's, a cgroup's) */
void case_thread_on_cpu_times(const struct backend *be, struct trace *t);
void case_cgroup_times(const struct backend *be, struct trace *t);

/* diff_track.c: perf record's tracking event, its side-band records */
void case_track_sampling(const struct backend *be, struct trace *t);
void case_track_counting(const struct backend *be, struct trace *t);
void case_track_exec(const struct backend *be, struct trace *t);

/* diff_coexist.c: a thread's events and its CPU's at once */
void case_coexist_count(const struct backend *be, struct trace *t);
void case_coexist_sample(const struct backend *be, struct trace *t);

/* diff_tracepoint.c: tracepoint events, counted and sampled with RAW */
long long tp_id(const char *sys, const char *ev);	/* tracefs id, or -1 */
void attr_tp(struct perf_event_attr *a, long long id);	/* counting, disabled */
void case_tp_count(const struct backend *be, struct trace *t);
void case_tp_inherit(const struct backend *be, struct trace *t);
void case_tp_cpu(const struct backend *be, struct trace *t);
void case_tp_raw(const struct backend *be, struct trace *t);
void case_tp_raw_perm(const struct backend *be, struct trace *t);
void case_tp_bad(const struct backend *be, struct trace *t);
/* diff_breakpoint.c: watchpoints and breakpoints, MODIFY_ATTRIBUTES, sigtrap */
void case_bp_count(const struct backend *be, struct trace *t);
void case_bp_slots(const struct backend *be, struct trace *t);
void case_bp_sample(const struct backend *be, struct trace *t);
void case_bp_modify(const struct backend *be, struct trace *t);
void case_bp_sigtrap(const struct backend *be, struct trace *t);
void case_bp_inherit(const struct backend *be, struct trace *t);
void case_remove_on_exec(const struct backend *be, struct trace *t);
/* diff_bp_wide.c: kernel-mode hits and breakpoints on a CPU */
void case_bp_kernel(const struct backend *be, struct trace *t);
void case_bp_cpu(const struct backend *be, struct trace *t);
/* diff_tp_hotplug.c: a tracepoint counted on a CPU onlined after its first event */
void case_tp_hotplug(const struct backend *be, struct trace *t);
/* diff_tp_filter.c: PERF_EVENT_IOC_SET_FILTER on tracepoints */
void case_tp_filter(const struct backend *be, struct trace *t);

/* diff_together.c: both backends' clocks on one child; 0 if they agree */
int clocks_together(const struct backend *native, const struct backend *shim);
extern const size_t diff_ncases;

#endif /* _PERF_DIFF_H */
