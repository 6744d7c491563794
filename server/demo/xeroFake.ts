import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { XERO_CALLBACK_PATH, XERO_DEFAULT_SCOPES, type XeroSetting } from '../config.js';
import { listenOnLoopback } from './loopback.js';
import { startXeroIdentity, type VerifiedToken, type XeroIdentity } from './xeroIdentity.js';

/**
 * The demo's stand-in for Xero's accounting API (api.xero.com), on the loopback interface: GET /connections,
 * GET /api.xro/2.0/Organisation, Accounts and TaxRates, and POST (and GET) /api.xro/2.0/ManualJournals. Every call
 * needs a bearer token that the demo's authorization server (xeroIdentity.ts) issued, has not expired and carries
 * the call's scope (401 otherwise), and every call but /connections an `xero-tenant-id` of one of the token's
 * organisations (400 when missing or not a GUID, 403 when not connected). A manual journal is checked the way
 * Xero does (400 with a ValidationException naming each problem): a narration, a date, a known status, at least
 * two lines, each with a number amount and an active account that is not a system account, known tax types, and
 * debits equal to credits. An Idempotency-Key seen before answers the journal it made. The journals are kept, so
 * that tests can count them.
 */

export interface FakeAccount {
  AccountID: string;
  Code: string;
  Name: string;
  Type: string;
  Status: 'ACTIVE' | 'ARCHIVED';
  TaxType: string;
  Class: string;
  SystemAccount?: string;
}

export interface FakeTaxRate {
  Name: string;
  TaxType: string;
  Status: 'ACTIVE' | 'DELETED';
  CanApplyToRevenue: boolean;
  EffectiveRate: number;
  DisplayTaxRate: number;
}

export interface FakeOrganisation {
  tenantId: string;
  name: string;
  baseCurrency: string;
  countryCode: string;
  accounts: FakeAccount[];
  taxRates: FakeTaxRate[];
}

export interface FakeJournalLine {
  LineAmount: number;
  AccountCode: string;
  AccountID: string;
  Description: string;
  TaxType: string;
  TaxAmount: number;
  IsBlank: false;
}

export interface FakeJournal {
  ManualJournalID: string;
  tenantId: string;
  Narration: string;
  /** YYYY-MM-DD. */
  Date: string;
  Status: 'DRAFT' | 'POSTED';
  LineAmountTypes: 'Inclusive' | 'Exclusive' | 'NoTax';
  JournalLines: FakeJournalLine[];
  idempotencyKey: string | undefined;
  createdAt: string;
}

export interface XeroFakeApi {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `${url}/api.xro/2.0`. */
  apiUrl: string;
  connectionsUrl: string;
  /** The journals posted, of one organisation or all. */
  journals: (tenantId?: string) => readonly FakeJournal[];
  /** Requests answered, by method and path (tests check what was called). */
  calls: readonly { method: string; path: string; status: number }[];
  stop: () => Promise<void>;
}

const account = (
  code: string,
  name: string,
  type: string,
  taxType: string,
  extra: Partial<FakeAccount> = {},
): FakeAccount => ({
  AccountID: randomUUID(),
  Code: code,
  Name: name,
  Type: type,
  Status: 'ACTIVE',
  TaxType: taxType,
  Class: ['BANK', 'CURRENT', 'INVENTORY', 'FIXED'].includes(type)
    ? 'ASSET'
    : ['REVENUE', 'SALES', 'OTHERINCOME'].includes(type)
      ? 'REVENUE'
      : ['CURRLIAB', 'LIABILITY'].includes(type)
        ? 'LIABILITY'
        : 'EXPENSE',
  ...extra,
});

const taxRate = (taxType: string, name: string, rate: number, revenue: boolean): FakeTaxRate => ({
  Name: name,
  TaxType: taxType,
  Status: 'ACTIVE',
  CanApplyToRevenue: revenue,
  EffectiveRate: rate,
  DisplayTaxRate: rate,
});

