/*
 * ProcessPrng for Wine 8, which has no bcryptprimitives.dll: the Go runtime
 * (1.24 and later) loads it at start on Windows. Built by
 * scripts/test-windows.sh with mingw-w64; never shipped.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
