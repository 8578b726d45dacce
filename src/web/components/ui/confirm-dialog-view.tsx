import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  /** Closes the dialog without acting (the keep button, Escape, a click outside). */
  onKeep: () => void;
  onConfirm: () => void;
  busy?: boolean;
  title: ReactNode;
  description: ReactNode;
  keepLabel: ReactNode;
  confirmLabel: ReactNode;
  confirmTestId?: string;
}

/** The dialog of ConfirmDialog (./confirm-dialog.tsx), loaded when it first opens. */
export default function ConfirmDialogView({ open, onKeep, onConfirm, busy = false, title, description, keepLabel, confirmLabel, confirmTestId }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => { if (!next && !busy) onKeep(); }}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onKeep} disabled={busy}>{keepLabel}</Button>
          <Button variant="destructive" onClick={onConfirm} loading={busy} data-testid={confirmTestId}>{confirmLabel}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
