import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../server/db/pool';
import type { XeroAccount } from '../../server/xero/api';
import { xeroDepsOf } from '../../server/xero/connection';
import { cachedOptionsOf, dailySalesJournal, idempotencyKeyOf, optionsOf } from '../../server/xero/journal';
import { authorizationUrl, codeChallengeOf } from '../../server/xero/oauth';
import { decryptToken, encryptToken, parseTokenKey, TOKEN_KEY_FILE } from '../../server/xero/tokenCrypto';

/* The integration's pure parts: the options offered, the journal of an outlet's day, its key, tokens sealed. */

const account = (code: string | undefined, type: string, extra: Partial<XeroAccount> = {}): XeroAccount => ({
  code,
  name: `Account ${code}`,
  type,
  status: 'ACTIVE',
  taxType: 'NONE',
  systemAccount: undefined,
  ...extra,
});

describe('the options offered', () => {
  it('are active sales accounts, revenue tax rates and bank or current asset accounts that are not system ones', () => {
    const options = optionsOf(
      [
        account('260', 'REVENUE'),
        account('200', 'SALES'),
        account('265', 'REVENUE', { status: 'ARCHIVED' }),
        account(undefined, 'REVENUE'),
        account('090', 'BANK'),
        account('610', 'CURRENT', { systemAccount: 'DEBTORS' }),
        account('615', 'CURRENT', { taxType: 'EXEMPT' }),
        account('400', 'OVERHEADS'),
      ],
      [
        { taxType: 'OUTPUT', name: 'GST on Income', status: 'ACTIVE', canApplyToRevenue: true, effectiveRate: 9 },
        { taxType: 'INPUT', name: 'GST on Expenses', status: 'ACTIVE', canApplyToRevenue: false, effectiveRate: 9 },
        { taxType: 'OLD', name: 'Old', status: 'DELETED', canApplyToRevenue: true, effectiveRate: 7 },
      ],
      'SGD',
    );
    expect(options).toEqual({
      salesAccounts: [
        { code: '200', name: 'Account 200' },
        { code: '260', name: 'Account 260' },
      ],
      taxAccounts: [{ code: 'OUTPUT', name: 'GST on Income (9%)' }],
      clearingAccounts: [
        { code: '090', name: 'Account 090' },
        { code: '615', name: 'Account 615' },
      ],
      currency: ['SGD'],
      clearingTaxTypes: { '090': 'NONE', '615': 'EXEMPT' },
    });
    expect(cachedOptionsOf(JSON.parse(JSON.stringify(options)))).toEqual(options);
    expect(cachedOptionsOf({ salesAccounts: 'x', taxAccounts: [{ code: 1 }] }).salesAccounts).toEqual([]);
  });
});

describe('the journal of an outlet’s day', () => {
  const sales = {
    outletId: 4,
    outletName: 'Cafe Uno',
    outletCode: 'C-01',
    mallName: 'Central Mall',
    currency: 'SGD',
    day: '2026-11-24',
    amount: 1234.565,
  };

  it('debits the clearing account and credits sales with the tax rate, tax included, summing to zero', () => {
    const journal = dailySalesJournal(sales, {
      salesAccount: '200',
      taxType: 'OUTPUT',
      clearingAccount: '615',
      clearingTaxType: undefined,
    });
    expect(journal).toEqual({
      Narration: 'Daily sales of Cafe Uno (C-01), Central Mall, on 2026-11-24 (SGD)',
      Date: '2026-11-24',
      Status: 'POSTED',
      LineAmountTypes: 'Inclusive',
      JournalLines: [
        { LineAmount: 1234.57, AccountCode: '615', Description: 'Takings of Cafe Uno (C-01) on 2026-11-24' },
        {
          LineAmount: -1234.57,
          AccountCode: '200',
          Description: 'Sales of Cafe Uno (C-01) on 2026-11-24',
          TaxType: 'OUTPUT',
        },
      ],
    });
    expect(journal.JournalLines.reduce((sum, line) => sum + line.LineAmount, 0)).toBe(0);
  });

  it('has one Idempotency-Key per outlet, day, organisation and generation, within Xero’s 128 characters', () => {
    const tenant = '2d3a8f2c-6f1e-4a47-9a55-8d3c1b6f0a11';
    const key = idempotencyKeyOf(2_147_483_647, 2_147_483_647, '2026-11-24', tenant, 12);
    expect(key.length).toBeLessThanOrEqual(128);
    expect(idempotencyKeyOf(1, 4, '2026-11-24', tenant, 0)).toBe(idempotencyKeyOf(1, 4, '2026-11-24', tenant, 0));
    const others = [
      idempotencyKeyOf(1, 5, '2026-11-24', tenant, 0),
      idempotencyKeyOf(1, 4, '2026-11-23', tenant, 0),
      idempotencyKeyOf(1, 4, '2026-11-24', 'another-tenant', 0),
      idempotencyKeyOf(1, 4, '2026-11-24', tenant, 1),
    ];
    expect(new Set([idempotencyKeyOf(1, 4, '2026-11-24', tenant, 0), ...others]).size).toBe(5);
  });
});

