import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { XERO_CALLBACK_PATH, XERO_DEFAULT_SCOPES, type XeroSetting } from '../config.js';
import { listenOnLoopback } from './loopback.js';
import { startXeroIdentity, type VerifiedToken, type XeroIdentity } from './xeroIdentity.js';

/**
 * The demo's stand-in for Xero's accounting API (api.xero.com), on the loopback interface: GET /connections,
 * GET /api.xro/2.0/Organisation, Accounts and TaxRates, POST (and GET) /api.xro/2.0/ManualJournals, and PUT, POST
 * (to create) and GET /api.xro/2.0/Invoices and CreditNotes. Every call needs a bearer token that the demo's authorization server
 * (xeroIdentity.ts) issued, has not expired and carries the call's scope (401 otherwise), and every call but
 * /connections an `xero-tenant-id` of one of the token's organisations (400 when missing or not a GUID, 403 when not
 * connected). A manual journal is checked the way Xero does (400 with a ValidationException naming each problem): a
 * narration, a date, a known status, at least two lines, each with a number amount and an active account that is
 * not a system account, known tax types, and debits equal to credits. So is an invoice: a known type, a contact by
 * ContactID or by Name (the organisation's contact of that name, else a new one), valid dates, a known status, a
 * due date and at least one line once submitted or approved, each line with a description, number quantity and
 * unit amount, an active account that is not a bank or system account and a tax type that applies to the
 * invoice's side, the organisation's currency, a unique invoice number (the next INV-0001 style number when none is
 * given), and a total that is not negative; a credit note likewise, of a credit type, without a due date, numbered
 * CN-0001 style. An Idempotency-Key seen before answers what its request made. The
 * journals, invoices and contacts are kept, so that tests can count them.
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

export interface FakeContact {
  ContactID: string;
  tenantId: string;
  Name: string;
}

export interface FakeInvoiceLine {
  LineItemID: string;
  Description: string;
  Quantity: number;
  UnitAmount: number;
  LineAmount: number;
  AccountCode: string;
  AccountID: string;
  TaxType: string;
  TaxAmount: number;
}

export interface FakeInvoice {
  InvoiceID: string;
  InvoiceNumber: string;
  tenantId: string;
  /** ACCREC and ACCPAY are invoices; ACCRECCREDIT and ACCPAYCREDIT credit notes (their id and number likewise). */
  Type: 'ACCREC' | 'ACCPAY' | 'ACCRECCREDIT' | 'ACCPAYCREDIT';
  Contact: { ContactID: string; Name: string };
  /** YYYY-MM-DD. */
  Date: string;
  DueDate: string | undefined;
  Status: 'DRAFT' | 'SUBMITTED' | 'AUTHORISED';
  LineAmountTypes: 'Inclusive' | 'Exclusive' | 'NoTax';
  LineItems: FakeInvoiceLine[];
  CurrencyCode: string;
  Reference: string;
  SubTotal: number;
  TotalTax: number;
  Total: number;
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
  /** The invoices made, of one organisation or all. */
  invoices: (tenantId?: string) => readonly FakeInvoice[];
  /** The credit notes made (kept as invoices of a credit type), of one organisation or all. */
  creditNotes: (tenantId?: string) => readonly FakeInvoice[];
  /** The contacts the invoices named (found or made by name), of one organisation or all. */
  contacts: (tenantId?: string) => readonly FakeContact[];
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

/**
 * What differs between the two documents the stand-in makes: an invoice (PUT or POST /Invoices) and a credit note
 * (PUT or POST /CreditNotes, which has no due date and its own numbers, CN-0001 style).
 */
interface DocumentKind {
  readonly resource: 'Invoices' | 'CreditNotes';
  readonly what: 'invoice' | 'credit note';
  readonly types: ReadonlySet<string>;
  /** The sales type, whose numbers are unique and given in sequence. */
  readonly salesType: 'ACCREC' | 'ACCRECCREDIT';
  readonly idField: 'InvoiceID' | 'CreditNoteID';
  readonly numberField: 'InvoiceNumber' | 'CreditNoteNumber';
  readonly numberPrefix: 'INV' | 'CN';
  readonly needsDueDate: boolean;
}

