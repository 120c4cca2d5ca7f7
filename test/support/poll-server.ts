/**
 * How tests poll the server for what the extension did. Each look is an API request, under the gateway's 60 a
 * minute for its address and the account's 120 a minute, the budget the extension's own requests for that account
 * come out of too: polled every 50 ms (the default of expect.poll and of testing-library's waitFor), a change that
 * came slowly used up the minute, and the looks, or the extension's own request they waited for, were refused
 * until it ended.
 */
export const POLL_SERVER = { timeout: 20_000, interval: 500 };
