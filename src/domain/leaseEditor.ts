import { isValidDate } from './dateLimits';
import { formatDay, formatOutletLabel } from './format';
import {
  type LeaseTerms,
  leaseProblem,
  MAX_TIERS,
  type RentTier,
  TURNOVER_MODEL_LABELS,
  type TurnoverModel,
} from './leases';
import { earlierDay, laterDay } from './reports';

/**
 * The Leases page (Tenant Connect, issue 33): the list's filters and words, the editor's draft (what the user types)
 * and its checks, the request bodies made from it, the refusal of a save read from the server's 400, and the page's
 * messages (§8 style). The rules between a lease's fields are `leaseProblem` of domain/leases, which the server
 * applies too; the checks of each field alone here are the contract's (LeaseRequest).
 */

/* ---------------------------------------------------------------- the list */

export type LeaseStatus = 'upcoming' | 'current' | 'ended';
export type LeaseStatusFilter = LeaseStatus | 'all';
/** The expiring filter: leases ending, or with a notice date, within this many months. */
export type ExpiringMonths = 3 | 6 | 12;

export const LEASE_STATUS_LABELS: Readonly<Record<LeaseStatus, string>> = {
  current: 'Current',
  upcoming: 'Upcoming',
  ended: 'Ended',
};

export const LEASE_STATUS_FILTERS: readonly LeaseStatusFilter[] = ['all', 'current', 'upcoming', 'ended'];

export const LEASE_STATUS_FILTER_LABELS: Readonly<Record<LeaseStatusFilter, string>> = {
  all: 'Every status',
  ...LEASE_STATUS_LABELS,
};

export const isLeaseStatusFilter = (value: string): value is LeaseStatusFilter =>
  (LEASE_STATUS_FILTERS as readonly string[]).includes(value);

export const EXPIRING_MONTHS: readonly ExpiringMonths[] = [3, 6, 12];

/** The expiring select's value of 'any end date'. */
export const ANY_EXPIRY = 'any';

/** The expiring select's options: any end date, then each window. */
export const EXPIRING_OPTIONS: readonly { readonly value: string; readonly label: string }[] = [
  { value: ANY_EXPIRY, label: 'Any end date' },
  ...EXPIRING_MONTHS.map((months) => ({ value: String(months), label: `Expiring within ${months} months` })),
];

/** The expiring select's value as the filter: undefined for any end date, else the months; null when not one. */
export function parseExpiring(value: string): ExpiringMonths | undefined | null {
  if (value === ANY_EXPIRY) return undefined;
  const months = EXPIRING_MONTHS.find((candidate) => String(candidate) === value);
  return months ?? null;
}

/** The '{what}' of the list's failure toast. */
export const LEASES_WHAT = 'Leases fetching';

/** A lease as the page shows it (the contract's Lease). */
export interface LeaseRow extends LeaseTerms {
  readonly id: number;
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly outlet_code: string;
  readonly mall_id: number;
  readonly mall_name: string;
  readonly currency: string;
  readonly status: LeaseStatus;
}

/** The term of a lease: '1 Jan 2026 – 31 Dec 2028'. */
export function leaseTermText(lease: Pick<LeaseTerms, 'start_date' | 'end_date'>): string {
  return `${formatDay(lease.start_date)} – ${formatDay(lease.end_date)}`;
}

/** The turnover rent model by name. */
export function leaseModelLabel(model: TurnoverModel): string {
  return TURNOVER_MODEL_LABELS[model];
}

/** The status by name. */
export function leaseStatusLabel(status: LeaseStatus): string {
  return LEASE_STATUS_LABELS[status];
}

/** An outlet with its code, as the list names it: 'Kopi Corner · K-12' (the name alone without a code). */
export function leaseOutletText(lease: Pick<LeaseRow, 'outlet_name' | 'outlet_code'>): string {
  return lease.outlet_code.trim() === '' ? lease.outlet_name : `${lease.outlet_name} · ${lease.outlet_code}`;
}

