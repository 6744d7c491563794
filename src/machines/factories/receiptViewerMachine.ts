import { assign, type EventObject, emit, fromPromise } from 'xstate';
import { loadFailureNotice, type Notice } from '../../domain/messages';
import { followHeaderFilters } from '../headerLink';

/**
 * The receipt viewer: the one shape of the pages that list receipts (the mall's Receipts, the tenant's Receipt
 * Data). A page machine is parallel regions around a paged list (factories/pagedListMachine) that it feeds with
 * the header's filters; the viewer adds what every such page does with the receipts it lists:
 *
 *   (root)  invokes the list as the child `list` (the table sends it sort and paging itself; `list.follow` keeps
 *           what the page needs of it in the page's context) and `followHeaderFilters` (the page answers
 *           `header.filters` with `list.filters`)
 *   image:  closed ── image.open (`image.canOpen`) ─> loading ─> open | closed (toast) ;  image.close ─> closed
 *   csv:    idle ── csv.export (`csv.canExport`) ─> exporting ─> idle (file saved) | idle (toast)
 *
 * Tags 'imageLoading' and 'csvExporting'; `context.image` is the receipt asked for and its image (a data: URL) once
 * it came. A failure emits `notify` with '{what} error occurs. Please try again later.' (5 s).
 *
 * XState types a machine's configuration by its own context and events (invariantly: every action is handed the
 * machine itself), so the viewer cannot own a machine that another page extends with regions of its own (the
 * Receipts page's options, payment summary, PDF and link). It gives the page its parts instead, typed for the
 * page's context and events (`types`, as `setup` takes them): `actors` to spread into the page's `setup`,
 * `invoke` and `states` to spread into its `createMachine`.
 */

export interface ReceiptImage {
  readonly receiptId: string;
  /** The image as a data: URL; undefined while it loads. */
  readonly src: string | undefined;
}

export interface ReceiptViewerContext {
  /** The receipt whose image is asked or shown. */
  readonly image: ReceiptImage | undefined;
}

export type ReceiptViewerEvent =
  | { type: 'image.open'; receiptId: string }
  | { type: 'image.close' }
  | { type: 'csv.export' };

export type ReceiptViewerTag = 'imageLoading' | 'csvExporting';

export interface ReceiptViewerOptions<
  TContext,
  TEvent,
  TListSrc extends string,
  TListSnapshot,
  TImageInput,
  TCsvInput,
  TCsvOutput,
> {
  /** The page's context and events, as its `setup` declares them (values unused). */
  readonly types: { readonly context: TContext; readonly events: TEvent };
  readonly list: {
    /** The paged list's actor in the page's `setup`. */
    readonly src: TListSrc;
    /** What the page keeps of each list snapshot (merged into its context). */
    readonly follow: (context: TContext, snapshot: TListSnapshot) => Partial<TContext>;
  };
  readonly image: {
    /** The '{what}' of the failure toast. */
    readonly what: string;
    /** Whether the receipt's image may be asked for now. */
    readonly canOpen: (context: TContext, receiptId: string) => boolean;
    readonly input: (context: TContext, receiptId: string) => TImageInput;
    /** The image as a data: URL. */
    readonly load: (input: TImageInput, signal: AbortSignal) => Promise<string>;
  };
  readonly csv: {
    readonly what: string;
    readonly canExport: (context: TContext) => boolean;
    readonly input: (context: TContext) => TCsvInput;
    /** Makes and saves the file. */
    readonly save: (input: TCsvInput, signal: AbortSignal) => Promise<TCsvOutput>;
  };
}

/** The receipt viewer's parts for a page machine: the shape above. */
export function createReceiptViewer<
  TContext extends ReceiptViewerContext,
  TEvent extends EventObject,
  TListSrc extends string,
  TListSnapshot,
  TImageInput,
  TCsvInput,
  TCsvOutput,
>(options: ReceiptViewerOptions<TContext, TEvent, TListSrc, TListSnapshot, TImageInput, TCsvInput, TCsvOutput>) {
  const { list, image, csv } = options;
  /** Assigns to the page's context (spread: a generic context takes no partial literal). */
  const closeImage = assign<TContext, EventObject, undefined, TEvent, never>(({ context }) => ({
    ...context,
    image: undefined,
  }));
  const notify = (what: string) => emit<TContext, EventObject, undefined, TEvent, Notice>(loadFailureNotice(what));
  const imageClose = { 'image.close': { target: 'closed', actions: closeImage } } as const;

  return {
    actors: {
      followHeaderFilters,
      fetchImage: fromPromise<string, TImageInput>(({ input, signal }) => image.load(input, signal)),
      exportCsv: fromPromise<TCsvOutput, TCsvInput>(({ input, signal }) => csv.save(input, signal)),
    },
    // The list first: the header's filters, told at once, go to it.
    invoke: [
      {
        id: 'list',
        src: list.src,
        input: {},
        onSnapshot: {
          actions: assign<TContext, { type: string; snapshot: TListSnapshot }, undefined, TEvent, never>(
            ({ context, event }) => ({ ...context, ...list.follow(context, event.snapshot) }),
          ),
        },
      },
      { src: 'followHeaderFilters' },
    ] as const,
    states: {
      image: {
        initial: 'closed',
        states: {
          closed: {
            on: {
              'image.open': {
                guard: ({ context, event }: { context: TContext; event: { receiptId: string } }) =>
                  image.canOpen(context, event.receiptId),
                target: 'loading',
                actions: assign<TContext, { type: 'image.open'; receiptId: string }, undefined, TEvent, never>(
                  ({ context, event }) => ({ ...context, image: { receiptId: event.receiptId, src: undefined } }),
                ),
              },
            },
          },
          loading: {
            tags: ['imageLoading'],
            invoke: {
              src: 'fetchImage',
              input: ({ context }: { context: TContext }) => {
                if (!context.image) throw new Error('receipt viewer: no receipt to show');
                return image.input(context, context.image.receiptId);
              },
              onDone: {
                target: 'open',
                actions: assign<TContext, { type: string; output: string }, undefined, TEvent, never>(
                  ({ context, event }) => ({
                    ...context,
                    image: context.image && { receiptId: context.image.receiptId, src: event.output },
                  }),
                ),
              },
              onError: { target: 'closed', actions: [closeImage, notify(image.what)] },
            },
            on: imageClose,
          },
          open: { on: imageClose },
        },
      },
      csv: {
        initial: 'idle',
        states: {
          idle: {
            on: {
              'csv.export': {
                guard: ({ context }: { context: TContext }) => csv.canExport(context),
                target: 'exporting',
              },
            },
          },
          exporting: {
            tags: ['csvExporting'],
            invoke: {
              src: 'exportCsv',
              input: ({ context }: { context: TContext }) => csv.input(context),
              onDone: 'idle',
              onError: { target: 'idle', actions: notify(csv.what) },
            },
          },
        },
      },
    },
  } as const;
}
