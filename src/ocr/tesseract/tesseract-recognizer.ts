import type { LineCrop } from '../crop-line.ts';
import { toTesseractLineImage } from './line-image.ts';
import { readTesseractLine, type TesseractLineText } from './tesseract-line.ts';
import type { TesseractWorkers } from './tesseract-workers.ts';

/**
 * Reads line crops with Tesseract's LSTM models, one crop at a time in page-segmentation mode 7
 * (a single text line: the PP detector already found the line; Tesseract's own layout analysis
 * returned nothing on Korean crops in the default mode).
 *
 * @example
 *   const rec = createTesseractRecognizer(new TesseractWorkers({ maxLoaded: 3 }));
 *   const [line] = await rec.recognizeLines([crop], ['vie']);
 */
export interface TesseractRecognizer {
  recognizeLines(crops: readonly LineCrop[], traineddata: readonly string[]): Promise<TesseractLineText[]>;
}

export function createTesseractRecognizer(workers: TesseractWorkers): TesseractRecognizer {
  return {
    async recognizeLines(crops, traineddata) {
      const lines: TesseractLineText[] = [];
      for (const crop of crops) {
        if (crop.width < 2 || crop.height < 2) {
          lines.push({ text: '', confidence: 0, chars: [] });
          continue;
        }
        const image = toTesseractLineImage(crop);
        if (image.blank) {
          lines.push({ text: '', confidence: 0, chars: [] });
          continue;
        }
        const page = await workers.recognizeLine(traineddata, image.pgm);
        lines.push(readTesseractLine(page, image, crop.width));
      }
      return lines;
    },
  };
}