/** A date of the lease that may be missing (notice, renewal): '3 Mar 2026', or '—'. */
export function optionalDayText(day: string | null | undefined): string {
  return day ? formatDay(day) : '—';
}

/* ---------------------------------------------------------------- the editor's draft */

/** An outlet the editor may give a new lease: one of the header's outlets of the selected malls. */
export interface LeaseOutlet {
  readonly id: number;
  readonly name: string;
  readonly code: string | null;
  readonly mallId: number | null;
  /** Its mall's name ('' when the header does not know it). */
  readonly mallName: string;
  readonly currency: string;
}

/** An outlet in the editor's choice: 'Kopi Corner (12) · Central'. */
export function leaseOutletOptionText(outlet: LeaseOutlet): string {
  const label = formatOutletLabel(outlet);
  return outlet.mallName === '' ? label : `${label} · ${outlet.mallName}`;
}

/** A tier as typed: its threshold and its rate in percent. */
export interface TierDraft {
  readonly from: string;
  readonly rate: string;
}

/** What the editor's fields hold, as typed. */
export interface LeaseDraft {
  /** The lease changed; undefined for a new one. */
  readonly id: number | undefined;
  readonly outletId: number | undefined;
  readonly startDate: string;
  readonly endDate: string;
  readonly gla: string;
  readonly baseRent: string;
  readonly serviceCharge: string;
  readonly model: TurnoverModel;
  readonly tiers: readonly TierDraft[];
  /** '' for none. */
  readonly noticeDate: string;
  /** '' for none. */
  readonly renewalDate: string;
}

/** The draft's text fields (the events that change them name these). */
export type LeaseTextField =
  | 'startDate'
  | 'endDate'
  | 'gla'
  | 'baseRent'
  | 'serviceCharge'
  | 'noticeDate'
  | 'renewalDate';

/**
 * Where a problem is shown: the request's field it is about, as the server names it ('end_date',
 * 'turnover_rent.tiers.1.from'), so a check of the draft and a refusal of the server land on the same field.
 */
export const LEASE_FIELD: Readonly<Record<LeaseTextField | 'outletId' | 'model' | 'tiers', string>> = {
  outletId: 'outlet_id',
  startDate: 'start_date',
  endDate: 'end_date',
  gla: 'gla_sqm',
  baseRent: 'base_rent',
  serviceCharge: 'service_charge',
  noticeDate: 'notice_date',
  renewalDate: 'renewal_date',
  model: 'turnover_rent.model',
  tiers: 'turnover_rent.tiers',
};

/** The field of a tier's threshold or rate. */
export function tierField(index: number, part: 'from' | 'rate'): string {
  return `turnover_rent.tiers.${index}.${part === 'from' ? 'from' : 'rate_percent'}`;
}

/** Problems by field (LEASE_FIELD, tierField); a field without a problem has no key. */
export type LeaseProblems = Readonly<Record<string, string>>;

/** The largest amount (the contract's Money) and area (GlaSqm). */
export const MAX_LEASE_AMOUNT = 999_999_999_999.99;
export const MAX_GLA_SQM = 1_000_000;

export const LEASE_FIELD_MESSAGES = {
  outlet: 'Please choose an outlet.',
  startDate: 'Please choose the start date.',
  endDate: 'Please choose the end date.',
  day: 'Please enter a day as YYYY-MM-DD.',
  gla: 'Enter an area above 0 m² with at most 2 decimals.',
  amount: 'Enter an amount of 0 or more with at most 2 decimals.',
  rate: 'Enter a rate from 0 to 100 with at most 2 decimals.',
  tiers: `A lease has 1 to ${MAX_TIERS} tiers.`,
} as const;

/** A number of at most 2 decimals as typed ('$' ',' and spaces dropped); undefined when it does not read. */
export function parseDecimal(text: string): number | undefined {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^(\d{1,13}(\.\d{0,2})?|\.\d{1,2})$/.test(cleaned)) return undefined;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : undefined;
}

