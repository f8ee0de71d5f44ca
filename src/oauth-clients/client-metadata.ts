import type { FieldViolation } from '../errors.ts';
import { AppError } from '../errors.ts';
import type { AuthMethod, GrantType } from './oauth-clients-schemas.ts';
import { redirectUriProblem, webPageUriProblem } from './redirect-uri.ts';

/** A client's RFC 7591 metadata with every default applied: what is stored and returned. */
export interface ClientMetadata {
  clientName: string | null;
  redirectUris: string[];
  grantTypes: GrantType[];
  responseTypes: string[];
  tokenEndpointAuthMethod: AuthMethod;
  clientUri: string | null;
  logoUri: string | null;
  tosUri: string | null;
  policyUri: string | null;
  scope: string | null;
  contacts: string[];
}

/** What a create or update body may carry (the schema has already checked types and sizes). */
export type ClientMetadataInput = { [K in keyof ClientMetadata]?: ClientMetadata[K] | null };

const PAGE_URI_FIELDS = ['clientUri', 'logoUri', 'tosUri', 'policyUri'] as const;

/**
 * `input` over `base` (a stored client, or nothing on create), with RFC 7591 §2 defaults:
 * `grantTypes` → `["authorization_code"]`, `tokenEndpointAuthMethod` → `client_secret_basic`,
 * `responseTypes` → `["code"]` exactly when the code grant is present (unless given).
 */
export function resolveClientMetadata(input: ClientMetadataInput, base?: ClientMetadata): ClientMetadata {
  const pick = <K extends keyof ClientMetadata>(key: K, fallback: ClientMetadata[K]): ClientMetadata[K] =>
    input[key] === undefined ? (base ? base[key] : fallback) : ((input[key] ?? fallback) as ClientMetadata[K]);
  const grantTypes = pick('grantTypes', ['authorization_code']);
  const grantsChanged = input.grantTypes !== undefined || !base;
  const responseTypes =
    input.responseTypes != null
      ? input.responseTypes
      : grantsChanged
        ? grantTypes.includes('authorization_code')
          ? ['code']
          : []
        : base!.responseTypes;
  return {
    clientName: pick('clientName', null),
    redirectUris: pick('redirectUris', []),
    grantTypes,
    responseTypes,
    tokenEndpointAuthMethod: pick('tokenEndpointAuthMethod', 'client_secret_basic'),
    clientUri: pick('clientUri', null),
    logoUri: pick('logoUri', null),
    tosUri: pick('tosUri', null),
    policyUri: pick('policyUri', null),
    scope: pick('scope', null),
    contacts: pick('contacts', []),
  };
}

/** Every rule a JSON Schema cannot express, as Google-style field violations (empty when valid). */
export function clientMetadataViolations(meta: ClientMetadata): FieldViolation[] {
  const violations: FieldViolation[] = [];
  meta.redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem) violations.push({ field: `redirectUris[${i}]`, description: `Redirect URI ${problem}` });
  });
  const grants = meta.grantTypes;
  if (grants.includes('authorization_code') && meta.redirectUris.length === 0) {
    violations.push({ field: 'redirectUris', description: 'At least one redirect URI is required with the authorization_code grant.' });
  }
  if (grants.includes('refresh_token') && !grants.includes('authorization_code')) {
    violations.push({ field: 'grantTypes', description: 'refresh_token is only issued with authorization_code (OAuth 2.1 §4.3).' });
  }
  if (grants.includes('client_credentials') && meta.tokenEndpointAuthMethod === 'none') {
    violations.push({ field: 'tokenEndpointAuthMethod', description: 'A public client (none) cannot use the client_credentials grant.' });
  }
  if (meta.responseTypes.includes('code') !== grants.includes('authorization_code')) {
    violations.push({
      field: 'responseTypes',
      description: 'Response type "code" goes with the authorization_code grant, and only with it (RFC 7591 §2.1).',
    });
  }
  for (const field of PAGE_URI_FIELDS) {
    const value = meta[field];
    const problem = value === null ? null : webPageUriProblem(value);
    if (problem) violations.push({ field, description: `URL ${problem}` });
  }
  return violations;
}

/** Throws 400 INVALID_ARGUMENT naming every violation. */
export function assertValidClientMetadata(meta: ClientMetadata): void {
  const violations = clientMetadataViolations(meta);
  if (violations.length === 0) return;
  const first = violations[0];
  throw new AppError('INVALID_ARGUMENT', `Invalid value at '${first.field}': ${first.description}`, { fieldViolations: violations });
}

export function isConfidential(meta: Pick<ClientMetadata, 'tokenEndpointAuthMethod'>): boolean {
  return meta.tokenEndpointAuthMethod !== 'none';
}
