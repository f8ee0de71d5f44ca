import sharp from 'sharp';
import { despeckle } from './despeckle.ts';
import type { LineCrop } from '../crop-line.ts';
import type { DecodedImage } from '../../decode/decode-image.ts';
import { rectQuad } from '../../geometry.ts';
import type { Quad } from '../../ocr-types.ts';
import { MIN_HEIGHT, toTesseractLineImage, type TesseractLineImage } from './line-image.ts';
import { readTesseractLine, type TesseractLineText } from './tesseract-line.ts';
import type { PageRegion } from './ruled-columns.ts';
import type { TesseractReader } from './shared-tesseract.ts';

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
  /**
   * `height`: each crop is read at exactly this many rows instead of within 48–128 (`toTesseractLineImage`),
   * where a crop read as nothing is read once more at 48;
   * `tiled`: binarised per tile instead of over the whole line (`TesseractWorkers.recognizeLine`).
   */
  recognizeLines(
    crops: readonly LineCrop[],
    traineddata: readonly string[],
    height?: number,
    tiled?: boolean,
  ): Promise<TesseractLineText[]>;
  /**
   * The page's lines as Tesseract's own layout analysis finds them, each with its box in image pixels.
   * `scale` (≤ 1) shrinks the page first: the layout analysis costs per pixel, the line reader
   * normalises every line to its own height anyway. `region` reads only that part of the page (boxes stay in
   * the page's pixels), and one that is a column (`region.column`) as one column of lines. Ink blobs of up to
   * `speckArea` pixels (of the page, before shrinking) are whited out first (`despeckle`).
   */
  recognizePage(
    image: DecodedImage,
    traineddata: readonly string[],
    options?: { scale?: number; region?: PageRegion; speckArea?: number },
  ): Promise<Array<{ box: Quad; reading: TesseractLineText }>>;
}

export function createTesseractRecognizer(workers: TesseractReader): TesseractRecognizer {
  return {
    async recognizeLines(crops, traineddata, height, tiled) {
      const lines: TesseractLineText[] = [];
      for (const crop of crops) {
        if (crop.width < 2 || crop.height < 2) {
          lines.push({ text: '', confidence: 0, chars: [] });
          continue;
        }
        const image = toTesseractLineImage(crop, height);
        if (image.blank) {
          lines.push({ text: '', confidence: 0, chars: [] });
          continue;
        }
        const read = async (at: TesseractLineImage) =>
          readTesseractLine(await workers.recognizeLine(traineddata, at.pgm, tiled), at, crop.width);
        const line = await read(image);
        // The line reader gives some large, clean lines nothing at all (a 73-row Arabic line reads whole
        // from 28 to 56 rows and is empty from 64): an empty reading is taken again at the smallest height.
        const again = line.text.trim() === '' && height === undefined && crop.height > MIN_HEIGHT;
        lines.push(again ? await read(toTesseractLineImage(crop, MIN_HEIGHT)) : line);
      }
      return lines;
    },
    async recognizePage(
      image,
      traineddata,
      { scale = 1, region = { x: 0, y: 0, width: image.width, height: image.height }, speckArea = 0 } = {},
    ) {
      const width = Math.max(1, Math.round(region.width * Math.min(1, scale)));
      const grey = await sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } })
        .extract({ left: region.x, top: region.y, width: region.width, height: region.height })
        .greyscale()
        .raw()
        .toBuffer();
      const ink = speckArea > 0 ? despeckle(grey, region.width, region.height, speckArea) : grey;
      const png = await sharp(ink, { raw: { width: region.width, height: region.height, channels: 1 } })
        .resize(width)
        .png()
        .toBuffer();
      const page = await workers.recognizePage(traineddata, new Uint8Array(png), region.column);
      const k = region.width / width;
      const out: Array<{ box: Quad; reading: TesseractLineText }> = [];
      for (const block of page.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            const [x0, y0, x1, y1] = [
              region.x + line.bbox.x0 * k,
              region.y + line.bbox.y0 * k,
              region.x + line.bbox.x1 * k,
              region.y + line.bbox.y1 * k,
            ];
            if (x1 - x0 < 2 || y1 - y0 < 2) continue;
            // The line on its own, its characters as fractions of its own width.
            const reading = readTesseractLine(
              { ...page, blocks: [{ ...block, paragraphs: [{ ...paragraph, lines: [line] }] }] },
              { scale: 1, pad: line.bbox.x0 },
              line.bbox.x1 - line.bbox.x0,
            );
            if (reading.text.trim() === '') continue;
            out.push({ box: rectQuad(x0, y0, x1, y1), reading });
          }
        }
      }
      return out;
    },
  };
}