const amountOf = (text: string): number | undefined => {
  const value = parseDecimal(text);
  return value !== undefined && value <= MAX_LEASE_AMOUNT ? value : undefined;
};

const glaOf = (text: string): number | undefined => {
  const value = parseDecimal(text);
  return value !== undefined && value > 0 && value <= MAX_GLA_SQM ? value : undefined;
};

const rateOf = (text: string): number | undefined => {
  const value = parseDecimal(text.trim().replace(/%$/, ''));
  return value !== undefined && value <= 100 ? value : undefined;
};

/** An optional day as typed: null for none, undefined when it is not a day. */
const optionalDay = (text: string): string | null | undefined => {
  const day = text.trim();
  if (day === '') return null;
  return isValidDate(day) ? day : undefined;
};

/** A new lease's draft: no outlet yet unless the malls have one, one tier from 0. */
export function newLeaseDraft(outlets: readonly LeaseOutlet[]): LeaseDraft {
  return {
    id: undefined,
    outletId: outlets.length === 1 ? outlets[0]?.id : undefined,
    startDate: '',
    endDate: '',
    gla: '',
    baseRent: '',
    serviceCharge: '',
    model: 'higher_of',
    tiers: [{ from: '0', rate: '' }],
    noticeDate: '',
    renewalDate: '',
  };
}

/** An amount as its field shows it: two decimals, no grouping (1234.5 → '1234.50'). */
const amountText = (value: number): string => value.toFixed(2);

/** The draft of a lease to change: its terms as the fields show them. */
export function leaseDraftOf(lease: LeaseRow): LeaseDraft {
  return {
    id: lease.id,
    outletId: lease.outlet_id,
    startDate: lease.start_date,
    endDate: lease.end_date,
    gla: String(lease.gla_sqm),
    baseRent: amountText(lease.base_rent),
    serviceCharge: amountText(lease.service_charge),
    model: lease.turnover_rent.model,
    tiers: lease.turnover_rent.tiers.map((tier) => ({ from: amountText(tier.from), rate: String(tier.rate_percent) })),
    noticeDate: lease.notice_date ?? '',
    renewalDate: lease.renewal_date ?? '',
  };
}

/** The draft with a text field changed. */
export function withLeaseText(draft: LeaseDraft, field: LeaseTextField, value: string): LeaseDraft {
  return { ...draft, [field]: value };
}

/** The draft with a tier's threshold or rate changed (an index of no tier changes nothing). */
export function withTierText(draft: LeaseDraft, index: number, part: 'from' | 'rate', value: string): LeaseDraft {
  if (!draft.tiers[index]) return draft;
  return { ...draft, tiers: draft.tiers.map((tier, at) => (at === index ? { ...tier, [part]: value } : tier)) };
}

/** Whether another tier may be added (at most MAX_TIERS). */
export const canAddTier = (draft: LeaseDraft): boolean => draft.tiers.length < MAX_TIERS;

/** Whether the tier at `index` may be removed (a lease keeps at least one). */
export const canRemoveTier = (draft: LeaseDraft, index: number): boolean =>
  draft.tiers.length > 1 && Number.isInteger(index) && index >= 0 && index < draft.tiers.length;

/** The draft with a tier added after the last (empty, to be typed). */
export function withTierAdded(draft: LeaseDraft): LeaseDraft {
  return canAddTier(draft) ? { ...draft, tiers: [...draft.tiers, { from: '', rate: '' }] } : draft;
}

/** The draft without the tier at `index`. */
export function withTierRemoved(draft: LeaseDraft, index: number): LeaseDraft {
  return canRemoveTier(draft, index) ? { ...draft, tiers: draft.tiers.filter((_, at) => at !== index) } : draft;
}

export const isTurnoverModel = (value: string): value is TurnoverModel => Object.hasOwn(TURNOVER_MODEL_LABELS, value);

