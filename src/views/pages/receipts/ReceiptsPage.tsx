import { Button, Callout, Card, Classes, H5, InputGroup, ProgressBar } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  RECEIPTS_PDF_CAP_TEXT,
  type ReceiptsPdfDownload,
  receiptsPdfProgress,
  receiptsTotalsRule,
} from '../../../domain/receipts';
import { type receiptsListMachine, receiptsMachine } from '../../../machines/receiptsMachine';
import { CurrencyContext, useOutletCurrency } from '../../common/Money';
import { useNoticeToasts } from '../../common/Notifications';
import { usePageActor } from '../../common/usePageActor';
import { DateRangeHeader } from '../../filters/DateRangeHeader';
import type { PageProps } from '../pageProps';
import { PaymentBreakdownChart } from './PaymentBreakdown';
import { PaymentSummaryTable } from './PaymentSummaryTable';
import { ReceiptImageDialog } from './ReceiptImageDialog';
import { ReceiptsFilters } from './ReceiptsFilters';
import { ReceiptsTable } from './ReceiptsTable';
import './receipts.css';

/**
 * The Receipts page (§2): the outlet (top bar) and the date range drive the receipts machine; filters for receipt
 * type, FOC reason, payment method and receipt id; the sortable, paged table; the payment method breakdown and
 * summary; a receipt's image; the PDF of every receipt the filters select (up to the cap the page states) with
 * its progress, a signed download link to it, and CSV export.
 */
export function ReceiptsPage({ title }: PageProps) {
  const actor = usePageActor(receiptsMachine);
  useNoticeToasts(actor);
  const list = useSelector(actor, (state) => state?.children.list);
  useNoticeToasts(list);
  if (!actor || !list) {
    return <Card className={`receipts-card ${Classes.SKELETON}`} data-testid="receipts-page-starting" />;
  }
  return <ReceiptsPageBody actor={actor} list={list} title={title} />;
}

function ReceiptsPageBody({
  actor,
  list,
  title,
}: PageProps & {
  readonly actor: ActorRefFrom<typeof receiptsMachine>;
  readonly list: ActorRefFrom<typeof receiptsListMachine>;
}) {
  // The page's machine follows the header and disables it while loading; each part selects what it draws.
  const send = actor.send;
  const ready = useSelector(actor, (state) => state.context.filters !== undefined);
  const generating = useSelector(actor, (state) => state.hasTag('pdfGenerating'));
  const csvExporting = useSelector(actor, (state) => state.hasTag('csvExporting'));
  const imageLoading = useSelector(actor, (state) => state.hasTag('imageLoading'));
  // The machine says when there is something to put in a PDF, a link or a CSV file.
  const canGeneratePdf = useSelector(actor, (state) => state.can({ type: 'pdf.generate' }));
  const canCreateLink = useSelector(actor, (state) => state.can({ type: 'link.create' }));
  const canExportCsv = useSelector(actor, (state) => state.can({ type: 'csv.export' }));
  const breakdown = useSelector(actor, (state) => state.context.breakdown);
  const paymentSummary = useSelector(actor, (state) => state.context.paymentSummary);
  const totalsRule = useSelector(actor, (state) => receiptsTotalsRule(state.context.selectedPaymentMethods));
  const image = useSelector(actor, (state) => state.context.image);
  const pdfDownload = useSelector(actor, (state) => state.context.pdfDownload);
  const pdfOverCap = useSelector(actor, (state) => state.context.pdfOverCap);
  const pdfLink = useSelector(actor, (state) => state.context.pdfLink);
  const canCopyLink = useSelector(actor, (state) => state.can({ type: 'link.copy' }));
  const currency = useOutletCurrency();

  return (
    <CurrencyContext.Provider value={currency}>
      <section className="receipts-page" data-testid="receipts-page">
        <DateRangeHeader title={title} />
        {!ready ? (
          <Callout intent="primary" data-testid="receipts-choose-outlet">
            Choose an Outlet to see its receipts.
          </Callout>
        ) : null}
        <Card className="receipts-card">
          <div className="receipts-toolbar">
            <ReceiptsFilters actor={actor} />
            <div className="receipts-actions">
              <Button
                icon="document"
                text={generating ? 'Generating PDF…' : 'Generate PDF'}
                data-testid="generate-pdf"
                disabled={!canGeneratePdf}
                onClick={() => send({ type: 'pdf.generate' })}
              />
              <Button
                icon="link"
                text="Download link"
                data-testid="pdf-link"
                disabled={!canCreateLink}
                onClick={() => send({ type: 'link.create' })}
              />
              <Button
                icon="export"
                text="Export CSV"
                data-testid="export-csv"
                loading={csvExporting}
                disabled={!canExportCsv}
                onClick={() => send({ type: 'csv.export' })}
              />
            </div>
          </div>
          <div className="receipts-pdf-cap">
            <span data-testid="pdf-cap">{RECEIPTS_PDF_CAP_TEXT}</span>
            {pdfOverCap ? (
              <Callout intent="warning" compact data-testid="pdf-over-cap">
                {pdfOverCap}
              </Callout>
            ) : null}
          </div>
          {generating && pdfDownload ? <PdfProgress download={pdfDownload} /> : null}
          {pdfLink ? (
            <Callout intent="success" className="receipts-link" data-testid="pdf-link-callout">
              <span>This link downloads the PDF without signing in, for 7 days:</span>
              <InputGroup
                readOnly
                value={pdfLink}
                data-testid="pdf-link-url"
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button
                icon="duplicate"
                text="Copy link"
                data-testid="pdf-link-copy"
                disabled={!canCopyLink}
                onClick={() => send({ type: 'link.copy' })}
              />
              <Button text="Close" variant="minimal" onClick={() => send({ type: 'link.dismiss' })} />
            </Callout>
          ) : null}
          <ReceiptsTable actor={actor} list={list} />
        </Card>
        <div className="receipts-payments">
          <Card className="receipts-chart">
            <H5>Payment Method Breakdown</H5>
            <PaymentBreakdownChart series={breakdown} />
          </Card>
          <Card className="receipts-payment-summary">
            <H5>Payment Summary</H5>
            <p className="receipts-summary-rule" data-testid="payment-totals-rule">
              {totalsRule}
            </p>
            <PaymentSummaryTable rows={paymentSummary} />
          </Card>
        </div>
        <ReceiptImageDialog
          receiptId={image?.receiptId}
          src={image?.src}
          loading={imageLoading}
          onClose={() => send({ type: 'image.close' })}
        />
      </section>
    </CurrencyContext.Provider>
  );
}

/** The PDF's progress: a determinate bar when its size is known, else an animated one; the text says how far. */
function PdfProgress({ download }: { readonly download: ReceiptsPdfDownload }) {
  const { value, text } = receiptsPdfProgress(download);
  return (
    <div className="receipts-progress" data-testid="pdf-progress">
      <span data-testid="pdf-progress-text">{text}</span>
      <ProgressBar value={value} intent="primary" stripes={value === undefined} />
    </div>
  );
}
