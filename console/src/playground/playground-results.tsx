import type { JSX } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import { CopyButton } from '../ui/copy-button.tsx';
import { Spinner } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { curlCommand, type AnnotateOptions } from './annotate-request.ts';
import { OcrOverlay } from './ocr-overlay.tsx';
import { boxesOf, fullTextOf, localeOf, type BoxLevel } from './vision-boxes.ts';
import type { BatchAnnotateImagesResponse } from './vision-types.ts';

export interface RunResult {
  response: BatchAnnotateImagesResponse;
  /** The server's answer as sent, when `response` was adapted for drawing (file pages). */
  raw?: unknown;
  elapsedMs: number;
  /** Set for a PDF/TIFF/GIF page read through files:annotate. */
  document?: { mimeType: string; page: number };
  options: AnnotateOptions;
  fileName: string;
  via: 'account' | 'key';
}

const LEVELS: Array<{ level: BoxLevel; label: string }> = [
  { level: 'word', label: 'Words' },
  { level: 'paragraph', label: 'Lines' },
  { level: 'block', label: 'Blocks' },
];

type View = 'text' | 'json' | 'curl';

export function PlaygroundResults(props: { imageUrl: string; fileName: string; run?: RunResult; running: boolean }): JSX.Element {
  const { run } = props;
  const [show, setShow] = useState<Record<BoxLevel, boolean>>({ word: true, paragraph: true, block: false });
  const [size, setSize] = useState<{ width: number; height: number }>();
  const [view, setView] = useState<View>('text');
  const textRef = useRef<HTMLTextAreaElement>(null);

  const first = run?.response.responses?.[0];
  const boxes = useMemo(() => boxesOf(first), [first]);
  const text = fullTextOf(first);
  const locale = localeOf(first);
  const words = boxes.filter((b) => b.level === 'word').length;
  const json = useMemo(() => (run ? JSON.stringify(run.raw ?? run.response, null, 2) : ''), [run]);
  const curl = run ? curlCommand(window.location.origin, run.fileName, run.options, run.document) : '';
  const imageError = first?.error?.message;

  const summary = props.running
    ? 'Reading text…'
    : imageError
      ? `The image could not be read: ${imageError}`
      : run
        ? words
          ? `Found ${words} word${words === 1 ? '' : 's'} in ${Math.round(run.elapsedMs)} ms.`
          : 'No text found in this image.'
        : '';

  return (
    <div class="stack">
      <div class="card result-card">
        <div class="result-toolbar">
          <div class="result-file">
            <Icon name="image" />
            <span class="truncate">{props.fileName}</span>
            {size && (
              <span class="muted">
                {size.width}×{size.height}
              </span>
            )}
          </div>
          <fieldset class="toggles">
            <legend class="sr-only">Boxes to draw</legend>
            {LEVELS.map(({ level, label }) => (
              <label key={level} class={`toggle toggle-${level}`}>
                <input type="checkbox" checked={show[level]} onChange={(e) => setShow({ ...show, [level]: e.currentTarget.checked })} />
                <i class="swatch" aria-hidden="true" />
                {label}
              </label>
            ))}
          </fieldset>
        </div>
        <div class={`stage-wrap ${props.running ? 'busy' : ''}`}>
          <OcrOverlay src={props.imageUrl} alt={`Your image, ${props.fileName}`} boxes={boxes} show={show} size={size} onSize={setSize} />
          {props.running && (
            <div class="stage-busy">
              <Spinner label="Reading text" /> Reading text…
            </div>
          )}
        </div>
        <p class="result-summary" role="status" aria-live="polite">
          {summary}
          {run && !imageError && (
            <span class="muted">
              {locale ? ` Language: ${locale}.` : ''} {run.options.type === 'DOCUMENT_TEXT_DETECTION' ? 'Document' : 'Text'} detection, via{' '}
              {run.via === 'key' ? 'API key' : 'account'}.
            </span>
          )}
        </p>
      </div>

      {run && (
        <div class="card">
          <div class="view-tabs" role="tablist" aria-label="Result views">
            {(['text', 'json', 'curl'] as const).map((v) => (
              <button
                key={v}
                type="button"
                role="tab"
                id={`view-tab-${v}`}
                aria-selected={view === v}
                aria-controls={`view-panel-${v}`}
                tabIndex={view === v ? 0 : -1}
                class={`view-tab ${view === v ? 'active' : ''}`}
                onClick={() => setView(v)}
                onKeyDown={(e) => {
                  const order: View[] = ['text', 'json', 'curl'];
                  const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                  if (!step) return;
                  const next = order[(order.indexOf(v) + step + order.length) % order.length];
                  setView(next);
                  document.getElementById(`view-tab-${next}`)?.focus();
                }}
              >
                {v === 'text' ? 'Text' : v === 'json' ? 'JSON response' : 'curl'}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`view-panel-${view}`} aria-labelledby={`view-tab-${view}`} class="view-panel">
            {view === 'text' && (
              <>
                <div class="panel-actions">
                  <CopyButton text={text} label="Copy text" fallbackTarget={() => textRef.current} />
                </div>
                {text ? (
                  <textarea
                    ref={textRef}
                    class="result-text"
                    readOnly
                    value={text}
                    rows={Math.min(16, Math.max(3, text.split('\n').length + 1))}
                    aria-label="Recognised text"
                    data-testid="ocr-text"
                  />
                ) : (
                  <p class="muted">{imageError ?? 'No text was found.'}</p>
                )}
              </>
            )}
            {view === 'json' && (
              <>
                <div class="panel-actions">
                  <CopyButton text={json} label="Copy JSON" />
                </div>
                {/* biome-ignore lint/a11y: a scrollable code block must take keyboard focus and carry a name (WCAG 2.1.1) */}
                <pre class="code-block" tabIndex={0} aria-label="Raw JSON response">
                  {json}
                </pre>
              </>
            )}
            {view === 'curl' && (
              <>
                <div class="panel-actions">
                  <CopyButton text={curl} label="Copy command" />
                </div>
                {/* biome-ignore lint/a11y: a scrollable code block must take keyboard focus and carry a name (WCAG 2.1.1) */}
                <pre class="code-block" tabIndex={0} aria-label="curl command">
                  {curl}
                </pre>
                <p class="field-hint">
                  Run it next to <code>{run.fileName}</code> with <code>export LEGIBLE_API_KEY=…</code> set to a key of this project (API
                  keys tab).
                </p>
              </>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
