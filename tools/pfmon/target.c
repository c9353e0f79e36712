// SPDX-License-Identifier: GPL-2.0
/*
 * pfmon: the monitored threads and CPUs of one run (pfmon.h).
 *
 * One context per monitored thread (a command, -p, -t) or CPU (-a, -C), all
 * programmed alike; the counts are their sums.
 *
 * A command's new threads and processes are counted by the kernel: its context
 * is created with PFM_FL_INHERIT, which gives each of them a context of its own
 * before its first instruction and adds its counts into the command's at its
 * exit (perfmon.h, INHERITANCE).  The command then runs without ptrace: it waits
 * on a pipe until its context is attached and started, then execs, so the counts
 * cover it from its first instruction.
 *
 * -p counts a running process the same way, without ptrace: each thread in
 * /proc/PID/task gets an inherit context of pfmon's, so that a thread or child
 * one of them creates gets its inheritor from the kernel before it runs.  A
 * thread created by a thread not attached yet has none: pfmon reads the task
 * list again, until a pass finds no thread without a context.  A thread that
 * has one already (pfm_load_context fails with EEXIST) is skipped: it is an
 * inheritor of one of pfmon's contexts, counted into it, or it has another
 * tool's context, and then pfmon counts neither it nor what it creates (a
 * thread has one context at most).  A thread listed after its creation but
 * before the kernel gave it its inheritor (as it first returns to user mode)
 * takes pfmon's context instead: it is counted all the same, from its first
 * instruction, but the kernel counts its inheritor as lost, and so does the
 * warning at the end.  The run ends when every thread of the process has
 * ended (its pidfd says so: /proc still lists a zombie leader), or at ^C.
 *
 * -t counts the threads named the same way, each with what it creates.
 *
 * A read of an inherit context has its live children's counts, and its sets'
 * durations (pfm_getinfo_evtsets()) are its family's: -I reads it as any other.
 *
 * --per-thread is perf stat's: a line per thread pfmon attached a context to
 * (a command's first thread, each thread -p found, each -t), into which what
 * it creates is counted, as perf's inherited events fold into the thread of
 * its thread map that created them.  A thread keeps the name it had when
 * pfmon found it, as perf's thread map does; a command, the name its exec
 * gives it.
 *
 * Several event sets are inherited too: an inherit context cannot have the mux
 * format's log, so the estimates come from its reads (famlog.c), and the log
 * is kept for the contexts that may have it (CPUs, --no-inherit).
 *
 * Sampling (-P, -F) is inherited too: the inherit context's buffer is shared
 * with its inheritors, which write their samples there with their own thread
 * ids; nobody is held when it is full (what does not fit is lost, and counted),
 * and the sampled event's count comes from a hidden counter (the inheritors'
 * sampled counters are not summed).  pfmon drains the buffers every 10 ms, so
 * as to take the mappings of the processes the samples show while they live.
 *
 * pfmon follows no new thread or process itself: every run that counts them
 * (a command, -p and -t that inherit) has the kernel's inheritance.  ptrace is
 * left for a command whose new threads are not counted (--no-inherit, or -a/-C,
 * whose CPU sessions count every thread there already): it stops at a SIGSTOP
 * it sends itself before exec, so that its context is attached and started
 * before the exec, and its exec (its new name) and, when sampling, its exit
 * (its mappings) are traced.  With --no-inherit only the command's first
 * thread, or the threads -p finds at the start, or the threads -t names, are
 * counted.
 *
 * A context whose thread ends (the kernel queues PFM_MSG_END) is read and
 * closed then: its counts join the retired ones of its group, and its fd and
 * its place in ctx_per_user_max are given back.  Not an inherit context: its
 * thread's new threads and children count into it until it is closed, also
 * after its own thread's end (a main thread's pthread_exit, the others going
 * on); it is read at each -I tick and closed at the end of the run.  A group is
 * what is printed apart: every context (by default), a thread (--per-thread)
 * or a CPU (-A).
 *
 * -I: the counts are read every interval, and once more at the end, whatever
 * ended the run, so that the last interval, partial, is printed too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pfmon.h"
#include "smpl.h"

struct tctx {
	int fd;
	int grp;		/* its group */
	long target;		/* thread id or CPU */
	struct smpl_buf *smpl;
	const void *log;	/* the set switch log, with several sets */
	struct famlog *fam;	/* an inherit context's reads, with several sets */
	struct freq_state freq;	/* -F */
	int inherit;		/* PFM_FL_INHERIT: kept open after its thread's end */
	int ended;		/* its thread ended (PFM_MSG_END) */
	struct cgperf *cg;	/* -G: the CPU's perf counters, and fd is -1 */
};

