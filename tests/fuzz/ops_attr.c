// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz operations over the perf shim's whole attr space and the library's
 * other interfaces:
 *
 * - perf_attr: pfm_perf_event_open() with any type (software, tracepoint by a
 *   tracefs id of the running kernel, breakpoint, hardware, cache, raw, none),
 *   any sample_type and read_format bits, any of the flag bits, breakpoint
 *   addresses and lengths, clocks, user registers and stacks, signal data,
 *   sizes of every attr version and past it (with a tail of zeroes or not),
 *   PERF_FLAG_PID_CGROUP;
 * - perf_prctl: PR_TASK_PERF_EVENTS_DISABLE and _ENABLE;
 * - pmc: NetBSD's pmc_control() and pmc_get_info() (libperfmon's pmc.h);
 * - perf_counter: the 2008 proposal's perf_counter_open() and its calls
 *   (libperfmon's perf_counter.h).
 *
 * pmc and perf_counter are sequences of calls in a child of their own: the
 * library keeps state for the whole process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "fuzz.h"
#include "pmc.h"
#include "perf_counter.h"

/* The tracepoints a generator names by their tracefs id (0: none here). */
static const char *const tp_names[] = {
	"syscalls/sys_enter_getppid", "syscalls/sys_exit_getppid", "raw_syscalls/sys_enter",
	"sched/sched_switch", "sched/sched_process_exec", "sched/sched_process_fork",
	"timer/hrtimer_start", "irq/softirq_entry",
};
#define TP_NR	(sizeof(tp_names) / sizeof(tp_names[0]))

uint64_t fz_tp_id(uint64_t *rng)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static long ids[TP_NR];
	static int loaded;
	char path[160];
	unsigned int i, r;
	FILE *f;

	if (!loaded) {
		loaded = 1;
		for (i = 0; i < TP_NR; i++)
			for (r = 0; r < 2 && !ids[i]; r++) {
				snprintf(path, sizeof(path), "%s/events/%s/id", roots[r], tp_names[i]);
				f = fopen(path, "re");
				if (!f)
					continue;
				if (fscanf(f, "%ld", &ids[i]) != 1)
					ids[i] = 0;
				fclose(f);
			}
	}
	if (fz_one_in(rng, 8))
		return fz_below(rng, 4) ? fz_below(rng, 2000) : fz_rand(rng);
	return (uint64_t)ids[fz_below(rng, TP_NR)];
}

/* the attr sizes of each version, one short of one, and past the structure */
static const uint32_t attr_sizes[] = {
	PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2, PERF_ATTR_SIZE_VER3,
	PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5, PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
	sizeof(struct perf_event_attr), 0, PERF_ATTR_SIZE_VER0 - 8, PERF_ATTR_SIZE_VER5 + 4,
	sizeof(struct perf_event_attr) + 8, 4096, 4097,
};
#define ATTR_SIZES	(sizeof(attr_sizes) / sizeof(attr_sizes[0]))

/* one bit in eight of mask, so that most combinations are of a few flags */
static uint64_t sparse_bits(uint64_t *rng, uint64_t mask)
{
	return fz_rand(rng) & fz_rand(rng) & fz_rand(rng) & mask;
}

