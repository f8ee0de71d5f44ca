/** Published limit (API.md §5): the JSON body of any request. */
export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;
