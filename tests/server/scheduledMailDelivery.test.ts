import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/pool.js';
import { ALERT_RULES_QUEUE } from '../../server/jobs/alertRules.js';
import { DAILY_SUMMARY_QUEUE } from '../../server/jobs/dailySummary.js';
import { FEED_ALERTS_QUEUE } from '../../server/jobs/feedAlerts.js';
import {
  type DeliveryOutcome,
  deliverScheduledMail,
  enqueueMail,
  MAIL_DELIVERY_QUEUE,
} from '../../server/jobs/mailDelivery.js';
import { type JobContext, type Jobs, startJobs } from '../../server/jobs/queue.js';
import { VOID_ALERTS_QUEUE } from '../../server/jobs/voidAlerts.js';
import { createMailer, type Mailer } from '../../server/mail/mailer.js';
import { insertScheduledMail, type ScheduledMailRef } from '../../server/repositories/scheduledMail.js';
import { seedWorld } from './fixtures.js';
import { createTestDatabase, type TestDatabase, waitUntil } from './helpers.js';

/*
 * Delivery of scheduled mails: through a real SMTP server that refuses the first attempts (retried with backoff,
 * the same Message-ID each time), and through the local outbox (exactly once, whatever runs the delivery again).
 * Also the queue set-up itself: the schedules kept in the database, and registrations of other modules.
 */

let db: TestDatabase;
let jobs: Jobs | undefined;
const PUBLIC_URL = 'https://mall.example';
const silent = { info: () => {}, error: () => {} };

const start = (mailer: Mailer, options: Partial<Parameters<typeof startJobs>[0]> = {}) =>
  startJobs({
    databaseUrl: db.url,
    pool: db.pool,
    mailer,
    publicUrl: PUBLIC_URL,
    log: silent,
    voidAlertsEveryMinutes: 0,
    dailySummaryEveryMinutes: 0,
    feedCheckEveryMinutes: 0,
    alertCheckEveryMinutes: 0,
    pollingIntervalSeconds: 0.5,
    deliveryRetry: { retryLimit: 4, retryDelay: 1, retryBackoff: true },
    ...options,
  });
const outboxMailer = () => createMailer({ smtpUrl: undefined, mailFrom: 'test@mall.example' }, db.pool, silent);

const count = async (sql: string, values: unknown[] = []) =>
  (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]?.n ?? 0;

const delivered = async (ref: ScheduledMailRef) =>
  (await count('scheduled_mails WHERE client_id = $1 AND id = $2 AND delivered_at IS NOT NULL', [
    ref.clientId,
    ref.mailId,
  ])) === 1;

/** The delivery jobs of a mail: their states and retries. */
async function deliveryJobs(ref: ScheduledMailRef) {
  const { rows } = await db.pool.query<{ state: string; retry_count: number }>(
    `SELECT state, retry_count FROM pgboss.job WHERE name = $1 AND (data->>'mailId')::bigint = $2 ORDER BY created_on`,
    [MAIL_DELIVERY_QUEUE, ref.mailId],
  );
  return rows;
}

const mailTo = (subject: string) => ({
  clientId: 1,
  kind: 'void_alert' as const,
  userId: null,
  recipient: 'someone@fixture.test',
  subject,
  text: `Text of ${subject}`,
});

/** Records a mail and enqueues its delivery in one transaction, as the jobs do. */
const enqueue = (subject: string) =>
  inTransaction(db.pool, (tx) => enqueueMail(requiredJobs().boss, tx, mailTo(subject), PUBLIC_URL));

function requiredJobs(): Jobs {
  if (!jobs) throw new Error('The jobs are not started');
  return jobs;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorld(db.pool);
});
afterEach(async () => {
  await jobs?.stop();
  jobs = undefined;
});
afterAll(async () => {
  await db?.drop();
});

interface Attempt {
  at: number;
  raw: string;
}

/** An SMTP server on loopback that answers 451 (try again later) to the first `refusals` messages. */
async function startFlakySmtp(refusals: number) {
  const attempts: Attempt[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts.push({ at: Date.now(), raw: Buffer.concat(chunks).toString('utf8') });
        if (attempts.length > refusals) return callback();
        const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
        callback(error);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    attempts,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const messageIdOf = (raw: string) => /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];

describe('delivery through SMTP', () => {
  it('retries a refused mail with growing delays, with the same Message-ID, until it is delivered', async () => {
    const smtp = await startFlakySmtp(2);
    try {
      jobs = await start(createMailer({ smtpUrl: smtp.url, mailFrom: 'test@mall.example' }, db.pool, silent));
      const ref = await enqueue('Refused twice');
      await waitUntil('the mail is delivered', () => delivered(ref));

      expect(smtp.attempts).toHaveLength(3);
      const { rows } = await db.pool.query<{ message_id: string }>(
        'SELECT message_id FROM scheduled_mails WHERE client_id = $1 AND id = $2',
        [ref.clientId, ref.mailId],
      );
      const stored = rows[0]?.message_id;
      expect(stored).toMatch(/^<[\w-]+@mall\.example>$/);
      expect(smtp.attempts.map((attempt) => messageIdOf(attempt.raw))).toEqual([stored, stored, stored]);
      const [first, second, third] = smtp.attempts.map((attempt) => attempt.at);
      // retryDelay 1 s with backoff: the first retry after 1 to 2 s, the second after 2 to 4 s.
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1000);
      expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(2000);
      await waitUntil('the job is completed', async () => (await deliveryJobs(ref))[0]?.state === 'completed');
      expect(await deliveryJobs(ref)).toEqual([{ state: 'completed', retry_count: 2 }]);
    } finally {
      await jobs?.stop();
      await smtp.stop();
    }
  });
});

