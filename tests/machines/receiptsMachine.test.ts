import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Actor,
  createActor,
  type EventFromLogic,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  setup,
} from 'xstate';
import type { ReceiptRow, ReceiptSummary, TransactionQuery } from '../../src/api/receipts';
import type { Notice } from '../../src/domain/messages';
import {
  type ReceiptsFilters,
  type ReceiptsListQuery,
  type ReceiptsPdfQuery,
  receiptsListChoices,
  receiptsPdfProgress,
  transactionQueryOf,
} from '../../src/domain/receipts';
import type { PagedListAnswer } from '../../src/machines/factories/pagedListMachine';
import {
  type PaymentsInput,
  type ReceiptsEvent,
  receiptsListMachine,
  receiptsMachine,
} from '../../src/machines/receiptsMachine';
import { describeModelCoverage } from './modelCoverage';
import { modelStateId } from './modelStateIds';

/*
 * Model-based test of the receipts machine (§4, §7, §8) against a fake server: outlet 1 reports every receipt
 * type and the methods VISA and CASH and has 25 receipts (3 pages of 10); outlet 2 reports only void receipts;
 * outlet 3 answers every call with a 500; outlet 4 has 12,345 receipts, more than a PDF holds. The model names
 * what a user sees: which page, which sort, which receipt type and payment methods are selected, the failure
 * (toast, empty list, totals 0), and the PDF: asked for without paging, its progress, the cap notice.
 */

const FILTERS = (outlet: number): ReceiptsFilters => ({
  clientId: 1,
  outletIds: String(outlet),
  outletType: outlet === 1 ? 1 : 2,
  startTime: '2026-03-01',
  endTime: '2026-03-07',
});
const FLAGS: Record<string, string[]> = {
  '1': ['opened_bill', 'void', 'foc_bill', 'discount', 'redeem'],
  '2': ['void'],
};
const METHODS: Record<string, string[]> = { '1': ['CASH', 'VISA'], '2': ['VISA'] };
const TOTAL = 25;
const BIG_TOTAL = 12_345;
const totalOf = (outletIds: string) => (outletIds === '4' ? BIG_TOTAL : TOTAL);

function row(index: number): ReceiptRow {
  return {
    id: index,
    outlet_id: 1,
    has_image: true,
    datetime: '2026-03-01 10:00:00',
    time: '10:00:00',
    dine_out_time: null,
    receipt_id: `R-${index}`,
    receipt_status: 'Closed',
    payment_method: 'VISA',
    total_amount: index,
    discount: 0,
    opened_bill: false,
    void: false,
    closed_bill: true,
    foc_bill: false,
    redeem_bill: false,
  };
}

let queries: TransactionQuery[];
let pdfQueries: ReceiptsPdfQuery[];
let linkQueries: ReceiptsPdfQuery[];
/** Answers the PDF download the machine started (progress, done, failed). */
let pdfSendBack: ((event: ReceiptsEvent) => void) | undefined;
let paymentQueries: PaymentsInput[];
let notices: Notice[];
let actor: Actor<typeof receiptsMachine>;

