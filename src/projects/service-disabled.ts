import { AppError } from '../errors.ts';
import { apiTitle, type ApiName } from './api-catalog.ts';

/**
 * The one SERVICE_DISABLED rule: a call to `api` is refused when the project is not ACTIVE or the api
 * is not ENABLED on it. Callers differ only in wording: an API key (`'key'`) is told its keys no
 * longer work and that enabling takes an account token; the console's playground (`'account'`)
 * already holds one.
 */
export function serviceDisabled(
  project: { projectId: string; state: string },
  api: ApiName,
  apiState: string | undefined,
  caller: 'key' | 'account',
): AppError | undefined {
  const { projectId } = project;
  const metadata = { service: api, project: projectId, consumer: `projects/${projectId}` };
  if (project.state !== 'ACTIVE') {
    const consequence = caller === 'key' ? '; its keys no longer work.' : '.';
    return new AppError('SERVICE_DISABLED', `Project ${projectId} has been deleted (${project.state})${consequence}`, { metadata });
  }
  if (apiState !== 'ENABLED') {
    return new AppError(
      'SERVICE_DISABLED',
      `${apiTitle(api)} has not been used in project ${projectId} before or it is disabled. Enable it with ` +
        `POST /api/projects/${projectId}/apis {"api":"${api}"}${caller === 'key' ? ' (account token required)' : ''}, then retry.`,
      { metadata: caller === 'key' ? { ...metadata, serviceTitle: apiTitle(api) } : metadata },
    );
  }
  return undefined;
}
