import { createCanvas } from '@napi-rs/canvas';
import { printedLines } from './printedLines.js';

/**
 * Receipt images: the receipt's raw text (already cleaned by §9) drawn in a monospace font on white, as a PNG,
 * bounded in lines and columns as the receipts PDF is (printedLines).
 */

const FONT_SIZE = 14;
const LINE_HEIGHT = 18;
const PADDING = 16;
const FONT = `${FONT_SIZE}px "DejaVu Sans Mono", "Liberation Mono", monospace`;

export function renderReceiptPng(text: string): Buffer {
  const lines = printedLines(text);
  const measure = createCanvas(1, 1).getContext('2d');
  measure.font = FONT;
  const textWidth = Math.max(200, ...lines.map((line) => measure.measureText(line).width));
  const width = Math.ceil(textWidth + PADDING * 2);
  const height = Math.ceil(lines.length * LINE_HEIGHT + PADDING * 2);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#111111';
  context.font = FONT;
  context.textBaseline = 'top';
  lines.forEach((line, index) => {
    context.fillText(line, PADDING, PADDING + index * LINE_HEIGHT);
  });
  return canvas.toBuffer('image/png');
}
