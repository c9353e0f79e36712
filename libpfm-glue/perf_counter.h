/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libperfmon: the 2008 "Performance Counters for Linux" proposal's
 * perf_counter_open() on perfmon.
 *
 *   #include <perf_counter.h>     (libpfm-glue/perf_counter.h; link with libperfmon.a)
 *
 * The names, numbers and struct perf_counter_hw_event are the proposal's.  Where
 * perf_event, its descendant, kept a name with the same value (PERF_TYPE_*,
 * PERF_FORMAT_TOTAL_TIME_*, struct perf_event_header) this header takes it from
 * <linux/perf_event.h>, so that both can be included.
 *
 * TWO PATHS
 *
 * perf_counter_open() translates the counter to a struct perf_event_attr (the
 * proposal's fields are the first ones of perf_event_attr, with the same values) and
 * calls pfm_perf_event_open(), perfmon's perf_event_open(2): the fd is then a real
 * perf_event fd, and read(), ioctl(), poll() and close() on it work as the proposal
 * says.  When perfmon has no pfm_perf_event_open() (ENOSYS from the system call,
 * ENOTTY from an older module's door; asked once per process), and for perfmon's own
 * raw events (PERF_COUNTER_RAW_PFM_SW, which perf_event has no encoding for), the
 * counter is made of native perfmon calls: the counters of one monitored thread (or
 * CPU) share one perfmon context, each counter one of its software counters,
 * started and stopped by its enable bit.  The fd is then a handle (an empty memfd):
 * read() on it returns 0 and ioctl() ENOTTY, so use the calls below, which serve
 * both kinds of fd (on a perf_event fd they are read(), ioctl(), close()).
 * A thread has at most one perfmon context: a thread counted by native counters
 * cannot also be counted by pfm_perf_event_open() counters, pmc_control() or native
 * perfmon calls, nor the other way round (EBUSY).
 *
 * WHAT MAPS (both paths unless a path is named; the perf_event path answers the
 * rest as pfm_perf_event_open does, except that its "no such event" (ENOENT) and
 * "cannot sample it" (EOPNOTSUPP) are the proposal's EINVAL)
 *
 *   config, raw_type 0:
 *     PERF_TYPE_SOFTWARE   CPU_CLOCK and TASK_CLOCK -> TASK_CLOCK (ns the thread
 *                          ran; for a CPU, wall-clock ns), PAGE_FAULTS,
 *                          CONTEXT_SWITCHES, CPU_MIGRATIONS -> the software events
 *                          of <perfmon/perfmon_sw.h>.  PAGE_FAULTS_MIN/MAJ: perfmon
 *                          does not tell minor from major faults -> EINVAL
 *     PERF_TYPE_HARDWARE   perf_event path: the ids 0-6 are perf_event's
 *                          PERF_COUNT_HW_* (same values), counted on the x86 PMU
 *                          perfmon drives (sampling too); EINVAL without one (a
 *                          VM without a virtual PMU).  Native path: EINVAL
 *     PERF_TYPE_TRACEPOINT no tracepoints in perfmon -> EINVAL; other types (perf
 *                          event's later HW_CACHE, RAW, BREAKPOINT) EINVAL
 *   config, raw_type 1:
 *     PERF_COUNTER_RAW_PFM_SW(ev): perfmon's software event ev (PFM_SW_EV_*, which
 *                          adds PFM_SW_EV_SYSCALLS), always native (perf_event has
 *                          no encoding for it); other raw encodings: an x86 event
 *                          select as perf_event's PERF_TYPE_RAW, perf_event path
 *                          only (EINVAL natively or without a PMU)
 *   irq_period           > 0, a sampling counter: perf_event path only (its
 *                          records are made from the perf_event ring, which a
 *                          perfmon without pfm_perf_event_open has not) -> EINVAL
 *                          natively.  An overflow record every irq_period events,
 *                          in the ring of perf_counter_mmap() below
 *   record_type          of a sampling counter: PERF_RECORD_IP, _TID, _TIME, _ADDR
 *                          (ADDR: the faulting address of a page fault, else 0),
 *                          _CALLCHAIN: the shim's user chain by frame pointers (the
 *                          sampled IP, then a return address per frame; code
 *                          built without frame pointers gives short or skipping
 *                          chains), in the proposal's { u16 nr, hv, kernel, user;
 *                          u64 ips[nr]; }: perf_event's context marks
 *                          (PERF_CONTEXT_USER, ...), which the proposal has not,
 *                          are dropped, its counts say whose the addresses are
 *                          (all user here: hv and kernel 0, user nr).
 *                          PERF_RECORD_GROUP: the proposal's { u64 nr; { u64
 *                          event, val; } cnt[nr]; }, leader first, after ADDR and
 *                          before CALLCHAIN (perf_event's READ is in the same
 *                          place), from the shim's PERF_SAMPLE_READ with
 *                          PERF_FORMAT_GROUP | PERF_FORMAT_ID, whose entries are
 *                          the other way round, { value, id }: event is the
 *                          member's hw_event.config (the proposal's "event_config"),
 *                          known by the id the library asks each counter's fd
 *                          for at its open (~0 for a member not opened by
 *                          perf_counter_open()), val its count at the overflow;
 *                          the times a read_format asks for are not in the
 *                          record.  perf_counter_read() of such a counter still
 *                          gives its own value (and the group's times: its
 *                          leader's; a plain read() gives perf_event's group
 *                          layout); a group of more than 64 members is the
 *                          shim's E2BIG.  Other
 *                          bits EINVAL.  Ignored for a counting counter
 *   wakeup_events        0: poll() says POLLIN for every page of records filled,
 *                          as the proposal says.  n > 0: every n overflows, and
 *                          every half ring filled rather than every page (the shim
 *                          wakes at one watermark or the other, not both)
 *   read_format          PERF_FORMAT_TOTAL_TIME_ENABLED, _RUNNING (equal: a
 *                          software counter is always on the PMU; the ns the thread
 *                          ran while the counter was enabled); other bits EINVAL
 *   disabled             yes; enable and disable with PERF_COUNTER_IOC_* below
 *   inherit              a copy of the counter in each child forked after the
 *                          open, whose counts a read adds; enable and disable reach
 *                          the copies.  perf_event path: the shim's inherit (also
 *                          grandchildren, every kind of fork; the counter and times
 *                          include them).  Native path: the library's fork handlers
 *                          (perf_counter_inherit.c): children of the calling thread
 *                          made by fork() (not vfork(), posix_spawn() or a raw
 *                          clone(), which skip them), not grandchildren; time
 *                          enabled/running are the parent's own; a read makes one
 *                          more system call per live child.  Other threads (pid of
 *                          another thread, CPU counters) -> EINVAL.  In a group,
 *                          the members' inherit must be the leader's -> EINVAL
 *   pinned, exclusive    accepted: a software counter always counts when enabled.
 *                          A pinned counter is never in the proposal's error state
 *                          (read() 0): perfmon does not multiplex perf events, so a
 *                          counter that does not fit is refused at the open
 *                          (EINVAL, or EBUSY for counters held by another user)
 *   exclude_user/kernel  the USR and OS levels of the software PMU; counting at
 *                          kernel level may need privilege (perfmon's EPERM)
 *   exclude_hv, exclude_idle  accepted, nothing to exclude in a thread's counts
 *   mmap                 perf_event path: PERF_EVENT_MMAP records of executable
 *                          mappings, written when an overflow's IP falls in a
 *                          mapping the ring was not told of yet (perfmon has no
 *                          hook on mmap() itself), before the overflow records
 *                          that follow; native path -> EINVAL
 *   munmap               perf_event has no munmap records, perfmon no hook on
 *                          munmap() -> EINVAL
 *   comm                 of a sampling counter, perf_event path: a PERF_EVENT_COMM
 *                          record { pid, tid, char comm[] } (the name and its NUL
 *                          to 8 bytes; misc 0) each time a
 *                          thread it counts takes a name while it is enabled:
 *                          prctl(PR_SET_NAME), a write of /proc/self/comm, an exec
 *                          (a fork gives no new name: no record).  A
 *                          counting counter (the shim writes records to sampling
 *                          counters' rings only) and the native path -> EINVAL
 *   extra_config_len, __reserved_*  must be 0 -> EINVAL
 *   pid                  0 the calling thread, > 0 that thread (attached as
 *                          perfmon attaches: EACCES, ESRCH, ...), < 0 with cpu >= 0:
 *                          every thread on that CPU (a perfmon CPU session; may need
 *                          privilege)
 *   cpu                  -1 wherever the thread runs; >= 0 with pid >= 0: perfmon
 *                          counts a thread on every CPU -> EINVAL; < -1 EINVAL;
 *                          pid < 0 with cpu -1 -> EINVAL
 *   group_fd             -1, or the leader: a native counter of the same thread or
 *                          CPU that is not a member itself (else EINVAL; EBADF for
 *                          an fd that is no counter)
 *   flags                must be 0 -> EINVAL
 *   hw_event NULL        EFAULT (other bad addresses fault in the caller)
 *   a 65th counter       on one thread or CPU (the library uses 64 software counters) -> ENOSPC
 *   no perfmon           ENOENT (the module is not loaded)
 *
 * THE RING BUFFER (perf_event path)
 *
 * The proposal mmap()s the counter fd; here perf_counter_mmap() does, with the
 * proposal's arguments: length 1 + 2^n pages, offset 0, prot PROT_READ (or with
 * PROT_WRITE), flags MAP_SHARED, else EINVAL; EBUSY if the counter is mapped
 * already; ENODEV for a native counter; the shim's errno for its own refusals
 * (EPERM past the locked-memory limit).  It returns the proposal's layout: struct
 * perf_counter_mmap_page, then the records (struct perf_event_header first), which
 * may run across the ring's end; data_head grows for ever (modulo 2^32), older
 * records are overwritten.  Records are MMAP, COMM and overflow records (perf
 * event's other types, FORK and EXIT among them, are dropped).  Overflow records
 * have the record_type bits as type
 * and PERF_EVENT_MISC_OVERFLOW | PERF_EVENT_MISC_USER (or _KERNEL) as misc.  The
 * kernel writes perf_event's ring; this library copies it into the mapping in
 * perf_counter_poll(), perf_counter_read() and perf_counter_ioctl() of the
 * counter, so data_head moves at those calls, not in between.  Records perf_event
 * loses (its ring full between two calls) are lost without a record: the
 * proposal's type 2 is MUNMAP, not perf_event's LOST.  index is 0 (no counter
 * read from user space), as the proposal has it on x86.
 *
 * NOTIFICATION: poll(), select() and epoll on a perf_event counter's fd say POLLIN
 * as the proposal says (perf_counter_poll() also refreshes the ring); signals by
 * fcntl(F_SETOWN, O_ASYNC) are not sent, the shim's fds have no fasync.
 *
 * The library's own calls are system calls: a counter of PFM_SW_EV_SYSCALLS that is
 * enabled counts the PERF_COUNTER_IOC_DISABLE that disables it, and a read while
 * enabled counts itself, as perfmon_sw.h says of pfm_stop and pfm_read_pmds.
 */
#ifndef _LIBPERFMON_PERF_COUNTER_H
#define _LIBPERFMON_PERF_COUNTER_H

#include <poll.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include <linux/perf_event.h>
#include <linux/prctl.h>
#include <perfmon/perfmon_sw.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_counter_hw_event {
	/*
	 * The MSB of the config word signifies if the rest contains cpu specific (raw)
	 * counter configuration data; if unset, the next 7 bits are an event type and
	 * the rest of the bits are the event identifier.
	 */
	__u64 config;
	__u64 irq_period;
	__u32 record_type;
	__u32 read_format;
	__u64 disabled : 1,		/* off by default */
	      inherit : 1,		/* children inherit it */
	      pinned : 1,		/* must always be on PMU */
	      exclusive : 1,		/* only group on PMU */
	      exclude_user : 1,		/* don't count user */
	      exclude_kernel : 1,	/* ditto kernel */
	      exclude_hv : 1,		/* ditto hypervisor */
	      exclude_idle : 1,		/* don't count when idle */
	      mmap : 1,			/* include mmap data */
	      munmap : 1,		/* include munmap data */
	      comm : 1,			/* include comm data */
	      __reserved_1 : 52;
	__u32 extra_config_len;
	__u32 wakeup_events;		/* wakeup every n events */
	__u64 __reserved_2;
	__u64 __reserved_3;
};

/* config: raw_type (bit 63), type (bits 56-62), event_id (bits 0-55) */
#define PERF_COUNTER_RAW_MASK		0x8000000000000000ULL
#define PERF_COUNTER_TYPE_MASK		0x7f00000000000000ULL
#define PERF_COUNTER_EVENT_MASK		0x00ffffffffffffffULL
#define PERF_COUNTER_TYPE_SHIFT		56
#define PERF_COUNTER_CONFIG(type, id)	(((__u64)(type) << PERF_COUNTER_TYPE_SHIFT) | (id))

/*
 * perfmon's raw encoding for its software PMU: bit 62 of the raw config marks it,
 * bits 0-7 are the event (PFM_SW_EV_*), every other bit 0.
 */
#define PERF_COUNTER_RAW_PFM_SW_BIT	(1ULL << 62)
#define PERF_COUNTER_RAW_PFM_SW(ev) \
	(PERF_COUNTER_RAW_MASK | PERF_COUNTER_RAW_PFM_SW_BIT | (__u64)(ev))

/* PERF_TYPE_HARDWARE, _SOFTWARE, _TRACEPOINT: <linux/perf_event.h>, same values. */

enum hw_event_ids {
	PERF_COUNT_CPU_CYCLES		= 0,
	PERF_COUNT_INSTRUCTIONS		= 1,
	PERF_COUNT_CACHE_REFERENCES	= 2,
	PERF_COUNT_CACHE_MISSES		= 3,
	PERF_COUNT_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_BRANCH_MISSES	= 5,
	PERF_COUNT_BUS_CYCLES		= 6,
};

enum sw_event_ids {
	PERF_COUNT_CPU_CLOCK		= 0,
	PERF_COUNT_TASK_CLOCK		= 1,
	PERF_COUNT_PAGE_FAULTS		= 2,
	PERF_COUNT_CONTEXT_SWITCHES	= 3,
	PERF_COUNT_CPU_MIGRATIONS	= 4,
	PERF_COUNT_PAGE_FAULTS_MIN	= 5,
	PERF_COUNT_PAGE_FAULTS_MAJ	= 6,
};

/* read_format: PERF_FORMAT_TOTAL_TIME_ENABLED (1), _RUNNING (2), <linux/perf_event.h> */

/* record_type of sampling counters (see above) */
enum perf_counter_record_format {
	PERF_RECORD_IP		= 1U << 0,
	PERF_RECORD_TID		= 1U << 1,
	PERF_RECORD_TIME	= 1U << 2,
	PERF_RECORD_ADDR	= 1U << 3,
	PERF_RECORD_GROUP	= 1U << 4,
	PERF_RECORD_CALLCHAIN	= 1U << 5,
};

/* The ring buffer's meta-data page and records (struct perf_event_header: perf_event.h). */
struct perf_counter_mmap_page {
	__u32 version;
	__u32 compat_version;
	__u32 lock;
	__u32 index;
	__s64 offset;
	__u32 data_head;
};

#define PERF_EVENT_MISC_KERNEL		(1 << 0)
#define PERF_EVENT_MISC_USER		(1 << 1)
#define PERF_EVENT_MISC_OVERFLOW	(1 << 2)

enum perf_counter_event_type {
	PERF_EVENT_MMAP		= 1,
	PERF_EVENT_MUNMAP	= 2,
	PERF_EVENT_COMM		= 3,
};

/* The ioctls and prctls kept their numbers in perf_event. */
#define PERF_COUNTER_IOC_ENABLE		PERF_EVENT_IOC_ENABLE
#define PERF_COUNTER_IOC_DISABLE	PERF_EVENT_IOC_DISABLE
#define PERF_COUNTER_IOC_REFRESH	PERF_EVENT_IOC_REFRESH
#define PR_TASK_PERF_COUNTERS_DISABLE	PR_TASK_PERF_EVENTS_DISABLE
#define PR_TASK_PERF_COUNTERS_ENABLE	PR_TASK_PERF_EVENTS_ENABLE

/* A new counter fd, or -1 with errno (above). */
int perf_counter_open(struct perf_counter_hw_event *hw_event, pid_t pid, int cpu,
		      int group_fd, unsigned long flags);

/*
 * read(): the count, then the read_format values in increasing bit order, one
 * __u64 each.  ENOSPC if count is smaller than that; EBADF for an fd that is no
 * counter.
 */
ssize_t perf_counter_read(int fd, void *buf, size_t count);
/*
 * ioctl(): PERF_COUNTER_IOC_ENABLE / _DISABLE (a leader's take its group with it in
 * one perfmon call, so no member counts another's switch; a member's only itself);
 * PERF_COUNTER_IOC_REFRESH: the shim's (an overflow counter enabled for nr overflows,
 * then disabled; EINVAL on a counting or inherited one), EINVAL natively (no
 * overflow counters there);
 * anything else ENOTTY on a native counter, the shim's answer on a perf_event one.
 */
int perf_counter_ioctl(int fd, unsigned long request, unsigned long arg);
/*
 * mmap() and munmap() of the counter's ring (see THE RING BUFFER above; other
 * addresses and fds get the plain calls).  perf_counter_close() unmaps it too.
 */
void *perf_counter_mmap(void *addr, size_t length, int prot, int flags, int fd,
			off_t offset);
int perf_counter_munmap(void *addr, size_t length);
/* poll(), then the rings of the fds polled are brought up to date. */
int perf_counter_poll(struct pollfd *fds, nfds_t nfds, int timeout);
/* close(): a closed leader's members go on as groups of their own. */
int perf_counter_close(int fd);
/*
 * prctl(PR_TASK_PERF_COUNTERS_ENABLE / _DISABLE): every group leader counting the
 * calling thread that this process opened for it, on both paths (the prctl itself
 * reaches only the kernel's own perf_events, not perfmon's), and the kernel's
 * perf_events ones by the prctl.  Counters another process made on this thread are
 * out of reach: -1 with the errno of the first enable or disable that failed.
 */
int perf_counter_task_enable(void);
int perf_counter_task_disable(void);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFMON_PERF_COUNTER_H */
