# SPDX-License-Identifier: GPL-2.0
#
# bench-e2e: the real tools end to end (tools/bench/e2e_bench.c): the whole guest
# time of perf stat, perf record -F 1000 -g and perf record -c 64 -e page-faults
# through the perf_event_open shim against the same commands natively, and of
# pfmon against perf stat, on the demo workload and on a shell script running 200
# processes; in one boot, interleaved round by round, the ratios with their
# quartiles, and whether both sides printed the same.  build/bench/e2e.json and
# e2e.png (the ratios).  E2E_ROUNDS=n (3: a perf record is 1.5 s of guest time,
# some 10 s of a loaded host's), E2E_FORK_N=n (200), E2E_W="workload arguments"
# (-s 100000 -p 2048), E2E_WORKLOADS=demo or fork (both), E2E_SETTLE_MS=n (1500:
# the guest's sleep before each run, tools/bench/e2e.h says why).
BENCH_CURVES += bench-e2e
.PHONY: bench-e2e

BENCH_SRCS_e2e := $(TOP)/tools/bench/e2e_run.c $(TOP)/tools/bench/e2e_check.c
$(B)/guest/bin/e2e_bench: $(BENCH_SRCS_e2e) $(TOP)/tools/bench/e2e.h

# E2E_W holds spaces: handed over with commas, which run-e2e.sh turns back
e2e_empty :=
e2e_comma := ,
E2E_ENV := $(foreach v,E2E_ROUNDS E2E_FORK_N E2E_WORKLOADS E2E_SETTLE_MS,$(if $($(v)),$(v)=$($(v)))) \
	   $(if $(E2E_W),E2E_W=$(subst $(e2e_empty) $(e2e_empty),$(e2e_comma),$(strip $(E2E_W))))
bench-e2e: module $(LIBPFM_PERF_SO) $(B)/guest/bin/e2e_bench $(B)/guest/bin/pfmon $(B)/guest/bin/workload
	@mkdir -p $(B)/bench
	$(MKINITRAMFS) $(B)/bench/e2e.cpio.gz $(TOP)/tools/bench/run-e2e.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/e2e_bench:/bin/e2e_bench \
		$(B)/guest/bin/pfmon:/bin/pfmon $(B)/guest/bin/workload:/bin/workload \
		$(TOP)/tools/bench/e2e-fork.sh:/bin/e2e-fork.sh \
		$(LIBPFM_PERF_SO):/lib/perfmon/libperfmon-perf.so +/usr/bin/perf:/usr/bin/perf
	$(BENCH_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/bench/e2e.cpio.gz \
		--append "$(strip $(BENCH_APPEND) $(E2E_ENV))" \
		--timeout 1800 --log $(B)/bench/e2e.log
	@sed -n 's/^BENCH-E2E-JSON: //p' $(B)/bench/e2e.log | tr -d '\r' > $(B)/bench/e2e.json
	@echo "bench: $(B)/bench/e2e.json"
	python3 $(TOP)/tools/bench/plot-e2e.py $(B)/bench/e2e.json $(B)/bench/e2e.png
