import fs from 'node:fs';

/**
 * Whether this CPU multiplies int8 by int8 in one instruction (AVX-512 VNNI or AVX-VNNI), from the
 * flags Linux lists in `/proc/cpuinfo`: the int8 recognizer reads a line in ~0.65 of fp32's time
 * with it and ~0.96 without, so `OCR_RECOGNIZER_PRECISION=auto` takes int8 only here
 * (`recognizerPrecisionFor`). Anything unreadable (another OS) answers false.
 */
export function cpuHasVnni(cpuinfo = readCpuinfo()): boolean {
  const flags = /^flags\s*:(.*)$/m.exec(cpuinfo)?.[1].split(/\s+/) ?? [];
  return flags.includes('avx512_vnni') || flags.includes('avx_vnni');
}

function readCpuinfo(): string {
  try {
    return fs.readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
}
