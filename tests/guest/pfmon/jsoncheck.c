// SPDX-License-Identifier: GPL-2.0
/*
 * jsoncheck: checks that each line of a file (or stdin) is one JSON object
 * (RFC 8259 grammar, no extensions), for pfmon -j in a guest without python.
 *
 *   jsoncheck [FILE]     exit 0 and "N objects", or exit 1 and where it failed
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p;

static int value(int depth);

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
}

static int lit(const char *s)
{
	size_t n = strlen(s);

	if (strncmp(p, s, n))
		return -1;
	p += n;
	return 0;
}

static int string(void)
{
	int i;

	if (*p++ != '"')
		return -1;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return -1;
		if (*p++ != '\\')
			continue;
		if (*p == 'u') {
			for (i = 1; i <= 4; i++)
				if (!isxdigit((unsigned char)p[i]))
					return -1;
			p += 5;
		} else if (strchr("\"\\/bfnrt", *p) && *p) {
			p++;
		} else {
			return -1;
		}
	}
	p++;
	return 0;
}

static int digits(void)
{
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	return 0;
}

static int number(void)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (digits())
		return -1;
	if (*p == '.') {
		p++;
		if (digits())
			return -1;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (digits())
			return -1;
	}
	return 0;
}

static int members(char close, int depth, int keyed)
{
	ws();
	if (*p == close) {
		p++;
		return 0;
	}
	for (;;) {
		ws();
		if (keyed) {
			if (string())
				return -1;
			ws();
			if (*p++ != ':')
				return -1;
		}
		if (value(depth + 1))
			return -1;
		ws();
		if (*p == close) {
			p++;
			return 0;
		}
		if (*p++ != ',')
			return -1;
	}
}

static int value(int depth)
{
	if (depth > 64)
		return -1;
	ws();
	switch (*p) {
	case '{':
		p++;
		return members('}', depth, 1);
	case '[':
		p++;
		return members(']', depth, 0);
	case '"':
		return string();
	case 't':
		return lit("true");
	case 'f':
		return lit("false");
	case 'n':
		return lit("null");
	default:
		return number();
	}
}

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
	char line[65536];
	long n = 0, lineno = 0;

	if (!f) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		p = line;
		ws();
		if (*p != '{' || value(0) || (ws(), *p)) {
			printf("jsoncheck: line %ld, column %ld: not a JSON object\n", lineno,
			       (long)(p - line) + 1);
			return 1;
		}
		n++;
	}
	printf("jsoncheck: %ld objects\n", n);
	return n ? 0 : 1;
}
