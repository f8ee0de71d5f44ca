import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiPath, createApiClient } from '../api/api-client.ts';
import { apisApi } from '../api/endpoints.ts';
import { href } from '../router.ts';
import { useConsole } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { Banner, EmptyState, ErrorBanner, SkeletonRows, Spinner } from '../ui/feedback.tsx';
import { Icon } from '../ui/icons.tsx';
import { annotateRequest, parseLanguageHints } from './annotate-request.ts';
import { annotateFileRequest, blankPageUrl, documentMimeType, pageInPixels } from './document-file.ts';
import { loadOcrProjects, pickProject } from './use-ocr-projects.ts';
import { formatBytes, MAX_PLAYGROUND_IMAGE_BYTES, readAsBase64 } from './read-image-file.ts';
import { PlaygroundResults, type RunResult } from './playground-results.tsx';
import type { BatchAnnotateFilesResponse, BatchAnnotateImagesResponse, DetectionType } from './vision-types.ts';

const LANGUAGE_SUGGESTIONS = ['en', 'zh', 'ja', 'ko', 'ar', 'hi', 'vi', 'de', 'fr', 'es', 'pt', 'it', 'ru'];

/**
 * Try OCR on your own image. With the signed-in account it calls the playground route
 * (`POST /api/projects/{p}/ocr:annotate`, counted as the project's usage) so it works right after
 * sign-in with no key; with a pasted key it calls the public `images:annotate` exactly as an app would.
 */
