/**
 * What the server creates under its data directory is readable by its own user
 * only: the database holds everyone's bookmarks, uploads are people's files.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
