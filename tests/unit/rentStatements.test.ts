import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/domain/csv';
import { formatPercentRange } from '../../src/domain/format';
import {
  bandText,
  bandWording,
  basisLabel,
  daysLeasedText,
  flaggedWording,
  groupLabel,
  groupRowsBy,
  gtoReviewHrefOf,
  invoicesPostedMessage,
  leaseTermsInWords,
  moneyOrDash,
  outsideBandRows,
  partialMonthNote,
  partialWording,
  percentFigure,
  pointsOutsideText,
  RENT_GROUP_CHOICES,
  RENT_STATEMENTS_CSV_KEYS,
  rateText,
  rentFlagRule,
  rentReceiptsHrefOf,
  rentStatementsCsv,
  rentTotalsByCurrency,
  rowsByRentAtStake,
  statementLines,
  withoutBandNote,
} from '../../src/domain/rentStatements';
import {
  BATIK,
  CLOSED_GROUPS,
  KOPI,
  KOPI_LEASE,
  PARTIAL_KOPI,
  proratedStatement,
  SHOE,
  tenantStatement,
} from '../support/rentStatements';

const linesOf = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(0, -1);

describe('the rows of the Rent Statements page', () => {
  it('lists the rows by the rent at stake, largest first, then by outlet name', () => {
    const tie = { ...SHOE, lease_id: 104, outlet_name: 'Apple Tree', rent_at_stake: 0 };
    expect(rowsByRentAtStake([SHOE, BATIK, tie, KOPI]).map((row) => row.outlet_name)).toEqual([
      'Kopi Corner',
      'Apple Tree',
      'Batik House',
      'Shoe Lane',
    ]);
  });

  it('says which sales the rent is on, and the days a lease covers', () => {
    expect(basisLabel('declared')).toBe('Declared');
    expect(basisLabel('captured')).toBe('Captured (no declaration)');
    expect(daysLeasedText(20, 31)).toBe('20 of 31');
  });

  it('formats rates, percentages and missing amounts through format.ts', () => {
    expect(rateText(8)).toBe('8%');
    expect(rateText(7.5)).toBe('7.5%');
    expect(percentFigure(11.33)).toBe('11.3%');
    expect(percentFigure(null)).toBe('—');
    expect(moneyOrDash(null, 'SGD')).toBe('—');
    expect(moneyOrDash(1_234.5, 'SGD')).toBe('$1,234.50');
    expect(moneyOrDash(2_500_000, 'IDR')).toBe('Rp2,500,000');
  });

  it('says why a row is flagged, with the threshold, either way', () => {
    expect(flaggedWording(KOPI, 5)).toBe('Declared GTO 20.0% below the captured sales, beyond the 5% threshold.');
    expect(flaggedWording(SHOE, 7.5)).toBe('Declared GTO 11.1% above the captured sales, beyond the 7.5% threshold.');
    expect(flaggedWording({ flagged: true, sales_declared: 100, sales_captured: 0 }, 5)).toBe(
      'Declared GTO against no captured sales, beyond the 5% threshold.',
    );
    expect(flaggedWording(BATIK, 5)).toBeUndefined();
    expect(rentFlagRule(5)).toBe(
      'Flagged: the declared GTO differs from the sales captured from receipts by more than 5%, either way.',
    );
  });

  it('labels a partial month with its projection and how it is projected', () => {
    expect(partialWording(PARTIAL_KOPI)).toBe(
      'Partial month: projected sales $248,000.00, projected turnover rent $10,800.00.',
    );
    expect(partialWording({ ...PARTIAL_KOPI, sales_projected: null })).toBe('Partial month: the figures are to date.');
    expect(partialWording(KOPI)).toBeUndefined();
    expect(partialMonthNote('2024-03')).toBe(
      'Partial: March 2024 is not over, so its figures are to date and each outlet’s month end is projected. Projected month end: the sales of the complete days so far, plus for each day left (today included) the average of the same weekday over the four weeks before today.',
    );
  });

  it('adds the totals per currency in whole cents, never across currencies', () => {
    const cents = { ...SHOE, lease_id: 105, base_rent: 0.1, service_charge: 0.2, rent_at_stake: 0.1 };
    expect(rentTotalsByCurrency([KOPI, BATIK, SHOE])).toEqual([
      {
        currency: 'IDR',
        leases: 1,
        flagged: 0,
        base_rent: 20_000_000,
        turnover_rent_declared: 0,
        turnover_rent_captured: 2_500_000,
        rent_at_stake: 0,
        service_charge: 3_000_000,
        gst: 2_805_000,
        total_due: 28_305_000,
      },
      {
        currency: 'SGD',
        leases: 2,
        flagged: 2,
        base_rent: 14_000,
        turnover_rent_declared: 7_000,
        turnover_rent_captured: 11_500,
        rent_at_stake: 4_500,
        service_charge: 2_100,
        gst: 2_079,
        total_due: 25_179,
      },
    ]);
    const [sgd] = rentTotalsByCurrency([cents, { ...cents, lease_id: 106 }, { ...cents, lease_id: 107 }]);
    expect(sgd).toMatchObject({ base_rent: 0.3, service_charge: 0.6, rent_at_stake: 0.3 });
    expect(rentTotalsByCurrency([])).toEqual([]);
  });

  it('leads to the GTO review and the receipts of the outlet and month', () => {
    expect(gtoReviewHrefOf(KOPI, '2024-03', 3)).toBe('/tenant-connect/gto-review?client=3&outlet=12&month=2024-03');
    expect(rentReceiptsHrefOf(KOPI, '2024-03', 3, '2024-04-02')).toBe(
      '/receipts?client=3&outlet=12&from=2024-03-01&to=2024-03-31',
    );
    // While the month is open, to today.
    expect(rentReceiptsHrefOf(KOPI, '2024-03', 3, '2024-03-15')).toBe(
      '/receipts?client=3&outlet=12&from=2024-03-01&to=2024-03-15',
    );
    expect(rentReceiptsHrefOf(KOPI, '2024-02', 3, undefined)).toBe(
      '/receipts?client=3&outlet=12&from=2024-02-01&to=2024-02-29',
    );
  });
});