struct tracee {
	pid_t tid;
	int stopped_once;	/* its initial SIGSTOP was seen */
};

static struct tctx *ctxs;
static int nctx;
static struct tracee *tracees;
static int ntracees;
static int sigpipe[2] = { -1, -1 };
static pid_t child;
static pid_t *known;		/* -p without ptrace: the threads seen in the task lists */
static int nknown;
static int pidfds[64];		/* -p without ptrace: each process's, -1 once it ended */
static int ninherit;		/* contexts opened with PFM_FL_INHERIT */

void *pfmon_grow(void *p, int n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p) {
		perror("pfmon");
		exit(1);
	}
	return p;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* New threads and processes of a command or -p are the kernel's to follow (see above). */
static int kernel_inherit(void)
{
	return (opts.argv || opts.npids) && opts.inherit && !opts.ncpus;
}

#define INHERIT_LOST	"/sys/kernel/perfmon/inherit_lost_count"

/* New threads the kernel could not give a context so far (all users'), or -1. */
static long inherit_lost(void)
{
	long n = -1;
	FILE *f;

	f = fopen(INHERIT_LOST, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/*
 * A started context on the thread or CPU, inherit: with PFM_FL_INHERIT.  0, or
 * -1 with errno and *what the call that failed.
 */
static int ctx_try(long target, int inherit, const char **what)
{
	int flags = PFM_FL_CLOEXEC | (opts.ncpus ? PFM_FL_SYSTEM_WIDE : 0) |
		    (inherit ? PFM_FL_INHERIT : 0) | PFM_FL_PMU_TYPE(opts.pmu_type);
	struct smpl_buf *smpl = NULL;
	const void *log = NULL;
	int fd, err;

	if (cgroup_mode()) {
		ctxs = pfmon_grow(ctxs, nctx, sizeof(*ctxs));
		ctxs[nctx++] = (struct tctx){ .fd = -1, .grp = group_of(target),
					      .target = target, .cg = cgperf_open(target) };
		if (!control_counting())
			cgperf_enable(ctxs[nctx - 1].cg, 0);
		return 0;
	}
	*what = "pfm_create_context";
	/*
	 * A full buffer masks the context until pfmon restarts it: a thread held
	 * meanwhile makes no event the counts would miss, however late pfmon runs.
	 * An inherit context's buffer is shared, and nobody is held (smpl.c).
	 */
	if (opts.smpl_period && !opts.ncpus && !inherit)
		flags |= PFM_FL_NOTIFY_BLOCK;
	if (opts.smpl_period)
		fd = smpl_open(flags, &smpl);
	else if (opts.nsets > 1 && !inherit)
		fd = muxlog_open(flags, &log);
	else
		fd = pfm_create_context(flags);
	if (fd < 0)
		return -1;
	*what = "pfm_write_pmcs";
	if (evsel_program(fd))
		goto fail_close;
	*what = "pfm_load_context";
	if (pfm_load_context(fd, 0, target))
		goto fail_close;
	*what = "pfm_start";
	/* -D, --control: started later (control.c) */
	if (control_counting() && pfm_start(fd, 0))
		goto fail_close;
	/* messages are read until the queue is empty */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	ctxs = pfmon_grow(ctxs, nctx, sizeof(*ctxs));
	ctxs[nctx++] = (struct tctx){ fd, group_of(target), target, smpl, log,
				      inherit && opts.nsets > 1 ? famlog_new() : NULL,
				      { 0, now_ns(), opts.smpl_period }, inherit, 0, NULL };
	ninherit += inherit;
	return 0;
fail_close:
	err = errno;
	if (smpl)
		smpl_close(smpl);
	if (log)
		muxlog_close(log);
	close(fd);
	errno = err;
	return -1;
}

/*
 * ctx_try(), and on failure, fatal: pfmon ends; else the target is left
 * uncounted with a warning (a thread pfmon follows).
 */
static int ctx_open(long target, int fatal, int inherit)
{
	const char *what;

	if (!ctx_try(target, inherit, &what))
		return 0;
	if (fatal) {
		if (child > 0)
			kill(child, SIGKILL);
		pfmon_fail(what, errno, !strcmp(what, "pfm_load_context") ? target : -1);
	}
	pfmon_warn(what, errno, target);
	return -1;
}

/* -D, --control: every context started (on) or stopped, its inheritors with it */
static void ctx_set_all(int on)
{
	int i;

	for (i = 0; i < nctx; i++) {
		if (ctxs[i].cg)
			cgperf_enable(ctxs[i].cg, on);
		else if ((on ? pfm_start(ctxs[i].fd, 0) : pfm_stop(ctxs[i].fd, 0)) &&
			 !ctxs[i].ended)
			pfmon_warn(on ? "pfm_start" : "pfm_stop", errno, ctxs[i].target);
	}
}

/*
 * --control's "enable NAME": event ev switched on or off alone in every context
 * (a PMC write on an inherit context reaches its inheritors).
 */
static void ctx_set_event(int ev, int on)
{
	struct pfarg_pmc pc;
	int i;

	for (i = 0; i < nctx; i++) {
		if (ctxs[i].cg) {
			cgperf_enable_event(ctxs[i].cg, ev, on);
			continue;
		}
		if (evsel_event_pmc(ev, on, &pc))
			return;
		if (pfm_write_pmcs(ctxs[i].fd, &pc, sizeof(pc)) && !ctxs[i].ended)
			pfmon_warn("pfm_write_pmcs", errno, ctxs[i].target);
	}
}

/*
 * Adds the context's counts to c: the sampled event's from its samples.  final:
 * the context counts no more (stopped, or its thread ended), and the estimates
 * of multiplexed counts are made.
 */
static void ctx_read(struct tctx *t, struct pfmon_count *c, int final)
{
	struct pfmon_count one[PFMON_MAX_EVENTS];
	int i;

	memset(one, 0, opts.nev * sizeof(one[0]));
	if (t->smpl)
		smpl_drain(t->smpl);
	if (t->cg ? cgperf_read(t->cg, one) : evsel_read(t->fd, one))
		pfmon_fail(t->cg ? "read" : "pfm_read_pmds", errno, -1);
	/*
	 * The sampled counter restarts from -period at each sample: its events are
	 * the whole periods sampled and what it counted since the last reset; with
	 * -F the periods vary, and the kernel's inheritors' sampled counters are
	 * not summed: a hidden counter has the count.
	 */
	if (opts.shadow)
		one[0].raw = one[opts.shadow].raw;
	else if (t->smpl)
		one[0].raw = smpl_count(t->smpl) * opts.smpl_period + one[0].raw +
			     opts.smpl_period;
	if (final && t->fam)
		famlog_estimate(t->fam, one, c);
	else if (final)
		muxlog_estimate(t->fd, t->log, one, c);
	for (i = 0; i < opts.nev; i++) {
		c[i].raw += one[i].raw;
		c[i].running += one[i].running;
		c[i].enabled += one[i].enabled;
		c[i].final = final;
	}
}

static void ctx_retire(int i)
{
	/* an inherit context's thread keeps its first name (see above) */
	if (!ctxs[i].inherit)
		group_comm(ctxs[i].grp);
	ctx_read(&ctxs[i], group_retired(ctxs[i].grp), 1);
	if (ctxs[i].smpl)
		smpl_close(ctxs[i].smpl);
	if (ctxs[i].log)
		muxlog_close(ctxs[i].log);
	famlog_free(ctxs[i].fam);
	if (ctxs[i].cg)
		cgperf_close(ctxs[i].cg);
	else
		close(ctxs[i].fd);
	ctxs[i] = ctxs[--nctx];
}

/*
 * The counts of each group, and their sum in c; final: every context is
 * stopped (the estimates are made only then).
 */
static void totals(struct pfmon_count *c, int final)
{
	int i;

	groups_from_retired(final);
	for (i = 0; i < nctx; i++)
		ctx_read(&ctxs[i], group_counts(ctxs[i].grp), final);
	groups_sum(c, final);
}

/* Messages of context i: drain and resume at a notification, retire at the end (see below). */
static void ctx_messages(int i)
{
	union pfarg_msg msg;

	while (read(ctxs[i].fd, &msg, sizeof(msg)) == sizeof(msg)) {
		if (msg.type == PFM_MSG_OVFL && ctxs[i].smpl)
			smpl_restart(ctxs[i].fd, ctxs[i].smpl);
		/*
		 * An inherit context counts its thread's new threads and children
		 * until it is closed, whether its own thread lives or not: it is
		 * read and closed at the end of the run, not at its thread's.
		 */
		if (msg.type == PFM_MSG_END && ctxs[i].inherit) {
			ctxs[i].ended = 1;
		} else if (msg.type == PFM_MSG_END) {
			ctx_retire(i);
			return;
		}
	}
}

static struct tracee *tracee(pid_t tid)
{
	int i;

	for (i = 0; i < ntracees; i++)
		if (tracees[i].tid == tid)
			return &tracees[i];
	tracees = pfmon_grow(tracees, ntracees, sizeof(*tracees));
	tracees[ntracees] = (struct tracee){ tid, 0 };
	return &tracees[ntracees++];
}

/*
 * -F's adaptation of the period, the reads of the inherit contexts with several
 * sets (famlog.c), the drains of shared sampling buffers (the mappings of the
 * processes they show, while they live); the time to the next, in ns.
 */
static uint64_t periodic(uint64_t t)
{
	int i, halved = 0;

	for (i = 0; i < nctx; i++) {
		if (opts.smpl_freq)
			freq_adapt(ctxs[i].fd, &ctxs[i].freq, t);
		else if (ctxs[i].fam)
			halved |= famlog_take(ctxs[i].fam, ctxs[i].fd);
		if (ctxs[i].smpl && ctxs[i].inherit)
			smpl_drain(ctxs[i].smpl);
	}
	if (halved)
		famlog_slower();
	return opts.smpl_period ? freq_adapt_ms() * 1000000ULL : famlog_interval_ns(0);
}

static void on_signal(int sig)
{
	char c = sig;
	int err = errno;

	/* when the pipe is full, a wake-up is pending anyway */
	if (write(sigpipe[1], &c, 1) < 0)
		errno = err;
	errno = err;
}

/* ptrace stops and the exit of a traced command; 1 when the command ended */
static int reap(struct pfmon_result *res)
{
	struct rusage ru;
	siginfo_t si;
	int st, ev, sig, i;
	pid_t tid;

	while ((tid = wait4(-1, &st, WNOHANG | __WALL, &ru)) > 0) {
		if (!WIFSTOPPED(st)) {
			if (tid != child)
				continue;
			res->status = st;
			res->ru = ru;
			res->have_ru = 1;
			return 1;
		}
		ev = (unsigned int)st >> 16;
		sig = WSTOPSIG(st);
		if (ev == PTRACE_EVENT_EXEC) {
			/* the thread's new name, for --per-thread */
			for (i = 0; i < nctx; i++)
				if (ctxs[i].target == tid)
					group_comm(ctxs[i].grp);
			sig = 0;
		} else if (ev == PTRACE_EVENT_EXIT) {
			/* its mappings, for the sample report, before they go */
			smpl_snapshot_maps(tid);
			sig = 0;
		} else if (ev) {
			sig = 0;
		} else if (sig == SIGSTOP && !tracee(tid)->stopped_once) {
			tracee(tid)->stopped_once = 1;
			sig = 0;
		} else if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) && errno == EINVAL) {
			/* a group stop, not a signal to pass on: resume it */
			sig = 0;
		}
		ptrace(PTRACE_CONT, tid, 0, sig);
	}
	return 0;
}

