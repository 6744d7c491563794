import { describe, expect, it } from 'vitest';
import {
  canAddTier,
  canEndLease,
  canRemoveTier,
  defaultEndDay,
  draftHasField,
  END_DAY_MESSAGES,
  EXPIRING_OPTIONS,
  endDayProblem,
  endLeaseBodyOf,
  endLeaseQuestion,
  isLeaseDraftValid,
  isLeaseStatusFilter,
  LEASE_FIELD_MESSAGES,
  type LeaseDraft,
  type LeaseRow,
  leaseAddedMessage,
  leaseBodyOf,
  leaseDraftOf,
  leaseDraftProblems,
  leaseEndedMessage,
  leaseEndFailedMessage,
  leaseModelLabel,
  leaseOutletOptionText,
  leaseOutletText,
  leaseRefusalOf,
  leaseStatusLabel,
  leaseTermText,
  newLeaseDraft,
  optionalDayText,
  parseDecimal,
  parseExpiring,
  shownLeaseProblems,
  tierField,
  withLeaseText,
  withTierAdded,
  withTierRemoved,
  withTierText,
} from '../../src/domain/leaseEditor';
import { LEASE_MESSAGES, MAX_TIERS } from '../../src/domain/leases';

const LEASE: LeaseRow = {
  id: 41,
  outlet_id: 12,
  outlet_name: 'Kopi Corner',
  outlet_code: 'K-12',
  mall_id: 1,
  mall_name: 'Central',
  currency: 'SGD',
  start_date: '2026-01-01',
  end_date: '2028-12-31',
  gla_sqm: 120.5,
  base_rent: 10_000,
  service_charge: 1_500.5,
  turnover_rent: {
    model: 'higher_of',
    tiers: [
      { from: 0, rate_percent: 8 },
      { from: 200_000, rate_percent: 10.25 },
    ],
  },
  notice_date: '2028-06-30',
  renewal_date: null,
  status: 'current',
};

const OUTLET = { id: 12, name: 'Kopi Corner', code: 'K-12', mallId: 1, mallName: 'Central', currency: 'SGD' };

/** A valid new lease as typed. */
const typed = (overrides: Partial<LeaseDraft> = {}): LeaseDraft => ({
  ...newLeaseDraft([]),
  outletId: 12,
  startDate: '2026-01-01',
  endDate: '2028-12-31',
  gla: '120.5',
  baseRent: '$10,000',
  serviceCharge: '1500.5',
  tiers: [
    { from: '0', rate: '8' },
    { from: '200,000', rate: '10.25%' },
  ],
  ...overrides,
});

