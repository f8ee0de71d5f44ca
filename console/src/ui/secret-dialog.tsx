import type { ComponentChildren, JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { CopyButton } from './copy-button.tsx';
import { Dialog } from './dialog.tsx';
import { Icon } from './icons.tsx';

/**
 * A freshly created secret, shown this one time (the server keeps only its hash). The dialog cannot
 * be dismissed by Escape or a stray click: only by confirming it was saved (Unkey, Stripe, GitHub).
 */
export function SecretDialog(props: {
  title: string;
  label: string;
  secret: string;
  children?: ComponentChildren;
  onDone(): void;
}): JSX.Element {
  const input = useRef<HTMLInputElement>(null);
  const [revealed, setRevealed] = useState(true);
  return (
    <Dialog
      title={props.title}
      modal="acknowledge"
      onClose={props.onDone}
      footer={
        <button type="button" class="btn btn-primary" onClick={props.onDone}>
          <Icon name="check" /> I have saved it
        </button>
      }
    >
      <div class="banner banner-warning" role="note">
        <Icon name="alert" />
        <div class="banner-text">
          <strong>Copy this secret now. You will not be able to see it again.</strong> Legible stores only a hash of it. If you lose it,
          rotate or create a new one.
        </div>
      </div>
      <div class="field">
        <label for="secret-value">{props.label}</label>
        <div class="secret-row">
          <input
            id="secret-value"
            ref={input}
            class="mono secret-input"
            // Preact's typings split text and password inputs; both are plain inputs here.
            type={(revealed ? 'text' : 'password') as 'text'}
            readOnly
            value={props.secret}
            spellcheck={false}
            autoComplete="off"
            data-autofocus
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" class="btn btn-ghost btn-sm" aria-pressed={!revealed} onClick={() => setRevealed(!revealed)}>
            {revealed ? 'Hide' : 'Show'}
          </button>
          <CopyButton text={props.secret} fallbackTarget={() => input.current} />
        </div>
      </div>
      {props.children}
    </Dialog>
  );
}
