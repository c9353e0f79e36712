// SPDX-License-Identifier: LGPL-2.1
/*
 * libperfmon: the 2008 proposal's ring buffer (perf_counter.h), on the ring of the
 * perf_event fd that pfm_perf_event_open() gave the counter.
 *
 * The two rings differ in their first page (the proposal's data_head is a __u32 at
 * byte 24, perf_event's a __u64 at byte 1024) and in two record types: an overflow
 * record is PERF_RECORD_SAMPLE (9) in perf_event and has its PERF_RECORD_* bits
 * as type, with PERF_EVENT_MISC_OVERFLOW, in the proposal; the bodies are the same
 * (perf_event kept IP, TID, TIME, ADDR with the same bits and in the same order),
 * but for the call chain, whose context marks become counts (chain_to_2008()),
 * and the group's counts, whose ids become configs (group_to_2008()); and so
 * are MMAP and COMM records without sample_id_all.  The proposal's type 2 is
 * MUNMAP, perf_event's LOST: such records, and perf_event's other types, have no
 * place in the proposal's ring and are dropped.
 *
 * So the caller's mapping is memory of this library, which a copy brings up to
 * date: perf_counter_mmap() maps the perf ring writable (its data_tail then keeps
 * the kernel from overwriting what is not yet copied; what does not fit is lost, as
 * perf_event loses it) and the copy takes every whole record from it, rewrites
 * the header of overflow records and appends it to the caller's ring, which
 * overwrites its oldest bytes as the proposal's kernel did (it has no tail).  The
 * copy runs in perf_counter_poll(), and in perf_counter_read() and
 * perf_counter_ioctl() of the counter, since a library has no other moment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_counter.h"
#include "perf_counter_ring.h"

/* PERF_EVENT_IOC_ID's id of a counter of a group, and the config it was opened with */
struct pc_member {
	uint64_t id, config;
};

/* the shim reads a group of up to 64 members into a sample (E2BIG past them) */
#define PC_GROUP_MAX	65

struct pc_shim {
	int fd;
	uint32_t record_type;
	uint32_t read_format;		/* the proposal's */
	int group_read;			/* PERF_FORMAT_GROUP | ID added for PERF_RECORD_GROUP */
	int leader_fd;			/* its group's leader, itself for a leader */
	uint64_t id;
	unsigned int nmem;		/* its group's counters known so far, leader first */
	struct pc_member mem[PC_GROUP_MAX];
	int self_leader;		/* a leader counting its opener, in this process */
	int enabled;			/* as its opening and this library's ioctls left it */
	pthread_t owner;
	size_t len;			/* of both mappings; 0 unmapped */
	char *perf;			/* perf_event's ring */
	char *user;			/* the proposal's */
	struct pc_shim *next;
};

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pc_shim *shims;
static uint64_t rec_buf[65536 / sizeof(uint64_t)];	/* one record; under ring_lock */

static struct pc_shim *shim_find(int fd)
{
	struct pc_shim *s;

	for (s = shims; s; s = s->next)
		if (s->fd == fd)
			return s;
	return NULL;
}

