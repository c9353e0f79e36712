// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz operations: the perfmon calls, through libperfmon (the door the
 * kernel offers) and raw (hostile words the library would never pass).
 *
 * Plausible most of the time: the software PMU's registers, set ids 0..3, PMD
 * values a few events short of an overflow.  Hostile some of the time: any
 * register number, reserved bits and fields, bad pointers and sizes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "door.h"
#include "fuzz.h"

uint64_t fz_gen_ptr(uint64_t *rng)
{
	return fz_one_in(rng, 8) ? fz_below(rng, FZ_PTR_NR) : FZ_PTR_OK;
}

static uint64_t gen_fd_slot(uint64_t *rng)
{
	/* mostly slots 0..3, sometimes any slot or a special fd */
	if (fz_one_in(rng, 16))
		return FZ_FDS + fz_below(rng, 4);
	return fz_one_in(rng, 4) ? fz_below(rng, FZ_FDS) : fz_below(rng, 4);
}

/* ---- create -------------------------------------------------------------- */

/*
 * a0 slot, a1 flags, a2 format kind, a3 buf_size, a4 arg pointer kind, a5
 * mangling.  Odd buffer sizes stay under 1 MiB but once in 64 times: root's
 * buffers are not charged, and one as large as the memory takes seconds to
 * allocate and free.
 */
void fz_gen_create(uint64_t *rng, struct fz_op *op)
{
	static const uint32_t flags[] = {
		0, 0, 0, PFM_FL_SMPL_FMT, PFM_FL_NOTIFY_BLOCK, PFM_FL_SYSTEM_WIDE,
		PFM_FL_OVFL_NO_MSG, PFM_FL_CLOEXEC, PFM_FL_SMPL_FMT | PFM_FL_NOTIFY_BLOCK,
		PFM_FL_SYSTEM_WIDE | PFM_FL_SMPL_FMT, PFM_FL_INHERIT | PFM_FL_SMPL_FMT,
	};

	op->a[0] = gen_fd_slot(rng) % FZ_FDS;
	op->a[1] = flags[fz_below(rng, sizeof(flags) / sizeof(flags[0]))];
	if (fz_one_in(rng, 4))
		op->a[1] |= fz_rand(rng) & 0x1f;
	if (fz_one_in(rng, 32))
		op->a[1] = fz_rand(rng) & 0xffffffff;
	/* the format: "default", else "mux" (4), now and then a bad name */
	op->a[2] = fz_one_in(rng, 8) ? fz_below(rng, 4) : fz_one_in(rng, 3) ? 4 : 0;
	op->a[3] = fz_one_in(rng, 64) ? fz_rand(rng) >> fz_below(rng, 64) :
		   fz_one_in(rng, 8) ? fz_rand(rng) >> (44 + fz_below(rng, 20)) :
		   4096 * (1 + fz_below(rng, 4)) - fz_below(rng, 2) * 128;
	op->a[4] = fz_gen_ptr(rng);
	op->a[5] = fz_one_in(rng, 8) ? fz_below(rng, 8) : 0;
}

long fz_run_create(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	struct pfm_dfl_smpl_arg arg;
	static const char *names[] = { "default", "nosuch", "", NULL, "mux" };
	const char *name = names[op->a[2] % 5];
	size_t size = sizeof(arg);
	void *argp;
	int fd;

	(void)p, (void)idx;
	memset(&arg, 0, sizeof(arg));
	arg.buf_size = op->a[3];
	switch (op->a[5] % 8) {
	case 1:
		size++;
		break;
	case 2:
		size = 0;
		break;
	case 3:
		arg.buf_flags = 1;
		break;
	case 4:
		arg.reserved[5] = 1;
		break;
	case 5:
		arg.reserved1 = 1;
		break;
	case 6:
		size = 1UL << 32;
		break;
	}
	argp = fz_place(op->a[4], &arg, sizeof(arg));
	if (name && (op->a[4] % FZ_PTR_NR) == FZ_PTR_GUARD)
		name = fz_ptr(FZ_PTR_GUARD, 0);
	fd = pfm_create_context((int)op->a[1], name, argp, size);
	if (fd < 0)
		return -errno;
	fz_set_fd(op->a[0], fd);
	return fd;
}

