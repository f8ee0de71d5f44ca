import type { Polygon } from './polygon-iou.ts';

/** What one engine produced for one image, in the form the scorers take. */
export interface EngineImageResult {
  id: string;
  text: string;
  words: Array<{ text: string; polygon: Polygon }>;
  latencyMs: number;
  error?: string;
  timings?: Record<string, number>;
  /** `--ablate`: the output with each text fix left out, by the fix's name. */
  without?: Record<string, { text: string; words: Array<{ text: string; polygon: Polygon }> }>;
}

export interface EngineRun {
  engine: string;
  results: EngineImageResult[];
  wallMs: number;
  peakRssBytes: number;
  /** The engine's version, when a saved run is reused (`--tesseract-from`). */
  version?: string;
  /** Resident memory when the last image was answered. */
  finalRssBytes?: number;
  /** Model loading before the timed run (Legible), not part of the wall time. */
  startupMs?: number;
  /** The recognizer precision Legible's workers loaded (`OCR_RECOGNIZER_PRECISION`). */
  recognizerPrecision?: string;
}
