const buffers = new Map<string, Float32Array>();

/**
 * Inputs up to this many floats (a 1280×736 detection, and so a page's strip, which `detect-text.ts`
 * sizes to it: ≤ 3 M; the longest recognizer line: 1.2 M) reuse a kept buffer; anything larger is
 * allocated for the call and left to the garbage collector, so a worker never holds an outsized
 * input for ever.
 */
export const SCRATCH_KEEP_FLOATS = 3_000_000;

/**
 * A `Float32Array` of `length` elements over a buffer kept for the next call with the same `use`,
 * zero-filled. Model inputs are rebuilt for every image and batch: allocating each one afresh
 * (11 MB for a 1280×736 detection) cost page faults on every write and drove V8 into major garbage
 * collections; a worker reads one image at a time, so one buffer per use is enough. The array is
 * valid until the next call for the same `use`.
 */
export function scratchFloats(use: string, length: number): Float32Array {
  if (length > SCRATCH_KEEP_FLOATS) return new Float32Array(length);
  let buffer = buffers.get(use);
  if (!buffer || buffer.length < length) {
    buffer = new Float32Array(length);
    buffers.set(use, buffer);
    return buffer;
  }
  const view = buffer.subarray(0, length);
  view.fill(0);
  return view;
}