const fail = (id: string) => {
  if (id === '3') throw new Error('500');
};
const testMachine = receiptsMachine.provide({
  actors: {
    fetchOptions: fromPromise(async ({ input }: { input: { clientId: number; outletIds: string } }) => {
      fail(input.outletIds);
      return {
        typeFlags: FLAGS[input.outletIds] ?? [],
        focReasons: ['Birthday'],
        paymentMethods: METHODS[input.outletIds] ?? [],
      };
    }),
    receiptsList: receiptsListMachine.provide({
      actors: {
        fetchPage: fromPromise<PagedListAnswer<ReceiptRow, ReceiptSummary>, ReceiptsListQuery>(
          async ({ input: listQuery }) => {
            const input = transactionQueryOf(receiptsListChoices(listQuery));
            if (!input) throw new Error('no filters');
            queries.push(input);
            fail(input.id);
            const page = input.page ?? 1;
            const size = input.rowsPerPage ?? 10;
            const total = totalOf(input.id);
            const count = Math.max(0, Math.min(size, total - (page - 1) * size));
            const summary = { total, void_count: 0, sum: 325, discount: 0 };
            return {
              rows: Array.from({ length: count }, (_, i) => row((page - 1) * size + i + 1)),
              total,
              summary,
            };
          },
        ),
      },
    }),
    fetchPayments: fromPromise(async ({ input }: { input: PaymentsInput }) => {
      paymentQueries.push(input);
      fail(input.filters.outletIds);
      return {
        summary: [{ payment_method: 'VISA', sum: 325, processing_fees: 2, net_amount: 318.5 }],
        breakdown: [{ payment_method: 'VISA', sum: 325, data: [{ key: '2026/03/01', value: 325 }] }],
      };
    }),
    fetchImage: fromPromise(
      async ({ input }: { input: { clientId: number; outletIds: string; receiptId: string } }) => {
        if (input.receiptId === 'missing') throw new Error('404');
        return `data:image/png;base64,${input.receiptId}`;
      },
    ),
    generatePdf: fromCallback<ReceiptsEvent, ReceiptsPdfQuery>(({ input, sendBack }) => {
      pdfQueries.push(input);
      pdfSendBack = sendBack;
      return () => {
        pdfSendBack = undefined;
      };
    }),
    createPdfLink: fromPromise(async ({ input }: { input: ReceiptsPdfQuery }) => {
      linkQueries.push(input);
      return 'http://localhost/download/receipts/pdf?token=abc';
    }),
    exportCsv: fromPromise(async () => 0),
  },
});

async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
function snapshot() {
  return actor.getSnapshot();
}
/** The receipts list: the page's invoked paged list. */
function list() {
  const child = snapshot().children.list;
  if (!child) throw new Error('no list');
  return child;
}
async function sendList(event: EventFromLogic<typeof receiptsListMachine>) {
  list().send(event);
  await settle();
}
async function send(event: ReceiptsEvent) {
  actor.send(event);
  await settle();
}
/** The download answers the machine (its headers, a chunk, its end). */
async function answerPdf(event: ReceiptsEvent) {
  if (!pdfSendBack) throw new Error('no PDF download running');
  pdfSendBack(event);
  await settle();
}
const lastQuery = () => queries.at(-1);

type ModelEvent = {
  type:
    | 'chooseOutlet1'
    | 'chooseOutlet2'
    | 'chooseFailingOutlet'
    | 'nextPage'
    | 'sortByAmount'
    | 'chooseOpened'
    | 'tickAll'
    | 'untickVisa'
    | 'untickAll'
    | 'search'
    | 'chooseBigOutlet'
    | 'generatePdf'
    | 'pdfAnswers'
    | 'pdfChunk'
    | 'pdfDone'
    | 'pdfFails'
    | 'pdfRefused'
    | 'createLink'
    | 'dismissLink';
};

const receiptsModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'receiptsModel',
    initial: 'noOutlet',
    states: {
      noOutlet: { on: { chooseOutlet1: 'listed', chooseFailingOutlet: 'failure' } },
      /** Outlet 1, page 1, newest first, no type, no methods. */
      listed: {
        on: {
          nextPage: 'page2',
          sortByAmount: 'byAmountDesc',
          chooseOpened: 'opened',
          tickAll: 'allMethods',
          search: 'searched',
          chooseFailingOutlet: 'failure',
          chooseBigOutlet: 'bigOutlet',
          generatePdf: 'pdfRequested',
          createLink: 'linkCreated',
        },
      },
      /** The PDF of the list's filters asked for; no answer yet. */
      pdfRequested: { on: { pdfAnswers: 'pdfStreaming', pdfFails: 'pdfFailed', pdfRefused: 'pdfRefused' } },
      /** The answer's headers: 25 receipts, no Content-Length (streamed). */
      pdfStreaming: { on: { pdfChunk: 'pdfReceiving' } },
      /** 1.2 MB received. */
      pdfReceiving: { on: { pdfDone: 'listed' } },
      pdfFailed: { on: { generatePdf: 'pdfRequested' } },
      /** The server refused the PDF with its reason (all export slots busy). */
      pdfRefused: { on: { generatePdf: 'pdfRequested' } },
      /** The PDF asked for from page 2 of the list sorted by amount: every receipt, sorted by amount. */
      pdfByAmount: {},
      linkCreated: { on: { dismissLink: 'listed' } },
      /** Outlet 4: 12,345 receipts, more than a PDF holds. */
      bigOutlet: { on: { chooseOutlet1: 'listed' } },
      page2: { on: { nextPage: 'page3', sortByAmount: 'byAmountDesc', chooseOpened: 'opened' } },
      /** The last page: there is no next one. */
      page3: { on: { nextPage: 'page3', chooseOutlet2: 'outlet2' } },
      byAmountDesc: { on: { sortByAmount: 'byAmountAsc', nextPage: 'byAmountPage2' } },
      byAmountAsc: { on: { sortByAmount: 'byAmountDesc' } },
      byAmountPage2: { on: { sortByAmount: 'byAmountAsc', generatePdf: 'pdfByAmount' } },
      /** 'Opened' chosen: moving to outlet 2, which reports no opened receipts, resets it to empty. */
      opened: { on: { nextPage: 'openedPage2', chooseOutlet2: 'outlet2' } },
      openedPage2: { on: { chooseOutlet2: 'outlet2' } },
      outlet2: { on: { chooseOutlet1: 'listed' } },
      allMethods: { on: { untickVisa: 'allButVisa', untickAll: 'noMethods' } },
      allButVisa: { on: { tickAll: 'allMethods' } },
      noMethods: { on: { tickAll: 'allMethods' } },
      searched: { on: { chooseOutlet1: 'searched' } },
      failure: { on: { chooseOutlet1: 'listed' } },
    },
  }),
);
type ModelSnapshot = SnapshotFrom<typeof receiptsModel.logic>;

function expectList(expected: {
  outlet?: string;
  page: number;
  sort?: 'datetime' | 'total_amount';
  order?: 'asc' | 'desc';
  receiptType?: string;
  methods?: string[];
  receiptId?: string;
}) {
  const state = snapshot();
  const { context } = state;
  const listed = list().getSnapshot();
  const query = lastQuery();
  expect(state.hasTag('loading')).toBe(false);
  expect(listed.hasTag('loading')).toBe(false);
  expect(listed.context.page).toBe(expected.page);
  expect(query?.page).toBe(expected.page);
  expect(query?.id).toBe(expected.outlet ?? '1');
  expect(query?.rowsPerPage).toBe(10);
  expect(query?.sortColumn).toBe(expected.sort ?? 'datetime');
  expect(query?.orderByMethod).toBe(expected.order ?? 'desc');
  expect(context.receiptType).toBe(expected.receiptType ?? '');
  expect(query?.receiptType).toBe(expected.receiptType || undefined);
  expect(context.selectedPaymentMethods).toEqual(expected.methods ?? []);
  expect(query?.receiptId).toBe(expected.receiptId);
  expect(listed.context.rows.map((entry) => entry.receipt_id)[0]).toBe(`R-${(expected.page - 1) * 10 + 1}`);
  expect(listed.context.summary?.total).toBe(TOTAL);
  expect(context.listTotal).toBe(TOTAL);
  expect(context.paymentSummary).toHaveLength(1);
  // The payment summary is of the list's outlets, days and payment methods.
  expect(paymentQueries.at(-1)?.filters.outletIds).toBe(query?.id);
  expect(paymentQueries.at(-1)?.paymentMethod).toEqual(query?.paymentMethod);
  expect(notices).toEqual([]);
}

/** The PDF's query for outlet 1 as first listed: its filters and sort, no paging. */
const pdfQueryOfOutlet1: ReceiptsPdfQuery = {
  client_id: 1,
  id: '1',
  startTime: '2026-03-01',
  endTime: '2026-03-07',
  timeType: 'date',
  outletType: 1,
  sortColumn: 'datetime',
  orderByMethod: 'desc',
};

