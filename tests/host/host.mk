# SPDX-License-Identifier: GPL-2.0
#
# Host unit tests of the perfmon core (tests/host/, see harness.h there): the core's
# own .c files, compiled unchanged against a small kernel-API shim (tests/host/shim/,
# first on the include path), linked with the tests and the check library, and run
# under ASan and UBSan.  Included by the top Makefile, which defines TOP, B and CC.
#
#   make check-host                          build $(B)/host/pfm_host_tests and run it
#   make check-host PFM_HOST_CORE=<dir>      test a copy of kernel/perfmon/ instead
#                                            (with B=<dir> to keep its objects apart)
#   make check-host-noperf                   the host and simulator suites on the core
#                                            alone: PFM_HOST_PERF=n leaves the
#                                            perf_event_open layer's sources and its
#                                            tests out, in $(B)/host-noperf/

PFM_HOST_DIR	:= $(TOP)/tests/host
# PFM_HOST_PERF=n: without the perf_event_open layer, as the module's PFM_PERF=n;
# the objects differ, so they go to a directory of their own.
PFM_HOST_PERF	?= y
PFM_HOST_B	:= $(B)/host$(if $(filter n,$(PFM_HOST_PERF)),-noperf)
PFM_HOST_CORE	?= $(TOP)/kernel/perfmon
PFM_HOST_BIN	:= $(PFM_HOST_B)/pfm_host_tests

# The core files that run on the host (the portable core); what they ask of the
# kernel-only rest (thread.c, sw_hooks.c, access.c, res.c, msg.c, ...) is declared
# in kernel/perfmon/env.h, and tests/host/env.c implements it here.
PFM_HOST_CORE_SRCS := ctx.c flag_ops.c args.c rw.c rw_user.c sets.c set_room.c pmu.c pmu_type.c pmu_state.c state.c sw_pmu.c sw_regs.c sw_clock.c hold.c sw_keyed.c \
		      switch.c ovfl.c \
		      upage.c
# The layer's portable parts: the simulator's perf suites run them.
PFM_HOST_PERF_SRCS := perf/counters.c perf/overflow.c
ifneq ($(PFM_HOST_PERF),n)
PFM_HOST_CORE_SRCS += $(PFM_HOST_PERF_SRCS)
endif
PFM_HOST_TEST_SRCS := $(notdir $(wildcard $(PFM_HOST_DIR)/*.c))

PFM_HOST_CORE_OBJS := $(addprefix $(PFM_HOST_B)/core/,$(PFM_HOST_CORE_SRCS:.c=.o))
PFM_HOST_TEST_OBJS := $(addprefix $(PFM_HOST_B)/tests/,$(PFM_HOST_TEST_SRCS:.c=.o)) \
		      $(PFM_HOST_B)/tests/kshim.o
PFM_HOST_HDRS := $(wildcard $(PFM_HOST_DIR)/*.h $(PFM_HOST_DIR)/shim/*.h \
			    $(PFM_HOST_DIR)/shim/linux/*.h $(PFM_HOST_DIR)/shim/linux/*/*.h \
			    $(PFM_HOST_CORE)/*.h $(PFM_HOST_CORE)/perf/*.h \
			    $(TOP)/include/uapi/perfmon/*.h)

PFM_HOST_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
# PFM_HOST_COV: extra flags, --coverage for make coverage (with a B of its own)
PFM_HOST_COV	?=
PFM_HOST_CFLAGS := -O1 -g -Wall -Wextra -Wno-sign-compare \
		   -Werror $(PFM_HOST_SAN) $(PFM_HOST_COV) \
		   -I$(PFM_HOST_DIR)/shim -I$(TOP)/include -I$(PFM_HOST_CORE) -I$(PFM_HOST_DIR) \
		   $(if $(filter n,$(PFM_HOST_PERF)),-DPFM_HOST_NOPERF)
# recursive: pkg-config runs only when the tests are built
PFM_HOST_CHECK_CFLAGS = $(shell pkg-config --cflags check)
PFM_HOST_CHECK_LIBS   = $(shell pkg-config --libs check)
# Leaks are counted by the shim's allocator; ASan's own leak check would also see
# check's memory in the forked test processes.
PFM_HOST_RUN_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
		    UBSAN_OPTIONS=print_stacktrace=1

.PHONY: check-host host-tests check-host-noperf host-noperf-run
check-host: $(PFM_HOST_BIN)
	$(PFM_HOST_RUN_ENV) $(PFM_HOST_BIN)

host-tests: $(PFM_HOST_BIN)

$(PFM_HOST_BIN): $(PFM_HOST_CORE_OBJS) $(PFM_HOST_TEST_OBJS)
	@echo "  LD      $(@F)"
	@$(CC) $(PFM_HOST_CFLAGS) -o $@ $^ $(PFM_HOST_CHECK_LIBS)

$(PFM_HOST_B)/core/%.o: $(PFM_HOST_CORE)/%.c $(PFM_HOST_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      host/core/$(@F)"
	@$(CC) $(PFM_HOST_CFLAGS) -c -o $@ $<

$(PFM_HOST_B)/tests/%.o: $(PFM_HOST_DIR)/%.c $(PFM_HOST_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      host/tests/$(@F)"
	@$(CC) $(PFM_HOST_CFLAGS) $(PFM_HOST_CHECK_CFLAGS) -c -o $@ $<

$(PFM_HOST_B)/tests/kshim.o: $(PFM_HOST_DIR)/shim/kshim.c $(PFM_HOST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PFM_HOST_CFLAGS) -c -o $@ $<

# The x86 PMU drivers on the register-level simulator (check-host runs it too).
include $(TOP)/tests/sim/sim.mk

# The core's suites only: check-host's other parts (the library, make install, the
# man pages) do not change with the layer.
check-host-noperf:
	$(MAKE) PFM_HOST_PERF=n host-noperf-run

host-noperf-run: $(PFM_HOST_BIN) $(PFM_SIM_BIN)
	$(PFM_HOST_RUN_ENV) $(PFM_HOST_BIN)
	$(PFM_HOST_RUN_ENV) $(PFM_SIM_BIN)
