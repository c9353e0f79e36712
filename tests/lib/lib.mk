# SPDX-License-Identifier: LGPL-2.1
#
# Host tests of libperfmon (tests/lib/): its hardware event names, against the
# system's libpfm4 with a Skylake PMU forced active, and the parts below.  Part of
# make check-host.

LIB_TEST_BIN := $(B)/host/lib/events_test
LIB_MUX_TEST_BIN := $(B)/host/lib/mux_test
LIB_COUNTS_TEST_BIN := $(B)/host/lib/counts_test
LIB_FALLBACK_TEST_BIN := $(B)/host/lib/fallback_test

.PHONY: check-lib
check-host: check-lib
check-lib: $(LIB_TEST_BIN) $(LIB_MUX_TEST_BIN) $(LIB_COUNTS_TEST_BIN) $(LIB_FALLBACK_TEST_BIN)
	LIBPFM_FORCE_PMU=skl $(LIB_TEST_BIN)
	$(LIB_MUX_TEST_BIN)
	$(LIB_COUNTS_TEST_BIN)
	$(LIB_FALLBACK_TEST_BIN)

$(LIB_TEST_BIN): $(TOP)/tests/lib/events_test.c $(LIBPFM_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) $(shell pkg-config --cflags check) -o $@ $< $(LIBPFM_A) -lpfm \
		$(shell pkg-config --libs check)

# The multiplexed-count estimator (libpfm-glue/mux.c) on programs of known counts.
$(LIB_MUX_TEST_BIN): $(TOP)/tests/lib/mux_test.c $(LIBPFM_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) $(shell pkg-config --cflags check) -o $@ $< $(LIBPFM_A) -lm \
		$(shell pkg-config --libs check)

# The counts page's readers (libpfm-glue/counts.c, counts_reader.c) on a page the
# test writes as the kernel does.
$(LIB_COUNTS_TEST_BIN): $(TOP)/tests/lib/counts_test.c $(LIBPFM_A) $(LIBPFM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) $(shell pkg-config --cflags check) -pthread -o $@ $< $(LIBPFM_A) \
		$(shell pkg-config --libs check)

# The preload's choice between perfmon and the kernel's perf_event_open
# (libpfm-glue/preload/fallback.c) on scripted answers of both.
$(LIB_FALLBACK_TEST_BIN): $(TOP)/tests/lib/fallback_test.c $(TOP)/libpfm-glue/preload/fallback.c \
		$(TOP)/libpfm-glue/preload/fallback.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) $(shell pkg-config --cflags check) -o $@ $< \
		$(TOP)/libpfm-glue/preload/fallback.c $(shell pkg-config --libs check)
