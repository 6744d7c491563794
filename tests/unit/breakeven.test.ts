import { describe, expect, it } from 'vitest';
import {
  BREAKEVEN_CSV_KEYS,
  type BreakevenTargetsDraft,
  breakevenCsvRows,
  breakevenCurrencyNote,
  changedTargets,
  departmentOfRoles,
  gtoBasis,
  includesGst,
  isTargetsDraftValid,
  parseTarget,
  progressText,
  trackLabel,
} from '../../src/domain/breakeven';
import { csvNumeral, toCsv } from '../../src/domain/csv';

describe('breakeven departments', () => {
  it('reads the department a user’s roles name, none for an operator', () => {
    expect(departmentOfRoles(['leasing'])).toBe('leasing');
    expect(departmentOfRoles(['Finance team'])).toBe('finance');
    expect(departmentOfRoles(['marcom'])).toBe('marcom');
    expect(departmentOfRoles(['mall operator'])).toBeUndefined();
    expect(departmentOfRoles([])).toBeUndefined();
  });

  it('includes GST on Marcom’s page only (§2)', () => {
    expect(includesGst('marcom')).toBe(true);
    expect(includesGst('leasing')).toBe(false);
    expect(gtoBasis(true)).toBe('GTO: sales captured from receipts in the month, GST included.');
    expect(gtoBasis(false)).toBe('GTO: sales captured from receipts in the month, GST excluded.');
  });
});

describe('breakeven rows', () => {
  it('says the amounts are each outlet’s own currency, never converted, when the outlets have several', () => {
    expect(breakevenCurrencyNote(['SGD', 'MYR', 'SGD'])).toBe(
      'Amounts in each outlet’s own currency (MYR, SGD), not converted; totals are per currency.',
    );
    expect(breakevenCurrencyNote(['SGD', 'SGD'])).toBeUndefined();
    expect(breakevenCurrencyNote([])).toBeUndefined();
  });

  it('shows progress to 1 decimal and the projection’s status', () => {
    expect(progressText(81.75)).toBe('81.8%');
    expect(progressText(150)).toBe('150.0%');
    expect(progressText(null)).toBe('');
    expect(trackLabel(true)).toBe('On track');
    expect(trackLabel(false)).toBe('At risk');
    expect(trackLabel(null)).toBe('');
  });

  it('exports the rows with their currency, blanks where there is no target or projection', () => {
    const rows = breakevenCsvRows([
      {
        outlet_name: 'Cafe Uno',
        mall_name: 'Central',
        currency: 'SGD',
        gto: 300,
        breakeven_target: 200,
        difference: 100,
        progress: 150,
        projected_gto: 420.5,
        projected_progress: 210.25,
        on_track: true,
      },
      {
        outlet_name: 'Kiosk',
        mall_name: 'Harbour',
        currency: 'USD',
        gto: 0,
        breakeven_target: null,
        difference: null,
        progress: null,
        projected_gto: null,
        projected_progress: null,
        on_track: null,
      },
    ]);
    expect(Object.keys(rows[0] ?? {})).toEqual([...BREAKEVEN_CSV_KEYS]);
    expect(rows).toEqual([
      {
        outlet: 'Cafe Uno',
        mall: 'Central',
        currency: 'SGD',
        gto: csvNumeral('300.00'),
        breakeven_target: csvNumeral('200.00'),
        difference: csvNumeral('100.00'),
        progress_percent: csvNumeral('150.0'),
        projected_gto: csvNumeral('420.50'),
        projected_progress_percent: csvNumeral('210.3'),
        status: 'On track',
      },
      {
        outlet: 'Kiosk',
        mall: 'Harbour',
        currency: 'USD',
        gto: csvNumeral('0.00'),
        breakeven_target: '',
        difference: '',
        progress_percent: '',
        projected_gto: '',
        projected_progress_percent: '',
        status: '',
      },
    ]);
  });

  it('writes a negative difference as a number and an outlet named like a formula as text', () => {
    const rows = breakevenCsvRows([
      {
        outlet_name: '=HYPERLINK("http://x.invalid","r1")',
        mall_name: '@SUM(A1)',
        currency: 'SGD',
        gto: 100,
        breakeven_target: 112.5,
        difference: -12.5,
        progress: -3,
        projected_gto: null,
        projected_progress: null,
        on_track: false,
      },
    ]);
    expect(toCsv(BREAKEVEN_CSV_KEYS, rows).split('\r\n')[1]).toBe(
      `"'=HYPERLINK(""http://x.invalid"",""r1"")","'@SUM(A1)",SGD,100.00,112.50,-12.50,-3.0,,,${trackLabel(false)}`,
    );
  });
});

describe('editing the targets', () => {
  const saved: BreakevenTargetsDraft = {
    clientId: 1,
    department: 'leasing',
    month: '2026-11',
    outlets: [
      { id: 1, name: 'A', currency: 'SGD' },
      { id: 2, name: 'B', currency: 'SGD' },
      { id: 3, name: 'C', currency: 'IDR' },
    ],
    targets: { 1: '200', 2: '', 3: '5000000' },
  };

  it('reads a target as typed (§5: $ and commas dropped), empty for none', () => {
    expect(parseTarget('$1,250.50')).toBe(1250.5);
    expect(parseTarget(' 80 ')).toBe(80);
    expect(parseTarget('')).toBeNull();
    expect(parseTarget('12.345')).toBeUndefined();
    expect(parseTarget('-5')).toBeUndefined();
    expect(parseTarget('abc')).toBeUndefined();
  });

  it('sends only the targets changed, null to remove one', () => {
    const draft = { ...saved, targets: { 1: '200.00', 2: '90', 3: '' } };
    expect(isTargetsDraftValid(draft)).toBe(true);
    expect(changedTargets(draft, saved)).toEqual([
      { outlet_id: 2, target: 90 },
      { outlet_id: 3, target: null },
    ]);
    expect(isTargetsDraftValid({ ...saved, targets: { ...saved.targets, 1: '1.234' } })).toBe(false);
  });
});