static void gen_config(uint64_t *rng, struct perf_event_attr *a, uint64_t tp)
{
	static const uint32_t bp_types[] = {
		HW_BREAKPOINT_R, HW_BREAKPOINT_W, HW_BREAKPOINT_RW, HW_BREAKPOINT_X,
		HW_BREAKPOINT_EMPTY, HW_BREAKPOINT_INVALID, 0x10,
	};
	static const uint64_t bp_lens[] = { 1, 2, 4, 8, 3, 0, 16 };

	switch (fz_below(rng, 20)) {
	case 0 ... 7:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = fz_below(rng, 2) ? fz_perf_sw[fz_below(rng, FZ_PERF_SW_COUNTED)] :
			fz_below(rng, 8) ? fz_below(rng, PERF_COUNT_SW_MAX + 1) : fz_rand(rng);
		break;
	case 8 ... 11:
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = tp;
		break;
	case 12 ... 14:
		a->type = PERF_TYPE_BREAKPOINT;
		a->config = fz_one_in(rng, 8) ? fz_rand(rng) : 0;
		a->bp_type = bp_types[fz_below(rng, 7)];
		switch (fz_below(rng, 5)) {
		case 0:		/* the scratch buffer, maybe unaligned */
			a->bp_addr = (uint64_t)(uintptr_t)fz_ptr(FZ_PTR_OK, 8) + fz_below(rng, 9);
			break;
		case 1:		/* code */
			a->bp_addr = (uint64_t)(uintptr_t)fz_workload;
			break;
		case 2:
			a->bp_addr = 0xffffffff81000000ULL;
			break;
		case 3:
			a->bp_addr = 0;
			break;
		default:
			a->bp_addr = fz_rand(rng);
			break;
		}
		a->bp_len = bp_lens[fz_below(rng, 7)];
		break;
	case 15 ... 16:
		a->type = PERF_TYPE_HARDWARE;
		a->config = fz_below(rng, 8) ? fz_below(rng, PERF_COUNT_HW_MAX + 1) : fz_rand(rng);
		break;
	case 17:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = fz_below(rng, PERF_COUNT_HW_CACHE_MAX + 1) |
			    fz_below(rng, PERF_COUNT_HW_CACHE_OP_MAX + 1) << 8 |
			    fz_below(rng, PERF_COUNT_HW_CACHE_RESULT_MAX + 1) << 16;
		break;
	case 18:
		a->type = PERF_TYPE_RAW;
		a->config = fz_below(rng, 2) ? fz_below(rng, 0x10000) : fz_rand(rng);
		break;
	default:
		a->type = fz_below(rng, 2) ? PERF_TYPE_MAX + (uint32_t)fz_below(rng, 16) :
			(uint32_t)fz_rand(rng);
		a->config = fz_rand(rng);
		break;
	}
}

/* The fields perf/sample.c writes, and the read_format bits the shim knows. */
#define SAMPLE_OK	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN)

/* One field, anywhere in its space: a flag bit, a mask, a size, a clock. */
static void mutate_field(uint64_t *rng, struct perf_event_attr *a)
{
	static const int64_t clocks[] = {
		CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME, CLOCK_TAI,
		-1, 100,
	};
	uint64_t flags;

	switch (fz_below(rng, 16)) {
	case 0:
		a->size = attr_sizes[fz_below(rng, ATTR_SIZES)];
		break;
	case 1:
		a->sample_type ^= 1ULL << fz_below(rng, fz_below(rng, 8) ? 26 : 64);
		break;
	case 2:
		a->read_format ^= 1ULL << fz_below(rng, fz_below(rng, 8) ? 5 : 64);
		break;
	case 3:
	case 4:
		/* one of the flag bits after read_format, a reserved one now and then */
		memcpy(&flags, (char *)a + offsetof(struct perf_event_attr, read_format) + 8, 8);
		flags ^= 1ULL << fz_below(rng, fz_below(rng, 8) ? 38 : 64);
		memcpy((char *)a + offsetof(struct perf_event_attr, read_format) + 8, &flags, 8);
		break;
	case 5:
		a->freq = !a->freq;
		a->sample_period = a->freq ? fz_below(rng, 200000) : fz_below(rng, 4) ?
			1 + fz_below(rng, 100000) : fz_rand(rng);
		break;
	case 6:
		a->watermark = fz_below(rng, 2);
		a->wakeup_events = fz_below(rng, 2) ? (uint32_t)fz_below(rng, 4) :
			(uint32_t)fz_rand(rng);
		break;
	case 7:
		a->branch_sample_type = 1ULL << fz_below(rng, 20);
		break;
	case 8:
		a->sample_regs_user = fz_below(rng, 2) ? fz_rand(rng) : 0xff0fff;
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		break;
	case 9:
		a->sample_stack_user = fz_below(rng, 2) ? 8 * (uint32_t)fz_below(rng, 8192) :
			(uint32_t)fz_rand(rng);
		a->sample_type |= PERF_SAMPLE_STACK_USER;
		break;
	case 10:
		a->use_clockid = 1;
		a->clockid = (int32_t)clocks[fz_below(rng, 7)];
		break;
	case 11:
		a->sample_max_stack = (uint16_t)(fz_below(rng, 2) ? fz_below(rng, 128) :
						fz_rand(rng));
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case 12:
		a->sigtrap = 1;
		a->remove_on_exec = fz_below(rng, 2);
		a->sig_data = fz_rand(rng);
		break;
	case 13:
		if (fz_below(rng, 2))
			a->sample_regs_intr = fz_rand(rng);
		else
			a->aux_watermark = (uint32_t)fz_rand(rng);
		break;
	case 14:
		a->config1 = fz_rand(rng);
		a->config2 = fz_below(rng, 2) ? fz_rand(rng) : 0;
		break;
	default:
		gen_config(rng, a, fz_rand(rng) & 0xfff);
		break;
	}
}

