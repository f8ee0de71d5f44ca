import type { OcrParagraph, OcrResult, OcrWord, Quad } from '../ocr/ocr-types.ts';
import type { JsonObject } from '../vision/vision-response.ts';

/**
 * What `legible ocr` learnt about one input (or one page of a PDF: `page` is its 1-based number):
 * the engine's result and Google's AnnotateImageResponse for it.
 */
export type FileOutcome = { file: string; page?: number } & (
  | { ok: true; value: OcrResult; vision: JsonObject }
  | { ok: false; code?: string; message: string; vision: JsonObject }
);

export const FORMATS = ['text', 'json', 'vision', 'tsv', 'hocr'] as const;
export type Format = (typeof FORMATS)[number];

/** Writes one format: a header before the first file, each file's part in input order, a footer. */
export interface Formatter {
  begin(): string;
  file(o: FileOutcome, index: number, total: number): string;
  end(): string;
}

const box = (q: Quad) => {
  const xs = q.map((p) => Math.round(p.x));
  const ys = q.map((p) => Math.round(p.y));
  return { left: Math.max(0, Math.min(...xs)), top: Math.max(0, Math.min(...ys)), right: Math.max(...xs), bottom: Math.max(...ys) };
};
const union = (quads: Quad[]) => {
  const bs = quads.map(box);
  return {
    left: Math.min(...bs.map((b) => b.left)),
    top: Math.min(...bs.map((b) => b.top)),
    right: Math.max(...bs.map((b) => b.right)),
    bottom: Math.max(...bs.map((b) => b.bottom)),
  };
};

/** A paragraph's words split into lines where a word ends with Google's end-of-line break. */
export function linesOf(paragraph: OcrParagraph): OcrWord[][] {
  const lines: OcrWord[][] = [[]];
  for (const w of paragraph.words) {
    lines[lines.length - 1].push(w);
    const brk = w.symbols.at(-1)?.break;
    if (brk === 'EOL_SURE_SPACE' || brk === 'LINE_BREAK' || brk === 'HYPHEN') lines.push([]);
  }
  return lines.filter((l) => l.length > 0);
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

const text: Formatter = {
  begin: () => '',
  file: (o, _i, total) => {
    if (!o.ok) return '';
    const header = total > 1 && (o.page ?? 1) === 1 ? `== ${o.file} ==\n` : '';
    return `${header}${o.page ? `--- page ${o.page} ---\n` : ''}${o.value.text}`;
  },
  end: () => '',
};

/** Legible's own compact shape (kept from the first CLI): text, locale, confidence and word boxes. */
const json: Formatter = {
  begin: () => '',
  file: (o) => {
    if (!o.ok) return `${JSON.stringify({ file: o.file, error: o.message, ...(o.code ? { code: o.code } : {}) })}\n`;
    const v = o.value;
    const words = v.page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.words));
    return `${JSON.stringify({
      file: o.file,
      ...(o.page ? { page: o.page } : {}),
      text: v.text,
      ...(v.locale ? { locale: v.locale } : {}),
      confidence: round3(v.page.confidence),
      width: v.page.width,
      height: v.page.height,
      words: words.map((w) => ({ text: w.text, confidence: round3(w.confidence), box: w.box.map((pt) => [pt.x, pt.y]) })),
    })}\n`;
  },
  end: () => '',
};

/**
 * Google's `BatchAnnotateImagesResponse`, one per input and per line: `{"responses":[…]}` exactly as
 * the server answers it (same builder), with `context.uri` naming the file when there are several.
 */
const vision: Formatter = {
  begin: () => '',
  file: (o, _i, total) => {
    const context = { ...(total > 1 ? { uri: o.file } : {}), ...(o.page ? { pageNumber: o.page } : {}) };
    return `${JSON.stringify({ responses: [Object.keys(context).length > 0 ? { ...o.vision, context } : o.vision] })}\n`;
  },
  end: () => '',
};

const TSV_HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n';

