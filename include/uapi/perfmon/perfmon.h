/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the user ABI of the perfmon hardware performance monitoring interface.
 *
 * PROTOCOL
 *
 * A monitoring session ("context") is a file descriptor.  Its life is:
 *
 *   fd = pfm_create_context(flags [, smpl_name, smpl_arg, smpl_arg_size])
 *   pfm_write_pmcs(fd, struct pfarg_pmc *req, size)     program configuration registers
 *   pfm_write_pmds(fd, struct pfarg_pmd *req, size)     program data registers (counters)
 *   pfm_load_context(fd, flags, target)                 attach to a thread (TID) or a CPU
 *   pfm_start(fd, flags [, set_id])                     start monitoring
 *   pfm_stop(fd, flags)                                 stop monitoring
 *   pfm_read_pmds(fd, struct pfarg_pmd *req, size)      read 64-bit counts
 *   pfm_unload_context(fd, flags)                       detach
 *   pfm_create_evtsets / pfm_delete_evtsets / pfm_getinfo_evtsets   event sets
 *   pfm_write_pmc_filter(fd, struct pfarg_pmc *req, filter)
 *                                                       a trace event's PMC, filtered
 *                                                       (perfmon_sw.h; the trace layer)
 *   read(fd, union pfarg_msg *, n)                      notification messages
 *   mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0)       the sampling buffer, if any
 *   mmap(NULL, page, PROT_READ, MAP_SHARED, fd, PFM_MMAP_COUNTS_OFFSET)
 *                                                       the counts page (COUNTS PAGE)
 *   close(fd)                                           the last close destroys the session
 *
 * Registers can be written and read in any state.  Attach and detach always leave
 * monitoring stopped.  pfm_start/pfm_stop need an attached context.
 *
 * STATES
 *
 *   UNLOADED --load--> LOADED(stopped) --start--> LOADED(started) --stop--> LOADED(stopped)
 *   LOADED(started) --notifying overflow--> LOADED(masked) --start(RESTART)--> LOADED(started)
 *   LOADED --unload, or the monitored thread exits--> UNLOADED
 *
 * A call made in the wrong state fails with EBUSY (load of a loaded context; create or
 * delete of event sets while loaded) or EINVAL (start/stop/unload of an unloaded
 * context) and changes nothing.
 *
 * ATTACHING
 *
 * Per-thread: pfm_load_context(fd, 0, tid).  Any thread the caller may read as ptrace
 * would (PTRACE_MODE_READ_REALCREDS: same user and the target dumpable, or
 * CAP_SYS_PTRACE; the security modules, AppArmor or SELinux, have their say too) —
 * EACCES otherwise, EPERM for a kernel thread, ESRCH for no such thread, EINTR if
 * the caller is killed while an exec of the target is under way.  The target need
 * not be stopped: the kernel reaches its PMU state wherever it runs.  Another thread
 * starts being counted when it next returns to user mode; until it runs, the attach
 * holds nothing on it, and a detach or close() before then frees everything at once.
 * A thread has at most one context attached (EEXIST).
 * Per-CPU (PFM_FL_SYSTEM_WIDE): pfm_load_context(fd, 0, cpu); the caller may run on
 * any CPU, every operation is carried to the monitored CPU.  EINVAL for a CPU that
 * does not exist or is offline; EBUSY if the CPU has a session already.
 * Per-thread and per-CPU sessions coexist: on a CPU with a CPU session, the
 * software events (<perfmon/perfmon_sw.h>) of the thread running there count for
 * both, each exactly as it would alone, and each overflow goes to the session
 * whose PMD carried.  The hardware PMU's registers are one per CPU: as in
 * perfmon2, per-thread and per-CPU sessions that use them exclude each other
 * machine-wide.  A session uses them once one of its hardware registers (PMC or
 * PMD) is written: pfm_load_context() of such a context, or the write of the
 * first such register to a loaded one, fails with EBUSY (and changes nothing)
 * while a session of the other kind uses them; a detach gives them back.
 *
 * CPU TYPES
 *
 * Where CPUs of one machine have PMUs of different types (hybrid x86: P cores and
 * E cores, <perfmon/perfmon_x86.h> HYBRID), a context uses one type's registers,
 * named at creation by PFM_FL_PMU_TYPE(id) in its flags; the types and their ids
 * are in /sys/kernel/perfmon/pmu_desc/types (one line each: id, name, the PMCs and
 * the PMDs it has as bitmaps of the logical numbers, as the kernel prints bitmaps:
 * hexadecimal 32-bit words, highest first, comma-separated; empty on a machine with
 * one type).  pmu_desc/pmcN and pmdN describe every type's registers together.
 *   - An id the machine has not: ENODEV (on a machine with one type, any id but 0).
 *   - 0: a per-thread context takes the first type listed; a CPU session takes the
 *     type of the CPU it is attached to, at each attach (the registers it wrote
 *     are checked then: one that CPU's type does not have, or a value its type
 *     refuses, is EINVAL and attaches nothing).
 *   - A register or a value the context's type does not have: EINVAL, as an
 *     unknown register; pfm_getinfo_evtsets() shows only its type's registers.
 *   - A CPU session naming a type attaches only to a CPU of that type (EINVAL).
 *   - A per-thread context counts only while its thread runs on a CPU of its
 *     type, as perf_events counts a cpu_core event only on P cores: on another its
 *     state stays where it was, none of its events count (its software events
 *     neither, as in a perf_events group led by a hardware event), and its sets'
 *     live time does not run.  It counts again when the thread comes back.
 *     perf_events keeps two times for such an event: time_enabled runs on the
 *     other type too and time_running stops.  A context has no time enabled:
 *     set_act_duration is its sets' time running, which stops there as it
 *     should, and nothing of the context is loaded on a CPU of another type
 *     (its registers may not exist there, and those that do count that
 *     type's events), so no time of it runs there.  The multiplexing
 *     estimate (the sets' durations summed over one set's) therefore scales a
 *     set's count to the time the thread ran on the context's type, not to
 *     its whole run.  The perf_event_open layer, which owes time_enabled,
 *     gives a thread's events one context of every type (<perfmon/
 *     perfmon_x86.h>, HYBRID), live on every CPU, where each event counts
 *     only on its own type: their time_enabled runs on every type, their
 *     time_running on their own.
 *
 * LIFECYCLE
 *
 * - The monitored thread exits: the context is detached, its counts stay readable,
 *   and a PFM_MSG_END message is queued.
 * - close() of the last fd while attached: the context is detached and freed; the
 *   monitored thread is left with nothing.
 * - fork(): attachments are not inherited (the fd is, as any fd), but with
 *   PFM_FL_INHERIT (INHERITANCE).
 * - exec(): the attachment stays if the attach rule (ATTACHING) still allows it with
 *   the credentials the controller had when it attached, applied to the new image;
 *   the fd follows PFM_FL_CLOEXEC.  Where the kernel withdraws ptrace-read access at
 *   exec (a setuid or setgid image, file capabilities, an image the user may not
 *   read: the new image is not dumpable, or its ids differ), a controller without
 *   CAP_SYS_PTRACE over the new image is detached before the image runs its first
 *   instruction: the counts and samples made before the exec stay readable, none is
 *   made at user level after it (at kernel level, the exec's own loading of the new
 *   image may still count), and a PFM_MSG_END with msg_end_reason PFM_END_EXEC is
 *   queued.  A
 *   controller that could attach to the new image (root, CAP_SYS_PTRACE) keeps
 *   monitoring it; perf_events ends every attachment there instead.
 * - A detach or close() while the monitored thread sleeps frees the context at once
 *   if the thread has not run since the attach.  If it has, the thread holds a small
 *   hook of the kernel's until it next runs, and the context with it (counted in
 *   contexts_count and against ctx_per_user_max): one per thread at most.
 * - A CPU going offline detaches its per-CPU session.
 *
 * INHERITANCE (PFM_FL_INHERIT)
 *
 * A per-thread context created with PFM_FL_INHERIT counts its thread's new threads
 * and child processes too.  Once it is loaded on a thread, every thread and child
 * that thread creates (clone, fork, vfork, pthread_create), and recursively what
 * they create, gets before its first user instruction a context of its own in the
 * kernel, an inheritor: the opened context's event sets and PMCs as they are at
 * the fork, its used PMDs at 0 without flags or reset values, started if the
 * opened context is.  An inheritor has no fd and is never visible to user space.
 * - An inheritor switches its own sets, by their flags and timeouts, set 0's
 *   included (PFM_SETFL_TIME_SWITCH; its PMDs have no reg_ovfl_switch_cnt, so
 *   PFM_SETFL_OVFL_SWITCH never switches it), and is folded set by set.  The
 *   inheritors made while the family is started start in its sets in turn: the
 *   k-th made since the load in the (k mod number of sets)-th set in id order,
 *   so that threads shorter than a timeout, which count in their first set
 *   only, are shared out over the sets and do not bias their scaled counts;
 *   one made while it is stopped starts where pfm_start() of the opened
 *   context starts it.
 * - pfm_write_pmcs() on the opened context, once it succeeded, is applied to every
 *   live inheritor too, as perf_events' PERF_EVENT_IOC_MODIFY_ATTRIBUTES reaches an
 *   event's inherited copies (an inheritor that cannot take it, its hardware
 *   counters held elsewhere, keeps the PMCs it had).  A write that fails changes
 *   no inheritor.  pfm_write_pmds(), pfm_create_evtsets() and pfm_delete_evtsets()
 *   change the opened context only, as PERF_EVENT_IOC_PERIOD changes the parent
 *   event only: an inheritor's PMDs are its own until folded.
 * - When an inheritor's thread exits, its PMDs are added into the opened context's
 *   PMDs of the same set and number (64-bit arithmetic, no overflow taken for the
 *   sum; a set or PMD the opened context no longer has is not counted).  A child
 *   process is folded before its parent can wait for it; a thread after the clear
 *   of its tid (CLONE_CHILD_CLEARTID, pthread_join()) but before its process is
 *   reaped.
 * - pfm_read_pmds() of the opened context gives its own counts, the folded ones
 *   and the live inheritors' current ones (each counted once, folded or live: a
 *   sum never goes down from one read to the next).  The counts page (COUNTS PAGE)
 *   shows the opened context's own and folded counts only.
 * - pfm_getinfo_evtsets() of the opened context gives as set_act_duration its
 *   set's live time, the folded inheritors' and the live ones' (as perf_events
 *   adds a child event's enabled and running times into its parent's).
 * - pfm_start() (not a restart) and pfm_stop() of the opened context reach every
 *   inheritor; an inheritor made while it is stopped starts stopped.
 * - pfm_unload_context() or the last close() of the opened context ends the family:
 *   every inheritor is folded in, detached and freed at once, its thread running or
 *   asleep (a sleeping thread keeps the small hook LIFECYCLE describes until it next
 *   runs).  The opened thread's exit detaches it as any context; its inheritors
 *   keep counting into it until the close.  A new load starts a new family.
 * - Overflow notification and blocking are the opened thread's own: inheritors'
 *   PMDs carry no PFM_PMDFL_OVFL_NOTIFY, so their counts never notify.
 *   PFM_FL_INHERIT with PFM_FL_SYSTEM_WIDE or PFM_FL_NOTIFY_BLOCK is EINVAL, and
 *   so is the flag on a kernel built without the layer that serves it.
 * - Sampling: with PFM_FL_SMPL_FMT and the "default" format (any other format is
 *   EINVAL: the mux format's log follows one thread's set switches) the buffer
 *   is shared, as perf_events' inherited events write into their parent's ring.
 *   An inheritor's copy of a PFM_PMDFL_SMPL PMD keeps that flag (and
 *   PFM_PMDFL_RANDOM), its reset values, random mask, reg_smpl_pmds and
 *   reg_reset_pmds, and starts at its short reset value; each of its overflows
 *   writes an entry with the inheritor's thread ids and its own PMD values into
 *   the opened context's buffer and takes the short reset.  A full buffer masks
 *   nobody, the opened thread included: a sample that does not fit, whoever's,
 *   is dropped and counted in hdr_overflows (exactly: perf's LOST), and the
 *   opened context's fd gets one PFM_MSG_OVFL (its PMD the sampling one) when
 *   the buffer first fills after a drain.  The reader hands back what it read
 *   with pfm_start(PFM_STARTFL_RESTART | PFM_STARTFL_DRAIN, n), loaded or not
 *   (the inheritors write on after the opened thread's exit): the first n
 *   entries go and the others move up (perfmon_dfl_smpl.h).  A sampling PMD's
 *   value is no count of its event (it goes back to its reset value at every
 *   sample), so neither the folds nor the reads add an inheritor's: count the
 *   event with a second PMD.
 * - Inheritors count against their user's ctx_per_user_max as any context, and
 *   show in contexts_count and inherit_contexts_count.  A new thread that cannot
 *   have one (the limit, no memory, a context of its own already) is created all
 *   the same, but neither it nor its descendants are counted: each such thread
 *   adds one to /sys/kernel/perfmon/inherit_lost_count.
 *
 * ACCESS (/sys/kernel/perfmon/)
 *
 * The paranoid level has perf_event_paranoid's meaning: -1 no restriction; 0 CPU
 * sessions and kernel-level counting open to all; 1 CPU sessions need CAP_PERFMON;
 * 2 CPU sessions and kernel-level counting need CAP_PERFMON; 3 every session needs
 * CAP_PERFMON.  CAP_SYS_ADMIN counts as CAP_PERFMON.  It is the kernel's own
 * kernel.perf_event_paranoid (read at each check; Debian's kernels ship with 3),
 * so that perfmon opens nothing the system closed, while paranoid reads -2 (the
 * default); a level an administrator writes to paranoid (-1..3) stands instead,
 * tighter or looser.  paranoid_level shows the level in effect.  sys_group / task_group (default -1, any): only that group may
 * create CPU / per-thread sessions.  ctx_per_user_max: contexts a user may hold
 * (EMFILE beyond).  Refusals are EPERM.  contexts_count, task_sessions_count,
 * sys_sessions_count and task_hooks_count show what exists.
 * Access is checked when it is used, as perf_events checks it:
 * - creating a context checks paranoid and the groups; attaching checks the target
 *   (ATTACHING); writing a PMC checks its privileged bits.  Tightening a knob later
 *   changes no existing context or attachment.
 * - exec() of the monitored thread checks the attachment again (LIFECYCLE).
 * - setuid(), setresuid() and the like in the monitored thread do not: a thread can
 *   only change its ids to ones it already had, which the attach rule compared
 *   (real, effective and saved ids must all be the controller's), so it gains no
 *   privilege that was not checked.  PR_SET_DUMPABLE after the attach does not end it
 *   either.
 * - A context fd is a capability: whoever holds it (inherited, or passed over a Unix
 *   socket to another user) may use it, as with perf_events fds.  A new attach by the
 *   holder is checked against the holder.
 * - CPU sessions need CAP_PERFMON at creation (paranoid >= 1), so an exec on the CPU
 *   needs no check: the controller may see every thread there.
 * The module checks attach access by opening /proc/PID/maps of the target on a
 * private proc mount, with its file-system ids set to its real ids: that runs the
 * kernel's own read-mode ptrace check, security modules included, which a module
 * cannot call directly.  The in-tree kernel calls ptrace_may_access().
 * Sampling buffers are locked memory, charged to the creating user's locked_vm
 * against RLIMIT_MEMLOCK (not with CAP_IPC_LOCK), and all together capped by
 * smpl_buffer_mem_max (default unlimited; smpl_buffer_mem_cur shows the use): ENOMEM
 * beyond either.
 * Kernel-level counting is asked for by the PMC bits in a register's priv_msk
 * (pmu_desc/pmcN/priv_msk): the OS bit of the software PMU and of x86 event
 * selects, the ring-0 enables of the x86 fixed-counter control.  Writing one
 * without the privilege fails with EPERM, and the whole vector with it.
 *
 * EVENT SETS
 *
 * Each set holds the whole PMU state; set 0 exists from creation, ids are 0..65535,
 * kept in id order and switched round-robin by the kernel in the monitored thread's
 * context: after set_timeout ns of the set being live (PFM_SETFL_TIME_SWITCH; thread
 * time for per-thread sessions, wall-clock for per-CPU ones; rounded up to the timer
 * resolution, at least 10 us, and written back), or after reg_ovfl_switch_cnt 64-bit
 * overflows of a PMD written with PFM_PMDFL_SWITCH in a set with
 * PFM_SETFL_OVFL_SWITCH (the PMD is reset to reg_short_reset at each overflow and
 * keeps counting).  Thresholds and timeouts start afresh when a set becomes active.
 * Sets are created (or their properties changed, registers untouched) and deleted
 * only while detached; the last set cannot be deleted (EBUSY).  pfm_start() starts
 * from the set named with PFM_STARTFL_SET, else from the last active one (the first
 * in id order the first time).  pfm_getinfo_evtsets() reports runs, live duration,
 * effective (or, for the active set, leftover) timeout, the PMDs that overflowed
 * last and the registers available.  A scaled estimate of a count is
 * count * (sum of the sets' durations) / (the set's duration); the "mux" sampling
 * format (<perfmon/perfmon_mux_smpl.h>) logs every set switch for better estimates
 * and their error bounds (libperfmon's <mux.h>).
 * Anti-aliasing: with PFM_SETFL_RANDOM_TIMEOUT (and PFM_SETFL_TIME_SWITCH) each run
 * of the set lasts the effective timeout less a random number masked by
 * set_timeout_mask, drawn anew at every activation, so that a program whose phases
 * repeat at the switch rhythm cannot show each set the same phase.  EINVAL for the
 * flag without PFM_SETFL_TIME_SWITCH, for a zero mask with the flag, a non-zero
 * mask without it, and a mask that could leave a run shorter than the minimum
 * timeout (effective timeout - set_timeout_mask < 10 us, or the timer resolution).
 *
 * VECTOR CALLS
 *
 * pfm_write_pmcs, pfm_write_pmds, pfm_read_pmds, pfm_create_evtsets, pfm_delete_evtsets
 * and pfm_getinfo_evtsets take a pointer to an array of structures and its size in BYTES.
 *   - size == 0, or not a multiple of the element size       -> EINVAL
 *   - size larger than /sys/kernel/perfmon/arg_mem_max       -> E2BIG
 *   - the array cannot be read (or written back)             -> EFAULT
 *   - an unknown register or set, a reserved bit set in a PMC value, an unknown flag,
 *     a non-zero reserved field                              -> EINVAL
 * The whole vector is checked before anything is applied: a call that fails changes no
 * state.  Output fields (read_pmds, getinfo_evtsets) are written back only on success.
 *
 * REGISTERS
 *
 * PMCs (configuration) and PMDs (data) are numbered logically; the active PMU
 * description (/sys/kernel/perfmon/pmu_desc/) lists every register with its name,
 * hardware address, default value, reserved-bit mask and width.  Every counting PMD is
 * exported as a 64-bit value whatever the hardware width: the kernel extends it in
 * software ("64-bit emulation"), unless the controlling PMC was written with
 * PFM_PMCFL_NO_EMUL64 on a register that supports it, in which case the raw hardware
 * value is returned.  An overflow always means a 64-bit overflow.
 * Each register write and read names its event set in reg_set (set 0 always exists).
 * PFM_PMDFL_SMPL records samples into the context's sampling buffer (SAMPLING
 * FORMATS); without one it is EINVAL.
 *
 * OVERFLOW NOTIFICATION
 *
 * A PMD is reset at its 64-bit overflow, keeping what it counted past it: to
 * reg_short_reset, or, if it was written with PFM_PMDFL_OVFL_NOTIFY, to
 * reg_long_reset at the restart.  With PFM_PMDFL_RANDOM a random number masked by
 * reg_random_mask is taken off each reset value (a period varies by up to the mask;
 * reg_last_reset_val and the samples say which was used).  The PMDs named in its
 * reg_reset_pmds are set to their own reset value at the same time.  A notifying
 * overflow:
 *   - stops monitoring where it is ("masked": nothing counts, the counts stay
 *     readable; a set switch the overflow completed waits for the restart);
 *   - queues a PFM_MSG_OVFL message (not with PFM_FL_OVFL_NO_MSG; not when the
 *     8-message queue is full), wakes read() and poll(), and sends SIGIO to the
 *     owner of an fd with O_ASYNC (fcntl F_SETOWN, F_SETSIG);
 *   - with PFM_FL_NOTIFY_BLOCK, holds the monitored thread on its way back to user
 *     mode until the restart (a signal ends the hold; loading such a context on the
 *     caller's own thread is EINVAL).
 * pfm_start(fd, PFM_STARTFL_RESTART) resumes: the notified PMDs take their long
 * reset value and counting goes on in the same set (or the next, if a switch
 * waited).  EBUSY when nothing is masked; EINVAL with PFM_STARTFL_SET.  On a
 * context whose sampling buffer is shared (INHERITANCE) it also hands back the
 * n samples the reader consumed, with PFM_STARTFL_DRAIN and n as the third
 * argument (EINVAL, nothing drained, beyond hdr_count), and returns 0 when
 * nothing is masked; PFM_STARTFL_DRAIN is EINVAL without PFM_STARTFL_RESTART
 * or on any other context.  A plain
 * pfm_start(), pfm_stop() or detach lifts the mask too, without the resets, and
 * releases a held thread.  Writing a PMD drops its pending reset.
 *
 * SAMPLING FORMATS
 *
 * pfm_create_context(PFM_FL_SMPL_FMT, name, arg, arg_size) gives the context a
 * sampling buffer laid out by the named format; the one format so far is "default"
 * (<perfmon/perfmon_dfl_smpl.h>, which lists the errors).  /sys/kernel/perfmon/
 * formats/ has a directory per format, with its version ("1.0").  Without the flag,
 * name and arg must be NULL and arg_size 0 (EINVAL).
 *
 * The software-event PMU (<perfmon/perfmon_sw.h>) is present on every machine, at fixed
 * register numbers, beside any hardware PMU.
 *
 * ENTRY POINTS
 *
 * The same calls are reached two ways: system calls (in-tree build; numbers published
 * in /sys/kernel/perfmon/syscall) or ioctls on /dev/perfmon (loadable module), one
 * ioctl per call with the arguments packed in the pfarg_ioc_* structures below.
 * The vector calls are also ioctls of the context's own fd, in either kernel
 * (PFM_IOC_VEC_CTX below): no second file to look up, no structure to copy in.
 * libperfmon hides the difference.
 *
 * PERF_EVENT_OPEN COMPATIBILITY
 *
 * pfm_perf_event_open(), the perf_event_open(2) of the perf layer, and what it does
 * and does not do as Linux 6.1 does: <perfmon/perfmon_perf.h>.
 *
 * COUNTS PAGE
 *
 *   pg = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, PFM_MMAP_COUNTS_OFFSET)
 *
 * maps one page, a struct pfm_counts_page, where the kernel keeps the 64-bit values
 * of the active set's PMDs as they change: the counts are read with loads, without
 * a system call.  The mapping is exactly one page (else EINVAL), read-only
 * (PROT_WRITE, even MAP_PRIVATE, is EACCES; mprotect cannot add it later), at that
 * offset only: offset 0 stays the sampling buffer, and any other offset is the
 * buffer's to refuse (ENODEV without a buffer, else EINVAL).  Every mapping of a
 * context shows the same page, allocated at its first mapping; it outlives detach
 * and close for as long as it is mapped.
 *
 * pmds[i] is the value of PMD i of set set_id, for each i in mapped_pmds: exactly
 * what pfm_read_pmds() returns for it at that point.  set_id is the active set (set
 * 0 before the first start).  The kernel updates the page where the counts change:
 * software events at the event, writes, resets and set switches under the context's
 * lock; so any process that maps the context reads the monitored thread's counts,
 * attached or not, running or not.  Not in mapped_pmds, to read with pfm_read_pmds():
 * PMDs of other sets, time-based counters (PFM_SW_EV_TASK_CLOCK), hardware PMDs above
 * PFM_RDPMC_PMDS - 1 or in 32 bits (PFM_PMCFL_NO_EMUL64).  Hardware PMDs are shown as
 * perf_events' user page shows them: out of the set's live time (thread switched
 * out, stopped, detached) rdpmc[i] is 0 and pmds[i] the value; live, rdpmc[i] is
 * non-zero, rdpmc_cpu the monitored thread's CPU, and exactly (pmds[i] is rewritten
 * under seq wherever the counter behind the value changes: overflow interrupt,
 * writes, resets, set switches, switch in and out)
 *   value = pmds[i] + sign_extend(rdpmc(PFM_X86_RDPMC_ECX(e)), PFM_RDPMC_WIDTH(e))
 * with e = rdpmc[i].  Only the monitored thread may add the counter, the one thread
 * on rdpmc_cpu while the set is live: a reader checks its CPU inside the sequence;
 * pfm_read_mapped() answers others ENOENT.  Entries are given only where the thread
 * may run rdpmc (CR4.PCE, kept per process by perf_events' rule: sysfs
 * bus/event_source/devices/cpu/rdpmc 2 everywhere, 1 where a perf_events counter
 * page is mapped, 0 nowhere; perfmon leaves it alone): no fault while the process
 * keeps that right.  Where it may not, and in CPU sessions, live ones are not shown.
 *
 * A read is consistent through the sequence count, odd while the kernel writes:
 * load seq (acquire; again while odd), check set_id and mapped_pmds, copy pmds[]
 * and add the counters, acquire fence, and start over if seq moved.  layout_gen
 * (from version 2 of the page) moves (+1, modulo 2^32), in the same write under
 * seq, with any change of set_id or mapped_pmds and only then: a reader that
 * checked them once need only compare it in later snapshots, and check again when
 * it moved (rdpmc[] and rdpmc_cpu change without it).  libperfmon does both:
 * pfm_read_mapped(), and pfm_counts_prepare() with pfm_counts_read().
 *
 * MESSAGES
 *
 * read() on the context fd returns whole union pfarg_msg entries (size must be at
 * least sizeof(union pfarg_msg), else EINVAL; O_NONBLOCK gives EAGAIN on an empty
 * queue).  poll() reports POLLIN when a message is queued.
 */
#ifndef _UAPI_PERFMON_PERFMON_H
#define _UAPI_PERFMON_PERFMON_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define PFM_VERSION_MAJ		2U
#define PFM_VERSION_MIN		90U
#define PFM_VERSION		((PFM_VERSION_MAJ << 16) | PFM_VERSION_MIN)
#define PFM_VERSION_MAJOR(v)	((v) >> 16)
#define PFM_VERSION_MINOR(v)	((v) & 0xffff)

/*
 * The bit vectors' register space: registers below these numbers may be named in
 * a bit vector (reset, sample, overflow, the counts page).  The software PMU's
 * counters go on past it, counting only (perfmon_sw.h).
 */
#define PFM_MAX_PMCS		320
#define PFM_MAX_PMDS		320
#define PFM_PMC_BV		((PFM_MAX_PMCS + 63) / 64)
#define PFM_PMD_BV		((PFM_MAX_PMDS + 63) / 64)

/* Event set identifiers are 0..PFM_MAX_SET_ID, not necessarily contiguous. */
#define PFM_MAX_SET_ID		65535

/* pfm_create_context() flags */
#define PFM_FL_NOTIFY_BLOCK	0x01	/* block the monitored thread on notification */
#define PFM_FL_SYSTEM_WIDE	0x02	/* per-CPU session */
#define PFM_FL_SMPL_FMT		0x04	/* a sampling format follows in the arguments */
#define PFM_FL_OVFL_NO_MSG	0x08	/* no message queued on overflow */
#define PFM_FL_CLOEXEC		0x10	/* the new fd is close-on-exec */
#define PFM_FL_INHERIT		0x20	/* new threads and children count too (INHERIT) */
/* The type of CPU whose PMU the context uses (CPU TYPES), 0: the default. */
#define PFM_FL_PMU_TYPE_SHIFT	8
#define PFM_FL_PMU_TYPE_MASK	0xff00
#define PFM_FL_PMU_TYPE(id)	(((id) << PFM_FL_PMU_TYPE_SHIFT) & PFM_FL_PMU_TYPE_MASK)

/* Sampling format names (PFM_FL_SMPL_FMT) are shorter than this, with their NUL. */
#define PFM_SMPL_NAME_MAX	64

/* pfarg_pmc.reg_flags */
#define PFM_PMCFL_NO_EMUL64	0x01	/* no 64-bit emulation of the counter(s) it controls */

/* pfarg_pmd.reg_flags */
#define PFM_PMDFL_SMPL		0x01	/* PMD used for sampling */
#define PFM_PMDFL_SWITCH	0x02	/* PMD used in overflow-based set switching */
#define PFM_PMDFL_OVFL_NOTIFY	0x04	/* notify on 64-bit overflow */
#define PFM_PMDFL_RANDOM	0x08	/* randomise the reset value */

/* pfm_load_context() / pfm_unload_context() / pfm_stop() flags: none defined yet. */

/* pfm_start() flags */
#define PFM_STARTFL_SET		0x01	/* the third argument names the set to start from */
#define PFM_STARTFL_RESTART	0x02	/* resume after an overflow notification */
#define PFM_STARTFL_DRAIN	0x04	/* with RESTART: the third argument is the samples
					 * read from a shared buffer (perfmon_dfl_smpl.h) */

/* pfarg_setdesc.set_flags */
#define PFM_SETFL_OVFL_SWITCH	0x01	/* switch after reg_ovfl_switch_cnt overflows */
#define PFM_SETFL_TIME_SWITCH	0x02	/* switch when set_timeout expires */
#define PFM_SETFL_RANDOM_TIMEOUT 0x04	/* each run's timeout less a random part */

/* message types */
#define PFM_MSG_OVFL		1	/* a 64-bit overflow happened */
#define PFM_MSG_END		2	/* the session was detached from the monitored thread */

/* msg_end_reason of PFM_MSG_END */
#define PFM_END_EXIT		0	/* the thread exited */
#define PFM_END_EXEC		1	/* it exec'd an image the controller may not read */

struct pfarg_pmc {
	__u16 reg_num;			/* which register */
	__u16 reg_set;			/* event set of the register */
	__u32 reg_flags;		/* PFM_PMCFL_* */
	__u64 reg_value;		/* value; reserved bits must be clear */
	__u64 reg_reserved2[4];		/* must be zero */
};

struct pfarg_pmd {
	__u16 reg_num;			/* which register */
	__u16 reg_set;			/* event set of the register */
	__u32 reg_flags;		/* PFM_PMDFL_* */
	__u64 reg_value;		/* 64-bit value: in on write, out on read */
	__u64 reg_long_reset;		/* reset after overflow and notification */
	__u64 reg_short_reset;		/* reset after overflow handled in the kernel */
	__u64 reg_last_reset_val;	/* out: last reset value used */
	__u64 reg_ovfl_switch_cnt;	/* overflows before a set switch; out: remaining */
	__u64 reg_reset_pmds[PFM_PMD_BV]; /* PMDs also reset on overflow of this one */
	__u64 reg_smpl_pmds[PFM_PMD_BV];  /* PMDs recorded in each sample */
	__u64 reg_smpl_eventid;		/* opaque identifier passed to the format */
	__u64 reg_random_mask;		/* range of the reset randomisation */
	__u32 reg_reserved2[8];		/* must be zero */
};

struct pfarg_setdesc {
	__u16 set_id;			/* which set */
	__u16 set_reserved1;		/* must be zero */
	__u32 set_flags;		/* PFM_SETFL_* */
	__u64 set_timeout;		/* in: timeout in ns; out: effective timeout */
	__u64 set_timeout_mask;		/* PFM_SETFL_RANDOM_TIMEOUT: range of the
					 * random part, else zero */
	__u64 set_reserved2[5];		/* must be zero */
};

struct pfarg_setinfo {
	__u16 set_id;			/* which set */
	__u16 set_reserved1;		/* must be zero */
	__u32 set_flags;		/* out: PFM_SETFL_* */
	__u64 set_ovfl_pmds[PFM_PMD_BV]; /* out: PMDs that overflowed last */
	__u64 set_runs;			/* out: times the set was activated */
	__u64 set_timeout;		/* out: effective (or leftover) timeout in ns */
	__u64 set_act_duration;		/* out: ns the set was active */
	__u64 set_avail_pmcs[PFM_PMC_BV]; /* out: PMCs usable in this set */
	__u64 set_avail_pmds[PFM_PMD_BV]; /* out: PMDs usable in this set */
	__u64 set_reserved3[6];		/* must be zero */
};

struct pfarg_ovfl_msg {
	__u32 msg_type;			/* PFM_MSG_OVFL */
	__u32 msg_ovfl_pid;		/* process id (tgid) of the thread that ran */
	__u16 msg_active_set;		/* active set at overflow */
	__u16 msg_ovfl_cpu;		/* CPU of the overflow */
	__u32 msg_ovfl_tid;		/* thread id */
	__u64 msg_ovfl_ip;		/* the thread's user-mode instruction pointer
					 * (0 for a kernel thread) */
	__u64 msg_ovfl_pmds[PFM_PMD_BV]; /* PMDs that overflowed */
};

struct pfarg_end_msg {
	__u32 msg_type;			/* PFM_MSG_END */
	__u32 msg_end_pid;		/* process id (tgid) of the thread that exited */
	__u32 msg_end_tid;		/* its thread id */
	__u32 msg_end_reason;		/* PFM_END_* */
	__u64 msg_reserved2[6];
};

union pfarg_msg {
	__u32 type;
	struct pfarg_ovfl_msg pfm_ovfl_msg;
	struct pfarg_end_msg pfm_end_msg;
};

/* The calls: their numbers and the /dev/perfmon door's ioctls (THE CALLS there). */
#include "perfmon_calls.h"

/* The counts page (COUNTS PAGE): its mmap offset, in bytes, and its layout. */
#define PFM_MMAP_COUNTS_OFFSET	0x40000000UL
#define PFM_COUNTS_PAGE_VERSION	2	/* 2: layout_gen (1 kept it 0) */

#define PFM_RDPMC_PMDS		32	/* counts page rdpmc[]: 0, or a code and a width */
#define PFM_RDPMC_INDEX(e)	((e) & 0xffU)		/* the unit's counter code, 0: none */
#define PFM_RDPMC_WIDTH(e)	(((e) >> 8) & 0xffU)	/* the counter's width in bits */

struct pfm_counts_page {
	__u32 version;			/* PFM_COUNTS_PAGE_VERSION */
	__u32 seq;			/* odd while the kernel writes the page */
	__u16 set_id;			/* the set whose PMDs are here: the active one */
	__u16 rdpmc_cpu;		/* the CPU the rdpmc[] entries are for */
	__u32 layout_gen;		/* moves when set_id or mapped_pmds change */
	__u64 mapped_pmds[PFM_PMD_BV];	/* PMDs whose value pmds[] holds */
	__u16 rdpmc[PFM_RDPMC_PMDS];	/* PMD i live in a counter: PFM_RDPMC_* */
	__u64 reserved3;
	__u64 pmds[PFM_MAX_PMDS];	/* pmds[i]: the value of PMD i, or its offset */
};

/*
 * Layout checks: every structure has a fixed size and no implicit padding, so a 32-bit
 * program on a 64-bit kernel passes the same bytes.
 */
#define PFM_ABI_SIZE_CHECK(type, size) \
	typedef char pfm_abi_check_##type[(sizeof(struct type) == (size)) ? 1 : -1]
PFM_ABI_SIZE_CHECK(pfarg_pmc, 48);
PFM_ABI_SIZE_CHECK(pfarg_pmd, 176);
PFM_ABI_SIZE_CHECK(pfarg_setdesc, 64);
PFM_ABI_SIZE_CHECK(pfarg_setinfo, 200);
PFM_ABI_SIZE_CHECK(pfarg_ovfl_msg, 64);
PFM_ABI_SIZE_CHECK(pfarg_end_msg, 64);
typedef char pfm_abi_check_pfarg_msg[(sizeof(union pfarg_msg) == 64) ? 1 : -1];
PFM_ABI_SIZE_CHECK(pfm_counts_page, 128 + 8 * PFM_MAX_PMDS);
#undef PFM_ABI_SIZE_CHECK

#endif /* _UAPI_PERFMON_PERFMON_H */
