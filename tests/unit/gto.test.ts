import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/domain/csv';
import { currencyFormat, formatDateTime } from '../../src/domain/format';
import {
  amountText,
  checkDraft,
  daysOfMonth,
  displayedTotal,
  draftOf,
  dueRule,
  GTO_AMOUNT_MESSAGE,
  GTO_INVALID_DRAFT_MESSAGE,
  GTO_NO_DAYS_MESSAGE,
  GTO_REMARKS_MESSAGE,
  type GtoSubmissionLike,
  type GtoSummaryRowLike,
  grossTurnoverCsv,
  grossTurnoverRange,
  gtoReviewCsv,
  gtoSavedMessage,
  isDueDay,
  isGrossTurnoverEmpty,
  isTotalOnly,
  lateWording,
  monthDateRange,
  normalizeRemarks,
  parseAmount,
  parseThreshold,
  receiptsHrefOf,
  sameDraft,
  submissionRequest,
  submittedLine,
  thresholdRule,
  varianceAmountText,
  variancePercentText,
  varianceWording,
} from '../../src/domain/gto';

/* The pure rules of the GTO pages (§7, §8, §9): days, amounts as typed, totals, texts and the review's links. */

const SGD = currencyFormat('SGD');
const IDR = currencyFormat('IDR');

function submission(overrides: Partial<GtoSubmissionLike> = {}): GtoSubmissionLike {
  return {
    searchedMonth: '2026-10',
    gtoSubmissionData: [],
    total: 0,
    submitted: false,
    submitted_at: null,
    submitted_by: null,
    updated_at: null,
    remarks: null,
    open: true,
    currency: 'SGD',
    ...overrides,
  };
}

function row(overrides: Partial<GtoSummaryRowLike> = {}): GtoSummaryRowLike {
  return {
    outlet_id: 7,
    outlet_name: 'Kopi Corner',
    mall_name: 'Harbour Mall',
    month: '2026-10',
    gto_amount: 1080,
    status: 'submitted',
    submitted_at: '2026-11-03T10:15:00.000Z',
    currency: 'SGD',
    captured_sales: 1000,
    variance_amount: 80,
    variance_percent: 8,
    flagged: true,
    due_on: '2026-11-07',
    late: false,
    last_reminded_on: null,
    ...overrides,
  };
}

describe('the days of a month', () => {
  it('lists every day of a past month', () => {
    const days = daysOfMonth('2026-02', '2026-11-25');
    expect(days).toHaveLength(28);
    expect(days[0]).toBe('2026-02-01');
    expect(days.at(-1)).toBe('2026-02-28');
    expect(daysOfMonth('2024-02', '2026-11-25')).toHaveLength(29);
    expect(daysOfMonth('2026-10', '2026-11-25')).toHaveLength(31);
  });

  it("stops at the outlet's today in the current month, and has none for a later month", () => {
    expect(daysOfMonth('2026-11', '2026-11-03')).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(daysOfMonth('2026-12', '2026-11-25')).toEqual([]);
    expect(daysOfMonth('nonsense', '2026-11-25')).toEqual([]);
  });
});