/* A forked child's thread has its parent's pthread_self(), but none of its counters. */
static void ring_atfork_child(void)
{
	struct pc_shim *s;

	for (s = shims; s; s = s->next)
		s->self_leader = 0;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void ring_atfork(void)
{
	pthread_atfork(NULL, NULL, ring_atfork_child);
}

/* Add counter m to the group list of s, if there is room (a bigger group has no group samples). */
static void group_add(struct pc_shim *s, const struct pc_member *m)
{
	if (s->nmem < PC_GROUP_MAX)
		s->mem[s->nmem++] = *m;
}

int pc_ring_note(int fd, const struct perf_counter_hw_event *hw, int group_fd,
		 int self_leader)
{
	struct pc_shim *s = calloc(1, sizeof(*s)), *o;
	struct pc_member me = { .config = hw->config };
	unsigned int i;

	if (!s)
		return ENOMEM;
	/* the id the shim's group samples name this counter by */
	if (ioctl(fd, PERF_EVENT_IOC_ID, &me.id)) {
		free(s);
		return errno;
	}
	pthread_once(&atfork_once, ring_atfork);
	s->fd = fd;
	s->record_type = hw->record_type;
	s->read_format = hw->read_format;
	s->group_read = hw->irq_period && (hw->record_type & PERF_RECORD_GROUP);
	s->leader_fd = group_fd == -1 ? fd : group_fd;
	s->id = me.id;
	s->self_leader = self_leader;
	s->enabled = !hw->disabled;
	s->owner = pthread_self();
	pthread_mutex_lock(&ring_lock);
	/* the group so far (the leader's list), then this counter, in every list of it */
	o = group_fd == -1 ? NULL : shim_find(group_fd);
	for (i = 0; o && i < o->nmem; i++)
		group_add(s, &o->mem[i]);
	group_add(s, &me);
	for (o = shims; o && group_fd != -1; o = o->next)
		if (o->leader_fd == group_fd)
			group_add(o, &me);
	s->next = shims;
	shims = s;
	pthread_mutex_unlock(&ring_lock);
	return 0;
}

int pc_ring_known(int fd)
{
	int known;

	pthread_mutex_lock(&ring_lock);
	known = shim_find(fd) != NULL;
	pthread_mutex_unlock(&ring_lock);
	return known;
}

static void shim_unmap(struct pc_shim *s)
{
	if (!s->len)
		return;
	munmap(s->perf, s->len);
	munmap(s->user, s->len);
	s->len = 0;
	s->perf = s->user = NULL;
}

void pc_ring_forget(int fd)
{
	struct pc_shim **pp, *s;

	pthread_mutex_lock(&ring_lock);
	for (pp = &shims; (s = *pp); pp = &s->next) {
		if (s->fd == fd) {
			*pp = s->next;
			shim_unmap(s);
			free(s);
			break;
		}
	}
	/* the number may name another leader later: its group is not theirs */
	for (s = shims; s; s = s->next)
		if (s->leader_fd == fd)
			s->leader_fd = -1;
	pthread_mutex_unlock(&ring_lock);
}

/*
 * A counter whose samples read its group reads the group with read(): its own
 * value (found by its id) and times (the group's, the leader's, as perf's group
 * read gives them) are what the proposal's read() gives.
 */
ssize_t pc_ring_read(int fd, void *buf, size_t count)
{
	uint64_t g[3 + 2 * PC_GROUP_MAX], v[3], id = 0;
	unsigned int t = 0, i;
	struct pc_shim *s;
	ssize_t len;
	int group_read = 0;

	pthread_mutex_lock(&ring_lock);
	s = shim_find(fd);
	if (s) {
		group_read = s->group_read;
		id = s->id;
		t = __builtin_popcount(s->read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED |
							 PERF_FORMAT_TOTAL_TIME_RUNNING));
	}
	pthread_mutex_unlock(&ring_lock);
	if (!group_read)
		return read(fd, buf, count);
	if (count < (1 + t) * sizeof(uint64_t)) {
		errno = ENOSPC;
		return -1;
	}
	len = read(fd, g, sizeof(g));
	if (len < 0)
		return -1;
	for (i = 0; i < g[0] && (1 + t + 2 * i + 2) * sizeof(uint64_t) <= (size_t)len; i++)
		if (g[1 + t + 2 * i + 1] == id)
			break;
	if (i == g[0] || (1 + t + 2 * i + 2) * sizeof(uint64_t) > (size_t)len) {
		errno = EIO;		/* the shim left this counter out of its group */
		return -1;
	}
	v[0] = g[1 + t + 2 * i];
	memcpy(v + 1, g + 1, t * sizeof(uint64_t));
	memcpy(buf, v, (1 + t) * sizeof(uint64_t));
	return (1 + t) * sizeof(uint64_t);
}

