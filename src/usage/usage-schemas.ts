import { Type, type Static } from '@sinclair/typebox';

const Day = (description: string) => Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(Day('First UTC day, inclusive (default: 29 days before `to`).')),
    to: Type.Optional(Day('Last UTC day, inclusive (default: today).')),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

export const UsageEntry = Type.Object({
  date: Type.String({ description: 'UTC day, `YYYY-MM-DD`.' }),
  api: Type.String({ examples: ['ocr'] }),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('client_error'), Type.Literal('server_error')], {
    description: '`ok`: 2xx; `client_error`: 4xx (invalid requests, rate limited); `server_error`: 5xx (overloaded, internal).',
  }),
  requests: Type.Integer({ description: 'HTTP requests answered.' }),
  images: Type.Integer({ description: 'Images (entries of `requests[]`) in those requests, including entries that failed on their own.' }),
});
export type UsageEntry = Static<typeof UsageEntry>;

export const UsageResponse = Type.Object({
  from: Type.String(),
  to: Type.String(),
  usage: Type.Array(UsageEntry, { description: 'Only days with traffic; sorted by date, api, outcome.' }),
});
export type UsageResponse = Static<typeof UsageResponse>;
