import { ClientError } from '../../lib/client/errors.ts';

/** Past this wait (the account's day spent, say) the error stays on screen: the user acts, or comes back later. */
const LONGEST_WAIT_SECONDS = 120;
/** Asked a little after the slot frees up, not at the very millisecond. */
export const MARGIN_MS = 250;
const MAX_RETRIES = 5;

/** Refused unsent by the background to keep within the request budget, with when there is room again. */
export const waitsForBudget = (error: unknown): error is ClientError & { retryAfterSeconds: number } =>
  error instanceof ClientError && error.code === 'RATE_LIMITED' && error.retryAfterSeconds !== undefined && error.retryAfterSeconds <= LONGEST_WAIT_SECONDS;

/**
 * Query options for what the user browses: a request refused for the budget
 * (scrolling quickly through a long list, a panel opened right after a sign-in's
 * sync spent the minute) is asked again once there is room, instead of leaving
 * the error on screen for good. Meanwhile the query's failureReason says why it waits.
 */
export const budgetRetry = {
  retry: (failures: number, error: unknown) => failures < MAX_RETRIES && waitsForBudget(error),
  retryDelay: (_failures: number, error: unknown) => (waitsForBudget(error) ? error.retryAfterSeconds * 1000 + MARGIN_MS : 0),
};
