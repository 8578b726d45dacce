import type { ApiModule } from '../module.js';

// Routes of this module are added by its issue.
const routes: ApiModule = async () => {};
export default routes;
