# SPDX-License-Identifier: GPL-2.0
#
# make install [PREFIX=/usr/local] [DESTDIR=]: libperfmon (shared, versioned, and
# static), its headers and perfmon.pc, pfmon, the perf_event_open preload and
# pfm-perf, and the man pages.  check-install installs into a throwaway root and
# uses what it installed (part of make check-host).

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
LIBDIR	?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR	?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The LD_PRELOAD library in a directory of its own, as Debian keeps fakeroot's and
# faketime's: no program links with it, so it needs no SONAME, and out of the
# linker's path it is never found by -lperfmon-perf or ldconfig.
PRELOADDIR ?= $(LIBDIR)/perfmon
PERFMON_VERSION := 1.0.0

MAN_PAGES := $(wildcard $(TOP)/man/man*/*.[12357])
UAPI_HDRS := $(wildcard $(TOP)/include/uapi/perfmon/*.h)

.PHONY: install install-dkms tools check-install check-man check-dkms

# what the packages build (debian/rules)
tools: lib $(B)/bin/pfmon
$(B)/perfmon.pc: $(TOP)/dist/perfmon.pc.in $(TOP)/dist/install.mk
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(PERFMON_VERSION)|' $< > $@

# perfmon.pc depends on PREFIX: made anew at each install
install: lib $(B)/bin/pfmon
	rm -f $(B)/perfmon.pc && $(MAKE) --no-print-directory $(B)/perfmon.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/perfmon $(DESTDIR)$(PRELOADDIR)
	install -m 644 $(LIBPFM_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIBPFM_SO_REAL) $(DESTDIR)$(LIBDIR)/
	install -m 644 $(LIBPFM_PERF_SO) $(DESTDIR)$(PRELOADDIR)/
	ln -sf $(notdir $(LIBPFM_SO_REAL)) $(DESTDIR)$(LIBDIR)/libperfmon.so.$(LIBPFM_MAJOR)
	ln -sf libperfmon.so.$(LIBPFM_MAJOR) $(DESTDIR)$(LIBDIR)/libperfmon.so
	install -m 644 $(B)/perfmon.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 644 $(TOP)/libpfm-glue/perfmon.h $(DESTDIR)$(INCLUDEDIR)/perfmon.h
	install -m 644 $(TOP)/libpfm-glue/events.h $(DESTDIR)$(INCLUDEDIR)/perfmon/events.h
	install -m 644 $(TOP)/libpfm-glue/mux.h $(DESTDIR)$(INCLUDEDIR)/perfmon/mux.h
	install -m 644 $(TOP)/libpfm-glue/pmc.h $(DESTDIR)$(INCLUDEDIR)/perfmon/pmc.h
	install -m 644 $(TOP)/libpfm-glue/perf_counter.h $(DESTDIR)$(INCLUDEDIR)/perfmon/perf_counter.h
	install -m 644 $(UAPI_HDRS) $(DESTDIR)$(INCLUDEDIR)/perfmon/
	install -m 755 $(B)/bin/pfmon $(DESTDIR)$(BINDIR)/
	@# pfm-perf finds the preload where it was installed
	sed 's|^lib=.*|lib=$${PFM_PERF_LIB:-$(PRELOADDIR)/libperfmon-perf.so}|' $(TOP)/tools/pfm-perf \
		> $(DESTDIR)$(BINDIR)/pfm-perf
	chmod 755 $(DESTDIR)$(BINDIR)/pfm-perf
	@# a page that shares another's (a family of functions) is a link to it, there too
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s && \
		if [ -L $$p ]; then ln -sfn $$(readlink $$p) $(DESTDIR)$(MANDIR)/man$$s/$${p##*/}; \
		else install -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/; fi || exit 1; \
	done

# Every man page without a warning.
check-man:
	mandoc -Tlint -W warning $(MAN_PAGES)

check-host: check-install check-man
check-install:
	$(TOP)/dist/check-install.sh $(B)/install-test

# The module's sources as DKMS takes them: /usr/src/perfmon-VERSION (dkms.conf).
DKMS_SRC := $(DESTDIR)/usr/src/perfmon-$(PERFMON_VERSION)
install-dkms:
	install -d $(DKMS_SRC)/kernel/perfmon/perf $(DKMS_SRC)/kernel/perfmon/trace \
		$(DKMS_SRC)/kernel/perfmon/inherit \
		$(DKMS_SRC)/arch/x86/perfmon \
		$(DKMS_SRC)/include/uapi/perfmon
	install -m 644 $(TOP)/dkms.conf $(DKMS_SRC)/
	install -m 644 $(wildcard $(TOP)/kernel/perfmon/*.[ch]) $(TOP)/kernel/perfmon/Kbuild \
		$(TOP)/kernel/perfmon/Kconfig $(DKMS_SRC)/kernel/perfmon/
	install -m 644 $(wildcard $(TOP)/kernel/perfmon/perf/*.[ch]) $(TOP)/kernel/perfmon/perf/Kbuild \
		$(DKMS_SRC)/kernel/perfmon/perf/
	install -m 644 $(wildcard $(TOP)/kernel/perfmon/inherit/*.[ch]) $(TOP)/kernel/perfmon/inherit/Kbuild \
		$(DKMS_SRC)/kernel/perfmon/inherit/
	install -m 644 $(wildcard $(TOP)/kernel/perfmon/trace/*.[ch]) $(TOP)/kernel/perfmon/trace/Kbuild \
		$(DKMS_SRC)/kernel/perfmon/trace/
	install -m 644 $(wildcard $(TOP)/arch/x86/perfmon/*.[ch]) $(TOP)/arch/x86/perfmon/Kbuild \
		$(DKMS_SRC)/arch/x86/perfmon/
	install -m 644 $(UAPI_HDRS) $(DKMS_SRC)/include/uapi/perfmon/
	@# the generated files of a module build here are no sources
	rm -f $(DKMS_SRC)/kernel/perfmon/*.mod.c

check-dkms:
	$(TOP)/dist/check-dkms.sh $(B)/dkms-test $(KVER)

# make deb: the four Debian packages in build/deb/, built from a copy of the
# sources (dpkg-buildpackage writes its results beside the source directory).
.PHONY: deb check-deb
deb:
	rm -rf $(B)/deb && mkdir -p $(B)/deb/perfmon-$(PERFMON_VERSION)
	@# the sources without build products: git's list, or the tree without build/
	cd $(TOP) && if git rev-parse --git-dir >/dev/null 2>&1; then \
		git ls-files -co --exclude-standard -z | tar --null -T - -cf -; \
	else tar --exclude=./build --exclude='*.o' --exclude='*.ko' -cf - .; fi | \
		tar -xf - -C $(B)/deb/perfmon-$(PERFMON_VERSION)
	cd $(B)/deb/perfmon-$(PERFMON_VERSION) && dpkg-buildpackage -b -us -uc \
		> $(B)/deb/build.log 2>&1 || { tail -30 $(B)/deb/build.log; exit 1; }
	ls $(B)/deb/*.deb

# check-deb: the packages used in a throwaway root, and lintian on them
check-deb: deb
	$(TOP)/dist/check-deb.sh $(B)/deb
