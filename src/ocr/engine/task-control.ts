/** The cell's states. */
const RUNNING_JS = 0;
const IN_NATIVE = 1;
const STOPPED = 2;

/**
 * Stopping one OCR task at its deadline, shared between the engine and the worker running it.
 *
 * onnxruntime-node runs inference synchronously on the worker's thread: a worker terminated in
 * the middle of a run aborts the whole process when the run returns (`Napi::Error` thrown into a
 * terminating isolate). So the worker marks its native runs here, and the engine terminates it only
 * outside one; inside one, the run finishes and the worker stops itself right after
 * (`leaveNative` says so), at most one inference late.
 *
 * @example
 *   // engine, at the deadline:       if (control.stop() === 'now') terminateWorker();
 *   // worker, around each inference: control.enterNative(); try { run() } finally { control.leaveNative() }
 */
export class TaskControl {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  /** Engine: stop the task. `now`: the worker is not in a native run and may be terminated; `itself`: it will stop after its run. */
  stop(): 'now' | 'itself' {
    return Atomics.exchange(this.cell, 0, STOPPED) === IN_NATIVE ? 'itself' : 'now';
  }

  /** Worker: about to enter a native run; false when the task was stopped (do not start it). */
  enterNative(): boolean {
    return Atomics.compareExchange(this.cell, 0, RUNNING_JS, IN_NATIVE) === RUNNING_JS;
  }

  /** Worker: out of the native run; false when the task was stopped meanwhile (stop it now). */
  leaveNative(): boolean {
    return Atomics.compareExchange(this.cell, 0, IN_NATIVE, RUNNING_JS) === IN_NATIVE;
  }
}
