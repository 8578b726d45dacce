import { lazy } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog-view';
import { OnceOpened } from './once-opened';

const ConfirmDialogView = lazy(() => import('./confirm-dialog-view'));

/**
 * The app's "are you sure?" for an action that cannot be taken back: what it does, a button to keep
 * things as they are and a destructive one to go on. While the action runs (`busy`) the dialog
 * stays open and only shows its progress. Its code loads when it first opens.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <OnceOpened open={props.open}>
      <ConfirmDialogView {...props} />
    </OnceOpened>
  );
}
