import dayjs from 'dayjs';
import { inTransaction, type Pool } from '../db/pool.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { type DueReminder, dueReminders, recordReminder } from '../repositories/gtoRules.js';

/** The reminder an outlet's tenants get while a month's GTO is past its due day and not submitted. */
export function gtoReminderMail(reminder: DueReminder, to: string, publicUrl: string): Mail {
  const month = dayjs(reminder.month).format('MMMM YYYY');
  const due = dayjs(reminder.dueOn).format('D MMMM YYYY');
  return {
    to,
    subject: `GTO for ${month} not submitted yet: ${reminder.outletName}`,
    text: [
      `The gross turnover of ${reminder.outletName} (${reminder.mallName}) for ${month} was due on ${due} and has not been submitted yet.`,
      '',
      `Submit it here before the end of ${dayjs(reminder.today).format('MMMM YYYY')}: ${publicUrl}/tenants/gto_submission`,
      '',
      'You get this reminder once a day until the month is submitted.',
    ].join('\n'),
  };
}

/**
 * Sends today's reminders: for each outlet past its due day without a submission, one mail to each of its active
 * tenant users, at most once a day (gto_reminders) and never after the submission. Each outlet's reminder is
 * recorded and sent in one transaction: a mail that fails leaves no record, and the next run tries again.
 * Answers the number of outlets reminded.
 */
export async function sendGtoReminders(deps: {
  pool: Pool;
  mailer: Mailer;
  publicUrl: string;
  now?: Date;
}): Promise<number> {
  const due = await dueReminders(deps.pool, deps.now ?? new Date());
  let sent = 0;
  for (const reminder of due) {
    const recorded = await inTransaction(deps.pool, async (tx) => {
      if (!(await recordReminder(tx, reminder))) return false;
      for (const to of reminder.recipients) await deps.mailer.send(gtoReminderMail(reminder, to, deps.publicUrl));
      return true;
    });
    if (recorded) sent += 1;
  }
  return sent;
}