/* The command, stopped before its exec under ptrace (spawn.c). */
static void spawn(int errfd_pair[2])
{
	if (!spawn_traced(errfd_pair, &child))
		return;		/* it failed: the caller reads why */
	tracee(child)->stopped_once = 1;
	/* until it runs, pfmon's exit must not leave it stopped */
	ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_EXITKILL);
}

static long trace_options(void)
{
	long options = PTRACE_O_TRACEEXEC;

	if (opts.smpl_period)
		options |= PTRACE_O_TRACEEXIT;
	return options;
}

static void run_command(void)
{
	ptrace(PTRACE_SETOPTIONS, child, 0, trace_options());
	ptrace(PTRACE_CONT, child, 0, 0);
}

/* --no-inherit -p: a context on each thread process pid has now. */
static void attach_tasks(int pid)
{
	DIR *dir = task_dir(pid, 1);
	pid_t tid;

	if (!dir)
		return;
	while ((tid = next_task(dir)))
		ctx_open(tid, 1, 0);
	closedir(dir);
}

/*
 * -p with the kernel's inheritance, one pass over the threads of process pid:
 * an inherit context on each thread not seen yet.  In the first pass a failure
 * ends pfmon, but for a thread gone or with a context already once pfmon has
 * one on an earlier thread.  Returns how many threads got a context.
 */
