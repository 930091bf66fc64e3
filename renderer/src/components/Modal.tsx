import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

/**
 * A modal built on <dialog>: the browser traps focus inside, Escape closes it, and focus returns to what
 * opened it. Focus starts on the element marked data-autofocus, else the first field.
 */
export function Modal({ title, onClose, children, footer, wide }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // showModal focuses the first focusable element (the close button); start on the first field instead.
    const first = dialog.querySelector<HTMLElement>('[data-autofocus], .modal-body input:not([type=hidden]), .modal-body select, .modal-body textarea');
    first?.focus();
    const cancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  const titleId = `modal-title-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} className={wide ? 'modal wide' : 'modal'} aria-labelledby={titleId}>
      <header className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button ghost small" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      <div className="modal-body">{children}</div>
      {footer && <footer className="modal-footer">{footer}</footer>}
    </dialog>
  );
}
