import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { create, type Font } from 'fontkit';

/**
 * The fonts of the receipts PDF. pdfkit's built-in fonts are Latin-only; receipts of malls in Singapore, Malaysia
 * and Indonesia print Chinese, Malay, Tamil and Thai. These are Noto fonts from Fontsource packages (installed by
 * npm, nothing from the system): each package splits its font into files by Unicode range (its unicode.json), so a
 * text is printed in runs, each in the first file that has a glyph for every character of the run, and only the
 * files a document uses are read and embedded, each cut to the glyphs it prints (pdfkit subsets embedded fonts).
 *
 * Only the WOFF files are used: a WOFF2's transformed glyph table comes out blank in a PDF subset, and a variable
 * font's instance fails to subset (fontkit 2). Each WOFF is unpacked once into the TrueType file it wraps
 * (`sfntOfWoff`): fontkit inflates a WOFF's glyph table again for every glyph it reads, which made one Chinese
 * receipt take seconds.
 */

export type PdfWeight = 'regular' | 'bold';

const WEIGHT_FILES: Record<PdfWeight, string> = { regular: '400', bold: '700' };

interface Family {
  /** The Fontsource package. */
  pkg: string;
  /** Its files' name prefix: files/<prefix>-<subset>-<weight>-normal.woff. */
  prefix: string;
  /** The subsets used, in order; absent: every subset of its unicode.json, `first` ones first. */
  only?: readonly string[];
  first?: readonly string[];
  /** Whole-script files tried before the ranged subsets (their ranges are not listed in unicode.json). */
  leading?: readonly string[];
  /** Every character's advance, in em, when the family is monospaced. */
  advance?: number;
}

/**
 * The families in the order they are tried. Noto Sans Mono first: Latin (English, Malay, Indonesian, accented
 * letters), Vietnamese, Greek and Cyrillic in a monospace, which keeps a receipt's columns aligned; then Thai and
 * Tamil; then Chinese (its whole simplified-Chinese file, then its ranged files for the rarer characters, CJK
 * punctuation and full-width forms).
 */
const FAMILIES: readonly Family[] = [
  { pkg: '@fontsource/noto-sans-mono', prefix: 'noto-sans-mono', first: ['latin', 'latin-ext'], advance: 0.6 },
  { pkg: '@fontsource/noto-sans-thai', prefix: 'noto-sans-thai', only: ['thai'] },
  { pkg: '@fontsource/noto-sans-tamil', prefix: 'noto-sans-tamil', only: ['tamil'] },
  { pkg: '@fontsource/noto-sans-sc', prefix: 'noto-sans-sc', leading: ['chinese-simplified'] },
];

type Ranges = readonly (readonly [number, number])[];

/** One font file of one weight: the name it is registered under in a document, and its coverage. */
export interface PdfFace {
  readonly key: string;
  readonly file: string;
  /** The code points its package says it covers; undefined: ask the font. */
  readonly ranges: Ranges | undefined;
  /** Every character's advance in em, for a monospaced face (no character is wider). */
  readonly advance: number | undefined;
}

/** A piece of text printed in one face. */
export interface FontRun {
  face: PdfFace;
  text: string;
}

/**
 * The TrueType (sfnt) file a WOFF 1.0 file wraps: its tables inflated, in the same order, 4-byte aligned, after a
 * table directory (W3C WOFF 1.0, section 5; the sfnt's offset table of the OpenType spec).
 */
export function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compressed = woff.readUInt32BE(entry + 8);
    const length = woff.readUInt32BE(entry + 12);
    const stored = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.readUInt32BE(entry),
      checksum: woff.readUInt32BE(entry + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const header = 12 + count * 16;
  const padded = (length: number) => (length + 3) & ~3;
  const sfnt = Buffer.alloc(header + tables.reduce((sum, table) => sum + padded(table.data.length), 0));
  const power = 2 ** Math.floor(Math.log2(Math.max(1, count)));
  sfnt.writeUInt32BE(flavor, 0);
  sfnt.writeUInt16BE(count, 4);
  sfnt.writeUInt16BE(power * 16, 6);
  sfnt.writeUInt16BE(Math.log2(power), 8);
  sfnt.writeUInt16BE(count * 16 - power * 16, 10);
  let offset = header;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    sfnt.writeUInt32BE(table.tag, record);
    sfnt.writeUInt32BE(table.checksum, record + 4);
    sfnt.writeUInt32BE(offset, record + 8);
    sfnt.writeUInt32BE(table.data.length, record + 12);
    table.data.copy(sfnt, offset);
    offset += padded(table.data.length);
  });
  return sfnt;
}

/** 'U+0000-00FF,U+0131' as ranges. */
function parseRanges(css: string): Ranges {
  return css.split(',').map((part) => {
    const [from = '0', to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(from, 16), Number.parseInt(to, 16)] as const;
  });
}

