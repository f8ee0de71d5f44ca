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
  return [...new Set(text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean))];
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command for the same request against the public endpoint, with the key as the
 * `$LEGIBLE_API_KEY` placeholder (never the account token or a pasted key) and the image read and
 * base64-encoded by the shell from `fileName` (portable `base64 | tr`, not GNU-only `-w0`).
 */
export function curlCommand(origin: string, fileName: string, options: AnnotateOptions): string {
  // The heredoc is unquoted (so `$(base64 …)` runs): only tag characters may reach it.
  const tags = options.languageHints.filter((h) => /^[A-Za-z0-9-]{1,35}$/.test(h));
  const hints = tags.length ? `,"imageContext":{"languageHints":${JSON.stringify(tags)}}` : '';
  const safeName = fileName.replace(/[\r\n]/g, '') || 'image.jpg';
  return [
    `curl -sS -X POST '${origin}/api/vision/v1/images:annotate' \\`,
    `  -H "Authorization: Bearer $LEGIBLE_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<EOF`,
    `{"requests":[{"image":{"content":"$(base64 < ${shellQuote(safeName)} | tr -d '\\n')"},"features":[{"type":"${options.type}"}]${hints}}]}`,
    `EOF`,
  ].join('\n');
}
