/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_fuzz: the runtime shared by the fuzzer and the reproducers it writes.
 *
 * A program is a flat list of operations; each operation is a code and six
 * 64-bit arguments, all of them concrete (a vector's contents come from a seed
 * argument through fz_rand(), never from state), so that a logged program runs
 * again the same way.  Objects (fds, threads, processes, mappings) are named by
 * slot numbers, resolved when the operation runs: an operation on an empty slot
 * uses an invalid value (fd -1, tid 0) and the kernel must answer with an error.
 *
 * The runtime (fuzz.h, exec.c, ops_*.c) depends on libc and libperfmon only:
 * "make fuzz-repro" pastes it into a standalone reproducer.
 */
#ifndef PFM_FUZZ_H
#define PFM_FUZZ_H

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "perfmon.h"

#define FZ_ARGS		6
#define FZ_FDS		8	/* fd slots */
#define FZ_TGTS		6	/* thread / process slots */
#define FZ_MAPS		4	/* mapping slots */
#define FZ_PROG_MAX	64	/* operations in a program */

struct fz_op {
	uint16_t code;
	uint64_t a[FZ_ARGS];
};

struct fz_prog {
	int n;
	struct fz_op op[FZ_PROG_MAX];
};

/* The 64-bit generator behind every random choice (splitmix64). */
static inline uint64_t fz_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t fz_below(uint64_t *s, uint64_t n)
{
	return n ? fz_rand(s) % n : 0;
}

/* 1 with probability 1/n */
static inline int fz_one_in(uint64_t *s, uint64_t n)
{
	return fz_below(s, n) == 0;
}

/*
 * One operation kind: how to make plausible or hostile arguments (gen) and how
 * to run them (run: the result, or -errno).  "nested": the operation runs the
 * next a[0] operations elsewhere (a child, a thread); the executor skips them.
 */
struct fz_opdef {
	const char *name;
	void (*gen)(uint64_t *rng, struct fz_op *op);
	long (*run)(const struct fz_op *op, const struct fz_prog *p, int idx);
	int weight;
	int nested;
	int call;		/* PFM_CALL_* of the pfm_* rows */
	int slots;		/* FZ_S_*: which arguments name slots */
	int faults;		/* one call into perfmon: a "fault" before it injects */
	int blocks;		/* may wait for good: the alarm is on before its fault */
};

/*
 * Slot arguments, so that generated programs mostly use the objects made
 * earlier in the same program: USE_* pick a live slot, NEW_* make one live.
 */
#define FZ_S_USE_FD0	0x01	/* a0: an fd slot */
#define FZ_S_NEW_FD0	0x02	/* a0: the slot of a new fd */
#define FZ_S_NEW_FD1	0x04	/* a1: the slot of a new fd */
#define FZ_S_USE_MAP0	0x08	/* a0: a mapping slot */
#define FZ_S_NEW_MAP1	0x10	/* a1: the slot of a new mapping */
#define FZ_S_NEW_TGT0	0x20	/* a0: the slot of a new thread or process */
#define FZ_S_NEW_TGT2	0x40	/* a2: the slot of a new process */
#define FZ_S_USE_TGT0	0x80	/* a0: a thread or process slot */
#define FZ_S_USE_TGT3	0x100	/* a3: a thread or process slot (load) */

extern const struct fz_opdef fz_ops[];
extern const int fz_nops;

/* the kinds of pointer a vector or buffer argument can be (FZ_PTR_*) */
enum {
	FZ_PTR_OK,		/* the scratch buffer */
	FZ_PTR_NULL,
	FZ_PTR_KERNEL,		/* a kernel address */
	FZ_PTR_GUARD,		/* an unmapped page */
	FZ_PTR_STRADDLE,	/* the data ends past the scratch buffer, into the guard */
	FZ_PTR_UNALIGNED,	/* scratch + 1 */
	FZ_PTR_RDONLY,		/* a read-only page: write-back faults */
	FZ_PTR_WILD,		/* a non-canonical address */
	FZ_PTR_NR
};

