# SPDX-License-Identifier: GPL-2.0
#
# make bench: benchmarks, run in the QEMU guest; readable tables on the console and
# JSON in build/bench/.  bench-mux: accuracy and cost of set multiplexing (and
# build/bench/mux.png, error against timeout);
# bench-ops: the cost of each operation against perf_events, in the same guest run,
# interleaved round by round (medians and quartiles of the ratios), the cost per
# sample (a page fault sampled into a ring, the unmonitored fault's cost taken away),
# and the cost of reading 1..8 counts (build/bench/read.png); bench-mem: the kernel memory of each
# monitoring object against perf_events' (build/bench/mem.json); bench-fork: a program
# forking 1000 children under pfmon (PFM_FL_INHERIT), perf stat and pfmon's ptrace
# way, as ratios to perf stat (build/bench/fork.json; FORK_BENCH_N, FORK_BENCH_ROUNDS).
#
# The guests run under QEMU's instruction counting (BENCH_ICOUNT): with a fixed
# shift the guest's clock advances 2^shift ns per instruction (shift=0: 1 ns), and
# sleep=off moves it to the next timer when the guest idles, so a time is a count
# of instructions and does not move with the host's load: two runs give the same
# figures, the quartiles of a ratio within 1% of each other.  Plain TCG timings
# (the host's speed, moving by up to 2x between runs and with the other core busy)
# come with
#   make bench BENCH_ICOUNT=
# and other settings with PFM_QEMU_OPTS (an -icount there replaces BENCH_ICOUNT,
# with one CPU unless it says -smp, and lpj=, for the reasons below).
#
# Under a fixed shift the guest never brings its second CPU up (it hangs at
# "Booting SMP configuration", printing nothing under "quiet"), so the counted
# guest has one CPU; under shift=auto it takes some 13 s of guest time.  Nor can
# the kernel calibrate its delay loop (calibrate_delay_direct() fails after some
# 35 s of guest time): lpj= on the command line skips the calibration.
.PHONY: bench bench-mux bench-ops bench-mem bench-fork bench-goals prof-read
# The cost curves, one fragment each (tools/bench/curve-*.mk), add their targets to
# BENCH_CURVES; each writes build/bench/NAME.json with its "goals" and "ratios"
# (tools/bench/goals.py says what those hold).  make bench ends with every goal
# judged, and the ratios held against the previous run's.
BENCH_CURVES :=
include $(sort $(wildcard $(TOP)/tools/bench/curve-*.mk))
bench: bench-mux bench-ops bench-mem bench-fork $(BENCH_CURVES)
	python3 $(TOP)/tools/bench/goals.py $(B)/bench

# the goals alone, on what the last runs wrote
bench-goals:
	python3 $(TOP)/tools/bench/goals.py $(B)/bench

BENCH_ICOUNT ?= -icount shift=0,sleep=off -smp 1
BENCH_QEMU_OPTS := $(if $(findstring icount,$(PFM_QEMU_OPTS)),$(strip $(PFM_QEMU_OPTS) \
		   $(if $(findstring -smp,$(PFM_QEMU_OPTS)),,-smp 1)),$(strip \
		   $(BENCH_ICOUNT) $(PFM_QEMU_OPTS)))
BENCH_APPEND := $(if $(findstring icount,$(BENCH_QEMU_OPTS)),lpj=4000000)
BENCH_GUEST = PFM_QEMU_OPTS="$(BENCH_QEMU_OPTS)" $(RUN_GUEST)

