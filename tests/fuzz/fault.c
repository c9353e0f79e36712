// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection mixed into the programs, as syzkaller mixes it: the
 * operation "fault N" makes the N-th slab or page allocation or user copy of
 * the next operation fail (the calling thread's fail-nth), where the kernel has
 * fault injection (the debug kernel) and the next operation is one call into
 * perfmon.  A whole session or a task's birth is not faulted: their failures
 * outside perfmon tell nothing about it.  The run's checks then hold the call
 * to what they hold every call to: no kernel report, nothing left behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "fail_nth.h"

int fz_faults;
static __thread unsigned int fz_fault_next;
/*
 * The most fault sites each operation was seen to reach, in memory the manager
 * shares with every program: the N drawn for an operation covers them.
 */
static unsigned int *fz_fault_sites;
/* the faults that fell on a signal's delivery instead (shared too) */
static unsigned long *fz_fault_on_sig;
/* this thread's fail-nth is armed */
static __thread volatile sig_atomic_t fz_fault_armed;
/* where the last handled signal came, while armed: rip, rsp, rax */
static __thread greg_t fz_sig_at[3];

/*
 * The fault armed for an operation stays armed from before its preparation
 * until after its call: a signal delivered to the thread meanwhile (SIGIO of
 * an O_ASYNC context, SIGALRM cutting a blocking read) may find it writing
 * the signal's frame, or reading it back at the handler's return, which the
 * kernel answers with SIGSEGV (SI_KERNEL, no address).  That is a fault
 * outside perfmon, as a task's birth would be.  A frame not written: the
 * thread carries on, having lost the signal, as if it were interrupted.  A
 * frame not read back: the return (rt_sigreturn in glibc's restorer, the
 * instruction before the one the SIGSEGV came at) is made again, and
 * succeeds, the fault being spent.  A frame read back but the FPU state in
 * it not: the registers are back, but rt_sigreturn's failure leaves 0 in rax
 * (a blocking read seen to return 0), which the handler had noted and is put
 * back.  One per armed fault: another SIGSEGV then is not the fault's.
 */
void fz_fault_note_signal(void *uc)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;

	if (!fz_fault_armed)
		return;
	fz_sig_at[0] = r[REG_RIP];
	fz_sig_at[1] = r[REG_RSP];
	fz_sig_at[2] = r[REG_RAX];
}

int fz_fault_segv(const siginfo_t *si, void *uc)
{
	/* mov $SYS_rt_sigreturn, %rax; syscall */
	static const unsigned char restorer[] = {
		0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05,
	};
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;
	const unsigned char *ip = (const unsigned char *)r[REG_RIP];

	if (si->si_code != SI_KERNEL || si->si_addr || !fz_fault_armed)
		return 0;
	fz_fault_armed = 0;
	if (fz_fault_on_sig)
		__atomic_fetch_add(fz_fault_on_sig, 1, __ATOMIC_RELAXED);
	if (ip && !memcmp(ip - sizeof(restorer), restorer, sizeof(restorer))) {
		r[REG_RIP] -= 2;
		r[REG_RAX] = SYS_rt_sigreturn;
	} else if (r[REG_RIP] == fz_sig_at[0] && r[REG_RSP] == fz_sig_at[1]) {
		r[REG_RAX] = fz_sig_at[2];
	}
	return 1;
}

void fz_fault_init(void)
{
	static int done;
	const char *bad;

	if (done)
		return;
	done = 1;
	if (access("/proc/thread-self/fail-nth", W_OK))
		return;
	if (fail_nth_setup(&bad)) {
		fprintf(stderr, "fuzz: fault injection off: %s: %m\n", bad);
		return;
	}
	fz_fault_sites = fz_shared(fz_nops * sizeof(*fz_fault_sites));
	if (fz_fault_sites == MAP_FAILED)
		fz_fault_sites = NULL;
	fz_fault_on_sig = fz_shared(sizeof(*fz_fault_on_sig));
	if (fz_fault_on_sig == MAP_FAILED)
		fz_fault_on_sig = NULL;
	fz_faults = 1;
}

/* N for a "fault" whose next operation is not known yet: the first few sites */
void fz_gen_fault(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = fz_one_in(rng, 2) ? 1 : 1 + fz_below(rng, 8);
}

/*
 * N for a "fault" before operation code: any site it was seen to reach, or one
 * past them, so that the sites are all tried however many the call has; now and
 * then any of the first 64.
 */
void fz_fault_draw(uint64_t *rng, struct fz_op *fault, int code)
{
	unsigned int m = fz_fault_sites ? fz_fault_sites[code] : 0;

	if (fz_one_in(rng, 8))
		fault->a[0] = 1 + fz_below(rng, 64);
	else
		fault->a[0] = 1 + fz_below(rng, (m ?: 1) + 1);
}

long fz_run_fault(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p;
	(void)idx;
	if (!fz_faults)
		return -ENOSYS;
	fz_fault_next = (unsigned int)(op->a[0] % 1024) ?: 1;
	return 0;
}

/* the next operation gets a fault */
int fz_fault_pending(void)
{
	return fz_fault_next != 0;
}

int fz_fault_arm(int code, unsigned int *armed)
{
	unsigned int n = fz_fault_next;
	int fd;

	fz_fault_next = 0;
	*armed = n;
	if (!n || !fz_ops[code].faults)
		return -1;
	fd = fail_nth_open();
	if (fd < 0)
		return -1;
	fz_fault_armed = 1;
	if (fail_nth_arm(fd, n)) {
		fz_fault_armed = 0;
		close(fd);
		return -1;
	}
	return fd;
}

void fz_fault_disarm(int fd, int code, unsigned int n, const struct timespec *t0)
{
	unsigned int left = n, reached;
	int r = fail_nth_disarm(fd, &left);

	fz_fault_armed = 0;
	close(fd);
	if (r == 1)
		fz_stat_add(FZ_ST_FAULT, t0);
	if (r < 0 || !fz_fault_sites)
		return;
	reached = r == 1 ? n : n - (left < n ? left : n);
	if (reached > __atomic_load_n(&fz_fault_sites[code], __ATOMIC_RELAXED))
		__atomic_store_n(&fz_fault_sites[code], reached, __ATOMIC_RELAXED);
}

unsigned long fz_fault_on_signal(void)
{
	return fz_fault_on_sig ? *fz_fault_on_sig : 0;
}

unsigned int fz_fault_sites_of(int code)
{
	return fz_fault_sites ? fz_fault_sites[code] : 0;
}
