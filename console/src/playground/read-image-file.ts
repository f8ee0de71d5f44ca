/**
 * The published limits (API.md §5): a 10 MB JSON body, so about 7.4 MB of image once base64-encoded
 * (4/3 larger) with room for the rest of the request.
 */
export const MAX_PLAYGROUND_IMAGE_BYTES = Math.floor(((10 * 1024 * 1024 - 4096) * 3) / 4);

/** The file's bytes as standard base64 (the `image.content` of a Vision request). */
export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file.'));
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.readAsDataURL(file);
  });
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