/* An ENABLE, DISABLE or REFRESH of fd went through: its state as it is now. */
void pc_ring_note_ioctl(int fd, unsigned long request)
{
	struct pc_shim *s;

	pthread_mutex_lock(&ring_lock);
	s = shim_find(fd);
	if (s && (request == PERF_COUNTER_IOC_ENABLE || request == PERF_COUNTER_IOC_REFRESH))
		s->enabled = 1;
	else if (s && request == PERF_COUNTER_IOC_DISABLE)
		s->enabled = 0;
	pthread_mutex_unlock(&ring_lock);
}

/*
 * The proposal's prctl on the shim's counters: the calling thread's leaders
 * (known by pthread_self(), which is no system call).  The kernel's prctl,
 * made around this, reaches them too, by perf_event's rule since Linux 2.6.32:
 * every counter the thread opened, members and counters on other tasks
 * included.  The proposal leaves those alone, so pc_ring_members_restore()
 * puts them back as they were.
 */
int pc_ring_task_enable(int enabled)
{
	unsigned long req = enabled ? PERF_COUNTER_IOC_ENABLE : PERF_COUNTER_IOC_DISABLE;
	pthread_t self = pthread_self();
	struct pc_shim *s;
	int ret = 0;

	pthread_mutex_lock(&ring_lock);
	for (s = shims; s && !ret; s = s->next) {
		if (!s->self_leader || !pthread_equal(s->owner, self))
			continue;
		ret = ioctl(s->fd, req, 0);
		if (!ret)
			s->enabled = enabled;
	}
	pthread_mutex_unlock(&ring_lock);
	return ret;
}

/*
 * After the kernel's prctl: the counters the calling thread opened that are not
 * leaders counting it (members, counters on other tasks) as they were.
 */
int pc_ring_members_restore(void)
{
	pthread_t self = pthread_self();
	struct pc_shim *s;
	int ret = 0;

	pthread_mutex_lock(&ring_lock);
	for (s = shims; s && !ret; s = s->next)
		if (!s->self_leader && pthread_equal(s->owner, self))
			ret = ioctl(s->fd, s->enabled ? PERF_COUNTER_IOC_ENABLE :
					   PERF_COUNTER_IOC_DISABLE, 0);
	pthread_mutex_unlock(&ring_lock);
	return ret;
}

/* n bytes at ring position pos (data of size bytes, a power of 2) out and in. */
static void ring_out(const char *data, uint64_t size, uint64_t pos, void *dst, size_t n)
{
	size_t off = pos & (size - 1), first = n < size - off ? n : size - off;

	memcpy(dst, data + off, first);
	memcpy((char *)dst + first, data, n - first);
}

static void ring_in(char *data, uint64_t size, uint64_t pos, const void *src, size_t n)
{
	size_t off = pos & (size - 1), first = n < size - off ? n : size - off;

	memcpy(data + off, src, first);
	memcpy(data, (const char *)src + first, n - first);
}

/*
 * A sample's call chain in the proposal's form, in place: perf_event's
 * { u64 nr; u64 ips[nr]; }, where context marks (PERF_CONTEXT_*) say whose the
 * addresses that follow are, becomes { u16 nr, hv, kernel, user; u64 ips[nr]; },
 * where counts say it: the marks go, the addresses keep their order.  An address
 * before any mark is the sample's own mode's.  0 if the chain overruns the record.
 */