/** The draft's tiers as numbers; undefined when one does not read. */
function tiersOf(draft: LeaseDraft): RentTier[] | undefined {
  const tiers: RentTier[] = [];
  for (const tier of draft.tiers) {
    const from = amountOf(tier.from);
    const rate = rateOf(tier.rate);
    if (from === undefined || rate === undefined) return undefined;
    tiers.push({ from, rate_percent: rate });
  }
  return tiers;
}

/**
 * What is wrong with the draft, by field: each field alone (an outlet chosen; the start and end days; an area above
 * 0; amounts of 0 or more; 1 to 10 tiers, each a threshold and a rate from 0 to 100; the optional notice and renewal
 * days), all with at most 2 decimals; then, once the start and end read, the first rule between fields the terms
 * break (leaseProblem, over the tiers and days that read), unless its field has a problem of its own already. Empty
 * when the draft may be saved.
 */
export function leaseDraftProblems(draft: LeaseDraft): LeaseProblems {
  const problems: Record<string, string> = {};
  const M = LEASE_FIELD_MESSAGES;
  if (draft.outletId === undefined) problems[LEASE_FIELD.outletId] = M.outlet;
  const start = draft.startDate.trim();
  const end = draft.endDate.trim();
  if (start === '') problems[LEASE_FIELD.startDate] = M.startDate;
  else if (!isValidDate(start)) problems[LEASE_FIELD.startDate] = M.day;
  if (end === '') problems[LEASE_FIELD.endDate] = M.endDate;
  else if (!isValidDate(end)) problems[LEASE_FIELD.endDate] = M.day;
  if (glaOf(draft.gla) === undefined) problems[LEASE_FIELD.gla] = M.gla;
  if (amountOf(draft.baseRent) === undefined) problems[LEASE_FIELD.baseRent] = M.amount;
  if (amountOf(draft.serviceCharge) === undefined) problems[LEASE_FIELD.serviceCharge] = M.amount;
  if (draft.tiers.length < 1 || draft.tiers.length > MAX_TIERS) problems[LEASE_FIELD.tiers] = M.tiers;
  draft.tiers.forEach((tier, index) => {
    if (amountOf(tier.from) === undefined) problems[tierField(index, 'from')] = M.amount;
    if (rateOf(tier.rate) === undefined) problems[tierField(index, 'rate')] = M.rate;
  });
  const notice = optionalDay(draft.noticeDate);
  const renewal = optionalDay(draft.renewalDate);
  if (notice === undefined) problems[LEASE_FIELD.noticeDate] = M.day;
  if (renewal === undefined) problems[LEASE_FIELD.renewalDate] = M.day;
  if (isValidDate(start) && isValidDate(end)) {
    // Thresholds or days that do not read yet stand aside (one tier from 0, no day), so the other rules still
    // speak; the rules read no rate.
    const froms = draft.tiers.map((tier) => amountOf(tier.from));
    const tiers = froms.every((from) => from !== undefined)
      ? froms.map((from) => ({ from: from ?? 0, rate_percent: 0 }))
      : undefined;
    const problem = leaseProblem({
      start_date: start,
      end_date: end,
      gla_sqm: 0,
      base_rent: 0,
      service_charge: 0,
      turnover_rent:
        tiers && tiers.length > 0
          ? { model: draft.model, tiers }
          : { model: 'higher_of', tiers: [{ from: 0, rate_percent: 0 }] },
      notice_date: notice ?? null,
      renewal_date: renewal ?? null,
    });
    if (problem && problems[problem.field] === undefined) problems[problem.field] = problem.message;
  }
  return problems;
}

/** Whether the draft may be saved. */
export const isLeaseDraftValid = (draft: LeaseDraft): boolean => Object.keys(leaseDraftProblems(draft)).length === 0;

