/**
 * The rules of the Outlet Code page (Shopper Connect) as pure functions, shared with the server: what a code is
 * once typed (trimmed; blank is none), which codes a draft changes, and where the server's refusal of a save points.
 */

/** The longest code (the contract's maxLength). */
export const OUTLET_CODE_MAX_LENGTH = 50;

/** A code as stored: trimmed; null for none (null, empty or blank). */
export function normaliseOutletCode(code: string | null | undefined): string | null {
  const trimmed = code?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** One outlet of the page's draft: its mall, its code as saved and as typed. */
export interface OutletCodeDraftRow {
  readonly outletId: number;
  readonly outletName: string;
  readonly mallId: number;
  readonly mallName: string;
  /** The code as the server has it (null: none). */
  readonly saved: string | null;
  /** The code as typed. */
  readonly text: string;
}

/** The codes of the outlets shown, as the editor edits them. */
export interface OutletCodeDraft {
  readonly clientId: number;
  readonly rows: readonly OutletCodeDraftRow[];
}

/** What the server answers for an outlet: its id, name, mall and code. */
export interface OutletCodeSource {
  readonly outlet_id: number;
  readonly outlet_name: string;
  readonly mall_id: number;
  readonly mall_name: string;
  readonly outlet_code: string | null;
}

/** The draft of the outlets shown, each code as saved. */
export function outletCodeDraftOf(clientId: number, rows: readonly OutletCodeSource[]): OutletCodeDraft {
  return {
    clientId,
    rows: rows.map((row) => ({
      outletId: row.outlet_id,
      outletName: row.outlet_name,
      mallId: row.mall_id,
      mallName: row.mall_name,
      saved: row.outlet_code,
      text: row.outlet_code ?? '',
    })),
  };
}

/** Whether the typed code differs from the saved one (surrounding spaces aside). */
export function isCodeChanged(row: Pick<OutletCodeDraftRow, 'saved' | 'text'>): boolean {
  return normaliseOutletCode(row.text) !== row.saved;
}

/** The codes a save sends: the outlets whose code changed, in the order shown; null clears a code. */
export function changedOutletCodes(draft: OutletCodeDraft): { outlet_id: number; outlet_code: string | null }[] {
  return draft.rows
    .filter(isCodeChanged)
    .map((row) => ({ outlet_id: row.outletId, outlet_code: normaliseOutletCode(row.text) }));
}

/** A code as typed that cannot be saved: too long, or holding a control character. */
export function outletCodeProblem(text: string): string | undefined {
  const code = normaliseOutletCode(text) ?? '';
  if (code.length > OUTLET_CODE_MAX_LENGTH) return `A code has at most ${OUTLET_CODE_MAX_LENGTH} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the contract refuses control characters.
  if (/[\x00-\x1F\x7F]/.test(code)) return 'A code cannot hold control characters.';
  return undefined;
}

/** Whether the draft may be saved: some code changed, and every code may be saved. */
export function isOutletCodeDraftValid(draft: OutletCodeDraft): boolean {
  return draft.rows.some(isCodeChanged) && draft.rows.every((row) => outletCodeProblem(row.text) === undefined);
}

/** The draft once saved: each code as the server keeps it. */
export function savedOutletCodeDraft(draft: OutletCodeDraft): OutletCodeDraft {
  return {
    ...draft,
    rows: draft.rows.map((row) => {
      const code = normaliseOutletCode(row.text);
      return { ...row, saved: code, text: code ?? '' };
    }),
  };
}

/**
 * The item of a save's `data` a 400 names (`data[2].outlet_code: "X" is already ...`): its index and the reason
 * after the field; undefined when the message names no item.
 */
export function refusedItemOf(message: string): { index: number; reason: string } | undefined {
  const match = /^data\[(\d+)\]\.outlet_(?:code|id): ([\s\S]+)$/.exec(message);
  if (!match?.[1] || !match[2]) return undefined;
  return { index: Number(match[1]), reason: match[2] };
}

/** A refused save as the page shows it: at the outlet's field when the server named one, else above the table. */
export interface OutletCodeRefusal {
  /** The outlet whose code was refused; undefined when the refusal names none. */
  readonly outletId: number | undefined;
  /** The code as typed when it was refused. */
  readonly text: string | undefined;
  readonly message: string;
}

/** The refusal of the field of `row`, while the row still holds the code that was refused. */
export function refusalAt(
  row: Pick<OutletCodeDraftRow, 'outletId' | 'text'>,
  refusal: OutletCodeRefusal | undefined,
): string | undefined {
  return refusal?.outletId === row.outletId && refusal.text === row.text ? refusal.message : undefined;
}

/** Why the search, the sort, the pager and the malls wait while codes are changed. */
export const OUTLET_CODES_HELD_MESSAGE =
  'Save or cancel the changed codes to search, sort, page or choose other malls.';
