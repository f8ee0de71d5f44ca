import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { SharedTurn } from './shared-turn.ts';

test('a turn is held by one holder at a time and passes on when given back', async () => {
  const turn = new SharedTurn();
  await turn.take(1);
  await turn.take(1); // the holder again: at once
  let second = false;
  const waiting = turn.take(2).then(() => {
    second = true;
  });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(second, false);
  turn.give(3); // not the holder: nothing happens
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(second, false);
  turn.give(1);
  await waiting;
  assert.equal(second, true);
  turn.give(2);
  await turn.take(4);
});

test('a holder in another thread that never gives the turn back can be released on its behalf', async () => {
  const turn = new SharedTurn();
  // The thread takes the turn as holder 7 and exits without giving it back, as a stopped worker would.
  const worker = new Worker(
    `const cell = new Int32Array(require('node:worker_threads').workerData); Atomics.store(cell, 0, 7); Atomics.notify(cell, 0);`,
    { eval: true, workerData: turn.buffer },
  );
  await new Promise((resolve) => worker.once('exit', resolve));
  let taken = false;
  const waiting = turn.take(8).then(() => {
    taken = true;
  });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(taken, false);
  turn.give(7); // the engine, for the stopped task
  await waiting;
  assert.equal(taken, true);
});

test('0 is not a holder', async () => {
  await assert.rejects(new SharedTurn().take(0), RangeError);
});
