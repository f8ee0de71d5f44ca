const buffers = new Map<string, Float32Array>();

/**
 * A `Float32Array` of `length` elements over a buffer kept for the next call with the same `use`,
 * zero-filled. Model inputs are rebuilt for every image and batch: allocating each one afresh
 * (11 MB for a 1280×736 detection) cost page faults on every write and drove V8 into major garbage
 * collections; a worker reads one image at a time, so one buffer per use is enough. The array is
 * valid until the next call for the same `use`; the buffer stays as large as the largest input
 * (the detector's is capped at 2016 px a side: ≤ 49 MB).
 */
export function scratchFloats(use: string, length: number): Float32Array {
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
