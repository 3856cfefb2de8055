// jemalloc's options for PassLab's programs, read by jemalloc when it starts
// (the MALLOC_CONF environment variable still overrides them). Linked only
// into programs that allocate through jemalloc (CMakeLists.txt,
// passlab_link_allocator); with any other allocator the symbol is unused.
//
// thp:always asks the kernel for transparent huge pages (2 MiB) under
// jemalloc's heap, where the system allows it (Debian's default "madvise"
// mode does). A graph of 100k nodes spans about 100 MB: with 4 KiB pages the
// TLB covers a few MB of it, so each walk over a large graph paid a page
// walk on top of most cache misses (docs/optimization-results.md).
extern "C" {
// NOLINTNEXTLINE(readability-identifier-naming): the name is jemalloc's.
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:always";
}