const SETTING = {
  clientId: 'app',
  clientSecret: 'secret',
  authorizeUrl: 'https://login.xero.test/identity/connect/authorize',
  tokenUrl: 'https://identity.xero.test/connect/token',
  revokeUrl: 'https://identity.xero.test/connect/revocation',
  connectionsUrl: 'https://api.xero.test/connections',
  apiUrl: 'https://api.xero.test/api.xro/2.0',
  redirectUri: 'https://mall.test/api/apps/xero/callback',
  scopes: 'offline_access accounting.transactions',
  tokenKey: undefined,
};

describe('OAuth and tokens at rest', () => {
  it('asks with an S256 challenge of the verifier, never the verifier', () => {
    const url = new URL(
      authorizationUrl(SETTING, { state: 'the-state', codeVerifier: 'the-verifier-the-verifier-the-verifier-0000' }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: 'https://mall.test/api/apps/xero/callback',
      scope: 'offline_access accounting.transactions',
      state: 'the-state',
      code_challenge: codeChallengeOf('the-verifier-the-verifier-the-verifier-0000'),
      code_challenge_method: 'S256',
    });
    expect(url.href).not.toContain('the-verifier');
  });

  it('seals a token with AES-256-GCM for its client and kind', () => {
    const key = parseTokenKey(randomBytes(32).toString('base64'));
    const sealed = encryptToken(key, 3, 'refresh', 'refresh-token-value');
    expect(sealed).toMatch(/^v1\.[\w-]+$/);
    expect(sealed).not.toContain('refresh-token-value');
    expect(encryptToken(key, 3, 'refresh', 'refresh-token-value')).not.toBe(sealed);
    expect(decryptToken(key, 3, 'refresh', sealed)).toBe('refresh-token-value');
    expect(() => decryptToken(key, 4, 'refresh', sealed)).toThrow();
    expect(() => decryptToken(key, 3, 'access', sealed)).toThrow();
    expect(() => decryptToken(parseTokenKey(randomBytes(32).toString('base64')), 3, 'refresh', sealed)).toThrow();
    expect(() => parseTokenKey(randomBytes(16).toString('base64'))).toThrow();
  });

  it('keeps a key in the data directory, made when first used and readable by its owner only', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xero-key-'));
    try {
      const deps = xeroDepsOf({} as Pool, { xero: SETTING, dataDir });
      const file = path.join(dataDir, TOKEN_KEY_FILE);
      expect(fs.existsSync(file)).toBe(false);
      const key = deps?.key;
      expect(key?.length).toBe(32);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(xeroDepsOf({} as Pool, { xero: SETTING, dataDir })?.key.equals(key ?? Buffer.alloc(0))).toBe(true);
      expect(xeroDepsOf({} as Pool, { xero: undefined, dataDir })).toBeUndefined();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