static int inherit_pass(int pid, int first)
{
	DIR *dir = task_dir(pid, first);
	const char *what;
	int i, n = 0;
	pid_t tid;

	if (!dir)
		return 0;
	while ((tid = next_task(dir))) {
		for (i = 0; i < nknown && known[i] != tid; i++)
			;
		if (i < nknown)
			continue;
		known = pfmon_grow(known, nknown, sizeof(*known));
		known[nknown++] = tid;
		if (!ctx_try(tid, 1, &what)) {
			n++;
			continue;
		}
		/* a context already: its creator's inheritor, or another tool's (see above) */
		if ((errno == EEXIST || errno == ESRCH) && (n || !first))
			continue;
		if (first)
			pfmon_fail(what, errno, !strcmp(what, "pfm_load_context") ? tid : -1);
		pfmon_warn(what, errno, tid);
	}
	closedir(dir);
	return n;
}

/* -p: every thread of the process, and, but with --no-inherit, later ones; -t: the thread */
static void attach_pids(void)
{
	int i;

	for (i = 0; i < opts.npids; i++) {
		if (opts.pid_is_tid[i]) {
			ctx_open(opts.pids[i], 1, kernel_inherit());
			continue;
		}
		if (!opts.inherit) {
			attach_tasks(opts.pids[i]);
		} else {
			/* opened first: the process found in /proc is the one it ends with */
			pidfds[i] = process_fd(opts.pids[i]);
			inherit_pass(opts.pids[i], 1);
			/* threads made by threads without a context yet, until none */
			while (inherit_pass(opts.pids[i], 0) > 0)
				;
		}
		if (opts.smpl_period)
			smpl_snapshot_maps(opts.pids[i]);
	}
}

