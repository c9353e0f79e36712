/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perfmon: the x86 hardware PMUs (arch/x86/perfmon/).
 *
 * MODELS
 *
 * One hardware PMU description is active beside the software PMU
 * (<perfmon/perfmon_sw.h>); /sys/kernel/perfmon/pmu_desc/model names it:
 *
 *   intel_arch_v1 .. intel_arch_v6   Intel architectural performance monitoring,
 *                                    version from CPUID leaf 0xA; the counters
 *                                    from leaf 0x23 where the CPU has it
 *   amd64                            AMD: the four legacy PERF_CTL/PERF_CTR pairs
 *   amd64_core                       AMD: the six core counters (PerfCtrExtCore)
 *   amd64_perfmon_v2                 AMD: PerfMonV2 (global control and status)
 *   software                         no usable hardware PMU: software events only
 *
 * The module parameter pmu_model (perfmon.pmu_model= on the kernel command line)
 * forces one: auto (default), software, intel_arch, amd64, amd64_core or
 * amd64_perfmon_v2.  A forced model skips the vendor check, never the discovery
 * from CPUID nor the check that the registers really exist.
 *
 * REGISTERS
 *
 * The same logical numbers on both vendors for the general-purpose counters:
 *
 *   PMC0..PMC15   event selects: Intel IA32_PERFEVTSELx, AMD PERF_CTLx
 *   PMD0..PMD15   their counters, PMDi counting under PMCi: Intel IA32_PMCx (or the
 *                 full-width alias IA32_A_PMCx), AMD PERF_CTRx
 *   PMC16         Intel IA32_FIXED_CTR_CTRL: four bits per fixed counter
 *   PMD16..PMD23  Intel IA32_FIXED_CTR0..7, all counting under PMC16
 *
 * Only the registers the CPU has are implemented (pmu_desc lists them): where CPUID
 * leaf 0x23 describes the counters by bitmap, a counter missing from it is not
 * implemented even below one that is (PMC4 absent beside PMC5, FIXED_CTR3 absent
 * beside FIXED_CTR4), and writing it is EINVAL.  The global
 * control, status and overflow registers are the kernel's and are not exported.
 *
 * EVENT SELECT VALUES (PMC0..15) are written as libpfm4 encodes them
 * (pfm_get_os_event_encoding(..., PFM_OS_NONE, ...)):
 *
 *   bits  7:0   event select           bit 20  INT (see below)
 *   bits 15:8   unit mask              bit 21  Intel AnyThread (v3 and v4, privileged)
 *   bit  16     USR: count at CPL 1-3  bit 22  EN (see below)
 *   bit  17     OS: count at CPL 0     bit 23  INV
 *   bit  18     EDGE                   bits 31:24  counter mask
 *   AMD only: bits 35:32  event select bits 11:8 (family 10h and later)
 *
 * Everything else is reserved and refused (EINVAL), including Intel's pin control
 * (bit 19) and AMD's HostOnly/GuestOnly (bits 41:40).  So are the architectural
 * events CPUID says this CPU does not have: leaf 0x23 sub-leaf 3's bitmap of
 * the events present where the CPU has it, else leaf 0xA's EBX.  Intel's
 * architectural events, bit k of both, as event select 15:0 (unit mask, event):
 *
 *   0  0x003c core cycles          5  0x00c4 branches          10  0x019c topdown frontend bound
 *   1  0x00c0 instructions         6  0x00c5 branch misses     11  0x02c2 topdown retiring
 *   2  0x013c reference cycles     7  0x01a4 topdown slots     12  0x01e4 LBR inserts
 *   3  0x4f2e LLC references       8  0x02a4 topdown backend bound
 *   4  0x412e LLC misses           9  0x0073 topdown bad speculation
 *
 * A bit past EBX's length (EAX[31:24]) on a CPU without sub-leaf 3 is an event
 * missing for bits 0-7; for bits 8-12 (version 6) it says nothing, and the code
 * is the model's own event, accepted (0x02c2 UOPS_RETIRED.RETIRE_SLOTS, 0x019c
 * IDQ_UOPS_NOT_DELIVERED.CORE on Sandy Bridge to Skylake).
 *
 *   EN    is the counter's on/off switch, as in the software PMU: a counter whose PMC
 *         has EN clear does not count.  With EN set it counts while monitoring is
 *         started; the kernel, not the value, starts and stops it.
 *   INT   is accepted and ignored: the kernel sets INT on every counter it runs, since
 *         the overflow interrupt is what extends counters to 64 bits.
 *
 * IA32_FIXED_CTR_CTRL (PMC16), four bits per fixed counter j at bit 4j:
 *   bit 0  OS    bit 1  USR    bit 2  AnyThread (v3, v4; privileged)    bit 3  PMI
 * A fixed counter is on when OS or USR is set; PMI is accepted and ignored like INT.
 *
 * Kernel-level counting (OS) and AnyThread need privilege: at
 * a paranoid level >= 2 (perfmon.h, ACCESS) only perfmon-capable users may set them (EPERM).
 *
 * COUNTERS
 *
 * Every counter reads as 64 bits; pmu_desc/pmdN/width is the hardware's width (48 on
 * current CPUs), the part of the value the hardware holds.  With PFM_PMCFL_NO_EMUL64
 * the PMD reads as that many bits.  The kernel takes an overflow interrupt at least
 * every 2^(width-1) events of each counter (every 2^31 on Intel CPUs without
 * full-width counter writes) to extend it.
 *
 * AVAILABILITY
 *
 * Counters held by someone else (perf_events, the NMI watchdog) are never touched:
 * pfm_getinfo_evtsets() leaves them out of set_avail_pmcs/pmds.  perf_events holds
 * every general-purpose counter while it has any event, and uses the fixed counters
 * without reserving them; so the fixed counters are available only when at least
 * one general-purpose counter is.
 *
 * PERF EVENTS
 *
 * pfm_perf_event_open() (<perfmon/perfmon_perf.h>, PERF_EVENT_OPEN COMPATIBILITY) puts
 * perf's hardware events on these counters, with the event select values
 * perf_events would program for the same attr (Linux 6.1's x86 code):
 *
 *   PERF_TYPE_HARDWARE  Intel: the architectural events of CPUID leaf 0xA:
 *                         cpu-cycles 0x003c, instructions 0x00c0,
 *                         cache-references 0x4f2e, cache-misses 0x412e,
 *                         branches 0x00c4, branch-misses 0x00c5,
 *                         bus-cycles 0x013c, ref-cycles fixed counter 2 only;
 *                         stalled-cycles-frontend and -backend have no
 *                         architectural event: ENOENT; nor has an event CPUID
 *                         marks unavailable: ENOENT; nor ref-cycles without
 *                         fixed counter 2 (6.1 accepts it there, but cannot
 *                         count it: its pseudo-encoding is no real event).
 *                       AMD families 0Fh-16h: cycles 0x0076, instructions 0x00c0,
 *                         cache-references 0x077d, cache-misses 0x077e, branches
 *                         0x00c2, branch-misses 0x00c3, stalled-cycles-frontend
 *                         0x00d0, -backend 0x00d1; family 17h and later the
 *                         same but cache-references 0xff60, cache-misses 0x0964,
 *                         stalled 0x0287 and 0x0187; bus-cycles and ref-cycles
 *                         ENOENT.
 *                       A config past PERF_COUNT_HW_MAX: EINVAL.
 *   PERF_TYPE_HW_CACHE  Intel: ENOENT (architectural perfmon has no cache events;
 *                         6.1 has tables only for models it knows by name).
 *                       AMD: 6.1's tables (families before and from 17h).
 *                       Cache, operation or result past perf's lists: EINVAL;
 *                       an operation the cache cannot have (write to L1I;
 *                       write or prefetch on ITLB, BPU, NODE): EINVAL; one the
 *                       model has no event for: ENOENT.
 *   PERF_TYPE_RAW       config is an event select: event, unit mask, EDGE, INV,
 *                         counter mask, Intel AnyThread (v3, v4; privileged:
 *                         EACCES), AMD event bits 35:32 (family 10h on).  Its
 *                         USR, OS, INT and EN bits are ignored, as perf_events
 *                         ignores them.  Any other bit this model reserves:
 *                         EINVAL (perf_events drops them silently; so do not
 *                         rely on it).  An architectural event CPUID marks
 *                         unavailable: EINVAL.
 *   For HARDWARE and HW_CACHE, config bits 63:32 may name the PMU (perf's
 *   extended type): 0 or PERF_TYPE_RAW (the x86 PMU's type), else ENOENT.
 *
 *   Levels: exclude_user clears USR, exclude_kernel OS (kernel level needs
 *   privilege: EACCES); both set, the event counts nothing and takes no counter.
 *   exclude_hv, exclude_idle and exclude_guest are accepted and change nothing
 *   (x86 has no hypervisor level; perfmon counts the thread).  exclude_host
 *   (count in a guest only) cannot be honoured: EINVAL, the errno perf_events
 *   gives exclude bits a PMU cannot honour.  precise_ip (PEBS, IBS):
 *   EOPNOTSUPP.
 *
 *   Counters: Intel instructions (0x00c0) and core cycles (0x003c) without
 *   EDGE, INV or counter mask go on fixed counters 0 and 1 when free, ref-cycles
 *   (pseudo-encoding 0x0300) and RAW 0x0400, 0x0500, ... on fixed counter 2, 3,
 *   ... only; everything else on a general-purpose counter.  The events of one
 *   thread that program the same value share a counter.  A group that does not
 *   fit beside the thread's other groups is multiplexed with them in event
 *   sets (<perfmon/perfmon_perf.h>, PERF_EVENT_OPEN COMPATIBILITY).  A group that
 *   finds no counter even alone, or a member none beside its leader, is
 *   refused when opened: EINVAL (the errno perf_events gives a group that
 *   cannot be scheduled), or EBUSY when a counter it could use is held by
 *   someone else (perf_events, the NMI watchdog).  Not modelled:
 *   AMD's paired "large increment" events and northbridge events, Intel's
 *   model-specific constraints and extra registers (offcore response), the
 *   hybrid PMUs' model-specific events (their PEBS, topdown metrics).
 *
 * HYBRID
 *
 * Hybrid Intel processors (CPUID.07H:EDX[15]: Lakefield, Alder Lake and later)
 * have P cores and E cores whose PMUs differ.  The registers above describe
 * both together, each type having the counters its own leaves 0xA and 0x23
 * give; a context uses one type's (<perfmon/perfmon.h>, CPU TYPES): cpu_core,
 * id 0x40, and cpu_atom, id 0x20 (the CPUID.1AH core types), named as
 * perf_events names their PMUs.  Each type has the architectural events its
 * own leaf 0x23 sub-leaf 3 lists (Meteor Lake's and Lunar Lake's E cores lack
 * Topdown Slots, 0x01a4), or without that leaf its leaf 0xA (Alder and Raptor
 * Lake's P cores have Topdown Slots, which the leaf marks missing on both
 * types): an event select of one the context's type lacks is
 * EINVAL, and a CPU session that named no type and programs one may not
 * attach to a CPU of a type that lacks it (EINVAL).  A context of every type (a thread's,
 * of the perf layer) is refused only the events no type has.
 *
 * Through pfm_perf_event_open() a hardware event opens on one type's PMU,
 * found as Linux 6.1's perf_init_event() finds it, by the type numbers
 * perf_events gives the two PMUs (/sys/bus/event_source/devices/cpu_core/type
 * and cpu_atom/type): cpu_core's is PERF_TYPE_RAW, as 6.1 registers the P
 * cores' PMU; cpu_atom's is the number the running kernel's perf_events gave
 * it, asked of the kernel when perfmon loads (a disabled kernel counter is
 * opened on an E core with each number from PERF_TYPE_MAX until cpu_atom's
 * PMU takes it; without perf_events' cpu_atom, cpu_atom has no number and is
 * reached only through a CPU).
 *   - HARDWARE and HW_CACHE: config bits 63:32 (perf's extended type) name the
 *     PMU by its number; 0 is cpu_core's, but for an event on one CPU of an E
 *     core (cpu >= 0), cpu_atom's (6.1 tries the other PMUs once cpu_core's
 *     refuses that CPU).  Any other number: ENOENT.  Difference: 6.1 opens a
 *     number that is no PMU's at all on cpu_core (its search of every PMU
 *     ignores the extended type); perfmon tells no such number from another
 *     PMU's and refuses both.
 *   - RAW: attr.type PERF_TYPE_RAW opens on cpu_core, cpu_atom's number on
 *     cpu_atom; config as above.  Any other type: ENOENT.
 *   - An event on one CPU (cpu >= 0) of another type than its PMU's: ENOENT,
 *     as 6.1's hybrid PMUs refuse a CPU outside their own.
 *   - Each type's events use that type's counters: a pseudo-encoding for a
 *     fixed counter the type lacks is ENOENT (0x0400, topdown slots, on
 *     cpu_atom), as on a model without it.  An architectural event the type
 *     lacks (its leaf 0x23 sub-leaf 3): RAW EINVAL (RAW 0x01a4 on cpu_atom),
 *     HARDWARE ENOENT, as on a model without it.  Difference: 6.1 reads no
 *     leaf 0x23 and checks no RAW event against CPUID.
 *   - A CPU's events count with the CPU session of the CPU's type.  A thread's
 *     events, of both types, share its one context, which counts on every
 *     CPU: each hardware event's counter is switched on only while the thread
 *     runs on a CPU of its type, and its group's software events with it, as
 *     6.1 schedules a group on its PMU's CPUs only.  Its count is its type's;
 *     time_enabled runs wherever the thread runs and time_running only on its
 *     type, as 6.1's.  Such an event takes a general-purpose counter of its
 *     own (the fixed counters' enable bits are one register, which the switch
 *     cannot share): one that only a fixed counter counts (ref-cycles,
 *     pseudo-encodings) is EINVAL on a thread there.  A group's hardware
 *     events of two types: EINVAL, as 6.1's validate_group() (which lets the
 *     first member of another type in and refuses the next).  Not as 6.1: a
 *     group led by a software event counts its leader on every type.
 */
