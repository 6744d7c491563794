import { describe, expect, it } from 'vitest';
import {
  BAND_MESSAGES,
  bandPercentText,
  bandRefusalOf,
  bandRowProblem,
  bandsDraftOf,
  canResetBand,
  changedBands,
  isBandsDraftValid,
  type OccupancyBandsDraft,
  parseBandPercent,
  publishedBandText,
  refusalAtRow,
  shownBandSource,
  withBandReset,
  withBandText,
} from '../../src/domain/occupancyBands';
import { BANDS } from '../support/rentStatements';

/*
 * The occupancy cost bands dialog's rules: client 3's categories F&B (the published 6-10 %), Fashion (its own
 * 12-16 %; the published is 10-15 %) and Services (none published).
 */

const DRAFT = bandsDraftOf(3, BANDS);

const rowOf = (draft: OccupancyBandsDraft, category: string) => {
  const row = draft.rows.find((candidate) => candidate.category === category);
  if (!row) throw new Error(`no row ${category}`);
  return row;
};

describe('the bands as read', () => {
  it('keeps every category with its ends as the fields show them and where its band comes from', () => {
    expect(DRAFT).toEqual({
      clientId: 3,
      rows: [
        { category: 'F&B', source: 'default', savedLow: '6', savedHigh: '10', low: '6', high: '10', reset: false },
        {
          category: 'Fashion',
          source: 'client',
          savedLow: '12',
          savedHigh: '16',
          low: '12',
          high: '16',
          reset: false,
        },
        { category: 'Services', source: 'none', savedLow: '', savedHigh: '', low: '', high: '', reset: false },
      ],
    });
    expect(DRAFT.rows.map(shownBandSource)).toEqual(['Published', 'Your band', 'None']);
    expect(bandPercentText(7.456)).toBe('7.46');
    expect(bandPercentText(null)).toBe('');
    // Nothing changed: nothing to save.
    expect(changedBands(DRAFT)).toEqual([]);
    expect(isBandsDraftValid(DRAFT)).toBe(false);
  });

  it('names the published band of a category, or none', () => {
    expect(publishedBandText('F&B')).toBe('6–10%');
    expect(publishedBandText('Fashion')).toBe('10–15%');
    expect(publishedBandText('Services')).toBe('none');
  });
});

describe('the rules a band keeps', () => {
  it('reads a percent from 0 to 100 with at most 2 decimals', () => {
    expect(parseBandPercent(' 7.25 ')).toBe(7.25);
    expect(parseBandPercent('0')).toBe(0);
    expect(parseBandPercent('100')).toBe(100);
    expect(parseBandPercent('')).toBeNull();
    for (const wrong of ['100.01', '7.255', '-1', '5%', 'abc', '1e2']) expect(parseBandPercent(wrong)).toBeUndefined();
  });

  it('says the first rule a row breaks at its end', () => {
    const row = { low: '6', high: '10', reset: false };
    expect(bandRowProblem(row)).toBeUndefined();
    expect(bandRowProblem({ ...row, low: '6.555' })).toEqual({ field: 'low_percent', message: BAND_MESSAGES.percent });
    expect(bandRowProblem({ ...row, high: '101' })).toEqual({ field: 'high_percent', message: BAND_MESSAGES.percent });
    expect(bandRowProblem({ ...row, low: '' })).toEqual({ field: 'low_percent', message: BAND_MESSAGES.bothOrNeither });
    expect(bandRowProblem({ ...row, high: ' ' })).toEqual({
      field: 'high_percent',
      message: BAND_MESSAGES.bothOrNeither,
    });
    expect(bandRowProblem({ ...row, low: '11' })).toEqual({ field: 'low_percent', message: BAND_MESSAGES.order });
    // Equal ends, or neither (the published band), are a band.
    expect(bandRowProblem({ ...row, low: '10' })).toBeUndefined();
    expect(bandRowProblem({ low: '', high: '', reset: false })).toBeUndefined();
    expect(bandRowProblem({ low: 'x', high: '', reset: true })).toBeUndefined();
  });
});