const INVOICE_KIND: DocumentKind = {
  resource: 'Invoices',
  what: 'invoice',
  types: new Set(['ACCREC', 'ACCPAY']),
  salesType: 'ACCREC',
  idField: 'InvoiceID',
  numberField: 'InvoiceNumber',
  numberPrefix: 'INV',
  needsDueDate: true,
};

const CREDIT_NOTE_KIND: DocumentKind = {
  resource: 'CreditNotes',
  what: 'credit note',
  types: new Set(['ACCRECCREDIT', 'ACCPAYCREDIT']),
  salesType: 'ACCRECCREDIT',
  idField: 'CreditNoteID',
  numberField: 'CreditNoteNumber',
  numberPrefix: 'CN',
  needsDueDate: false,
};

const INVOICE_STATUSES = new Set(['DRAFT', 'SUBMITTED', 'AUTHORISED']);
const AMOUNT_TYPES = new Set(['Inclusive', 'Exclusive', 'NoTax']);
/** Account types no invoice line may use, besides system accounts. */
const NOT_FOR_INVOICES = new Set(['BANK']);

interface CheckedInvoice {
  invoice?: Omit<
    FakeInvoice,
    'InvoiceID' | 'InvoiceNumber' | 'tenantId' | 'Contact' | 'idempotencyKey' | 'createdAt'
  > & {
    InvoiceNumber: string | undefined;
    Contact: { ContactID?: string; Name?: string };
  };
  messages: string[];
}

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max;

