# SPDX-License-Identifier: GPL-2.0
#
# make check-perf-clients: real perf_event clients (Debian's perf, PAPI's
# papi_command_line, stress-ng), the perf_event_open(2) example program, the
# kernel's perf_events selftests (selftests.mk) and the differential test
# perf_diff, each run in the guest natively and through the
# perf_event_open shim (perf-clients.sh): on Debian's kernel with perfmon.ko, then
# on the in-tree debug kernel through system call 462 (check-perf-clients-debug).
# Both are in make check.  PERF_SHIM=absent expects every shim half to fail (none
# may be answered by anything else), and passes; PERF_CLIENTS_ONLY=a:b runs only
# those clients (perf-clients.sh); PERF_CLIENTS_DEBUG=all runs on the debug kernel
# the clients make check leaves out there.  PERF_CLIENTS_ONLY=perf_test_all runs every
# test of perf test, natively and through the shim (perf-test.sh; not in the
# default list: 20 minutes and more under TCG); PERF_TEST_ONLY=50:85 only those test
# numbers, PERF_TEST_LIMIT=SECONDS each run's limit (120), PERF_TEST_DUMP=1 prints
# each run's perf test -v output.  PERF_DIFF_CASES=bp-kernel:bp-cpu runs only those
# cases of perf_diff (names in diff_cases.c).
#
# The clients are the host's Debian binaries, copied into the image with their
# shared libraries (about 22 MB gzipped); the guest runs the host's glibc.

PERF_CLIENTS := /usr/bin/perf /usr/bin/papi_command_line /usr/bin/stress-ng
PERF_DIFF_SRCS := $(wildcard $(TOP)/tests/guest/clients/diff*.c)
PERF_GUEST_BINS := $(B)/guest/bin/noperf $(B)/guest/bin/perf_diff $(B)/guest/bin/manpage \
		   $(B)/guest/bin/execenv $(B)/guest/bin/fallback \
		   $(B)/guest/bin/cputime $(B)/guest/bin/workload-fp \
		   $(B)/guest/bin/workload-dyn $(B)/guest/bin/dlopen_main $(B)/guest/bin/libpfm_dl.so

.PHONY: check-perf-clients check-perf-clients-debug perf-guest-bins
perf-guest-bins: $(PERF_GUEST_BINS) $(LIBPFM_PERF_SO)

# Dynamic, as a user's program is: the preload answers its syscall().
$(B)/guest/bin/manpage: $(TOP)/tests/guest/clients/manpage.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -o $@ $<

$(B)/guest/bin/execenv: $(TOP)/tests/guest/clients/execenv.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -o $@ $<

$(B)/guest/bin/fallback: $(TOP)/tests/guest/clients/fallback.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -o $@ $<

$(B)/guest/bin/noperf: $(TOP)/tests/guest/clients/noperf.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $<

# The workload with frame pointers, for perf record -g (perf-record.sh)
$(B)/guest/bin/workload-fp: $(TOP)/tools/pfmon/workload.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -fno-omit-frame-pointer -static -pthread -o $@ $<

# The same, dynamic, for perf record -F -g on a program that loads libc
$(B)/guest/bin/workload-dyn: $(TOP)/tools/pfmon/workload.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -fno-omit-frame-pointer -pthread -o $@ $<

# A program that loads a library with dlopen() at run time (perf-system.sh)
$(B)/guest/bin/dlopen_main: $(TOP)/tests/guest/clients/dlopen_main.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -o $@ $< -ldl

$(B)/guest/bin/libpfm_dl.so: $(TOP)/tests/guest/clients/dlopen_lib.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -fPIC -shared -o $@ $<

$(B)/guest/bin/cputime: $(TOP)/tests/guest/clients/cputime.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $<

