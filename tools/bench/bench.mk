# SPDX-License-Identifier: GPL-2.0
#
# make bench: benchmarks, run in the QEMU guest; readable tables on the console and
# JSON in build/bench/.  bench-mux: accuracy and cost of set multiplexing (and
# build/bench/mux.png, error against timeout);
# bench-ops: the cost of each operation against perf_events, in the same guest run,
# interleaved round by round (medians and quartiles of the ratios), and the cost of
# reading 1..8 counts (build/bench/read.png).

.PHONY: bench bench-mux bench-ops
bench: bench-mux bench-ops

# MUX_REPS=n, MUX_SWEEP_REPS=n: runs per configuration (20 and 5), handed to the
# guest's init through the kernel command line (MUX_DUMP=1 there too: every run
# of every set printed, for study off line).
#
# bench-mux runs on QEMU's instruction counting (MUX_QEMU_OPTS, below), so that
# the guest's clock follows the work the program does, as a CPU's clock does.
# Under plain TCG the guest clock runs on while the host deschedules QEMU: on a
# loaded host runs of a set stretch to 3x their timeout at the 90th percentile and
# to 300x at worst, carrying no work, and no estimate that goes by the guest's
# time reaches 2% of the exact count on average (the work clock of libperfmon's
# mux.h takes the longest stalls out; MUX_QEMU_OPTS= measures that case).
# shift=auto retunes the time an instruction takes as the host's speed changes: a
# program as short as the ramp (0.1 to 2 s of guest time) sees its clock's rate
# change while it runs, and its errors are the clock's as much as the estimators'.
# With a fixed shift (2, 3) the guest kernel did not get past early boot in minutes.
MUX_QEMU_OPTS ?= -icount shift=auto,sleep=off
MUX_BENCH_ENV := $(if $(MUX_REPS),MUX_REPS=$(MUX_REPS)) \
		 $(if $(MUX_SWEEP_REPS),MUX_SWEEP_REPS=$(MUX_SWEEP_REPS)) \
		 $(if $(MUX_DUMP),MUX_DUMP=$(MUX_DUMP)) \
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

# QEMU's instruction counting (PFM_QEMU_OPTS="-icount shift=3,sleep=off") makes the
# guest's clock follow the instructions it runs.  The kernel then cannot calibrate
# its delay loop while it brings the second CPU up (calibrate_delay_direct() fails
# after some 35 s of guest time and the boot seems to hang, printing nothing under
# "quiet"): giving it lpj= skips the calibration.
BENCH_ICOUNT_APPEND := $(if $(findstring icount,$(PFM_QEMU_OPTS)),--append "lpj=4000000")

$(B)/guest/bin/ops_bench: $(TOP)/tools/bench/ops_bench.c $(B)/lib/libperfmon.a $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $< $(B)/lib/libperfmon.a

bench-ops: module $(B)/guest/bin/ops_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/ops.cpio.gz $(TOP)/tools/bench/run-ops.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/ops_bench:/bin/ops_bench
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/ops.cpio.gz \
		$(BENCH_ICOUNT_APPEND) --timeout 1200 --log $(B)/bench/ops.log
	@sed -n 's/^BENCH-JSON: //p' $(B)/bench/ops.log | tr -d '\r' > $(B)/bench/ops.json
	@echo "bench: $(B)/bench/ops.json"
	python3 $(TOP)/tools/bench/plot-ops.py $(B)/bench/ops.json $(B)/bench/read.png
