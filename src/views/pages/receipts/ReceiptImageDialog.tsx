import { Button, Classes, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { isBareTimestamp, NO_RECEIPT_ID } from '../../../domain/receipts';

export interface ReceiptImageDialogProps {
  readonly receiptId: string | undefined;
  readonly src: string | undefined;
  readonly loading: boolean;
  readonly onClose: () => void;
}

/** A receipt's image (rendered by the server from its raw text) in a dialog. */
export function ReceiptImageDialog({ receiptId, src, loading, onClose }: ReceiptImageDialogProps) {
  // a bare timestamp is not a receipt id: the table shows 'no receipt id' for it, and so does the title
  const title =
    receiptId === undefined || !isBareTimestamp(receiptId)
      ? `Receipt ${receiptId ?? ''}`
      : `Receipt (${NO_RECEIPT_ID})`;
  return (
    <Dialog isOpen={receiptId !== undefined} onClose={onClose} title={title} className="receipt-image-dialog">
      <DialogBody>
        <div data-testid="receipt-image-dialog" className="receipt-image-frame">
          {loading || !src ? (
            <Spinner aria-label="Loading receipt image" />
          ) : (
            <img src={src} alt={title} data-testid="receipt-image" className={Classes.ELEVATION_1} />
          )}
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
    </Dialog>
  );
}
