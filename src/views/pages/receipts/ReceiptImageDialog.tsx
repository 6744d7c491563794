import { Button, Classes, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { displayReceiptId } from '../../../domain/receipts';
import './receiptViewer.css';

export interface ReceiptImageDialogProps {
  readonly receiptId: string | undefined;
  readonly src: string | undefined;
  readonly loading: boolean;
  readonly onClose: () => void;
}

/** A receipt's image (rendered by the server from its raw text) in a dialog. */
export function ReceiptImageDialog({ receiptId, src, loading, onClose }: ReceiptImageDialogProps) {
  // a bare timestamp is not a receipt id: the title says 'no receipt id', as the table does
  const title = `Receipt ${receiptId === undefined ? '' : displayReceiptId(receiptId)}`;
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
