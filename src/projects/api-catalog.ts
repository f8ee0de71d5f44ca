import { Type, type Static } from '@sinclair/typebox';

/** The services a project may enable (API.md §1, `api` is fixed). */
export const API_CATALOG = [
  {
    api: 'ocr',
    title: 'Legible OCR API',
    description: 'Text recognition, Google-Cloud-Vision compatible: POST /api/vision/v1/images:annotate.',
  },
  {
    api: 'navigation',
    title: 'Legible Navigation API',
    description: 'Routing and navigation (reserved; not served yet).',
  },
] as const;

export type ApiName = (typeof API_CATALOG)[number]['api'];
export const API_NAMES: readonly ApiName[] = API_CATALOG.map((a) => a.api);

export const ApiNameSchema = Type.Union(
  API_CATALOG.map((a) => Type.Literal(a.api)),
  {
    description: 'A service of the catalog (`GET /api/apis`).',
  },
);
export type ApiNameSchema = Static<typeof ApiNameSchema>;

/**
 * The same names in an answer: a plain string `enum`, not `ApiNameSchema`'s `anyOf`, because
 * fast-json-stringify checks `anyOf` branches and throws when none matches (an answer must not fail
 * over a stored name), while it writes an `enum` string as is.
 */
export const ApiNameInAnswer = Type.Unsafe<ApiName>({ type: 'string', enum: [...API_NAMES] });

export function apiTitle(api: string): string {
  return API_CATALOG.find((a) => a.api === api)?.title ?? api;
}