describe('the bands of the Rent Statements page', () => {
  const noBand = { band_low_percent: null, band_high_percent: null, band_position: null } as const;

  it('says where each occupancy cost falls against its category’s band, percentages through format.ts', () => {
    expect(formatPercentRange(6, 10)).toBe('6–10%');
    expect(formatPercentRange(7.5, 12.25)).toBe('7.5–12.25%');
    expect(bandWording(KOPI)).toBe('Within 6–10%');
    expect(bandWording(BATIK)).toBe('Above 12–16%');
    expect(bandWording(SHOE)).toBe('Below 12–16%');
    // A band but no ratio (no sales): the band alone; no band: nothing.
    expect(bandWording({ ...KOPI, band_position: null })).toBe('6–10%');
    expect(bandWording({ ...KOPI, ...noBand })).toBeUndefined();
    expect(bandText(SHOE)).toBe('12–16%');
    expect(bandText({ ...SHOE, ...noBand })).toBeUndefined();
  });

  it('lists the outlets outside their band, above first, each side the furthest first', () => {
    const farAbove = { ...BATIK, lease_id: 110, outlet_name: 'Zest Gym', occupancy_cost_ratio: 20 };
    const farBelow = { ...SHOE, lease_id: 111, outlet_name: 'Apple Tree', occupancy_cost_ratio: 8 };
    const tie = { ...SHOE, lease_id: 112, outlet_name: 'Alpha Shoes' };
    const bandless = { ...BATIK, lease_id: 113, ...noBand };
    expect(
      outsideBandRows([KOPI, SHOE, tie, farBelow, BATIK, bandless, farAbove]).map((row) => row.outlet_name),
    ).toEqual(['Zest Gym', 'Batik House', 'Apple Tree', 'Alpha Shoes', 'Shoe Lane']);
    expect(outsideBandRows([KOPI, bandless])).toEqual([]);
    // By how far, in percentage points: 17% is 1 above 12–16%, 11.33% 0.67 below.
    expect(pointsOutsideText(BATIK)).toBe('1 point');
    expect(pointsOutsideText(SHOE)).toBe('0.67 points');
    expect(pointsOutsideText(farAbove)).toBe('4 points');
  });

  it('counts the outlets in categories without a band', () => {
    expect(withoutBandNote([KOPI, BATIK, SHOE])).toBeUndefined();
    expect(withoutBandNote([KOPI, { ...BATIK, ...noBand }])).toBe('1 outlet is in a category without a band.');
    expect(
      withoutBandNote([
        { ...KOPI, ...noBand },
        { ...BATIK, ...noBand },
      ]),
    ).toBe('2 outlets are in categories without a band.');
  });

  it('gives the groups of one kind by name and currency, never adding currencies', () => {
    expect(RENT_GROUP_CHOICES.map((choice) => [choice.by, groupLabel(choice.by)])).toEqual([
      ['mall', 'Mall'],
      ['level', 'Floor'],
      ['category', 'Category'],
    ]);
    const shuffled = [...CLOSED_GROUPS].reverse();
    expect(groupRowsBy(shuffled, 'mall').map((group) => [group.key, group.currency, group.outlets])).toEqual([
      ['Central', 'SGD', 2],
      ['East', 'IDR', 1],
    ]);
    expect(groupRowsBy(shuffled, 'level').map((group) => group.key)).toEqual(['B1', 'L1', 'L2']);
    // Fashion sold in two currencies: two rows.
    expect(groupRowsBy(shuffled, 'category').map((group) => [group.key, group.currency])).toEqual([
      ['F&B', 'SGD'],
      ['Fashion', 'IDR'],
      ['Fashion', 'SGD'],
    ]);
    expect(groupRowsBy([], 'mall')).toEqual([]);
  });
});

