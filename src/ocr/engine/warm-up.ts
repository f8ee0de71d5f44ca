import { classifyUpsideDown } from '../recognize/classify-direction.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { detectText } from '../detect/detect-text.ts';
import type { OcrModels } from '../models/models.ts';
import { imageQuad } from '../geometry.ts';
import { recognizeLines } from '../recognize/recognize-text.ts';

const LINE = imageQuad({ width: 640, height: 48 });

/**
 * Runs every model on a blank input so that onnxruntime's first-run costs are paid by the worker
 * when it starts, not by the first images it reads: the detector's first two runs at a new size
 * take ~0.6 s each instead of ~0.2 s (memory arena growth, then the memory-pattern plan), measured
 * on 1280×736; later sizes reuse the grown arena.
 *
 * @example await warmUp(await loadModels({ threads: 1 }));
 */
export async function warmUp(models: OcrModels): Promise<void> {
  // A white 1280×720 page: the detector's most common input size (phone and camera photos).
  const blank: DecodedImage = { width: 1280, height: 720, rgb: new Uint8Array(1280 * 720 * 3).fill(255), format: 'png', scale: 1 };
  for (let run = 0; run < 2; run++) await detectText(blank, models.detector);
  await classifyUpsideDown(blank, [LINE], models.classifier);
  await recognizeLines(blank, [LINE], models.latin.model, models.latin.dictionary);
  await recognizeLines(blank, [LINE], models.han.model, models.han.dictionary);
  if (models.latin.int8) await recognizeLines(blank, [LINE], models.latin.int8, models.latin.dictionary);
}