/* ---- vector calls -------------------------------------------------------- */

static size_t vec_elem_size(int call)
{
	switch (call) {
	case PFM_CALL_WRITE_PMCS:
		return sizeof(struct pfarg_pmc);
	case PFM_CALL_WRITE_PMDS:
	case PFM_CALL_READ_PMDS:
		return sizeof(struct pfarg_pmd);
	case PFM_CALL_GETINFO_EVTSETS:
		return sizeof(struct pfarg_setinfo);
	default:
		return sizeof(struct pfarg_setdesc);
	}
}

static uint16_t gen_reg(uint64_t *rng)
{
	switch (fz_below(rng, 32)) {
	case 0:
		return (uint16_t)fz_rand(rng);
	case 1:
		return (uint16_t)fz_below(rng, PFM_MAX_PMCS + 2);
	case 2:
	case 3:
		return (uint16_t)fz_below(rng, 20);	/* x86 registers */
	case 4:
		/* the last software counter, or the first register past them */
		return PFM_SW_FIRST_PMC + PFM_SW_NUM_COUNTERS - 1 + fz_below(rng, 2);
	case 5:
		/* either side of the bit vectors' end (overflow fields refused past it) */
		return PFM_MAX_PMCS - 2 + fz_below(rng, 4);
	default:
		/* mostly the first two counters, so that PMCs and PMDs meet */
		return PFM_SW_FIRST_PMC + fz_below(rng, fz_below(rng, 4) ? 2 :
						  PFM_SW_NUM_COUNTERS);
	}
}

static uint16_t gen_set(uint64_t *rng)
{
	if (fz_one_in(rng, 32))
		return (uint16_t)fz_rand(rng);
	return fz_one_in(rng, 8) ? (uint16_t)fz_below(rng, 4) : 0;
}

/* A PMD of the software counters' first word, or none. */
static uint64_t gen_bits(uint64_t *rng)
{
	return fz_one_in(rng, 2) ? 0 : 1ULL << fz_below(rng, 64);
}

/* A counter value: mostly a few events short of a 64-bit overflow. */
static uint64_t gen_count(uint64_t *rng)
{
	switch (fz_below(rng, 6)) {
	case 0:
		return 0;
	case 1:
		return fz_rand(rng);
	default:
		return -(1 + fz_below(rng, 200));
	}
}

static void gen_pmc(uint64_t *rng, struct pfarg_pmc *pc, int hostile)
{
	pc->reg_num = gen_reg(rng);
	pc->reg_set = gen_set(rng);
	if (pc->reg_num >= PFM_SW_FIRST_PMC)
		pc->reg_value = PFM_SW_PMC(fz_below(rng, PFM_SW_EV_MAX + 1 +
						       fz_one_in(rng, 16)));
	else
		pc->reg_value = 0x4300c0 | (fz_rand(rng) & 0xff);	/* EN, INT, USR, OS */
	if (fz_one_in(rng, 6))
		pc->reg_value |= PFM_SW_PMC_OS;
	if (fz_one_in(rng, 32))
		pc->reg_flags = PFM_PMCFL_NO_EMUL64;
	if (hostile) {
		pc->reg_value ^= 1ULL << fz_below(rng, 64);
		if (fz_one_in(rng, 4))
			pc->reg_flags = (uint32_t)fz_rand(rng);
		if (fz_one_in(rng, 4))
			pc->reg_reserved2[fz_below(rng, 4)] = fz_rand(rng) | 1;
	}
}

