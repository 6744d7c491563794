import { assign, emit, enqueueActions, fromCallback, fromPromise, raise, setup } from 'xstate';
import {
  type AlertFiring,
  type AlertRule,
  type AlertRuleList,
  acknowledgeAlertFiring,
  createAlertRule,
  deleteAlertRule,
  getAlertFirings,
  getAlertRules,
  mayCreateAlertRules,
  updateAlertRule,
} from '../api/alertRules';
import {
  ALERT_FIRINGS_WHAT,
  ALERT_RULE_MESSAGES,
  ALERT_RULES_WHAT,
  type AlertRuleDraft,
  type AlertRulePrefill,
  type AlertRuleProblem,
  type AlertRuleSort,
  type AlertRuleSortColumn,
  alertRuleProblem,
  DEFAULT_ALERT_RULE_SORT,
  draftOfRule,
  newAlertRuleDraft,
  nextAlertRuleSort,
  requestOfDraft,
} from '../domain/alertRules';
import { type DataFeedsTarget, dataFeedsTargetOf, sameDataFeedsTarget } from '../domain/dataFeeds';
import { loadFailureNotice, type Notice, TOAST_TIMEOUT } from '../domain/messages';
import { followHeaderFilters, type HeaderFiltersEvent, lockHeader } from './headerLink';

/**
 * The Alerts page (/shopper-connect/alerts, issue 34): the header's client's alert rules, an editor to add, change
 * or remove one, and a rule's history with Acknowledge. Mall Home's 'Alert me when…' runs the same machine as a
 * dialog (`alertRuleDialogMachine`): `editor.new` with the page's client, malls, outlets and metric.
 *
 *   rules:   idle ── header.filters ─> loading ─> loaded | failure ── rules.retry ─> loading;
 *            idle ── editor.new with a client (the dialog) ─> loading (the recipients the editor offers)
 *   history: closed ── history.open ─> loading ─> shown | failure (history.retry); shown ── firing.acknowledge ─>
 *            acknowledging ─> shown; history.close ─> closed; the rule shown deleted ─> closed
 *   editor:  closed ── editor.new | editor.edit ─> editing ── editor.save (a valid draft) ─> saving ─> closed (the
 *            rules read again) | editing (the failure kept); editor.cancel ─> closed
 *   remove:  idle ── rule.delete ─> confirming ── rule.confirmDelete ─> working ─> idle (the rules read again)
 *
 * A new rule's draft has the page's scope and the signed-in user (`editor.new`'s `userId`) as its recipient; the
 * editor offers the header's malls and outlets (`header.filters`, or the dialog's `choices`) as its scope.
 *
 * A failed load toasts '{what} error occurs. Please try again later.' and fails its own panel with a retry.
 */

export interface AlertsContext {
  readonly target: DataFeedsTarget | undefined;
  readonly answer: AlertRuleList | undefined;
  readonly search: string;
  readonly sort: AlertRuleSort;
  readonly historyRuleId: number | undefined;
  readonly firings: readonly AlertFiring[] | undefined;
  readonly acknowledgingId: number | undefined;
  readonly draft: AlertRuleDraft | undefined;
  readonly editingId: number | undefined;
  readonly problem: AlertRuleProblem | undefined;
  readonly saveError: string | undefined;
  readonly removing: AlertRule | undefined;
  /** The malls and outlets the editor offers as a rule's scope: the header's, or what the dialog was given. */
  readonly choices: AlertScopeChoices;
  /** Whether the user may add a rule (the permission gate's check as the session stood when the page started). */
  readonly mayCreate: boolean;
}

/** A mall or an outlet the editor offers (an outlet names its mall). */
export interface AlertScopeChoice {
  readonly id: number;
  readonly name: string;
  readonly mall_id?: number | null;
}

/** The malls and outlets of the client the editor offers. */
export interface AlertScopeChoices {
  readonly malls: readonly AlertScopeChoice[];
  readonly outlets: readonly AlertScopeChoice[];
}

/**
 * A new rule: the page's scope and metric (`prefill`), the signed-in user as its recipient (`userId`); a page
 * without the Alerts page's header (the dialog) also names the client and the malls and outlets to offer.
 */
export interface AlertEditorNewEvent {
  type: 'editor.new';
  prefill: AlertRulePrefill;
  userId?: number | undefined;
  clientId?: number | undefined;
  choices?: AlertScopeChoices | undefined;
}

const NO_CHOICES: AlertScopeChoices = { malls: [], outlets: [] };

