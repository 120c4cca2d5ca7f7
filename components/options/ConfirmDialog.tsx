import { type ReactNode, useId, useRef } from 'react';
import { Dialog } from '../Dialog.tsx';
import { dangerButtonClass, secondaryButtonClass } from '../field-styles.ts';

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A confirmation before an action that cannot be undone, in the shared modal
 * dialog: focus starts on Cancel (the safe choice), stays inside, returns to
 * what had it; Escape cancels.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel }: Props) {
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={title} onClose={onCancel} role="alertdialog" describedBy={bodyId} initialFocus={cancelRef}>
      <div id={bodyId} className="space-y-2 text-sm">
        {children}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <button ref={cancelRef} type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={`${dangerButtonClass} border border-red-300 dark:border-red-800`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
