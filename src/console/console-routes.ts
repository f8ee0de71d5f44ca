import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ensureConsoleBuilt, DEFAULT_CONSOLE_PATHS, type ConsoleBuildPaths } from './console-build.ts';

/**
 * The console only talks to its own origin and runs only its own bundle: no inline script or style,
 * no CDN, no framing. Images are `blob:` URLs of files the user picked (the playground).
 * https://developer.mozilla.org/en-US/docs/Web/HTTP/Guides/CSP
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * Serves the web console at `/console`: `index.html` (never cached, so a deploy is picked up at once)
 * and content-hashed assets under `/console/assets/` (cached for a year, immutable). The bundle is
 * built from `console/` on first start, or whenever its sources changed (see `ensureConsoleBuilt`).
 * The console itself has no server-side logic: it calls the public JSON API with the account token.
 */
export const consoleRoutes: FastifyPluginAsync<{ paths?: ConsoleBuildPaths }> = async (app, opts) => {
  const dir = await ensureConsoleBuilt(opts.paths ?? DEFAULT_CONSOLE_PATHS);
  const indexHtml = await fs.readFile(path.join(dir, 'index.html'));

  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  const sendIndex = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  app.get('/console', { schema: { hide: true } }, sendIndex);
  app.get('/console/', { schema: { hide: true } }, sendIndex);

  await app.register(fastifyStatic, {
    root: path.join(dir, 'assets'),
    prefix: '/console/assets/',
    decorateReply: false,
    index: false,
    wildcard: true,
    cacheControl: true,
    maxAge: '365d',
    immutable: true,
    dotfiles: 'deny',
  });
};
