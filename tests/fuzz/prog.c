// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz: making programs (fresh or mutated from the corpus) and the log's
 * text form of them (README.md, "The log").
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "prog.h"

/* An operation's weight: "fault" has none where the kernel cannot inject. */
static int op_weight(int code)
{
	return fz_ops[code].run == fz_run_fault && !fz_faults ? 0 : fz_ops[code].weight;
}

static int total_weight(void)
{
	int i, w = 0;

	for (i = 0; i < fz_nops; i++)
		w += op_weight(i);
	return w;
}

/* The slots that earlier operations of the program filled. */
struct live {
	unsigned int fds, maps, tgts;
	unsigned int sys;	/* fd slots of system-wide contexts */
};

static uint64_t pick(uint64_t *rng, unsigned int mask, uint64_t cur)
{
	int n = __builtin_popcount(mask), k;

	/* now and then the slot the generator chose, live or not */
	if (!n || fz_one_in(rng, 6))
		return cur;
	k = (int)fz_below(rng, n);
	while (k--)
		mask &= mask - 1;
	return __builtin_ctz(mask);
}

static void use_live(uint64_t *rng, struct fz_op *op, struct live *l)
{
	int s = fz_ops[op->code].slots;

	if (s & FZ_S_USE_FD0)
		op->a[0] = pick(rng, l->fds, op->a[0]);
	if (s & FZ_S_USE_MAP0)
		op->a[0] = pick(rng, l->maps, op->a[0]);
	if (s & FZ_S_USE_TGT0)
		op->a[0] = pick(rng, l->tgts, op->a[0]);
	if ((s & FZ_S_USE_TGT3) && op->a[2] % FZ_TGT_NR == FZ_TGT_SLOT) {
		op->a[3] = pick(rng, l->tgts, op->a[3]);
		if (!l->tgts && !fz_one_in(rng, 4))
			op->a[2] = FZ_TGT_SELF;
	}
	/* a system-wide context is loaded on a CPU, mostly */
	if ((s & FZ_S_USE_TGT3) && (l->sys >> (op->a[0] % FZ_FDS) & 1) && !fz_one_in(rng, 4)) {
		op->a[2] = FZ_TGT_CPU;
		op->a[3] = fz_below(rng, 2);
	}
	if (s & FZ_S_NEW_FD0) {
		l->fds |= 1U << (op->a[0] % FZ_FDS);
		l->sys &= ~(1U << (op->a[0] % FZ_FDS));
		if (op->code == fz_op_lookup("create") && (op->a[1] & PFM_FL_SYSTEM_WIDE))
			l->sys |= 1U << (op->a[0] % FZ_FDS);
	}
	if (s & FZ_S_NEW_FD1)
		l->fds |= 1U << (op->a[1] % FZ_FDS);
	if (s & FZ_S_NEW_MAP1)
		l->maps |= 1U << (op->a[1] % FZ_MAPS);
	if (s & FZ_S_NEW_TGT0)
		l->tgts |= 1U << (op->a[0] % FZ_TGTS);
	if (s & FZ_S_NEW_TGT2)
		l->tgts |= 1U << (op->a[2] % FZ_TGTS);
}

static int pick_code(uint64_t *rng)
{
	int w = (int)fz_below(rng, total_weight()), code;

	for (code = 0; code < fz_nops - 1; code++) {
		w -= op_weight(code);
		if (w < 0)
			break;
	}
	return code;
}

static bool is_fault(const struct fz_op *op)
{
	return fz_ops[op->code].run == fz_run_fault;
}

/*
 * code, or one drawn by weight; after a "fault" (prev), one that it can fault,
 * mostly.
 */
static void gen_op_after(uint64_t *rng, struct fz_op *op, int code, struct fz_op *prev)
{
	int tries = 8;

	memset(op, 0, sizeof(*op));
	if (code < 0) {
		code = pick_code(rng);
		while (prev && is_fault(prev) && !fz_ops[code].faults && --tries)
			code = pick_code(rng);
	}
	op->code = (uint16_t)code;
	fz_ops[code].gen(rng, op);
	if (prev && is_fault(prev) && fz_ops[code].faults)
		fz_fault_draw(rng, prev, code);
}

static void gen_op(uint64_t *rng, struct fz_op *op, int code)
{
	gen_op_after(rng, op, code, NULL);
}

/*
 * Half of the fresh programs start as a session would: create, program the
 * registers, attach, start; a quarter with a scenario (a whole session left in
 * the middle of its life; a third of them a perf sampling session); the rest is
 * random.
 */
