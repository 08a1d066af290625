// SPDX-License-Identifier: GPL-2.0
/*
 * What the user-side benchmarks probe: functions of bpfbench's own binary,
 * shaped as the kernel bench's are, since the instruction under the probe
 * decides the cost (a nop is emulated, a push or a ret single-stepped
 * or emulated differently; a 5- or 10-byte nop is what newer kernels
 * optimize into a call).  noinline and the asm keep each call real; the
 * build has no -fcf-protection, so no endbr64 comes first either.
 *
 * The USDT probes are sys/sdt.h notes (Debian's systemtap-sdt-dev) in
 * provider "bpfbench": "nop" at sdt.h's own 1-byte nop, "nop10" where a
 * 10-byte nop stands before it.
 */
#include <sys/sdt.h>
#include "attach.h"

#define TARGET	__attribute__((noinline, used))

TARGET void attach_target_nop(void)
{
	asm volatile ("nop");
}

TARGET void attach_opaque_noop(void)
{
	asm volatile ("");
}

TARGET int attach_target_push(void)
{
	attach_opaque_noop();
	return 1;
}

TARGET void attach_target_ret(void)
{
	asm volatile ("");
}

#if defined(__x86_64__)
TARGET void attach_target_nop5(void)
{
	asm volatile (".byte 0x0f, 0x1f, 0x44, 0x00, 0x00");
}

TARGET void attach_target_nop10(void)
{
	asm volatile (".byte 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00");
}
#endif

TARGET void attach_target_usdt(void)
{
	STAP_PROBE(bpfbench, nop);
}

TARGET void attach_target_usdt10(void)
{
#if defined(__x86_64__)
	asm volatile (".byte 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00");
#endif
	STAP_PROBE(bpfbench, nop10);
}