static int chain_to_2008(struct perf_event_header *h, uint64_t *w, unsigned int mode)
{
	uint64_t nr = w[0], i, n = 0, cnt[3] = { 0, 0, 0 };	/* hv, kernel, user */
	int ctx = mode == PERF_RECORD_MISC_KERNEL ? 1 : 2;

	if (nr > (h->size - ((char *)w - (char *)h)) / sizeof(*w) - 1)
		return 0;
	for (i = 0; i < nr; i++) {
		uint64_t ip = w[1 + i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			ctx = ip == (uint64_t)PERF_CONTEXT_HV ? 0 :
			      ip == (uint64_t)PERF_CONTEXT_KERNEL ? 1 : 2;
			continue;
		}
		cnt[ctx]++;
		w[1 + n++] = ip;
	}
	w[0] = n | cnt[0] << 16 | cnt[1] << 32 | cnt[2] << 48;
	h->size -= (nr - n) * sizeof(*w);
	return 1;
}

/*
 * A sample's group read in the proposal's form, in place: perf_event's
 * { u64 nr; [time_enabled; time_running;] { u64 value, id; } [nr] }, leader first
 * (times as the counter's read_format asks, which the proposal's record has not)
 * becomes { u64 nr; { u64 event, val; } cnt[nr]; }: event is the member's
 * hw_event.config, known by its id (~0 for a counter not opened by
 * perf_counter_open()), val its count.  What follows (a call chain) moves up.
 * The words after the group, or NULL if the group overruns the record.
 */
static uint64_t *group_to_2008(const struct pc_shim *s, struct perf_event_header *h,
			       uint64_t *w)
{
	uint64_t avail = (h->size - ((char *)w - (char *)h)) / sizeof(*w), nr = w[0];
	unsigned int t = __builtin_popcount(s->read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED |
							      PERF_FORMAT_TOTAL_TIME_RUNNING));
	uint64_t i, val, id, event, rest;
	unsigned int k;

	if (avail < 1 + t || nr > (avail - 1 - t) / 2)
		return NULL;
	rest = avail - 1 - t - 2 * nr;
	for (i = 0; i < nr; i++) {
		val = w[1 + t + 2 * i];
		id = w[2 + t + 2 * i];
		event = ~0ULL;
		for (k = 0; k < s->nmem; k++)
			if (s->mem[k].id == id)
				event = s->mem[k].config;
		w[1 + 2 * i] = event;
		w[2 + 2 * i] = val;
	}
	memmove(w + 1 + 2 * nr, w + 1 + t + 2 * nr, rest * sizeof(*w));
	h->size -= t * sizeof(*w);
	return w + 1 + 2 * nr;
}

/* The proposal's header of a perf_event record, or 0 for a record it has no type for. */
static int to_2008(const struct pc_shim *s, struct perf_event_header *h)
{
	unsigned int mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t *w = (uint64_t *)(h + 1);

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		h->type = s->record_type;
		h->misc = PERF_EVENT_MISC_OVERFLOW |
			  (mode == PERF_RECORD_MISC_KERNEL ? PERF_EVENT_MISC_KERNEL :
			   mode == PERF_RECORD_MISC_USER ? PERF_EVENT_MISC_USER : 0);
		/*
		 * IP, TID, TIME, ADDR a word each, then the group (perf_event's READ),
		 * then the chain: the proposal's order and perf_event's
		 */
		w += __builtin_popcount(s->record_type & (PERF_RECORD_IP | PERF_RECORD_TID |
							  PERF_RECORD_TIME | PERF_RECORD_ADDR));
		if ((s->record_type & PERF_RECORD_GROUP) && !(w = group_to_2008(s, h, w)))
			return 0;
		if (s->record_type & PERF_RECORD_CALLCHAIN)
			return chain_to_2008(h, w, mode);
		return 1;
	case PERF_RECORD_COMM:
		/* the same { pid, tid, comm[] }; the proposal has no exec flag */
		h->type = PERF_EVENT_COMM;
		h->misc = 0;
		return 1;
	case PERF_RECORD_MMAP:
		h->type = PERF_EVENT_MMAP;
		h->misc = mode == PERF_RECORD_MISC_KERNEL ? PERF_EVENT_MISC_KERNEL :
			  mode == PERF_RECORD_MISC_USER ? PERF_EVENT_MISC_USER : 0;
		return 1;
	default:
		return 0;
	}
}

