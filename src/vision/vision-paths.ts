/**
 * Where a Vision v1 method is served: Legible's seed prefix (`/api/vision/v1`, API.md §2) and
 * Google's (`/v1`), each with Google's three bindings (image_annotator.proto http rules): the bare
 * path, `projects/{p}/…` and `projects/{p}/locations/{l}/…` (regional clients call the latter).
 * Returned in Fastify's syntax (`::` is a literal colon).
 */
export const VISION_PREFIXES = ['/api/vision/v1', '/v1'] as const;
const PARENTS = ['', '/projects/:project', '/projects/:project/locations/:location'] as const;

export function visionMethodPaths(method: string): string[] {
  return VISION_PREFIXES.flatMap((prefix) => PARENTS.map((parent) => `${prefix}${parent}/${method.replace(':', '::')}`));
}

/** Shown in the OpenAPI document: the seed path; the Google forms are hidden duplicates. */
export const isDocumentedPath = (url: string) => url.startsWith('/api/vision/v1/') && !url.includes('/projects/');

export interface ParentParams {
  project?: string;
  location?: string;
}
