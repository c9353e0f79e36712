# SPDX-License-Identifier: GPL-2.0
#
# The guest test suite: one static binary, pfm_tests, run as root in the QEMU
# guest with perfmon.ko loaded.  Static so that it runs whatever the guest's
# libc; the check library comes from the build host.

GUEST_TEST_SRCS := $(wildcard $(TOP)/tests/guest/*.c)
GUEST_TEST_OBJS := $(patsubst $(TOP)/tests/guest/%.c,$(B)/guest/obj/tests/%.o,$(GUEST_TEST_SRCS)) \
		   $(B)/guest/obj/tests/mux_work.o
GUEST_TEST_HDRS := $(wildcard $(TOP)/tests/guest/*.h) \
		   $(wildcard $(TOP)/libpfm-glue/*.h) \
		   $(wildcard $(TOP)/include/uapi/perfmon/*.h)
# recursive: pkg-config runs only when the tests are built
GUEST_CHECK_CFLAGS = $(shell pkg-config --cflags check)
GUEST_CHECK_LIBS   = $(shell pkg-config --static --libs check) -pthread

.PHONY: guest-bins
guest-bins: $(B)/guest/bin/pfm_tests $(B)/guest/bin/pfmon $(B)/guest/bin/workload $(B)/guest/bin/jsoncheck $(B)/guest/bin/runas

$(B)/guest/bin/pfm_tests: $(GUEST_TEST_OBJS) $(B)/lib/libperfmon.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $(GUEST_TEST_OBJS) \
		$(B)/lib/libperfmon.a $(GUEST_CHECK_LIBS) -lm

$(B)/guest/obj/tests/%.o: $(TOP)/tests/guest/%.c $(GUEST_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -I$(TOP)/tools/bench $(GUEST_CHECK_CFLAGS) -c -o $@ $<

# the benchmark's workloads of known counts, for the mux_accuracy suite
$(B)/guest/obj/tests/mux_work.o: $(TOP)/tools/bench/mux_work.c $(TOP)/tools/bench/mux_work.h \
				 $(GUEST_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -c -o $@ $<
