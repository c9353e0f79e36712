/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads of the inheritance benchmarks (fork_bench, inherit_bench): each
 * makes n new tasks of the calling process, one after another or all at once.
 */
#ifndef _PFM_INHERIT_WORK_H
#define _PFM_INHERIT_WORK_H

/*
 * n times: fork(), the child runs prog (execv, no arguments) or, prog NULL,
 * _exit(0)s at once; the parent waits for it before the next.  Dies on failure.
 */
void work_children(long n, const char *prog);

/* n threads created, each returning at once, then joined.  Dies on failure. */
void work_threads(long n);

#endif /* _PFM_INHERIT_WORK_H */
