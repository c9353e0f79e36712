// SPDX-License-Identifier: GPL-2.0
/*
 * calls: the entry table made from the uapi list of calls (entry.c), and the rows
 * whose function a layer registers: without it the call answers ENOSYS, as a
 * kernel without the call would, whatever its arguments.
 */
#include "harness.h"
#include "entry.c"

/*
 * What entry.c reaches in the kernel-only files (file.c, access.c, smpl_fmt.c):
 * nothing here gets as far as a context.
 */
int pfm_access_create(u32 flags __always_unused)
{
	return -EPERM;
}

struct pfm_context *pfm_ctx_fdget(int fd __always_unused, struct fd *f)
{
	f->file = NULL;
	return ERR_PTR(-EBADF);
}

int pfm_ctx_install_fd(struct pfm_context *ctx __always_unused,
		       bool cloexec __always_unused)
{
	return -EMFILE;
}

int pfm_smpl_setup(struct pfm_smpl_buf *b __always_unused, u32 ctx_flags __always_unused,
		   const char __user *uname __always_unused,
		   const void __user *uarg __always_unused, u64 arg_size __always_unused)
{
	return -EINVAL;
}

void pfm_smpl_release(struct pfm_smpl_buf *b __always_unused)
{
}

static long calls_layer_seen;

static long calls_layer(const struct pfm_args *args)
{
	calls_layer_seen++;
	return 1000 + (long)args->a[1];
}

/* pfm_perf_event_open(attr, pid, cpu, group_fd, flags) */
static const struct pfm_args calls_perf_args = { .a = { 0x1000, 7, (unsigned long)-1, 3, 0 } };

START_TEST(test_rows_from_list)
{
	const struct pfm_entry *e;

	e = pfm_entry(PFM_CALL_READ_PMDS);
	ck_assert_str_eq(e->name, "pfm_read_pmds");
	ck_assert_int_eq(e->kind, PFM_ENTRY_VEC);
	ck_assert(e->user_vec);
	ck_assert_uint_eq(e->elem_size, sizeof(struct pfarg_pmd));
	ck_assert_uint_eq(pfm_entry_nargs(e), 3);

	e = pfm_entry(PFM_CALL_GETINFO_EVTSETS);
	ck_assert(e->copy_out);
	ck_assert_uint_eq(e->elem_size, sizeof(struct pfarg_setinfo));

	e = pfm_entry(PFM_CALL_STOP);
	ck_assert_int_eq(e->kind, PFM_ENTRY_CTL_FLAGS);
	ck_assert_uint_eq(pfm_entry_nargs(e), 2);

	e = pfm_entry(PFM_CALL_PERF_EVENT_OPEN);
	ck_assert_str_eq(e->name, "pfm_perf_event_open");
	ck_assert_int_eq(e->kind, PFM_ENTRY_LAYER);
	ck_assert_int_eq(e->ioc, PFM_IOC_ARGS);
	ck_assert_uint_eq(pfm_entry_nargs(e), 5);
	ck_assert_int_eq(e->args[2], PFM_ARG_INT);

	ck_assert_ptr_null(pfm_entry(PFM_CALL_NR));
}
END_TEST

START_TEST(test_layer_unregistered_enosys)
{
	/* bad arguments too: a call that does not exist looks at none */
	struct pfm_args junk = { .a = { 1, 2, 3, 4, 5, 6 } };

	ck_assert_int_eq(pfm_call(PFM_CALL_PERF_EVENT_OPEN, &calls_perf_args), -ENOSYS);
	ck_assert_int_eq(pfm_call(PFM_CALL_PERF_EVENT_OPEN, &junk), -ENOSYS);
	ck_assert_int_eq(pfm_call(PFM_CALL_NR, &calls_perf_args), -ENOSYS);
	/* the ioctl door answers ENOTTY for a call that is not served */
	ck_assert(!pfm_entry_served(PFM_CALL_PERF_EVENT_OPEN));
	ck_assert(pfm_entry_served(PFM_CALL_WRITE_PMCS));
	ck_assert(!pfm_entry_served(PFM_CALL_NR));
}
END_TEST

START_TEST(test_layer_registered)
{
	ck_assert_int_eq(pfm_entry_register(PFM_CALL_PERF_EVENT_OPEN, calls_layer), 0);
	ck_assert(pfm_entry_served(PFM_CALL_PERF_EVENT_OPEN));
	/* the row widens: pid 7, cpu -1 sign-extended */
	ck_assert_int_eq(pfm_call(PFM_CALL_PERF_EVENT_OPEN, &calls_perf_args), 1007);
	ck_assert_int_eq(calls_layer_seen, 1);
	pfm_entry_unregister(PFM_CALL_PERF_EVENT_OPEN);
	ck_assert_int_eq(pfm_call(PFM_CALL_PERF_EVENT_OPEN, &calls_perf_args), -ENOSYS);
	ck_assert_int_eq(calls_layer_seen, 1);
}
END_TEST

START_TEST(test_register_refused)
{
	ck_assert_int_eq(pfm_entry_register(PFM_CALL_WRITE_PMCS, calls_layer), -EINVAL);
	ck_assert_int_eq(pfm_entry_register(PFM_CALL_NR, calls_layer), -ENOENT);
	ck_assert_int_eq(pfm_entry_register(PFM_CALL_PERF_EVENT_OPEN, calls_layer), 0);
	ck_assert_int_eq(pfm_entry_register(PFM_CALL_PERF_EVENT_OPEN, calls_layer), -EBUSY);
	pfm_entry_unregister(PFM_CALL_PERF_EVENT_OPEN);
	ck_assert_int_eq(pfm_entry_register(PFM_CALL_PERF_EVENT_OPEN, calls_layer), 0);
	pfm_entry_unregister(PFM_CALL_PERF_EVENT_OPEN);
}
END_TEST

/* A core row is not a layer's to clear: refused with a warning. */
START_TEST(test_unregister_core_row)
{
	pfm_entry_unregister(PFM_CALL_WRITE_PMCS);
	ck_assert_uint_eq(shim_warn_count, 1);
	shim_warn_count = 0;
	ck_assert_int_eq(pfm_call(PFM_CALL_WRITE_PMCS,
				  &(struct pfm_args){ .a = { 3, 0x1000, 48 } }), -EBADF);
}
END_TEST

Suite *pfm_calls_suite(void)
{
	Suite *s = suite_create("calls");
	TCase *tc = pfm_host_tcase("entry", pfm_host_setup_bare);

	tcase_add_test(tc, test_rows_from_list);
	tcase_add_test(tc, test_layer_unregistered_enosys);
	tcase_add_test(tc, test_layer_registered);
	tcase_add_test(tc, test_register_refused);
	tcase_add_test(tc, test_unregister_core_row);
	suite_add_tcase(s, tc);
	return s;
}
