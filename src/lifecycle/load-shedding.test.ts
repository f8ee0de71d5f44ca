import { test, type TestContext } from 'node:test';
import Fastify from 'fastify';
import { loadShedding } from './load-shedding.ts';

const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A saturated loop: blocked 1.2 s at a time, so every delay sample in between is over the 1 s limit. */
async function saturate(rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const until = performance.now() + 1200;
    while (performance.now() < until);
    await waitMs(0);
  }
}

test('a loop saturated while the server starts sheds nothing; saturated once it runs, requests are shed', async (t: TestContext) => {
  const app = Fastify();
  t.after(() => app.close());
  await app.register(loadShedding);
  app.get('/work', async () => ({ ok: true }));
  // Start-up work after the load-shedding plugin, on a busy machine.
  await saturate(3);
  await app.ready();
  const atStart = await app.inject({ method: 'GET', url: '/work' });
  t.assert.equal(atStart.statusCode, 200, atStart.body);

  await waitMs(2100);
  await saturate(3);
  const busy = await app.inject({ method: 'GET', url: '/work' });
  // The app's error handler turns this into Google's envelope with Retry-After (errors catalogue).
  t.assert.equal(busy.statusCode, 503, busy.body);
  t.assert.match(busy.body, /overloaded \(eventLoopDelay\)/);
});
