import type { DetectionType } from './vision-types.ts';

export interface AnnotateOptions {
  type: DetectionType;
  languageHints: string[];
}

/** A `BatchAnnotateImagesRequest` for one image (GOOGLE-VISION.md §1.2). */
export function annotateRequest(base64: string, options: AnnotateOptions): unknown {
  return {
    requests: [
      {
        image: { content: base64 },
        features: [{ type: options.type }],
        ...(options.languageHints.length ? { imageContext: { languageHints: options.languageHints } } : {}),
      },
    ],
  };
}

/** `en, ja ,` → `['en', 'ja']` (commas or spaces). */
export function parseLanguageHints(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command for the same request against the public endpoint, with the key as the
 * `$LEGIBLE_API_KEY` placeholder (never the account token or a pasted key) and the image read and
 * base64-encoded by the shell from `fileName` (portable `base64 | tr`, not GNU-only `-w0`). With
 * `document` (a PDF/TIFF/GIF page) the request is `files:annotate` for that page.
 */
export function curlCommand(
  origin: string,
  fileName: string,
  options: AnnotateOptions,
  document?: { mimeType: string; page: number },
): string {
  // The heredoc is unquoted (so `$(base64 …)` runs): only tag characters may reach it.
  const tags = options.languageHints.filter((h) => /^[A-Za-z0-9-]{1,35}$/.test(h));
  const hints = tags.length ? `,"imageContext":{"languageHints":${JSON.stringify(tags)}}` : '';
  const safeName = fileName.replace(/[\r\n]/g, '') || 'image.jpg';
  const content = `"$(base64 < ${shellQuote(safeName)} | tr -d '\\n')"`;
  const features = `"features":[{"type":"${options.type}"}]`;
  // Only the known MIME types and an integer page reach the unquoted heredoc.
  const mimeType = ['application/pdf', 'image/tiff', 'image/gif'].find((m) => m === document?.mimeType);
  const json =
    document && mimeType
      ? `{"requests":[{"inputConfig":{"content":${content},"mimeType":"${mimeType}"},${features},"pages":[${Math.trunc(document.page)}]${hints}}]}`
      : `{"requests":[{"image":{"content":${content}},${features}${hints}}]}`;
  return [
    `curl -sS -X POST '${origin}/api/vision/v1/${mimeType ? 'files' : 'images'}:annotate' \\`,
    `  -H "Authorization: Bearer $LEGIBLE_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<EOF`,
    json,
    `EOF`,
  ].join('\n');
}
