import { Type, type Static } from '@sinclair/typebox';

/** Google's project id rule (API.md §1): 6–30 chars, a lowercase letter first, no trailing hyphen. */
export const PROJECT_ID_PATTERN = '^[a-z][a-z0-9-]{4,28}[a-z0-9]$';
export const ProjectId = Type.String({
  pattern: PROJECT_ID_PATTERN,
  minLength: 6,
  maxLength: 30,
  description: 'Globally unique; 6–30 characters: lowercase letters, digits, hyphens; starts with a letter, does not end with a hyphen.',
  examples: ['demo-project'],
});

/** Printable text without control characters. */
export const DisplayName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]*$' });

export const ProjectState = Type.Union([Type.Literal('ACTIVE'), Type.Literal('DELETE_REQUESTED')]);

export const Project = Type.Object({
  name: Type.String({ description: '`projects/{projectId}`' }),
  projectId: Type.String(),
  displayName: Type.String(),
  state: ProjectState,
  createTime: Type.String({ format: 'date-time' }),
  updateTime: Type.String({ format: 'date-time' }),
  deleteTime: Type.Optional(Type.String({ format: 'date-time' })),
});
export type Project = Static<typeof Project>;

export const CreateProjectBody = Type.Object(
  {
    projectId: Type.Optional(ProjectId),
    displayName: Type.Optional(DisplayName),
  },
  { additionalProperties: false },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Type.Object({ displayName: Type.Optional(DisplayName) }, { additionalProperties: false });
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

export const ProjectList = Type.Object({
  projects: Type.Array(Project),
  nextPageToken: Type.Optional(Type.String()),
});
export type ProjectList = Static<typeof ProjectList>;

/** Path ids are only looked up (any string that is no project answers 404), so their schema only bounds length. */
export const ProjectParams = Type.Object({ project: Type.String({ maxLength: 200 }) });
export type ProjectParams = Static<typeof ProjectParams>;