static void shim_sync(struct pc_shim *s)
{
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)s->perf;
	struct perf_counter_mmap_page *up = (struct perf_counter_mmap_page *)s->user;
	uint64_t psz = sysconf(_SC_PAGESIZE), size = s->len - psz, head, tail;
	struct perf_event_header *h = (struct perf_event_header *)rec_buf;
	uint32_t uhead = up->data_head;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (head - tail >= sizeof(*h)) {
		ring_out(s->perf + psz, size, tail, h, sizeof(*h));
		if (h->size < sizeof(*h) || h->size > head - tail)
			break;
		ring_out(s->perf + psz, size, tail, rec_buf, h->size);
		tail += h->size;
		if (!to_2008(s, h))
			continue;
		ring_in(s->user + psz, size, uhead, rec_buf, h->size);
		uhead += h->size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	__atomic_store_n(&up->data_head, uhead, __ATOMIC_RELEASE);
}

void pc_ring_sync(int fd)
{
	int saved = errno;
	struct pc_shim *s;

	pthread_mutex_lock(&ring_lock);
	s = shim_find(fd);
	if (s && s->len)
		shim_sync(s);
	pthread_mutex_unlock(&ring_lock);
	errno = saved;		/* the caller's call answers */
}

/* 0, or EINVAL unless length is 1 + 2^n pages, as the proposal asks. */
static int ring_length_ok(size_t length)
{
	size_t psz = sysconf(_SC_PAGESIZE), n;

	if (!length || length % psz)
		return EINVAL;
	n = length / psz - 1;
	return n && !(n & (n - 1)) ? 0 : EINVAL;
}

static int shim_map(struct pc_shim *s, size_t length)
{
	struct perf_counter_mmap_page *up;
	void *perf, *user;

	if (s->len)
		return EBUSY;
	perf = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (perf == MAP_FAILED)
		return errno;
	user = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (user == MAP_FAILED) {
		munmap(perf, length);
		return errno;
	}
	up = user;
	up->version = 1;
	up->compat_version = 1;
	s->perf = perf;
	s->user = user;
	s->len = length;
	return 0;
}

void *perf_counter_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
	struct pc_shim *s;
	int err;

	if (pc_native_fd(fd)) {
		errno = ENODEV;		/* a native counter has no ring */
		return MAP_FAILED;
	}
	pthread_mutex_lock(&ring_lock);
	s = shim_find(fd);
	if (!s) {
		pthread_mutex_unlock(&ring_lock);
		return mmap(addr, length, prot, flags, fd, offset);
	}
	err = ring_length_ok(length);
	if (!err && (offset || !(prot & PROT_READ) || (prot & ~(PROT_READ | PROT_WRITE)) ||
		     flags != MAP_SHARED))
		err = EINVAL;
	if (!err)
		err = shim_map(s, length);
	if (!err)
		shim_sync(s);
	pthread_mutex_unlock(&ring_lock);
	if (err) {
		errno = err;
		return MAP_FAILED;
	}
	return s->user;
}

int perf_counter_munmap(void *addr, size_t length)
{
	struct pc_shim *s;

	pthread_mutex_lock(&ring_lock);
	for (s = shims; s; s = s->next) {
		if (s->len && s->user == addr) {
			if (length != s->len) {
				pthread_mutex_unlock(&ring_lock);
				errno = EINVAL;
				return -1;
			}
			shim_unmap(s);
			pthread_mutex_unlock(&ring_lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&ring_lock);
	return munmap(addr, length);
}

int perf_counter_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	int ret = poll(fds, nfds, timeout), saved = errno;
	nfds_t i;

	for (i = 0; fds && i < nfds; i++)
		pc_ring_sync(fds[i].fd);
	errno = saved;
	return ret;
}