const inRanges = (ranges: Ranges, codePoint: number) =>
  ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

/** The faces of one weight, in the order they are tried. */
function facesOf(weight: PdfWeight): PdfFace[] {
  const require = createRequire(import.meta.url);
  return FAMILIES.flatMap((family) => {
    const dir = path.dirname(require.resolve(`${family.pkg}/LICENSE`));
    const listed = JSON.parse(readFileSync(path.join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
    const ranged = Object.keys(listed)
      .filter((subset) => !family.only || family.only.includes(subset))
      .sort((a, b) => rank(family.first, a) - rank(family.first, b));
    const face = (subset: string, ranges: Ranges | undefined): PdfFace => {
      const name = `${family.prefix}-${subset.replace(/[[\]]/g, '')}-${WEIGHT_FILES[weight]}`;
      return { key: name, file: path.join(dir, 'files', `${name}-normal.woff`), ranges, advance: family.advance };
    };
    return [
      ...(family.leading ?? []).map((subset) => face(subset, undefined)),
      ...ranged.map((subset) => face(subset, parseRanges(listed[subset] ?? ''))),
    ];
  });
}

function rank(first: readonly string[] | undefined, subset: string): number {
  const index = first?.indexOf(subset) ?? -1;
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/** Characters that take the font of the text around them when it has them: spaces, marks, joiners. */
const NEUTRAL = /^[\s\p{M}\u200c\u200d]$/u;

interface Choice {
  face: PdfFace;
  neutral: boolean;
}

/**
 * The faces of both weights, read from disk when first needed and kept (a worker renders many documents). `runs`
 * splits a text into runs of one face; `bytes` gives a face's file for a document to register.
 */
export class PdfFonts {
  private readonly faces: Record<PdfWeight, PdfFace[]>;
  private readonly choices: Record<PdfWeight, Map<number, Choice>> = { regular: new Map(), bold: new Map() };
  private readonly loaded = new Map<string, { bytes: Buffer; font: Font }>();

  constructor() {
    this.faces = { regular: facesOf('regular'), bold: facesOf('bold') };
  }

  /** The face used for a character no font has (it prints as a box). */
  private fallback(weight: PdfWeight): PdfFace {
    const face = this.faces[weight][0];
    if (!face) throw new Error('the receipts PDF has no font');
    return face;
  }

  private load(face: PdfFace): { bytes: Buffer; font: Font } {
    let entry = this.loaded.get(face.key);
    if (!entry) {
      const bytes = sfntOfWoff(readFileSync(face.file));
      const font = create(bytes);
      if (!('hasGlyphForCodePoint' in font)) throw new Error(`${face.file} is a font collection`);
      entry = { bytes, font };
      this.loaded.set(face.key, entry);
    }
    return entry;
  }

  /** The face's file, for `doc.registerFont(face.key, bytes)`. */
  bytes(face: PdfFace): Buffer {
    return this.load(face).bytes;
  }

  hasGlyph(face: PdfFace, codePoint: number): boolean {
    return this.load(face).font.hasGlyphForCodePoint(codePoint);
  }

  private choose(codePoint: number, weight: PdfWeight): Choice {
    const known = this.choices[weight].get(codePoint);
    if (known) return known;
    const neutral = NEUTRAL.test(String.fromCodePoint(codePoint));
    const face =
      codePoint < 0x20
        ? this.fallback(weight)
        : (this.faces[weight].find(
            (candidate) =>
              (candidate.ranges === undefined || inRanges(candidate.ranges, codePoint)) &&
              this.hasGlyph(candidate, codePoint),
          ) ?? this.fallback(weight));
    const choice = { face, neutral };
    this.choices[weight].set(codePoint, choice);
    return choice;
  }

  /**
   * The text as runs of one face each: every character in the first face that has it, except that spaces,
   * combining marks and joiners stay in the face of the text before them when it has them (so a Thai or Tamil
   * word is shaped whole, and a space does not split a run); control characters (line ends) never split one.
   */
  runs(text: string, weight: PdfWeight): FontRun[] {
    const runs: FontRun[] = [];
    let current: PdfFace | undefined;
    let pending = '';
    for (const char of text) {
      const codePoint = char.codePointAt(0) ?? 0;
      const choice = this.choose(codePoint, weight);
      let face = choice.face;
      if (current && (codePoint < 0x20 || (choice.neutral && this.hasGlyph(current, codePoint)))) face = current;
      if (face !== current) {
        if (current && pending) runs.push({ face: current, text: pending });
        current = face;
        pending = '';
      }
      pending += char;
    }
    if (current && pending) runs.push({ face: current, text: pending });
    return runs;
  }
}