const states: Record<string, (model: ModelSnapshot) => void> = {
  '#receiptsModel.noOutlet': () => {
    expect(queries).toEqual([]);
    expect(list().getSnapshot().context.rows).toEqual([]);
    expect(snapshot().can({ type: 'pdf.generate' })).toBe(false);
  },
  '#receiptsModel.listed': () => {
    expectList({ page: 1 });
    for (const type of ['pdf.generate', 'link.create', 'csv.export'] as const)
      expect(snapshot().can({ type })).toBe(true);
    expect(snapshot().hasTag('pdfGenerating')).toBe(false);
    expect(snapshot().context.pdfDownload).toBeUndefined();
    expect(snapshot().context.pdfOverCap).toBeUndefined();
    expect(snapshot().context.pdfLink).toBeUndefined();
  },
  '#receiptsModel.pdfRequested': () => {
    // Every receipt of the list's filters, in its order: no page, no rows per page.
    expect(pdfQueries.at(-1)).toEqual(pdfQueryOfOutlet1);
    expect(snapshot().hasTag('pdfGenerating')).toBe(true);
    expect(snapshot().can({ type: 'pdf.generate' })).toBe(false);
    const download = snapshot().context.pdfDownload;
    expect(download).toEqual({ received: 0, size: undefined, count: undefined });
    expect(download && receiptsPdfProgress(download)).toEqual({ value: undefined, text: 'Generating the PDF…' });
  },
  '#receiptsModel.pdfStreaming': () => {
    const download = snapshot().context.pdfDownload;
    expect(download).toEqual({ received: 0, size: undefined, count: 25 });
    expect(download && receiptsPdfProgress(download)).toEqual({
      value: undefined,
      text: 'Generating the PDF of 25 receipts…',
    });
  },
  '#receiptsModel.pdfReceiving': () => {
    const download = snapshot().context.pdfDownload;
    expect(snapshot().hasTag('pdfGenerating')).toBe(true);
    expect(download && receiptsPdfProgress(download)).toEqual({
      value: undefined,
      text: 'Generating the PDF of 25 receipts… 1.2 MB received',
    });
  },
  '#receiptsModel.pdfFailed': () => {
    expect(snapshot().hasTag('pdfGenerating')).toBe(false);
    expect(snapshot().context.pdfDownload).toBeUndefined();
    expect(notices.map((notice) => notice.message)).toEqual(['PDF generation error occurs. Please try again later.']);
    notices = [];
  },
  '#receiptsModel.pdfRefused': () => {
    expect(snapshot().hasTag('pdfGenerating')).toBe(false);
    expect(notices.map((notice) => notice.message)).toEqual([EXPORTS_BUSY]);
    notices = [];
  },
  '#receiptsModel.pdfByAmount': () => {
    expect(list().getSnapshot().context.page).toBe(2);
    expect(pdfQueries.at(-1)).toMatchObject({ sortColumn: 'total_amount', orderByMethod: 'desc' });
    expect(pdfQueries.at(-1)).not.toHaveProperty('page');
    expect(pdfQueries.at(-1)).not.toHaveProperty('rowsPerPage');
  },
  '#receiptsModel.linkCreated': () => {
    expect(linkQueries.at(-1)).toEqual(pdfQueryOfOutlet1);
    expect(snapshot().context.pdfLink).toBe('http://localhost/download/receipts/pdf?token=abc');
  },
  '#receiptsModel.bigOutlet': () => {
    expect(list().getSnapshot().context.summary?.total).toBe(BIG_TOTAL);
    expect(snapshot().context.listTotal).toBe(BIG_TOTAL);
    expect(snapshot().context.pdfOverCap).toBe('Only the first 10,000 of 12,345 receipts go into the PDF.');
    expect(snapshot().can({ type: 'pdf.generate' })).toBe(true);
  },
  '#receiptsModel.page2': () => expectList({ page: 2 }),
  '#receiptsModel.page3': () => {
    expectList({ page: 3 });
    expect(list().getSnapshot().context.rows).toHaveLength(5);
    expect(list().getSnapshot().can({ type: 'list.page', page: 4 })).toBe(false);
  },
  '#receiptsModel.byAmountDesc': () => expectList({ page: 1, sort: 'total_amount', order: 'desc' }),
  '#receiptsModel.byAmountAsc': () => expectList({ page: 1, sort: 'total_amount', order: 'asc' }),
  '#receiptsModel.byAmountPage2': () => expectList({ page: 2, sort: 'total_amount', order: 'desc' }),
  '#receiptsModel.opened': () => expectList({ page: 1, receiptType: 'openReceipts' }),
  '#receiptsModel.openedPage2': () => expectList({ page: 2, receiptType: 'openReceipts' }),
  '#receiptsModel.outlet2': () => {
    // Outlet 2 reports only void receipts: a stale 'Opened' is reset to empty and the list fetched without it.
    expectList({ page: 1, outlet: '2' });
    expect(snapshot().context.typeFlags).toEqual(['void']);
  },
  '#receiptsModel.allMethods': () => expectList({ page: 1, methods: ['all', 'CASH', 'VISA'] }),
  '#receiptsModel.allButVisa': () => {
    expectList({ page: 1, methods: ['CASH'] });
    expect(lastQuery()?.paymentMethod).toEqual(['CASH']);
  },
  '#receiptsModel.noMethods': () => {
    expectList({ page: 1, methods: [] });
    expect(lastQuery()?.paymentMethod).toBeUndefined();
  },
  '#receiptsModel.searched': () => expectList({ page: 1, receiptId: 'R-1' }),
  '#receiptsModel.failure': () => {
    const { context } = snapshot();
    expect(list().getSnapshot().matches('failure')).toBe(true);
    expect(list().getSnapshot().context.rows).toEqual([]);
    expect(list().getSnapshot().context.summary).toBeUndefined();
    expect(context.listTotal).toBe(0);
    // Nothing to put in a PDF, a link or a CSV file.
    for (const type of ['pdf.generate', 'link.create', 'csv.export'] as const)
      expect(snapshot().can({ type })).toBe(false);
    expect(context.paymentSummary).toEqual([]);
    expect(context.breakdown).toEqual([]);
    expect(notices.map((notice) => notice.message).sort()).toEqual([
      'Options fetching error occurs. Please try again later.',
      'Payment methods fetching error occurs. Please try again later.',
      'Receipts fetching error occurs. Please try again later.',
    ]);
    expect(notices.every((notice) => notice.timeout === 5000 && notice.intent === 'danger')).toBe(true);
    notices = [];
  },
};

