import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { Icon } from './icons.tsx';

export interface DialogProps {
  title: string;
  description?: ComponentChildren;
  onClose(): void;
  children: ComponentChildren;
  footer?: ComponentChildren;
  /** `wide` for forms with several sections. */
  size?: 'normal' | 'wide';
  /** A dialog that must be acknowledged (a secret shown once) ignores Escape and the backdrop. */
  modal?: 'dismissable' | 'acknowledge';
  onSubmit?: () => void;
}

/**
 * A modal built on the native `<dialog>` + `showModal()`: the browser traps focus, makes the rest
 * of the page inert and handles Escape. Focus goes to the first field (or `[data-autofocus]`) on open
 * and back to the element that opened it on close (WAI-ARIA APG dialog pattern).
 */
export function Dialog(props: DialogProps): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  const { onClose, modal = 'dismissable' } = props;
  const mounted = useRef(true);

  useEffect(() => {
    const dialog = ref.current!;
    mounted.current = true;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    const target =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector<HTMLElement>(
        '.dialog-body input:not([type=hidden]):not([disabled]), .dialog-body select, .dialog-body textarea',
      );
    target?.focus();
    return () => {
      mounted.current = false;
      if (dialog.open) dialog.close();
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);

  const onCancel = (e: Event) => {
    e.preventDefault();
    if (modal === 'dismissable') onClose();
  };
  const onBackdrop = (e: MouseEvent) => {
    if (modal === 'dismissable' && e.target === ref.current) onClose();
  };

  const content = (
    <>
      <header class="dialog-header">
        <div>
          <h2 id={titleId} class="dialog-title">
            {props.title}
          </h2>
          {props.description && (
            <p id={descId} class="dialog-description">
              {props.description}
            </p>
          )}
        </div>
        {modal === 'dismissable' && (
          <button type="button" class="icon-button" aria-label="Close" onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </header>
      <div class="dialog-body">{props.children}</div>
      {props.footer && <footer class="dialog-footer">{props.footer}</footer>}
    </>
  );

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; the keyboard closes a <dialog> with Escape natively
    <dialog
      ref={ref}
      class={`dialog dialog-${props.size ?? 'normal'}`}
      aria-labelledby={titleId}
      aria-describedby={props.description ? descId : undefined}
      onCancel={onCancel}
      // Browsers may still close a modal whose cancel was prevented (a repeated Escape): follow them.
      onClose={() => mounted.current && onClose()}
      onClick={onBackdrop}
    >
      {props.onSubmit ? (
        <form
          class="dialog-form"
          noValidate={false}
          onSubmit={(e) => {
            e.preventDefault();
            props.onSubmit!();
          }}
        >
          {content}
        </form>
      ) : (
        <div class="dialog-form">{content}</div>
      )}
    </dialog>
  );
}