/** A small chart of accounts as a new Xero organisation has, in the tax types of its country. */
function chartOf(outputTax: string, noTax: string): FakeAccount[] {
  return [
    account('090', 'Business Bank Account', 'BANK', noTax),
    account('091', 'Business Savings Account', 'BANK', noTax),
    account('610', 'Accounts Receivable', 'CURRENT', noTax, { SystemAccount: 'DEBTORS' }),
    account('615', 'Sales Clearing', 'CURRENT', noTax),
    account('620', 'Prepayments', 'CURRENT', noTax),
    account('200', 'Sales', 'REVENUE', outputTax),
    account('210', 'Food and Beverage Sales', 'SALES', outputTax),
    account('260', 'Other Revenue', 'REVENUE', outputTax),
    account('265', 'Old Sales', 'REVENUE', outputTax, { Status: 'ARCHIVED' }),
    account('270', 'Interest Income', 'OTHERINCOME', noTax),
    account('400', 'Advertising', 'OVERHEADS', 'INPUT'),
    account('800', 'Accounts Payable', 'CURRLIAB', noTax, { SystemAccount: 'CREDITORS' }),
    account('820', 'GST', 'CURRLIAB', noTax, { SystemAccount: 'GST' }),
  ];
}

/** The demo's organisations: one for each demo client's reporting currency. */
export const DEMO_XERO_ORGANISATIONS: readonly FakeOrganisation[] = [
  {
    tenantId: '2d3a8f2c-6f1e-4a47-9a55-8d3c1b6f0a11',
    name: 'Harbourfront Malls Pte Ltd (demo)',
    baseCurrency: 'SGD',
    countryCode: 'SG',
    accounts: chartOf('OUTPUT', 'NONE'),
    taxRates: [
      taxRate('OUTPUT', 'Standard-Rated Supplies', 9, true),
      taxRate('ZERORATEDOUTPUT', 'Zero-Rated Supplies', 0, true),
      taxRate('EXEMPTOUTPUT', 'Exempt Supplies', 0, true),
      taxRate('NONE', 'No GST', 0, true),
      taxRate('INPUT', 'Standard-Rated Purchases', 9, false),
    ],
  },
  {
    tenantId: '7b9e4c61-0d2f-4e8a-b3c4-5f6a7b8c9d22',
    name: 'PT Sunrise Retail Group (demo)',
    baseCurrency: 'IDR',
    countryCode: 'ID',
    accounts: chartOf('OUTPUT', 'NONE'),
    taxRates: [
      taxRate('OUTPUT', 'PPN Keluaran', 11, true),
      taxRate('NONE', 'Tanpa Pajak', 0, true),
      taxRate('INPUT', 'PPN Masukan', 11, false),
    ],
  },
];

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const xeroDate = (iso: string) => `/Date(${Date.parse(iso)}+0000)/`;

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

const problem = (status: number, title: string, detail: string) => ({
  Type: null,
  Title: title,
  Status: status,
  Detail: detail,
  Instance: randomUUID(),
  Extensions: {},
});

const envelope = (rest: Record<string, unknown>) => ({
  Id: randomUUID(),
  Status: 'OK',
  ProviderName: 'Mall Analytics',
  DateTimeUTC: `/Date(${Date.now()})/`,
  ...rest,
});

function validationError(element: unknown, messages: string[]) {
  return {
    ErrorNumber: 10,
    Type: 'ValidationException',
    Message: 'A validation exception occurred',
    Elements: [
      {
        ...(typeof element === 'object' && element !== null ? element : {}),
        ValidationErrors: messages.map((Message) => ({ Message })),
      },
    ],
  };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 1_000_000) break;
  }
  return body;
}

const money = (value: number) => Math.round(value * 100) / 100;
const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/.test(value) && !Number.isNaN(Date.parse(value));

interface CheckedJournal {
  journal?: Omit<FakeJournal, 'ManualJournalID' | 'tenantId' | 'idempotencyKey' | 'createdAt'>;
  messages: string[];
}