/* Target kinds of load and of signals. */
enum {
	FZ_TGT_SELF,		/* the calling thread */
	FZ_TGT_SLOT,		/* a thread or process slot */
	FZ_TGT_PARENT,		/* the fuzzer's manager process */
	FZ_TGT_KTHREAD,		/* kthreadd */
	FZ_TGT_NONE,		/* a thread id nobody has */
	FZ_TGT_CPU,		/* a raw number: CPU of a system-wide context */
	FZ_TGT_NR
};

struct fz_target {
	pid_t tid;
	int is_thread;		/* a thread of this process (else a process) */
	volatile int stop;
	unsigned long thread;	/* pthread_t */
};

struct fz_map {
	void *addr;
	size_t len;
};

/* The state of one executing program (each process has its own copy). */
struct fz_state {
	int fd[FZ_FDS];
	struct fz_target tgt[FZ_TGTS];
	struct fz_map map[FZ_MAPS];
	char *scratch;		/* FZ_SCRATCH bytes read-write, then a guard page */
	char *rdonly;		/* one read-only page */
	pid_t manager;		/* FZ_TGT_PARENT */
	const char *self_exe;	/* for exec of targets */
	int door;		/* pfm_door() */
	int verbose;
};

#define FZ_SCRATCH	(16 * 4096)

extern struct fz_state fz;

/*
 * Results by operation, in memory the manager shares with every program:
 * [code][0] successes, [code][1] errors, [code][2] microseconds spent in it.
 * NULL in a reproducer.
 */
extern unsigned long (*fz_results)[3];
/*
 * Marked (fz_mark_global()) by an operation about to change the machine: a knob
 * (bit: its index, fz_knob_file()), a CPU offline (bit FZ_GLOBAL_CPUS).  The
 * manager puts back what is marked after the program.  NULL in a reproducer.
 */
extern int *fz_global_dirty;
void fz_mark_global(int what);
/* the knobs put back: the sysfs operation's writable ones, then perf_max_sample_rate */
#define FZ_RW_KNOBS		7
#define FZ_KNOB_SAMPLE_RATE	FZ_RW_KNOBS
#define FZ_GLOBAL_CPUS		30

/*
 * The runtime's own steps, timed, in memory the manager shares with every
 * program: [FZ_ST_*][0] how many, [1] microseconds.  NULL in a reproducer.
 */
enum {
	FZ_ST_FORK,		/* fz_fork_task()'s fork(), in the parent */
	FZ_ST_SCEN,		/* the bodies of scenario's 4 kinds */
	FZ_ST_SMPL = FZ_ST_SCEN + 4,	/* perf_smpl's 4 variants */
	FZ_ST_FAULT = FZ_ST_SMPL + 4,	/* operations a fault was injected into */
	FZ_ST_SPAWN,		/* fz_spawn_target()'s clone(), in the parent */
	FZ_ST_NR
};
extern unsigned long (*fz_stats)[2];
/* one more step st, begun at *t0 */
void fz_stat_add(int st, const struct timespec *t0);

/*
 * the operation the calling thread runs (its code), -1 outside one; the kind of
 * scenario or perf_smpl body it runs (FZ_ST_*), -1 outside one
 */
extern __thread int fz_cur_op, fz_cur_st;

/* Coverage hooks (kcov.c in the fuzzer; none in a reproducer). */
extern void (*fz_cov_task_start)(void);
extern void (*fz_cov_collect)(void);

/* what the calling task traced, into the program's PCs: before it exits or execs */
static inline void fz_cov_flush(void)
{
	if (fz_cov_collect)
		fz_cov_collect();
}

/* exec.c */
void fz_state_init(const char *self_exe, pid_t manager);
/* the handlers of the signals programs meet (fz_state_init() installs them) */
void fz_signals_init(void);
/* empty slots and zeroed scratch, for the next program of the same process */
void fz_state_reset(void);
/*
 * an address to ask mmap() for len bytes of a perfmon fd at (NULL: none left),
 * in a window the executor clears after each program with one munmap()
 */