/** Checks one invoice or credit note of a PUT or POST the way Xero does; the messages name each problem. */
function checkInvoice(
  input: unknown,
  organisation: FakeOrganisation,
  known: { contacts: readonly FakeContact[]; invoices: readonly FakeInvoice[] },
  kind: DocumentKind = INVOICE_KIND,
): CheckedInvoice {
  const what = kind.what;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { messages: [what === 'invoice' ? 'An invoice must be an object.' : 'A credit note must be an object.'] };
  }
  const raw = input as Record<string, unknown>;
  const messages: string[] = [];
  if (raw[kind.idField] !== undefined) messages.push(`Updating a ${what} is not supported by the stand-in.`);
  const type = raw.Type;
  if (type === undefined) messages.push(`${what === 'invoice' ? 'Invoice' : 'Credit note'} Type is required.`);
  else if (typeof type !== 'string' || !kind.types.has(type))
    messages.push(`'${String(type)}' is not a valid ${what} type.`);
  const contact = raw.Contact as Record<string, unknown> | undefined;
  let contactRef: { ContactID?: string; Name?: string } = {};
  if (typeof contact !== 'object' || contact === null || Array.isArray(contact)) {
    messages.push('A Contact must be specified for this type of transaction.');
  } else if (contact.ContactID !== undefined) {
    const found =
      typeof contact.ContactID === 'string'
        ? known.contacts.find((candidate) => candidate.ContactID === contact.ContactID)
        : undefined;
    if (!found) messages.push('The contact with the specified ContactID could not be found.');
    else contactRef = { ContactID: found.ContactID };
  } else if (!isText(contact.Name, 255)) {
    messages.push(
      'A Contact must be specified for this type of transaction: a ContactID, or a Name of 255 characters or less.',
    );
  } else {
    contactRef = { Name: contact.Name.trim() };
  }
  const date = raw.Date ?? new Date().toISOString().slice(0, 10);
  if (typeof date !== 'string' || !isDay(date)) messages.push('Date must be a valid date (YYYY-MM-DD).');
  const dueDate = raw.DueDate;
  if (dueDate !== undefined && (typeof dueDate !== 'string' || !isDay(dueDate))) {
    messages.push('DueDate must be a valid date (YYYY-MM-DD).');
  }
  const status = raw.Status ?? 'DRAFT';
  if (typeof status !== 'string' || !INVOICE_STATUSES.has(status)) {
    messages.push(`'${String(status)}' is not a valid invoice status.`);
  }
  const approved = status === 'SUBMITTED' || status === 'AUTHORISED';
  if (approved && kind.needsDueDate && dueDate === undefined) {
    messages.push('Due Date is required for a submitted or approved invoice.');
  }
  const lineAmountTypes = raw.LineAmountTypes ?? 'Exclusive';
  if (typeof lineAmountTypes !== 'string' || !AMOUNT_TYPES.has(lineAmountTypes)) {
    messages.push(`'${String(lineAmountTypes)}' is not a valid LineAmountTypes.`);
  }
  const currency = raw.CurrencyCode ?? organisation.baseCurrency;
  if (currency !== organisation.baseCurrency)
    messages.push(`Organisation is not subscribed to currency ${String(currency)}`);
  const reference = raw.Reference ?? '';
  if (typeof reference !== 'string' || reference.length > 255) {
    messages.push('Reference must be text of 255 characters or less.');
  }
  const number = raw[kind.numberField];
  if (number !== undefined && !isText(number, 255)) {
    messages.push(`${kind.numberField} must be text of 255 characters or less.`);
  } else if (
    type === kind.salesType &&
    typeof number === 'string' &&
    known.invoices.some((invoice) => invoice.Type === kind.salesType && invoice.InvoiceNumber === number)
  ) {
    messages.push(`${what === 'invoice' ? 'Invoice' : 'Credit note'} # must be unique.`);
  }
  const lines = raw.LineItems ?? [];
  const checkedLines: FakeInvoiceLine[] = [];
  if (!Array.isArray(lines)) {
    messages.push('LineItems must be a list of line items.');
  } else {
    if (approved && lines.length === 0)
      messages.push(`A submitted or approved ${what} must have at least one line item.`);
    lines.forEach((line: unknown, index) => {
      const where = `Line item ${index + 1}`;
      if (typeof line !== 'object' || line === null || Array.isArray(line)) {
        messages.push(`${where} must be an object.`);
        return;
      }
      const { Description, Quantity = 1, UnitAmount, AccountCode, TaxType } = line as Record<string, unknown>;
      if (!isText(Description, 4000)) messages.push(`${where}: Description is required, 4000 characters or less.`);
      if (typeof Quantity !== 'number' || !Number.isFinite(Quantity))
        messages.push(`${where}: Quantity must be a number.`);
      if (typeof UnitAmount !== 'number' || !Number.isFinite(UnitAmount)) {
        messages.push(`${where}: UnitAmount must be a number.`);
      }
      const found = organisation.accounts.find((candidate) => candidate.Code === AccountCode);
      if (AccountCode === undefined) {
        if (approved) messages.push(`${where}: Account code must be specified for a submitted or approved invoice.`);
      } else if (
        typeof AccountCode !== 'string' ||
        found?.Status !== 'ACTIVE' ||
        found.SystemAccount ||
        NOT_FOR_INVOICES.has(found.Type)
      ) {
        messages.push(`Account code '${String(AccountCode)}' is not a valid code for this document.`);
      }
      const tax = TaxType === undefined ? undefined : organisation.taxRates.find((rate) => rate.TaxType === TaxType);
      if (
        TaxType !== undefined &&
        (typeof TaxType !== 'string' || tax?.Status !== 'ACTIVE' || (type === kind.salesType && !tax.CanApplyToRevenue))
      ) {
        messages.push(
          `TaxType code '${String(TaxType)}' does not exist or cannot be used for this type of transaction.`,
        );
      }
      if (typeof Quantity === 'number' && typeof UnitAmount === 'number' && typeof Description === 'string') {
        const lineAmount = money(Quantity * UnitAmount);
        const taxType = tax?.TaxType ?? found?.TaxType ?? 'NONE';
        const rate = organisation.taxRates.find((candidate) => candidate.TaxType === taxType)?.EffectiveRate ?? 0;
        checkedLines.push({
          LineItemID: randomUUID(),
          Description,
          Quantity,
          UnitAmount,
          LineAmount: lineAmount,
          AccountCode: found?.Code ?? '',
          AccountID: found?.AccountID ?? '',
          TaxType: taxType,
          TaxAmount:
            lineAmountTypes === 'Exclusive'
              ? money((lineAmount * rate) / 100)
              : lineAmountTypes === 'Inclusive'
                ? money((lineAmount * rate) / (100 + rate))
                : 0,
        });
      }
    });
  }
  const lineTotal = money(checkedLines.reduce((sum, line) => sum + line.LineAmount, 0));
  const totalTax = money(checkedLines.reduce((sum, line) => sum + line.TaxAmount, 0));
  const subTotal = lineAmountTypes === 'Inclusive' ? money(lineTotal - totalTax) : lineTotal;
  const total = money(subTotal + totalTax);
  if (messages.length === 0 && total < 0) messages.push(`The ${what} total must not be negative.`);
  if (messages.length > 0) return { messages };
  return {
    messages,
    invoice: {
      Type: type as FakeInvoice['Type'],
      InvoiceNumber: typeof number === 'string' ? number : undefined,
      Contact: contactRef,
      Date: String(date).slice(0, 10),
      DueDate: typeof dueDate === 'string' ? dueDate.slice(0, 10) : undefined,
      Status: status as FakeInvoice['Status'],
      LineAmountTypes: lineAmountTypes as FakeInvoice['LineAmountTypes'],
      LineItems: checkedLines,
      CurrencyCode: String(currency),
      Reference: String(reference),
      SubTotal: subTotal,
      TotalTax: totalTax,
      Total: total,
    },
  };
}

