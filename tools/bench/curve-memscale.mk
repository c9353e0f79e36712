# SPDX-License-Identifier: GPL-2.0
#
# bench-memscale: memory at scale.  The kernel memory per
# monitored thread with 1, 100 and 1000 threads (a perfmon context of four events
# per thread against a perf_events group of four), and per event with 1..16 events
# on one thread, perfmon, the perf_event_open shim and perf_events in the same
# guest boot, interleaved round by round (tools/bench/memscale_bench.c says how it
# measures): build/bench/memscale.json (the curves, "goals", "ratios") and
# build/bench/memscale.png.
#
# MEMSCALE_ROUNDS=n (5), MEMSCALE_THREADS=1,100,1000, MEMSCALE_EVENTS=1,2,4,8,16,
# MEMSCALE_SHIM=0 (no shim column), MEMSCALE_SITES=1 (objects by call site for
# every measure's first round), MEMSCALE_TIME=1 (each measure's guest time),
# handed to the guest on its command line.
.PHONY: bench-memscale
BENCH_CURVES += bench-memscale

MEMSCALE_ENV := $(foreach v,MEMSCALE_ROUNDS MEMSCALE_THREADS MEMSCALE_EVENTS MEMSCALE_SHIM \
		  MEMSCALE_SITES MEMSCALE_TIME,$(if $($(v)),$(v)=$($(v))))
MEMSCALE_APPEND = $(strip $(BENCH_APPEND) $(MEMSCALE_ENV))
MEMSCALE_SRCS := $(addprefix $(TOP)/tools/bench/,memscale_bench.c memscale_out.c \
		   kmem_trace.c kmem_raw.c mem_meas.c bench_common.c)
MEMSCALE_HDRS := $(addprefix $(TOP)/tools/bench/,memscale.h kmem_trace.h kmem_raw.h \
		   mem_meas.h bench_common.h)

$(B)/guest/bin/memscale_bench: $(MEMSCALE_SRCS) $(MEMSCALE_HDRS) $(B)/lib/libperfmon.a \
			       $(TOOLS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -pthread -o $@ $(MEMSCALE_SRCS) $(B)/lib/libperfmon.a

bench-memscale: module $(B)/guest/bin/memscale_bench
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/memscale.cpio.gz $(TOP)/tools/bench/run-memscale.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/memscale_bench:/bin/memscale_bench
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/memscale.cpio.gz \
		$(if $(MEMSCALE_APPEND),--append "$(MEMSCALE_APPEND)") \
		--timeout 1800 --log $(B)/bench/memscale.log
	@sed -n 's/^BENCH-MEMSCALE-JSON: //p' $(B)/bench/memscale.log | tr -d '\r' \
		> $(B)/bench/memscale.json
	@echo "bench: $(B)/bench/memscale.json"
	python3 $(TOP)/tools/bench/plot-memscale.py $(B)/bench/memscale.json $(B)/bench/memscale.png
