// SPDX-License-Identifier: GPL-2.0
/*
 * noperf CMD [ARGS]: run CMD with the perf_event_open system call answering ENOSYS.
 *
 * The guest kernel has its own perf_event, which serves software events: a client
 * run under the perf_event_open shim (pfm-perf) could be answered by the kernel
 * instead of the shim, and a test would pass for the wrong reason.  A seccomp
 * filter, inherited by every child and kept across exec, closes that way out: in
 * `noperf pfm-perf CLIENT` only perfmon can answer, and whatever escapes the shim
 * fails as on a kernel without perf_event (perf prints <not supported>).
 *
 * Every ABI that can make the call is covered: x86_64, x32 (the same number with
 * the x32 bit) and i386 (int 0x80).  Exit status 2 on bad usage or a filter that
 * cannot be installed, 127 if CMD cannot be run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

#define NR_PERF_EVENT_OPEN_X86_64	298
#define NR_PERF_EVENT_OPEN_I386		336
#define X32_SYSCALL_BIT			0x40000000

#define LD_ARCH	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch))
#define LD_NR	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
/* if A == k, go on at the next instruction, else skip `skip` of them */
#define IF_EQ(k, skip)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), 0, (skip))
/* if A == k, skip `skip` instructions, else go on at the next */
#define IF_NE(k, skip)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (skip), 0)
#define RET(v)		BPF_STMT(BPF_RET | BPF_K, (v))

static struct sock_filter noperf_filter[] = {
	LD_ARCH,
	IF_EQ(AUDIT_ARCH_X86_64, 4),
	LD_NR,
	IF_NE(NR_PERF_EVENT_OPEN_X86_64, 6),
	IF_NE(NR_PERF_EVENT_OPEN_X86_64 | X32_SYSCALL_BIT, 5),
	RET(SECCOMP_RET_ALLOW),
	/* not x86_64 */
	IF_EQ(AUDIT_ARCH_I386, 2),
	LD_NR,
	IF_NE(NR_PERF_EVENT_OPEN_I386, 1),
	RET(SECCOMP_RET_ALLOW),
	/* perf_event_open, whichever way it came */
	RET(SECCOMP_RET_ERRNO | ENOSYS),
};

int main(int argc, char **argv)
{
	struct sock_fprog prog = {
		.len = sizeof(noperf_filter) / sizeof(noperf_filter[0]),
		.filter = noperf_filter,
	};

	if (argc < 2) {
		fprintf(stderr, "usage: noperf COMMAND [ARGS]\n");
		return 2;
	}
	/* without it only CAP_SYS_ADMIN may install a filter */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "noperf: cannot install the seccomp filter: %s\n",
			strerror(errno));
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "noperf: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
