# SPDX-License-Identifier: GPL-2.0
#
# bench-shimsmpl: a page-fault sample through perfmon's perf_event_open shim
# against perf_events', with 1, 2, 4 ... SHIMSMPL_MAXN (16) events sampling every
# fault, in the same guest boot, interleaved round by round
# (tools/bench/shimsmpl_bench.c): build/bench/shimsmpl.json and shimsmpl.png.
# SHIMSMPL_ROUNDS (7), SHIMSMPL_FAULTS (2000 a batch) scale it.
BENCH_CURVES += bench-shimsmpl
.PHONY: bench-shimsmpl

SHIMSMPL_ENV := $(BENCH_APPEND) \
		$(if $(SHIMSMPL_ROUNDS),SHIMSMPL_ROUNDS=$(SHIMSMPL_ROUNDS)) \
		$(if $(SHIMSMPL_FAULTS),SHIMSMPL_FAULTS=$(SHIMSMPL_FAULTS)) \
		$(if $(SHIMSMPL_MAXN),SHIMSMPL_MAXN=$(SHIMSMPL_MAXN))
BENCH_SRCS_shimsmpl := $(TOP)/tools/bench/ops_sample.c
$(B)/guest/bin/shimsmpl_bench: $(BENCH_SRCS_shimsmpl) $(TOP)/tools/bench/ops_sample.h

bench-shimsmpl: module $(B)/guest/bin/shimsmpl_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/shimsmpl.cpio.gz $(TOP)/tools/bench/run-shimsmpl.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/shimsmpl_bench:/bin/shimsmpl_bench
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/shimsmpl.cpio.gz \
		$(if $(strip $(SHIMSMPL_ENV)),--append "$(strip $(SHIMSMPL_ENV))") \
		--timeout 900 --log $(B)/bench/shimsmpl.log
	@sed -n 's/^BENCH-SHIMSMPL-JSON: //p' $(B)/bench/shimsmpl.log | tr -d '\r' \
		> $(B)/bench/shimsmpl.json
	@test -s $(B)/bench/shimsmpl.json || { echo "bench-shimsmpl: no JSON" >&2; exit 1; }
	@echo "bench: $(B)/bench/shimsmpl.json"
	python3 $(TOP)/tools/bench/plot-shimsmpl.py $(B)/bench/shimsmpl.json \
		$(B)/bench/shimsmpl.png
