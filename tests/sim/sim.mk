# SPDX-License-Identifier: GPL-2.0
#
# The x86 PMU drivers (arch/x86/perfmon/) and the perfmon core, on the host, against
# the register-level simulator: the same sources as the kernel's, with
# arch/x86/perfmon/hw.h mapped to the simulator (PFM_X86_SIM).  Included from
# tests/host/host.mk, whose objects (the core, the shim, tests/host's fixtures and
# environment stubs) it reuses, with the same ASan/UBSan flags.
#
#   tests/sim/           the simulator: the register model (sim.h, sim.c), its
#                        CPUID (sim_cpuid.c), the CPUs it can be (sim_cpus.c),
#                        real processors' files read (sim_dump.c), hw.h on it
#                        (sim_hw.c); the MSR benchmark (bench.c)
#   tests/sim/cpuid/     real processors' CPUID and what the probe must find on
#                        each (README), read at run time
#   tests/sim/suites/    the test suites, their fixtures (sim_test.h,
#                        sim_harness.c, sim_dumps.c, which the benchmark uses too)
#                        and main
#
#   make check-host      also builds $(B)/host/sim/pfm_sim_tests and runs it
#   make check-sim       the simulator suite only
#   make bench           (bench-msr) MSR accesses per operation, for every model:
#                        a table on stdout, JSON in $(B)/bench/msr.json
#   make readme-tables   README.md's processor -> PMU tables and its count of
#                        processors, made from tests/sim/cpuid
#                        (cpuid_tables.py); check-sim fails while they differ
#                        (check-readme-tables)

PFM_SIM_DIR	:= $(TOP)/tests/sim
PFM_SIM_SUITES_DIR := $(PFM_SIM_DIR)/suites
PFM_X86_DIR	:= $(TOP)/arch/x86/perfmon
PFM_SIM_B	:= $(PFM_HOST_B)/sim
PFM_SIM_BIN	:= $(PFM_SIM_B)/pfm_sim_tests
PFM_SIM_BENCH	:= $(PFM_SIM_B)/pfm_sim_bench
PFM_BENCH_B	:= $(B)/bench

# The driver files that run on the host: all but the kernel glue (hw_linux.c).
PFM_X86_SIM_SRCS := regs.c intel.c amd.c hybrid.c probe.c unit.c perf_x86.c perf_tables.c
PFM_SIM_MODEL_SRCS := sim.c sim_cpuid.c sim_cpus.c sim_dump.c sim_hw.c
PFM_SIM_HARNESS_SRCS := sim_harness.c sim_dumps.c
PFM_SIM_SUITE_SRCS := $(filter-out $(PFM_SIM_HARNESS_SRCS),\
			$(notdir $(wildcard $(PFM_SIM_SUITES_DIR)/*.c)))
# The perf_event_open layer's suites, left out with it (PFM_HOST_PERF=n, host.mk).
ifeq ($(PFM_HOST_PERF),n)
PFM_SIM_SUITE_SRCS := $(filter-out sim_perf%,$(PFM_SIM_SUITE_SRCS))
endif

PFM_X86_SIM_OBJS := $(addprefix $(PFM_SIM_B)/x86/,$(PFM_X86_SIM_SRCS:.c=.o))
# The simulator and the fixtures, for both the suites and the benchmark.
PFM_SIM_LIB_OBJS := $(addprefix $(PFM_SIM_B)/,$(PFM_SIM_MODEL_SRCS:.c=.o)) \
		    $(addprefix $(PFM_SIM_B)/suites/,$(PFM_SIM_HARNESS_SRCS:.c=.o))
PFM_SIM_SUITE_OBJS := $(addprefix $(PFM_SIM_B)/suites/,$(PFM_SIM_SUITE_SRCS:.c=.o))
# From tests/host: the fixtures and the environment, not its tests.
PFM_SIM_HOST_OBJS := $(addprefix $(PFM_HOST_B)/tests/,harness.o env.o fake_pmu.o kshim.o)
PFM_SIM_HDRS	:= $(wildcard $(PFM_SIM_DIR)/*.h $(PFM_SIM_SUITES_DIR)/*.h $(PFM_X86_DIR)/*.h) \
		   $(PFM_HOST_HDRS) $(TOP)/libpfm-glue/counts_rdpmc.h

# include/uapi: the library's view of the ABI, for its counts_rdpmc.h (sim_rdpmc.c)
PFM_SIM_CFLAGS	= $(PFM_HOST_CFLAGS) -DPFM_X86_SIM -I$(PFM_X86_DIR) \
		  -I$(PFM_SIM_DIR) -I$(PFM_SIM_SUITES_DIR) -I$(TOP)/include/uapi \
		  -DPFM_SIM_CPUID_DIR='"$(PFM_SIM_DIR)/cpuid"'

.PHONY: check-sim sim-tests bench bench-msr readme-tables check-readme-tables
check-host: check-sim

check-sim: $(PFM_SIM_BIN) check-readme-tables
	$(PFM_HOST_RUN_ENV) $(PFM_SIM_BIN)

PFM_SIM_TABLES := python3 $(PFM_SIM_DIR)/cpuid_tables.py $(PFM_SIM_DIR)/cpuid $(TOP)/README.md

readme-tables:
	$(PFM_SIM_TABLES)

check-readme-tables:
	$(PFM_SIM_TABLES) --check

sim-tests: $(PFM_SIM_BIN) $(PFM_SIM_BENCH)

$(PFM_SIM_BIN): $(PFM_SIM_SUITE_OBJS) $(PFM_SIM_LIB_OBJS) $(PFM_X86_SIM_OBJS) \
		$(PFM_HOST_CORE_OBJS) $(PFM_SIM_HOST_OBJS)
	@echo "  LD      $(@F)"
	@$(CC) $(PFM_HOST_CFLAGS) -o $@ $^ $(PFM_HOST_CHECK_LIBS)

$(PFM_SIM_BENCH): $(PFM_SIM_B)/bench.o $(PFM_SIM_LIB_OBJS) $(PFM_X86_SIM_OBJS) \
		  $(PFM_HOST_CORE_OBJS) $(PFM_SIM_HOST_OBJS)
	@echo "  LD      $(@F)"
	@$(CC) $(PFM_HOST_CFLAGS) -o $@ $^ $(PFM_HOST_CHECK_LIBS)

$(PFM_SIM_B)/x86/%.o: $(PFM_X86_DIR)/%.c $(PFM_SIM_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      host/sim/x86/$(@F)"
	@$(CC) $(PFM_SIM_CFLAGS) -c -o $@ $<

$(PFM_SIM_B)/suites/%.o: $(PFM_SIM_SUITES_DIR)/%.c $(PFM_SIM_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      host/sim/suites/$(@F)"
	@$(CC) $(PFM_SIM_CFLAGS) $(PFM_HOST_CHECK_CFLAGS) -c -o $@ $<

$(PFM_SIM_B)/%.o: $(PFM_SIM_DIR)/%.c $(PFM_SIM_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      host/sim/$(@F)"
	@$(CC) $(PFM_SIM_CFLAGS) $(PFM_HOST_CHECK_CFLAGS) -c -o $@ $<

# make bench: bench-msr is this part; other benchmarks may be added to bench.
bench: bench-msr

bench-msr: $(PFM_SIM_BENCH)
	@mkdir -p $(PFM_BENCH_B)
	$(PFM_HOST_RUN_ENV) $(PFM_SIM_BENCH) $(PFM_BENCH_B)/msr.json