export type AlertsEvent =
  | HeaderFiltersEvent
  | { type: 'rules.retry' }
  | { type: 'rules.reload' }
  | { type: 'rules.search'; text: string }
  | { type: 'rules.sort'; column: AlertRuleSortColumn }
  | { type: 'history.open'; ruleId: number }
  | { type: 'history.close' }
  | { type: 'history.retry' }
  | { type: 'firing.acknowledge'; id: number }
  | AlertEditorNewEvent
  | { type: 'editor.edit'; ruleId: number }
  | { type: 'editor.change'; patch: Partial<AlertRuleDraft> }
  | { type: 'editor.save' }
  | { type: 'editor.cancel' }
  | { type: 'rule.delete'; ruleId: number }
  | { type: 'rule.confirmDelete' }
  | { type: 'rule.cancelDelete' };

const notice = (intent: Notice['intent'], message: string): Notice => ({
  type: 'notify',
  intent,
  message,
  timeout: 3000,
});

/** The path of the Alerts page (the dialog's saved toast links to it). */
export const ALERTS_PATH = '/shopper-connect/alerts';

const clientOf = (context: AlertsContext) => {
  if (!context.target) throw new Error('alerts: no client chosen');
  return context.target.clientId;
};

export const alertsMachine = setup({
  types: {
    context: {} as AlertsContext,
    events: {} as AlertsEvent,
    emitted: {} as Notice,
    tags: {} as 'loading',
  },
  actors: {
    followHeaderFilters,
    lockHeader,
    fetchRules: fromPromise<AlertRuleList, number>(({ input, signal }) => getAlertRules(input, { signal })),
    fetchFirings: fromPromise<AlertFiring[], { clientId: number; ruleId: number }>(({ input, signal }) =>
      getAlertFirings({ client_id: input.clientId, rule_id: input.ruleId }, { signal }),
    ),
    acknowledge: fromPromise<AlertFiring, { clientId: number; id: number }>(({ input, signal }) =>
      acknowledgeAlertFiring(input.clientId, input.id, { signal }),
    ),
    saveRule: fromPromise<AlertRule, { clientId: number; id: number | undefined; draft: AlertRuleDraft }>(
      ({ input, signal }) => {
        const body = requestOfDraft(input.clientId, input.draft);
        return input.id === undefined
          ? createAlertRule(body, { signal })
          : updateAlertRule({ ...body, id: input.id }, { signal });
      },
    ),
    removeRule: fromPromise<{ id: number }, { clientId: number; id: number }>(({ input, signal }) =>
      deleteAlertRule(input.clientId, input.id, { signal }),
    ),
  },
  guards: {
    isSameTarget: ({ context, event }) =>
      event.type === 'header.filters' && sameDataFeedsTarget(context.target, dataFeedsTargetOf(event.filters)),
    hasTarget: ({ event }) => event.type === 'header.filters' && dataFeedsTargetOf(event.filters) !== undefined,
    isKnownRule: ({ context, event }) =>
      (event.type === 'editor.edit' || event.type === 'rule.delete' || event.type === 'history.open') &&
      (context.answer?.rules.some((rule) => rule.id === event.ruleId) ?? false),
    isValidDraft: ({ context }) => context.draft !== undefined && alertRuleProblem(context.draft) === undefined,
    hasTargetNow: ({ context }) => context.target !== undefined,
    mayCreate: ({ context }) => context.mayCreate,
  },
  actions: {
    setTarget: assign(({ event }) =>
      event.type === 'header.filters' ? { target: dataFeedsTargetOf(event.filters) } : {},
    ),
    /** The header's malls and outlets, as they come (the outlets may follow the malls). */
    setChoices: assign(({ event }) =>
      event.type === 'header.filters'
        ? {
            choices: {
              malls: (event.malls ?? []).map(({ id, name }) => ({ id, name })),
              outlets: event.outlets.map(({ id, name, mall_id }) => ({ id, name, mall_id })),
            },
          }
        : {},
    ),
    /** The dialog's client and choices: the rules of another client are read again (their recipients). */
    setDialogTarget: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'editor.new' || event.clientId === undefined) return;
      if (event.choices) enqueue.assign({ choices: event.choices });
      if (context.target?.clientId === event.clientId) return;
      enqueue.assign({ target: { clientId: event.clientId, mallIds: [...event.prefill.mallIds] }, answer: undefined });
      enqueue.raise({ type: 'rules.reload' });
    }),
    resetTarget: assign({ target: undefined, answer: undefined }),
    setSearch: assign(({ event }) => (event.type === 'rules.search' ? { search: event.text } : {})),
    setSort: assign(({ context, event }) =>
      event.type === 'rules.sort' ? { sort: nextAlertRuleSort(context.sort, event.column) } : {},
    ),
    setHistoryRule: assign(({ event }) =>
      event.type === 'history.open' ? { historyRuleId: event.ruleId, firings: undefined } : {},
    ),
    closeHistory: assign({ historyRuleId: undefined, firings: undefined }),
    newDraft: assign(({ event }) =>
      event.type === 'editor.new'
        ? {
            draft: newAlertRuleDraft(event.prefill, event.userId),
            editingId: undefined,
            problem: undefined,
            saveError: undefined,
          }
        : {},
    ),
    editDraft: assign(({ context, event }) => {
      if (event.type !== 'editor.edit') return {};
      const rule = context.answer?.rules.find((candidate) => candidate.id === event.ruleId);
      return rule ? { draft: draftOfRule(rule), editingId: rule.id, problem: undefined, saveError: undefined } : {};
    }),
    changeDraft: assign(({ context, event }) => {
      if (event.type !== 'editor.change' || !context.draft) return {};
      const draft = { ...context.draft, ...event.patch };
      return { draft, problem: alertRuleProblem(draft) };
    }),
    showProblem: assign(({ context }) => ({ problem: context.draft ? alertRuleProblem(context.draft) : undefined })),
    forgetDraft: assign({ draft: undefined, editingId: undefined, problem: undefined, saveError: undefined }),
    setRemoving: assign(({ context, event }) =>
      event.type === 'rule.delete' ? { removing: context.answer?.rules.find((rule) => rule.id === event.ruleId) } : {},
    ),
    forgetRemoving: assign({ removing: undefined }),
    /** The history of the rule just deleted closes with it. */
    closeRemovedHistory: enqueueActions(({ context, enqueue }) => {
      if (context.removing !== undefined && context.historyRuleId === context.removing.id) {
        enqueue.raise({ type: 'history.close' });
      }
    }),
    reloadRules: raise({ type: 'rules.reload' }),
    notifyRulesFailure: emit(loadFailureNotice(ALERT_RULES_WHAT)),
    notifyFiringsFailure: emit(loadFailureNotice(ALERT_FIRINGS_WHAT)),
    notifySaved: emit(notice('success', ALERT_RULE_MESSAGES.saved)),
    notifySaveFailed: emit(notice('danger', ALERT_RULE_MESSAGES.saveFailed)),
    notifyAcknowledged: emit(notice('success', ALERT_RULE_MESSAGES.acknowledged)),
    notifyAcknowledgeFailed: emit(notice('danger', ALERT_RULE_MESSAGES.acknowledgeFailed)),
    notifyDeleted: emit(({ context }) => notice('success', ALERT_RULE_MESSAGES.deleted(context.removing?.name ?? ''))),
    notifyDeleteFailed: emit(({ context }) =>
      notice('danger', ALERT_RULE_MESSAGES.deleteFailed(context.removing?.name ?? '')),
    ),
  },
}).createMachine({
  id: 'alerts',
  context: () => ({
    target: undefined,
    answer: undefined,
    search: '',
    sort: DEFAULT_ALERT_RULE_SORT,
    historyRuleId: undefined,
    firings: undefined,
    acknowledgingId: undefined,
    draft: undefined,
    editingId: undefined,
    problem: undefined,
    saveError: undefined,
    removing: undefined,
    choices: NO_CHOICES,
    mayCreate: mayCreateAlertRules(),
  }),
  invoke: { src: 'followHeaderFilters' },
  type: 'parallel',
  on: {
    'rules.search': { actions: 'setSearch' },
    'rules.sort': { actions: 'setSort' },
  },
  states: {
    rules: {
      initial: 'idle',
      on: {
        'header.filters': [
          { guard: 'isSameTarget', actions: 'setChoices' },
          { guard: 'hasTarget', target: '.loading', actions: ['setTarget', 'setChoices'] },
          { target: '.idle', actions: ['resetTarget', 'setChoices'] },
        ],
      },
      states: {
        /** No client or malls chosen yet; the dialog's first rule names its client. */
        idle: { on: { 'rules.reload': { guard: 'hasTargetNow', target: 'loading' } } },
        loading: {
          tags: ['loading'],
          invoke: [
            { src: 'lockHeader' },
            {
              src: 'fetchRules',
              input: ({ context }) => clientOf(context),
              onDone: { target: 'loaded', actions: assign({ answer: ({ event }) => event.output }) },
              onError: { target: 'failure', actions: 'notifyRulesFailure' },
            },
          ],
        },
        loaded: { on: { 'rules.reload': { target: 'loading' } } },
        failure: { on: { 'rules.retry': { target: 'loading' } } },
      },
    },
    history: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'history.open': { guard: 'isKnownRule', target: 'loading', actions: 'setHistoryRule' } },
        },
        loading: {
          invoke: {
            src: 'fetchFirings',
            input: ({ context }) => ({ clientId: clientOf(context), ruleId: context.historyRuleId ?? 0 }),
            onDone: { target: 'shown', actions: assign({ firings: ({ event }) => event.output }) },
            onError: { target: 'failure', actions: 'notifyFiringsFailure' },
          },
          on: {
            'history.close': { target: 'closed', actions: 'closeHistory' },
            'history.open': { guard: 'isKnownRule', target: 'loading', reenter: true, actions: 'setHistoryRule' },
          },
        },
        shown: {
          on: {
            'history.close': { target: 'closed', actions: 'closeHistory' },
            'history.open': { guard: 'isKnownRule', target: 'loading', actions: 'setHistoryRule' },
            'firing.acknowledge': {
              target: 'acknowledging',
              actions: assign({ acknowledgingId: ({ event }) => event.id }),
            },
          },
        },
        acknowledging: {
          on: { 'history.close': { target: 'closed', actions: 'closeHistory' } },
          invoke: {
            src: 'acknowledge',
            input: ({ context }) => ({ clientId: clientOf(context), id: context.acknowledgingId ?? 0 }),
            onDone: {
              target: 'shown',
              actions: [
                assign({
                  firings: ({ context, event }) =>
                    context.firings?.map((firing) => (firing.id === event.output.id ? event.output : firing)),
                  acknowledgingId: undefined,
                }),
                'notifyAcknowledged',
              ],
            },
            onError: {
              target: 'shown',
              actions: [assign({ acknowledgingId: undefined }), 'notifyAcknowledgeFailed'],
            },
          },
        },
        failure: {
          on: {
            'history.retry': { target: 'loading' },
            'history.close': { target: 'closed', actions: 'closeHistory' },
          },
        },
      },
    },
    editor: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'editor.new': { guard: 'mayCreate', target: 'editing', actions: ['setDialogTarget', 'newDraft'] },
            'editor.edit': { guard: 'isKnownRule', target: 'editing', actions: 'editDraft' },
          },
        },
        editing: {
          on: {
            'editor.change': { actions: 'changeDraft' },
            'editor.save': [{ guard: 'isValidDraft', target: 'saving' }, { actions: 'showProblem' }],
            'editor.cancel': { target: 'closed', actions: 'forgetDraft' },
          },
        },
        saving: {
          invoke: {
            src: 'saveRule',
            input: ({ context }) => {
              if (!context.draft) throw new Error('alerts: saving without a draft');
              return { clientId: clientOf(context), id: context.editingId, draft: context.draft };
            },
            onDone: { target: 'closed', actions: ['forgetDraft', 'notifySaved', 'reloadRules'] },
            onError: {
              target: 'editing',
              actions: [
                assign({ saveError: ({ event }) => (event.error instanceof Error ? event.error.message : undefined) }),
                'notifySaveFailed',
              ],
            },
          },
        },
      },
    },
    remove: {
      initial: 'idle',
      states: {
        idle: { on: { 'rule.delete': { guard: 'isKnownRule', target: 'confirming', actions: 'setRemoving' } } },
        confirming: {
          on: {
            'rule.confirmDelete': { target: 'working' },
            'rule.cancelDelete': { target: 'idle', actions: 'forgetRemoving' },
          },
        },
        working: {
          invoke: {
            src: 'removeRule',
            input: ({ context }) => ({ clientId: clientOf(context), id: context.removing?.id ?? 0 }),
            onDone: {
              target: 'idle',
              actions: ['notifyDeleted', 'closeRemovedHistory', 'forgetRemoving', 'reloadRules'],
            },
            onError: { target: 'idle', actions: ['notifyDeleteFailed', 'forgetRemoving'] },
          },
        },
      },
    },
  },
});

/** The saved toast of the dialog: 'Save Successfully.' with a link to the Alerts page, where the rule is kept. */
export const ALERT_SAVED_ELSEWHERE: Notice = {
  type: 'notify',
  intent: 'success',
  message: ALERT_RULE_MESSAGES.saved,
  timeout: TOAST_TIMEOUT.long,
  link: { text: 'Open Alerts', href: ALERTS_PATH },
};

/**
 * Mall Home's 'Alert me when…': the Alerts page's machine run by the report page as a dialog (the way Mall Home runs
 * its 'Add event' dialog). It follows no header and locks none (the report page's own loads do); `editor.new` names
 * the client, its malls and outlets and the page's filters. A save toasts 'Save Successfully.' with a link to the
 * Alerts page.
 */
export const alertRuleDialogMachine = alertsMachine.provide({
  actors: {
    followHeaderFilters: fromCallback(() => undefined),
    lockHeader: fromCallback(() => () => undefined),
  },
  actions: { notifySaved: emit(ALERT_SAVED_ELSEWHERE) },
});