# MUX_REPS=n, MUX_SWEEP_REPS=n: runs per configuration (20 and 5), handed to the
# guest's init through the kernel command line (MUX_DUMP=1 there too: every run
# of every set printed, for study off line; MUX_SETS=n: the main table for n sets
# alone, no sweep; MUX_MASK=n: the random part of every timeout, in place of
# mux_mask_for()'s).
#
# bench-mux runs on QEMU's instruction counting (MUX_QEMU_OPTS, below), so that
# the guest's clock follows the work the program does, as a CPU's clock does.
# Under plain TCG the guest clock runs on while the host deschedules QEMU: on a
# loaded host runs of a set stretch to 3x their timeout at the 90th percentile and
# to 300x at worst, carrying no work, and no estimate that goes by the guest's
# time reaches 2% of the exact count on average (the work clock of libperfmon's
# mux.h takes the longest stalls out; MUX_QEMU_OPTS= measures that case).
# The shift is fixed: 4 ns an instruction (shift=2, one CPU, lpj= as above), so a
# phased run lasts 1.73 s of guest time, every time, whatever the host's load.
# shift=auto retunes the time an instruction takes as the host's speed changes,
# while the program runs: the same run lasted 0.75 to 4.9 s, and the figures moved
# with the host's load (8 sets: worst event 3.8% to 10.1% in five measurements of
# 20 runs, with either random mask of mux_work.h; MUX_QEMU_OPTS=
# "-icount shift=auto,sleep=off" measures it).  make check-mux runs at shift=0
# (1 ns), where the phases are 4 times shorter against the same 1 ms timeouts.
MUX_QEMU_OPTS ?= -icount shift=2,sleep=off -smp 1
MUX_BENCH_ENV := $(if $(MUX_REPS),MUX_REPS=$(MUX_REPS)) \
		 $(if $(MUX_SWEEP_REPS),MUX_SWEEP_REPS=$(MUX_SWEEP_REPS)) \
		 $(if $(MUX_DUMP),MUX_DUMP=$(MUX_DUMP)) \
		 $(if $(MUX_SETS),MUX_SETS=$(MUX_SETS)) \
		 $(if $(MUX_MASK),MUX_MASK=$(MUX_MASK)) \
		 $(if $(findstring icount,$(MUX_QEMU_OPTS)),lpj=4000000)
MUX_WORK := $(TOP)/tools/bench/mux_work.c $(TOP)/tools/bench/mux_work.h

$(B)/guest/bin/mux_bench: $(TOP)/tools/bench/mux_bench.c $(MUX_WORK) $(B)/lib/libperfmon.a \
			  $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -pthread -o $@ $< $(TOP)/tools/bench/mux_work.c \
		$(B)/lib/libperfmon.a -lm

bench-mux: module $(B)/guest/bin/mux_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/mux.cpio.gz $(TOP)/tools/bench/run.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/mux_bench:/bin/mux_bench
	PFM_QEMU_OPTS="$(MUX_QEMU_OPTS)" $(RUN_GUEST) --kernel $(GUEST_KERNEL) \
		--initrd $(B)/bench/mux.cpio.gz \
		$(if $(strip $(MUX_BENCH_ENV)),--append "$(strip $(MUX_BENCH_ENV))") \
		--timeout 3600 --log $(B)/bench/mux.log
	@sed -n 's/^BENCH-JSON: //p' $(B)/bench/mux.log | tr -d '\r' > $(B)/bench/mux.json
	@echo "bench: $(B)/bench/mux.json"
	python3 $(TOP)/tools/bench/plot-mux.py $(B)/bench/mux.json $(B)/bench/mux.png

BENCH_STAT := $(TOP)/tools/bench/bench_common.c $(TOP)/tools/bench/bench_common.h

