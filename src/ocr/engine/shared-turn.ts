/**
 * A turn that one worker thread at a time holds, through memory the engine shares with its workers.
 * Workers take it around a full-size detection (~0.6 GB of onnxruntime memory at 2016×2016), so two
 * of those never stack in one process. The holder is the task's id (never 0, which means free): when
 * the engine stops a worker in its turn (deadline), it gives the turn back on the task's behalf.
 *
 * @example
 *   const turn = new SharedTurn(); // engine: pass turn.buffer in workerData
 *   await turn.take(taskId); try { await detect(); } finally { turn.give(taskId); }
 */
export class SharedTurn {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  /** Resolves once `holder` has the turn (at once if it has it already). */
  async take(holder: number): Promise<void> {
    if (holder === 0) throw new RangeError('0 means a free turn; holders are task ids from 1');
    for (;;) {
      const current = Atomics.compareExchange(this.cell, 0, 0, holder);
      if (current === 0 || current === holder) return;
      // A bounded wait: a wake-up that is missed (or a holder given back without notify) costs 50 ms, not forever.
      const wait = Atomics.waitAsync(this.cell, 0, current, 50);
      if (wait.async) await wait.value;
    }
  }

  /** Gives the turn back if `holder` has it; otherwise does nothing. */
  give(holder: number): void {
    if (Atomics.compareExchange(this.cell, 0, holder, 0) === holder) Atomics.notify(this.cell, 0);
  }
}
