import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { clearSession, setPermissionsList } from '../../src/api/session';
import type { ReportQuery } from '../../src/domain/mallReportViews';
import { createQueryPageMachine } from '../../src/machines/factories/queryPageMachine';
import { loadPeakHours } from '../../src/machines/mallReportLoaders';

/*
 * A superseded load aborts its calls: the machine's actor gets a signal, the loader passes it to every call and
 * openapi-fetch puts it on the Request that reaches fetch.
 */

const QUERY: ReportQuery = {
  clientId: 1,
  mallIds: [1],
  start: '2026-03-02',
  end: '2026-03-08',
  startHour: 0,
  endHour: 23,
  timeRange: 'daily',
  metric: 'gmv',
};

function recordingClient() {
  const requests: Request[] = [];
  const client = createApiClient(
    (request) => {
      requests.push(request);
      // Never answers: only an abort ends the call.
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    },
    { baseUrl: 'http://localhost' },
  );
  return { client, requests };
}

describe('aborting a report load', () => {
  beforeEach(() => setPermissionsList(['/api/mall_report/*::Read']));
  afterEach(() => clearSession());

  function startMachine() {
    const { client, requests } = recordingClient();
    const machine = createQueryPageMachine({
      id: 'peakHoursReport',
      what: 'Peak hours',
      panels: { peakHours: { load: (query, signal) => loadPeakHours(query, { signal, client }) } },
    });
    const actor = createActor(machine, { input: {} }).start();
    return { actor, requests };
  }

  it('aborts the calls of the older load when a newer one starts', async () => {
    const { actor, requests } = startMachine();
    actor.send({ type: 'report.load', query: QUERY });
    await vi.waitUntil(() => requests.length === 2);
    const first = [...requests];
    expect(first.every((request) => !request.signal.aborted)).toBe(true);

    actor.send({ type: 'report.load', query: { ...QUERY, mallIds: [2] } });
    await vi.waitUntil(() => requests.length === 4);
    expect(first.map((request) => request.signal.aborted)).toEqual([true, true]);
    expect(requests.slice(2).map((request) => request.signal.aborted)).toEqual([false, false]);
    actor.stop();
  });

  it('aborts the calls when the actor stops', async () => {
    const { actor, requests } = startMachine();
    actor.send({ type: 'report.load', query: QUERY });
    await vi.waitUntil(() => requests.length === 2);
    actor.stop();
    expect(requests.map((request) => request.signal.aborted)).toEqual([true, true]);
  });
});
