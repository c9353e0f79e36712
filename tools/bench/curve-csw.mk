# SPDX-License-Identifier: GPL-2.0
#
# bench-csw: the cost of a context switch while counting, perfmon against
# perf_events in the same guest boot (tools/bench/csw_bench.c): threads passing a
# token round a ring on the guest's one CPU, each counting its own events; the
# cost per switch against the threads sharing the CPU (2, 16, 128), the events
# per thread (1, 4, 8, 16) and perfmon's event sets switched by timeout (1, 2, 4,
# 8; perf: as many groups).  build/bench/csw.json, build/bench/csw.png.
# CSW_ROUNDS (5), CSW_HANDOFFS (4000 per batch), CSW_THREADS (2: the events and
# sets sweeps), CSW_TIMEOUT_US (100: the sets' switch timeout) scale it;
# CSW_SWEEPS=events,sets: those sweeps alone; CSW_EVENT=i: every counter counts
# event i of the four (0 task-clock, 1 context switches, 2 page faults, 3 CPU
# migrations), to see what each kind costs.
.PHONY: bench-csw
BENCH_CURVES += bench-csw

BENCH_SRCS_csw := $(TOP)/tools/bench/csw_ring.c
$(B)/guest/bin/csw_bench: $(BENCH_SRCS_csw) $(TOP)/tools/bench/csw_ring.h

CSW_VARS := CSW_ROUNDS CSW_HANDOFFS CSW_THREADS CSW_TIMEOUT_US CSW_SWEEPS CSW_EVENT
CSW_BENCH_ENV := $(foreach v,$(CSW_VARS),$(if $($(v)),$(v)=$($(v))))

bench-csw: module $(B)/guest/bin/csw_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/csw.cpio.gz $(TOP)/tools/bench/run-csw.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/csw_bench:/bin/csw_bench
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/csw.cpio.gz \
		$(if $(strip $(BENCH_APPEND) $(CSW_BENCH_ENV)),--append "$(strip $(BENCH_APPEND) $(CSW_BENCH_ENV))") \
		--timeout 1800 --log $(B)/bench/csw.log
	@sed -n 's/^BENCH-CSW-JSON: //p' $(B)/bench/csw.log | tr -d '\r' > $(B)/bench/csw.json
	@echo "bench: $(B)/bench/csw.json"
	python3 $(TOP)/tools/bench/plot-csw.py $(B)/bench/csw.json $(B)/bench/csw.png