static void gen_pmd(uint64_t *rng, struct pfarg_pmd *pd, int hostile)
{
	pd->reg_num = gen_reg(rng);
	pd->reg_set = gen_set(rng);
	pd->reg_value = gen_count(rng);
	/* overflow notification often: it leads to messages, SIGIO, restarts */
	switch (fz_below(rng, 8)) {
	case 0:
	case 1:
		pd->reg_flags = PFM_PMDFL_OVFL_NOTIFY;
		break;
	case 2:
		pd->reg_flags = PFM_PMDFL_SMPL | (fz_below(rng, 2) ? PFM_PMDFL_OVFL_NOTIFY : 0);
		break;
	case 3:
		pd->reg_flags = (uint32_t)fz_below(rng, 16);
		break;
	default:
		pd->reg_flags = 0;
		break;
	}
	pd->reg_long_reset = gen_count(rng);
	pd->reg_short_reset = gen_count(rng);
	pd->reg_ovfl_switch_cnt = fz_below(rng, 4);
	pd->reg_reset_pmds[PFM_SW_FIRST_PMD / 64 + fz_below(rng, 2)] = gen_bits(rng);
	pd->reg_smpl_pmds[PFM_SW_FIRST_PMD / 64 + fz_below(rng, 2)] = gen_bits(rng);
	pd->reg_smpl_eventid = fz_rand(rng);
	pd->reg_random_mask = fz_one_in(rng, 2) ? 0 : 0xff;
	if (hostile) {
		if (fz_one_in(rng, 3))
			pd->reg_flags = (uint32_t)fz_rand(rng);
		if (fz_one_in(rng, 3))
			pd->reg_reserved2[fz_below(rng, 8)] = (uint32_t)fz_rand(rng) | 1;
		if (fz_one_in(rng, 3))
			pd->reg_reset_pmds[fz_below(rng, PFM_PMD_BV)] = fz_rand(rng);
		if (fz_one_in(rng, 3))
			pd->reg_smpl_pmds[fz_below(rng, PFM_PMD_BV)] = fz_rand(rng);
		if (fz_one_in(rng, 3))
			pd->reg_random_mask = fz_rand(rng);
	}
}

static void gen_setdesc(uint64_t *rng, struct pfarg_setdesc *sd, int hostile)
{
	static const uint64_t timeouts[] = { 0, 1, 10000, 100000, 1000000, 20000000 };

	sd->set_id = gen_set(rng);
	sd->set_flags = (uint32_t)fz_below(rng, 4);
	sd->set_timeout = timeouts[fz_below(rng, 6)];
	if (hostile) {
		if (fz_one_in(rng, 3))
			sd->set_flags = (uint32_t)fz_rand(rng);
		if (fz_one_in(rng, 3))
			sd->set_timeout = fz_rand(rng);
		if (fz_one_in(rng, 3))
			sd->set_reserved1 = 1;
		if (fz_one_in(rng, 3))
			sd->set_reserved2[fz_below(rng, 6)] = fz_rand(rng) | 1;
	}
}

/* a0 slot, a1 content seed, a2 elements, a3 pointer kind, a4 size mode, a5 hostile 1/N */
void fz_gen_vec(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_fd_slot(rng);
	op->a[1] = fz_rand(rng);
	op->a[2] = fz_one_in(rng, 16) ? fz_below(rng, 400) : 1 + fz_below(rng, 3);
	op->a[3] = fz_gen_ptr(rng);
	op->a[4] = fz_one_in(rng, 10) ? 1 + fz_below(rng, 6) : 0;
	op->a[5] = fz_one_in(rng, 6) ? 1 + fz_below(rng, 4) : 0;
}

