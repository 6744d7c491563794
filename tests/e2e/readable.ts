import type { Page } from '@playwright/test';

/*
 * What makes a page unreadable at a given size, found in the browser as a reviewer would see it:
 *
 * - the page scrolls sideways;
 * - a text is clipped (its box narrower than its text, overflow hidden or ellipsis) with its whole text neither in
 *   a hover title nor in an accessible name;
 * - two header cells of a table overlap, or a header's text spills out of its cell;
 * - two labels of one chart axis overlap;
 * - an element overflows the card it sits in (outside any scrolling region inside the card);
 * - a report's table hides rows it has ten or fewer of behind a scroll (a wide one scrolls sideways in its region,
 *   its first column kept: DataTable);
 * - the date or hour picker's button takes more than one line.
 *
 * Each problem is one line naming what and where, so that a failing check reads as a list of things to fix.
 */

export async function readabilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const tolerance = 1;
    /** Seen by a sighted user: laid out, not hidden, not in a closed disclosure, not screen-reader-only text. */
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) return false;
      const closed = element.closest('details:not([open])');
      if (closed && !element.closest('summary')) return false;
      const style = getComputedStyle(element);
      return style.visibility !== 'hidden' && style.display !== 'none' && style.clipPath !== 'inset(50%)';
    };
    const named = (element: Element) => {
      const id = element.getAttribute('data-testid');
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50);
      const name = element.tagName.toLowerCase();
      return `${name}${id ? `[data-testid=${id}]` : element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).slice(0, 2).join('.')}` : ''} "${text}"`;
    };
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - tolerance &&
      b.left < a.right - tolerance &&
      a.top < b.bottom - tolerance &&
      b.top < a.bottom - tolerance;

    /* ---- sideways scroll */
    const wide = document.documentElement.scrollWidth - window.innerWidth;
    if (wide > tolerance) problems.push(`the page scrolls sideways by ${wide} px`);

    /* ---- clipped text without its whole text */
    const fullText = (element: Element) => (element.textContent ?? '').trim().replace(/\s+/g, ' ');
    const carriesWholeText = (element: Element, text: string) => {
      for (let at: Element | null = element, depth = 0; at && depth < 4; at = at.parentElement, depth += 1) {
        for (const attribute of ['title', 'aria-label']) {
          const value = at.getAttribute(attribute);
          if (value?.replace(/\s+/g, ' ').includes(text)) return true;
        }
        const labelledBy = at.getAttribute('aria-describedby') ?? at.getAttribute('aria-labelledby');
        if (labelledBy) {
          const words = labelledBy
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ');
          if (words.replace(/\s+/g, ' ').includes(text)) return true;
        }
      }
      return false;
    };
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      if (element.closest('svg, .highcharts-container, [aria-hidden="true"], .bp6-skeleton')) continue;
      if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) continue;
      if (element instanceof HTMLTextAreaElement) continue;
      const ownText = Array.from(element.childNodes).some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
      );
      if (!ownText || !shown(element)) continue;
      const style = getComputedStyle(element);
      const clips = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
      if (!clips) continue;
      if (element.scrollWidth <= element.clientWidth + tolerance) continue;
      const text = fullText(element);
      if (!carriesWholeText(element, text)) problems.push(`clipped without its whole text: ${named(element)}`);
    }

    /* ---- table headers */
    for (const row of Array.from(document.querySelectorAll('thead tr'))) {
      const cells = Array.from(row.children).filter(shown);
      for (const [index, cell] of cells.entries()) {
        const next = cells[index + 1];
        if (next && overlap(cell.getBoundingClientRect(), next.getBoundingClientRect())) {
          problems.push(`header cells overlap: ${named(cell)} and ${named(next)}`);
        }
        if (cell.scrollWidth > cell.clientWidth + tolerance && getComputedStyle(cell).overflowX === 'visible') {
          problems.push(`a header's text spills out of its cell: ${named(cell)}`);
        }
      }
    }

    /* ---- chart axis labels: two labels overlap when their glyph boxes do, in the labels' own rotated frame */
    interface Placed {
      readonly text: string;
      readonly x: number;
      readonly y: number;
      readonly length: number;
      readonly thickness: number;
      readonly angle: number;
    }
    const placed = (label: SVGTextElement): Placed => {
      const box = label.getBoundingClientRect();
      const own = label.getBBox();
      const matrix = label.getScreenCTM();
      const angle = matrix ? Math.atan2(matrix.b, matrix.a) : 0;
      return {
        text: label.textContent ?? '',
        x: box.left + box.width / 2,
        y: box.top + box.height / 2,
        length: own.width,
        thickness: own.height * 0.8,
        angle,
      };
    };
    const labelsOverlap = (a: Placed, b: Placed) => {
      // Along and across the labels' direction (both of one axis share their rotation).
      const [dx, dy] = [b.x - a.x, b.y - a.y];
      const along = Math.abs(dx * Math.cos(a.angle) + dy * Math.sin(a.angle));
      const across = Math.abs(-dx * Math.sin(a.angle) + dy * Math.cos(a.angle));
      return along < (a.length + b.length) / 2 - tolerance && across < (a.thickness + b.thickness) / 2 - tolerance;
    };
    for (const group of Array.from(document.querySelectorAll('.highcharts-axis-labels'))) {
      const labels = Array.from(group.querySelectorAll('text'))
        .filter(shown)
        .map((label) => placed(label));
      for (let a = 0; a < labels.length; a += 1) {
        for (let b = a + 1; b < labels.length; b += 1) {
          const [first, second] = [labels[a], labels[b]];
          if (first && second && labelsOverlap(first, second)) {
            const chart = group.closest('[data-testid]')?.getAttribute('data-testid') ?? 'a chart';
            problems.push(`axis labels overlap in ${chart}: "${first.text}" and "${second.text}"`);
          }
        }
      }
    }

    /* ---- overflowing a card */
    const scrolls = (element: Element) => {
      const style = getComputedStyle(element);
      return ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX);
    };
    for (const card of Array.from(document.querySelectorAll('.bp6-card')).filter(shown)) {
      const box = card.getBoundingClientRect();
      for (const element of Array.from(card.querySelectorAll('*'))) {
        if (!shown(element) || element.closest('.bp6-portal')) continue;
        let contained = false;
        for (let at = element.parentElement; at && at !== card; at = at.parentElement) {
          if (scrolls(at)) {
            contained = true;
            break;
          }
        }
        if (contained) continue;
        const inner = element.getBoundingClientRect();
        if (inner.right > box.right + tolerance || inner.left < box.left - tolerance) {
          problems.push(
            `overflows its card by ${Math.round(Math.max(inner.right - box.right, box.left - inner.left))} px: ${named(element)}`,
          );
          break;
        }
      }
    }
    /* ---- report tables: a short one shows every row */
    for (const region of Array.from(document.querySelectorAll('.report-block-table .data-table-scroll')).filter(
      shown,
    )) {
      const rows = region.querySelectorAll('tbody tr').length;
      if (rows <= 10 && region.scrollHeight > region.clientHeight + tolerance) {
        problems.push(`a report table of ${rows} rows hides some behind a scroll: ${named(region)}`);
      }
    }

    /* ---- the pickers' buttons stay on one line */
    for (const button of Array.from(
      document.querySelectorAll('[data-testid=date-range-button], [data-testid=hour-picker]'),
    ).filter(shown)) {
      const text = button.querySelector('.bp6-button-text') ?? button;
      const lineHeight = Number.parseFloat(getComputedStyle(text).lineHeight) || 20;
      if (text.getBoundingClientRect().height > lineHeight * 1.5)
        problems.push(`a picker's text wraps: ${named(button)}`);
    }
    return problems;
  });
}