void *fz_map_hint(size_t len);
void fz_map_window_clear(void);
void fz_prog_run(const struct fz_prog *p, int from, int to);
long fz_op_run(const struct fz_prog *p, int idx);
void fz_op_format(const struct fz_op *op, char *buf, size_t len);
int fz_op_lookup(const char *name);
int fz_target_main(int argc, char **argv);
void *fz_ptr(uint64_t kind, size_t len);
void *fz_place(uint64_t kind, const void *data, size_t len);
/* a pointer kind: mostly FZ_PTR_OK */
uint64_t fz_gen_ptr(uint64_t *rng);
int fz_fd(uint64_t slot);
pid_t fz_tid(uint64_t kind, uint64_t slot);
void fz_set_fd(uint64_t slot, int fd);
void fz_workload(int kind, long n);
/* a target's loop step: fz_workload(), then a millisecond asleep */
void fz_target_step(int kind, long n);
/* arm (1) or disarm (0) the 10 ms SIGALRM that cuts the calling thread's blocking call */
void fz_alarm(int on);
void fz_alarm_stop(void);
ssize_t fz_read_alarmed(int fd, void *buf, size_t len);
/* fork(): the child dies with its parent, traces its coverage, maybe as nobody */
pid_t fz_fork_task(int nobody);
/* the user a child may become */
#define FZ_NOBODY		65534
/* spawn.c: a target that execs the fuzzer as "--fz-target kind", from a clone(CLONE_VM) */
struct fz_spawn {
	int close_fd[2];	/* the caller's fds the child closes first (-1: none) */
	int nobody;		/* then becomes nobody */
	int wait_fd;		/* then reads a byte from it (-1: no), or exits at end of file */
	long sleep_us;		/* then sleeps */
	const char *kind;	/* then execs */
};
pid_t fz_spawn_target(const struct fz_spawn *req);
/* in a forked child: the slots it copied are free */
void fz_spawn_forget(void);
/* selftest.c: pfm_fuzz --selftest's exit status, or -1 for other arguments */
int fz_selftest_main(int argc, char **argv);
/*
 * the child's status once it ends, or once ms pass (or done, if >= 0, reads end
 * of file) and it is SIGKILLed
 */
int fz_wait_or_kill(pid_t pid, int ms, int done);
/* ops_proc.c: the threads of async operations still running */
extern int fz_async_live;
/* ops_proc.c: 0 once none runs, -1 if some still do after ms */
int fz_async_wait(int ms);
/* ops_proc.c: every thread and process of the slots ended (stopped, killed, reaped) */
void fz_targets_end(void);
long fz_ret(long r);
/*
 * len bytes of zeroes shared with every process forked later (MAP_FAILED if
 * none are left); before any thread starts: it takes no lock
 */
void *fz_shared(size_t len);
/* two pipes (O_CLOEXEC): 0, or -1 with neither open */
int fz_pipe_pair(int a[2], int b[2]);
/*
 * after fork() (pid), in the parent: the child's ends (a[0], b[1]) closed;
 * -1 with all closed if the fork failed
 */
int fz_pipe_parent(pid_t pid, int a[2], int b[2]);
/* the first perfmon system call number (0: none), an fd of /dev/perfmon (-1: none) */
long fz_sysbase(void);
int fz_devfd(void);

/*
 * ops_pfm.c, ops_fd.c, ops_proc.c, ops_scen.c, ops_perf.c, ops_attr.c: the
 * generators and runners of the table
 */
#define FZ_DECL_OP(x)							\
	void fz_gen_##x(uint64_t *rng, struct fz_op *op);		\
	long fz_run_##x(const struct fz_op *op, const struct fz_prog *p, int idx)