describe('the list’s words', () => {
  it('names the term, model, status and outlet of a lease', () => {
    expect(leaseTermText(LEASE)).toBe('1 Jan 2026 – 31 Dec 2028');
    expect(leaseModelLabel('higher_of')).toBe('Higher of base or turnover');
    expect(leaseModelLabel('base_plus_overage')).toBe('Base plus overage');
    expect([leaseStatusLabel('current'), leaseStatusLabel('upcoming'), leaseStatusLabel('ended')]).toEqual([
      'Current',
      'Upcoming',
      'Ended',
    ]);
    expect(leaseOutletText(LEASE)).toBe('Kopi Corner · K-12');
    expect(leaseOutletText({ outlet_name: 'Shoe Lane', outlet_code: ' ' })).toBe('Shoe Lane');
    expect(optionalDayText('2028-06-30')).toBe('30 Jun 2028');
    expect(optionalDayText(null)).toBe('—');
    expect(leaseOutletOptionText(OUTLET)).toBe('Kopi Corner (12) · Central');
    expect(leaseOutletOptionText({ ...OUTLET, mallName: '' })).toBe('Kopi Corner (12)');
  });

  it('reads the filters the selects send', () => {
    expect(EXPIRING_OPTIONS.map((option) => option.value)).toEqual(['any', '3', '6', '12']);
    expect(EXPIRING_OPTIONS[2]?.label).toBe('Expiring within 6 months');
    expect([parseExpiring('any'), parseExpiring('3'), parseExpiring('12'), parseExpiring('4')]).toEqual([
      undefined,
      3,
      12,
      null,
    ]);
    expect(['all', 'current', 'upcoming', 'ended', 'soon'].map(isLeaseStatusFilter)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('says the page’s messages', () => {
    expect(leaseAddedMessage('Kopi Corner')).toBe('Lease of Kopi Corner has been added successfully.');
    expect(leaseEndedMessage('Kopi Corner', '2026-11-30')).toBe("Kopi Corner's lease ends on 30 Nov 2026.");
    expect(leaseEndFailedMessage('Kopi Corner')).toBe('End lease of Kopi Corner failed.');
    expect(endLeaseQuestion(LEASE)).toBe(
      'End the lease of Kopi Corner (1 Jan 2026 – 31 Dec 2028)? Choose its last day.',
    );
  });
});

describe('the draft', () => {
  it('starts a new lease with no outlet (the only one when the malls have one) and one tier from 0', () => {
    expect(newLeaseDraft([OUTLET, { ...OUTLET, id: 13 }])).toMatchObject({
      id: undefined,
      outletId: undefined,
      model: 'higher_of',
      tiers: [{ from: '0', rate: '' }],
      noticeDate: '',
    });
    expect(newLeaseDraft([OUTLET]).outletId).toBe(12);
  });

  it('shows a stored lease in its fields and sends it back unchanged', () => {
    const draft = leaseDraftOf(LEASE);
    expect(draft).toEqual({
      id: 41,
      outletId: 12,
      startDate: '2026-01-01',
      endDate: '2028-12-31',
      gla: '120.5',
      baseRent: '10000.00',
      serviceCharge: '1500.50',
      model: 'higher_of',
      tiers: [
        { from: '0.00', rate: '8' },
        { from: '200000.00', rate: '10.25' },
      ],
      noticeDate: '2028-06-30',
      renewalDate: '',
    });
    expect(leaseDraftProblems(draft)).toEqual({});
    expect(leaseBodyOf(draft)).toEqual({
      outlet_id: 12,
      start_date: '2026-01-01',
      end_date: '2028-12-31',
      gla_sqm: 120.5,
      base_rent: 10_000,
      service_charge: 1_500.5,
      turnover_rent: LEASE.turnover_rent,
      notice_date: '2028-06-30',
      renewal_date: null,
    });
  });

  it('reads amounts typed with $ and commas, rates with a % sign', () => {
    expect(leaseBodyOf(typed())).toMatchObject({
      gla_sqm: 120.5,
      base_rent: 10_000,
      service_charge: 1_500.5,
      turnover_rent: {
        model: 'higher_of',
        tiers: [
          { from: 0, rate_percent: 8 },
          { from: 200_000, rate_percent: 10.25 },
        ],
      },
      notice_date: null,
      renewal_date: null,
    });
    expect([
      parseDecimal('1,234.5'),
      parseDecimal('.5'),
      parseDecimal('1.234'),
      parseDecimal('-1'),
      parseDecimal(''),
    ]).toEqual([1234.5, 0.5, undefined, undefined, undefined]);
  });

  it('checks each field alone: required, amounts of 0 or more with 2 decimals, an area above 0, rates to 100', () => {
    const blank = newLeaseDraft([]);
    expect(leaseDraftProblems(blank)).toEqual({
      outlet_id: LEASE_FIELD_MESSAGES.outlet,
      start_date: LEASE_FIELD_MESSAGES.startDate,
      end_date: LEASE_FIELD_MESSAGES.endDate,
      gla_sqm: LEASE_FIELD_MESSAGES.gla,
      base_rent: LEASE_FIELD_MESSAGES.amount,
      service_charge: LEASE_FIELD_MESSAGES.amount,
      'turnover_rent.tiers.0.rate_percent': LEASE_FIELD_MESSAGES.rate,
    });
    expect(isLeaseDraftValid(blank)).toBe(false);
    expect(leaseBodyOf(blank)).toBeUndefined();
    const wrong = typed({
      startDate: '2026-02-30',
      gla: '0',
      baseRent: '-5',
      serviceCharge: '12.345',
      tiers: [{ from: '0', rate: '100.5' }],
      noticeDate: '30/06/2028',
    });
    expect(leaseDraftProblems(wrong)).toEqual({
      start_date: LEASE_FIELD_MESSAGES.day,
      gla_sqm: LEASE_FIELD_MESSAGES.gla,
      base_rent: LEASE_FIELD_MESSAGES.amount,
      service_charge: LEASE_FIELD_MESSAGES.amount,
      'turnover_rent.tiers.0.rate_percent': LEASE_FIELD_MESSAGES.rate,
      notice_date: LEASE_FIELD_MESSAGES.day,
    });
    expect(leaseDraftProblems(typed({ gla: '1000000.01' }))).toEqual({ gla_sqm: LEASE_FIELD_MESSAGES.gla });
    expect(leaseDraftProblems(typed({ baseRent: '0', serviceCharge: '0.00' }))).toEqual({});
    expect(leaseDraftProblems(typed({ tiers: [] }))).toEqual({ 'turnover_rent.tiers': LEASE_FIELD_MESSAGES.tiers });
  });

  it('applies the rules between fields (leaseProblem) at the field they name', () => {
    expect(leaseDraftProblems(typed({ endDate: '2025-12-31' }))).toEqual({ end_date: LEASE_MESSAGES.endBeforeStart });
    expect(leaseDraftProblems(typed({ endDate: '2056-01-01' }))).toEqual({ end_date: LEASE_MESSAGES.tooLong });
    expect(
      leaseDraftProblems(
        typed({
          tiers: [
            { from: '0', rate: '8' },
            { from: '0', rate: '10' },
          ],
        }),
      ),
    ).toEqual({ 'turnover_rent.tiers.1.from': LEASE_MESSAGES.tiersNotAscending });
    expect(leaseDraftProblems(typed({ tiers: [{ from: '5000', rate: '8' }] }))).toEqual({
      'turnover_rent.tiers.0.from': LEASE_MESSAGES.firstTierOfHigherOf,
    });
    // The breakpoint of a base-plus-overage lease is its first tier's threshold.
    expect(leaseDraftProblems(typed({ model: 'base_plus_overage', tiers: [{ from: '5000', rate: '8' }] }))).toEqual({});
    expect(leaseDraftProblems(typed({ noticeDate: '2029-01-01' }))).toEqual({
      notice_date: LEASE_MESSAGES.noticeAfterEnd,
    });
    expect(leaseDraftProblems(typed({ renewalDate: '2025-06-01' }))).toEqual({
      renewal_date: LEASE_MESSAGES.renewalBeforeStart,
    });
    // The days' rules speak while a tier or another day does not read yet; a field keeps its own problem first.
    expect(leaseDraftProblems(typed({ endDate: '2025-12-31', tiers: [{ from: 'x', rate: '8' }] }))).toEqual({
      'turnover_rent.tiers.0.from': LEASE_FIELD_MESSAGES.amount,
      end_date: LEASE_MESSAGES.endBeforeStart,
    });
    expect(leaseDraftProblems(typed({ noticeDate: '2029-13-01', renewalDate: '2025-06-01' }))).toEqual({
      notice_date: LEASE_FIELD_MESSAGES.day,
      renewal_date: LEASE_MESSAGES.renewalBeforeStart,
    });
    expect(
      leaseDraftProblems(
        typed({
          tiers: [
            { from: '0', rate: '8' },
            { from: '0', rate: '' },
          ],
        }),
      ),
    ).toEqual({
      'turnover_rent.tiers.1.rate_percent': LEASE_FIELD_MESSAGES.rate,
      'turnover_rent.tiers.1.from': LEASE_MESSAGES.tiersNotAscending,
    });
    expect(leaseDraftProblems(typed({ startDate: '2026-02-30', noticeDate: '2029-01-01' }))).toEqual({
      start_date: LEASE_FIELD_MESSAGES.day,
    });
  });

  it('shows the problems of the fields typed in, not of those left blank', () => {
    const draft = typed({ baseRent: '', gla: '0', outletId: undefined, endDate: '2025-12-31' });
    expect(shownLeaseProblems(draft)).toEqual({
      gla_sqm: LEASE_FIELD_MESSAGES.gla,
      end_date: LEASE_MESSAGES.endBeforeStart,
    });
    expect(shownLeaseProblems(typed({ tiers: [] }))).toEqual({ 'turnover_rent.tiers': LEASE_FIELD_MESSAGES.tiers });
  });

  it('changes text fields and tiers; adds up to 10 tiers and keeps at least one', () => {
    const draft = withLeaseText(typed(), 'noticeDate', '2028-01-31');
    expect(draft.noticeDate).toBe('2028-01-31');
    expect(withTierText(draft, 1, 'rate', '12').tiers[1]).toEqual({ from: '200,000', rate: '12' });
    expect(withTierText(draft, 5, 'rate', '12')).toBe(draft);
    let many = draft;
    while (canAddTier(many)) many = withTierAdded(many);
    expect(many.tiers).toHaveLength(MAX_TIERS);
    expect(many.tiers.at(-1)).toEqual({ from: '', rate: '' });
    expect(withTierAdded(many)).toBe(many);
    expect(withTierRemoved(draft, 0).tiers).toEqual([{ from: '200,000', rate: '10.25%' }]);
    const one = withTierRemoved(draft, 0);
    expect(canRemoveTier(one, 0)).toBe(false);
    expect(withTierRemoved(one, 0)).toBe(one);
    expect(canRemoveTier(draft, 2)).toBe(false);
    expect(tierField(3, 'rate')).toBe('turnover_rent.tiers.3.rate_percent');
  });
});

describe('ending a lease', () => {
  it('offers today within the term first', () => {
    expect(defaultEndDay(LEASE, '2026-11-25')).toBe('2026-11-25');
    expect(defaultEndDay(LEASE, '2025-11-25')).toBe('2026-01-01');
    expect(defaultEndDay(LEASE, '2030-01-01')).toBe('2028-12-31');
    expect(defaultEndDay(LEASE, undefined)).toBe('2028-12-31');
  });

  it('ends on a day of the term, not after its end; a notice date after the day no longer applies', () => {
    expect(endDayProblem(LEASE, '')).toBe(END_DAY_MESSAGES.required);
    expect(endDayProblem(LEASE, '2026-13-01')).toBe(LEASE_FIELD_MESSAGES.day);
    expect(endDayProblem(LEASE, '2029-01-01')).toBe(
      'The last day must be on or before the lease’s end date, 31 Dec 2028.',
    );
    expect(endDayProblem(LEASE, '2025-12-31')).toBe(LEASE_MESSAGES.endBeforeStart);
    expect(endDayProblem(LEASE, '2027-01-31')).toBeUndefined();
    expect(endLeaseBodyOf(LEASE, '2027-01-31').notice_date).toBeNull();
    expect(endDayProblem({ ...LEASE, notice_date: null }, '2027-01-31')).toBeUndefined();
    expect(endDayProblem(LEASE, '2028-06-30')).toBeUndefined();
    expect([canEndLease(LEASE), canEndLease({ status: 'upcoming' }), canEndLease({ status: 'ended' })]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('sends the lease as stored with the new end date, and only the contract’s fields', () => {
    const withExtra = {
      ...LEASE,
      turnover_rent: { model: 'higher_of' as const, tiers: [{ from: 0, rate_percent: 8, rent: 1 }] },
    };
    expect(endLeaseBodyOf(withExtra, ' 2028-06-30 ')).toEqual({
      outlet_id: 12,
      start_date: '2026-01-01',
      end_date: '2028-06-30',
      gla_sqm: 120.5,
      base_rent: 10_000,
      service_charge: 1_500.5,
      turnover_rent: { model: 'higher_of', tiers: [{ from: 0, rate_percent: 8 }] },
      notice_date: '2028-06-30',
      renewal_date: null,
    });
  });
});

describe('the server’s refusal', () => {
  it('reads the field of the contract’s checks and of the rules', () => {
    expect(leaseRefusalOf('body/gla_sqm must be >= 0.01')).toEqual({ field: 'gla_sqm', message: 'must be >= 0.01' });
    expect(leaseRefusalOf('body/turnover_rent/tiers/1/rate_percent must be <= 100')).toEqual({
      field: 'turnover_rent.tiers.1.rate_percent',
      message: 'must be <= 100',
    });
    expect(leaseRefusalOf('body/turnover_rent/tiers must NOT have more than 10 items')).toEqual({
      field: 'turnover_rent.tiers',
      message: 'must NOT have more than 10 items',
    });
    expect(leaseRefusalOf('body/turnover_rent must have required property tiers')?.field).toBe('turnover_rent.tiers');
    expect(leaseRefusalOf(`start_date: ${LEASE_MESSAGES.overlapping}`)).toEqual({
      field: 'start_date',
      message: LEASE_MESSAGES.overlapping,
    });
    expect(leaseRefusalOf(`turnover_rent.tiers.1.from: ${LEASE_MESSAGES.tiersNotAscending}`)).toEqual({
      field: 'turnover_rent.tiers.1.from',
      message: LEASE_MESSAGES.tiersNotAscending,
    });
    expect(leaseRefusalOf(`outlet_id: ${LEASE_MESSAGES.otherOutlet}`)?.field).toBe('outlet_id');
  });

  it('names no field of a lease for the client, the id or a sentence', () => {
    expect(leaseRefusalOf('body/client_id must be integer')).toBeUndefined();
    expect(leaseRefusalOf('id: No such lease.')).toBeUndefined();
    expect(leaseRefusalOf(LEASE_MESSAGES.otherOutlet)).toBeUndefined();
    expect(leaseRefusalOf('')).toBeUndefined();
  });

  it('is shown at a field the editor has', () => {
    const draft = typed();
    expect(draftHasField(draft, 'end_date')).toBe(true);
    expect(draftHasField(draft, 'turnover_rent.tiers.1.from')).toBe(true);
    expect(draftHasField(draft, 'turnover_rent.tiers.2.from')).toBe(false);
    expect(draftHasField(draft, 'client_id')).toBe(false);
  });
});