/** Checks one journal of a POST the way Xero does; the messages name each problem. */
function checkJournal(input: unknown, organisation: FakeOrganisation): CheckedJournal {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { messages: ['A manual journal must be an object.'] };
  }
  const raw = input as Record<string, unknown>;
  const messages: string[] = [];
  const narration = raw.Narration;
  if (typeof narration !== 'string' || narration.trim() === '') messages.push('Narration is required.');
  else if (narration.length > 4000) messages.push('Narration must be 4000 characters or less.');
  const date = raw.Date;
  if (typeof date !== 'string' || !isDay(date)) messages.push('Date must be a valid date (YYYY-MM-DD).');
  const status = raw.Status ?? 'DRAFT';
  if (status !== 'DRAFT' && status !== 'POSTED') messages.push(`'${String(status)}' is not a valid journal status.`);
  const lineAmountTypes = raw.LineAmountTypes ?? 'NoTax';
  if (lineAmountTypes !== 'Inclusive' && lineAmountTypes !== 'Exclusive' && lineAmountTypes !== 'NoTax') {
    messages.push(`'${String(lineAmountTypes)}' is not a valid LineAmountTypes.`);
  }
  const lines = raw.JournalLines;
  const checkedLines: FakeJournalLine[] = [];
  if (!Array.isArray(lines) || lines.length < 2) {
    messages.push('A manual journal must have at least two journal lines.');
  } else {
    lines.forEach((line: unknown, index) => {
      const where = `Journal line ${index + 1}`;
      if (typeof line !== 'object' || line === null) {
        messages.push(`${where} must be an object.`);
        return;
      }
      const { LineAmount, AccountCode, Description, TaxType } = line as Record<string, unknown>;
      if (typeof LineAmount !== 'number' || !Number.isFinite(LineAmount)) {
        messages.push(`${where}: LineAmount must be a number.`);
      }
      const found = organisation.accounts.find((candidate) => candidate.Code === AccountCode);
      if (typeof AccountCode !== 'string' || AccountCode === '') {
        messages.push(`${where}: AccountCode is required.`);
      } else if (found?.Status !== 'ACTIVE') {
        messages.push(`Account code '${AccountCode}' is not a valid code for this document.`);
      } else if (found.SystemAccount) {
        messages.push(`Manual journals cannot be made against the system account '${found.Code} ${found.Name}'.`);
      }
      if (Description !== undefined && (typeof Description !== 'string' || Description.length > 4000)) {
        messages.push(`${where}: Description must be text of 4000 characters or less.`);
      }
      const tax = TaxType === undefined ? undefined : organisation.taxRates.find((rate) => rate.TaxType === TaxType);
      if (TaxType !== undefined && (typeof TaxType !== 'string' || !tax || tax.Status !== 'ACTIVE')) {
        messages.push(
          `TaxType code '${String(TaxType)}' does not exist or cannot be used for this type of transaction.`,
        );
      }
      if (typeof LineAmount === 'number' && found) {
        const taxType = tax?.TaxType ?? found.TaxType;
        const rate = organisation.taxRates.find((candidate) => candidate.TaxType === taxType)?.EffectiveRate ?? 0;
        const taxAmount =
          lineAmountTypes === 'Inclusive'
            ? money((LineAmount * rate) / (100 + rate))
            : lineAmountTypes === 'Exclusive'
              ? money((LineAmount * rate) / 100)
              : 0;
        checkedLines.push({
          LineAmount: money(LineAmount),
          AccountCode: found.Code,
          AccountID: found.AccountID,
          Description: typeof Description === 'string' ? Description : '',
          TaxType: taxType,
          TaxAmount: taxAmount,
          IsBlank: false,
        });
      }
    });
    if (messages.length === 0) {
      const total = (pick: (amount: number) => boolean) =>
        money(
          (lines as { LineAmount: number }[])
            .map((line) => line.LineAmount)
            .filter(pick)
            .reduce((a, b) => a + b, 0),
        );
      const debits = total((amount) => amount > 0);
      const credits = total((amount) => amount < 0);
      if (money(debits + credits) !== 0) {
        messages.push(`The total debits (${debits.toFixed(2)}) must equal total credits (${credits.toFixed(2)}).`);
      }
    }
  }
  if (messages.length > 0) return { messages };
  return {
    messages,
    journal: {
      Narration: String(narration),
      Date: String(date).slice(0, 10),
      Status: status as FakeJournal['Status'],
      LineAmountTypes: lineAmountTypes as FakeJournal['LineAmountTypes'],
      JournalLines: checkedLines,
    },
  };
}