FZ_DECL_OP(create);
FZ_DECL_OP(vec);
FZ_DECL_OP(load);
FZ_DECL_OP(ctl);
FZ_DECL_OP(raw_call);
FZ_DECL_OP(raw_ioctl);
FZ_DECL_OP(perf_open);
FZ_DECL_OP(perf_op);
FZ_DECL_OP(read);
FZ_DECL_OP(poll);
FZ_DECL_OP(mmap);
FZ_DECL_OP(munmap);
FZ_DECL_OP(touch);
FZ_DECL_OP(close);
FZ_DECL_OP(dup);
FZ_DECL_OP(fasync);
FZ_DECL_OP(sysfs);
FZ_DECL_OP(thread);
FZ_DECL_OP(fork_target);
FZ_DECL_OP(signal);
FZ_DECL_OP(child);
FZ_DECL_OP(async);
FZ_DECL_OP(cpu);
FZ_DECL_OP(work);
FZ_DECL_OP(scenario);
FZ_DECL_OP(perf_smpl);
FZ_DECL_OP(counts);
FZ_DECL_OP(perf_attr);
FZ_DECL_OP(perf_prctl);
FZ_DECL_OP(pmc_filter);
FZ_DECL_OP(fault);
/*
 * fault.c: fault injection on (fz_faults) where the kernel has it; a
 * "fault"'s N for the operation code after it; the calling thread's fail-nth
 * armed for operation code if a "fault" came just before (its fd, else -1; N
 * in *armed), and disarmed after it (an injection counted as a step begun at
 * *t0, the sites the operation reached learnt)
 */
extern int fz_faults;
void fz_fault_init(void);
void fz_fault_draw(uint64_t *rng, struct fz_op *fault, int code);
int fz_fault_pending(void);
int fz_fault_arm(int code, unsigned int *armed);
void fz_fault_disarm(int fd, int code, unsigned int n, const struct timespec *t0);
/* the most fault sites operation code was seen to reach */
unsigned int fz_fault_sites_of(int code);
/* how many faults fell on the delivery of a signal instead of the call */
unsigned long fz_fault_on_signal(void);
/* 1 if SIGSEGV (si, its ucontext uc) was a fault's on a signal's delivery, then taken */
int fz_fault_segv(const siginfo_t *si, void *uc);
void fz_fault_note_signal(void *uc);
/* a touch's way back (ops_fd.c) while it reads a mapping; NULL else */
extern __thread sigjmp_buf *fz_touch_jmp;
/* ops_attr.c: a tracefs id (mostly of a few trace events); ops_fd.c: filter n of 8 */
uint64_t fz_tp_id(uint64_t *rng);
const char *fz_tp_filter(uint64_t n);
void fz_gen_lib_seq(uint64_t *rng, struct fz_op *op);
long fz_run_pmc(const struct fz_op *op, const struct fz_prog *p, int idx);
long fz_run_perf_counter(const struct fz_op *op, const struct fz_prog *p, int idx);

/*
 * ops_scen.c: a thread or process of the program to monitor, in slot 'slot'
 * (made if empty); the frame of a scenario operation, whose body draws its
 * choices from rng (fz_scen_gen() says what the arguments are).
 */
pid_t fz_scen_target(uint64_t *rng, uint64_t slot);
/* up to us microseconds for fd to be readable (a target's overflow) */
void fz_wait_event(int fd, long us);
typedef void (*fz_scen_body)(uint64_t *rng, uint64_t fd_slot, uint64_t tgt_slot,
			     uint64_t which);
void fz_scen_gen(uint64_t *rng, struct fz_op *op, int kinds);
long fz_scen_run(const struct fz_op *op, fz_scen_body body, int st, int kinds);
/*
 * ops_fd.c: the software events perfmon counts (perf/event.c), the first
 * FZ_PERF_SW_COUNTED of the table, then two it does not
 */
extern const uint64_t fz_perf_sw[];
#define FZ_PERF_SW_COUNTED	6
/* ops_fd.c: the mapping a..a+len into slot m, unmapping the one there before */
void fz_map_set(struct fz_map *m, void *a, size_t len);

#endif /* PFM_FUZZ_H */
