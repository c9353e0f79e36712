// SPDX-License-Identifier: GPL-2.0
/*
 * pfm_fuzz: the log in memory the host shares: QEMU's ivshmem-plain device,
 * backed by a file of the host, or on a kernel without PCI the end of the
 * guest's RAM, which the kernel is told not to use (mem=) while QEMU keeps the
 * whole RAM in a file of the host (/dev/mem maps it: not the kernel's RAM).
 *
 * A program must be in the log before it runs, so that a crash cannot take it
 * along.  Through a serial port that means waiting, before each program, until
 * the port has sent it (tcdrain(): a few ms in TCG, more than a short program
 * takes).  A store into the shared memory is in the host's file at once, and
 * stays there whatever the guest does next: the log is plain text from the
 * start of the region, ended by the first zero byte (the host strips the
 * zeroes after it).  When the region is full, the log goes on in the fallback
 * file given to fz_logring_open(), drained at each write.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "health.h"
#include "logring.h"

/* ivshmem: Red Hat's vendor id, the device, and its shared memory in BAR 2 */
#define IVSHMEM_VENDOR	"0x1af4"
#define IVSHMEM_DEVICE	"0x1110"

struct ring {
	char *base;
	size_t size, pos;
	FILE *fallback;
};

static int read_id(const char *dev, const char *file, char *buf, size_t len)
{
	char path[320];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, file);
	if (fz_file_read(path, buf, len))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The shared memory of the first ivshmem device, mapped; NULL if none. */
static char *map_ivshmem(size_t *size)
{
	char path[320], vendor[16], device[16];
	struct dirent *d;
	struct stat st;
	DIR *dir = opendir("/sys/bus/pci/devices");
	char *p = NULL;
	int fd;

	while (dir && !p && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || read_id(d->d_name, "vendor", vendor, sizeof(vendor)) ||
		    read_id(d->d_name, "device", device, sizeof(device)) ||
		    strcmp(vendor, IVSHMEM_VENDOR) || strcmp(device, IVSHMEM_DEVICE))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", d->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_size > 0) {
			p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED) {
				p = NULL;
			} else {
				*size = st.st_size;
				/*
				 * Device memory: every fork would copy the page tables
				 * of what the log has filled; the executors and the
				 * programs' tasks never write it.
				 */
				madvise(p, st.st_size, MADV_DONTFORK);
			}
		}
		close(fd);
	}
	if (dir)
		closedir(dir);
	return p;
}

/* The physical memory at addr (size bytes, "ADDR,SIZE"), mapped; NULL if refused. */
static char *map_ram(const char *where, size_t *size)
{
	unsigned long long addr, len;
	char *p, *end;
	int fd;

	addr = strtoull(where, &end, 0);
	if (*end != ',')
		return NULL;
	len = strtoull(end + 1, &end, 0);
	if (*end || !len)
		return NULL;
	fd = open("/dev/mem", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)addr);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*size = len;
	/* as the device's: nothing a fork should copy */
	madvise(p, len, MADV_DONTFORK);
	return p;
}

static ssize_t ring_write(void *cookie, const char *buf, size_t len)
{
	struct ring *r = cookie;
	size_t room = r->size - 1 - r->pos;

	if (len > room || !r->base) {
		/* full: the rest goes to the fallback, which must then be drained */
		if (r->base && r->pos < r->size - 1)
			r->pos = r->size - 1;
		if (!r->fallback || fwrite(buf, 1, len, r->fallback) != len)
			return -1;
		fflush(r->fallback);
		if (isatty(fileno(r->fallback)))
			tcdrain(fileno(r->fallback));
		return (ssize_t)len;
	}
	memcpy(r->base + r->pos, buf, len);
	r->pos += len;
	return (ssize_t)len;
}

FILE *fz_logring_open(FILE *fallback, const char *ram)
{
	cookie_io_functions_t io = { .write = ring_write };
	struct ring *r = calloc(1, sizeof(*r));
	FILE *f;

	if (!r)
		return NULL;
	r->base = ram ? map_ram(ram, &r->size) : map_ivshmem(&r->size);
	if (!r->base) {
		free(r);
		return NULL;
	}
	/* the host gives a region of zeroes (a new file): none is cleared here */
	r->fallback = fallback;
	f = fopencookie(r, "w", io);
	if (!f) {
		munmap(r->base, r->size);
		free(r);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}
