import { createRequire } from 'node:module';
import { Storage } from '@google-cloud/storage';

/**
 * `@google-cloud/storage` pointed at Legible exactly as the issue says: `apiEndpoint`, `projectId`,
 * `useAuthWithCustomEndpoint`, and an `OAuth2Client({apiKey})` (the key travels as X-Goog-Api-Key).
 * The OAuth2Client comes from the google-auth-library that @google-cloud/storage itself depends on:
 * storage 7 (the last line that runs on Node 20) reads plain-object headers, while the newer
 * google-auth-library at the top level returns a `Headers` instance it would drop.
 */
const { OAuth2Client } = createRequire(createRequire(import.meta.url).resolve('@google-cloud/storage'))(
  'google-auth-library',
) as typeof import('google-auth-library');

export function googleStorage(base: string, projectId: string, apiKey: string): Storage {
  return new Storage({ apiEndpoint: base, projectId, useAuthWithCustomEndpoint: true, authClient: new OAuth2Client({ apiKey }) as never });
}
