import type { XeroSetting } from '../config.js';
import { XERO_TIMEOUT_MS } from './oauth.js';

/**
 * The calls of Xero's accounting API the integration makes: the connections (tenants) of an access token, the
 * organisation, its accounts and tax rates, manual journals and sales invoices. Every call but /connections names its tenant in
 * `xero-tenant-id`. Errors carry the status and Xero's validation messages, never the token.
 */

export interface XeroTenantConnection {
  id: string;
  tenantId: string;
  tenantType: string;
  tenantName: string;
  createdDateUtc: string;
}

export interface XeroOrganisation {
  name: string;
  baseCurrency: string | null;
}

export interface XeroAccount {
  code: string | undefined;
  name: string;
  type: string;
  status: string;
  taxType: string | undefined;
  systemAccount: string | undefined;
}

export interface XeroTaxRate {
  taxType: string;
  name: string;
  status: string;
  canApplyToRevenue: boolean;
  effectiveRate: number | undefined;
}

export interface ManualJournalLine {
  LineAmount: number;
  AccountCode: string;
  Description: string;
  TaxType?: string;
}

export interface ManualJournal {
  Narration: string;
  Date: string;
  Status: 'POSTED';
  LineAmountTypes: 'Inclusive' | 'Exclusive' | 'NoTax';
  JournalLines: ManualJournalLine[];
}

export interface InvoiceLineItem {
  Description: string;
  Quantity: number;
  UnitAmount: number;
  AccountCode: string;
  TaxType: string;
}

/**
 * A sales invoice as Xero's Invoices endpoint takes it: the contact by name (Xero uses the contact of that name, or
 * makes one), dates as YYYY-MM-DD, amounts exclusive of tax (Xero adds the tax of each line's tax type), and no
 * InvoiceNumber (Xero gives the next of the organisation's invoice settings).
 */
export interface SalesInvoice {
  Type: 'ACCREC';
  Contact: { Name: string };
  Date: string;
  DueDate: string;
  LineAmountTypes: 'Exclusive';
  LineItems: InvoiceLineItem[];
  CurrencyCode: string;
  Reference: string;
  Status: 'AUTHORISED';
}

/**
 * A sales credit note as Xero's CreditNotes endpoint takes it: as a sales invoice, of type ACCRECCREDIT and
 * without a due date; Xero gives the next credit note number.
 */
export interface SalesCreditNote {
  Type: 'ACCRECCREDIT';
  Contact: { Name: string };
  Date: string;
  LineAmountTypes: 'Exclusive';
  LineItems: InvoiceLineItem[];
  CurrencyCode: string;
  Reference: string;
  Status: 'AUTHORISED';
}

/** What Xero made of an invoice: its id and number. */
export interface MadeInvoice {
  invoiceId: string;
  invoiceNumber: string;
}

/**
 * A call Xero refused or that did not reach it. `refused`: Xero answered that the request itself is wrong (400),
 * so nothing was created and the same request would be refused again; otherwise the outcome may be unknown.
 */
export class XeroApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly messages: readonly string[] = [],
  ) {
    super(message);
    this.name = 'XeroApiError';
  }

  get refused(): boolean {
    return this.status === 400;
  }
}

/** What a posting records when Xero refused it or could not be reached: the reason and whether to send a new key. */
export interface FailedPosting {
  status: 'failed';
  /** Xero's messages (else the error's), at most 1,000 characters. */
  message: string;
  /** Xero refused the request itself: the next attempt sends a new Idempotency-Key. */
  newKey: boolean;
}