/*
 * The attr from one seed: an event the shim may take (any type; for the
 * caller's own use: exclude_hv, a sampling period or a frequency, the sample
 * fields it writes, read_format's bits), then a few fields anywhere in their
 * space, so that each check of the shim meets its boundaries one at a time.
 * tp: a tracefs id for a tracepoint.
 */
static void gen_attr_full(uint64_t seed, struct perf_event_attr *a, uint64_t tp)
{
	uint64_t *rng = &seed;
	int n;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	gen_config(rng, a, tp);
	if (fz_below(rng, 2)) {
		a->freq = fz_one_in(rng, 4);
		a->sample_period = a->freq ? 1 + fz_below(rng, 4000) : 1 + fz_below(rng, 10000);
		a->sample_type = fz_rand(rng) & SAMPLE_OK;
		a->wakeup_events = (uint32_t)fz_below(rng, 4);
	}
	a->read_format = fz_below(rng, PERF_FORMAT_MAX);
	a->disabled = fz_below(rng, 2);
	a->inherit = fz_one_in(rng, 4);
	a->exclude_kernel = fz_below(rng, 2);
	a->exclude_hv = 1;
	a->enable_on_exec = a->disabled && fz_one_in(rng, 4);
	/* half of them as made: what the shim takes goes on to read, sample, map */
	for (n = fz_below(rng, 2) ? 0 : 1 + (int)fz_below(rng, 3); n > 0; n--)
		mutate_field(rng, a);
}

/*
 * a0 slot, a1 attr seed, a2 target kind (| (CPU + 1) << 8: 0 any CPU),
 * a3 group slot, a4 flags (PERF_FLAG_*), a5 a tracefs id
 */
void fz_gen_perf_attr(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, FZ_FDS);
	op->a[1] = fz_rand(rng);
	op->a[2] = fz_below(rng, 3) ? FZ_TGT_SELF : fz_below(rng, FZ_TGT_NR);
	/* a CPU event (pid -1) on CPU 0 or 1 mostly; else now and then any CPU */
	if (op->a[2] == FZ_TGT_CPU)
		op->a[2] |= (1 + fz_below(rng, fz_one_in(rng, 8) ? 3 : 2)) << 8;
	else if (fz_one_in(rng, 4))
		op->a[2] |= (1 + fz_below(rng, 3)) << 8;
	op->a[3] = fz_below(rng, 3) ? FZ_FDS : fz_below(rng, FZ_FDS + 4);
	op->a[4] = fz_below(rng, 4) ? PERF_FLAG_FD_CLOEXEC :
		   sparse_bits(rng, 0x1f) | (fz_below(rng, 8) ? 0 : fz_rand(rng));
	op->a[5] = fz_tp_id(rng);
}

long fz_run_perf_attr(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct perf_event_attr attr;
	uint64_t seed = op->a[1];
	unsigned long flags = op->a[4];
	size_t placed = sizeof(attr) + 64;
	int fd, cpu = (int)((op->a[2] >> 8) & 0xff) - 1, cg = -1;
	pid_t pid = fz_tid(op->a[2] & 0xff, 0);
	char *at;

	(void)p, (void)idx;
	gen_attr_full(seed, &attr, op->a[5]);
	if ((op->a[2] & 0xff) % FZ_TGT_NR == FZ_TGT_CPU)
		pid = -1;
	if (flags & PERF_FLAG_PID_CGROUP) {
		cg = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		pid = cg;
	}
	/* past the structure: zeroes, or a byte that is not (E2BIG) */
	at = fz_place(FZ_PTR_OK, &attr, sizeof(attr));
	memset(at + sizeof(attr), 0, placed - sizeof(attr));
	if (attr.size > sizeof(attr) && fz_one_in(&seed, 3))
		at[sizeof(attr) + fz_below(&seed, 8)] = 1;
	fd = pfm_perf_event_open((struct perf_event_attr *)at, pid, cpu, fz_fd(op->a[3]), flags);
	fd = fd < 0 ? -errno : fd;
	if (cg >= 0)
		close(cg);
	if (fd >= 0)
		fz_set_fd(op->a[0], fd);
	return fd;
}