describe('the Rent Statements CSV', () => {
  it('writes every row in its own currency with title-cased headers (§9) and numerals', () => {
    const file = rentStatementsCsv([KOPI, BATIK, SHOE]);
    expect(file.name).toBe('rent_statements');
    const lines = linesOf(toCsv(RENT_STATEMENTS_CSV_KEYS, file.rows as never));
    expect(lines[0]).toBe(
      'Outlet,Mall,Category,Level,Currency,Model,Lettable Area Square Metres,Days Leased,Days In Month,Basis,Declared GTO,Captured Sales,Projected Sales,Base Rent,Turnover Rent On Declared GTO,Turnover Rent On Captured Sales,Projected Turnover Rent,Rent At Stake,Service Charge,GST Percent,GST,Total Due,Occupancy Cost Percent,Occupancy Cost Band,Band Position,Annual Sales Per Square Metre,Flagged,Partial,Invoice Number',
    );
    expect(lines.slice(1)).toEqual([
      'Kopi Corner,Central,F&B,L1,SGD,Higher of base or turnover,120.00,31,31,Declared,200000.00,250000.00,,10000.00,6000.00,11000.00,,5000.00,1500.00,9.00,1575.00,19075.00,9.00,6–10%,Within,25000.00,Yes,No,',
      'Batik House,East,Fashion,L2,IDR,Base plus overage,200.00,31,31,Captured (no declaration),,150000000.00,,20000000.00,,2500000.00,,0.00,3000000.00,11.00,2805000.00,28305000.00,17.00,12–16%,Above,9000000.00,No,No,INV-0042',
      // A negative rent at stake stays a number.
      'Shoe Lane,Central,Fashion,B1,SGD,Higher of base or turnover,80.00,20,31,Declared,50000.00,45000.00,,4000.00,1000.00,500.00,,-500.00,600.00,9.00,504.00,6104.00,11.33,12–16%,Below,10462.50,Yes,No,',
    ]);
    // Without a band, both empty.
    const [bandless] = linesOf(
      toCsv(
        RENT_STATEMENTS_CSV_KEYS,
        rentStatementsCsv([{ ...KOPI, band_low_percent: null, band_high_percent: null, band_position: null }])
          .rows as never,
      ),
    ).slice(1);
    expect(bandless).toContain(',19075.00,9.00,,,25000.00,');
  });

  it('writes the projection of a partial month, and guards names a spreadsheet would run', () => {
    const file = rentStatementsCsv([{ ...PARTIAL_KOPI, outlet_name: '=HYPERLINK("x")', mall_name: '-Central' }]);
    const [row] = linesOf(toCsv(RENT_STATEMENTS_CSV_KEYS, file.rows as never)).slice(1);
    expect(row?.startsWith(`"'=HYPERLINK(""x"")","'-Central",`)).toBe(true);
    expect(row).toContain(',Captured (no declaration),,120000.00,248000.00,10000.00,,0.00,10800.00,0.00,');
    expect(row?.endsWith(',No,Yes,')).toBe(true);
  });
});