$(B)/guest/bin/perf_diff: $(PERF_DIFF_SRCS) $(TOP)/tests/guest/clients/diff.h $(LIBPFM_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $(PERF_DIFF_SRCS) $(LIBPFM_A)

PERF_CLIENTS_FILES = $(TOP)/tests/guest/clients/perf-clients.sh \
	$(B)/guest/bin/workload:/bin/workload $(B)/guest/bin/cputime:/bin/cputime \
	$(B)/guest/bin/workload-fp:/bin/workload-fp +$(B)/guest/bin/workload-dyn:/bin/workload-dyn \
	$(B)/guest/bin/noperf:/bin/noperf $(B)/guest/bin/perf_diff:/bin/perf_diff \
	+$(B)/guest/bin/dlopen_main:/bin/dlopen_main $(B)/guest/bin/libpfm_dl.so:/lib/libpfm_dl.so \
	$(LIBPFM_PERF_SO):/lib/perfmon/libperfmon-perf.so $(TOP)/tools/pfm-perf:/bin/pfm-perf \
	+$(B)/guest/bin/manpage:/bin/manpage +$(B)/guest/bin/execenv:/bin/execenv \
	+$(B)/guest/bin/fallback:/bin/fallback \
	$(TOP)/tests/guest/clients/perf-fallback.sh:/bin/perf-fallback.sh \
	$(TOP)/tests/guest/clients/perf-record.sh:/bin/perf-record.sh \
	$(TOP)/tests/guest/clients/perf-system.sh:/bin/perf-system.sh \
	$(TOP)/tests/guest/clients/perf-test.sh:/bin/perf-test.sh \
	$(TOP)/tests/guest/clients/perf-trace.sh:/bin/perf-trace.sh \
	$(TOP)/tests/guest/clients/pfmon-perf.sh:/bin/pfmon-perf.sh $(B)/guest/bin/pfmon:/bin/pfmon \
	$(B)/guest/bin/runas:/bin/runas \
	/usr/lib/perf-core/tests:/usr/lib/perf-core/tests \
	+/usr/bin/bash:/bin/bash +/usr/bin/strace:/usr/bin/strace \
	+/usr/bin/mktemp:/opt/gnu/bin/mktemp +/usr/bin/tail:/opt/gnu/bin/tail \
	$(foreach c,$(PERF_CLIENTS),+$(c):$(c)) $(SELFTESTS_FILES)
PERF_CLIENTS_APPEND = $(strip $(if $(PERF_SHIM),PFM_SHIM=$(PERF_SHIM)) \
	$(if $(PERF_CLIENTS_ONLY),PERF_CLIENTS_ONLY=$(PERF_CLIENTS_ONLY)) \
	$(if $(PERF_TEST_ONLY),PERF_TEST_ONLY=$(PERF_TEST_ONLY)) \
	$(if $(PERF_DIFF_CASES),PERF_DIFF_CASES=$(PERF_DIFF_CASES)) \
	$(if $(PERF_TEST_LIMIT),PERF_TEST_LIMIT=$(PERF_TEST_LIMIT)) \
	$(if $(PERF_TEST_DUMP),PERF_TEST_DUMP=$(PERF_TEST_DUMP)) \
	$(if $(PERF_CLIENTS_DEBUG),PERF_CLIENTS_DEBUG=$(PERF_CLIENTS_DEBUG)))
# perf_test_all takes up to two limits per test: the whole boot gets 3 hours
PERF_CLIENTS_TIMEOUT = $(if $(findstring perf_test_all,$(PERF_CLIENTS_ONLY)),10800,900)

check-perf-clients: module guest-bins perf-guest-bins perf-selftests
	$(MKINITRAMFS) $(B)/guest/perf-clients.cpio.gz $(PERF_CLIENTS_FILES) \
		$(PFM_KO):/lib/perfmon.ko
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/guest/perf-clients.cpio.gz \
		$(if $(PERF_CLIENTS_APPEND),--append "$(PERF_CLIENTS_APPEND)") --timeout $(PERF_CLIENTS_TIMEOUT) \
		--log $(B)/guest/perf-clients.log

# The same on the debug kernel: its perf_events answers the native half, the
# shim answers through the system call, and any kernel report fails the run.
check-perf-clients-debug: $(KERNEL_DEP) guest-bins perf-guest-bins perf-selftests
	$(MKINITRAMFS) $(B)/guest/perf-clients-debug.cpio.gz $(PERF_CLIENTS_FILES)
	$(RUN_GUEST) --kernel $(DEBUG_KERNEL) --initrd $(B)/guest/perf-clients-debug.cpio.gz \
		--append "$(DEBUG_APPEND) $(PERF_CLIENTS_APPEND)" --timeout 1500 \
		--log $(B)/guest/perf-clients-debug.log