const testParams: TestParam<ModelSnapshot, ModelEvent> = {
  states,
  events: {
    chooseOutlet1: () => send({ type: 'filters.change', filters: FILTERS(1) }),
    chooseOutlet2: () => send({ type: 'filters.change', filters: FILTERS(2) }),
    chooseFailingOutlet: () => send({ type: 'filters.change', filters: FILTERS(3) }),
    nextPage: () => sendList({ type: 'list.page', page: list().getSnapshot().context.page + 1 }),
    sortByAmount: () => sendList({ type: 'list.sort', column: 'total_amount' }),
    chooseOpened: () => send({ type: 'receiptType.change', receiptType: 'openReceipts' }),
    tickAll: () => send({ type: 'paymentMethod.toggle', method: 'all' }),
    untickVisa: () => send({ type: 'paymentMethod.toggle', method: 'VISA' }),
    untickAll: () => send({ type: 'paymentMethod.toggle', method: 'all' }),
    search: () => send({ type: 'receiptId.search', receiptId: ' R-1 ' }),
    chooseBigOutlet: () => send({ type: 'filters.change', filters: FILTERS(4) }),
    generatePdf: () => send({ type: 'pdf.generate' }),
    pdfAnswers: () => answerPdf({ type: 'pdf.progress', received: 0, size: undefined, count: 25 }),
    pdfChunk: () => answerPdf({ type: 'pdf.progress', received: 1_200_000, size: undefined, count: 25 }),
    pdfDone: () => answerPdf({ type: 'pdf.done' }),
    pdfFails: () => answerPdf({ type: 'pdf.failed', reason: undefined }),
    pdfRefused: () => answerPdf({ type: 'pdf.failed', reason: EXPORTS_BUSY }),
    createLink: () => send({ type: 'link.create' }),
    dismissLink: () => send({ type: 'link.dismiss' }),
  },
};

/** A refusal's reason as the server words it: shown as it is. */
const EXPORTS_BUSY = 'Too many exports are running. Try again in a minute.';

