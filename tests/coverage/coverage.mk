# SPDX-License-Identifier: GPL-2.0
#
# Line coverage of kernel/perfmon/ and arch/x86/perfmon/ (tests/coverage/README.md):
#
#   make coverage    the guest suite on the debug kernel, alone, under a QEMU
#                    plugin that records the perfmon instructions the guest ran
#                    (every context: system calls, interrupts, softirqs, hotplug
#                    threads); the host unit tests and the simulator under gcov;
#                    the last make fuzz run's figure if there is one.  A table file
#                    by file, then the files below 90% with the functions that
#                    hold their lines never reached.  Results in build/coverage/:
#                    *.tsv (file, lines, covered), uncovered-*.txt (each line).
#   make coverage-fuzz   the last make fuzz run's lines against the lines known
#                    to be reachable without a PMU: those it or the last make
#                    coverage's guest suite reached (a fuzzer is judged by the
#                    code it can reach, not by code that needs a hardware PMU)
#
# The guest suite's own verdict does not stop the figures: make coverage fails
# after printing them if the suite failed.

COV_DIR    := $(TOP)/tests/coverage
COV_B      := $(B)/coverage
COV_PY     := $(COV_DIR)/cov.py
COV_PLUGIN := $(COV_B)/qemu_cov.so
COV_RANGES := $(COV_B)/ranges.txt
DEBUG_VMLINUX := $(B)/intree/obj/vmlinux

# QEMU options that record the perfmon instructions the guest runs into $(1).
cov_qemu_opts = -plugin $(COV_PLUGIN),out=$(1),ranges=$(COV_RANGES)

.PHONY: coverage coverage-host coverage-guest coverage-fuzz cov-tools
cov-tools: $(COV_PLUGIN)

$(COV_PLUGIN): $(COV_DIR)/qemu_cov.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -o $@ $< -lpthread

# Where perfmon's code is in the debug kernel (its line tables say).
$(COV_RANGES): $(DEBUG_KERNEL) $(COV_PY)
	@mkdir -p $(@D)
	$(COV_PY) ranges $(DEBUG_VMLINUX) > $@.tmp
	mv $@.tmp $@

# The host tests with gcov, in a build directory of their own; slower under
# gcov and ASan together, hence check's longer timeouts.
coverage-host:
	@mkdir -p $(COV_B)
	rm -f $(COV_B)/host/host/core/*.gcda $(COV_B)/host/host/sim/x86/*.gcda
	CK_TIMEOUT_MULTIPLIER=10 $(MAKE) check-host B=$(COV_B)/host PFM_HOST_COV=--coverage \
		> $(COV_B)/host.log 2>&1 || { tail -n 20 $(COV_B)/host.log; exit 1; }
	$(COV_PY) host $(TOP) $(COV_B)/host/host $(COV_B)/host.tsv $(COV_B)/uncovered-host.txt

coverage-guest: kernel guest-bins $(COV_PLUGIN)
	$(MAKE) $(COV_RANGES)
	rm -f $(COV_B)/guest.ok
	PFM_QEMU_OPTS="$(call cov_qemu_opts,$(COV_B)/guest.hits)" \
		$(MAKE) check-guest-debug && touch $(COV_B)/guest.ok || true
	$(COV_PY) guest $(DEBUG_VMLINUX) $(COV_B)/guest.hits $(COV_B)/guest.tsv \
		$(COV_B)/uncovered-guest.txt

coverage: coverage-host coverage-guest
	@echo "coverage: lines of perfmon's code reached (guest: the debug kernel's" \
	      "line tables; host: gcov)"
	@$(COV_PY) table "guest suite=$(COV_B)/guest.tsv" "fuzzer (last run)=$(B)/fuzz/lines.tsv" \
		"host+sim=$(COV_B)/host.tsv" | tee $(COV_B)/table.txt
	@test ! -r $(B)/fuzz/lines.tsv || head -n 1 $(B)/fuzz/fuzz-debug.log | \
		sed 's/^# /coverage: the fuzzer column is the run /'
	@echo "coverage: files below 90% under the guest suite (each line in" \
	      "$(COV_B)/uncovered-guest.txt):"
	@$(COV_PY) below $(COV_B)/guest.tsv $(COV_B)/uncovered-guest.txt 90 | tee $(COV_B)/below.txt
	@test -e $(COV_B)/guest.ok || { echo "coverage: the guest suite FAILED" \
		"(build/guest/check-debug.log)"; exit 1; }

coverage-fuzz:
	@test -r $(B)/fuzz/fuzz-debug.hits || { echo "coverage-fuzz: no make fuzz run"; exit 1; }
	@test -r $(COV_B)/guest.hits || echo "coverage-fuzz: no make coverage run: the fuzzer's own lines only"
	$(COV_PY) reach $(DEBUG_VMLINUX) $(B)/fuzz/fuzz-debug.hits $(COV_B)/guest.hits
