# SPDX-License-Identifier: GPL-2.0
#
# make bench: benchmarks, run in the QEMU guest; readable tables on the console and
# JSON in build/bench/.  bench-mux: accuracy and cost of set multiplexing;
# bench-ops: the cost of each operation against perf_events, in the same guest run.

.PHONY: bench bench-mux bench-ops
bench: bench-mux bench-ops

$(B)/guest/bin/mux_bench: $(TOP)/tools/bench/mux_bench.c $(B)/lib/libperfmon.a $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -pthread -o $@ $< $(B)/lib/libperfmon.a

bench-mux: module $(B)/guest/bin/mux_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/mux.cpio.gz $(TOP)/tools/bench/run.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/mux_bench:/bin/mux_bench
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/mux.cpio.gz \
		--timeout 1200 --log $(B)/bench/mux.log
	@sed -n 's/^BENCH-JSON: //p' $(B)/bench/mux.log | tr -d '\r' > $(B)/bench/mux.json
	@echo "bench: $(B)/bench/mux.json"

$(B)/guest/bin/ops_bench: $(TOP)/tools/bench/ops_bench.c $(B)/lib/libperfmon.a $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $< $(B)/lib/libperfmon.a

bench-ops: module $(B)/guest/bin/ops_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/ops.cpio.gz $(TOP)/tools/bench/run-ops.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/ops_bench:/bin/ops_bench
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/ops.cpio.gz \
		--timeout 1200 --log $(B)/bench/ops.log
	@sed -n 's/^BENCH-JSON: //p' $(B)/bench/ops.log | tr -d '\r' > $(B)/bench/ops.json
	@echo "bench: $(B)/bench/ops.json"
