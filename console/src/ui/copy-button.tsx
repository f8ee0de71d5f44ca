import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Icon } from './icons.tsx';

/**
 * Copies `text` with the async Clipboard API; where that is refused (permissions, insecure origin)
 * it selects the text in `fallbackTarget` so Ctrl/⌘+C works, and says so.
 */
export function CopyButton(props: {
  text: string;
  label?: string;
  fallbackTarget?: () => HTMLInputElement | HTMLTextAreaElement | null;
  class?: string;
}): JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(t);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      const target = props.fallbackTarget?.();
      target?.focus();
      target?.select();
      setState('manual');
    }
  };
  const label = props.label ?? 'Copy';
  return (
    <button type="button" class={`btn btn-secondary btn-sm copy-button ${props.class ?? ''}`} onClick={copy}>
      <Icon name={state === 'copied' ? 'check' : 'copy'} />
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'manual' ? 'Press Ctrl+C' : label}</span>
    </button>
  );
}