# the guest's benchmarks against perf_events: ops_bench (with its sampling
# operation, ops_sample.c) and mem_bench (with mem_meas.c)
BENCH_SRCS_ops := $(TOP)/tools/bench/ops_sample.c
$(B)/guest/bin/ops_bench: $(BENCH_SRCS_ops) $(TOP)/tools/bench/ops_sample.h
# the memory counters, mem_bench's and curve-memscale.mk's
MEM_MEAS := $(TOP)/tools/bench/mem_meas.c $(TOP)/tools/bench/mem_meas.h
BENCH_SRCS_mem := $(TOP)/tools/bench/mem_meas.c
$(B)/guest/bin/mem_bench: $(MEM_MEAS)
# fork_bench's loop is inherit_bench's fork workload (curve-inherit.mk)
BENCH_SRCS_fork := $(TOP)/tools/bench/inherit_work.c
$(B)/guest/bin/fork_bench: $(BENCH_SRCS_fork) $(TOP)/tools/bench/inherit_work.h
$(B)/guest/bin/%_bench: $(TOP)/tools/bench/%_bench.c $(BENCH_STAT) $(B)/lib/libperfmon.a \
			$(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $< $(TOP)/tools/bench/bench_common.c \
		$(BENCH_SRCS_$*) $(B)/lib/libperfmon.a

# OPS_ONLY=fault,sample,smpl-dfl: those operations alone (ops_bench.c), no read
# sweep unless named (OPS_ONLY=read,sweep: every read)
OPS_BENCH_ENV := $(strip $(BENCH_APPEND) $(if $(OPS_ONLY),OPS_ONLY=$(OPS_ONLY)))
bench-ops: module $(B)/guest/bin/ops_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/ops.cpio.gz $(TOP)/tools/bench/run-ops.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/ops_bench:/bin/ops_bench
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/ops.cpio.gz \
		$(if $(OPS_BENCH_ENV),--append "$(OPS_BENCH_ENV)") --timeout 1200 --log $(B)/bench/ops.log
	@sed -n 's/^BENCH-JSON: //p' $(B)/bench/ops.log | tr -d '\r' > $(B)/bench/ops.json
	@echo "bench: $(B)/bench/ops.json"
	$(if $(OPS_ONLY),,python3 $(TOP)/tools/bench/plot-ops.py $(B)/bench/ops.json $(B)/bench/read.png)

bench-mem: module $(B)/guest/bin/mem_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/mem.cpio.gz $(TOP)/tools/bench/run-mem.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/mem_bench:/bin/mem_bench
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/mem.cpio.gz \
		$(if $(BENCH_APPEND),--append "$(BENCH_APPEND)") --timeout 600 --log $(B)/bench/mem.log
	@sed -n 's/^BENCH-MEM-JSON: //p' $(B)/bench/mem.log | tr -d '\r' > $(B)/bench/mem.json
	@echo "bench: $(B)/bench/mem.json"

FORK_BENCH_ENV := $(if $(FORK_BENCH_N),FORK_BENCH_N=$(FORK_BENCH_N)) \
		  $(if $(FORK_BENCH_ROUNDS),FORK_BENCH_ROUNDS=$(FORK_BENCH_ROUNDS))
bench-fork: module $(B)/guest/bin/fork_bench $(B)/guest/bin/pfmon
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/fork.cpio.gz $(TOP)/tools/bench/run-fork.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/fork_bench:/bin/fork_bench \
		$(B)/guest/bin/pfmon:/bin/pfmon +/usr/bin/perf:/usr/bin/perf
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/fork.cpio.gz \
		$(if $(strip $(BENCH_APPEND) $(FORK_BENCH_ENV)),--append "$(strip $(BENCH_APPEND) $(FORK_BENCH_ENV))") \
		--timeout 1200 --log $(B)/bench/fork.log
	@sed -n 's/^BENCH-FORK-JSON: //p' $(B)/bench/fork.log | tr -d '\r' > $(B)/bench/fork.json
	@echo "bench: $(B)/bench/fork.json"

# prof-read: instructions per function of one read of PROF_N counts (4), perfmon's
# pfm_read_pmds() or perf's group read() (PROF_MODE=pfm or perf), single-stepped
# on QEMU's gdbstub (tools/bench/prof-read.sh): build/bench/prof-MODE-N.txt.
# PROF_MODE=csw-none, csw-pfm or csw-perf: one round trip of bench-ops' ctxsw
# instead, nothing or the four events counting (build/bench/prof-MODE.txt).
# PROF_MODE=pfm-four or perf-four: a read of those four events (bench-ops' read).
# PROF_MODE=smp-none, smp-shim or smp-perf: one page fault of bench-ops' sample row.
# PROF_MODE=ses-pfm: one perfmon session of bench-ops' session row (create to close).
# PROF_MODE=inh-none, inh-shim or inh-perf: one child of bench-inherit's fork row
# (fork, exit, wait), nothing or its four events counting with attr.inherit.
PROF_MODE ?= pfm
PROF_N ?= 4
$(B)/guest/bin/prof_read: $(TOP)/tools/bench/prof_read.c $(BENCH_STAT) $(B)/lib/libperfmon.a \
			  $(TOP)/tools/bench/ops_sample.c $(TOP)/tools/bench/ops_sample.h $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $< $(TOP)/tools/bench/bench_common.c \
		$(TOP)/tools/bench/ops_sample.c $(B)/lib/libperfmon.a

prof-read: module $(B)/guest/bin/prof_read
	GUEST_KERNEL=$(GUEST_KERNEL) PFM_KO=$(PFM_KO) \
		$(TOP)/tools/bench/prof-read.sh $(B)/bench $(PROF_MODE) \
		$(if $(filter csw-% smp-% ses-% inh-% %-four,$(PROF_MODE)),,$(PROF_N))
