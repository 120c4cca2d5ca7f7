/** A command line the admin command cannot run: printed with the usage, exit code 2. */
export class UsageError extends Error {}