/** The text a problem's field holds in the draft; undefined for a field that is not typed (the tiers' count). */
function fieldText(draft: LeaseDraft, field: string): string | undefined {
  const tier = /^turnover_rent\.tiers\.(\d+)\.(from|rate_percent)$/.exec(field);
  if (tier) {
    const row = draft.tiers[Number(tier[1])];
    return tier[2] === 'from' ? row?.from : row?.rate;
  }
  const key = (Object.keys(LEASE_FIELD) as (keyof typeof LEASE_FIELD)[]).find((name) => LEASE_FIELD[name] === field);
  if (key === undefined || key === 'tiers' || key === 'model') return undefined;
  if (key === 'outletId') return draft.outletId === undefined ? '' : String(draft.outletId);
  return draft[key];
}

/**
 * The problems the editor shows: those of the fields typed in (a field left blank says nothing until it holds
 * something, its label saying it is required) and those of the fields not typed (the tiers' count).
 */
export function shownLeaseProblems(draft: LeaseDraft, problems: LeaseProblems = leaseDraftProblems(draft)) {
  const shown: Record<string, string> = {};
  for (const [field, message] of Object.entries(problems)) {
    const text = fieldText(draft, field);
    if (text === undefined || text.trim() !== '') shown[field] = message;
  }
  return shown as LeaseProblems;
}

/** The body of POST and PUT /api/leases without the client and the lease's id (the contract's LeaseRequest). */
export interface LeaseBody {
  readonly outlet_id: number;
  readonly start_date: string;
  readonly end_date: string;
  readonly gla_sqm: number;
  readonly base_rent: number;
  readonly service_charge: number;
  readonly turnover_rent: { readonly model: TurnoverModel; readonly tiers: RentTier[] };
  readonly notice_date: string | null;
  readonly renewal_date: string | null;
}

/** The request's terms of a valid draft; undefined when the draft does not read. */
export function leaseBodyOf(draft: LeaseDraft): LeaseBody | undefined {
  if (!isLeaseDraftValid(draft) || draft.outletId === undefined) return undefined;
  const tiers = tiersOf(draft);
  const gla = glaOf(draft.gla);
  const baseRent = amountOf(draft.baseRent);
  const serviceCharge = amountOf(draft.serviceCharge);
  const notice = optionalDay(draft.noticeDate);
  const renewal = optionalDay(draft.renewalDate);
  if (!tiers || gla === undefined || baseRent === undefined || serviceCharge === undefined) return undefined;
  if (notice === undefined || renewal === undefined) return undefined;
  return {
    outlet_id: draft.outletId,
    start_date: draft.startDate.trim(),
    end_date: draft.endDate.trim(),
    gla_sqm: gla,
    base_rent: baseRent,
    service_charge: serviceCharge,
    turnover_rent: { model: draft.model, tiers },
    notice_date: notice,
    renewal_date: renewal,
  };
}

/** The terms of a lease as stored, as a request sends them again (only the contract's fields). */
export function leaseBodyOfLease(lease: LeaseRow): LeaseBody {
  return {
    outlet_id: lease.outlet_id,
    start_date: lease.start_date,
    end_date: lease.end_date,
    gla_sqm: lease.gla_sqm,
    base_rent: lease.base_rent,
    service_charge: lease.service_charge,
    turnover_rent: {
      model: lease.turnover_rent.model,
      tiers: lease.turnover_rent.tiers.map((tier) => ({ from: tier.from, rate_percent: tier.rate_percent })),
    },
    notice_date: lease.notice_date ?? null,
    renewal_date: lease.renewal_date ?? null,
  };
}

/* ---------------------------------------------------------------- ending a lease */

export const END_DAY_MESSAGES = {
  required: 'Please choose the last day.',
  afterEnd: (end: string) => `The last day must be on or before the lease’s end date, ${formatDay(end)}.`,
} as const;

/** The last day an End lease dialog offers first: today, within the lease's term. */
export function defaultEndDay(lease: Pick<LeaseTerms, 'start_date' | 'end_date'>, today: string | undefined): string {
  return earlierDay(laterDay(today ?? lease.end_date, lease.start_date), lease.end_date);
}

