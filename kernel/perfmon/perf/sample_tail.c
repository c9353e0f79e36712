// SPDX-License-Identifier: GPL-2.0
/*
 * perfmon: the PERF_RECORD_SAMPLE fields after RAW, in 6.1's order:
 * REGS_USER, STACK_USER, WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION,
 * REGS_INTR, PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX.  They are what
 * perf record asks for with --call-graph dwarf (the user registers and a copy of
 * the user stack, which perf unwinds with the binaries' DWARF), -d, -W,
 * --user-regs, --intr-regs, --transaction, --phys-data, --data-page-size,
 * --code-page-size and --all-cgroups.
 *
 * The values are 6.1's for an event without PEBS, IBS or TSX: WEIGHT 0,
 * DATA_SRC PERF_MEM_NA, TRANSACTION 0.  The registers are x86-64's, in the
 * order of the mask's bits (asm/perf_regs.h); DS, ES, FS, GS and the reserved
 * bits are EINVAL at open, XMM registers EOPNOTSUPP (no PMU here records them),
 * as perf_reg_validate() and perf_try_init_event() answer.  The user
 * registers are the thread's user-mode state (the saved frame of its entry
 * into the kernel, which is what 6.1 gives outside an NMI); a kernel thread's
 * are ABI NONE, with no values.  The interrupted registers are those of the
 * fault, the timer's interrupt or the tracepoint's call site; where the source
 * does not keep them (a breakpoint, a PMU interrupt handled from its irq_work)
 * the thread's user-mode ones for a sample taken in user mode, and ABI NONE
 * for one taken in the kernel.  The stack is copied from the user stack
 * pointer up, sample_stack_user bytes at most, less where user space ends or
 * the record's 64 KiB would be passed (perf_sample_ustack_size()'s rule), then
 * the bytes copied before the first that could not be read without a fault.
 * PHYS_ADDR is the physical address of ADDR's page where it is mapped (0
 * where it is not, as for a fault's page before the fault maps it), CGROUP the
 * id of the thread's perf_event cgroup, the page sizes those of the page
 * tables' entries for ADDR and the IP (0 where nothing is mapped).  AUX is
 * the size 0: no event here has an AUX area (a non-zero aux_sample_size is
 * EINVAL at open, as 6.1 answers without an AUX event leading the group).
 */
#include <linux/cgroup.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/pgtable.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/perf_regs.h>

#include "layer.h"
#include "event.h"
#include "sample.h"

#define PFM_PERF_REG_NOSUPPORT	((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
				 (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS))
#define PFM_PERF_REG_RESERVED	(((1ULL << PERF_REG_X86_XMM0) - 1) & \
				 ~((1ULL << PERF_REG_X86_64_MAX) - 1))

/* perf_reg_validate() of x86-64: EINVAL. */
int pfm_perf_regs_check(u64 mask)
{
	if (!mask || (mask & (PFM_PERF_REG_NOSUPPORT | PFM_PERF_REG_RESERVED)))
		return -EINVAL;
	return 0;
}

#define PFM_PERF_REG(id, r)	[id] = offsetof(struct pt_regs, r) / sizeof(unsigned long)

/* Each register of the mask's first 24 bits, as a word of pt_regs; -1 none. */
static const s8 pfm_perf_reg_word[PERF_REG_X86_64_MAX] = {
	PFM_PERF_REG(PERF_REG_X86_AX, ax),
	PFM_PERF_REG(PERF_REG_X86_BX, bx),
	PFM_PERF_REG(PERF_REG_X86_CX, cx),
	PFM_PERF_REG(PERF_REG_X86_DX, dx),
	PFM_PERF_REG(PERF_REG_X86_SI, si),
	PFM_PERF_REG(PERF_REG_X86_DI, di),
	PFM_PERF_REG(PERF_REG_X86_BP, bp),
	PFM_PERF_REG(PERF_REG_X86_SP, sp),
	PFM_PERF_REG(PERF_REG_X86_IP, ip),
	PFM_PERF_REG(PERF_REG_X86_FLAGS, flags),
	PFM_PERF_REG(PERF_REG_X86_CS, cs),
	PFM_PERF_REG(PERF_REG_X86_SS, ss),
	[PERF_REG_X86_DS] = -1, [PERF_REG_X86_ES] = -1,
	[PERF_REG_X86_FS] = -1, [PERF_REG_X86_GS] = -1,
	PFM_PERF_REG(PERF_REG_X86_R8, r8),
	PFM_PERF_REG(PERF_REG_X86_R9, r9),
	PFM_PERF_REG(PERF_REG_X86_R10, r10),
	PFM_PERF_REG(PERF_REG_X86_R11, r11),
	PFM_PERF_REG(PERF_REG_X86_R12, r12),
	PFM_PERF_REG(PERF_REG_X86_R13, r13),
	PFM_PERF_REG(PERF_REG_X86_R14, r14),
	PFM_PERF_REG(PERF_REG_X86_R15, r15),
};

