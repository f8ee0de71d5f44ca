// heic-decode ships no types; this is the part of its API we use (README of heic-decode 2.x).
declare module 'heic-decode' {
  interface HeicImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  function decode(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeicImage>;
  export default decode;
}