describe('delivery to the outbox', () => {
  const outboxCopies = (subject: string) => count('outbox WHERE subject = $1', [subject]);

  it('enqueues nothing when the deciding transaction rolls back', async () => {
    jobs = await start(outboxMailer());
    const jobsBefore = await count('pgboss.job WHERE name = $1', [MAIL_DELIVERY_QUEUE]);
    const failing = inTransaction(db.pool, async (tx) => {
      await enqueueMail(requiredJobs().boss, tx, mailTo('Never decided'), PUBLIC_URL);
      throw new Error('the decision fails');
    });
    await expect(failing).rejects.toThrow('the decision fails');
    expect(await count('scheduled_mails WHERE subject = $1', ['Never decided'])).toBe(0);
    expect(await count('pgboss.job WHERE name = $1', [MAIL_DELIVERY_QUEUE])).toBe(jobsBefore);
  });

  it('puts a mail in the outbox once, however often its delivery runs', async () => {
    jobs = await start(outboxMailer());
    const ref = await enqueue('Exactly once');
    await waitUntil('the mail is delivered', () => delivered(ref));
    expect(await outboxCopies('Exactly once')).toBe(1);

    // The job run again (as after a crash before pg-boss recorded it), twice, and by hand.
    await requiredJobs().boss.send(MAIL_DELIVERY_QUEUE, ref);
    await requiredJobs().boss.send(MAIL_DELIVERY_QUEUE, ref);
    const deps = { pool: db.pool, mailer: outboxMailer(), log: silent };
    expect(await deliverScheduledMail(deps, ref)).toBe('already delivered');
    await waitUntil('every job of the mail is completed', async () =>
      (await deliveryJobs(ref)).every((job) => job.state === 'completed'),
    );
    expect(await deliveryJobs(ref)).toHaveLength(3);
    expect(await outboxCopies('Exactly once')).toBe(1);
  });

  it('delivers a mail once when deliveries run side by side', async () => {
    const deps = { pool: db.pool, mailer: outboxMailer(), log: silent };
    const ref = await insertScheduledMail(db.pool, { ...mailTo('Side by side'), messageId: '<side-by-side@test>' });
    const outcomes = await Promise.all([1, 2, 3].map(() => deliverScheduledMail(deps, ref)));
    expect(outcomes.sort()).toEqual<DeliveryOutcome[]>(['already delivered', 'already delivered', 'delivered']);
    expect(await outboxCopies('Side by side')).toBe(1);
  });

  it('retries a mail the outbox refused, and keeps no half delivery', async () => {
    jobs = await start(outboxMailer());
    await db.pool.query(`ALTER TABLE outbox ADD CONSTRAINT refuse_for_test CHECK (subject <> 'Refused once')`);
    const ref = await enqueue('Refused once');
    await waitUntil('the delivery has failed once', async () => (await deliveryJobs(ref))[0]?.state === 'retry');
    expect(await delivered(ref)).toBe(false);
    await db.pool.query('ALTER TABLE outbox DROP CONSTRAINT refuse_for_test');
    await waitUntil('the mail is delivered', () => delivered(ref));
    expect(await outboxCopies('Refused once')).toBe(1);
    expect((await deliveryJobs(ref))[0]?.retry_count).toBe(1);
  });
});

describe('the queue', () => {
  it('keeps the schedules in the database, and removes them when turned off', async () => {
    jobs = await start(outboxMailer(), {
      voidAlertsEveryMinutes: 1,
      dailySummaryEveryMinutes: 5,
      feedCheckEveryMinutes: 10,
      alertCheckEveryMinutes: 15,
    });
    const schedules = await requiredJobs().boss.getSchedules();
    expect(schedules.map((schedule) => [schedule.name, schedule.cron]).sort()).toEqual([
      [ALERT_RULES_QUEUE, '*/15 * * * *'],
      [DAILY_SUMMARY_QUEUE, '*/5 * * * *'],
      [FEED_ALERTS_QUEUE, '*/10 * * * *'],
      [VOID_ALERTS_QUEUE, '* * * * *'],
    ]);
    await requiredJobs().stop();
    jobs = await start(outboxMailer());
    expect(await requiredJobs().boss.getSchedules()).toEqual([]);
  });

  it('lets other modules register their own queues', async () => {
    const handled: string[] = [];
    let registered: JobContext | undefined;
    jobs = await start(outboxMailer(), {
      registrations: [
        async (context) => {
          registered = context;
          await context.boss.createQueue('other-module');
          await context.boss.work<{ note: string }>('other-module', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
            if (job) handled.push(job.data.note);
          });
        },
      ],
    });
    expect(registered?.publicUrl).toBe(PUBLIC_URL);
    await requiredJobs().boss.send('other-module', { note: 'hello' });
    await waitUntil('the other module’s job is handled', async () => handled.length === 1);
    expect(handled).toEqual(['hello']);
  });
});