/* a0 0: disable, 1: enable, else a raw option near them; a1 one argument */
void fz_gen_perf_prctl(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_below(rng, 8) ? fz_below(rng, 2) : fz_below(rng, 8);
	op->a[1] = fz_one_in(rng, 8) ? fz_rand(rng) : 0;
}

long fz_run_perf_prctl(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	static const int opts[] = { PR_TASK_PERF_EVENTS_DISABLE, PR_TASK_PERF_EVENTS_ENABLE };
	int opt = op->a[0] < 2 ? opts[op->a[0]] : PR_TASK_PERF_EVENTS_DISABLE + (int)op->a[0] - 3;

	(void)p, (void)idx;
	return fz_ret(prctl(opt, op->a[1], 0, 0, 0));
}

/*
 * pmc and perf_counter keep state in the library for the whole process (the
 * process's one context; native counters, and fork handlers registered at the
 * first call): their calls run in a child of their own, which a0 more
 * operations would not see anyway.  a0 seed of the calls, a1 how many (1..8),
 * a2 1: the child as nobody.
 */
void fz_gen_lib_seq(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_rand(rng);
	op->a[1] = 1 + fz_below(rng, 8);
	op->a[2] = fz_one_in(rng, 5);
}

static long lib_seq_run(const struct fz_op *op, void (*call)(uint64_t *rng, int *fds))
{
	uint64_t rng = op->a[0];
	int fds[4] = { -1, -1, -1, -1 }, i;
	pid_t pid = fz_fork_task(op->a[2] & 1);

	if (pid < 0)
		return -errno;
	if (pid)
		return fz_wait_or_kill(pid, 200, -1);
	for (i = 0; i < (int)(op->a[1] % 9); i++)
		call(&rng, fds);
	fz_cov_flush();
	_exit(0);
}

/* One pmc_control(), pmc_get_info() or pmc_prof_samples() call. */
static void pmc_call(uint64_t *rng, int *fds)
{
	static const pmc_evid_t sw[] = {
		PMC_EV_SW_TASK_CLOCK, PMC_EV_SW_CTX_SWITCHES, PMC_EV_SW_CPU_MIGRATIONS,
		PMC_EV_SW_PAGE_FAULTS, PMC_EV_SW_SYSCALLS,
	};
	static const int ops[] = {
		PMC_OP_CONFIGURE, PMC_OP_START, PMC_OP_STOP, PMC_OP_PROFSTART, PMC_OP_PROFSTOP,
	};
	static const int infos[] = {
		PMC_INFO_NCOUNTERS, PMC_INFO_CPUCTR_TYPE, PMC_INFO_COUNTER_VALUE,
		PMC_INFO_ACCUMULATED_COUNTER_VALUE,
	};
	struct pmc_counter_cfg cfg;
	int ctr = fz_below(rng, 8) ? (int)fz_below(rng, 13) - 1 : (int)fz_rand(rng);
	void *arg;

	(void)fds;
	memset(&cfg, 0, sizeof(cfg));
	cfg.event_id = fz_below(rng, 4) ? sw[fz_below(rng, 5)] :
		fz_below(rng, 2) ? fz_rand(rng) & PMC_X86_EVID_MASK : fz_rand(rng);
	cfg.reset_value = fz_below(rng, 2) ? 1 + fz_below(rng, 1000) : fz_rand(rng);
	cfg.flags = fz_one_in(rng, 8) ? (uint32_t)fz_rand(rng) : 0;
	arg = fz_place(fz_one_in(rng, 6) ? fz_gen_ptr(rng) : FZ_PTR_OK, &cfg, sizeof(cfg));
	switch (fz_below(rng, 4)) {
	case 0:
	case 1:
		pmc_control(ctr, fz_below(rng, 8) ? ops[fz_below(rng, 5)] : (int)fz_rand(rng), arg);
		break;
	case 2:
		pmc_get_info(ctr, fz_below(rng, 8) ? infos[fz_below(rng, 4)] : (int)fz_rand(rng), arg);
		break;
	default:
		pmc_prof_samples(ctr, arg, (long)fz_below(rng, 64));
		break;
	}
	fz_workload((int)fz_below(rng, 3), 20);
}