long fz_run_vec(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	int call = fz_ops[op->code].call;
	size_t esz = vec_elem_size(call);
	size_t n = op->a[2], max = FZ_SCRATCH / esz, i, size;
	uint64_t seed = op->a[1];
	char *buf;
	void *req;
	long r;

	(void)p, (void)idx;
	if (n > max)
		n = max;
	buf = calloc(max, esz);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		void *e = buf + i * esz;
		int hostile = op->a[5] && fz_one_in(&seed, op->a[5]);

		switch (call) {
		case PFM_CALL_WRITE_PMCS:
			gen_pmc(&seed, e, hostile);
			break;
		case PFM_CALL_WRITE_PMDS:
		case PFM_CALL_READ_PMDS:
			gen_pmd(&seed, e, hostile);
			break;
		case PFM_CALL_GETINFO_EVTSETS:
			((struct pfarg_setinfo *)e)->set_id = gen_set(&seed);
			if (hostile)
				((struct pfarg_setinfo *)e)->set_reserved3[0] = 1;
			break;
		default:
			gen_setdesc(&seed, e, hostile);
			break;
		}
	}
	size = n * esz;
	switch (op->a[4] % 7) {
	case 1:
		size++;
		break;
	case 2:
		size = size ? size - 1 : 0;
		break;
	case 3:
		size = 0;
		break;
	case 4:
		size = 1UL << 40;
		break;
	case 5:
		size = (4096 / esz + 1) * esz;
		break;
	case 6:
		size = max * esz;
		break;
	}
	req = fz_place(op->a[3], buf, n * esz);
	free(buf);
	switch (call) {
	case PFM_CALL_WRITE_PMCS:
		r = pfm_write_pmcs(fz_fd(op->a[0]), req, size);
		break;
	case PFM_CALL_WRITE_PMDS:
		r = pfm_write_pmds(fz_fd(op->a[0]), req, size);
		break;
	case PFM_CALL_READ_PMDS:
		r = pfm_read_pmds(fz_fd(op->a[0]), req, size);
		break;
	case PFM_CALL_CREATE_EVTSETS:
		r = pfm_create_evtsets(fz_fd(op->a[0]), req, size);
		break;
	case PFM_CALL_DELETE_EVTSETS:
		r = pfm_delete_evtsets(fz_fd(op->a[0]), req, size);
		break;
	default:
		r = pfm_getinfo_evtsets(fz_fd(op->a[0]), req, size);
		break;
	}
	return fz_ret(r);
}

/* ---- load, start, stop, unload ------------------------------------------- */

/* a0 slot, a1 flags, a2 target kind, a3 target slot or CPU */
void fz_gen_load(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_fd_slot(rng);
	op->a[1] = fz_one_in(rng, 16) ? fz_rand(rng) & 0xffffffff : 0;
	op->a[2] = fz_below(rng, 4) ? fz_below(rng, 2) : fz_below(rng, FZ_TGT_NR);
	op->a[3] = fz_one_in(rng, 16) ? fz_rand(rng) & 0xffffffff : fz_below(rng, 3);
}

long fz_run_load(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	(void)p, (void)idx;
	return fz_ret(pfm_load_context(fz_fd(op->a[0]), (int)op->a[1],
				       fz_tid(op->a[2], op->a[3])));
}

/* a0 slot, a1 flags, a2 set id */
void fz_gen_ctl(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_fd_slot(rng);
	op->a[1] = fz_one_in(rng, 3) ? fz_below(rng, 4) : 0;
	if (fz_one_in(rng, 32))
		op->a[1] = fz_rand(rng) & 0xffffffff;
	op->a[2] = fz_one_in(rng, 16) ? fz_rand(rng) & 0xffffffff : fz_below(rng, 4);
}

long fz_run_ctl(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	int fd = fz_fd(op->a[0]), flags = (int)op->a[1];

	(void)p, (void)idx;
	switch (fz_ops[op->code].call) {
	case PFM_CALL_START:
		return fz_ret(pfm_start(fd, flags, (int)op->a[2]));
	case PFM_CALL_STOP:
		return fz_ret(pfm_stop(fd, flags));
	default:
		return fz_ret(pfm_unload_context(fd, flags));
	}
}

/* ---- raw calls ----------------------------------------------------------- */

