import { Button, Callout, Card, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { Fragment, useState } from 'react';
import type { OutboxMail } from '../../../api/admin';
import { outboxMachine } from '../../../machines/outboxMachine';
import { usePageActor } from '../../common/usePageActor';
import { PageTitle } from '../../filters/PageTitle';
import type { PageProps } from '../pageProps';
import './admin.css';

/** The mails kept in the local outbox, for finishing sign-in flows on a machine without an SMTP server. */
const NO_MAILS: readonly OutboxMail[] = [];

export function OutboxPage({ title }: PageProps) {
  const actor = usePageActor(outboxMachine);
  const mails = useSelector(actor, (state) => state?.context.mails ?? NO_MAILS);
  const errorMessage = useSelector(actor, (state) => state?.context.errorMessage);
  const busy = useSelector(actor, (state) => state === undefined || state.hasTag('busy'));
  const loading = useSelector(actor, (state) => state === undefined || state.matches('loading'));
  const [open, setOpen] = useState<number | undefined>(undefined);
  return (
    <section data-testid="outbox-page">
      <div className="page-title-row">
        <PageTitle title={title} />
        <Button icon="refresh" text="Refresh" loading={busy} onClick={() => actor?.send({ type: 'outbox.refresh' })} />
      </div>
      <Callout intent="primary" icon="envelope">
        Without an SMTP server (SMTP_URL), mails are kept here instead of being sent: one-time codes, password-reset
        links and invitations.
      </Callout>
      {errorMessage && <Callout intent="danger">{errorMessage}</Callout>}
      {loading && mails.length === 0 ? (
        <Spinner />
      ) : mails.length === 0 ? (
        <NonIdealState icon="inbox" title="No mail yet" />
      ) : (
        <Card>
          <HTMLTable striped interactive compact className="outbox-table">
            <thead>
              <tr>
                <th>Sent</th>
                <th>To</th>
                <th>Subject</th>
              </tr>
            </thead>
            <tbody>
              {mails.map((mail) => (
                <Fragment key={mail.id}>
                  <tr onClick={() => setOpen(open === mail.id ? undefined : mail.id)} data-testid="outbox-row">
                    <td>{new Date(mail.created_at).toLocaleString()}</td>
                    <td>{mail.recipient}</td>
                    <td>{mail.subject}</td>
                  </tr>
                  {open === mail.id && (
                    <tr>
                      <td colSpan={3}>
                        <pre className="outbox-mail-text">{mail.text}</pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </HTMLTable>
        </Card>
      )}
    </section>
  );
}