#ifndef _UAPI_PERFMON_PERFMON_X86_H
#define _UAPI_PERFMON_PERFMON_X86_H

#define PFM_X86_FIRST_GP_PMC		0
#define PFM_X86_FIRST_GP_PMD		0
#define PFM_X86_MAX_GP			16
#define PFM_X86_FIXED_CTRL_PMC		16
#define PFM_X86_FIRST_FIXED_PMD		16
#define PFM_X86_MAX_FIXED		8

/* event select bits */
#define PFM_X86_SEL_EVENT		0x00000000000000ffULL
#define PFM_X86_SEL_UMASK		0x000000000000ff00ULL
#define PFM_X86_SEL_USR			(1ULL << 16)
#define PFM_X86_SEL_OS			(1ULL << 17)
#define PFM_X86_SEL_EDGE		(1ULL << 18)
#define PFM_X86_SEL_PC			(1ULL << 19)	/* Intel, refused */
#define PFM_X86_SEL_INT			(1ULL << 20)
#define PFM_X86_SEL_ANY			(1ULL << 21)	/* Intel v3, v4 */
#define PFM_X86_SEL_EN			(1ULL << 22)
#define PFM_X86_SEL_INV			(1ULL << 23)
#define PFM_X86_SEL_CMASK		0x00000000ff000000ULL
#define PFM_X86_SEL_AMD_EVENT_HI	0x0000000f00000000ULL

/*
 * The rdpmc operand (ECX) of a counts page's rdpmc[] entry (<perfmon/perfmon.h>,
 * COUNTS PAGE): GP counter i is code i + 1, fixed counter j is 0x80 | (j + 1)
 * (ECX bit 30 selects the fixed counters).
 */
#define PFM_X86_RDPMC_ECX(e)	((((e) & 0x7fU) - 1) | (((e) & 0x80U) << 23))

/* IA32_FIXED_CTR_CTRL bits of fixed counter j */
#define PFM_X86_FIXED_OS(j)		(0x1ULL << (4 * (j)))
#define PFM_X86_FIXED_USR(j)		(0x2ULL << (4 * (j)))
#define PFM_X86_FIXED_ANY(j)		(0x4ULL << (4 * (j)))
#define PFM_X86_FIXED_PMI(j)		(0x8ULL << (4 * (j)))

#endif /* _UAPI_PERFMON_PERFMON_X86_H */
