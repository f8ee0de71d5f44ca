import type { Quad } from '../ocr-types.ts';
import type { DecodedImage } from './decode-image.ts';

/** Side of the square tiles the image is judged in (pixels as decoded). */
const TILE = 32;
/** Lags (pixels) at which a tile is compared with itself: a screen's period is 2–8 pixels (40–150 lines per inch at 300 dpi). */
const MAX_LAG = 8;
/** A tile of paper or flat colour has no screen: its standard deviation is below 20 grey levels. */
const MIN_VARIANCE = 400;
/**
 * A screen changes at nearly every pixel (mean |Δ| of neighbours ≥ 40 grey levels across and down);
 * print, even small, mostly does not. Only such tiles pay for the autocorrelation.
 */
const MIN_GRADIENT = 40;
/** A lag where the tile matches itself this well (normalised autocorrelation)… */
const PEAK = 0.4;
/** …after a shorter lag where it matched this much worse: dots, then the gaps between them, then dots again. */
const RISE = 0.5;
/** A screened area holds at least this many tiles repeating in both directions. */
const MIN_SCREEN_TILES = 3;

/** 0 for a tile without a screen; 1 repeating one way (across or down); 2 both ways. */
type TileKind = 0 | 1 | 2;

interface TileJudgement {
  kind: TileKind;
  /** Where the tile repeats both ways, its period across and down (pixels). */
  across: number;
  down: number;
}

const NOT_SCREEN: TileJudgement = { kind: 0, across: 0, down: 0 };

/** The lag at which `r` (r[lag], lag ≥ 1) rises to a repeat after a dip, or 0 when it never does. */
function repeatLag(r: Float64Array): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (let lag = 1; lag <= MAX_LAG; lag++) {
    if (lag >= 2 && r[lag] >= PEAK && r[lag] - lowest >= RISE) return lag;
    lowest = Math.min(lowest, r[lag]);
  }
  return 0;
}

/** Rows and columns of a tile that `busy` samples. */
const SAMPLED = [3, 11, 19, 27];

/**
 * Whether the tile at (`x0`, `y0`) changes as often as a screen does, from the green channel on a few
 * rows and columns: most tiles are paper or print and are passed over at an eighth of the cost.
 */
function busy(image: DecodedImage, x0: number, y0: number): boolean {
  const { width, rgb } = image;
  let change = 0;
  for (const k of SAMPLED) {
    const row = ((y0 + k) * width + x0) * 3 + 1;
    const column = (y0 * width + x0 + k) * 3 + 1;
    for (let i = 0; i + 1 < TILE; i++) {
      change += Math.abs(rgb[row + (i + 1) * 3] - rgb[row + i * 3]);
      change += Math.abs(rgb[column + (i + 1) * width * 3] - rgb[column + i * width * 3]);
    }
  }
  return change / (SAMPLED.length * (TILE - 1)) >= MIN_GRADIENT;
}

/** Judges tiles of `image` (tile coordinates): whether their grey levels repeat at a short lag across, down, or both. */
function tileJudge(image: DecodedImage): (tx: number, ty: number) => TileJudgement {
  const { width, rgb } = image;
  const grey = new Float64Array(TILE * TILE);
  const across = new Float64Array(MAX_LAG + 1);
  const down = new Float64Array(MAX_LAG + 1);
  return (tx, ty) => {
    let sum = 0;
    for (let y = 0; y < TILE; y++) {
      for (let x = 0; x < TILE; x++) {
        const i = ((ty * TILE + y) * width + tx * TILE + x) * 3;
        const v = 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2];
        grey[y * TILE + x] = v;
        sum += v;
      }
    }
    const mean = sum / grey.length;
    let variance = 0,
      gradient = 0;
    for (let y = 0; y < TILE; y++) {
      for (let x = 0; x < TILE; x++) {
        const k = y * TILE + x;
        grey[k] -= mean;
        variance += grey[k] * grey[k];
        if (x + 1 < TILE) gradient += Math.abs(grey[k + 1] - grey[k]);
        if (y + 1 < TILE) gradient += Math.abs(grey[k + TILE] - grey[k]);
      }
    }
    variance /= grey.length;
    if (variance < MIN_VARIANCE || gradient / grey.length < MIN_GRADIENT) return NOT_SCREEN;
    for (let lag = 1; lag <= MAX_LAG; lag++) {
      let a = 0,
        d = 0;
      for (let y = 0; y < TILE; y++) {
        for (let x = 0; x < TILE; x++) {
          const k = y * TILE + x;
          if (x + lag < TILE) a += grey[k] * grey[k + lag];
          if (y + lag < TILE) d += grey[k] * grey[k + lag * TILE];
        }
      }
      const pairs = TILE * (TILE - lag) * variance;
      across[lag] = a / pairs;
      down[lag] = d / pairs;
    }
    const px = repeatLag(across);
    const py = repeatLag(down);
    if (px > 0 && py > 0) return { kind: 2, across: px, down: py };
    return px > 0 || py > 0 ? { kind: 1, across: 0, down: 0 } : NOT_SCREEN;
  };
}

