// Package memtrim gives back the memory an idle toolhub process holds but
// does not use: the heap's free pages ([debug.FreeOSMemory]) and, on Linux,
// the pages of the toolhub executable that the process has mapped but no
// longer touches ([Release]; on Windows, the whole working set); [Watch]
// does it again whenever the process goes quiet after work.
//
// Most of an idle toolhub's resident memory is pages of its own binary:
// package initialisation, start-up and the calls served since then touched
// code, read-only data and the runtime's function table all over the
// binary, and the kernel mapped every page around each one it faulted in.
// Release unmaps the executable's read-only mappings (madvise
// MADV_DONTNEED). Those pages are clean copies of the file: they stay in
// the page cache, where the kernel reclaims them first when memory is short,
// and whatever the process touches again is mapped again on its first use,
// without reading the disk while it is cached. A mapping holding pages the
// process wrote (relocations made read-only afterwards) is never released.
//
// On Windows, [WorkingSet] reads what a release gives back: a process's
// working set, its resident size there.
package memtrim