/** Tesseract's TSV (`tesseract img out tsv`): levels page 1, block 2, paragraph 3, line 4, word 5; one page per file. */
const tsv: Formatter = {
  begin: () => TSV_HEADER,
  file: (o, index) => {
    if (!o.ok) return '';
    const page = index + 1;
    const row = (level: number, b: number, p: number, l: number, w: number, r: ReturnType<typeof box>, conf: number, t: string) =>
      `${level}\t${page}\t${b}\t${p}\t${l}\t${w}\t${r.left}\t${r.top}\t${r.right - r.left}\t${r.bottom - r.top}\t${conf}\t${t.replace(/[\t\n\r]/g, ' ')}\n`;
    const v = o.value.page;
    let out = row(1, 0, 0, 0, 0, { left: 0, top: 0, right: Math.round(v.width), bottom: Math.round(v.height) }, -1, '');
    v.blocks.forEach((block, bi) => {
      out += row(2, bi + 1, 0, 0, 0, box(block.box), -1, '');
      block.paragraphs.forEach((par, pi) => {
        out += row(3, bi + 1, pi + 1, 0, 0, box(par.box), -1, '');
        linesOf(par).forEach((line, li) => {
          out += row(4, bi + 1, pi + 1, li + 1, 0, union(line.map((w) => w.box)), -1, '');
          line.forEach((word, wi) => {
            const conf = Math.round(Math.min(1, Math.max(0, word.confidence)) * 1e6) / 1e4;
            out += row(5, bi + 1, pi + 1, li + 1, wi + 1, box(word.box), conf, word.text);
          });
        });
      });
    });
    return out;
  },
  end: () => '',
};

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const bbox = (r: ReturnType<typeof box>) => `bbox ${r.left} ${r.top} ${r.right} ${r.bottom}`;

/** hOCR 1.2 as Tesseract writes it (`tesseract img out hocr`): one `ocr_page` per file. */
const hocr: Formatter = {
  begin: () => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head>
  <title></title>
  <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
  <meta name="ocr-system" content="legible"/>
  <meta name="ocr-capabilities" content="ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf ocrp_lang ocrp_dir"/>
 </head>
 <body>
`,
  file: (o, index) => {
    const n = index + 1;
    if (!o.ok) return '';
    const page = o.value.page;
    let out = `  <div class="ocr_page" id="page_${n}" title="image &quot;${escapeXml(o.file).replace(/&quot;/g, '')}&quot;; bbox 0 0 ${Math.round(page.width)} ${Math.round(page.height)}; ppageno ${index}">\n`;
    let line = 0;
    let word = 0;
    page.blocks.forEach((block, bi) => {
      out += `   <div class="ocr_carea" id="block_${n}_${bi + 1}" title="${bbox(box(block.box))}">\n`;
      block.paragraphs.forEach((par, pi) => {
        const lang = par.languages[0]?.languageCode;
        const rtl = lang !== undefined && /^(ar|he|iw|fa|ur)\b/.test(lang);
        out += `    <p class="ocr_par" id="par_${n}_${bi + 1}_${pi + 1}"${lang ? ` lang="${escapeXml(lang)}"` : ''}${rtl ? ' dir="rtl"' : ''} title="${bbox(box(par.box))}">\n`;
        for (const words of linesOf(par)) {
          out += `     <span class="ocr_line" id="line_${n}_${++line}" title="${bbox(union(words.map((w) => w.box)))}">`;
          out += words
            .map(
              (w) =>
                `<span class="ocrx_word" id="word_${n}_${++word}" title="${bbox(box(w.box))}; x_wconf ${Math.round(Math.min(1, Math.max(0, w.confidence)) * 100)}">${escapeXml(w.text)}</span>`,
            )
            .join(' ');
          out += '</span>\n';
        }
        out += '    </p>\n';
      });
      out += '   </div>\n';
    });
    return `${out}  </div>\n`;
  },
  end: () => ' </body>\n</html>\n',
};

export const FORMATTERS: Record<Format, Formatter> = { text, json, vision, tsv, hocr };
