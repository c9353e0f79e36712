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
PERFMON_VERSION := 1.0.0

MAN_PAGES := $(wildcard $(TOP)/man/man*/*.[127])
UAPI_HDRS := $(wildcard $(TOP)/include/uapi/perfmon/*.h)

.PHONY: install check-install check-man
$(B)/perfmon.pc: $(TOP)/dist/perfmon.pc.in $(TOP)/dist/install.mk
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(PERFMON_VERSION)|' $< > $@

# perfmon.pc depends on PREFIX: made anew at each install
install: lib $(B)/bin/pfmon
	rm -f $(B)/perfmon.pc && $(MAKE) --no-print-directory $(B)/perfmon.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/perfmon
	install -m 644 $(LIBPFM_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIBPFM_SO_REAL) $(LIBPFM_PERF_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIBPFM_SO_REAL)) $(DESTDIR)$(LIBDIR)/libperfmon.so.$(LIBPFM_MAJOR)
	ln -sf libperfmon.so.$(LIBPFM_MAJOR) $(DESTDIR)$(LIBDIR)/libperfmon.so
	install -m 644 $(B)/perfmon.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 644 $(TOP)/libpfm-glue/perfmon.h $(DESTDIR)$(INCLUDEDIR)/perfmon.h
	install -m 644 $(TOP)/libpfm-glue/events.h $(DESTDIR)$(INCLUDEDIR)/perfmon/events.h
	install -m 644 $(UAPI_HDRS) $(DESTDIR)$(INCLUDEDIR)/perfmon/
	install -m 755 $(B)/bin/pfmon $(DESTDIR)$(BINDIR)/
	@# pfm-perf finds the preload where it was installed
	sed 's|^lib=.*|lib=$${PFM_PERF_LIB:-$(LIBDIR)/libperfmon-perf.so}|' $(TOP)/tools/pfm-perf \
		> $(DESTDIR)$(BINDIR)/pfm-perf
	chmod 755 $(DESTDIR)$(BINDIR)/pfm-perf
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s && \
		install -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; \
	done

# Every man page without a warning.
check-man:
	mandoc -Tlint -W warning $(MAN_PAGES)

check-host: check-install check-man
check-install:
	$(TOP)/dist/check-install.sh $(B)/install-test
