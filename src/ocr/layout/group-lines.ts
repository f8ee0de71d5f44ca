import type { FrameBox } from './reading-frame.ts';
import { median, type OrderItem } from './reading-order.ts';

/** Rows (indices into the reading-order rows) grouped as blocks → paragraphs → rows. */
export type RowGroups = number[][][];

interface RowShape extends FrameBox {
  height: number;
}

/**
 * Groups visual rows, already in reading order, into paragraphs and blocks the way a reader would:
 * a new block where reading jumps back up (next column) or sideways, or after a wide vertical gap
 * or a big change of text size; a new paragraph inside a block after a gap wider than a usual line
 * spacing, a change of text size, or an indented first line after a short last line.
 */
export function groupLines(items: readonly OrderItem[], rows: readonly number[][]): RowGroups {
  const shapes = rows.map((r) => shapeOf(items, r));
  const blocks: RowGroups = [];
  // Typical spacing between consecutive rows of the same column, to tell paragraph gaps apart.
  const spacing = median(
    shapes
      .slice(1)
      .map((s, k) => (s.y0 - shapes[k].y1) / Math.min(s.height, shapes[k].height))
      .filter((g) => g >= 0 && g < 1.5),
  );
  shapes.forEach((s, k) => {
    const p = shapes[k - 1];
    if (!p) {
      blocks.push([[k]]);
      return;
    }
    const h = Math.min(p.height, s.height);
    const ratio = Math.max(p.height, s.height) / Math.max(h, 1e-6);
    const gap = (s.y0 - p.y1) / Math.max(h, 1e-6);
    const overlapX = Math.min(p.x1, s.x1) - Math.max(p.x0, s.x0);
    const newBlock = gap < -0.5 || gap > 1.5 + spacing || overlapX <= 0 || ratio > 2;
    const indented = s.x0 - p.x0 > h && s.x0 - p.x0 < 8 * h && p.x1 < s.x1 - 2 * h;
    const newParagraph = newBlock || gap > Math.max(0.8, 2 * spacing) || ratio > 1.35 || indented;
    const block = blocks[blocks.length - 1];
    if (newBlock) blocks.push([[k]]);
    else if (newParagraph) block.push([k]);
    else block[block.length - 1].push(k);
  });
  return blocks;
}

function shapeOf(items: readonly OrderItem[], row: readonly number[]): RowShape {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const i of row) {
    const b = items[i].box;
    x0 = Math.min(x0, b.x0);
    y0 = Math.min(y0, b.y0);
    x1 = Math.max(x1, b.x1);
    y1 = Math.max(y1, b.y1);
  }
  return { x0, y0, x1, y1, height: median(row.map((i) => items[i].height)) };
}