/* abi, then the mask's registers of regs (none for ABI NONE); the words written */
static unsigned int pfm_perf_regs(const struct pt_regs *regs, u64 mask, u64 *w)
{
	const unsigned long *r = (const unsigned long *)regs;
	unsigned int n = 1, bit;

	if (!regs) {
		w[0] = PERF_SAMPLE_REGS_ABI_NONE;
		return 1;
	}
	w[0] = user_64bit_mode(task_pt_regs(current)) ? PERF_SAMPLE_REGS_ABI_64 :
							  PERF_SAMPLE_REGS_ABI_32;
	for (bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		w[n++] = bit < PERF_REG_X86_64_MAX && pfm_perf_reg_word[bit] >= 0 ?
			 r[pfm_perf_reg_word[bit]] : 0;
	}
	return n;
}

/* The thread's user-mode registers, NULL for a kernel thread. */
static struct pt_regs *pfm_perf_user_regs(void)
{
	return current->flags & PF_KTHREAD ? NULL : task_pt_regs(current);
}

/*
 * STACK_USER: the size, the bytes from the user stack pointer, the bytes read;
 * hdr the record's bytes so far and those of the fields after this one (6.1
 * leaves REGS_INTR's out, and a record with both near 64 KiB would wrap its
 * size there).
 */
static unsigned int pfm_perf_ustack(const struct perf_event_attr *a, struct pt_regs *regs,
				    unsigned int hdr, u64 *w)
{
	unsigned long sp, left;
	u64 size = a->sample_stack_user;

	if (!regs) {
		w[0] = 0;
		return 1;
	}
	sp = user_stack_pointer(regs);
	left = current->mm && sp && sp < TASK_SIZE ? TASK_SIZE - sp : 0;
	size = round_down(min3(size, (u64)USHRT_MAX, (u64)left), sizeof(u64));
	/* the record's u16 size: what does not fit is left out (perf rounds up) */
	if (hdr + 2 * sizeof(u64) + size > USHRT_MAX)
		size = round_up(USHRT_MAX - hdr - 2 * sizeof(u64) - sizeof(u64), sizeof(u64));
	w[0] = size;
	if (!size)
		return 1;
	left = copy_from_user_nmi(w + 1, (const void __user *)sp, size);
	memset((u8 *)(w + 1) + size - left, 0, left);
	w[1 + size / sizeof(u64)] = size - left;
	return 2 + size / sizeof(u64);
}

/*
 * perf_virt_to_phys(): a kernel address of the direct map, or a user address
 * whose page is mapped; 0 for anything else (vmalloc, not mapped).
 */
static u64 pfm_perf_phys(u64 virt)
{
	struct page *p;
	u64 phys = 0;

	if (!virt)
		return 0;
	if (virt >= TASK_SIZE) {
		if (virt_addr_valid((void *)(uintptr_t)virt) &&
		    !(virt >= VMALLOC_START && virt < VMALLOC_END))
			phys = virt_to_phys((void *)(uintptr_t)virt);
		return phys;
	}
	if (!current->mm)
		return 0;
	pagefault_disable();
	if (get_user_page_fast_only(virt, 0, &p)) {
		phys = page_to_phys(p) + virt % PAGE_SIZE;
		put_page(p);
	}
	pagefault_enable();
	return phys;
}

