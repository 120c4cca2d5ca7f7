/**
 * The options page's Duplicates section (options.html#duplicates). Its search starts as the section opens, from the
 * page's early script and from the background as the tab starts to load: both find the section by this name.
 */
export const DUPLICATES_SECTION = 'duplicates';
