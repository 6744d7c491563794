import PDFDocument from 'pdfkit';

/** The receipts PDF: a heading, then each receipt's id, outlet, time, amount and raw text (cleaned by §9). */

export interface PdfReceipt {
  receipt_id: string;
  outlet_name: string;
  datetime: string;
  payment_method: string;
  total_amount: number;
  receipt_status: string;
  text: string;
}

export interface PdfOptions {
  title: string;
  subtitle: string;
  /** Content streams uncompressed (tests read the text with a regex). */
  compress?: boolean;
}

export function renderReceiptsPdf(receipts: readonly PdfReceipt[], options: PdfOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 40,
      compress: options.compress ?? true,
      info: { Title: options.title, Subject: options.subtitle, Producer: 'Mall Analytics', Creator: 'Mall Analytics' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(16).text(options.title);
    doc.font('Helvetica').fontSize(10).fillColor('#555555').text(options.subtitle).fillColor('#000000');
    if (receipts.length === 0) doc.moveDown().fontSize(11).text('No receipts match the filters.');
    for (const receipt of receipts) {
      doc.moveDown();
      if (doc.y > doc.page.height - 160) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(11).text(`Receipt ${receipt.receipt_id}`);
      doc
        .font('Helvetica')
        .fontSize(9)
        .text(
          `${receipt.outlet_name} | ${receipt.datetime} | ${receipt.payment_method || '-'} | ${receipt.total_amount.toFixed(2)} | ${receipt.receipt_status}`,
        );
      doc.moveDown(0.3);
      doc
        .font('Courier')
        .fontSize(8)
        .text(receipt.text.replace(/\t/g, '    ') || '(no receipt text)', { lineGap: 1 });
    }
    doc.end();
  });
}