/*
 * The size of the page table entry that maps addr, 0 if none: a lockless walk
 * with interrupts off (they hold off the tables' teardown), in the thread's
 * tables (a kernel thread borrows the last user's, whose kernel half is
 * everyone's).
 */
static u64 pfm_perf_page_size(unsigned long addr)
{
	struct mm_struct *mm = current->mm ?: current->active_mm;
	pgd_t *pgdp, pgd;
	p4d_t *p4dp, p4d;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;
	pte_t *ptep, pte;
	u64 size = 0;

	if (!addr || !mm)
		return 0;
	pgdp = pgd_offset(mm, addr);
	pgd = READ_ONCE(*pgdp);
	if (pgd_none(pgd))
		return 0;
	if (pgd_leaf(pgd))
		return pgd_leaf_size(pgd);
	p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d = READ_ONCE(*p4dp);
	if (!p4d_present(p4d))
		return 0;
	if (p4d_leaf(p4d))
		return p4d_leaf_size(p4d);
	pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud = READ_ONCE(*pudp);
	if (!pud_present(pud))
		return 0;
	if (pud_leaf(pud))
		return pud_leaf_size(pud);
	pmdp = pmd_offset_lockless(pudp, pud, addr);
	pmd = READ_ONCE(*pmdp);
	if (!pmd_present(pmd))
		return 0;
	if (pmd_leaf(pmd))
		return pmd_leaf_size(pmd);
	ptep = pte_offset_map(&pmd, addr);
	pte = ptep_get_lockless(ptep);
	if (pte_present(pte))
		size = pte_leaf_size(pte);
	pte_unmap(ptep);
	return size;
}

static u64 pfm_perf_cgroup_id(void)
{
#ifdef CONFIG_CGROUP_PERF
	return cgroup_id(task_css_check(current, perf_event_cgrp_id, 1)->cgroup);
#else
	return 0;
#endif
}

/* The fixed-size fields after STACK_USER, for the room its copy may take. */
#define PFM_PERF_SAMPLE_FIXED_AFTER	(PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_DATA_SRC | \
					 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | \
					 PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | \
					 PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)

/*
 * The fields after RAW, at w (the record has n words before them), for a sample
 * at at with IP ip; interrupts off.  Returns the words written.
 */
unsigned int pfm_perf_sample_tail(const struct pfm_perf_event *ev, u64 *w, unsigned int n,
				  const struct pfm_ovfl_where *at, u64 ip)
{
	const struct perf_event_attr *a = &ev->attr;
	u64 st = a->sample_type, addr = 0;
	struct pt_regs *uregs = pfm_perf_user_regs(), *iregs;
	unsigned int k = 0, hdr;

	if (st & PERF_SAMPLE_REGS_USER)
		k += pfm_perf_regs(uregs, a->sample_regs_user, w + k);
	if (st & PERF_SAMPLE_STACK_USER) {
		hdr = n + k + hweight64(st & PFM_PERF_SAMPLE_FIXED_AFTER);
		if (st & PERF_SAMPLE_REGS_INTR)
			hdr += 1 + hweight64(a->sample_regs_intr);
		k += pfm_perf_ustack(a, uregs, hdr * sizeof(u64), w + k);
	}
	if (st & PERF_SAMPLE_WEIGHT_TYPE)
		w[k++] = 0;
	if (st & PERF_SAMPLE_DATA_SRC)
		w[k++] = PERF_MEM_NA;
	if (st & PERF_SAMPLE_TRANSACTION)
		w[k++] = 0;
	if (st & PERF_SAMPLE_REGS_INTR) {
		iregs = at && at->regs ? at->regs : (at && at->kernel ? NULL : uregs);
		k += pfm_perf_regs(iregs, a->sample_regs_intr, w + k);
	}
	if (st & (PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE))
		addr = pfm_perf_sample_addr(ev);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		w[k++] = pfm_perf_phys(addr);
	if (st & PERF_SAMPLE_CGROUP)
		w[k++] = pfm_perf_cgroup_id();
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		w[k++] = pfm_perf_page_size(addr);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		w[k++] = pfm_perf_page_size(ip);
	if (st & PERF_SAMPLE_AUX)
		w[k++] = 0;
	return k;
}
