import { provideServerBundle } from './server-bundle-global.ts';

/** Global setup of the projects whose files start the server as a process (the crash, instance and config tests). */
export default provideServerBundle;