export function PlaygroundScreen({ projectId: wanted }: { projectId?: string }): JSX.Element {
  const { api, session, notify } = useConsole();
  const projects = useResource(() => loadOcrProjects(api, session.accountId), [session.accountId]);
  const [projectId, setProjectId] = useState<string>();
  const [credential, setCredential] = useState<'account' | 'key'>('account');
  const [apiKey, setApiKey] = useState('');
  const [type, setType] = useState<DetectionType>('TEXT_DETECTION');
  const [hints, setHints] = useState('');
  const [file, setFile] = useState<File>();
  const [imageUrl, setImageUrl] = useState<string>();
  const [run, setRun] = useState<RunResult>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<Error>();
  const [dragging, setDragging] = useState(false);
  const [enabling, setEnabling] = useState(false);
  // A PDF, TIFF or GIF goes to files:annotate one page at a time; totalPages comes from the first answer.
  const [page, setPage] = useState(1);
  const [totalPages, setTotalPages] = useState<number>();
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (projects.data && !projects.data.some((p) => p.projectId === projectId)) setProjectId(pickProject(projects.data, wanted));
  }, [projects.data, wanted]);

  useEffect(
    () => () => {
      if (imageUrl?.startsWith('blob:')) URL.revokeObjectURL(imageUrl);
    },
    [imageUrl],
  );

  const project = projects.data?.find((p) => p.projectId === projectId);
  const canRun = credential === 'key' ? apiKey.trim() !== '' : Boolean(project?.ocrEnabled);

  const executeDocument = async (
    document: File,
    mimeType: string,
    pageNumber: number,
    options: { type: DetectionType; languageHints: string[] },
  ) => {
    const body = annotateFileRequest(await readAsBase64(document), mimeType, pageNumber, options);
    const started = performance.now();
    const answer =
      credential === 'key'
        ? await createApiClient(apiKey.trim()).post<BatchAnnotateFilesResponse>('/api/vision/v1/files:annotate', body)
        : await api.post<BatchAnnotateFilesResponse>(`${apiPath`/api/projects/${projectId!}`}/ocr:annotateFiles`, body);
    const elapsedMs = performance.now() - started;
    const fileResponse = answer.responses?.[0];
    if (fileResponse?.totalPages) setTotalPages(fileResponse.totalPages);
    const pageResponse = fileResponse?.responses?.[0];
    const shown = pageResponse ? pageInPixels(pageResponse) : undefined;
    setImageUrl(blankPageUrl(shown?.width ?? 612, shown?.height ?? 792));
    const response = { responses: [shown?.response ?? { error: fileResponse?.error ?? { message: 'No page in the answer.' } }] };
    setRun({
      response,
      raw: answer,
      elapsedMs,
      options,
      fileName: document.name,
      document: { mimeType, page: pageNumber },
      via: credential,
    });
  };

  const execute = async (image: File | undefined = file, pageNumber: number = page) => {
    if (!image) return;
    setError(undefined);
    if (image.size > MAX_PLAYGROUND_IMAGE_BYTES) {
      setError(
        new Error(
          `This image is ${formatBytes(image.size)}; the console can send images up to ${formatBytes(MAX_PLAYGROUND_IMAGE_BYTES)} (the API's 10 MB JSON body limit, base64-encoded).`,
        ),
      );
      return;
    }
    if (!canRun) return;
    setRunning(true);
    const options = { type, languageHints: parseLanguageHints(hints) };
    try {
      const mimeType = documentMimeType(image);
      if (mimeType) {
        await executeDocument(image, mimeType, pageNumber, options);
        return;
      }
      const body = annotateRequest(await readAsBase64(image), options);
      const started = performance.now();
      const response =
        credential === 'key'
          ? await createApiClient(apiKey.trim()).post<BatchAnnotateImagesResponse>('/api/vision/v1/images:annotate', body)
          : await api.post<BatchAnnotateImagesResponse>(`${apiPath`/api/projects/${projectId!}`}/ocr:annotate`, body);
      setRun({ response, elapsedMs: performance.now() - started, options, fileName: image.name, via: credential });
    } catch (err) {
      setRun(undefined);
      setError(err as Error);
    } finally {
      setRunning(false);
    }
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    const mimeType = documentMimeType(chosen);
    if (!mimeType && chosen.type && !chosen.type.startsWith('image/')) {
      setError(new Error(`“${chosen.name}” is not an image or PDF (${chosen.type}). Use JPEG, PNG, WebP, GIF, BMP, TIFF or PDF.`));
      return;
    }
    setFile(chosen);
    setRun(undefined);
    setPage(1);
    setTotalPages(undefined);
    // Documents show a blank sheet of the page's size once the first page is read (document-file.ts).
    setImageUrl(mimeType ? blankPageUrl(612, 792) : URL.createObjectURL(chosen));
    void execute(chosen, 1);
  };

  const enableOcr = async () => {
    if (!projectId) return;
    setEnabling(true);
    try {
      await apisApi.enable(api, projectId, 'ocr');
      notify(`OCR enabled on ${projectId}.`);
      await projects.reload();
    } catch (err) {
      setError(err as Error);
    } finally {
      setEnabling(false);
    }
  };

  const noProjects = projects.data && projects.data.length === 0;

  return (
    <div class="page page-wide">
      <header class="page-header">
        <div>
          <h1 tabIndex={-1}>OCR playground</h1>
          <p class="page-subtitle">Drop an image to see what Legible reads, where, and the exact request to send from your app.</p>
        </div>
      </header>
      <ErrorBanner error={projects.error} onRetry={projects.reload} />
      {projects.loading && !projects.data ? (
        <div class="card">
          <SkeletonRows rows={3} label="Loading projects" />
        </div>
      ) : noProjects ? (
        <div class="card">
          <EmptyState
            icon="scan"
            title="Create a project to try OCR"
            action={
              <a class="btn btn-primary" href={href({ name: 'projects' })}>
                <Icon name="plus" /> Create a project
              </a>
            }
          >
            The playground runs on one of your projects and counts toward its usage and rate limit.
          </EmptyState>
        </div>
      ) : (
        <div class="playground">
          <form
            class="card playground-controls"
            onSubmit={(e) => {
              e.preventDefault();
              void execute();
            }}
            aria-label="OCR options"
          >
            <div class="field">
              <label for="pg-project">Project</label>
              <select id="pg-project" value={projectId} onChange={(e) => setProjectId(e.currentTarget.value)}>
                {(projects.data ?? []).map((p) => (
                  <option key={p.projectId} value={p.projectId}>
                    {p.displayName || p.projectId}
                    {p.ocrEnabled ? '' : ' (OCR off)'}
                  </option>
                ))}
              </select>
            </div>
            {project && !project.ocrEnabled && credential === 'account' && (
              <div class="banner banner-warning">
                <Icon name="alert" />
                <div class="banner-text">OCR is not enabled on this project.</div>
                <button type="button" class="btn btn-secondary btn-sm" onClick={enableOcr} disabled={enabling}>
                  {enabling && <Spinner label="Enabling" />} Enable OCR
                </button>
              </div>
            )}

            <fieldset class="fieldset">
              <legend>Call as</legend>
              <div class="segmented segmented-block">
                <label class={credential === 'account' ? 'active' : ''}>
                  <input
                    type="radio"
                    name="pg-cred"
                    class="sr-only"
                    checked={credential === 'account'}
                    onChange={() => setCredential('account')}
                  />
                  Signed-in account
                </label>
                <label class={credential === 'key' ? 'active' : ''}>
                  <input type="radio" name="pg-cred" class="sr-only" checked={credential === 'key'} onChange={() => setCredential('key')} />
                  An API key
                </label>
              </div>
              {credential === 'key' ? (
                <div class="field">
                  <label for="pg-key">API key</label>
                  <input
                    id="pg-key"
                    type="password"
                    class="mono"
                    autoComplete="off"
                    spellcheck={false}
                    placeholder="lgb_key_…"
                    value={apiKey}
                    onInput={(e) => setApiKey(e.currentTarget.value)}
                  />
                  <p class="field-hint">
                    Calls the public <code>images:annotate</code> with this key, exactly like your app. Kept in memory only.
                  </p>
                </div>
              ) : (
                <p class="field-hint">Runs on the project's behalf with your account token; counts toward its usage and rate limit.</p>
              )}
            </fieldset>

            <fieldset class="fieldset">
              <legend>Detection</legend>
              <div class="radio-cards">
                <label class="radio-card">
                  <input type="radio" name="pg-type" checked={type === 'TEXT_DETECTION'} onChange={() => setType('TEXT_DETECTION')} />
                  <span>
                    Text<small>Signs, photos, screenshots</small>
                  </span>
                </label>
                <label class="radio-card">
                  <input
                    type="radio"
                    name="pg-type"
                    checked={type === 'DOCUMENT_TEXT_DETECTION'}
                    onChange={() => setType('DOCUMENT_TEXT_DETECTION')}
                  />
                  <span>
                    Document<small>Dense pages, receipts</small>
                  </span>
                </label>
              </div>
            </fieldset>

            <div class="field">
              <label for="pg-hints">Language hints</label>
              <input
                id="pg-hints"
                list="pg-hint-list"
                placeholder="auto-detect (e.g. en, ja)"
                value={hints}
                autoComplete="off"
                onInput={(e) => setHints(e.currentTarget.value)}
                aria-describedby="pg-hints-hint"
              />
              <datalist id="pg-hint-list">
                {LANGUAGE_SUGGESTIONS.map((l) => (
                  <option key={l} value={l} />
                ))}
              </datalist>
              <p id="pg-hints-hint" class="field-hint">
                BCP-47 codes, comma-separated. Leave empty to auto-detect.
              </p>
            </div>

            {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target for dragged files; the button inside it is the keyboard path */}
            <div
              class={`dropzone ${dragging ? 'dragging' : ''}`}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(e) => {
                e.preventDefault();
                setDragging(false);
                choose(e.dataTransfer?.files[0]);
              }}
            >
              <Icon name="upload" size={22} />
              <p>
                <strong>Drop an image or PDF here</strong> or
              </p>
              <label class="btn btn-secondary btn-sm file-button">
                Choose a file
                <input
                  ref={fileInput}
                  id="pg-file"
                  type="file"
                  accept="image/jpeg,image/png,image/webp,image/gif,image/bmp,image/tiff,image/*,application/pdf,.pdf"
                  class="sr-only"
                  onChange={(e) => {
                    choose(e.currentTarget.files?.[0]);
                    e.currentTarget.value = '';
                  }}
                />
              </label>
              <p class="field-hint">JPEG, PNG, WebP, GIF, BMP, TIFF or PDF (pages) · up to {formatBytes(MAX_PLAYGROUND_IMAGE_BYTES)}</p>
            </div>
            {file && totalPages !== undefined && (
              <div class="field">
                <label for="pg-page">Page</label>
                <select
                  id="pg-page"
                  value={String(page)}
                  disabled={running}
                  onChange={(e) => {
                    const next = Number(e.currentTarget.value);
                    setPage(next);
                    void execute(file, next);
                  }}
                >
                  {Array.from({ length: totalPages }, (_, i) => (
                    <option key={i + 1} value={String(i + 1)}>
                      {i + 1} of {totalPages}
                    </option>
                  ))}
                </select>
                <p class="field-hint">
                  Each page is read on demand with <code>files:annotate</code>; boxes are drawn on a blank sheet of the page's size.
                </p>
              </div>
            )}
            {file && (
              <button type="submit" class="btn btn-primary btn-block" disabled={running || !canRun}>
                {running ? <Spinner label="Reading text" /> : <Icon name="scan" />} {running ? 'Reading…' : 'Run again'}
              </button>
            )}
            {credential === 'key' && !apiKey.trim() && file && <Banner>Paste an API key to run with it.</Banner>}
          </form>

          <section class="playground-results" aria-label="Results">
            <ErrorBanner error={error} />
            {imageUrl ? (
              <PlaygroundResults imageUrl={imageUrl} fileName={file?.name ?? 'image'} run={run} running={running} />
            ) : (
              <div class="card">
                <EmptyState icon="image" title="No image yet">
                  Choose or drop an image on the left. The text appears here with its word, line and block boxes drawn over the image.
                </EmptyState>
              </div>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