interface Screen {
  /** Row-major tile indices (`columns` tiles to a row) of the screened tiles. */
  tiles: Set<number>;
  /** The screen's period across and down (pixels): the median over the tiles that repeat both ways. */
  across: number;
  down: number;
  columns: number;
  rows: number;
}

/**
 * The screened tiles: tiles that repeat both ways (busy ones are judged; a screen is busy), grown
 * into the 4-connected tiles around them that repeat at least one way (words printed on a screen
 * break its repeat one way, and they need not be busy), kept where a group holds at least
 * `MIN_SCREEN_TILES` that repeat both ways, with the gaps between them closed (`closeGaps`).
 */
function findScreen(image: DecodedImage): Screen {
  const columns = Math.floor(image.width / TILE);
  const rows = Math.floor(image.height / TILE);
  const judge = tileJudge(image);
  const judged = new Map<number, TileJudgement>();
  const judgement = (t: number) => {
    const known = judged.get(t);
    if (known) return known;
    const j = judge(t % columns, Math.floor(t / columns));
    judged.set(t, j);
    return j;
  };
  const seeds: number[] = [];
  for (let ty = 0; ty < rows; ty++)
    for (let tx = 0; tx < columns; tx++)
      if (busy(image, tx * TILE, ty * TILE) && judgement(ty * columns + tx).kind === 2) seeds.push(ty * columns + tx);
  const seen = new Set<number>();
  const screened = new Set<number>();
  for (const seed of seeds) {
    if (seen.has(seed)) continue;
    const area: number[] = [];
    const stack = [seed];
    seen.add(seed);
    while (stack.length > 0) {
      const t = stack.pop() as number;
      area.push(t);
      const x = t % columns,
        y = Math.floor(t / columns);
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ]) {
        const n = ny * columns + nx;
        if (nx < 0 || ny < 0 || nx >= columns || ny >= rows || seen.has(n) || judgement(n).kind === 0) continue;
        seen.add(n);
        stack.push(n);
      }
    }
    if (area.filter((t) => judgement(t).kind === 2).length >= MIN_SCREEN_TILES) for (const t of area) screened.add(t);
  }
  const repeating = [...screened].map(judgement).filter((j) => j.kind === 2);
  return {
    tiles: closeGaps(screened, columns, rows),
    across: median(repeating.map((j) => j.across)),
    down: median(repeating.map((j) => j.down)),
    columns,
    rows,
  };
}

/** Gaps (tiles) closed between screened tiles: along a row (words on a bar), and down a column (a bar two tiles tall). */
const ROW_GAP = 4;
const COLUMN_GAP = 1;

/**
 * Where the words on a screen cover most of a tile, the repeat is lost there, but the tile is as
 * screened as its neighbours: short runs of tiles between screened ones on a row or a column join them.
 */
function closeGaps(screened: Set<number>, columns: number, rows: number): Set<number> {
  const closed = new Set(screened);
  const close = (lines: number, length: number, at: (line: number, i: number) => number, gap: number) => {
    for (let line = 0; line < lines; line++) {
      let last = -1;
      for (let i = 0; i < length; i++) {
        if (!screened.has(at(line, i))) continue;
        if (last >= 0 && i - last - 1 <= gap) for (let k = last + 1; k < i; k++) closed.add(at(line, k));
        last = i;
      }
    }
  };
  close(rows, columns, (row, x) => row * columns + x, ROW_GAP);
  close(columns, rows, (column, y) => y * columns + column, COLUMN_GAP);
  return closed;
}

