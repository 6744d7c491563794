import { createTestModel, type TestParam } from '@xstate/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, fromPromise, setup } from 'xstate';
import type { OutboxMail } from '../../src/api/admin';
import { OUTBOX_ERROR, outboxMachine } from '../../src/machines/outboxMachine';
import { describeModelCoverage } from './modelCoverage';

/* The outbox page's machine driven through every path: each fetch answered or failed by the test. */

const MAIL: OutboxMail = {
  id: 7,
  recipient: 'mfa@demo.mall',
  subject: 'Your Mall Analytics sign-in code: 123456',
  text: 'Your one-time sign-in code is 123456.',
  created_at: '2026-11-21T00:00:00.000Z',
};

let actor: Actor<typeof outboxMachine>;
let pending: { resolve: (mails: OutboxMail[]) => void; reject: (error: Error) => void } | undefined;
let fetches: number;

function start() {
  fetches = 0;
  pending = undefined;
  actor = createActor(
    outboxMachine.provide({
      actors: {
        fetchOutbox: fromPromise(
          () =>
            new Promise<OutboxMail[]>((resolve, reject) => {
              fetches += 1;
              pending = { resolve, reject };
            }),
        ),
      },
    }),
  ).start();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

type ModelEvent = { type: 'fetch.succeed' | 'fetch.fail' | 'outbox.refresh' };

const outboxModel = createTestModel(
  setup({ types: { events: {} as ModelEvent } }).createMachine({
    id: 'outboxModel',
    initial: 'loading',
    states: {
      loading: { on: { 'fetch.succeed': 'loaded', 'fetch.fail': 'failure' } },
      loaded: { on: { 'outbox.refresh': 'reloading' } },
      reloading: { on: { 'fetch.fail': 'failure', 'fetch.succeed': 'loaded' } },
      failure: { on: { 'outbox.refresh': 'loading' } },
    },
  }),
);

const testParams: TestParam<ReturnType<typeof outboxModel.getShortestPaths>[number]['state'], ModelEvent> = {
  states: {
    loading: () => {
      expect(actor.getSnapshot().matches('loading')).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(actor.getSnapshot().context.mails).toEqual([]);
    },
    loaded: () => {
      expect(actor.getSnapshot().matches('loaded')).toBe(true);
      expect(actor.getSnapshot().context).toEqual({ mails: [MAIL], errorMessage: undefined });
    },
    reloading: () => {
      expect(actor.getSnapshot().matches('loading')).toBe(true);
      // The mails already shown stay while the list refreshes.
      expect(actor.getSnapshot().context.mails).toEqual([MAIL]);
    },
    failure: () => {
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(actor.getSnapshot().context).toEqual({
        mails: [],
        errorMessage: 'Outbox fetching error occurs. Please try again later.',
      });
    },
  },
  events: {
    'fetch.succeed': async () => {
      pending?.resolve([MAIL]);
      await settle();
    },
    'fetch.fail': async () => {
      pending?.reject(new Error('503'));
      await settle();
    },
    'outbox.refresh': async () => {
      const before = fetches;
      actor.send({ type: 'outbox.refresh' });
      await settle();
      expect(fetches).toBe(before + 1);
    },
  },
};

describe('outboxMachine (model-based)', () => {
  beforeEach(start);
  afterEach(() => actor.stop());

  describeModelCoverage(outboxModel, testParams, {
    states: ['failure', 'loaded', 'loading', 'reloading'],
    transitions: 6,
  });

  it('fails with the §8 message', () => {
    expect(OUTBOX_ERROR).toBe('Outbox fetching error occurs. Please try again later.');
  });
});
