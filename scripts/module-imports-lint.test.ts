import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The lint keeps a server module out of another's SQL and HTTP: it may call another module's
// service, never import its repo or routes (docs/decisions/028-the-transfer-in-one-home.md).

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The module-boundary refusals ESLint reports for `code` as a file of src/server/modules/x/. */
async function refusals(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}src/server/modules/x/service.ts` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('module boundaries (lint)', () => {
  it('refuses another module\'s repo, by relative path or alias', async () => {
    expect(await refusals("import { listTiers } from '../fees/repo.js';\nexport const a = listTiers;\n"))
      .toEqual([expect.stringContaining('never its repo or routes')]);
    expect(await refusals("import { findByOrder } from '@server/modules/transfers/repo.js';\nexport const a = findByOrder;\n"))
      .toEqual([expect.stringContaining('never its repo or routes')]);
  });

  it('refuses another module\'s routes and its other SQL files', async () => {
    expect(await refusals("import routes from '../fees/routes.js';\nexport const a = routes;\n")).toHaveLength(1);
    expect(await refusals("import { x } from '../mail/outbox-repo.js';\nexport const a = x;\n")).toHaveLength(1);
  });

  it('lets a module use another module\'s service and its own repo', async () => {
    expect(await refusals("import { priceTransfer } from '../fees/service.js';\nimport { x } from './repo.js';\nexport const a = [priceTransfer, x];\n"))
      .toEqual([]);
  });
}, 60_000);
