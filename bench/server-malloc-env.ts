/**
 * glibc malloc settings the server runs with (the Dockerfile and `npm start` set the same): two
 * arenas instead of 8 per core, and allocations of 128 KiB or more mapped and unmapped on their own
 * (a fixed threshold turns off glibc's dynamic one), so a page's feature maps go back to the system
 * after its detection instead of staying in the heap for the next image. Benchmarks that start a
 * server pass them so they measure what is deployed. (Huge pages for malloc's memory, which paid
 * when pages were detected whole, now cost ~55 MB of peak for no time that the benchmark can
 * separate from noise: docs/decisions.md, "OCR memory".)
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