function journalAnswer(journal: FakeJournal) {
  return {
    ManualJournalID: journal.ManualJournalID,
    Date: xeroDate(`${journal.Date}T00:00:00Z`),
    Status: journal.Status,
    LineAmountTypes: journal.LineAmountTypes,
    UpdatedDateUTC: xeroDate(journal.createdAt),
    Narration: journal.Narration,
    JournalLines: journal.JournalLines,
    ShowOnCashBasisReports: true,
    HasAttachments: false,
  };
}

export interface XeroFakeApiOptions {
  identity: Pick<XeroIdentity, 'verifyAccessToken' | 'connectionsOf'>;
  organisations?: readonly FakeOrganisation[];
  port?: number;
}

const SCOPE_OF: Record<string, string> = {
  Organisation: 'accounting.settings',
  Accounts: 'accounting.settings',
  TaxRates: 'accounting.settings',
  ManualJournals: 'accounting.transactions',
};

export async function startXeroFakeApi(options: XeroFakeApiOptions): Promise<XeroFakeApi> {
  const organisations = options.organisations ?? DEMO_XERO_ORGANISATIONS;
  const journals: FakeJournal[] = [];
  const answered = new Map<string, { status: number; body: unknown }>();
  const calls: { method: string; path: string; status: number }[] = [];

  async function handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorization = request.headers.authorization ?? '';
    const bearer = /^Bearer (\S+)$/.exec(authorization)?.[1];
    const token: VerifiedToken | undefined = bearer ? await options.identity.verifyAccessToken(bearer) : undefined;
    if (!token) return { status: 401, body: problem(401, 'Unauthorized', 'AuthenticationUnsuccessful') };
    const connections = options.identity.connectionsOf(token.grantId);

    if (url.pathname === '/connections' && request.method === 'GET') return { status: 200, body: connections };

    const match = /^\/api\.xro\/2\.0\/(\w+)$/.exec(url.pathname);
    const resource = match?.[1];
    const scope = resource === undefined ? undefined : SCOPE_OF[resource];
    if (!resource || !scope) return { status: 404, body: problem(404, 'Not Found', 'The resource does not exist.') };
    const readOnly = request.method === 'GET';
    if (!token.scopes.has(scope) && !(readOnly && token.scopes.has(`${scope}.read`))) {
      return { status: 401, body: problem(401, 'Unauthorized', 'AuthorizationUnsuccessful') };
    }
    const tenantId = request.headers['xero-tenant-id'];
    if (typeof tenantId !== 'string' || !GUID.test(tenantId)) {
      return {
        status: 400,
        body: { Title: 'Bad Request', Status: 400, Detail: 'The xero-tenant-id header is missing or is not a GUID.' },
      };
    }
    const organisation = organisations.find((candidate) => candidate.tenantId === tenantId);
    if (!organisation || !connections.some((connection) => connection.tenantId === tenantId)) {
      return { status: 403, body: problem(403, 'Forbidden', 'AuthenticationUnsuccessful') };
    }

    if (resource === 'Organisation' && readOnly) {
      return {
        status: 200,
        body: envelope({
          Organisations: [
            {
              OrganisationID: organisation.tenantId,
              Name: organisation.name,
              LegalName: organisation.name,
              BaseCurrency: organisation.baseCurrency,
              CountryCode: organisation.countryCode,
              OrganisationType: 'COMPANY',
              IsDemoCompany: true,
            },
          ],
        }),
      };
    }
    if (resource === 'Accounts' && readOnly)
      return { status: 200, body: envelope({ Accounts: organisation.accounts }) };
    if (resource === 'TaxRates' && readOnly)
      return { status: 200, body: envelope({ TaxRates: organisation.taxRates }) };
    if (resource === 'ManualJournals' && readOnly) {
      return {
        status: 200,
        body: envelope({ ManualJournals: journals.filter((j) => j.tenantId === tenantId).map(journalAnswer) }),
      };
    }
    if (resource !== 'ManualJournals' || request.method !== 'POST') {
      return { status: 405, body: problem(405, 'Method Not Allowed', `${request.method} is not supported here.`) };
    }

    const key = request.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > 128)) {
      return { status: 400, body: validationError({}, ['The Idempotency-Key header must be 1 to 128 characters.']) };
    }
    const replay = typeof key === 'string' ? answered.get(`${tenantId}:${key}`) : undefined;
    if (replay) return replay;
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return { status: 400, body: validationError({}, ['The request body must be JSON.']) };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await bodyOf(request));
    } catch {
      return { status: 400, body: validationError({}, ['The request body is not valid JSON.']) };
    }
    const inputs =
      typeof parsed === 'object' &&
      parsed !== null &&
      Array.isArray((parsed as { ManualJournals?: unknown }).ManualJournals)
        ? ((parsed as { ManualJournals: unknown[] }).ManualJournals as unknown[])
        : [parsed];
    if (inputs.length === 0) return { status: 400, body: validationError({}, ['No manual journal was sent.']) };
    const checked = inputs.map((input) => checkJournal(input, organisation));
    const refused = checked.findIndex((result) => result.messages.length > 0);
    if (refused >= 0) return { status: 400, body: validationError(inputs[refused], checked[refused]?.messages ?? []) };
    const made = checked.map(
      (result): FakeJournal => ({
        ...(result.journal as NonNullable<CheckedJournal['journal']>),
        ManualJournalID: randomUUID(),
        tenantId,
        idempotencyKey: typeof key === 'string' ? key : undefined,
        createdAt: new Date().toISOString(),
      }),
    );
    journals.push(...made);
    const answer = { status: 200, body: envelope({ ManualJournals: made.map(journalAnswer) }) };
    if (typeof key === 'string') answered.set(`${tenantId}:${key}`, answer);
    return answer;
  }

  const server = http.createServer((request, response) => {
    handle(request)
      .then(({ status, body }) => {
        calls.push({ method: request.method ?? '', path: (request.url ?? '').split('?')[0] ?? '', status });
        sendJson(response, status, body);
      })
      .catch(() => sendJson(response, 500, problem(500, 'Internal Server Error', 'The fake failed.')));
  });
  const url = await listenOnLoopback(server, options.port);
  return {
    url,
    apiUrl: `${url}/api.xro/2.0`,
    connectionsUrl: `${url}/connections`,
    journals: (tenantId) => journals.filter((journal) => tenantId === undefined || journal.tenantId === tenantId),
    calls,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export interface DemoXero {
  /** Xero as the server reaches it (without a token key: the data directory's on a loopback demo). */
  setting: Omit<XeroSetting, 'tokenKey'>;
  identity: XeroIdentity;
  api: XeroFakeApi;
  stop: () => Promise<void>;
}

/**
 * The whole stand-in for Xero that `npm start` runs on a loopback address without XERO_CLIENT_ID: the authorization
 * server and the accounting API, with the app registered for its callback at `publicUrl`.
 */
export async function startDemoXero(options: {
  publicUrl: string;
  organisations?: readonly FakeOrganisation[];
  accessTokenTtlSeconds?: number;
  scopes?: string;
}): Promise<DemoXero> {
  const organisations = options.organisations ?? DEMO_XERO_ORGANISATIONS;
  const redirectUri = `${options.publicUrl}${XERO_CALLBACK_PATH}`;
  const identity = await startXeroIdentity({
    redirectUris: [redirectUri],
    organisations: organisations.map(({ tenantId, name }) => ({ tenantId, name })),
    ...(options.accessTokenTtlSeconds === undefined ? {} : { accessTokenTtlSeconds: options.accessTokenTtlSeconds }),
  });
  const api = await startXeroFakeApi({ identity, organisations });
  return {
    setting: {
      clientId: identity.clientId,
      clientSecret: identity.clientSecret,
      authorizeUrl: identity.authorizeUrl,
      tokenUrl: identity.tokenUrl,
      revokeUrl: identity.revokeUrl,
      connectionsUrl: api.connectionsUrl,
      apiUrl: api.apiUrl,
      redirectUri,
      scopes: options.scopes ?? XERO_DEFAULT_SCOPES,
    },
    identity,
    api,
    stop: async () => {
      await api.stop();
      await identity.stop();
    },
  };
}
