import { type Static, Type } from '@sinclair/typebox';

/** google.cloud.vision.v1.OperationMetadata as proto3 JSON, with Legible's page progress after Google's fields. */
export const OperationMetadata = Type.Object({
  '@type': Type.String(),
  state: Type.Union([Type.String(), Type.Integer()], {
    description: 'CREATED, RUNNING, DONE or CANCELLED (numbers with enum-encoding=int).',
  }),
  createTime: Type.String({ format: 'date-time' }),
  updateTime: Type.String({ format: 'date-time' }),
  pagesDone: Type.Optional(Type.Integer()),
  totalPages: Type.Optional(Type.Integer()),
});

/** A `google.longrunning.Operation` as proto3 JSON: `response` or `error` once `done`. */
export const Operation = Type.Object({
  name: Type.String({ examples: ['projects/demo/operations/op0123'] }),
  metadata: OperationMetadata,
  done: Type.Optional(Type.Boolean()),
  error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String() })),
  response: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Any, with its `@type`.' })),
});
export type Operation = Static<typeof Operation>;

/** One entry of the console's `GET /api/projects/{project}/operations`: the Operation and its job kind. */
export const ProjectOperation = Type.Intersect([
  Operation,
  Type.Object({ kind: Type.Union([Type.Literal('files'), Type.Literal('images')]) }),
]);
export type ProjectOperation = Static<typeof ProjectOperation>;

export const ProjectOperationList = Type.Object({ operations: Type.Array(ProjectOperation), nextPageToken: Type.Optional(Type.String()) });
export type ProjectOperationList = Static<typeof ProjectOperationList>;