describe('a save', () => {
  it('sends only the bands changed, in the dialog’s order', () => {
    const typed = withBandText(withBandText(DRAFT, 'Services', 'low_percent', '3'), 'Services', 'high_percent', '8');
    const draft = withBandText(typed, 'F&B', 'high_percent', '11');
    expect(changedBands(draft)).toEqual([
      { category: 'F&B', low_percent: 6, high_percent: 11 },
      { category: 'Services', low_percent: 3, high_percent: 8 },
    ]);
    expect(isBandsDraftValid(draft)).toBe(true);
    expect(draft.rows.map(shownBandSource)).toEqual(['Your band', 'Your band', 'Your band']);
    // Typed back as read (written otherwise): no change.
    expect(changedBands(withBandText(draft, 'F&B', 'high_percent', '10.0'))).toHaveLength(1);
  });

  it('sends a band reset or emptied as both ends null: the published band again', () => {
    const reset = withBandReset(DRAFT, 'Fashion');
    expect(rowOf(reset, 'Fashion')).toMatchObject({ low: '10', high: '15', reset: true });
    expect(shownBandSource(rowOf(reset, 'Fashion'))).toBe('Published');
    expect(changedBands(reset)).toEqual([{ category: 'Fashion', low_percent: null, high_percent: null }]);
    expect(isBandsDraftValid(reset)).toBe(true);
    const emptied = withBandText(withBandText(DRAFT, 'Fashion', 'low_percent', ''), 'Fashion', 'high_percent', '');
    expect(changedBands(emptied)).toEqual([{ category: 'Fashion', low_percent: null, high_percent: null }]);
    expect(shownBandSource(rowOf(emptied, 'Fashion'))).toBe('Published');
    // A published band emptied is still the published band: nothing to send.
    const published = withBandText(withBandText(DRAFT, 'F&B', 'low_percent', ''), 'F&B', 'high_percent', '');
    expect(changedBands(published)).toEqual([]);
    expect(shownBandSource(rowOf(published, 'F&B'))).toBe('Published');
    // Typing after a reset makes the band the user's own again.
    const again = withBandText(reset, 'Fashion', 'high_percent', '14');
    expect(rowOf(again, 'Fashion')).toMatchObject({ low: '10', high: '14', reset: false });
    expect(changedBands(again)).toEqual([{ category: 'Fashion', low_percent: 10, high_percent: 14 }]);
  });

  it('offers a reset where the band is the user’s own, as read or as typed', () => {
    expect(DRAFT.rows.map(canResetBand)).toEqual([false, true, false]);
    expect(canResetBand(rowOf(withBandText(DRAFT, 'F&B', 'low_percent', '7'), 'F&B'))).toBe(true);
    expect(canResetBand(rowOf(withBandReset(DRAFT, 'Fashion'), 'Fashion'))).toBe(false);
    // A category without a published band is reset to none.
    const none = withBandReset(withBandText(DRAFT, 'Services', 'low_percent', '3'), 'Services');
    expect(rowOf(none, 'Services')).toMatchObject({ low: '', high: '', reset: true });
    expect(changedBands(none)).toEqual([]);
  });

  it('is refused while a row breaks a rule', () => {
    const upsideDown = withBandText(DRAFT, 'F&B', 'low_percent', '12');
    expect(changedBands(upsideDown)).toHaveLength(1);
    expect(isBandsDraftValid(upsideDown)).toBe(false);
  });
});

describe('the server’s refusal', () => {
  const draft = withBandText(withBandReset(DRAFT, 'Fashion'), 'F&B', 'high_percent', '11');
  const sent = changedBands(draft);

  it('is placed at the band and end it names, of those sent', () => {
    expect(sent.map((band) => band.category)).toEqual(['F&B', 'Fashion']);
    const rule = bandRefusalOf('bands.1.low_percent: The low end of a band must be at most its high end.', sent, draft);
    expect(rule).toEqual({
      category: 'Fashion',
      field: 'low_percent',
      low: '10',
      high: '15',
      message: 'The low end of a band must be at most its high end.',
    });
    expect(bandRefusalOf('body/bands/0/high_percent must be <= 100', sent, draft)).toEqual({
      category: 'F&B',
      field: 'high_percent',
      low: '6',
      high: '11',
      message: 'must be <= 100',
    });
    expect(bandRefusalOf('bands.0.category: A category is given once.', sent, draft)).toMatchObject({
      category: 'F&B',
      field: undefined,
      message: 'A category is given once.',
    });
  });

  it('is said as it is when it names no band sent', () => {
    for (const message of ['bands.7.low_percent: no such band', 'body/client_id must be integer']) {
      expect(bandRefusalOf(message, sent, draft)).toEqual({
        category: undefined,
        field: undefined,
        low: undefined,
        high: undefined,
        message,
      });
    }
  });

  it('stays at its row while the row holds the ends refused', () => {
    const refusal = bandRefusalOf('bands.0.high_percent: refused', sent, draft);
    expect(refusalAtRow(rowOf(draft, 'F&B'), refusal)).toBe(refusal);
    expect(refusalAtRow(rowOf(draft, 'Fashion'), refusal)).toBeUndefined();
    expect(refusalAtRow(rowOf(withBandText(draft, 'F&B', 'high_percent', '12'), 'F&B'), refusal)).toBeUndefined();
    expect(refusalAtRow(rowOf(draft, 'F&B'), undefined)).toBeUndefined();
  });
});
