// SPDX-License-Identifier: GPL-2.0
/*
 * The counts pages of the live contexts (the CPU session's too), polled by one
 * thread of the monitoring process, without system calls but the lock's: each
 * set's count on a page never goes back, whatever the set switches, stops and
 * reads do meanwhile.  A context withdraws its page before it unmaps it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

#define KEYS		(LOAD_CTX_SLOTS + 1)	/* the CPU session's is the last */
#define SETS_SEEN	4

struct seen {
	const struct pfm_counts_page *pg;
	int nsets;
	uint16_t set[SETS_SEEN];
	uint64_t last[SETS_SEEN];
	uint16_t prev_set;
};

static struct seen table[KEYS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

void pages_publish(int key, const struct pfm_counts_page *pg)
{
	pthread_mutex_lock(&table_lock);
	memset(&table[key], 0, sizeof(table[key]));
	table[key].pg = pg;
	table[key].prev_set = pg->set_id;
	pthread_mutex_unlock(&table_lock);
}

void pages_withdraw(int key)
{
	pthread_mutex_lock(&table_lock);
	table[key].pg = NULL;
	pthread_mutex_unlock(&table_lock);
}

static void poll_one(int key, struct seen *e)
{
	static const unsigned int pmd0[] = { SW_PMD(0) };
	uint16_t set = __atomic_load_n(&e->pg->set_id, __ATOMIC_RELAXED);
	uint64_t v;
	int i;

	/* ENOENT: the set switched between the two loads; the next pass sees it */
	if (pfm_read_mapped(e->pg, set, pmd0, &v, 1)) {
		if (errno != ENOENT)
			load_fail("page %d: pfm_read_mapped(set %u): %s", key, set,
				  strerror(errno));
		return;
	}
	STAT_ADD(page_reads, 1);
	if (set != e->prev_set) {
		STAT_ADD(page_switches, 1);
		e->prev_set = set;
	}
	for (i = 0; i < e->nsets && e->set[i] != set; i++)
		;
	if (i == e->nsets) {
		if (i == SETS_SEEN) {
			load_fail("page %d: a fifth set, %u", key, set);
			return;
		}
		e->set[i] = set;
		e->nsets++;
	} else if (v < e->last[i]) {
		load_fail("page %d: set %u went back from %llu to %llu", key, set,
			  (unsigned long long)e->last[i], (unsigned long long)v);
	}
	e->last[i] = v;
}

static void reader_pass(void)
{
	int key;

	pthread_mutex_lock(&table_lock);
	for (key = 0; key < KEYS; key++)
		if (table[key].pg)
			poll_one(key, &table[key]);
	pthread_mutex_unlock(&table_lock);
}

struct poller pages_reader = { .pass = reader_pass, .pause_us = 200 };
