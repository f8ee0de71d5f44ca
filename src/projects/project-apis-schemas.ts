import { Type, type Static } from '@sinclair/typebox';
import { ApiNameInAnswer, ApiNameSchema } from './api-catalog.ts';

/** An api of the catalog with its state on one project (API.md §2). */
export const ProjectApi = Type.Object({
  name: Type.String({ description: '`projects/{projectId}/apis/{api}`' }),
  api: Type.String(),
  title: Type.String(),
  state: Type.Union([Type.Literal('ENABLED'), Type.Literal('DISABLED')]),
  quota: Type.Object({ requestsPerMinute: Type.Integer() }),
  createTime: Type.Optional(Type.String({ format: 'date-time' })),
  updateTime: Type.Optional(Type.String({ format: 'date-time' })),
});
export type ProjectApi = Static<typeof ProjectApi>;

export const ProjectApiList = Type.Object({ apis: Type.Array(ProjectApi), nextPageToken: Type.Optional(Type.String()) });
export type ProjectApiList = Static<typeof ProjectApiList>;

export const CatalogApi = Type.Object({ api: ApiNameInAnswer, title: Type.String(), description: Type.String() });
export type CatalogApi = Static<typeof CatalogApi>;

export const Catalog = Type.Object({ apis: Type.Array(CatalogApi), nextPageToken: Type.Optional(Type.String()) });
export type Catalog = Static<typeof Catalog>;

export const EnableBody = Type.Object({ api: ApiNameSchema }, { additionalProperties: false });
export type EnableBody = Static<typeof EnableBody>;

export const ApiParams = Type.Object({ project: Type.String({ maxLength: 200 }), api: ApiNameSchema });
export type ApiParams = Static<typeof ApiParams>;

export const QuotaBody = Type.Object(
  {
    quota: Type.Object(
      {
        requestsPerMinute: Type.Integer({
          minimum: 1,
          maximum: 1_000_000,
          description: "The project's rate limit for this api, shared by all its keys and nodes.",
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type QuotaBody = Static<typeof QuotaBody>;