describe('the tenant’s statement in words', () => {
  it('says the lease’s terms', () => {
    expect(leaseTermsInWords(tenantStatement().lease ?? KOPI_LEASE)).toEqual([
      { label: 'Term', text: '11 Apr 2024 to 11 Mar 2027' },
      { label: 'Lettable area', text: '120 m²' },
      { label: 'Base rent', text: '$10,000.00 a month' },
      { label: 'Service charge', text: '$1,500.00 a month' },
      {
        label: 'Turnover rent',
        text: 'Higher of base or turnover. The higher of the base rent and the percentage rent: turnover rent is what the percentage rent adds to the base rent.',
      },
      { label: 'Tier 1', text: '8% of the month’s turnover from $0.00 to $200,000.00' },
      { label: 'Tier 2', text: '10% of the month’s turnover above $200,000.00' },
      { label: 'GST', text: '9%' },
      { label: 'Notice date', text: '11 Sep 2026' },
    ]);
  });

  it('names the breakpoint of a base-plus-overage lease, its one rate and a renewal date', () => {
    const terms = leaseTermsInWords({
      ...KOPI_LEASE,
      currency: 'IDR',
      gst_percent: 11,
      base_rent: 20_000_000,
      turnover_rent: { model: 'base_plus_overage', tiers: [{ from: 100_000_000, rate_percent: 5 }] },
      notice_date: null,
      renewal_date: '2027-01-01',
    });
    expect(terms.slice(4)).toEqual([
      {
        label: 'Turnover rent',
        text: 'Base plus overage. Base rent plus the percentage rent of the turnover above the breakpoint (the first tier’s threshold).',
      },
      { label: 'Rate', text: '5% of the month’s turnover above Rp100,000,000 (the breakpoint)' },
      { label: 'GST', text: '11%' },
      { label: 'Renewal date', text: '1 Jan 2027' },
    ]);
  });

  it('writes the month’s rent line by line: a prorated month on the declared sales (hand-computed)', () => {
    const { lines, total } = statementLines(proratedStatement('declared', false), 'higher_of', 'SGD');
    expect(lines.map((line) => [line.text, line.amount, line.kind])).toEqual([
      ['Sales declared (GTO submission)', 150_000, 'sales'],
      ['Base rent, 20 of 30 days', 6_666.67, 'rent'],
      ['8% of $133,333.33 from $0.00 to $133,333.33', 10_666.67, 'tier'],
      ['10% of $16,666.67 above $133,333.33', 1_666.67, 'tier'],
      ['Percentage rent: the sum of the tiers, their thresholds prorated to 20 of 30 days', 12_333.34, 'sum'],
      [
        'Turnover rent: the higher of the base rent ($6,666.67) and the percentage rent ($12,333.34), less the base rent',
        5_666.67,
        'rent',
      ],
      ['Service charge, 20 of 30 days', 1_000, 'rent'],
      ['Rent and service charge, without GST', 13_333.34, 'sum'],
      ['GST 9%', 1_200, 'rent'],
    ]);
    expect(total).toEqual({ key: 'total_due', text: 'Total due', amount: 14_533.34, kind: 'sum' });
  });

  it('says a month without a declaration is on the captured sales, and a whole month as such', () => {
    const partial = statementLines(proratedStatement('captured', true), 'higher_of', 'SGD');
    expect(partial.lines[0]?.text).toBe('Sales captured from receipts so far (no declaration)');
    const whole = statementLines(
      {
        ...proratedStatement('captured', false),
        days_leased: 31,
        days_in_month: 31,
        base_rent: 20_000_000,
        percentage_rent: 2_500_000,
        turnover_rent: 2_500_000,
        service_charge: 3_000_000,
        gst_percent: 11,
        tiers: [{ from: 100_000_000, to: null, rate_percent: 5, turnover: 50_000_000, rent: 2_500_000 }],
      },
      'base_plus_overage',
      'IDR',
    );
    expect(whole.lines.map((line) => line.text)).toEqual([
      'Sales captured from receipts (no declaration)',
      'Base rent, the whole month',
      '5% of Rp50,000,000 above Rp100,000,000',
      'Percentage rent: the sum of the tiers',
      'Turnover rent: the percentage rent of the turnover above the breakpoint (Rp100,000,000)',
      'Service charge, the whole month',
      'Rent and service charge, without GST',
      'GST 11%',
    ]);
    expect(whole.lines.find((line) => line.key === 'subtotal')?.amount).toBe(25_500_000);
  });
});

describe('the invoices posted', () => {
  it('says how many invoices a post made, or that none was new', () => {
    expect(invoicesPostedMessage('2024-03', 1)).toBe('1 turnover-rent invoice for March 2024 posted to Xero.');
    expect(invoicesPostedMessage('2024-03', 12)).toBe('12 turnover-rent invoices for March 2024 posted to Xero.');
    expect(invoicesPostedMessage('2024-03', 0)).toBe(
      "No new invoice for March 2024: every outlet's month was posted before or owes no turnover rent.",
    );
  });
});
