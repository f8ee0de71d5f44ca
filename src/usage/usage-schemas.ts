import { Type, type Static } from '@sinclair/typebox';

const Day = (description: string) => Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(Day('First UTC day, inclusive (default: 29 days before `to`).')),
    to: Type.Optional(Day('Last UTC day, inclusive (default: today).')),
    groupBy: Type.Optional(
      Type.Literal('key', {
        description: '`key`: split every entry by the API key that made the requests (`key`), and add a per-key breakdown to `totals`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

const UsageKey = Type.String({
  description:
    'The API key id; `console` for the console playground (account token); `none` for requests without a key recorded (another credential, or counted before usage was kept per key).',
  examples: ['k-mhx3b2k0a4f9q2z7c1d', 'console', 'none'],
});

const HISTOGRAM =
  'Time to answer requests that read images (job starts and polls are not sampled), from a fixed ' +
  'histogram: each value is interpolated inside its bucket (bounds 10, 15, 20, 30, 50, 70 ms, ×10 per decade, up to 70 s; ' +
  'a value above that reads 70000).';

const latencyPercentiles = (of: string) =>
  Type.Object(
    {
      samples: Type.Integer({ description: 'Requests the percentiles are computed from.' }),
      p50Ms: Type.Integer({ description: 'Median, in milliseconds.' }),
      p95Ms: Type.Integer(),
      p99Ms: Type.Integer(),
    },
    { description: `${of} ${HISTOGRAM}` },
  );

export const UsageEntry = Type.Object({
  date: Type.String({ description: 'UTC day, `YYYY-MM-DD`.' }),
  api: Type.String({ examples: ['ocr'] }),
  key: Type.Optional(Type.String({ description: 'With `groupBy=key`: see `UsageTotal.key`.' })),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('client_error'), Type.Literal('server_error')], {
    description: '`ok`: 2xx; `client_error`: 4xx (invalid requests, rate limited); `server_error`: 5xx (overloaded, internal).',
  }),
  requests: Type.Integer({ description: 'HTTP requests answered.' }),
  images: Type.Integer({ description: 'Images (entries of `requests[]`) in those requests, including entries that failed on their own.' }),
  latency: Type.Optional(latencyPercentiles("This entry's requests (absent when none read images).")),
});

const Counts = {
  requests: Type.Integer(),
  images: Type.Integer(),
  errors: Type.Integer({ description: 'Requests answered 4xx or 5xx.' }),
  latency: Type.Optional(latencyPercentiles('Successful (2xx) requests only (absent when none read images).')),
};

export const UsageKeyTotal = Type.Object({
  key: UsageKey,
  displayName: Type.Optional(Type.String({ description: "The API key's display name (absent for `console` and `none`)." })),
  revoked: Type.Optional(Type.Boolean({ description: 'True for a revoked API key.' })),
  ...Counts,
});

export const UsageTotal = Type.Object({
  api: Type.String({ examples: ['ocr'] }),
  ...Counts,
  keys: Type.Optional(Type.Array(UsageKeyTotal, { description: 'With `groupBy=key`: the same per key, most requests first.' })),
});
export type UsageEntry = Static<typeof UsageEntry>;
export type UsageTotal = Static<typeof UsageTotal>;

export const UsageResponse = Type.Object({
  from: Type.String(),
  to: Type.String(),
  usage: Type.Array(UsageEntry, { description: 'Only days with traffic; sorted by date, api, (key,) outcome.' }),
  totals: Type.Array(UsageTotal, { description: 'Per api over the whole range (percentiles cannot be added up from `usage`).' }),
});
export type UsageResponse = Static<typeof UsageResponse>;
