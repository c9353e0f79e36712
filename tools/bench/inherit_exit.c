// SPDX-License-Identifier: GPL-2.0
/* The program a shell-like child of inherit_bench runs: it exits at once. */
int main(void)
{
	return 0;
}