/** A failed call to Xero as a posting's outcome; anything other than a XeroApiError is thrown again. */
export function failedPosting(error: unknown): FailedPosting {
  if (!(error instanceof XeroApiError)) throw error;
  const reason = error.messages.length > 0 ? error.messages.join(' ') : error.message;
  return { status: 'failed', message: reason.slice(0, 1000), newKey: error.refused };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Xero's validation messages of a 400 answer (`Elements[].ValidationErrors[].Message`, or `Message`). */
function validationMessagesOf(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { Elements, Message, Detail } = body as { Elements?: unknown; Message?: unknown; Detail?: unknown };
  const messages: string[] = [];
  if (Array.isArray(Elements)) {
    for (const element of Elements) {
      const errors = (element as { ValidationErrors?: unknown }).ValidationErrors;
      if (!Array.isArray(errors)) continue;
      for (const error of errors) {
        const message = text((error as { Message?: unknown }).Message);
        if (message) messages.push(message.slice(0, 300));
      }
    }
  }
  if (messages.length === 0) {
    const message = text(Message) ?? text(Detail);
    if (message) messages.push(message.slice(0, 300));
  }
  return messages;
}

async function call(
  url: string,
  accessToken: string,
  options: { tenantId?: string; method?: 'GET' | 'POST' | 'PUT'; body?: unknown; idempotencyKey?: string } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
  if (options.tenantId !== undefined) headers['xero-tenant-id'] = options.tenantId;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(XERO_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    throw new XeroApiError(`Xero could not be reached (${(error as Error).name})`, undefined);
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const messages = validationMessagesOf(body);
    const path = new URL(url).pathname;
    throw new XeroApiError(
      `Xero answered ${response.status} to ${options.method ?? 'GET'} ${path}${messages.length > 0 ? `: ${messages.join(' ')}` : ''}`,
      response.status,
      messages,
    );
  }
  return body;
}

/** The organisations (tenants) the access token may use, the most recently connected first. */
export async function listTenantConnections(
  setting: XeroSetting,
  accessToken: string,
): Promise<XeroTenantConnection[]> {
  const body = await call(setting.connectionsUrl, accessToken);
  const list = Array.isArray(body) ? body : [];
  return list
    .map((entry: Record<string, unknown>) => ({
      id: text(entry.id) ?? '',
      tenantId: text(entry.tenantId) ?? '',
      tenantType: text(entry.tenantType) ?? '',
      tenantName: text(entry.tenantName) ?? '',
      createdDateUtc: text(entry.createdDateUtc) ?? '',
    }))
    .filter((entry) => entry.tenantId !== '' && entry.tenantType === 'ORGANISATION')
    .sort((a, b) => b.createdDateUtc.localeCompare(a.createdDateUtc));
}

export async function readOrganisation(
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
): Promise<XeroOrganisation> {
  const body = (await call(`${setting.apiUrl}/Organisation`, accessToken, { tenantId })) as {
    Organisations?: Record<string, unknown>[];
  };
  const organisation = body?.Organisations?.[0];
  if (!organisation) throw new XeroApiError('Xero answered no organisation', 200);
  return { name: text(organisation.Name) ?? '', baseCurrency: text(organisation.BaseCurrency) ?? null };
}

export async function readAccounts(
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
): Promise<XeroAccount[]> {
  const body = (await call(`${setting.apiUrl}/Accounts`, accessToken, { tenantId })) as {
    Accounts?: Record<string, unknown>[];
  };
  return (body?.Accounts ?? []).map((account) => ({
    code: text(account.Code),
    name: text(account.Name) ?? '',
    type: text(account.Type) ?? '',
    status: text(account.Status) ?? '',
    taxType: text(account.TaxType),
    systemAccount: text(account.SystemAccount),
  }));
}

export async function readTaxRates(
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
): Promise<XeroTaxRate[]> {
  const body = (await call(`${setting.apiUrl}/TaxRates`, accessToken, { tenantId })) as {
    TaxRates?: Record<string, unknown>[];
  };
  return (body?.TaxRates ?? []).map((rate) => ({
    taxType: text(rate.TaxType) ?? '',
    name: text(rate.Name) ?? '',
    status: text(rate.Status) ?? '',
    canApplyToRevenue: rate.CanApplyToRevenue === true,
    effectiveRate: typeof rate.EffectiveRate === 'number' ? rate.EffectiveRate : undefined,
  }));
}

/** Posts one manual journal; answers Xero's ManualJournalID. */
export async function postManualJournal(
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
  journal: ManualJournal,
  idempotencyKey: string,
): Promise<string> {
  const body = (await call(`${setting.apiUrl}/ManualJournals`, accessToken, {
    tenantId,
    method: 'POST',
    body: { ManualJournals: [journal] },
    idempotencyKey,
  })) as { ManualJournals?: Record<string, unknown>[] };
  const id = text(body?.ManualJournals?.[0]?.ManualJournalID);
  if (!id) throw new XeroApiError('Xero answered no ManualJournalID', 200);
  return id;
}

/**
 * Creates one sales document (PUT /Invoices or /CreditNotes: creates only, never updates); answers the id and the
 * number Xero gave it (InvoiceID and InvoiceNumber, or CreditNoteID and CreditNoteNumber).
 */
async function createSalesDocument(
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
  resource: 'Invoices' | 'CreditNotes',
  document: SalesInvoice | SalesCreditNote,
  idempotencyKey: string,
): Promise<MadeInvoice> {
  const [idField, numberField] =
    resource === 'Invoices' ? ['InvoiceID', 'InvoiceNumber'] : ['CreditNoteID', 'CreditNoteNumber'];
  const body = (await call(`${setting.apiUrl}/${resource}`, accessToken, {
    tenantId,
    method: 'PUT',
    body: { [resource]: [document] },
    idempotencyKey,
  })) as Record<string, Record<string, unknown>[] | undefined>;
  const made = body?.[resource]?.[0];
  const invoiceId = text(made?.[idField]);
  const invoiceNumber = text(made?.[numberField]);
  if (!invoiceId || !invoiceNumber) throw new XeroApiError(`Xero answered no ${idField} and ${numberField}`, 200);
  return { invoiceId, invoiceNumber };
}

/** Creates one sales invoice; answers Xero's InvoiceID and the InvoiceNumber it gave. */
export const createInvoice = (
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
  invoice: SalesInvoice,
  idempotencyKey: string,
) => createSalesDocument(setting, accessToken, tenantId, 'Invoices', invoice, idempotencyKey);

/** Creates one sales credit note; answers Xero's CreditNoteID and CreditNoteNumber as an invoice's id and number. */
export const createCreditNote = (
  setting: XeroSetting,
  accessToken: string,
  tenantId: string,
  creditNote: SalesCreditNote,
  idempotencyKey: string,
) => createSalesDocument(setting, accessToken, tenantId, 'CreditNotes', creditNote, idempotencyKey);