long fz_run_pmc(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p, (void)idx;
	return lib_seq_run(op, pmc_call);
}

static void gen_counter(uint64_t *rng, struct perf_counter_hw_event *hw)
{
	memset(hw, 0, sizeof(*hw));
	switch (fz_below(rng, 4)) {
	case 0:
		hw->config = PERF_COUNTER_CONFIG(PERF_TYPE_SOFTWARE, fz_below(rng, 8));
		break;
	case 1:
		hw->config = PERF_COUNTER_RAW_PFM_SW(fz_below(rng, 12));
		break;
	case 2:
		hw->config = PERF_COUNTER_CONFIG(fz_below(rng, 4), fz_below(rng, 8));
		break;
	default:
		hw->config = fz_rand(rng);
		break;
	}
	if (fz_one_in(rng, 4))
		hw->irq_period = 1 + fz_below(rng, 10000);
	hw->record_type = (uint32_t)fz_below(rng, 64);
	hw->read_format = (uint32_t)fz_below(rng, 8);
	hw->disabled = fz_below(rng, 2);
	hw->inherit = fz_one_in(rng, 4);
	hw->pinned = fz_one_in(rng, 8);
	hw->exclusive = fz_one_in(rng, 8);
	hw->exclude_user = fz_one_in(rng, 8);
	hw->exclude_kernel = fz_below(rng, 2);
	hw->mmap = fz_one_in(rng, 4);
	hw->comm = fz_one_in(rng, 4);
	hw->wakeup_events = (uint32_t)fz_below(rng, 3);
	if (fz_one_in(rng, 16))
		hw->extra_config_len = (uint32_t)fz_rand(rng);
}

/*
 * One call of the proposal's: open a counter (for the caller, a CPU, in a
 * group), or read, ioctl, poll, mmap, close one, or the task's enable and
 * disable; fds: the child's counters.
 */
static void perf_counter_call(uint64_t *rng, int *fds)
{
	struct perf_counter_hw_event hw;
	int k = (int)fz_below(rng, 4), fd = fds[k], cpu;
	struct pollfd pfd;
	uint64_t buf[8];
	void *m;

	switch (fz_below(rng, fds[0] < 0 ? 1 : 8)) {
	case 0:
		gen_counter(rng, &hw);
		cpu = fz_one_in(rng, 6) ? (int)fz_below(rng, 2) : -1;
		fds[k] = perf_counter_open(&hw, cpu >= 0 ? -1 : 0, cpu,
					   fz_below(rng, 3) ? -1 : fds[0], 0);
		if (fd >= 0 && fds[k] >= 0)
			perf_counter_close(fd);
		else if (fd >= 0)
			fds[k] = fd;
		break;
	case 1:
		if (perf_counter_read(fd, buf, 8 * fz_below(rng, 9)) < 0)
			buf[0] = 0;
		break;
	case 2:
		perf_counter_ioctl(fd, fz_below(rng, 3) == 0 ? PERF_COUNTER_IOC_ENABLE :
				   fz_below(rng, 2) ? PERF_COUNTER_IOC_DISABLE :
				   PERF_COUNTER_IOC_REFRESH, fz_below(rng, 3));
		break;
	case 3:
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		perf_counter_poll(&pfd, 1, (int)fz_below(rng, 2));
		break;
	case 4:
		perf_counter_close(fd);
		fds[k] = -1;
		break;
	case 5:
		perf_counter_task_enable();
		break;
	case 6:
		perf_counter_task_disable();
		break;
	default:
		m = perf_counter_mmap(NULL, 4096 * (1 + (fz_below(rng, 4) ? 1UL << fz_below(rng, 4) : 0)),
				      PROT_READ, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED && fz_below(rng, 2))
			perf_counter_munmap(m, 4096);
		break;
	}
	fz_workload((int)fz_below(rng, 3), 20);
}

long fz_run_perf_counter(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p, (void)idx;
	return lib_seq_run(op, perf_counter_call);
}