void fz_prog_gen(uint64_t *rng, struct fz_prog *p)
{
	static const char *const skeleton[] = {
		"create", "write_pmcs", "write_pmds", "load", "start", "work", "read_pmds",
	};
	int n = 8 + (int)fz_below(rng, 48), i = 0, s;
	struct live l = { 0, 0, 0, 0 };

	p->n = 0;
	if (fz_one_in(rng, 4)) {
		gen_op(rng, &p->op[i], fz_op_lookup(fz_one_in(rng, 3) ? "perf_smpl" : "scenario"));
		use_live(rng, &p->op[i++], &l);
	} else if (fz_below(rng, 3)) {
		for (s = 0; s < 7 && i < n; s++, i++) {
			gen_op(rng, &p->op[i], fz_op_lookup(skeleton[s]));
			use_live(rng, &p->op[i], &l);
		}
	}
	for (; i < n; i++) {
		gen_op_after(rng, &p->op[i], -1, i ? &p->op[i - 1] : NULL);
		use_live(rng, &p->op[i], &l);
	}
	p->n = n;
}

static void insert_op(struct fz_prog *p, int at, const struct fz_op *op)
{
	if (p->n >= FZ_PROG_MAX)
		return;
	memmove(&p->op[at + 1], &p->op[at], (p->n - at) * sizeof(p->op[0]));
	p->op[at] = *op;
	p->n++;
}

void fz_prog_mutate(uint64_t *rng, struct fz_prog *p, const struct fz_prog *other)
{
	int rounds = 1 + (int)fz_below(rng, 3), at, k, n;
	struct fz_op op;

	while (rounds--) {
		at = p->n ? (int)fz_below(rng, p->n) : 0;
		switch (fz_below(rng, 6)) {
		case 0:		/* new arguments for one operation */
			if (p->n)
				gen_op(rng, &p->op[at], p->op[at].code);
			break;
		case 1:		/* one argument anything */
			if (p->n)
				p->op[at].a[fz_below(rng, FZ_ARGS)] =
					fz_below(rng, 2) ? fz_rand(rng) : fz_below(rng, 16);
			break;
		case 2:
			gen_op(rng, &op, -1);
			/* a fault goes before an operation it can fault, if there is one */
			for (k = 0; is_fault(&op) && k < p->n && !fz_ops[p->op[at].code].faults; k++)
				at = (at + 1) % p->n;
			if (is_fault(&op) && at < p->n && fz_ops[p->op[at].code].faults)
				fz_fault_draw(rng, &op, p->op[at].code);
			insert_op(p, at, &op);
			break;
		case 3:
			if (p->n > 1) {
				memmove(&p->op[at], &p->op[at + 1], (p->n - at - 1) * sizeof(op));
				p->n--;
			}
			break;
		case 4:		/* the same operation again, later */
			if (p->n) {
				op = p->op[at];
				insert_op(p, at + (int)fz_below(rng, p->n - at + 1), &op);
			}
			break;
		default:	/* splice: some of another program here */
			if (!other || !other->n)
				break;
			k = (int)fz_below(rng, other->n);
			n = 1 + (int)fz_below(rng, other->n - k);
			while (n-- && p->n < FZ_PROG_MAX)
				insert_op(p, at++, &other->op[k++]);
			break;
		}
	}
}

void fz_prog_write(FILE *out, const struct fz_prog *p)
{
	char line[256];
	int i;

	for (i = 0; i < p->n; i++) {
		fz_op_format(&p->op[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
}

/* One operation line into op: 0, or -1 if the line is not one. */
int fz_op_parse(const char *line, struct fz_op *op)
{
	char name[64];
	unsigned long long a[FZ_ARGS];
	int code, i;

	if (sscanf(line, "%63s %llx %llx %llx %llx %llx %llx", name, &a[0], &a[1], &a[2],
		   &a[3], &a[4], &a[5]) != 1 + FZ_ARGS)
		return -1;
	code = fz_op_lookup(name);
	if (code < 0)
		return -1;
	op->code = (uint16_t)code;
	for (i = 0; i < FZ_ARGS; i++)
		op->a[i] = a[i];
	return 0;
}

/*
 * Reads every program of a log ("P <n> ..." then its operation lines); other
 * lines are skipped.  Returns how many, *progs and *ids allocated.
 */
int fz_log_read(FILE *in, struct fz_prog **progs, long **ids)
{
	char line[512];
	struct fz_prog *ps = NULL, *cur = NULL;
	long *is = NULL, id;
	int n = 0, version;

	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "# pfm_fuzz %d", &version) == 1 && version != FZ_LOG_VERSION)
			fprintf(stderr, "pfm_fuzz: a log of format %d, this is %d: its programs "
				"may run differently\n", version, FZ_LOG_VERSION);
		if (sscanf(line, "P %ld", &id) == 1) {
			ps = realloc(ps, (n + 1) * sizeof(*ps));
			is = realloc(is, (n + 1) * sizeof(*is));
			if (!ps || !is)
				return -1;
			cur = &ps[n];
			cur->n = 0;
			is[n++] = id;
			continue;
		}
		if (cur && cur->n < FZ_PROG_MAX && !fz_op_parse(line, &cur->op[cur->n]))
			cur->n++;
		else if (line[0] != '#')
			cur = NULL;	/* a program ends at its first other line */
	}
	*progs = ps;
	*ids = is;
	return n;
}
