# SPDX-License-Identifier: GPL-2.0
#
# bench-smpl: sampling cost against the rate, in one guest
# boot: a CPU-bound loop sampled by the task clock at 1, 10 and 50 kHz and a
# page-touching loop sampled every 1, 4, 16 and 64 page faults, per thread and
# CPU-wide, by perf_events, the perf shim and perfmon's default format
# interleaved round by round (tools/bench/smpl_bench.c): the overhead, the
# samples taken and the cost per sample, as ratios to perf_events', first under
# the sample-rate limits the guest boots with, then with them raised.
# build/bench/smpl.json, build/bench/smpl.png (cost per sample against the rate).
# SMPL_ROUNDS=n (7), SMPL_CPU_MS=ms (40), SMPL_CLOCK_SAMPLES=n (240: the clock's
# batch is longer at a rate that would take fewer), SMPL_FAULTS=pages (3000),
# SMPL_PHASES=default,raised (either alone), SMPL_DUMP=1 (every batch printed)
# go to the guest's command line.
BENCH_CURVES += bench-smpl
.PHONY: bench-smpl

SMPL_BENCH_ENV := $(foreach v,SMPL_ROUNDS SMPL_CPU_MS SMPL_CLOCK_SAMPLES SMPL_FAULTS \
		  SMPL_PHASES SMPL_DUMP,\
		  $(if $($(v)),$(v)=$($(v))))
BENCH_SRCS_smpl := $(TOP)/tools/bench/ops_sample.c $(TOP)/tools/bench/smpl_out.c
$(B)/guest/bin/smpl_bench: $(BENCH_SRCS_smpl) $(TOP)/tools/bench/ops_sample.h \
			   $(TOP)/tools/bench/smpl_bench.h

bench-smpl: module $(B)/guest/bin/smpl_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/smpl.cpio.gz $(TOP)/tools/bench/run-smpl.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/smpl_bench:/bin/smpl_bench
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/smpl.cpio.gz \
		$(if $(strip $(BENCH_APPEND) $(SMPL_BENCH_ENV)),--append "$(strip $(BENCH_APPEND) $(SMPL_BENCH_ENV))") \
		--timeout 2400 --log $(B)/bench/smpl.log
	@sed -n 's/^BENCH-SMPL-JSON: //p' $(B)/bench/smpl.log | tr -d '\r' > $(B)/bench/smpl.json
	@echo "bench: $(B)/bench/smpl.json"
	python3 $(TOP)/tools/bench/plot-smpl.py $(B)/bench/smpl.json $(B)/bench/smpl.png
