import { assertDeclared } from '../lib/access.js';
import { declareErrorCodes } from '../lib/contract.js';
import { shared } from './shared.js';

/** Every API route's declarations checked and completed as it is added. Shared: its hooks must see every route of the app. */
export const routeDeclarations = shared('route-declarations', async (app) => {
  app.addHook('onRoute', assertDeclared);
  app.addHook('onRoute', declareErrorCodes);
});
