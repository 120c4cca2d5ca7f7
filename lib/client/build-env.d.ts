interface ImportMetaEnv {
  /** True in the popup's own build only (wxt.config.ts): its bundle leaves out what only the library pages use. */
  readonly SHELF_POPUP_BUILD?: true;
}
