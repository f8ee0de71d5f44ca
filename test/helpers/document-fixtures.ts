import zlib from 'node:zlib';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/**
 * Documents made in the test, never stored: born-digital PDF pages (text drawn with a standard
 * font), scanned pages (an image of text), rotated pages and mixed sizes; multi-page TIFF and
 * animated GIF through sharp; and hostile PDFs written byte by byte.
 */

function svg(width: number, height: number, lines: readonly string[], size: number): Buffer {
  const texts = lines
    .map((t, i) => `<text x="${size}" y="${size * 1.6 * (i + 1)}" font-family="DejaVu Sans" font-size="${size}" fill="black">${t}</text>`)
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${texts}</svg>`,
  );
}

/** A picture of text, as a scanner would produce (PNG). */
export async function textImage(lines: readonly string[], width = 1000, height = 400, size = 48): Promise<Buffer> {
  return sharp(svg(width, height, lines, size))
    .flatten({ background: '#fff' })
    .png()
    .toBuffer();
}

export type PdfPageSpec =
  | { kind: 'text'; lines: string[]; size?: [number, number]; rotate?: 0 | 90 | 180 | 270 }
  | { kind: 'scan'; lines: string[]; size?: [number, number]; rotate?: 0 | 90 | 180 | 270; jpeg?: boolean };

export async function makePdf(pages: readonly PdfPageSpec[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const [w, h] = spec.size ?? [612, 792];
    const page = doc.addPage([w, h]);
    if (spec.kind === 'text') {
      spec.lines.forEach((line, i) => page.drawText(line, { x: 54, y: h - 90 - i * 44, size: 28, font }));
    } else {
      const png = await textImage(spec.lines, 1600, 200 + spec.lines.length * 110, 64);
      const image = spec.jpeg ? await doc.embedJpg(await sharp(png).jpeg({ quality: 85 }).toBuffer()) : await doc.embedPng(png);
      const scale = (w - 72) / image.width;
      page.drawImage(image, { x: 36, y: h - 36 - image.height * scale, width: image.width * scale, height: image.height * scale });
    }
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
  }
  return doc.save();
}

export async function multiPageTiff(pages: readonly string[][]): Promise<Buffer> {
  const images = await Promise.all(pages.map((lines) => textImage(lines, 900, 300)));
  return sharp(images, { join: { animated: true } })
    .tiff({ compression: 'lzw' })
    .toBuffer();
}

export async function animatedGif(frames: readonly string[][]): Promise<Buffer> {
  const images = await Promise.all(frames.map((lines) => textImage(lines, 900, 300)));
  return sharp(images, { join: { animated: true } })
    .gif({ loop: 0, delay: frames.map(() => 500) })
    .toBuffer();
}

/** A PDF from numbered objects, with a correct xref table (bodies are latin1 strings or bytes). */
export function rawPdf(objects: ReadonlyArray<string | Buffer>, trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${length}\n%%EOF\n`, 'latin1'),
  );
  return Buffer.concat(parts);
}

/** ~1 KB: one page declaring a 200 000 × 200 000 pt MediaBox. */
export function hugePagePdf(): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200000 200000] >>',
  ]);
}

/** `count` empty pages, each its own object. */
export function manyPagesPdf(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ');
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    ...Array.from({ length: count }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ]);
}

/** A page whose content stream is `inflatedMb` MB of zeros behind FlateDecode (~1/1000 of that on disk). */
export async function bombPdf(inflatedMb: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < inflatedMb; i += 1) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const stream = Buffer.concat(chunks);
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/** Encrypted with the standard security handler and a user password we do not know. */
export function encryptedPdf(): Buffer {
  const hex32 = 'ab'.repeat(32);
  return rawPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${hex32}> /U <${hex32}> /P -4 >>`,
    ],
    `/Encrypt 4 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>] `,
  );
}

/** A text page whose document opens with JavaScript (never run by Legible). */
export function javascriptPdf(text: string): Buffer {
  const content = `BT /F1 28 Tf 54 700 Td (${text}) Tj ET`;
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /JavaScript << /Names [(x) 6 0 R] >> >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /S /JavaScript /JS (while(true){}; app.alert("pwned");) >>',
  ]);
}