/*
 * Whether a thread of -p or -t still runs: one whose context has not ended, or
 * one of a process whose pidfd has not told its end (with no pidfd, the end of
 * pfmon's contexts is all pfmon knows of).
 */
static int running(void)
{
	int i;

	for (i = 0; i < nctx; i++)
		if (!ctxs[i].ended)
			return 1;
	for (i = 0; i < opts.npids; i++)
		if (pidfds[i] >= 0)
			return 1;
	return 0;
}

static void setup_signals(void)
{
	struct sigaction sa;

	if (sigpipe[0] < 0 && pipe2(sigpipe, O_CLOEXEC | O_NONBLOCK))
		pfmon_fail("pipe2", errno, -1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	/* a handler, not SIG_IGN: the command gets the default back at exec */
	sigaction(SIGCHLD, &sa, NULL);
	/* -r 0 runs until killed, as perf stat's, which leaves ^C its default then */
	if (opts.forever)
		return;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * The command released: written go, or (traced) continued; 1 when it could not
 * even stop itself (errpipe says why) and *err is set when it failed to exec.
 */
static int release(int go, int errfd, int *err)
{
	if (go >= 0) {
		/* counted from here: the exec */
		if (write(go, "g", 1) != 1)
			pfmon_fail("write", errno, -1);
		close(go);
		/* sampling: the new image's mappings, once its exec closed errpipe */
		if (opts.smpl_period && !read(errfd, err, sizeof(*err)))
			smpl_snapshot_maps(child);
	} else if (opts.argv && ntracees) {
		run_command();
	} else if (opts.argv) {
		return 1;
	}
	return 0;
}

void target_run(struct pfmon_result *res, pfmon_tick_fn tick)
{
	struct pollfd pfd[1 + 1024 + 64 + 1];
	int errpipe[2] = { -1, -1 }, i, n, done = 0, timeout, err = 0;
	unsigned int nticks = 0;
	long lost = kernel_inherit() ? inherit_lost() : -1;
	int go = -1, cfd, ng;
	uint64_t start, enable_at = 0, next_tick = 0, next_adapt = 0, t, last_tick;
	const struct pfmon_group *v;
	char c;

	res->count = calloc(opts.nev, sizeof(*res->count));
	if (!res->count)
		pfmon_fail("calloc", ENOMEM, -1);
	groups_free();
	control_run_begin();
	nknown = ninherit = 0;
	for (i = 0; i < 64; i++)
		pidfds[i] = -1;
	/* the sum of every context is a group of its own from the start */
	if (opts.aggr == AGGR_ALL)
		group_of(-1);
	setup_signals();
	child = 0;
	if (opts.argv) {
		if (pipe2(errpipe, O_CLOEXEC))
			pfmon_fail("pipe2", errno, -1);
		if (kernel_inherit())
			go = spawn_untraced(errpipe, &child);
		else
			spawn(errpipe);
	}
	for (i = 0; i < opts.ncpus; i++)
		ctx_open(opts.cpus[i], 1, 0);
	attach_pids();
	if (opts.argv && !opts.ncpus && child > 0 && (ntracees || go >= 0))
		ctx_open(child, 1, go >= 0);
	/* not traced: the name its exec will give it */
	if (go >= 0 && nctx)
		group_name(group_of(child), opts.argv[0]);
	start = now_ns();
	last_tick = start;
	/* -D: the command runs uncounted for the delay; the run's time begins after it */
	if (control_delayed())
		enable_at = control_delay_ns() ? start + control_delay_ns() : 0;
	/* --timeout's end is a tick of its own (it goes without -I) */
	if (!enable_at && (opts.interval_ms || opts.timeout_ms))
		next_tick = start + (opts.interval_ms ?: opts.timeout_ms) * 1000000ULL;
	if (opts.smpl_freq || (kernel_inherit() && opts.smpl_period))
		next_adapt = start + freq_adapt_ms() * 1000000ULL;
	else if (kernel_inherit() && opts.nsets > 1)
		next_adapt = start + famlog_interval_ns(1);
	done = release(go, errpipe[0], &err);

	while (!done) {
		pfd[0] = (struct pollfd){ sigpipe[0], POLLIN, 0 };
		for (n = 0; n < nctx && n < 1024; n++)
			pfd[1 + n] = (struct pollfd){ ctxs[n].fd, POLLIN, 0 };
		/* -p without ptrace: the processes' ends (a negative fd is not polled) */
		for (i = 0; i < opts.npids; i++)
			pfd[1 + n + i] = (struct pollfd){ pidfds[i], POLLIN, 0 };
		cfd = 1 + n + opts.npids;
		/* perf reads no command during -D's delay */
		pfd[cfd] = (struct pollfd){ enable_at ? -1 : control_fd(), POLLIN, 0 };
		timeout = -1;
		t = now_ns();
		if (enable_at)
			timeout = enable_at > t ? (enable_at - t + 999999) / 1000000 : 0;
		if (next_tick)
			timeout = next_tick > t ? (next_tick - t + 999999) / 1000000 : 0;
		if (next_adapt && (timeout < 0 || next_adapt < next_tick))
			timeout = next_adapt > t ? (next_adapt - t + 999999) / 1000000 : 0;
		if (poll(pfd, cfd + 1, timeout) < 0 && errno != EINTR)
			pfmon_fail("poll", errno, -1);
		t = now_ns();
		if (enable_at && t >= enable_at) {
			enable_at = 0;
			control_enable(ctx_set_all);
			start = last_tick = t;
			if (opts.interval_ms || opts.timeout_ms)
				next_tick = start + (opts.interval_ms ?: opts.timeout_ms) * 1000000ULL;
		}
		if (next_tick && t >= next_tick && opts.timeout_ms) {
			/* the command's end is counted to the last; without one, this is it */
			next_tick = 0;
			res->timed_out = child > 0;
			if (child > 0)
				kill(child, SIGTERM);
			else
				done = 1;
		} else if (next_tick && t >= next_tick) {
			totals(res->count, 0);
			v = groups_view(&ng);
			tick(v, ng, t - start);
			last_tick = t;
			next_tick += opts.interval_ms * 1000000ULL;
			/* then nothing more is printed; a command runs on to its end, as in perf */
			if (opts.interval_count && ++nticks == opts.interval_count) {
				next_tick = 0;
				done |= !opts.argv;
			}
		}
		if (next_adapt && t >= next_adapt)
			next_adapt = t + periodic(t);
		if (pfd[cfd].revents)
			control_process(pfd[cfd].revents, ctx_set_all, ctx_set_event);
		for (i = 0; i < opts.npids; i++) {
			if (pfd[1 + n + i].revents & POLLIN) {
				close(pidfds[i]);
				pidfds[i] = -1;
			}
		}
		for (i = n; i > 0; i--)
			if (pfd[i].revents & POLLIN)
				ctx_messages(i - 1);
		while (read(sigpipe[0], &c, 1) == 1)
			if ((c == SIGINT || c == SIGTERM) && !opts.argv)
				done = 1;
		if (opts.argv && reap(res))
			done = 1;
		/* -p, -t: until every thread has ended */
		if (!opts.argv && !opts.ncpus && !running())
			done = 1;
	}
	/* the command ended within -D's delay: perf's sleep ends then too */
	if (enable_at) {
		control_enable(ctx_set_all);
		start = now_ns();
	}
	t = now_ns();
	res->elapsed_ns = t - start;
	for (i = 0; i < nctx; i++) {
		if (ctxs[i].cg)
			cgperf_enable(ctxs[i].cg, 0);
		else
			pfm_stop(ctxs[i].fd, 0);
	}
	while (nctx)
		ctx_retire(nctx - 1);
	totals(res->count, 1);
	res->groups = groups_view(&res->ngroups);
	/* the kernel's count is every user's: a loss of another run shows here too */
	if (lost >= 0 && ninherit && inherit_lost() > lost)
		fprintf(stderr, "pfmon: not counted: %ld new threads or processes, and what they "
			"started: the kernel could not give them a context (ctx_per_user_max, "
			"memory: %s)\n", inherit_lost() - lost, INHERIT_LOST);
	for (i = 0; i < opts.npids; i++)
		if (pidfds[i] >= 0)
			close(pidfds[i]);
	ntracees = 0;
	if (errpipe[0] >= 0) {
		if (err || read(errpipe[0], &err, sizeof(err)) == sizeof(err)) {
			fprintf(stderr, "pfmon: %s: %s\n", opts.argv[0], strerror(err));
			res->exec_failed = 1;
			if (child > 0 && !res->have_ru)
				waitpid(child, NULL, __WALL);
		}
		close(errpipe[0]);
	}
	/* the last interval, partial, up to the end (none for a command never run) */
	if (opts.interval_ms && t > last_tick && !res->exec_failed &&
	    (!opts.interval_count || nticks < opts.interval_count))
		tick(res->groups, res->ngroups, t - start);
}
