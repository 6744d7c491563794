import { describe, expect, it } from 'vitest';
import {
  createDeviceKeyBodyOf,
  deviceKeyProblems,
  deviceKeyStatus,
  deviceKeysScopeOf,
  ingestCurlExample,
  initialDeviceKeyDraft,
  isDeviceKeyDraftValid,
  revokeQuestion,
} from '../../src/domain/deviceKeys';

const OUTLETS = [
  { id: 2, name: 'Boutique', mall_id: 1 },
  { id: 5, name: 'Cafe', mall_id: 1 },
  { id: 7, name: 'Kiosk', mall_id: 4 },
  { id: 9, name: 'Pop-up', mall_id: null },
];

describe('the mall of the section', () => {
  it('is the mall of the header’s one outlet, with the mall’s outlets in the header’s order', () => {
    expect(deviceKeysScopeOf({ clientId: 3, outlet: 5 }, OUTLETS)).toEqual({
      clientId: 3,
      mallId: 1,
      outlets: [
        { id: 2, name: 'Boutique' },
        { id: 5, name: 'Cafe' },
      ],
      outletId: 5,
    });
    expect(deviceKeysScopeOf({ clientId: 3, outlet: 7 }, OUTLETS)?.outlets).toEqual([{ id: 7, name: 'Kiosk' }]);
  });

  it('is none without a client, with All Outlets, an unknown outlet or an outlet in no mall', () => {
    expect(deviceKeysScopeOf({ clientId: undefined, outlet: 5 }, OUTLETS)).toBeUndefined();
    expect(deviceKeysScopeOf({ clientId: 3, outlet: 'all' }, OUTLETS)).toBeUndefined();
    expect(deviceKeysScopeOf({ clientId: 3, outlet: undefined }, OUTLETS)).toBeUndefined();
    expect(deviceKeysScopeOf({ clientId: 3, outlet: 42 }, OUTLETS)).toBeUndefined();
    expect(deviceKeysScopeOf({ clientId: 3, outlet: 9 }, OUTLETS)).toBeUndefined();
  });
});

describe('the create dialog’s draft', () => {
  const outlets = [
    { id: 2, name: 'Boutique' },
    { id: 5, name: 'Cafe' },
  ];

  it('starts on the header’s outlet, else the first of the mall', () => {
    expect(initialDeviceKeyDraft({ clientId: 3, mallId: 1, outlets, outletId: 5 })).toEqual({
      outletId: 5,
      name: '',
    });
    expect(initialDeviceKeyDraft({ clientId: 3, mallId: 1, outlets, outletId: 7 }).outletId).toBe(2);
    expect(initialDeviceKeyDraft({ clientId: 3, mallId: 1, outlets: [], outletId: 7 }).outletId).toBeUndefined();
  });

  it('needs an outlet of the mall and a name of 1 to 100 characters, spaces aside', () => {
    expect(deviceKeyProblems({ outletId: 5, name: ' Till ' }, outlets)).toEqual({});
    expect(deviceKeyProblems({ outletId: 7, name: 'Till' }, outlets)).toEqual({ outlet: 'Choose an Outlet.' });
    expect(deviceKeyProblems({ outletId: undefined, name: '  ' }, outlets)).toEqual({
      outlet: 'Choose an Outlet.',
      name: 'Enter a name for the device.',
    });
    expect(deviceKeyProblems({ outletId: 5, name: ` ${'x'.repeat(100)} ` }, outlets)).toEqual({});
    expect(deviceKeyProblems({ outletId: 5, name: 'x'.repeat(101) }, outlets)).toEqual({
      name: 'A name has at most 100 characters.',
    });
    expect(isDeviceKeyDraftValid({ outletId: 5, name: 'Till' }, outlets)).toBe(true);
    expect(isDeviceKeyDraftValid({ outletId: 5, name: '' }, outlets)).toBe(false);
  });

  it('sends the name trimmed', () => {
    expect(createDeviceKeyBodyOf(3, { outletId: 5, name: '  Till 2 ' })).toEqual({
      client_id: 3,
      outlet_id: 5,
      name: 'Till 2',
    });
    expect(() => createDeviceKeyBodyOf(3, { outletId: undefined, name: 'Till' })).toThrow();
  });
});

describe('texts', () => {
  it('gives a curl call of one receipt with the key as a bearer token', () => {
    const key = `pos_${'a'.repeat(43)}`;
    expect(ingestCurlExample('https://mall.example', key)).toBe(
      `curl -X POST 'https://mall.example/api/ingest/receipts' -H 'Authorization: Bearer ${key}' ` +
        `-H 'Content-Type: application/json' ` +
        `-d '{"receipts":[{"receipt_id":"R-0001","datetime":"2025-01-31T12:34:56+08:00","total_amount":12.5}]}'`,
    );
  });

  it('asks before revoking, naming the key, and tells a key’s status', () => {
    expect(revokeQuestion({ name: 'Till 1', outlet_name: 'Cafe', key_prefix: 'pos_abcdefgh' })).toBe(
      'Revoke the device key "Till 1" of Cafe (pos_abcdefgh…)? The device that uses it can no longer send ' +
        'receipts. This cannot be undone.',
    );
    expect(deviceKeyStatus({ revoked_at: null })).toBe('active');
    expect(deviceKeyStatus({ revoked_at: '2026-11-01T00:00:00Z' })).toBe('revoked');
  });
});