/*
 * A raw argument word: 0xfd<<56 | slot is that slot's fd, 0xbf<<56 | kind a
 * pointer of that kind, anything else itself.
 */
#define RAW_FD		0xfdULL
#define RAW_PTR		0xbfULL

static uint64_t gen_raw_word(uint64_t *rng)
{
	switch (fz_below(rng, 6)) {
	case 0:
		return RAW_FD << 56 | gen_fd_slot(rng);
	case 1:
	case 2:
		return RAW_PTR << 56 | fz_gen_ptr(rng);
	case 3:
		return fz_below(rng, 8);
	case 4:
		return fz_below(rng, 2) ? 48 * (1 + fz_below(rng, 4)) : 176;
	default:
		return fz_rand(rng);
	}
}

static unsigned long raw_word(uint64_t w)
{
	switch (w >> 56) {
	case RAW_FD:
		return (unsigned long)(long)fz_fd(w & 0xff);
	case RAW_PTR:
		return (unsigned long)fz_ptr(w & 0xff, 64);
	default:
		return w;
	}
}

/* Random bytes in the scratch buffer, with plausible structures at its start. */
static void raw_fill(uint64_t seed)
{
	uint64_t *w = (uint64_t *)fz.scratch;
	size_t i;

	for (i = 0; i < 1024; i++)
		w[i] = fz_below(&seed, 4) ? fz_below(&seed, 256) : fz_rand(&seed);
}

/* a0 call | seed << 8, a1..a5 raw words */
void fz_gen_raw_call(uint64_t *rng, struct fz_op *op)
{
	int i;

	op->a[0] = fz_below(rng, PFM_CALL_NR + 1) | (fz_rand(rng) & ~0xffULL);
	for (i = 1; i < FZ_ARGS; i++)
		op->a[i] = gen_raw_word(rng);
}

long fz_run_raw_call(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	long base;
	int call = op->a[0] & 0xff;

	(void)p, (void)idx;
	raw_fill(op->a[0] >> 8);
	if (fz.door != PFM_DOOR_SYSCALL) {
		/* the ioctl door: the library packs the words as the call's struct */
		if (call >= PFM_CALL_NR)
			return -ENOSYS;
		return fz_ret(pfm_door_call(call, raw_word(op->a[1]), raw_word(op->a[2]),
					    raw_word(op->a[3]), raw_word(op->a[4]),
					    raw_word(op->a[5])));
	}
	base = fz_sysbase();
	if (!base)
		return -ENOSYS;
	return fz_ret(syscall(base + call, raw_word(op->a[1]), raw_word(op->a[2]),
			      raw_word(op->a[3]), raw_word(op->a[4]), raw_word(op->a[5])));
}

/* a0 fd word, a1 nr, a2 size, a3 dir|type, a4 argument word, a5 content seed */
void fz_gen_raw_ioctl(uint64_t *rng, struct fz_op *op)
{
	static const uint16_t sizes[] = { 32, 24, 16, 40, 0, 8, 4096, 16383 };

	op->a[0] = fz_one_in(rng, 3) ? RAW_FD << 56 | (FZ_FDS + 3 + fz_below(rng, 2)) :
		   RAW_FD << 56 | gen_fd_slot(rng);
	op->a[1] = fz_one_in(rng, 4) ? fz_below(rng, 256) : fz_below(rng, PFM_CALL_NR + 1);
	op->a[2] = fz_one_in(rng, 2) ? 0xffff : sizes[fz_below(rng, 8)];
	op->a[3] = (fz_one_in(rng, 4) ? fz_below(rng, 4) : _IOC_WRITE) << 8 |
		   (fz_one_in(rng, 8) ? fz_below(rng, 256) : PFM_IOC_MAGIC);
	op->a[4] = gen_raw_word(rng);
	if (fz_below(rng, 2))
		op->a[4] = RAW_PTR << 56 | FZ_PTR_OK;
	op->a[5] = fz_rand(rng);
}

