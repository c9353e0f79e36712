/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfmon holds, machine-wide: contexts, hooks on threads, sessions, the
 * module's references and the kernel's slab, to compare before and after.
 */
#ifndef PFM_TESTS_FOOTPRINT_H
#define PFM_TESTS_FOOTPRINT_H

struct footprint {
	long contexts, hooks, sessions, refcnt, slab_kb;
};

void footprint(struct footprint *f);
/* Everything but Slab the same in a and b; Slab within a slack (stock kernel). */
void ck_footprint_same(const struct footprint *a, const struct footprint *b,
		       const char *what);
/* The stock kernel with the module, not the in-tree debug kernel. */
int stock_kernel(void);

#endif /* PFM_TESTS_FOOTPRINT_H */
