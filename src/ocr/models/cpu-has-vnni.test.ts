import { test, type TestContext } from 'node:test';
import { cpuHasVnni } from './cpu-has-vnni.ts';

test('VNNI is read from the CPU flags, in either form; no flags means no', (t: TestContext) => {
  const cpu = (flags: string) => `processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 ${flags}\nbugs\t\t: sysret_ss_attrs\n`;
  t.assert.equal(cpuHasVnni(cpu('avx2 fma avx512f avx512_vnni avx512_bf16')), true);
  t.assert.equal(cpuHasVnni(cpu('avx2 fma avx_vnni')), true);
  t.assert.equal(cpuHasVnni(cpu('avx2 fma avx512f avx512vl')), false);
  // A flag merely containing the word does not count.
  t.assert.equal(cpuHasVnni(cpu('avx2 avx512_vnnix')), false);
  t.assert.equal(cpuHasVnni(''), false);
});
