import Fastify from 'fastify';

/**
 * The baseline of the auth-path benchmark: a bare Fastify 5 route, in a process of its own like the
 * Legible node it is compared with (`PORT` from the environment). It answers the same bytes a
 * refused OCR call gets (a ~480-byte Google error envelope), so the comparison measures our code —
 * hooks, key parsing, HMAC, cache, error mapping — and not the size of the answer.
 */
const ENVELOPE = {
  error: {
    code: 403,
    status: 'PERMISSION_DENIED',
    message:
      'Legible OCR API has not been used in project p-00000000 before or it is disabled. Enable it with POST /api/projects/p-00000000/apis {"api":"ocr"} (account token required), then retry.',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'SERVICE_DISABLED',
        domain: 'legible',
        metadata: { service: 'ocr', project: 'p-00000000', consumer: 'projects/p-00000000', serviceTitle: 'Legible OCR API' },
      },
    ],
  },
};

const app = Fastify({ logger: false });
app.post('/bare', async (_request, reply) => reply.code(403).send(ENVELOPE));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
