import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog';

/**
 * The app's "are you sure?" for an action that cannot be taken back: what it does, a button to keep
 * things as they are and a destructive one to go on. While the action runs (`busy`) the dialog
 * stays open and only shows its progress.
 */
export function ConfirmDialog({ open, onKeep, onConfirm, busy = false, title, description, keepLabel, confirmLabel, confirmTestId }: {
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
}) {
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
