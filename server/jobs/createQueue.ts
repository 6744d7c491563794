import type PgBoss from 'pg-boss';

/** PostgreSQL's deadlock_detected. */
const DEADLOCK = '40P01';

/**
 * pg-boss's createQueue, tried again when PostgreSQL ends it as a deadlock's victim. Instances starting together on
 * a database without the queues yet create them at once: each creation inserts the queue's row and then adds a
 * foreign key to the queue table on the queue's own job table, and two of them can wait on each other. PostgreSQL
 * rolls the victim's statement back whole, the other one commits, so the creation is simply made again (a queue
 * that exists by then is left as it is).
 */
export async function createQueue(boss: PgBoss, name: string, options: PgBoss.Queue, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await boss.createQueue(name, options);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}
