import { apisApi, projectsApi } from '../api/endpoints.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { Project } from '../api/api-types.ts';

export interface PlaygroundProject extends Project {
  ocrEnabled: boolean;
}

/** The account's active projects with whether OCR is enabled on each (first 25 looked up). */
export async function loadOcrProjects(api: ApiClient, accountId: string): Promise<PlaygroundProject[]> {
  const projects = (await projectsApi.list(api, accountId)).filter((p) => p.state === 'ACTIVE');
  return Promise.all(
    projects.map(async (p, i) => {
      if (i >= 25) return { ...p, ocrEnabled: false };
      const apis = await apisApi.list(api, p.projectId).catch(() => []);
      return { ...p, ocrEnabled: apis.some((a) => a.api === 'ocr' && a.state === 'ENABLED') };
    }),
  );
}

/** The route's project if given, else the first with OCR enabled, else the first. */
export function pickProject(projects: PlaygroundProject[], wanted?: string): string | undefined {
  return (projects.find((p) => p.projectId === wanted) ?? projects.find((p) => p.ocrEnabled) ?? projects[0])?.projectId;
}
