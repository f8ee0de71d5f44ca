import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { MAX_URI_LENGTH, redirectUriProblem, webPageUriProblem } from './redirect-uri.ts';

test('accepts https, loopback http and private-use schemes (RFC 8252)', (t: TestContext) => {
  for (const uri of [
    'https://app.example.com/callback',
    'https://app.example.com:8443/cb?tenant=a&x=%20y',
    'https://xn--bcher-kva.example/cb',
    'http://127.0.0.1/cb',
    'http://127.0.0.1:51004/oauth2redirect',
    'http://[::1]:8080/cb',
    'http://localhost:3000/callback',
    'com.example.app:/oauth2redirect/example-provider',
    'com.example.app://callback',
    'HTTPS://App.Example.com/cb',
  ]) {
    t.assert.equal(redirectUriProblem(uri), null, uri);
  }
});

test('refuses hostile and ambiguous redirect URIs, saying why', (t: TestContext) => {
  const cases: Array<[string, RegExp]> = [
    ['javascript:alert(1)', /scheme "javascript:"/],
    ['JavaScript://%0aalert(1)', /scheme "javascript:"/],
    ['data:text/html,<script>alert(1)</script>', /ASCII|scheme "data:"/],
    ['data:text/html;base64,PHNjcmlwdD4=', /scheme "data:"/],
    ['vbscript:msgbox', /scheme "vbscript:"/],
    ['file:///etc/passwd', /scheme "file:"/],
    ['https://app.example.com/cb#frag', /fragment/],
    ['https://app.example.com/cb#', /fragment/],
    ['https://*.example.com/cb', /wildcard/],
    ['https://app.example.com/*', /wildcard/],
    ['http://app.example.com/cb', /loopback/],
    ['http://127.0.0.1.evil.com/cb', /loopback/],
    ['http://localhost.evil.com/cb', /loopback/],
    ['http://10.0.0.1/cb', /loopback/],
    ['https://user:pass@app.example.com/cb', /credentials/],
    ['https://evil.com@app.example.com/cb', /credentials/],
    ['https:app.example.com/cb', /absolute URL/],
    ['https:///cb', /absolute URL/],
    ['/relative/callback', /absolute/],
    ['app.example.com/cb', /absolute/],
    ['', /empty/],
    ['https://app.example.com/cb\r\nSet-Cookie: a=b', /ASCII/],
    ['https://app.example.com/\u0000', /ASCII/],
    ['https://app.example.com/ cb', /ASCII/],
    ['https://bücher.example/cb', /ASCII/],
    ['https://app.example.com/\u202eexe.cb', /ASCII/],
    ['myapp:/cb', /reverse-domain/],
    [`https://app.example.com/${'a'.repeat(10_000)}`, /at most 2000/],
  ];
  for (const [uri, why] of cases) {
    const problem = redirectUriProblem(uri);
    t.assert.ok(problem, `${JSON.stringify(uri.slice(0, 60))} should be refused`);
    t.assert.match(problem!, why, uri.slice(0, 60));
  }
});

test('web page URIs: https (or loopback http), fragments allowed, no other scheme', (t: TestContext) => {
  t.assert.equal(webPageUriProblem('https://acme.test/privacy#section-2'), null);
  t.assert.equal(webPageUriProblem('http://localhost:3000/logo.png'), null);
  t.assert.match(webPageUriProblem('javascript:alert(1)')!, /https/);
  t.assert.match(webPageUriProblem('data:image/png;base64,AAAA')!, /https/);
  t.assert.match(webPageUriProblem('http://acme.test/logo.png')!, /loopback/);
  t.assert.match(webPageUriProblem('https://u:p@acme.test/')!, /credentials/);
});

test('property: never throws, and whatever is accepted is short printable ASCII without # or *', (t: TestContext) => {
  const uriLike = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.webUrl({ withFragments: true, withQueryParameters: true }),
    fc
      .tuple(
        fc.constantFrom('https://', 'http://', 'com.example.app:/', 'javascript:', 'http://127.0.0.1'),
        fc.string({ unit: 'grapheme', maxLength: 100 }),
      )
      .map(([a, b]) => a + b),
  );
  fc.assert(
    fc.property(uriLike, (uri) => {
      const problem = redirectUriProblem(uri);
      if (problem === null) {
        t.assert.ok(uri.length <= MAX_URI_LENGTH && /^[\x21-\x7e]+$/.test(uri) && !uri.includes('#') && !uri.includes('*'), uri);
        t.assert.ok(URL.canParse(uri));
      }
      webPageUriProblem(uri);
    }),
    { numRuns: 2000 },
  );
});