function invoiceAnswer(invoice: FakeInvoice, kind: DocumentKind = INVOICE_KIND) {
  return {
    Type: invoice.Type,
    [kind.idField]: invoice.InvoiceID,
    [kind.numberField]: invoice.InvoiceNumber,
    Reference: invoice.Reference,
    Contact: { ContactID: invoice.Contact.ContactID, Name: invoice.Contact.Name, ContactStatus: 'ACTIVE' },
    Date: xeroDate(`${invoice.Date}T00:00:00Z`),
    DateString: `${invoice.Date}T00:00:00`,
    ...(invoice.DueDate
      ? { DueDate: xeroDate(`${invoice.DueDate}T00:00:00Z`), DueDateString: `${invoice.DueDate}T00:00:00` }
      : {}),
    Status: invoice.Status,
    LineAmountTypes: invoice.LineAmountTypes,
    LineItems: invoice.LineItems,
    SubTotal: invoice.SubTotal,
    TotalTax: invoice.TotalTax,
    Total: invoice.Total,
    AmountDue: invoice.Total,
    AmountPaid: 0,
    AmountCredited: 0,
    CurrencyCode: invoice.CurrencyCode,
    CurrencyRate: 1,
    SentToContact: false,
    HasAttachments: false,
    HasErrors: false,
    UpdatedDateUTC: xeroDate(invoice.createdAt),
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
  Invoices: 'accounting.transactions',
  CreditNotes: 'accounting.transactions',
};

export async function startXeroFakeApi(options: XeroFakeApiOptions): Promise<XeroFakeApi> {
  const organisations = options.organisations ?? DEMO_XERO_ORGANISATIONS;
  const journals: FakeJournal[] = [];
  const invoices: FakeInvoice[] = [];
  const creditNotes: FakeInvoice[] = [];
  const contacts: FakeContact[] = [];
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
    if (resource === 'Invoices' && readOnly) {
      return {
        status: 200,
        body: envelope({ Invoices: invoices.filter((i) => i.tenantId === tenantId).map((i) => invoiceAnswer(i)) }),
      };
    }
    if (resource === 'CreditNotes' && readOnly) {
      const mine = creditNotes.filter((note) => note.tenantId === tenantId);
      return {
        status: 200,
        body: envelope({ CreditNotes: mine.map((note) => invoiceAnswer(note, CREDIT_NOTE_KIND)) }),
      };
    }
    const writes =
      (resource === 'ManualJournals' && request.method === 'POST') ||
      ((resource === 'Invoices' || resource === 'CreditNotes') &&
        (request.method === 'PUT' || request.method === 'POST'));
    if (!writes) {
      return { status: 405, body: problem(405, 'Method Not Allowed', `${request.method} is not supported here.`) };
    }

    const key = request.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > 128)) {
      return { status: 400, body: validationError({}, ['The Idempotency-Key header must be 1 to 128 characters.']) };
    }
    const answeredKey = typeof key === 'string' ? `${tenantId}:${resource}:${key}` : undefined;
    const replay = answeredKey === undefined ? undefined : answered.get(answeredKey);
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
    if (resource === 'Invoices' || resource === 'CreditNotes') {
      const kind = resource === 'Invoices' ? INVOICE_KIND : CREDIT_NOTE_KIND;
      const answer = makeInvoices(organisation, parsed, typeof key === 'string' ? key : undefined, kind);
      if (answeredKey !== undefined && answer.status === 200) answered.set(answeredKey, answer);
      return answer;
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
    if (answeredKey !== undefined) answered.set(answeredKey, answer);
    return answer;
  }

  /** The invoices (or credit notes) of a PUT or POST: all made, or none when one is refused (400 naming its problems). */
  function makeInvoices(
    organisation: FakeOrganisation,
    parsed: unknown,
    key: string | undefined,
    kind: DocumentKind,
  ): { status: number; body: unknown } {
    const { tenantId } = organisation;
    const kept = kind === INVOICE_KIND ? invoices : creditNotes;
    const listed =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[kind.resource] : undefined;
    const inputs = Array.isArray(listed) ? (listed as unknown[]) : [parsed];
    if (inputs.length === 0) return { status: 400, body: validationError({}, [`No ${kind.what} was sent.`]) };
    const known = {
      contacts: contacts.filter((contact) => contact.tenantId === tenantId),
      invoices: kept.filter((invoice) => invoice.tenantId === tenantId),
    };
    const checked = inputs.map((input) => checkInvoice(input, organisation, known, kind));
    const refused = checked.findIndex((result) => result.messages.length > 0);
    if (refused >= 0) return { status: 400, body: validationError(inputs[refused], checked[refused]?.messages ?? []) };
    const made = checked.map((result): FakeInvoice => {
      const { Contact, InvoiceNumber, ...invoice } = result.invoice as NonNullable<CheckedInvoice['invoice']>;
      const name = Contact.Name?.toLowerCase();
      let contact = contacts.find(
        (candidate) =>
          candidate.tenantId === tenantId &&
          (candidate.ContactID === Contact.ContactID || candidate.Name.toLowerCase() === name),
      );
      if (!contact) {
        contact = { ContactID: randomUUID(), tenantId, Name: Contact.Name ?? '' };
        contacts.push(contact);
      }
      const numbered = kept.filter((candidate) => candidate.tenantId === tenantId && candidate.Type === kind.salesType);
      const next = `${kind.numberPrefix}-${String(numbered.length + 1).padStart(4, '0')}`;
      const made: FakeInvoice = {
        ...invoice,
        InvoiceID: randomUUID(),
        InvoiceNumber: InvoiceNumber ?? (invoice.Type === kind.salesType ? next : ''),
        tenantId,
        Contact: { ContactID: contact.ContactID, Name: contact.Name },
        idempotencyKey: key,
        createdAt: new Date().toISOString(),
      };
      kept.push(made);
      return made;
    });
    return { status: 200, body: envelope({ [kind.resource]: made.map((one) => invoiceAnswer(one, kind)) }) };
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
    invoices: (tenantId) => invoices.filter((invoice) => tenantId === undefined || invoice.tenantId === tenantId),
    creditNotes: (tenantId) => creditNotes.filter((note) => tenantId === undefined || note.tenantId === tenantId),
    contacts: (tenantId) => contacts.filter((contact) => tenantId === undefined || contact.tenantId === tenantId),
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
