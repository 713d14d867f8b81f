/**
 * Tags: the labels a caller puts on calls (`tags` in a body) to group them in usage, the request log and budgets.
 * One pattern, shared by the input schema of every endpoint and by the filters that read tags back.
 */
export const TAG_PATTERN = '^[A-Za-z0-9_.:-]{1,50}$';
