import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TaskControl } from './task-control.ts';

test('a task stopped outside a native run may be terminated now, and enters no run after', () => {
  const control = new TaskControl();
  assert.equal(control.enterNative(), true);
  assert.equal(control.leaveNative(), true);
  assert.equal(control.stop(), 'now');
  assert.equal(control.enterNative(), false);
});

test('a task stopped inside a native run stops itself when the run returns', () => {
  const control = new TaskControl();
  assert.equal(control.enterNative(), true);
  assert.equal(control.stop(), 'itself');
  assert.equal(control.leaveNative(), false);
  assert.equal(control.enterNative(), false);
  assert.equal(control.stop(), 'now');
});
