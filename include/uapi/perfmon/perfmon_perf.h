/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the perf_event_open compatibility layer (kernel/perfmon/perf/), the
 * rules it follows and every way it differs from Linux 6.1's perf_events.
 *
 * PERF_EVENT_OPEN COMPATIBILITY
 *
 *   fd = pfm_perf_event_open(struct perf_event_attr *attr, pid, cpu, group_fd, flags)
 *
 * takes the arguments of perf_event_open(2), with the same types and meaning, and
 * returns an fd that behaves as a perf_event fd: read(), ioctl(PERF_EVENT_IOC_*),
 * mmap(), poll(), fcntl() and close() on it are its own file operations.  A bad
 * argument gets the errno perf_event_open(2) gives it, found in the same order; in
 * particular attr == NULL is EFAULT (libperfmon's preload relies on it to tell this
 * call from a kernel that lacks it: ENOSYS from the system call, ENOTTY from the
 * ioctl).  pid, cpu and group_fd are ints (the system call truncates them, as
 * perf_event_open does); flags is an unsigned long (PERF_FLAG_*).  Over the ioctl
 * door the arguments travel in struct pfarg_ioc_perf_open, one __u64 each, truncated
 * as the system call truncates them.
 *
 * It counts, and samples with a period.  What it does:
 *   - Events: PERF_TYPE_SOFTWARE, every config below PERF_COUNT_SW_MAX.  Counted:
 *     TASK_CLOCK and CPU_CLOCK (the thread's runtime in ns as the scheduler counts
 *     it, where 6.1 loses a little at each switch; on a CPU event wall-clock time),
 *     PAGE_FAULTS and PAGE_FAULTS_MIN (every fault perfmon sees is counted as
 *     minor), CONTEXT_SWITCHES, CPU_MIGRATIONS.  Always 0: PAGE_FAULTS_MAJ,
 *     ALIGNMENT_FAULTS and EMULATION_FAULTS (x86 Linux raises neither),
 *     DUMMY, BPF_OUTPUT and CGROUP_SWITCHES.  PERF_TYPE_HARDWARE, HW_CACHE and
 *     RAW on the hardware PMU's counters, as <perfmon/perfmon_x86.h> (PERF
 *     EVENTS) says; without a hardware PMU (model "software", as under QEMU's
 *     TCG) they are ENOENT, as perf_events answers without one.
 *     PERF_TYPE_TRACEPOINT, config the tracefs event id (events/<sys>/<ev>/id):
 *     the software PMU's TRACEPOINT event keyed by the id (perfmon_sw.h),
 *     counted per thread, inherited and per CPU, each hit by the amount the
 *     trace event gives (its __perf_count(), else 1); exclude_kernel drops the
 *     hits whose registers are not at user level, as 6.1 (a system call
 *     event's are: it counts with exclude_kernel too).  Its source
 *     (kernel/perfmon/trace/) opens, while some event names the id, an
 *     in-kernel perf counter (perf_event_create_kernel_counter()) on each
 *     online CPU on the trace event, sampling every hit, whose overflow
 *     handler counts the hit for the current thread with the record the trace
 *     event's own perf probe built (perf_tp_event()'s raw data): that is the
 *     only way a module has to the exact record (the probes, trace_syscalls.c's
 *     for syscalls:*, and the trace event behind an id are not exported).  The
 *     kernel's perf_events is thus used inside, never a user's
 *     perf_event_open.  A config of 2^31 or more EINVAL (no tracefs id is
 *     that high; those keys name filtered hits, perfmon_sw.h); an id with no
 *     trace event, the kernel counter's errno (EINVAL, as 6.1).  A CPU
 *     brought online later gets the id's counters from a work item the
 *     source's CPU hotplug callback queues (creating a tracepoint counter
 *     takes event_mutex and static keys, which a hotplug callback cannot):
 *     difference, its hits count from a moment after it is online, where
 *     6.1 counts a thread's event there at once (a CPU event on it, opened
 *     once it is online, counts as 6.1's; one whose counter could not be made
 *     there is logged, and its hits are not counted).  Difference: a hit
 *     that perf_events' recursion guard drops (a trace event inside
 *     another's perf probe on one CPU) is not counted.
 *     PERF_TYPE_BREAKPOINT: below.  On a hybrid machine, cpu_atom's PMU's type
 *     number too, and the extended type of HARDWARE and HW_CACHE
 *     (<perfmon/perfmon_x86.h>, HYBRID).  Every other type (dynamic PMUs) and
 *     config: ENOENT (libperfmon's preload then asks the kernel: below).
 *   - Breakpoints (PERF_TYPE_BREAKPOINT): HW_BREAKPOINT_W, RW and X with
 *     bp_addr and bp_len, per thread (inherit and inherit_thread as other
 *     events), a thread on one CPU, or CPU-wide.  The debug registers are
 *     the kernel's hardware breakpoint service's, which ptrace, kgdb and
 *     perf_events share: the layer never writes DR7; each event, and each
 *     inherited copy, holds one breakpoint of that service
 *     (perf_event_create_kernel_counter(), as register_user_hw_breakpoint()
 *     and register_wide_hw_breakpoint() make theirs; modify_user_hw_breakpoint();
 *     unregister_hw_breakpoint()), so the refusals are the service's own, as
 *     perf_event_open(2) gets them: a bad bp_type (R alone on x86, EMPTY, W|X),
 *     bp_len or alignment, an address range that wraps or touches the CPU
 *     entry area, a kernel address with exclude_kernel EINVAL; a kernel
 *     address without CAP_SYS_ADMIN EPERM; ENOSPC when the thread's or CPU's
 *     four debug registers are taken (by any user of the service).  They
 *     are found when the event takes its breakpoint, after the checks of
 *     the group and the thread's context, where 6.1 finds them before.  Each
 *     hit is counted by the software PMU's keyed BREAKPOINT event
 *     (perfmon_sw.h) under an id the layer gives the breakpoint, in the
 *     thread that made the access (the service's handler): counts, levels
 *     (exclude_user, exclude_kernel, filtered by the service as 6.1's
 *     perf_exclude_event()), sampling as a software event's (with
 *     PERF_SAMPLE_PERIOD and a fixed period every hit with PERIOD 1; IP
 *     where the thread is after the hit: the instruction after the access
 *     of a watchpoint, the breakpoint's of an X; ADDR bp_addr), O_ASYNC
 *     signals, REFRESH, sigtrap.  A hit the kernel takes on its own access
 *     to the watched user memory (exclude_kernel=0) comes in the debug
 *     exception's NMI-like context and is counted from an irq_work that runs
 *     as it returns, in the same thread.  The breakpoint stays armed while
 *     the event is open: a disabled event's hits cost a debug exception and
 *     count nothing.  A perfmon2 session may name a breakpoint's id in a PMC
 *     while the event lives (ENOENT otherwise) and counts its hits where
 *     they happen.
 *   - Levels as perf_events counts them: the clocks at any level; page faults by
 *     the level that took them (exclude_user, exclude_kernel); context switches
 *     and migrations happen in the kernel, so exclude_kernel=1 reads 0.
 *     exclude_hv, exclude_idle, exclude_guest and exclude_host are accepted.
 *     An exiting thread is counted until its exit tracepoint
 *     (sched_process_exit), where perfmon detaches; perf_events counts it a
 *     little longer, until perf_event_exit_task(), after exit_files(),
 *     exit_task_work() (the last fput() of each of its files) and
 *     exit_task_namespaces().  What the thread does there is counted by
 *     perf_events only: the context switches of those steps (closing the
 *     write end of a pipe wakes its reader, as perf's, which may preempt the
 *     thread; release methods may sleep) and their CPU time.  In the guest
 *     that is a few more context switches per exiting task natively.
 *   - Targets: pid 0 (the caller) or a thread id, cpu -1: the thread is counted
 *     wherever it runs.  pid -1 with a cpu (CPU events) counts what happens on
 *     that CPU, whoever runs there: all the CPU's events share its one perfmon
 *     CPU session (PFM_FL_SYSTEM_WIDE, loaded on the CPU), made by the first of
 *     them and unloaded with the last.  They count (page faults by level, context
 *     switches and migrations into the CPU at kernel level, the clocks), read
 *     their times and groups, ENABLE, DISABLE, RESET, ID; CPU_CLOCK and
 *     TASK_CLOCK both count wall-clock time while enabled, idle or not, as
 *     6.1 counts both on a CPU, and time_enabled == time_running are that
 *     wall-clock time too.  Refusals, in 6.1's order: cpu -1 (pid -1, cpu -1) or
 *     out of range EINVAL; privilege EACCES as 6.1's perf_allow_cpu()
 *     (perfmon's paranoid > 0 without CAP_PERFMON, or sys_group); a member on another CPU or a thread's event in a CPU group
 *     EINVAL; an offline CPU ENODEV.  CPU events and thread events coexist,
 *     as on 6.1 (perf record -a beside perf stat -p): a thread's software
 *     events count for its own events and for the CPU events of the CPU it
 *     runs on, each exactly as alone (a page fault of the thread counts in
 *     both), and each overflow samples for its own event.  A CPU event on a
 *     CPU that has a CPU session of someone else's (pfm_create_context, one
 *     per CPU) is EACCES (tools such as perf fall back to per-thread events on
 *     EACCES).  Hardware counters keep perfmon's rule (perfmon.h, ATTACHING):
 *     a hardware event while sessions of the other kind (a thread's events or
 *     perfmon context, a CPU's) use hardware counters is EBUSY, where 6.1
 *     would multiplex them.  A CPU's groups all fit in
 *     one event set: a group that does not fit beside the others is EINVAL,
 *     not multiplexed (so a sampling software or tracepoint event past the
 *     layer's 32 software counters on a CPU is EINVAL; perf sched record's
 *     dozen fit).  inherit and enable_on_exec mean nothing on a CPU
 *     (accepted; enable_on_exec never fires, as in 6.1).  A CPU going offline
 *     detaches its session: counts stay readable, and the CPU back online takes
 *     new events.  CPU events sample as thread events do (below), whoever runs
 *     on the CPU: TID is the thread the event happened in (0 for the idle
 *     task), IP where it happened (for the clocks, what their timer
 *     interrupted: the idle loop or a kernel thread at a kernel IP, misc
 *     KERNEL); the call chain is the thread's user chain, empty for a kernel
 *     thread.  FORK, EXIT and COMM of every thread on the CPU go to its CPU
 *     events (Side-band records, below).
 *     Cgroup events (PERF_FLAG_PID_CGROUP, pid a cgroup v2 directory's fd,
 *     as perf stat -G and --for-each-cgroup open them) are CPU events that
 *     count only while a task of that cgroup, or of one below it, runs on
 *     the CPU: each takes a counter of its own, switched on and off by its
 *     enable bit at every context switch there (a probe on the sched_switch
 *     tracepoint, registered while cgroup events exist), so counts, groups
 *     and samples are the cgroup's alone, as 6.1's.  Refusals: cpu -1
 *     EINVAL (first, as 6.1); an fd that is no cgroup v2 directory EBADF
 *     (a cgroup v1 perf_event hierarchy's directory too, which 6.1
 *     accepts); a cgroup without perf_event's state ENOENT, as 6.1 (on v2
 *     new cgroups get it once some controller is enabled below the root,
 *     as an init system does); a member of another cgroup than its
 *     leader's EINVAL; a kernel without CONFIG_CGROUP_PERF EINVAL.
 *     time_enabled and time_running are both the time tasks of the cgroup
 *     ran on the CPU while the event was enabled, as 6.1's cgroup time (the
 *     probe's gate times it).  Not as 6.1: a cgroup hardware event
 *     takes a general-purpose counter, never a fixed one (their enable
 *     bits are one register).  A pid with a cpu (perf record's one event per
 *     CPU for one thread) counts and samples only what the thread does on
 *     that CPU, as 6.1's: its counter is its own, switched on when the
 *     thread is switched in on that CPU and off elsewhere, by the same probe
 *     (so N such events of a thread take N counters, multiplexed in event
 *     sets past the layer's 32 software counters, and past eight sets EINVAL; a
 *     hardware one takes a general-purpose counter, and one only a fixed
 *     counter counts, ref-cycles, is EINVAL).  time_enabled is the
 *     thread's time while enabled, time_running its part on that CPU, as
 *     6.1 keeps such an event inactive while the thread runs elsewhere.
 *     A group's members are on their leader's cpu
 *     (else EINVAL).  Attaching takes perfmon's access rules
 *     (ATTACHING, ACCESS); privilege refusals are EACCES, never EPERM, and
 *     kernel-level counting (exclude_kernel=0) is privileged as the software
 *     PMU's OS bit is (paranoid >= 2 without CAP_PERFMON: EACCES).
 *   - All events on one thread share one perfmon context on that thread (the
 *     thread's one context: a thread with a context of its own, pfm_create_context
 *     and pfm_load_context, refuses events with EBUSY, and refuses
 *     pfm_load_context with EEXIST while it has events).  The thread's events
 *     that count the same event at the same levels share one counter, each
 *     with its own intervals: at most six software counters are in use, so
 *     every counting software event fits; a sampling event takes a software
 *     counter of its own.  Groups that do not fit the counters together are
 *     multiplexed as perf_events does: each group counts in one of the
 *     context's event sets (up to 8, each with its own counters and PMDs),
 *     which switch every /sys/kernel/perfmon/perf_mux_interval_ms (1..10000,
 *     default 4, as perf_event_mux_interval_ms; for sets made from then on) of
 *     the thread's time; a group goes to the first set where it fits, else to
 *     a new one; an exclusive hardware group gets a set of its own (a software
 *     group is never exclusive, as with perf_events).  A multiplexed sampling
 *     event samples what happens in its set's turns, each overflow going to
 *     the event of the set it happened in.  A flexible group that does not fit
 *     even alone beside the pinned groups, a member that does not fit beside
 *     its leader, or a ninth set are EINVAL; EBUSY where a counter is held by
 *     someone else.
 *     Pinned groups (attr.pinned on the leader) are in every set, each event on
 *     one counter index in every set: they count in every turn (time_running
 *     == time_enabled).  A pinned group that fits alone but not beside the
 *     groups already in some set (the other pinned groups, or flexible groups
 *     there) cannot be scheduled: it counts nothing and, once enabled, is in
 *     perf's ERROR state as in 6.1: read() of its leader returns 0 bytes
 *     (end of file, before the ENOSPC check; a member reads its own record,
 *     nothing counted), DISABLE leaves the state, ENABLE of the leader
 *     schedules the group again if it fits now (else ERROR again); RESET, ID,
 *     mmap() and poll() work as for any event.
 *     Not as perf_events: software events always fit there, here they are
 *     limited by the layer's 32 software counters (the 33rd sampling event is
 *     multiplexed, or for a pinned one in ERROR), and a software group beside
 *     multiplexed groups counts in its set's turns only; a pinned group does
 *     not push flexible groups out of a set (perf_events schedules pinned
 *     groups first), it is in ERROR instead; a flexible group that fits no
 *     set beside the pinned groups is refused (EINVAL) rather than never
 *     running; a sampling event of a pinned group, multiplexed, has a sampling
 *     PMD in each set, each reaching the period on its own (a sample every
 *     period events of one set's turns); a set whose groups closed keeps its
 *     turn until the thread's last event closes.
 *     /sys/kernel/perfmon/perf_targets_count and perf_events_count show the
 *     threads and CPUs that have events, and the events.
 *   - attr: size 0 (= PERF_ATTR_SIZE_VER0) up to PAGE_SIZE; beyond what the
 *     kernel knows the tail must be zero, else E2BIG with the supported size
 *     written back (also for a size below VER0 or above PAGE_SIZE).  disabled,
 *     enable_on_exec (the events start before the new image's first
 *     instruction), inherit (children and threads created later are counted in
 *     copies whose counts and times a read adds; enable, disable and reset reach
 *     the copies; with inherit_thread only threads of the same process).
 *     Differences in the kernel-level counts of both: an enable_on_exec event
 *     starts once the new image is loaded, where 6.1 starts it as the old image
 *     is dropped (begin_new_exec()), so the kernel's work of loading the image
 *     (its page faults on the new stack and bss: 1 to 3) is not counted; an
 *     inherited copy counts from the child's first return to user mode, where
 *     6.1's counts from its first switch in, so the child's kernel work before
 *     (such as the write of its tid for CLONE_CHILD_SETTID, a fault on a page
 *     shared with the parent until then) is not counted.  Then remove_on_exec
 *     and sigtrap (Signals, below), pinned and exclusive (leaders only, else
 *     EINVAL).
 *     sample_period and sample_freq sample (below; sample_type is ignored
 *     while counting); branch stacks and aux_output EOPNOTSUPP; precise_ip
 *     on a hardware event EOPNOTSUPP, as 6.1's x86 PMU without PEBS says
 *     (perf lowers precise_ip on each failure until it opens).
 *   - Groups: group_fd names a leader on the same thread (another thread or a
 *     member: EINVAL; not an event fd: EBADF); a member counts while it and its
 *     leader are enabled, and the group starts and stops as a unit.  Closing a
 *     leader makes its members leaders of their own.
 *   - read(): the read_format layout of perf_event_open(2) (TOTAL_TIME_ENABLED,
 *     TOTAL_TIME_RUNNING, ID, GROUP, LOST), exactly its size; ENOSPC for a
 *     shorter buffer; 0 bytes for a pinned group's leader in ERROR (above).
 *     time_enabled is the thread's time on a CPU while the event was enabled
 *     (for a CPU event: wall-clock time while it was enabled; a cgroup
 *     event's and a thread's event on one CPU: above),
 *     time_running the part of it its group's set was active (all of it for a
 *     pinned group): equal unless the group is multiplexed (as perf_events
 *     reports per-thread events; a group's members have their leader's times,
 *     and count * time_enabled / time_running estimates the full count); LOST
 *     is 0.  Counts stay readable after the thread exits.
 *   - ioctl(): ENABLE, DISABLE, RESET (with PERF_IOC_FLAG_GROUP: the whole
 *     group), ID, PAUSE_OUTPUT (EINVAL without a ring of data pages); REFRESH
 *     (below; EINVAL for a counting or inherit event), PERIOD (after reading
 *     its argument, EFAULT; EINVAL for a counting event, 0, a frequency above
 *     the maximum rate or a period of 2^63 or more): with freq the new
 *     sample_freq, else the new period, counted from now (the period in
 *     progress is dropped, as perf restarts the event; the count goes on; an
 *     inherited copy keeps its period).  Difference: on an event enabled at
 *     the time, 6.1 samples the next occurrence at once and runs the new
 *     period less one from there; the shim counts a whole new period.
 *     SET_FILTER (below), SET_OUTPUT (below); MODIFY_ATTRIBUTES after the
 *     attr checks (EFAULT, E2BIG, EINVAL): another type EINVAL, a type other than
 *     BREAKPOINT EOPNOTSUPP; on a breakpoint, as 6.1, sig_data is taken,
 *     the event disabled, the new attr must equal the old but for bp_addr,
 *     bp_type, bp_len and disabled (EINVAL), the service moves the
 *     breakpoint (its parse's EINVAL and EPERM, ENOSPC), then the event is
 *     enabled unless the attr says disabled (the new one's if the change was
 *     made, else the one it was opened with); its inherited copies follow,
 *     the first refusal stopping there.  Any other command ENOTTY.
 *   - SET_FILTER(string): on a tracepoint event, the tracefs filter language
 *     ("pid == 42 && common_pid != 7"), parsed and matched by the kernel's
 *     own filter code as 6.1's: the event counts (and samples) only the hits
 *     whose record passes, from then on (the count so far stays), its copies
 *     inherited from then on too.  The tracepoint's source opens, per id and
 *     filter string, in-kernel counters of its own that carry the filter
 *     (ftrace_profile_set_filter(), the function behind 6.1's SET_FILTER;
 *     perf_events then runs filter_match_preds() on each hit before the
 *     source sees it), and the event's counter is rewritten to count that
 *     source.  ftrace_profile_set_filter() is global but not exported:
 *     built into the kernel the layer calls it; the module takes its address
 *     at load from a kprobe registered on it and unregistered at once (a
 *     kprobe that never fires), since no exported function reaches the
 *     parser for a perf counter (the tracefs filter files filter the ftrace
 *     ring buffer, not perf); without kprobes, or with IBT, every filter is
 *     EINVAL and the kernel log says so.  Refusals as 6.1: a string at a bad
 *     address EFAULT, an event of another type EINVAL (no address filters),
 *     a second filter EEXIST, a filter the parser refuses EINVAL.  Not as
 *     6.1: an event that shares its counter with another event of the thread
 *     (an equal tracepoint event, perfmon shares their counter) or that has
 *     inherited copies already is EBUSY (rewriting the shared counter would
 *     filter the other event; the copies count on counters of their own);
 *     perf's tools set filters before they enable or fork.
 *   - prctl(PR_TASK_PERF_EVENTS_ENABLE / _DISABLE), as 6.1: every event the
 *     calling thread opened (its owner; wherever the event counts: the
 *     thread, another one, a CPU) is enabled or disabled as ioctl(ENABLE or
 *     DISABLE) without PERF_IOC_FLAG_GROUP does it, its inherited copies
 *     included; a group's other events only if the thread opened them too.
 *     Events another thread opened are not touched, and an event whose
 *     opener exited is no one's.  prctl() has no hook for a module: the
 *     layer puts a kprobe on the kernel's perf_event_task_enable() and
 *     perf_event_task_disable(), which prctl calls, so a static program or
 *     a raw syscall(SYS_prctl) is served without the preload; the change is
 *     made before the prctl returns to user mode.  Where the kprobes cannot
 *     be registered (a kernel without CONFIG_KPROBES or CONFIG_PERF_EVENTS;
 *     the kernel log says so when the layer starts) the prctl is not
 *     honoured for this layer's events, only for perf_events' own; nor is
 *     it when the kernel has no memory for the request at the prctl
 *     (an atomic allocation of a few bytes).
 *   - Signals: with O_ASYNC (fcntl F_SETFL; F_SETOWN or F_SETOWN_EX names the
 *     owner, F_SETSIG the signal), every overflow of a sampling event sends
 *     the owner SIGIO, or F_SETSIG's signal with si_code POLL_IN and si_fd the
 *     event's fd, as perf_events does (an inherited copy's: the opened
 *     event's owner).  REFRESH(n) adds n to the event's overflow limit and
 *     enables it; the overflow that takes the limit to 0 is recorded, its
 *     signal has si_code POLL_HUP, and the event is disabled before the
 *     thread returns to user mode (its count stops there); a later ENABLE
 *     samples without a limit.  attr.sigtrap (with remove_on_exec, else
 *     EINVAL; on a CPU EINVAL), on any type: each overflow that is sampled
 *     (not throttled, not excluded by its level) sends the thread the event
 *     is on SIGTRAP, si_code TRAP_PERF, si_perf_data sig_data (as
 *     MODIFY_ATTRIBUTES last set it), si_perf_type the type, si_addr the
 *     sample's ADDR (a breakpoint's bp_addr, a fault's address, else 0),
 *     si_perf_flags TRAP_PERF_FLAG_ASYNC if SIGTRAP is blocked, as 6.1's
 *     send_sig_perf(); sent by the thread to itself before it returns to
 *     user mode (overflows marked before then give one signal, the last
 *     one's address).  Differences: opening a sigtrap event on another
 *     thread takes the layer's attach rule (ptrace read), where 6.1 asks
 *     ptrace attach or CAP_PERFMON with CAP_KILL (a module cannot call
 *     ptrace_may_access()); a copy is inherited also by a clone with
 *     CLONE_CLEAR_SIGHAND, which the fork tracepoint does not tell.
 *     attr.remove_on_exec: at the exec of the event's thread, before the
 *     new image runs, an inherited copy is folded into its opened event
 *     and freed, and an opened event stops counting for good (6.1's EXIT
 *     state: ENABLE does nothing, its count and times stay readable; its
 *     group is not broken up, its owner's prctl still finds it and does
 *     nothing).
 *   - SET_OUTPUT(fd): the event's records (samples, LOST, THROTTLE, side-band)
 *     go to the ring of the event fd names, as perf record sends the events of
 *     one CPU into one ring; SET_OUTPUT(-1): to no ring.  Refused as Linux 6.1
 *     refuses it: fd not an event of this layer EBADF; the event itself, an
 *     event of another cpu, an event of another thread when cpu is -1, another
 *     clock (use_clockid, clockid) or direction (write_backward), an event
 *     mapped itself now, or a ring mapped by nobody now: EINVAL (nothing
 *     changes).  A redirected event's mmap() of the ring's size maps that ring
 *     (another size EINVAL); poll() of it says what its ring's wakeups say.
 *     PERF_FLAG_FD_OUTPUT at open does the same into group_fd's ring (its
 *     refusals refuse the open).
 *   - mmap(): 1 + 2^n pages (n >= 0, or one page), MAP_SHARED, offset 0, not
 *     an inherit event on every CPU (cpu -1, as perf_mmap()), else
 *     EINVAL: a struct perf_event_mmap_page with lock even, index 0 (no
 *     user-mode counter read), offset = the count, time_enabled, time_running,
 *     pmc_width 64, refreshed by read(); data_offset = one page, data_size =
 *     2^n pages, aux_size 0, cap_user_time* 0.  While a ring is mapped, a
 *     new mapping of another size is EINVAL; an event's last munmap() takes it
 *     from its ring, a ring's last munmap() takes every event from it (their
 *     records are dropped, poll() says EPOLLHUP), and the next mmap() makes a
 *     new ring, of any size, as perf_events does.  Mapped writable,
 *     data_tail is honoured (a record that does not fit is lost); read-only,
 *     the ring overwrites.  attr.write_backward (perf record --overwrite's
 *     ring) writes as 6.1: each record (and the LOST before it) just below
 *     the previous one, data_head going down from 0 (mod 2^64) to the newest
 *     record's start, so that a reader walks from data_head up, newest
 *     first; read-only it overwrites the oldest records, writable it keeps
 *     the space from data_tail down to data_head (6.1's reverse check).
 *     PAUSE_OUTPUT pauses a backward ring as a forward one: records are
 *     lost and counted, and the next one written after the resume is
 *     preceded by their LOST.
 *     A ring's pages are locked memory as perf_mmap() counts them: each user
 *     has /sys/kernel/perfmon/perf_event_mlock_kb (perf_event_mlock_kb's 516
 *     by default) per online CPU, then the mapping process's RLIMIT_MEMLOCK
 *     (pinned_vm); past both EPERM, unless paranoid is -1 or the caller has
 *     CAP_IPC_LOCK.
 *   - Sampling (sample_period): the event's counter (a software one, or a
 *     hardware one for HARDWARE, HW_CACHE and RAW) is a perfmon
 *     sampling PMD of its own, reset to -period at each overflow by the core;
 *     the perf layer's "perf_ring" sampling format (not usable with
 *     pfm_create_context) routes each overflow of the thread's context to the
 *     event that owns the PMD in the set it overflowed in, which writes PERF_RECORD_SAMPLE into its ring
 *     (an inherited copy into the opened event's ring).  Page faults, context
 *     switches, the clocks and hardware events sample; with PERF_SAMPLE_PERIOD and a fixed
 *     period, page faults and context switches sample every occurrence with
 *     period 1, as 6.1's perf_swevent_event() does (the clocks by a timer that fires at the
 *     counter's carry; a timer late by whole periods skips them, as perf's
 *     clock events do, and read() still counts them; the core's reload of the
 *     PMD after a carry, a read then a write, does not count the few
 *     microseconds between them).  A hardware event samples every period
 *     events, any period below 2^63: a period beyond the counter's width
 *     takes PMU interrupts on the way without a sample (the core's 64-bit
 *     emulation), as perf's x86 driver programs at most its max_period and
 *     samples when the whole period is done.  Fields, in the kernel's
 *     order: IDENTIFIER, IP (where the event happened: the faulting
 *     instruction of a page fault, the instruction a clock's timer
 *     interrupted, the one a hardware event's PMU interrupt hit; a kernel one,
 *     misc KERNEL, if the event counts the kernel (exclude_kernel=0), else the
 *     thread's user-mode IP, misc USER, also when a PMU interrupt skidded into
 *     the kernel; a software event that excludes the kernel takes no sample
 *     where its timer interrupted the kernel, as 6.1's perf_exclude_event(),
 *     its period still counted; context switches and migrations, and an
 *     overflow first seen by a read or a context switch, the user-mode IP,
 *     where 6.1 gives the scheduler's; overflows one interrupt reports
 *     together take the first's IP), TID (the sampled thread's namespace),
 *     TIME (local_clock(), perf's clock), ADDR (the faulting address, else 0;
 *     always 0 for hardware events: no PEBS or IBS),
 *     ID (the opened event's), STREAM_ID (the event's own), CPU, PERIOD, READ
 *     (with PERF_FORMAT_GROUP: the sampled event's times and every member's
 *     count and id, leader first; E2BIG for a group of more than 64 events whose
 *     samples read it, where perf's limit is a 16 KiB record), CALLCHAIN
 *     (below), RAW (a tracepoint's record as its tracefs format file lays it
 *     out, common fields first, in perf's u32 size and zero padding; 4 zero
 *     bytes for other events, as perf), REGS_USER (the thread's user-mode
 *     registers: the frame saved at its entry into the kernel; ABI NONE for
 *     a kernel thread), STACK_USER (sample_stack_user bytes from the user
 *     stack pointer, less where user space or the record's 64 KiB end, then
 *     the bytes read before the first that would fault), WEIGHT and
 *     WEIGHT_STRUCT 0, DATA_SRC PERF_MEM_NA, TRANSACTION 0 (no PEBS, IBS or
 *     TSX), REGS_INTR (the registers of the fault, of the interrupt a clock's
 *     timer took, of a tracepoint's call site; where they are not kept, a
 *     breakpoint's hit or a PMU interrupt's, the user-mode ones for a sample
 *     taken in user mode and ABI NONE for one in the kernel), PHYS_ADDR (ADDR's
 *     physical address where its page is mapped, else 0), CGROUP (the id of
 *     the thread's perf_event cgroup), DATA_PAGE_SIZE and CODE_PAGE_SIZE (the
 *     page tables' entry for ADDR and the IP, 0 where none), AUX (size 0).
 *     The register masks as 6.1's x86-64: DS, ES, FS, GS, a reserved bit or
 *     an empty mask EINVAL, an XMM register EOPNOTSUPP (in either mask,
 *     sampled or not); aux_sample_size EINVAL (no AUX event to lead the
 *     group); BRANCH_STACK EOPNOTSUPP.
 *     RAW of a tracepoint needs paranoid -1 or CAP_PERFMON (EPERM), as
 *     perf_allow_tracepoint(), but for a thread's event (pid 0 or more) on a
 *     trace event marked for any user (TRACE_EVENT_FL_CAP_ANY: the syscalls:*
 *     ones), as 6.1's perf_trace_event_perm(); an id that names no trace
 *     event is EINVAL first.  CALLCHAIN: for a sample
 *     taken in the kernel (misc KERNEL) PERF_CONTEXT_KERNEL, the IP and its
 *     callers as the kernel's unwinder gives them (stack_trace_save(), the
 *     frames of the overflow path and the interrupt skipped up to the IP;
 *     the IP alone where the unwinder does not reach it), left out with
 *     exclude_callchain_kernel; then, for a thread with a user context, the
 *     user chain perf_callchain_user() gives on x86-64: PERF_CONTEXT_USER,
 *     the user IP, then each caller's return address through the frame
 *     pointers (rbp), read without faulting; code without frame pointers
 *     gives short or skipping chains, as with perf_events (no STACK_USER for
 *     DWARF unwinding); exclude_callchain_user leaves it out (nr 0 with
 *     both).  sample_max_stack (0: 127) bounds the addresses of both parts,
 *     not the marks, as perf's; above 127 it is EOVERFLOW at open, counting
 *     or sampling.  sample_id_all adds the kernel's trailer
 *     (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER) to LOST records.  A full
 *     ring or PAUSE_OUTPUT loses records; the next record written is preceded
 *     by PERF_RECORD_LOST with the exact number lost.  data_head is stored
 *     with release semantics after the record is whole.  Wakeups: every
 *     wakeup_events samples, or with watermark=1 past wakeup_watermark bytes
 *     (half the ring when 0, and always every half ring without watermark).
 *   - Side-band records (perf report's names), as 6.1's perf_iterate_sb() hands
 *     them out: to every event of the thread concerned (below), and to every
 *     CPU event of the CPU where it happens, that is enabled (not in ERROR),
 *     on this CPU or on every CPU, and asks for the record,
 *     sampling or only counting (a DUMMY, perf record's tracking event, has no
 *     counter and gets them all), into the ring its output goes to (an
 *     inherited copy's: the opened event's; none, none written). sample_id_all
 *     adds the trailer of the thread that wrote the record. PERF_RECORD_FORK
 *     (attr.task, comm, mmap, mmap2 or mmap_data), in the parent at the fork,
 *     and PERF_RECORD_EXIT, in the exiting thread before poll() says POLLHUP,
 *     {pid, ppid, tid, ptid, time} as 6.1 writes them (EXIT's ptid is the
 *     parent's pid, as there). PERF_RECORD_COMM (attr.comm), hooked on the
 *     kernel's task_rename tracepoint: a rename (prctl(PR_SET_NAME), a write of
 *     /proc/PID/comm) goes to the renaming thread's events with the renamed
 *     thread's pid and tid, as 6.1's perf_event_comm() (the renamed thread's
 *     own events get nothing from another thread's write); an exec writes COMM
 *     with PERF_RECORD_MISC_COMM_EXEC (attr.comm_exec only says the kernel
 *     knows the flag). PERF_RECORD_MMAP2 (attr.mmap2, else MMAP with attr.mmap)
 *     of each executable mapping the thread makes, and with attr.mmap_data
 *     (misc PERF_RECORD_MISC_MMAP_DATA) of each other one, as 6.1's
 *     perf_event_mmap(): mmap(), the ELF loader's segments, brk() (the
 *     "[heap]"), an mprotect() that changes a mapping's flags (PROT_EXEC added:
 *     an executable record), the vDSO; the mapping as it was then (a merged
 *     mapping whole), prot and flags from its vm_flags, an anonymous one named
 *     "[heap]", "[stack]", a special mapping's name or "//anon". The hook is a
 *     kprobe on the kernel function perf_event_mmap(vma), which mm/ calls for
 *     each of these in 6.1 (there is no tracepoint for mmap); the record is
 *     written by the thread before it returns to user mode, with the time of
 *     the mapping, to the events enabled then and still enabled. More than 16
 *     mappings in one system call: those past the 16th are reported after
 *     the queued ones, every executable mapping the ring was not told of,
 *     with the time of the first dropped one. Where the kprobe cannot be
 *     placed (a kernel without CONFIG_KPROBES, or the symbol refused) the
 *     layer loads without it and mappings are reported at exec and after
 *     samples only (below). An exec
 *     that enables events (enable_on_exec) writes, to those events, COMM (exec
 *     flag) and MMAP2 (MMAP) of every executable mapping of the new image as it
 *     is once loaded (not the loader's data mappings, nor the loader's
 *     intermediate lengths). Without the kprobe only, a sample whose IP is in
 *     no executable mapping its ring was told of makes the sampled thread, before it returns to user mode, report its executable
 *     mappings not yet reported, their sample_id_all time that of the sample
 *     less 1 ns (so perf, which sorts by time, knows the mapping before the
 *     sample; without TIME the first such sample precedes its record and stays
 *     unresolved); with the kprobe, the mappings made before the event was
 *     enabled are the tool's to synthesize (perf reads /proc), as with 6.1,
 *     and a ring holds only the records 6.1 writes. A ring remembers 32
 *     executable mappings. PERF_RECORD_SWITCH
 *     (attr.context_switch) of a thread's events, as 6.1's perf_event_switch():
 *     switched out (misc PERF_RECORD_MISC_SWITCH_OUT, and SWITCH_OUT_PREEMPT
 *     when the thread stays runnable) and in, hooked on the sched_switch
 *     tracepoint while some event asks for them (the switch in is written at
 *     the switch, its trailer the incoming thread's); a CPU event gets
 *     PERF_RECORD_SWITCH_CPU_WIDE instead, with the other thread's pid and
 *     tid, at every switch on its CPU.  A CPU event's mapping records are
 *     written by the kprobe itself, at the mapping (d_path() into a buffer of
 *     the CPU's: it does not sleep). An inherited copy exists from the
 *     child's first return to user mode; the child's switches before (its
 *     first switch in at least) are written by the inherit events its copies
 *     are made of, into the same ring, as 6.1's copies made at the fork write
 *     them.  Differences: those records' STREAM_ID is the copied event's,
 *     where 6.1 gives the copy's own; a mapping reported by the thread's work
 *     is filed on the CPU that writes it (trailer CPU), where 6.1 writes on the
 *     mapping's CPU; build_id is not honoured (MMAP2 always carries device and
 *     inode). Accepted and never written, since nothing here hooks what they
 *     report: attr.namespaces (PERF_RECORD_NAMESPACES at fork, unshare, setns;
 *     CAP_PERFMON still needed, as in 6.1), attr.ksymbol and attr.bpf_event
 *     (6.1 writes them when the thread itself loads a BPF program or an ftrace
 *     trampoline changes, which perf record's tracking event asks for and a
 *     per-thread event almost never sees), attr.cgroup (PERF_RECORD_CGROUP at a
 *     cgroup's creation; perf record --all-cgroups also asks
 *     PERF_SAMPLE_CGROUP, which samples carry) and attr.text_poke (kernel text changes;
 *     kernel-level privilege, as in 6.1).
 *   - freq=1: the software clocks take the fixed period 1e9/sample_freq ns
 *     (attr.freq is then cleared, as perf does); other events, hardware ones
 *     (perf record's default cycles) too, start at period 1 and adapt it
 *     at each sample to what would give sample_freq samples a second (an
 *     eighth of the difference at a time, as perf; no adjustment at the tick,
 *     so a rate that falls is followed only by the next samples).
 *     /sys/kernel/perfmon/perf_max_sample_rate (default 100000, perf's
 *     perf_event_max_sample_rate) refuses a larger sample_freq (EINVAL) and
 *     throttles a hardware event or a clock (cpu-clock, task-clock) that takes
 *     more than rate/HZ samples in a tick (a software, tracepoint or breakpoint
 *     event's sample at an occurrence is never throttled, as in 6.1):
 *     PERF_RECORD_THROTTLE, no samples until the next tick, whose first
 *     overflow writes PERF_RECORD_UNTHROTTLE.  Throttled periods are counted.
 *     A throttled hardware event's interrupts stop too: 6.1 stops the event
 *     until the next tick; here its counter goes on counting (the count stays
 *     whole) on a long period, a tick's worth at the rate that tripped the
 *     limit, then twice as long at each overflow still in that tick (a few
 *     dozen interrupts a tick at most).  Difference: the samples come back
 *     with the first overflow after the tick, which at a steady rate is
 *     about a tick later, not at the tick.
 *   - poll(): EPOLLHUP for an event without a ring (as perf_events) and once
 *     the thread has exited; else EPOLLIN once after each wakeup.
 *   - libperfmon's preload (libperfmon-perf.so, pfm-perf) hands an event this
 *     call refuses with ENOENT or EOPNOTSUPP (not for precise_ip, which perf
 *     lowers until the event opens here) to the kernel's own perf_event_open
 *     when the event stands alone (group_fd -1) and the kernel has the call,
 *     so that nothing perfmon cannot serve is lost in silence; the fd is
 *     then perf_events' own, and so is everything done with it.  Where the
 *     kernel's call is missing or kept from the program (ENOSYS, a seccomp
 *     filter), the program sees this call's errno.  PFM_PERF_FALLBACK=0
 *     turns it off, PFM_PERF_FALLBACK_NOTE=1 names the first such event of
 *     a process on stderr.  Not as 6.1, since an event is either perfmon's
 *     or the kernel's and neither can join the other's: a kernel event as
 *     the group_fd of an event this call would open, or an event of this
 *     call as the group_fd of one the kernel would have opened (a tracepoint
 *     in a group led by a software event, which 6.1 takes), is EINVAL, 6.1's
 *     answer for a leader it cannot group with, PERF_FLAG_FD_OUTPUT too (with
 *     PERF_FLAG_PID_CGROUP the first stays EBADF: the preload cannot tell
 *     which fd was refused); ioctl SET_OUTPUT between the two is EBADF, each
 *     side's answer for an fd not its own (so perf record, which sends the
 *     events of a CPU into one ring, fails when it mixes them).
 * "paranoid" below is perfmon's paranoid level (perfmon.h, ACCESS): the kernel's
 * kernel.perf_event_paranoid unless an administrator wrote another to
 * /sys/kernel/perfmon/paranoid, so that the shim refuses what the kernel's own
 * perf_event_open would, Debian's level 3 included.
 * The errno order follows perf_event_open's: flags (EINVAL), attr (EFAULT,
 * E2BIG, EINVAL), paranoid 3 (EACCES), kernel level (EACCES), period or
 * frequency (EINVAL), no free fd (EMFILE), group_fd (EBADF), pid (ESRCH),
 * leader's inherit differs (EINVAL), cpu (EINVAL), type and config (ENOENT;
 * for a hardware event also EINVAL, EOPNOTSUPP), a call chain deeper than 127
 * (EOVERFLOW), sampling what this layer cannot (EOPNOTSUPP), a CPU event on
 * a CPU with someone else's session (EACCES), group rules (EINVAL), the
 * thread's context (EACCES, EBUSY, EMFILE), a breakpoint's (EINVAL, EPERM,
 * ENOSPC: the hardware breakpoint service's), a hardware event's counter
 * (EINVAL, EBUSY, EACCES), FD_OUTPUT's ring (EINVAL).
 */
#ifndef _UAPI_PERFMON_PERFMON_PERF_H
#define _UAPI_PERFMON_PERFMON_PERF_H

#include <perfmon/perfmon.h>

#endif /* _UAPI_PERFMON_PERFMON_PERF_H */
