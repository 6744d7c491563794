import { describe, expect, it } from 'vitest';
import {
  auditActionName,
  auditChanges,
  auditChangeText,
  auditEntityName,
  auditFieldLabel,
  isAuditEntity,
} from '../../src/domain/audit';
import { currencyFormat } from '../../src/domain/format';

describe('the audit log’s reading of a change', () => {
  it('lists the fields a correction changed, before and after, in the row’s order, as a person reads them', () => {
    const detail = {
      before: {
        outlet_id: 2,
        month: '2026-10',
        total: 160.1,
        remarks: 'Excludes GST',
        days: [{ date: '2026-10-02', gto: 1 }],
      },
      after: { outlet_id: 2, month: '2026-10', total: 150, remarks: null, days: [{ date: '2026-10-02', gto: 1 }] },
    };
    expect(auditChanges(detail)).toEqual([
      { field: 'Total', before: '$160.10', after: '$150.00' },
      { field: 'Remarks', before: 'Excludes GST', after: '—' },
    ]);
    expect(auditChangeText(detail)).toBe('Total: $160.10 → $150.00; Remarks: Excludes GST → —');
    // In the malls' currency, when the page knows it.
    expect(auditChangeText(detail, currencyFormat('IDR'))).toBe('Total: Rp160 → Rp150; Remarks: Excludes GST → —');
  });

  it('writes fees as percentages, targets as money, months by name and a submission’s days one by one', () => {
    const fee = (processing_fees: number) => ({ outlet_id: 4, payment_method: 'VISA', processing_fees });
    expect(auditChangeText({ before: fee(1.5), after: fee(2) })).toBe('Processing fee: 1.50% → 2.00%');
    expect(auditChangeText({ before: null, after: { outlet_id: 4, month: '2026-10', target: 28100 } })).toBe(
      'Outlet ID: — → 4; Month: — → October 2026; Target: — → $28,100.00',
    );
    const days = (gto: number) => ({
      days: [
        { date: '2026-10-01', gto: 10 },
        { date: '2026-10-02', gto },
      ],
    });
    expect(auditChangeText({ before: days(1), after: days(2.5) })).toBe('GTO on 2026-10-02: $1.00 → $2.50');
    expect(auditChangeText({ before: { reminders: true }, after: { reminders: false } })).toBe('Reminders: Yes → No');
    expect(
      auditChangeText({
        before: null,
        after: { meal_timing: { name: 'Lunch', start_time: '11:00', end_time: '14:00' } },
      }),
    ).toBe('Meal timing: — → Name Lunch, Start 11:00, End 14:00');
  });

  it('shows every field of a row created or deleted, and lists as their items', () => {
    expect(auditChangeText({ before: null, after: { name: 'Tea', sku_ids: [1, 2] } })).toBe(
      'Name: — → Tea; SKUs: — → 1, 2',
    );
    expect(auditChangeText({ before: { name: 'Tea', on: true }, after: null })).toBe('Name: Tea → —; On: Yes → —');
  });

  it('says when nothing changed, and shows any other detail as its fields', () => {
    expect(auditChangeText({ before: { fee: 2.5 }, after: { fee: 2.5 } })).toBe('No field changed');
    expect(auditChangeText({ ip: '10.0.0.1', report: 'mall-gmv' })).toBe('IP address: 10.0.0.1; Report: mall-gmv');
  });

  it('labels fields and actions as words', () => {
    expect(auditFieldLabel('payment_method')).toBe('Payment method');
    expect(auditFieldLabel('outlet_id')).toBe('Outlet ID');
    expect(auditFieldLabel('processing_fees')).toBe('Processing fee');
    expect(auditActionName('update')).toBe('Updated');
    expect(auditActionName('login')).toBe('Signed in');
    expect(auditActionName('archive')).toBe('archive');
  });

  it('names the kinds of row, and keeps an unknown kind as it is', () => {
    expect(auditEntityName('gto_submission')).toBe('GTO submission');
    expect(auditEntityName('session')).toBe('Sign-in');
    expect(auditEntityName('lease')).toBe('Lease');
    expect(auditEntityName('rent_invoice')).toBe('rent_invoice');
    expect(isAuditEntity('sku')).toBe(true);
    expect(isAuditEntity('toString')).toBe(false);
  });
});