export interface Descreened {
  /** What detection sees: the image with its screens averaged away (the image itself when it has none). */
  image: DecodedImage;
  /** The image as decoded, when it had a screen. */
  original?: DecodedImage;
  /** Whether a quad (pixels of `image`) touches a screened tile. */
  onScreen(quad: Quad): boolean;
}

const NO_SCREEN = { onScreen: () => false };

/**
 * The image with its halftone screens averaged away. Scanned reports and forms print shaded heading
 * bars and table cells as a screen of dots; binarised by the scanner, the dots are as dark and as
 * sharp as the letters, and the detector sees a texture, not the words on it (a heading printed white
 * on a screen came back as nothing). A screen is found as tiles whose grey levels repeat at a lag of
 * 2–8 pixels after a dip, across and down (print does not: a stroke continues down, a letter is not
 * followed by itself). Each screened tile becomes the mean of a box one period wide and tall, which
 * turns every repeat of the screen into its mean grey and keeps letters a few periods tall. Small
 * print on a light screen reads better as it was, so the original is kept for the lines on a screen
 * to be read both ways (`ocr-pipeline.ts`).
 *
 * @example const { image, original, onScreen } = descreen(await decodeImage(bytes));
 */
export function descreen(image: DecodedImage): Descreened {
  const screen = findScreen(image);
  const screened = screen.tiles;
  if (screened.size === 0) return { image, ...NO_SCREEN };
  // A box exactly one period wide and tall averages every repeat of the screen to its mean grey.
  const { across: width, down: height } = screen;
  const rgb = new Uint8Array(image.rgb);
  for (const t of screened) {
    const x0 = (t % screen.columns) * TILE;
    const y0 = Math.floor(t / screen.columns) * TILE;
    // The tile with a period's margin around it, so that its edge pixels average whole boxes too.
    const left = Math.max(0, x0 - width);
    const top = Math.max(0, y0 - height);
    const region = {
      left,
      top,
      width: Math.min(image.width, x0 + TILE + width) - left,
      height: Math.min(image.height, y0 + TILE + height) - top,
    };
    const averaged = boxMean(image, region, width, height);
    for (let y = y0; y < y0 + TILE; y++) {
      const from = ((y - top) * region.width + (x0 - left)) * 3;
      rgb.set(averaged.subarray(from, from + TILE * 3), (y * image.width + x0) * 3);
    }
  }
  const onScreen = (quad: Quad) => {
    const xs = quad.map((p) => Math.floor(p.x / TILE));
    const ys = quad.map((p) => Math.floor(p.y / TILE));
    for (let ty = Math.max(0, Math.min(...ys)); ty <= Math.min(screen.rows - 1, Math.max(...ys)); ty++)
      for (let tx = Math.max(0, Math.min(...xs)); tx <= Math.min(screen.columns - 1, Math.max(...xs)); tx++)
        if (screened.has(ty * screen.columns + tx)) return true;
    return false;
  };
  return { image: { ...image, rgb }, original: image, onScreen };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

type Region = { left: number; top: number; width: number; height: number };

/**
 * Each pixel of `region` as the mean of the `across × down` box around it (RGB, the region's own
 * rows), from running sums along rows and then down columns; at the region's edges the box is cut short.
 */
function boxMean(image: DecodedImage, region: Region, across: number, down: number): Uint8Array {
  const { width, height } = region;
  const rows = new Float32Array(width * height * 3);
  const sums = new Float64Array(Math.max(width, height) + 1);
  const mean = (at: number, box: number, length: number) => {
    const from = Math.max(0, at - Math.floor((box - 1) / 2));
    const to = Math.min(length, from + box);
    return (sums[to] - sums[from]) / (to - from);
  };
  for (let y = 0; y < height; y++) {
    const source = ((region.top + y) * image.width + region.left) * 3;
    for (let c = 0; c < 3; c++) {
      for (let x = 0; x < width; x++) sums[x + 1] = sums[x] + image.rgb[source + x * 3 + c];
      for (let x = 0; x < width; x++) rows[(y * width + x) * 3 + c] = mean(x, across, width);
    }
  }
  const out = new Uint8Array(width * height * 3);
  for (let x = 0; x < width; x++) {
    for (let c = 0; c < 3; c++) {
      for (let y = 0; y < height; y++) sums[y + 1] = sums[y] + rows[(y * width + x) * 3 + c];
      for (let y = 0; y < height; y++) out[(y * width + x) * 3 + c] = Math.round(mean(y, down, height));
    }
  }
  return out;
}