function start() {
  queries = [];
  pdfQueries = [];
  linkQueries = [];
  pdfSendBack = undefined;
  paymentQueries = [];
  notices = [];
  actor = createActor(testMachine);
  actor.on('notify', (notice) => notices.push(notice));
  actor.start();
  list().on('notify', (notice) => notices.push(notice));
}

describe('receiptsMachine (model-based)', () => {
  beforeEach(start);
  afterEach(() => actor.stop());
  describeModelCoverage(receiptsModel, testParams, {
    states: Object.keys(states),
    transitions: 40,
    stateName: (key) => modelStateId('receiptsModel', key),
  });
});

describe('receiptsMachine details', () => {
  beforeEach(start);
  afterEach(() => actor.stop());

  it('ignores a filter change that changes nothing', async () => {
    await send({ type: 'filters.change', filters: FILTERS(1) });
    await send({ type: 'filters.change', filters: FILTERS(1) });
    expect(queries).toHaveLength(1);
  });

  it('goes back to page 1 when a filter changes', async () => {
    await send({ type: 'filters.change', filters: FILTERS(1) });
    await sendList({ type: 'list.page', page: 3 });
    await send({ type: 'filters.change', filters: { ...FILTERS(1), endTime: '2026-03-08' } });
    expect(list().getSnapshot().context.page).toBe(1);
    expect(lastQuery()).toMatchObject({ page: 1, endTime: '2026-03-08' });
    await sendList({ type: 'list.page', page: 2 });
    await send({ type: 'focReason.change', focReason: 'Birthday' });
    expect(lastQuery()).toMatchObject({ page: 1, focReason: 'Birthday' });
  });

  it('opens and closes a receipt image, with a toast when it fails', async () => {
    await send({ type: 'filters.change', filters: FILTERS(1) });
    await send({ type: 'image.open', receiptId: 'R-1' });
    expect(snapshot().matches({ image: 'open' })).toBe(true);
    expect(snapshot().context.image).toEqual({ receiptId: 'R-1', src: 'data:image/png;base64,R-1' });
    await send({ type: 'image.close' });
    expect(snapshot().context.image).toBeUndefined();
    await send({ type: 'image.open', receiptId: 'missing' });
    expect(snapshot().matches({ image: 'closed' })).toBe(true);
    expect(notices.map((notice) => notice.message)).toEqual([
      'Receipt image fetching error occurs. Please try again later.',
    ]);
  });

  it('copies the shareable link, and says so; a refused clipboard says to copy it by hand', async () => {
    const copied: string[] = [];
    let refuse = false;
    actor.stop();
    notices = [];
    actor = createActor(
      testMachine.provide({
        actors: {
          copyText: fromPromise(async ({ input }: { input: { text: string } }) => {
            if (refuse) throw new Error('denied');
            copied.push(input.text);
          }),
        },
      }),
    );
    actor.on('notify', (notice) => notices.push(notice));
    actor.start();
    await send({ type: 'filters.change', filters: FILTERS(1) });
    expect(snapshot().can({ type: 'link.copy' })).toBe(false);
    await send({ type: 'link.create' });
    await send({ type: 'link.copy' });
    expect(copied).toEqual(['http://localhost/download/receipts/pdf?token=abc']);
    expect(notices.at(-1)).toMatchObject({ intent: 'success', message: 'Link copied.' });
    refuse = true;
    await send({ type: 'link.copy' });
    expect(notices.at(-1)).toMatchObject({
      intent: 'danger',
      message: 'The link could not be copied. Select it and copy it by hand.',
    });
    expect(snapshot().context.pdfLink).toBe('http://localhost/download/receipts/pdf?token=abc');
  });

  it('shows a determinate PDF progress when the size is known', async () => {
    await send({ type: 'filters.change', filters: FILTERS(1) });
    await send({ type: 'pdf.generate' });
    await answerPdf({ type: 'pdf.progress', received: 500_000, size: 2_000_000, count: 25 });
    const download = snapshot().context.pdfDownload;
    expect(download && receiptsPdfProgress(download)).toEqual({
      value: 0.25,
      text: 'Generating the PDF of 25 receipts… 500 KB of 2.0 MB (25%)',
    });
    await answerPdf({ type: 'pdf.done' });
    expect(snapshot().hasTag('pdfGenerating')).toBe(false);
  });
});
