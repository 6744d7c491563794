import { describe, expect, it } from 'vitest';
import { auditChanges, auditChangeText, auditEntityName, isAuditEntity } from '../../src/domain/audit';

describe('the audit log’s reading of a change', () => {
  it('lists the fields a correction changed, before and after, in the row’s order', () => {
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
      { field: 'total', before: '160.1', after: '150' },
      { field: 'remarks', before: 'Excludes GST', after: '—' },
    ]);
    expect(auditChangeText(detail)).toBe('total: 160.1 → 150; remarks: Excludes GST → —');
  });

  it('shows every field of a row created or deleted, and lists as JSON', () => {
    expect(auditChangeText({ before: null, after: { name: 'Tea', ids: [1, 2] } })).toBe(
      'name: — → Tea; ids: — → [1,2]',
    );
    expect(auditChangeText({ before: { name: 'Tea', on: true }, after: null })).toBe('name: Tea → —; on: true → —');
  });

  it('says when nothing changed, and shows any other detail as its fields', () => {
    expect(auditChangeText({ before: { fee: 2.5 }, after: { fee: 2.5 } })).toBe('No field changed');
    expect(auditChangeText({ ip: '10.0.0.1', report: 'mall-gmv' })).toBe('ip: 10.0.0.1; report: mall-gmv');
  });

  it('names the kinds of row, and keeps an unknown kind as it is', () => {
    expect(auditEntityName('gto_submission')).toBe('GTO submission');
    expect(auditEntityName('session')).toBe('Sign-in');
    expect(auditEntityName('lease')).toBe('lease');
    expect(isAuditEntity('sku')).toBe(true);
    expect(isAuditEntity('toString')).toBe(false);
  });
});