/**
 * Why a lease may not end on `day`: not a day; after its end date (ending shortens a lease; an edit lengthens it);
 * or a rule between the fields the lease would then break (before its start).
 */
export function endDayProblem(lease: LeaseRow, day: string): string | undefined {
  const trimmed = day.trim();
  if (trimmed === '') return END_DAY_MESSAGES.required;
  if (!isValidDate(trimmed)) return LEASE_FIELD_MESSAGES.day;
  if (trimmed > lease.end_date) return END_DAY_MESSAGES.afterEnd(lease.end_date);
  return leaseProblem(endLeaseBodyOf(lease, trimmed))?.message;
}

/**
 * The body that ends a lease on `day`: its terms as stored, with that end date, and without a notice or renewal
 * date that falls after it.
 */
export function endLeaseBodyOf(lease: LeaseRow, day: string): LeaseBody {
  const end = day.trim();
  const body = leaseBodyOfLease(lease);
  // A notice or renewal date after the new last day no longer applies: the lease ends before it.
  return {
    ...body,
    end_date: end,
    notice_date: body.notice_date !== null && body.notice_date > end ? null : body.notice_date,
    renewal_date: body.renewal_date !== null && body.renewal_date > end ? null : body.renewal_date,
  };
}

/** Whether a lease may be ended (one already ended may not). */
export const canEndLease = (lease: Pick<LeaseRow, 'status'>): boolean => lease.status !== 'ended';

/* ---------------------------------------------------------------- the server's refusal */

/** The fields of a lease's request the editor shows a problem at. */
const REFUSABLE = new Set(Object.values(LEASE_FIELD));
const TIER_FIELD = /^turnover_rent\.tiers\.\d+\.(from|rate_percent)$/;

/**
 * The field a 400's message names and the reason after it: the contract's check ('body/gla_sqm must be >= 0.01',
 * 'body/turnover_rent/tiers/1/rate_percent must be <= 100') or a rule's ('end_date: The end date must be on or after
 * the start date.', 'turnover_rent.tiers.1.from: ...'); undefined when it names no field of a lease (the client, the
 * lease's id) or none at all.
 */
export function leaseRefusalOf(message: string): { field: string; message: string } | undefined {
  const match = /^(?:body\/)?([a-z_]+(?:[./][a-z_0-9]+)*)(?::\s*|\s+)([\s\S]+)$/.exec(message.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const named = match[1].replaceAll('/', '.');
  const field = named === 'turnover_rent' ? LEASE_FIELD.tiers : named;
  if (!REFUSABLE.has(field) && !TIER_FIELD.test(field)) return undefined;
  return { field, message: match[2] };
}

/** Whether the editor has the field a refusal names (a tier it still has). */
export function draftHasField(draft: LeaseDraft, field: string): boolean {
  const tier = /^turnover_rent\.tiers\.(\d+)\./.exec(field);
  if (tier) return Number(tier[1]) < draft.tiers.length;
  return REFUSABLE.has(field);
}

/* ---------------------------------------------------------------- messages (§8 style) */

export const LEASE_ADD_FAILED_MESSAGE = 'Add lease failed.';

/** The toast of a lease added. */
export function leaseAddedMessage(outletName: string): string {
  return `Lease of ${outletName} has been added successfully.`;
}

/** The toast of a lease ended. */
export function leaseEndedMessage(outletName: string, day: string): string {
  return `${outletName}'s lease ends on ${formatDay(day)}.`;
}

/** The toast of a lease that could not be ended. */
export function leaseEndFailedMessage(outletName: string): string {
  return `End lease of ${outletName} failed.`;
}

/** The End lease dialog's question. */
export function endLeaseQuestion(lease: Pick<LeaseRow, 'outlet_name' | 'start_date' | 'end_date'>): string {
  return `End the lease of ${lease.outlet_name} (${leaseTermText(lease)})? Choose its last day.`;
}