describe('amounts as typed', () => {
  it('strips $, commas and spaces and keeps at most 2 decimals', () => {
    expect(parseAmount('$1,234.50')).toEqual({ ok: true, value: 1234.5 });
    expect(parseAmount(' 1 000 ')).toEqual({ ok: true, value: 1000 });
    expect(parseAmount('0')).toEqual({ ok: true, value: 0 });
    expect(parseAmount('12.')).toEqual({ ok: true, value: 12 });
    expect(parseAmount('.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseAmount('')).toEqual({ ok: true, value: undefined });
    expect(parseAmount('  $ ')).toEqual({ ok: true, value: undefined });
  });

  it('refuses negatives, more decimals, words and amounts above the largest', () => {
    for (const text of ['-1', '1.234', 'abc', '1e3', '12..3', '1,2a', '1000000000000']) {
      expect(parseAmount(text)).toEqual({ ok: false, message: GTO_AMOUNT_MESSAGE });
    }
    expect(parseAmount('999999999999.99')).toEqual({ ok: true, value: 999_999_999_999.99 });
  });

  it('shows a stored amount with 2 decimals and no grouping', () => {
    expect(amountText(1234.5)).toBe('1234.50');
    expect(amountText(0)).toBe('0.00');
  });
});

describe('the draft', () => {
  const days = ['2026-10-01', '2026-10-02', '2026-10-03'];

  it('is prefilled from the declared days; days not declared are empty', () => {
    const draft = draftOf(
      submission({ gtoSubmissionData: [{ date: '2026-10-02', gto: 99.5 }], remarks: 'Excludes GST' }),
      days,
    );
    expect(draft).toEqual({
      days: { '2026-10-01': '', '2026-10-02': '99.50', '2026-10-03': '' },
      remarks: 'Excludes GST',
    });
  });

  it('totals the days typed to the cent and lists them in order', () => {
    const check = checkDraft(
      { days: { '2026-10-01': '0.10', '2026-10-03': '$0.20', '2026-10-02': '' }, remarks: '' },
      days,
    );
    expect(check.total).toBe(0.3);
    expect(check.entries).toEqual([
      { date: '2026-10-01', gto: 0.1 },
      { date: '2026-10-03', gto: 0.2 },
    ]);
    expect(check.problem).toBeUndefined();
    expect(check.dayErrors).toEqual({});
  });

  it('names the days typed wrong, asks for one day at least, and bounds the remarks', () => {
    const invalid = checkDraft({ days: { '2026-10-01': '-5', '2026-10-02': '10' }, remarks: '' }, days);
    expect(invalid.dayErrors).toEqual({ '2026-10-01': GTO_AMOUNT_MESSAGE });
    expect(invalid.problem).toBe(GTO_INVALID_DRAFT_MESSAGE);
    expect(invalid.total).toBe(10);
    expect(checkDraft({ days: {}, remarks: '' }, days).problem).toBe(GTO_NO_DAYS_MESSAGE);
    const long = checkDraft({ days: { '2026-10-01': '1' }, remarks: 'x'.repeat(501) }, days);
    expect(long.remarksError).toBe(GTO_REMARKS_MESSAGE);
    expect(long.problem).toBe(GTO_REMARKS_MESSAGE);
    expect(
      checkDraft({ days: { '2026-10-01': '1' }, remarks: `  ${'x'.repeat(500)}  ` }, days).problem,
    ).toBeUndefined();
  });

  it('ignores typed values of days not shown', () => {
    expect(checkDraft({ days: { '2026-10-09': 'abc' }, remarks: '' }, days).problem).toBe(GTO_NO_DAYS_MESSAGE);
  });

  it('a month declared as a total only shows its total until a day is typed', () => {
    const totalOnly = submission({ submitted: true, total: 5000, submitted_at: '2026-11-03T10:15:00.000Z' });
    const empty = checkDraft({ days: {}, remarks: '' }, days);
    expect(isTotalOnly(empty, totalOnly)).toBe(true);
    expect(displayedTotal(empty, totalOnly)).toBe(5000);
    const typed = checkDraft({ days: { '2026-10-01': '12' }, remarks: '' }, days);
    expect(isTotalOnly(typed, totalOnly)).toBe(false);
    expect(displayedTotal(typed, totalOnly)).toBe(12);
    expect(displayedTotal(empty, submission())).toBe(0);
  });

  it('builds the request: the days typed, remarks cleaned and left out when empty', () => {
    const target = { clientId: 1, outletId: 7, month: '2026-10' };
    const check = checkDraft({ days: { '2026-10-02': '1,000' }, remarks: '' }, days);
    expect(submissionRequest(target, check, '   ')).toEqual({
      client_id: 1,
      outlet_id: 7,
      searchedMonth: '2026-10',
      gtoSubmissionData: [{ date: '2026-10-02', gto: 1000 }],
    });
    expect(submissionRequest(target, check, ' a\tb\r\nc\u0007 ').remarks).toBe('a b\nc');
    expect(normalizeRemarks('line 1\rline 2')).toBe('line 1\nline 2');
  });

  it('compares drafts day by day, an absent day as empty', () => {
    expect(sameDraft({ days: { a: '' }, remarks: '' }, { days: {}, remarks: '' })).toBe(true);
    expect(sameDraft({ days: { a: '1' }, remarks: '' }, { days: {}, remarks: '' })).toBe(false);
    expect(sameDraft({ days: {}, remarks: 'x' }, { days: {}, remarks: '' })).toBe(false);
  });
});

describe('what the page says', () => {
  it('toasts the month submitted or corrected', () => {
    expect(gtoSavedMessage('2026-10', false)).toBe('GTO for October 2026 submitted.');
    expect(gtoSavedMessage('2026-10', true)).toBe('GTO for October 2026 corrected.');
  });

  it('says who submitted and when, and when it was last corrected', () => {
    expect(submittedLine(submission())).toBeUndefined();
    const at = '2026-11-03T10:15:00.000Z';
    expect(submittedLine(submission({ submitted: true, submitted_at: at, updated_at: at, submitted_by: 'x@y' }))).toBe(
      `Submitted by x@y on ${formatDateTime(at)}`,
    );
    const corrected = submittedLine(
      submission({ submitted: true, submitted_at: at, updated_at: '2026-11-05T09:00:00.000Z', submitted_by: 'x@y' }),
    );
    expect(corrected).toMatch(/^Submitted on 2026-11-0\d \d\d:15:00, last corrected by x@y on 2026-11-0\d \d\d:00:00$/);
    expect(submittedLine(submission({ submitted: true, submitted_at: at, updated_at: at }))).toMatch(
      /^Submitted on 2026-11-0\d \d\d:15:00$/,
    );
  });
});

describe('the review', () => {
  it("states the flag rule with the client's threshold", () => {
    expect(thresholdRule(5)).toBe(
      'Flagged: declared GTO differs from the sales captured from receipts by more than 5%.',
    );
    expect(thresholdRule(7.5)).toBe(
      'Flagged: declared GTO differs from the sales captured from receipts by more than 7.5%.',
    );
  });

  it('writes the variance with its sign, in the outlet currency', () => {
    expect(varianceAmountText(80, SGD)).toBe('+$80.00');
    expect(varianceAmountText(-1234.5, SGD)).toBe('-$1,234.50');
    expect(varianceAmountText(0, SGD)).toBe('$0.00');
    expect(varianceAmountText(0.001, SGD)).toBe('$0.00');
    expect(varianceAmountText(1500, IDR)).toBe('+Rp1,500');
    expect(varianceAmountText(null, SGD)).toBe('');
    expect(variancePercentText(8.2)).toBe('+8.20%');
    expect(variancePercentText(-3.1)).toBe('-3.10%');
    expect(variancePercentText(0)).toBe('0.00%');
    expect(variancePercentText(null)).toBe('');
  });

  it('says the variance in words', () => {
    expect(varianceWording(row())).toBe('Declared GTO 8.00% above the captured sales');
    expect(varianceWording(row({ variance_percent: -3.1, variance_amount: -31 }))).toBe(
      'Declared GTO 3.10% below the captured sales',
    );
    expect(varianceWording(row({ variance_percent: 0, variance_amount: 0 }))).toBe(
      'Declared GTO equals the captured sales',
    );
    expect(varianceWording(row({ variance_percent: null, variance_amount: 50, captured_sales: 0 }))).toBe(
      'Declared GTO against no captured sales',
    );
    expect(varianceWording(row({ status: 'notSubmitted', variance_amount: null, variance_percent: null }))).toBe(
      'Not submitted',
    );
  });

  it("links to the outlet's receipts of the month, ending today in the current month", () => {
    expect(monthDateRange('2026-10', '2026-11-25')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(monthDateRange('2026-11', '2026-11-25')).toEqual({ start: '2026-11-01', end: '2026-11-25' });
    expect(receiptsHrefOf(row(), 1, '2026-11-25')).toBe('/receipts?client=1&outlet=7&from=2026-10-01&to=2026-10-31');
  });

  it('exports the rows shown with their currency', () => {
    const file = gtoReviewCsv([
      row(),
      row({
        outlet_id: 8,
        outlet_name: 'Shoe, Lane',
        status: 'notSubmitted',
        gto_amount: null,
        variance_amount: null,
        variance_percent: null,
        flagged: false,
        submitted_at: null,
        late: true,
        last_reminded_on: '2026-11-09',
      }),
    ]);
    expect(file.name).toBe('gto_review');
    const text = toCsv(file.keys, file.rows as Record<string, string>[]);
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Outlet,Mall,Month,Declared GTO,Captured Sales,Variance Amount,Variance Percent,Status,Flagged,Submitted At,Due On,Late,Last Reminder,Currency',
    );
    expect(lines[1]).toMatch(
      /^Kopi Corner,Harbour Mall,2026-10,1080\.00,1000\.00,80\.00,8\.00,Submitted,Yes,.+,2026-11-07,No,,SGD$/,
    );
    expect(lines[2]).toBe(
      '"Shoe, Lane",Harbour Mall,2026-10,,1000.00,,,Not submitted,No,,2026-11-07,Yes,2026-11-09,SGD',
    );
  });

  it('reads the review rules as typed', () => {
    expect(parseThreshold('5')).toBe(5);
    expect(parseThreshold(' 7.25 % ')).toBe(7.25);
    expect(parseThreshold('100')).toBe(100);
    expect(parseThreshold('100.01')).toBeUndefined();
    expect(parseThreshold('7.125')).toBeUndefined();
    expect(parseThreshold('-1')).toBeUndefined();
    expect(parseThreshold('')).toBeUndefined();
    expect(isDueDay(1)).toBe(true);
    expect(isDueDay(28)).toBe(true);
    expect(isDueDay(29)).toBe(false);
    expect(isDueDay(2.5)).toBe(false);
    expect(dueRule('2026-11-07')).toBe(
      'Due on 7 November 2026; months submitted later, or not by then, are tagged Late.',
    );
    expect(lateWording(row({ late: true }))).toBe('Submitted after the due day, 7 Nov 2026');
    expect(lateWording(row({ status: 'notSubmitted', late: true }))).toBe('Not submitted by the due day, 7 Nov 2026');
  });
});

describe('gross turnover', () => {
  it('shows the year up to the month picked', () => {
    expect(grossTurnoverRange('2026-11')).toEqual({ from: '2025-12', to: '2026-11' });
    expect(grossTurnoverRange('2026-12')).toEqual({ from: '2026-01', to: '2026-12' });
    expect(grossTurnoverRange('2026-01')).toEqual({ from: '2025-02', to: '2026-01' });
  });

  it('is empty only when nothing was declared nor captured', () => {
    expect(isGrossTurnoverEmpty([{ declared: null, captured: 0 }])).toBe(true);
    expect(
      isGrossTurnoverEmpty([
        { declared: null, captured: 0 },
        { declared: 0, captured: 0 },
      ]),
    ).toBe(false);
    expect(isGrossTurnoverEmpty([{ declared: null, captured: 12.5 }])).toBe(false);
  });

  it('writes its months to CSV with the outlet’s currency, a month not submitted left blank', () => {
    expect(
      grossTurnoverCsv(
        [
          { month: '2026-10', declared: 250, captured: 200, difference: 50, difference_percent: 25 },
          { month: '2026-11', declared: null, captured: 80.5, difference: null, difference_percent: null },
        ],
        'SGD',
      ),
    ).toEqual({
      name: 'gross_turnover',
      keys: ['month', 'declared_gto', 'captured_sales', 'difference', 'difference_percent'],
      rows: [
        { month: '2026-10', declared_gto: 250, captured_sales: 200, difference: 50, difference_percent: 25 },
        { month: '2026-11', declared_gto: '', captured_sales: 80.5, difference: '', difference_percent: '' },
      ],
      currency: 'SGD',
    });
  });
});
