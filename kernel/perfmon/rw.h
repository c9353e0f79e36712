/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmon: writing and reading registers (rw.c); ctx->mutex held but for a read.
 */
#ifndef _PERFMON_RW_H
#define _PERFMON_RW_H

/*
 * What a read takes of a struct pfarg_pmd and gives back: the door copies these
 * fields only (rw_user.c), not the whole 176-byte request.  Whoever fills one in
 * has checked that the request's reserved field is zero.
 */
struct pfm_pmd_read {
	union {
		struct {
			u16 num;	/* reg_num */
			u16 set_id;	/* reg_set */
			u32 flags;	/* reg_flags */
		};
		u64 head;		/* the three, laid out as in the request */
	};
	u64 value;			/* out: reg_value */
	u64 last_reset_val;		/* out: reg_last_reset_val */
	u64 ovfl_switch_cnt;		/* out: reg_ovfl_switch_cnt */
};

long pfm_read_pmd_vec(struct pfm_context *ctx, struct pfm_pmd_read *rd, unsigned int n);

/* vectors of n struct pfarg_pmc / pfarg_pmd in kernel memory */
long pfm_write_pmcs(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_write_pmds(struct pfm_context *ctx, void *vec, unsigned int n);
long pfm_read_pmds(struct pfm_context *ctx, void *vec, unsigned int n);

#endif /* _PERFMON_RW_H */
