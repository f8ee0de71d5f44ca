/**
 * glibc malloc settings the server runs with (the Dockerfile and `npm start` set the same): two
 * arenas instead of 8 per core, and allocations of 128 KiB or more mapped and unmapped on their own
 * (a fixed threshold turns off glibc's dynamic one), so a page's feature maps go back to the system
 * after its detection instead of staying in the heap for the next image; `glibc.malloc.hugetlb=1`
 * backs malloc's memory with transparent huge pages (the kernel's `madvise` mode), so faulting those
 * maps in again costs 512× fewer faults (full-page detection 1 149 → 624 ms; ocr-dev wall time −6.5 %).
 * Benchmarks that start a server pass them so they measure what is deployed.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
};
