import { test, type TestContext } from 'node:test';
import { clientMetadataViolations, resolveClientMetadata } from './client-metadata.ts';

const fields = (input: Parameters<typeof resolveClientMetadata>[0]) =>
  clientMetadataViolations(resolveClientMetadata(input)).map((v) => v.field);

test('RFC 7591 defaults: authorization_code, client_secret_basic, response type code', (t: TestContext) => {
  const meta = resolveClientMetadata({ redirectUris: ['https://a.test/cb'] });
  t.assert.deepEqual(meta.grantTypes, ['authorization_code']);
  t.assert.equal(meta.tokenEndpointAuthMethod, 'client_secret_basic');
  t.assert.deepEqual(meta.responseTypes, ['code']);
  t.assert.deepEqual(resolveClientMetadata({ grantTypes: ['client_credentials'] }).responseTypes, []);
});

test('cross-field rules the schema cannot express', (t: TestContext) => {
  t.assert.deepEqual(fields({}), ['redirectUris']);
  t.assert.deepEqual(fields({ grantTypes: ['client_credentials'] }), []);
  t.assert.deepEqual(fields({ grantTypes: ['client_credentials'], tokenEndpointAuthMethod: 'none' }), ['tokenEndpointAuthMethod']);
  t.assert.deepEqual(fields({ grantTypes: ['refresh_token', 'client_credentials'] }), ['grantTypes']);
  t.assert.deepEqual(fields({ grantTypes: ['client_credentials'], responseTypes: ['code'] }), ['responseTypes']);
  t.assert.deepEqual(fields({ redirectUris: ['https://a.test/cb'], responseTypes: [] }), ['responseTypes']);
  t.assert.deepEqual(
    fields({ redirectUris: ['https://ok.test/cb', 'javascript:alert(1)', 'https://x.test/#f'], logoUri: 'data:image/png;base64,AA' }),
    ['redirectUris[1]', 'redirectUris[2]', 'logoUri'],
  );
});

test('an update merges over the stored client; null clears; grants recompute response types', (t: TestContext) => {
  const base = resolveClientMetadata({ redirectUris: ['https://a.test/cb'], scope: 'read', clientName: 'A' });
  const next = resolveClientMetadata({ scope: null, grantTypes: ['client_credentials'] }, base);
  t.assert.equal(next.scope, null);
  t.assert.equal(next.clientName, 'A');
  t.assert.deepEqual(next.redirectUris, ['https://a.test/cb']);
  t.assert.deepEqual(next.responseTypes, []);
  t.assert.deepEqual(resolveClientMetadata({ clientName: 'B' }, base).responseTypes, ['code']);
});