long fz_run_raw_ioctl(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	/* each call's ioctl structure, by call number */
	static const size_t sizes[] = { 32, 24, 24, 24, 16, 16, 16, 24, 24, 24, 16, 40, 24 };
	_Static_assert(sizeof(sizes) / sizeof(sizes[0]) == PFM_CALL_NR, "a size per call");
	unsigned int nr = op->a[1] & 0xff, type = op->a[3] & 0xff;
	unsigned int dir = (op->a[3] >> 8) & 3;
	unsigned long size = op->a[2] & 0x3fff;
	uint64_t word = op->a[0] & 0xff;
	int fd;

	(void)p, (void)idx;
	/* 0xffff: the size of the call's own structure */
	if ((op->a[2] & 0xffff) == 0xffff)
		size = nr < PFM_CALL_NR ? sizes[nr] : 8;
	raw_fill(op->a[5]);
	/* the fds of the structure are a slot's, mostly */
	*(int32_t *)fz.scratch = fz_fd(op->a[5] % (FZ_FDS + 1));
	if (word == FZ_FDS + 3 || word == FZ_FDS + 4)
		fd = fz_devfd();
	else
		fd = fz_fd(word);
	return fz_ret(ioctl(fd, _IOC(dir, type, nr, size), raw_word(op->a[4])));
}

/* ---- pmc_filter ------------------------------------------------------------ */

/*
 * a0 slot, a1 a tracefs id, a2 filter (of fz_tp_filter()'s; past 8: a string of a2
 * bytes), a3 filter pointer kind, a4 PMC seed, a5 req pointer kind
 */
void fz_gen_pmc_filter(uint64_t *rng, struct fz_op *op)
{
	op->a[0] = gen_fd_slot(rng);
	op->a[1] = fz_tp_id(rng);
	op->a[2] = fz_one_in(rng, 16) ? 4000 + fz_below(rng, 200) : fz_below(rng, 8);
	op->a[3] = fz_gen_ptr(rng);
	op->a[4] = fz_rand(rng);
	op->a[5] = fz_gen_ptr(rng);
}

long fz_run_pmc_filter(const struct fz_op *op, const struct fz_prog *p, int idx)
{
	uint64_t seed = op->a[4];
	struct pfarg_pmc pc;
	char *str = NULL;
	const char *f;
	void *req;
	long r;

	(void)p, (void)idx;
	memset(&pc, 0, sizeof(pc));
	pc.reg_num = gen_reg(&seed);
	pc.reg_set = gen_set(&seed);
	/* mostly a TRACEPOINT of the id, at user level, both, or another event */
	pc.reg_value = PFM_SW_PMC_KEYED(fz_below(&seed, 4) ? PFM_SW_EV_TRACEPOINT :
					fz_below(&seed, PFM_SW_EV_MAX + 2), op->a[1]);
	if (fz_one_in(&seed, 4))
		pc.reg_value |= PFM_SW_PMC_OS;
	if (fz_one_in(&seed, 16))
		pc.reg_value ^= 1ULL << fz_below(&seed, 64);
	if (op->a[2] < 8) {
		f = fz_tp_filter(op->a[2]);
	} else {
		/* around a page: the longest filter the call takes */
		str = malloc(op->a[2] + 1);
		if (!str)
			return -ENOMEM;
		memset(str, '(', op->a[2]);
		str[op->a[2]] = '\0';
		f = str;
	}
	/* one of the two in the scratch buffer, the other where it is */
	if (op->a[5] % FZ_PTR_NR != FZ_PTR_OK)
		req = fz_place(op->a[5], &pc, sizeof(pc));
	else
		req = &pc, f = fz_place(op->a[3], f, strlen(f) + 1);
	r = fz_ret(pfm_write_pmc_filter(fz_fd(op->a[0]), req, f));
	free(str);
	return r;
}
