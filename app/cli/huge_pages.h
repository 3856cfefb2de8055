// Transparent huge pages for the whole process: `passlab-cli run
// --no-huge-pages` turns them off.
//
// The programs ask jemalloc for transparent huge pages under its heap
// (app/jemalloc_options.cpp: graph passes walk ~100 MB of nodes). In a run of
// a model they cost resident memory: the kernel backs each touched 2 MiB
// region whole, and jemalloc's metadata sits in huge pages too. Off, `run`'s
// peak RSS was 22 MiB lower on resnet50 (184 -> 162 MiB), 12 MiB on alexnet,
// 28 MiB on vgg19, and the runs 0-5% slower (docs/memory.md, "Transparent
// huge pages"). ONNX Runtime's process (glibc malloc, the system's "madvise"
// mode) gets none.
#pragma once

namespace passlab::cli {

// Turns transparent huge pages off for this process (prctl
// PR_SET_THP_DISABLE: the kernel then ignores jemalloc's MADV_HUGEPAGE and
// backs new faults with 4 KiB pages). False where the kernel refuses (before
// Linux 3.15, or not Linux).
bool disableTransparentHugePages();

// Whether transparent huge pages are off for this process
// (PR_GET_THP_DISABLE).
bool transparentHugePagesDisabled();

}  // namespace passlab::cli
