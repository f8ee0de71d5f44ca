import { greyOf, type LineCrop } from './crop-line.ts';

/** A run of columns `[start, end)` of a line crop. */
export interface ColumnRun {
  start: number;
  end: number;
}

/** Where the ink of one line crop is, column by column. */
export interface InkProfile {
  width: number;
  /** Rows of the text band (the densest band of ink rows): the line's text height in crop pixels. */
  textHeight: number;
  /** The text band's share of the crop's ink: near 1 on one line; a second line or a neighbour's bits lower it. */
  bandShare: number;
  /** Columns holding ink, left to right (specks removed). */
  inkRuns: ColumnRun[];
  /** Blank runs between the first and the last ink column. */
  gaps: ColumnRun[];
}

/** Below this difference between the ink and paper means (0–255) there is no usable ink signal. */
const MIN_CONTRAST = 24;
/** Rows with at least this share of the busiest row's ink belong to a text band. */
const BAND_SHARE = 0.05;

/** Ink per column of rows `[y0, y1)`. */
function columnInk(ink: Uint8Array, width: number, y0: number, y1: number): number[] {
  const columns = new Array<number>(width).fill(0);
  for (let y = y0; y < y1; y++) for (let x = 0; x < width; x++) columns[x] += ink[y * width + x];
  return columns;
}

/** Otsu's threshold (1979) of a 256-bin histogram: the split that maximises between-class variance. */
export function otsuThreshold(histogram: ArrayLike<number>): number {
  let total = 0,
    sum = 0;
  for (let i = 0; i < 256; i++) {
    total += histogram[i];
    sum += i * histogram[i];
  }
  let best = 0,
    bestVar = -1,
    weightB = 0,
    sumB = 0;
  for (let t = 0; t < 256; t++) {
    weightB += histogram[t];
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * histogram[t];
    const meanB = sumB / weightB,
      meanF = (sum - sumB) / weightF;
    const between = weightB * weightF * (meanB - meanF) ** 2;
    if (between > bestVar) {
      bestVar = between;
      best = t;
    }
  }
  return best;
}

/**
 * Binarises a line crop (Otsu on luma; ink = the minority class, so light-on-dark text works too),
 * clears horizontal rules (`clearRules`), finds the text band (the run of rows with ≥ 5 % of the
 * busiest row's ink holding the most ink: bits of neighbouring lines at the top or bottom of the crop
 * fall outside it) and counts ink per column inside the band. Undefined when the crop has no usable contrast.
 */
export function inkProfile(crop: LineCrop): InkProfile | undefined {
  const { width, height, rgb } = crop;
  if (width < 2 || height < 2 || rgb.length < width * height * 3) return undefined;
  const grey = greyOf(crop);
  const histogram = new Float64Array(256);
  for (const v of grey) histogram[v]++;
  const t = otsuThreshold(histogram);
  let dark = 0,
    darkSum = 0,
    lightSum = 0;
  for (let i = 0; i <= t; i++) {
    dark += histogram[i];
    darkSum += i * histogram[i];
  }
  for (let i = t + 1; i < 256; i++) lightSum += i * histogram[i];
  const light = grey.length - dark;
  if (dark === 0 || light === 0 || lightSum / light - darkSum / dark < MIN_CONTRAST) return undefined;
  const darkInk = dark <= light;
  const ink = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) ink[i] = grey[i] <= t === darkInk ? 1 : 0;
  clearRules(ink, width, height);

  const rows = new Array<number>(height).fill(0);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows[y] += ink[y * width + x];
  const busiest = Math.max(...rows);
  if (busiest === 0) return undefined;
  let band = { start: 0, end: 0, mass: -1 };
  for (let y = 0; y < height; ) {
    if (rows[y] < BAND_SHARE * busiest) {
      y++;
      continue;
    }
    let end = y,
      mass = 0;
    while (end < height && rows[end] >= BAND_SHARE * busiest) mass += rows[end++];
    if (mass > band.mass) band = { start: y, end, mass };
    y = end;
  }
  const textHeight = band.end - band.start;
  const bandShare = band.mass / rows.reduce((sum, r) => sum + r, 0);
  const columns = columnInk(ink, width, band.start, band.end);

  // A column with any ink is ink; runs with less ink than a small dot are specks.
  const minColumn = 1;
  const speck = Math.max(2, 0.008 * textHeight * textHeight);
  const inkRuns: ColumnRun[] = [];
  for (let x = 0; x < width; ) {
    if (columns[x] < minColumn) {
      x++;
      continue;
    }
    let end = x,
      mass = 0;
    while (end < width && columns[end] >= minColumn) mass += columns[end++];
    if (mass >= speck) inkRuns.push({ start: x, end });
    x = end;
  }
  const gaps = inkRuns.slice(1).map((r, i) => ({ start: inkRuns[i].end, end: r.start }));
  return { width, textHeight, bandShare, inkRuns, gaps };
}

/** A horizontal run of ink this many crop heights long is a rule (an underline, a box edge), not a glyph. */
const RULE_LENGTH = 2;

/**
 * Clears horizontal rules from a binarised crop: form fields' underlines and box edges run through the
 * text band and put ink in every column, so the blanks between words vanish from the profile.
 */
function clearRules(ink: Uint8Array, width: number, height: number): void {
  const longest = RULE_LENGTH * height;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; ) {
      if (!ink[row + x]) {
        x++;
        continue;
      }
      let end = x;
      while (end < width && ink[row + end]) end++;
      if (end - x >= longest) ink.fill(0, row + x, row + end);
      x = end;
    }
  }
}
