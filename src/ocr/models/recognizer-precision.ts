import { cpuHasVnni } from './cpu-has-vnni.ts';

/** The recognizers loaded: fp32 only, or the int8 Latin recognizer beside it. */
export type RecognizerPrecision = 'fp32' | 'int8';
/** `OCR_RECOGNIZER_PRECISION`: `auto` is int8 where the CPU has VNNI, fp32 elsewhere. */
export type RecognizerPrecisionSetting = RecognizerPrecision | 'auto';

/**
 * The precision a setting means on this CPU. Int8 is faster only with VNNI (ocr-dev 3–25 % on
 * Zen 4, Zen 5 and Xeon VMs; a line 4 % without), within ±0.6 points of fp32 on every kind (decisions:
 * "Int8 where the CPU has VNNI").
 */
export function recognizerPrecisionFor(setting: RecognizerPrecisionSetting, hasVnni: () => boolean = cpuHasVnni): RecognizerPrecision {
  if (setting !== 'auto') return setting;
  return hasVnni() ? 'int8' : 'fp32';
}
