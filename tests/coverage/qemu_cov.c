// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that writes the guest addresses, inside given ranges, of
 * every instruction the guest has executed at least once: make coverage's
 * view of the kernel, which sees what KCOV cannot (interrupt and softirq
 * context, the CPU hotplug threads, the kernel's own workers).
 *
 *   qemu-system-x86_64 ... -plugin qemu_cov.so,out=FILE,ranges=FILE
 *
 * ranges=FILE: one "<lo hex> <hi hex>" per line (at most RANGES_MAX).
 * out=FILE: one hex address a line, each written once, as soon as the block
 * that holds it first runs (unbuffered, so a guest that is killed or panics
 * still leaves what it reached).
 *
 * The unit is the translation block: when a block runs, all its instructions
 * count as executed.  A block that an exception or an interrupt leaves midway
 * is thus counted whole; blocks end at every branch, so this is rare.
 *
 * Only the few entry points of QEMU's plugin API it uses are declared here
 * (Debian ships no header for it); the API has kept them unchanged since its
 * first version.
 */
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

#define RANGES_MAX 64

static struct { uint64_t lo, hi; uint8_t *seen; } ranges[RANGES_MAX];
static int nranges;
static int out_fd = -1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* One per translated block of interest: its instructions' addresses. */
struct block {
	int done;
	size_t n;
	uint64_t pc[];
};

static int range_of(uint64_t pc)
{
	int i;

	for (i = 0; i < nranges; i++)
		if (pc >= ranges[i].lo && pc < ranges[i].hi)
			return i;
	return -1;
}

static void block_ran(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	char line[32];
	size_t i;
	int r, len;

	(void)vcpu;
	if (__atomic_load_n(&b->done, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < b->n; i++) {
		r = range_of(b->pc[i]);
		if (r < 0 || ranges[r].seen[b->pc[i] - ranges[r].lo])
			continue;
		ranges[r].seen[b->pc[i] - ranges[r].lo] = 1;
		len = snprintf(line, sizeof(line), "%" PRIx64 "\n", b->pc[i]);
		if (write(out_fd, line, len) != len)
			break;
	}
	__atomic_store_n(&b->done, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock);
}

/* A block is of interest when any of its instructions is in a range. */
static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct block *b;
	int any = 0;

	(void)id;
	for (i = 0; i < n && !any; i++)
		any = range_of(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i))) >= 0;
	if (!any)
		return;
	/* retranslations of the same block leak one of these each: few, small */
	b = calloc(1, sizeof(*b) + n * sizeof(b->pc[0]));
	if (!b)
		return;
	b->n = n;
	for (i = 0; i < n; i++)
		b->pc[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (out_fd >= 0)
		fsync(out_fd);
}

static int load_ranges(const char *path)
{
	unsigned long long lo, hi;
	FILE *in = fopen(path, "r");

	if (!in)
		return -1;
	while (nranges < RANGES_MAX && fscanf(in, "%llx %llx", &lo, &hi) == 2) {
		if (hi <= lo || hi - lo > (64ULL << 20))
			continue;
		ranges[nranges].lo = lo;
		ranges[nranges].hi = hi;
		ranges[nranges].seen = calloc(hi - lo, 1);
		if (!ranges[nranges].seen)
			break;
		nranges++;
	}
	fclose(in);
	return nranges ? 0 : -1;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	const char *out = NULL, *rfile = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
		else if (!strncmp(argv[i], "ranges=", 7))
			rfile = argv[i] + 7;
	}
	if (!out || !rfile) {
		fprintf(stderr, "qemu_cov: needs out=FILE and ranges=FILE\n");
		return -1;
	}
	if (load_ranges(rfile)) {
		fprintf(stderr, "qemu_cov: no address range in %s\n", rfile);
		return -1;
	}
	out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out_fd < 0) {
		perror(out);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
